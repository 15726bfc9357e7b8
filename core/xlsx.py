"""The downloads as XLSX workbooks, for people: the twins of the CSV files, cell for cell.

An export builds its rows once, as typed cells, and both files are written from those rows, so
the two can never differ. A typed cell's text (`str()`) is what the CSV writes ("1234.56", "19:05");
in the workbook the same cell is a number, a date or a time with a format:

    Cents(12345)      "123.45"     123.45 in dollars (a Decimal from the cents), as currency
    Clock(time)       "19:05"      a time of day, to the minute
    Hours(Decimal)    "2.5"        a number of hours
    Hidden(text)      ""           a figure withheld (a blind count): the workbook says why in words
    datetime.date     "2026-09-11" a date
    int               "3"          a count
    str               as written   text, and only ever text

A text cell is stored as text whatever it begins with: openpyxl makes a formula of any string that
begins with "=" (and an error of "#N/A"), so every str is written with its type forced to text,
and one that a spreadsheet would read as a formula or a DDE call gets Excel's "quote prefix" too,
the workbook's own apostrophe (events.csv_safe guards the CSV with a real one).

openpyxl is imported when a workbook is written, not at start-up.
"""

import datetime
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.local import day, zone_name
from core.money import cents_str, shortest_decimal

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

# As events.csv_safe.FORMULA_STARTS (core lies below events and cannot import it;
# tests/reports/test_xlsx_exports.py checks that the two agree).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Characters XML 1.0 cannot carry (openpyxl refuses them): shown as the replacement character.
_ILLEGAL = re.compile(r"[\000-\010\013\014\016-\037]")


# --- the typed cells --------------------------------------------------------------------------


@dataclass(frozen=True)
class Cents:
    """An amount: integer cents, written "1234.56" in CSV and as dollars in the workbook."""

    cents: int

    def __str__(self) -> str:
        return cents_str(self.cents)

    @property
    def dollars(self) -> Decimal:
        # Exact: the cents moved two places, never a float's arithmetic.
        return Decimal(int(self.cents)).scaleb(-2)


@dataclass(frozen=True)
class Clock:
    """A time of day to the minute; `text` where the CSV has always written it otherwise (a
    day sheet's "19 h 05")."""

    at: datetime.time
    text: str = ""

    def __str__(self) -> str:
        return self.text or self.at.strftime("%H:%M")


@dataclass(frozen=True)
class Hours:
    """Hours worked: "4", "2.5"."""

    value: Decimal

    def __str__(self) -> str:
        return shortest_decimal(self.value)


@dataclass(frozen=True)
class Hidden:
    """A figure there is not yet (counted blind): an empty cell in CSV, its reason in the workbook."""

    text: str

    def __str__(self) -> str:
        return ""


@dataclass(frozen=True)
class Moment:
    """A moment (a signature's): the CSV's ISO text with its offset, the workbook's local date and time."""

    at: datetime.datetime

    def __str__(self) -> str:
        return self.at.isoformat()


# --- the formats --------------------------------------------------------------------------------
# A number format's "," and "." are placeholders: Excel and LibreOffice group the thousands and
# mark the decimals with the reader's own settings ("1,234.56" or "1 234,56"), so one format
# serves an English and a French spreadsheet alike. Only the dollar sign's place is written into
# the format, and there the two languages differ: a single format would put it where one of them
# never writes it. So it is the workbook's language that places it, as core.money.dollars does:
# "$1,234.56" in English, "1 234,56 $" in French (after a no-break space, so that it never wraps
# alone). A literal "$" in quotes, not a locale's currency code ([$$-1009]), which LibreOffice and
# Excel read alike; a minus sign leads either: "-$2.00", "-2,00 $".
MONEY_FORMATS = {"en": '"$"#,##0.00', "fr": '#,##0.00"\u00a0$"'}
# The gaming day's date as the product writes it in both languages (core.local.day); the time as
# each language writes it (core.local.clock: "18:30", "18 h 30").
DATE_FORMAT = "yyyy-mm-dd"
TIME_FORMATS = {"en": "hh:mm", "fr": 'h"\u00a0h\u00a0"mm'}
COUNT_FORMAT = "#,##0"
HOURS_FORMAT = "General"  # 4, 2.5: no trailing zeros, no stray decimal mark


def _language() -> str:
    return "fr" if (get_language() or "").startswith("fr") else "en"


def money_format() -> str:
    return MONEY_FORMATS[_language()]


def time_format() -> str:
    return TIME_FORMATS[_language()]


def moment_format() -> str:
    return f"{DATE_FORMAT} {time_format()}"


# --- a workbook ---------------------------------------------------------------------------------


@dataclass
class Sheet:
    """One worksheet: its tab's name, its title, the column headings and the typed rows; `strong`:
    the indexes of the rows set in bold (subtotals and totals)."""

    name: str
    title: str
    header: list[str]
    rows: list[list]
    strong: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Made:
    """When the workbook was made (an aware moment) and by whom, for the lines under its title."""

    at: datetime.datetime
    by: str


def made_now(person, user) -> Made:
    """Made now, by the event's person (their name), or else by the login (the administrator)."""
    by = person.name if person is not None else (user.get_full_name() or user.get_username())
    return Made(timezone.now(), by)


def safe_text(value) -> str:
    return _ILLEGAL.sub("\ufffd", str(value))


