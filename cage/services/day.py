"""The nightly close: reconcile, check, approve, lock."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.utils.translation import gettext_noop as N_

from audit import services as audit
from cage.models import Account, OpenerSignOff, Slip
from cage.selectors.counts import MUST_COUNT, count_states
from cage.selectors.four_eyes import given_to_acknowledge
from cage.selectors.openers import check_text, closer_check_of, waiting_sign_off
from cage.selectors.paper import unaccounted_problems
from cage.selectors.places import places_of_kind
from cage.selectors.slips import pending_slips
from cage.slip_types import DAY_CLOSE_KIND, SLIP_KINDS, TIP_PAYOUTS
from core.rules import RuleViolation, Words
from events.models import GamingDay
from events.services import appointment_text

from . import links
from .day_slips import nothing_waits
from .day_totals import write_day_totals
from .ledger import account_label, atomic_slip, balances, check_signatures, lock_day, open_tables, post_slip
from .openers import opener_sign_off

# What a records file's close_day asks to be counted (cage-records/1: "bank cash and chip bank were
# counted after their last movement"): the format has no count of the tip pool, so a day closed
# from a records file closes as the format says; at the window the tip pool is counted too.
RECORDS_FILE_COUNTS = (Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK)


def _waiting_problems(event, day: GamingDay, waiting: tuple | None) -> list[str]:
    """A line per slip still waiting, and one for the rest. `waiting`: (the latest waiting slips,
    how many more), when the caller has read them already (the cage home's panel lists the same
    ones); else every slip waiting."""
    if waiting is None:
        # An import's day whose slips were all written signed in full has none waiting: known
        # without the query (cage.services.day_slips).
        waiting = ([] if nothing_waits(day) else pending_slips(event, day=day)), 0
    items, more = waiting
    # The words for what a slip still needs, said once per slip type and capacities missing: the
    # cage home says them on every refresh for each slip its panel lists, most of them alike.
    needs: dict[tuple, str] = {}
    lines = []
    for item in items:
        key = (item.slip.slip_type, *(c.code for c in item.missing))
        if key not in needs:
            needs[key] = ", ".join(
                _("%(capacity)s (%(roles)s)") % {"capacity": str(c.label).lower(), "roles": c.roles_label()}
                for c in item.missing
            )
        lines.append(
            _("%(slip)s (%(state)s) still needs %(missing)s")
            % {"slip": item.slip.number, "state": str(item.state_label).lower(), "missing": needs[key]}
        )
    if more > 0:
        lines.append(
            ngettext(
                "and %(n)s more slip still waiting for a signature (the DRIC's queue lists them all)",
                "and %(n)s more slips still waiting for a signature (the DRIC's queue lists them all)",
                more,
            )
            % {"n": more}
        )
    return lines


def _tables_open(codes: list[str]) -> str:
    return _("tables still open: %(tables)s") % {"tables": ", ".join(codes)}


def floor_problems(day: GamingDay, still_open: list[str], waiting: tuple) -> list[str]:
    """While tables are open the floor cannot close: the open tables and the slips waiting (the
    latest, and how many more) are what stands in the way now. The rest of the close's checklist
    (runners at zero, counts, paper books, sign-offs) is the close page's, and is read once the
    tables have closed, not on every refresh of the window."""
    return [_tables_open(still_open), *_waiting_problems(day.event, day, waiting)]


def close_problems(day: GamingDay, *, records_file: bool = False, waiting: tuple | None = None) -> list[str]:
    """What stands between the day and its close; empty when it may close. `records_file`: the
    close of a day read from a records file (cage-records/1), which says what it needs.
    `waiting`: the latest waiting slips and how many more, as the cage home's panel read them (the
    home names only those, bounded whatever the number waiting); else every slip waiting."""
    event = day.event
    problems = []
    still_open = open_tables(event)
    if still_open:
        problems.append(_tables_open(still_open))
    runners = places_of_kind(event.pk, (Account.Kind.RUNNER,))
    held = balances(runners)
    for runner in runners:
        if any(held.get(runner.id, {}).values()):
            problems.append(_("%(place)s still holds chips or cash") % {"place": account_label(runner)})
    problems += _waiting_problems(event, day, waiting)
    for slip in waiting_sign_off(event, day=day):
        problems.append(
            _("%(slip)s (table %(table)s) %(check)s; the DRIC signs it off from her queue")
            % {"slip": slip.number, "table": slip.table.code, "check": check_text(closer_check_of(slip))}
        )
    for item in given_to_acknowledge(event, day=day):
        appointment = item.appointment
        problems.append(
            ngettext(
                "%(name)s was given %(given)s during the day and signed %(n)s slip; a second designated person "
                "acknowledges it on the DRIC's queue",
                "%(name)s was given %(given)s during the day and signed %(n)s slips; a second designated person "
                "acknowledges it on the DRIC's queue",
                item.signed,
            )
            % {"name": appointment.person.name, "given": appointment_text(appointment), "n": item.signed}
        )
    if not records_file:
        # Every paper serial of a book the day used is accounted for (DESIGN: when the network or
        # the power fails); a records file carries entered paper slips, not the books.
        problems += unaccounted_problems(day)
    for state in count_states(day).values():
        kind = state.account.kind
        if kind not in MUST_COUNT or not state.due or (records_file and kind not in RECORDS_FILE_COUNTS):
            continue
        if kind == Account.Kind.TIP_POOL:
            problems.append(_("the tip pool has not been counted since the last tips were put in"))
        elif state.moved_after_count:
            problems.append(recount_text(state))
        else:
            problems.append(
                _("%(place)s has not been counted since its last movement") % {"place": account_label(state.account)}
            )
    return problems


def recount_text(state) -> str:
    """Which count is to be taken again, and why: the place moved after it was counted."""
    place = account_label(state.account)
    if state.moved_after_count in TIP_PAYOUTS:
        if state.account.kind == Account.Kind.BANK_CASH:
            return _(
                "%(place)s is to be counted again: the tip payout after its count paid the dealers' shares "
                "out of it (T&C 2.6)"
            ) % {"place": place}
        if state.account.kind == Account.Kind.CHIP_BANK:
            return _(
                "%(place)s is to be counted again: the tip payout after its count put the tip pool's chips "
                "into it (T&C 2.6)"
            ) % {"place": place}
    return _("%(place)s is to be counted again: a %(slip)s after its count moved it") % {
        "place": place,
        "slip": str(SLIP_KINDS[state.moved_after_count].label).lower(),
    }


@atomic_slip
def day_reconcile(*, day: GamingDay) -> GamingDay:
    """Start the nightly close: the floor is closed, so every table must be closed first."""
    day = lock_day(day, exclusive=True)
    still_open = open_tables(day.event)
    if still_open:
        raise RuleViolation(
            Words(N_("tables still open: %(tables)s"), tables=", ".join(still_open)),
            gettext_lazy("gaming day: every table closed before reconciling"),
            code="day.tables_open",
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
def close_day(*, day: GamingDay, signed, records_file: bool = False, **meta) -> Slip:
    """Close and lock the gaming day, once reconciled; prepared by the GC, verified by the CC and
    approved by the DRIC (T&C 2: reviewing and approving the control sheets and daily win).
    `records_file`: a close_day record of a records file (see close_problems), whose DRIC's
    approval also signs off the day's openers that differ from the last closers."""
    # The day to itself: every slip being written finishes first, and none starts until it is closed.
    day = lock_day(day, allowed=(GamingDay.Status.OPEN, GamingDay.Status.RECONCILING), exclusive=True)
    # Who signs comes first: a close approved by the wrong person is refused for that, whatever
    # else stands in the way.
    check_signatures(day.event, DAY_CLOSE_KIND.type, signed, day=day, at=meta.get("at"))
    if records_file:
        # cage-records/1 has no record of a sign-off: the DRIC who approves the day's close in the
        # file approves its openers' differences with it (T&C 2: she approves the control sheets).
        for slip in waiting_sign_off(day.event, day=day):
            opener_sign_off(
                slip=slip, person=signed["approved_by"], at=meta.get("at"), via=OpenerSignOff.Via.RECORDS_FILE
            )
    problems = close_problems(day, records_file=records_file)
    if problems:
        raise RuleViolation(
            Words(N_("the day cannot close: %(problems)s"), problems="; ".join(problems)),
            gettext_lazy("nightly reconciliation"),
            code="day.cannot_close",
        )
    slip = post_slip(
        day=day,
        slip_type=DAY_CLOSE_KIND.type,
        signed=signed,
        legs=[],
        **meta,
    )
    day.status = GamingDay.Status.CLOSED
    day.save(update_fields=["status"])
    # The day's totals with its seal, in the same transaction: a sealed day's balances are read
    # from its totals from now on (cage.selectors.places.balances_read).
    write_day_totals(day)
    links.seal(day)
    return slip
