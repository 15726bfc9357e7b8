"""Blackjack, as the Ontario Fair or Exhibition rules of play set it (seed 001, Blackjack)."""

from .base import Game

GAME = Game(
    code="blackjack",
    name_en="Blackjack",
    name_fr="Blackjack",
    # Blackjack rule 1.1 and 1.2: bets from $1 to $5.
    min_bet_cents=100,
    max_bet_cents=500,
    # Rule 3.5: winning wagers at 1 to 1, a blackjack at 3 to 2; insurance 2 to 1 (7.3).
    max_payout_odds=(2, 1),
    max_payout_cents=None,
    rules="Blackjack rules 1 and 3.5",
)


def hand_total(cards: list[int]) -> int:
    """A hand's score (rule 2.3): faces count 10, an ace 11 unless that takes the hand over 21."""
    total = sum(min(card, 10) if card != 1 else 11 for card in cards)
    aces = cards.count(1)
    while total > 21 and aces:
        total -= 10
        aces -= 1
    return total


def dealer_draws(cards: list[int]) -> bool:
    """Rule 10.2: the dealer draws on 16 and soft 17 or below, stands on hard 17 or more."""
    total = hand_total(cards)
    soft = 1 in cards and sum(min(card, 10) for card in cards) + 10 == total
    return total < 17 or (total == 17 and soft)
