"""The event's figures on a page and as the cage-report/1 JSON download."""

import json

from django.http import HttpResponse
from django.shortcuts import render

from events import games
from events.access import READ_ALL, event_access
from reports.exports import TOTAL_LABELS, figures_csv, figures_pdf
from reports.figures import event_figures
from reports.names import named_variances


def event_report(request, slug):
    access = event_access(request, slug, read=READ_ALL)
    figures = event_figures(access.event)
    totals = [(TOTAL_LABELS[key], value) for key, value in figures["event_totals"].items()]
    for row in figures["tables"] + figures["games"]:
        row["game_name"] = games.get_game(row["game"]).name_en
    figures["variances"] = named_variances(access.event, figures["variances"])
    names = dict(access.event.people.values_list("code", "name"))
    for share in figures["tip_shares"]:
        share["name"] = names.get(share["person"], share["person"])
    return render(
        request,
        "reports/event.html",
        {"access": access, "event": access.event, "figures": figures, "totals": totals},
    )


def event_report_json(request, slug):
    access = event_access(request, slug, read=READ_ALL)
    response = HttpResponse(json.dumps(event_figures(access.event), indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{access.event.slug}.report.json"'
    return response


def event_report_csv(request, slug):
    access = event_access(request, slug, read=READ_ALL)
    response = HttpResponse(figures_csv(event_figures(access.event)), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{access.event.slug}.report.csv"'
    return response


def event_report_pdf(request, slug):
    """The financial report in one click. Rendered outside any transaction: it only reads."""
    access = event_access(request, slug, read=READ_ALL)
    pdf = figures_pdf(access.event, event_figures(access.event))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{access.event.slug}-financial-report.pdf"'
    return response
