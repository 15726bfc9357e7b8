"""The use of proceeds, posted from the trust account's page (reports.proceeds_page): an approved
purpose added or corrected by the DRIC or the administrator, a cheque for one entered or corrected by the
General Cashier. A refusal is shown on the page beside the form, as typed."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _

from cage.models import Cheque
from cage.services.cheques import disbursement_enter
from core.rules import RuleViolation
from events.access import event_access
from events.models import ApprovedPurpose
from events.proceeds import purpose_add, purpose_correct

from .proceeds_page import disbursement_form, purpose_form
from .views_trust import _page, refused


def purpose(request, slug, purpose=None):
    access = event_access(request, slug)
    if purpose is not None:
        purpose = get_object_or_404(ApprovedPurpose, pk=purpose, event=access.event)
    form = purpose_form(purpose, request.POST)
    if form.is_valid():
        name, by = form.cleaned_data["name"], access.person
        try:
            if purpose is None:
                saved = purpose_add(event=access.event, name=name, by=by)
            else:
                was = purpose.name
                saved = purpose_correct(purpose=purpose, name=name, by=by)
        except RuleViolation as exc:
            refused(request, form, exc)
        else:
            if purpose is None:
                done = _("Approved purpose added: %(name)s.") % {"name": saved.name}
            else:
                done = _("Approved purpose corrected: %(was)s is now %(name)s.") % {"was": was, "name": saved.name}
            messages.success(request, done)
            return redirect("reports:trust", slug)
    as_typed = {"refused_purpose_form": form, "refused_purpose": purpose.pk if purpose else None}
    return _page(request, access, proceeds=as_typed)


def disbursement(request, slug, cheque=None):
    access = event_access(request, slug)
    if cheque is not None:
        cheque = get_object_or_404(Cheque, pk=cheque, event=access.event, purpose__isnull=False)
    form = disbursement_form(access.event, cheque, request.POST)
    if form.is_valid():
        try:
            entered = disbursement_enter(person=access.person, cheque=cheque, **form.cleaned_data)
        except RuleViolation as exc:
            refused(request, form, exc)
        else:
            messages.success(
                request,
                _("Cheque %(number)s entered for the approved purpose %(purpose)s.")
                % {"number": entered.number, "purpose": entered.purpose.name},
            )
            return redirect("reports:trust", slug)
    as_typed = {"refused_form": form, "refused_cheque": cheque.pk if cheque else None}
    return _page(request, access, proceeds=as_typed)
