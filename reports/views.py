"""The event's figures on a page and as the cage-report/1 JSON download."""

import json

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from audit import services as audit
from cage.selectors.bank_slips import disbursements, expenses_by_cheque
from cage.selectors.counts import books_blind, counts_places
from cage.selectors.seals import day_seals
from core import local
from core.money import dollars, hours_text
from core.rules import RuleViolation, cite, listed
from events.access import ROLE_NAMES, event_access
from events.models import GamingDay, game_name
from reports.figures import event_figures, report_figures
from reports.filing import filing, with_filing
from reports.missing_chips import missing_chips, missing_chips_words
from reports.names import day_shown, named_variances
from reports.services import (
    RULE,
    cents_of,
    designated_role,
    net_proceeds_lines,
    proceeds_use_lines,
    report_sign,
    report_state,
)
from reports.views_filing import DueForm, FiledForm


def counts_awaited(event, days=None) -> set[str]:
    """The blind counts of tonight's reconciliation that the event's figures wait for
    (cage.selectors.counts.books_blind): until bank cash, the chip bank and the tip pool are
    counted, the day's sales, redemptions, win, tips and chips outstanding would give their books
    away. `days`: the event's days, when the caller has them (else one query)."""
    if days is None:
        days = event.days.filter(status=GamingDay.Status.RECONCILING)
    return set().union(*(books_blind(d) for d in days if d.status == GamingDay.Status.RECONCILING))


def _awaited_refusal(request, slug):
    """An export asked for while the figures wait for the blind counts: said, and nothing sent.
    The cage-report/1 JSON has no way to leave a figure out, so none of the exports is made."""
    messages.error(
        request,
        _(
            "The event's figures wait until tonight's counts are in: bank cash, the chip bank and the "
            "tip pool are counted blind, and these figures would give their books away."
        ),
    )
    return redirect("reports:event", slug)


def event_report(request, slug):
    # The charts and the PDF's labels come with ReportLab: imported here, not at start-up, where
    # every manage.py command would pay for it (as in the exports below).
    from reports.charts import chip_liability, report_charts
    from reports.exports import DESIGNATED_TITLES, TOTAL_LABELS

    access = event_access(request, slug)
    figures, variance_notes = report_figures(access.event)
    state = report_state(access.event, figures)
    filing_now = filing(access.event, state)
    role = designated_role(access.person)
    signed = role is not None and any(
        s.person_id == access.person.id and s.figures_digest == state.digest for s in state.signatures.values()
    )
    signatures = [
        {
            "role": DESIGNATED_TITLES[r],  # as the financial report titles them (seed 000 in French)
            "names": ", ".join(p.name for p in people),
            "signature": state.signatures.get(r),
        }
        for r, people in state.designated.items()
    ]
    paged, paged_notes, day_page = days_page(figures, variance_notes, request.GET.get("page"))
    shown = money_shown(access.event, paged, paged_notes)
    return render(
        request,
        "reports/event.html",
        {
            "access": access,
            "event": access.event,
            "figures": shown,
            "totals": [(TOTAL_LABELS[key], value) for key, value in shown["event_totals"].items()],
            # How net proceeds is derived: the lines of the financial report's section D.
            "net_lines": [(label, dollars(cents)) for label, cents in net_proceeds_lines(figures["event_totals"])],
            **_missing_chips(figures, access.event),
            "use_lines": [
                (label, dollars(cents))
                for label, cents in proceeds_use_lines(
                    cents_of(figures["event_totals"]["net_proceeds"]),
                    sum(c.amount for c in disbursements(access.event)),
                )
            ],
            "liability": chip_liability(access.event),
            # by day over the page's days; win by table over the whole event (one bar a table)
            "charts": report_charts({**figures, "days": paged["days"]}),
            "day_page": day_page,
            "seals": day_seals(access.event),
            "state": state,
            "signatures": signatures,
            "may_sign": role is not None and not state.draft and not signed,
            "counts_awaited": bool(counts_awaited(access.event, state.open_days)),
            "report_format": figures["format"],
            "trust_note": trust_note(filing_now),
            "filing": filing_now,
            # A refused date comes back in its box as it was typed (reports.views_filing).
            "due_form": DueForm(
                initial={"report_due_on": request.GET.get("report_due_on") or access.event.report_due_on}
            )
            if access.may("reports:report_due", "POST")
            else None,
            "filed_form": FiledForm(initial={"filed_on": request.GET.get("filed_on", "")})
            if access.may("reports:report_file", "POST")
            else None,
            # the sections the page cites, numbered as the reader's language numbers them
            "rules": {"report": cite(RULE), "tips": cite("T&C 2.6")},
        },
    )


