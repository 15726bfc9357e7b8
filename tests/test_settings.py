"""Settings refuse bad values loudly instead of guessing."""

import datetime

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config.settings import env_bool, env_list, env_positive_int


def test_booleans_are_read_strictly(monkeypatch):
    monkeypatch.setenv("FLAG", "yes")
    assert env_bool("FLAG", False) is True
    monkeypatch.setenv("FLAG", "off")
    assert env_bool("FLAG", True) is False
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="FLAG must be true or false"):
        env_bool("FLAG", True)
    monkeypatch.delenv("FLAG")
    assert env_bool("FLAG", True) is True


def test_lists_are_comma_separated(monkeypatch):
    monkeypatch.setenv("HOSTS", "a.example, b.example,")
    assert env_list("HOSTS", []) == ["a.example", "b.example"]


def test_sqlite_queues_writers_and_uses_wal():
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("SQLite settings only")
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE" and "journal_mode=WAL" in options["init_command"]


def test_lockout_and_idle_limits_are_whole_numbers_of_one_or_more(monkeypatch):
    assert settings.LOGIN_MAX_FAILURES == settings.AXES_FAILURE_LIMIT == 5
    assert settings.LOGIN_LOCK_MINUTES == 15 and settings.AXES_COOLOFF_TIME == datetime.timedelta(minutes=15)
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.CAGE_IDLE_MINUTES == 15 and settings.LOGIN_SETUP_HOURS == 72
    monkeypatch.setenv("LIMIT", "3")
    assert env_positive_int("LIMIT", 5) == 3
    for bad in ("0", "-1", "five", "2.5"):
        monkeypatch.setenv("LIMIT", bad)
        with pytest.raises(ImproperlyConfigured, match="LIMIT must be a whole number from 1 to 999999"):
            env_positive_int("LIMIT", 5)


# --- the lockout's client address behind a proxy ----------------------------------------------------

PROXY = "10.0.0.2"


def _login_from(client_address, username, password, *, proxy=True):
    from django.urls import reverse

    from tests.conftest import Client

    meta = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"198.51.100.66, {client_address}"} if proxy else {}
    return Client(**meta).post(reverse("login"), {"username": username, "password": password})


def test_the_lockout_takes_the_clients_address_as_the_audit_trail_does(rf, settings):
    from axes.helpers import get_client_ip_address

    from core.client import client_address

    assert settings.AXES_CLIENT_IP_CALLABLE == "events.lockout.client_ip"
    request = rf.post("/login/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.66, 192.0.2.10")
    settings.BEHIND_PROXY = False
    assert get_client_ip_address(request) == client_address(request) == PROXY  # the header is anyone's claim
    settings.BEHIND_PROXY = True
    # The proxy adds the address it saw last; what comes before it is the client's own claim.
    assert get_client_ip_address(request) == client_address(request) == "192.0.2.10"


@pytest.mark.django_db
def test_behind_a_proxy_wrong_passwords_lock_a_login_at_the_clients_address_only(settings):
    from axes.models import AccessAttempt
    from django.contrib.auth import get_user_model

    from tests.conftest import PASSWORD

    settings.BEHIND_PROXY = True
    get_user_model().objects.create_user("gus", password=PASSWORD)
    for _ in range(5):
        _login_from("192.0.2.10", "gus", "guess")
    assert AccessAttempt.objects.get(username="gus").ip_address == "192.0.2.10"
    assert _login_from("192.0.2.10", "gus", PASSWORD).status_code == 429  # the guesser is locked out
    # Gus, at the cage terminal behind the same proxy, is not: the lock is not the proxy's.
    assert _login_from("192.0.2.20", "gus", PASSWORD).status_code == 302


def test_behind_proxy_is_read_from_the_environment():
    from tests.test_hardening import SITE_KEY, setting

    assert setting("BEHIND_PROXY", "AXES_CLIENT_IP_CALLABLE", SECRET_KEY=SITE_KEY, BEHIND_PROXY="true") == [
        "True",
        "'events.lockout.client_ip'",
    ]
    assert setting("BEHIND_PROXY", SECRET_KEY=SITE_KEY) == ["False"]
