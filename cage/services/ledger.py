"""The ledger's core: accounts, balances, signatures, serials and posting one balanced slip.

Every record type in cage.services.slips goes through `post_slip`, so the checks below apply to
the web pages and the records importer alike.
"""

import datetime
import functools
import reprlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from cage.models import Account, NotSignedInFull, Posting, Signature, SignedInFull, Slip, SlipCounter
from cage.selectors.handovers import custodians, handed_over, takeovers
from cage.selectors.paper import waiting_count as paper_waiting
from cage.selectors.places import balances_read, held_together, own_places, together
from cage.services import day_slips, links, running_totals, trail
from cage.services import memo as remembered
from cage.slip_fields import HandedPlace
from cage.slip_types import HANDOVERS, SALES, SLIP_KINDS, SlipKind, types_that
from core.compiled import Compiled, Insert
from core.money import AMOUNT_LIMITS_RULE, MAX_CHIP_COUNT, count_text, face
from core.reading import settled_facts
from core.rules import Clock, Day, Face, Lower, Money, N_plural, Rule, RuleViolation, When, Words
from events.designation import check_not_administrator, check_takes_part
from events.models import DESIGNATED, ChipDenomination, Event, GameTable, GamingDay, Person, Role
from events.roster import Rostered, rostered
from events.selectors import chip_set, tables_of

CASH = None  # the instrument key for cash; chips are keyed by their ChipDenomination

# The product's own rules, named in the reader's language (core.rules.RuleViolation).
RECORDS_FORMAT = "cage-records/1"  # the format's name reads the same in both languages
SIGNATURES = gettext_lazy("slips and signatures")
CHIP_COUNT = gettext_lazy("chip count")
STEPS = gettext_lazy("custody: chips move when they change hands")

# Who signs what, read from the one declaration of each slip type: {slip type: {capacity: roles}}.
CAPACITIES: dict[str, dict[str, tuple[str, ...]]] = {
    t: {c.code: c.roles for c in kind.capacities} for t, kind in SLIP_KINDS.items()
}


class DuplicateRequest(Exception):
    """The same form was posted twice; `slip` is what the first post recorded."""

    def __init__(self, slip: Slip):
        self.slip = slip
        super().__init__(_("already recorded as %(slip)s") % {"slip": slip.number})


@dataclass(frozen=True)
class Leg:
    """One side of a movement: `amount` cents of an instrument into (positive) or out of an account."""

    account: Account
    denomination: ChipDenomination | None
    amount: int


def instrument_name(denomination: ChipDenomination | None) -> str:
    return "cash" if denomination is None else f"chips:{denomination.key}"


def instrument_label(denomination: ChipDenomination | None) -> str:
    return _("cash") if denomination is None else chips_label(denomination.key)


def chips_label(key: str) -> str:
    """ "$5 chips": how people name a denomination."""
    return _("$%(value)s chips") % {"value": face(key)}


# The same names, kept as what they are for a sentence put in words when it is read (core.rules.Words).


def chips_said(key: str) -> Words:
    return Words(N_("$%(value)s chips"), value=Face(key))


def instrument_said(denomination: ChipDenomination | None):
    return gettext_lazy("cash") if denomination is None else chips_said(denomination.key)


def place_said(account: Account):
    if account.kind == Account.Kind.RUNNER:
        return Words(N_("runner %(name)s"), name=account.person.name)
    if account.kind == Account.Kind.DEALER:
        return Words(N_("tips paid to %(name)s"), name=account.person.name)
    if account.kind == Account.Kind.TABLE:
        return Words(N_("table %(table)s"), table=account.table.code)
    return PLACE_NAMES.get(account.kind, account.kind)


# --- accounts ---------------------------------------------------------------------------


# A runner's, a dealer's or a table's place by its code: compiled once (core.compiled), as fills,
# credits and runners' slips ask for theirs.
_ACCOUNT = Compiled(
    lambda event_id, code: Account.objects.filter(event_id=event_id, code=code).order_by("id"), texts=("code",)
)


def account_get(event: Event, kind: str, *, person: Person | None = None, table: GameTable | None = None) -> Account:
    """The account of a place, made on first use (accounts are places, not balances)."""
    if person is not None:
        code = f"{kind}:{person.code}"
    elif table is not None:
        code = f"table:{table.code}"
    else:
        code = kind
    memo = remembered.current()
    if memo is not None and (event.pk, code) in memo.accounts:
        return memo.accounts[(event.pk, code)]
    # The cage's own places (bank cash, chip bank, patrons...) are all read by the first ask.
    if person is None and table is None:
        account = own_places(event.pk).get(code)
    else:
        account = _ACCOUNT.first(event.pk, code)
    if account is None:
        account, _ = Account.objects.get_or_create(
            event=event, code=code, defaults={"kind": kind, "person": person, "table": table}
        )
    if memo is not None:
        memo.accounts[(event.pk, code)] = account
    return account


def denominations(event: Event | int) -> list[ChipDenomination]:
    """The event's chips, smallest first (read once during an import: cage.services.memo). The
    event or its id: an account or a slip knows its event's id without reading the event."""
    event_id = event if isinstance(event, int) else event.pk
    memo = remembered.current()
    if memo is not None and event_id in memo.denominations:
        return memo.denominations[event_id]
    # Once per page within a reading, and once per slip (core.reading), else afresh.
    chips = chip_set(Event(pk=event_id) if isinstance(event, int) else event)
    if memo is not None:
        memo.denominations[event_id] = chips
    return chips


