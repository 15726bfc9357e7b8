"""An event's figures (cage-report/1), from its slips, with the game modules' win figures.

A fixed number of queries whatever the size of the event: the slips of the event in one query,
then everything is added up in Python.
"""

import functools
import json
from collections import defaultdict
from decimal import Decimal
from typing import NamedTuple

from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, Sum

from cage.models import Account, DayTotal, Posting, Slip
from cage.selectors import json_text
from cage.selectors.bank_slips import (
    deposits_to_the_bank,
    disbursed_by_purpose,
    disbursements,
    expenses_by_cheque,
    trust_reconciliation,
)
from cage.slip_types import EXPENSES, SLIP_KINDS, TIP_PAYOUTS, VOID_KIND
from cage.variances import reason_in_records, variance_reason
from core.money import cents_str, shortest_decimal
from events.models import Event, GamingDay
from events.selectors import chip_values
from reports.missing_chips import missing_chips
from reports.table_days import TableDays


class _TableRow(NamedTuple):
    code: str
    game: str


class _SlipRow(NamedTuple):
    """What the figures read of a slip."""

    id: int
    slip_type: str
    day_id: int
    table_id: int | None
    voids_id: int | None
    details: dict
    reason: str
    table: _TableRow | None


SLIP_COLUMNS = _SlipRow._fields[:-1]  # the slip's own columns; its table's are read beside them
TOTAL_KEYS = ("win", "chip_sales", "redemptions", "tips", "cash_over_short", "chip_over_short")


def slip_value(slip, values: dict[str, int]) -> int:
    """The value of the chips a slip (or its row) names, in cents."""
    return sum(values[key] * count for key, count in slip.details.get("chips", {}).items())


def event_figures(event: Event) -> dict:
    """The event's figures as cage-report/1 defines them."""
    return report_figures(event)[0]


def report_figures(event: Event) -> tuple[dict, list[dict]]:
    """event_figures, and beside its variances (in their order) what the format has no place
    for and the report page and PDF show: {"reason", "details"} of each, the reason as chosen
    from the reconciliation's list in the reader's language (cage.variances). The same queries."""
    days = list(event.days.all())
    tally, table_rows, game_wins = _tallied(event, days)
    figures = _report_json(event, days, tally, table_rows, game_wins)
    return figures, tally.variance_notes


def _tallied(event: Event, days: list, day=None) -> tuple:
    """The tally of the event's slips (of one gaming day's alone, where given), its tables' rows and
    its games' wins."""
    values = chip_values(event)
    tally = _Tally(days, values, functools.partial(_table_named, event))
    for slip in _standing(event, _slip_rows(event, day), day):
        tally.add(slip, values)
    table_rows, game_wins = _table_wins(tally)
    return tally, table_rows, game_wins


def day_totals(day) -> dict[str, int]:
    """One gaming day's row of the event's figures ("days" in cage-report/1), in cents, read from
    that day's slips alone: a day's figures are its own slips' (a table's day opens and closes on
    it), so the day's sheets cost the same whatever the number of days before it. Three queries."""
    tally, _rows, _wins = _tallied(day.event, [day], day)
    return dict(tally.per_day[day.id])


def chips_outstanding_before(day) -> int | None:
    """Chips outstanding (chip sales − redemptions − win − tips) added up over every gaming day
    before this one, in cents: what the patrons hold in chips by the ledger. The two agree once
    every earlier day is closed, since a floor closes only with every table closed
    (cage.selectors.close), and a table's close posts to the patrons what its day's win gives them
    (its count against its tray). None while an earlier day is not closed: the caller adds those
    days up slip by slip. Three queries, none of them over the earlier days' slips (held_before)."""
    if day.event.days.filter(date__lt=day.date).exclude(status=GamingDay.Status.CLOSED).exists():
        return None
    held = held_before(day, kinds=(Account.Kind.PATRONS,), chips_only=True)
    return sum(total for (*_place, when), total in held.items() if not when)


