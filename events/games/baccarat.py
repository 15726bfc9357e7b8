"""Baccarat and mini-baccarat, drawn by the Québec By-law respecting casino games, s. 37 (seed 003)."""

from .base import Game

GAME = Game(
    code="baccarat",
    name_en="Baccarat",
    name_fr="Baccara",  # glossary; s. 37 of the Québec by-law (seed 002) names the hands, not the game
    # The event's posted limits follow the Ontario T&C table limits (seed 001).
    min_bet_cents=100,
    max_bet_cents=500,
    # Player and banker bets pay even money; a tie bet pays 8 to 1.
    max_payout_odds=(8, 1),
    max_payout_cents=None,
    rules="S-13.1, r. 3, s. 37",
)


def player_draws(player_total: int) -> bool:
    """s. 37: the player's hand hits on 0 to 5 and stands on 6 or 7 (8 and 9 are naturals)."""
    return player_total <= 5


# s. 37, banker's table: for a banker total of 3 to 6, the player's third cards (0-9) on which
# the banker stands.
_BANKER_STANDS_ON = {3: {8}, 4: {0, 1, 8, 9}, 5: {0, 1, 2, 3, 8, 9}, 6: {0, 1, 2, 3, 4, 5, 8, 9}}


def banker_draws(banker_total: int, player_third_card: int | None) -> bool:
    """s. 37: whether the banker's hand takes a third card."""
    if banker_total >= 7:
        return False
    if player_third_card is None:
        return banker_total <= 5
    if banker_total <= 2:
        return True
    return player_third_card not in _BANKER_STANDS_ON[banker_total]
