"""The ledger's core: accounts, balances, signatures, serials and posting one balanced slip.

Every record type in cage.services.slips goes through `post_slip`, so the checks below apply to
the web pages and the records importer alike.
"""

import datetime
import functools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from cage.models import Account, Posting, Signature, Slip, SlipCounter, SlipType
from cage.money import cents_str
from events.models import ChipDenomination, Event, GameTable, GamingDay, Person, Role
from events.rules import RuleViolation

CASH = None  # the instrument key for cash; chips are keyed by their ChipDenomination

# Who signs what. For each slip type, each capacity and the roles that may sign it. Every
# capacity is required; where a slip names a runner, that runner signs the runner's capacity.
CAPACITIES: dict[str, dict[str, tuple[str, ...]]] = {
    SlipType.CHIPS_RECEIVED: {"received_by": (Role.CHIP_CASHIER,), "witnessed_by": (Role.DRIC,)},
    SlipType.CHIPS_RETURNED: {"returned_by": (Role.CHIP_CASHIER,), "witnessed_by": (Role.DRIC,)},
    SlipType.FLOAT_IN: {"received_by": (Role.GENERAL_CASHIER,), "witnessed_by": (Role.DRIC,)},
    SlipType.DEPOSIT: {"deposited_by": (Role.GENERAL_CASHIER,), "witnessed_by": (Role.DRIC,)},
    SlipType.TABLE_ISSUE: {"issued_by": (Role.CHIP_CASHIER,), "received_by": (Role.DEALER,)},
    SlipType.TABLE_RETURN: {"returned_by": (Role.DEALER,), "received_by": (Role.CHIP_CASHIER,)},
    SlipType.TABLE_OPEN: {"counted_by": (Role.DEALER,), "verified_by": (Role.CHIP_CASHIER,)},
    SlipType.FILL: {
        "issued_by": (Role.CHIP_CASHIER,),
        "carried_by": (Role.RUNNER,),
        "received_by": (Role.DEALER,),
        "authorized_by": (Role.DRIC,),
    },
    SlipType.CREDIT: {
        "released_by": (Role.DEALER,),
        "carried_by": (Role.RUNNER,),
        "received_by": (Role.CHIP_CASHIER,),
        "authorized_by": (Role.DRIC,),
    },
    SlipType.TIPS: {"counted_by": (Role.DEALER,), "verified_by": (Role.CHIP_CASHIER,)},
    SlipType.TABLE_CLOSE: {"counted_by": (Role.DEALER,), "verified_by": (Role.CHIP_CASHIER,)},
    SlipType.SALE: {"sold_by": (Role.CHIP_CASHIER, Role.RUNNER), "authorized_by": (Role.DRIC,)},
    SlipType.REDEMPTION: {"paid_by": (Role.GENERAL_CASHIER,), "authorized_by": (Role.DRIC,)},
    SlipType.RUNNER_ISSUE: {"issued_by": (Role.CHIP_CASHIER,), "received_by": (Role.RUNNER,)},
    SlipType.RUNNER_RETURN: {"returned_by": (Role.RUNNER,), "received_by": (Role.CHIP_CASHIER,)},
    SlipType.TIP_PAYOUT: {
        "paid_by": (Role.GENERAL_CASHIER,),
        "verified_by": (Role.CHIP_CASHIER,),
        "authorized_by": (Role.DRIC,),
    },
    SlipType.COUNT: {"counted_by": (Role.GENERAL_CASHIER,), "verified_by": (Role.CHIP_CASHIER,)},
    SlipType.VOID: {
        "requested_by": (Role.CHIP_CASHIER, Role.GENERAL_CASHIER),
        "authorized_by": (Role.DRIC,),
    },
    SlipType.EXPENSE: {"approved_by": (Role.DRIC,)},
    SlipType.CLOSE_DAY: {
        "prepared_by": (Role.GENERAL_CASHIER,),
        "verified_by": (Role.CHIP_CASHIER,),
        "approved_by": (Role.DRIC,),
    },
}


class DuplicateRequest(Exception):
    """The same form was posted twice; `slip` is what the first post recorded."""

    def __init__(self, slip: Slip):
        self.slip = slip
        super().__init__(f"already recorded as {slip.number}")


@dataclass(frozen=True)
class Leg:
    """One side of a movement: `amount` cents of an instrument into (positive) or out of an account."""

    account: Account
    denomination: ChipDenomination | None
    amount: int


def instrument_name(denomination: ChipDenomination | None) -> str:
    return "cash" if denomination is None else f"chips:{denomination.key}"


def instrument_label(denomination: ChipDenomination | None) -> str:
    return "cash" if denomination is None else f"${denomination.key} chips"


# --- accounts ---------------------------------------------------------------------------


def account_get(event: Event, kind: str, *, person: Person | None = None, table: GameTable | None = None) -> Account:
    """The account of a place, made on first use (accounts are places, not balances)."""
    if person is not None:
        code = f"{kind}:{person.code}"
    elif table is not None:
        code = f"table:{table.code}"
    else:
        code = kind
    account, _ = Account.objects.get_or_create(
        event=event, code=code, defaults={"kind": kind, "person": person, "table": table}
    )
    return account


