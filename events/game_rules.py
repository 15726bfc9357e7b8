"""What a licensed game's figures are at an event: its betting limits and payoff odds, where they
come from (the seed, or the licence's settings the administrator entered), and a wheel's layout.

The game modules (events.games) are pure Python and know no event; this is where the event's
figures meet them. Readers: the tables and game pages, the posters, the DRIC's calculators.
"""

from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.money import dollars

from . import games
from .game_text import section_text
from .models import Event, GameSettings, GameTable

# The games whose seed states no figure for these (T&C 1.3: as the licence approves them), and
# which of them the administrator enters. Blackjack and the wheel take theirs from seed 001.
SETTINGS_FIELDS: dict[str, tuple[str, ...]] = {
    "baccarat": ("min_bet_cents", "max_bet_cents", "tie_pays", "banker_commission_percent"),
    "craps": ("min_bet_cents", "max_bet_cents"),
}
# The product's rule for those figures, cited in refusals beside the sections that ask for them.
LICENCE_FIGURES = gettext_lazy("the licence's game settings")


@dataclass(frozen=True)
class Limits:
    min_cents: int
    max_cents: int
    source: str  # the section the figures come from, cited as the reader's language cites it


def settings_of(event: Event, code: str) -> GameSettings | None:
    return event.game_settings.filter(game=code).first()


def limits(event: Event, code: str) -> Limits | None:
    """The betting limits of a game at this event, or None while the administrator has not
    entered the ones no seed states."""
    game = games.get_game(code)
    if code not in SETTINGS_FIELDS:
        return Limits(game.min_bet_cents, game.max_bet_cents, section_text(game.rules))
    entered = settings_of(event, code)
    if entered is None or entered.min_bet_cents is None or entered.max_bet_cents is None:
        return None
    return Limits(entered.min_bet_cents, entered.max_bet_cents, str(LICENCE_FIGURES))


def missing_settings(event: Event, code: str) -> list[str]:
    """The names of the licence's figures still to be entered for this game (empty when none)."""
    entered = settings_of(event, code)
    return [
        str(GameSettings._meta.get_field(name).verbose_name)
        for name in SETTINGS_FIELDS.get(code, ())
        if entered is None or getattr(entered, name) is None
    ]


def limits_text(found: Limits) -> str:
    return _("Bets from %(min)s to %(max)s") % {"min": dollars(found.min_cents), "max": dollars(found.max_cents)}


def odds_text(to: int, per: int) -> str:
    return _("%(to)s to %(per)s") % {"to": to, "per": per}


def percent_text(value: Decimal) -> str:
    from django.utils import formats

    return _("%(percent)s%%") % {"percent": formats.number_format(value.normalize(), use_l10n=True)}


def table_by_code(event: Event, code: str) -> GameTable | None:
    return event.tables.filter(code=code).first()


@dataclass(frozen=True)
class Payoff:
    bet: str  # what is bet on, in the reader's language
    odds: str  # what it pays, "1 to 1"
    section: str  # the section that sets it, cited in the reader's language


def payoffs(event: Event, code: str, table: GameTable | None = None) -> list[Payoff]:
    """What each bet of the game pays at this event (and at this table, for a wheel), with the
    section that sets it; a figure the administrator has not entered yet is left out."""
    from .game_text import section_text
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
                _("Symbol %(symbol)s") % {"symbol": symbol},
                odds_text(to, per),
                section_text("Wheel of Fortune rules 4 and 5"),
            )
            for symbol, to, per, _count in paytable(layout or [])
        ]
    if code == "craps":
        section = section_text("s. 95.14")
        return [
            Payoff(_("Pass, don't pass, come, don't come"), odds_text(1, 1), section),
            Payoff(_("Field, on 3, 4, 9, 10 or 11"), odds_text(1, 1), section),
            Payoff(_("Field, on 2 or 12"), odds_text(2, 1), section),
        ]
    if code == "baccarat":
        entered = settings_of(event, code)
        rows = [Payoff(_("Player"), odds_text(1, 1), str(LICENCE_FIGURES))]
        if entered is not None and entered.banker_commission_percent is not None:
            rows.append(
                Payoff(
                    _("Banker"),
                    _("%(odds)s, less a commission of %(percent)s")
                    % {"odds": odds_text(1, 1), "percent": percent_text(entered.banker_commission_percent)},
                    str(LICENCE_FIGURES),
                )
            )
        if entered is not None and entered.tie_pays is not None:
            rows.append(Payoff(_("Tie"), odds_text(entered.tie_pays, 1), str(LICENCE_FIGURES)))
        return rows
    return []
