"""Dates and times as people read them, in the active language: Django's localized formats
(config/formats), never a fixed English pattern. Machine files (cage-records, cage-report, CSV)
keep ISO dates and do not use these.

    moment(at)   "2026-09-11 14:30"            "2026-09-11 14 h 30"
    clock(at)    "14:30"                       "14 h 30"
    day(date)    "2026-09-11"                  "2026-09-11"
    weekday(d)   "Friday, 2026-09-11"          "vendredi 2026-09-11"
"""

import datetime

from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import pgettext


def _local(at):
    return timezone.localtime(at) if isinstance(at, datetime.datetime) and timezone.is_aware(at) else at


def moment(at: datetime.datetime) -> str:
    """An aware date-time, in the event's local time: date and time."""
    return date_format(_local(at), "SHORT_DATETIME_FORMAT")


def clock(at: datetime.datetime | datetime.time) -> str:
    """The time of day alone (local time for an aware date-time)."""
    return time_format(_local(at), "TIME_FORMAT")


def day(date: datetime.date) -> str:
    """A gaming day's date, short."""
    return date_format(date, "SHORT_DATE_FORMAT")


def weekday(date: datetime.date) -> str:
    """A gaming day with its weekday, which helps at a fair that runs several days."""
    return pgettext("weekday and date", "%(weekday)s, %(date)s") % {
        "weekday": date_format(date, "l"),
        "date": day(date),
    }
