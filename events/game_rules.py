"""What a licensed game's figures are at an event: its betting limits and payoff odds, where they
come from (the seed, through the game module, or the licence's settings the administrator
entered), and the settings still missing.

The game modules (events.games) are pure Python and know no event; this is where the event's
figures meet them. Readers: the games page, the posters, the DRIC's calculators.
"""

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
    kinds = {setting.name: setting.kind for setting in games.get_game(code).settings}
    if not kinds:
        return {}  # a game whose seed states every figure: nothing is entered, nothing to read
    row = GameSettings.objects.filter(event=event, game=code).first()
    stored = row.figures if row is not None else {}
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

    game = games.get_game(code)
    if game.has_wheel_layout:
        layout = table.wheel_layout if table is not None else None
        return [
            Payoff(
                _("Symbol %(symbol)s") % {"symbol": symbol_text(symbol)},
                odds_text(to, per),
                section_text(game.wheel_odds_section),
            )
            for symbol, to, per, _count in paytable(layout)
        ]
    return [_payoff_said(line) for line in game.payoffs(figures(event, code))]


def _payoff_said(line) -> Payoff:
    """A game's payoff line (events.games.base.Payoff) in the reader's language."""
    if line.words:
        odds = _(line.words)
    else:
        odds = odds_text(*line.odds)
        if line.commission:
            odds = _("%(odds)s, less a commission of %(percent)s on the winnings") % {
                "odds": odds,
                "percent": percent_text(line.commission),
            }
    return Payoff(_(line.bet), odds, section_text(line.section) if line.section else str(LICENCE_FIGURES))


def house_advantages(event: Event, code: str, table: GameTable | None = None) -> list[tuple[str, str]]:
    """(bet, house advantage) of each bet of the game under these exact rules and this event's
    figures (a wheel's: this table's layout); empty while a figure it needs is missing, and for a
    game whose advantage is simulated (Game.simulated_house: the calculators page gives it)."""
    game = games.get_game(code)
    found = game.house_advantages(figures(event, code), table.wheel_layout if table is not None else None)
    if game.has_wheel_layout:
        return [
            (_("Symbol %(symbol)s") % {"symbol": symbol_text(symbol)}, house_text(value))
            for symbol, value in found.items()
        ]
    names = {bet.code: _(bet.name) for bet in game.bets}
    return [(names[bet], house_text(value)) for bet, value in found.items()]


def table_by_code(event: Event, code: str) -> GameTable | None:
    return event.tables.filter(code=code).first()
