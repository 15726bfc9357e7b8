"""The financial report's filing with the licensing authority (T&C 2.7): its due date, as the
licence sets it, and its state: a draft while a gaming day is open, signed as the designated persons
sign it, certified once the three have, filed once one of them records the date it was sent. Its
due date is the event's own (events.report_due).

A certified report is filed only when nothing it must carry is missing: the trust account named
with its opening balance, an approved purpose, no cash left at the cage undeposited, every deposit confirmed by its bank slip and every expense paid by a cheque entered
(cage.selectors.bank_slips). The event's page reminds
the DRIC as the due date nears (`reminder`, shown by reports/templatetags/report_filing.py)."""

import datetime
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy, ngettext
from django.utils.translation import gettext_noop as N_

from cage.selectors.bank_slips import cash_at_the_cage, deposits_to_the_bank, expenses_by_cheque
from cage.slip_types import SLIP_KINDS
from core import local
from core.rules import Day, Money, RuleViolation, Several, Words
from core.trail import record
from events.designation import check_not_administrator, designated_role
from events.models import ApprovedPurpose, Event, Person

from .models import ReportFiling
from .services import RULE, ReportState, report_state


@dataclass
class Filing:
    """Where the report stands on its way to the licensing authority."""

    state: str  # draft, signing, certified, filed
    # What keeps a certified report from being filed, as sentences (empty: nothing).
    missing: list[str] = field(default_factory=list)
    filed: ReportFiling | None = None

    @property
    def label(self) -> str:
        return str(STATES[self.state])

    @property
    def days_late(self) -> int:
        """How many days after its due date the report was filed (0: on time, or no due date)."""
        if self.filed is None or self.filed.event.report_due_on is None:
            return 0
        return max((self.filed.filed_on - self.filed.event.report_due_on).days, 0)


STATES = {
    "draft": gettext_lazy("Draft"),
    "signing": gettext_lazy("Being signed"),
    "certified": gettext_lazy("Certified, not filed yet"),
    "filed": gettext_lazy("Filed"),
}


def filed(event: Event) -> ReportFiling | None:
    return ReportFiling.objects.filter(event=event).select_related("filed_by").first()


def filed_on(event: Event) -> datetime.date | None:
    return ReportFiling.objects.filter(event=event).values_list("filed_on", flat=True).first()


def filing(event: Event, state: ReportState) -> Filing:
    done = filed(event)
    if done is not None:
        return Filing("filed", filed=done)
    name = "draft" if state.draft else "certified" if state.certified else "signing"
    return Filing(name, [str(w) for w in missing(event)])


def with_filing(event: Event, figures: dict) -> dict:
    """The report JSON as it leaves the product: the figures, and beside them, once the event has a
    due date or is filed, where its filing stands (an extension, docs/cage-records-extensions.md).
    Not part of the figures the designated persons sign: filing the report changes no figure."""
    done = filed(event)
    if event.report_due_on is None and done is None:
        return figures
    now = filing(event, report_state(event, figures))
    return figures | {
        "filing": {
            "state": now.state,
            "due_on": event.report_due_on.isoformat() if event.report_due_on else None,
            "filed_on": done.filed_on.isoformat() if done else None,
            "filed_by": done.filed_by.code if done else None,
        }
    }


def missing(event: Event) -> list[Words]:
    """What keeps the report from being filed, as words (empty: nothing): the trust account's page
    lists the same on the report page."""
    missing = []
    if not event.trust_bank:
        missing.append(Words(N_("the trust account is not named")))
    if event.trust_opening_balance is None:
        missing.append(Words(N_("the trust account's opening balance is not entered")))
    if not ApprovedPurpose.objects.filter(event=event).exists():
        missing.append(Words(N_("no charitable purpose the licence approved is entered")))
    held = cash_at_the_cage(event)
    if held:
        missing.append(
            Words(N_("cash still held at the cage, not deposited to the trust account: %(amount)s"), amount=Money(held))
        )
    unconfirmed = [line.slip for line in deposits_to_the_bank(event) if not line.confirmed]
    if unconfirmed:
        missing.append(
            Words(
                N_("deposits not yet confirmed by their bank slips: %(slips)s"),
                slips=Several(*(Several(SLIP_KINDS[s.slip_type].label, s.serial) for s in unconfirmed), sep=", "),
            )
        )
    unpaid = [line.slip for line in expenses_by_cheque(event) if line.cheque is None]
    if unpaid:
        missing.append(
            Words(
                N_("expenses without the cheque that pays them: %(slips)s"),
                slips=Several(*(Several(SLIP_KINDS[s.slip_type].label, s.serial) for s in unpaid), sep=", "),
            )
        )
    return missing


