"""What a records import reads again and again, read once.

The importer runs every record through the same services as the window (cage.importer), and each
service looks up the event's chip denominations, the accounts it moves chips between, the next
serial of its slip type and the time of the last slip. At the window that is a few queries a
minute; an import of a season asks them tens of thousands of times, and the ORM's cost of building
each query, not the database, is most of its time (bench/: `make bench`).

Within `remembering()` (the importer's run, in its scratch database, where nothing else writes)
those reads are answered from memory after the first, and so are the balances the custody checks
read, the gaming day and the table each slip locks, and the day's roster by role: the only
writer is the import itself, which keeps them. Everything here is loaded lazily from the
database, which stays the truth: `forget()` drops it all after any refusal, whose transaction the
database rolled back, so nothing remembered outlives a rolled-back write. Serials are counted in
memory from the event's slips and written to the counters once, as the block ends.

The slips, postings and signatures the services write are held too (`hold()`), their keys taken in
memory, and written in bulk (one executemany per table) just before any query reads or writes
their tables, and as the block ends: writing them one ORM insert at a time was most of an import's
time. The database still holds every row a query can see, so the services read what they always
read. A write a refusal rolls back is dropped, or taken out of the database with its transaction
(`rolled_back()`, called by cage.services.ledger.atomic_slip, which every slip service runs in;
what a rolled-back transaction had written out for earlier records is held again).
"""

import contextvars
import re
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Max

_current: contextvars.ContextVar["Memo | None"] = contextvars.ContextVar("cage_memo", default=None)


@dataclass
class Held:
    """Rows the services wrote during an import and the database has not seen yet."""

    # (order of writing, model, a model instance or a list of field values), each with its key
    # taken, in the order they were written
    rows: list = field(default_factory=list)
    # The rows written out while a transaction was open: its rollback takes them back out.
    written_in_transaction: list = field(default_factory=list)
    count: int = 0
    # {model: next key}: the keys past the highest in the table, taken in memory.
    next_key: dict = field(default_factory=dict)
    writing: bool = False


@dataclass
class DaySlips:
    """What a day's openings, closings and close ask of its slips (cage.services.day_slips)."""

    # {(table id, opener's slip type)}: the tables opened on the day
    opened: set = field(default_factory=set)
    # {slip id: (slip type, table id, {capacities signed})}: the day's fills and credits and a
    # table's voids, neither refused nor named by a void that is not refused
    custody: dict = field(default_factory=dict)
    # The ids of the day's slips written with a capacity they wait for unsigned: while none is, no
    # slip of the day waits for a signature.
    unsigned: set = field(default_factory=set)


