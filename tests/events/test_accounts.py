"""Accounts: logins made by someone else start with a one-time setup code and no password; each
person sets and changes their own password and PIN; argon2; one lockout for every secret typed;
no silent reuse of an existing login; designations mid-event by the licensee's administrator only."""

import datetime
import re
import uuid

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from cage import services as cage_services
from cage.models import Slip
from cage.services import sale
from config import settings as project_settings
from events import services
from events.models import Assignment, LoginSetup, Person, Role, SigningPin
from tests.cage.helpers import SALE_SIGNED, stock
from tests.conftest import PASSWORD, PIN, add_person, give_login, make_cast
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

User = get_user_model()
NEW_PASSWORD = "a-brand-new-secret-77"
SETUP_PAGE = "/setup/"
CODE = re.compile(r"^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$")


@pytest.fixture
def cast(db):
    return make_cast()


def from_address(address="10.0.0.7"):
    return RequestFactory().post(SETUP_PAGE, REMOTE_ADDR=address)


def newcomer(cast, code="nia", role=None):
    return add_person(cast.event, code, role, login=False)


def complete(username, code, *, request=None, password=PASSWORD, pin="60917"):
    return services.login_setup_complete(request=request, username=username, code=code, password=password, pin=pin)


def log_in_as(client, user, password=PASSWORD):
    assert client.login(username=user.username, password=password)


# --- argon2 -----------------------------------------------------------------------------------


def test_passwords_pins_and_setup_codes_are_hashed_with_argon2(cast, settings, admin_user):
    # The suite hashes with MD5 for speed; here the project's own hashers are used.
    settings.PASSWORD_HASHERS = project_settings.PASSWORD_HASHERS
    assert settings.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"
    person = newcomer(cast)
    setup = services.login_create(person=person, username="nia", by=admin_user)
    assert LoginSetup.objects.get(user=setup.user).code_hash.startswith("argon2$")
    complete("nia", setup.code)
    user = User.objects.get(username="nia")
    assert user.password.startswith("argon2$") and user.check_password(PASSWORD)
    # A PIN has argon2 of its own, cheap enough for the window; the lockout guards it (events/hashers.py).
    stored = SigningPin.objects.get(user=user).pin_hash
    assert stored.startswith("argon2pin$") and "m=8192,t=1,p=1" in stored
    assert "60917" not in stored and check_password("60917", stored)
    services.pin_set(request=from_address(), user=user, password=PASSWORD, pin="80514")
    assert SigningPin.objects.get(user=user).pin_hash.startswith("argon2pin$")


@pytest.mark.parametrize("old_pin_hasher", ["pbkdf2_sha256", "argon2"])
def test_a_pbkdf2_password_and_an_older_pin_still_verify_and_are_rehashed(cast, settings, client, old_pin_hasher):
    settings.PASSWORD_HASHERS = project_settings.PASSWORD_HASHERS
    user = cast.runner.user
    User.objects.filter(pk=user.pk).update(password=make_password(PASSWORD, hasher="pbkdf2_sha256"))
    SigningPin.objects.filter(user=user).update(pin_hash=make_password(PIN, hasher=old_pin_hasher))
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    assert User.objects.get(pk=user.pk).password.startswith("argon2$")
    services.pin_verify(request=from_address(), person=cast.runner, pin=PIN)
    assert SigningPin.objects.get(user=user).pin_hash.startswith("argon2pin$")


# --- a login made by someone else -------------------------------------------------------------


def test_a_new_login_has_no_usable_password_and_a_one_time_code_kept_only_hashed(cast, admin_user):
    person = newcomer(cast)
    setup = services.login_create(person=person, username="nia", by=admin_user)
    person.refresh_from_db()
    assert person.user == setup.user and setup.user.username == "nia"
    assert not person.user.has_usable_password()
    assert CODE.match(setup.code), setup.code
    stored = LoginSetup.objects.get(user=setup.user)
    assert setup.code not in stored.code_hash and setup.code.replace("-", "") not in stored.code_hash
    assert stored.made_by == admin_user and stored.used_at is None
    hours = (stored.expires_at - stored.made_at).total_seconds() / 3600
    assert hours == 72 and setup.expires_at == stored.expires_at
    # Nothing the maker could have typed opens it: not a password, not the code itself.
    for guess in ("", PASSWORD, setup.code):
        assert authenticate(from_address(), username="nia", password=guess) is None
    assert not SigningPin.objects.filter(user=setup.user).exists()


