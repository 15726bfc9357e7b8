"""A QR code as SVG markup for a page, from reportlab's own QR encoder (the one the printed slips
use). One path of dark squares with a quiet zone around it; colours are attributes, not style, so
the page's Content-Security-Policy lets it through inline."""

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

QUIET = 4  # modules of blank border the standard asks for around the code


def qr_svg(data: str, label: str, size_px: int = 220) -> SafeString:
    # reportlab is loaded by the pages that draw, not at start-up (tests/test_startup.py).
    from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel

    code = QRCode(None, QRErrorCorrectLevel.M)
    code.addData(data)
    code.make()
    count = code.getModuleCount()
    squares = "".join(
        f"M{column + QUIET} {row + QUIET}h1v1h-1z"
        for row in range(count)
        for column in range(count)
        if code.isDark(row, column)
    )
    side = count + 2 * QUIET
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" width="{size_px}" '
        f'height="{size_px}" role="img" aria-label="{escape(label)}" shape-rendering="crispEdges">'
        f'<rect width="{side}" height="{side}" fill="#fff"/><path d="{squares}" fill="#000"/></svg>'
    )
