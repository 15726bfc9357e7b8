"""Each table's day, sorted from its slips: opener, fills, credits and closer, and the win its game's
own rule makes of them (events.games). The daily sheets and the event's figures both read the days
from here, as each slip type's declaration says what it is in a table's day (SlipKind.table_figures).
"""

from cage.selectors.amounts import chips_value
from cage.slip_types import SLIP_KINDS
from events import games


class TableDay:
    """One table's day: its opener and closer as counted (None until they are), its fills and
    credits each by value."""

    def __init__(self, table):
        self.table = table
        self.opener: int | None = None
        self.closer: int | None = None
        self.fills: list[int] = []
        self.credits: list[int] = []

    def add(self, figure: str, slip, values: dict[str, int]) -> None:
        if figure in ("opener", "closer"):
            setattr(self, figure, slip.details["total"])
        else:
            getattr(self, figure).append(chips_value(slip.details.get("chips", {}), values))

    @property
    def opened(self) -> bool:
        return self.opener is not None

    def figures(self) -> games.WinFigures | None:
        """Its figures by its game's rule, once it has closed; None while it is open."""
        if self.opener is None or self.closer is None:
            return None
        day = games.TableDay(
            opener=self.opener, closer=self.closer, fills=tuple(self.fills), credits=tuple(self.credits)
        )
        return games.get_game(self.table.game).win(day)


class TableDays:
    """The table days of some slips, by (group, table code): a group is whatever the reader keeps
    apart (the event's figures, a day's id; the daily sheets, one day). `table_named(code)` gives
    the table a slip names by its code (a chip transfer's other table), asked only when one does."""

    def __init__(self, values: dict[str, int], table_named):
        self.values = values
        self.table_named = table_named
        self.named: dict[str, object] = {}  # each other table read once, however many slips name it
        self.days: dict[tuple, TableDay] = {}

    def add(self, slip, group=None) -> None:
        for figure, code in SLIP_KINDS[slip.slip_type].table_figures(slip):
            table = slip.table if code is None else self._named(code)
            day = self.days.get((group, table.code))
            if day is None:
                day = self.days[(group, table.code)] = TableDay(table)
            day.add(figure, slip, self.values)

    def _named(self, code: str):
        if code not in self.named:
            self.named[code] = self.table_named(code)
        return self.named[code]

    def items(self):
        return self.days.items()