def test_each_code_is_new(cast):
    codes = {services.login_create(person=newcomer(cast, f"p{i}"), username=f"p{i}", by=None).code for i in range(5)}
    assert len(codes) == 5


def test_the_owner_sets_their_password_and_pin_with_the_code_and_it_works_once(cast, client, admin_user):
    setup = services.login_create(person=newcomer(cast), username="nia", by=admin_user)
    complete("nia", setup.code.lower().replace("-", " "), request=from_address())  # as typed off paper
    user = User.objects.get(username="nia")
    assert user.check_password(PASSWORD) and check_password("60917", SigningPin.objects.get(user=user).pin_hash)
    assert LoginSetup.objects.get(user=user).used_at is not None
    log_in_as(client, user)
    with refuses("setup_code.used"):
        complete("nia", setup.code, password="another-password-99", pin="80514")
    assert User.objects.get(username="nia").check_password(PASSWORD)


def test_an_expired_code_is_refused_and_changes_nothing(cast, settings):
    settings.LOGIN_SETUP_HOURS = 1
    setup = services.login_create(person=newcomer(cast), username="nia", by=None)
    assert setup.expires_at - timezone.now() <= datetime.timedelta(hours=1)
    LoginSetup.objects.filter(user=setup.user).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    with refuses("setup_code.expired"):
        complete("nia", setup.code)
    user = User.objects.get(username="nia")
    assert not user.has_usable_password() and not SigningPin.objects.filter(user=user).exists()


def test_a_weak_password_or_pin_is_refused_and_the_code_still_works(cast):
    setup = services.login_create(person=newcomer(cast), username="nia", by=None)
    with refuses("password.too_weak") as refused:
        complete("nia", setup.code, password="short")
    assert refused.value.field == "password"
    with refuses("password.too_weak"):
        complete("nia", setup.code, password="password123")
    with refuses("pin.digits_in_a_row") as refused:
        complete("nia", setup.code, pin="1234")
    assert refused.value.field == "pin"
    assert not User.objects.get(username="nia").has_usable_password()
    complete("nia", setup.code)


def test_wrong_codes_count_as_failed_logins_and_lock_even_the_right_code(cast):
    setup = services.login_create(person=newcomer(cast), username="nia", by=None)
    for _ in range(4):
        with refuses("setup_code.wrong") as refused:
            complete("nia", "AAAA-BBBB-CCCC", request=from_address())
        same = str(refused.value)
    # An unknown username gets the same refusal, in the same words: the page tells nobody which
    # usernames exist.
    with refuses("setup_code.wrong") as refused:
        complete("nobody-here", setup.code, request=from_address())
    assert str(refused.value) == same and refused.value.arguments == {}
    with refuses("login.locked", username="nia", n=5):
        complete("nia", "AAAA-BBBB-CCCC", request=from_address())
    assert AccessAttempt.objects.get(username="nia", ip_address="10.0.0.7").failures_since_start == 5
    with refuses("login.locked"):
        complete("nia", setup.code, request=from_address())
    assert not User.objects.get(username="nia").has_usable_password()
    # From the new person's own phone (another address) the right code works.
    complete("nia", setup.code, request=from_address("10.0.0.8"))


def test_a_new_code_replaces_a_lost_one_while_the_login_waits(cast, admin_user):
    person = newcomer(cast)
    first = services.login_create(person=person, username="nia", by=admin_user)
    second = services.login_setup_reissue(person=person, by=admin_user)
    assert second.code != first.code and second.user == first.user
    with refuses("setup_code.wrong"):
        complete("nia", first.code)
    complete("nia", second.code)


def test_the_administrator_gives_a_set_up_login_a_new_code_and_it_clears_password_and_pin(cast, admin_user):
    setup = services.login_setup_reissue(person=cast.runner, by=admin_user)
    user = User.objects.get(pk=cast.runner.user.pk)
    assert not user.has_usable_password() and not SigningPin.objects.filter(user=user).exists()
    complete(user.username, setup.code, password=NEW_PASSWORD)
    assert User.objects.get(pk=user.pk).check_password(NEW_PASSWORD)


def test_a_person_without_a_login_gets_no_code(cast, admin_user):
    with refuses("login.no_login"):
        services.login_setup_reissue(person=newcomer(cast), by=admin_user)


# --- only the administrator gives logins and setup codes ---------------------------------------


