"""The DRIC settles disputes from the calculators page (T&C 1.7): she opens it from the event's
navigation, uses each game's calculator once and is told plainly when what she typed breaks a
rule; in English and in French, at the cage's screen width and a tablet's."""

import pytest

from tests.browser.conftest import at_both_widths, follow, log_in
from tests.conftest import PASSWORD, make_quebec

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def settle(page, code, **fields):
    """Fill the calculator's fields (id without "#": value; a <select> is chosen), submit it
    and read its answer."""
    for name, value in fields.items():
        selector = f"#{name.replace('_', '-')}"
        if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)
    follow(page, f"#calc-{code} button[type=submit]")  # a second answer replaces the first: same id
    page.wait_for_selector(f"#answer-{code}")
    return page.inner_text(f"#answer-{code}")


def outcome_is_large(page, code):
    """The outcome is read across the table: its type at least 20 px, black on white."""
    style = page.eval_on_selector(
        f"#answer-{code} .outcome p",
        "p => { const s = getComputedStyle(p); return [parseFloat(s.fontSize), s.color, s.backgroundColor]; }",
    )
    assert style[0] >= 20 and style[1] == "rgb(0, 0, 0)" and style[2] == "rgb(255, 255, 255)", style


def test_the_dric_settles_a_dispute_at_each_game(page):
    quebec = make_quebec()
    event, dric = quebec.event, quebec.dric
    log_in(page, dric.user.username, PASSWORD)
    page.goto(f"/events/{event.slug}/")
    page.click("nav.event >> text=Disputes")
    page.wait_for_url("**/disputes/")
    assert "House advantage under these rules" in page.inner_text("#calc-baccarat")
    at_both_widths(page, "calculators-en")

    answer = settle(page, "baccarat", bac_cards="2 3 K K 5 9")
    assert "Player: 2 K 5, total 7." in answer and "Winner: Player." in answer and "s. 37" in answer
    answer = settle(page, "baccarat", bac_cards="2 3 4 K 5 9", bac_banker_wager="10", bac_player_wager="5")
    assert "The banker wins: 8 against 6." in answer and "pay $9.50 after a commission of $0.50" in answer
    outcome_is_large(page, "baccarat")
    page.locator("#answer-baccarat").scroll_into_view_if_needed()
    at_both_widths(page, "calculators-baccarat-en")

    answer = settle(page, "craps", craps_rolls="6 8 6", craps_pass_wager="5", craps_dont_pass_wager="2")
    assert "waits: the point is 6" in answer and "wins, pays 1 to 1: $5.00" in answer
    assert "Pass, $5.00: wins, pays 1 to 1: pay $5.00." in answer and "Don't pass, $2.00: loses." in answer

    # Blackjack and the wheel are the Ontario event's (an AGCO licence), with its own DRIC.
    follow(page, "header button:has-text('Log out')")
    ontario, ontario_dric = quebec.ontario, quebec.ontario_people["dric"]
    log_in(page, ontario_dric.user.username, PASSWORD)
    page.goto(f"/events/{ontario.slug}/disputes/")
    assert "a tie, pushed" in page.inner_text("#blackjack-reading")
    answer = settle(
        page,
        "blackjack",
        bj_dealer="6 10 5",
        bj_h1_cards="A K",
        bj_h1_wager="2",
        bj_h2_cards="9 2 10",
        bj_h2_wager="5",
        bj_h2_action="double",
    )
    assert "pays 3 to 2" in answer and "$3.00" in answer and "push" in answer
    outcome_is_large(page, "blackjack")
    at_both_widths(page, "calculators-blackjack-en")

    # The walk's round: a pair of 8s split, the second hand (8 2 9) doubled down after the split
    # (Blackjack rule 8.1), the insurance of neither; the dealer's 18.
    answer = settle(
        page,
        "blackjack",
        bj_dealer="10 8",
        bj_h1_cards="8 10",
        bj_h1_wager="5",
        bj_h1_action="split",
        bj_h2_cards="8 2 9",
        bj_h2_wager="5",
        bj_h2_action="split_double",
    )
    assert "Hand 1: a push" in answer and "Hand 2 wins, pays 1 to 1: pay $10.00." in answer
    assert page.locator("#answer-blackjack .refusal").count() == 0
    answer = settle(page, "blackjack", bj_h2_action="double")
    assert "only one hand from a split" in answer and "at most twice" not in answer
    page.locator("#answer-blackjack").scroll_into_view_if_needed()
    at_both_widths(page, "calculators-blackjack-split-double-en")

    answer = settle(
        page,
        "wheel_of_fortune",
        wheel_table="WOF-1",
        wheel_symbol="$5",
        wheel_bet="5",
        wheel_landed="$5",
        wheel_revolutions="3",
    )
    assert "The bet wins, pays 5 to 1." in answer and "$25.00" in answer
    outcome_is_large(page, "wheel_of_fortune")
    page.locator("#answer-wheel_of_fortune").scroll_into_view_if_needed()
    at_both_widths(page, "calculators-wheel-en")

    # A refusal: a $9 wager at blackjack, told with its rule; nothing else on the page changes.
    answer = settle(page, "blackjack", bj_dealer="6 10", bj_h1_cards="10 9", bj_h1_wager="9", bj_h2_cards="")
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

    answer = settle(page, "baccarat", bac_cards="8 3 K 4")
    assert "naturelle" in answer and "Gagnant" in answer and "art. 37" in answer
    answer = settle(page, "baccarat", bac_cards="9 9 K K", bac_player_wager="5", bac_tie_wager="2")
    assert (
        "Égalité\u00a0: les deux mains totalisent 9." in answer
        and "coup nul" in answer
        and "payer 16,00\u00a0$" in answer
    )
    page.locator("#answer-baccarat").scroll_into_view_if_needed()
    at_both_widths(page, "calculators-baccarat-tie-fr")

    answer = settle(page, "craps", craps_rolls="6 13")
    assert "art. 95.14" in answer
    assert page.locator("#answer-craps .refusal").count() == 1
    at_both_widths(page, "calculators-fr")

    follow(page, "header button:has-text('Fermer la session')")
    log_in(page, quebec.ontario_people["dric"].user.username, PASSWORD)
    page.goto(f"/events/{quebec.ontario.slug}/disputes/")
    if page.locator("html[lang=fr-ca]").count() == 0:  # the language follows each login
        page.click("#language-fr-ca")
        page.wait_for_selector("html[lang=fr-ca]")
    assert "la caisse paie selon le texte anglais" in page.inner_text("#blackjack-reading")
    answer = settle(page, "blackjack", bj_dealer="6 10 5", bj_h1_cards="10 9", bj_h1_wager="5")
    assert "perd" in answer and "-5,00" in answer
    answer = settle(
        page, "wheel_of_fortune", wheel_symbol="$1", wheel_bet="1", wheel_landed="$1", wheel_revolutions="2"
    )
    assert "Tour non valide" in answer and "elle reste sur le tapis" in answer and "Rien n’est payé" in answer
    at_both_widths(page, "calculators-results-fr")
