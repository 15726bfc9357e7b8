"""Signing PINs: set by their owner only, stored hashed, checked, and locked after wrong tries.

The lock is django-axes' (events.lockout), apart from the login's: a wrong PIN counts against its
owner's signing PIN from the terminal it was typed at ("pin:" + the username), never against their
password login, and wrong passwords never lock the PIN.
"""

import datetime
import io
import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.core.management import call_command
from django.db import connection, transaction
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from core.rules import ClockZone, RuleViolation
from events import services
from events.models import Event, Person, Role, SigningPin
from tests.conftest import PASSWORD, PIN, add_person, login_person, make_cast
from tests.refusals import refuses

pytestmark = pytest.mark.django_db

CAGE_TERMINAL = "10.0.0.5"


@pytest.fixture
def cast(db):
    return make_cast()


def at(address=CAGE_TERMINAL):
    """A request from a terminal at this address, as the slip form's POST is."""
    return RequestFactory().post("/cage/lakeside/slips/new/fill/", REMOTE_ADDR=address)


def pin_of(person) -> SigningPin:
    return SigningPin.objects.get(user=person.user)


def failures(person, address=CAGE_TERMINAL) -> int:
    """Wrong passwords axes counts for this person's username from this address."""
    attempt = AccessAttempt.objects.filter(username=person.user.username, ip_address=address).first()
    return attempt.failures_since_start if attempt else 0


def pin_failures(person, address=CAGE_TERMINAL) -> int:
    """Wrong signing PINs axes counts for this person from this address."""
    attempt = AccessAttempt.objects.filter(username=f"pin:{person.user.username}", ip_address=address).first()
    return attempt.failures_since_start if attempt else 0


def verify(person, pin, address=CAGE_TERMINAL):
    services.pin_verify(request=at(address), person=person, pin=pin)


def wrong(person, pin="1357", address=CAGE_TERMINAL) -> RuleViolation:
    """The refusal of a PIN that does not sign: its code and arguments, and its words (str)."""
    with pytest.raises(RuleViolation) as refused:
        verify(person, pin, address)
    return refused.value


def tries_left(person) -> int:
    refused = wrong(person)
    assert refused.code == "pin.wrong", refused
    return refused.arguments["left"]


def pin_set(user, password=PASSWORD, pin="9173", address=CAGE_TERMINAL):
    return services.pin_set(request=at(address), user=user, password=password, pin=pin)


# Setting a PIN


def test_every_persona_with_a_login_has_the_shared_test_pin(cast):
    verify(cast.runner, PIN)
    verify(cast.dric, PIN)


def test_the_owner_sets_a_pin_and_it_is_stored_hashed(cast):
    person = add_person(cast.event, "newcomer", Role.RUNNER, login=False)
    setup = services.login_create(person=person, username="newcomer", by=None)
    assert not SigningPin.objects.filter(user=setup.user).exists()  # the owner sets it at the setup
    services.login_setup_complete(request=None, username="newcomer", code=setup.code, password=PASSWORD, pin="80514")
    user = get_user_model().objects.get(username="newcomer")
    assert check_password("80514", SigningPin.objects.get(user=user).pin_hash)
    signing_pin = pin_set(user, pin="80517")
    stored = SigningPin.objects.get(user=user)
    assert stored.pk == signing_pin.pk
    assert "80517" not in stored.pin_hash and check_password("80517", stored.pin_hash)
    assert stored.set_at <= timezone.now()


def test_changing_the_pin_replaces_the_old_one(cast):
    pin_set(cast.runner.user, pin="9173")
    assert SigningPin.objects.filter(user=cast.runner.user).count() == 1
    verify(cast.runner, "9173")
    assert wrong(cast.runner, PIN).code == "pin.wrong"


def test_a_wrong_current_password_sets_nothing_and_counts_as_a_failed_login(cast):
    before = pin_of(cast.runner).pin_hash
    with refuses("pin.current_password_wrong") as refused:
        pin_set(cast.runner.user, password="not-my-password")
    assert refused.value.field == "password" and refused.value.rule == services.LOGIN_RULE
    assert pin_of(cast.runner).pin_hash == before
    assert failures(cast.runner) == 1


