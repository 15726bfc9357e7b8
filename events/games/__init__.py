"""The game modules: one per game, registered here. Adding a game is one module and one line.

Pure Python: nothing here imports an app or queries the database.
"""

from . import baccarat, blackjack, craps, wheel_of_fortune
from .base import Game, Refusal, Refused, Setting, TableDay, WinFigures, cite_section

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
    "Game",
    "Refusal",
    "Refused",
    "Setting",
    "TableDay",
    "WinFigures",
    "choices",
    "cite_section",
    "get_game",
]