def account_label(account: Account) -> str:
    if account.kind == Account.Kind.RUNNER:
        return f"runner {account.person.name}"
    if account.kind == Account.Kind.DEALER:
        return f"tips paid to {account.person.name}"
    if account.kind == Account.Kind.TABLE:
        return f"table {account.table.code}"
    return account.get_kind_display().split(" (")[0].lower()


def balances(accounts: Iterable[Account]) -> dict[int, dict[int | None, int]]:
    """{account id: {denomination id or None for cash: cents}}, from one aggregate query."""
    result: dict[int, dict[int | None, int]] = defaultdict(dict)
    rows = (
        Posting.objects.filter(account__in=list(accounts))
        .values("account_id", "denomination_id")
        .annotate(total=Sum("amount"))
    )
    for row in rows:
        if row["total"]:
            result[row["account_id"]][row["denomination_id"]] = row["total"]
    return result


def balance(account: Account) -> dict[int | None, int]:
    return balances([account]).get(account.id, {})


# --- input ------------------------------------------------------------------------------


def chips_legs_value(event: Event, chips: dict[str, int], *, allow_empty: bool = False) -> dict[ChipDenomination, int]:
    """{denomination key: number of chips} to {ChipDenomination: cents}, refusing what is wrong."""
    if not isinstance(chips, dict):
        raise RuleViolation("chips must be an object of denomination: number of chips", "cage-records/1")
    known = {d.key: d for d in event.denominations.all()}
    result = {}
    for key, count in chips.items():
        denomination = known.get(str(key))
        if denomination is None:
            raise RuleViolation(
                f"the event has no ${key} chip; its chips are {', '.join('$' + k for k in known)}",
                "T&C 3.4.3",
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RuleViolation(f"${key} chips: {count!r} is not a whole number of chips of 0 or more", "chip count")
        if count:
            result[denomination] = count * denomination.value_cents
    if not result and not allow_empty:
        raise RuleViolation("no chips given; at least one count must be above 0", "chip count")
    return result


def check_tender(currency: str, tender: str) -> None:
    if currency != "CAD":
        raise RuleViolation(f"{currency} refused: chips are bought and redeemed for Canadian currency only", "T&C 3.6")
    if tender != "cash":
        raise RuleViolation(
            f"payment by {tender} refused: no credit of any kind, debit or credit cards or cheques",
            "T&C 3.7",
        )


def check_signatures(event: Event, slip_type: str, signed: dict[str, Person], *, runner: Person | None = None) -> None:
    required = CAPACITIES[slip_type]
    label = SlipType(slip_type).label.lower()
    missing = [c for c in required if c not in signed]
    if missing:
        raise RuleViolation(
            f"a {label} slip needs {', '.join(missing)} signed", "DESIGN slips and signatures: every capacity signs"
        )
    extra = [c for c in signed if c not in required]
    if extra:
        raise RuleViolation(
            f"a {label} slip has no capacity {', '.join(extra)}; it takes {', '.join(required)}",
            "slips and signatures",
        )
    seen: dict[int, str] = {}
    for capacity, person in signed.items():
        if person.event_id != event.id:
            raise RuleViolation(f"{person.name} is not on this event", "slips and signatures")
        if person.pk in seen:
            raise RuleViolation(
                f"{person.name} cannot sign both {seen[person.pk]} and {capacity}; one person "
                "never signs two capacities of a slip",
                "T&C 2: cage transactions witnessed and authorized",
            )
        seen[person.pk] = capacity
        if person.registration != Person.Registration.GOOD:
            raise RuleViolation(
                f"{person.name}'s registration is {person.registration}; they may not take part",
                "T&C 2.3",
            )
        roles = required[capacity]
        if capacity in RUNNER_CAPACITY.get(slip_type, ()):
            # The runner named on the slip signs for the runner's side; with no runner named,
            # a sale is the Chip Cashier's at the cage (T&C 3.4.2).
            if runner is not None:
                if person.pk != runner.pk:
                    raise RuleViolation(
                        f"{capacity} must be signed by the runner named on the slip, {runner.name}",
                        "T&C 2.1.2: the Chip Cashier supervises runners",
                    )
            elif slip_type == SlipType.SALE:
                roles = (Role.CHIP_CASHIER,)
        if not person.role_codes() & set(roles):
            names = " or ".join(Role(r).label for r in roles)
            raise RuleViolation(
                f"{capacity} must be signed by the {names}; {person.name} does not hold that role",
                "T&C 2",
            )


# Capacities that, when the slip names a runner, belong to that runner.
RUNNER_CAPACITY = {
    SlipType.SALE: ("sold_by",),
    SlipType.RUNNER_ISSUE: ("received_by",),
    SlipType.RUNNER_RETURN: ("returned_by",),
}


# --- posting ----------------------------------------------------------------------------


def lock_day(day: GamingDay, *, allowed: tuple[str, ...] = (GamingDay.Status.OPEN,)) -> GamingDay:
    """Lock the gaming day's row for the rest of the transaction and check its state.

    Every posting of a day first takes this lock (select_for_update on PostgreSQL; SQLite's
    immediate transactions already queue writers), so a balance read for a check cannot go
    stale before the slip that relies on it is written. A cage writes a few slips a minute;
    queueing them costs nothing a cashier would notice.
    """
    day = GamingDay.objects.select_for_update().select_related("event").get(pk=day.pk)
    if day.status not in allowed:
        if day.status == GamingDay.Status.CLOSED:
            raise RuleViolation(
                f"the gaming day {day.date} is closed and locked", "gaming day: a closed day takes no posting"
            )
        raise RuleViolation(
            f"the gaming day {day.date} is {day.get_status_display().lower()}; this slip needs it "
            f"{' or '.join(allowed)}",
            "gaming day",
        )
    return day


def lock_table(table: GameTable) -> GameTable:
    return GameTable.objects.select_for_update().get(pk=table.pk)


def next_serial(event: Event, slip_type: str) -> int:
    counter, _ = SlipCounter.objects.get_or_create(event=event, slip_type=slip_type)
    # Locked until commit: a rolled-back slip gives its number back, so serials have no gaps.
    counter = SlipCounter.objects.select_for_update().get(pk=counter.pk)
    counter.last += 1
    counter.save(update_fields=["last"])
    return counter.last


def post_slip(
    *,
    day: GamingDay,
    slip_type: str,
    signed: dict[str, Person],
    legs: list[Leg],
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
) -> Slip:
    """Write one slip with its postings and signatures, after checking that it balances and that
    no custody account goes below zero. Call inside the transaction that locked the day.

    `ref` is the records file's name for the slip; `request_key` is the cage form's one-time
    key, so that a POST sent twice (a double click, a retry after a timeout) records one slip.
    """
    event = day.event
    at = at or timezone.now()
    check_signatures(event, slip_type, signed, runner=runner)
    last = Slip.objects.filter(event=event).order_by("-id").values_list("at", flat=True).first()
    if last is not None and at < last:
        raise RuleViolation(
            f"{timezone.localtime(at):%Y-%m-%d %H:%M} is earlier than the last slip "
            f"({timezone.localtime(last):%Y-%m-%d %H:%M}); slips are recorded in order",
            "cage-records/1: at never earlier than the record before",
        )

    # Net each (account, instrument) pair: a slip moves value, and what it takes out of a place
    # is checked against what that place holds.
    merged: dict[tuple[int, int | None], int] = defaultdict(int)
    accounts: dict[int, Account] = {}
    denominations: dict[int | None, ChipDenomination | None] = {CASH: None}
    for leg in legs:
        key = leg.denomination.pk if leg.denomination else CASH
        merged[(leg.account.pk, key)] += leg.amount
        accounts[leg.account.pk] = leg.account
        denominations[key] = leg.denomination
    # Double entry: what leaves one place arrives at another. A programming error if not.
    totals: dict[int | None, int] = defaultdict(int)
    for (_, key), amount in merged.items():
        totals[key] += amount
    unbalanced = {k: v for k, v in totals.items() if v}
    if unbalanced:
        raise AssertionError(f"{slip_type} legs do not balance: {unbalanced}")

    current = balances([a for a in accounts.values() if a.is_custody])
    for (account_id, key), amount in merged.items():
        place = accounts[account_id]
        if amount >= 0 or not place.is_custody:
            continue
        held = current.get(account_id, {}).get(key, 0)
        if held + amount < 0:
            raise RuleViolation(
                f"{account_label(place)} holds {cents_str(held)} in {instrument_label(denominations[key])}, "
                f"not the {cents_str(-amount)} this {SlipType(slip_type).label.lower()} takes out",
                "custody: no account pays out what it does not hold",
            )

    slip = Slip.objects.create(
        event=event,
        day=day,
        slip_type=slip_type,
        serial=next_serial(event, slip_type),
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
    Posting.objects.bulk_create(
        [
            Posting(slip=slip, account=accounts[account_id], denomination_id=key, amount=amount)
            for (account_id, key), amount in merged.items()
            if amount
        ]
    )
    Signature.objects.bulk_create([Signature(slip=slip, capacity=c, person=p, signed_at=at) for c, p in signed.items()])
    return slip


def move(source: Account, target: Account, value: dict[ChipDenomination | None, int]) -> list[Leg]:
    """Legs that move each instrument's cents from source to target."""
    legs = []
    for denomination, cents in value.items():
        if cents:
            legs.append(Leg(source, denomination, -cents))
            legs.append(Leg(target, denomination, cents))
    return legs


def atomic_slip(func):
    """Each record type's service runs in one transaction: all of the slip or none of it.

    A form posted twice carries the same request_key: the second post finds the first's slip
    (under the day's lock, so two racing posts cannot both miss it) and raises DuplicateRequest
    before any rule is checked again.
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with transaction.atomic():
            key = kwargs.get("request_key")
            if key:
                day = GamingDay.objects.select_for_update().get(pk=kwargs["day"].pk)
                done = Slip.objects.filter(event_id=day.event_id, request_key=key).first()
                if done is not None:
                    raise DuplicateRequest(done)
            return func(*args, **kwargs)

    return wrapper
