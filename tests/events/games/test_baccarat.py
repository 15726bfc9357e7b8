"""Baccarat by s. 37 (seeds 003 and 002), checked against the section's own tables, copied below
from the seeds and read here independently of events.games.baccarat.

Exhaustive in two ways: every combination of ranks for the four first cards (13⁴ openings, the
third cards going round every pair of values as the openings go by), and every combination of the two hands'
first totals (0-9 × 0-9) with every value of the player's and the banker's third card (0-9 × 0-9),
so every row and column of both tables is met. A card's rank matters to s. 37 only through its
points (0 for 10, J, Q, K), so the third cards are taken by value class, each class dealt with
every rank it holds in turn.
"""

from fractions import Fraction
from itertools import product

import pytest

from events.games import baccarat
from events.games.base import Refused

# The banker's table of s. 37, as seed 003 prints it (English) and seed 002 (French): the row is
# the banker's first two cards' total; the first column is "the player does not take a 3rd card",
# then the value of the player's third card 0 to 9. Rows 0-2 "HIT A 3rd CARD", 7 "STAND".
ENGLISH_TABLE = """
| 3 | H | H| H| H| H| H| H| H| H| S| H|
| 4 | H | S| S| H| H| H| H| H| H| S| S|
| 5 | H | S| S| S| S| H| H| H| H| S| S|
| 6 | S | S| S| S| S| S| S| H| H| S| S|
"""
FRENCH_TABLE = """
| 3 | T | T| T| T| T| T| T| T| T| A| T|
| 4 | T | A| A| T| T| T| T| T| T| A| A|
| 5 | T | A| A| A| A| T| T| T| T| A| A|
| 6 | A | A| A| A| A| A| A| T| T| A| A|
"""


def read_table(text: str, hit: str) -> dict[int, list[bool]]:
    """{banker total: [draws when the player stood, draws on a third card of 0, 1, ... 9]}."""
    rows = {}
    for line in text.strip().splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[int(cells[0])] = [cell == hit for cell in cells[1:]]
    for total in (0, 1, 2):
        rows[total] = [True] * 11
    rows[7] = [False] * 11
    return rows


TABLE = read_table(ENGLISH_TABLE, "H")
POINTS = {"A": 1, **{str(n): n for n in range(2, 10)}, "10": 0, "J": 0, "Q": 0, "K": 0}
RANKS_BY_VALUE = {v: [r for r, p in POINTS.items() if p == v] for v in range(10)}


def test_the_english_and_french_tables_read_alike():
    assert read_table(FRENCH_TABLE, "T") == TABLE


def expected_coup(shoe):
    """s. 37 read from the tables above: cards 1 and 3 the player's, 2 and 4 the banker's."""
    player, banker, rest = [shoe[0], shoe[2]], [shoe[1], shoe[3]], list(shoe[4:])

    def points(cards):
        return sum(POINTS[c] for c in cards) % 10

    if points(player) not in (8, 9) and points(banker) not in (8, 9):
        third = None
        if points(player) <= 5:  # player's table: 0-5 hit a 3rd card, 6-7 stand
            player.append(rest.pop(0))
            third = POINTS[player[2]]
        if TABLE[points(banker)][0 if third is None else third + 1]:
            banker.append(rest.pop(0))
    p, b = points(player), points(banker)
    return {
        "player": player,
        "banker": banker,
        "player_total": p,
        "banker_total": b,
        "winner": "player" if p > b else "banker" if b > p else "tie",
    }


