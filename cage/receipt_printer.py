"""A slip sent straight to a receipt printer on the cage's network: ESC/POS over TCP (python-escpos).

What it prints is the receipt's own lines (cage.receipt.receipt_lines), as text 42 columns wide
(font A on 80 mm paper; a printer of 48 columns leaves a margin), with the QR code made by the
printer itself (GS ( k) and a cut. The whole receipt is made first, then sent in one write: a
printer that does not answer prints nothing rather than half a slip.

The server connects only to the printers the site declares (settings.RECEIPT_PRINTERS), by name.
"""

import logging
import textwrap

from django.conf import settings
from escpos.constants import QR_ECLEVEL_M
from escpos.exceptions import DeviceNotFoundError
from escpos.printer import Dummy, Network

from cage import receipt
from cage.receipt import Line
from cage.slip_pdf import named

log = logging.getLogger(__name__)

COLUMNS = 42
WIDE = COLUMNS // 2  # double-width text
# How long a printer has to take the connection and the receipt: a few seconds, so that the
# cashier hears at once that it did not answer, and prints from the browser instead.
TIMEOUT_SECONDS = 4.0
# Characters no printer's code page has, as the nearest that prints.
PLAIN = str.maketrans({"\u202f": "\u00a0", "\u2011": "-", "\u2212": "-", "\u2009": " "})


class PrinterDidNotAnswer(Exception):
    def __init__(self, name: str, address: str):
        super().__init__(f"receipt printer {name} did not answer at {address}")
        self.name = name
        self.address = address


def send(name: str, data: bytes) -> None:
    """Send the receipt to the declared printer `name`; PrinterDidNotAnswer if it does not take it
    within TIMEOUT_SECONDS."""
    host, port = settings.RECEIPT_PRINTERS[name]
    printer = Network(host, port, timeout=TIMEOUT_SECONDS)
    try:
        printer.open()
        # The whole receipt in one write (python-escpos's raw output: its commands are already in it).
        printer._raw(data)
    except (DeviceNotFoundError, OSError) as exc:
        log.warning("receipt printer %s at %s:%s did not answer: %s", name, host, port, exc)
        raise PrinterDidNotAnswer(name, f"{host}:{port}") from exc
    finally:
        printer.close()


def receipt_bytes(sheet: dict) -> bytes:
    """The slip as ESC/POS: the printer reset, the receipt's lines, the QR code and a cut."""
    out = Dummy()  # collects the commands; the default profile is font A, 42 columns
    out.hw("INIT")
    for line in receipt.receipt_lines(sheet):
        WRITERS.get(line.kind, _text)(out, line)
    out.set_with_default()
    out.cut()
    return out.output


def _wrap(text: str, width: int = COLUMNS, indent: str = "") -> list[str]:
    """Text in lines of `width` columns, broken at spaces only ("re-keyed" stays whole)."""
    plain = str(text).translate(PLAIN)
    return textwrap.wrap(plain, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _write(out, text: str, *, bold=False, align="left", indent="") -> None:
    out.set_with_default(align=align, bold=bold)
    out.text("\n".join(_wrap(text, indent=indent)) + "\n")


def _text(out, line: Line) -> None:
    _write(out, line.text, bold=line.strong or line.kind in (receipt.EVENT, receipt.STATE, receipt.SUBHEADING))


def _heading(out, line: Line) -> None:
    out.text("\n")
    _write(out, line.text, bold=True)


def _title(out, line: Line) -> None:
    out.text("\n")
    out.set_with_default(bold=True, double_width=True, double_height=True)
    out.text("\n".join(_wrap(line.text, WIDE)) + "\n")


def _stamp(out, line: Line) -> None:
    # A stamp is a box of its own: between two rules, its word large, white on black.
    out.set_with_default(align="center", bold=True)
    out.text("=" * COLUMNS + "\n")
    # Double width for a word (REPRINT, VOID), double height only for a sentence, so it keeps to a line.
    wide = len(line.text) <= WIDE - 2
    out.set_with_default(align="center", bold=True, double_width=wide, double_height=True, invert=True)
    out.text("\n".join(f" {part} " for part in _wrap(line.text, (WIDE if wide else COLUMNS) - 2)) + "\n")
    for detail in line.cells:
        _write(out, detail, bold=True, align="center")
    out.set_with_default(align="center", bold=True)
    out.text("=" * COLUMNS + "\n")


def _beside(left: str, right: str, width: int = COLUMNS) -> str:
    """A label and its figure on one line, the figure flush right; on two if they do not fit."""
    left, right = left.translate(PLAIN), right.translate(PLAIN)
    if len(left) + 1 + len(right) <= width:
        return left + " " * (width - len(left) - len(right)) + right
    return "\n".join([*_wrap(left, width), right.rjust(width)])


def _pair(out, line: Line) -> None:
    out.set_with_default(bold=line.strong)
    out.text(_beside(line.text, line.cells[0]) + "\n")


def _fact(out, line: Line) -> None:
    _write(out, named(line.text, line.cells[0]), indent="  ")


def _piece(out, line: Line) -> None:
    # Label, count and value in columns of 22, 8 and 12; a long label goes on over the next lines.
    strong = line.kind != receipt.PIECE
    if line.kind == receipt.PIECES_TOTAL:
        out.set_with_default()
        out.text("-" * COLUMNS + "\n")
    out.set_with_default(bold=strong)
    count, value = (cell.translate(PLAIN) for cell in line.cells)
    label = _wrap(line.text, 21)
    out.text("\n".join([f"{label[0]:<22}{count:>8}{value:>12}", *label[1:]]) + "\n")
    if line.kind == receipt.PIECES_HEAD:
        out.set_with_default()
        out.text("-" * COLUMNS + "\n")


def _total(out, line: Line) -> None:
    out.text("\n")
    out.set_with_default(bold=True, double_height=True)
    out.text(_beside(line.text, line.cells[0]) + "\n")


def _pen(out, line: Line) -> None:
    # Room for a pen: two blank lines, the line to write on, and what goes on it underneath.
    out.set_with_default()
    out.text("\n\n" + "_" * COLUMNS + "\n")
    _write(out, line.text, bold=line.strong)


def _qr(out, line: Line) -> None:
    out.text("\n")
    out.set_with_default(align="center")
    # Drawn by the printer (GS ( k), 6 dots a module: about 25 mm wide at 203 dpi.
    out.qr(line.text, ec=QR_ECLEVEL_M, size=6, native=True)
    out.text("\n")
    _write(out, line.cells[0], align="center")


def _rule(out, _line: Line) -> None:
    out.set_with_default()
    out.text("-" * COLUMNS + "\n")


WRITERS = {
    receipt.STAMP: _stamp,
    receipt.TITLE: _title,
    receipt.HEADING: _heading,
    receipt.FACT: _fact,
    receipt.PAIR: _pair,
    receipt.PIECES_HEAD: _piece,
    receipt.PIECE: _piece,
    receipt.PIECES_TOTAL: _piece,
    receipt.TOTAL: _total,
    receipt.PEN: _pen,
    receipt.QR: _qr,
    receipt.RULE: _rule,
}
