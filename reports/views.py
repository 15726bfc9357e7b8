"""The event's figures on a page and as the cage-report/1 JSON download."""

import json

from django.http import HttpResponse
from django.shortcuts import render

from events.access import READ_ALL, event_access
from reports.figures import event_figures


def event_report(request, slug):
    access = event_access(request, slug, read=READ_ALL)
    figures = event_figures(access.event)
    return render(request, "reports/event.html", {"access": access, "event": access.event, "figures": figures})


def event_report_json(request, slug):
    access = event_access(request, slug, read=READ_ALL)
    response = HttpResponse(json.dumps(event_figures(access.event), indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{access.event.slug}.report.json"'
    return response
