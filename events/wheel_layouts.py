"""A wheel of fortune's layout as the product stores, edits and shows it, checked by the rules.

Stored with each wheel table (GameTable.wheel_layout) as [[symbol, to, per], ...], one item per
segment in wheel order: the symbol painted on it and the odds a bet on that symbol pays when the
wheel stops there. Typed by the DRIC or the administrator one segment a line, "symbol to:per"
("5 5:1"). The rules the layout must keep are the seed's (seed 001, Wheel of Fortune rules 2 to
5): the game module checks them (events.games.wheel_of_fortune.check_layout) and this module says
its refusals in the reader's language.
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from .game_text import Refusal, refusal_sentence
from .rules import RuleViolation

# "symbol to:per" (the symbol may hold spaces; the odds are the last word).
LINE = re.compile(r"^\s*(?P<symbol>\S(?:.*\S)?)\s+(?P<to>[0-9]{1,4})\s*:\s*(?P<per>[0-9]{1,4})\s*$")
MOST_SEGMENTS = 200
MOST_SYMBOL_CHARS = 20
WHEEL_LAYOUT = gettext_lazy("wheel layout")

# Until the game module describes wheels (issue 10), the layout and its checks live here.
_DEFAULT = [["1", 1, 1]] * 12 + [["2", 2, 1]] * 6 + [["5", 5, 1]] * 3 + [["8", 8, 1]] * 2 + [["Joker", 8, 1]]
MIN_BET, MAX_BET, MOST_ODDS, MOST_PAID = 100, 500, (8, 1), 4000


def default_layout() -> list[list]:
    """The layout a new wheel table starts with."""
    return [list(segment) for segment in _DEFAULT]


def _check(stored: list) -> list[Refusal]:
    found = []
    if not stored:
        found.append(Refusal(N_("A wheel needs at least one segment."), {}, "Wheel of Fortune rule 4"))
    for symbol, to, per in stored:
        if to <= 0 or per <= 0:
            found.append(Refusal(N_("Segment %(symbol)s pays no odds."), {"symbol": symbol}, "Wheel of Fortune rule 4"))
        elif to * MOST_ODDS[1] > MOST_ODDS[0] * per:
            found.append(
                Refusal(
                    N_("Segment %(symbol)s pays %(to)s to %(per)s: the odds are at most 8 to 1."),
                    {"symbol": symbol, "to": to, "per": per},
                    "Wheel of Fortune rule 4",
                )
            )
        elif MAX_BET * to // per > MOST_PAID:
            found.append(
                Refusal(
                    N_("Segment %(symbol)s would pay more than $40 on a $5 bet."),
                    {"symbol": symbol},
                    "Wheel of Fortune rule 5",
                )
            )
    return found


def parse(text: str) -> list[list]:
    """The typed layout, one segment a line; RuleViolation naming the first line it cannot read."""
    layout = []
    lines = [line for line in (text or "").splitlines() if line.strip()]
    if len(lines) > MOST_SEGMENTS:
        raise RuleViolation(
            _("A wheel has at most %(most)s segments; this layout has %(count)s.")
            % {"most": MOST_SEGMENTS, "count": len(lines)},
            WHEEL_LAYOUT,
            field="layout",
        )
    for number, line in enumerate(lines, start=1):
        match = LINE.match(line)
        if match is None or len(match["symbol"]) > MOST_SYMBOL_CHARS:
            raise RuleViolation(
                _(
                    "Line %(line)s, %(text)s, is not a segment: write the symbol, a space and the odds it "
                    "pays, such as 5 5:1 (a symbol of at most %(chars)s characters)."
                )
                % {"line": number, "text": repr(line.strip()[:40]), "chars": MOST_SYMBOL_CHARS},
                WHEEL_LAYOUT,
                field="layout",
            )
        layout.append([match["symbol"], int(match["to"]), int(match["per"])])
    return layout


def text(stored: list | None) -> str:
    """The stored layout as it is typed, one segment a line."""
    return "\n".join(f"{symbol} {to}:{per}" for symbol, to, per in stored or [])


def refusals(stored: list) -> list[str]:
    """What the rules refuse in this layout, each a whole sentence in the reader's language
    citing its Wheel of Fortune rule; empty when the layout keeps them all."""
    return [refusal_sentence(r) for r in _check(stored)]


def paytable(stored: list) -> list[tuple[str, int, int, int]]:
    """(symbol, to, per, how many segments) for each symbol, in the order they first appear."""
    seen: dict[str, list] = {}
    for symbol, to, per in stored:
        row = seen.setdefault(symbol, [symbol, to, per, 0])
        row[3] += 1
    return [tuple(row) for row in seen.values()]
