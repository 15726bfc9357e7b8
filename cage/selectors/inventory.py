"""The cage home page's two live panels: where every chip and dollar is, and how each table stands.

Read-only: these never create an Account (ledger.account_get would), so a place with no account
yet is shown holding nothing. Each runs a fixed number of queries however big the event is.
"""

from dataclasses import dataclass, field

from django.db.models import Case, Count, Sum, Value, When
from django.utils.translation import gettext as _

from cage.models import Account, Posting, Slip
from cage.selectors.openers import openers_of_day
from cage.selectors.places import held_by_places, places_of_kind
from cage.slip_types import types_that
from core.compiled import Compiled
from core.money import count_text, dollars
from events.models import ChipDenomination, Event, GameTable, GamingDay, Person, Role
from events.selectors import chip_set, tables_of

# --- inventory grid -------------------------------------------------------------------------


@dataclass(frozen=True)
class Chips:
    """A number of chips of one denomination and what they are worth."""

    count: int
    cents: int

    @property
    def dollars(self) -> str:
        return dollars(self.cents)

    @property
    def count_shown(self) -> str:
        return count_text(self.count)  # 1,000 chips, read at a glance like the dollars beside them


@dataclass
class InventoryRow:
    label: str
    key: str  # the place as the ledger codes it ("bank_cash", "runner:rita", "table:BJ-1"), for pages to find
    chips: list[Chips]  # one per denomination, in the event's order
    cash: int
    # Counted blind and not yet counted: the page shows no figure of it (cage.selectors.counts).
    hidden: bool = False
    # Not counted tonight (a table's tray: its count is its closer), but what it holds would give
    # the chip bank's books away while the chip bank is counted blind (counts.books_blind).
    withheld: bool = False
    # A closed table's tray that has not opened yet on an open day: its opener is counted blind
    # against the last closer, so what it holds waits for the opener (counts.awaiting_opener).
    at_opener: bool = False

    @property
    def total(self) -> int:
        return self.cash + sum(c.cents for c in self.chips)

    @property
    def cash_dollars(self) -> str:
        return dollars(self.cash)

    @property
    def total_dollars(self) -> str:
        return dollars(self.total)


@dataclass
class Inventory:
    denominations: list[ChipDenomination]
    rows: list[InventoryRow]
    totals: InventoryRow
    # Chips in patrons' hands, per denomination: sold and not yet lost to a table or redeemed.
    outstanding: list[Chips] = field(default_factory=list)
    # The day's totals wait for the blind counts (counts.books_blind): trays and patrons' chips too.
    books_hidden: bool = False

    @property
    def blind(self) -> bool:
        """Some place is counted blind: its figures, and the totals they would give away, wait."""
        return any(r.hidden or r.withheld or r.at_opener for r in self.rows)

    @property
    def counted_blind(self) -> bool:
        """Some place other than a tray still to open is counted blind (its own note says those)."""
        return any(r.hidden or r.withheld for r in self.rows)

    @property
    def at_opener(self) -> bool:
        """Some tray waits for its blind opener (its figures and the totals hidden)."""
        return any(r.at_opener for r in self.rows)

    @property
    def outstanding_cents(self) -> int:
        return sum(c.cents for c in self.outstanding)

    @property
    def outstanding_dollars(self) -> str:
        return dollars(self.outstanding_cents)

    @property
    def outstanding_items(self) -> list[tuple[ChipDenomination, Chips]]:
        return [(d, c) for d, c in zip(self.denominations, self.outstanding, strict=True) if c.count]


# The custody places the grid lists. Dealers' "tips paid" accounts are custody in the ledger but
# hold what was paid out to people; the grid shows what the cage still answers for.
GRID_KINDS = (
    Account.Kind.BANK_CASH,
    Account.Kind.CHIP_BANK,
    Account.Kind.RUNNER,
    Account.Kind.TABLE,
    Account.Kind.TIP_POOL,
)