def _missing_chips(figures: dict, event) -> dict:
    """The chips missing from the supplier's count, billed and pending, as the PDF's section C says."""
    chips = missing_chips(cents_of(figures["event_totals"]["chip_over_short"]), expenses_by_cheque(event))
    if not (chips.missing or chips.billed):
        return {"missing_chips": ""}
    return {"missing_chips": missing_chips_words(chips), "missing_chips_pending": bool(chips.pending)}


def trust_note(filing_now) -> str:
    """What the trust account's page still waits for before the report can be filed (reports.filing):
    "" once nothing, or once it is filed."""
    return listed(filing_now.missing)


MONEY_KEYS = {
    "tables": ("opener", "fills", "credits", "closer", "win"),
    "games": ("win",),
    "days": ("win", "chip_sales", "redemptions", "tips", "cash_over_short", "chip_over_short"),
    "tip_shares": ("amount",),
    "variances": ("amount",),
}


# The report page shows the rows of one week of days at a time: its HTML stays the same size however
# long the event (a season of 200 days was 667 KB). The totals are the whole event's, and every row
# is in the PDF, the CSV, the JSON and each day's sheets.
DAYS_PER_PAGE = 7


def days_page(figures: dict, variance_notes: list[dict], asked: str | None) -> tuple[dict, list[dict], dict]:
    """The figures whose rows fall on the page's days (page 1: the latest DAYS_PER_PAGE days, page 2
    the week before, ...), their variances' notes, and the pager. A page number that is not one
    (text, 0, past the first day) shows the nearest page, as Django's paginator reads it."""
    dates = sorted({d["date"] for d in figures["days"]}, reverse=True)
    page = Paginator(dates, DAYS_PER_PAGE).get_page(asked)
    on_page = set(page.object_list)
    paged = {**figures, **{section: [r for r in figures[section] if r["date"] in on_page] for section in MONEY_KEYS}}
    notes = [n for v, n in zip(figures["variances"], variance_notes, strict=True) if v["date"] in on_page]
    pager = {
        "pages": page.paginator.num_pages,
        "number": page.number,
        "first": day_shown(min(on_page)) if on_page else "",
        "last": day_shown(max(on_page)) if on_page else "",
        "earlier": page.next_page_number() if page.has_next() else None,
        "later": page.previous_page_number() if page.has_previous() else None,
    }
    return paged, notes, pager


def money_shown(event, figures: dict, variance_notes: list[dict]) -> dict:
    """The figures as the page shows them: amounts as money ("-$120.00", "-120,00 $"), games and
    people by name, dates in the reader's form. A copy: the figures themselves (the cage-report/1
    strings) stay as they are."""
    shown = {
        section: [
            {k: dollars(cents_of(v)) if k in MONEY_KEYS[section] else v for k, v in row.items()}
            for row in figures[section]
        ]
        for section in MONEY_KEYS
    }
    shown["event_totals"] = {k: dollars(cents_of(v)) for k, v in figures["event_totals"].items()}
    for section in MONEY_KEYS:
        for row in shown[section]:
            row["date_shown"] = day_shown(row["date"])
    for row in shown["tables"] + shown["games"]:
        row["game_name"] = game_name(row["game"])
    shown["variances"] = named_variances(event, shown["variances"], variance_notes)
    names = dict(event.people.values_list("code", "name"))
    for share in shown["tip_shares"]:
        share["name"] = names.get(share["person"], share["person"])
        share["hours_shown"] = hours_text(share["hours"])
    return shown


def event_report_sign(request, slug):
    """A designated person signs the financial report from their own session (T&C 2.7)."""
    access = event_access(request, slug)
    try:
        signature = report_sign(event=access.event, person=access.person)
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _("%(name)s signed the financial report as %(role)s.")
            % {"name": signature.person.name, "role": ROLE_NAMES[signature.role]},
        )
    return redirect("reports:event", slug)


