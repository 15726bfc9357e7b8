"""The poster posted at each table: the licence, the rules of play, the betting limits and payoff
odds, and the age restriction (T&C 1.4.1, 1.4.2, 1.4.3, 3.5).

Black or red letters on white only (T&C 1.4.3): nothing here draws a background, a shade or a
grey. A Wheel of Fortune poster is printed in capitals of Helvetica-Bold at WHEEL_FONT_SIZE: the
smallest capital or digit of that face is 0.703 em high (Adobe's AFM: digits 703 to 710, flat
capitals 718 thousandths of an em), so at 103 pt every letter is at least 72.4 pt, the inch (72
pt) rule 1.4.3 asks. Its tabloid sheets are laid out to be as few as that allows: a quarter-inch
margin kept clear of every letter's box (its descent included), lines 0.94 em apart, seven lines
a sheet (the licence number at the head, the table and "page N of M" at the foot, five of text),
each item whole on one sheet. The other games' letter
pages put 18+, the limits and the odds large on the first page, and share the wheel's head and
foot (Marks): the table, the licence, "page N of M". Only layout and the
poster's own labels live here; the rules' text is the seeds', as each game declares it
(Game.rules_text, events/games/rules_text).
"""

import io
import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import ngettext, pgettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import TABLOID, landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from core.rules import RuleViolation, Words, cite

from . import game_rules, games
from .file_commands import LANGUAGES
from .models import GameTable
from .wheel_layouts import paytable

BLACK, RED = colors.black, colors.red  # the only two inks (T&C 1.4.3)

WHEEL_FONT_SIZE = 103  # pt: 0.703 em × 103 pt = 72.4 pt, over one inch for every letter
SMALLEST_GLYPH_EM = 0.703  # Helvetica-Bold's shortest capital or digit, in ems
POSTED = "T&C 1.4.2, 1.4.3, 3.5"

# The rules of play at a size read at arm's length, a step back from the table; the figures a
# player reads from a few metres away (T&C 1.4.2, 3.5: "easily seen by the players") larger on
# the first page: 18+ and the limits at LARGE or more (capitals of about 10 mm), the odds at
# ODDS (about 8 mm). 42 pt keeps "Bets from $2.00 to $25.00" on one line of a letter page.
BODY = ParagraphStyle("poster-body", fontName="Helvetica", fontSize=13, leading=17, textColor=BLACK, spaceAfter=6)
LARGE = 42  # pt
ODDS = 32  # pt
SMALL = ParagraphStyle("poster-small", parent=BODY, fontSize=11, leading=13, spaceAfter=2)
LIMITS = ParagraphStyle("poster-limits", parent=BODY, fontName="Helvetica-Bold", fontSize=LARGE, leading=LARGE * 1.15)
LARGE_HEADING = ParagraphStyle(
    "poster-large-heading",
    parent=LIMITS,
    fontSize=ODDS,
    leading=ODDS * 1.15,
    textColor=RED,
    spaceBefore=6,
    spaceAfter=0,
    keepWithNext=1,
)
ODDS_LINE = ParagraphStyle("poster-odds", parent=LIMITS, fontSize=ODDS, leading=ODDS * 1.1, spaceAfter=0)
# The title repeats the head of every page: it need not take the first page's room.
TITLE = ParagraphStyle("poster-title", parent=BODY, fontName="Helvetica-Bold", fontSize=24, leading=28, textColor=RED)
HEADING = ParagraphStyle(
    "poster-heading", parent=BODY, fontName="Helvetica-Bold", fontSize=15, leading=19, spaceBefore=8, keepWithNext=1
)
RULE_HEADING = ParagraphStyle("poster-rule-heading", parent=BODY, fontName="Helvetica-Bold", keepWithNext=1)
AGE = ParagraphStyle("poster-age", parent=BODY, fontName="Helvetica-Bold", fontSize=60, leading=62, textColor=RED)
AGE_RULE = ParagraphStyle("poster-age-rule", parent=BODY, fontName="Helvetica-Bold", fontSize=18, leading=22)
LICENCE = ParagraphStyle("poster-licence", parent=BODY, fontName="Helvetica-Bold")
# How the event settles a rule its two texts read differently: in bold, before the rules it reads.
READING = ParagraphStyle("poster-reading", parent=BODY, fontName="Helvetica-Bold")
CELL = ParagraphStyle("poster-cell", parent=BODY, fontSize=12, leading=14, spaceAfter=0)
CELL_HEAD = ParagraphStyle("poster-cell-head", parent=CELL, fontName="Helvetica-Bold")
# All capitals: the lines are set close (0.94 em) so that eight fit a tabloid page, yet a
# parenthesis or a comma, which reach 0.21 em below the line, stays clear of the capitals of the
# line under it (0.718 + 0.21 < 0.94); the foot stands a little further off (0.98 em).
WHEEL_LEADING = WHEEL_FONT_SIZE * 0.94
WHEEL_FOOT_GAP = WHEEL_FONT_SIZE * 0.98
WHEEL_MARGIN = 0.25 * inch  # what a tabloid printer leaves unprinted, no more
WHEEL = ParagraphStyle(
    "poster-wheel", fontName="Helvetica-Bold", fontSize=WHEEL_FONT_SIZE, leading=WHEEL_LEADING, textColor=BLACK
)


