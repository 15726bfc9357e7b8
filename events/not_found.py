"""The "Not found" page, in the reader's words.

A page's own "not there" (NotThere: "The event has no table BJ-9.") says what is missing, in the
reader's language. Django's own (get_object_or_404's "No Slip matches the given query.", an address
that names no page) is an internal English sentence, never shown: the page says there is nothing
at this address instead."""

from django.http import Http404
from django.shortcuts import render


class NotThere(Http404):
    """Http404 with a sentence for the reader (translated where it is raised)."""


def not_found(request, exception=None):
    """handler404 (config/urls.py), and the demo's in place of DEBUG's page (events.demo)."""
    said = str(exception) if isinstance(exception, NotThere) else ""
    return render(request, "404.html", {"said": said}, status=404)