def test_the_dric_is_never_handed_a_setup_code(cast):
    """Whoever holds a setup code could set the login up and sign as its owner: the DRIC makes no
    login and no code, for a new person or an existing one, waiting or set up."""
    person = newcomer(cast)
    with refuses("login.administrator_only") as refused:
        services.login_create(person=person, username="nia", by=cast.dric.user)
    assert refused.value.rule == services.LOGIN_RULE and refused.value.field == "username"
    person.refresh_from_db()
    assert person.user is None and not User.objects.filter(username="nia").exists()
    services.login_create(person=person, username="nia", by=None)  # the command line stands for the administrator
    for who in (person, cast.runner):
        before = LoginSetup.objects.filter(user=who.user).values_list("code_hash", flat=True).first()
        with refuses("login.reissue_administrator_only"):
            services.login_setup_reissue(person=who, by=cast.dric.user)
        assert LoginSetup.objects.filter(user=who.user).values_list("code_hash", flat=True).first() == before
    assert User.objects.get(pk=cast.runner.user.pk).check_password(PASSWORD)
    assert SigningPin.objects.filter(user=cast.runner.user).exists()


# --- an existing username is never reused silently --------------------------------------------


@pytest.mark.parametrize(
    "username, refusal",
    [
        ("admin", "role.administrator_login"),
        ("ADMIN", "role.administrator_login"),
        ("other-fair-dric", "login.username_taken"),
        ("lakeside-runner", "login.username_taken"),
    ],
)
def test_an_existing_username_is_refused_and_nothing_is_linked(cast, admin_user, username, refusal):
    make_cast("other-fair")
    person = newcomer(cast)
    before = User.objects.count()
    with refuses(refusal) as refused:
        services.login_create(person=person, username=username, by=admin_user)
    assert refused.value.field == "username"
    person.refresh_from_db()
    assert person.user is None and User.objects.count() == before


def test_only_the_administrator_links_an_existing_login(cast, admin_user):
    other = make_cast("other-fair")
    person = newcomer(cast)
    with refuses("login.link_administrator_only"):
        services.login_link(person=person, username=other.dric.user.username, by=cast.dric.user)
    services.login_link(person=person, username=other.dric.user.username, by=admin_user)
    person.refresh_from_db()
    assert person.user == other.dric.user
    with refuses("login.link_one_login_one_person"):
        services.login_link(person=newcomer(cast, "ida"), username=cast.dric.user.username, by=admin_user)
    with refuses("login.link_no_such_login"):
        services.login_link(person=newcomer(cast, "gil"), username="ghost", by=admin_user)


def person_form(**extra):
    return {"code": "nia", "name": "Nia Brown", "born_on": "1990-05-05", "registration": "good", **extra}


def code_on(response) -> str | None:
    found = re.search(r'id="setup-code-value">([^<]+)<', response.content.decode())
    return found.group(1) if found else None


def test_the_code_is_shown_once_after_a_redirect_and_a_reload_makes_no_new_one(client, cast, admin_user):
    client.force_login(admin_user)
    people = reverse("events:people", args=[cast.event.slug])
    response = client.post(people, person_form(username="nia"))
    # POST, redirect, GET: the answer to the POST holds no code, and reloading cannot send it again.
    shown_at = reverse("events:setup_code_new", args=[cast.event.slug, "nia"])
    assert response.status_code == 302 and response.url == shown_at
    assert code_on(response) is None
    stored = LoginSetup.objects.get(user__username="nia")
    page = client.get(shown_at)
    code = code_on(page)
    assert CODE.match(code) and "This code is shown only this once" in page.content.decode()
    assert "no-store" in page["Cache-Control"] and "private" in page["Cache-Control"]
    assert re.search(r"Valid once, until \d{4}-\d\d-\d\d \d\d:\d\d \(E[SD]T\)\.", page.content.decode())
    # The reload: the code is not shown again, and no other code was made.
    again = client.get(shown_at)
    assert again.status_code == 200 and code_on(again) is None
    assert "has been shown already" in again.content.decode()
    assert 'id="setup-code-make"' in again.content.decode()  # how to make a new one
    assert LoginSetup.objects.get(user__username="nia").code_hash == stored.code_hash
    assert code not in client.get(people).content.decode()
    complete("nia", code)
    assert "waiting for setup" not in client.get(people).content.decode()


def test_a_direct_get_without_a_code_waiting_explains_instead_of_an_empty_405(client, cast, admin_user):
    client.force_login(admin_user)
    url = reverse("events:setup_code_new", args=[cast.event.slug, cast.runner.code])
    before = list(LoginSetup.objects.values())
    for response in (client.get(url), client.head(url)):
        assert response.status_code == 200
    page = client.get(url).content.decode()
    assert "There is no setup code to show here" in page and "has set up their login" in page
    assert "New setup code (clears password and PIN)" in page
    assert list(LoginSetup.objects.values()) == before
    assert User.objects.get(pk=cast.runner.user.pk).check_password(PASSWORD)