def report_file(*, event: Event, person: Person | None, filed_on: datetime.date) -> ReportFiling:
    """A designated person records that the certified report was filed with the licensing
    authority on `filed_on`. Refused: anyone else, a report not certified or already filed, a
    report missing what it must carry (filing), and a date before it was certified or to come."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        state = report_state(event)
        if person is not None:
            check_not_administrator(person)
        if designated_role(person) is None:
            raise RuleViolation(
                Words(N_("a designated person of the event records the financial report's filing")),
                RULE,
                code="filing.not_designated",
            )
        _check_fileable(event, state)
        certified_on = max(timezone.localtime(s.signed_at).date() for s in state.signatures.values())
        if not certified_on <= filed_on <= timezone.localdate():
            raise RuleViolation(
                Words(
                    N_(
                        "%(date)s is not a filing date of this report: it is filed on or after the day it was "
                        "certified (%(certified)s), and not after today (%(today)s)"
                    ),
                    date=Day(filed_on),
                    certified=Day(certified_on),
                    today=Day(timezone.localdate()),
                ),
                RULE,
                field="filed_on",
                code="filing.date",
            )
        done = ReportFiling.objects.create(
            event=event, filed_on=filed_on, filed_by=person, recorded_at=timezone.now(), figures_digest=state.digest
        )
        record(
            "report_filed",
            N_("Financial report filed with the licensing authority on %(date)s"),
            {"date": filed_on.isoformat()},
            event=event,
            about=person,
            new={"filed_on": filed_on, "figures_digest": state.digest},
        )
        return done


def _check_fileable(event: Event, state: ReportState) -> None:
    done = filed(event)
    if done is not None:
        raise RuleViolation(
            Words(N_("the financial report was already filed on %(date)s"), date=Day(done.filed_on)),
            RULE,
            code="filing.already_filed",
        )
    if not state.certified:
        raise RuleViolation(
            Words(N_("only a certified report is filed: the three designated persons sign it first")),
            RULE,
            code="filing.not_certified",
        )
    wanting = missing(event)
    if wanting:
        raise RuleViolation(
            Words(
                N_("the report cannot be filed yet: %(missing)s"),
                missing=Several(*wanting, sep="; "),
            ),
            RULE,
            code="filing.incomplete",
        )


# How long before its due date the report's filing is asked for on the event's page.
REMINDED_WITHIN = datetime.timedelta(days=14)


def reminder(event: Event, today: datetime.date | None = None) -> str:
    """The event page's reminder of a report not filed as its due date nears or passes ("" when
    none is due yet, it is filed, or the date is further than REMINDED_WITHIN)."""
    due = event.report_due_on
    if due is None:
        return ""
    days = (due - (today or timezone.localdate())).days
    if days > REMINDED_WITHIN.days or filed(event) is not None:
        return ""
    if days < 0:
        return ngettext(
            "The financial report was due on %(date)s and is not filed: %(n)s day late.",
            "The financial report was due on %(date)s and is not filed: %(n)s days late.",
            -days,
        ) % {"date": local.day(due), "n": -days}
    return ngettext(
        "The financial report is due on %(date)s, in %(n)s day, and is not filed yet.",
        "The financial report is due on %(date)s, in %(n)s days, and is not filed yet.",
        days,
    ) % {"date": local.day(due), "n": days}
