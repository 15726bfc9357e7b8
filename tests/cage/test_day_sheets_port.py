"""The cage shows the daily sheets at its close through a port the reports app fills
(cage.day_sheets): the cage imports no report, and a close never goes without its figures."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from cage import day_sheets
from reports import daily


def test_the_reports_app_registers_its_sheets():
    assert day_sheets._reader == {"day_figures": daily.day_figures, "expense_sheet": daily.expense_sheet}


def test_without_a_reader_the_close_refuses_to_show_nothing(monkeypatch):
    monkeypatch.setattr(day_sheets, "_reader", {})
    with pytest.raises(ImproperlyConfigured, match="no reader of the day's sheets"):
        day_sheets.day_figures(None, close=True)
    with pytest.raises(ImproperlyConfigured, match="expense_sheet"):
        day_sheets.expense_sheet(None)
