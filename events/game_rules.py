"""What a licensed game's figures are at an event: its betting limits and payoff odds, where they
come from (the seed, through the game module, or the licence's settings the administrator
entered), and the settings still missing.

The game modules (events.games) are pure Python and know no event; this is where the event's
figures meet them. Readers: the games page, the posters, the DRIC's calculators.
"""

import functools
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from core.money import dollars

from . import games
from .game_text import section_text
from .games import baccarat
from .models import Event, GameSettings, GameTable

# The product's rule for the figures no seed states, cited beside them (T&C 1.3: the licence
# approves how the event is run; T&C 3.5: they are posted).
LICENCE_FIGURES = gettext_lazy("the licence's game settings")
# The product's own rule (no seed states it), for the wheel layouts and the licence's settings
# alike: every bet leaves the house an advantage. A bet that pays back all it takes in, or more,
# raises nothing for the charity and can lose the bank; the DRIC's dispute page would show the
# house's advantage as negative.
HOUSE_KEEPS = gettext_lazy("product rule: the house keeps an advantage on every bet")


@dataclass(frozen=True)
class Limits:
    min_cents: int
    max_cents: int
    source: str  # where the figures come from, in the reader's language


def figures(event: Event, code: str) -> dict:
    """The licence's settings entered for a game, as the game module takes them: limits and odds
    as (a, b) tuples, fractions as Fraction. Empty when none are entered."""
    row = GameSettings.objects.filter(event=event, game=code).first()
    stored = row.figures if row is not None else {}
    kinds = {setting.name: setting.kind for setting in games.get_game(code).settings}
    found = {}
    for name, value in stored.items():
        kind = kinds.get(name)
        if kind in ("limits", "odds"):
            found[name] = (int(value[0]), int(value[1]))
        elif kind == "fraction":
            found[name] = Fraction(value)
        elif kind == "count":
            found[name] = int(value)
    return found


def game_settings_entered(row: GameSettings) -> dict:
    """A game's stored figures as events.services.game_settings_set takes them typed: limits as
    dollar strings, odds as "8:1", a commission as a percentage, a count as digits (where `figures`
    gives them as the game module takes them). The records file's extension writes them so
    (cage.exporter), and its import gives them back to game_settings_set."""
    entered = {}
    kinds = {setting.name: setting.kind for setting in games.get_game(row.game).settings}
    for name, value in row.figures.items():
        kind = kinds.get(name)
        if kind == "limits":
            entered[name] = [f"{cents // 100}.{cents % 100:02d}" for cents in value]
        elif kind == "odds":
            entered[name] = f"{value[0]}:{value[1]}"
        elif kind == "fraction":
            percent = Fraction(value) * 100
            entered[name] = (
                str(percent.numerator)
                if percent.denominator == 1
                else str(Decimal(percent.numerator) / percent.denominator)
            )
        elif kind == "count":
            entered[name] = str(value)
    return entered


def missing_settings(event: Event, code: str) -> list[str]:
    """The names of the settings still to be entered for this game, in the reader's language."""
    entered = figures(event, code)
    return [_(setting.label) for setting in games.get_game(code).settings if setting.name not in entered]


def symbol_text(symbol: str) -> str:
    """A wheel's symbol as the reader writes it: a dollar amount painted "$5" is "5 $" in French;
    any other symbol as painted."""
    match = re.fullmatch(r"\$([0-9]{1,4})", symbol.strip())
    if match is None:
        return symbol
    return pgettext("a wheel symbol that is a whole dollar amount", "$%(amount)s") % {"amount": match[1]}


def in_a_sentence(labels) -> str:
    """Settings' labels listed within a sentence: each without the capital it takes standing
    alone on a form ("betting limits, a winning player bet pays")."""
    return ", ".join(str(label)[:1].lower() + str(label)[1:] for label in labels)


def missing_in_a_sentence(event: Event, code: str) -> str:
    return in_a_sentence(missing_settings(event, code))


def limits(event: Event, code: str) -> Limits | None:
    """The betting limits of a game at this event, or None while the administrator has not
    entered the ones no seed states."""
    game = games.get_game(code)
    if game.limits is not None:
        return Limits(game.limits[0], game.limits[1], section_text(game.limits_section))
    entered = figures(event, code).get("limits")
    if entered is None:
        return None
    return Limits(entered[0], entered[1], str(LICENCE_FIGURES))


def limits_text(found: Limits) -> str:
    return _("Bets from %(min)s to %(max)s") % {"min": dollars(found.min_cents), "max": dollars(found.max_cents)}


def odds_text(to: int, per: int) -> str:
    return _("%(to)s to %(per)s") % {"to": to, "per": per}


def odds_words(pays: str | None) -> str:
    """A module's "8:1" as a reader writes it: "8 to 1", "8 à 1"."""
    if not pays:
        return ""
    to, per = pays.split(":")
    return odds_text(int(to), int(per))


def percent_text(value: Fraction) -> str:
    """A commission as a percentage: "5%", "2.5%" ("5 %", "2,5 %" in French)."""
    hundredths = Fraction(value) * 100
    number = (
        str(int(hundredths)) if hundredths.denominator == 1 else formats.number_format(round(float(hundredths), 2), 2)
    )
    return _("%(percent)s%%") % {"percent": number}


def house_text(value) -> str:
    """A house advantage (a fraction of the stake) as a percentage with two decimals, rounded
    (Django's number_format cuts the digits off rather than rounding them)."""
    return _("%(percent)s%%") % {
        "percent": formats.number_format(round(float(value) * 100, 2), decimal_pos=2, use_l10n=True)
    }


@dataclass(frozen=True)
class Payoff:
    bet: str  # what is bet on, in the reader's language
    odds: str  # what it pays, "1 to 1"
    section: str  # the section (or the licence's settings) that sets it, in the reader's language


