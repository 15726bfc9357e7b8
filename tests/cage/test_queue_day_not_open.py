"""The DRIC's queue says when no gaming day is open yet, instead of only "Nothing waits": she lands
on it after her login, and the slips she waits for cannot come before she opens the day."""

import pytest
from django.urls import reverse
from django.utils.translation import override

from events import services as event_services
from tests.conftest import login_person, make_cast

pytestmark = pytest.mark.django_db


def queue(client, cast, language="en"):
    client.cookies["django_language"] = language
    return client.get(reverse("cage:queue", args=[cast.event.slug]), HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_the_queue_says_the_day_is_not_open_and_leads_the_dric_to_open_it(client):
    cast = make_cast(open_day=False)
    login_person(client, cast.dric)
    page = queue(client, cast)
    assert 'id="day-not-open"' in page
    assert f"The gaming day {cast.day.date.isoformat()} is not open yet: the cage records no slip before it is." in page
    assert f'href="{reverse("events:days", args=[cast.event.slug])}">Open it from the gaming days page</a>' in page
    assert "Nothing waits: every slip is signed." in page

    event_services.day_open(day=cast.day, records_file=True)
    assert 'id="day-not-open"' not in queue(client, cast)


def test_the_auditor_reads_it_without_the_link_and_in_french(client):
    cast = make_cast(open_day=False)
    login_person(client, cast.auditor)
    page = queue(client, cast)
    assert 'id="day-not-open"' in page and "Open it from the gaming days" not in page
    with override("fr"):
        french = queue(client, cast, "fr")
    assert f"La journée de jeu {cast.day.date.isoformat()} n’est pas encore ouverte" in french
