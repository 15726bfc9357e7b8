"""One service per record type of cage-records/1. The web pages and the importer call these.

Each runs in one transaction, shares the gaming day's lock first (see ledger.lock_day), locks
what it takes from (a table, the places it pays out of), checks every rule, then writes the slip,
its postings and its signatures together.
"""

import functools
from decimal import Decimal
from reprlib import repr as shown

from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from cage.models import Account, Posting, Slip
from cage.selectors.counts import count_states
from cage.slip_fields import HandedPlace, check_note
from cage.slip_types import CHIPS, SALES, SLIP_KINDS, VOIDABLE, SlipKind, day_states
from cage.variances import own_words
from core.compiled import Compiled
from core.money import AMOUNT_LIMITS_RULE, MAX_AMOUNT_CENTS, hours_text, largest_remainder_split
from core.rules import Day, Lower, Money, N_plural, RuleViolation, Several, Words
from events.models import DESIGNATED, GameTable, GamingDay, Person, Role
from events.roster import rostered

from .day_slips import opened_today, unfinished_custody
from .fill_requests import made_into
from .ledger import (
    CASH,
    Leg,
    account_get,
    atomic_slip,
    balance,
    check_redeemable,
    check_tender,
    chips_legs_value,
    custodians_of,
    denominations,
    instrument_name,
    instrument_said,
    lock_accounts,
    lock_day,
    lock_slip,
    lock_table,
    move,
    place_said,
    post_slip,
    rostered_as,
)
from .openers import closer_check
from .signing import transit_steps

# While the day reconciles, the floor is closed: money may still settle, but no table opens or
# is filled and no chips are sold (the floor's slip types: cage.slip_types.day_states).
SETTLING = (GamingDay.Status.OPEN, GamingDay.Status.RECONCILING)

# The product's own rules, named in the reader's language (core.rules.RuleViolation).
AMOUNTS = gettext_lazy("amounts")
TABLE_STATE = gettext_lazy("table state")
COUNT = gettext_lazy("count")
VOID = gettext_lazy("void")


def _cash(cents: int) -> int:
    if isinstance(cents, bool) or not isinstance(cents, int) or cents <= 0:
        raise RuleViolation(Words(N_("cash must be a positive amount of dollars")), AMOUNTS, code="cash.not_positive")
    return _bounded(cents)


def _bounded(cents: int) -> int:
    if cents > MAX_AMOUNT_CENTS:
        raise RuleViolation(
            Words(
                N_("%(amount)s is more than the %(most)s of cash one record may carry"),
                amount=Money(cents),
                most=Money(MAX_AMOUNT_CENTS),
            ),
            AMOUNT_LIMITS_RULE,
            code="amount.too_large",
        )
    return cents


def _table(day: GamingDay, table: GameTable) -> GameTable:
    if table.event_id != day.event_id:
        raise RuleViolation(
            Words(N_("table %(table)s is not on this event"), table=table.code),
            gettext_lazy("tables"),
            code="table.not_on_event",
        )
    return lock_table(table)


def _require_state(table: GameTable, state: str, record) -> None:
    """The table is open or closed as a slip of `record` (its kind, as people say it) needs."""
    if table.state != state:
        message = (
            N_("table %(table)s is closed; a %(slip)s needs it open")
            if state == GameTable.State.OPEN
            else N_("table %(table)s is open; a %(slip)s needs it closed")
        )
        code = "table.needs_open" if state == GameTable.State.OPEN else "table.needs_closed"
        raise RuleViolation(Words(message, table=table.code, slip=record), TABLE_STATE, code=code)


def _declared(service: str) -> SlipKind:
    """The slip kind whose declaration names `service` as the function that records it
    (cage.slip_types): a service posts the type its declaration gives it, and names none itself."""
    return next(k for k in SLIP_KINDS.values() if k.service == service)


def _posts(service):
    """A service given its own declaration (`kind`, its first argument), found by its name."""
    kind = _declared(service.__name__)

    @functools.wraps(service)
    def posting(**fields):
        return service(kind, **fields)

    return posting


def _kind_name(slip_type: str) -> Lower:
    """A slip type as a sentence names it: "fill", "opener", in the reader's language."""
    return Lower(SLIP_KINDS[slip_type].label)


# Who may take chips from the bank, carry them and sell them to players: the chip and table runners
# the Chip Cashier supervises (T&C 2.1.2), from whom alone, beside the Chip Cashier, players buy
# chips (T&C 3.4.2). On a day whose roster lists its runners, that is those runners.
RUNNERS_RULE = "T&C 2.1.2, 3.4.2"


def _runner(day: GamingDay, runner: Person, *, takes_chips: bool = True) -> Person:
    """The runner named on a slip. One who takes chips (a runner issue, a fill or credit they
    carry, a sale of their chips) must be on the day's roster as a runner, once that roster lists
    any runner; a runner handing chips and cash back (runner_return) is never refused for it, so
    nothing stays stuck with them. A day whose runners are not rostered here (a day imported from
    paper, or a roster of the designated positions only) is not checked."""
    if runner.event_id != day.event_id or Role.RUNNER not in runner.role_codes():
        raise RuleViolation(
            Words(N_("%(name)s is not a runner on this event"), name=runner.name),
            "T&C 2.1.2",
            field="runner",
            code="person.not_a_runner",
        )
    runners = rostered_runners(day)
    if takes_chips and runners and runner.pk not in runners:
        raise RuleViolation(
            Words(
                N_(
                    "%(name)s is not on the roster of %(date)s as a runner: only the day's own chip and table "
                    "runners, whom the Chip Cashier supervises, take, carry or sell chips; add them to the "
                    "day's roster first"
                ),
                name=runner.name,
                date=Day(day.date),
            ),
            RUNNERS_RULE,
            field="runner",
            code="roster.runner_not_rostered",
        )
    return runner


