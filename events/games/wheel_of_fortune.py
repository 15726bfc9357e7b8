"""Wheel of Fortune, as the Ontario Fair or Exhibition rules set it (seed 001, Wheel of Fortune)."""

from .base import Game

GAME = Game(
    code="wheel_of_fortune",
    name_en="Wheel of Fortune",
    name_fr="Roue de la fortune",  # seed 000: « roue de la fortune »
    # Wheel rules 2 and 3: bets from $1 to $5.
    min_bet_cents=100,
    max_bet_cents=500,
    # Wheel rules 4 and 5: pay-off at most 8 to 1 and never more than $40.
    max_payout_odds=(8, 1),
    max_payout_cents=4000,
    rules="Wheel of Fortune rules 2 to 5",
)

# Wheel rule 8: fewer revolutions is no spin.
MIN_REVOLUTIONS = 3


def spin_counts(revolutions: float) -> bool:
    return revolutions >= MIN_REVOLUTIONS
