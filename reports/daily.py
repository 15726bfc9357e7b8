"""One gaming day's figures and its daily control sheets, as plain data.

`day_sheets(day)` builds every sheet (master game report, fill and credit register, variances,
tip distribution, runner reconciliation, cage accountability, staffing) and the day's figures in a
fixed number of queries whatever the size of the day; `day_figures(day)` is the part the DRIC reads
at the nightly close. The page, the CSV and the PDF (reports.daily_exports) only lay these out.

The figures agree with the event report by construction: the day's win, sales, redemptions, tips
and variances are the event report's own tally of this day's slips (reports.figures.day_totals),
and chips outstanding is its definition (chip sales − redemptions − win − tips) added up over
every day up to this one, the days before in one aggregate query (chips_outstanding_before). Voided
slips count for nothing. Nothing here reads every earlier day's slips: a day's sheets cost the same
on the twentieth day of an event as on the two hundredth.
"""

import functools
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Exists, OuterRef, Prefetch, Sum
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from cage.models import Account, Posting, Signature, Slip
from cage.selectors.amounts import cash_moved_subquery, chip_counts, chips_value
from cage.selectors.counts import BOOKS, blind_places, books_blind
from cage.selectors.openers import check_text, closer_check_of
from cage.selectors.paper import books_of_day, serial_ranges, used_any
from cage.selectors.registers import serial_checks
from cage.selectors.seals import seal_digest
from cage.selectors.slips import State, slip_state
from cage.services.ledger import account_label
from cage.slip_types import (
    COUNTS,
    DAY_CLOSE_KIND,
    DEPOSITS,
    EXPENSES,
    HANDOVERS,
    SLIP_KINDS,
    TIP_PAYOUTS,
    VOID_KIND,
    types_that,
)
from cage.variances import variance_reason
from core.chain import grouped
from core.local import clock
from core.money import cents_str, dollars, hours_text, shortest_decimal
from core.rules import cite, listed
from events.access import ROLE_NAMES
from events.compliance import roster_gaps
from events.models import DESIGNATED, GamingDay, Person, Role, game_name
from events.selectors import chip_values
from reports.figures import chips_outstanding_before, day_totals, event_figures, held_before
from reports.names import instrument_name, place_names
from reports.table_days import TableDays

# --- a sheet: columns and rows, laid out the same way on the page, in CSV and in the PDF ----------

# The slips that stock and relieve a table during its day (fills and credits): the day's sheet of them.
TABLE_MOVES = ("fills", "credits")


@dataclass(frozen=True)
class Column:
    key: str  # the CSV's and JSON's name: "opener"
    label: str  # the page's and PDF's heading: "Opener"
    money: bool = False  # cents: "$1,234.56" for people, "1234.56" in CSV and JSON
    num: bool = False  # set flush right (money always is)


@dataclass
class Row:
    cells: list  # one value per column: str, int cents for money, Decimal hours, or None (nothing to show)
    kind: str = ""  # "" for a line, "subtotal" or "total", or BLIND (a figure not counted yet)


@dataclass
class Sheet:
    key: str
    title: str
    columns: list[Column]
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    empty: str = ""

    def shown(self) -> list[dict]:
        """The rows as people read them: [{"kind", "cells": [(text, flush right)]}]."""
        return [
            {
                "kind": row.kind,
                "strong": row.kind in ("subtotal", "total"),
                "cells": [
                    (_shown(col, value), col.money or col.num)
                    for col, value in zip(self.columns, row.cells, strict=True)
                ],
            }
            for row in self.rows
        ]

    def plain(self) -> list[dict]:
        """The rows for CSV and JSON: {column key: text}, money as "1234.56", plus the row's kind."""
        return [
            {
                "row": row.kind or "line",
                **{col.key: _plain(col, value) for col, value in zip(self.columns, row.cells, strict=True)},
            }
            for row in self.rows
        ]


class NotCounted:
    """In place of a figure there is not yet: one that would give away a place's book balance
    while that place is counted blind and its count is not in (cage.selectors.counts), or an
    over/short before anything was counted. People read its text; CSV and JSON leave the cell
    empty, on a row marked "blind"."""

    def __init__(self, text):
        self.text = text

    def __str__(self) -> str:
        return str(self.text)


NOT_COUNTED = NotCounted(gettext_lazy("not counted yet"))
# A total of the day that would give the books of bank cash, the chip bank or the tip pool away
# while they are counted blind (counts.books_blind): sales, redemptions, trays, win, deposits.
WITHHELD = NotCounted(gettext_lazy("hidden until the counts are in (blind count)"))
BLIND = "blind"  # the kind of a row with a figure not counted yet
# A table still open has no closer and no win yet, and neither has a subtotal or total that counts
# it: a sum of the closed tables alone would read as the game's or the day's closer.
STILL_OPEN = NotCounted(pgettext_lazy("a table's closer or win, not there yet", "open"))
# The totals that wait for the blind counts of the bank (the tips wait for the tip pool's).
BOOKS_TOTALS = ("win", "chip_sales", "redemptions", "chips_outstanding", "deposits")


def withheld(sheet: "Sheet", books: set[str]) -> "Sheet":
    """The sheet without its rows while `books` (counts.books_blind) wait for their counts."""
    if books:
        sheet.rows, sheet.notes = [], []
        sheet.empty = _("Hidden until the counts are in (blind count): these figures would give the books away.")
    return sheet


def _shown(col: Column, value) -> str:
    if value is None:
        return ""
    if isinstance(value, NotCounted):
        return str(value)
    if isinstance(value, Decimal):
        return hours_text(value)
    return dollars(value) if col.money else str(value)


