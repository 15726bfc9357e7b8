"""Books of blank paper slips: the cage's fallback when the network or the power fails.

A book is printed before it is needed, from the paper slips page or `manage.py paper_slips`. Its
slips carry paper serials of their own series per slip type ("Fill P-0012"), which printing the
book reserves: the series never repeats and never meets the system's serials ("Fill 12"). Every
printing is on the audit trail; a book printed again is a reprint, stamped so on each slip.
"""

import datetime

from django.db import IntegrityError, connection, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

from audit import services as audit
from cage.models import (
    PaperBook,
    PaperBookPrint,
    PaperConfirmation,
    PaperDraft,
    PaperSerial,
    PaperWritten,
    Signature,
    Slip,
    paper_serial,
)
from cage.selectors.paper import books_of_day, read_serial, serial_ranges
from cage.services.ledger import PAPER_FIRST_RULE as PAPER_RULE
from cage.services.ledger import lock_day
from cage.slip_types import PAPER_KINDS, SLIP_KINDS
from core.rules import Lower, RuleViolation, When, Words
from events.models import Event, GamingDay, Person, Role

# A book is carried in a cashier's drawer: a few dozen slips, never a ream.
MOST_IN_A_BOOK = 100


def paper_kind(slip_type: str):
    """The declaration of a slip type the cage keeps paper slips of, or a refusal."""
    kind = SLIP_KINDS.get(slip_type)
    if kind not in PAPER_KINDS:
        raise RuleViolation(
            Words(N_("there are no paper slips of type %(type)s"), type=str(slip_type)[:40]),
            PAPER_RULE,
            field="slip_type",
            code="paper.no_such_type",
        )
    return kind


def _book_size(count) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MOST_IN_A_BOOK:
        raise RuleViolation(
            Words(N_("a book holds 1 to %(most)s paper slips"), most=MOST_IN_A_BOOK),
            PAPER_RULE,
            field="count",
            code="paper.book_size",
        )
    return count


def book_print(*, event: Event, slip_type: str, count: int, user, language: str) -> PaperBookPrint:
    """A new book of `count` blank paper slips of `slip_type`, its serials reserved: the next ones
    of the type's paper series. `user` is who prints it (None from the command line)."""
    kind = paper_kind(slip_type)
    count = _book_size(count)
    if kind.takes("chips") and not event.denominations.exists():
        raise RuleViolation(
            Words(N_("the event's chip set is not entered yet: a %(slip)s lists its chips"), slip=Lower(kind.label)),
            PAPER_RULE,
            code="paper.no_chip_set",
        )
    with transaction.atomic():
        # One book at a time per event takes the next serials (SQLite's write lock does the same).
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).first()
        taken = PaperBook.objects.filter(event=event, slip_type=kind.type).aggregate(
            last=Max(F("first") + F("count") - 1)
        )["last"]
        now = timezone.now()
        book = PaperBook.objects.create(
            event=event, slip_type=kind.type, first=(taken or 0) + 1, count=count, printed_by=user, printed_at=now
        )
        printed = PaperBookPrint.objects.create(book=book, printed_by=user, printed_at=now, language=language)
        audit.record(
            "paper_book_printed",
            N_("Book of %(count)s paper slips printed: %(slip)s %(first)s to %(last)s"),
            _book_params(book),
            event=event,
            new={"slip_type": kind.type, "first": paper_serial(book.first), "last": paper_serial(book.last)},
        )
    return printed


def book_reprint(*, book: PaperBook, user, language: str) -> PaperBookPrint:
    """The same book printed again, its serials unchanged: every slip of it says REPRINT."""
    with transaction.atomic():
        printed = PaperBookPrint.objects.create(
            book=book, printed_by=user, printed_at=timezone.now(), language=language
        )
        audit.record(
            "paper_book_reprinted",
            N_("Book of paper slips printed again: %(slip)s %(first)s to %(last)s, stamped REPRINT"),
            _book_params(book),
            event=book.event_id,
            new={"slip_type": book.slip_type, "first": paper_serial(book.first), "copy": book.prints.count()},
        )
    return printed


