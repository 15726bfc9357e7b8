"""Baccarat and mini-baccarat, dealt by the Québec By-law respecting casino games, s. 37 (seed 003,
French seed 002).

Section 37 states only how a coup is dealt: which cards make each hand, that a natural (8 or 9 in
the first two cards) stops the coup, and the player's and the banker's drawing tables. It states
no betting limits, no payout and no commission: those figures are settings of the licence's game,
entered by the administrator and posted (T&C 3.5), and the functions here take them as arguments.

What a tie does to the player and banker bets: s. 37 is silent (it says how the coup is dealt, not
how bets are settled). The reading taken here, in `settle_bet` and in `house_advantage`, is that a
tie is a push for them: the player and banker bets are returned, neither won nor lost, as the
game is dealt wherever baccarat is played; only the tie bet wins on a tie. The DRIC's calculators page
says so (events.calculators.TIE_READING).
"""

from fractions import Fraction
from functools import cache, lru_cache
from itertools import product

from .base import (
    N_,
    QUEBEC_SECTION_NAMES,
    Bet,
    Game,
    HouseRemedy,
    Payoff,
    Refusal,
    Refused,
    Setting,
    check_odds,
    odds_text,
    rules_text_of,
    winnings,
)

SECTION = "S-13.1, r. 3, s. 37"


class Baccarat(Game):
    def payoffs(self, figures: dict) -> tuple[Payoff, ...]:
        """The licence's payouts, those entered so far. s. 37 is silent on what a tie does to the
        player and banker bets: the reading taken (settle_bet) is posted with the tie's payout, so a
        patron reads at the table what the DRIC will rule."""
        lines = []
        if "player_pays" in figures:
            lines.append(Payoff(N_("Player"), figures["player_pays"]))
        if "banker_pays" in figures:
            lines.append(Payoff(N_("Banker"), figures["banker_pays"], commission=figures.get("banker_commission")))
        if "tie_pays" in figures:
            lines.append(Payoff(N_("Tie"), figures["tie_pays"]))
            lines.append(
                Payoff(N_("Player or banker, on a tie"), section=SECTION, words=N_("returned: neither won nor lost"))
            )
        return tuple(lines)

    def house_advantages(self, figures: dict, layout: dict | None = None) -> dict:
        return house_from_settings(figures)


GAME = Baccarat(
    code="baccarat",
    name_en="Baccarat",
    name_fr="Baccara",  # glossary; s. 37 of the Québec by-law (seed 002) names the hands, not the game
    limits=None,
    max_payout_odds=None,
    max_payout_cents=None,
    rules=(SECTION,),
    rules_of="quebec",
    settings=(
        Setting("limits", N_("Betting limits"), "limits", (100, 500)),
        Setting("player_pays", N_("A winning player bet pays"), "odds", (1, 1)),
        Setting("banker_pays", N_("A winning banker bet pays"), "odds", (1, 1)),
        Setting("banker_commission", N_("Commission on a winning banker bet"), "fraction", Fraction(5, 100)),
        Setting("tie_pays", N_("A winning tie bet pays"), "odds", (8, 1)),
        # Only the house advantage reads it: s. 37 deals a coup alike from any shoe.
        Setting("decks", N_("Decks in the shoe"), "count", 8),
    ),
    bets=(
        Bet("player", N_("Player"), N_("the player bet")),
        Bet("banker", N_("Banker"), N_("the banker bet")),
        Bet("tie", N_("Tie"), N_("the tie bet")),
    ),
    calculator="coup",
    poster_tables=("drawing_tables",),
    rules_text=rules_text_of("baccarat"),
    section_names=QUEBEC_SECTION_NAMES,
    # No commission lets the banker bet, winning more often, pay back more than it takes in.
    house_remedy=HouseRemedy(
        N_("Raise the banker's commission or lower the payouts of those bets."),
        (("banker", "banker_commission"), ("player", "player_pays"), ("tie", "tie_pays")),
    ),
)

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def value(rank: str) -> int:
    """A card's points: an ace 1, two to nine their face, tens and faces 0 (a hand counts its
    points modulo 10, as the s. 37 tables count totals from 0 to 9)."""
    if rank == "A":
        return 1
    if rank in ("10", "J", "Q", "K"):
        return 0
    return int(rank)


