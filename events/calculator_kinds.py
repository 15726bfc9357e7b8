"""The kinds of dispute calculator the calculators page offers (T&C 1.7), by the name a game's
declaration gives (events.games.base.Game.calculator): the template of its fields, what they show,
how it answers (events.calculators) and the table its answer lays out.

The page loops over the licence's games and gives each the kind its declaration names; a game
that names none is shown with its house advantage and no calculator. A new kind of calculator is
one entry in CALCULATORS, its answer in events.calculators and its templates under
templates/events/calculators/; a game that settles like one already here only names it.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.http import QueryDict
from django.utils.translation import gettext as _

from . import calculators as calc
from . import game_rules, wheel_layouts
from .games import get_game
from .models import Event, GameTable


@dataclass(frozen=True)
class Asked:
    """What a calculator is handed: the event, the game, what was typed in its fields (empty
    unless it is the calculator asked), and the game's tables at the event with the one chosen
    (a wheel's: its layout decides what it pays)."""

    event: Event
    code: str
    query: QueryDict | dict
    tables: list[GameTable] = field(default_factory=list)
    chosen: GameTable | None = None


@dataclass(frozen=True)
class Kind:
    """One kind of calculator. `answer` settles what was typed (a calc.Answer, or its refusal);
    `fields` is what its template shows (choices, what was typed); `rows_template` lays out the
    answer's table, after the workings when `rows_after_lines`, else before them."""

    template: str
    answer: Callable[[Asked], calc.Answer]
    fields: Callable[[Asked], dict] = lambda asked: {}
    rows_template: str = ""
    rows_after_lines: bool = False


def _coup_fields(asked: Asked) -> dict:
    return {"tie_reading": calc.TIE_READING}


def _rolls_fields(asked: Asked) -> dict:
    return {
        "bets": [
            (code, code.replace("_", "-"), label, asked.query.get(f"{code}_wager", ""))
            for code, label in calc.CRAPS_BETS.items()
        ],
        "headers": calc.craps_headers(asked.query),
    }


def _round_fields(asked: Asked) -> dict:
    reading = get_game(asked.code).reading_note
    return {
        "reading": _(reading) if reading else "",
        # The hands, with what was typed in them (shown again with the answer).
        "hands": [
            {
                "n": n,
                **{
                    name: asked.query.get(f"h{n}_{name}", "")
                    for name in ("cards", "wager", "action", "insurance", "seat")
                },
            }
            for n in range(1, calc.HANDS + 1)
        ],
    }


def _spin_fields(asked: Asked) -> dict:
    chosen = asked.chosen
    return {
        "wheels": [
            {
                "code": t.code,
                "symbols": [game_rules.symbol_text(symbol) for symbol in wheel_layouts.symbols(t.wheel_layout)],
                "selected": chosen and t.code == chosen.code,
            }
            for t in asked.tables
        ],
        "symbols": _wheel_symbols(asked.tables, chosen, asked.query),
    }


def _wheel_symbols(wheels, chosen, query) -> dict:
    """The choices of the wheel calculator's two symbols: every wheel's symbols, the chosen
    wheel's first, each once, as painted (the value) and in the reader's spelling (the label);
    with the one each field was given, found in either spelling."""
    painted = []
    for table in sorted(wheels, key=lambda t: t is not chosen):
        painted += [symbol for symbol in wheel_layouts.symbols(table.wheel_layout) if symbol not in painted]
    layout = chosen.wheel_layout if chosen else None
    return {
        "choices": [(symbol, game_rules.symbol_text(symbol)) for symbol in painted],
        **{name: wheel_layouts.find_symbol(layout, query.get(name, "").strip()) for name in ("bet_symbol", "landed")},
    }


CALCULATORS: dict[str, Kind] = {
    # The cards of a coup, in the order they left the shoe (s. 37), with a wager on each bet.
    "coup": Kind(
        "events/calculators/coup.html",
        lambda asked: calc.baccarat_coup(asked.query, figures=game_rules.figures(asked.event, asked.code)),
        _coup_fields,
        rows_template="events/calculators/coup_rows.html",
    ),
    # The totals of the dice, roll by roll (s. 95.14), with a wager on each bet.
    "rolls": Kind(
        "events/calculators/rolls.html",
        lambda asked: calc.craps_rolls(asked.query, limits=game_rules.limits(asked.event, asked.code)),
        _rolls_fields,
        rows_template="events/calculators/rolls_rows.html",
    ),
    # A round: the dealer's cards and each hand's.
    "round": Kind(
        "events/calculators/round.html",
        lambda asked: calc.blackjack_round(asked.query),
        _round_fields,
        rows_template="events/calculators/round_rows.html",
        rows_after_lines=True,
    ),
    # A spin of one of the event's wheels: the symbol bet on and the one it stopped on.
    "spin": Kind(
        "events/calculators/spin.html",
        lambda asked: calc.wheel_spin(asked.query, asked.tables),
        _spin_fields,
    ),
}