@pytest.mark.parametrize(
    "pin, why",
    [
        ("123", "pin.bad_format"),
        ("123456789", "pin.bad_format"),
        ("12a4", "pin.bad_format"),
        ("", "pin.bad_format"),
        (" 2468", "pin.bad_format"),
        ("٢٤٦٨", "pin.bad_format"),  # Arabic-Indic digits are not the keypad's
        ("0000", "pin.one_digit_repeated"),
        ("77777777", "pin.one_digit_repeated"),
        ("1234", "pin.digits_in_a_row"),
        ("4321", "pin.digits_in_a_row"),
        ("345678", "pin.digits_in_a_row"),
        ("7890", "pin.digits_in_a_row"),
    ],
)
def test_weak_pins_are_refused_with_the_reason(cast, pin, why):
    before = pin_of(cast.runner).pin_hash
    with refuses(why) as refused:
        pin_set(cast.runner.user, pin=pin)
    assert refused.value.field == "pin"
    assert pin_of(cast.runner).pin_hash == before


@pytest.mark.parametrize("pin", ["2468", "1357", "1243", "00001", "97531111"])
def test_pins_that_are_not_runs_or_repeats_are_accepted(cast, pin):
    pin_set(cast.runner.user, pin=pin)
    verify(cast.runner, pin)


# Verifying a PIN


def test_the_right_pin_passes_and_a_wrong_one_says_how_many_tries_are_left(cast):
    verify(cast.runner, PIN)
    assert str(wrong(cast.runner)) == "the signing PIN of Runner is wrong; 4 tries left (signing PINs)"
    assert pin_failures(cast.runner) == 1 and failures(cast.runner) == 0
    assert [tries_left(cast.runner) for _ in range(3)] == [3, 2, 1]


def test_a_right_pin_resets_the_count(cast):
    wrong(cast.runner)
    wrong(cast.runner)
    verify(cast.runner, PIN)
    assert pin_failures(cast.runner) == 0
    assert tries_left(cast.runner) == 4
    # Another terminal's wrong tries are its own: a right PIN here leaves them counted there.
    wrong(cast.runner, address="10.0.0.6")
    verify(cast.runner, PIN)
    assert pin_failures(cast.runner, "10.0.0.6") == 1


@pytest.mark.django_db(transaction=True)
def test_a_right_pin_with_no_wrong_try_before_it_writes_nothing(cast):
    # The usual PIN at the window: nothing to reset, so no write transaction for it (on SQLite, the
    # write lock the other terminals wait for), only a look.
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        verify(cast.runner, PIN)
    sql = [q["sql"].split()[0].upper() for q in ctx.captured_queries]
    assert sql and set(sql) == {"SELECT"}, sql
    assert not AccessAttempt.objects.exists()
    # One look at the tries counted, the lock check's: the reset that follows knows it found none.
    looks = [q["sql"] for q in ctx.captured_queries if AccessAttempt._meta.db_table in q["sql"]]
    assert len(looks) == 1, looks


def test_wrong_tries_older_than_the_lock_time_are_not_reset_by_a_right_pin_and_never_count_again(cast):
    for _ in range(3):
        wrong(cast.runner)
    AccessAttempt.objects.update(attempt_time=timezone.now() - datetime.timedelta(minutes=16))
    assert tries_left(cast.runner) == 4
    verify(cast.runner, PIN)
    # The next wrong try is the first counted: axes clears the expired ones as it counts it.
    wrong(cast.runner)
    assert pin_failures(cast.runner) == 1 and tries_left(cast.runner) == 3