def rules_paragraphs(code: str, lang: str) -> list[str]:
    """The seed's rules of play for the game, one paragraph a line, in `lang` ("en", "fr"); a
    sub-item keeps the indent the seed gives it."""
    text = games.get_game(code).rules_text.get(lang, "")
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def _rule_paragraph(line: str) -> Paragraph:
    indent = len(line) - len(line.lstrip())
    text = line.strip()
    if text.upper() == text and any(c.isalpha() for c in text):
        return _p(text, RULE_HEADING)  # a section's title, "2. NUMBER OF DECKS; VALUE OF CARDS"
    return _p(text, ParagraphStyle("poster-rule", parent=BODY, leftIndent=indent * 6))


def poster_refusal(table: GameTable) -> RuleViolation | None:
    """Why the table's poster cannot be made yet, or None: a figure the licence must give is
    missing, or a wheel has no layout."""
    missing = game_rules.missing_in_a_sentence(table.event, table.game)
    if missing:
        return RuleViolation(
            Words(
                N_(
                    "The poster of table %(table)s cannot be printed: the administrator has not entered %(figures)s "
                    "for %(game)s on the games page."
                ),
                table=table.code,
                figures=missing,
                game=table.game_name,
            ),
            "T&C 3.5",
            code="poster.figures_missing",
        )
    if table.game_module.has_wheel_layout and not table.wheel_layout:
        return RuleViolation(
            Words(N_("The poster of table %(table)s cannot be printed: the wheel has no layout."), table=table.code),
            "T&C 3.5",
            code="poster.no_layout",
        )
    return None


def poster_pdf(table: GameTable, lang: str) -> bytes:
    """The table's poster in `lang` ("en" or "fr"); RuleViolation when it cannot be made yet."""
    with translation.override(LANGUAGES[lang]):
        refused = poster_refusal(table)
        if refused is not None:
            raise refused
        facts = _facts(table, lang)
        if table.game_module.has_wheel_layout:
            return _wheel_poster(facts)
        return _poster(facts)


