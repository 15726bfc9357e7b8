"""A session idle for CAGE_IDLE_MINUTES locks (its owner unlocks it with their signing PIN:
tests/events/test_pin_lock.py), or is logged out where its login has no signing PIN; the live
panels' refresh is not activity.

No clock is waited for: the time of the last activity kept in the session is moved back instead.
"""

import time

import pytest
from django.urls import reverse

from events.idle import LAST_ACTIVITY, LOCKED
from events.models import SigningPin
from tests.conftest import make_cast
from tests.events.sessions import idle_for, logged_in

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


@pytest.fixture
def cast(db):
    return make_cast()


def last_activity(client) -> int | None:
    return client.session.get(LAST_ACTIVITY)


def polls(cast):
    slug = cast.event.slug
    return [reverse("cage:home_panels", args=[slug]) + "?panel=1", reverse("cage:queue", args=[slug]) + "?panel=1"]


def test_the_idle_time_counts_from_the_login(client, cast):
    before = int(time.time())
    logged_in(client, cast.chip_cashier)
    assert before <= last_activity(client) <= int(time.time())


def test_a_session_with_no_signing_pin_idle_too_long_is_logged_out_and_told_why(client, cast):
    # No PIN to unlock with: a full login again, as before the lock.
    SigningPin.objects.filter(user=cast.chip_cashier.user).delete()
    logged_in(client, cast.chip_cashier)
    idle_for(client, 16)
    url = reverse("cage:home", args=[cast.event.slug])
    response = client.get(url)
    assert response.status_code == 302 and response.url == f"{reverse('login')}?next={url}"
    assert "_auth_user_id" not in client.session
    page = client.get(response.url).content.decode()
    assert "You were logged out after 15 minutes without activity." in page
    # Logged out for good: the next page asks for a login too.
    assert client.get(url).status_code == 302


def test_activity_within_the_idle_time_keeps_the_session(client, cast):
    logged_in(client, cast.chip_cashier)
    idle_for(client, 14)
    assert client.get(reverse("cage:home", args=[cast.event.slug])).status_code == 200
    assert last_activity(client) >= int(time.time()) - 1  # the page view was activity
    idle_for(client, 14)
    assert client.get(reverse("events:home")).status_code == 200


def test_the_panels_refresh_is_not_activity(client, cast):
    logged_in(client, cast.dric)
    for url in polls(cast):
        idle_for(client, 14)
        kept = last_activity(client)
        assert client.get(url).status_code == 200
        assert last_activity(client) == kept, url
    # Refreshing for longer than the idle time: the next refresh locks the screen (401), and the
    # page's script reloads the page, which goes to the lock page (static/live_panels.js).
    idle_for(client, 16)
    assert client.get(polls(cast)[1]).status_code == 401
    assert client.session[LOCKED] is True
    page = client.get(reverse("cage:queue", args=[cast.event.slug]), follow=True).content.decode()
    assert "It locked after 15 minutes without activity." in page and 'id="unlock-form"' in page


def test_the_idle_time_comes_from_the_settings(client, cast, settings):
    settings.CAGE_IDLE_MINUTES = 2
    logged_in(client, cast.chip_cashier)
    idle_for(client, 1.5)
    assert client.get(reverse("events:home")).status_code == 200
    idle_for(client, 2.5)
    response = client.get(reverse("events:home"))
    assert response.status_code == 302
    assert "It locked after 2 minutes without activity." in client.get(response.url).content.decode()


def test_the_pages_poll_with_panel_1(client, cast):
    logged_in(client, cast.dric)
    for page, poll in zip(
        (reverse("cage:home", args=[cast.event.slug]), reverse("cage:queue", args=[cast.event.slug])),
        polls(cast),
        strict=True,
    ):
        assert f'data-refresh-url="{poll}"' in client.get(page).content.decode()
