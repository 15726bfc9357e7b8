"""Paper slips, read: which serials a day has used, which wait to be entered, which are not yet
accounted for, and which signers have still to confirm their signature on an entered paper slip."""

import re
from dataclasses import dataclass, field

from django.db.models import Exists, F, Max, OuterRef, Q

from cage.models import PaperBook, PaperSerial, PaperWritten, Signature, paper_serial
from core.compiled import Compiled


@dataclass
class BookOfDay:
    """One book a gaming day used: its serials by what became of them, and those still to account for."""

    book: PaperBook
    written_up_to: int  # the last serial written during the day's outages (0: none declared)
    outcomes: dict[int, PaperSerial] = field(default_factory=dict)

    @property
    def unaccounted(self) -> list[int]:
        return [n for n in range(self.book.first, self.book.last + 1) if n not in self.outcomes]

    @property
    def waiting(self) -> list[int]:
        """Written during an outage and neither entered nor entered as void yet."""
        return [n for n in range(self.book.first, self.written_up_to + 1) if n not in self.outcomes]

    def serials(self, outcome: str) -> list[str]:
        return [paper_serial(n) for n, s in sorted(self.outcomes.items()) if s.outcome == outcome]

    # For the pages: each outcome's serials, and those still to account for as (number, serial).
    @property
    def entered(self) -> list[PaperSerial]:
        return [s for _n, s in sorted(self.outcomes.items()) if s.outcome == PaperSerial.Outcome.ENTERED]

    @property
    def voided(self) -> str:
        return serial_ranges([n for n, s in self.outcomes.items() if s.outcome == PaperSerial.Outcome.VOID])

    @property
    def unused(self) -> str:
        return serial_ranges([n for n, s in self.outcomes.items() if s.outcome == PaperSerial.Outcome.UNUSED])

    @property
    def missing(self) -> str:
        return serial_ranges([n for n, s in self.outcomes.items() if s.outcome == PaperSerial.Outcome.MISSING])

    @property
    def open_serials(self) -> list[tuple[int, str]]:
        return [(n, paper_serial(n)) for n in self.unaccounted]

    @property
    def written_serial(self) -> str:
        return paper_serial(self.written_up_to) if self.written_up_to else ""

    @property
    def label(self) -> str:
        from cage.slip_types import SLIP_KINDS

        return f"{SLIP_KINDS[self.book.slip_type].label} {paper_serial(self.book.first)}–{paper_serial(self.book.last)}"


def books_of_day(day) -> list[BookOfDay]:
    """The books `day` used: those it declared written during an outage, or entered a serial of.
    Three queries."""
    written = dict(
        PaperWritten.objects.filter(day=day).values("book_id").annotate(last=Max("last")).values_list("book_id", "last")
    )
    from cage.slip_types import PAPER_KINDS

    order = {k.type: i for i, k in enumerate(PAPER_KINDS)}
    books = sorted(
        PaperBook.objects.filter(Q(pk__in=written) | Q(serials__day=day), event_id=day.event_id).distinct(),
        key=lambda b: (order.get(b.slip_type, len(order)), b.first),
    )
    outcomes: dict[int, dict[int, PaperSerial]] = {b.pk: {} for b in books}
    for serial in PaperSerial.objects.filter(book__in=books).select_related("slip"):
        outcomes[serial.book_id][serial.number] = serial
    return [BookOfDay(b, written.get(b.pk, 0), outcomes[b.pk]) for b in books]


# Compiled once (core.compiled): every slip and every page of the window asks whether the day had
# an outage.
_PAPER_WRITTEN = Compiled(lambda day_id: PaperWritten.objects.filter(day_id=day_id))


def waiting_count(day) -> int:
    """How many paper slips written during the day's outages are still to be entered. None
    declared: no query beyond one."""
    if day is None or not _PAPER_WRITTEN.exists(day.pk):
        return 0
    return sum(len(b.waiting) for b in books_of_day(day))


# What the scanner types from a paper slip's QR code ("lakeside:fill:P-0012"), or what a cashier
# types from the paper ("P-0012", "p12", "12").
QR = re.compile(r"^(?P<slug>[-\w]+):(?P<type>[a-z_]+):(?P<serial>.+)$")
SERIAL = re.compile(r"^(?:P-?)?0*(?P<number>[1-9][0-9]{0,8})$", re.IGNORECASE)