def _facts(table: GameTable, lang: str) -> dict:
    event = table.event
    game = table.game_module
    found = game_rules.limits(event, table.game)
    return {
        "title": _("%(game)s — table %(table)s") % {"game": table.game_name, "table": table.code},
        "game": table.game,
        "event": _("%(event)s, %(venue)s, run by %(licensee)s")
        % {"event": event.name, "venue": event.venue, "licensee": event.licensee.name},
        "run_by": _("%(event)s, run by %(licensee)s") % {"event": event.name, "licensee": event.licensee.name},
        "licence_number": event.licence_number,
        "table_code": table.code,
        "licence_short": _("Licence %(number)s") % {"number": event.licence_number},
        "licence_and_table": _("Licence %(number)s, table %(table)s")
        % {"number": event.licence_number, "table": table.code},
        "wheel_odds": [
            (game_rules.symbol_text(symbol), game_rules.odds_text(to, per))
            for symbol, to, per, _n in paytable(table.wheel_layout)
        ],
        "licence": _("Licence no. %(number)s, issued by %(authority)s")
        % {"number": event.licence_number, "authority": event.licensing_authority},
        "age": _("18+"),
        "age_rule": _("Players must be 18 years of age or over."),
        "limits": game_rules.limits_text(found),
        "limits_source": found.source,
        "payoffs": game_rules.payoffs(event, table.game, table),
        "rules": rules_paragraphs(table.game, lang),
        # The seed's only text is French: the English poster says the French text rules.
        "translation_note": _(game.translation_note) if game.translation_note and lang == "en" else "",
        # Where the two texts of a rule read differently, how the cage settles it (both languages).
        "reading_note": _(game.reading_note) if game.reading_note else "",
        # The shoe the administrator entered, for a game whose licence sets it (seed 003 states none).
        "shoe": _shoe_text(game_rules.figures(event, table.game).get("decks")),
        "tables": game.poster_tables,
        "posted": _("Posted as the licence's terms and conditions require (%(rules)s).") % {"rules": cite(POSTED)},
    }


def _shoe_text(decks: int | None) -> str:
    if decks is None:
        return ""
    return ngettext("Dealt from a shoe of %(decks)s deck.", "Dealt from a shoe of %(decks)s decks.", decks) % {
        "decks": decks
    }


def _p(text, style=BODY) -> Paragraph:
    return Paragraph(escape(str(text)), style)


def _poster(facts: dict) -> bytes:
    """Blackjack, baccarat and craps: letter pages. The first says from a distance what a player
    needs before betting, at LARGE or more: 18+, the limits, the odds; the rules of play follow at
    reading size. Every page is headed with the table and the licence and footed with "page N of
    M" (the wheel poster's head and foot, at this poster's size), as its sheets are posted apart."""

    def story():  # made afresh for each pass: a paragraph split over two pages is changed by it
        return _poster_story(facts)

    width, height = letter
    margin = 0.6 * inch
    marks = Marks(
        font="Helvetica-Bold",
        size=12,
        leading=14,
        left=margin,
        right=width - margin,
        head_left=[facts["title"]],
        head_right=[facts["licence_short"]],
        head_baseline=height - 0.45 * inch,
        rule_y=height - 0.45 * inch - 6,
        foot_baseline=0.4 * inch,
    )
    frame = Frame(margin, 0.6 * inch, width - 2 * margin, height - 1.25 * inch, id="text")
    return _two_pass(lambda total: _build_sheets(story(), (width, height), frame, marks, total))


def _poster_story(facts: dict) -> list:
    story = [
        _p(facts["title"], TITLE),
        _p(facts["event"]),
        _p(facts["licence"], LICENCE),
        _p(facts["age"], AGE),
        _p(facts["age_rule"], AGE_RULE),
        _p(_("Betting limits"), LARGE_HEADING),
        _p(facts["limits"], LIMITS),
        _p(facts["limits_source"], SMALL),
        _p(_("Payoff odds"), LARGE_HEADING),
        *_odds_lines(facts["payoffs"]),
        _p(_("Rules of play"), HEADING),
    ]
    if facts["shoe"]:
        story.append(_p(facts["shoe"], AGE_RULE))
    if facts["translation_note"]:
        story.append(_p(facts["translation_note"]))
    if facts["reading_note"]:
        story.append(_p(facts["reading_note"], READING))
    story += [_rule_paragraph(line) for line in facts["rules"]]
    for name in facts["tables"]:
        story += POSTER_TABLES[name]()
    story += [Spacer(1, 8), _p(facts["posted"])]
    return story


