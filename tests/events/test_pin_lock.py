"""An idle session locks, and its owner unlocks it with their signing PIN (events.idle,
events.services.session_unlock): the right PIN returns to the page she was on; wrong ones count
as failed logins, and once they lock the login out the session is logged out; a login with no PIN
is logged out at once. A locked session shows nothing of the page behind it.

No clock is waited for: the time of the last activity kept in the session is moved back instead.
"""

import time

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

from audit.models import AuditEntry
from events.idle import LAST_ACTIVITY, LOCKED
from events.models import SigningPin
from tests.conftest import PASSWORD, PIN, make_cast
from tests.events.sessions import idle_for, logged_in

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

UNLOCK = reverse("events:unlock")


@pytest.fixture
def cast(db):
    return make_cast()


def locked(client, person, page: str):
    """`person` logged in, idle past the time, then asking for `page`: the answer (a redirect)."""
    logged_in(client, person)
    idle_for(client, 16)
    return client.get(page)


def mine(cast) -> str:
    return reverse("cage:mine", args=[cast.event.slug])


def test_an_idle_session_locks_and_goes_to_the_lock_page_keeping_the_page_asked_for(client, cast):
    response = locked(client, cast.dealer, mine(cast))
    assert response.status_code == 302 and response.url == f"{UNLOCK}?next=%2Fcage%2Flakeside%2Fme%2F"
    assert client.session[LOCKED] is True and client.session["_auth_user_id"]  # still logged in
    page = client.get(response.url).content.decode()
    assert "This screen is locked" in page and "It locked after 15 minutes without activity." in page
    # Who is logged in, and "Not you?" with a logout.
    assert "Dealer (lakeside-dealer) is logged in" in page and 'id="not-you-logout"' in page
    assert '<input type="password" name="pin"' in page and 'autocomplete="off"' in page


def test_a_locked_session_shows_nothing_of_any_page(client, cast):
    locked(client, cast.dealer, mine(cast))
    slug = cast.event.slug
    for url in (
        mine(cast),
        reverse("cage:home", args=[slug]),
        reverse("events:detail", args=[slug]),
        reverse("events:home"),
        reverse("events:my_pin"),
        "/no-such-page/",
    ):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(UNLOCK), url
    # A form sent while locked is not applied: it goes to the lock page too.
    response = client.post(reverse("cage:slip_new", args=[slug, "fill"]), {"table": cast.bj.pk})
    assert response.status_code == 302 and response.url.startswith(UNLOCK)
    page = client.get(UNLOCK).content.decode()
    # Neither the event's navigation, nor its name, nor the header's PIN and password links.
    for hidden in (cast.event.name, "My slips", 'id="my-pin-link"', 'id="my-password-link"', "BJ-1"):
        assert hidden not in page, hidden


def test_a_panels_poll_while_locked_answers_401_for_its_script_to_go_to_the_lock_page(client, cast):
    logged_in(client, cast.dealer)
    poll = mine(cast) + "?panel=1"
    assert client.get(poll).status_code == 200
    idle_for(client, 16)
    response = client.get(poll)
    assert response.status_code == 401 and response.content == b""
    assert client.session[LOCKED] is True
    # The script reloads the page, which goes to the lock page and back to it once unlocked.
    assert client.get(mine(cast)).url == f"{UNLOCK}?next=%2Fcage%2Flakeside%2Fme%2F"
    # Still locked: a later poll too is answered 401, never with the panels.
    assert client.get(poll).status_code == 401


def test_the_right_pin_unlocks_and_returns_to_the_page(client, cast):
    response = locked(client, cast.dealer, mine(cast))
    response = client.post(UNLOCK, {"pin": PIN, "next": mine(cast)})
    assert response.status_code == 302 and response.url == mine(cast)
    assert LOCKED not in client.session
    assert client.session[LAST_ACTIVITY] >= int(time.time()) - 1  # the idle time starts again
    assert client.get(mine(cast)).status_code == 200
    entry = AuditEntry.objects.filter(action="session_unlocked").get()
    assert entry.user == cast.dealer.user and entry.outcome == "done"
    assert entry.message == "%(username)s unlocked their session with their signing PIN"
    assert entry.params["username"] == "lakeside-dealer" and entry.event is None  # on the logins' trail


def test_the_lock_page_of_a_session_not_locked_goes_back_at_once(client, cast):
    logged_in(client, cast.dealer)
    assert client.get(f"{UNLOCK}?next={mine(cast)}").url == mine(cast)


def test_a_session_locked_on_the_site_root_unlocks_to_the_page_its_role_works_from(client, cast):
    response = locked(client, cast.dealer, reverse("events:home"))
    assert response.url == f"{UNLOCK}?next=%2F"
    # The lock page sends the login's landing back, not the root's events list.
    assert f'name="next" value="{reverse("events:landing")}"' in client.get(response.url).content.decode()
    response = client.post(UNLOCK, {"pin": PIN, "next": "/"})
    assert response.status_code == 302 and response.url == reverse("events:landing")
    assert client.get(response.url).url == mine(cast)