@dataclass(frozen=True)
class Scanned:
    slug: str | None
    slip_type: str | None
    number: int | None


def read_serial(text: str) -> Scanned:
    """A paper serial as scanned or typed; `number` None when it reads as no serial."""
    text = (text or "").strip()
    slug = slip_type = None
    qr = QR.match(text)
    if qr:
        slug, slip_type, text = qr["slug"], qr["type"], qr["serial"]
    serial = SERIAL.match(text.replace(" ", ""))
    return Scanned(slug, slip_type, int(serial["number"]) if serial else None)


def _unconfirmed(event_id: int):
    # The signatures the paper bears were entered with it, at the time written on it; one made in
    # the system afterwards (the DRIC's approval from her queue) is her own and needs no word.
    # The slips entered from paper chosen first, from the paper books' serials: asked as the event's
    # slips that have a paper serial, SQLite read every slip of the event for the few (or none).
    entered = PaperSerial.objects.filter(
        book__event_id=event_id, outcome=PaperSerial.Outcome.ENTERED, slip__isnull=False
    ).values("slip_id")
    return Signature.objects.filter(slip_id__in=entered, signed_at=F("slip__at")).filter(confirmation__isnull=True)


# Counted first, compiled once (core.compiled).
_UNCONFIRMED = Compiled(lambda event_id: _unconfirmed(event_id).values_list("pk"))


def unconfirmed_signatures(event, *, day=None, slip=None) -> list[Signature]:
    """The signatures of entered paper slips whose signers have not yet confirmed them. One query; for
    the whole event, a count first, and the signatures only when there are any."""
    if day is None and slip is None and not _UNCONFIRMED.count(event.pk):
        return []  # the DRIC's queue asks on every refresh; most events never enter a paper slip
    signatures = _unconfirmed(event.pk)
    if day is not None:
        signatures = signatures.filter(slip__day=day)
    if slip is not None:
        if not (slip.details or {}).get("paper"):
            return []  # no query for a slip that was never on paper
        signatures = signatures.filter(slip=slip)
    signatures = list(signatures.select_related("slip", "person", "slip__paper__book").order_by("slip_id", "id"))
    from cage.slip_types import SLIP_KINDS

    for signature in signatures:
        # The capacity as people say it: "Received by".
        signature.capacity_label = SLIP_KINDS[signature.slip.slip_type].capacity(signature.capacity).label
    return signatures


def serial_ranges(numbers: list[int]) -> str:
    """Serials as a person reads a run of them: "P-0003, P-0005–P-0025"."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(paper_serial(a) if a == b else f"{paper_serial(a)}–{paper_serial(b)}" for a, b in runs)


def used_any(day) -> bool:
    """Whether `day` has used a paper slip at all: one query, for the pages that ask on every load."""
    from events.models import GamingDay

    return (
        GamingDay.objects.filter(pk=day.pk)
        .filter(
            Exists(PaperWritten.objects.filter(day=OuterRef("pk")))
            | Exists(PaperSerial.objects.filter(day=OuterRef("pk")))
        )
        .exists()
    )


def unaccounted_problems(day) -> list[str]:
    """What stands between the day's close and its paper slips: each book the day used with
    serials neither entered, entered as void, returned unused nor recorded missing."""
    from django.utils.translation import gettext as _

    from cage.slip_types import SLIP_KINDS

    if not used_any(day):
        return []
    problems = []
    for used in books_of_day(day):
        if used.unaccounted:
            problems.append(
                _(
                    "paper slips not yet accounted for: %(slip)s %(serials)s; enter them, enter them as void, "
                    "return the blank ones unused, or the DRIC records them missing (Paper slips)"
                )
                % {"slip": SLIP_KINDS[used.book.slip_type].label, "serials": serial_ranges(used.unaccounted)}
            )
    return problems


def printer_name(user, event) -> str:
    """Who printed a sheet, as the team knows them: their name on the event, else their login."""
    person = event.people.filter(user=user).first()
    return person.name if person is not None else user.get_username()