# The first rows of every worksheet: its title, when it was made, by whom; then the headings.
TITLE_ROW, MADE_ON_ROW, MADE_BY_ROW, HEADER_ROW = 1, 2, 3, 4
WIDEST = 60  # characters: a longer text runs on into its neighbour's cell, as text does


def workbook(sheets: list[Sheet], made: Made) -> bytes:
    """The worksheets as an XLSX file's bytes."""
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    book.properties.creator = safe_text(made.by)
    book.properties.title = safe_text(sheets[0].title) if sheets else ""
    names: set[str] = set()
    for sheet in sheets:
        _write_sheet(book.create_sheet(_tab_name(sheet.name, names)), sheet, made)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _tab_name(name: str, taken: set[str]) -> str:
    """A worksheet's tab: at most 31 characters, none of []:*?/\\, unique in the workbook."""
    base = re.sub(r"[\[\]:*?/\\]", " ", safe_text(name)).strip(" '")[:31] or "Sheet"
    tab, n = base, 1
    while tab.lower() in taken:
        n += 1
        tab = f"{base[: 31 - len(str(n)) - 1]} {n}"
    taken.add(tab.lower())
    return tab


def _write_sheet(ws, sheet: Sheet, made: Made) -> None:
    from openpyxl.styles import Font

    _put(ws.cell(TITLE_ROW, 1), sheet.title).font = Font(bold=True, size=14)
    local = timezone.localtime(made.at)
    _put(ws.cell(MADE_ON_ROW, 1), _("Made on"))
    _put(ws.cell(MADE_ON_ROW, 2), local)
    _put(ws.cell(MADE_ON_ROW, 3), zone_name(local))
    _put(ws.cell(MADE_BY_ROW, 1), _("Made by"))
    _put(ws.cell(MADE_BY_ROW, 2), made.by)
    bold = Font(bold=True)
    for col, heading in enumerate(sheet.header, start=1):
        _put(ws.cell(HEADER_ROW, col), heading).font = bold
    for r, row in enumerate(sheet.rows):
        for col, value in enumerate(row, start=1):
            cell = _put(ws.cell(HEADER_ROW + 1 + r, col), value)
            if r in sheet.strong:
                cell.font = bold
    # The headings stay in sight as the rows scroll; a filter on each.
    ws.freeze_panes = ws.cell(HEADER_ROW + 1, 1).coordinate
    if sheet.header:
        last = ws.cell(HEADER_ROW + len(sheet.rows), len(sheet.header)).coordinate
        ws.auto_filter.ref = f"A{HEADER_ROW}:{last}"
    _widths(ws, sheet)


def _put(cell, value):
    """One typed cell into the worksheet, with its number format."""
    if isinstance(value, Cents):
        cell.value, cell.number_format = value.dollars, money_format()
    elif isinstance(value, Clock):
        cell.value, cell.number_format = value.at.replace(tzinfo=None), time_format()
    elif isinstance(value, Hours):
        cell.value, cell.number_format = Decimal(value.value), HOURS_FORMAT
    elif isinstance(value, Moment | datetime.datetime):
        at = value.at if isinstance(value, Moment) else value
        at = timezone.localtime(at) if timezone.is_aware(at) else at
        # Local time, to the second: a spreadsheet keeps no zone, nor a microsecond exactly.
        cell.value, cell.number_format = at.replace(tzinfo=None, microsecond=0), moment_format()
    elif isinstance(value, datetime.date):
        cell.value, cell.number_format = value, DATE_FORMAT
    elif isinstance(value, int) and not isinstance(value, bool):
        cell.value, cell.number_format = value, COUNT_FORMAT
    elif isinstance(value, Hidden):
        _text(cell, value.text)
    elif value is not None and value != "":
        _text(cell, value)
    return cell


def _text(cell, value) -> None:
    text = safe_text(value)
    cell.value = text
    # Text, whatever it begins with: openpyxl has just made a formula of "=…" and an error of "#N/A".
    cell.data_type = "s"
    if text.startswith(FORMULA_STARTS):
        cell.quotePrefix = True


def shown_width(value) -> int:
    """About how many characters a cell takes on screen."""
    if isinstance(value, Cents):
        return len(str(value)) + len(str(value)) // 3 + 2
    if isinstance(value, Clock):
        return 8
    if isinstance(value, Moment | datetime.datetime):
        return 18
    if isinstance(value, datetime.date):
        return 10
    if isinstance(value, Hidden):
        return len(value.text)
    return max((len(line) for line in str(value).splitlines()), default=0)


def _widths(ws, sheet: Sheet) -> None:
    from openpyxl.utils import get_column_letter

    # The lines under the title ask for room too: "Made on", and its date and time.
    least = {0: len(_("Made on")), 1: shown_width(datetime.datetime.min)}
    columns = max([len(sheet.header), *(len(row) for row in sheet.rows)])
    for col in range(columns):
        cells = [row[col] for row in [sheet.header, *sheet.rows] if col < len(row)]
        widest = max([least.get(col, 0), *(shown_width(c) for c in cells)])
        ws.column_dimensions[get_column_letter(col + 1)].width = min(max(widest + 2, 8), WIDEST)


def days_words(first: datetime.date | None, last: datetime.date | None) -> str:
    """The day or days a sheet covers, for its title: "gaming day 2026-09-11", "gaming days
    2026-09-11 to 2026-09-13"."""
    if first is None or last is None:
        return _("no gaming day yet")
    if first == last:
        return _("gaming day %(date)s") % {"date": day(first)}
    return _("gaming days %(first)s to %(last)s") % {"first": day(first), "last": day(last)}
