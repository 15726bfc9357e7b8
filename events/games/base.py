"""What every game module shares: the shape of a table's day and of its win figures, the game's
declaration, and the refusal a game hands back when the figures it is given break its rules.

Game modules are pure Python: they import no Django model and query nothing. The cage hands them
one table's day as figures in cents and they return the win figures the reports lay out; the
DRIC's calculators hand them cards, rolls and bets and they return what the rules of play say.

A game never words a refusal in the reader's language itself: it returns a `Refusal`, an English
sentence marked with `N_` (the product's makemessages reads that mark, so the sentence is in the
French catalogue) with its figures apart, and the section of the seed it applies. The Django side
translates it: `refusal.text(gettext, core.money.dollars)`, cited with `refusal.cited(gettext)`.
"""

import re
from dataclasses import dataclass, field
from fractions import Fraction


def N_(message: str) -> str:
    """Marks an English sentence for the catalogue without translating it here (gettext_noop):
    game modules import no Django, and the sentence is translated where it is read."""
    return message


def plain_dollars(cents: int) -> str:
    """An amount as an English reader writes it, for a refusal read outside Django (tests, logs)."""
    sign = "-" if cents < 0 else ""
    cents = abs(int(cents))
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


@dataclass(frozen=True)
class Refusal:
    """Why figures were refused: an English sentence template (marked `N_`), its parameters, and
    the section of the seed it applies ("Blackjack rule 1.1", "S-13.1, r. 3, s. 37", "T&C 3.5").

    `money` names the parameters that are amounts in cents, written by the reader's money writer.
    """

    message: str
    params: dict = field(default_factory=dict)
    section: str = ""
    money: tuple[str, ...] = ()

    def text(self, translate=lambda s: s, dollars=plain_dollars) -> str:
        """The sentence in the reader's language: `translate` is gettext, `dollars` the money writer."""
        params = {name: dollars(value) if name in self.money else value for name, value in self.params.items()}
        return translate(self.message) % params

    def cited(self, translate=lambda s: s) -> str:
        """The section, named in the reader's language (see `cite_section`)."""
        return cite_section(self.section, translate)

    def __str__(self) -> str:
        return f"{self.text()} ({self.section})"


class Refused(ValueError):
    """Raised by a game function handed figures its rules refuse; `.refusal` says why."""

    def __init__(self, refusal: Refusal):
        super().__init__(str(refusal))
        self.refusal = refusal


# How each seed's sections are named, so a refusal or a result cites them in the reader's
# language: the rules of play of seed 001 are numbered per game, the Québec by-law per section
# ("s." in English, "art." in French, seeds 002-004).
_SECTION_NAMES = [
    (re.compile(r"^Blackjack rule (?P<rule>.+)$"), N_("Blackjack rule %(rule)s")),
    (re.compile(r"^Blackjack rules (?P<rules>.+)$"), N_("Blackjack rules %(rules)s")),
    (re.compile(r"^Wheel of Fortune rule (?P<rule>.+)$"), N_("Wheel of Fortune rule %(rule)s")),
    (re.compile(r"^Wheel of Fortune rules (?P<rules>.+)$"), N_("Wheel of Fortune rules %(rules)s")),
    (re.compile(r"^S-13\.1, r\. 3, s\. (?P<section>.+)$"), N_("S-13.1, r. 3, s. %(section)s")),
]


def cite_section(section: str, translate=lambda s: s) -> str:
    """A game section as the reader's language names it: "Blackjack rule 8.2" → "Blackjack, règle
    8.2" in French. Sections of the terms and conditions ("T&C 3.5") pass through unchanged: the
    product's core.rules.cite renumbers them for a French reader. Several sections joined with
    "; " are each named."""
    parts = []
    for part in section.split("; "):
        for pattern, template in _SECTION_NAMES:
            match = pattern.match(part)
            if match:
                part = translate(template) % match.groupdict()
                break
        parts.append(part)
    return "; ".join(parts)


