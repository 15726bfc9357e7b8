"""The financial report's state and its signatures (T&C 2.7).

Until every gaming day of the event is closed the report is a draft and nobody signs it. Then
each of the three designated persons signs it from their own session; each signature keeps a
digest of the figures it covers, so a later correction shows.
"""

import hashlib
import json
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import ngettext

from audit import services as audit
from cage.selectors.bank_slips import cash_at_the_cage, expenses_by_cheque, trust_reconciliation
from core.money import dollars
from core.rules import RuleViolation, Words, listed
from events.access import ROLE_NAMES
from events.designation import check_not_administrator, designated_role
from events.models import DESIGNATED, Event, GamingDay, Person

from .figures import event_figures
from .models import ReportSignature
from .names import day_shown

RULE = "T&C 2.7"


def figures_digest(figures: dict) -> str:
    """SHA-256 of the cage-report/1 figures, written canonically (sorted keys, no spaces)."""
    text = json.dumps(figures, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class ReportState:
    """What the report is now: draft or final, who signed, whether the figures moved since."""

    event: Event
    digest: str
    days: list[GamingDay]
    open_days: list[GamingDay]
    designated: dict[str, list[Person]]
    # The latest signature of each designated role, in the order DRIC, GC, CC.
    signatures: dict[str, ReportSignature] = field(default_factory=dict)

    @property
    def draft(self) -> bool:
        return not self.days or bool(self.open_days)

    @property
    def stale(self) -> list[ReportSignature]:
        """Signatures given to figures that have changed since."""
        return [s for s in self.signatures.values() if s.figures_digest != self.digest]

    @property
    def certified(self) -> bool:
        return not self.draft and len(self.signatures) == len(DESIGNATED) and not self.stale

    def draft_reason(self) -> str:
        if not self.days:
            return _("the event has no gaming day yet")
        return _("gaming days still open: %(dates)s") % {"dates": ", ".join(day_shown(d.date) for d in self.open_days)}

    def stale_note(self) -> str:
        """The changed-after-signing note, or "" when every signature covers these figures."""
        if not self.stale:
            return ""
        return ngettext(
            "The figures changed after the report was signed by %(signers)s: that signature does not cover "
            "the figures shown here; it is given again.",
            "The figures changed after the report was signed by %(signers)s: those signatures do not cover "
            "the figures shown here; each signs again.",
            len(self.stale),
        ) % {
            "signers": listed(
                _("%(name)s (%(role)s, %(date)s)")
                % {
                    "name": s.person.name,
                    "role": ROLE_NAMES[s.role],
                    "date": day_shown(timezone.localtime(s.signed_at).date()),
                }
                for s in self.stale
            )
        }


def report_state(event: Event, figures: dict | None = None) -> ReportState:
    figures = event_figures(event) if figures is None else figures
    days = list(event.days.all())
    designated = {role: [] for role in DESIGNATED}
    for person in event.people.filter(assignments__role__in=DESIGNATED).prefetch_related("assignments"):
        for role in DESIGNATED:
            if role in person.role_codes():
                designated[role].append(person)
    signatures = {}
    for signature in ReportSignature.objects.filter(event=event).select_related("person"):
        signatures[signature.role] = signature  # ordered by time: the latest wins
    return ReportState(
        event=event,
        digest=figures_digest(figures),
        days=days,
        open_days=[d for d in days if d.status != GamingDay.Status.CLOSED],
        designated=designated,
        signatures={role: signatures[role] for role in DESIGNATED if role in signatures},
    )


def report_sign(*, event: Event, person: Person | None) -> ReportSignature:
    """The person certifies the financial report as it stands now. Refused while a gaming day is
    open, to anyone but the DRIC, the General Cashier and the Chip Cashier of this event, and to
    someone whose signature already covers these figures."""
    with transaction.atomic():
        # Lock the event's row so two signatures of one person cannot both pass the check.
        event = Event.objects.select_for_update().get(pk=event.pk)
        if person is not None and person.event_id != event.id:
            person = None
        role = designated_role(person)
        if person is not None:
            check_not_administrator(person)
        if role is None:
            raise RuleViolation(
                Words(
                    N_(
                        "only the event's designated persons sign the financial report: the DRIC, the General Cashier "
                        "and the Chip Cashier"
                    )
                ),
                RULE,
                code="report.not_designated",
            )
        figures = event_figures(event)
        state = report_state(event, figures)
        if state.draft:
            raise RuleViolation(
                Words(
                    N_("the financial report is a draft until every gaming day is closed; %(reason)s"),
                    reason=state.draft_reason(),
                ),
                RULE,
                code="report.draft",
            )
        mine = ReportSignature.objects.filter(event=event, person=person, figures_digest=state.digest).first()
        if mine is not None:
            raise RuleViolation(
                Words(
                    N_("%(name)s already signed the financial report on %(date)s"),
                    name=person.name,
                    date=day_shown(timezone.localtime(mine.signed_at).date()),
                ),
                RULE,
                code="report.already_signed",
            )
        signature = ReportSignature.objects.create(
            event=event, person=person, role=role, signed_at=timezone.now(), figures_digest=state.digest
        )
        audit.record(
            "report_signed",
            N_("%(name)s signed the financial report as %(role)s"),
            {"name": person.name, "role": str(ROLE_NAMES[role])},
            event=event,
            about=person,
            new={"role": role, "figures_digest": state.digest},
        )
        return signature


# --- the trust account, for the reconciliation -------------------------------------------------


def reconciliation(event: Event, figures: dict) -> dict:
    """Net proceeds against what reached the trust account, in cents, with the difference explained.

    The trust account received the deposits and paid the floats and the expenses; the net
    proceeds should equal that, plus cash still held at the cage (bank cash, runners) not yet
    deposited.
    """
    # As the trust account's page and section D read them: one reading of the cage's standing slips.
    account = trust_reconciliation(event)
    deposits, floats = account.deposits, account.floats
    expenses = sum(line.cents for line in expenses_by_cheque(event))
    net_trust = deposits - floats - expenses
    held = cash_at_the_cage(event)
    net = cents_of(figures["event_totals"]["net_proceeds"])
    return {
        "deposits": deposits,
        "floats": floats,
        "expenses": expenses,
        "net_trust": net_trust,
        "net_proceeds": net,
        "difference": net - net_trust,
        "held": held,
    }


def cents_of(text: str) -> int:
    sign = -1 if text.startswith("-") else 1
    whole, part = text.lstrip("-").split(".")
    return sign * (int(whole) * 100 + int(part))


def net_proceeds_lines(totals: dict) -> list[tuple[str, int]]:
    """How net proceeds is derived from the win, as (label, cents) lines ending with it: what the
    financial report's section D prints and the report page shows, from the same event totals."""
    return [
        (_("Win"), cents_of(totals["win"])),
        (_("plus chips outstanding"), cents_of(totals["chips_outstanding"])),
        (_("plus cash over/short"), cents_of(totals["cash_over_short"])),
        (_("less expenses"), -cents_of(totals["expenses"])),
        (_("Net proceeds"), cents_of(totals["net_proceeds"])),
    ]


def bank_reconciliation_lines(account) -> list[tuple[str, int | None]]:
    """The trust account's bank reconciliation (cage.selectors.bank_slips.trust_reconciliation) as
    (label, cents) lines ending with the balance its statement must show; None where the opening
    balance is not entered. What the trust account's page and the report's section D print."""
    return [
        (_("Opening balance of the trust account"), account.opening),
        (_("less floats paid to the cage"), -account.floats),
        (_("plus deposits from the cage"), account.deposits),
        (_("less cheques paying expenses"), -(account.cheques - account.disbursed)),
        (_("less cheques for the approved purposes"), -account.disbursed),
        (_("Balance the trust account must show"), account.balance),
    ]


def proceeds_use_lines(net_proceeds: int, disbursed: int) -> list[tuple[str, int]]:
    """What was done with the net proceeds: the cheques for the purposes the licence approved, and
    what remains to use, as (label, cents) lines ending with it (the report page and section D)."""
    return [
        (_("Net proceeds"), net_proceeds),
        (_("less used for the approved purposes"), -disbursed),
        (_("Net proceeds still to use"), net_proceeds - disbursed),
    ]


def difference_words(rec: dict) -> str:
    """The reconciliation's difference named in words."""
    difference, held = rec["difference"], rec["held"]
    if difference == 0:
        return _(
            "No difference: the deposits, less the floats and the expenses paid from the trust account, equal "
            "the net proceeds."
        )
    if difference > 0:
        lead = _("The deposits fall short of the net proceeds by %(amount)s") % {"amount": dollars(difference)}
    else:
        lead = _("The deposits exceed the net proceeds by %(amount)s") % {"amount": dollars(-difference)}
    parts = []
    if held:
        parts.append(
            _("%(amount)s is cash still held at the cage (bank cash and runners), not yet deposited")
            % {"amount": dollars(held)}
        )
    unexplained = difference - held
    if unexplained:
        parts.append(
            _("%(amount)s is not explained by the cage's records and must be accounted for")
            % {"amount": dollars(unexplained)}
        )
    return _("%(lead)s: %(parts)s.") % {"lead": lead, "parts": listed(parts)}
