"""A day's sheets, the register sorted by amount, the voids and the audit trail cost the same for a
day of the same size whatever the number of days before it (issue 25): the same, exact number of
queries and the same bounded rows on a 3-day and on a 40-day event, both generated records files
of the same shape imported, their last day closed. Counted, not timed: the timing is `make bench`'s.
The templates rendered are counted too: a list of the event's gaming days, an option template
each, once cost a 200-day event's page more than its own day's rows.

And the figures that used to add up every earlier day (chips outstanding, what the cage's places
and the runners held at the start of the day) are the same as adding them up slip by slip."""

import re
from collections import defaultdict

import pytest
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cage.importer import import_records
from cage.models import Account, Posting, Slip
from cage.slip_types import VOID_KIND
from reports.daily import _balances, day_figures
from reports.figures import event_figures
from reports.views import DAYS_AROUND
from tests.conftest import built_once, give_login
from tests.records_generator import generated_event

pytestmark = pytest.mark.django_db

SHAPE = {"records_per_day": 40, "tables": 5}


def imported(slug: str, days: int):
    data = generated_event(seed=25, days=days, **SHAPE)
    data["event"]["slug"] = slug
    event = import_records(data)
    give_login(event.people.get(code="ann"), f"ann-{slug}")
    return event


@pytest.fixture(scope="module")
def events(django_db_setup, django_db_blocker):
    # Built once for the module: its tests only read them.
    with built_once(django_db_blocker):
        yield imported("short-event", 3), imported("long-event", 40)


def pages(event) -> dict[str, str]:
    last = event.days.order_by("-date").last()
    day = last.date.isoformat()
    register = reverse("cage:register", args=[event.slug])
    voids = reverse("cage:voids", args=[event.slug])
    trail = reverse("audit:event", args=[event.slug])
    return {
        "day's sheets": reverse("reports:day", args=[event.slug, day]),
        "register by amount": f"{register}?sort=-amount",
        "a day's register by amount": f"{register}?sort=-amount&day={last.pk}",
        "voids": voids,
        "a day's voids": f"{voids}?day={last.pk}",
        "audit trail": trail,
        "a day's audit trail": f"{trail}?since={day}&until={day}",
    }


def fetched(client, event, url) -> tuple[int, str]:
    queries, html, _templates = fetched_with_templates(client, event, url)
    return queries, html


def fetched_with_templates(client, event, url) -> tuple[int, str, int]:
    """The page's queries, its HTML, and how many templates it rendered (the test client counts
    each, a form widget's options included)."""
    client.force_login(event.people.get(code="ann").user)
    client.get(url)  # warm: the session's first request reads more than the next
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries), response.content.decode(), len(response.templates)


def rows(html: str) -> int:
    return len(re.findall(r"<tr[ >]", html))


def test_the_pages_run_the_same_queries_and_rows_for_a_short_and_a_long_event(client, events):
    short, long = events
    assert long.days.count() == 40 and short.days.count() == 3
    assert long.slips.count() > 10 * short.slips.count()
    for name in pages(short):
        (short_queries, short_html, short_templates), (long_queries, long_html, long_templates) = (
            fetched_with_templates(client, e, pages(e)[name]) for e in (short, long)
        )
        assert short_queries == long_queries, name
        assert short_templates == long_templates, name
        if name.startswith("a day's") or name == "day's sheets":
            continue  # rows of one day: each event's own last day
        if name == "voids":
            assert rows(short_html) <= rows(long_html) <= 51, name
        else:
            # A page of 50, whatever the size of the event (and its header row).
            assert rows(short_html) == rows(long_html) == 51, name


def test_the_day_sheets_link_a_bounded_number_of_days(client, events):
    _short, long = events
    _queries, html = fetched(client, long, pages(long)["day's sheets"])
    links = re.findall(r'href="/reports/long-event/days/\d{4}-\d\d-\d\d/"', html)
    # The first day, the DAYS_AROUND before the last, none after it: not one link per day.
    assert len(links) == 1 + DAYS_AROUND
    assert "…" in html


def _outstanding_slip_by_slip(event) -> dict[str, int]:
    """Chips outstanding at the end of each day, as the event's figures add it up day by day."""
    running, result = 0, {}
    for row in event_figures(event)["days"]:
        cents = {k: round(float(row[k]) * 100) for k in ("chip_sales", "redemptions", "win", "tips")}
        running += cents["chip_sales"] - cents["redemptions"] - cents["win"] - cents["tips"]
        result[row["date"]] = running
    return result


def _balances_slip_by_slip(day) -> dict:
    """What the cage's places and the runners held before the day and moved on it, from every
    posting up to it (the way the sheets read it before issue 25)."""
    rows_ = (
        Posting.objects.filter(
            account__event=day.event,
            account__kind__in=(Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK, Account.Kind.RUNNER),
            slip__day__date__lte=day.date,
        )
        .exclude(slip__slip_type=VOID_KIND.type)
        .exclude(slip__in=Slip.objects.voided())
        .values("account__kind", "account__person_id", "slip__day_id", "slip__slip_type", "denomination_id")
        .annotate(total=Sum("amount"))
    )
    result: dict = {}
    for row in rows_:
        entry = result.setdefault(
            (row["account__kind"], row["account__person_id"]),
            {"before": 0, "by_type": defaultdict(int), "cash": 0, "chips": 0},
        )
        total = row["total"] or 0
        if row["slip__day_id"] != day.pk:
            entry["before"] += total
        else:
            entry["by_type"][row["slip__slip_type"]] += total
        entry["cash" if row["denomination_id"] is None else "chips"] += total
    return result


def _plain(balances: dict) -> dict:
    return {
        key: (b["before"], {t: v for t, v in b["by_type"].items() if v}, b["cash"], b["chips"])
        for key, b in balances.items()
    }


def test_the_running_figures_are_those_added_up_day_by_day(events):
    _short, long = events
    assert long.slips.filter(slip_type=VOID_KIND.type).exists()
    outstanding = _outstanding_slip_by_slip(long)
    for day in long.days.order_by("date"):
        figures = day_figures(day)
        assert figures["totals"]["chips_outstanding"] == outstanding[day.date.isoformat()], day.date
        assert _plain(_balances(day)) == _plain(_balances_slip_by_slip(day)), day.date
