"""Column widths for the reports' PDF tables, from what the cells say: no word is ever broken.

reportlab breaks a word that does not fit its column in the middle ("Redemp / tions"). Every
cell is a Paragraph, which wraps at the spaces between words; each column is made at least as
wide as its longest word (plus the cell's padding), and whatever room is left goes to the columns
whose text would otherwise wrap, in proportion to how much more they would take on one line.
"""

from reportlab.platypus import Paragraph

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
