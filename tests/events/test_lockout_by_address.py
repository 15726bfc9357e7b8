"""Failed logins from one address, whatever the usernames, lock every login from it for a while
(events.lockout.AddressAwareHandler): a few anonymous clients cannot tie every worker up hashing
passwords and starve the cage. The per-username lock stays as it was; a right password at that
address forgets only its own username's tries; wrong signing PINs lock only their owner's PIN."""

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

from events import lockout
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

ATTACKER, CAGE = "203.0.113.9", "10.0.0.5"


def try_login(client, username, password, address):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def test_failed_logins_from_one_address_lock_it_whatever_the_usernames(client, cast, settings):
    limit = settings.LOGIN_ADDRESS_MAX_FAILURES
    for i in range(limit):
        response = try_login(client, f"nobody-{i}", "guess", ATTACKER)
        assert response.status_code == 200, i  # each username tried once: none is locked on its own
    response = try_login(client, cast.dric.user.username, PASSWORD, ATTACKER)
    page = response.content.decode()
    assert response.status_code == 429 and "Logins from this terminal are locked for now" in page
    assert f"After {limit} failed logins from one address" in page and "_auth_user_id" not in client.session
    # Another address is not touched: the cage logs in.
    assert try_login(client, cast.dric.user.username, PASSWORD, CAGE).status_code == 302


def test_a_right_password_at_the_address_does_not_forget_the_others_tries(client, cast, settings):
    limit = settings.LOGIN_ADDRESS_MAX_FAILURES
    for i in range(limit - 1):
        try_login(client, f"nobody-{i}", "guess", ATTACKER)
    assert try_login(client, cast.dealer.user.username, PASSWORD, ATTACKER).status_code == 302
    client.logout()
    assert AccessAttempt.objects.filter(ip_address=ATTACKER).count() == limit - 1
    try_login(client, "nobody-last", "guess", ATTACKER)
    assert try_login(client, cast.dric.user.username, PASSWORD, ATTACKER).status_code == 429


def test_the_username_lock_at_an_address_stays_at_its_own_limit(client, cast, settings):
    username = cast.general_cashier.user.username
    for _ in range(settings.LOGIN_MAX_FAILURES):
        try_login(client, username, "guess", CAGE)
    response = try_login(client, username, PASSWORD, CAGE)
    assert response.status_code == 429 and "This login is locked for now" in response.content.decode()
    assert try_login(client, cast.dric.user.username, PASSWORD, CAGE).status_code == 302


def test_wrong_signing_pins_at_the_window_do_not_lock_the_windows_logins(client, cast, settings, rf):
    request = rf.post("/", REMOTE_ADDR=CAGE)
    for _ in range(settings.LOGIN_ADDRESS_MAX_FAILURES + 1):
        lockout.count_failure(request, cast.runner.user.username, pin=True)
    assert lockout.is_locked(request, cast.runner.user.username, pin=True)
    assert not lockout.address_locked(request)
    assert try_login(client, cast.chip_cashier.user.username, PASSWORD, CAGE).status_code == 302
