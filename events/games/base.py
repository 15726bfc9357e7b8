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
from pathlib import Path

# The seeds' rules of play, copied one file per game and language (rules_text/README.md).
RULES_TEXT = Path(__file__).resolve().parent / "rules_text"


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


# How the Québec by-law's sections are named ("s." in English, "art." in French, seeds 002-004):
# shared by every game played under it (Game.section_names).
QUEBEC_SECTION_NAMES = ((r"^S-13\.1, r\. 3, s\. (?P<section>.+)$", N_("S-13.1, r. 3, s. %(section)s")),)


def _section_names() -> list[tuple[str, str]]:
    """Every registered game's names for the sections it cites, each once."""
    from . import REGISTRY  # the registry imports this module: read once a section is cited

    names = []
    for game in REGISTRY.values():
        names += [name for name in game.section_names if name not in names]
    return names


def cite_section(section: str, translate=lambda s: s) -> str:
    """A game section as the reader's language names it, by the games' own names for their
    sections (Game.section_names): "Blackjack rule 8.2" → "Blackjack, règle 8.2" in French.
    Sections of the terms and conditions ("T&C 3.5") pass through unchanged: the product's
    core.rules.cite renumbers them for a French reader. Several sections joined with "; " are each
    named."""
    names = _section_names()
    parts = []
    for part in section.split("; "):
        for pattern, template in names:
            match = re.match(pattern, part)
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
class Bet:
    """A bet of the game as the pages name it: beside its house advantage, and in the refusal of
    the licence's settings that would leave the house none on it."""

    code: str
    name: str  # English, marked N_, standing alone: "Player"
    in_a_sentence: str = ""  # English, marked N_, within a sentence: "the player bet"


@dataclass(frozen=True)
class Payoff:
    """A line of the payoff odds posted at the table (T&C 3.5) and shown on the games page: a bet,
    what it pays, and the section of the seed that sets it ("": the licence's settings do)."""

    bet: str  # English, marked N_
    odds: tuple[int, int] | None = None
    section: str = ""
    commission: Fraction | None = None  # taken from the winnings of a winning bet
    words: str = ""  # English, marked N_: what the bet comes to, where no odds say it


@dataclass(frozen=True)
class SimulatedHouse:
    """A house advantage no enumeration gives, measured by a seeded simulation: the estimate, its
    95% interval and the rounds dealt; `sentence` (English, marked N_) says it with %(estimate)s,
    %(margin)s and %(rounds)s, on the calculators page beside `bet`."""

    estimate: float
    low: float
    high: float
    rounds: int
    bet: str
    sentence: str


@dataclass(frozen=True)
class HouseRemedy:
    """For a game whose payouts are the licence's settings: what the administrator is told to
    change when the figures entered would leave the house no advantage on a bet (the product's
    rule, events.game_rules.HOUSE_KEEPS). `sentence` is English, marked N_; `settings` pairs each
    bet with the setting the form points at when that bet loses, the first losing one's taken."""

    sentence: str
    settings: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Game:
    """A game module's declaration, registered in events.games: everything the pages, the posters
    and the services know of the game, so that none of them names a game (tests/test_game_declaration.py).

    `limits` are the betting limits in cents the seed states, or None when the seed states none:
    then `settings` names "limits" and the caller hands the licence's figures to `check_bet`.
    `rules` lists the seed sections the module follows, cited on posters and in answers.
    What the game's pages offer is plain data here (English words marked N_, translated where
    they are read); what is worked out from the event's figures, a method a module overrides.
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
    bets: tuple[Bet, ...] = ()
    # What each bet pays when the seed sets it (the games page, the poster); see `payoffs`.
    fixed_payoffs: tuple[Payoff, ...] = ()
    # A game played on a wheel whose layout each table sets (its segments and what each symbol
    # pays): the section by which a layout's odds are paid. Empty for a game without a layout.
    wheel_odds_section: str = ""
    # The DRIC's dispute calculator the calculators page offers for the game, by its kind
    # (events.calculator_kinds: "coup", "rolls", "round", "spin"); empty: the page shows the game
    # with its house advantage and no calculator.
    calculator: str = ""
    # Said beside the rules (the calculator, the poster) where the two texts of a rule read
    # differently: how the cage settles it. English, marked N_.
    reading_note: str = ""
    # Printed on the English poster when the seed's only text is French: the French text rules.
    translation_note: str = ""
    # Tables printed on the poster after the rules of play, by name (events.posters.POSTER_TABLES).
    poster_tables: tuple[str, ...] = ()
    # The rules of play as the seeds state them, by language ("en", "fr"): posted at every table
    # (T&C 1.4.2, 3.5). Not compared: two declarations are the same game by their figures.
    rules_text: dict = field(default_factory=dict, compare=False, repr=False)
    house_remedy: HouseRemedy | None = None
    # How the sections the game cites are named, so a refusal or an answer cites them in the
    # reader's language: (pattern, template marked N_), "Blackjack rule 8.2" → "Blackjack, règle 8.2".
    section_names: tuple[tuple[str, str], ...] = ()

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

    @property
    def has_wheel_layout(self) -> bool:
        return bool(self.wheel_odds_section)

    def payoffs(self, figures: dict) -> tuple[Payoff, ...]:
        """What each bet pays at an event whose licence entered `figures` (the settings, as
        events.game_rules.figures gives them); a figure not entered yet leaves its line out."""
        return self.fixed_payoffs

    def house_advantages(self, figures: dict, layout: dict | None = None) -> dict:
        """The house's exact advantage on each bet (a Fraction of the stake), keyed by the bet's
        code, or for a wheel by its symbol (`layout`: the table's); empty while a figure it needs
        is missing, or when no enumeration gives it (see `simulated_house`)."""
        return {}

    def simulated_house(self) -> SimulatedHouse | None:
        return None

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


def rules_text_of(code: str) -> dict[str, str]:
    """The rules of play a module keeps in rules_text/<code>.<language>.txt, by language: the
    seeds' long texts, kept apart from the code that applies them."""
    return {
        path.name.split(".")[1]: path.read_text(encoding="utf-8") for path in sorted(RULES_TEXT.glob(f"{code}.*.txt"))
    }


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
