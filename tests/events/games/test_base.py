"""What the game modules share: refusals with their figures apart, sections named in the reader's
language, games declaring the settings no seed states."""

import pytest

from events.games import REGISTRY, baccarat, blackjack, craps, wheel_of_fortune
from events.games.base import Refusal, Refused, cite_section, plain_dollars


def test_a_refusal_is_a_sentence_template_with_its_figures_and_section():
    refusal = Refusal(
        "Bets run from %(minimum)s to %(maximum)s.",
        {"minimum": 100, "maximum": 150000},
        "T&C 3.5",
        ("minimum", "maximum"),
    )
    assert refusal.text() == "Bets run from $1.00 to $1,500.00."
    french = {"Bets run from %(minimum)s to %(maximum)s.": "Les mises vont de %(minimum)s à %(maximum)s."}
    assert refusal.text(french.get, lambda cents: f"{cents // 100} $") == "Les mises vont de 1 $ à 1500 $."
    assert str(refusal) == "Bets run from $1.00 to $1,500.00. (T&C 3.5)"
    error = Refused(refusal)
    assert isinstance(error, ValueError) and error.refusal is refusal


def test_plain_dollars():
    assert (plain_dollars(0), plain_dollars(4000), plain_dollars(-150)) == ("$0.00", "$40.00", "-$1.50")


@pytest.mark.parametrize(
    "section, english, french",
    [
        ("Blackjack rule 8.2", "Blackjack rule 8.2", "Blackjack, règle 8.2"),
        ("Blackjack rules 1.1, 1.2", "Blackjack rules 1.1, 1.2", "Blackjack, règles 1.1, 1.2"),
        ("Wheel of Fortune rule 8", "Wheel of Fortune rule 8", "Roue de la fortune, règle 8"),
        ("S-13.1, r. 3, s. 95.14 (2°)", "S-13.1, r. 3, s. 95.14 (2°)", "S-13.1, r. 3, art. 95.14 (2°)"),
        ("T&C 3.5", "T&C 3.5", "T&C 3.5"),  # renumbered, if need be, by core.rules.cite
        ("Blackjack rule 7.5; T&C 3.5", "Blackjack rule 7.5; T&C 3.5", "Blackjack, règle 7.5; T&C 3.5"),
    ],
)
def test_sections_are_named_in_the_readers_language(section, english, french):
    catalogue = {
        "Blackjack rule %(rule)s": "Blackjack, règle %(rule)s",
        "Blackjack rules %(rules)s": "Blackjack, règles %(rules)s",
        "Wheel of Fortune rule %(rule)s": "Roue de la fortune, règle %(rule)s",
        "S-13.1, r. 3, s. %(section)s": "S-13.1, r. 3, art. %(section)s",
    }
    assert cite_section(section) == english
    assert cite_section(section, lambda s: catalogue.get(s, s)) == french
    assert Refusal("x", {}, section).cited(lambda s: catalogue.get(s, s)) == french


def test_each_game_names_the_sections_it_follows_and_the_settings_it_needs():
    assert REGISTRY["blackjack"] is blackjack.GAME and REGISTRY["craps"] is craps.GAME
    for game in REGISTRY.values():
        assert game.rules and all(isinstance(section, str) and section for section in game.rules)
    # The seeds state blackjack's and the wheel's limits; baccarat's and craps' are the licence's.
    assert {code for code, game in REGISTRY.items() if game.limits is None} == {"baccarat", "craps"}
    assert baccarat.GAME.typical_settings()["limits"] == craps.GAME.typical_settings()["limits"] == (100, 500)
    assert wheel_of_fortune.GAME.settings == () and blackjack.GAME.settings == ()


@pytest.mark.parametrize("limits", [(0, 500), (600, 500), (1.0, 5.0), (100,), None])
def test_a_game_with_bad_limits_cannot_be_declared(limits):
    from events.games.base import Game

    with pytest.raises(ValueError):
        Game("x", "X", "X", limits, None, None, ("T&C 3.5",))


def test_check_bet_takes_the_licences_limits():
    assert blackjack.GAME.check_bet(100) is None
    assert blackjack.GAME.check_bet(100, limits=(200, 500)).params == {"minimum": 200, "maximum": 500}
    assert craps.GAME.check_bet(2500, limits=(500, 2500)) is None
    assert craps.GAME.check_bet(499, limits=(500, 2500)).section == "T&C 3.5"