def account_label(account: Account) -> str:
    """The place as people name it: "bank cash", "runner Rita Okafor", "table BJ-1"."""
    if account.kind == Account.Kind.RUNNER:
        return _("runner %(name)s") % {"name": account.person.name}
    if account.kind == Account.Kind.DEALER:
        return _("tips paid to %(name)s") % {"name": account.person.name}
    if account.kind == Account.Kind.TABLE:
        return _("table %(table)s") % {"table": account.table.code}
    return str(PLACE_NAMES.get(account.kind, account.kind))


PLACE_NAMES = {
    Account.Kind.BANK_CASH: gettext_lazy("bank cash"),
    Account.Kind.CHIP_BANK: gettext_lazy("chip bank"),
    Account.Kind.TIP_POOL: gettext_lazy("tip pool"),
    Account.Kind.PATRONS: gettext_lazy("patrons"),
    Account.Kind.SUPPLIER: gettext_lazy("registered supplier"),
    Account.Kind.TRUST: gettext_lazy("licensee's trust account"),
    Account.Kind.EXPENSES: gettext_lazy("expenses paid"),
    Account.Kind.OVER_SHORT: gettext_lazy("over/short"),
}


def balances(accounts: Iterable[Account]) -> dict[int, dict[int | None, int]]:
    """{account id: {denomination id or None for cash: cents}}, from one aggregate query."""
    result: dict[int, dict[int | None, int]] = defaultdict(dict)
    accounts = list(accounts)
    memo = remembered.current()
    if memo is not None:
        unread = [a for a in accounts if a.pk not in memo.balances]
        if unread:
            read = balances_read(unread)
            for account in unread:
                memo.balances[account.pk] = dict(read.get(account.pk, {}))
        remembered_balances = memo.balances
        for account in accounts:
            kept = remembered_balances[account.pk]
            if kept:
                held = {k: v for k, v in kept.items() if v}
                if held:
                    result[account.pk] = held
        return result
    return balances_read(accounts)


def balance(account: Account) -> dict[int | None, int]:
    return balances([account]).get(account.id, {})


# --- input ------------------------------------------------------------------------------


