"""Which places have their count in for a gaming day: what the nightly close asks for, and what a
blind count hides until then.

A place's count is *in* when the day has a count slip of it after its last movement of the day.
A tip payout takes the whole pool out (T&C 2.6): nothing is left in it to count, so for the tip
pool only the tips put in since its count matter.

Read-only, and a fixed number of queries (three) however big the day is.
"""

from dataclasses import dataclass

from django.db.models import Max, OuterRef, Subquery

from cage.models import Account, Posting, Slip
from cage.selectors.openers import openers_of_day
from cage.selectors.places import places_of_kind
from cage.slip_types import CLOSERS, COUNTS, TIP_PAYOUTS
from core.compiled import Compiled
from core.reading import read_once
from events.models import GameTable, GamingDay, Role
from events.selectors import tables_of

# The places the nightly reconciliation counts; a table's count is its closer.
COUNTED = (Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK, Account.Kind.RUNNER, Account.Kind.TIP_POOL)
# The places the day cannot close without (runners are brought back to zero instead).
MUST_COUNT = (Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK, Account.Kind.TIP_POOL)
# Movements after which nothing is left to count.
EMPTIES = {Account.Kind.TIP_POOL: set(TIP_PAYOUTS)}


@dataclass(frozen=True)
class CountState:
    account: Account
    moved: bool  # the place moved this day (other than by a count, or a payout that empties it)
    counted: bool  # a count of it this day after its last movement
    # The slip type of the last movement, when the place was counted this day before it: the
    # count is to be taken again, and this is why.
    moved_after_count: str | None = None
    # The id of the day's last count slip of it, if any (standing or not).
    last_count: int | None = None

    @property
    def due(self) -> bool:
        """The close waits for this count: the place moved and has not been counted since."""
        return self.moved and not self.counted


# A day's last count of each counted place, compiled once (core.compiled): the cage home and its
# refresh ask it every few seconds. The places by their kind: a day's slips are its event's, so
# these are the event's counted places; read from the day's count slips, which are few.
_LAST_COUNTS = Compiled(
    lambda day_id: (
        Slip.objects.filter(day_id=day_id, slip_type__in=COUNTS, account__kind__in=COUNTED)
        .values("account_id")
        .annotate(last=Max("id"))
        .values_list("account_id", "last")
    )
)


def _moves_of_place(day_id: int):
    """A counted place's postings of the day that are movements, the latest first: not a count, nor,
    for the tip pool, a payout that takes the whole pool out (EMPTIES)."""
    moves = Posting.objects.filter(account=OuterRef("pk"), day_id=day_id).exclude(slip__slip_type__in=COUNTS)
    for kind, empties in EMPTIES.items():
        moves = moves.exclude(account__kind=kind, slip__slip_type__in=empties)
    return moves.order_by("-slip_id")


# Each counted place's last movement of the day, and its slip type. Asked place by place from the
# postings' index by place, day and slip (cage_posting_last_move), read from the latest back to the
# first that is a movement: one entry for a place that moved lately, where the whole day's slips and
# their postings were read (8 ms on a season's day of 5,000 slips, for the cage home's refresh).
_LAST_MOVES = Compiled(
    lambda day_id, event_id: (
        Account.objects.filter(event_id=event_id, kind__in=COUNTED)
        .annotate(
            last=Subquery(_moves_of_place(day_id).values("slip_id")[:1]),
            last_type=Subquery(_moves_of_place(day_id).values("slip__slip_type")[:1]),
        )
        .filter(last__isnull=False)
        .values_list("pk", "last_type", "last")
    )
)


@read_once
def count_states(day: GamingDay) -> dict[str, CountState]:
    """{account code: CountState} for every counted place of the event that has an account (once
    per page: core.reading)."""
    accounts = places_of_kind(day.event_id, COUNTED)
    last_count = dict(_LAST_COUNTS.rows(day.pk))
    # account id -> (last slip id, its type)
    last_move = {
        account_id: (last, slip_type) for account_id, slip_type, last in _LAST_MOVES.rows(day.pk, day.event_id)
    }
    states = {}
    for account in accounts:
        counted_at = last_count.get(account.id)
        moved_at, moved_by = last_move.get(account.id, (None, None))
        counted = counted_at is not None and (moved_at is None or counted_at > moved_at)
        states[account.code] = CountState(
            account=account,
            moved=moved_at is not None,
            counted=counted,
            moved_after_count=moved_by if counted_at is not None and not counted else None,
            last_count=counted_at,
        )
    return states


