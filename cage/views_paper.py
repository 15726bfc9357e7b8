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
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from cage.forms import PaperSlipForm
from cage.models import PaperBook, PaperBookPrint, PaperConfirmation, PaperDraft, PaperSerial, Signature, paper_serial
from cage.selectors.cage_state import cage_state
from cage.selectors.counts import counts_places
from cage.selectors.paper import (
    books_of_day,
    printer_name,
    read_serial,
    serial_ranges,
    unconfirmed_signatures,
    waiting_count,
)
from cage.selectors.people import current_day
from cage.services import paper as paper_books
from cage.slip_types import PAPER_KINDS, SLIP_KINDS
from core.local import clock
from core.rules import RuleViolation
from events.access import event_access
from events.file_commands import LANGUAGES
from events.models import GamingDay, Role
from events.not_found import NotThere
from events.services import pin_verify

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
        book.left = book.count - book.n_entered - book.n_void - book.n_unused - book.n_missing
        book.printer = printer_name(book.printed_by, event) if book.printed_by_id else ""
    return books


def _page(request, access, form=None, *, find=None, status=200):
    event = access.event
    day = current_day(event)
    open_day = day is not None and day.status in (GamingDay.Status.OPEN, GamingDay.Status.RECONCILING)
    used = books_of_day(day) if open_day else []
    return render(
        request,
        "cage/paper.html",
        {
            "access": access,
            "event": event,
            "day": day if open_day else None,
            "books": _books(event),
            "form": form or PaperBookForm(),
            "find": find or FindForm(),
            "can_print": access.may("cage:paper_print", "POST"),
            "keeps_books": open_day and access.may("cage:paper_close", "POST"),
            "enters_paper": open_day and access.may("cage:paper_enter", "POST"),
            "is_dric": Role.DRIC in access.roles,
            "used": used,
            "waiting": sum(len(u.waiting) for u in used),
            "typed": PaperDraft.objects.filter(day=day).count() if used else 0,
            "unconfirmed": unconfirmed_signatures(event, day=day) if open_day else [],
            "drafts": list(PaperDraft.objects.filter(day=day).select_related("book", "entered_by")) if open_day else [],
        },
        status=status,
    )


def paper(request, slug):
    return _page(request, event_access(request, slug))


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
    state = cage_state(access.event, current_day(access.event), counter=counts_places(access.roles))
    pdf = render_inventory(state, printed_by=request.user)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{access.event.slug}-inventory.pdf"'
    return response


# --- after the outage ------------------------------------------------------------------------


class FindForm(forms.Form):
    """The paper slip to enter: its QR code scanned (the scanner types it), or its serial typed
    with its type chosen."""

    def __init__(self, *args, **kwargs):
        # Its own ids: the page's book form has a slip type too.
        kwargs.setdefault("auto_id", "find_%s")
        super().__init__(*args, **kwargs)
        self.fields["slip_type"].choices = [("", _("As scanned"))] + [(k.type.value, k.label) for k in PAPER_KINDS]
        self.fields["serial"].widget.attrs.update(autofocus=True, autocomplete="off")

    serial = forms.CharField(
        label=gettext_lazy("Paper serial"),
        max_length=120,
        help_text=gettext_lazy("Scan the slip's QR code, or type its serial (P-0012) and choose its type."),
    )
    slip_type = forms.ChoiceField(label=gettext_lazy("Slip type"), required=False)


def _keeping_day(request, access):
    """The open gaming day whose paper slips are accounted for, or None with a message said."""
    day = current_day(access.event)
    if day is None or day.status not in (GamingDay.Status.OPEN, GamingDay.Status.RECONCILING):
        messages.error(request, _("No gaming day is open; paper slips are entered into an open gaming day."))
        return None
    return day


def paper_find(request, slug):
    """GET: finds the paper slip a serial names and opens its entry form; writes nothing."""
    access = event_access(request, slug)
    if "serial" not in request.GET:
        return _page(request, access)
    find = FindForm(request.GET)
    if not find.is_valid():
        return _page(request, access, find=find, status=400)
    try:
        book, number = paper_books.find(
            event=access.event, text=find.cleaned_data["serial"], slip_type=find.cleaned_data["slip_type"] or None
        )
    except RuleViolation as exc:
        find.add_error("serial", exc.text)
        return _page(request, access, find=find, status=400)
    return redirect("cage:paper_enter", slug, book.pk, number)


