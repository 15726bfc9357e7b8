"""CSV that no spreadsheet runs: every export of the product writes through `writer`.

A cell that begins with "=", "+", "-", "@", a tab or a carriage return is read by a spreadsheet as
a formula or a DDE call (CSV injection). Such a cell is written with a leading apostrophe, which
spreadsheets show as text. A plain number ("-70.00", "-3") is left alone: a spreadsheet reads it
as the number it is, and the report's figures must stay numbers.
"""

import csv
import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def neutralise(cell) -> str:
    text = "" if cell is None else str(cell)
    if text.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


class _SafeWriter:
    def __init__(self, out):
        self._writer = csv.writer(out, lineterminator="\n")

    def writerow(self, row):
        return self._writer.writerow([neutralise(cell) for cell in row])

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


def writer(out) -> _SafeWriter:
    """A csv.writer over `out` whose every cell is neutralised."""
    return _SafeWriter(out)