def _odds_lines(payoffs) -> list:
    """Each bet and what it pays, a large line each (read in order, from a distance, where a grid
    of large cells would break its words), the section that sets it small under it."""
    story = []
    for row in payoffs:
        story.append(
            KeepTogether(
                [_p(_("%(bet)s: %(odds)s") % {"bet": row.bet, "odds": row.odds}, ODDS_LINE), _p(row.section, SMALL)]
            )
        )
    return story


@dataclass(frozen=True)
class Marks:
    """What every sheet of a poster carries outside its text: lines at its head, left and right,
    a rule under them, and "page N of M" at its foot on the right (with `foot_left` beside it).
    Shared by the wheel's tabloid sheets and the other games' letter pages."""

    font: str
    size: float
    leading: float
    left: float
    right: float
    head_left: list
    head_right: list
    head_baseline: float
    rule_y: float
    foot_baseline: float
    foot_left: str = ""
    capitals: bool = False
    rule_width: float = 0.8


def page_of(page: int, pages: int) -> str:
    return _("page %(page)s of %(pages)s") % {"page": page, "pages": pages}


def _on_page(marks: Marks, total: int | None):
    def draw(canvas, doc):
        def said(text):
            return str(text).upper() if marks.capitals else str(text)

        canvas.saveState()
        canvas.setFillColor(BLACK)
        canvas.setFont(marks.font, marks.size)
        for n, line in enumerate(marks.head_left):
            canvas.drawString(marks.left, marks.head_baseline - n * marks.leading, said(line))
        for n, line in enumerate(marks.head_right):
            canvas.drawRightString(marks.right, marks.head_baseline - n * marks.leading, said(line))
        canvas.setStrokeColor(BLACK)
        canvas.setLineWidth(marks.rule_width)
        canvas.line(marks.left, marks.rule_y, marks.right, marks.rule_y)
        if total is not None:
            canvas.drawRightString(marks.right, marks.foot_baseline, said(page_of(doc.page, total)))
            if marks.foot_left:
                canvas.drawString(marks.left, marks.foot_baseline, said(marks.foot_left))
        canvas.restoreState()

    return draw


def _two_pass(build):
    """`build(None)` counts the pages, `build(pages)` prints them with "page N of M"."""
    return build(build(None))


def _build_sheets(story: list, size, frame: Frame, marks: Marks, total: int | None):
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=size,
        title=_("Posted rules of play"),
        author="",
        subject="",
        creator="",
        pageTemplates=[PageTemplate(id="sheet", frames=[frame], onPage=_on_page(marks, total))],
    )
    doc.build(list(story))
    if total is None:
        return doc.page
    return buffer.getvalue()


def _grid(rows: list[list[str]], widths) -> Table:
    cells = [[_p(cell, CELL_HEAD if i == 0 else CELL) for cell in row] for i, row in enumerate(rows)]
    table = Table(cells, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.6, BLACK),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return table


# Section 37's drawing table, as the seed lays it out: for the banker's first two cards' total,
# H (draws) or S (stands) when the player took no third card, then for each value 0 to 9 of the
# player's third card. 0 to 2 always draw, 7 always stands (8 and 9 are naturals).
BANKER_TABLE = {
    3: ("H", "HHHHHHHHSH"),
    4: ("H", "SSHHHHHHSS"),
    5: ("H", "SSSSHHHHSS"),
    6: ("S", "SSSSSSHHSS"),
}


