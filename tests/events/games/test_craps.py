"""Craps by s. 95.14 (seed 004): every come-out and every point outcome of each bet, the field on
every total, withdrawing and raising, refused totals, and the exact house advantage."""

from fractions import Fraction
from itertools import product

import pytest

from events.games import craps
from events.games.base import Refused

TOTALS = range(2, 13)
POINTS = (4, 5, 6, 8, 9, 10)

# s. 95.14 read independently: the first roll a bet meets.
# 1° pass (and 3° come): 7 or 11 wins, 2, 3 or 12 loses, any other total is the point.
# 2° don't pass (and 4° don't come): 2 or 3 wins, 7 or 11 loses, 12 is "nulle" (a push).
FIRST_ROLL = {
    "pass": {2: "lose", 3: "lose", 12: "lose", 7: "win", 11: "win"},
    "dont_pass": {2: "win", 3: "win", 7: "lose", 11: "lose", 12: "push"},
}
FIRST_ROLL["come"], FIRST_ROLL["dont_come"] = FIRST_ROLL["pass"], FIRST_ROLL["dont_pass"]
PARAGRAPH = {"pass": "1°", "dont_pass": "2°", "come": "3°", "dont_come": "4°", "field": "5°"}


@pytest.mark.parametrize("bet, total", list(product(FIRST_ROLL, TOTALS)))
def test_every_come_out(bet, total):
    answer = craps.settle(bet, [total])
    decided = FIRST_ROLL[bet].get(total)
    assert answer["section"] == f"S-13.1, r. 3, s. 95.14 ({PARAGRAPH[bet]})"
    if decided:
        assert answer == {
            "result": decided,
            "pays": "1:1" if decided == "win" else None,
            "rolls_used": 1,
            "point": None,
            "section": answer["section"],
        }
    else:
        assert total in POINTS
        assert (answer["result"], answer["pays"], answer["rolls_used"], answer["point"]) == ("open", None, 1, total)


@pytest.mark.parametrize("bet, point, total", list(product(FIRST_ROLL, POINTS, TOTALS)))
def test_every_roll_after_the_point(bet, point, total):
    answer = craps.settle(bet, [point, total])
    dont = bet.startswith("dont")
    if total == point:  # the point again: pass and come win, don't pass and don't come lose
        expected = "lose" if dont else "win"
    elif total == 7:  # a seven: pass and come lose, the don'ts win
        expected = "win" if dont else "lose"
    else:  # every other total waits (1°: "en attente"; 3°: "reste en attente")
        expected = "open"
    assert answer["result"] == expected
    assert answer["pays"] == ("1:1" if expected == "win" else None)
    assert answer["rolls_used"] == 2 and answer["point"] == point


@pytest.mark.parametrize("bet", list(FIRST_ROLL))
def test_a_point_waits_through_other_totals_and_later_rolls_are_not_read(bet):
    rolls = [6, 2, 3, 11, 12, 4, 5, 8, 9, 10, 6, 7, 6]
    answer = craps.settle(bet, rolls)
    assert answer["rolls_used"] == 11 and answer["point"] == 6
    assert answer["result"] == ("lose" if bet.startswith("dont") else "win")
    # 2, 3, 11 and 12 decide nothing once there is a point, 7 does.
    assert craps.settle(bet, [4, 2, 3, 11, 12])["result"] == "open"
    assert craps.settle(bet, [4, 12, 7])["result"] == ("win" if bet.startswith("dont") else "lose")


@pytest.mark.parametrize("total", TOTALS)
def test_the_field_on_every_total(total):
    answer = craps.settle("field", [total, 7, 7])
    # 5°: wins on 2, 3, 4, 9, 10, 11 or 12, paid 2 to 1 on 2 or 12; loses on any other total.
    pays = {2: "2:1", 12: "2:1", 3: "1:1", 4: "1:1", 9: "1:1", 10: "1:1", 11: "1:1"}.get(total)
    assert answer["result"] == ("win" if pays else "lose") and answer["pays"] == pays
    assert answer["rolls_used"] == 1 and answer["section"] == "S-13.1, r. 3, s. 95.14 (5°)"
    assert craps.field_pays(total) == (int(pays[0]) if pays else 0)


@pytest.mark.parametrize("bet", list(PARAGRAPH))
def test_no_roll_yet_is_open(bet):
    assert craps.settle(bet, []) == {
        "result": "open",
        "pays": None,
        "rolls_used": 0,
        "point": None,
        "section": f"S-13.1, r. 3, s. 95.14 ({PARAGRAPH[bet]})",
    }