def total(cards: list[str]) -> int:
    return sum(value(card) for card in cards) % 10


def player_draws(player_total: int) -> bool:
    """s. 37, player's table: the player's hand hits on 0 to 5 and stands on 6 or 7. A natural (8
    or 9, in either hand) stops the coup before this table is read: see `coup`."""
    return player_total <= 5


# s. 37, banker's table: for a banker total of 3 to 6, the values of the player's third card (0-9)
# on which the banker stands ("S"/"A" in the table).
_BANKER_STANDS_ON = {3: {8}, 4: {0, 1, 8, 9}, 5: {0, 1, 2, 3, 8, 9}, 6: {0, 1, 2, 3, 4, 5, 8, 9}}


def banker_draws(banker_total: int, player_third_card: int | None) -> bool:
    """s. 37, banker's table: whether the banker's hand takes a third card, given the value of the
    player's third card (None when the player stood). 0-2 always hit; 7 stands; 3-6 by the table;
    when the player stood, the banker hits on 0-5 and stands on 6."""
    if banker_total >= 7:
        return False
    if player_third_card is None:
        return banker_total <= 5
    if banker_total <= 2:
        return True
    return player_third_card not in _BANKER_STANDS_ON[banker_total]


def _ranks(shoe) -> list[str]:
    if isinstance(shoe, str) or not hasattr(shoe, "__iter__"):
        raise Refused(Refusal(N_("The cards are a list of ranks, as they left the shoe."), {}, SECTION))
    ranks = []
    for card in shoe:
        rank = str(card).strip().upper() if isinstance(card, str) else None
        if rank not in RANKS:
            raise Refused(
                Refusal(
                    N_("%(card)s is not a card: ranks are A, 2 to 10, J, Q and K."),
                    {"card": repr(card)},
                    SECTION,
                )
            )
        ranks.append(rank)
    return ranks


def coup(shoe: list[str]) -> dict:
    """One coup, dealt by s. 37 from the cards in the order they left the shoe.

    Cards 1 and 3 are the player's, 2 and 4 the banker's. If either hand totals 8 or 9 it is a
    natural and no further card is dealt. Otherwise the player draws by the player's table, then
    the banker by the banker's table (which reads the value of the player's third card). Cards
    after those the coup uses are not read.

    Returns {"player": [...], "banker": [...], "player_total", "banker_total", "winner"} with
    winner "player", "banker" or "tie". Raises Refused for a card that is not a rank, or for too
    few cards to finish the coup.
    """
    cards = _ranks(shoe)
    position = 4

    def deal() -> str:
        nonlocal position
        if position >= len(cards):
            raise Refused(
                Refusal(
                    N_("The coup needs at least %(needed)s cards; %(given)s were given."),
                    {"needed": position + 1, "given": len(cards)},
                    SECTION,
                )
            )
        position += 1
        return cards[position - 1]

    if len(cards) < 4:
        raise Refused(
            Refusal(
                N_("The coup needs at least %(needed)s cards; %(given)s were given."),
                {"needed": 4, "given": len(cards)},
                SECTION,
            )
        )
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    if total(player) < 8 and total(banker) < 8:
        third = None
        if player_draws(total(player)):
            player.append(deal())
            third = value(player[2])
        if banker_draws(total(banker), third):
            banker.append(deal())
    player_total, banker_total = total(player), total(banker)
    if player_total > banker_total:
        winner = "player"
    elif banker_total > player_total:
        winner = "banker"
    else:
        winner = "tie"
    return {
        "player": player,
        "banker": banker,
        "player_total": player_total,
        "banker_total": banker_total,
        "winner": winner,
    }


def explain(shoe: list[str]) -> dict:
    """`coup(shoe)` with what the DRIC reads out: "natural" (either hand 8 or 9 in two cards, which
    stops the coup), "player_drew", "banker_drew", and "section" (s. 37)."""
    answer = coup(shoe)
    natural = total(answer["player"][:2]) >= 8 or total(answer["banker"][:2]) >= 8
    return {
        **answer,
        "natural": natural,
        "player_drew": len(answer["player"]) == 3,
        "banker_drew": len(answer["banker"]) == 3,
        "section": SECTION,
    }


