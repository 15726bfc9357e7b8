"""The administrator enters the licence's figures for craps on the games page; the DRIC changes a
wheel's layout, is refused one that breaks Wheel of Fortune rule 4, and opens a table's poster
from the tables page."""

import pytest

from events.models import GameTable
from tests.browser.conftest import at_both_widths, follow, log_in
from tests.conftest import PASSWORD, add_person, make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_settings_layout_and_poster_links(page, django_user_model):
    from events import services

    # Craps under the Québec rules, the wheel under Ontario's: two licences (T&C 1.3, 3.3).
    quebec = make_event("quebec", games=("baccarat", "craps"))
    event = make_event("ontario")
    dric = add_person(event, "dric", "dric")
    services.table_create(event=event, code="WOF-1", game="wheel_of_fortune")
    services.table_create(event=event, code="BJ-1", game="blackjack")
    services.table_create(event=quebec, code="CR-1", game="craps")
    django_user_model.objects.create_user("admin", password=PASSWORD, is_staff=True)

    log_in(page, "admin", PASSWORD)
    page.goto(f"/events/{quebec.slug}/tables/")
    page.click("#games-link")
    page.wait_for_url("**/games/")
    assert "Not entered yet" in page.inner_text("#game-craps")
    page.fill("#settings-craps input[name=craps-min_bet]", "1")
    page.fill("#settings-craps input[name=craps-max_bet]", "10")
    page.click("#settings-craps button[type=submit]")
    page.wait_for_selector(".messages .success")
    assert "Bets from $1.00 to $10.00" in page.inner_text("#game-craps")
    at_both_widths(page, "games-page-en")
    follow(page, "header button:has-text('Log out')")

    log_in(page, dric.user.username, PASSWORD)
    page.goto(f"/events/{event.slug}/tables/")
    assert page.locator("#tables a.poster-fr").count() == 2
    at_both_widths(page, "tables-with-posters")
    page.click("#tables a.layout")
    page.wait_for_url("**/tables/WOF-1/layout/")
    page.fill("#layout-form textarea", "$1 1:1\n$1 1:1\nStar 9:1")
    page.click("#layout-form button[type=submit]")
    page.wait_for_selector("#layout-form .errorlist")
    assert "cannot exceed 8 to 1" in page.inner_text("#layout-form")
    at_both_widths(page, "wheel-layout-refused")
    # Ten segments; the house keeps an advantage on every bet.
    wheel = ["$1 1:1", "$2 2:1", "$1 1:1", "$5 5:1", "$1 1:1", "$2 2:1", "$1 1:1", "Star 8:1", "$2 2:1", "Joker 8:1"]
    page.fill("#layout-form textarea", "\n".join(wheel))
    page.click("#layout-form button[type=submit]")
    page.wait_for_selector(".messages .success")
    assert "Star" in page.inner_text("#paytable")
    assert len(GameTable.objects.get(code="WOF-1").wheel_layout["segments"]) == 10
    at_both_widths(page, "wheel-layout-saved")

    response = page.request.get(f"/events/{event.slug}/tables/WOF-1/poster.pdf?lang=fr")
    assert response.ok and response.headers["content-type"] == "application/pdf"
