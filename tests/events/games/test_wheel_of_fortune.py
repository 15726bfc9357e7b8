"""Wheel of Fortune (seed 001, Wheel of Fortune rules 2 to 8): layouts checked at the limits'
boundaries, pay-offs, the three-revolution rule and the exact house advantage."""

from fractions import Fraction

import pytest

from events.games import wheel_of_fortune as wheel
from events.games.base import Refused


def layout(*segments, low=100, high=500):
    return {
        "min_bet_cents": low,
        "max_bet_cents": high,
        "segments": [{"symbol": symbol, "to": to, "per": per} for symbol, to, per in segments],
    }


SMALL = layout(("A", 1, 1), ("A", 1, 1), ("B", 3, 1), ("C", 8, 1))


def sections(refusals):
    return [refusal.section for refusal in refusals]


def test_the_typical_layout_passes_and_round_trips():
    typical = wheel.default_layout()
    assert wheel.check_layout(typical) == [] and wheel.check_layout(typical.to_json()) == []
    assert wheel.Layout.from_json(typical.to_json()) == typical
    assert {s: typical.count(s) for s in typical.symbols()} == {"$1": 24, "$2": 15, "$5": 7, "$8": 4}
    assert wheel.house_advantages(typical) == {
        "$1": Fraction(1, 25),
        "$2": Fraction(1, 10),
        "$5": Fraction(4, 25),
        "$8": Fraction(7, 25),
    }
    assert wheel.house_advantage(typical) == Fraction(1, 25)


@pytest.mark.parametrize(
    "low, high, allowed",
    [(100, 500, True), (100, 100, True), (500, 500, True), (99, 500, False), (100, 501, False), (300, 200, False)],
)
def test_bet_limits_at_their_boundaries(low, high, allowed):
    refusals = wheel.check_layout(layout(("A", 1, 1), low=low, high=high))
    assert (refusals == []) is allowed
    if not allowed:
        assert sections(refusals) == ["Wheel of Fortune rules 2, 3"]
        assert refusals[0].text() == (
            f"Bets at the wheel run from $1.00 to $5.00: the layout posts ${low / 100:.2f} to ${high / 100:.2f}."
        )


@pytest.mark.parametrize(
    "to, per, allowed",
    [(8, 1, True), (16, 2, True), (79, 10, True), (9, 1, False), (17, 2, False), (81, 10, False), (1, 2, True)],
)
def test_odds_at_most_eight_to_one(to, per, allowed):
    refusals = wheel.check_layout(layout(("A", 1, 1), ("X", to, per)))
    assert (refusals == []) is allowed
    if not allowed:
        assert "Wheel of Fortune rule 4" in sections(refusals)


def test_at_most_forty_dollars_paid_on_any_bet():
    # At the $5 maximum, 8 to 1 pays exactly $40 (rule 5's boundary).
    assert wheel.check_layout(layout(("A", 8, 1), high=500)) == []
    assert wheel.payout(layout(("A", 8, 1)), "A", 500, "A", 3)["winnings_cents"] == 4000
    # A table posting a $5.01 maximum breaks rule 3, and its 8 to 1 would pay $40.08, breaking 5.
    refusals = wheel.check_layout(layout(("A", 8, 1), high=501))
    assert sections(refusals) == ["Wheel of Fortune rules 2, 3", "Wheel of Fortune rule 5"]
    assert refusals[1].text() == "A would pay $40.08 on a $5.01 bet: no pay-off may exceed $40.00."
    assert refusals[1].money == ("paid", "bet", "maximum")


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {},
        {"segments": "A"},
        {"segments": [{"symbol": "A"}]},
        {"segments": [{"symbol": "", "to": 1}]},
        {"segments": [{"symbol": 5, "to": 1}]},
        {"segments": [{"symbol": "A", "to": 1.5}]},
        {"segments": [{"symbol": "A", "to": True}]},
        {"segments": ["A"]},
        {"segments": [{"symbol": "A", "to": 1}], "min_bet_cents": "1"},
    ],
)
def test_a_malformed_layout_is_refused(data):
    refusals = wheel.check_layout(data)
    assert len(refusals) == 1 and refusals[0].section == "T&C 3.5"
    with pytest.raises(Refused):
        wheel.Layout.from_json(data)


def test_an_empty_wheel_zero_odds_and_two_odds_for_one_symbol_are_refused():
    assert wheel.check_layout(layout())[0].text() == "A wheel has at least one segment."
    assert wheel.check_layout(layout(("A", 0, 1)))[0].text() == (
        "A pays 0:1, which is nothing: the odds must pay more than nothing."
    )
    assert "not two positive numbers" in wheel.check_layout(layout(("A", 1, 0)))[0].text()
    assert "not two positive numbers" in wheel.check_layout(layout(("A", 1, -1)))[0].text()
    twice = wheel.check_layout(layout(("A", 1, 1), ("A", 2, 1)))
    assert twice[0].text() == "A is posted at two odds, 1:1 and 2:1: a symbol pays one."
    assert wheel.check_layout(layout(("A", 1, 1), ("A", 2, 2))) == []  # the same odds, written twice


