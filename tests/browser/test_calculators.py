"""The DRIC settles disputes from the calculators page (T&C 1.7): she opens it from the event's
navigation, uses each game's calculator once and is told plainly when what she typed breaks a
rule; in English and in French, at the cage's screen width and a tablet's."""

import pytest

from tests.browser.conftest import at_both_widths, log_in
from tests.conftest import PASSWORD, make_quebec

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def settle(page, code):
    page.click(f"#calc-{code} button[type=submit]")
    page.wait_for_selector(f"#answer-{code}")
    return page.inner_text(f"#answer-{code}")


def test_the_dric_settles_a_dispute_at_each_game(page):
    quebec = make_quebec()
    event, dric = quebec.event, quebec.dric
    log_in(page, dric.user.username, PASSWORD)
    page.goto(f"/events/{event.slug}/")
    page.click("nav.event >> text=Disputes")
    page.wait_for_url("**/disputes/")
    assert "House advantage under these rules" in page.inner_text("#calc-baccarat")
    at_both_widths(page, "calculators-en")

    page.fill("#bac-cards", "2 3 K K 5 9")
    answer = settle(page, "baccarat")
    assert "Player: 2 K 5, total 7." in answer and "Winner: Player." in answer and "s. 37" in answer

    page.fill("#craps-rolls", "6 8 6")
    page.check("#calc-craps input[value=pass]")
    page.check("#calc-craps input[value=dont_pass]")
    page.fill("#craps-wager", "5")
    answer = settle(page, "craps")
    assert "waits: the point is 6" in answer and "wins, pays 1 to 1: $5.00" in answer

    page.fill("#bj-dealer", "6 10 5")
    page.fill("#bj-h1-cards", "A K")
    page.fill("#bj-h1-wager", "2")
    page.fill("#bj-h2-cards", "9 2 10")
    page.fill("#bj-h2-wager", "5")
    page.select_option("#bj-h2-action", "double")
    answer = settle(page, "blackjack")
    assert "pays 3 to 2" in answer and "$3.00" in answer and "push" in answer
    at_both_widths(page, "calculators-blackjack-en")

    page.select_option("#wheel-table", "WOF-1")
    page.fill("#wheel-symbol", "$5")
    page.fill("#wheel-bet", "5")
    page.fill("#wheel-landed", "$5")
    page.fill("#wheel-revolutions", "3")
    answer = settle(page, "wheel_of_fortune")
    assert "The bet wins, pays 5 to 1." in answer and "$25.00" in answer

    # A refusal: a $9 wager at blackjack, told with its rule; nothing else on the page changes.
    page.fill("#bj-dealer", "6 10")
    page.fill("#bj-h1-cards", "10 9")
    page.fill("#bj-h1-wager", "9")
    page.fill("#bj-h2-cards", "")
    answer = settle(page, "blackjack")
    assert "Bets run from $1.00 to $5.00" in answer and "Blackjack rules 1.1, 1.2" in answer
    assert page.locator("#answer-blackjack .refusal").count() == 1
    at_both_widths(page, "calculators-refused-en")


def test_the_calculators_in_french(page):
    quebec = make_quebec()
    event, dric = quebec.event, quebec.dric
    log_in(page, dric.user.username, PASSWORD)
    page.goto(f"/events/{event.slug}/disputes/")
    page.click("#language-fr-ca")
    page.wait_for_selector("html[lang=fr-ca]")
    assert page.inner_text("h1") == "Calculateurs de litiges"

    page.fill("#bac-cards", "8 3 K 4")
    answer = settle(page, "baccarat")
    assert "naturelle" in answer and "Gagnant" in answer and "art. 37" in answer

    page.fill("#craps-rolls", "6 13")
    answer = settle(page, "craps")
    assert "art. 95.14" in answer
    assert page.locator("#answer-craps .refusal").count() == 1
    at_both_widths(page, "calculators-fr")

    page.fill("#bj-dealer", "6 10 5")
    page.fill("#bj-h1-cards", "10 9")
    page.fill("#bj-h1-wager", "5")
    answer = settle(page, "blackjack")
    assert "perd" in answer and "-5,00" in answer
    page.fill("#wheel-symbol", "$1")
    page.fill("#wheel-bet", "1")
    page.fill("#wheel-landed", "$1")
    page.fill("#wheel-revolutions", "2")
    answer = settle(page, "wheel_of_fortune")
    assert "Tour non valide" in answer and "la mise reste" in answer
    at_both_widths(page, "calculators-results-fr")
