"""Every CSV export neutralises cells a spreadsheet would run as formulas (CSV injection)."""

import csv
import io

import pytest

from events import csv_safe


@pytest.mark.parametrize(
    "cell",
    ['=HYPERLINK("http://x")', "+1+1", "-2+3+cmd|' /C calc'!A0", "@SUM(A1)", "\tx", "\rx", "-", "-1e3"],
)
def test_formula_cells_are_written_as_text(cell):
    assert csv_safe.neutralise(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-70.00", "-3", "150.00", "0", "Ann Lee", "table BJ-1", ""])
def test_plain_numbers_and_words_are_left_alone(cell):
    assert csv_safe.neutralise(cell) == cell


def test_writer_neutralises_every_cell_of_a_row():
    out = io.StringIO()
    csv_safe.writer(out).writerows([["=1+2", -70, None, "-12.50"], ["ok", "@x", 3, "+"]])
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows == [["'=1+2", "-70", "", "-12.50"], ["ok", "'@x", "3", "'+"]]
