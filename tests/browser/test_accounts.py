"""A new person's login, in real browsers: the DRIC adds the person; the licensee's administrator
gives them a login and is shown the setup code once (a reload does not show it again, nor make
another); the person, in a browser of their own, sets their own password and PIN with it and logs
in. The administrator gives a login in use a new code from the People page. Then the lockout page
after repeated wrong passwords, and an idle cage screen locking itself."""

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore

from events.idle import LAST_ACTIVITY
from events.models import LoginSetup, Person, SigningPin
from tests.browser.conftest import at_both_widths, follow, log_in
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "my-own-secret-2026"
NEW_PIN = "60917"
CODE = r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}"


def own_browser(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def test_a_new_persons_login_is_set_up_by_the_person_with_the_code_they_were_handed(browser, live_server):
    cast = make_cast()
    slug = cast.event.slug
    get_user_model().objects.create_user("admin", password=PASSWORD, is_staff=True)

    dric_context, dric = own_browser(browser, live_server)
    admin_context, admin = own_browser(browser, live_server)
    nia_context, nia = own_browser(browser, live_server)
    try:
        # The DRIC adds Nia as a runner; she is offered no login for her, and says who gives it.
        log_in(dric, cast.dric.user.username, PASSWORD)
        dric.goto(f"/events/{slug}/people/")
        assert dric.locator("#person-form input[name=password]").count() == 0  # nobody types a password for another
        assert dric.locator("#person-form input[name=username]").count() == 0  # the administrator gives logins
        assert "given by the licensee's administrator only" in dric.inner_text("#logins-who")
        dric.fill("#person-form input[name=code]", "nia")
        dric.fill("#person-form input[name=name]", "Nia Brown")
        dric.fill("#person-form input[name=born_on]", "1990-05-05")
        dric.select_option("#person-form select[name=role]", "runner")
        dric.click("#person-form button[type=submit]")
        dric.wait_for_selector(".messages")
        assert "Nia Brown added." in dric.inner_text(".messages")
        at_both_widths(dric, "accounts-people-dric")

        # The administrator gives Nia a login, and is shown its code once.
        log_in(admin, "admin", PASSWORD)
        admin.goto(f"/events/{slug}/people/")
        admin.select_option("#login-form select[name=person]", label="Nia Brown")
        admin.fill("#login-form input[name=username]", "nia")
        admin.click("#login-form button[type=submit]")
        admin.wait_for_selector("#setup-code")
        assert admin.url.endswith(f"/events/{slug}/people/nia/setup-code/")  # a page of its own, by GET
        code = admin.inner_text("#setup-code-value").strip()
        assert re.fullmatch(CODE, code)
        assert admin.inner_text("#setup-username") == "nia"
        assert "shown only this once" in admin.inner_text("#setup-once")
        assert re.search(r"until \d{4}-\d\d-\d\d \d\d:\d\d \(E[SD]T\)\.", admin.inner_text("#setup-expires"))
        at_both_widths(admin, "accounts-setup-code")
        # Reloading shows no code and makes none: the page says why, and how to make a new one.
        stored = LoginSetup.objects.get(user__username="nia").code_hash
        admin.set_viewport_size({"width": 1366, "height": 900})
        admin.reload()
        admin.wait_for_selector("#setup-code-gone")
        assert code not in admin.content() and admin.locator("#setup-code-value").count() == 0
        assert "has been shown already" in admin.inner_text("#setup-code-gone")
        assert admin.locator("#setup-code-make").is_visible()
        assert LoginSetup.objects.get(user__username="nia").code_hash == stored
        at_both_widths(admin, "accounts-setup-code-reloaded")

        # Back on the people page the code is gone for good; the login waits for its owner, and
        # each login in use has its button for a new code.
        admin.set_viewport_size({"width": 1366, "height": 900})
        admin.click("text=Back to the people")
        admin.wait_for_selector("#waiting-logins")
        assert code not in admin.content()
        assert "Nia Brown (nia)" in admin.inner_text("#waiting-logins")
        assert "waiting for setup" in admin.inner_text("#people")
        runner = cast.runner.user.username
        assert f"Runner ({runner})" in admin.inner_text("#logins-in-use")
        at_both_widths(admin, "accounts-people-admin")

        # The runner has forgotten their PIN: the administrator gives them a new setup code.
        admin.set_viewport_size({"width": 1366, "height": 900})
        admin.click(f"#logins-in-use li:has-text('({runner})') button")
        admin.wait_for_selector("#setup-code")
        assert "A new setup code for Runner" in admin.inner_text("h1")
        assert re.fullmatch(CODE, admin.inner_text("#setup-code-value").strip())
        user = get_user_model().objects.get(username=runner)
        assert not user.has_usable_password() and not SigningPin.objects.filter(user=user).exists()
        assert Person.objects.get(pk=cast.runner.pk).user_id == user.pk

        # Nia, on her own screen: the login page leads to the setup page.
        nia.goto("/login/")
        nia.click("#setup-link a")
        nia.wait_for_url("**/setup/")
        at_both_widths(nia, "accounts-setup-page")
        nia.set_viewport_size({"width": 1366, "height": 900})
        # A weak PIN first: refused, nothing typed shown back.
        for name, value in (
            ("username", "nia"),
            ("code", code.lower()),
            ("password", NEW_PASSWORD),
            ("password_again", NEW_PASSWORD),
            ("pin", "1234"),
            ("pin_again", "1234"),
        ):
            nia.fill(f"#setup-form input[name={name}]", value)
        nia.click("#setup-form button[type=submit]")
        nia.wait_for_selector("#setup-form .errorlist")
        assert "digits in a row" in nia.inner_text("#setup-form")
        assert nia.locator("#setup-form input[name=password]").input_value() == ""
        at_both_widths(nia, "accounts-setup-refused")
        nia.set_viewport_size({"width": 1366, "height": 900})
        for name, value in (
            ("code", code),
            ("password", NEW_PASSWORD),
            ("password_again", NEW_PASSWORD),
            ("pin", NEW_PIN),
            ("pin_again", NEW_PIN),
        ):
            nia.fill(f"#setup-form input[name={name}]", value)
        nia.click("#setup-form button[type=submit]")
        nia.wait_for_url("**/login/")
        assert "Your password and signing PIN are set" in nia.inner_text(".messages")
        log_in(nia, "nia", NEW_PASSWORD)
        assert "Nia Brown" in nia.inner_text("header")
        nia.click("header >> text=Password")
        nia.wait_for_url("**/me/password/")
        at_both_widths(nia, "accounts-password-page")

        user = get_user_model().objects.get(username="nia")
        assert user.check_password(NEW_PASSWORD) and SigningPin.objects.filter(user=user).exists()
    finally:
        dric_context.close()
        admin_context.close()
        nia_context.close()


def test_repeated_wrong_passwords_meet_the_lockout_page(browser, live_server):
    cast = make_cast()
    context, page = own_browser(browser, live_server)
    try:
        username = cast.general_cashier.user.username
        for _ in range(5):
            page.goto("/login/")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", "a-wrong-guess")
            follow(page, "button[type=submit]")  # each wrong try reaches the server before the next
        page.wait_for_selector("#locked-out")
        text = page.inner_text("#locked-out")
        assert "After 5 wrong tries in a row" in text and f"{username} can try again at" in text
        # Even the right password now meets the same page.
        page.goto("/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_selector("#locked-out")
        at_both_widths(page, "accounts-locked-out")
    finally:
        context.close()


def test_an_unattended_cage_screen_goes_to_the_lock_page_by_itself(page, settings):
    """The panels keep refreshing, but that is not activity: once the session has been idle too
    long, the next refresh sends the whole page to the lock page (its owner's signing PIN unlocks
    it: tests/browser/test_tablet.py), figures gone from the screen."""
    settings.CAGE_REFRESH_SECONDS = 1
    cast = make_cast()
    log_in(page, cast.general_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/")
    page.wait_for_selector("#inventory")
    # The session's last activity, moved back past the idle time (no waiting for a clock).
    key = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")
    session = SessionStore(session_key=key)
    session[LAST_ACTIVITY] = int(time.time()) - 16 * 60
    session.save()
    page.wait_for_url("**/locked/**", timeout=10_000)
    assert "It locked after 15 minutes without activity." in page.inner_text("#unlock-who")
    assert page.locator("#inventory").count() == 0


def test_the_setup_code_page_in_french(browser, live_server):
    """The administrator, in French, gives the runner a new setup code: labels with a no-break
    space before their colon, the time in words and the time zone as French writes it."""
    cast = make_cast()
    get_user_model().objects.create_user("admin", password=PASSWORD, is_staff=True)
    context, admin = own_browser(browser, live_server)
    try:
        log_in(admin, "admin", PASSWORD)
        admin.click("#language-fr-ca")
        admin.wait_for_selector('html[lang="fr-ca"]')
        admin.goto(f"/events/{cast.event.slug}/people/{cast.runner.code}/setup-code/")
        admin.click("#setup-code-make")
        admin.wait_for_selector("#setup-code")
        card = admin.inner_text("#setup-code")
        assert "Nom d’utilisateur\u00a0:" in card and "Code d’activation\u00a0:" in card
        expires = admin.inner_text("#setup-expires")
        assert re.search(r"\d{4}-\d\d-\d\d \d{1,2}\u00a0h\u00a0\d\d \((HNE|HAE)\)\.$", expires), expires
        at_both_widths(admin, "setup-code-french")
    finally:
        context.close()
