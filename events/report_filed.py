"""Whether the event's financial report is filed: a port the reports app fills.

Once the certified report is filed with the licensing authority (reports.filing), what it covers
stands as filed: the trust account it names, the bank deposit slips and the cheques it lists are no
longer corrected, so the filed figures' digest stays the figures' own. Their writers lie in events
and the cage, below the reports, so they ask here, and the reports app registers its reader when it
is ready (reports.apps.ReportsConfig.ready), as it does for the cage's day sheets (cage.day_sheets).
With no reader registered the check raises: a correction let through unchecked would be worse.
"""

import datetime
from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_noop as N_

from core.rules import Day, RuleViolation, Words

RULE = "T&C 2.7"

# filed_on(event) -> the date the report was filed, or None; set once by the reports app.
_reader: dict[str, Callable] = {}


def register(*, filed_on: Callable) -> None:
    _reader["filed_on"] = filed_on


def filed_on(event) -> datetime.date | None:
    try:
        return _reader["filed_on"](event)
    except KeyError:
        raise ImproperlyConfigured(
            "no reader of the report's filing is registered: is the reports app in INSTALLED_APPS?"
        ) from None


def check_not_filed(event, what: Words) -> None:
    """Refuses a change to `what` (words such as "the cheque of Expense 2") once the report is filed."""
    on = filed_on(event)
    if on is None:
        return
    raise RuleViolation(
        Words(
            N_(
                "the financial report was filed on %(date)s: no entry or correction is taken for %(what)s any "
                "more, so what was filed stands"
            ),
            date=Day(on),
            what=what,
        ),
        RULE,
        code="filing.records_fixed",
    )
