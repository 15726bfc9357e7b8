"""The nightly close: reconcile, check, approve, lock."""

from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

from audit import services as audit
from cage.models import Account, Posting, Slip, SlipType
from cage.selectors.slips import pending_slips
from events.models import GameTable, GamingDay
from events.rules import RuleViolation

from .ledger import account_label, atomic_slip, balances, lock_day, post_slip


def close_problems(day: GamingDay) -> list[str]:
    """What stands between the day and its close; empty when it may close."""
    event = day.event
    problems = []
    open_tables = list(event.tables.filter(state=GameTable.State.OPEN).values_list("code", flat=True))
    if open_tables:
        problems.append(f"tables still open: {', '.join(open_tables)}")
    runners = list(Account.objects.filter(event=event, kind=Account.Kind.RUNNER).select_related("person"))
    held = balances(runners)
    for runner in runners:
        if any(held.get(runner.id, {}).values()):
            problems.append(f"{account_label(runner)} still holds chips or cash")
    for item in pending_slips(event, day=day):
        problems.append(
            _("%(slip)s (%(state)s) still needs %(missing)s")
            % {
                "slip": item.slip.number,
                "state": str(item.state_label).lower(),
                "missing": ", ".join(
                    _("%(capacity)s (%(roles)s)") % {"capacity": str(c.label).lower(), "roles": c.roles_label()}
                    for c in item.missing
                ),
            }
        )
    for kind in (Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK):
        account = Account.objects.filter(event=event, kind=kind).first()
        if account is None:
            continue
        last_count = Slip.objects.filter(day=day, slip_type=SlipType.COUNT, account=account).aggregate(m=Max("id"))["m"]
        last_move = (
            Posting.objects.filter(account=account, slip__day=day)
            .exclude(slip__slip_type=SlipType.COUNT)
            .aggregate(m=Max("slip_id"))["m"]
        )
        if last_move is not None and (last_count is None or last_count < last_move):
            problems.append(f"{account_label(account)} has not been counted since its last movement")
    return problems


@atomic_slip
def day_reconcile(*, day: GamingDay) -> GamingDay:
    """Start the nightly close: the floor is closed, so every table must be closed first."""
    day = lock_day(day)
    open_tables = list(day.event.tables.filter(state=GameTable.State.OPEN).values_list("code", flat=True))
    if open_tables:
        raise RuleViolation(
            f"tables still open: {', '.join(open_tables)}", "gaming day: every table closed before reconciling"
        )
    before = day.status
    day.status = GamingDay.Status.RECONCILING
    day.save(update_fields=["status"])
    audit.record(
        "day_reconciling",
        N_("Floor closed on %(date)s: the nightly reconciliation starts"),
        {"date": day.date.isoformat()},
        event=day.event_id,
        old={"status": before},
        new={"status": day.status},
    )
    return day


@atomic_slip
def close_day(*, day: GamingDay, signed, **meta) -> Slip:
    """Close and lock the gaming day, once reconciled; prepared by the GC, verified by the CC and
    approved by the DRIC (T&C 2: reviewing and approving the control sheets and daily win)."""
    day = lock_day(day, allowed=(GamingDay.Status.OPEN, GamingDay.Status.RECONCILING))
    problems = close_problems(day)
    if problems:
        raise RuleViolation("the day cannot close: " + "; ".join(problems), "nightly reconciliation")
    slip = post_slip(
        day=day,
        slip_type=SlipType.CLOSE_DAY,
        signed=signed,
        legs=[],
        **meta,
    )
    day.status = GamingDay.Status.CLOSED
    day.save(update_fields=["status"])
    return slip