def test_each_distinct_refusal_is_said_once_naming_its_symbol():
    # The walk's layout: a symbol at 0:1 on 24 segments was refused 24 times over.
    refusals = wheel.check_layout(layout(*[("Joker", 0, 1)] * 24, *[("A", 1, 1)] * 3, ("B", 0, 1), ("C", 9, 1)))
    assert [r.text() for r in refusals] == [
        "Joker pays 0:1, which is nothing: the odds must pay more than nothing.",
        "B pays 0:1, which is nothing: the odds must pay more than nothing.",
        "C pays 9:1: the pay-off odds cannot exceed 8 to 1.",
        "C would pay $45.00 on a $5.00 bet: no pay-off may exceed $40.00.",
    ]


def test_a_win_a_loss_and_no_spin():
    win = wheel.payout(SMALL, "B", 300, "B", 3)
    assert win == {
        "result": "win",
        "pays": "3:1",
        "winnings_cents": 900,
        "returned_cents": 1200,
        "net_cents": 900,
        "section": "Wheel of Fortune rules 4, 5, 8",
    }
    lose = wheel.payout(SMALL, "B", 300, "A", 7.5)
    assert (lose["result"], lose["net_cents"], lose["returned_cents"]) == ("lose", -300, 0)
    # Rule 8: fewer than three full revolutions is no spin; the bet is not settled (nothing paid,
    # taken or handed back: it stays on the layout), whatever it landed on.
    for revolutions in (0, 2, 2.99):
        no_spin = wheel.payout(SMALL, "B", 300, "B", revolutions)
        assert (no_spin["result"], no_spin["net_cents"], no_spin["returned_cents"]) == ("no_spin", 0, 0)
        assert no_spin["section"] == "Wheel of Fortune rule 8"
    assert wheel.payout(SMALL, "C", 100, "C", 3)["winnings_cents"] == 800
    assert not wheel.spin_counts(2.99) and wheel.spin_counts(3)


def test_a_pay_off_in_part_of_a_cent_pays_the_cent_below():
    assert wheel.payout(layout(("A", 3, 2)), "A", 101, "A", 3)["winnings_cents"] == 151


@pytest.mark.parametrize("bet, allowed", [(99, False), (100, True), (500, True), (501, False), (True, False)])
def test_payout_bets_at_the_limits(bet, allowed):
    if allowed:
        assert wheel.payout(SMALL, "A", bet, "A", 3)["result"] == "win"
    else:
        with pytest.raises(Refused) as refused:
            wheel.payout(SMALL, "A", bet, "A", 3)
        assert refused.value.refusal.section == "Wheel of Fortune rules 2, 3"


def test_payout_keeps_to_the_tables_own_limits():
    narrow = layout(("A", 1, 1), low=200, high=300)
    with pytest.raises(Refused) as refused:
        wheel.payout(narrow, "A", 100, "A", 3)
    assert refused.value.refusal.text() == "Bets at the wheel run from $2.00 to $3.00."


def test_payout_refuses_a_symbol_not_on_the_wheel_a_bad_layout_and_bad_revolutions():
    with pytest.raises(Refused) as refused:
        wheel.payout(SMALL, "Z", 100, "A", 3)
    assert refused.value.refusal.text() == "'Z' is not on this wheel: its symbols are A, B, C."
    for landed in ("Z", None, ["A"]):
        with pytest.raises(Refused):
            wheel.payout(SMALL, "A", 100, landed, 3)
    with pytest.raises(Refused):
        wheel.payout(layout(("A", 9, 1)), "A", 100, "A", 3)
    for revolutions in (-1, "3", None, True):
        with pytest.raises(Refused):
            wheel.payout(SMALL, "A", 100, "A", revolutions)


def test_house_advantage_each_segment_equally_likely():
    # A on 2 of 4 segments at 1 to 1: 0; B on 1 of 4 at 3 to 1: 0; C on 1 of 4 at 8 to 1: -5/4.
    assert wheel.house_advantages(SMALL) == {"A": 0, "B": 0, "C": Fraction(-5, 4)}
    assert wheel.house_advantage(SMALL) == Fraction(-5, 4)
    with pytest.raises(Refused):
        wheel.house_advantage(layout())


def test_the_game_declares_the_seeds_limits_and_its_french_name():
    game = wheel.GAME
    assert game.name("fr-ca") == "Roue de la fortune"  # seed 000
    assert (game.min_bet_cents, game.max_bet_cents, game.max_payout_odds, game.max_payout_cents) == (
        100,
        500,
        (8, 1),
        4000,
    )
    assert game.check_payout(500, 4000) is None
    assert game.check_payout(100, 900).section == "Wheel of Fortune rules 4, 5"
    assert game.check_payout(600, 4800).text() == "A pay-off is at most $40.00."
    assert game.rules[-1] == "Wheel of Fortune rule 8"
