"""The game modules: one per game, registered here.

A game is its declaration (base.Game, the module's GAME): its names, betting limits and payoffs,
the settings its licence enters, its bets and their house advantage, the DRIC's calculator its
page offers (a kind, by name: events.calculator_kinds), whether each of its tables sets a wheel
layout, its poster's notes and tables, its rules of play and how the sections it cites are named.
The pages, the posters and the services loop over the declarations and name no game
(tests/test_game_declaration.py checks it). So a new game touches two files:

- events/games/<code>.py: its module, the rules it applies and its declaration, GAME;
- events/games/__init__.py: its registration, the module added to REGISTRY below.

Its rules of play are part of its declaration (Game.rules_text): written in its module, or, long
like the seeds' copied here, in rules_text/<code>.<language>.txt, which its module reads. Its
English words are marked N_ and need their French in the catalogue (make messages), as every
string does. A calculator that settles like none of the kinds there is a new kind, not a new game.

Pure Python: nothing here imports an app or queries the database.
"""

from . import baccarat, blackjack, craps, wheel_of_fortune
from .base import (
    Bet,
    Game,
    HouseRemedy,
    Payoff,
    Refusal,
    Refused,
    Setting,
    SimulatedHouse,
    TableDay,
    WinFigures,
    cite_section,
)

REGISTRY: dict[str, Game] = {module.GAME.code: module.GAME for module in (blackjack, wheel_of_fortune, baccarat, craps)}


def get_game(code: str) -> Game:
    try:
        return REGISTRY[code]
    except KeyError:
        raise KeyError(f"no game module {code!r}; known: {', '.join(sorted(REGISTRY))}") from None


def choices() -> list[tuple[str, str]]:
    return [(game.code, game.name_en) for game in REGISTRY.values()]


__all__ = [
    "REGISTRY",
    "Bet",
    "Game",
    "HouseRemedy",
    "Payoff",
    "Refusal",
    "Refused",
    "Setting",
    "SimulatedHouse",
    "TableDay",
    "WinFigures",
    "choices",
    "cite_section",
    "get_game",
]
