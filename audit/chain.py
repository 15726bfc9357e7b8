"""The audit trail's hash chain (cage.chain defines the canonical text and the digest): each entry
is linked, in the transaction that writes it, to the one before it, whatever its event, so an entry
changed, removed or slipped in below the application is caught by `check_ledger`.

An entry's content: "v" (1), "seq", "id" (its key) and its own columns as the database keeps
them ("at" in UTC with microseconds, the keys of the login, event, people and slip it names, its
JSON values as stored). The trail is never exported as a records file, so its keys may name it.
"""

import ipaddress

from django.db import transaction

from cage import chain

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
JSON_COLUMNS = {"params", "old", "new"}


def content(seq: int, entry_id: int, values: dict) -> str:
    """The text an entry's digest is taken of, from its columns' values."""
    obj = {"v": chain.VERSION, "seq": seq, "id": entry_id}
    for name in COLUMNS:
        value = values[name]
        if name == "at":
            value = chain.moment(value)
        elif name in JSON_COLUMNS:
            value = None if value is None else chain.as_stored(value)
        elif name == "address" and value:
            value = str(ipaddress.ip_address(value))
        obj[name] = value
    return chain.canonical(obj)


def head() -> tuple[int, str]:
    found = AuditLink.objects.order_by("-seq").values_list("seq", "digest").first()
    return found or (0, chain.GENESIS)


def link(entry: AuditEntry) -> AuditLink:
    """Link a newly written entry; call in its transaction."""
    chain.hold_lock()
    seq, previous = head()
    seq += 1
    values = {name: getattr(entry, name) for name in COLUMNS}
    return AuditLink.objects.create(
        seq=seq, entry_id=entry.pk, digest=chain.chained(previous, content(seq, entry.pk, values))
    )


def link_written(entry_ids) -> None:
    """Link entries written in bulk (a records import's trail), in the order of their keys, as the
    database holds them."""
    ids = sorted(entry_ids)
    if not ids:
        return
    with transaction.atomic():
        chain.hold_lock()
        seq, previous = head()
        links = []
        for start in range(0, len(ids), 500):
            rows = AuditEntry.objects.filter(pk__in=ids[start : start + 500]).order_by("pk").values("pk", *COLUMNS)
            for row in rows:
                seq += 1
                previous = chain.chained(previous, content(seq, row["pk"], row))
                links.append(AuditLink(seq=seq, entry_id=row["pk"], digest=previous))
        AuditLink.objects.bulk_create(links, batch_size=500)