def test_a_head_request_does_not_use_up_the_code(client, cast, admin_user):
    client.force_login(admin_user)
    response = client.post(reverse("events:setup_code_new", args=[cast.event.slug, cast.runner.code]))
    assert client.head(response.url).status_code == 200
    assert CODE.match(code_on(client.get(response.url)))


def test_a_username_already_on_the_event_is_refused_on_the_page_without_a_500(client, cast, admin_user):
    client.force_login(admin_user)
    response = client.post(
        reverse("events:people", args=[cast.event.slug]), person_form(username=cast.runner.user.username)
    )
    assert response.status_code == 200
    assert "is taken; choose another, or, if it is this person&#x27;s own login from an earlier event, tick" in (
        response.content.decode()
    )
    assert not Person.objects.filter(event=cast.event, code="nia").exists()  # all or nothing
    # The administrator's own login is never a person's, linked or not.
    response = client.post(reverse("events:people", args=[cast.event.slug]), person_form(username="ADMIN"))
    assert "the login admin is the licensee&#x27;s administrator&#x27;s" in response.content.decode()
    assert not Person.objects.filter(event=cast.event, code="nia").exists()


def test_the_dric_is_offered_no_login_and_a_forged_one_makes_none(client, cast):
    other = make_cast("other-fair")
    log_in_as(client, cast.dric.user)
    url = reverse("events:people", args=[cast.event.slug])
    page = client.get(url).content.decode()
    assert 'name="username"' not in page and 'name="link_existing"' not in page
    assert "setup codes are given by the licensee" in page
    for code, forged in (
        ("nia", {"username": "nia"}),
        ("ida", {"username": other.dric.user.username, "link_existing": "on"}),
    ):
        client.post(url, person_form(code=code, **forged))
        assert Person.objects.get(event=cast.event, code=code).user is None
    assert not User.objects.filter(username="nia").exists()
    assert code_on(client.get(reverse("events:setup_code_new", args=[cast.event.slug, "runner"]))) is None


def test_the_administrator_links_an_existing_login_by_ticking_the_choice(client, cast, admin_user):
    other = make_cast("other-fair")
    client.force_login(admin_user)
    url = reverse("events:people", args=[cast.event.slug])
    assert 'name="link_existing"' in client.get(url).content.decode()
    response = client.post(url, person_form(username=other.dric.user.username, link_existing="on"))
    assert response.status_code == 302 and response.url == url
    assert Person.objects.get(event=cast.event, code="nia").user == other.dric.user
    # Without the tick, the same username is refused for the administrator too.
    client.post(url, person_form(code="ida", username=other.dric.user.username))
    assert not Person.objects.filter(event=cast.event, code="ida").exists()


def test_the_administrator_gives_a_login_to_a_person_the_dric_added(client, cast, admin_user):
    person = newcomer(cast)
    client.force_login(admin_user)
    people = reverse("events:people", args=[cast.event.slug])
    assert 'id="login-form"' in client.get(people).content.decode()
    url = reverse("events:login_give", args=[cast.event.slug])
    response = client.post(url, {"person": person.pk, "username": "nia"})
    assert response.url == reverse("events:setup_code_new", args=[cast.event.slug, "nia"])
    code = code_on(client.get(response.url))
    complete("nia", code)
    person.refresh_from_db()
    assert person.user.username == "nia" and person.user.check_password(PASSWORD)
    # A taken username is refused with the rule's words, and nothing is given.
    other = newcomer(cast, "ida")
    response = client.post(url, {"person": other.pk, "username": "NIA"}, follow=True)
    assert "the username NIA is taken; choose another" in response.content.decode()
    other.refresh_from_db()
    assert other.user is None
    # The page again (not a redirect to an empty form): the form as typed, the refusal under the
    # username it is about, and said at the top of the long page.
    assert response.status_code == 400 and not response.redirect_chain
    form = re.search(r'<form[^>]*id="login-form".*?</form>', response.content.decode(), re.S).group(0)
    assert 'value="NIA"' in form and f'<option value="{other.pk}" selected>' in form
    username_line = form.index('id="id_username"')
    refusal = form.index('<ul class="errorlist" id="id_username_error">')
    assert username_line < refusal and "the username NIA is taken" in form[refusal:]
    assert "The login was not given: see “Give a login” below." in response.content.decode()
    # The DRIC may not use it.
    log_in_as(client, cast.dric.user)
    assert client.post(url, {"person": other.pk, "username": "ida"}).status_code == 403
    assert 'id="login-form"' not in client.get(people).content.decode()


