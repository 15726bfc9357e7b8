"""The financial report's due date and its filing, posted from the report page (reports.filing,
events.report_due; T&C 2.7)."""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect
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
            messages.error(request, _("%(field)s: %(error)s") % {"field": label, "error": error})


def report_due(request, slug):
    access = event_access(request, slug)
    form = DueForm(request.POST)
    if not form.is_valid():
        _refused(request, form)
        return redirect("reports:event", slug)
    try:
        report_due_set(event=access.event, due_on=form.cleaned_data["report_due_on"], by=access.person)
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        messages.success(request, _("The financial report's due date is set."))
    return redirect("reports:event", slug)


def report_file(request, slug):
    access = event_access(request, slug)
    form = FiledForm(request.POST)
    if not form.is_valid():
        _refused(request, form)
        return redirect("reports:event", slug)
    try:
        file_service(event=access.event, person=access.person, filed_on=form.cleaned_data["filed_on"])
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        messages.success(request, _("The financial report is recorded as filed."))
    return redirect("reports:event", slug)
