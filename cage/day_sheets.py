"""The day's figures and sheets as the cage's close page and close slip show them: a port the
reports fill.

The nightly close is the cage's (cage.views.day_close, the day-close slip), but the figures it is
approved with (each table's win, the variances, the deposits, the tips and the cage's
accountability) are the daily sheets', which lie above the cage since they read it. So the cage asks
here, and the reports app registers its reader when it is ready (reports.apps.ReportsConfig.ready),
as the audit app registers its writer with core.trail. With no reader registered the call raises:
a close approved without its figures would be no close.
"""

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured

# {"day_figures": ..., "expense_sheet": ...}, set once by the reports app.
_reader: dict[str, Callable] = {}


def register(*, day_figures: Callable, expense_sheet: Callable) -> None:
    """`day_figures(day, close=False, counter=False)`: the day's figures and sheets (reports.daily.day_figures);
    `expense_sheet(day)`: the day's expenses as a sheet."""
    _reader.update(day_figures=day_figures, expense_sheet=expense_sheet)


def _read_by(name: str) -> Callable:
    try:
        return _reader[name]
    except KeyError:
        raise ImproperlyConfigured(
            f"no reader of the day's sheets is registered for {name}: is the reports app in INSTALLED_APPS?"
        ) from None


def day_figures(day, *, close: bool = False, counter: bool = False) -> dict:
    """`counter`: read by one of those who count the places (cage.selectors.counts.blind_places)."""
    return _read_by("day_figures")(day, close=close, counter=counter)


def expense_sheet(day):
    return _read_by("expense_sheet")(day)