def rostered_runners(day: GamingDay) -> set[int]:
    """The ids of the people the day's roster lists as runners (read once during an import)."""
    return set(rostered_as(day, Role.RUNNER))


def _counted_chips(day: GamingDay, chips: dict[str, int]) -> dict:
    """Counts as written on the slip (keys in the event's order), for reports and audit."""
    order = [d.key for d in denominations(day.event)]
    return {key: chips[key] for key in order if chips.get(key)}


# --- supplier, float and deposit ---------------------------------------------------------


def _post_chips(kind: SlipKind, day, chips: dict, signed, meta: dict, note: str = "", **slip) -> Slip:
    """Post a slip of `kind` that keeps the chips as counted on it (with its table, runner, legs
    or steps in `slip`), and its note if it has one (a fill's or a credit's: cage.slip_fields.Note)."""
    details = {"chips": _counted_chips(day, chips)}
    if note:
        details["note"] = note
    return post_slip(day=day, slip_type=kind.type, signed=signed, details=details, **slip, **meta)


def _transfer_service(name: str, *, doc: str):
    """A service that moves chips or cash between two of the event's fixed places (SlipKind.moves)."""
    kind = _declared(name)
    source, target = kind.moves
    of_chips = kind.takes(CHIPS)

    @atomic_slip
    def service(*, day, signed, chips=None, cash=None, **meta) -> Slip:
        day = lock_day(day, allowed=SETTLING)
        event = day.event
        value = chips_legs_value(event, chips) if of_chips else {CASH: _cash(cash)}
        legs = move(account_get(event, source), account_get(event, target), value)
        # What it moves, on the slip: a deposit waiting for the DRIC's signature posts it then.
        details = {"chips": _counted_chips(day, chips)} if of_chips else {"cash": cash}
        return post_slip(day=day, slip_type=kind.type, signed=signed, legs=legs, details=details, **meta)

    service.__name__ = service.__qualname__ = name
    service.__doc__ = doc
    return service


chips_received = _transfer_service(
    "chips_received",
    doc="Chips delivered by the registered supplier: the only way chips enter the ledger (T&C 3.4.3).",
)
chips_returned = _transfer_service(
    "chips_returned",
    doc="Chips handed back to the registered supplier (T&C 4.1: the equipment is rented from them).",
)
float_in = _transfer_service("float_in", doc="The bank's opening cash, from the licensee's trust account.")
deposit = _transfer_service(
    "deposit",
    doc="Cash from the bank to the licensee's trust account: moved once the General Cashier and the DRIC "
    "have both signed (T&C 2).",
)


# --- tables -------------------------------------------------------------------------------


def _tray_service(name: str, *, doc: str):
    """A service that moves chips between the chip bank and a closed table's tray: an issue stocks
    it, a return takes it back (SlipKind.stocks_tray), in the day states the declaration allows."""
    kind = _declared(name)

    @atomic_slip
    def service(*, day, table, chips, signed, **meta) -> Slip:
        day = lock_day(day, allowed=day_states(kind.type))
        table = _table(day, table)
        _require_state(table, kind.table_state, _kind_name(kind.type))
        event = day.event
        value = chips_legs_value(event, chips)
        bank = account_get(event, Account.Kind.CHIP_BANK)
        tray = account_get(event, Account.Kind.TABLE, table=table)
        legs = move(bank, tray, value) if kind.stocks_tray > 0 else move(tray, bank, value)
        return _post_chips(kind, day, chips, signed, meta, legs=legs, table=table)

    service.__name__ = service.__qualname__ = name
    service.__doc__ = doc
    return service


CLOSED_TABLE, OPEN_TABLE = GameTable.State.CLOSED, GameTable.State.OPEN
table_issue = _tray_service("table_issue", doc="Stock a closed table's tray from the chip bank, before it opens.")
table_return = _tray_service("table_return", doc="Bring a closed table's tray back to the chip bank.")


def _transit_service(name: str, doc: str):
    """A fill or a credit: chips between the chip bank and an open table, carried by a runner in
    two steps (DESIGN: money moves when custody changes hands)."""
    kind = _declared(name)
    slip_type = kind.type

    @atomic_slip
    def service(*, day, table, chips, signed, runner=None, note="", fill_request=None, **meta) -> Slip:
        day = lock_day(day, allowed=day_states(slip_type))
        note = check_note(note)
        table = _table(day, table)
        _require_state(table, OPEN_TABLE, _kind_name(slip_type))
        runner = runner or signed.get(kind.runner_capacity)
        if runner is None:
            raise RuleViolation(
                Words(N_("a %(slip)s names the runner who carries the chips"), slip=_kind_name(slip_type)),
                "T&C 2.1.2",
                code="transit.runner_missing",
            )
        _runner(day, runner)
        event = day.event
        value = chips_legs_value(event, chips)
        slip = _post_chips(
            kind,
            day,
            chips,
            signed,
            meta,
            steps=transit_steps(slip_type, event, table=table, runner=runner, value=value),
            table=table,
            runner=runner,
            note=note,
        )
        if fill_request is not None:
            # The dealer's request, answered by this fill in the same transaction: both or neither.
            made_into(fill_request, slip, signed=signed, created_by=meta.get("created_by"))
        return slip

    service.__name__ = service.__qualname__ = name
    service.__doc__ = doc
    return service


