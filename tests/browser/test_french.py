"""The events and audit pages in French, in a real browser: the switch on the login page, the
choice kept for the login on another browser, and screenshots of the main pages at the cage's
width and a tablet's (nothing may stick out sideways)."""

import pytest

from events.models import LanguagePreference
from tests.browser.conftest import at_both_widths, left_the_login_page
from tests.conftest import PASSWORD
from tests.i18n.test_french_pages import DAY, SEED_000_ROLES, english_left, french_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def browser_in(browser, live_server, locale):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1366, "height": 900}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def log_in(page, username):
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("#login-form button[type=submit]")
    left_the_login_page(page)


def test_french_chosen_on_the_login_page_follows_the_login_to_another_browser(browser, live_server):
    event, people = french_event()
    annie = people["annie"]
    first, page = browser_in(browser, live_server, "en-CA")
    second, other = browser_in(browser, live_server, "en-CA")
    try:
        page.goto("/login/")
        assert page.get_attribute("html", "lang") == "en-ca" and page.inner_text("h1") == "Log in"
        page.click("#language-fr-ca")
        page.wait_for_selector("html[lang=fr-ca]")
        assert page.inner_text("h1") == "Ouvrir une session"
        log_in(page, annie.user.username)
        assert page.inner_text("h1") == "File du RDR"  # the DRIC lands on her queue, in French
        assert LanguagePreference.objects.get(user=annie.user).language == "fr-ca"

        # Another browser, set to English, never switched: English until Annie logs in there.
        other.goto("/login/")
        assert other.inner_text("h1") == "Log in"
        log_in(other, annie.user.username)
        assert other.get_attribute("html", "lang") == "fr-ca" and other.inner_text("h1") == "File du RDR"
        other.goto(f"/events/{event.slug}/people/")
        text = other.inner_text("main")
        for role in SEED_000_ROLES:
            assert role in text
        # Back to English with the switch, from any page: the page stays where it was.
        other.click("#language-en-ca")
        other.wait_for_selector("html[lang=en-ca]")
        assert other.url.endswith(f"/events/{event.slug}/people/") and other.inner_text("h1") == "People and roles"
        assert LanguagePreference.objects.get(user=annie.user).language == "en-ca"
    finally:
        first.close()
        second.close()


def test_the_main_pages_in_french_at_both_widths(browser, live_server):
    event, people = french_event()
    context, page = browser_in(browser, live_server, "fr-CA")
    try:
        page.goto("/login/")
        assert english_left(page.content()) == []
        at_both_widths(page, "fr-login")
        page.goto("/setup/")
        assert english_left(page.content()) == []
        at_both_widths(page, "fr-setup")
        page.goto("/login/")
        page.set_viewport_size({"width": 1366, "height": 900})
        log_in(page, people["annie"].user.username)
        # The day cannot open (no designated persons on its roster): the page says why, with the
        # rule in the French numbering, instead of offering a button that would be refused.
        page.goto(f"/events/{event.slug}/days/{DAY.isoformat()}/")
        assert "(M&C 2.1)" in page.inner_text("#cannot-open")
        assert page.locator("text=Ouvrir la journée de jeu").count() == 0
        for name, path in (
            ("event", f"/events/{event.slug}/"),
            ("people", f"/events/{event.slug}/people/"),
            ("roster", f"/events/{event.slug}/days/{DAY.isoformat()}/"),
            ("compliance", f"/events/{event.slug}/compliance/"),
            ("audit-trail", f"/audit/{event.slug}/"),
            ("tables", f"/events/{event.slug}/tables/"),
            ("chips", f"/events/{event.slug}/chips/"),
            ("days", f"/events/{event.slug}/days/"),
            ("events", "/"),
            ("pin", "/me/pin/"),
        ):
            page.set_viewport_size({"width": 1366, "height": 900})
            page.goto(path)
            assert page.get_attribute("html", "lang") == "fr-ca", name
            assert english_left(page.content()) == [], name
            at_both_widths(page, f"fr-{name}")
    finally:
        context.close()
