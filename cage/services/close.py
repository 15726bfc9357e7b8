"""The day's close, signed by three people, each from their own session or with their own signing
PIN: the General Cashier prepares it, the Chip Cashier verifies it, the DRIC approves it with the
day's figures in front of her (DESIGN: slips and signatures; T&C 2). The day locks once all three
have signed. Anything posted to the day after the preparation means it no longer stands: the
General Cashier prepares the close again."""

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from audit import services as audit
from cage.models import CloseSignature, Slip
from cage.selectors.close import CLOSABLE, CLOSE, PREPARED, close_progress
from core.local import clock
from core.rules import Clock, RuleViolation, Words
from events.models import GamingDay, Person

from .day import close_day, close_problems
from .ledger import DuplicateRequest, check_signer, lock_day

RULE = gettext_lazy("nightly reconciliation")


def posted_since_text(progress) -> Words:
    """Why a preparation no longer stands: what was posted to the day after it."""
    return Words(
        N_(
            "%(slip)s was recorded at %(time)s, after %(name)s prepared the close at %(prepared)s: the "
            "preparation no longer stands, and the General Cashier prepares the close again"
        ),
        slip=progress.posted_since.number,
        time=Clock(progress.posted_since.at),
        name=progress.prepared.person.name,
        prepared=Clock(progress.prepared.signed_at),
    )


@transaction.atomic
def prepare_close(*, day: GamingDay, signed: dict[str, Person], created_by=None, request_key=None) -> Slip | None:
    """The General Cashier prepares the close, with whoever signs beside her now; the others sign
    later from their own sessions (sign_close). Returns the close slip if everyone signed now."""
    if request_key:
        # The same form posted twice: the first post's close, whatever the day's state now.
        done = Slip.objects.filter(event_id=day.event_id, request_key=request_key).first()
        if done is not None:
            raise DuplicateRequest(done)
    day = lock_day(day, allowed=CLOSABLE)
    if PREPARED not in signed:
        raise RuleViolation(
            Words(
                N_("the General Cashier prepares the day's close: prepared by is signed first, the others may follow")
            ),
            RULE,
            code="close.prepared_by_first",
        )
    for capacity, person in signed.items():
        check_signer(day.event, CLOSE, capacity, person, runner=None, signed=signed, day=day)
    progress = close_progress(day)
    if progress.stands:
        raise RuleViolation(
            Words(
                N_("the day's close is already prepared by %(name)s at %(time)s; it waits for %(missing)s"),
                name=progress.prepared.person.name,
                time=Clock(progress.prepared.signed_at),
                missing=", ".join(str(c.label).lower() for c in progress.missing),
            ),
            RULE,
            code="close.already_prepared",
        )
    problems = close_problems(day)
    if problems:
        raise RuleViolation(
            Words(N_("the day cannot close: %(problems)s"), problems="; ".join(problems)),
            RULE,
            code="day.cannot_close",
        )
    if progress.signatures:
        # A preparation that no longer stands: replaced, and the audit trail says so.
        withdrawn = {c: s.person.name for c, s in progress.signatures.items()}
        CloseSignature.objects.filter(day=day).delete()
        audit.record(
            "close_withdrawn",
            N_("The close of %(date)s prepared at %(time)s no longer stands: %(slip)s was recorded after it"),
            {
                "date": day.date.isoformat(),
                "time": clock(progress.prepared.signed_at),
                "slip": progress.posted_since.number,
            },
            event=day.event_id,
            old={"signed": withdrawn},
        )
    last = Slip.objects.filter(day=day).aggregate(last=Max("id"))["last"] or 0
    now = timezone.now()
    for capacity, person in signed.items():
        CloseSignature.objects.create(day=day, capacity=capacity, person=person, signed_at=now, after_slip_id=last)
    audit.record(
        "close_prepared",
        N_("%(name)s prepared the close of %(date)s"),
        {"name": signed[PREPARED].name, "date": day.date.isoformat()},
        event=day.event_id,
        about=signed[PREPARED],
        new={"signed": {c: p.name for c, p in signed.items()}},
    )
    return _complete(day, created_by=created_by, request_key=request_key)


@transaction.atomic
def sign_close(*, day: GamingDay, capacity: str, person: Person, created_by=None) -> Slip | None:
    """`person`, authenticated by the caller (their own session), signs `capacity` of the day's
    prepared close. Returns the close slip once the last of the three has signed."""
    day = lock_day(day, allowed=CLOSABLE)
    cap = CLOSE.capacity(capacity)
    progress = close_progress(day)
    if progress.prepared is None:
        raise RuleViolation(
            Words(N_("the day's close is not prepared yet: the General Cashier prepares it first")),
            RULE,
            code="close.not_prepared",
        )
    if progress.posted_since is not None:
        raise RuleViolation(posted_since_text(progress), RULE, code="close.posted_since")
    if cap is not None and capacity in progress.signatures:
        raise RuleViolation(
            Words(
                N_("%(capacity)s of the day's close is already signed by %(name)s"),
                capacity=cap.label,
                name=progress.signatures[capacity].person.name,
            ),
            gettext_lazy("slips and signatures: one signature per capacity"),
            code="close.already_signed",
        )
    signed = {c: s.person for c, s in progress.signatures.items()}
    check_signer(day.event, CLOSE, capacity, person, runner=None, signed=signed, day=day)
    CloseSignature.objects.create(
        day=day,
        capacity=capacity,
        person=person,
        signed_at=timezone.now(),
        after_slip_id=progress.prepared.after_slip_id,
    )
    audit.record(
        "close_signed",
        N_("%(name)s signed the close of %(date)s as %(capacity)s"),
        {"name": person.name, "date": day.date.isoformat(), "capacity": capacity},
        event=day.event_id,
        about=person,
        new={"capacity": capacity},
    )
    return _complete(day, created_by=created_by)


def _complete(day: GamingDay, *, created_by=None, request_key=None) -> Slip | None:
    """Once all three have signed: the close slip, with each signature at its own time, and the
    day locks (close_day checks once more what stands in the way)."""
    progress = close_progress(day)
    if progress.missing:
        return None
    return close_day(
        day=day,
        signed={c: s.person for c, s in progress.signatures.items()},
        signed_at={c: s.signed_at for c, s in progress.signatures.items()},
        at=progress.prepared.signed_at,
        created_by=created_by,
        request_key=request_key,
    )