def chips_legs_value(event: Event, chips: dict[str, int], *, allow_empty: bool = False) -> dict[ChipDenomination, int]:
    """{denomination key: number of chips} to {ChipDenomination: cents}, refusing what is wrong."""
    if not isinstance(chips, dict):
        raise RuleViolation(
            Words(N_("chips must be an object of denomination: number of chips")),
            RECORDS_FORMAT,
            code="chips.not_an_object",
        )
    known = {d.key: d for d in denominations(event)}
    result = {}
    for key, count in chips.items():
        denomination = known.get(str(key))
        if denomination is None:
            raise RuleViolation(
                Words(
                    N_("the event has no $%(key)s chip; its chips are %(chips)s"),
                    key=face(key),
                    chips=", ".join(_("$%(value)s") % {"value": face(k)} for k in known),
                ),
                "T&C 3.4.3",
                code="chips.unknown_denomination",
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RuleViolation(
                Words(
                    N_("%(chips)s: %(count)s is not a whole number of chips of 0 or more"),
                    chips=chips_said(key),
                    count=reprlib.repr(count),
                ),
                CHIP_COUNT,
                code="chips.bad_count",
            )
        if count > MAX_CHIP_COUNT:
            raise RuleViolation(
                Words(
                    N_("%(chips)s: %(count)s is more than the %(most)s chips of one denomination a record may count"),
                    chips=chips_said(key),
                    count=reprlib.repr(count),
                    most=count_text(MAX_CHIP_COUNT),
                ),
                AMOUNT_LIMITS_RULE,
                code="chips.count_too_large",
            )
        if count:
            result[denomination] = count * denomination.value_cents
    if not result and not allow_empty:
        raise RuleViolation(
            Words(N_("no chips given; at least one count must be above 0")), CHIP_COUNT, code="chips.none_given"
        )
    return result


# How a patron may pay, as a refusal names it (cage.slip_fields.TENDERS offers these at the window).
TENDER_NAMES = {
    "debit card": gettext_lazy("debit card"),
    "credit card": gettext_lazy("credit card"),
    "cheque": gettext_lazy("cheque"),
}


def check_tender(currency: str, tender: str) -> None:
    if currency != "CAD":
        raise RuleViolation(
            Words(
                N_("%(currency)s refused: chips are bought and redeemed for Canadian currency only"), currency=currency
            ),
            "T&C 3.6",
            code="tender.foreign_currency",
        )
    if tender != "cash":
        raise RuleViolation(
            Words(
                N_("payment by %(tender)s refused: no credit of any kind, debit or credit cards or cheques"),
                tender=TENDER_NAMES.get(tender, tender),
            ),
            "T&C 3.7",
            code="tender.credit_refused",
        )


def capacity_of(kind: SlipKind, capacity: str):
    """The slip kind's capacity of that code; refused when the kind has none."""
    cap = kind.capacity(capacity)
    if cap is None:
        raise RuleViolation(
            Words(
                N_("a %(slip)s slip has no capacity %(capacity)s; it takes %(capacities)s"),
                slip=Lower(kind.label),
                capacity=capacity,
                capacities=", ".join(kind.codes),
            ),
            SIGNATURES,
            code="signing.unknown_capacity",
        )
    return cap


def check_signer(
    event: Event,
    kind: SlipKind,
    capacity: str,
    person: Person,
    *,
    runner: Person | None,
    signed: dict,
    day: GamingDay | None = None,
    at: datetime.datetime | None = None,
) -> None:
    """May `person` sign `capacity` of a slip of this kind, beside those who have `signed`, on
    `day` at `at` (when given, a designated person must be on duty then: check_on_duty)?"""
    cap = capacity_of(kind, capacity)
    if person.event_id != event.id:
        raise RuleViolation(
            Words(N_("%(name)s is not on this event"), name=person.name), "T&C 2", code="person.not_on_event"
        )
    for other, who in signed.items():
        if who.pk == person.pk and other != capacity:
            # in the slip's own order, whichever was signed first
            first, second = (Lower(c.label) for c in kind.capacities if c.code in (other, capacity))
            raise RuleViolation(
                Words(
                    N_(
                        "%(name)s cannot sign both %(first)s and %(second)s; one person never signs two capacities "
                        "of a slip"
                    ),
                    name=person.name,
                    first=first,
                    second=second,
                ),
                "T&C 2",
                code="signing.same_person",
            )
    check_takes_part(person)
    roles = cap.roles
    if capacity == kind.runner_capacity:
        # The runner named on the slip signs for the runner's side; with no runner named, a sale
        # is the Chip Cashier's at the cage (T&C 3.4.2).
        if runner is not None:
            if person.pk != runner.pk:
                raise RuleViolation(
                    Words(
                        N_("%(capacity)s must be signed by the runner named on the slip, %(runner)s"),
                        capacity=cap.label,
                        runner=runner.name,
                    ),
                    "T&C 2.1.2",
                    code="signing.not_the_runner",
                )
        elif kind.type in SALES:
            roles = (Role.CHIP_CASHIER,)
    if not person.role_codes() & set(roles):
        raise RuleViolation(
            Words(
                N_("%(capacity)s must be signed by the %(roles)s; %(name)s does not hold that role"),
                capacity=cap.label,
                roles=_(" or ").join(str(Role(r).label) for r in roles),
                name=person.name,
            ),
            # Chips are sold only by the Chip Cashier or the chip and table runners (T&C 3.4.2).
            "T&C 3.4.2" if kind.type in SALES and capacity == kind.runner_capacity else "T&C 2",
            code="signing.role_not_held",
        )
    check_not_administrator(person)
    if day is not None:
        _check_on_the_day(day, kind, cap, person, roles, at)


def _check_on_the_day(day: GamingDay, kind: SlipKind, cap, person: Person, roles, at) -> None:
    """What the day's roster and handovers say of who signs: a designated person on duty, and a
    cashier's custody signature only while they hold the place (check_holds_the_place)."""
    for role in person.role_codes() & set(roles) & set(DESIGNATED):
        check_on_duty(day, person, role, at or timezone.now())
    if not cap.witness and not kind.takes(HandedPlace.name):
        check_holds_the_place(day, person, set(roles), at)


def check_holds_the_place(day: GamingDay, person: Person, roles: set[str], at) -> None:
    """After a shift handover the place is the incoming cashier's for the rest of the day: a
    cashier whose bank cash (or chip bank) was handed over to another no longer signs custody in
    that role (cage.selectors.handovers). One query, and only for a cashier's custody signature."""
    own = person.role_codes() & roles
    cashier = own & set(HandedPlace.PLACES.values())
    if not cashier or own - cashier:
        return  # not as a cashier (a runner's sale), or in another role too: no query
    holders = custodians_of(day, until=at)
    if not handed_over(own, person.pk, holders):
        return
    role = next(iter(cashier))
    raise RuleViolation(
        Words(
            N_(
                "%(name)s handed over the %(place)s at a change of shift today: %(holder)s holds it now and signs "
                "as %(position)s"
            ),
            name=person.name,
            place=PLACE_NAMES[Account.Kind(next(p for p, r in HandedPlace.PLACES.items() if r == role))],
            holder=Person.objects.get(pk=holders[role]).name,
            position=Role(role).label,
        ),
        "T&C 2",
        code="signing.handed_over",
    )


def custodians_of(day: GamingDay, *, until=None) -> dict[str, int]:
    """custodians(), with the day's handovers read once per day during an import: every cashier's
    custody signature asks, and a query of the signatures would write out every row the import
    holds for a bulk write (cage.services.memo), one record at a time. A handover the import
    writes drops the day's (_write)."""
    memo = remembered.current()
    if memo is None:
        return custodians(day, until=until)
    if day.pk not in memo.takeovers:
        memo.takeovers[day.pk] = takeovers(day)
    return custodians(day, until=until, taken=memo.takeovers[day.pk])


def rostered_as(day: GamingDay, role: str) -> dict[int, Rostered]:
    """The day's roster in one role, {person id: their shifts} (read once per day during an import)."""
    memo = remembered.current()
    if memo is not None and (day.pk, role) in memo.rosters:
        return memo.rosters[(day.pk, role)]
    on = rostered(day, role)
    if memo is not None:
        memo.rosters[(day.pk, role)] = on
    return on


# How long after midnight a gaming day's own hours may run on (a close after midnight).
DAY_RUNS_ON = datetime.timedelta(hours=12)


def check_on_duty(day: GamingDay, person: Person, role: str, at: datetime.datetime) -> None:
    """T&C 2: each designated person is present continuously while the event runs, and signs in that
    position only while on the day's roster in it. A day whose roster lists nobody in the position
    (a day from paper) is not checked. A signature made outside the gaming day's own date (a day
    left open past it; the demo's September days signed today) is held to the roster's people, not
    its hours: the shifts of a date say nothing of another."""
    duty = rostered_as(day, role)
    if not duty:
        return
    shifts = duty.get(person.pk)
    start = timezone.make_aware(datetime.datetime.combine(day.date, datetime.time()))
    on_the_day = start <= at <= start + datetime.timedelta(days=1) + DAY_RUNS_ON
    if shifts is not None and (not on_the_day or any(s <= at <= e for s, e in shifts.spans)):
        return
    if shifts is None:
        raise RuleViolation(
            Words(
                N_(
                    "%(name)s is not on the roster of %(date)s as %(position)s: a designated person signs only "
                    "while on duty in that position; add them to the day's roster first"
                ),
                name=person.name,
                date=Day(day.date),
                position=Role(role).label,
            ),
            "T&C 2",
            code="signing.not_on_roster",
        )
    raise RuleViolation(
        Words(
            N_(
                "%(name)s is not on duty as %(position)s at %(time)s (on the roster of %(date)s: %(spans)s): a "
                "designated person signs only while on duty in that position"
            ),
            name=person.name,
            position=Role(role).label,
            time=Clock(at),
            date=Day(day.date),
            spans=shifts.spans_shown,
        ),
        "T&C 2",
        code="signing.off_duty",
    )


def check_signatures(
    event: Event,
    slip_type: str,
    signed: dict[str, Person],
    *,
    runner: Person | None = None,
    allow_pending: bool = False,
    day: GamingDay | None = None,
    at: datetime.datetime | None = None,
) -> None:
    """The signatures made as a slip is written (on `day` at `at`: check_signer).

    A records file carries every signature of a record, so by default every capacity must be
    signed. At the window (`allow_pending`), witness capacities may follow from the DRIC's queue,
    a fill's or credit's later steps from the people who take the chips, and a slip written before
    its custody signers sign (a credit, a void the DRIC asks for) waits for all of them.
    """
    kind = SLIP_KINDS[slip_type]
    for capacity in signed:
        capacity_of(kind, capacity)
    if allow_pending:
        required = [] if kind.deferred else [c.code for c in kind.step_capacities(1)]
    else:
        # A records file signs every capacity the format has; those it has not may be left out.
        required = [code for code in kind.codes if code not in kind.file_optional]
    missing = [c for c in required if c not in signed]
    if missing:
        raise RuleViolation(
            Words(
                N_("a %(slip)s slip needs %(capacities)s signed"),
                slip=Lower(kind.label),
                capacities=", ".join(str(kind.capacity(c).label).lower() for c in missing),
            ),
            gettext_lazy("slips and signatures: every capacity signs"),
            code="signing.missing",
        )
    done = kind.steps_done(signed)
    for capacity, person in signed.items():
        check_signer(event, kind, capacity, person, runner=runner, signed=signed, day=day, at=at)
        step = kind.capacity(capacity).step
        if step is not None and step > done + 1:
            raise RuleViolation(
                Words(
                    N_("%(capacity)s signs when the chips arrive, after %(first)s"),
                    capacity=kind.capacity(capacity).label,
                    first=", ".join(str(c.label).lower() for c in kind.step_capacities(done + 1)),
                ),
                STEPS,
                code="signing.out_of_step",
            )


# --- posting ----------------------------------------------------------------------------


# The day with its event, as every slip reads it first: taken for the transaction (FOR UPDATE;
# SQLite's immediate transaction holds the database already), or read after PostgreSQL's FOR
# SHARE. Compiled once (core.compiled).
_DAY_TAKEN = Compiled(lambda pk: GamingDay.objects.select_for_update().select_related("event").filter(pk=pk))
_DAY_WITH_EVENT = Compiled(lambda pk: GamingDay.objects.select_related("event").filter(pk=pk))


def lock_day(
    day: GamingDay, *, allowed: tuple[str, ...] = (GamingDay.Status.OPEN,), exclusive: bool = False
) -> GamingDay:
    """Lock the gaming day's row for the rest of the transaction and check its state.

    A slip shares the lock with every other slip of the day (FOR SHARE on PostgreSQL): cashiers at
    several terminals do not queue behind each other for the whole event. What a slip takes from
    is locked on its own (lock_accounts, lock_table), so a balance read for a check cannot go
    stale before the slip that relies on it is written. Changing the day's state (reconcile,
    close: `exclusive`) takes the row for itself, so it waits for the slips being written and
    they wait for it, then see the new state. SQLite's immediate transactions queue every writer.
    """
    memo = remembered.current()
    if memo is not None and day.pk in memo.days:
        day = memo.days[day.pk]  # an import: it alone writes, and its services keep the day's status
    else:
        if not exclusive and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT 1 FROM {GamingDay._meta.db_table} WHERE id = %s FOR SHARE", [day.pk])
            day = _DAY_WITH_EVENT.get(day.pk)
        else:
            day = _DAY_TAKEN.get(day.pk)
        if memo is not None:
            memo.days[day.pk] = day
    if day.status not in allowed:
        if day.status == GamingDay.Status.CLOSED:
            raise RuleViolation(
                Words(N_("the gaming day %(date)s is closed and locked"), date=Day(day.date)),
                gettext_lazy("gaming day: a closed day takes no posting"),
                code="day.closed",
            )
        code, message = (
            ("day.not_open", N_("the gaming day %(date)s is %(status)s; this slip needs it open"))
            if tuple(allowed) == (GamingDay.Status.OPEN,)
            else (
                "day.not_open_or_reconciling",
                N_("the gaming day %(date)s is %(status)s; this slip needs it open or reconciling"),
            )
        )
        raise RuleViolation(
            Words(message, date=Day(day.date), status=Lower(GamingDay.Status(day.status).label)),
            gettext_lazy("gaming day"),
            code=code,
        )
    return day


def lock_accounts(accounts: Iterable[Account], *, patrons_of: int | None = None) -> None:
    """Lock the places a slip takes from (or counts) until the transaction ends, with the patrons'
    account of the event whose id is `patrons_of` when given, all in one statement and in one
    order (by id), so two slips never each hold what the other waits for. FOR NO KEY UPDATE:
    another slip may still post into a locked place (a posting's reference to its account does
    not wait). PostgreSQL only: SQLite queues whole transactions, and an import writes alone."""
    if not row_locks():
        return
    wanted = Q(pk__in={a.pk for a in accounts})
    if patrons_of is not None:
        wanted |= Q(event_id=patrons_of, kind=Account.Kind.PATRONS)
    list(Account.objects.select_for_update(no_key=True).filter(wanted).order_by("pk").values_list("pk", flat=True))


def lock_slip(slip: Slip) -> None:
    """Lock one slip's row while it is signed, signed off or voided: two terminals acting on the
    same slip go one after the other, and the second sees what the first did. An advisory lock
    on the slip's key, not a row lock: the application's role may not UPDATE slips, and PostgreSQL
    asks that privilege of a row lock (README: the application's role)."""
    if row_locks():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [SLIP_LOCKS, slip.pk % 2**31])


