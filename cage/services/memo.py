"""What a records import reads again and again, read once.

The importer runs every record through the same services as the window (cage.importer), and each
service looks up the event's chip denominations, the accounts it moves chips between, the next
serial of its slip type and the time of the last slip. At the window that is a few queries a
minute; an import of a season asks them tens of thousands of times, and the ORM's cost of building
each query, not the database, is most of its time (bench/: `make bench`).

Within `remembering()` (the importer's run, in its scratch database, where nothing else writes)
those reads are answered from memory after the first, and so are the balances the custody checks
read, the gaming day and the table each slip locks, and the day's rostered runners: the only
writer is the import itself, which keeps them. Everything here is loaded lazily from the
database, which stays the truth: `forget()` drops it all after any refusal, whose transaction the
database rolled back, so nothing remembered outlives a rolled-back write. Serials are counted in
memory from the event's slips and written to the counters once, as the block ends.
"""

import contextvars
from contextlib import contextmanager

from django.db.models import Max

_current: contextvars.ContextVar["Memo | None"] = contextvars.ContextVar("cage_memo", default=None)


class Memo:
    def __init__(self):
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
        # {day id: ids of the people the day's roster lists as runners}
        self.runners: dict[int, set[int]] = {}

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


def current() -> Memo | None:
    return _current.get()


@contextmanager
def remembering():
    memo = Memo()
    token = _current.set(memo)
    try:
        yield memo
        memo.write_counters()
    finally:
        _current.reset(token)


def forget() -> None:
    memo = _current.get()
    if memo is not None:
        memo.forget()