def _chips(held: dict[int | None, int], denominations: list[ChipDenomination]) -> list[Chips]:
    # Chips are posted in cents of face value; the count is cents ÷ the chip's value.
    return [Chips(count=held.get(d.pk, 0) // d.value_cents, cents=held.get(d.pk, 0)) for d in denominations]


def inventory(
    event: Event,
    *,
    hidden: set[str] | frozenset = frozenset(),
    books_hidden: bool = False,
    at_opener: set[str] | frozenset = frozenset(),
) -> Inventory:
    """Every custody place of the event with its chips (count and dollars) per denomination, its
    cash and its total, then the totals; and the chips outstanding in patrons' hands.

    `hidden`: the places (by code) whose book balance is not shown while they are counted blind
    (cage.selectors.counts.blind_places); their rows carry no figure, and neither do the totals.
    `books_hidden`: bank cash, the chip bank or the tip pool still waits for its blind count
    (counts.books_blind): the tables' trays and the chips in patrons' hands carry no figure either.
    `at_opener`: the trays (by code) of tables still to open today (counts.awaiting_opener), whose
    opener is counted blind: their rows carry no figure, nor do the totals.

    Runners (everyone holding the runner role) and tables are listed even when they hold nothing.
    Five queries: denominations, accounts, runners, tables, and one aggregate for the balances.
    """
    denominations = chip_set(event)
    accounts = places_of_kind(event.pk, (*GRID_KINDS, Account.Kind.PATRONS))
    held = held_by_places(event.pk)
    by_kind: dict[str, Account] = {}
    by_person: dict[int, Account] = {}
    by_table: dict[int, Account] = {}
    for account in accounts:
        if account.kind == Account.Kind.RUNNER:
            by_person[account.person_id] = account
        elif account.kind == Account.Kind.TABLE:
            by_table[account.table_id] = account
        else:
            by_kind[account.kind] = account

    def row(label: str, key: str, account: Account | None) -> InventoryRow:
        if key in hidden:
            return InventoryRow(label=label, key=key, chips=_chips({}, denominations), cash=0, hidden=True)
        if key in at_opener:
            return InventoryRow(label=label, key=key, chips=_chips({}, denominations), cash=0, at_opener=True)
        if books_hidden and account_kind_of(key) == Account.Kind.TABLE:
            return InventoryRow(label=label, key=key, chips=_chips({}, denominations), cash=0, withheld=True)
        values = held.get(account.id, {}) if account is not None else {}
        return InventoryRow(label=label, key=key, chips=_chips(values, denominations), cash=values.get(None, 0))

    rows = [
        row(_("bank cash"), Account.Kind.BANK_CASH, by_kind.get(Account.Kind.BANK_CASH)),
        row(_("chip bank"), Account.Kind.CHIP_BANK, by_kind.get(Account.Kind.CHIP_BANK)),
    ]
    # A runner who lost the role but still holds chips stays listed until they hand them back.
    runners = {p.pk: p for p in _RUNNERS.objects(event.pk)}
    runners.update({pk: a.person for pk, a in by_person.items() if pk not in runners})
    for person in sorted(runners.values(), key=lambda p: (p.name, p.pk)):
        rows.append(
            row(_("runner %(name)s") % {"name": person.name}, f"runner:{person.code}", by_person.get(person.pk))
        )
    for table in tables_of(event.pk):
        rows.append(row(_("table %(table)s") % {"table": table.code}, f"table:{table.code}", by_table.get(table.pk)))
    rows.append(row(_("tip pool"), Account.Kind.TIP_POOL, by_kind.get(Account.Kind.TIP_POOL)))

    totals = InventoryRow(
        label=_("total"),
        key="total",
        chips=[
            Chips(count=sum(r.chips[i].count for r in rows), cents=sum(r.chips[i].cents for r in rows))
            for i in range(len(denominations))
        ],
        cash=sum(r.cash for r in rows),
    )
    patrons = by_kind.get(Account.Kind.PATRONS)
    # Sales post chips into the patrons' account and closers, tips and redemptions take them
    # out, so its chip balance is what is in patrons' hands (positive: it is never the minus).
    outstanding = _chips(held.get(patrons.id, {}) if patrons and not books_hidden else {}, denominations)
    return Inventory(
        denominations=denominations, rows=rows, totals=totals, outstanding=outstanding, books_hidden=books_hidden
    )


def account_kind_of(key: str) -> str:
    """ "table:BJ-1" -> "table"; "bank_cash" -> "bank_cash"."""
    return key.partition(":")[0]


# --- tables' state ----------------------------------------------------------------------------


@dataclass
class Movements:
    count: int = 0
    cents: int = 0

    @property
    def dollars(self) -> str:
        return dollars(self.cents)


@dataclass
class TableState:
    table: GameTable
    game: str
    is_open: bool
    opener: int | None  # cents counted at today's opener; None when it has not opened today
    fills: Movements
    credits: Movements

    @property
    def opener_dollars(self) -> str:
        return dollars(self.opener) if self.opener is not None else ""


def _moved_by_table(day_id: int):
    """What each table's fills and credits of a day moved: by table and direction, how many slips
    and how much. What a fill or credit moved is what it posted into (or out of) the table's tray:
    into it a fill, out of it a credit (a chip transfer is both, to its two tables). A voided fill
    or credit counts for nothing, and the void itself is not a fill or a credit.

    By the slips' day, from its index, and the slips the day's done voids name (a void is of its
    slip's own day):
    asked by the postings' own day, which no index begins with, SQLite read every posting of the
    database, and every slip for the voids; the cage home's tables panel grew with every event."""
    return (
        Posting.objects.filter(
            slip__day_id=day_id,
            slip__slip_type__in=types_that(lambda k: k.table_figure in ("fills", "credits")),
            account__kind=Account.Kind.TABLE,
        )
        .exclude(slip__in=Slip.objects.voids_done().filter(day_id=day_id, voids__isnull=False).values("voids_id"))
        .annotate(into=Case(When(amount__gt=0, then=Value(True)), default=Value(False)))
        .values("account__table_id", "into")
        .annotate(slips=Count("slip", distinct=True), cents=Sum("amount"))
    )


# Compiled once (core.compiled): the cage home and its refresh ask them every few seconds.
_MOVED = Compiled(_moved_by_table)
_RUNNERS = Compiled(lambda event_id: Person.objects.filter(event_id=event_id, assignments__role=Role.RUNNER).distinct())


def table_states(day: GamingDay | None, event: Event | None = None) -> list[TableState]:
    """Each table of the event: its game, open or closed, and for `day` its opener total and its
    fills and credits so far (how many, how much). A voided fill or credit counts for nothing,
    and the void itself is not a fill or a credit. Three queries with a day, one without.
    """
    event = event or day.event
    tables = tables_of(event.pk)
    openers: dict[int, int] = {}
    moved: dict[tuple[int, str], Movements] = {}
    if day is not None:
        for table_id, details in openers_of_day(day.pk).items():
            openers[table_id] = int(details.get("total", 0))
        for table_id, into, slips, cents in _MOVED.rows(day.pk):
            figure = "fills" if into else "credits"
            # PostgreSQL sums bigints as numeric: a Decimal to the driver.
            moved[(table_id, figure)] = Movements(count=slips, cents=abs(int(cents)))
    return [
        TableState(
            table=t,
            game=t.game_name,  # in the reader's language
            is_open=t.state == GameTable.State.OPEN,
            opener=openers.get(t.pk),
            fills=moved.get((t.pk, "fills"), Movements()),
            credits=moved.get((t.pk, "credits"), Movements()),
        )
        for t in tables
    ]
