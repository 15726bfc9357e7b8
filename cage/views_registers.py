"""The cage's registers: every slip of the event, filtered, sorted, paged and exported; the voids
and the serials never issued. Read-only pages for the DRIC, the cashiers and the auditor."""

from django.shortcuts import render

from audit import services as audit
from cage.registers import PER_PAGE, RegisterFilter, RegisterTable
from cage.selectors.registers import register_rows, serial_checks, void_rows
from events.access import event_access
from events.table_pages import csv_download, table_page


def register(request, slug):
    access = event_access(request, slug)
    event = access.event
    form = RegisterFilter(request.GET or None, event=event)
    rows = register_rows(event, **form.criteria())
    table = RegisterTable(rows, event=event)
    download = csv_download(
        request, table, f"{event.slug}.register.csv", lambda n: audit.exported(event, "register", "csv", rows=n)
    )
    if download is not None:
        return download
    context = {"access": access, "event": event, "form": form, "count": len(rows)}
    return table_page(request, "cage/register.html", table, per_page=PER_PAGE, context=context)


def voids(request, slug):
    access = event_access(request, slug)
    event = access.event
    return render(
        request,
        "cage/voids.html",
        {"access": access, "event": event, "voids": void_rows(event), "serials": serial_checks(event)},
    )
