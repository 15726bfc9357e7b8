"""Paper slips for when the system is down, and the cage's state on paper.

The paper slips page lists the books of blank paper slips printed for the event and prints new
ones (cage.services.paper); a book's PDF is a GET of a printing already recorded, so opening it
again writes nothing. The inventory's PDF is where every chip and dollar is at this moment, for the
team to keep beside the window when the screen goes dark.
"""

from django import forms
from django.contrib import messages
from django.db.models import Count, Min, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.models import PaperBook, PaperBookPrint, PaperSerial, paper_serial
from cage.selectors.cage_state import cage_state
from cage.selectors.people import current_day
from cage.services import paper as paper_books
from cage.slip_types import PAPER_KINDS, SLIP_KINDS
from core.rules import RuleViolation
from events.access import event_access
from events.file_commands import LANGUAGES

# A book as the Chip Cashier keeps one in the drawer: a day's worth of slips of one type.
BOOK_SIZE = 25


class PaperBookForm(forms.Form):
    slip_type = forms.ChoiceField(label=gettext_lazy("Slip type"))
    count = forms.IntegerField(
        label=gettext_lazy("Slips in the book"), min_value=1, max_value=paper_books.MOST_IN_A_BOOK, initial=BOOK_SIZE
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Printed in"), choices=[("en", "English"), ("fr", "Français")], initial="en"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slip_type"].choices = [(k.type.value, k.label) for k in PAPER_KINDS]
        self.fields["language"].initial = "fr" if translation.get_language().startswith("fr") else "en"


def _books(event) -> list[PaperBook]:
    """The event's books, each with how many of its serials are accounted for and how, in the
    order of the slip types' declarations."""
    tally = {
        f"n_{outcome}": Count("serials", filter=Q(serials__outcome=outcome), distinct=True)
        for outcome in PaperSerial.Outcome.values
    }
    books = list(
        PaperBook.objects.filter(event=event)
        .select_related("printed_by")
        .annotate(printings=Count("prints", distinct=True), first_print=Min("prints"), **tally)
    )
    order = {k.type: i for i, k in enumerate(PAPER_KINDS)}
    books.sort(key=lambda b: (order.get(b.slip_type, len(order)), b.first))
    for book in books:
        book.kind_label = SLIP_KINDS[book.slip_type].label
        book.first_serial, book.last_serial = paper_serial(book.first), paper_serial(book.last)
        book.left = book.count - book.n_entered - book.n_void - book.n_unused
    return books


def _page(request, access, form, status=200):
    return render(
        request,
        "cage/paper.html",
        {
            "access": access,
            "event": access.event,
            "books": _books(access.event),
            "form": form,
            "can_print": access.may("cage:paper_print", "POST"),
        },
        status=status,
    )


def paper(request, slug):
    return _page(request, event_access(request, slug), PaperBookForm())


def paper_print(request, slug):
    access = event_access(request, slug)
    form = PaperBookForm(request.POST)
    if not form.is_valid():
        return _page(request, access, form, status=400)
    data = form.cleaned_data
    try:
        printed = paper_books.book_print(
            event=access.event,
            slip_type=data["slip_type"],
            count=data["count"],
            user=request.user,
            language=data["language"],
        )
    except RuleViolation as exc:
        messages.error(request, exc.text)
        return redirect("cage:paper", slug)
    book = printed.book
    messages.success(
        request,
        _("Book printed: %(book)s. Give it to the Chip Cashier, who holds the paper slips.") % {"book": book},
    )
    return redirect("cage:paper_pdf", slug, printed.pk)


def paper_reprint(request, slug, book):
    access = event_access(request, slug)
    book = get_object_or_404(PaperBook, event=access.event, pk=book)
    language = "fr" if translation.get_language().startswith("fr") else "en"
    printed = paper_books.book_reprint(book=book, user=request.user, language=language)
    messages.success(request, _("Book printed again: %(book)s, every slip stamped REPRINT.") % {"book": book})
    return redirect("cage:paper_pdf", slug, printed.pk)


def paper_pdf(request, slug, printing):
    # ReportLab is imported here, not at start-up: every manage.py command would pay for it.
    from cage.paper_pdf import render_book

    access = event_access(request, slug)
    printed = get_object_or_404(
        PaperBookPrint.objects.select_related("book__event"), book__event=access.event, pk=printing
    )
    # In the language it was printed in: a reprint of a French book is French.
    with translation.override(LANGUAGES.get(printed.language, LANGUAGES["en"])):
        pdf = render_book(printed)
    book = printed.book
    name = slugify(f"{book.slip_type} {paper_serial(book.first)} {paper_serial(book.last)}")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


def inventory_pdf(request, slug):
    from cage.inventory_pdf import render_inventory

    access = event_access(request, slug)
    state = cage_state(access.event, current_day(access.event))
    pdf = render_inventory(state, printed_by=request.user)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{access.event.slug}-inventory.pdf"'
    return response