def event_report_json(request, slug):
    access = event_access(request, slug)
    if counts_awaited(access.event):
        return _awaited_refusal(request, slug)
    content = json.dumps(with_filing(access.event, event_figures(access.event)), indent=2)
    # The one write of these GETs: the report leaving the system goes on the audit trail.
    audit.exported(access.event, "event_report", "json")
    response = HttpResponse(content, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{access.event.slug}.report.json"'
    return response


def event_report_csv(request, slug):
    from reports.exports import figures_csv

    access = event_access(request, slug)
    if counts_awaited(access.event):
        return _awaited_refusal(request, slug)
    content = figures_csv(event_figures(access.event))
    audit.exported(access.event, "event_report", "csv")
    response = HttpResponse(content, content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{access.event.slug}.report.csv"'
    return response


def event_report_xlsx(request, slug):
    """The CSV's rows and columns as a workbook (reports.exports.figures_xlsx), under the same rules."""
    from core.xlsx import CONTENT_TYPE, made_now
    from reports.exports import figures_xlsx

    access = event_access(request, slug)
    if counts_awaited(access.event):
        return _awaited_refusal(request, slug)
    content = figures_xlsx(access.event, event_figures(access.event), made_now(access.person, request.user))
    audit.exported(access.event, "event_report", "xlsx")
    response = HttpResponse(content, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{access.event.slug}.report.xlsx"'
    return response


def event_report_pdf(request, slug):
    """The financial report in one click. Rendered outside any transaction: it only reads."""
    from reports.exports import figures_pdf

    access = event_access(request, slug)
    if counts_awaited(access.event):
        return _awaited_refusal(request, slug)
    pdf = figures_pdf(access.event, *report_figures(access.event))
    audit.exported(access.event, "event_report", "pdf")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{access.event.slug}-financial-report.pdf"'
    return response


# --- one gaming day: its figures and daily control sheets -------------------------------------


def day_report(request, slug, date):
    """The day's control sheets on a page; `?format=csv` or `?format=xlsx` (all sheets, or
    `&sheet=KEY`) and `?format=pdf`. Read-only: a GET writes nothing but the export's entry on the
    audit trail."""
    import datetime

    from events.models import GamingDay
    from events.not_found import NotThere
    from reports.daily import day_sheets

    access = event_access(request, slug)
    try:
        when = datetime.date.fromisoformat(date)
    except ValueError as exc:
        raise NotThere(_("“%(date)s” is not a date: a gaming day is named as 2026-09-11.") % {"date": date}) from exc
    day = GamingDay.objects.select_related("event__licensee").filter(event=access.event, date=when).first()
    if day is None:
        raise NotThere(_("This event has no gaming day %(date)s.") % {"date": local.day(when)})
    # Those who count the places read no uncounted place's expected figure (counts.blind_places).
    data = day_sheets(day, counter=counts_places(access.roles))
    kind = request.GET.get("format")
    if kind in ("csv", "xlsx", "pdf"):
        return _day_download(request, access, data, kind)
    return render(
        request,
        "reports/day.html",
        {"access": access, "event": access.event, "day": day, "data": data, "days": days_around(access.event, day)},
    )


# How many gaming days the day's page links on each side of it, beside the event's first and last.
DAYS_AROUND = 3


def days_around(event, day) -> list:
    """The dates the day's page links to: the event's first and last, and the DAYS_AROUND days on
    each side of this one, None where days are left out between them (shown as "…"), so that the
    page is the same size on the two hundredth day of an event as on the twentieth."""
    dates = list(event.days.order_by("date").values_list("date", flat=True))
    at = dates.index(day.date)
    shown = sorted({0, len(dates) - 1, *range(max(0, at - DAYS_AROUND), min(len(dates), at + DAYS_AROUND + 1))})
    around: list = []
    for before, i in zip([None, *shown], shown, strict=False):
        if before is not None and i > before + 1:
            around.append(None)
        around.append(dates[i])
    return around


def _day_download(request, access, data: dict, kind: str) -> HttpResponse:
    """The day's sheets as a file: CSV or XLSX (every sheet, or `?sheet=KEY`), or the PDF; on the
    audit trail as it leaves the system."""
    from core.xlsx import CONTENT_TYPE, made_now
    from events.not_found import NotThere
    from reports.daily_exports import sheet_csv, sheet_xlsx, sheets_csv, sheets_pdf, sheets_xlsx

    name = f"{access.event.slug}-{data['day'].date.isoformat()}"
    key = request.GET.get("sheet") if kind != "pdf" else None
    sheet = next((s for s in data["sheets"] + data["figures"]["sheets"] if s.key == key), None)
    if key and sheet is None:
        raise NotThere(_("The day's sheets have no sheet “%(sheet)s”.") % {"sheet": key})
    filename = f"{name}-{key or 'sheets'}.{kind}"
    if kind == "pdf":
        response = HttpResponse(sheets_pdf(data), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{filename}"'
    elif kind == "csv":
        response = HttpResponse(sheet_csv(sheet) if key else sheets_csv(data), content_type="text/csv")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    else:
        made = made_now(access.person, request.user)
        content = sheet_xlsx(data, sheet, made) if key else sheets_xlsx(data, made)
        response = HttpResponse(content, content_type=CONTENT_TYPE)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    audit.exported(access.event, "day_sheets", kind, day=data["day"])
    return response