BETS = ("player", "banker", "tie")


def settle_bet(
    bet: str,
    winner: str,
    stake_cents: int,
    *,
    player_pays: tuple[int, int],
    banker_pays: tuple[int, int],
    tie_pays: tuple[int, int],
    banker_commission: Fraction,
) -> dict:
    """What a `bet` ("player", "banker" or "tie") of `stake_cents` comes to once the coup's
    `winner` is known, at the licence's payouts (s. 37 states none). A winning banker bet pays its
    winnings less the commission on them; a fraction of a cent is not paid. On a tie the player
    and banker bets are returned (a push: the reading this module takes, s. 37 being silent).

    Returns {"result": "win" | "lose" | "push", "pays": "8:1" or None, "winnings_cents" (before
    the commission), "commission_cents", "returned_cents" (what goes back to the player, stake
    and net winnings), "net_cents" (the player's gain or loss), "section"}."""
    if bet not in BETS:
        raise ValueError(f"bet is one of {', '.join(BETS)}")
    if winner not in BETS:
        raise ValueError(f"winner is one of {', '.join(BETS)}")
    odds = {"player": check_odds(player_pays), "banker": check_odds(banker_pays), "tie": check_odds(tie_pays)}
    commission = Fraction(banker_commission)
    if bet == winner:
        won = winnings(stake_cents, odds[bet])
        paid = int(won * (1 - commission)) if bet == "banker" else won
        result, pays = "win", odds_text(odds[bet])
        commission_cents, net = won - paid, paid
    elif winner == "tie":
        result, pays, won, commission_cents, net = "push", None, 0, 0, 0
    else:
        result, pays, won, commission_cents, net = "lose", None, 0, 0, -stake_cents
    return {
        "result": result,
        "pays": pays,
        "winnings_cents": won,
        "commission_cents": commission_cents,
        "returned_cents": stake_cents + net if result != "lose" else 0,
        "net_cents": net,
        "section": SECTION,
    }


# The infinite-deck model: each card is any of the 13 ranks with probability 1/13, whatever was
# dealt before (a shoe of many decks, drawn with replacement). Point values: 0 four ranks in 13
# (10, J, Q, K), 1 to 9 one rank each.
_VALUE_WEIGHTS = {0: Fraction(4, 13), **{v: Fraction(1, 13) for v in range(1, 10)}}


def outcome_probabilities(decks: int | None = None) -> dict[str, Fraction]:
    """The exact probabilities of "player", "banker" and "tie" by s. 37, enumerating every value of
    the four first cards and of the third cards. `decks` None: the infinite-deck model (each card
    any rank, 1 in 13); a number: a freshly shuffled shoe of that many decks, dealt without
    replacement (the first coup of the shoe)."""
    if decks is not None:
        return _shoe_probabilities(decks)
    results = {"player": Fraction(0), "banker": Fraction(0), "tie": Fraction(0)}
    # Each hand's two-card total, with its probability.
    two_card = {t: Fraction(0) for t in range(10)}
    for a, b in product(range(10), repeat=2):
        two_card[(a + b) % 10] += _VALUE_WEIGHTS[a] * _VALUE_WEIGHTS[b]
    for p, b in product(range(10), repeat=2):
        weight = two_card[p] * two_card[b]
        if p >= 8 or b >= 8 or not player_draws(p):
            thirds = [(None, Fraction(1))]
        else:
            thirds = list(_VALUE_WEIGHTS.items())
        for third, w3 in thirds:
            final_p = p if third is None else (p + third) % 10
            natural = p >= 8 or b >= 8
            if not natural and banker_draws(b, third):
                for card, w4 in _VALUE_WEIGHTS.items():
                    _add(results, final_p, (b + card) % 10, weight * w3 * w4)
            else:
                _add(results, final_p, b, weight * w3)
    return results


