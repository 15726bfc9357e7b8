"""Measurements taken inside one Django process, on the database DATABASE_URL names, printed as JSON.

`python -m bench.probe pages SLUG`: the cage home, the DRIC's queue and the report page, each
fetched as the event's DRIC, with its time and number of queries (warm: the second fetch).
`python -m bench.probe close SLUG`: the nightly close of the event's last day, whose close_day
record the bench held back from the import: the close's checks and its signed slip, timed.
"""

import json
import os
import sys
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "true")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from events.models import Event, Person  # noqa: E402


def dric_login(event: Event):
    """A login for the event's DRIC, made for the bench (the records file carries no logins)."""
    person = Person.objects.filter(event=event, assignments__role="dric").first()
    if person.user is None:
        person.user = get_user_model().objects.create_user(f"bench-{event.slug}-{person.code}", password=None)
        person.save(update_fields=["user"])
    return person.user


def pages(slug: str) -> dict:
    event = Event.objects.get(slug=slug)
    client = Client(SERVER_NAME="127.0.0.1")
    client.force_login(dric_login(event))
    results = {}
    for name, url in {
        "cage home": reverse("cage:home", args=[slug]),
        "DRIC's queue": reverse("cage:queue", args=[slug]),
        "report page": reverse("reports:event", args=[slug]),
    }.items():
        client.get(url)  # warm: templates compiled, caches filled
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url)
            seconds = time.perf_counter() - started
        if response.status_code != 200:
            raise SystemExit(f"{name}: HTTP {response.status_code}")
        results[name] = {"seconds": seconds, "queries": len(queries), "kilobytes": len(response.content) / 1024}
    return results


def close(slug: str) -> dict:
    from cage import services

    event = Event.objects.get(slug=slug)
    day = event.days.order_by("-date").first()
    people = {p.code: p for p in Person.objects.filter(event=event)}
    signed = {"prepared_by": people["gus"], "verified_by": people["cora"], "approved_by": people["ann"]}
    started = time.perf_counter()
    services.close_day(day=day, signed=signed, records_file=True)
    return {"seconds": time.perf_counter() - started}


if __name__ == "__main__":
    what, slug = sys.argv[1], sys.argv[2]
    print(json.dumps({"pages": pages, "close": close}[what](slug)))