def _plain(col: Column, value) -> str:
    if value is None or isinstance(value, NotCounted):
        return ""
    if isinstance(value, Decimal):
        return shortest_decimal(value)
    return cents_str(value) if col.money else str(value)


def _time(value) -> str:
    """A time of the day as the reader writes it: "19:05", "19 h 05"."""
    return clock(value)


# --- the day -----------------------------------------------------------------------------------

FIGURE_KEYS = (
    "win",
    "chip_sales",
    "redemptions",
    "tips",
    "chips_outstanding",
    "cash_over_short",
    "chip_over_short",
    "deposits",
)


def figure_labels() -> dict[str, str]:
    return {
        "win": _("Win"),
        "chip_sales": _("Chip sales"),
        "redemptions": _("Redemptions"),
        "tips": _("Tips (dealers' pool)"),
        "chips_outstanding": _("Chips outstanding at the end of the day"),
        "cash_over_short": _("Cash over/short"),
        "chip_over_short": _("Chip over/short"),
        "deposits": _("Deposits to the trust account"),
    }


def _cents(text: str) -> int:
    return int((Decimal(text) * 100).to_integral_value())


def _chips_text(chips: dict) -> str:
    return ", ".join(chip_counts(chips))


@dataclass
class _Loaded:
    """What the sheets are built from: four groups of queries, each a fixed number."""

    day: GamingDay
    totals: dict  # the day's row of the event's figures, in cents (reports.figures.day_totals)
    outstanding_before: int  # chips outstanding at the end of the day before, in cents
    slips: list[Slip]  # the day's slips, signatures prefetched
    voided: dict[int, Slip]  # slip id -> the void that voids it
    values: dict[str, int]
    names: dict[str, str]  # person code -> name


def _load(day: GamingDay) -> _Loaded:
    event = day.event
    totals = day_totals(day)
    before = chips_outstanding_before(day)
    if before is None:
        # An earlier day not closed yet: its figures, slip by slip (the event's, up to this day).
        before = sum(_outstanding(row) for row in event_figures(event)["days"] if row["date"] < day.date.isoformat())
    values = chip_values(event)
    slips = list(
        Slip.objects.filter(day=day)
        .select_related("table", "runner", "account__person", "account__table", "voids", "sign_off__person")
        .prefetch_related(Prefetch("signatures", queryset=Signature.objects.select_related("person")))
        .annotate(cash_moved=cash_moved_subquery())
        .order_by("at", "id")
    )
    # Only a done void stands against its slip (every signature in, read from the slips' own): one
    # asked for moves nothing, one refused never will.
    voided = {
        s.voids_id: s
        for s in slips
        if s.slip_type == VOID_KIND.type and set(VOID_KIND.codes) <= {sig.capacity for sig in s.signatures.all()}
    }
    names = dict(event.people.values_list("code", "name"))
    return _Loaded(day, totals, before, slips, voided, values, names)


def _outstanding(row: dict) -> int:
    """A day's share of chips outstanding, from its row of the event's figures."""
    return _cents(row["chip_sales"]) - _cents(row["redemptions"]) - _cents(row["win"]) - _cents(row["tips"])


def _day_totals(loaded: _Loaded) -> dict[str, int]:
    totals = dict.fromkeys(FIGURE_KEYS, 0)
    for key in ("win", "chip_sales", "redemptions", "tips", "cash_over_short", "chip_over_short"):
        totals[key] = loaded.totals[key]
    day = loaded.totals
    totals["chips_outstanding"] = (
        loaded.outstanding_before + day["chip_sales"] - day["redemptions"] - day["win"] - day["tips"]
    )
    totals["deposits"] = sum(_cash(s) for s in _live(loaded, *DEPOSITS))
    return totals


def _cash(slip: Slip) -> int:
    """The cash a slip states, else the cash its postings put into a place."""
    cash = slip.details.get("cash")
    return cash if cash is not None else (slip.cash_moved or 0)


def _live(loaded: _Loaded, *types: str) -> list[Slip]:
    return [s for s in loaded.slips if s.slip_type in types and s.pk not in loaded.voided]


def _signers(slip: Slip) -> dict[str, str]:
    return {s.capacity: s.person.name for s in slip.signatures.all()}


def _signed_text(slip: Slip) -> str:
    kind = SLIP_KINDS[slip.slip_type]
    by = _signers(slip)
    return listed(
        _("%(capacity)s: %(name)s") % {"capacity": c.label, "name": by[c.code]} for c in kind.capacities if c.code in by
    )


def table_columns() -> list:
    """A table's day as every sheet shows it: opener, fills, credits, closer, win."""
    return [
        Column("opener", _("Opener"), money=True),
        Column("fills", _("Fills"), money=True),
        Column("credits", _("Credits"), money=True),
        Column("closer", _("Closer"), money=True),
        Column("win", _("Win"), money=True),
    ]


# --- the day's figures, for the nightly close --------------------------------------------------


def _table_days(loaded: _Loaded) -> list[dict]:
    """Each table that opened this day: opener, fills, credits, closer (None while open), win."""
    days = TableDays(loaded.values, functools.partial(_table_named, loaded.day.event))
    for slip in loaded.slips:
        if slip.pk not in loaded.voided and slip.table_id is not None:
            days.add(slip)
    rows = []
    for _key, day in days.items():
        if not day.opened:
            continue
        figures = day.figures()
        rows.append(
            {
                "table": day.table.code,
                "game": day.table.game,
                "game_name": game_name(day.table.game),
                "opener": day.opener,
                "fills": sum(day.fills),
                "credits": sum(day.credits),
                "closer": day.closer,
                "win": figures.win if figures else None,
            }
        )
    rows.sort(key=lambda r: (r["game_name"], r["table"]))
    return rows