@cache
def _shoe_probabilities(decks: int) -> dict[str, Fraction]:
    """Every sequence of card values a coup can take from a shoe of `decks` decks, each weighted
    by its exact chance without replacement, in whole numbers over N(N-1)...(N-5)."""
    if not isinstance(decks, int) or isinstance(decks, bool) or decks < 1:
        raise ValueError("decks is a whole number of at least 1")
    size = 52 * decks
    in_shoe = [16 * decks] + [4 * decks] * 9  # value 0: tens and faces
    results = {"player": 0, "banker": 0, "tie": 0}
    tail = {4: (size - 4) * (size - 5), 5: size - 5, 6: 1}  # to bring every weight over 6 cards

    def add(weight, cards, player_total, banker_total):
        key = "player" if player_total > banker_total else "banker" if banker_total > player_total else "tie"
        results[key] += weight * tail[cards]

    for four in product(range(10), repeat=4):
        left = in_shoe[:]
        weight = 1  # the numerator of drawing these values in this order
        for v in four:
            weight *= left[v]
            left[v] -= 1
        p, b = (four[0] + four[2]) % 10, (four[1] + four[3]) % 10
        if p >= 8 or b >= 8 or (not player_draws(p) and not banker_draws(b, None)):
            add(weight, 4, p, b)
        elif not player_draws(p):
            for b3 in range(10):
                add(weight * left[b3], 5, p, (b + b3) % 10)
        else:
            for p3 in range(10):
                w5, p_final = weight * left[p3], (p + p3) % 10
                if banker_draws(b, p3):
                    left[p3] -= 1
                    for b3 in range(10):
                        add(w5 * left[b3], 6, p_final, (b + b3) % 10)
                    left[p3] += 1
                else:
                    add(w5, 5, p_final, b)
    denominator = size * (size - 1) * (size - 2) * (size - 3) * (size - 4) * (size - 5)
    return {key: Fraction(value, denominator) for key, value in results.items()}


def _add(results, player_total, banker_total, weight):
    key = "player" if player_total > banker_total else "banker" if banker_total > player_total else "tie"
    results[key] += weight


def house_advantage(
    tie_pays: tuple[int, int] = (8, 1),
    banker_commission: Fraction = Fraction(5, 100),
    player_pays: tuple[int, int] = (1, 1),
    banker_pays: tuple[int, int] = (1, 1),
    decks: int | None = None,
) -> dict[str, Fraction]:
    """The house's advantage on each bet ("player", "banker", "tie"), as a fraction of the stake,
    exact, by `outcome_probabilities(decks)`: the infinite-deck model by default, or the first
    coup of a shoe of `decks` decks dealt without replacement (8 for the usual shoe). The payouts are the licence's settings
    (s. 37 states none): the defaults are only the typical ones. The banker's commission is taken
    from a winning banker bet's winnings. Player and banker bets are returned on a tie."""
    to_t, per_t = check_odds(tie_pays, "tie_pays")
    to_p, per_p = check_odds(player_pays, "player_pays")
    to_b, per_b = check_odds(banker_pays, "banker_pays")
    commission = Fraction(banker_commission)
    if not 0 <= commission < 1:
        raise ValueError("banker_commission is a fraction from 0 to less than 1")
    odds = outcome_probabilities(decks)
    player = odds["player"] * Fraction(to_p, per_p) - odds["banker"]
    banker = odds["banker"] * Fraction(to_b, per_b) * (1 - commission) - odds["player"]
    tie = odds["tie"] * Fraction(to_t, per_t) - (1 - odds["tie"])
    return {"player": -player, "banker": -banker, "tie": -tie}


# The settings the house advantage reads, as events.game_rules.figures gives them or as the
# settings service stores them (odds as lists, the commission as the text of a fraction).
HOUSE_FIGURES = ("tie_pays", "banker_commission", "player_pays", "banker_pays", "decks")


def house_from_settings(figures: dict) -> dict[str, Fraction]:
    """`house_advantage` under the licence's settings; empty while one of them is missing."""
    if not all(name in figures for name in HOUSE_FIGURES):
        return {}
    tie, commission, player, banker, decks = (figures[name] for name in HOUSE_FIGURES)
    return _house_at(tuple(tie), Fraction(commission), tuple(player), tuple(banker), int(decks))


@lru_cache(maxsize=16)
def _house_at(tie_pays, banker_commission, player_pays, banker_pays, decks) -> dict:
    # Exact, but an enumeration of a whole shoe: worked out once per set of figures.
    return house_advantage(
        tie_pays=tie_pays,
        banker_commission=banker_commission,
        player_pays=player_pays,
        banker_pays=banker_pays,
        decks=decks,
    )