# Who may read a place's books before it is counted: the DRIC, who approves the close with every
# figure in front of her, and the auditor, who reads the books; neither counts a place. Everyone
# else at the cage counts, or verifies a count (the cashiers), so is kept blind (counter=True).
SEE_THE_BOOKS = (Role.DRIC, Role.AUDITOR)


def counts_places(roles) -> bool:
    """Whether a reader holding `roles` (role codes) is one of those who count the places, whose
    pages keep an uncounted place's expected figure from them while the floor runs (blind_places)."""
    return not set(roles) & set(SEE_THE_BOOKS)


def blind_places(
    day: GamingDay | None, states: dict[str, CountState] | None = None, *, counter: bool = False
) -> set[str]:
    """The places whose book balance no page shows yet: while the day reconciles, every counted
    place (bank cash, the chip bank, each runner, the tip pool) until its count is in. The count
    form then shows expected and counted side by side. Empty once the day is closed.

    `counter`: the page is read by one of those who count (counts_places): for them the places the
    close must count (bank cash, the chip bank, the tip pool) are blind on an open day too, from the
    opening until a count of the place after its last movement, so a count taken before the floor
    closes (a day may close from open) is as blind as one after; a place that has not moved today
    holds what its last count left, and shows. Runners are not: the Chip Cashier
    brings them back to zero by their returns during play, from what they hold. For the DRIC and
    the auditor an open day hides nothing.
    `states`: count_states(day), when the caller has it already."""
    if day is None or day.status == GamingDay.Status.OPEN and not counter:
        return set()
    if day.status not in (GamingDay.Status.OPEN, GamingDay.Status.RECONCILING):
        return set()
    states = count_states(day) if states is None else states
    places = {Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK, Account.Kind.TIP_POOL}
    if day.status == GamingDay.Status.OPEN:
        # Until a place moves today, its books are what its last count left: nothing to hide.
        return {code for code in places if code in states and states[code].due}
    places |= runners_to_count(day, states)
    return {code for code in places if not (code in states and states[code].counted)}


def runners_to_count(day: GamingDay, states: dict[str, CountState]) -> set[str]:
    """The runners' places the nightly close asks to count: a runner on the day's roster, or one
    whose holdings moved or were counted that day (a runner holds nothing overnight: the close
    brings each back to zero), not every runner the event ever had. One query."""
    rostered = day.event.people.filter(shifts__day=day, shifts__role=Role.RUNNER).values_list("code", flat=True)
    places = {f"{Account.Kind.RUNNER}:{code}" for code in rostered}
    return places | {
        code
        for code, state in states.items()
        if state.account.kind == Account.Kind.RUNNER and (state.moved or state.last_count)
    }


# The places whose expected balance the day's totals give away: sales and redemptions move bank
# cash and the chip bank; openers, fills, credits, trays and patrons' chips are what the chip
# bank's chips are not; deposits leave bank cash; tips go into the tip pool.
BOOKS = (Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK, Account.Kind.TIP_POOL)


def books_blind(day: GamingDay | None) -> set[str]:
    """Of bank cash, the chip bank and the tip pool, those still counted blind (blind_places) that
    have something to count this day: while any is left, no page shows the day's totals either
    (sales, redemptions, trays, fills and credits, win, patrons' chips, deposits), since with the
    chips and cash the event holds they give the expected balance away. A place that did not move
    this day holds nothing back: the close does not wait for its count (cage.services.day)."""
    if day is None or day.status != GamingDay.Status.RECONCILING:
        return set()
    states = count_states(day)
    hidden = blind_places(day, states)
    return {code for code in BOOKS if code in hidden and code in states and states[code].moved}