def held_before(day, *, kinds, chips_only=False) -> dict:
    """{(account kind, its person's id, denomination id, when): cents} for the event's accounts of
    these kinds: when "", what they held at the start of the gaming day; else the slip type of the
    day's own movements that add to it. Voided slips and their voids left out of the day's own (a
    void is of the same day's slip, so the two also cancel within any earlier day).

    Two queries, neither over the whole event's postings: the earlier days' totals (DayTotal, one
    row a place and instrument for each sealed day) with the postings of earlier days not sealed
    (the postings' index by place and day), then this day's standing slips' postings (the day's
    index)."""
    place = ("account__kind", "account__person_id", "denomination_id")
    accounts = {"account__event": day.event, "account__kind__in": kinds}
    if chips_only:
        accounts["denomination__isnull"] = False
    not_sealed = GamingDay.objects.filter(event=day.event, date__lt=day.date, seal__isnull=True)
    sealed = DayTotal.objects.filter(**accounts, day__date__lt=day.date).values_list(*place)
    earlier = Posting.objects.filter(**accounts, day__in=not_sealed.values("pk")).values_list(*place)
    held: dict = defaultdict(int)
    for kind, person, denomination, total in (
        sealed.annotate(total=Sum("amount"))
        .order_by()
        .union(earlier.annotate(total=Sum("amount")).order_by(), all=True)
    ):
        held[(kind, person, denomination, "")] += total
    # This day's standing slips' postings, by place and day (the postings' index).
    today = (
        Posting.objects.filter(**accounts, day=day)
        .exclude(slip__slip_type=VOID_KIND.type)
        .exclude(Exists(Slip.objects.voids_done().filter(voids=OuterRef("slip_id"))))
    )
    for kind, person, denomination, moved, total in today.values_list(*place, "slip__slip_type").annotate(
        total=Sum("amount")
    ):
        held[(kind, person, denomination, moved)] += total or 0
    return held


def _table_named(event: Event, code: str) -> _TableRow:
    """A table a slip names by its code (a chip transfer's other table)."""
    return _TableRow(*event.tables.values_list("code", "game").get(code=code))


def _slip_rows(event: Event, day=None) -> list:
    """The event's slips (one gaming day's, where given), as plain rows of the columns the figures need."""
    # Only the columns the figures need, as plain rows: a season's tens of thousands of slips as
    # model instances took most of the report's time.
    # The details as their JSON text (json_text): half the report's time went into the JSON field's
    # own reading of them.
    columns = [c if c != "details" else "details_text" for c in SLIP_COLUMNS]
    # A day's slips by the day alone (its own index), not the event's filtered.
    slips = Slip.objects.filter(event=event) if day is None else Slip.objects.filter(day=day)
    rows = (
        slips.annotate(details_text=json_text("details"))
        .order_by("id")
        .values_list(*columns, "table__code", "table__game")
    )
    at = SLIP_COLUMNS.index("details")
    slips = [
        _SlipRow(
            *row[:at], json.loads(row[at]), *row[at + 1 : -2], _TableRow(*row[-2:]) if row[-2] is not None else None
        )
        for row in rows
    ]
    return slips


def _standing(event: Event, slips: list, day=None) -> list:
    """The slips that count: neither voided nor a void, and no expense the DRIC has not approved.
    `day`: the slips are that gaming day's, so only the voids of its slips (made that day or later)
    and its own expenses are read."""
    # What stands waits on its signatures: a slip counts for nothing once a void of it is done (one
    # asked for moves nothing until authorized), and an expense only once the DRIC approved it.
    voided, waiting = set(), set()
    if day is None:
        which = Slip.objects.filter(event=event, slip_type__in=(VOID_KIND.type, *EXPENSES))
    else:
        # By the day's index and the voids' (voids_id): the day's own voids and expenses, and the voids
        # of its slips made on a later day. A void of another day's slip voids nothing here.
        of_the_day = Slip.objects.filter(day=day).values("pk")
        which = Slip.objects.filter(Q(voids__in=of_the_day) | Q(day=day), slip_type__in=(VOID_KIND.type, *EXPENSES))
    for pk, slip_type, target, full in which.annotate(
        full=ExpressionWrapper(Q(signed_in_full__isnull=False), output_field=BooleanField())
    ).values_list("pk", "slip_type", "voids_id", "full"):
        if slip_type == VOID_KIND.type and full:
            voided.add(target)
        elif slip_type in EXPENSES and not full:
            waiting.add(pk)
    live = [s for s in slips if s.id not in voided and s.id not in waiting and s.slip_type != VOID_KIND.type]

    return live


