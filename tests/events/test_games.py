"""The game modules: declarations, win figures, and the rules they encode. No database."""

import ast
from pathlib import Path

import pytest

from events import games
from events.games import baccarat, blackjack, craps, wheel_of_fortune
from tests.source import parse


def test_the_registry_holds_the_four_games():
    assert set(games.REGISTRY) == {"blackjack", "wheel_of_fortune", "baccarat", "craps"}


@pytest.mark.parametrize("code", ["blackjack", "wheel_of_fortune", "baccarat", "craps"])
def test_each_game_declares_names_limits_and_its_rules(code):
    game = games.get_game(code)
    assert game.code == code and game.name_en and game.name_fr and game.rules
    if "limits" in game.setting_names:  # no seed states them: the licence's setting
        assert game.limits is None and game.typical_settings()["limits"] == (100, 500)
    else:
        assert game.min_bet_cents == 100 and game.max_bet_cents == 500


def test_win_is_closer_minus_opener_minus_fills_plus_credits():
    day = games.TableDay(opener=50_000, closer=35_000, fills=(10_000, 5_000), credits=(30_000,))
    figures = games.get_game("blackjack").win(day)
    assert (figures.fills, figures.credits, figures.win) == (15_000, 30_000, 35_000 - 50_000 - 15_000 + 30_000)


def test_a_losing_table_has_a_negative_win():
    assert (
        games.get_game("wheel_of_fortune").win(games.TableDay(opener=20_000, closer=18_000, fills=(10_000,))).win
        == -12_000
    )


def test_an_unknown_game_is_named_in_the_error():
    with pytest.raises(KeyError, match="roulette"):
        games.get_game("roulette")


def test_bets_outside_one_to_five_dollars_are_refused():
    game = games.get_game("blackjack")
    assert game.check_bet(100) is None and game.check_bet(500) is None
    refusal = game.check_bet(600)
    assert refusal.section == "Blackjack rules 1.1, 1.2"
    assert refusal.text() == "Bets run from $1.00 to $5.00."
    assert game.check_bet(50) is not None
    assert blackjack.check_insurance(100, 50) is None  # a $0.50 insurance on a $1 wager (7.2)


def test_the_wheel_pays_at_most_eight_to_one_and_forty_dollars():
    wheel = wheel_of_fortune.GAME
    assert wheel.check_payout(500, 4000) is None
    assert "8 to 1" in wheel.check_payout(100, 900).text()
    assert wheel.check_payout(500, 4000) is None
    assert wheel.max_payout_cents == 4000
    assert not wheel_of_fortune.spin_counts(2.5) and wheel_of_fortune.spin_counts(3)


def test_blackjack_scores_aces_soft_and_the_dealer_hits_soft_17():
    assert blackjack.score(["A", "K"]) == (21, True)
    assert blackjack.score(["A", "A", "9"]) == (21, True)
    assert blackjack.score(["10", "6", "A", "5"]) == (22, False)
    assert blackjack.dealer_draws(["A", "6"])  # soft 17: draw (rule 10.2)
    assert not blackjack.dealer_draws(["10", "7"])  # hard 17: stand
    assert blackjack.dealer_draws(["10", "6"])


def test_baccarat_follows_the_section_37_table():
    assert baccarat.player_draws(5) and not baccarat.player_draws(6)
    assert baccarat.banker_draws(3, 7) and not baccarat.banker_draws(3, 8)
    assert not baccarat.banker_draws(4, 1) and baccarat.banker_draws(4, 2)
    assert baccarat.banker_draws(6, 6) and not baccarat.banker_draws(6, 5)
    assert baccarat.banker_draws(5, None) and not baccarat.banker_draws(6, None)
    assert baccarat.banker_draws(2, 8) and not baccarat.banker_draws(7, 0)


def test_craps_pass_and_dont_pass_and_the_field():
    assert craps.come_out(7) == "win" and craps.come_out(12) == "lose" and craps.come_out(6) == "point"
    assert craps.come_out(12, dont=True) == "push" and craps.come_out(3, dont=True) == "win"
    assert craps.field_pays(2) == 2 and craps.field_pays(9) == 1 and craps.field_pays(7) == 0


def test_game_modules_import_no_app_and_no_django():
    folder = Path(games.__file__).parent
    for path in folder.glob("*.py"):
        tree = parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert not node.module.startswith(("django", "events", "cage", "reports")), path
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith(("django", "cage", "reports")) for a in node.names), path
