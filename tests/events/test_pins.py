"""Signing PINs: set by their owner only, stored hashed, checked, and locked after wrong tries."""

import datetime
import io

import pytest
from django.contrib.auth.hashers import check_password
from django.core.management import call_command
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from events import services
from events.models import Event, Person, Role, SigningPin
from events.rules import RuleViolation
from tests.conftest import PASSWORD, PIN, add_person, make_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast(db):
    return make_cast()


def pin_of(person) -> SigningPin:
    return SigningPin.objects.get(user=person.user)


def wrong(person, pin="1357"):
    with pytest.raises(RuleViolation) as refused:
        services.pin_verify(person=person, pin=pin)
    return str(refused.value)


# Setting a PIN


def test_every_persona_with_a_login_has_the_shared_test_pin(cast):
    services.pin_verify(person=cast.runner, pin=PIN)
    services.pin_verify(person=cast.dric, pin=PIN)


def test_the_owner_sets_a_pin_and_it_is_stored_hashed(cast):
    person = add_person(cast.event, "newcomer", Role.RUNNER, login=False)
    user = services.login_create(person=person, username="newcomer", password=PASSWORD)
    assert not SigningPin.objects.filter(user=user).exists()
    signing_pin = services.pin_set(user=user, password=PASSWORD, pin="80514")
    stored = SigningPin.objects.get(user=user)
    assert stored.pk == signing_pin.pk and stored.failures == 0 and stored.locked_until is None
    assert "80514" not in stored.pin_hash and check_password("80514", stored.pin_hash)
    assert stored.set_at <= timezone.now()


def test_changing_the_pin_replaces_the_old_one(cast):
    services.pin_set(user=cast.runner.user, password=PASSWORD, pin="9173")
    assert SigningPin.objects.filter(user=cast.runner.user).count() == 1
    services.pin_verify(person=cast.runner, pin="9173")
    assert "wrong" in wrong(cast.runner, PIN)


def test_a_wrong_current_password_sets_nothing(cast):
    before = pin_of(cast.runner).pin_hash
    with pytest.raises(RuleViolation, match="your current password is wrong") as refused:
        services.pin_set(user=cast.runner.user, password="not-my-password", pin="9173")
    assert refused.value.field == "password" and refused.value.rule == services.PIN_RULE
    assert pin_of(cast.runner).pin_hash == before


@pytest.mark.parametrize(
    "pin, why",
    [
        ("123", "4 to 8 digits"),
        ("123456789", "4 to 8 digits"),
        ("12a4", "4 to 8 digits"),
        ("", "4 to 8 digits"),
        (" 2468", "4 to 8 digits"),
        ("٢٤٦٨", "4 to 8 digits"),  # Arabic-Indic digits are not the keypad's
        ("0000", "one digit repeated"),
        ("77777777", "one digit repeated"),
        ("1234", "digits in a row"),
        ("4321", "digits in a row"),
        ("345678", "digits in a row"),
        ("7890", "digits in a row"),
    ],
)
def test_weak_pins_are_refused_with_the_reason(cast, pin, why):
    before = pin_of(cast.runner).pin_hash
    with pytest.raises(RuleViolation, match=why) as refused:
        services.pin_set(user=cast.runner.user, password=PASSWORD, pin=pin)
    assert refused.value.field == "pin"
    assert pin_of(cast.runner).pin_hash == before


@pytest.mark.parametrize("pin", ["2468", "1357", "1243", "00001", "97531111"])
def test_pins_that_are_not_runs_or_repeats_are_accepted(cast, pin):
    services.pin_set(user=cast.runner.user, password=PASSWORD, pin=pin)
    services.pin_verify(person=cast.runner, pin=pin)


def test_setting_a_pin_clears_the_count_and_the_lock(cast):
    for _ in range(5):
        wrong(cast.runner)
    assert pin_of(cast.runner).locked_until is not None
    services.pin_set(user=cast.runner.user, password=PASSWORD, pin="9173")
    stored = pin_of(cast.runner)
    assert stored.failures == 0 and stored.locked_until is None
    services.pin_verify(person=cast.runner, pin="9173")


# Verifying a PIN


