"""A wheel of fortune's layout as the product stores, edits and shows it, checked by the rules.

Stored with each wheel table (GameTable.wheel_layout) as the game module writes it
(events.games.wheel_of_fortune.Layout.to_json(): its segments in wheel order, each with the symbol
painted on it and the odds a bet on that symbol pays, and the bet limits). Typed by the DRIC or
the administrator one segment a line, "symbol to:per" ("$5 5:1"). The rules it must keep are the
seed's (seed 001, Wheel of Fortune rules 2 to 5): the module checks them (check_layout) and this
module says its refusals in the reader's language.
"""

import re

from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from core.rules import RuleViolation, Words

from .game_text import refusal_sentence
from .games import wheel_of_fortune

# "symbol to:per" (the symbol may hold spaces; the odds are the last word).
LINE = re.compile(r"^\s*(?P<symbol>\S(?:.*\S)?)\s+(?P<to>[0-9]{1,4})\s*:\s*(?P<per>[0-9]{1,4})\s*$")
MOST_SEGMENTS = 200
MOST_SYMBOL_CHARS = 20
WHEEL_LAYOUT = gettext_lazy("wheel layout")


def default_layout() -> dict:
    """The layout a new wheel table starts with: the game module's typical wheel."""
    return wheel_of_fortune.default_layout().to_json()


def parse(text: str, *, limits_from: dict | None = None) -> dict:
    """The typed layout, one segment a line, in the stored form; the bet limits are kept from
    `limits_from` (the table's current layout) or the rules'. RuleViolation naming the first line
    it cannot read."""
    lines = [line for line in (text or "").splitlines() if line.strip()]
    if len(lines) > MOST_SEGMENTS:
        raise RuleViolation(
            Words(
                N_("A wheel has at most %(most)s segments; this layout has %(count)s."),
                most=MOST_SEGMENTS,
                count=len(lines),
            ),
            WHEEL_LAYOUT,
            field="layout",
            code="wheel.too_many_segments",
        )
    segments = []
    for number, line in enumerate(lines, start=1):
        match = LINE.match(line)
        if match is None or len(match["symbol"]) > MOST_SYMBOL_CHARS:
            raise RuleViolation(
                Words(
                    N_(
                        "Line %(line)s, %(text)s, is not a segment: write the symbol, a space and the odds it "
                        "pays, such as $5 5:1 (a symbol of at most %(chars)s characters)."
                    ),
                    line=number,
                    text=repr(line.strip()[:40]),
                    chars=MOST_SYMBOL_CHARS,
                ),
                WHEEL_LAYOUT,
                field="layout",
                code="wheel.bad_segment",
            )
        segments.append({"symbol": match["symbol"], "to": int(match["to"]), "per": int(match["per"])})
    base = limits_from or {}
    return {
        "min_bet_cents": base.get("min_bet_cents", wheel_of_fortune.MIN_BET_CENTS),
        "max_bet_cents": base.get("max_bet_cents", wheel_of_fortune.MAX_BET_CENTS),
        "segments": segments,
    }


def text(stored: dict | None) -> str:
    """The stored layout as it is typed, one segment a line."""
    return "\n".join(f"{s['symbol']} {s['to']}:{s['per']}" for s in (stored or {}).get("segments", []))


def refusals(stored: dict) -> list[str]:
    """What the rules refuse in this layout, each a whole sentence in the reader's language
    citing its Wheel of Fortune rule; empty when the layout keeps them all."""
    return [refusal_sentence(r) for r in wheel_of_fortune.check_layout(stored)]


def paytable(stored: dict | None) -> list[tuple[str, int, int, int]]:
    """(symbol, to, per, how many segments) for each symbol, in the order the wheel first shows them."""
    seen: dict[str, list] = {}
    for segment in (stored or {}).get("segments", []):
        row = seen.setdefault(segment["symbol"], [segment["symbol"], segment["to"], segment["per"], 0])
        row[3] += 1
    return [tuple(row) for row in seen.values()]


def symbols(stored: dict | None) -> list[str]:
    return [symbol for symbol, _to, _per, _count in paytable(stored)]


def _spelling(symbol: str) -> str:
    """A symbol as typed, with what may differ from the painted one taken away: the case, the
    spaces, and the side of a dollar amount's sign ("5 $", as French writes it, is "$5")."""
    key = re.sub(r"\s+", "", symbol).casefold()
    amount = re.fullmatch(r"\$?([0-9]+)\$?", key)
    return f"${amount[1]}" if amount and "$" in key else key


def find_symbol(stored: dict | None, typed: str) -> str:
    """The layout's symbol the reader typed, in either language's spelling and any case ("5 $"
    or "joker" for "$5" or "Joker"); what matches none is handed back as typed, to be refused."""
    known = symbols(stored)
    if typed in known:
        return typed
    matches = [symbol for symbol in known if _spelling(symbol) == _spelling(typed)]
    return matches[0] if len(matches) == 1 else typed