def test_the_administrator_makes_new_codes_from_the_people_page_and_the_dric_may_not(client, cast, admin_user):
    person = newcomer(cast)
    first = services.login_create(person=person, username="nia", by=admin_user)
    client.force_login(admin_user)
    page = client.get(reverse("events:people", args=[cast.event.slug])).content.decode()
    waiting_button = reverse("events:setup_code_new", args=[cast.event.slug, "nia"])
    in_use_button = reverse("events:setup_code_new", args=[cast.event.slug, "runner"])
    assert f'action="{waiting_button}"' in page and f'action="{in_use_button}"' in page
    # When the waiting code expires, in local time with its zone.
    assert re.search(r"code valid until \d{4}-\d\d-\d\d \d\d:\d\d \(E[SD]T\)", page)
    assert "New setup code (clears password and PIN)" in page
    response = client.post(waiting_button, follow=True)
    assert code_on(response) != first.code and "A new setup code for Nia" in response.content.decode()
    # A login in use: the new code clears its password and PIN.
    response = client.post(in_use_button, follow=True)
    assert CODE.match(code_on(response)) and "A new setup code for Runner" in response.content.decode()
    assert not User.objects.get(pk=cast.runner.user.pk).has_usable_password()
    # The DRIC sees who waits, but gets no button and may not make a code.
    log_in_as(client, cast.dric.user)
    page = client.get(reverse("events:people", args=[cast.event.slug])).content.decode()
    assert 'id="waiting-logins"' in page and waiting_button not in page
    assert client.post(waiting_button).status_code == 403
    assert client.get(waiting_button).status_code == 403
    # In French, the colon after who waits is the translation's, with its no-break space.
    french = Client(HTTP_ACCEPT_LANGUAGE="fr-CA")
    french.force_login(cast.dric.user)
    page = french.get(reverse("events:people", args=[cast.event.slug])).content.decode()
    assert "(nia)\u00a0:" in page.replace("&nbsp;", "\u00a0") and "(nia):" not in page


# --- the setup page ---------------------------------------------------------------------------


def setup_form(given_code, **extra):
    return {
        "username": "nia",
        "code": given_code,
        "password": NEW_PASSWORD,
        "password_again": NEW_PASSWORD,
        "pin": "60917",
        "pin_again": "60917",
        **extra,
    }


def test_the_setup_page_is_open_without_logging_in_and_sets_up_the_login(client, cast, admin_user):
    setup = services.login_create(person=newcomer(cast), username="nia", by=admin_user)
    page = client.get(SETUP_PAGE)
    assert page.status_code == 200 and "Set up your login" in page.content.decode()
    response = client.post(SETUP_PAGE, setup_form(setup.code), follow=True)
    assert response.redirect_chain[-1][0] == reverse("login")
    assert "Your password and signing PIN are set" in response.content.decode()
    assert client.login(username="nia", password=NEW_PASSWORD)


@pytest.mark.parametrize(
    "extra, shown",
    [
        ({"code": "AAAA-BBBB-CCCC"}, "this username and setup code do not go together"),
        ({"password_again": "something-else-1"}, "The two passwords differ"),
        ({"pin_again": "60918"}, "The two PINs differ"),
        ({"pin": "1111", "pin_again": "1111"}, "one digit repeated"),
        ({"password": "nia", "password_again": "nia"}, "too short"),
    ],
)
def test_refusals_on_the_setup_page_show_nothing_typed_and_change_nothing(client, cast, extra, shown):
    setup = services.login_create(person=newcomer(cast), username="nia", by=None)
    response = client.post(SETUP_PAGE, setup_form(setup.code, **extra))
    page = response.content.decode()
    assert response.status_code == 200 and shown in page
    assert NEW_PASSWORD not in page and "60917" not in page
    assert not User.objects.get(username="nia").has_usable_password()


def test_the_setup_page_s_example_code_stays_on_one_line_in_both_languages(client):
    for language, words in (("en-CA", "such as "), ("fr-CA", "par exemple ")):
        page = Client(HTTP_ACCEPT_LANGUAGE=language).get(SETUP_PAGE).content.decode()
        assert f'{words}<span class="unbroken">K7QM-2XPD-9RTF</span>.' in page.replace("&#x27;", "’")