def test_the_right_pin_passes_and_a_wrong_one_says_how_many_tries_are_left(cast):
    services.pin_verify(person=cast.runner, pin=PIN)
    assert wrong(cast.runner) == ("the signing PIN of Runner is wrong; 4 tries left (signing PINs)")
    assert pin_of(cast.runner).failures == 1
    assert "3 tries left" in wrong(cast.runner)
    assert "2 tries left" in wrong(cast.runner)
    assert "1 try left" in wrong(cast.runner)


def test_a_right_pin_resets_the_count(cast):
    wrong(cast.runner)
    wrong(cast.runner)
    services.pin_verify(person=cast.runner, pin=PIN)
    assert pin_of(cast.runner).failures == 0
    assert "4 tries left" in wrong(cast.runner)


def test_the_fifth_wrong_try_locks_and_even_the_right_pin_is_refused_until_the_lock_ends(cast):
    for _ in range(4):
        wrong(cast.runner)
    assert pin_of(cast.runner).locked_until is None
    before = timezone.now()
    message = wrong(cast.runner)
    locked_until = pin_of(cast.runner).locked_until
    assert locked_until is not None
    assert before + datetime.timedelta(minutes=15) <= locked_until <= timezone.now() + datetime.timedelta(minutes=15)
    at = timezone.localtime(locked_until).strftime("%H:%M")
    assert message == (
        f"Runner's signing PIN is locked after 5 wrong tries; try again at {at}, or sign from their own session "
        "(signing PINs)"
    )
    # Locked: the right PIN is refused too, and further tries do not move the lock.
    assert "is locked after 5 wrong tries" in wrong(cast.runner, PIN)
    assert "is locked" in wrong(cast.runner)
    assert pin_of(cast.runner).locked_until == locked_until
    # Other people's PINs are not touched.
    services.pin_verify(person=cast.runner2, pin=PIN)

    # The lock time passes: the right PIN works again, and the count starts afresh.
    SigningPin.objects.filter(user=cast.runner.user).update(locked_until=timezone.now() - datetime.timedelta(seconds=1))
    assert "4 tries left" in wrong(cast.runner)
    services.pin_verify(person=cast.runner, pin=PIN)
    stored = pin_of(cast.runner)
    assert stored.failures == 0 and stored.locked_until is None


def test_the_limit_and_the_lock_time_come_from_the_settings(cast, settings):
    settings.SIGNING_PIN_MAX_FAILURES = 2
    settings.SIGNING_PIN_LOCK_MINUTES = 60
    assert "1 try left" in wrong(cast.runner)
    assert "locked after 2 wrong tries" in wrong(cast.runner)
    assert pin_of(cast.runner).locked_until > timezone.now() + datetime.timedelta(minutes=59)


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
    assert pin_of(cast.runner).failures == 1  # the wrong try is not
    assert "3 tries left" in wrong(cast.runner)


def test_inside_a_transaction_the_count_is_kept_only_if_it_commits(cast):
    with pytest.raises(RuleViolation), transaction.atomic():
        services.pin_verify(person=cast.runner, pin="1357")
    assert pin_of(cast.runner).failures == 0
    with transaction.atomic():
        wrong(cast.runner)
    assert pin_of(cast.runner).failures == 1


def test_a_person_without_a_login_cannot_sign_with_a_pin(cast):
    person = add_person(cast.event, "walkin", Role.RUNNER, login=False)
    assert wrong(person, PIN) == "Walkin has no login and cannot sign (signing PINs)"


def test_a_person_who_never_set_a_pin_is_told_where_to_set_it(cast):
    SigningPin.objects.filter(user=cast.runner.user).delete()
    assert wrong(cast.runner, PIN) == (
        "Runner has not set a signing PIN; they set it on their own page, or sign from their own session (signing PINs)"
    )


def test_a_suspended_person_or_an_inactive_login_is_refused_even_with_the_right_pin(cast):
    services.registration_change(person=cast.runner, registration=Person.Registration.SUSPENDED)
    assert wrong(cast.runner, PIN) == "Runner's registration is suspended; they may not take part (T&C 2.3)"
    cast.runner2.user.is_active = False
    cast.runner2.user.save()
    assert "Runner2's login is inactive" in wrong(cast.runner2, PIN)
    assert pin_of(cast.runner).failures == 0 and pin_of(cast.runner2).failures == 0