def _book_params(book: PaperBook) -> dict:
    return {
        "count": book.count,
        "slip": str(SLIP_KINDS[book.slip_type].label),
        "first": paper_serial(book.first),
        "last": paper_serial(book.last),
    }


# --- after the outage ------------------------------------------------------------------------

# The first key of PostgreSQL's advisory lock on one book while a serial of it is accounted for:
# the paper tables are append-only, and the application's role may not lock their rows.
PAPER_LOCKS = 0x5119_0004
# Who says what was written during an outage and returns the unused slips: the Chip Cashier, who
# holds the books, and the DRIC. The paper slips themselves are entered by the cage's designated
# persons, each the slips of their own window (the General Cashier a redemption) as at the window.
KEEPERS = (Role.CHIP_CASHIER, Role.DRIC)
ENTER = (Role.CHIP_CASHIER, Role.GENERAL_CASHIER, Role.DRIC)


def _lock_book(book: PaperBook) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [PAPER_LOCKS, book.pk])


def _keeper(person: Person, day: GamingDay) -> Person:
    if person.event_id != day.event_id or not person.role_codes() & set(KEEPERS):
        raise RuleViolation(
            Words(N_("%(name)s is neither the Chip Cashier nor the DRIC, who keep the paper slips"), name=person.name),
            PAPER_RULE,
            code="paper.not_a_keeper",
        )
    return person


def _enterer(person: Person, day: GamingDay) -> Person:
    if person.event_id != day.event_id or not person.role_codes() & set(ENTER):
        raise RuleViolation(
            Words(N_("%(name)s is not one of the cage's designated persons, who enter paper slips"), name=person.name),
            "T&C 2",
            code="paper.not_cage",
        )
    return person


def find(*, event: Event, text: str, slip_type: str | None = None) -> tuple[PaperBook, int]:
    """The book and serial a paper slip names, as scanned from its QR code or typed from the paper,
    once it is known to be of this event, in one of its books and not yet accounted for."""
    scanned = read_serial(text)
    if scanned.slug is not None and scanned.slug != event.slug:
        raise RuleViolation(
            Words(N_("this paper slip is from another event (%(slug)s), not this one"), slug=scanned.slug[:60]),
            PAPER_RULE,
            field="serial",
            code="paper.other_event",
        )
    if not (scanned.slip_type or slip_type):
        raise RuleViolation(
            Words(N_("choose the paper slip's type, or scan its QR code")),
            PAPER_RULE,
            field="slip_type",
            code="paper.type_needed",
        )
    kind = paper_kind(scanned.slip_type or slip_type)
    if scanned.number is None:
        raise RuleViolation(
            Words(N_("%(text)s is not a paper serial such as P-0012"), text=(text or "").strip()[:40]),
            PAPER_RULE,
            field="serial",
            code="paper.not_a_serial",
        )
    number = scanned.number
    book = PaperBook.objects.filter(event=event, slip_type=kind.type, first__lte=number).order_by("-first").first()
    if book is None or number > book.last:
        raise RuleViolation(
            Words(
                N_("no book of paper slips printed for this event holds %(slip)s %(serial)s"),
                slip=kind.label,
                serial=paper_serial(number),
            ),
            PAPER_RULE,
            field="serial",
            code="paper.no_book",
        )
    _not_yet_accounted(book, number)
    said = _said_written(book)
    if said is None or number > said:
        # Typed past what was said written, a blank slip still in the book would go on record.
        raise RuleViolation(
            Words(
                N_(
                    "%(slip)s %(serial)s is past what was said written in its book (%(said)s): if it was "
                    "written, first say the book was written up to it"
                ),
                slip=kind.label,
                serial=paper_serial(number),
                said=_("nothing yet") if said is None else _("up to %(serial)s") % {"serial": paper_serial(said)},
            ),
            PAPER_RULE,
            field="serial",
            code="paper.not_said_written",
        )
    return book, number


