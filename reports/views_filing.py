"""The financial report's due date and its filing, posted from the report page (reports.filing,
events.report_due; T&C 2.7)."""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.rules import RuleViolation
from events.access import event_access
from events.forms import DateInput
from events.report_due import report_due_set

from .filing import report_file as file_service


class DueForm(forms.Form):
    report_due_on = forms.DateField(label=gettext_lazy("Due on, as the licence sets it"), widget=DateInput)


class FiledForm(forms.Form):
    filed_on = forms.DateField(label=gettext_lazy("Filed with the licensing authority on"), widget=DateInput)


def _refused(request, form) -> None:
    """A date not given, or not a date: said as the form says it, nothing changed."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            said = _("%(field)s: %(error)s") % {"field": label, "error": error}
            messages.error(request, _("Not recorded: %(reason)s") % {"reason": said})


def _posted(request, slug, form_class, action, done: str):
    """Apply a posted date with `action(access, cleaned data)`; a refusal or a bad date is said
    at the top of the report page ("Not recorded: …", as the trust account's page says it), its
    box keeps what was typed, and nothing is changed."""
    access = event_access(request, slug)
    form = form_class(request.POST)
    if not form.is_valid():
        _refused(request, form)
        return _back_with(slug, form)
    try:
        action(access, form.cleaned_data)
    except RuleViolation as exc:
        messages.error(request, _("Not recorded: %(reason)s") % {"reason": exc.text})
        return _back_with(slug, form)
    messages.success(request, done)
    return redirect("reports:event", slug)


def _back_with(slug, form):
    """The report page at its top, where the refusal is said, its date box filled with what was
    typed (read by the page's GET, which writes nothing)."""
    (name,) = form.fields
    typed = form.data.get(name, "")[:40]
    return redirect(f"{reverse('reports:event', args=[slug])}?{urlencode({name: typed})}")


def report_due(request, slug):
    def due(access, data):
        report_due_set(event=access.event, due_on=data["report_due_on"], by=access.person)

    return _posted(request, slug, DueForm, due, _("The financial report's due date is set."))


def report_file(request, slug):
    def filed(access, data):
        file_service(event=access.event, person=access.person, filed_on=data["filed_on"])

    return _posted(request, slug, FiledForm, filed, _("The financial report is recorded as filed."))
