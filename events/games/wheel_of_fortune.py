"""Wheel of Fortune ("roue de la fortune", seed 000), as the Ontario Fair or Exhibition rules set it
(seed 001, Wheel of Fortune rules 1 to 8).

A wheel is described by its layout: its segments, each with the symbol a player bets on and the
odds it pays (to, per), and the bet limits posted at the table. Each wheel table stores its own
(the Django side keeps `Layout.to_json()`); `check_layout` refuses a layout that breaks the rules:
bets from $1 to $5 (rules 2 and 3), odds at most 8 to 1 (rule 4), at most $40 paid on any bet
(rule 5, the winnings at the table's maximum bet). Each segment is equally likely to stop under the
pointer. A spin counts only after three full revolutions (rule 8).
"""

from dataclasses import dataclass
from fractions import Fraction

from .base import N_, Game, Refusal, Refused, odds_text, rules_text_of, winnings

MIN_BET_CENTS = 100  # rule 2
MAX_BET_CENTS = 500  # rule 3
MAX_ODDS = (8, 1)  # rule 4
MAX_PAYOUT_CENTS = 4000  # rule 5
MIN_REVOLUTIONS = 3  # rule 8

SECTION_LIMITS = "Wheel of Fortune rules 2, 3"
SECTION_ODDS = "Wheel of Fortune rule 4"
SECTION_PAYOUT = "Wheel of Fortune rule 5"
SECTION_SPIN = "Wheel of Fortune rule 8"
SECTION_LAYOUT = "T&C 3.5"  # the posted payoff odds: a layout names each symbol's odds once


class WheelOfFortune(Game):
    def house_advantages(self, figures: dict, layout: dict | None = None) -> dict:
        # What a wheel pays is its layout's: a table without one has no figures yet.
        return house_advantages(layout) if layout else {}


GAME = WheelOfFortune(
    code="wheel_of_fortune",
    name_en="Wheel of Fortune",
    name_fr="Roue de la fortune",  # seed 000: "roue de la fortune"
    limits=(MIN_BET_CENTS, MAX_BET_CENTS),
    max_payout_odds=MAX_ODDS,
    max_payout_cents=MAX_PAYOUT_CENTS,
    rules=tuple(f"Wheel of Fortune rule {n}" for n in range(1, 9)),
    limits_section=SECTION_LIMITS,
    payout_section="Wheel of Fortune rules 4, 5",
    wheel_odds_section=SECTION_ODDS,
    calculator="spin",
    rules_text=rules_text_of("wheel_of_fortune"),
    section_names=(
        # The rules of play of seed 001 are numbered per game.
        (r"^Wheel of Fortune rule (?P<rule>.+)$", N_("Wheel of Fortune rule %(rule)s")),
        (r"^Wheel of Fortune rules (?P<rules>.+)$", N_("Wheel of Fortune rules %(rules)s")),
    ),
)


@dataclass(frozen=True)
class Segment:
    symbol: str
    to: int
    per: int = 1

    @property
    def odds(self) -> tuple[int, int]:
        return (self.to, self.per)


@dataclass(frozen=True)
class Layout:
    """A wheel: its segments in order round the wheel, and the bet limits posted at its table."""

    segments: tuple[Segment, ...]
    min_bet_cents: int = MIN_BET_CENTS
    max_bet_cents: int = MAX_BET_CENTS

    def to_json(self) -> dict:
        return {
            "min_bet_cents": self.min_bet_cents,
            "max_bet_cents": self.max_bet_cents,
            "segments": [{"symbol": s.symbol, "to": s.to, "per": s.per} for s in self.segments],
        }

    @classmethod
    def from_json(cls, data) -> "Layout":
        """The layout a table stored; Refused (with the first refusal) when it is malformed or
        breaks a rule."""
        refusals = check_layout(data)
        if refusals:
            raise Refused(refusals[0])
        return _parse(data)[0]

    def symbols(self) -> dict[str, tuple[int, int]]:
        """Each symbol with its odds, in the order the wheel first shows them."""
        return {s.symbol: s.odds for s in self.segments}

    def count(self, symbol: str) -> int:
        return sum(1 for s in self.segments if s.symbol == symbol)