def _not_yet_accounted(book: PaperBook, number: int) -> None:
    done = PaperSerial.objects.filter(book=book, number=number).select_related("slip").first()
    if done is not None:
        raise RuleViolation(
            Words(
                N_("paper slip %(slip)s %(serial)s is already accounted for: %(outcome)s, recorded %(when)s"),
                slip=SLIP_KINDS[book.slip_type].label,
                serial=paper_serial(number),
                outcome=Lower(PaperSerial.Outcome(done.outcome).label),
                when=When(done.recorded_at),
            ),
            PAPER_RULE,
            field="serial",
            code="paper.already_accounted",
        )


def written_declare(*, day: GamingDay, book: PaperBook, last: int, person: Person) -> PaperWritten:
    """The paper slips of `book` written during an outage: every serial up to `last` (a book is
    used in order). Each is then entered or entered as void before any new slip of the day."""
    _keeper(person, day)
    if book.event_id != day.event_id or not book.first <= last <= book.last:
        raise RuleViolation(
            Words(
                N_("the last paper slip written must be one of the book's, %(first)s to %(last)s"),
                first=paper_serial(book.first),
                last=paper_serial(book.last),
            ),
            PAPER_RULE,
            field="last",
            code="paper.not_in_book",
        )
    with transaction.atomic():
        lock_day_for_paper(day)
        before = _said_written(book, day)
        if before is not None and last < before:
            # Said once, it stands: a serial said written and never written is entered as void.
            raise RuleViolation(
                Words(
                    N_(
                        "%(book)s was already said written up to %(said)s; a serial said written in error is "
                        "entered as void, saying so"
                    ),
                    book=str(book),
                    said=paper_serial(before),
                ),
                PAPER_RULE,
                field="last",
                code="paper.written_lower",
            )
        written = PaperWritten.objects.create(day=day, book=book, last=last, person=person, declared_at=timezone.now())
        audit.record(
            "paper_written",
            N_("Paper slips written during the outage: %(slip)s %(first)s to %(last)s, to be entered"),
            {
                "slip": str(SLIP_KINDS[book.slip_type].label),
                "first": paper_serial(book.first),
                "last": paper_serial(last),
            },
            event=day.event_id,
            about=person,
            new={"book": str(book), "last": paper_serial(last)},
        )
    return written


def lock_day_for_paper(day: GamingDay) -> GamingDay:
    """The slips' own lock on their day, which also refuses a day neither open nor reconciling."""
    return lock_day(day, allowed=(GamingDay.Status.OPEN, GamingDay.Status.RECONCILING))


def _said_written(book: PaperBook, day: GamingDay | None = None) -> int | None:
    """The last serial of `book` said written during an outage (of `day`, when given), or None."""
    said = PaperWritten.objects.filter(book=book)
    if day is not None:
        said = said.filter(day=day)
    return said.aggregate(last=Max("last"))["last"]


def enter(
    *,
    day: GamingDay,
    book: PaperBook,
    number: int,
    written_at: datetime.datetime,
    signed: dict[str, Person],
    confirmed: dict[str, str],
    entered_by: Person,
    user=None,
    request_key: str | None = None,
    **fields,
) -> Slip:
    """A paper slip entered once the system is back: the slip its type's service writes, at the time
    written on the paper and checked by the same rules (so after every slip already in the books:
    paper slips are entered in the order of their written times), with every signature the paper
    bears. `confirmed`: the signers who confirmed the paper bears their signature as it is entered,
    {capacity: PaperConfirmation.Via}; the others confirm later, and the slip stands out on the
    DRIC's queue until they have."""
    from cage import services  # the slip types' services, which post through the ledger

    kind = SLIP_KINDS[book.slip_type]
    _enterer(entered_by, day)
    now = timezone.now()
    _check_paper_slip(kind, written_at, signed, now)
    try:
        with transaction.atomic():
            _lock_book(book)
            _not_yet_accounted(book, number)
            slip = getattr(services, kind.service)(
                day=day,
                signed=signed,
                at=written_at,
                created_by=user,
                request_key=request_key,
                allow_pending=True,
                paper={"serial": paper_serial(number), "entered_by": entered_by.code, "entered_at": now.isoformat()},
                **fields,
            )
            _record_entered(slip, book, number, confirmed, entered_by, now)
    except RuleViolation as exc:
        if exc.code != "slip.out_of_order":
            raise
        # Said as the cashier with a stack of paper slips needs it said.
        raise RuleViolation(
            Words(
                N_(
                    "the time written on this paper slip, %(at)s, is before the last slip already in the books "
                    "(%(last)s), written before the outage: check the time written"
                ),
                **exc.arguments,
            ),
            PAPER_RULE,
            field="written_time",
            code="paper.out_of_order",
        ) from exc
    except IntegrityError as exc:
        # Entered a moment ago from another terminal: the same refusal as had it been seen first.
        _not_yet_accounted(book, number)
        raise exc
    return slip


