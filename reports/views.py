"""The event's figures on a page and as the cage-report/1 JSON download."""

import json

from django.http import HttpResponse
from django.shortcuts import render

from events import games
from events.access import READ_ALL, event_access
from reports.figures import event_figures

TOTAL_LABELS = {
    "win": "Win",
    "chip_sales": "Chip sales",
    "redemptions": "Redemptions",
    "chips_outstanding": "Chips outstanding",
    "tips": "Tips (dealers' pool)",
    "cash_over_short": "Cash over/short",
    "chip_over_short": "Chip over/short",
    "expenses": "Expenses",
    "net_proceeds": "Net proceeds",
}


def event_report(request, slug):
    access = event_access(request, slug, read=READ_ALL)
    figures = event_figures(access.event)
    totals = [(TOTAL_LABELS[key], value) for key, value in figures["event_totals"].items()]
    for row in figures["tables"] + figures["games"]:
        row["game_name"] = games.get_game(row["game"]).name_en
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
