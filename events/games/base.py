"""What every game module shares: the shape of a table's day and of its win figures.

Game modules are pure Python: they import no Django model and query nothing. The cage hands them
one table's day as figures in cents and they return the win figures the reports lay out.
"""

from dataclasses import dataclass, field


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
class Game:
    """A game module's declaration, registered in events.games."""

    code: str
    name_en: str
    name_fr: str
    min_bet_cents: int
    max_bet_cents: int
    max_payout_odds: tuple[int, int] | None  # (8, 1) means at most 8 to 1
    max_payout_cents: int | None
    rules: str  # the seed section the game follows, cited in messages and reports

    def __post_init__(self):
        if not 0 < self.min_bet_cents <= self.max_bet_cents:
            raise ValueError(f"{self.code}: minimum bet must be positive and at most the maximum")

    def name(self, language: str) -> str:
        """The game's name in `language` ("fr-ca", "en-ca"): French for a French reader (seed 000
        and the Québec rules, seeds 002-004), else English. The caller names the language (the
        active one, for a page): game modules know nothing of Django."""
        return self.name_fr if (language or "").startswith("fr") else self.name_en

    def win(self, day: TableDay) -> WinFigures:
        return chip_table_win(day)

    def check_bet(self, cents: int) -> str | None:
        """The refusal message for a bet outside the posted limits, or None when it is allowed."""
        if cents < self.min_bet_cents or cents > self.max_bet_cents:
            return (
                f"{self.name_en}: bets run from {self.min_bet_cents / 100:.2f} to "
                f"{self.max_bet_cents / 100:.2f} ({self.rules})"
            )
        return None

    def check_payout(self, bet_cents: int, payout_cents: int) -> str | None:
        """The refusal message for a payout beyond the game's caps, or None when it is allowed."""
        if self.max_payout_odds:
            to, per = self.max_payout_odds
            if payout_cents * per > bet_cents * to:
                return f"{self.name_en}: pay-off odds are at most {to} to {per} ({self.rules})"
        if self.max_payout_cents is not None and payout_cents > self.max_payout_cents:
            return f"{self.name_en}: a pay-off is at most {self.max_payout_cents / 100:.2f} ({self.rules})"
        return None