def row_locks() -> bool:
    """Whether this write locks rows one by one: on PostgreSQL, outside an import."""
    return connection.vendor == "postgresql" and remembered.current() is None


def lock_table(table: GameTable) -> GameTable:
    memo = remembered.current()
    if memo is not None:
        return memo.event_tables(table.event_id)[table.pk]
    return _TABLE_TAKEN.get(table.pk)


# A table taken for the slip's transaction (FOR UPDATE on PostgreSQL): compiled once.
_TABLE_TAKEN = Compiled(lambda pk: GameTable.objects.select_for_update().filter(pk=pk))


def open_tables(event: Event) -> list[str]:
    """The codes of the event's open tables."""
    memo = remembered.current()
    if memo is not None:
        return sorted(t.code for t in memo.event_tables(event.pk).values() if t.state == GameTable.State.OPEN)
    return [t.code for t in tables_of(event.pk) if t.state == GameTable.State.OPEN]


def next_serial(event: Event, slip_type: str) -> int:
    memo = remembered.current()
    if memo is not None:
        return memo.next_serial(event, slip_type)
    # One statement moves the counter on and reads it back, its row locked until commit: a
    # rolled-back slip gives its number back, so serials have no gaps. (It was three: the counter
    # read, read again under its lock, and saved.)
    with connection.cursor() as cursor:
        cursor.execute(_NEXT_SERIAL, [event.pk, slip_type])
        row = cursor.fetchone()
    if row is not None:
        return row[0]
    SlipCounter.objects.get_or_create(event=event, slip_type=slip_type)  # the type's first slip
    return next_serial(event, slip_type)


