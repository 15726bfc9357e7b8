"""The audit trail's pages: an event's, for its DRIC, its auditor and the licensee's administrator,
and the entries tied to no event (logins under any name), for the administrator alone."""

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from events.access import event_access

from . import services
from .selectors import event_entries, unattached_entries
from .tables import PER_PAGE, AuditFilter, AuditTable, trail_csv


def _page(request, *, event, access, entries, form, filename):
    table = AuditTable(entries, event=event)
    if request.GET.get("export") == "csv":
        RequestConfig(request, paginate=False).configure(table)
        content, rows = trail_csv(table)
        # Reading the trail writes nothing; taking it out of the system is itself on the trail.
        services.exported(event, "audit_trail", "csv", rows=rows)
        response = HttpResponse(content, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    export = request.GET.copy()
    export.pop("page", None)
    export["export"] = "csv"
    return render(
        request,
        "audit/trail.html",
        {
            "access": access,
            "event": event,
            "form": form,
            "table": table,
            "count": table.paginator.count,
            "export_query": export.urlencode(),
        },
    )


@require_safe
def event_trail(request, slug):
    access = event_access(request, slug)
    event = access.event
    form = AuditFilter(request.GET or None, event=event)
    entries = event_entries(event, **form.criteria())
    return _page(request, event=event, access=access, entries=entries, form=form, filename=f"{event.slug}.audit.csv")


@require_safe
def unattached_trail(request):
    if not request.user.is_staff:
        raise PermissionDenied(_("Only the licensee's administrators read the logins tied to no event."))
    form = AuditFilter(request.GET or None)
    entries = unattached_entries(**form.criteria())
    return _page(request, event=None, access=None, entries=entries, form=form, filename="logins.audit.csv")


def csrf_failure(request, reason=""):
    """settings.CSRF_FAILURE_VIEW: a form refused by the CSRF check is on the audit trail (with the
    page and Django's reason), and the person is told, plainly, what happened and what to do."""
    services.csrf_refused(request, reason)
    return render(
        request,
        "403_csrf.html",
        {"home_url": reverse("events:home")},
        status=403,
    )