def test_the_wrong_tries_counted_are_axes_own_count_at_every_address(cast):
    # events.lockout counts them by a query compiled once, the address compared as the field keeps
    # it: the same count as axes' database handler, for a PIN and for a login, here and elsewhere.
    from axes.handlers.database import AxesDatabaseHandler
    from axes.handlers.proxy import AxesProxyHandler
    from axes.helpers import get_credentials

    from events.lockout import SIGNING_PIN, AddressAwareHandler

    for address in (CAGE_TERMINAL, CAGE_TERMINAL, "10.0.0.6", "2001:db8::1", "10.0.0.8"):
        wrong(cast.runner, address=address)
    AccessAttempt.objects.filter(ip_address="10.0.0.8").update(
        attempt_time=timezone.now() - datetime.timedelta(hours=1)
    )
    AccessAttempt.objects.create(
        username=cast.runner.user.username,
        ip_address=CAGE_TERMINAL,
        user_agent="",
        failures_since_start=2,
        get_data="",
        post_data="",
        http_accept="",
        path_info="",
        attempt_time=timezone.now(),
    )
    handler, counted = AddressAwareHandler(), []
    for address in (CAGE_TERMINAL, "10.0.0.6", "2001:DB8:0::1", "10.0.0.7", "10.0.0.8"):
        request = at(address)
        AxesProxyHandler.update_request(request)
        for credentials in (
            get_credentials(cast.runner.user.username, **{SIGNING_PIN: True}),
            get_credentials(cast.runner.user.username),
        ):
            ours = handler.get_failures(request, credentials)
            assert ours == AxesDatabaseHandler.get_failures(handler, request, credentials)
            counted.append(ours)
    assert counted == [2, 2, 1, 0, 1, 0, 0, 0, 0, 0]


def test_the_fifth_wrong_try_locks_and_even_the_right_pin_is_refused_until_the_lock_ends(cast):
    for _ in range(4):
        wrong(cast.runner)
    before = timezone.now()
    message = wrong(cast.runner)
    attempt = AccessAttempt.objects.get(username=f"pin:{cast.runner.user.username}", ip_address=CAGE_TERMINAL)
    ends = attempt.attempt_time + datetime.timedelta(minutes=15)
    assert before + datetime.timedelta(minutes=15) <= ends <= timezone.now() + datetime.timedelta(minutes=15)
    at_time = timezone.localtime(ends).strftime("%H:%M %Z")  # with the zone: "21:45 EDT"
    assert message.code == "pin.locked" and message.arguments["n"] == 5
    assert str(message) == (
        f"Runner's signing PIN is locked after 5 wrong tries; try again at {at_time}, or sign from their own session "
        "(their login is not locked) (signing PINs)"
    )
    # Locked: the right PIN is refused too, and further tries are not counted and do not move the lock.
    assert wrong(cast.runner, PIN).code == "pin.locked"
    assert wrong(cast.runner).code == "pin.locked"
    assert pin_failures(cast.runner) == 5
    assert AccessAttempt.objects.get(pk=attempt.pk).attempt_time == attempt.attempt_time
    # Other people's PINs are not touched, nor this one at another terminal.
    verify(cast.runner2, PIN)
    verify(cast.runner, PIN, address="10.0.0.9")

    # The lock time passes: the right PIN works again, and the count starts afresh.
    AccessAttempt.objects.filter(pk=attempt.pk).update(attempt_time=timezone.now() - datetime.timedelta(minutes=16))
    assert tries_left(cast.runner) == 4
    verify(cast.runner, PIN)
    assert pin_failures(cast.runner) == 0


def test_wrong_pins_at_a_cashiers_window_lock_the_pin_but_not_the_runners_login(client, cast):
    for _ in range(5):
        wrong(cast.runner, address="127.0.0.1")
    assert wrong(cast.runner, PIN, address="127.0.0.1").code == "pin.locked"
    # The runner logs in with their password, from that very terminal, and signs from their session.
    response = client.post(reverse("login"), {"username": cast.runner.user.username, "password": PASSWORD})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(cast.runner.user.pk)
    assert failures(cast.runner, "127.0.0.1") == 0
    # Their right password did not lift the PIN's lock either: the two counts are apart.
    assert wrong(cast.runner, PIN, address="127.0.0.1").code == "pin.locked"


def test_wrong_passwords_at_the_login_page_lock_the_login_but_not_the_pin(client, cast):
    for _ in range(5):
        client.post(reverse("login"), {"username": cast.runner.user.username, "password": "guess"})
    response = client.post(reverse("login"), {"username": cast.runner.user.username, "password": PASSWORD})
    assert response.status_code == 429 and "This login is locked for now" in response.content.decode()
    verify(cast.runner, PIN, address="127.0.0.1")  # the runner still signs on the cashier's screen
    assert pin_failures(cast.runner, "127.0.0.1") == 0