_NEXT_SERIAL = (
    f'UPDATE "{SlipCounter._meta.db_table}" SET "last" = "last" + 1 '
    'WHERE "event_id" = %s AND "slip_type" = %s RETURNING "last"'
)


def post_slip(
    *,
    day: GamingDay,
    slip_type: str,
    signed: dict[str, Person],
    legs: list[Leg] | None = None,
    steps: list[list[Leg]] | None = None,
    at: datetime.datetime | None = None,
    table: GameTable | None = None,
    runner: Person | None = None,
    account: Account | None = None,
    voids: Slip | None = None,
    reason: str = "",
    details: dict | None = None,
    created_by=None,
    ref: str = "",
    request_key: str | None = None,
    allow_pending: bool = False,
    signed_at: dict[str, datetime.datetime] | None = None,
    paper: dict | None = None,
) -> Slip:
    """Write one slip with the signatures made now and the postings of the steps they complete,
    after checking that each balances and that no custody account goes below zero. Call inside the
    transaction that locked the day.

    `legs` is a one-step slip's movement; a two-step slip gives `steps` (cage → runner, runner →
    table) and only the steps whose custody signers have all signed are posted now (the rest when
    they sign: cage.services.signing). `ref` is the records file's name for the slip;
    `request_key` is the cage form's one-time key, so that a POST sent twice records one slip.
    `signed_at` gives the time of a signature made after the slip was written (an exported
    event's record); the others are made at `at`. `paper`: a paper slip's serial (cage.services.paper).
    """
    event = day.event
    check_paper_entered_first(day, paper)
    # At the window on PostgreSQL the slip's time is taken with its id (stamp_slip), once every
    # lock is held; until then `at` is the moment the slip was asked for.
    stamped = at is None and row_locks()
    at = at or timezone.now()
    check_signatures(event, slip_type, signed, runner=runner, allow_pending=allow_pending, day=day, at=at)
    given_times = signed_at or {}
    signed_at = _signed_after(slip_type, {capacity: given_times.get(capacity) or at for capacity in signed}, at)
    if not stamped:
        check_in_order(event, at)
    kind = SLIP_KINDS[slip_type]
    if steps is None:
        steps = [legs or []]
    details, done = _steps_signed(
        kind, steps, signed, allow_pending, {**(details or {}), "paper": paper} if paper else details
    )
    moving = [leg for step in steps[:done] for leg in step]
    merged, accounts = _checked_movement(event, kind, steps, moving, done)
    serial = next_serial(event, slip_type)
    slip_id = None
    if stamped:
        slip_id, at = stamp_slip()
        check_in_order(event, at, before_id=slip_id)
        signed_at = _signed_after(slip_type, {capacity: given_times.get(capacity) or at for capacity in signed}, at)

    slip = Slip(
        id=slip_id,
        event=event,
        day=day,
        slip_type=slip_type,
        serial=serial,
        at=at,
        table=table,
        runner=runner,
        account=account,
        voids=voids,
        reason=reason,
        details={**(details or {}), "ref": ref} if ref else (details or {}),
        created_by=created_by,
        request_key=request_key or None,
    )
    _write(slip, signed, signed_at, merged, accounts)
    links.slip_written(slip, legs=moving, merged=merged, accounts=accounts, signed=signed, signed_at=signed_at)
    running_totals.add(slip.day_id, merged)  # under the chain's lock its link took
    # Every slip, with its signatures made as it is written, is on the audit trail: no entry, no slip.
    trail.slip_recorded(slip, signed, day_status=day.status)
    return slip