def _table_named(event, code: str):
    return event.tables.get(code=code)


def _opener_check(slip: Slip) -> str:
    """An opener against its table's last closer, and the DRIC's sign-off of a difference."""
    check = closer_check_of(slip)
    if check is None:
        return ""
    if not check.get("differences"):
        return check_text(check)
    sign_off = getattr(slip, "sign_off", None)
    if sign_off is None:
        return _("%(check)s; waiting for the DRIC's sign-off") % {"check": check_text(check)}
    return _("%(check)s; signed off by %(name)s (DRIC) at %(time)s") % {
        "check": check_text(check),
        "name": sign_off.person.name,
        "time": _time(sign_off.signed_at),
    }


def _variances(loaded: _Loaded, places: dict[str, str]) -> list[dict]:
    rows = []
    last_count: dict[int, Slip] = {}  # account id -> the day's latest count of it so far
    for slip in loaded.slips:
        if slip.pk in loaded.voided:
            continue
        opener_check = _opener_check(slip) if SLIP_KINDS[slip.slip_type].table_figure == "opener" else ""
        reason, details = variance_reason(slip.details, slip.reason)
        # A second count of a place the same day is its recount: its variance corrects the
        # earlier count's (a −$5 then a +$5 is one miscount, not two losses).
        earlier = None
        if slip.slip_type in COUNTS and slip.account_id:
            earlier = last_count.get(slip.account_id)
            last_count[slip.account_id] = slip
        for v in slip.details.get("variances", []):
            rows.append(
                {
                    "recount_of": str(earlier.number) if earlier is not None else "",
                    "slip": slip.number,
                    "at": _time(slip.at),
                    "account": v["account"],
                    "place": places.get(v["account"], v["account"]),
                    "instrument": v["instrument"],
                    "chips_or_cash": str(instrument_name(v["instrument"])),
                    "amount": v["amount"],
                    "reason": reason,
                    "details": details,
                    "opener_check": opener_check,
                }
            )
    return rows


def _deposits(loaded: _Loaded) -> list[dict]:
    return [
        {"slip": s.number, "at": _time(s.at), "amount": _cash(s), "signed": _signed_text(s)}
        for s in _live(loaded, *DEPOSITS)
    ]


def _not_counted_yet(loaded: _Loaded, totals: dict[str, int]) -> set[str]:
    """The over/short figures of a day not closed yet of which nothing was counted: they read "not
    counted yet" rather than 0.00. Cash is counted in bank cash and in runners; chips until the
    chip bank is counted (an opener's variance alone, before any count, is not the day's chip
    over/short: it would read −$1.00 with nothing counted)."""
    if loaded.day.status == GamingDay.Status.CLOSED:
        return set()
    counts = _live(loaded, *COUNTS)
    result = set()
    if not any(s.details.get("cash") is not None for s in counts):
        result.add("cash_over_short")
    if not any(s.account and s.account.kind == Account.Kind.CHIP_BANK for s in counts):
        result.add("chip_over_short")
    return result


def _figures(loaded: _Loaded, places: dict[str, str], hidden: set[str], books: set[str]) -> dict:
    """`hidden`: the places counted blind whose count is not in (blind_places); `books`: those of
    bank cash, the chip bank and the tip pool with something to count (books_blind). While the tip
    pool is one of them, the day's tips (what the pool should hold) read "not counted yet"; while
    any is, the day's other totals, tables and deposits wait too (they give the books away)."""
    tables = _table_days(loaded)
    game_wins: dict[str, dict] = {}
    for row in tables:
        game = game_wins.setdefault(row["game"], {"game": row["game"], "game_name": row["game_name"], "win": 0})
        game["win"] += row["win"] or 0
    totals = _day_totals(loaded)
    variances = _variances(loaded, places)
    deposits = _deposits(loaded)
    labels = figure_labels()
    shown_as = dict.fromkeys(_not_counted_yet(loaded, totals), NOT_COUNTED)
    if Account.Kind.TIP_POOL in books:
        shown_as["tips"] = NOT_COUNTED
    if books:
        shown_as.update(dict.fromkeys(BOOKS_TOTALS, WITHHELD))
    blind = set(shown_as)
    summary = [
        Row([labels[k], shown_as[k]], BLIND) if k in shown_as else Row([labels[k], totals[k]]) for k in FIGURE_KEYS
    ]
    sheets = [
        _summary_sheet(summary, books),
        withheld(_tables_sheet(tables), books),
        withheld(_games_sheet(game_wins, totals), books),
        _variance_sheet(variances),
        withheld(_deposits_sheet(deposits), books),
    ]
    return {
        "date": loaded.day.date.isoformat(),
        "totals": totals,
        "blind": blind,  # the totals not shown yet (counted blind, or nothing counted yet)
        "books": books,  # the blind counts the day's totals wait for (counts.books_blind)
        "tables": tables,
        "games": list(game_wins.values()),
        "variances": variances,
        "deposits": deposits,
        "sheets": sheets,
    }


def _summary_sheet(summary: list, books: set[str]) -> Sheet:
    return Sheet(
        "totals",
        _("Summary"),
        [Column("measure", _("Figure")), Column("amount", _("Amount"), money=True)],
        summary,
        notes=(
            [_("The tips show once the tip pool is counted: the nightly reconciliation counts it blind.")]
            if Account.Kind.TIP_POOL in books
            else []
        )
        + (
            [
                _(
                    "The day's sales, redemptions, win, chips outstanding and deposits show once bank cash, "
                    "the chip bank and the tip pool are counted: they would give their books away."
                )
            ]
            if books
            else []
        ),
    )