# The page


def log_in(client, person):
    assert client.login(username=person.user.username, password=PASSWORD)


def test_an_anonymous_visitor_is_sent_to_log_in(client, cast):
    url = reverse("events:my_pin")
    for response in (client.get(url), client.post(url, {"password": PASSWORD, "pin": "9173", "pin_again": "9173"})):
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    services.pin_verify(person=cast.runner, pin=PIN)


def test_the_page_shows_the_form_and_writes_nothing(client, cast):
    log_in(client, cast.runner)
    before = list(SigningPin.objects.values())
    response = client.get(reverse("events:my_pin"))
    page = response.content.decode()
    assert response.status_code == 200
    assert "You set your signing PIN on" in page
    assert page.count('autocomplete="off"') >= 4  # the form and its three fields
    assert page.count('inputmode="numeric"') == 2
    assert 'type="password" name="pin"' in page and "value=" not in page.split('name="pin"')[1].split(">")[0]
    assert PIN not in page
    assert list(SigningPin.objects.values()) == before
    # The header links to it from every page.
    home = client.get(reverse("events:home")).content.decode()
    assert f'href="{reverse("events:my_pin")}"' in home and "Signing PIN" in home


def test_posting_sets_the_users_own_pin(client, cast):
    log_in(client, cast.runner)
    response = client.post(reverse("events:my_pin"), {"password": PASSWORD, "pin": "9173", "pin_again": "9173"})
    assert response.status_code == 302 and response.url == reverse("events:my_pin")
    page = client.get(response.url).content.decode()
    assert "Your signing PIN is changed." in page and "9173" not in page
    services.pin_verify(person=cast.runner, pin="9173")
    services.pin_verify(person=cast.runner2, pin=PIN)  # nobody else's


def test_a_first_pin_is_set_from_the_page(client, cast):
    SigningPin.objects.filter(user=cast.runner.user).delete()
    log_in(client, cast.runner)
    assert "You have not set a signing PIN yet" in client.get(reverse("events:my_pin")).content.decode()
    response = client.post(
        reverse("events:my_pin"), {"password": PASSWORD, "pin": "9173", "pin_again": "9173"}, follow=True
    )
    assert "Your signing PIN is set." in response.content.decode()
    services.pin_verify(person=cast.runner, pin="9173")


@pytest.mark.parametrize(
    "data, shown",
    [
        ({"password": "wrong-password", "pin": "9173", "pin_again": "9173"}, "your current password is wrong"),
        ({"password": PASSWORD, "pin": "1234", "pin_again": "1234"}, "digits in a row"),
        ({"password": PASSWORD, "pin": "9173", "pin_again": "9174"}, "The two PINs differ"),
        ({"password": "", "pin": "9173", "pin_again": "9173"}, "This field is required"),
    ],
)
def test_refusals_are_shown_on_the_page_and_change_nothing(client, cast, data, shown):
    log_in(client, cast.runner)
    before = list(SigningPin.objects.values())
    response = client.post(reverse("events:my_pin"), data)
    page = response.content.decode()
    assert response.status_code == 200 and shown in page
    assert "9173" not in page and PASSWORD not in page  # nothing typed is shown back
    assert list(SigningPin.objects.values()) == before


# The demo


def test_the_demo_gives_each_person_the_demo_pin_and_a_second_load_keeps_a_changed_one():
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "password for all: demo-pass-2026; signing PIN for each person: 2468" in out.getvalue()
    event = Event.objects.get(slug="lakeside-fair-2026")
    people = list(event.people.exclude(user=None))
    assert len(people) == 9
    for person in people:
        services.pin_verify(person=person, pin="2468")
    ann = event.people.get(code="ann")
    services.pin_set(user=ann.user, password="demo-pass-2026", pin="5091")
    before = list(SigningPin.objects.order_by("pk").values())
    call_command("load_demo", stdout=io.StringIO())
    assert list(SigningPin.objects.order_by("pk").values()) == before
    services.pin_verify(person=ann, pin="5091")