def default_layout() -> Layout:
    """A typical wheel within the rules: 50 segments, $1 (24 of them) paying 1 to 1, $2 (15) 2 to
    1, $5 (7) 5 to 1 and $8 (4) 8 to 1, spread round the wheel; bets $1 to $5."""
    counts = {"$1": (24, 1), "$2": (15, 2), "$5": (7, 5), "$8": (4, 8)}
    pools = {symbol: n for symbol, (n, _) in counts.items()}
    order = []
    # Spread each symbol evenly: at each step take the symbol furthest behind its share.
    for step in range(1, 51):
        symbol = max(pools, key=lambda s: (counts[s][0] * step / 50 - (counts[s][0] - pools[s]), counts[s][0]))
        pools[symbol] -= 1
        order.append(Segment(symbol, counts[symbol][1], 1))
    return Layout(tuple(order))


def _refusal(message, params, section, money=()):
    return Refusal(message, params, section, money)


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse(data) -> tuple[Layout | None, list[Refusal]]:
    """A layout from a Layout or its JSON form, with what makes it malformed."""
    if isinstance(data, Layout):
        return data, []
    malformed = _refusal(
        N_("A wheel layout lists its segments, each with a symbol and its odds, and its bet limits."),
        {},
        SECTION_LAYOUT,
    )
    if not isinstance(data, dict) or not isinstance(data.get("segments"), list):
        return None, [malformed]
    low, high = data.get("min_bet_cents", MIN_BET_CENTS), data.get("max_bet_cents", MAX_BET_CENTS)
    if not (_is_count(low) and _is_count(high)):
        return None, [malformed]
    segments = []
    for item in data["segments"]:
        if not isinstance(item, dict):
            return None, [malformed]
        symbol, to, per = item.get("symbol"), item.get("to"), item.get("per", 1)
        if not isinstance(symbol, str) or not symbol.strip() or not (_is_count(to) and _is_count(per)):
            return None, [malformed]
        segments.append(Segment(symbol.strip(), to, per))
    return Layout(tuple(segments), low, high), []


def check_layout(layout) -> list[Refusal]:
    """Every rule the layout breaks (an empty list when it may be used). `layout` is a Layout or
    its JSON form (`Layout.to_json()`)."""
    parsed, refusals = _parse(layout)
    if parsed is None:
        return refusals
    if not parsed.segments:
        return [_refusal(N_("A wheel has at least one segment."), {}, SECTION_LAYOUT)]
    low, high = parsed.min_bet_cents, parsed.max_bet_cents
    if not MIN_BET_CENTS <= low <= high <= MAX_BET_CENTS:
        refusals.append(
            _refusal(
                N_("Bets at the wheel run from %(minimum)s to %(maximum)s: the layout posts %(low)s to %(high)s."),
                {"minimum": MIN_BET_CENTS, "maximum": MAX_BET_CENTS, "low": low, "high": high},
                SECTION_LIMITS,
                ("minimum", "maximum", "low", "high"),
            )
        )
    seen: dict[str, tuple[int, int]] = {}
    for segment in parsed.segments:
        if segment.to == 0 and segment.per > 0:
            # No seed sets a lowest payout; a symbol that wins nothing is no bet.
            refusals.append(
                _refusal(
                    N_("%(symbol)s pays %(odds)s, which is nothing: the odds must pay more than nothing."),
                    {"symbol": segment.symbol, "odds": odds_text(segment.odds)},
                    SECTION_LAYOUT,
                )
            )
            continue
        if segment.to <= 0 or segment.per <= 0:
            refusals.append(
                _refusal(
                    N_("The odds of %(symbol)s are not two positive numbers."),
                    {"symbol": segment.symbol},
                    SECTION_LAYOUT,
                )
            )
            continue
        earlier = seen.setdefault(segment.symbol, segment.odds)
        if Fraction(*earlier) != Fraction(*segment.odds):
            refusals.append(
                _refusal(
                    N_("%(symbol)s is posted at two odds, %(first)s and %(second)s: a symbol pays one."),
                    {"symbol": segment.symbol, "first": odds_text(earlier), "second": odds_text(segment.odds)},
                    SECTION_LAYOUT,
                )
            )
    for symbol, odds in seen.items():
        if Fraction(*odds) > Fraction(*MAX_ODDS):
            refusals.append(
                _refusal(
                    N_("%(symbol)s pays %(odds)s: the pay-off odds cannot exceed 8 to 1."),
                    {"symbol": symbol, "odds": odds_text(odds)},
                    SECTION_ODDS,
                )
            )
        paid = winnings(max(high, 0), odds)
        if paid > MAX_PAYOUT_CENTS:
            refusals.append(
                _refusal(
                    N_("%(symbol)s would pay %(paid)s on a %(bet)s bet: no pay-off may exceed %(maximum)s."),
                    {"symbol": symbol, "paid": paid, "bet": high, "maximum": MAX_PAYOUT_CENTS},
                    SECTION_PAYOUT,
                    ("paid", "bet", "maximum"),
                )
            )
    return _each_once(refusals)


