"""The reports' PDF layout: column widths from what the cells say (no word is ever broken), and
the page furniture (page numbers, what the document is, a draft's stamp) of every page.

reportlab breaks a word that does not fit its column in the middle ("Redemp / tions"). Every
cell is a Paragraph, which wraps at the spaces between words; each column is made at least as
wide as its longest word (plus the cell's padding), and whatever room is left goes to the columns
whose text would otherwise wrap, in proportion to how much more they would take on one line.
"""

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas
from reportlab.platypus import Paragraph

RED = colors.HexColor("#b42318")

# A Table cell's padding, left and right (reportlab's default, 6 pt each), and a point of slack
# for the rounding of text widths.
PADDING = 12.0
SLACK = 1.0


def _natural(cell: Paragraph) -> float:
    """The cell's width with its text on one line."""
    cell.wrap(1e6, 1e6)
    return max(cell.getActualLineWidths0(), default=0.0)


def word_widths(rows: list[list]) -> tuple[list[float], list[float]]:
    """(least, most) for each column: its longest word, its longest text on one line, each with
    the cell's padding. Cells that are not Paragraphs (empty strings, drawings) ask for nothing."""
    columns = max(len(row) for row in rows)
    least = [PADDING + SLACK] * columns
    most = [PADDING + SLACK] * columns
    for row in rows:
        for i, cell in enumerate(row):
            if isinstance(cell, Paragraph):
                least[i] = max(least[i], cell.minWidth() + PADDING + SLACK)
                most[i] = max(most[i], _natural(cell) + PADDING + SLACK)
    return least, most


def _squeezed(widths: list[float], available: float) -> list[float]:
    """Last resort, for a word longer than the page is wide: the columns scaled to the page."""
    total = sum(widths)
    return widths if total <= available else [w * available / total for w in widths]


def content_widths(rows: list[list], available: float) -> list[float]:
    """Widths for a table laid out from its content within `available` points."""
    least, most = word_widths(rows)
    if sum(most) <= available:
        return most
    spare = available - sum(least)
    if spare <= 0:
        return _squeezed(least, available)
    # The room left is shared out from the column that needs least more to fit on one line: each
    # is given all it asks while that is no more than an equal share of what is left, so a short
    # name ("Rita Okafor") stays whole and the long texts share the rest in proportion.
    room = [m - n for m, n in zip(most, least, strict=True)]
    widths = list(least)
    waiting = sorted(range(len(room)), key=lambda i: room[i])
    while waiting and room[waiting[0]] <= spare / len(waiting):
        i = waiting.pop(0)
        widths[i] += room[i]
        spare -= room[i]
    total = sum(room[i] for i in waiting)
    for i in waiting:
        widths[i] += room[i] * spare / total
    return widths


def words_whole(rows: list[list], widths: list[float], available: float) -> list[float]:
    """The widths a table was designed with, each widened to its longest word where it is too
    narrow; the room is taken from the columns that have some to spare, so that the table keeps
    its designed width, and never runs wider than `available`."""
    least, _most = word_widths(rows)
    wanted = [max(w, n) for w, n in zip(widths, least, strict=True)]
    over = sum(wanted) - min(sum(widths), available)
    if over > 0:
        slack = [w - n for w, n in zip(wanted, least, strict=True)]
        total = sum(slack)
        if total > 0:
            take = min(over, total)
            wanted = [w - s * take / total for w, s in zip(wanted, slack, strict=True)]
    return _squeezed(wanted, available)


def page_canvas(*, draft: str, generated: str):
    """A canvas class that, once the page count is known, prints on every page "page N of M" and
    the `generated` line (what the document is, and when it was made) and, for a draft, a DRAFT
    header and stamp: the financial report and the daily control sheets."""

    class PageCanvas(canvas.Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._pages = []

        def showPage(self):
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            total = len(self._pages)
            for number, page in enumerate(self._pages, start=1):
                self.__dict__.update(page)
                self._decorate(number, total)
                super().showPage()
            super().save()

        def _decorate(self, number, total):
            width, height = self._pagesize  # portrait or landscape, as the document is laid out
            self.saveState()
            self.setFont("Helvetica", 8)
            self.setFillColor(colors.HexColor("#52606d"))
            self.drawString(0.7 * inch, 0.45 * inch, generated)
            self.drawRightString(
                width - 0.7 * inch, 0.45 * inch, _("page %(page)s of %(pages)s") % {"page": number, "pages": total}
            )
            if draft:
                self.setFillColor(RED)
                self.setFont("Helvetica-Bold", 11)
                stamp = _("DRAFT")
                self.drawString(0.7 * inch, height - 0.45 * inch, stamp)
                self.setFont("Helvetica", 8)
                after = 0.7 * inch + stringWidth(stamp, "Helvetica-Bold", 11) + 0.15 * inch
                self.drawString(after, height - 0.45 * inch, draft)
                self.setFillAlpha(0.12)
                # as large as the page's diagonal allows, whatever the word's length in the language
                size = min(110, 0.8 * (width**2 + height**2) ** 0.5 / stringWidth(stamp, "Helvetica-Bold", 1))
                self.setFont("Helvetica-Bold", size)
                self.translate(width / 2, height / 2)
                self.rotate(40)
                self.drawCentredString(0, -size * 0.36, stamp)
            self.restoreState()

    return PageCanvas
