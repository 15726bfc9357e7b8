"""A dealer's fill requests: asked for from her tablet (My slips), withdrawn by her, declined by the
Chip Cashier at the cage home; made into a fill from the fill form (cage.views.slip_new, ?request=N).
A request moves nothing (cage.services.fill_requests)."""

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.models import FillRequest
from cage.selectors.fill_requests import tables_to_ask_for
from cage.selectors.people import current_day
from cage.services import fill_requests
from cage.slip_fields import Chips, Note
from cage.views_people import mine_page
from core.rules import RuleViolation
from events.access import event_access
from events.form_input import CheckedInput
from events.models import GameTable


class FillRequestForm(CheckedInput, forms.Form):
    """Her table and the chips she wants, with the slip form's own chip-count and note fields
    (cage.slip_fields): the same widgets, the same limits."""

    table = forms.ModelChoiceField(
        label=gettext_lazy("Table"), queryset=GameTable.objects.none(), empty_label=gettext_lazy("Choose the table")
    )

    def __init__(self, *args, event, day, person, **kwargs):
        super().__init__(*args, **kwargs)
        self.event, self.day = event, day
        self.denominations = list(event.denominations.all())
        self.initial_chips = {}
        Chips().add_to(self)
        Note().add_to(self)
        # Any table of the event is read back, so that the service's refusal (not open, not hers)
        # names the rule rather than "Select a valid choice"; only hers are offered.
        self.fields["table"].queryset = event.tables.all()
        mine = tables_to_ask_for(day, person)
        self.fields["table"].choices = [("", self.fields["table"].empty_label)] + [(t.pk, t.code) for t in mine]
        if len(mine) == 1:
            self.fields["table"].initial = mine[0].pk

    def chip_fields(self):
        return [self[f"chips_{d.key}"] for d in self.denominations]

    def chips(self) -> dict:
        return {d.key: self.cleaned_data.get(f"chips_{d.key}") or 0 for d in self.denominations}


def fill_request_ask(request, slug):
    """The dealer asks (a POST from My slips); she reads the answer there."""
    access = event_access(request, slug)
    day = current_day(access.event)
    form = FillRequestForm(request.POST, event=access.event, day=day, person=access.person)
    if not form.is_valid():
        # Shown again as she typed it, each refusal beside its field: not emptied behind a message.
        return mine_page(request, slug, asked=form)
    try:
        asked = fill_requests.ask(
            day=day,
            table=form.cleaned_data["table"],
            chips=form.chips(),
            note=form.cleaned_data.get("note") or "",
            person=access.person,
        )
    except RuleViolation as exc:
        form.add_error(None, exc.text)
        return mine_page(request, slug, asked=form)
    messages.success(
        request,
        _("Your fill request for table %(table)s is sent to the cage.") % {"table": asked.table.code},
    )
    return redirect("cage:mine", slug)


def fill_request_withdraw(request, slug, request_id):
    access = event_access(request, slug)
    asked = get_object_or_404(FillRequest, event=access.event, pk=request_id)
    try:
        fill_requests.withdraw(asked=asked, person=access.person)
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request, _("Your fill request for table %(table)s is withdrawn.") % {"table": asked.table.code}
        )
    return redirect("cage:mine", slug)


def fill_request_decline(request, slug, request_id):
    """The Chip Cashier declines, with a reason the dealer reads on My slips."""
    access = event_access(request, slug)
    asked = get_object_or_404(
        FillRequest.objects.select_related("table", "asked_by"), event=access.event, pk=request_id
    )
    try:
        fill_requests.decline(asked=asked, person=access.person, reason=request.POST.get("reason", ""))
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _("The fill request of %(name)s for table %(table)s is declined.")
            % {"name": asked.asked_by.name, "table": asked.table.code},
        )
    return redirect("cage:home", slug)