def _each_once(refusals: list[Refusal]) -> list[Refusal]:
    """Each distinct refusal once: a symbol painted on 24 segments breaks a rule once, not 24
    times."""
    said, unique = set(), []
    for refusal in refusals:
        key = (refusal.message, refusal.section, repr(sorted(refusal.params.items())))
        if key not in said:
            said.add(key)
            unique.append(refusal)
    return unique


def _usable(layout) -> Layout:
    refusals = check_layout(layout)
    if refusals:
        raise Refused(refusals[0])
    return _parse(layout)[0]


def payout(layout, bet_symbol: str, bet_cents: int, landed_symbol: str, revolutions: float) -> dict:
    """What a bet of `bet_cents` on `bet_symbol` gets when the wheel stops on `landed_symbol` after
    `revolutions` full turns.

    Returns {"result": "win" | "lose" | "no_spin", "pays": "8:1" or None, "winnings_cents": the
    pay-off (stake not counted), "returned_cents": what goes back to the player (stake and pay-off
    on a win, nothing on a loss or on no spin), "net_cents": the player's gain or loss,
    "section": the rules applied}. Fewer than three full revolutions does not "count as a spin"
    (rule 8): the bet is not settled, and stays on the layout for the spin that counts. Raises Refused for a layout that breaks the rules, a bet outside the layout's limits
    (rules 2, 3), or a symbol the layout does not show.
    """
    wheel = _usable(layout)
    symbols = wheel.symbols()
    low, high = wheel.min_bet_cents, wheel.max_bet_cents
    if not _is_count(bet_cents) or not low <= bet_cents <= high:
        raise Refused(
            _refusal(
                N_("Bets at the wheel run from %(minimum)s to %(maximum)s."),
                {"minimum": low, "maximum": high},
                SECTION_LIMITS,
                ("minimum", "maximum"),
            )
        )
    for symbol in (bet_symbol, landed_symbol):
        if not isinstance(symbol, str) or symbol not in symbols:
            raise Refused(
                _refusal(
                    N_("%(symbol)s is not on this wheel: its symbols are %(symbols)s."),
                    {"symbol": repr(symbol), "symbols": ", ".join(symbols)},
                    SECTION_LAYOUT,
                )
            )
    if isinstance(revolutions, bool) or not isinstance(revolutions, (int, float, Fraction)) or revolutions < 0:
        raise Refused(_refusal(N_("The revolutions of the wheel are a number."), {}, SECTION_SPIN))
    if revolutions < MIN_REVOLUTIONS:
        return {
            "result": "no_spin",
            "pays": None,
            "winnings_cents": 0,
            "returned_cents": 0,  # not settled: the bet stays on the layout
            "net_cents": 0,
            "section": SECTION_SPIN,
        }
    if bet_symbol != landed_symbol:
        return {
            "result": "lose",
            "pays": None,
            "winnings_cents": 0,
            "returned_cents": 0,
            "net_cents": -bet_cents,
            "section": SECTION_SPIN,
        }
    odds = symbols[bet_symbol]
    paid = winnings(bet_cents, odds)
    return {
        "result": "win",
        "pays": odds_text(odds),
        "winnings_cents": paid,
        "returned_cents": bet_cents + paid,
        "net_cents": paid,
        "section": "Wheel of Fortune rules 4, 5, 8",
    }


def house_advantages(layout) -> dict[str, Fraction]:
    """The house's advantage on a bet on each symbol, exact, each segment equally likely: a symbol
    on n of N segments paying `to` per `per` keeps 1 − (n/N)(1 + to/per) of the stake."""
    wheel = _usable(layout)
    size = len(wheel.segments)
    return {
        symbol: 1 - Fraction(wheel.count(symbol), size) * (1 + Fraction(to, per))
        for symbol, (to, per) in wheel.symbols().items()
    }


def house_advantage(layout) -> Fraction:
    """The house's advantage on the wheel's best bet for the player (the least the house keeps on
    any bet), exact; `house_advantages` gives it for every symbol."""
    return min(house_advantages(layout).values())


def spin_counts(revolutions: float) -> bool:
    """Rule 8: the wheel must complete at least three full revolutions to count as a spin."""
    return revolutions >= MIN_REVOLUTIONS