@pytest.mark.parametrize(
    "extra, field",
    [
        ({"code": "AAAA-BBBB-CCCC"}, "code"),
        ({"pin_again": "60918"}, "pin_again"),
        ({"password": "nia", "password_again": "nia"}, "password"),
    ],
)
def test_a_refusal_on_the_setup_page_sits_under_its_own_field(client, cast, extra, field):
    # Under the field it is about, not above it: above, a wrong code's refusal sat under the
    # username's line and read as the username's (the new-user walk).
    setup = services.login_create(person=newcomer(cast), username="nia", by=None)
    page = client.post(SETUP_PAGE, setup_form(setup.code, **extra)).content.decode()
    errors = re.findall(r'<ul class="errorlist" id="id_(\w+)_error">', page)
    assert errors == [field]
    lines = re.findall(r'<p>\s*<label for="id_(\w+)"|<ul class="errorlist" id="id_(\w+)_error"', page)
    order = [label or f"{error} refused" for label, error in lines]
    assert order[order.index(field) + 1] == f"{field} refused", order
    assert f'aria-describedby="id_{field}_error"' in page or f"id_{field}_error" in re.search(
        rf'<input[^>]*id="id_{field}"[^>]*>', page
    ).group(0)


# --- changing one's own password --------------------------------------------------------------


def test_everyone_changes_their_own_password_and_stays_logged_in(client, cast):
    log_in_as(client, cast.dealer.user)
    url = reverse("events:password_change")
    assert f'href="{url}"' in client.get(reverse("events:home")).content.decode()  # in the header
    data = {"old_password": PASSWORD, "new_password": NEW_PASSWORD, "new_password_again": NEW_PASSWORD}
    response = client.post(url, data, follow=True)
    assert "Your password is changed." in response.content.decode()
    assert client.get(reverse("events:home")).status_code == 200  # the session goes on
    assert User.objects.get(pk=cast.dealer.user.pk).check_password(NEW_PASSWORD)


@pytest.mark.parametrize(
    "data, shown",
    [
        ({"old_password": "guess", "new_password": NEW_PASSWORD}, "your current password is wrong"),
        ({"old_password": PASSWORD, "new_password": "short"}, "too short"),
        (
            {"old_password": PASSWORD, "new_password": NEW_PASSWORD, "new_password_again": "x"},
            "The two passwords differ",
        ),
    ],
)
def test_password_change_refusals_change_nothing(client, cast, data, shown):
    log_in_as(client, cast.dealer.user)
    data = {"new_password_again": data["new_password"], **data}
    page = client.post(reverse("events:password_change"), data).content.decode()
    assert shown in page and NEW_PASSWORD not in page
    assert User.objects.get(pk=cast.dealer.user.pk).check_password(PASSWORD)


def test_wrong_current_passwords_count_towards_the_lockout(client, cast):
    log_in_as(client, cast.dealer.user)
    data = {"old_password": "guess", "new_password": NEW_PASSWORD, "new_password_again": NEW_PASSWORD}
    for _ in range(4):
        client.post(reverse("events:password_change"), data)
    page = client.post(reverse("events:password_change"), data).content.decode()
    assert "is locked after 5 wrong tries" in page
    data["old_password"] = PASSWORD
    assert "is locked" in client.post(reverse("events:password_change"), data).content.decode()
    assert User.objects.get(pk=cast.dealer.user.pk).check_password(PASSWORD)


# --- the login page's lockout -----------------------------------------------------------------


def test_five_wrong_passwords_lock_the_login_with_a_lockout_page(client, cast):
    username = cast.general_cashier.user.username
    for left in (4, 3, 2, 1):
        response = client.post(reverse("login"), {"username": username, "password": "guess"})
        tries = "1 more wrong try locks" if left == 1 else f"{left} more wrong tries lock"
        assert response.status_code == 200 and (
            f"The username or the password is wrong; both are case-sensitive. {tries} this username at this "
            "terminal for 15 minutes." in response.content.decode()
        )
        # The username comes back as typed and the keyboard starts at the emptied password.
        page = response.content.decode()
        assert re.search(r'<input type="password" name="password"[^>]*autofocus', page)
        assert not re.search(r'<input type="text" name="username"[^>]*autofocus', page)
    response = client.post(reverse("login"), {"username": username, "password": "guess"})
    page = response.content.decode()
    assert response.status_code == 429 and "This login is locked for now" in page
    assert "After 5 wrong tries in a row" in page and f"{username} can try again at" in page
    # The right password is refused while locked; nothing is logged in.
    response = client.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 429 and "_auth_user_id" not in client.session
    # Another person at the same terminal is not locked out.
    assert client.post(reverse("login"), {"username": cast.dric.user.username, "password": PASSWORD}).status_code == 302
    # The lock time passes.
    AccessAttempt.objects.update(attempt_time=timezone.now() - datetime.timedelta(minutes=16))
    client.logout()
    assert client.post(reverse("login"), {"username": username, "password": PASSWORD}).status_code == 302


