"""The audit trail's hash chain (core.chain defines the canonical text and the digest): each entry
is linked, in the transaction that writes it, to the one before it, whatever its event, so an entry
changed, removed or slipped in below the application is caught by `check_ledger`.

An entry's content: "v" (1), "seq", "id" (its key) and its own columns as the database keeps
them ("at" in UTC with microseconds, the keys of the login, event, people and slip it names, its
JSON values as stored). The trail is never exported as a records file, so its keys may name it.
"""

import ipaddress

from core import chain

from .models import AuditEntry, AuditLink

COLUMNS = (
    "at",
    "event_id",
    "user_id",
    "username",
    "person_id",
    "roles",
    "action",
    "outcome",
    "message",
    "params",
    "rule",
    "about_id",
    "slip_id",
    "old",
    "new",
    "address",
    "channel",
    "request",
)


def content(seq: int, entry_id: int, values: dict) -> str:
    """The text an entry's digest is taken of, from its columns' values."""
    obj = {"v": chain.VERSION, "seq": seq, "id": entry_id}
    for name in COLUMNS:
        value = values[name]
        if name == "at":
            value = chain.moment(value)
        elif name == "address" and value:
            value = str(ipaddress.ip_address(value))
        obj[name] = value
    return chain.canonical(obj)


def head() -> tuple[int, str]:
    return chain.last_link(AuditLink)


def link(entry: AuditEntry) -> None:
    """Link a newly written entry; call in its transaction."""
    chain.hold_lock()
    seq, previous = head()
    seq += 1
    values = {name: getattr(entry, name) for name in COLUMNS}
    digest = chain.chained(previous, content(seq, entry.pk, values))
    chain.append(AuditLink, {"seq": seq, "entry_id": entry.pk, "digest": digest})


def link_written(rows: list[dict]) -> None:
    """Link entries written in bulk (a records import's trail, cage.staging.copied_rows: each row
    as written, {attname: value}), in the order of their keys. Call in their transaction."""
    if not rows:
        return
    chain.hold_lock()
    seq, previous = head()
    links = []
    for row in sorted(rows, key=lambda row: row["id"]):
        seq += 1
        previous = chain.chained(previous, content(seq, row["id"], row))
        links.append((seq, row["id"], previous))
    chain.append_rows(AuditLink, ["seq", "entry_id", "digest"], links)
