"""The ledger's hash chain: every write to an event's ledger is a link whose SHA-256 digest covers
what it wrote and the link before it, so a change made below the application (SQL, a dropped
trigger, a file edited) is caught by `check_ledger`, and a locked day's *seal* (the digest of the
chain's last link when it closed), printed on the paper its three designated persons sign, names
the chain as it stood.

The canonical serialisation, defined here once (docs/cage-records-extensions.md says it for anyone
recomputing a chain from an export):

- A link's content is a JSON object, written with its keys sorted, no spaces (separators "," and
  ":"), UTF-8 without escaping non-ASCII characters, no NaN or infinity (`canonical`).
- Its digest is the SHA-256 of the previous link's digest (64 lower-case hex digits; 64 zeros for
  an event's first link), a line feed, and the content's UTF-8 bytes, in lower-case hex (`chained`).
- Content keys: "v" (1), "event" (slug), "seq" (1, 2, 3… per event, no gaps), "day" (the gaming
  day's date), "kind" ("slip", "signature", "refusal" or "sign_off"), "slip" ({"type", "serial"}),
  and what the write added: "written" (a new slip's own fields: "at", "table", "runner",
  "account", "voids", "reason", "details"), "postings" ([account code, "cash" or
  "chips:<denomination>", cents], sorted), "signatures" ([capacity, person id, signed at], sorted),
  "refusal" ({"person", "reason", "at"}), "sign_off" ({"person", "at", "via"}).
- Times are UTC, ISO 8601 with microseconds ("2026-09-11T15:30:00.000000+00:00"). People, tables
  and accounts are named by the ids the records file uses, never by database keys, so that an
  event exported and imported elsewhere has the same chain.

Each link is written in the transaction of the rows it describes. On PostgreSQL the writer holds
an advisory lock until it commits, so that two terminals never chain onto the same link; SQLite's
IMMEDIATE transactions already write one at a time. The lock is taken as the rows are linked, at the
end of a write, and must be the last lock a transaction waits for: one that then waited for a row
another writer holds while that writer waited for the chain would deadlock (a slip that may take
chips from the patrons locks them before its link: cage.services.ledger.post_slip).
"""

import datetime
import hashlib
import json

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection

GENESIS = "0" * 64
VERSION = 1
# PostgreSQL's advisory lock held by whoever extends a chain (the ledger's or the audit trail's).
CHAIN_LOCK = 0x5119_0002


def canonical(obj) -> str:
    """The one text a link's digest is taken of. Values a JSON field keeps as text (a Decimal, a
    date, a lazy translation) are written as the database gives them back, so the text is the same
    whether it is made from a row being written or from the row read back."""
    return json.dumps(
        obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False, cls=DjangoJSONEncoder
    )


def chained(previous: str, text: str) -> str:
    """SHA-256 of the previous digest, a line feed and the content."""
    return hashlib.sha256(f"{previous}\n{text}".encode()).hexdigest()


def moment(value: datetime.datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(datetime.UTC).isoformat(timespec="microseconds")


class Follower:
    """Follows a chain's links in order, as check_ledger reads them from the database and
    verify_records from a file: for each link, the seqs missing before it and whether its digest
    follows from its text and the link before it."""

    def __init__(self):
        self.previous, self.expected = GENESIS, 1

    def step(self, seq: int, digest: str, text: str) -> tuple[tuple[int, int] | None, bool]:
        """((first, last) of the seqs missing before this link, or None; whether it follows)."""
        gap = (self.expected, seq - 1) if seq != self.expected else None
        follows = chained(self.previous, text) == digest
        self.previous, self.expected = digest, seq + 1
        return gap, follows

    def skip(self) -> None:
        """A link that cannot be read: the next is expected after it."""
        self.expected += 1


def hold_lock() -> None:
    """PostgreSQL: until this transaction ends, nobody else extends a chain."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CHAIN_LOCK])


def last_link(model, where: str = "", params=()) -> tuple[int, str]:
    """(seq, digest) of the last link of a chain's table (`where` narrows it to one event's), or
    (0, GENESIS). Plain SQL, as append() writes: a slip at the window pays for its links in
    round trips, not in the ORM's building of a query each time."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {quote('seq')}, {quote('digest')} FROM {quote(model._meta.db_table)} {where} "
            f"ORDER BY {quote('seq')} DESC LIMIT 1",
            params,
        )
        return cursor.fetchone() or (0, GENESIS)


def append(model, values: dict) -> None:
    """Write one link row of plain values (column names as the model's attnames)."""
    append_rows(model, list(values), [list(values.values())])


def append_rows(model, names: list[str], rows: list) -> None:
    """Write link rows of plain values, the fields `names` (attnames) in that order, in one
    executemany: a season's import links hundreds of thousands of entries, and a model instance for
    each costs more than its hash."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(model._meta.get_field(name).column) for name in names)
    statement = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(names))})"
    with connection.cursor() as cursor:
        if len(rows) == 1:  # a window's one link: a plain INSERT, as the ORM's would be
            cursor.execute(statement, rows[0])
        else:
            cursor.executemany(statement, rows)


def grouped(digest: str) -> str:
    """A digest as it is printed for people to read and type: eight groups of eight."""
    return " ".join(digest[i : i + 8] for i in range(0, len(digest), 8))


def typed(text: str) -> str:
    """A digest as someone typed it from paper: spaces and dashes dropped, lower case."""
    return "".join(ch for ch in str(text) if ch not in " -\t").lower()