def _drawing_tables() -> list:
    """Section 37's drawing tables, the player's and the banker's, under the rules of play."""
    hit, stand = _("H: draws a third card"), _("S: stands")
    player = _grid(
        [
            [_("Player's first two cards total"), _("The player's hand")],
            ["0-1-2-3-4-5", _("Draws a third card")],
            ["6-7", _("Stands")],
        ],
        [3.2 * inch, 4.1 * inch],
    )
    head = [_("Banker's first two cards total"), _("Player takes no third card")] + [str(v) for v in range(10)]
    rows = [head, ["0-1-2", _("Draws a third card")] + [""] * 10]
    # The table's letters are the legend's, in the reader's language (French: T tire, A arrête).
    letter = {"H": pgettext("baccarat table: draws a third card", "H"), "S": pgettext("baccarat table: stands", "S")}
    for total, (alone, by_card) in BANKER_TABLE.items():
        rows.append([str(total), letter[alone], *(letter[c] for c in by_card)])
    rows.append(["7", _("Stands")] + [""] * 10)
    banker = Table(
        [[_p(cell, CELL_HEAD if i == 0 else CELL) for cell in row] for i, row in enumerate(rows)],
        colWidths=[1.7 * inch, 1.6 * inch] + [0.4 * inch] * 10,
        hAlign="LEFT",
    )
    banker.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.6, BLACK),
                ("SPAN", (1, 1), (-1, 1)),
                ("SPAN", (1, -1), (-1, -1)),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return [
        _p(_("The player's hand"), HEADING),
        player,
        KeepTogether(
            [
                _p(_("The banker's hand"), HEADING),
                _p(
                    _("%(hit)s; %(stand)s. Columns 0 to 9: the value of the player's third card.")
                    % {"hit": hit, "stand": stand}
                ),
                banker,
            ]
        ),
    ]


# The tables a game's poster prints after its rules of play (Game.poster_tables), by name.
POSTER_TABLES = {"drawing_tables": _drawing_tables}


def _wheel_poster(facts: dict) -> bytes:
    """Every letter at least one inch high (T&C 1.4.3): capitals at WHEEL_FONT_SIZE on tabloid
    landscape pages, as few as that allows. Each sheet carries the licence number at its head and
    "page N of M" at its foot, so that the sheets posted side by side read as one poster; an item
    (a rule, a payoff, a heading with the item after it) is never split between two sheets."""

    def big(text, style=WHEEL):
        return Paragraph(escape(_unbroken(str(text).upper())), style)

    red = ParagraphStyle("poster-wheel-red", parent=WHEEL, textColor=RED)
    odds = [big(_("%(bet)s pays %(odds)s") % {"bet": symbol, "odds": odds}) for symbol, odds in facts["wheel_odds"]]
    rules = [big(line.strip()) for line in facts["rules"]]
    # Each item whole on one sheet, a heading with the item after it: it moves to the next sheet
    # rather than break. The first sheet as full as the others: the title, 18+ and the limits.
    heading = big(_("Payoff odds"), red)
    if _wheel_lines([heading, *odds]) <= _wheel_text_lines(facts):
        # The whole list on one sheet when it fits there: a player compares the odds side by side.
        odds_items = [[heading, *odds]]
    else:
        odds_items = [[heading, *odds[:1]], *([row] for row in odds[1:])]
    items = [
        # "18+" alone does not say what it restricts; the age sentence would not fit the first sheet.
        [big(facts["title"], red), big(_("18+ only"), red)],
        [big(_("Betting limits"), red), big(facts["limits"])],
        [big(facts["run_by"])],
        *odds_items,
        [big(_("Rules of play"), red), *rules[:1]],
        *([rule] for rule in rules[1:]),
    ]
    story = [KeepTogether(item) for item in items]
    return _two_pass(lambda total: _wheel_pages(story, facts, total))


def _wheel_line_width() -> float:
    return landscape(TABLOID)[0] - 2 * WHEEL_MARGIN


def _wheel_lines(paragraphs) -> int:
    """How many lines the paragraphs take on a wheel sheet."""
    return sum(len(simpleSplit(p.text, WHEEL.fontName, WHEEL_FONT_SIZE, _wheel_line_width())) for p in paragraphs)


def _wheel_head(facts: dict) -> tuple[list[str], bool]:
    """The head's lines, and whether the table's code stands at the foot beside the page number
    (else it is named at the head)."""
    line_width = _wheel_line_width()
    code = _unbroken(facts["table_code"].upper())
    widest_foot = stringWidth(page_of(99, 99).upper(), WHEEL.fontName, WHEEL_FONT_SIZE)
    beside = stringWidth(code, WHEEL.fontName, WHEEL_FONT_SIZE) + WHEEL_FONT_SIZE / 2 + widest_foot <= line_width
    header = facts["licence_short"] if beside else facts["licence_and_table"]
    return simpleSplit(_unbroken(header.upper()), WHEEL.fontName, WHEEL_FONT_SIZE, line_width), beside