def _tables_sheet(tables: list[dict]) -> Sheet:
    return Sheet(
        "tables",
        _("Win by table"),
        [
            Column("table", _("Table")),
            Column("game", _("Game")),
            *table_columns(),
        ],
        [
            Row(
                [
                    r["table"],
                    r["game_name"],
                    r["opener"],
                    r["fills"],
                    r["credits"],
                    r["closer"],
                    r["win"],
                ]
            )
            for r in tables
        ],
        notes=[_("A table still open has no closer and no win yet.")]
        if any(r["closer"] is None for r in tables)
        else [],
        empty=_("No table opened this day."),
    )


def _games_sheet(game_wins: dict, totals: dict) -> Sheet:
    return Sheet(
        "games",
        _("Win by game"),
        [Column("game", _("Game")), Column("win", _("Win"), money=True)],
        [Row([g["game_name"], g["win"]]) for g in game_wins.values()]
        + ([Row([_("Day's total"), totals["win"]], "total")] if game_wins else []),
        empty=_("No table opened this day."),
    )


def _deposits_sheet(deposits: list) -> Sheet:
    return Sheet(
        "deposits",
        _("Deposits"),
        deposit_columns := slip_columns(Column("amount", _("Amount"), money=True), Column("signed", _("Signed"))),
        rows_of(deposit_columns, deposits),
        empty=_("No deposit this day."),
    )


def slip_columns(*own: Column) -> list[Column]:
    """The columns of a sheet of slips: each slip's number and time, then the sheet's own."""
    return [Column("slip", _("Slip")), Column("time", _("Time")), *own]


def rows_of(columns: list[Column], records: list[dict]) -> list[Row]:
    """One row per record, its cells in the columns' order: a record names each cell by its
    column's key, and its time `at`."""
    return [Row([record["at" if c.key == "time" else c.key] for c in columns]) for record in records]


def _variance_sheet(variances: list[dict]) -> Sheet:
    columns = slip_columns(
        Column("place", _("Place")),
        Column("chips_or_cash", _("Chips or cash")),
        Column("amount", _("Amount"), money=True),
        Column("reason", _("Reason")),
        Column("details", _("Details")),
        Column("opener_check", _("Opener against the last closer")),
    )
    rows = []
    recounted = {v["account"] for v in variances if v["recount_of"]}
    for v in variances:
        record = dict(v)
        if v["recount_of"]:
            record["slip"] = _("%(slip)s, recount of %(earlier)s") % {"slip": v["slip"], "earlier": v["recount_of"]}
        rows.extend(rows_of(columns, [record]))
        last_of_place = v is [w for w in variances if w["account"] == v["account"]][-1]
        if v["account"] in recounted and last_of_place:
            # What the place came to once its recount corrected the earlier count.
            net = sum(w["amount"] for w in variances if w["account"] == v["account"])
            rows.append(
                Row(
                    [_("Net for %(place)s") % {"place": v["place"]}, "", v["place"], "", net, "", "", ""],
                    "subtotal",
                )
            )
    return Sheet(
        "variances",
        _("Variance report"),
        columns,
        rows,
        notes=[
            _("Counted − expected: over is positive, short is negative."),
            _(
                "Reason: as chosen from the reconciliation's list (or as written, for an opener); details: the counter's own words."
            ),
            _(
                "An opener is checked against what its table's last closer left; a difference is signed off "
                "by the DRIC before the day closes."
            ),
        ]
        + (
            [
                _(
                    "A recount corrects the earlier count of the same place: the net for the place is what the "
                    "two come to."
                )
            ]
            if recounted
            else []
        ),
        empty=_("No variance this day."),
    )


def _books(day: GamingDay, hidden: set[str]) -> set[str]:
    """The blind counts the day's totals wait for (counts.books_blind); on an open day, read by
    one who counts, those of bank cash, the chip bank and the tip pool blind to them (`hidden`):
    the day's sales, redemptions, trays and tips would give their books away as they do at night."""
    if day.status == GamingDay.Status.OPEN:
        return {code for code in BOOKS if code in hidden}
    return books_blind(day)


def day_figures(day: GamingDay, *, close: bool = False, counter: bool = False) -> dict:
    """The day's figures, for the nightly close: {"totals": {key: cents}, "tables", "games",
    "variances", "deposits", "sheets"}. A fixed number of queries. `close`: with the tip
    distribution and the cage accountability (each place's walk from its opening balance to
    expected and counted) the daily sheets show, for the DRIC to approve with (the same sheets,
    under the same blind rules). `counter`: read by one of those who count the places, to whom
    an uncounted place's expected figure stays blind on an open day too (counts.blind_places)."""
    loaded = _load(day)
    hidden = blind_places(day, counter=counter)
    figures = _figures(loaded, place_names(day.event), hidden, _books(day, hidden))
    if close:
        figures["sheets"] += [_tips_sheet(loaded, hidden), _cage_sheet(loaded, _balances(day), hidden)]
    return figures


# --- the daily control sheets ------------------------------------------------------------------


def _closer_and_win(tables: list[dict]) -> tuple:
    """The closer and the win of some tables together: "open" while any of them is still open."""
    if any(r["closer"] is None for r in tables):
        return STILL_OPEN, STILL_OPEN
    return sum(r["closer"] for r in tables), sum(r["win"] for r in tables)


