"""The report page shows one week of days at a time (issue 11): its HTML and its queries stay the
same however many days the event has; the totals stay the whole event's, and the JSON, the CSV and
the PDF keep every day."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cage.importer import import_records
from reports.views import DAYS_PER_PAGE
from tests.conftest import give_login
from tests.records_generator import generated_event
from tests.reports.test_charts import cells

pytestmark = pytest.mark.django_db


def event_of(days: int, slug: str, tables: int | None = None):
    data = generated_event(seed=7, days=days, records_per_day=12, tables=tables)
    data["event"]["slug"] = slug
    event = import_records(data)
    give_login(event.people.get(code="ann"), f"ann-{slug}")
    return event


def page(client, event, query: str = "") -> tuple[str, int]:
    client.force_login(event.people.get(code="ann").user)
    url = reverse("reports:event", args=[event.slug]) + query
    client.get(url)  # warm: the session's first request reads more than the next
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode(), len(ctx.captured_queries)


def dates_in(html: str, table_id: str) -> set[str]:
    return {row[0] for row in cells(html, table_id)[1:] if re.fullmatch(r"\d{4}-\d{2}-\d{2}", row[0])}


def test_a_long_event_shows_its_latest_week_and_pages_back_to_the_first_day(client):
    event = event_of(DAYS_PER_PAGE + 2, "long-event", tables=8)
    dates = [d.date.isoformat() for d in event.days.order_by("date")]
    latest, queries = page(client, event)
    assert dates_in(latest, "days") == set(dates[-DAYS_PER_PAGE:])
    assert dates_in(latest, "table-wins") == set(dates[-DAYS_PER_PAGE:])
    assert "page 1 of 2" in latest and 'id="earlier-days"' in latest and 'id="later-days"' not in latest
    earlier, _ = page(client, event, "?page=2")
    assert dates_in(earlier, "days") == dates_in(earlier, "table-wins") == set(dates[:2])
    assert 'id="later-days"' in earlier and 'id="earlier-days"' not in earlier
    # the daily sheets are linked for the days on the page
    assert reverse("reports:day", args=[event.slug, dates[0]]) in earlier
    assert reverse("reports:day", args=[event.slug, dates[0]]) not in latest
    # the totals are the whole event's on every page, as in the JSON report
    report = client.get(reverse("reports:event_json", args=[event.slug])).json()
    assert len(report["days"]) == len(dates)
    assert cells(latest, "totals") == cells(earlier, "totals")
    # a page that is not one shows the nearest page, never an error
    for asked, nearest in (("?page=x", latest), ("?page=0", earlier), ("?page=99", earlier)):
        assert dates_in(page(client, event, asked)[0], "days") == dates_in(nearest, "days")
    # a short event has a single page: no pager
    short = event_of(2, "short-event")
    short_page, short_queries = page(client, short)
    assert 'id="day-pages"' not in short_page and dates_in(short_page, "days") == {
        d.date.isoformat() for d in short.days.all()
    }
    assert queries == short_queries


def test_twice_the_days_make_a_page_of_the_same_rows(client):
    week, queries = page(client, event_of(DAYS_PER_PAGE, "one-week"))
    fortnight, more_queries = page(client, event_of(2 * DAYS_PER_PAGE, "two-weeks"))
    assert queries == more_queries
    for table_id in ("days", "table-wins", "game-wins"):
        assert len(cells(fortnight, table_id)) == len(cells(week, table_id)), table_id
