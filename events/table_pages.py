"""A django-tables2 table as a page and as a CSV download (?export=csv): the register of slips and
the audit trail are both read this way, filtered and sorted the same on the page and in the file."""

import copy
import io

from django.http import HttpResponse
from django.shortcuts import render

from events import csv_safe

# Written first, so that a spreadsheet (Excel above all) reads the file as UTF-8: without it, the
# accents of a name or of a French summary come out garbled.
UTF8_BOM = "\ufeff"


def table_csv(table) -> tuple[str, int]:
    """Every row of the (filtered, sorted) table, unpaged, as CSV behind a UTF-8 byte order mark;
    no cell can run as a formula. Returns the text and the number of rows under the heading."""
    out = io.StringIO()
    out.write(UTF8_BOM)
    writer = csv_safe.writer(out)
    rows = -1  # the heading is not a row
    for row in table.as_values():
        writer.writerow(row)
        rows += 1
    return out.getvalue(), rows


def csv_download(request, table, filename: str, exported) -> HttpResponse | None:
    """The whole table as a CSV file when the page is asked for one, else None. `exported(rows)`
    is called first: taking data out of the system is on the audit trail."""
    if request.GET.get("export") != "csv":
        return None
    from django_tables2 import RequestConfig  # imported when a table is shown (config/tables2)

    RequestConfig(request, paginate=False).configure(table)
    content, rows = table_csv(table)
    exported(rows)
    response = HttpResponse(content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def page_status(page, asked) -> dict:
    """Where a paged list stands, for templates/page_status.html ("Page 2 of 3"): the page shown,
    how many there are, and the page asked for where it was none of them (?page=999, 0, -1, x),
    so that the reader knows they are reading another one (the last, or the first)."""
    asked = (asked or "").strip()
    return {
        "number": page.number,
        "pages": page.paginator.num_pages,
        "asked": asked[:12] if asked and asked != str(page.number) else "",
    }


def table_page(request, template: str, table, *, per_page: int, context: dict, status: int = 200) -> HttpResponse:
    """The table's page, paged, with the query of its CSV download (the same filters and sort)."""
    from django_tables2 import RequestConfig

    # A page is `per_page` rows: the size django-tables2 would take from the address (?per_page=)
    # is no choice the pages offer, and a large one made a season's register build every row.
    asked = copy.copy(request)
    asked.GET = request.GET.copy()
    asked.GET.pop(table.prefixed_per_page_field, None)
    RequestConfig(asked, paginate={"per_page": per_page}).configure(table)
    table.request = request
    export = request.GET.copy()
    export.pop("page", None)
    export["export"] = "csv"
    status_of_page = page_status(table.page, request.GET.get(table.prefixed_page_field))
    return render(
        request,
        template,
        {**context, "table": table, "export_query": export.urlencode(), "page_status": status_of_page},
        status=status,
    )