def test_a_wrong_password_says_how_many_tries_are_left_in_french(cast):
    french = Client(HTTP_ACCEPT_LANGUAGE="fr-CA")
    username = cast.general_cashier.user.username
    page = french.post(reverse("login"), {"username": username, "password": "guess"}).content.decode()
    assert "Encore 4 essais erronés bloquent ce nom d’utilisateur sur ce terminal pendant 15 minutes." in page.replace(
        "&#x27;", "’"
    )
    assert 'value="' + username + '"' in page  # the username is kept; the password is not


def test_a_right_password_sets_the_count_back_to_zero(client, cast):
    username = cast.general_cashier.user.username
    for _ in range(3):
        client.post(reverse("login"), {"username": username, "password": "guess"})
    assert client.post(reverse("login"), {"username": username, "password": PASSWORD}).status_code == 302
    assert not AccessAttempt.objects.filter(username=username).exists()


# --- designated positions mid-event -----------------------------------------------------------


def test_before_the_first_day_opens_the_dric_designates(db):
    cast = make_cast(open_day=False)
    person = newcomer(cast, "gia")
    services.role_assign(person=person, role=Role.GENERAL_CASHIER, by=cast.dric.user)
    assert person.role_codes() == {Role.GENERAL_CASHIER}


@pytest.mark.parametrize("role", [Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER])
def test_once_a_day_has_opened_only_the_administrator_designates(cast, admin_user, role):
    person = newcomer(cast, "gia")
    with refuses("role.designation_after_opening", name="Gia") as refused:
        services.role_assign(person=person, role=role, by=cast.dric.user)
    assert refused.value.rule == "T&C 2, 2.1" and refused.value.field == "role"
    assert not Assignment.objects.filter(person=person).exists()
    services.role_assign(person=person, role=role, by=admin_user)
    assert person.role_codes() == {role}


def test_other_roles_are_still_the_drics_to_give_mid_event(cast):
    person = newcomer(cast, "gia")
    services.role_assign(person=person, role=Role.RUNNER, by=cast.dric.user)
    assert person.role_codes() == {Role.RUNNER}


def test_a_closed_first_day_still_counts_as_opened(cast):
    cast.day.status = "closed"
    cast.day.save()
    with refuses("role.designation_after_opening"):
        services.role_assign(person=newcomer(cast, "gia"), role=Role.CHIP_CASHIER, by=cast.dric.user)


def redemption_by(cast, paid_by: Person):
    """The $180 redemption of the issue: paid by `paid_by` (PIN typed on the DRIC's screen),
    authorized by the DRIC herself."""
    return {
        "request_key": uuid.uuid4().hex,
        "chips_5": "36",
        "cash": "180",
        "tender": "cad_cash",
        "sign_paid_by": paid_by.pk,
        "pin_paid_by": "60917",
        "sign_authorized_by": cast.dric.pk,
    }


def test_the_issues_attack_a_dric_cannot_make_her_own_cashier_mid_day_and_sign_with_them(client, cast):
    stock(cast)
    sale(day=cast.day, chips={"5": 40}, cash=20000, signed=cast.signed(**SALE_SIGNED))
    slug = cast.event.slug
    log_in_as(client, cast.dric.user)
    # She adds a person, asking for a login: the person is added, but she is handed no code ...
    response = client.post(reverse("events:people", args=[slug]), person_form(code="mal", username="mal"))
    assert response.status_code == 302 and response.url == reverse("events:people", args=[slug])
    mal = Person.objects.get(event=cast.event, code="mal")
    assert mal.user is None and not User.objects.filter(username="mal").exists()
    # ... nor can she get one by asking for a new code, or have the login page let her in,
    assert client.post(reverse("events:setup_code_new", args=[slug, "mal"])).status_code == 403
    assert (
        client.post(reverse("events:login_give", args=[slug]), {"person": mal.pk, "username": "mal"}).status_code == 403
    )
    # she cannot make them General Cashier in the middle of the day,
    response = client.post(
        reverse("events:role_add", args=[slug]), {"person": mal.pk, "role": Role.GENERAL_CASHIER}, follow=True
    )
    assert "only the licensee&#x27;s administrator may make Nia Brown General Cashier" in response.content.decode()
    assert "(T&amp;C 2, 2.1)" in response.content.decode()
    # nor add them as one straight away (nothing of the new person is kept),
    client.post(reverse("events:people", args=[slug]), person_form(code="max", role="general_cashier"))
    assert not Person.objects.filter(event=cast.event, code="max").exists()
    # so a redemption paid by that person and authorized by herself is not recorded.
    before = Slip.objects.count()
    client.post(reverse("cage:slip_new", args=[slug, "redemption"]), redemption_by(cast, mal))
    assert Slip.objects.count() == before and mal.role_codes() == set()