def _wheel_text_lines(facts: dict) -> int:
    """The lines of text a wheel sheet holds between its head and its foot: as many as leave the
    foot's descent (WHEEL_DESCENT) a margin above the sheet's bottom edge, so that no letter, nor
    the box a reader measures it by, is printed in the edge the printer leaves white."""
    top_baseline = _wheel_first_baseline() - len(_wheel_head(facts)[0]) * WHEEL_LEADING
    lowest_foot = WHEEL_MARGIN + WHEEL_DESCENT * WHEEL_FONT_SIZE
    return int((top_baseline - WHEEL_FOOT_GAP - lowest_foot) // WHEEL_LEADING) + 1


def _wheel_first_baseline() -> float:
    # The capitals of the head stand the margin below the sheet's top edge.
    return landscape(TABLOID)[1] - WHEEL_MARGIN - WHEEL_CAP_HEIGHT * WHEEL_FONT_SIZE


WHEEL_CAP_HEIGHT = 0.718  # Helvetica-Bold's capitals, in ems (Adobe's AFM)
WHEEL_DESCENT = 0.207  # Helvetica-Bold's descent, in ems (Adobe's AFM): a comma, a parenthesis


def _wheel_pages(story: list, facts: dict, total: int | None):
    """The wheel poster's sheets: `total` None counts them (the first pass), a number prints them
    with "page N of M". The licence at the head and the page at the foot are set right, apart from
    the rules set left, so they read as the sheet's labels; the table's code at the foot, left,
    or at the head when it is too long to stand beside the page."""
    width, height = landscape(TABLOID)
    line_width = _wheel_line_width()
    code = _unbroken(facts["table_code"].upper())
    head_lines, beside = _wheel_head(facts)
    first_baseline = _wheel_first_baseline()
    text_lines = _wheel_text_lines(facts)
    top_baseline = first_baseline - len(head_lines) * WHEEL_LEADING
    foot_baseline = top_baseline - (text_lines - 1) * WHEEL_LEADING - WHEEL_FOOT_GAP
    # A paragraph sets its first baseline a font size below the top of its frame.
    frame_top = top_baseline + WHEEL_FONT_SIZE
    frame_height = text_lines * WHEEL_LEADING + 0.5  # a half point over: six lines fit exactly
    text = Frame(
        WHEEL_MARGIN,
        frame_top - frame_height,
        line_width,
        frame_height,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        id="text",
    )
    marks = Marks(
        font=WHEEL.fontName,
        size=WHEEL_FONT_SIZE,
        leading=WHEEL_LEADING,
        left=WHEEL_MARGIN,
        right=width - WHEEL_MARGIN,
        head_left=[],
        head_right=head_lines,
        head_baseline=first_baseline,
        # A black rule under the head, midway between its baseline (a licence number has no
        # descender) and the capitals of the first line of text.
        rule_y=top_baseline + WHEEL_LEADING - (WHEEL_LEADING - WHEEL_CAP_HEIGHT * WHEEL_FONT_SIZE) / 2,
        foot_baseline=foot_baseline,
        foot_left=code if beside else "",
        capitals=True,
        rule_width=3,
    )
    return _build_sheets(story, (width, height), text, marks, total)


# Kept on one line: odds ("8 TO 1", "8 À 1") and an amount with its sign ("(1 $)").
_ODDS = re.compile(r"(\d+) (\S{1,2}) (\d+)")
_SIGN = re.compile(r"(\(?\d+) \$(\)?)")


def _unbroken(text: str) -> str:
    return _SIGN.sub("\\1\u00a0$\\2", _ODDS.sub("\\1\u00a0\\2\u00a0\\3", text))
