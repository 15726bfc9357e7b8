"""Craps even-money bets, by the Québec By-law respecting casino games, s. 95.14 (seed 004)."""

from .base import Game

GAME = Game(
    code="craps",
    name_en="Craps",
    name_fr="Craps",
    min_bet_cents=100,
    max_bet_cents=500,
    # s. 95.14 5°: the field pays 2 to 1 on 2 or 12, every other bet even money.
    max_payout_odds=(2, 1),
    max_payout_cents=None,
    rules="S-13.1, r. 3, s. 95.14",
)


def come_out(total: int, dont: bool = False) -> str:
    """s. 95.14 1° and 2°: a pass (or don't pass) bet on the first roll: win, lose, push or point."""
    if not dont:
        if total in (7, 11):
            return "win"
        if total in (2, 3, 12):
            return "lose"
        return "point"
    if total in (2, 3):
        return "win"
    if total in (7, 11):
        return "lose"
    if total == 12:
        return "push"
    return "point"


def field_pays(total: int) -> int:
    """s. 95.14 5°: what a winning field bet pays per unit staked; 0 when it loses."""
    if total in (2, 12):
        return 2
    if total in (3, 4, 9, 10, 11):
        return 1
    return 0