# The paper slips of an outage come before any new slip of their day (DESIGN: when the network or
# the power fails): their written times are earlier, and slips are recorded in order.
PAPER_FIRST_RULE = Rule("paper_slips", gettext_lazy("paper slips when the system is down"))


def check_paper_entered_first(day: GamingDay, paper: dict | None) -> None:
    """No new slip while paper slips of an outage wait: only those slips themselves, and a records
    file's (a whole day read at once, paper slips as any other)."""
    if paper is not None or remembered.current() is not None:
        return
    waiting = paper_waiting(day)
    if waiting:
        raise RuleViolation(
            Words(
                N_plural(
                    "%(n)s paper slip written during the outage is still to be entered: the paper slips come "
                    "first, in the order of their written times, before any new slip of the day",
                    "%(n)s paper slips written during the outage are still to be entered: the paper slips come "
                    "first, in the order of their written times, before any new slip of the day",
                ),
                plural_by="n",
                n=waiting,
            ),
            PAPER_FIRST_RULE,
            code="paper.enter_first",
        )


def _checked_movement(event, kind, steps: list, moving: list, done: int) -> tuple:
    """What the slip moves now, netted per account and instrument (merged, accounts), once no
    custody account would go below zero; the patrons locked where it may take their chips."""
    merged, accounts = net_legs(moving, kind.type)
    check_custody(merged, accounts, kind.type)
    if kind.moves and not done:
        # A deposit waiting for its second signature: the bank cannot hand over cash it does not
        # hold, so that is said as it is written (and checked again when the cash moves).
        check_custody(*net_legs(steps[0], kind.type), kind.type)
    if kind.type in TOUCH_PATRONS:
        # Checked after the slip is written (check_patrons_hold_chips), and locked now, before the
        # slip's link takes the chain's lock: whatever it moves, even nothing (a closer that
        # closes the last table, a void waiting for the DRIC).
        lock_patrons(event)
    return merged, accounts


def _steps_signed(kind, steps: list, signed: dict, allow_pending: bool, details: dict | None) -> tuple:
    """(details, how many custody steps the signatures made now complete). A records file's record
    stands on the format's own signatures: a capacity the format lacks (an expense's preparer) and
    the file left out is waived, said in its details, and the slip waits for nobody."""
    waived = [] if allow_pending else [code for code in kind.file_optional if code not in signed]
    if waived:
        details = {**(details or {}), "waived": waived}
    done = kind.steps_done({*signed, *waived}) if kind.steps > 1 or kind.deferred else len(steps)
    return details, done


# A slip's rows at the window, each by an INSERT compiled once (core.compiled.Insert); a later
# signature's too (cage.services.signing).
_INSERT_SLIP, _INSERT_POSTINGS, INSERT_SIGNATURES = Insert(Slip), Insert(Posting), Insert(Signature)
INSERT_SIGNED, _INSERT_NOT_SIGNED = Insert(SignedInFull), Insert(NotSignedInFull)


def _write(slip: Slip, signed: dict, signed_at: dict, merged, accounts) -> None:
    """The slip, its postings and its signatures: saved now, or held by an import to be written in
    bulk with the others (cage.services.memo)."""
    memo = remembered.current()
    if memo is not None:
        memo.hold(slip)
    else:
        _INSERT_SLIP.save(slip)
    write_postings(slip, merged, accounts)
    # Signed in full as it is written (a sale, a records file's record): said so with its signatures.
    complete = SLIP_KINDS[slip.slip_type].signed_in_full(signed, slip.details)
    completed_at = max(signed_at.values(), default=slip.at)
    if memo is None:
        INSERT_SIGNATURES.save_all(
            [Signature(slip=slip, capacity=c, person=p, signed_at=signed_at[c]) for c, p in signed.items()]
        )
        if complete:
            INSERT_SIGNED.save(SignedInFull(slip=slip, signed_at=completed_at))
        else:
            _INSERT_NOT_SIGNED.save(NotSignedInFull(slip=slip, day_id=slip.day_id))
        return
    memo.last_at[slip.event_id] = slip.at
    if slip.slip_type in HANDOVERS:
        memo.takeovers.pop(slip.day_id, None)  # read again, with this one (custodians_of)
    # What the table's next opener is checked against (openers imports this module: asked here).
    from .openers import remember_written

    remember_written(memo, slip)
    day_slips.remember_written(memo, slip, signed)
    for capacity, person in signed.items():
        memo.hold_values(
            Signature, slip_id=slip.pk, capacity=capacity, person_id=person.pk, signed_at=signed_at[capacity]
        )
    if complete:
        memo.hold_values(SignedInFull, slip_id=slip.pk, signed_at=completed_at)
    else:
        memo.hold_values(NotSignedInFull, slip_id=slip.pk, day_id=slip.day_id)


def _signed_after(slip_type: str, times: dict[str, datetime.datetime], at: datetime.datetime) -> dict:
    for capacity, when in times.items():
        if when < at:
            raise RuleViolation(
                Words(
                    N_("%(capacity)s is signed at %(when)s, before the slip was written"),
                    capacity=SLIP_KINDS[slip_type].capacity(capacity).label,
                    when=When(when),
                ),
                SIGNATURES,
                code="signing.before_slip",
            )
    return times


# The key of PostgreSQL's advisory lock that orders slips' ids and times (stamp_slip).
SLIP_ORDER_LOCK = 0x5119_0001
# The first key of the advisory locks on one cage form's request key (atomic_slip).
REQUEST_LOCKS = 0x5119
# The first key of the advisory lock on one slip while it is signed, refused or voided (lock_slip).
SLIP_LOCKS = 0x5119_0003


