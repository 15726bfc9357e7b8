"""The cage's registers: every slip of the event, filtered, sorted, paged and exported; the voids
and the serials never issued. Read-only pages for the DRIC, the cashiers and the auditor."""

from django.shortcuts import render

from audit import services as audit
from cage.selectors.counts import books_blind
from cage.selectors.registers import register_slips, serial_checks, voids_page
from events.access import event_access
from events.models import GamingDay
from events.table_pages import csv_download, table_page


def register(request, slug):
    # django-tables2 is imported when a table is shown, not at start-up (config/tables2).
    from cage.registers import PER_PAGE, RegisterFilter, RegisterTable

    access = event_access(request, slug)
    event = access.event
    form = RegisterFilter(request.GET or None, event=event)
    # A day whose nightly close waits for its blind counts shows no slip's chips or amount here: added
    # up, they would give the counted places' books away (cage.selectors.counts.books_blind). Each
    # slip's own page still shows them, as it must to be signed or voided.
    hidden = {d.date for d in event.days.filter(status=GamingDay.Status.RECONCILING) if books_blind(d)}
    slips = register_slips(event, **form.criteria(), hidden_days=frozenset(hidden))
    table = RegisterTable(slips, event=event, hidden_days=hidden)
    download = csv_download(
        request, table, f"{event.slug}.register.csv", lambda n: audit.exported(event, "register", "csv", rows=n)
    )
    if download is not None:
        return download
    context = {"access": access, "event": event, "form": form, "count": len(slips), "hidden_days": sorted(hidden)}
    return table_page(request, "cage/register.html", table, per_page=PER_PAGE, context=context)


def voids(request, slug):
    access = event_access(request, slug)
    event = access.event
    return render(
        request,
        "cage/voids.html",
        {
            "access": access,
            "event": event,
            "page": voids_page(event, request.GET.get("page")),
            "serials": serial_checks(event),
        },
    )
