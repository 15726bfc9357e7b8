"""Books of blank paper slips: the cage's fallback when the network or the power fails.

A book is printed before it is needed, from the paper slips page or `manage.py paper_slips`. Its
slips carry paper serials of their own series per slip type ("Fill P-0012"), which printing the
book reserves: the series never repeats and never meets the system's serials ("Fill 12"). Every
printing is on the audit trail; a book printed again is a reprint, stamped so on each slip.
"""

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from audit import services as audit
from cage.models import PaperBook, PaperBookPrint, paper_serial
from cage.slip_types import PAPER_KINDS, SLIP_KINDS
from core.rules import Lower, Rule, RuleViolation, Words
from events.models import Event

PAPER_RULE = Rule("paper_slips", gettext_lazy("paper slips when the system is down"))
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