class _Tally:
    """The figures of each day, added up slip by slip."""

    def __init__(self, days, values: dict[str, int], table_named):
        self.per_day = {day.id: dict.fromkeys(TOTAL_KEYS, 0) for day in days}
        # (day id, table id) -> what the table's day needs
        self.table_days = TableDays(values, table_named)
        self.expenses = 0
        self.tip_shares = []
        self.variances = []
        self.variance_notes = []
        self.day_dates = {day.id: day.date.isoformat() for day in days}

    def add(self, slip, values: dict) -> None:
        totals = self.per_day[slip.day_id]
        kind = slip.slip_type
        counts_in = SLIP_KINDS[kind].report_total  # chip sales, redemptions, tips: declared per slip type
        if counts_in:
            totals[counts_in] += slip_value(slip, values)
        elif kind in EXPENSES:
            self.expenses += slip.details["cash"]
        elif kind in TIP_PAYOUTS:
            self.add_shares(slip)
        elif slip.table_id is not None:
            self.table_days.add(slip, group=slip.day_id)
        for variance in slip.details.get("variances", []):
            self.add_variance(slip, variance, totals)

    def add_shares(self, slip) -> None:
        for share in slip.details["shares"]:
            self.tip_shares.append(
                {
                    "date": self.day_dates[slip.day_id],
                    "person": share["person"],
                    "hours": shortest_decimal(Decimal(share["hours"])),
                    "amount": cents_str(share["amount"]),
                }
            )

    def add_variance(self, slip, variance: dict, totals: dict) -> None:
        key = "cash_over_short" if variance["instrument"] == "cash" else "chip_over_short"
        totals[key] += variance["amount"]
        self.variances.append(
            {
                "date": self.day_dates[slip.day_id],
                "account": variance["account"],
                "instrument": variance["instrument"],
                "amount": cents_str(variance["amount"]),
                "reason": reason_in_records(slip.details, slip.reason),
            }
        )
        reason, details = variance_reason(slip.details, slip.reason)
        self.variance_notes.append({"reason": reason, "details": details})


def _table_wins(tally: _Tally) -> tuple[list[dict], dict]:
    """Each closed table's win by its game's own rule (events.games), and each game's by day."""
    day_dates, per_day = tally.day_dates, tally.per_day
    table_rows = []
    game_wins: dict[tuple[str, str], int] = defaultdict(int)
    for (day_id, _code), table_day in tally.table_days.items():
        if not table_day.opened:
            continue
        table = table_day.table
        # cage-report/1: a game has a row for each day it had an open table, and its win is
        # what its closed tables won; a table still open has no row of its own yet.
        game_wins.setdefault((day_dates[day_id], table.game), 0)
        figures = table_day.figures()
        if figures is None:
            continue
        date = day_dates[day_id]
        table_rows.append(
            {
                "date": date,
                "table": table.code,
                "game": table.game,
                "opener": figures.opener,
                "fills": figures.fills,
                "credits": figures.credits,
                "closer": figures.closer,
                "win": figures.win,
            }
        )
        game_wins[(date, table.game)] += figures.win
        per_day[day_id]["win"] += figures.win
    table_rows.sort(key=lambda row: (row["date"], row["table"]))

    return table_rows, game_wins


