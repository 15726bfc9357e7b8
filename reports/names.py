"""The report's figures as people read them: the public cage-report/1 keeps its codes
("table:WOF-1", "chips:5"), the page and the PDF say "table WOF-1" and "$5 chips"; dates and times
in the reader's language ("19:05", "19 h 05"), by Django's localized formats."""

import datetime

from django.utils.translation import gettext as _

from cage.models import Account
from cage.services.ledger import account_label, chips_label
from core import local


def place_names(event) -> dict[str, str]:
    """{account code: the place's name} for the event's accounts, in one query."""
    accounts = Account.objects.filter(event=event).select_related("person", "table")
    return {a.code: account_label(a) for a in accounts}


def instrument_name(code: str) -> str:
    if code == "cash":
        return _("cash")
    return chips_label(code.split(":", 1)[1]) if code.startswith("chips:") else code


def named_variances(event, variances: list[dict], notes: list[dict]) -> list[dict]:
    """The variances with `place` and `chips_or_cash` as people name them, beside the codes, and
    `reason` and `details` as reports.figures.report_figures reads them (one note per variance)."""
    places = place_names(event)
    return [
        {
            **v,
            "place": places.get(v["account"], v["account"]),
            "chips_or_cash": instrument_name(v["instrument"]),
            "reason": note["reason"],
            "details": note["details"],
        }
        for v, note in zip(variances, notes, strict=True)
    ]


def day_shown(value: datetime.date | str) -> str:
    """A date (or the reports' ISO text of one) in the reader's short form: 2026-09-11 in both
    languages today, since Canada writes it so in English and in French."""
    if isinstance(value, str):
        value = datetime.date.fromisoformat(value)
    return local.day(value)