def _check_paper_slip(kind, written_at: datetime.datetime, signed: dict, now: datetime.datetime) -> None:
    """What a paper slip must be before its type's own rules: written by now, and signed by everyone
    who handed over or took what it moves."""
    if written_at > now:
        raise RuleViolation(
            Words(N_("the time written on the paper slip, %(at)s, is still to come"), at=When(written_at)),
            PAPER_RULE,
            field="written_at",
            code="paper.written_later",
        )
    unsigned = [c for c in kind.capacities if not c.witness and c.code not in signed]
    if unsigned:
        raise RuleViolation(
            Words(
                N_(
                    "a paper %(slip)s bears the signature of each person who handed over or took what it moves: "
                    "%(capacities)s missing"
                ),
                slip=Lower(kind.label),
                capacities=", ".join(str(c.label).lower() for c in unsigned),
            ),
            PAPER_RULE,
            code="paper.custody_unsigned",
        )


def _record_entered(slip: Slip, book: PaperBook, number: int, confirmed: dict, entered_by: Person, now) -> None:
    """The serial accounted for by the slip written from it, the signers who confirmed as it was
    entered, and the audit trail's entry."""
    PaperSerial.objects.create(
        book=book,
        number=number,
        outcome=PaperSerial.Outcome.ENTERED,
        day=slip.day,
        slip=slip,
        person=entered_by,
        recorded_at=now,
    )
    signatures = {s.capacity: s for s in slip.signatures.all()}
    PaperConfirmation.objects.bulk_create(
        [
            PaperConfirmation(signature=signatures[c], confirmed_at=now, via=via)
            for c, via in confirmed.items()
            if c in signatures
        ]
    )
    written_at = slip.at.isoformat()
    audit.record(
        "paper_slip_entered",
        N_("%(slip)s entered from paper slip %(paper)s, written at %(at)s"),
        {
            "slip": str(slip.number),
            "paper": f"{SLIP_KINDS[book.slip_type].label} {paper_serial(number)}",
            "at": written_at,
        },
        event=slip.event_id,
        slip=slip,
        about=entered_by,
        new={"paper": paper_serial(number), "written_at": written_at},
    )


def enter_void(*, day: GamingDay, book: PaperBook, number: int, reason: str, entered_by: Person) -> PaperSerial:
    """A paper slip marked VOID on the paper (written in error, torn): kept with the book, it moves
    nothing and is accounted for as void."""
    _enterer(entered_by, day)
    reason = (reason or "").strip()
    if not reason:
        raise RuleViolation(
            Words(N_("say why the paper slip is void, as written on it")),
            PAPER_RULE,
            field="reason",
            code="paper.void_reason",
        )
    with transaction.atomic():
        lock_day_for_paper(day)
        _lock_book(book)
        _not_yet_accounted(book, number)
        voided = PaperSerial.objects.create(
            book=book,
            number=number,
            outcome=PaperSerial.Outcome.VOID,
            day=day,
            person=entered_by,
            recorded_at=timezone.now(),
            reason=reason[:500],
        )
        audit.record(
            "paper_slip_void",
            N_("Paper slip %(paper)s entered as void: %(reason)s"),
            {"paper": f"{SLIP_KINDS[book.slip_type].label} {paper_serial(number)}", "reason": reason[:500]},
            event=day.event_id,
            about=entered_by,
            new={"paper": paper_serial(number), "outcome": "void"},
        )
    return voided