def awaiting_opener(day: GamingDay | None) -> set[str]:
    """The trays ("table:BJ-1") of the tables still to open on a day in setup or open: closed on an
    earlier day, with no opener yet that day. The opener is counted blind against the last closer
    (DESIGN: gaming day), so no page shows what such a tray holds until its opener is in; a day in
    setup has no opener yet, and its openers are the ones who must not see the last closer's
    figures. One query, and none once every table is open or has opened today (the day's openers
    and the tables are read once per page)."""
    if day is None or day.status not in (GamingDay.Status.SETUP, GamingDay.Status.OPEN):
        return set()
    opened = openers_of_day(day.pk)
    closed = {t.pk: t.code for t in tables_of(day.event_id) if t.state == GameTable.State.CLOSED and t.pk not in opened}
    if not closed:
        return set()  # every table is open, or has opened today: nothing more to ask
    # Only a table that closed on an earlier day: a first opening starts from what was issued to
    # it today, which its issue slip says anyway (cage.services.openers.closer_check).
    closed_before = Slip.objects.filter(
        event_id=day.event_id, slip_type__in=CLOSERS, day__date__lt=day.date, table_id__in=closed
    ).values_list("table_id", flat=True)
    return {f"{Account.Kind.TABLE}:{closed[pk]}" for pk in set(closed_before)}


def nothing_to_count(day: GamingDay, code: str) -> bool:
    """The place did not move this day and was not counted: the close says so, rather than that
    it was counted (the tip pool of a day without tips)."""
    state = count_states(day).get(code)
    return state is None or not (state.moved or state.counted)


def standing_counts(day: GamingDay, states: dict[str, CountState] | None = None) -> dict[str, Slip]:
    """{account code: its count slip} for each place whose count of the day stands (no movement of
    it since), with the signatures read: what the close lists as done, and the count form shows.
    It is the counter's own count, not the books, so a blind day shows it (two queries)."""
    states = count_states(day) if states is None else states
    ids = {state.last_count: code for code, state in states.items() if state.counted}
    slips = Slip.objects.filter(pk__in=ids).select_related("account__person").with_signers()
    return {ids[slip.pk]: slip for slip in slips}


def earlier_variances(day: GamingDay, standing: dict[str, Slip]) -> dict[str, int]:
    """{account code: cents} the day's earlier counts of each place posted to over/short, before its
    standing count (voided counts aside): a recount's expected is the books after them, so the
    place's day reads expected as before any count, and its over/short net for the day, as the
    summary and the variance report do (a −$5 then a +$5 is one miscount). One query."""
    ids = {slip.pk: code for code, slip in standing.items()}
    earlier = (
        Slip.objects.filter(day=day, slip_type__in=COUNTS, account__code__in=ids.values())
        .standing()
        .values_list("account__code", "id", "details")
    )
    last = {code: pk for pk, code in ids.items()}
    totals: dict[str, int] = {}
    for code, pk, details in earlier:
        if pk < last[code]:
            amount = sum(v["amount"] for v in (details or {}).get("variances") or [])
            totals[code] = totals.get(code, 0) + amount
    return totals


@dataclass(frozen=True)
class CountedLine:
    """One instrument of a recorded count: what the books expected, what was counted, and the
    difference (counted − expected, in cents). Read from the count slip itself."""

    what: str  # "cash", "chips:5"
    denomination_cents: int | None  # a chip's value; None for cash
    expected: int
    counted: int

    @property
    def variance(self) -> int:
        return self.counted - self.expected

    @property
    def expected_count(self) -> int | None:
        return None if self.denomination_cents is None else self.expected // self.denomination_cents

    @property
    def counted_count(self) -> int | None:
        return None if self.denomination_cents is None else self.counted // self.denomination_cents


def counted_lines(slip: Slip, values: dict[str, int]) -> list[CountedLine]:
    """Expected and counted per instrument of a recorded count, from its slip (its chips, its cash
    and its variances: expected = counted − variance). Shown only once the count is recorded: the
    books may be seen then (books_blind). `values`: {denomination key: cents}."""
    details = slip.details or {}
    chips = details.get("chips") or {}
    variance = {v["instrument"]: v["amount"] for v in details.get("variances") or []}
    lines = []
    for key, cents in values.items():
        counted = chips.get(key, 0) * cents
        diff = variance.get(f"chips:{key}", 0)
        if counted or diff:
            lines.append(CountedLine(f"chips:{key}", cents, counted - diff, counted))
    cash = details.get("cash")
    if cash is not None or "cash" in variance:
        counted = cash or 0
        lines.append(CountedLine("cash", None, counted - variance.get("cash", 0), counted))
    return lines