def test_every_opening_of_four_ranks():
    # The third cards go round every value pair and every rank of their class as openings go by.
    for index, four in enumerate(product(POINTS, repeat=4)):
        player_third, banker_third = index % 10, (index // 10) % 10
        shoe = [
            *four,
            RANKS_BY_VALUE[player_third][index % len(RANKS_BY_VALUE[player_third])],
            RANKS_BY_VALUE[banker_third][index % len(RANKS_BY_VALUE[banker_third])],
        ]
        assert baccarat.coup(shoe) == expected_coup(shoe), shoe
    assert index + 1 == 13**4


def test_every_pair_of_first_totals_with_every_pair_of_third_cards():
    seen = set()
    for p_total, b_total, p_third, b_third in product(range(10), repeat=4):
        # Two cards making each total: a zero-value card and the total, or a 10 and a 10.
        first = RANKS_BY_VALUE[p_total][(p_third + b_third) % len(RANKS_BY_VALUE[p_total])]
        second = RANKS_BY_VALUE[b_total][p_third % len(RANKS_BY_VALUE[b_total])]
        shoe = [first, second, "K", "Q", RANKS_BY_VALUE[p_third][0], RANKS_BY_VALUE[b_third][-1]]
        answer = baccarat.coup(shoe)
        assert answer == expected_coup(shoe)
        assert (answer["player"][:2], answer["banker"][:2]) == ([first, "K"], [second, "Q"])
        seen.add((p_total, b_total, len(answer["player"]) == 3, len(answer["banker"]) == 3))
    # Naturals stop the coup; otherwise the player draws on 0-5 only.
    assert {(p, b) for p, b, pd, bd in seen if pd} == {(p, b) for p in range(6) for b in range(8)}


@pytest.mark.parametrize(
    "shoe, player, banker, winner",
    [
        # A natural 8 for the banker stops the player's 3 from drawing (the example).
        (["A", "4", "2", "4", "9", "9"], ["A", "2"], ["4", "4"], "banker"),
        (["9", "K", "K", "5", "5", "5"], ["9", "K"], ["K", "5"], "player"),  # player's natural 9
        (["4", "K", "4", "8", "2", "2"], ["4", "4"], ["K", "8"], "tie"),  # 8 against 8
        # Player 5 draws a 7; banker 6 draws on a player's 6 or 7 (s. 37, row 6).
        (["2", "3", "3", "3", "7", "2"], ["2", "3", "7"], ["3", "3", "2"], "banker"),
        # Player 6 stands; the banker on 5 draws, on 6 stands (column "does not take a 3rd card").
        (["3", "2", "3", "3", "9", "9"], ["3", "3"], ["2", "3", "9"], "player"),
        (["3", "3", "3", "3", "A", "9"], ["3", "3"], ["3", "3"], "tie"),
        # Banker 3 stands only on a player's third card of 8.
        (["A", "A", "K", "2", "8", "5"], ["A", "K", "8"], ["A", "2"], "player"),
        (["A", "A", "K", "2", "9", "5"], ["A", "K", "9"], ["A", "2", "5"], "banker"),
    ],
)
def test_worked_coups(shoe, player, banker, winner):
    answer = baccarat.coup(shoe)
    assert (answer["player"], answer["banker"], answer["winner"]) == (player, banker, winner)
    assert set(answer) == {"player", "banker", "player_total", "banker_total", "winner"}


def test_cards_after_the_coup_are_not_read_and_lowercase_ranks_are_read():
    assert baccarat.coup(["9", "k", "q", "5", "x"][:4])["winner"] == "player"
    assert baccarat.coup(["9", "K", "Q", "5", "2", "3", "4"])["player"] == ["9", "Q"]


@pytest.mark.parametrize(
    "shoe, needed",
    [
        ([], 4),
        (["A", "2", "3"], 4),
        (["A", "A", "K", "K"], 5),  # player 1 draws
        (["A", "A", "K", "K", "2"], 6),  # banker 1 draws
    ],
)
def test_a_short_shoe_is_refused(shoe, needed):
    with pytest.raises(Refused) as refused:
        baccarat.coup(shoe)
    refusal = refused.value.refusal
    assert refusal.section == "S-13.1, r. 3, s. 37"
    assert refusal.params == {"needed": needed, "given": len(shoe)}
    assert refusal.text() == f"The coup needs at least {needed} cards; {len(shoe)} were given."


@pytest.mark.parametrize("card", ["1", "11", "T", "", 10, None, "Joker"])
def test_a_card_that_is_not_a_rank_is_refused(card):
    with pytest.raises(Refused) as refused:
        baccarat.coup(["A", "2", "3", card, "5", "6"])
    assert "is not a card" in refused.value.refusal.text()
    assert isinstance(refused.value, ValueError)


def test_a_string_is_not_a_shoe():
    with pytest.raises(Refused):
        baccarat.coup("A23456")


def test_outcome_probabilities_by_enumerating_the_tables():
    # Enumerate totals rather than cards: first totals with their chance, then the thirds.
    weight = {v: Fraction(4 if v == 0 else 1, 13) for v in range(10)}
    two = {t: Fraction(0) for t in range(10)}
    for a, b in product(range(10), repeat=2):
        two[(a + b) % 10] += weight[a] * weight[b]
    out = {"player": Fraction(0), "banker": Fraction(0), "tie": Fraction(0)}
    for p, b, p3, b3 in product(range(10), repeat=4):
        shoe = [RANKS_BY_VALUE[p][0], RANKS_BY_VALUE[b][0], "K", "K", RANKS_BY_VALUE[p3][0], RANKS_BY_VALUE[b3][0]]
        answer = expected_coup(shoe)
        cards = len(answer["player"]) + len(answer["banker"])
        # A third card not read counts once: weight it 1/10 of the time over the ten values looped.
        w3 = weight[p3] if cards >= 5 else Fraction(1, 10)
        w4 = weight[b3] if cards == 6 else Fraction(1, 10)
        if cards == 5 and len(answer["banker"]) == 3:  # the player stood, the banker drew the 5th
            w3, w4 = weight[p3], Fraction(1, 10)
        out[answer["winner"]] += two[p] * two[b] * w3 * w4
    assert baccarat.outcome_probabilities() == out
    assert sum(out.values()) == 1


def test_house_advantage_is_exact_and_takes_the_licence_payouts():
    typical = baccarat.house_advantage()
    assert set(typical) == {"player", "banker", "tie"}
    assert all(isinstance(v, Fraction) for v in typical.values())
    # The figures every baccarat table knows, for the infinite deck: 1.23%, 1.06%, 14.1%.
    assert round(float(typical["player"]), 4) == 0.0123
    assert round(float(typical["banker"]), 4) == 0.0106
    assert round(float(typical["tie"]), 3) == 0.141
    odds = baccarat.outcome_probabilities()
    assert baccarat.house_advantage(tie_pays=(9, 1))["tie"] == 1 - 10 * odds["tie"]
    assert baccarat.house_advantage(banker_commission=Fraction(0))["banker"] == odds["player"] - odds["banker"]
    with pytest.raises(ValueError):
        baccarat.house_advantage(tie_pays=(0, 1))
    with pytest.raises(ValueError):
        baccarat.house_advantage(banker_commission=Fraction(1))


def test_the_game_declares_the_settings_no_seed_states():
    game = baccarat.GAME
    assert game.limits is None and game.rules == ("S-13.1, r. 3, s. 37",)
    assert game.setting_names == ("limits", "player_pays", "banker_pays", "banker_commission", "tie_pays", "decks")
    assert game.typical_settings()["tie_pays"] == (8, 1)
    with pytest.raises(ValueError, match="limits"):
        game.check_bet(100)
    assert game.check_bet(100, limits=(100, 2500)) is None
    assert game.check_bet(2600, limits=(100, 2500)).params == {"minimum": 100, "maximum": 2500}


def test_house_advantage_of_an_eight_deck_shoe_without_replacement():
    # The figures published for the first coup of an eight-deck shoe: 1.2351%, 1.0579%, 14.3596%.
    odds = baccarat.outcome_probabilities(8)
    assert sum(odds.values()) == 1
    assert round(float(odds["banker"]), 6) == 0.458597 and round(float(odds["tie"]), 6) == 0.095156
    eight = baccarat.house_advantage(decks=8)
    assert [round(float(eight[bet]) * 100, 4) for bet in ("player", "banker", "tie")] == [1.2351, 1.0579, 14.3596]
    # Fewer decks, further from the infinite deck.
    infinite, one = baccarat.house_advantage(), baccarat.house_advantage(decks=1)
    assert abs(one["tie"] - infinite["tie"]) > abs(eight["tie"] - infinite["tie"])
    with pytest.raises(ValueError):
        baccarat.outcome_probabilities(0)


def test_explain_says_what_stopped_or_drew():
    natural = baccarat.explain(["A", "4", "2", "4", "9", "9"])
    assert (natural["natural"], natural["player_drew"], natural["banker_drew"]) == (True, False, False)
    drawn = baccarat.explain(["2", "3", "3", "3", "7", "2"])
    assert (drawn["natural"], drawn["player_drew"], drawn["banker_drew"]) == (False, True, True)
    assert drawn["section"] == "S-13.1, r. 3, s. 37" and drawn["winner"] == "banker"


# --- settling the bets at the licence's payouts (s. 37 states none; a tie pushes player and banker)

PAYS = {"player_pays": (1, 1), "banker_pays": (1, 1), "tie_pays": (8, 1), "banker_commission": Fraction(5, 100)}


@pytest.mark.parametrize(
    "bet, winner, result, net, returned",
    [
        ("player", "player", "win", 500, 1000),
        ("player", "banker", "lose", -500, 0),
        ("player", "tie", "push", 0, 500),  # the reading taken: returned on a tie
        ("banker", "banker", "win", 475, 975),  # $5.00 less the 5% commission, $0.25
        ("banker", "player", "lose", -500, 0),
        ("banker", "tie", "push", 0, 500),
        ("tie", "tie", "win", 4000, 4500),
        ("tie", "player", "lose", -500, 0),
        ("tie", "banker", "lose", -500, 0),
    ],
)
def test_each_bet_against_each_winner(bet, winner, result, net, returned):
    settled = baccarat.settle_bet(bet, winner, 500, **PAYS)
    assert (settled["result"], settled["net_cents"], settled["returned_cents"]) == (result, net, returned)
    assert settled["section"] == "S-13.1, r. 3, s. 37"


def test_the_commission_leaves_no_fraction_of_a_cent_paid():
    # $2.50 on the banker at 5%: winnings 250, commission 12.5 cents; 237 cents are paid, 13 kept.
    settled = baccarat.settle_bet("banker", "banker", 250, **PAYS)
    assert (settled["winnings_cents"], settled["commission_cents"], settled["net_cents"]) == (250, 13, 237)
    assert settled["pays"] == "1:1"


def test_a_bet_or_winner_that_is_not_one_of_the_three_is_refused():
    with pytest.raises(ValueError):
        baccarat.settle_bet("dragon", "tie", 100, **PAYS)
    with pytest.raises(ValueError):
        baccarat.settle_bet("tie", "nobody", 100, **PAYS)