fill = _transit_service(
    "fill",
    doc="Chips from the chip bank to an open table (the Chip Cashier controls fills, T&C 2.1.2).",
)
credit = _transit_service(
    "credit",
    doc="Chips from an open table's tray back to the chip bank (T&C 2.1.2).",
)


@atomic_slip
@_posts
def chip_transfer(kind, *, day, table, to_table, chips, signed, **meta) -> Slip:
    """Chips from one open table's tray to another's, signed by the dealer who releases them and the
    dealer who receives them, authorized by the DRIC (T&C 2): a credit of the first table and a
    fill of the second in their days (cage.slip_types)."""
    day = lock_day(day, allowed=day_states(kind.type))
    if to_table.pk == table.pk:
        raise RuleViolation(
            Words(
                N_("a chip transfer goes from one table to another; table %(table)s is named twice"), table=table.code
            ),
            TABLE_STATE,
            code="transfer.same_table",
            field="to_table",
        )
    # Both trays locked in one order, whichever gives: two transfers the other way never wait on
    # each other.
    first, second = sorted((table, to_table), key=lambda t: t.pk)
    tables = {t.pk: _table(day, t) for t in (first, second)}
    table, to_table = tables[table.pk], tables[to_table.pk]
    for each in (table, to_table):
        _require_state(each, OPEN_TABLE, _kind_name(kind.type))
    event = day.event
    value = chips_legs_value(event, chips)
    giving = account_get(event, Account.Kind.TABLE, table=table)
    taking = account_get(event, Account.Kind.TABLE, table=to_table)
    return post_slip(
        day=day,
        slip_type=kind.type,
        signed=signed,
        legs=move(giving, taking, value),
        table=table,
        details={"chips": _counted_chips(day, chips), "to_table": to_table.code},
        **meta,
    )


def _count_against(account: Account, counted: dict, *, cash: int | None = None) -> dict:
    """{instrument: counted − ledger} for everything the account holds or was counted with. The
    place is locked first: nothing moves in or out of it between the reading and the count's slip."""
    lock_accounts([account])
    held = balance(account)
    chips = {d.pk: d for d in denominations(account.event_id)}
    wanted = {d.pk: cents for d, cents in counted.items()}
    if cash is not None:
        wanted[CASH] = cash
    diffs = {}
    for key in set(held) | set(wanted):
        if key is CASH and cash is None:
            continue
        diff = wanted.get(key, 0) - held.get(key, 0)
        if diff:
            diffs[chips[key] if key is not CASH else CASH] = diff
    return diffs


def _differences(diffs: dict) -> Several:
    """ "-$5.00 in $5 chips (1 chip short), $1.00 in cash (over)": counted − books, per instrument."""
    parts = []
    for d, v in diffs.items():
        if d is CASH:
            how = gettext_lazy("over") if v > 0 else gettext_lazy("short")
        else:
            chips = abs(v) // d.value_cents
            how = Words(
                N_plural("%(n)s chip over", "%(n)s chips over")
                if v > 0
                else N_plural("%(n)s chip short", "%(n)s chips short"),
                plural_by="n",
                n=chips,
            )
        parts.append(
            Words(N_("%(amount)s in %(instrument)s (%(how)s)"), amount=Money(v), instrument=instrument_said(d), how=how)
        )
    return Several(*parts, sep=", ")


def _chip_order(day) -> dict:
    return {d.pk: i for i, d in enumerate(denominations(day.event))}


def _legs_to_count(account: Account, counterpart: Account, diffs: dict) -> list[Leg]:
    """Legs that bring `account` to its count: each counted − ledger difference comes from (or goes
    to) `counterpart`: over/short for a variance, the patrons for a closer's win or loss."""
    legs = []
    for denomination, diff in diffs.items():
        legs += (
            move(counterpart, account, {denomination: diff})
            if diff > 0
            else move(account, counterpart, {denomination: -diff})
        )
    return legs


def _variance_details(day, account, diffs) -> list[dict]:
    order = _chip_order(day)
    ordered = sorted(diffs.items(), key=lambda item: (item[0] is CASH, order.get(getattr(item[0], "pk", None), 0)))
    return [{"account": account.code, "instrument": instrument_name(d), "amount": diff} for d, diff in ordered]