def confirm(*, signature: Signature, person: Person, via: str) -> PaperConfirmation:
    """`person` confirms that the paper slip bears their signature (their own session, or their
    signing PIN checked at the window by the caller)."""
    if signature.person_id != person.pk:
        raise RuleViolation(
            Words(N_("only %(name)s confirms their own signature"), name=signature.person.name),
            PAPER_RULE,
            code="paper.confirm_own",
        )
    with transaction.atomic():
        if PaperConfirmation.objects.filter(signature=signature).exists():
            raise RuleViolation(
                Words(N_("%(name)s has already confirmed this signature"), name=person.name),
                PAPER_RULE,
                code="paper.confirmed",
            )
        made = PaperConfirmation.objects.create(signature=signature, confirmed_at=timezone.now(), via=via)
        audit.record(
            "paper_signature_confirmed",
            N_("%(name)s confirmed their signature on paper slip %(paper)s (%(slip)s)"),
            {
                "name": person.name,
                "paper": signature.slip.details.get("paper", {}).get("serial", ""),
                "slip": str(signature.slip.number),
            },
            event=signature.slip.event_id,
            slip=signature.slip,
            about=person,
            new={"capacity": signature.capacity, "via": via},
        )
    return made


def return_unused(*, day: GamingDay, book: PaperBook, numbers: list[int], person: Person) -> list[PaperSerial]:
    """The blank slips of a book the day used, counted back by the Chip Cashier at the close. A serial
    said written during an outage is not blank: it is entered, or entered as void."""
    written = _said_written(book) or 0
    said_written = [n for n in numbers if n <= written]
    if said_written:
        raise RuleViolation(
            Words(
                N_("%(serials)s were said written during the outage: enter them, or enter them as void, saying why"),
                serials=serial_ranges(said_written),
            ),
            PAPER_RULE,
            code="paper.written_not_blank",
        )
    return _account_for(day, book, numbers, person, PaperSerial.Outcome.UNUSED, "")


def declare_missing(
    *, day: GamingDay, book: PaperBook, numbers: list[int], reason: str, person: Person
) -> list[PaperSerial]:
    """Serials neither entered nor in the book at the close: the DRIC records them missing, saying why."""
    if Role.DRIC not in person.role_codes() or person.event_id != day.event_id:
        raise RuleViolation(
            Words(N_("only the DRIC records a paper slip missing")), "T&C 2", code="paper.missing_by_dric"
        )
    if not (reason or "").strip():
        raise RuleViolation(
            Words(N_("say why the paper slips are missing")), PAPER_RULE, field="reason", code="paper.missing_reason"
        )
    return _account_for(day, book, numbers, person, PaperSerial.Outcome.MISSING, reason.strip()[:500])


def _account_for(day, book, numbers, person, outcome, reason) -> list[PaperSerial]:
    _keeper(person, day)
    numbers = sorted(set(numbers))
    if not numbers or book.event_id != day.event_id or not all(book.first <= n <= book.last for n in numbers):
        raise RuleViolation(
            Words(
                N_("choose serials of the book, %(first)s to %(last)s"),
                first=paper_serial(book.first),
                last=paper_serial(book.last),
            ),
            PAPER_RULE,
            code="paper.serials_not_in_book",
        )
    with transaction.atomic():
        lock_day_for_paper(day)
        _lock_book(book)
        for number in numbers:
            _not_yet_accounted(book, number)
        now = timezone.now()
        made = PaperSerial.objects.bulk_create(
            [
                PaperSerial(
                    book=book, number=n, outcome=outcome, day=day, person=person, recorded_at=now, reason=reason
                )
                for n in numbers
            ]
        )
        audit.record(
            f"paper_slips_{outcome}",
            N_("%(count)s paper slips of %(book)s accounted for as %(outcome)s: %(serials)s"),
            {
                "count": len(numbers),
                "book": str(book),
                "outcome": str(PaperSerial.Outcome(outcome).label).lower(),
                "serials": ", ".join(paper_serial(n) for n in numbers),
            },
            event=day.event_id,
            about=person,
            new={"outcome": outcome, "serials": [paper_serial(n) for n in numbers], "reason": reason},
        )
    return made


