"""The cage's registers: every slip of the event, filtered, sorted, paged and exported; the voids
and the serials never issued. Read-only pages for the DRIC, the cashiers and the auditor."""

from django.http import HttpResponse
from django.shortcuts import render
from django_tables2 import RequestConfig

from audit import services as audit
from cage.registers import PER_PAGE, RegisterFilter, RegisterTable, register_csv
from cage.selectors.registers import register_rows, serial_checks, void_rows
from events.access import event_access


def register(request, slug):
    access = event_access(request, slug)
    event = access.event
    form = RegisterFilter(request.GET or None, event=event)
    rows = register_rows(event, **form.criteria())
    table = RegisterTable(rows, event=event)
    if request.GET.get("export") == "csv":
        RequestConfig(request, paginate=False).configure(table)
        content = register_csv(table)
        audit.exported(event, "register", "csv", rows=len(rows))
        response = HttpResponse(content, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{event.slug}.register.csv"'
        return response
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    export = request.GET.copy()
    export.pop("page", None)
    export["export"] = "csv"
    return render(
        request,
        "cage/register.html",
        {
            "access": access,
            "event": event,
            "form": form,
            "table": table,
            "count": len(rows),
            "export_query": export.urlencode(),
        },
    )


def voids(request, slug):
    access = event_access(request, slug)
    event = access.event
    return render(
        request,
        "cage/voids.html",
        {"access": access, "event": event, "voids": void_rows(event), "serials": serial_checks(event)},
    )