def test_a_name_typed_at_the_login_page_never_counts_against_a_pin(client, cast):
    # "pin:<username>" is the PIN's key in axes; typed at the login page it is counted apart.
    for _ in range(5):
        client.post(reverse("login"), {"username": f"pin:{cast.runner.user.username}", "password": "guess"})
    verify(cast.runner, PIN, address="127.0.0.1")
    assert AccessAttempt.objects.filter(username=f"typed:pin:{cast.runner.user.username}").exists()


def test_the_limit_and_the_lock_time_come_from_the_settings(cast, settings):
    settings.AXES_FAILURE_LIMIT = 2
    settings.AXES_COOLOFF_TIME = datetime.timedelta(minutes=60)
    assert tries_left(cast.runner) == 1
    message = wrong(cast.runner)
    attempt = AccessAttempt.objects.get(username=f"pin:{cast.runner.user.username}")
    ends = attempt.attempt_time + datetime.timedelta(minutes=60)
    assert message.code == "pin.locked" and message.arguments["n"] == 2
    assert message.arguments["time"] == ClockZone(ends)


@pytest.mark.django_db(transaction=True)
def test_wrong_tries_counted_outside_a_transaction_stay_when_the_callers_work_rolls_back():
    cast = make_cast()
    assert not connection.in_atomic_block  # no test transaction around us: autocommit, as in a request

    class CallersWorkUndone(Exception):
        pass

    with pytest.raises(CallersWorkUndone):
        wrong(cast.runner)  # outside the block, as the slip form calls it
        with transaction.atomic():
            services.registration_change(person=cast.dealer, registration=Person.Registration.SUSPENDED)
            raise CallersWorkUndone
    cast.dealer.refresh_from_db()
    assert cast.dealer.registration == Person.Registration.GOOD  # the caller's work is gone
    assert pin_failures(cast.runner) == 1  # the wrong try is not
    assert tries_left(cast.runner) == 3


def test_the_pin_typed_is_not_written_into_the_lockout_record(cast):
    request = RequestFactory().post("/cage/x/", {"pin_received_by": "1357", "chips_5": "1"}, REMOTE_ADDR=CAGE_TERMINAL)
    with pytest.raises(RuleViolation):
        services.pin_verify(request=request, person=cast.runner, pin="1357")
    attempt = AccessAttempt.objects.get(username=f"pin:{cast.runner.user.username}")
    assert "1357" not in attempt.post_data and "1357" not in attempt.get_data


def test_a_person_without_a_login_cannot_sign_with_a_pin(cast):
    person = add_person(cast.event, "walkin", Role.RUNNER, login=False)
    assert wrong(person, PIN).code == "pin.no_login"


def test_a_person_who_never_set_a_pin_is_told_where_to_set_it(cast):
    SigningPin.objects.filter(user=cast.runner.user).delete()
    assert wrong(cast.runner, PIN).code == "pin.not_set"


def test_a_suspended_person_or_an_inactive_login_is_refused_even_with_the_right_pin(cast):
    services.registration_change(person=cast.runner, registration=Person.Registration.SUSPENDED)
    assert wrong(cast.runner, PIN).code == "person.may_not_take_part"
    cast.runner2.user.is_active = False
    cast.runner2.user.save()
    assert wrong(cast.runner2, PIN).code == "pin.login_inactive"
    assert pin_failures(cast.runner) == 0 and pin_failures(cast.runner2) == 0


# The page


def test_an_anonymous_visitor_is_sent_to_log_in(client, cast):
    url = reverse("events:my_pin")
    for response in (client.get(url), client.post(url, {"password": PASSWORD, "pin": "9173", "pin_again": "9173"})):
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    verify(cast.runner, PIN)


def test_the_page_shows_the_form_and_writes_nothing(client, cast):
    login_person(client, cast.runner)
    before = list(SigningPin.objects.values())
    response = client.get(reverse("events:my_pin"))
    page = response.content.decode()
    assert response.status_code == 200
    assert "You set your signing PIN on" in page
    assert page.count('autocomplete="off"') >= 4  # the form and its three fields
    assert page.count('inputmode="numeric"') == 2
    assert 'type="password" name="pin"' in page and "value=" not in page.split('name="pin"')[1].split(">")[0]
    # Not shown anywhere on its own (a CSRF token's random letters and digits may hold its digits).
    assert not re.search(rf"(?<![0-9A-Za-z]){PIN}(?![0-9A-Za-z])", page)
    assert list(SigningPin.objects.values()) == before
    # The header links to it from every page.
    home = client.get(reverse("events:home")).content.decode()
    assert f'href="{reverse("events:my_pin")}"' in home and "Signing PIN" in home


