"""Writing the ledger's hash chain (core.chain says what a link holds and how it is hashed): one
link per write to an event's ledger, in the transaction that writes it, and a seal when a day locks.

Every service that writes ledger rows calls one of these as its last ledger write: post_slip (a
slip, its postings and the signatures made with it), signing (a later signature and what it moved),
the DRIC's refusal, an opener's sign-off, and the day's close (the seal).
"""

from django.utils import timezone

from cage.models import DaySeal, LedgerLink, Slip
from cage.services import memo as remembered
from core import chain

KIND_SLIP, KIND_SIGNATURE, KIND_REFUSAL, KIND_SIGN_OFF = "slip", "signature", "refusal", "sign_off"


def slip_key(slip: Slip) -> dict:
    return {"type": slip.slip_type, "serial": slip.serial}


def posting_rows(merged: dict, accounts: dict, chip_keys: dict) -> list:
    """[account code, instrument, cents] of each posting written, sorted: {(account id,
    denomination id or None): cents} as the services net them."""
    return sorted(
        [accounts[account_id].code, "cash" if key is None else f"chips:{chip_keys[key]}", amount]
        for (account_id, key), amount in merged.items()
        if amount
    )


def signature_rows(signed: dict, signed_at: dict) -> list:
    return sorted([capacity, person.code, chain.moment(signed_at[capacity])] for capacity, person in signed.items())


def chip_keys(legs) -> dict:
    """{denomination id: key} of the chips the legs move (read from them: no query)."""
    return {leg.denomination.pk: leg.denomination.key for leg in legs if leg.denomination is not None}


def slip_written(slip: Slip, *, legs, merged: dict, accounts: dict, signed: dict, signed_at: dict) -> None:
    """The link of a new slip: its own fields, its postings and the signatures made with it."""
    written = {
        "at": chain.moment(slip.at),
        "table": slip.table.code if slip.table_id else None,
        "runner": slip.runner.code if slip.runner_id else None,
        "account": slip.account.code if slip.account_id else None,
        "voids": slip_key(slip.voids) if slip.voids_id else None,
        "reason": slip.reason,
        "details": slip.details,
    }
    postings = posting_rows(merged, accounts, chip_keys(legs)) if merged else []
    return _append(
        slip,
        KIND_SLIP,
        {"written": written, "postings": postings, "signatures": signature_rows(signed, signed_at)},
    )


def signed(slip: Slip, *, legs, merged: dict, accounts: dict, capacity: str, person, at) -> None:
    """The link of a signature made after its slip, with the postings of the steps it completed."""
    postings = posting_rows(merged, accounts, chip_keys(legs)) if merged else []
    return _append(
        slip,
        KIND_SIGNATURE,
        {"postings": postings, "signatures": signature_rows({capacity: person}, {capacity: at})},
    )


def refused(refusal) -> None:
    return _append(
        refusal.slip,
        KIND_REFUSAL,
        {
            "refusal": {
                "person": refusal.person.code,
                "reason": refusal.reason,
                "at": chain.moment(refusal.refused_at),
            }
        },
    )


def signed_off(sign_off) -> None:
    return _append(
        sign_off.slip,
        KIND_SIGN_OFF,
        {"sign_off": {"person": sign_off.person.code, "at": chain.moment(sign_off.signed_at), "via": sign_off.via}},
    )


def head(event_id: int) -> tuple[int, str]:
    """(seq, digest) of the event's last link; (0, GENESIS) before its first."""
    memo = remembered.current()
    if memo is not None and event_id in memo.chain_heads:
        return memo.chain_heads[event_id]
    return chain.last_link(LedgerLink, "WHERE event_id = %s", [event_id])


def _append(slip: Slip, kind: str, added: dict) -> None:
    memo = remembered.current()
    if memo is None:
        chain.hold_lock()
    event, day = slip.event, slip.day
    seq, previous = head(event.pk)
    seq += 1
    content = {
        "v": chain.VERSION,
        "event": event.slug,
        "seq": seq,
        "day": day.date.isoformat(),
        "kind": kind,
        "slip": slip_key(slip),
        **added,
    }
    text = chain.canonical(content)
    digest = chain.chained(previous, text)
    values = {"event_id": event.pk, "seq": seq, "day_id": day.pk, "slip_id": slip.pk, "kind": kind}
    if memo is not None:
        # An import: written in bulk with the slips (cage.services.memo).
        memo.hold_values(LedgerLink, **values, content=text, digest=digest)
        memo.chain_heads[event.pk] = (seq, digest)
        return None
    chain.append(LedgerLink, {**values, "content": text, "digest": digest})
    return None


def seal(day) -> DaySeal:
    """The locked day's seal: the chain's last link as the day closed (its close slip's), with
    the audit trail's last link at the window (an import's trail is written after its days)."""
    from audit import chain as audit_chain  # the audit trail reads the cage's models

    memo = remembered.current()
    if memo is None:
        chain.hold_lock()
        audit_seq, audit_digest = audit_chain.head()
    else:
        audit_seq, audit_digest = None, ""
    seq, digest = head(day.event_id)
    return DaySeal.objects.create(
        day=day,
        seq=seq,
        digest=digest,
        audit_seq=audit_seq or None,
        audit_digest=audit_digest if audit_seq else "",
        sealed_at=timezone.now(),
    )