@atomic_slip
@_posts
def table_open(kind, *, day, table, chips, signed, reason="", **meta) -> Slip:
    """The opener: the dealer counts the tray and the Chip Cashier verifies it (T&C 2.1.2).

    A count that differs from the tray's ledger balance is a variance to over/short, never
    silently absorbed, and needs a reason. It is also checked against what the table's last
    closer of an earlier day left (cage.services.openers): a difference is flagged on the slip for
    the DRIC to sign off.
    """
    day = lock_day(day, allowed=day_states(kind.type))
    table = _table(day, table)
    _require_state(table, GameTable.State.CLOSED, _kind_name(kind.type))
    if opened_today(day, table, kind.type):
        raise RuleViolation(
            Words(N_("table %(table)s already opened on %(date)s"), table=table.code, date=Day(day.date)),
            gettext_lazy("a table opens at most once a day"),
            code="opener.already_opened",
        )
    event = day.event
    value = chips_legs_value(event, chips)
    tray = account_get(event, Account.Kind.TABLE, table=table)
    diffs = _count_against(tray, value)
    if diffs and not reason.strip():
        raise RuleViolation(
            Words(
                N_("the opener differs from table %(table)s's tray by %(differences)s; a variance needs a reason"),
                table=table.code,
                differences=_differences(diffs),
            ),
            gettext_lazy("variances explained and signed"),
            field="reason",
            code="opener.variance_without_reason",
        )
    legs = _legs_to_count(tray, account_get(event, Account.Kind.OVER_SHORT), diffs)
    check = closer_check(day, table, {d.key: cents // d.value_cents for d, cents in value.items()})
    slip = post_slip(
        day=day,
        slip_type=kind.type,
        signed=signed,
        legs=legs,
        table=table,
        reason=reason,
        details={
            "chips": _counted_chips(day, chips),
            "total": sum(value.values()),
            "variances": _variance_details(day, tray, diffs),
            **({"closer_check": check} if check is not None else {}),
        },
        **meta,
    )
    table.state = GameTable.State.OPEN
    table.save(update_fields=["state"])
    return slip


@atomic_slip
@_posts
def tips(kind, *, day, table, chips, signed, **meta) -> Slip:
    """The dealers' tip box: patrons' chips to the tip pool, never the tray or the win (T&C 2.6)."""
    day = lock_day(day, allowed=SETTLING)
    table = _table(day, table)
    event = day.event
    value = chips_legs_value(event, chips)
    legs = move(account_get(event, Account.Kind.PATRONS), account_get(event, Account.Kind.TIP_POOL), value)
    return post_slip(
        day=day,
        slip_type=kind.type,
        signed=signed,
        legs=legs,
        table=table,
        details={"chips": _counted_chips(day, chips), "total": sum(value.values())},
        **meta,
    )


@atomic_slip
@_posts
def table_close(kind, *, day, table, chips, signed, **meta) -> Slip:
    """The closer. What the count says patrons lost is posted patrons → tray, per denomination,
    so win = closer − opener − fills + credits falls out of the ledger."""
    day = lock_day(day, allowed=SETTLING)
    table = _table(day, table)
    _require_state(table, GameTable.State.OPEN, _kind_name(kind.type))
    waiting = unfinished_custody(day, table=table)
    if waiting:
        raise RuleViolation(
            Words(
                N_("%(slips)s of table %(table)s not yet finished; the closer waits until the chips have arrived"),
                slips=", ".join(s.number for s in waiting),
                table=table.code,
            ),
            gettext_lazy("fills and credits in transit"),
            code="closer.transit_unfinished",
        )
    event = day.event
    value = chips_legs_value(event, chips, allow_empty=True)
    tray = account_get(event, Account.Kind.TABLE, table=table)
    patrons = account_get(event, Account.Kind.PATRONS)
    legs = _legs_to_count(tray, patrons, _count_against(tray, value))
    slip = post_slip(
        day=day,
        slip_type=kind.type,
        signed=signed,
        legs=legs,
        table=table,
        details={"chips": _counted_chips(day, chips), "total": sum(value.values())},
        **meta,
    )
    table.state = GameTable.State.CLOSED
    table.save(update_fields=["state"])
    return slip


# --- patrons ------------------------------------------------------------------------------


def _matching_cash(value: dict, cash: int, record: str) -> None:
    total = sum(value.values())
    if record in SALES and cash < total:
        # Chips handed over for less cash than they are worth: the rest is credit (T&C 3.7).
        raise RuleViolation(
            Words(
                N_(
                    "a sale of %(chips)s in chips for %(cash)s cash would give %(short)s of chips on credit: no credit "
                    "of any kind is extended for gaming"
                ),
                chips=Money(total),
                cash=Money(cash),
                short=Money(total - cash),
            ),
            "T&C 3.7",
            code="sale.chips_on_credit",
        )
    if cash != total:
        message = (
            N_(
                "a sale of %(chips)s in chips must be for %(chips)s cash, not %(cash)s: chips are sold for "
                "Canadian currency at face value"
            )
            if record in SALES
            else N_(
                "a redemption of %(chips)s in chips must be for %(chips)s cash, not %(cash)s: chips are redeemed "
                "for Canadian currency at face value"
            )
        )
        code = "sale.cash_differs" if record in SALES else "redemption.cash_differs"
        raise RuleViolation(Words(message, chips=Money(total), cash=Money(cash)), "T&C 3.6", code=code)


@atomic_slip
@_posts
def sale(kind, *, day, chips, cash, signed, runner=None, currency="CAD", tender="cash", **meta) -> Slip:
    """Chips bought with Canadian cash, from the Chip Cashier or a runner (T&C 3.4.2, 3.6, 3.7)."""
    check_tender(currency, tender)
    day = lock_day(day, allowed=day_states(kind.type))
    event = day.event
    value = chips_legs_value(event, chips)
    _matching_cash(value, _cash(cash), kind.type)
    if runner is not None:
        _runner(day, runner)
        seller_chips = seller_cash = account_get(event, Account.Kind.RUNNER, person=runner)
    else:
        seller_chips = account_get(event, Account.Kind.CHIP_BANK)
        seller_cash = account_get(event, Account.Kind.BANK_CASH)
    patrons = account_get(event, Account.Kind.PATRONS)
    legs = move(seller_chips, patrons, value) + move(patrons, seller_cash, {CASH: cash})
    return _post_chips(kind, day, chips, signed, meta, legs=legs, runner=runner)


@atomic_slip
@_posts
def redemption(
    kind, *, day, chips, cash, signed, currency="CAD", tender="cash", records_file: bool = False, **meta
) -> Slip:
    """Chips cashed in for Canadian currency at the bank (T&C 3.6). `records_file`: a record of a
    records file, held to the format's rules only (see ledger.check_redeemable)."""
    check_tender(currency, tender)
    day = lock_day(day, allowed=SETTLING)
    event = day.event
    value = chips_legs_value(event, chips)
    _matching_cash(value, _cash(cash), kind.type)
    patrons = account_get(event, Account.Kind.PATRONS)
    bank = account_get(event, Account.Kind.BANK_CASH)
    # The cash paid out and the patrons' chips read below: locked together, before either is read.
    lock_accounts([bank], patrons_of=event.pk)
    if not records_file:
        check_redeemable(event, value)
    legs = move(patrons, account_get(event, Account.Kind.CHIP_BANK), value) + move(bank, patrons, {CASH: cash})
    return _post_chips(kind, day, chips, signed, meta, legs=legs)


@atomic_slip
@_posts
def runner_issue(kind, *, day, runner, chips, signed, **meta) -> Slip:
    day = lock_day(day, allowed=day_states(kind.type))
    event = day.event
    _runner(day, runner)
    value = chips_legs_value(event, chips)
    legs = move(
        account_get(event, Account.Kind.CHIP_BANK), account_get(event, Account.Kind.RUNNER, person=runner), value
    )
    return _post_chips(kind, day, chips, signed, meta, legs=legs, runner=runner)


@atomic_slip
@_posts
def runner_return(kind, *, day, runner, chips, cash, signed, **meta) -> Slip:
    """A runner hands back unsold chips to the chip bank and sales cash to the bank."""
    day = lock_day(day, allowed=SETTLING)
    event = day.event
    _runner(day, runner, takes_chips=False)
    value = chips_legs_value(event, chips, allow_empty=True)
    if cash:
        _cash(cash)
    if not value and not cash:
        raise RuleViolation(
            Words(N_("a runner return must bring back chips or cash")), AMOUNTS, code="runner_return.empty"
        )
    held = account_get(event, Account.Kind.RUNNER, person=runner)
    legs = move(held, account_get(event, Account.Kind.CHIP_BANK), value)
    if cash:
        legs += move(held, account_get(event, Account.Kind.BANK_CASH), {CASH: cash})
    return _post_chips(kind, day, chips, signed, meta, legs=legs, runner=runner)


# --- tips ---------------------------------------------------------------------------------


HOURS_IN_A_DAY = 24


@atomic_slip
@_posts
def tip_payout(kind, *, day, hours: list[tuple[Person, Decimal]], signed, records_file: bool = False, **meta) -> Slip:
    """Pay out the whole tip pool to the dealers, pro rata to hours (T&C 2.6).

    The pool's chips go to the chip bank and the same value in bank cash to the dealers; cents
    are split by largest remainder, ties to the dealer listed first, so the shares add up.

    The hours are the day's roster's: only a dealer on it shares, for no more hours than their
    shifts as a dealer. `records_file`: a payout read from a records file, whose format gives the
    hours and no roster (cage-records/1: tip_payout), is taken as the file says.
    """
    day = lock_day(day, allowed=SETTLING)
    event = day.event
    if not hours:
        raise RuleViolation(Words(N_("a tip payout lists the dealers' hours")), "T&C 2.6", code="tip_payout.no_hours")
    on_roster = {} if records_file else rostered(day, Role.DEALER)
    seen = set()
    for person, worked in hours:
        _check_share(event, person, worked, seen)
        if not records_file:
            _check_rostered(day, person, worked, on_roster.get(person.pk))
    pool = account_get(event, Account.Kind.TIP_POOL)
    lock_accounts([pool])  # paid out as it is read
    held = balance(pool)
    if not held:
        raise RuleViolation(
            Words(N_("the tip pool is empty; there is nothing to pay out")), "T&C 2.6", code="tip_payout.pool_empty"
        )
    if not records_file:
        _check_pool_counted(day, pool)
    chips = {d.pk: d for d in denominations(event)}
    chip_value = {chips[k]: v for k, v in held.items() if k is not CASH}
    total = sum(held.values())
    shares = largest_remainder_split(total, [w for _person, w in hours])
    bank_cash = account_get(event, Account.Kind.BANK_CASH)
    legs = move(pool, account_get(event, Account.Kind.CHIP_BANK), chip_value)
    if held.get(CASH):
        legs += move(pool, bank_cash, {CASH: held[CASH]})
    for (person, _hours), share in zip(hours, shares, strict=True):
        legs += move(bank_cash, account_get(event, Account.Kind.DEALER, person=person), {CASH: share})
    details = {
        "total": total,
        "shares": [{"person": p.code, "hours": str(w), "amount": s} for (p, w), s in zip(hours, shares, strict=True)],
    }
    return post_slip(day=day, slip_type=kind.type, signed=signed, legs=legs, details=details, **meta)


def _check_pool_counted(day, pool: Account) -> None:
    """The pool is counted blind before it is paid out (T&C 2.6: the dealers share what the pool
    holds): a count of the day after the last tips went in. Paid out first, the pool's count
    would be of nothing ($0), and what the tips came to would rest on the books alone. A records
    file's payout is exempt: cage-records/1 has no count of the tip pool."""
    state = count_states(day).get(pool.code)
    if state is None or not state.counted:
        raise RuleViolation(
            Words(
                N_(
                    "the tip pool is counted before it is paid out: count it (blind, verified) after the last "
                    "tips were put in, then pay it out"
                )
            ),
            "T&C 2.6",
            code="tip_payout.pool_not_counted",
        )


def _check_share(event, person: Person, worked, seen: set) -> None:
    """A dealer of the event, no designated person, listed once, for a positive number of hours
    no longer than a gaming day (T&C 2.5, 2.6)."""
    field = f"hours_{person.code}"
    if person.event_id != event.id or Role.DEALER not in person.role_codes():
        raise RuleViolation(
            Words(N_("%(name)s is not a dealer; only dealers share tips"), name=person.name),
            "T&C 2.6",
            code="tip_payout.not_a_dealer",
        )
    if person.role_codes() & set(DESIGNATED):
        raise RuleViolation(
            Words(
                N_(
                    "%(name)s is a designated person and takes no share of the tips: only dealers share them, "
                    "and a designated person holds no floor role"
                ),
                name=person.name,
            ),
            "T&C 2.5, 2.6",
            field=field,
            code="tip_payout.designated_person",
        )
    if person.pk in seen:
        raise RuleViolation(
            Words(N_("%(name)s is listed twice"), name=person.name), "T&C 2.6", code="tip_payout.listed_twice"
        )
    seen.add(person.pk)
    if not isinstance(worked, Decimal) or not worked.is_finite() or worked <= 0:
        raise RuleViolation(
            Words(
                N_("%(name)s's hours must be a positive number: tips are shared pro rata to the hours worked"),
                name=person.name,
            ),
            "T&C 2.6",
            field=field,
            code="tip_payout.hours_not_positive",
        )
    if worked > HOURS_IN_A_DAY:
        raise RuleViolation(
            Words(
                N_(
                    "%(name)s's %(hours)s hours are more than the %(most)s hours of one gaming day: tips are "
                    "shared pro rata to the hours worked"
                ),
                name=person.name,
                hours=hours_text(worked),
                most=HOURS_IN_A_DAY,
            ),
            "T&C 2.6",
            field=field,
            code="tip_payout.hours_over_a_day",
        )


def _check_rostered(day, person: Person, worked, shifts) -> None:
    """On the day's roster as a dealer, for no more hours than their shifts (T&C 2.6)."""
    field = f"hours_{person.code}"
    if shifts is None:
        raise RuleViolation(
            Words(
                N_(
                    "%(name)s is not on the roster of %(date)s as a dealer; the tips are shared among the "
                    "dealers who worked, pro rata to their hours on the roster"
                ),
                name=person.name,
                date=Day(day.date),
            ),
            "T&C 2.6",
            field=field,
            code="tip_payout.dealer_not_rostered",
        )
    if worked > shifts.hours:
        raise RuleViolation(
            Words(
                N_(
                    "%(name)s's %(hours)s hours are more than the %(rostered)s hours of their shifts as a "
                    "dealer on the roster of %(date)s (%(spans)s)"
                ),
                name=person.name,
                hours=hours_text(worked),
                rostered=shifts.hours_shown,
                date=Day(day.date),
                spans=shifts.spans_shown,
            ),
            "T&C 2.6",
            field=field,
            code="tip_payout.hours_over_shifts",
        )


# --- counts, voids, expenses --------------------------------------------------------------

# The places the nightly reconciliation counts (DESIGN: every custody account counted; a table's
# count is its closer).
COUNTED_KINDS = (Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK, Account.Kind.RUNNER, Account.Kind.TIP_POOL)


def _check_counted(event, account: Account, cash, chips) -> None:
    """A count counts one of the cage's places, each in what it holds: bank cash in cash, the chip
    bank and the tip pool in chips, a runner in both."""
    if account.event_id != event.id or account.kind not in COUNTED_KINDS:
        raise RuleViolation(
            Words(N_("%(place)s is not a place the cage counts"), place=account.code),
            gettext_lazy("count: bank cash, the chip bank, a runner or the tip pool"),
            code="count.not_a_counted_place",
        )
    if account.kind == Account.Kind.BANK_CASH and chips:
        raise RuleViolation(
            Words(N_("bank cash holds cash only; count chips in the chip bank")), COUNT, code="count.bank_cash_chips"
        )
    if account.kind == Account.Kind.CHIP_BANK and cash:
        raise RuleViolation(
            Words(N_("the chip bank holds chips only; count cash in bank cash")), COUNT, code="count.chip_bank_cash"
        )
    if account.kind == Account.Kind.TIP_POOL and cash:
        raise RuleViolation(
            Words(N_("the tip pool holds the dealers' tip chips only; count cash in bank cash")),
            "T&C 2.6",
            code="count.tip_pool_cash",
        )
    if cash is not None and (isinstance(cash, bool) or not isinstance(cash, int) or cash < 0):
        raise RuleViolation(Words(N_("counted cash must be 0 or more")), COUNT, code="count.cash_negative")
    if cash is not None:
        _bounded(cash)
    if account.kind == Account.Kind.BANK_CASH and cash is None:
        raise RuleViolation(
            Words(N_("a count of bank cash gives the cash counted")), COUNT, code="count.bank_cash_missing"
        )


@atomic_slip
@_posts
def count(
    kind,
    *,
    day,
    account: Account,
    signed,
    cash: int | None = None,
    chips: dict | None = None,
    reason="",
    cash_lines: list | None = None,
    variance_reason: str = "",
    **meta,
) -> Slip:
    """A count of a custody account. Counted − ledger, per instrument, goes to over/short; a
    variance needs a reason (GC and CC sign it here, the DRIC approves it at the day close).

    The cage counts bank cash, the chip bank, each runner and the dealers' tip pool (the nightly
    reconciliation). A records file counts the first three only (cage-records/1: count); the tip
    pool is counted at the window."""
    day = lock_day(day, allowed=SETTLING)
    event = day.event
    _check_counted(event, account, cash, chips)
    value = chips_legs_value(event, chips or {}, allow_empty=True)
    if account.kind == Account.Kind.CHIP_BANK and chips is None:
        raise RuleViolation(
            Words(N_("a count of the chip bank gives the chips counted")), COUNT, code="count.chip_bank_missing"
        )
    if account.kind == Account.Kind.TIP_POOL and chips is None:
        raise RuleViolation(
            Words(N_("a count of the tip pool gives the chips counted")), COUNT, code="count.tip_pool_missing"
        )
    if account.kind == Account.Kind.RUNNER and cash is None:
        cash = 0
    diffs = _count_against(account, value, cash=cash)
    if variance_reason:
        reason = own_words(variance_reason, reason)
    if diffs and not reason.strip() and not (variance_reason and variance_reason != "other"):
        raise RuleViolation(
            Words(
                N_("the count of %(place)s differs from the books by %(differences)s; a variance needs a reason"),
                place=place_said(account),
                differences=_differences(diffs),
            ),
            gettext_lazy("nightly reconciliation: every variance explained and signed"),
            code="count.variance_without_reason",
        )
    legs = _legs_to_count(account, account_get(event, Account.Kind.OVER_SHORT), diffs)
    details = {
        "chips": _counted_chips(day, chips or {}),
        "cash": cash,
        "variances": _variance_details(day, account, diffs),
    }
    if variance_reason and diffs:
        details["variance_reason"] = variance_reason  # the reconciliation's list: miscount, missing chips…
    if cash_lines:
        # Bank cash counted by bill and coin at the window: what was counted, as the sheet shows it.
        details["cash_lines"] = [{"cents": line["unit_cents"], "count": line["count"]} for line in cash_lines]
    return post_slip(
        day=day,
        slip_type=kind.type,
        signed=signed,
        legs=legs,
        account=account,
        reason=reason,
        details=details,
        **meta,
    )


HANDOVER = gettext_lazy("shift handover")


@atomic_slip
@_posts
def handover(
    kind,
    *,
    day,
    place,
    signed,
    cash: int | None = None,
    chips: dict | None = None,
    cash_lines: list | None = None,
    reason="",
    **meta,
) -> Slip:
    """A shift handover: the outgoing cashier and the incoming one count bank cash (General
    Cashiers) or the chip bank (Chip Cashiers) together and both sign. Nothing is posted: the count
    is kept beside what the books expected, and a difference is noted, not settled (the nightly
    count settles the books, DESIGN: counts). From then on the incoming cashier holds the place for
    the rest of the day (cage.selectors.handovers: the outgoing one no longer signs for it)."""
    day = lock_day(day, allowed=SETTLING)
    event = day.event
    role = HandedPlace.PLACES.get(place) if isinstance(place, str) else None
    if role is None:
        raise RuleViolation(
            Words(
                N_("%(place)s is not a place handed over; a handover passes bank cash or the chip bank"),
                place=shown(place),
            ),
            HANDOVER,
            field="place",
            code="handover.not_a_place",
        )
    account = account_get(event, place)
    if isinstance(chips, dict):
        # The form sends every denomination, those not counted as 0: a count of none is no chips.
        chips = {key: n for key, n in chips.items() if not (type(n) is int and n == 0)} or None
    _check_counted(event, account, cash, chips)
    if account.kind == Account.Kind.CHIP_BANK and not chips:
        raise RuleViolation(
            Words(N_("a handover of the chip bank gives the chips counted")), HANDOVER, code="handover.chips_missing"
        )
    value = chips_legs_value(event, chips or {}, allow_empty=True)
    _check_hands(day, role, account, signed, meta.get("at"))
    diffs = _count_against(account, value, cash=cash)
    details = {
        "place": place,
        "chips": _counted_chips(day, chips or {}),
        "cash": cash,
        # What the books expected, as a count's variances read (counted − expected): noted only.
        "differences": _variance_details(day, account, diffs),
    }
    if cash_lines:
        details["cash_lines"] = [{"cents": line["unit_cents"], "count": line["count"]} for line in cash_lines]
    return post_slip(
        day=day, slip_type=kind.type, signed=signed, legs=[], account=account, reason=reason, details=details, **meta
    )


# The designated persons (T&C 2), and the bank each cashier runs (T&C 2.1: bank cash the General
# Cashier's, the chip bank the Chip Cashier's): a place passes only between two of its own position.
HANDS_RULE = "T&C 2, 2.1"


def _check_hands(day, role: str, account: Account, signed: dict, at) -> None:
    """Both cashiers hold the place's role and are on the day's roster in it, and the outgoing one
    holds the place now (the last to take it over today, if anyone did). A Chip Cashier on duty
    does not take over bank cash, nor a General Cashier the chip bank."""
    for capacity in ("handed_over_by", "taken_over_by"):
        person = signed.get(capacity)
        if person is None:
            continue  # check_signatures says which signature is missing
        if role not in person.role_codes():
            raise RuleViolation(
                Words(
                    N_(
                        "%(name)s does not hold the position of %(position)s: %(place)s passes only between "
                        "cashiers in that position on the day's roster"
                    ),
                    name=person.name,
                    position=Role(role).label,
                    place=place_said(account),
                ),
                HANDS_RULE,
                field=f"sign_{capacity}",
                code="handover.role_not_held",
            )
        if person.pk not in rostered_as(day, role):
            raise RuleViolation(
                Words(
                    N_(
                        "%(name)s is not on the roster of %(date)s as %(position)s: a place passes only between "
                        "cashiers of its role on duty that day"
                    ),
                    name=person.name,
                    date=Day(day.date),
                    position=Role(role).label,
                ),
                HANDS_RULE,
                field=f"sign_{capacity}",
                code="handover.not_rostered",
            )
    outgoing = signed.get("handed_over_by")
    holder = custodians_of(day, until=at).get(role)
    if outgoing is not None and holder is not None and holder != outgoing.pk:
        raise RuleViolation(
            Words(
                N_("%(name)s does not hold %(place)s: it was handed over to %(holder)s today, who hands it over next"),
                name=outgoing.name,
                place=place_said(account),
                holder=Person.objects.get(pk=holder).name,
            ),
            "T&C 2",
            code="handover.not_the_holder",
        )


# Compiled once (core.compiled): a void asks both of its slip.
_VOID_ASKED = Compiled(lambda slip_id: Slip.objects.filter(voids_id=slip_id, refusal__isnull=True).order_by("id"))
_POSTINGS = Compiled(
    lambda slip_id: Posting.objects.filter(slip_id=slip_id).select_related("account", "denomination").order_by("id")
)


@atomic_slip
@_posts
def void(kind, *, day, target: Slip, reason: str, signed, **meta) -> Slip:
    """Reverse a slip of the same day. Both stay on file; the void keeps its own number.

    No one alone voids a slip (T&C 2: the DRIC witnesses and authorizes every cage transaction):
    the reversal is posted once both have signed, the cashier who takes the chips or cash back
    (requested by) and the DRIC (authorized by). A void asked for by one of them moves nothing and
    waits for the other; the DRIC may refuse it (refuse). A records file signs both at once."""
    day = lock_day(day, allowed=SETTLING)
    if target.slip_type not in VOIDABLE:
        raise RuleViolation(
            Words(
                N_(
                    "a %(slip)s cannot be voided; only fills, credits, sales, redemptions and runner issues and returns"
                ),
                slip=_kind_name(target.slip_type),
            ),
            VOID,
            code="void.not_voidable",
        )
    if target.day_id != day.id:
        raise RuleViolation(
            Words(N_("%(slip)s is from another gaming day; only the same day's slips are voided"), slip=target.number),
            VOID,
            code="void.other_day",
        )
    lock_slip(target)  # two voids of one slip: the second finds the first
    earlier = _VOID_ASKED.first(target.pk)
    if earlier is not None:
        if Slip.objects.voids_done().filter(pk=earlier.pk).exists():
            raise RuleViolation(
                Words(N_("%(slip)s is already voided by %(void)s"), slip=target.number, void=earlier.number),
                VOID,
                code="void.already_voided",
            )
        raise RuleViolation(
            Words(
                N_("a void of %(slip)s is already asked for: %(void)s, waiting for its signatures"),
                slip=target.number,
                void=earlier.number,
            ),
            VOID,
            code="void.already_asked",
        )
    if not reason.strip():
        raise RuleViolation(Words(N_("a void needs a reason")), VOID, code="void.reason_missing")
    if SLIP_KINDS[target.slip_type].two_step:
        table = lock_table(target.table)
        if table.state != GameTable.State.OPEN:
            raise RuleViolation(
                Words(N_("table %(table)s has closed; its fills and credits stand"), table=table.code),
                gettext_lazy("void: only while the table is open"),
                code="void.table_closed",
            )
    legs = [Leg(p.account, p.denomination, -p.amount) for p in _POSTINGS.objects(target.pk)]
    return post_slip(
        day=day,
        slip_type=kind.type,
        signed=signed,
        steps=[legs],
        voids=target,
        table=target.table,
        runner=None,
        reason=reason,
        **meta,
    )


EXPENSE_CATEGORIES = ("supplier_equipment", "supplier_services", "licence_fee", "bank_charges", "advertising", "other")


SUPPLIER_BILLS = ("supplier_equipment", "supplier_services")


@atomic_slip
@_posts
def expense(kind, *, day, category, description, cash, invoice, signed, missing_chips=False, **meta) -> Slip:
    """An expense paid from the trust account, never from the cage; it goes in the financial report.
    `missing_chips`: the supplier's bill for chips missing from its count, one of its categories."""
    day = lock_day(day, allowed=SETTLING)
    if isinstance(category, str) and ("wage" in category.lower() or "salar" in category.lower()):
        raise RuleViolation(
            Words(
                N_(
                    "wages are never an expense of the event: the licensee must not pay the wages of the registered "
                    "supplier's employees"
                )
            ),
            "T&C 2.4",
            code="expense.wages",
        )
    if category not in EXPENSE_CATEGORIES:
        raise RuleViolation(
            Words(
                N_("unknown expense category %(category)s; one of %(categories)s"),
                category=repr(category),
                categories=", ".join(EXPENSE_CATEGORIES),
            ),
            "T&C 2.7",
            code="expense.unknown_category",
        )
    if not str(description).strip():
        raise RuleViolation(Words(N_("an expense needs a description")), "T&C 2.7", code="expense.description_missing")
    if missing_chips and category not in SUPPLIER_BILLS:
        raise RuleViolation(
            Words(
                N_(
                    "a bill for chips missing from the supplier's count is the supplier's: its category is the "
                    "supplier's equipment or services"
                )
            ),
            "T&C 2.7",
            field="category",
            code="expense.missing_chips_category",
        )
    event = day.event
    source, target = kind.moves
    legs = move(account_get(event, source), account_get(event, target), {CASH: _cash(cash)})
    details = {"category": category, "description": description, "invoice": invoice, "cash": cash}
    if missing_chips:
        details["missing_chips"] = True
    return post_slip(day=day, slip_type=kind.type, signed=signed, legs=legs, details=details, **meta)