@dataclass(frozen=True)
class TableDay:
    """One table's gaming day, in cents: the opener count, each fill, each credit, the closer."""

    opener: int
    closer: int
    fills: tuple[int, ...] = field(default_factory=tuple)
    credits: tuple[int, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class WinFigures:
    opener: int
    fills: int
    credits: int
    closer: int
    win: int


def chip_table_win(day: TableDay) -> WinFigures:
    """Win at a chips-only table: closer − opener − fills + credits.

    No cash is dropped at these tables (T&C 3.4.1: only chips are used as the betting medium;
    chips are bought at the Chip Cashier or from runners, 3.4.2), so the tray's count is the
    whole story of what patrons lost to it.
    """
    fills = sum(day.fills)
    credits = sum(day.credits)
    return WinFigures(
        opener=day.opener,
        fills=fills,
        credits=credits,
        closer=day.closer,
        win=day.closer - day.opener - fills + credits,
    )


@dataclass(frozen=True)
class Setting:
    """A figure of the game that no seed states, so the licence's administrator enters it for each
    game the licence authorizes, and the poster shows it. `typical` is only a suggestion to enter
    (what such tables usually post), never applied by the module on its own.

    kind: "limits" (minimum and maximum bet in cents), "odds" ((to, per): 8 to 1 is (8, 1)),
    "fraction" (a Fraction, such as a commission of 5/100), "count" (a whole number, such as the
    decks in a shoe).
    """

    name: str
    label: str  # English, marked N_
    kind: str
    typical: object


@dataclass(frozen=True)
class Game:
    """A game module's declaration, registered in events.games.

    `limits` are the betting limits in cents the seed states, or None when the seed states none:
    then `settings` names "limits" and the caller hands the licence's figures to `check_bet`.
    `rules` lists the seed sections the module follows, cited on posters and in answers.
    """

    code: str
    name_en: str
    name_fr: str
    limits: tuple[int, int] | None
    max_payout_odds: tuple[int, int] | None  # (8, 1) means at most 8 to 1
    max_payout_cents: int | None
    rules: tuple[str, ...]
    # Whose rules of play the module follows: "ontario" (the Fair or Exhibition terms and
    # conditions, seed 001) or "quebec" (the By-law respecting casino games, seeds 002 to 004). A
    # licence authorizes only games played under its own authority's rules (T&C 1.3, 1.5.1, 3.3).
    rules_of: str = "ontario"
    limits_section: str = ""  # the section stating the limits, when a seed states them
    payout_section: str = ""  # the section stating the caps on pay-offs
    settings: tuple[Setting, ...] = ()

    def __post_init__(self):
        if self.limits is not None:
            check_limits(self.limits, self.code)
        elif "limits" not in self.setting_names:
            raise ValueError(f"{self.code}: limits are either stated by a seed or a setting")

    @property
    def setting_names(self) -> tuple[str, ...]:
        return tuple(setting.name for setting in self.settings)

    def typical_settings(self) -> dict:
        """Each setting's typical figure: what the administrator's form offers to start from."""
        return {setting.name: setting.typical for setting in self.settings}

    @property
    def min_bet_cents(self) -> int | None:
        return self.limits[0] if self.limits else None

    @property
    def max_bet_cents(self) -> int | None:
        return self.limits[1] if self.limits else None

    def name(self, language: str) -> str:
        """The game's name in `language` ("fr-ca", "en-ca"): French for a French reader (seed 000
        and the Québec rules, seeds 002-004), else English. The caller names the language (the
        active one, for a page): game modules know nothing of Django."""
        return self.name_fr if (language or "").startswith("fr") else self.name_en

    def win(self, day: TableDay) -> WinFigures:
        return chip_table_win(day)

    def check_bet(self, cents: int, limits: tuple[int, int] | None = None) -> Refusal | None:
        """Why a bet is refused by the posted limits, or None when it is allowed. `limits` are the
        licence's figures for a game whose seed states none (baccarat, craps); a game whose seed
        states them (blackjack, wheel) uses its own unless handed others."""
        limits = limits or self.limits
        if limits is None:
            raise ValueError(f"{self.code}: the licence's betting limits are needed (a setting)")
        low, high = limits
        if not isinstance(cents, int) or isinstance(cents, bool) or not low <= cents <= high:
            return Refusal(
                N_("Bets run from %(minimum)s to %(maximum)s."),
                {"minimum": low, "maximum": high},
                self.limits_section or "T&C 3.5",
                money=("minimum", "maximum"),
            )
        return None

    def check_payout(self, bet_cents: int, payout_cents: int) -> Refusal | None:
        """Why a pay-off (the winnings, the stake not counted) breaks the game's caps, or None."""
        if self.max_payout_odds:
            to, per = self.max_payout_odds
            if payout_cents * per > bet_cents * to:
                return Refusal(
                    N_("Pay-off odds are at most %(to)s to %(per)s."),
                    {"to": to, "per": per},
                    self.payout_section,
                )
        if self.max_payout_cents is not None and payout_cents > self.max_payout_cents:
            return Refusal(
                N_("A pay-off is at most %(maximum)s."),
                {"maximum": self.max_payout_cents},
                self.payout_section,
                money=("maximum",),
            )
        return None


def check_limits(limits, code: str = "") -> tuple[int, int]:
    """A (minimum, maximum) pair of bet limits in cents, checked: positive whole cents, min ≤ max."""
    try:
        low, high = limits
    except (TypeError, ValueError):
        raise ValueError(f"{code}: limits are a (minimum, maximum) pair of cents") from None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)) or not 0 < low <= high:
        raise ValueError(f"{code}: minimum bet must be positive and at most the maximum")
    return low, high


def odds_text(odds: tuple[int, int]) -> str:
    """Odds as the answers write them: (3, 2) → "3:2"."""
    return f"{odds[0]}:{odds[1]}"


def check_odds(odds, name: str = "odds") -> tuple[int, int]:
    """A (to, per) pair of positive whole numbers."""
    try:
        to, per = odds
    except (TypeError, ValueError):
        raise ValueError(f"{name} are a (to, per) pair") from None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (to, per)) or to <= 0 or per <= 0:
        raise ValueError(f"{name} are a pair of positive whole numbers")
    return to, per


def winnings(stake_cents: int, odds: tuple[int, int]) -> int:
    """What a winning stake is paid at `odds`, the stake not counted, in whole cents: a fraction of
    a cent is not paid (chips pay no fraction of a cent)."""
    to, per = odds
    return int(Fraction(stake_cents * to, per))