@pytest.mark.parametrize("total", [13, 1, 0, -7, 7.0, 7.5, "7", True, None])
def test_a_total_outside_two_to_twelve_is_refused(total):
    with pytest.raises(Refused) as refused:
        craps.settle("pass", [4, total])
    assert refused.value.refusal.section == "S-13.1, r. 3, s. 95.14"
    assert "totals run from 2 to 12" in refused.value.refusal.text()
    with pytest.raises(Refused):
        craps.come_out(total)
    with pytest.raises(Refused):
        craps.field_pays(total)


@pytest.mark.parametrize("rolls", [None, 7, "7 11", {7: 1}])
def test_rolls_that_are_not_a_list_are_refused(rolls):
    with pytest.raises(Refused) as refused:
        craps.settle("pass", rolls)
    assert refused.value.refusal.text() == "The rolls are a list of totals of two dice."


def test_come_out_13_is_refused_not_a_point():
    with pytest.raises(Refused):
        craps.come_out(13)
    assert craps.come_out(7) == "win" and craps.come_out(12, dont=True) == "push"


@pytest.mark.parametrize("bet", ["any_seven", "Pass", "", None])
def test_an_unknown_bet_is_refused(bet):
    with pytest.raises(Refused) as refused:
        craps.settle(bet, [7])
    assert "not one of the bets of s. 95.14" in refused.value.refusal.text()
    with pytest.raises(Refused):
        craps.can_withdraw(bet)


def test_withdrawing_and_raising():
    # s. 95.14, closing 4°: pass and come cannot be withdrawn; the don'ts can be withdrawn at any
    # time but not raised. The section says nothing else: None.
    assert [craps.can_withdraw(bet) for bet in craps.BETS] == [False, True, False, True, None]
    assert [craps.can_raise(bet) for bet in craps.BETS] == [None, False, None, False, None]
    assert craps.WITHDRAW_SECTION == "S-13.1, r. 3, s. 95.14 (4°)"


def test_house_advantage_is_exact():
    assert craps.house_advantage() == {
        "pass": Fraction(7, 495),
        "dont_pass": Fraction(3, 220),
        "come": Fraction(7, 495),
        "dont_come": Fraction(3, 220),
        "field": Fraction(1, 18),
    }


def test_outcome_probabilities_agree_with_a_long_enumeration_of_rolls():
    """Every sequence of up to four rolls, each weighted by its chance: what is decided brackets the
    exact figures, within what is still open after four rolls."""
    ways = {t: sum(1 for a, b in product(range(1, 7), repeat=2) if a + b == t) for t in TOTALS}
    for bet in ("pass", "dont_pass"):
        decided = {"win": Fraction(0), "lose": Fraction(0), "push": Fraction(0)}
        frontier = [([], Fraction(1))]
        for _ in range(4):
            following = []
            for rolls, p in frontier:
                for total in TOTALS:
                    answer = craps.settle(bet, [*rolls, total])
                    q = p * Fraction(ways[total], 36)
                    if answer["result"] == "open":
                        following.append(([*rolls, total], q))
                    else:
                        decided[answer["result"]] += q
            frontier = following
        still_open = sum(p for _, p in frontier)
        exact = craps.outcome_probabilities(bet)
        assert still_open < Fraction(30, 100)
        for result in decided:
            assert decided[result] <= exact[result] <= decided[result] + still_open
    assert craps.outcome_probabilities("pass")["win"] == Fraction(244, 495)


def test_the_game_declares_its_limits_a_setting_and_its_payout_caps():
    game = craps.GAME
    assert game.limits is None and game.setting_names == ("limits",)
    assert game.check_payout(500, 1000) is None
    assert game.check_payout(500, 1001).section == "S-13.1, r. 3, s. 95.14 (5°)"
    assert len(game.rules) == 5


def test_settle_each_roll_follows_a_bet_until_it_is_decided():
    steps = craps.settle_each_roll("come", [5, 8, 11, 5, 7])
    assert [step["result"] for step in steps] == ["open", "open", "open", "win"]
    assert [step["rolls_used"] for step in steps] == [1, 2, 3, 4]
    assert [step["result"] for step in craps.settle_each_roll("field", [9, 9])] == ["win"]
    assert craps.settle_each_roll("dont_pass", []) == []