def _book_serial(access, book, number) -> PaperBook:
    found = get_object_or_404(PaperBook, event=access.event, pk=book)
    if not found.first <= number <= found.last:
        raise NotThere(_("No such paper serial in this book"))
    return found


def paper_enter(request, slug, book, number):
    """One paper slip entered as written: the form of its slip type, its written time and its signers."""
    access = event_access(request, slug)
    book = _book_serial(access, book, number)
    day = _keeping_day(request, access)
    if day is None:
        return redirect("cage:paper", slug)
    kind = SLIP_KINDS[book.slip_type]
    done = PaperSerial.objects.filter(book=book, number=number).first()
    if done is not None:
        messages.info(
            request,
            _("%(paper)s is already accounted for: %(outcome)s.")
            % {"paper": f"{kind.label} {paper_serial(number)}", "outcome": done.get_outcome_display().lower()},
        )
        return redirect("cage:paper", slug)
    draft = PaperDraft.objects.filter(book=book, number=number).first()
    # A paper slip typed before shows as typed, with why it could not be posted, for correcting.
    form = PaperSlipForm(
        request.POST or (draft.typed if draft else None),
        kind=kind,
        day=day,
        signer=access.person,
        request=request,
        written_on=timezone.localdate(),
    )
    if request.method == "POST" and form.is_valid():
        typed = {k: v for k, v in request.POST.lists() if not k.startswith("pin_") and k != "csrfmiddlewaretoken"}
        try:
            paper_books.draft_keep(
                day=day,
                book=book,
                number=number,
                written_at=form.written_at(),
                typed={k: v if len(v) > 1 else v[0] for k, v in typed.items()},
                fields=form.service_kwargs(),
                signed=form.cleaned_data["signed"],
                confirmed=form.confirmed,
                entered_by=access.person,
            )
        except RuleViolation as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.text)
        else:
            messages.success(request, _("%(paper)s typed.") % {"paper": f"{kind.label} {paper_serial(number)}"})
            _post_when_ready(request, day)
            return redirect("cage:paper", slug)
    elif draft is not None and draft.refusal:
        form.add_error(None, draft.refusal)
    elif draft is not None:
        messages.info(
            request,
            _("%(paper)s was typed by %(name)s at %(when)s and waits for the others; sending it again replaces it.")
            % {"paper": draft.label, "name": draft.entered_by.name, "when": clock(draft.typed_at)},
        )
    return render(
        request,
        "cage/slip_form.html",
        {
            "access": access,
            "event": access.event,
            "day": day,
            "form": form,
            "kind": kind,
            "paper": {"book": book, "number": number, "serial": paper_serial(number)},
        },
    )


def _post_when_ready(request, day) -> None:
    """Once every paper slip said written is typed or accounted for, post them all in the order of
    their written times, and say how it went."""
    if not paper_books.drafts_ready(day):
        left = waiting_count(day) - PaperDraft.objects.filter(day=day).count()
        messages.info(
            request,
            ngettext(
                "%(n)s paper slip of the outage is still to be typed; then they are all posted in the order of their written times.",
                "%(n)s paper slips of the outage are still to be typed; then they are all posted in the order of their written times.",
                left,
            )
            % {"n": left},
        )
        return
    posted, refused = paper_books.drafts_post(day, user=request.user)
    if posted:
        messages.success(
            request,
            _("Posted in the order of their written times: %(slips)s.")
            % {"slips": ", ".join(str(s.number) for s in posted)},
        )
    if refused is not None:
        messages.error(
            request,
            _("%(paper)s could not be posted: %(refusal)s. Correct it on its form and the rest follows.")
            % {
                "paper": f"{SLIP_KINDS[refused.book.slip_type].label} {paper_serial(refused.number)}",
                "refusal": refused.refusal,
            },
        )
    elif not waiting_count(day):
        messages.success(request, _("Every paper slip of the outage is entered: the window is open again."))


class VoidForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why it is void, as written on it"), max_length=500)


def paper_void(request, slug, book, number):
    access = event_access(request, slug)
    book = _book_serial(access, book, number)
    day = _keeping_day(request, access)
    form = VoidForm(request.POST)
    if day is not None:
        try:
            paper_books.enter_void(
                day=day,
                book=book,
                number=number,
                reason=form.data.get("reason", ""),
                entered_by=access.person,
            )
        except RuleViolation as exc:
            messages.error(request, exc.text)
            return redirect("cage:paper_enter", slug, book.pk, number)
        messages.success(
            request,
            _("Paper slip %(paper)s entered as void: keep it with its book.")
            % {"paper": f"{SLIP_KINDS[book.slip_type].label} {paper_serial(number)}"},
        )
        PaperDraft.objects.filter(book=book, number=number).delete()  # typed, then found void
        _post_when_ready(request, day)
    return redirect("cage:paper", slug)


def paper_written(request, slug, book):
    """The paper slips of a book written during the outage: every serial up to the one given."""
    access = event_access(request, slug)
    book = get_object_or_404(PaperBook, event=access.event, pk=book)
    day = _keeping_day(request, access)
    if day is not None:
        scanned = read_serial(request.POST.get("last", ""))
        try:
            paper_books.written_declare(day=day, book=book, last=scanned.number or 0, person=access.person)
        except RuleViolation as exc:
            messages.error(request, exc.text)
        else:
            messages.success(
                request,
                _(
                    "Noted. Type each paper slip written, in any order: they are posted in the order of their written times."
                ),
            )
    return redirect("cage:paper", slug)


def paper_close(request, slug, book):
    """At the close: the blank slips of a book the day used, returned unused; or, by the DRIC, the
    serials that are neither entered nor in the book, recorded missing."""
    access = event_access(request, slug)
    book = get_object_or_404(PaperBook, event=access.event, pk=book)
    day = _keeping_day(request, access)
    if day is not None:
        numbers = [int(n) for n in request.POST.getlist("serial") if n.isdigit() and len(n) < 10]
        if request.POST.get("all_blank"):
            # Every serial left after those said written: the book's blank slips, counted in it.
            used = next((u for u in books_of_day(day) if u.book.pk == book.pk), None)
            numbers = [n for n in used.unaccounted if n > used.written_up_to] if used else []
        missing = request.POST.get("outcome") == PaperSerial.Outcome.MISSING
        try:
            if missing:
                paper_books.declare_missing(
                    day=day, book=book, numbers=numbers, reason=request.POST.get("reason", ""), person=access.person
                )
            else:
                paper_books.return_unused(day=day, book=book, numbers=numbers, person=access.person)
        except RuleViolation as exc:
            messages.error(request, exc.text)
        else:
            said = {"slip": SLIP_KINDS[book.slip_type].label, "serials": serial_ranges(numbers)}
            messages.success(
                request,
                (
                    _("Recorded missing: %(slip)s %(serials)s.")
                    if missing
                    else _("Returned unused: %(slip)s %(serials)s.")
                )
                % said,
            )
    return redirect("cage:paper", slug)


def paper_confirm(request, slug, signature):
    """A signer confirms that an entered paper slip bears their signature: from their own session,
    or with their signing PIN typed at the window."""
    access = event_access(request, slug)
    signature = get_object_or_404(
        Signature.objects.select_related("slip", "person"),
        slip__event=access.event,
        slip__paper__isnull=False,
        pk=signature,
    )
    pin = request.POST.get("pin", "")
    try:
        if access.person is not None and signature.person_id == access.person.pk:
            via = PaperConfirmation.Via.SESSION
        else:
            pin_verify(request=request, person=signature.person, pin=pin)
            via = PaperConfirmation.Via.PIN
        paper_books.confirm(signature=signature, person=signature.person, via=via)
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _("%(name)s confirmed their signature on %(slip)s.")
            % {"name": signature.person.name, "slip": signature.slip.number},
        )
    if request.POST.get("next") in ("paper", "queue"):
        return redirect(f"cage:{request.POST['next']}", slug)
    return redirect("cage:slip", slug, signature.slip_id)
