"""The financial report's due date, as the licence sets it (T&C 2.7); its filing, and the reminder
as the date nears, are the report's (reports.filing)."""

import datetime

from django.utils.translation import gettext_noop as N_

from core.rules import Day, RuleViolation, Words
from core.trail import record

from .models import Event, Person

RULE = "T&C 2.7"


def check_report_due(due_on: datetime.date | None, last_day: datetime.date) -> None:
    """The report falls due after the event: never before its last day."""
    if due_on is not None and due_on < last_day:
        raise RuleViolation(
            Words(
                N_("the financial report falls due after the event: %(date)s is before its last day, %(last)s"),
                date=Day(due_on),
                last=Day(last_day),
            ),
            RULE,
            field="report_due_on",
            code="filing.due_before_the_end",
        )


def report_due_set(*, event: Event, due_on: datetime.date | None, by: Person | None = None) -> Event:
    """The report's due date as the licence sets it (by the DRIC, or the administrator when `by`
    is None); never before the event's last day."""
    check_report_due(due_on, event.last_day)
    old = event.report_due_on
    Event.objects.filter(pk=event.pk).update(report_due_on=due_on)
    event.report_due_on = due_on
    record(
        "report_due_set",
        N_("Financial report due on %(date)s"),
        {"date": due_on.isoformat() if due_on else "-"},
        event=event,
        about=by,
        old={"report_due_on": old},
        new={"report_due_on": due_on},
    )
    return event