def payoffs(event: Event, code: str, table: GameTable | None = None) -> list[Payoff]:
    """What each bet of the game pays at this event (and at this table, for a wheel), with the
    section that sets it; a figure the administrator has not entered yet is left out."""
    from .wheel_layouts import paytable

    if code == "blackjack":
        return [
            Payoff(_("A winning wager"), odds_text(1, 1), section_text("Blackjack rule 3.5")),
            Payoff(_("Blackjack"), odds_text(3, 2), section_text("Blackjack rule 3.5")),
            Payoff(_("Insurance"), odds_text(2, 1), section_text("Blackjack rule 7.3")),
        ]
    if code == "wheel_of_fortune":
        layout = table.wheel_layout if table is not None else None
        return [
            Payoff(
                _("Symbol %(symbol)s") % {"symbol": symbol_text(symbol)},
                odds_text(to, per),
                section_text("Wheel of Fortune rule 4"),
            )
            for symbol, to, per, _count in paytable(layout)
        ]
    if code == "craps":
        return [
            Payoff(_("Pass, don't pass, come, don't come"), odds_text(1, 1), section_text("S-13.1, r. 3, s. 95.14")),
            Payoff(_("Field, on 3, 4, 9, 10 or 11"), odds_text(1, 1), section_text("S-13.1, r. 3, s. 95.14 (5°)")),
            Payoff(_("Field, on 2 or 12"), odds_text(2, 1), section_text("S-13.1, r. 3, s. 95.14 (5°)")),
        ]
    if code == "baccarat":
        entered = figures(event, code)
        rows = []
        source = str(LICENCE_FIGURES)
        if "player_pays" in entered:
            rows.append(Payoff(_("Player"), odds_text(*entered["player_pays"]), source))
        if "banker_pays" in entered:
            odds = odds_text(*entered["banker_pays"])
            if entered.get("banker_commission"):
                odds = _("%(odds)s, less a commission of %(percent)s on the winnings") % {
                    "odds": odds,
                    "percent": percent_text(entered["banker_commission"]),
                }
            rows.append(Payoff(_("Banker"), odds, source))
        if "tie_pays" in entered:
            rows.append(Payoff(_("Tie"), odds_text(*entered["tie_pays"]), source))
            # s. 37 is silent on it; the reading the calculators take (events.games.baccarat) is posted too,
            # so a patron reads at the table what the DRIC will rule.
            rows.append(
                Payoff(
                    _("Player or banker, on a tie"),
                    _("returned: neither won nor lost"),
                    section_text("S-13.1, r. 3, s. 37"),
                )
            )
        return rows
    return []


def house_advantages(event: Event, code: str, table: GameTable | None = None) -> list[tuple[str, str]]:
    """(bet, house advantage) of each bet of the game under these exact rules and this event's
    figures; empty while a figure it needs is missing. Blackjack's is a seeded simulation (the
    calculators page gives its interval)."""
    from .games import craps, wheel_of_fortune

    if code == "baccarat":
        found = baccarat_house(figures(event, code))
        names = {"player": _("Player"), "banker": _("Banker"), "tie": _("Tie")}
        return [(names[bet], house_text(value)) for bet, value in found.items()]
    if code == "craps":
        names = {
            "pass": _("Pass"),
            "dont_pass": _("Don't pass"),
            "come": _("Come"),
            "dont_come": _("Don't come"),
            "field": _("Field"),
        }
        return [(names[bet], house_text(value)) for bet, value in craps.house_advantage().items()]
    if code == "wheel_of_fortune" and table is not None and table.wheel_layout:
        found = wheel_of_fortune.house_advantages(table.wheel_layout)
        return [
            (_("Symbol %(symbol)s") % {"symbol": symbol_text(symbol)}, house_text(value))
            for symbol, value in found.items()
        ]
    return []


BACCARAT_HOUSE_FIGURES = ("tie_pays", "banker_commission", "player_pays", "banker_pays", "decks")
BACCARAT_BETS = {
    "player": gettext_lazy("the player bet"),
    "banker": gettext_lazy("the banker bet"),
    "tie": gettext_lazy("the tie bet"),
}


def baccarat_house(entered: dict) -> dict:
    """Baccarat's house advantage on each bet under the licence's figures (as `figures` gives them,
    or as the settings service stores them); empty while one is missing."""
    if not all(name in entered for name in BACCARAT_HOUSE_FIGURES):
        return {}
    tie, commission, player, banker, decks = (entered[name] for name in BACCARAT_HOUSE_FIGURES)
    return _baccarat_house(tuple(tie), Fraction(commission), tuple(player), tuple(banker), int(decks))


@functools.lru_cache(maxsize=16)
def _baccarat_house(tie_pays, banker_commission, player_pays, banker_pays, decks) -> dict:
    # Exact, but an enumeration of a whole shoe: worked out once per set of figures.
    return baccarat.house_advantage(
        tie_pays=tie_pays,
        banker_commission=banker_commission,
        player_pays=player_pays,
        banker_pays=banker_pays,
        decks=decks,
    )


def table_by_code(event: Event, code: str) -> GameTable | None:
    return event.tables.filter(code=code).first()


# Rule 3.1.3 reads two ways (events.games.blackjack): the table says how the cage settles it, in both
# languages and on the poster, so it never promises what the cage will not pay.
BLACKJACK_READING = gettext_lazy(
    "How this event settles a blackjack against the dealer's blackjack: a tie, pushed. Blackjack rule 3.1.3 "
    "of the English text pays a blackjack against a dealer's 21 in more than two cards; the French text "
    "reads “21 à l’aide de deux (2) cartes ou plus”, but rule 3.7 of both texts pushes every tie, and the "
    "cage pays by the English reading."
)