@pytest.mark.parametrize("elsewhere", ["https://evil.example/", "//evil.example/cage/", "javascript:alert(1)"])
def test_an_unsafe_next_is_refused(client, cast, elsewhere):
    locked(client, cast.dealer, mine(cast))
    response = client.post(UNLOCK, {"pin": PIN, "next": elsewhere})
    assert response.status_code == 302 and response.url == reverse("events:landing")
    assert elsewhere not in client.get(f"{UNLOCK}?next={elsewhere}").content.decode()


def test_a_wrong_pin_is_counted_as_a_failed_login_and_said_so(client, cast):
    locked(client, cast.dealer, mine(cast))
    page = client.post(UNLOCK, {"pin": "1357", "next": mine(cast)}).content.decode()
    assert "your signing PIN is wrong; 4 tries left before the session is logged out" in page
    assert client.session[LOCKED] is True
    username = cast.dealer.user.username
    # Counted against the login, as at the login page, not against the PIN used on slips.
    assert AccessAttempt.objects.get(username=username).failures_since_start == 1
    assert not AccessAttempt.objects.filter(username=f"pin:{username}").exists()
    refused = AuditEntry.objects.filter(action="session_unlocked", outcome="refused").get()
    assert refused.user == cast.dealer.user and refused.params["code"] == "unlock.wrong_pin"
    assert AuditEntry.objects.filter(action="login", outcome="refused", username=username).exists()
    # Not a PIN at all: refused, and not counted.
    page = client.post(UNLOCK, {"pin": "12ab", "next": mine(cast)}).content.decode()
    assert "what was typed is not a PIN" in page
    assert AccessAttempt.objects.get(username=username).failures_since_start == 1
    # The right PIN then unlocks, and sets the count back to 0.
    assert client.post(UNLOCK, {"pin": PIN, "next": mine(cast)}).url == mine(cast)
    assert not AccessAttempt.objects.filter(username=username, failures_since_start__gt=0).exists()


def test_wrong_pins_up_to_the_login_limit_log_the_session_out_under_the_lockout(client, cast, settings):
    locked(client, cast.dealer, mine(cast))
    for left in range(settings.LOGIN_MAX_FAILURES - 1, 0, -1):
        page = client.post(UNLOCK, {"pin": "1357"}).content.decode()
        assert f"{left} tr" in page
    response = client.post(UNLOCK, {"pin": "1357", "next": mine(cast)})
    assert response.status_code == 302 and response.url == f"{reverse('login')}?next=/cage/lakeside/me/"
    assert "_auth_user_id" not in client.session
    page = client.get(response.url).content.decode()
    assert "lakeside-dealer is locked after 5 wrong tries, so the session is logged out" in page
    # A full login now meets the lockout, as after five wrong passwords; even the right password.
    response = client.post(reverse("login"), {"username": "lakeside-dealer", "password": PASSWORD})
    assert response.status_code == 429 and 'id="locked-out"' in response.content.decode()
    assert AuditEntry.objects.filter(action="logout", username="lakeside-dealer").exists()


def test_a_login_locked_out_here_cannot_unlock_by_pin_either(client, cast, settings):
    locked(client, cast.dealer, mine(cast))
    AccessAttempt.objects.create(
        username="lakeside-dealer",
        ip_address="127.0.0.1",
        user_agent="",
        failures_since_start=settings.LOGIN_MAX_FAILURES,
        get_data="",
        post_data="",
        http_accept="",
        path_info="/login/",
    )
    response = client.post(UNLOCK, {"pin": PIN})
    assert response.url.startswith(reverse("login")) and "_auth_user_id" not in client.session


def test_a_pin_locked_by_wrong_tries_on_slips_does_not_unlock(client, cast, settings):
    locked(client, cast.dealer, mine(cast))
    AccessAttempt.objects.create(
        username="pin:lakeside-dealer",
        ip_address="127.0.0.1",
        user_agent="",
        failures_since_start=settings.LOGIN_MAX_FAILURES,
        get_data="",
        post_data="",
        http_accept="",
        path_info="/",
    )
    response = client.post(UNLOCK, {"pin": PIN}, follow=True)
    assert "_auth_user_id" not in client.session
    assert "your signing PIN is locked after wrong tries; log in with your password" in response.content.decode()


def test_a_login_with_no_signing_pin_is_logged_out_as_before(client, cast):
    SigningPin.objects.filter(user=cast.dealer.user).delete()
    response = locked(client, cast.dealer, mine(cast))
    assert response.url == f"{reverse('login')}?next=/cage/lakeside/me/"
    assert "_auth_user_id" not in client.session and LOCKED not in client.session


def test_not_you_logs_out_from_the_lock_page(client, cast):
    locked(client, cast.dealer, mine(cast))
    response = client.post(reverse("logout"))
    assert response.status_code == 302 and "_auth_user_id" not in client.session
    # The next login (anyone's) starts unlocked.
    logged_in(client, cast.runner)
    assert LOCKED not in client.session
    assert client.get(reverse("events:home")).status_code == 200


def test_the_language_switch_works_on_the_lock_page(client, cast):
    locked(client, cast.dealer, mine(cast))
    response = client.post(reverse("events:set_language"), {"language": "fr-ca", "next": UNLOCK})
    assert response.status_code == 302 and response.url == UNLOCK
    assert 'lang="fr-ca"' in client.get(UNLOCK).content.decode()
