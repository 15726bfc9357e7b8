"""What an event still lacks before its first gaming day opens (events.readiness), on a page of its
own for those who set the event up; and the registered supplier's page, where the licensee's
administrator enters the registration number the checklist's first line asks for. Who may use
which is declared in events.permissions."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from . import readiness, services
from .access import event_access
from .forms import SupplierForm
from .views import applied


def checklist(request, slug):
    """Each check, done or missing, with the page that fixes it; once nothing is missing, the first
    gaming day and the button that opens it. Reads only."""
    access = event_access(request, slug)
    return render(
        request,
        "events/checklist.html",
        {
            "access": access,
            "event": access.event,
            "checklist": readiness.checklist(access.event),
            "may_open": access.may("events:day_open", "POST"),
        },
    )


def supplier(request, slug):
    """The registered supplier and its registration number (T&C 4.1); the administrator enters the
    number, everyone on the event reads it."""
    access = event_access(request, slug)
    event = access.event
    form = None
    if access.may("events:supplier", "POST"):
        initial = {"supplier_registration_number": event.supplier_registration_number}
        form = SupplierForm(request.POST or None, initial=initial)
    if request.method == "POST" and form is not None and form.is_valid():
        number = form.cleaned_data["supplier_registration_number"]
        if applied(form, lambda: services.supplier_registration_set(event=event, number=number)):
            messages.success(request, _("The supplier's registration number is recorded."))
            return redirect("events:supplier", slug)
    return render(request, "events/supplier.html", {"access": access, "event": event, "form": form})