def test_posting_sets_the_users_own_pin(client, cast):
    login_person(client, cast.runner)
    response = client.post(reverse("events:my_pin"), {"password": PASSWORD, "pin": "9173", "pin_again": "9173"})
    assert response.status_code == 302 and response.url == reverse("events:my_pin")
    page = client.get(response.url).content.decode()
    assert "Your signing PIN is changed." in page and "9173" not in page
    verify(cast.runner, "9173")
    verify(cast.runner2, PIN)  # nobody else's


def test_a_first_pin_is_set_from_the_page(client, cast):
    SigningPin.objects.filter(user=cast.runner.user).delete()
    login_person(client, cast.runner)
    assert "You have not set a signing PIN yet" in client.get(reverse("events:my_pin")).content.decode()
    response = client.post(
        reverse("events:my_pin"), {"password": PASSWORD, "pin": "9173", "pin_again": "9173"}, follow=True
    )
    assert "Your signing PIN is set." in response.content.decode()
    verify(cast.runner, "9173")


@pytest.mark.parametrize(
    "data, shown",
    [
        ({"password": "wrong-password", "pin": "9173", "pin_again": "9173"}, "your current password is wrong"),
        ({"password": PASSWORD, "pin": "9173", "pin_again": ""}, "This field is required"),
        ({"password": PASSWORD, "pin": "1234", "pin_again": "1234"}, "digits in a row"),
        ({"password": PASSWORD, "pin": "9173", "pin_again": "9174"}, "The two PINs differ"),
        ({"password": "", "pin": "9173", "pin_again": "9173"}, "This field is required"),
    ],
)
def test_refusals_are_shown_on_the_page_and_change_nothing(client, cast, data, shown):
    login_person(client, cast.runner)
    before = list(SigningPin.objects.values())
    response = client.post(reverse("events:my_pin"), data)
    page = response.content.decode()
    assert response.status_code == 200 and shown in page
    assert "9173" not in page and PASSWORD not in page  # nothing typed is shown back
    assert list(SigningPin.objects.values()) == before


def test_wrong_passwords_on_the_pin_page_lock_the_login_and_the_pin_page_says_so(client, cast):
    login_person(client, cast.runner)
    url = reverse("events:my_pin")
    for _ in range(4):
        page = client.post(url, {"password": "guess", "pin": "9173", "pin_again": "9173"}).content.decode()
        assert "your current password is wrong" in page
    page = client.post(url, {"password": "guess", "pin": "9173", "pin_again": "9173"}).content.decode()
    assert "is locked after 5 wrong tries; try again at" in page
    # Locked: even the right password sets nothing, here or at the login page.
    page = client.post(url, {"password": PASSWORD, "pin": "9173", "pin_again": "9173"}).content.decode()
    assert "is locked after 5 wrong tries" in page
    verify(cast.runner, PIN)  # the PIN is unchanged (and not locked at another terminal)
    assert failures(cast.runner, "127.0.0.1") == 5


# The demo


def test_the_demo_gives_each_person_the_demo_pin_and_a_second_load_keeps_a_changed_one():
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "password for all: demo-pass-2026; signing PIN for each person: 2468" in out.getvalue()
    event = Event.objects.get(slug="lakeside-fair-2026")
    people = list(event.people.exclude(user=None))
    assert len(people) == 11  # the records file's eight, the auditor, and the second day's relief cashiers
    for person in people:
        verify(person, "2468")
    ann = event.people.get(code="ann")
    pin_set(ann.user, password="demo-pass-2026", pin="5091")
    before = list(SigningPin.objects.order_by("pk").values())
    call_command("load_demo", stdout=io.StringIO())
    assert list(SigningPin.objects.order_by("pk").values()) == before
    verify(ann, "5091")