def _report_json(event: Event, days: list, tally: _Tally, table_rows: list, game_wins: dict) -> dict:
    """The figures as cage-report/1 writes them."""
    per_day, expenses = tally.per_day, tally.expenses
    event_totals = {key: sum(day[key] for day in per_day.values()) for key in TOTAL_KEYS}
    outstanding = event_totals["chip_sales"] - event_totals["redemptions"] - event_totals["win"] - event_totals["tips"]
    net = event_totals["win"] + outstanding + event_totals["cash_over_short"] - expenses
    money_keys = ("opener", "fills", "credits", "closer", "win")
    figures = {
        "format": "cage-report/1",
        "event": event.slug,
        "tables": [{k: cents_str(v) if k in money_keys else v for k, v in row.items()} for row in table_rows],
        "games": [
            {"date": date, "game": game, "win": cents_str(win)} for (date, game), win in sorted(game_wins.items())
        ],
        "days": [
            {"date": day.date.isoformat(), **{k: cents_str(per_day[day.id][k]) for k in TOTAL_KEYS}} for day in days
        ],
        "event_totals": {
            "win": cents_str(event_totals["win"]),
            "chip_sales": cents_str(event_totals["chip_sales"]),
            "redemptions": cents_str(event_totals["redemptions"]),
            "chips_outstanding": cents_str(outstanding),
            "tips": cents_str(event_totals["tips"]),
            "cash_over_short": cents_str(event_totals["cash_over_short"]),
            "chip_over_short": cents_str(event_totals["chip_over_short"]),
            "expenses": cents_str(expenses),
            "net_proceeds": cents_str(net),
        },
        "tip_shares": tally.tip_shares,
        "variances": tally.variances,
    }
    trust = trust_account_figures(event, net, event_totals["chip_over_short"])
    if trust is not None:
        figures["trust_account"] = trust
    return figures


def trust_account_figures(event: Event, net_proceeds: int, chip_over_short: int) -> dict | None:
    """This product's extension of cage-report/1 (docs/cage-records-extensions.md): the trust
    account the event names, each deposit to it with its bank deposit slip, the cheque register, the
    bank reconciliation and the use of the net proceeds. None while the event holds none of these (a
    records file of the format alone): its report is the format's own."""
    deposits = deposits_to_the_bank(event)
    # No cheque is entered before the opening balance (cage.services.cheques): the register is read
    # only for an event that holds one of these.
    if not event.trust_bank and event.trust_opening_balance is None and not any(d.bank_slip for d in deposits):
        return None
    expenses = expenses_by_cheque(event)
    account = trust_reconciliation(event)
    return {
        "bank": event.trust_bank,
        "branch": event.trust_branch,
        "last_four": event.trust_account_last_four,
        # The bank reconciliation: null until the opening balance is entered.
        "opening_balance": None if account.opening is None else cents_str(account.opening),
        "floats": cents_str(account.floats),
        "cheques_total": cents_str(account.cheques),
        "balance": None if account.balance is None else cents_str(account.balance),
        "deposits": [
            {
                "date": line.slip.day.date.isoformat(),
                "slip": line.slip.serial,
                "amount": cents_str(line.cents),
                "bank_slip": line.bank_slip.number if line.bank_slip else None,
                "stamped_on": line.bank_slip.stamped_on.isoformat() if line.bank_slip else None,
                "confirmed": line.confirmed,
            }
            for line in deposits
        ],
        # The cheque register: each standing expense with the cheque that pays it (null until entered).
        "cheques": [
            {
                "date": line.slip.day.date.isoformat(),
                "expense": line.slip.serial,
                "amount": cents_str(line.cents),
                "number": line.cheque.number if line.cheque else None,
                "written_on": line.cheque.written_on.isoformat() if line.cheque else None,
                "payee": line.cheque.payee if line.cheque else None,
            }
            for line in expenses
        ],
        "use_of_proceeds": _use_of_proceeds(event, net_proceeds, account.disbursed),
        "missing_chips": _missing_chips(missing_chips(chip_over_short, expenses)),
    }


def _missing_chips(chips) -> dict:
    return {"missing": cents_str(chips.missing), "billed": cents_str(chips.billed), "pending": cents_str(chips.pending)}


def _use_of_proceeds(event: Event, net_proceeds: int, disbursed: int) -> dict:
    """The purposes the licence approved, the cheques that used the net proceeds for them, and what
    remains to use."""
    cheques = disbursements(event)
    return {
        "purposes": [
            {"name": purpose.name, "disbursed": cents_str(cents)} for purpose, cents in disbursed_by_purpose(event)
        ],
        "disbursements": [
            {
                "number": c.number,
                "written_on": c.written_on.isoformat(),
                "payee": c.payee,
                "amount": cents_str(c.amount),
                "purpose": c.purpose.name,
            }
            for c in cheques
        ],
        "disbursed": cents_str(disbursed),
        "remaining": cents_str(net_proceeds - disbursed),
    }