def _master_sheet(figures: dict) -> Sheet:
    rows = []
    by_game: dict[str, list[dict]] = defaultdict(list)
    for r in figures["tables"]:
        by_game[r["game_name"]].append(r)
    for name, tables in by_game.items():
        for r in tables:
            rows.append(Row([name, r["table"], r["opener"], r["fills"], r["credits"], *_closer_and_win([r])]))
        rows.append(
            Row(
                [
                    _("%(game)s subtotal") % {"game": name},
                    "",
                    sum(r["opener"] for r in tables),
                    sum(r["fills"] for r in tables),
                    sum(r["credits"] for r in tables),
                    *_closer_and_win(tables),
                ],
                "subtotal",
            )
        )
    if figures["tables"]:
        t = figures["tables"]
        closer, win = _closer_and_win(t)
        rows.append(
            Row(
                [
                    _("Day's total"),
                    "",
                    sum(r["opener"] for r in t),
                    sum(r["fills"] for r in t),
                    sum(r["credits"] for r in t),
                    closer,
                    figures["totals"]["win"] if win is not STILL_OPEN else STILL_OPEN,
                ],
                "total",
            )
        )
    return Sheet(
        "master_game_report",
        _("Master game report"),
        [
            Column("game", _("Game")),
            Column("table", _("Table")),
            *table_columns(),
        ],
        rows,
        notes=[_("Win = closer − opener − fills + credits. A table still open has no closer and no win yet.")],
        empty=_("No table opened this day."),
    )


def _tables_text(slip: Slip) -> str:
    """The tables a slip moves chips at: "BJ-1", or a chip transfer's "BJ-1 → WOF-1"."""
    codes = [slip.table.code if code is None else code for _f, code in SLIP_KINDS[slip.slip_type].table_figures(slip)]
    return " → ".join(codes)


def _fill_credit_sheet(loaded: _Loaded, checks) -> Sheet:
    rows = []
    for slip in loaded.slips:
        if SLIP_KINDS[slip.slip_type].table_figure not in TABLE_MOVES:
            continue
        by = _signers(slip)
        void = loaded.voided.get(slip.pk)
        state = slip_state(slip, set(by), voided=void is not None)
        note = ""
        if void is not None:
            note = _("%(void)s: %(reason)s") % {"void": void.number, "reason": void.reason}
        rows.append(
            Row(
                [
                    slip.number,
                    _time(slip.at),
                    _tables_text(slip),
                    slip.runner.name if slip.runner else by.get("carried_by", ""),
                    _chips_text(slip.details.get("chips")),
                    chips_value(slip.details.get("chips", {}), loaded.values),
                    str(State.LABELS[state]),
                    note,
                ]
            )
        )
    notes = []
    for label in (k.label for k in SLIP_KINDS.values() if k.table_figure in TABLE_MOVES):
        check = next((c for c in checks if c.label == str(label)), None)
        if check is None:
            continue
        if check.day_serials:
            notes.append(_("%(slip)s serials of this day: %(serials)s.") % {"slip": label, "serials": check.day_text})
        if check.complete:
            notes.append(
                _("%(slip)s serials issued in the event up to this day: %(span)s, none missing.")
                % {"slip": label, "span": check.span}
            )
        else:
            notes.append(
                _("%(slip)s serials never issued: %(missing)s.")
                % {"slip": label, "missing": check.missing_text or check.above_text}
            )
    return Sheet(
        "fill_credit_register",
        _("Fill and credit register"),
        slip_columns(
            Column("table", _("Table")),
            Column("runner", _("Runner")),
            Column("chips", _("Chips")),
            Column("amount", _("Amount"), money=True),
            Column("state", _("State")),
            Column("void", _("Voided by")),
        ),
        rows,
        notes=notes,
        empty=_("No fill or credit this day."),
    )


def _tips_sheet(loaded: _Loaded, hidden: set[str]) -> Sheet:
    """The tips put in the pool and the payouts of it. While the tip pool is counted blind and its
    count is not in, what was put in (what the pool should hold) reads "not counted yet"."""
    blind = Account.Kind.TIP_POOL in hidden
    rows = []
    for slip in _live(loaded, *types_that(lambda k: k.report_total == "tips")):
        rows.append(
            Row(
                [
                    slip.number,
                    _time(slip.at),
                    _("tips counted at table %(table)s") % {"table": slip.table.code},
                    "",
                    NOT_COUNTED if blind else chips_value(slip.details.get("chips", {}), loaded.values),
                    _signed_text(slip),
                ],
                BLIND if blind else "",
            )
        )
    for slip in _live(loaded, *TIP_PAYOUTS):
        shares = slip.details.get("shares", [])
        for share in shares:
            rows.append(
                Row(
                    [
                        slip.number,
                        _time(slip.at),
                        loaded.names.get(share["person"], share["person"]),
                        Decimal(share["hours"]),
                        share["amount"],
                        "",
                    ]
                )
            )
        rows.append(
            Row(
                [
                    slip.number,
                    "",
                    _("paid out"),
                    sum((Decimal(s["hours"]) for s in shares), Decimal(0)),
                    sum(s["amount"] for s in shares),
                    _signed_text(slip),
                ],
                "total",
            )
        )
    return Sheet(
        "tip_distribution",
        _("Tip distribution"),
        slip_columns(
            Column("dealer", _("Dealer")),
            Column("hours", _("Hours"), num=True),
            Column("amount", _("Amount"), money=True),
            Column("signed", _("Signed")),
        ),
        rows,
        notes=[_("The whole tip pool is shared pro rata to hours (%(rule)s).") % {"rule": cite("T&C 2.6")}]
        + (
            [_("The tips put in show once the tip pool is counted: the nightly reconciliation counts it blind.")]
            if blind
            else []
        ),
        empty=_("No tips this day."),
    )


