"""The cage's registers: every slip of the event, filtered, sorted, paged and exported; the voids
and the serials never issued. Read-only pages for the DRIC, the cashiers and the auditor."""

from django.shortcuts import render

from audit import services as audit
from cage.selectors.counts import books_blind
from cage.selectors.registers import no_slips, register_slips, serial_checks, voids_page
from events.access import event_access
from events.models import GamingDay
from events.table_pages import csv_download, page_status, table_page


def blind_days(event) -> frozenset:
    """The days whose nightly close waits for their blind counts: the registers show no slip's chips
    or amount for them, since added up they would give the counted places' books away
    (cage.selectors.counts.books_blind). Each slip's own page still shows them, as it must to be
    signed or voided."""
    return frozenset(d.date for d in event.days.filter(status=GamingDay.Status.RECONCILING) if books_blind(d))


def register(request, slug):
    # django-tables2 is imported when a table is shown, not at start-up (config/tables2).
    from cage.registers import PER_PAGE, RegisterFilter, RegisterTable

    access = event_access(request, slug)
    event = access.event
    form = RegisterFilter(request.GET or None, event=event)
    hidden = blind_days(event)
    # A choice not in its list lists no slip (nor exports any): every slip, under a filter the
    # reader believes applied, would pass for the filtered list.
    slips = no_slips(event) if form.refused else register_slips(event, **form.criteria(), hidden_days=hidden)
    table = RegisterTable(slips, event=event, hidden_days=hidden)
    context = {"access": access, "event": event, "form": form, "count": len(slips), "hidden_days": sorted(hidden)}
    if form.refused:
        # The page, as the CSV's answer too: the form's errors beside their fields, no rows.
        return table_page(request, "cage/register.html", table, per_page=PER_PAGE, context=context, status=400)
    download = csv_download(
        request, table, f"{event.slug}.register.csv", lambda n: audit.exported(event, "register", "csv", rows=n)
    )
    if download is not None:
        return download
    return table_page(request, "cage/register.html", table, per_page=PER_PAGE, context=context)


def voids(request, slug):
    from cage.registers import BLIND, DayFilter

    access = event_access(request, slug)
    event = access.event
    form = DayFilter(request.GET or None, event=event)
    page = voids_page(
        event,
        request.GET.get("page"),
        day=None if form.refused else form.criteria()["day"],
        hidden_days=blind_days(event),
        refused=form.refused,
    )
    return render(
        request,
        "cage/voids.html",
        {
            "access": access,
            "event": event,
            "form": form,
            "page": page,
            "page_status": page_status(page, request.GET.get("page")),
            "blind": BLIND,
            "serials": serial_checks(event),
        },
        status=400 if form.refused else 200,
    )