# --- typed in any order, posted in the order of the written times -------------------------------


def _kept(value):
    """A service's argument as JSON keeps it: a row by its model and id, a Decimal as text."""
    from decimal import Decimal

    from django.db import models

    if isinstance(value, models.Model):
        return {"_row": value._meta.label, "pk": value.pk}
    if isinstance(value, Decimal):
        return {"_decimal": str(value)}
    if isinstance(value, list | tuple):
        return [_kept(v) for v in value]
    if isinstance(value, dict):
        return {k: _kept(v) for k, v in value.items()}
    return value


def _restored(value):
    from decimal import Decimal

    from django.apps import apps

    if isinstance(value, dict) and "_row" in value:
        return apps.get_model(value["_row"]).objects.get(pk=value["pk"])
    if isinstance(value, dict) and "_decimal" in value:
        return Decimal(value["_decimal"])
    if isinstance(value, list):
        return [_restored(v) for v in value]
    if isinstance(value, dict):
        return {k: _restored(v) for k, v in value.items()}
    return value


def draft_keep(
    *,
    day: GamingDay,
    book: PaperBook,
    number: int,
    written_at: datetime.datetime,
    typed: dict,
    fields: dict,
    signed: dict[str, Person],
    confirmed: dict[str, str],
    entered_by: Person,
) -> PaperDraft:
    """A paper slip as typed, kept until the outage's others are typed too; typing the same serial
    again corrects it. Posted by drafts_post, in the order of the written times."""
    kind = SLIP_KINDS[book.slip_type]
    _enterer(entered_by, day)
    _check_paper_slip(kind, written_at, signed, timezone.now())
    with transaction.atomic():
        lock_day_for_paper(day)
        _not_yet_accounted(book, number)
        draft, _made = PaperDraft.objects.update_or_create(
            book=book,
            number=number,
            defaults={
                "day": day,
                "written_at": written_at,
                "typed": typed,
                "fields": _kept(fields),
                "signed": {capacity: person.pk for capacity, person in signed.items()},
                "confirmed": confirmed,
                "entered_by": entered_by,
                "typed_at": timezone.now(),
                "refusal": "",
            },
        )
    return draft


def drafts_ready(day: GamingDay) -> bool:
    """Every paper slip said written is typed or accounted for: the day's drafts may be posted."""
    drafted = set(PaperDraft.objects.filter(day=day).values_list("book_id", "number"))
    return all((b.book.pk, n) in drafted for b in books_of_day(day) for n in b.waiting)


def drafts_post(day: GamingDay, *, user=None) -> tuple[list[Slip], PaperDraft | None]:
    """Post the day's typed paper slips in the order of their written times, each as paper.enter
    enters it. Stops at the first one refused, which keeps its refusal and waits for its
    correction; those before it stand. Returns (the slips posted, the draft refused or None)."""
    posted = []
    for draft in PaperDraft.objects.filter(day=day).select_related("book", "entered_by").order_by("written_at", "id"):
        people = {p.pk: p for p in Person.objects.filter(pk__in=draft.signed.values())}
        try:
            slip = enter(
                day=day,
                book=draft.book,
                number=draft.number,
                written_at=draft.written_at,
                signed={capacity: people[pk] for capacity, pk in draft.signed.items()},
                confirmed=draft.confirmed,
                entered_by=draft.entered_by,
                user=user,
                **_restored(draft.fields),
            )
        except RuleViolation as exc:
            PaperDraft.objects.filter(pk=draft.pk).update(refusal=exc.text[:2000])
            draft.refusal = exc.text
            return posted, draft
        PaperDraft.objects.filter(pk=draft.pk).delete()
        posted.append(slip)
    return posted, None