def _balances(day: GamingDay) -> dict:
    """{(account id): {"before": {instrument: cents}, "by_type": {slip type: cents}, ...}} for bank
    cash, the chip bank and the runners, up to the end of the day; voided slips and their voids
    left out (they cancel). Two aggregate queries, neither over the earlier days' slips
    (reports.figures.held_before)."""
    kinds = (Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK, Account.Kind.RUNNER)
    # A runner's line is there once something of theirs stands on this day or before (the runner
    # sheet leaves out one who has held nothing yet), whatever it adds up to: one query.
    held = (
        Posting.objects.filter(account=OuterRef("pk"), slip__day__date__lte=day.date)
        .exclude(slip__slip_type=VOID_KIND.type)
        .exclude(Exists(Slip.objects.voids_done().filter(voids=OuterRef("slip_id"))))
    )
    runners = set(
        Account.objects.filter(event=day.event, kind=Account.Kind.RUNNER)
        .filter(Exists(held))
        .values_list("person_id", flat=True)
    )
    result: dict = defaultdict(lambda: {"before": 0, "by_type": defaultdict(int), "cash": 0, "chips": 0, "kind": ""})
    for (kind, person, denomination, when), total in held_before(day, kinds=kinds).items():
        if kind == Account.Kind.RUNNER and person not in runners:
            continue
        entry = result[(kind, person)]
        entry["kind"] = kind
        if not when:
            entry["before"] += total
        else:
            entry["by_type"][when] += total
        entry["cash" if denomination is None else "chips"] += total
    return result


def _runner_sheet(loaded: _Loaded, balances: dict, runners: list[Person], hidden: set[str]) -> Sheet:
    per: dict[int, dict] = {
        p.pk: {"issued": 0, "sold": 0, "cash_taken": 0, "returned": 0, "carried": 0} for p in runners
    }
    for slip in loaded.slips:
        if slip.pk in loaded.voided or slip.runner_id is None or slip.runner_id not in per:
            continue
        value = chips_value(slip.details.get("chips", {}), loaded.values)
        entry = per[slip.runner_id]
        figure = SLIP_KINDS[slip.slip_type].runner_figure
        if figure == "issued":
            entry["issued"] += value
        elif figure == "sold":
            entry["sold"] += value
            entry["cash_taken"] += _cash(slip)
        elif figure == "returned":
            entry["returned"] += value + _cash(slip)
        elif figure == "carried":
            entry["carried"] += 1
    rows = []
    for person in runners:
        b = balances.get((Account.Kind.RUNNER, person.pk))
        entry = per[person.pk]
        if b is None and not any(entry.values()):
            continue
        b = b or {"before": 0, "chips": 0, "cash": 0}
        if f"{Account.Kind.RUNNER}:{person.code}" in hidden:
            # Counted blind, count not in: what the runner should hold waits, and so do the
            # movements that add up to it.
            rows.append(Row([person.name, *([None] * 5), entry["carried"], NOT_COUNTED, NOT_COUNTED], BLIND))
            continue
        rows.append(
            Row(
                [
                    person.name,
                    b["before"],
                    entry["issued"],
                    entry["sold"],
                    entry["cash_taken"],
                    entry["returned"],
                    entry["carried"],
                    b["chips"],
                    b["cash"],
                ]
            )
        )
    return Sheet(
        "runner_reconciliation",
        _("Runner reconciliation"),
        [
            Column("runner", _("Runner")),
            Column("opening", _("Held at the start"), money=True),
            Column("issued", _("Chips issued"), money=True),
            Column("sold", _("Chips sold"), money=True),
            Column("cash_taken", _("Cash taken for chips sold"), money=True),
            Column("returned", _("Returned (chips and cash)"), money=True),
            Column("carried", _("Fills and credits carried"), num=True),
            Column("holding_chips", _("Chips held at the end"), money=True),
            Column("holding_cash", _("Cash held at the end"), money=True),
        ],
        rows,
        notes=[_("Chips carried on a fill or credit still in transit are held by the runner who carries them.")]
        + _blind_note(rows),
        empty=_("No runner worked this day."),
    )


def _blind_note(rows: list[Row]) -> list[str]:
    if any(r.kind == BLIND for r in rows):
        return [
            _(
                "Counted blind tonight: a place's balances, and the movements that add up to them, show once "
                "its count is in."
            )
        ]
    return []


def _trust_first_and_last(kind) -> int:
    """The cage's lines start from the float the trust account gave and end with what went back to
    it; between them, every other movement in the order slip types are declared."""
    return 0 if kind.moves and kind.moves[0] == Account.Kind.TRUST else 2 if kind in _DEPOSIT_KINDS else 1


_DEPOSIT_KINDS = [SLIP_KINDS[t] for t in DEPOSITS]
# The lines of a place's movements on the cage accountability sheet (a count's over/short has its
# own line, and a void's reversal cancels its slip's).
ACCOUNTABILITY_ORDER = [
    k.type
    for k in sorted(SLIP_KINDS.values(), key=_trust_first_and_last)
    if k.type not in COUNTS and k is not VOID_KIND
]


