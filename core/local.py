"""Dates and times as people read them, in the active language: Django's localized formats
(config/formats), never a fixed English pattern. The product's one set of writers: cage, events,
reports and audit all use these. A date is written one way, in titles and sentences as in tables:
all-numeric, year first, the Canadian standard (CAN/CSA-Z234.4), alike in both languages. Machine
files (cage-records, cage-report, the CSV's ISO column) keep ISO dates and do not use these.

    moment(at)     "2026-09-11 14:30"            "2026-09-11 14 h 30"
    clock(at)      "14:30"                       "14 h 30"
    day(date)      "2026-09-11"                  "2026-09-11"
    weekday(d)     "Friday, 2026-09-11"          "vendredi 2026-09-11"
    zone_name(at)  "EST"                         "HNE"
"""

import datetime

from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import pgettext, pgettext_lazy


def _local(at):
    return timezone.localtime(at) if isinstance(at, datetime.datetime) and timezone.is_aware(at) else at


def moment(at: datetime.datetime | datetime.date) -> str:
    """An aware date-time, in the event's local time, to the minute: date and time. A date alone
    is written as a day."""
    if not isinstance(at, datetime.datetime):
        return day(at)
    return date_format(_local(at), "SHORT_DATETIME_FORMAT")


def clock(at: datetime.datetime | datetime.time) -> str:
    """The time of day alone, to the minute (local time for an aware date-time)."""
    return time_format(_local(at), "TIME_FORMAT")


def day(date: datetime.date) -> str:
    """A date, as every page, slip, sheet and message writes one."""
    return date_format(date, "SHORT_DATE_FORMAT")


def weekday(date: datetime.date) -> str:
    """A gaming day with its weekday, which helps at a fair that runs several days."""
    return pgettext("weekday and date", "%(weekday)s, %(date)s") % {
        "weekday": date_format(date, "l"),
        "date": day(date),
    }


# The abbreviations of Canada's time zones as the reader's language writes them (the database of
# time zones gives the English ones only): "HNE" is French for EST.
ZONE_NAMES = {
    "NST": pgettext_lazy("time zone", "NST"),
    "NDT": pgettext_lazy("time zone", "NDT"),
    "AST": pgettext_lazy("time zone", "AST"),
    "ADT": pgettext_lazy("time zone", "ADT"),
    "EST": pgettext_lazy("time zone", "EST"),
    "EDT": pgettext_lazy("time zone", "EDT"),
    "CST": pgettext_lazy("time zone", "CST"),
    "CDT": pgettext_lazy("time zone", "CDT"),
    "MST": pgettext_lazy("time zone", "MST"),
    "MDT": pgettext_lazy("time zone", "MDT"),
    "PST": pgettext_lazy("time zone", "PST"),
    "PDT": pgettext_lazy("time zone", "PDT"),
}


def zone_name(at: datetime.datetime) -> str:
    """The time zone's abbreviation at that moment, in the reader's language ("EST" / "HNE")."""
    english = _local(at).strftime("%Z") if isinstance(at, datetime.datetime) else ""
    return str(ZONE_NAMES.get(english, english))
