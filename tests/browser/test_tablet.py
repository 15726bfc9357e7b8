"""A dealer's tablet, in a real browser: My slips shows by itself the fill the Chip Cashier writes
for her table (a notice at its top, no reload), then the idle tablet locks, and she unlocks it with
her signing PIN and is back on her page. In English and in French (for French, the structure: the
catalogue's words are filled in later), at the cage's and a tablet's widths."""

import time

import pytest
from django.contrib.sessions.backends.db import SessionStore

from events.idle import LAST_ACTIVITY
from tests.browser.conftest import at_both_widths, follow, person_page
from tests.cage.helpers import open_table, stock
from tests.conftest import PIN, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def write_a_fill(cc, cast):
    """The Chip Cashier writes a fill of 40 × $5 for BJ-1, carried by the runner, at her window."""
    cc.goto(f"/cage/{cast.event.slug}/")
    follow(cc, "#slip-types >> text=Fill")
    cc.select_option("select[name=table]", label="table BJ-1")
    if cc.locator("select[name=runner]").count():
        cc.select_option("select[name=runner]", label="Runner")
    cc.fill("input[name=chips_5]", "40")
    if cc.locator("select[name=sign_carried_by]").count():
        cc.select_option("select[name=sign_carried_by]", label="Runner")
    cc.fill("input[name=pin_carried_by]", PIN)
    follow(cc, "#slip-form button[type=submit]")
    cc.wait_for_selector("text=Fill 1 recorded.")


def leave_idle(page):
    """The tablet's session, its last activity moved back past the idle time (no clock waited for)."""
    key = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")
    session = SessionStore(session_key=key)
    session[LAST_ACTIVITY] = int(time.time()) - 16 * 60
    session.save()


def locks_by_itself(tablet):
    """The next refresh is answered 401 and the script reloads the page, which goes to the lock."""
    leave_idle(tablet)
    tablet.wait_for_url("**/locked/?next=%2Fcage%2Flakeside%2Fme%2F", timeout=10_000)
    tablet.wait_for_selector("#unlock-form")
    text = tablet.inner_text("main")
    # Nothing of the page behind: not the fill, not the table, not the event's navigation.
    assert "Fill 1" not in text and "BJ-1" not in text and tablet.locator("nav.event").count() == 0
    assert tablet.locator("#on-the-way").count() == 0


def unlock(tablet, pin):
    tablet.fill("#unlock-form input[name=pin]", pin)
    follow(tablet, "#unlock-button")


def test_a_dealers_tablet_shows_the_fill_on_its_way_then_locks_and_unlocks_with_her_pin(browser, live_server, settings):
    settings.CAGE_REFRESH_SECONDS = 1
    cast = make_cast()
    stock(cast)
    open_table(cast)  # the dealer counted BJ-1's opener: her table
    tablet = person_page(browser, live_server, cast.dealer, width=768, height=1024)
    cc = person_page(browser, live_server, cast.chip_cashier)
    try:
        tablet.goto(f"/cage/{cast.event.slug}/me/")
        assert tablet.locator("#on-the-way .notice").count() == 0
        tablet.evaluate("window.notReloaded = true")

        write_a_fill(cc, cast)
        tablet.wait_for_selector("#on-the-way .notice", timeout=10_000)
        notice = tablet.inner_text("#on-the-way")
        assert "Fill 1 for BJ-1 is on its way: $200.00 in chips, carried by Runner." in notice
        assert tablet.evaluate("window.notReloaded === true")  # it came in by itself, the page kept
        assert tablet.get_attribute("#on-the-way", "aria-live") == "polite"
        assert tablet.locator("#on-the-way summary", has_text="Sign as “received by”…").count() == 1
        # A notice in the site's accent, not an error's red (static/site.css: --accent, not --bad).
        border = tablet.locator("#on-the-way .notice").evaluate("e => getComputedStyle(e).borderLeftColor")
        assert border == "rgb(11, 83, 148)", border
        at_both_widths(tablet, "tablet-notice")

        locks_by_itself(tablet)
        assert "Dealer (lakeside-dealer) is logged in" in tablet.inner_text("#unlock-who")
        assert tablet.locator("#not-you-logout").count() == 1
        at_both_widths(tablet, "tablet-locked")
        unlock(tablet, "1357")
        assert "your signing PIN is wrong; 4 tries left" in tablet.inner_text("#unlock-form")
        assert tablet.locator("#unlock-form input[name=pin]").input_value() == ""  # never filled back
        at_both_widths(tablet, "tablet-locked-wrong-pin")
        unlock(tablet, PIN)
        tablet.wait_for_url(f"**/cage/{cast.event.slug}/me/")
        # Back on her page, and she signs the fill from its notice: one tap opens the question, a
        # second gives the signature; the open question holds the panel still while she reads it.
        tablet.click("#on-the-way summary")
        assert "Sign Fill 1 as “received by”? A signature is not taken back." in tablet.inner_text("#on-the-way")
        at_both_widths(tablet, "tablet-sign-confirm")
        follow(tablet, "#on-the-way button")
        assert "Dealer signed Fill 1 as “received by”." in tablet.inner_text(".messages")
        assert tablet.url.endswith(f"/cage/{cast.event.slug}/me/")
        assert tablet.locator("#on-the-way .notice").count() == 0
    finally:
        tablet.context.close()
        cc.context.close()


def test_the_tablet_in_french(browser, live_server, settings):
    settings.CAGE_REFRESH_SECONDS = 1
    cast = make_cast()
    stock(cast)
    open_table(cast)
    tablet = person_page(browser, live_server, cast.dealer, width=768, height=1024)
    cc = person_page(browser, live_server, cast.chip_cashier)
    try:
        tablet.goto(f"/cage/{cast.event.slug}/me/")
        follow(tablet, "#language-fr-ca")
        tablet.wait_for_selector('html[lang="fr-ca"]')
        write_a_fill(cc, cast)
        tablet.wait_for_selector("#on-the-way .notice", timeout=10_000)
        notice = tablet.inner_text("#on-the-way")
        assert "BJ-1" in notice and "Runner" in notice and "200,00\u00a0$" in notice  # French money
        assert tablet.locator("#on-the-way form button").count() == 1
        at_both_widths(tablet, "tablet-notice-french")

        locks_by_itself(tablet)
        assert tablet.locator('html[lang="fr-ca"]').count() == 1
        assert "lakeside-dealer" in tablet.inner_text("#unlock-who")
        assert tablet.locator("#unlock-form input[name=pin][type=password]").count() == 1
        at_both_widths(tablet, "tablet-locked-french")
        unlock(tablet, PIN)
        tablet.wait_for_url(f"**/cage/{cast.event.slug}/me/")
        assert tablet.locator('html[lang="fr-ca"]').count() == 1
        assert tablet.locator("#on-the-way .notice").count() == 1
    finally:
        tablet.context.close()
        cc.context.close()