def _cage_sheet(loaded: _Loaded, balances: dict, hidden: set[str]) -> Sheet:
    rows = []
    for kind, place in ((Account.Kind.BANK_CASH, _("bank cash")), (Account.Kind.CHIP_BANK, _("chip bank"))):
        if kind in hidden:
            rows.append(Row([place, _("Counted blind: shown once its count is in"), None], BLIND))
            continue
        b = balances.get((kind, None)) or {"before": 0, "by_type": {}}
        rows.append(Row([place, _("Opening balance"), b["before"]]))
        expected = b["before"]
        for slip_type in ACCOUNTABILITY_ORDER:
            moved = b["by_type"].get(slip_type, 0)
            if moved:
                rows.append(Row([place, SLIP_KINDS[slip_type].label, moved]))
                expected += moved
        rows.append(Row([place, _("Expected"), expected], "subtotal"))
        counts = [s for s in _live(loaded, *COUNTS) if s.account and s.account.kind == kind]
        if counts:
            last = counts[-1]
            counted = chips_value(last.details.get("chips") or {}, loaded.values) + (last.details.get("cash") or 0)
            rows.append(Row([place, _("Counted (%(slip)s)") % {"slip": last.number}, counted]))
        else:
            rows.append(Row([place, _("Counted"), None]))
        # Before its first count a place has no over/short: $0.00 would read as counted and even.
        over_short = sum(b["by_type"].get(t, 0) for t in COUNTS) if counts else NOT_COUNTED
        rows.append(Row([place, _("Over/short"), over_short], "total"))
    return Sheet(
        "cage_accountability",
        _("Cage accountability"),
        [Column("place", _("Place")), Column("line", _("Line")), Column("amount", _("Amount"), money=True)],
        rows,
        notes=[_("Movements into the place are positive, out of it negative; voided slips count for nothing.")]
        + _blind_note(rows),
    )


def _handover_sheet(loaded: _Loaded) -> Sheet:
    """The shift handovers of the day: bank cash or the chip bank passed from one cashier to the
    next, counted together; what the books expected beside the count, and the difference (noted,
    not posted: the nightly count settles the books). Shown once recorded, as a count's books are."""
    columns = slip_columns(
        Column("place", _("Place")),
        Column("outgoing", _("Handed over by")),
        Column("incoming", _("Taken over by")),
        Column("counted", _("Counted"), money=True),
        Column("expected", _("Expected"), money=True),
        Column("difference", _("Difference"), money=True),
    )
    rows = []
    for slip in _live(loaded, *HANDOVERS):
        details = slip.details or {}
        counted = chips_value(details.get("chips") or {}, loaded.values) + (details.get("cash") or 0)
        difference = sum(d["amount"] for d in details.get("differences") or [])
        signers = _signers(slip)
        rows.append(
            Row(
                [
                    slip.number,
                    clock(slip.at),
                    account_label(slip.account),
                    signers.get("handed_over_by", ""),
                    signers.get("taken_over_by", ""),
                    counted,
                    counted - difference,
                    difference,
                ]
            )
        )
    return Sheet(
        "handovers",
        _("Shift handovers"),
        columns,
        rows,
        notes=[_("Difference: counted − expected, noted at the handover; the nightly count settles the books.")]
        if rows
        else [],
        empty=_("No shift handover this day."),
    )


def _staffing_sheet(loaded: _Loaded, shifts, gaps: dict) -> Sheet:
    rows = []
    for shift in shifts:
        rows.append(
            Row(
                [
                    str(ROLE_NAMES[shift.role]),
                    shift.person.name,
                    _time(shift.starts_at),
                    _time(shift.ends_at),
                    _("roster"),
                ]
            )
        )
    # Who signed the day's slips in each designated position, first and last signature.
    signed: dict[tuple[str, str], list] = {}
    role_of = {Role.DRIC: Role.DRIC, Role.GENERAL_CASHIER: Role.GENERAL_CASHIER, Role.CHIP_CASHIER: Role.CHIP_CASHIER}
    for slip in loaded.slips:
        kind = SLIP_KINDS[slip.slip_type]
        for s in slip.signatures.all():
            cap = kind.capacity(s.capacity)
            for role in cap.roles if cap else ():
                if role in role_of and role in s.person.role_codes():
                    span = signed.setdefault((role, s.person.name), [s.signed_at, s.signed_at])
                    span[0], span[1] = min(span[0], s.signed_at), max(span[1], s.signed_at)
    for role in DESIGNATED:
        for (r, name), (first, last) in signed.items():
            if r == role:
                rows.append(Row([str(ROLE_NAMES[role]), name, _time(first), _time(last), _("signed slips")]))
    notes = []
    for role, spans in gaps.items():
        for start, end in spans:
            notes.append(
                _("%(role)s: nobody on the roster from %(start)s to %(end)s")
                % {"role": ROLE_NAMES[role], "start": clock(start), "end": clock(end)}
            )
    if not shifts:
        notes.append(_("No roster recorded for this day; the positions are shown from the slips signed."))
    return Sheet(
        "staffing",
        _("Staffing"),
        [
            Column("position", _("Position")),
            Column("person", _("Person")),
            Column("from", _("From")),
            Column("until", _("Until")),
            Column("source", _("Source")),
        ],
        rows,
        notes=notes,
        empty=_("Nobody on the roster and no slip signed this day."),
    )