class Memo:
    def __init__(self):
        self.held = Held()
        self.forget()

    def forget(self) -> None:
        self.denominations: dict[int, list] = {}
        self.accounts: dict[tuple[int, str], object] = {}
        self.serials: dict[tuple[int, str], int] = {}
        self.last_at: dict[int, object] = {}
        # {account id: {denomination id or None for cash: cents}}, for the accounts read so far,
        # kept up to date by every posting written (cage.services.ledger.write_postings).
        self.balances: dict[int, dict] = {}
        self.days: dict[int, object] = {}
        # {event id: {table id: GameTable}}: the services keep each table's state on these objects.
        self.tables: dict[int, dict[int, object]] = {}
        # {(day id, role): {person id: their shifts}}: the day's roster, by role
        self.rosters: dict[tuple[int, str], dict] = {}
        # {day id: the day's handovers}, as cage.selectors.handovers.takeovers reads them
        self.takeovers: dict[int, list] = {}
        # {table id: ({"serial", "date"} of its last closer, the chips left since)}, as
        # cage.services.openers reads and keeps them
        self.last_closers: dict[int, tuple[dict, object]] = {}
        # {event id: (seq, digest)}: the last link of each event's chain (cage.services.links)
        self.chain_heads: dict[int, tuple[int, str]] = {}
        # {day id: DaySlips}, as cage.services.day_slips reads and keeps them
        self.day_slips: dict[int, DaySlips] = {}

    # --- rows held for a bulk write -------------------------------------------------------

    def hold(self, obj) -> None:
        """Take `obj`'s key now and write it with the others of its table later (as save() would)."""
        obj.pk = self._next_key(type(obj))
        obj._state.adding, obj._state.db = False, DEFAULT_DB_ALIAS
        self._held_row(type(obj), obj)

    def hold_values(self, model, **values) -> None:
        """A row given by its fields' attnames, held as plain values: an import writes hundreds of
        thousands of postings and signatures, and a model instance for each costs more than its
        write."""
        values[model._meta.pk.attname] = self._next_key(model)
        self._held_row(model, [values[f.attname] for f in model._meta.concrete_fields])

    def _next_key(self, model) -> int:
        held = self.held
        if model not in held.next_key:
            held.next_key[model] = (model._base_manager.aggregate(last=Max("pk"))["last"] or 0) + 1
        held.next_key[model] += 1
        return held.next_key[model] - 1

    def _held_row(self, model, row) -> None:
        held = self.held
        held.rows.append((held.count, model, row))
        held.count += 1

    def mark(self) -> tuple[int, int]:
        return self.held.count, len(self.held.written_in_transaction)

    def rolled_back(self, mark: tuple[int, int]) -> None:
        """The transaction begun at `mark` was rolled back: drop what was held since, and hold
        again what was written out inside it but held before it began."""
        held, (count, written) = self.held, mark
        lost = held.written_in_transaction[written:]
        del held.written_in_transaction[written:]
        held.rows = sorted((row for row in lost + held.rows if row[0] < count), key=lambda row: row[0])
        held.next_key.clear()  # keys past a rolled-back row are taken afresh

    def committed(self) -> None:
        """No transaction is open any more: what was written stays written."""
        self.held.written_in_transaction.clear()

    def write_held(self) -> None:
        """Write every held row, a table at a time, parents first."""
        from cage.models import Posting
        from cage.staging import insert_rows, insert_values

        from . import running_totals

        held = self.held
        if not held.rows or held.writing:
            return
        connection = connections[DEFAULT_DB_ALIAS]
        rows, held.rows = held.rows, []
        by_model: dict = {}
        for _order, model, row in rows:
            by_model.setdefault(model, []).append(row)
        held.writing = True
        try:
            for model in sorted(by_model, key=_parents_first):
                written = by_model[model]
                if isinstance(written[0], list):
                    insert_values(connection, model, written)
                else:
                    insert_rows(connection, model, written)
                if model is Posting:
                    # Their places' running totals, with them: a rollback takes both back out, and the
                    # postings held again are added again as they are written again.
                    names = [f.attname for f in Posting._meta.concrete_fields]
                    posted = [names.index(n) for n in ("account_id", "day_id", "denomination_id", "amount")]
                    running_totals.add_rows([row[i] for i in posted] for row in written)
        finally:
            held.writing = False
        if connection.in_atomic_block:
            held.written_in_transaction.extend(rows)

    def before_query(self, execute, sql, params, many, context):
        """Any query that reads or writes a held row's table sees it written first."""
        held = self.held
        if held.rows and not held.writing and SEES_HELD.search(sql):
            self.write_held()
        if not held.writing and sql.lstrip()[:6].upper() in WRITES:
            if HELD_TABLES.search(sql):
                held.next_key.clear()  # a row written by the ORM took a key: take the next ones afresh
            if SLIP_FACTS.search(sql):
                # A slip, signature or refusal not written through the ledger's _write: the days'
                # facts are read again (cage.services.day_slips).
                self.day_slips.clear()
        return execute(sql, params, many, context)

    def event_tables(self, event_id: int) -> dict[int, object]:
        from events.models import GameTable

        if event_id not in self.tables:
            self.tables[event_id] = {t.pk: t for t in GameTable.objects.filter(event_id=event_id)}
        return self.tables[event_id]

    def posted(self, rows) -> None:
        for account_id, denomination_id, amount in rows:
            if account_id in self.balances:
                held = self.balances[account_id]
                held[denomination_id] = held.get(denomination_id, 0) + amount

    def next_serial(self, event, slip_type: str) -> int:
        from cage.models import Slip

        key = (event.pk, slip_type)
        if key not in self.serials:
            found = Slip.objects.filter(event=event, slip_type=slip_type).aggregate(last=Max("serial"))["last"]
            self.serials[key] = found or 0
        self.serials[key] += 1
        return self.serials[key]

    def write_counters(self) -> None:
        """The serial counters as the slips written leave them (the window's next_serial reads them)."""
        from cage.models import Slip, SlipCounter

        rows = Slip.objects.values("event_id", "slip_type").annotate(last=Max("serial"))
        for row in rows:
            SlipCounter.objects.update_or_create(
                event_id=row["event_id"], slip_type=row["slip_type"], defaults={"last": row["last"]}
            )


# The tables whose rows are held (hold()), their keys taken in memory: a slip, then its postings,
# signatures, its record of being signed in full (or not yet) and chain links. A write into one of
# them by the ORM took a key, so the next are taken afresh.
_HELD = r"slip|posting|signature|signedinfull|notsignedinfull|ledgerlink"
HELD_TABLES = re.compile(rf"\bcage_(?:{_HELD})\b")
# What a query must find written first: those tables, and the running totals the held postings add
# to (written with them: write_held). A write that only reads the running totals (a closing day's
# totals copied from them) takes no key of a held table.
SEES_HELD = re.compile(rf"\bcage_(?:{_HELD}|runningtotal)\b")
# The tables a day's slip facts are read from (cage.services.day_slips).
SLIP_FACTS = re.compile(r"\bcage_(?:slip|signature|signedinfull|refusal)\b")
WRITES = ("INSERT", "UPDATE", "DELETE")


def _parents_first(model) -> int:
    from cage.models import Slip

    return 0 if model is Slip else 1


def current() -> Memo | None:
    return _current.get()


@contextmanager
def remembering():
    memo = Memo()
    token = _current.set(memo)
    try:
        with connections[DEFAULT_DB_ALIAS].execute_wrapper(memo.before_query):
            yield memo
            memo.write_held()
            memo.write_counters()
    finally:
        _current.reset(token)


def forget() -> None:
    memo = _current.get()
    if memo is not None:
        memo.forget()


def day_added(day) -> None:
    """The import has just added and opened `day`. Its row changed outside the ledger's services,
    so its slips read it afresh. It holds no slip yet, so it has no handover and nothing its tables'
    openings and closings ask of its slips (DaySlips): known without a query. What else is
    remembered stays: a day's opening changes no account, balance, serial or table."""
    memo = _current.get()
    if memo is not None:
        memo.days.pop(day.pk, None)
        memo.takeovers[day.pk] = []
        memo.day_slips[day.pk] = DaySlips()