def stamp_slip() -> tuple[int, datetime.datetime]:
    """PostgreSQL: the new slip's id and time, taken together while no other terminal takes its
    own, then let go at once (a session's advisory lock, not one held until commit). Slips' times
    then go in the order of their ids, as cage-records/1 lists them (at never earlier than the
    record before), though several cashiers write at once. A slip rolled back leaves a gap in
    the ids, never in the serials (next_serial)."""
    table = Slip._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [SLIP_ORDER_LOCK])
        try:
            # In a savepoint: should it fail, the transaction can still let the lock go.
            with transaction.atomic():
                cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id'))", [table])
                slip_id = cursor.fetchone()[0]
            at = timezone.now()
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [SLIP_ORDER_LOCK])
    return slip_id, at


# The time of the event's last slip (before one, when given): every slip asks it. Compiled once
# (core.compiled).
_LAST_AT = Compiled(lambda event_id: Slip.objects.filter(event_id=event_id).order_by("-id").values_list("at"))
_LAST_AT_BEFORE = Compiled(
    lambda event_id, before_id: (
        Slip.objects.filter(event_id=event_id, id__lt=before_id).order_by("-id").values_list("at")
    )
)


def check_in_order(
    event: Event, at: datetime.datetime | None = None, *, before_id: int | None = None
) -> datetime.datetime:
    """`at` is no earlier than the last slip's (of those before `before_id`, when given); returns
    it. No `at`: now, read after the last slip's time, so that a slip another terminal wrote a
    moment ago is never later than this moment."""
    memo = remembered.current()
    if memo is not None and event.pk in memo.last_at:
        last = memo.last_at[event.pk]
    else:
        found = (
            _LAST_AT.rows(event.pk, limit=1)
            if before_id is None
            else _LAST_AT_BEFORE.rows(event.pk, before_id, limit=1)
        )
        last = found[0][0] if found else None
    at = at or timezone.now()
    if last is not None and at < last:
        raise RuleViolation(
            Words(
                N_("%(at)s is earlier than the last slip (%(last)s); slips are recorded in order"),
                at=When(at),
                last=When(last),
            ),
            gettext_lazy("cage-records/1: at never earlier than the record before"),
            code="slip.out_of_order",
        )
    return at


def net_legs(legs: list[Leg], slip_type: str):
    """Net each (account, instrument) pair: a slip moves value, and what it takes out of a place is
    checked against what that place holds. Returns ({(account id, denomination id): cents},
    {account id: Account})."""
    merged: dict[tuple[int, int | None], int] = defaultdict(int)
    accounts: dict[int, Account] = {}
    for leg in legs:
        key = leg.denomination.pk if leg.denomination else CASH
        merged[(leg.account.pk, key)] += leg.amount
        accounts[leg.account.pk] = leg.account
    # Double entry: what leaves one place arrives at another. A programming error if not.
    totals: dict[int | None, int] = defaultdict(int)
    for (_account, key), amount in merged.items():
        totals[key] += amount
    unbalanced = {k: v for k, v in totals.items() if v}
    if unbalanced:
        raise AssertionError(f"{slip_type} legs do not balance: {unbalanced}")
    return merged, accounts


def check_custody(merged: dict, accounts: dict[int, Account], slip_type: str) -> None:
    """No custody account pays out what it does not hold. Those that pay out are locked first: a
    slip taking from the same place at another terminal waits, then reads what this one left."""
    # A slip that may take chips out of patrons' hands checks them as a whole afterwards
    # (check_patrons_hold_chips): their account is locked with the rest, in the same order.
    lock_accounts(
        (accounts[a] for (a, _key), amount in merged.items() if amount < 0 and accounts[a].is_custody),
        patrons_of=next(iter(accounts.values())).event_id if slip_type in TOUCH_PATRONS and accounts else None,
    )
    current = balances([a for a in accounts.values() if a.is_custody])
    chips = {}
    if any(key is not CASH for (_account, key) in merged):
        chips = {d.pk: d for d in denominations(next(iter(accounts.values())).event_id)}
    for (account_id, key), amount in merged.items():
        place = accounts[account_id]
        if amount >= 0 or not place.is_custody:
            continue
        held = current.get(account_id, {}).get(key, 0)
        if held + amount < 0:
            raise RuleViolation(
                Words(
                    N_("%(place)s holds %(held)s in %(instrument)s, not the %(wanted)s this %(slip)s takes out"),
                    place=place_said(place),
                    held=Money(held),
                    instrument=instrument_said(chips.get(key)),
                    wanted=Money(-amount),
                    slip=Lower(SLIP_KINDS[slip_type].label),
                ),
                gettext_lazy("custody: no account pays out what it does not hold"),
                code="custody.short",
            )


def write_postings(slip: Slip, merged: dict, accounts: dict[int, Account]) -> None:
    memo = remembered.current()
    if memo is None:
        _INSERT_POSTINGS.save_all(
            [
                Posting(slip=slip, day_id=slip.day_id, account=accounts[account_id], denomination_id=key, amount=amount)
                for (account_id, key), amount in merged.items()
                if amount
            ]
        )
        return
    for (account_id, key), amount in merged.items():
        if amount:
            memo.hold_values(
                Posting, slip_id=slip.pk, day_id=slip.day_id, account_id=account_id, denomination_id=key, amount=amount
            )
    memo.posted((account_id, key, amount) for (account_id, key), amount in merged.items() if amount)


def move(source: Account, target: Account, value: dict[ChipDenomination | None, int]) -> list[Leg]:
    """Legs that move each instrument's cents from source to target."""
    legs = []
    for denomination, cents in value.items():
        if cents:
            legs.append(Leg(source, denomination, -cents))
            legs.append(Leg(target, denomination, cents))
    return legs