def _close_sign_off(loaded: _Loaded) -> dict:
    """Who reviewed and approved the day: the day close's signatures (prepared by the General
    Cashier, verified by the Chip Cashier, approved by the DRIC), one line per capacity, each with
    the signer's name, role and time, or blank (None) while nobody has signed it."""
    close = next((s for s in loaded.slips if s.slip_type == DAY_CLOSE_KIND.type), None)
    signed = {s.capacity: s for s in close.signatures.all()} if close else {}
    lines = []
    for capacity in DAY_CLOSE_KIND.capacities:
        signature = signed.get(capacity.code)
        lines.append(
            {
                "capacity": str(capacity.label),
                "role": capacity.roles_label(),
                "name": signature.person.name if signature else None,
                "signed_at": (
                    date_format(timezone.localtime(signature.signed_at), "SHORT_DATETIME_FORMAT") if signature else None
                ),
                # For the CSV: the event's local time, as a machine reads it ("2026-09-12T02:10:00-04:00").
                "signed_iso": timezone.localtime(signature.signed_at).isoformat() if signature else None,
            }
        )
    seal = seal_digest(loaded.day)
    shown = grouped(seal) if seal else None
    return {"slip": close.number if close else None, "lines": lines, "seal": seal, "seal_shown": shown}


def expense_sheet(day: GamingDay) -> Sheet:
    """The day's expenses, paid from the licensee's trust account, never from the cage: each standing
    expense slip (both signatures in, not voided), its category, description, invoice and amount."""
    from cage.slip_fields import EXPENSE_LABELS  # the categories as the form offers them

    expenses = (
        Slip.objects.standing()
        .filter(day=day, slip_type__in=EXPENSES, postings__account__kind=Account.Kind.EXPENSES)
        .annotate(paid=Sum("postings__amount"))
        .order_by("at", "id")
    )
    rows = [
        Row(
            [
                slip.number,
                _time(slip.at),
                str(EXPENSE_LABELS.get(slip.details.get("category", ""), slip.details.get("category", ""))),
                slip.details.get("description", ""),
                slip.details.get("invoice", ""),
                slip.paid,
            ]
        )
        for slip in expenses
    ]
    if rows:
        rows.append(Row([_("Day's total"), "", "", "", "", sum(row.cells[-1] for row in rows)], "total"))
    return Sheet(
        "expenses",
        _("Expenses"),
        slip_columns(
            Column("category", _("Category")),
            Column("description", _("Description")),
            Column("invoice", _("Invoice")),
            Column("amount", _("Amount"), money=True),
        ),
        rows,
        empty=_("No expense this day."),
    )


def day_sheets(day: GamingDay, *, counter: bool = False) -> dict:
    """Every daily control sheet of one gaming day, and its figures. A fixed number of queries.

    {"event", "date", "figures": day_figures' dict, "sheets": [Sheet, ...], "sign_off": the day
    close's signatures (see _close_sign_off)}. `counter`: as day_figures.
    """
    event = day.event
    loaded = _load(day)
    # While the day reconciles, the places counted blind show no balance until their count is in;
    # to those who count them, on an open day too (counts.blind_places).
    hidden = blind_places(day, counter=counter)
    figures = _figures(loaded, place_names(event), hidden, _books(day, hidden))
    balances = _balances(day)
    runners = list(event.people.filter(assignments__role=Role.RUNNER).order_by("name"))
    shifts = list(day.shifts.select_related("person").order_by("starts_at", "role"))
    # Signatures' people need their roles, for the staffing sheet: one query for all of them.
    people = {p.pk: p for p in Person.objects.filter(event=event).prefetch_related("assignments")}
    for slip in loaded.slips:
        for s in slip.signatures.all():
            s.person = people.get(s.person_id, s.person)
    sheets = [
        withheld(_master_sheet(figures), figures["books"]),
        withheld(_fill_credit_sheet(loaded, serial_checks(event, through=day)), figures["books"]),
        _variance_sheet(figures["variances"]),
        _tips_sheet(loaded, hidden),
        _runner_sheet(loaded, balances, runners, hidden),
        _cage_sheet(loaded, balances, hidden),
        _handover_sheet(loaded),
        _staffing_sheet(loaded, shifts, roster_gaps(day)),
        # Paid from the trust account, not the cage, but the day's all the same (issue 26).
        expense_sheet(day),
    ]
    if used_any(day):
        # The day worked on paper for a while (DESIGN: when the network or the power fails).
        sheets.append(_paper_sheet(books_of_day(day)))
    return {
        "event": event,
        "day": day,
        "date": day.date.isoformat(),
        "date_shown": date_format(day.date, "DATE_FORMAT"),
        "figures": figures,
        "sheets": sheets,
        "sign_off": _close_sign_off(loaded),
    }


def _paper_sheet(used) -> Sheet:
    """Every paper serial of each book the day used: entered (with the slip it became), entered as
    void, returned unused, recorded missing, or not yet accounted for."""
    columns = [
        Column("book", _("Book of paper slips")),
        Column("entered", _("Entered")),
        Column("void", _("Void")),
        Column("unused", _("Returned unused")),
        Column("missing", _("Missing")),
        Column("unaccounted", _("Not yet accounted for")),
    ]
    rows = [
        Row(
            [
                book.label,
                ", ".join(f"{s.serial} → {s.slip.number}" for s in book.entered),
                book.voided,
                book.unused,
                book.missing,
                serial_ranges(book.unaccounted),
            ]
        )
        for book in used
    ]
    return Sheet("paper", _("Paper slips"), columns, rows, empty=_("No paper slip was used this day."))


def sheets_json(data: dict) -> dict:
    """The day's sheets as JSON: money as "1234.56"."""
    return {
        "format": "cage-day/1",
        "event": data["event"].slug,
        "date": data["date"],
        # A total not counted yet (counted blind) is null.
        "figures": {
            k: None if k in data["figures"]["blind"] else cents_str(v) for k, v in data["figures"]["totals"].items()
        },
        "sheets": {sheet.key: sheet.plain() for sheet in data["sheets"]},
    }
