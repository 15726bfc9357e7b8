"""The cage's registers: every slip of the event, filtered, sorted, paged and exported; the voids
and the serials never issued. Read-only pages for the DRIC, the cashiers and the auditor."""

from django.http import HttpResponse
from django.shortcuts import render

from audit import services as audit
from cage.selectors.counts import books_blind
from cage.selectors.registers import no_slips, register_slips, serial_checks, voids_page
from core.xlsx import CONTENT_TYPE, made_now
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
    # Beyond the first page: how many more match, said above the table (a search across the days).
    context.update(per_page=PER_PAGE, more=max(0, context["count"] - PER_PAGE))
    if form.refused:
        # The page, as the CSV's answer too: the form's errors beside their fields, no rows.
        return table_page(request, "cage/register.html", table, per_page=PER_PAGE, context=context, status=400)
    download = csv_download(
        request, table, f"{event.slug}.register.csv", lambda n: audit.exported(event, "register", "csv", rows=n)
    ) or xlsx_download(request, access, table, form)
    if download is not None:
        return download
    # The workbook's link: the CSV's query (the same filters and sort), asking for XLSX.
    xlsx_query = request.GET.copy()
    xlsx_query.pop("page", None)
    xlsx_query["export"] = "xlsx"
    context["xlsx_query"] = xlsx_query.urlencode()
    return table_page(request, "cage/register.html", table, per_page=PER_PAGE, context=context)


def xlsx_download(request, access, table, form) -> HttpResponse | None:
    """The whole (filtered, sorted) register as an XLSX workbook when the page is asked for one
    (?export=xlsx), else None: the CSV's rows and columns, with numbers, dates and times. Taking it
    out of the system is on the audit trail, as the CSV is."""
    if request.GET.get("export") != "xlsx":
        return None
    from django_tables2 import RequestConfig

    from cage.registers import register_title, register_workbook

    event = access.event
    RequestConfig(request, paginate=False).configure(table)
    content, rows = register_workbook(
        table, title=register_title(event, form), made=made_now(access.person, request.user)
    )
    audit.exported(event, "register", "xlsx", rows=rows)
    response = HttpResponse(content, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.register.xlsx"'
    return response


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
