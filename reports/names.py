"""The report's figures as people read them: the public cage-report/1 keeps its codes
("table:WOF-1", "chips:5"), the page and the PDF say "table WOF-1" and "$5 chips"; dates and times
in the reader's language ("19:05", "19 h 05"), by Django's localized formats."""

import datetime
from decimal import Decimal

from django.utils import timezone
from django.utils.formats import date_format, number_format, time_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cage.models import Account
from cage.services.ledger import account_label, chips_label
from events import games


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
    return date_format(value, "SHORT_DATE_FORMAT")


def _local(value: datetime.datetime) -> datetime.datetime:
    return value if timezone.is_naive(value) else timezone.localtime(value)


def clock(value: datetime.datetime) -> str:
    """The time of day in the reader's form: "19:05", "19 h 05"."""
    return time_format(_local(value), "TIME_FORMAT")


def moment(value: datetime.datetime) -> str:
    """A date and time in the reader's short form: "2026-09-11 19:05", "2026-09-11 19 h 05"."""
    return date_format(_local(value), "SHORT_DATETIME_FORMAT")


def hours_shown(value: Decimal | str) -> str:
    """Hours worked, in their shortest form with the reader's decimal mark: "2.5", "2,5"."""
    return number_format(Decimal(value).normalize())


def game_name(code: str) -> str:
    """A game by its name in the reader's language: "Roue de la fortune", "Wheel of Fortune"."""
    return games.get_game(code).name(get_language())
