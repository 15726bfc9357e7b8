"""Measurements taken inside one Django process, on the database DATABASE_URL names, printed as JSON.

`python -m bench.probe pages SLUG`: the cage home, the DRIC's queue and the report page, each
fetched as the event's DRIC, with its time and number of queries (warm: the second fetch).
`python -m bench.probe close SLUG`: the nightly close of the event's last day, whose close_day
record the bench held back from the import: the close's checks and its signed slip, timed.
"""

import datetime
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "true")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from cage.models import Account, Posting, Slip  # noqa: E402
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


def after_the_last_slip(event) -> datetime.datetime:
    """Now, or a minute after the event's last slip if its days run into the future (a long event's
    do): slips are recorded in order."""
    last = Slip.objects.filter(event=event).order_by("-at").values_list("at", flat=True).first()
    now = timezone.now()
    return now if last is None or last < now else last + datetime.timedelta(minutes=1)


def close(slug: str) -> dict:
    from cage import services

    event = Event.objects.get(slug=slug)
    day = event.days.order_by("-date").first()
    people = {p.code: p for p in Person.objects.filter(event=event)}
    signed = {"prepared_by": people["gus"], "verified_by": people["cora"], "approved_by": people["ann"]}
    started = time.perf_counter()
    services.close_day(day=day, signed=signed, records_file=True, at=after_the_last_slip(event))
    return {"seconds": time.perf_counter() - started}


class _Timed:
    """The time spent in the hash chains' own code (cage.services.links, audit.chain): hashing, the
    chain's last link read and its lock, the link written; the rest of each write is not theirs."""

    def __init__(self):
        from audit import chain as audit_chain
        from cage.services import links

        self.seconds = 0.0
        self.patched = [(links, "_append"), (links, "seal"), (audit_chain, "link"), (audit_chain, "link_written")]
        self.saved = [getattr(module, name) for module, name in self.patched]
        for (module, name), function in zip(self.patched, self.saved, strict=True):
            setattr(module, name, self._timed(function))

    def _timed(self, function):
        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started

        return timed


def chain(path: str) -> dict:
    """The chains' share of an import of the file (in this process, as a copy under another slug) and
    of 100 chip sales at the window, each in its own transaction as a cashier's."""
    from cage import services
    from cage.importer import import_records

    data = json.loads(Path(path).read_text())
    data["event"]["slug"] += "-chain"
    timed = _Timed()
    started = time.perf_counter()
    event = import_records(data)
    imported, import_chain = time.perf_counter() - started, timed.seconds
    day = event.days.order_by("-date").first()
    people = {p.code: p for p in Person.objects.filter(event=event)}
    signed = {"sold_by": people["cora"], "authorized_by": people["ann"]}
    # The denomination the chip bank holds most of, so that a hundred sales never run it dry.
    # (The balance is in cents per denomination's id; None is cash, which a chip bank never holds.)
    chips = {d.pk: d for d in event.denominations.all()}
    bank = services.balance(services.account_get(event, Account.Kind.CHIP_BANK))
    most = chips[max((pk for pk in bank if pk in chips), key=lambda pk: bank[pk] // chips[pk].value_cents)]
    timed.seconds = 0.0
    before = Posting.objects.filter(slip__event=event).count()
    started = time.perf_counter()
    at = after_the_last_slip(event)
    for i in range(100):
        services.sale(
            day=day, chips={most.key: 1}, cash=most.value_cents, signed=signed, at=at + datetime.timedelta(seconds=i)
        )
    window = time.perf_counter() - started
    postings = Posting.objects.filter(slip__event=event).count() - before
    return {
        "import_seconds": imported,
        "import_chain_seconds": import_chain,
        "window_seconds": window,
        "window_chain_seconds": timed.seconds,
        "sales": 100,
        # What those sales posted: the window's cost per posting, beside the peer's per leg.
        "window_postings": postings,
    }


if __name__ == "__main__":
    what, slug = sys.argv[1], sys.argv[2]
    print(json.dumps({"pages": pages, "close": close, "chain": chain}[what](slug)))