# Slip types that can take chips out of the patrons' hands (a void of a sale does): after one of them, if
# every table is closed, patrons must still hold at least nothing of every denomination.
TOUCH_PATRONS = set(types_that(lambda k: k.from_patrons))


def check_patrons_hold_chips(slip: Slip) -> None:
    """T&C 3.4.3: every chip in play was bought from the licensee. While a table is open, play and
    colour changes there are not yet posted, so patrons may dip below zero; once every table is
    closed, they never hold fewer than zero chips of any denomination.

    The slip's writer locked the patrons before its link of the chain (post_slip, check_custody),
    so locking them here waits for nobody: the chain's lock stays the last a transaction waits for
    (core.chain)."""
    if slip.slip_type not in TOUCH_PATRONS:
        return
    event = slip.event
    lock_patrons(event)
    if open_tables(event):
        return
    # Through balances(): an import answers from what it keeps of the patrons' balance, with no
    # query (and no write-out of the rows it holds) at every table's close.
    held = together(balances([account_get(event, Account.Kind.PATRONS)]))
    short = sorted((d, cents) for d, cents in held.items() if d is not None and cents < 0)
    if short:
        chips = {d.pk: d for d in denominations(event)}
        raise RuleViolation(
            Words(
                N_(
                    "after this %(slip)s every table is closed and patrons would hold %(chips)s: chips nobody "
                    "bought from the licensee"
                ),
                slip=Lower(SLIP_KINDS[slip.slip_type].label),
                chips=", ".join(
                    _("%(count)s %(chips)s")
                    % {"count": cents // chips[d].value_cents, "chips": chips_label(chips[d].key)}
                    for d, cents in short
                ),
            ),
            "T&C 3.4.3",
            code="chips.patrons_would_hold_unbought",
        )


def lock_patrons(event: Event) -> None:
    """The patrons' chips are read as a whole (check_patrons_hold_chips, check_redeemable): two
    slips that take chips out of patrons' hands check them one after the other."""
    lock_accounts([], patrons_of=event.pk)


def check_redeemable(event: Event, value: dict[ChipDenomination, int]) -> None:
    """The window's bound on a redemption while a table is open (T&C 3.4.3: every chip in play
    was bought from the licensee). Chips cashed in come from patrons, who may have won them from
    an open table's tray, where play is not posted until its closer: so patrons' chips and the
    open trays' chips together, per denomination, must still cover what is redeemed.

    The cashier's window only (cage.views via the form): cage-records/1 bounds patrons once every
    table is closed and nothing more (check_patrons_hold_chips), and a records file the format
    accepts is never refused, so the importer does not call this. With every table closed the
    format's own rule is the same bound, and says so itself. The caller holds the patrons' lock
    (lock_accounts), taken with the places the redemption pays out of.
    """
    still_open = open_tables(event)
    if not still_open:
        return
    held = held_together(
        Account.objects.filter(event=event).filter(
            Q(kind=Account.Kind.PATRONS) | Q(kind=Account.Kind.TABLE, table__code__in=still_open)
        )
    )
    short = [(d, cents) for d, cents in value.items() if cents > held.get(d.pk, 0)]
    if short:
        raise RuleViolation(
            Words(
                N_(
                    "patrons and the open tables' trays together hold only %(held)s, fewer than the %(redeemed)s "
                    "of this redemption: chips cashed in must have been bought from the licensee (a patron may "
                    "have won them from an open table, not more than its tray holds)"
                ),
                held=", ".join(
                    _("%(count)s %(chips)s")
                    % {"count": max(held.get(d.pk, 0), 0) // d.value_cents, "chips": chips_label(d.key)}
                    for d, _cents in short
                ),
                redeemed=", ".join(
                    _("%(count)s %(chips)s") % {"count": cents // d.value_cents, "chips": chips_label(d.key)}
                    for d, cents in short
                ),
            ),
            "T&C 3.4.3",
            code="chips.redeemed_more_than_held",
        )


# The slip a form's one-time key recorded, if any: every form posted asks. Compiled once.
_RECORDED = Compiled(
    lambda event_id, key: Slip.objects.filter(event_id=event_id, request_key=key).order_by("id"), texts=("key",)
)


def atomic_slip(func):
    """Each record type's service runs in one transaction: all of the slip or none of it.

    A form posted twice carries the same request_key: the second post finds the first's slip
    (under a lock on the key, so two racing posts cannot both miss it) and raises DuplicateRequest
    before any rule is checked again.
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        memo = remembered.current()
        mark = memo.mark() if memo is not None else None
        try:
            slip = _in_transaction(*args, **kwargs)
        except BaseException:
            # Whatever an import remembered or held may belong to the write just rolled back.
            if memo is not None:
                memo.rolled_back(mark)
            remembered.forget()
            raise
        if memo is not None and not transaction.get_connection().in_atomic_block:
            memo.committed()
        return slip

    def _in_transaction(*args, **kwargs):
        # The chip set, the signers' roles and the cage's own places are read once per slip.
        with transaction.atomic(), settled_facts():
            key = kwargs.get("request_key")
            if key:
                # The same form posted twice waits for the first post (SQLite queues every writer).
                if connection.vendor == "postgresql":
                    with connection.cursor() as cursor:
                        cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [REQUEST_LOCKS, key])
                done = _RECORDED.first(kwargs["day"].event_id, key)
                if done is not None:
                    raise DuplicateRequest(done)
            slip = func(*args, **kwargs)
            if isinstance(slip, Slip):
                check_patrons_hold_chips(slip)
            return slip

    return wrapper