def test_a_runner_the_dric_adds_cannot_sign_until_the_administrator_gives_the_login(client, cast, admin_user):
    """Even for a role she may give mid-day, the DRIC cannot sign as a person she added: the login
    and its code come from the administrator, and go to the person, never to her."""
    stock(cast)
    slug = cast.event.slug
    log_in_as(client, cast.dric.user)
    client.post(reverse("events:people", args=[slug]), person_form(code="mal", username="mal", role="runner"))
    mal = Person.objects.get(event=cast.event, code="mal")
    issue = {
        "request_key": uuid.uuid4().hex,
        "runner": mal.pk,
        "chips_5": "10",
        "sign_issued_by": cast.chip_cashier.pk,
        "sign_received_by": mal.pk,
        "pin_received_by": "60917",
    }
    log_in_as(client, cast.chip_cashier.user)
    page = client.post(reverse("cage:slip_new", args=[slug, "runner_issue"]), issue).content.decode()
    assert "Nia Brown has no login and cannot sign" in page
    assert not Slip.objects.filter(slip_type="runner_issue").exists()
    # The administrator gives the login; its code goes to the new runner, who sets their own PIN.
    client.force_login(admin_user)
    response = client.post(reverse("events:login_give", args=[slug]), {"person": mal.pk, "username": "mal"})
    complete("mal", code_on(client.get(response.url)), request=from_address())
    log_in_as(client, cast.chip_cashier.user)
    issue["request_key"] = uuid.uuid4().hex
    client.post(reverse("cage:slip_new", args=[slug, "runner_issue"]), issue)
    assert Slip.objects.filter(slip_type="runner_issue", runner=mal).exists()


def test_the_administrator_may_designate_a_cashier_mid_day_with_a_second_designated_person(client, cast, admin_user):
    stock(cast)
    sale(day=cast.day, chips={"5": 40}, cash=20000, signed=cast.signed(**SALE_SIGNED))
    mal = newcomer(cast, "mal")
    give_login(mal, "mal", pin="60917")
    client.force_login(admin_user)
    response = client.post(
        reverse("events:role_add", args=[cast.event.slug]),
        {"person": mal.pk, "role": Role.GENERAL_CASHIER},
        follow=True,
    )
    assert "Role assigned." in response.content.decode()
    assert mal.role_codes() == {Role.GENERAL_CASHIER}
    # The login mal had is set up afresh: whoever held its code could have set it up.
    mal.user.refresh_from_db()
    assert not mal.user.has_usable_password() and not SigningPin.objects.filter(user=mal.user).exists()
    code = code_on(client.post(reverse("events:setup_code_new", args=[cast.event.slug, "mal"]), follow=True))
    # The code works only once a designated person other than mal confirms it, from her own session.
    with refuses("setup_code.unconfirmed"):
        complete("mal", code)
    log_in_as(client, cast.dric.user)
    queue = client.get(reverse("cage:queue", args=[cast.event.slug])).content.decode()
    assert 'id="logins-to-confirm"' in queue and "Mal" in queue
    client.post(reverse("cage:login_confirm", args=[cast.event.slug, mal.pk]))
    complete("mal", code)
    # The new cashier pays a redemption, with their own PIN, that the DRIC authorizes.
    client.post(reverse("cage:slip_new", args=[cast.event.slug, "redemption"]), redemption_by(cast, mal))
    slip = Slip.objects.get(slip_type="redemption")
    assert {s.person_id for s in slip.signatures.all()} == {mal.pk, cast.dric.pk}
    # The role given during the day, and the slip mal signed, stand out until acknowledged.
    queue = client.get(reverse("cage:queue", args=[cast.event.slug])).content.decode()
    row = queue[queue.index('id="given"') :].split("</table>")[0]
    assert "Mal" in row and "the role of General Cashier" in row and slip.number in row
    assert any("Mal was given the role of General Cashier" in p for p in cage_services.close_problems(cast.day))
