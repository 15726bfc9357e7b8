"""The audit trail's pages: an event's, for its DRIC, its auditor and the licensee's administrator,
and the entries tied to no event (logins under any name), for the administrator alone."""

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from audit import services
from audit.selectors import event_entries, unattached_entries
from events.access import event_access
from events.table_pages import csv_download, table_page


def _page(request, *, event, access, entries, form, filename):
    # django-tables2 is imported when a table is shown, not at start-up (config/tables2).
    from .tables import PER_PAGE, AuditTable

    table = AuditTable(entries, event=event)
    # Reading the trail writes nothing; taking it out of the system is itself on the trail.
    download = csv_download(request, table, filename, lambda n: services.exported(event, "audit_trail", "csv", rows=n))
    if download is not None:
        return download
    context = {"access": access, "event": event, "form": form}
    page = table_page(request, "audit/trail.html", table, per_page=PER_PAGE, context=context)
    return page


@require_safe
def event_trail(request, slug):
    access = event_access(request, slug)
    event = access.event
    from .tables import AuditFilter

    form = AuditFilter(request.GET or None, event=event)
    entries = event_entries(event, **form.criteria())
    return _page(request, event=event, access=access, entries=entries, form=form, filename=f"{event.slug}.audit.csv")


@require_safe
def unattached_trail(request):
    if not request.user.is_staff:
        raise PermissionDenied(_("Only the licensee's administrators read the logins tied to no event."))
    from .tables import AuditFilter

    form = AuditFilter(request.GET or None)
    entries = unattached_entries(**form.criteria())
    return _page(request, event=None, access=None, entries=entries, form=form, filename="logins.audit.csv")
