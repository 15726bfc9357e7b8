"""Each table's poster (T&C 1.4.1, 1.4.2, 1.4.3, 3.5), read back with poppler as a player would
read it: the licence, the limits, the odds, 18+, the rules of play, in English and in French; a
wheel's letters at least one inch high; black and red ink on white only."""

import base64
import re
import subprocess
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from reportlab.lib.utils import simpleSplit

from events.posters import SMALLEST_GLYPH_EM, WHEEL_FONT_SIZE, _wheel_line_width, rules_paragraphs
from tests.conftest import PASSWORD, QUEBEC_GAMES, QUEBEC_TABLES
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("poppler")]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "posters"
TABLES = QUEBEC_TABLES
# Helvetica-Bold's ascent and descent (718 + 207 thousandths of an em): the height of the box
# pdftotext -bbox gives a word, from which the word's font size is read back.
BOX_EM = 0.925


def poster(table: str, lang: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    out = ARTIFACTS / f"{table}-{lang}.pdf"
    slug = "quebec" if dict(QUEBEC_TABLES)[table] in QUEBEC_GAMES else "ontario"
    call_command("poster", slug, table, "--lang", lang, "--out", str(out))
    return out


def text(path: Path) -> str:
    layout = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True)
    read = " ".join(layout.stdout.replace("\u00a0", " ").split())
    # pdftotext -layout loses the spaces around a lone "à" between digits in a narrow cell ("3à2"),
    # though the page draws "(3 \340 2) Tj": put them back.
    return re.sub(r"(\d)\s*([àÀ])\s*(\d)", r"\1 \2 \3", read)


# What each poster must say, in each language: licence, limits, odds, age, and words of the rules.
EXPECTED = {
    ("BJ-1", "en"): ["F-2026-0117", "18+", "Bets from $1.00 to $5.00", "3 to 2", "2 to 1", "six (6) decks of cards"],
    ("BJ-1", "fr"): [
        "Licence nº F-2026-0117",
        "18+",
        "Mises de 1,00 $ à 5,00 $",
        "3 à 2",
        "2 à 1",
        "Six (6) jeux de cartes",
    ],
    ("BAC-1", "en"): [
        "F-2026-0117",
        "18+",
        "Bets from $2.00 to $25.00",
        "8 to 1",
        "commission of 5%",
        "natural",
        "on a tie",
        "returned: neither won nor lost",
        "Dealt from a shoe of 8 decks.",  # the administrator's setting (fixture: 8)
    ],
    ("BAC-1", "fr"): [
        "F-2026-0117",
        "18+",
        "Mises de 2,00 $ à 25,00 $",
        "8 à 1",
        "moins une commission",
        "naturelle",
        "sur une égalité",
        "remise : ni gagnée ni perdue",
        "Distribué d’un sabot de 8 jeux de cartes.",
    ],
    ("CR-1", "en"): ["F-2026-0117", "18+", "Bets from $1.00 to $5.00", "2 to 1", "cannot be withdrawn"],
    ("CR-1", "fr"): ["F-2026-0117", "18+", "Mises de 1,00 $ à 5,00 $", "2 à 1", "ne peuvent être retirées"],
    ("WOF-1", "en"): ["F-2026-0117", "18+", "BETS FROM $1.00 TO $5.00", "8 TO 1", "THREE (3) FULL REVOLUTIONS"],
    # A symbol painted "$1" is written "1 $" in French.
    ("WOF-1", "fr"): [
        "F-2026-0117",
        "18+",
        "MISES DE 1,00 $ À 5,00 $",
        "8 À 1",
        "TROIS (3) TOURS COMPLETS",
        "1 $ PAIE 1 À 1",
    ],
}


@pytest.mark.parametrize("table, lang", sorted(EXPECTED))
def test_each_poster_says_what_the_rules_require(quebec, table, lang):
    read = text(poster(table, lang))
    for words in EXPECTED[(table, lang)]:
        assert words in read, f"{table} {lang}: {words!r} not on the poster"
    if lang == "fr":
        assert "$1" not in read and "$2" not in read
        assert "Pass," not in read and "Don’t pass" not in read  # « pass », as seed 004 writes it


def test_the_english_craps_poster_says_the_french_text_rules(quebec):
    assert "the French text rules" in text(poster("CR-1", "en"))


def words_with_boxes(path: Path):
    """(word, box height in points, page) of every word of the PDF, from pdftotext -bbox."""
    html = subprocess.run(["pdftotext", "-bbox", str(path), "-"], check=True, capture_output=True, text=True).stdout
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", html).replace(' xmlns="http://www.w3.org/1999/xhtml"', ""))
    for number, page in enumerate(root.iter("page"), start=1):
        for word in page.iter("word"):
            yield word.text or "", float(word.get("yMax")) - float(word.get("yMin")), number


def test_every_letter_of_the_wheel_poster_is_at_least_an_inch_high(quebec):
    """T&C 1.4.3. The measure: each word's font size is its box height over Helvetica-Bold's
    ascent + descent (0.925 em); its shortest letter (a capital, or a digit) is 0.703 em of that.
    Every word is in capitals, so no lowercase x-height is smaller."""
    for lang in ("en", "fr"):
        words = list(words_with_boxes(poster("WOF-1", lang)))
        assert len({page for _w, _h, page in words}) > 1, "the text takes several pages"
        for word, height, page in words:
            assert word == word.upper(), f"{word!r} on page {page} has lowercase letters"
            letter = height / BOX_EM * SMALLEST_GLYPH_EM
            assert letter >= 72, f"{word!r} on page {page}: letters {letter:.1f} pt high, under one inch"


def sheets(path: Path) -> list[str]:
    """Each page's text, read with pdftotext -layout, its words joined by single spaces."""
    layout = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True)
    return [" ".join(page.replace("\u00a0", " ").split()) for page in layout.stdout.split("\f") if page.strip()]


@pytest.mark.parametrize("lang, page_of", [("en", "PAGE {n} OF {m}"), ("fr", "PAGE {n} DE {m}")])
def test_each_wheel_sheet_says_its_licence_and_its_place_and_no_rule_is_split(quebec, lang, page_of):
    """The sheets are posted side by side: each names the licence at its head and "page N of M"
    at its foot; a rule of play is read whole on one sheet; and the text takes no more sheets than
    one-inch letters need with a quarter inch kept clear at every edge (eleven in English,
    fourteen in French: five lines of text a sheet)."""
    read = sheets(poster("WOF-1", lang))
    assert len(read) <= {"en": 11, "fr": 14}[lang], len(read)
    for n, page in enumerate(read, start=1):
        assert page.startswith("LICENCE F-2026-0117 "), page
        assert page.endswith(page_of.format(n=n, m=len(read))), page
    for rule in rules_paragraphs("wheel_of_fortune", lang):
        words = " ".join(rule.upper().split())
        if len(simpleSplit(words, "Helvetica-Bold", WHEEL_FONT_SIZE, _wheel_line_width())) > 5:
            continue  # longer than a sheet's text (French rule 5, six lines): it must go on to the next
        assert sum(words in page for page in read) == 1, f"{words!r} is not whole on one sheet"
    first = read[0]
    assert {"en": "18+ ONLY", "fr": "18+ SEULEMENT"}[lang] in first and "TABLE WOF-1" in first
    assert any("LAKESIDE FALL FAIR CASINO" in page and "LAKESIDE AGRICULTURAL SOCIETY" in page for page in read)


def word_boxes(path: Path):
    """(word, font size in points, yMax, page) of every word, from pdftotext -bbox; Helvetica and
    Helvetica-Bold have the same ascent and descent, so the size reads back the same way."""
    html = subprocess.run(["pdftotext", "-bbox", str(path), "-"], check=True, capture_output=True, text=True).stdout
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", html).replace(' xmlns="http://www.w3.org/1999/xhtml"', ""))
    for number, page in enumerate(root.iter("page"), start=1):
        for word in page.iter("word"):
            size = (float(word.get("yMax")) - float(word.get("yMin"))) / BOX_EM
            yield (word.text or "").replace("\u00a0", " "), size, float(word.get("yMax")), number


def test_no_wheel_line_runs_into_the_next_or_the_foot(quebec):
    """A parenthesis or a comma reaches 0.21 em below its line, and the next line's capitals stand
    0.718 em above theirs: the baselines are more than 0.928 em apart, on every sheet, the foot
    included (the French "(1 $)." once touched "PAGE 5 DE 10")."""
    for lang in ("en", "fr"):
        lines: dict = {}
        for _word, size, bottom, page in word_boxes(poster("WOF-1", lang)):
            lines.setdefault(page, {})[round(bottom, 1)] = size
        for page, found in lines.items():
            bottoms = sorted(found)
            for upper, lower in zip(bottoms, bottoms[1:], strict=False):
                assert lower - upper > 0.928 * found[lower], f"{lang} page {page}: lines {upper} and {lower} touch"


LETTER_TABLES = {"BJ-1": ["3 to 2", "2 to 1", "1 to 1"], "BAC-1": ["8 to 1", "1 to 1"], "CR-1": ["2 to 1", "1 to 1"]}
LARGE = 40  # pt: 18+ and the limits, read from a few metres (T&C 1.4.2, 3.5)
ODDS = 32  # pt: the payoff odds


@pytest.mark.parametrize("table", sorted(LETTER_TABLES))
def test_limits_odds_and_18_plus_are_large_on_the_first_page(quebec, table):
    words = list(word_boxes(poster(table, "en")))
    large = " ".join(word for word, size, _b, page in words if page == 1 and size >= LARGE - 0.2)
    for said in ["18+", "Bets from", "$5.00" if table != "BAC-1" else "$25.00"]:
        assert said in large, f"{table}: {said!r} is not {LARGE} pt or more on page 1: {large}"
    odds = " ".join(word for word, size, _b, page in words if page == 1 and size >= ODDS - 0.2)
    for said in LETTER_TABLES[table]:
        assert said in odds, f"{table}: {said!r} is not {ODDS} pt or more on page 1: {odds}"
    # The page's head and foot, and the rules of play, are still there.
    read = sheets(poster(table, "en"))
    assert read[0].endswith(f"page 1 of {len(read)}") and "Licence F-2026-0117" in read[0]
    assert "Rules of play" in " ".join(read)
    # The rules of play at reading size: nothing under 11 pt (the sections cited), the rules at 13.
    assert min(size for _w, size, _b, _p in words) >= 10.9
    rule = next(size for word, size, _b, page in words if page > 1 and word == "the")
    assert rule >= 12.9


@pytest.mark.parametrize("table", sorted(LETTER_TABLES))
@pytest.mark.parametrize("lang, page_of", [("en", "page {n} of {m}"), ("fr", "page {n} de {m}")])
def test_every_letter_page_says_its_table_licence_and_place(quebec, table, lang, page_of):
    read = sheets(poster(table, lang))
    assert len(read) >= 2 or table == "CR-1"
    game = {"BJ-1": "Blackjack", "BAC-1": "Baccarat" if lang == "en" else "Baccara", "CR-1": "Craps"}[table]
    for n, page in enumerate(read, start=1):
        assert page.startswith(f"{game} — table {table} Licence F-2026-0117 "), page[:80]
        assert page.endswith(page_of.format(n=n, m=len(read))), page[-80:]


def test_the_measure_would_catch_a_small_letter(quebec, tmp_path):
    """The blackjack poster's body text, at reading size, is well under the inch."""
    heights = [h for _w, h, _p in words_with_boxes(poster("BJ-1", "en"))]
    assert min(heights) / BOX_EM * SMALLEST_GLYPH_EM < 20


COLOUR_OPERATOR = re.compile(rb"([0-9.]+) ([0-9.]+) ([0-9.]+) (rg|RG)\b|([0-9.]+) (g|G)\b")


def inks(path: Path) -> set[tuple[float, float, float]]:
    """Every colour the PDF's pages set, from their drawing operators (rg/RG, g/G)."""
    raw = path.read_bytes()
    found = set()
    for stream in re.finditer(rb"(?<!end)stream\r?\n(.*?)endstream", raw, re.S):
        data = stream.group(1).strip()
        if data.endswith(b"~>"):  # reportlab's ASCII85 then Flate
            data = zlib.decompress(base64.a85decode(data[:-2].removeprefix(b"<~")))
        for m in COLOUR_OPERATOR.finditer(data):
            if m.group(4):
                found.add(tuple(float(m.group(i)) for i in (1, 2, 3)))
            else:
                grey = float(m.group(5))
                found.add((grey, grey, grey))
    return found


@pytest.mark.parametrize("table", [code for code, _game in TABLES])
def test_black_or_red_letters_on_white_only(quebec, table):
    path = poster(table, "fr")
    used = inks(path)
    assert (0.0, 0.0, 0.0) in used and used <= {(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)}, used
    # And as printed: every pixel is white, black or red, or an edge between white and one of them.
    png = ARTIFACTS / f"{table}-fr-page"
    subprocess.run(["pdftoppm", "-r", "40", "-f", "1", "-l", "2", "-png", str(path), str(png)], check=True)
    from PIL import Image

    red = False
    for image in sorted(ARTIFACTS.glob(f"{table}-fr-page*.png")):
        pixels = list(Image.open(image).convert("RGB").get_flattened_data())
        odd = {(r, g, b) for r, g, b in pixels if abs(g - b) > 8 or r < g - 8}
        assert not odd, f"{image.name}: colours neither black, red nor white: {sorted(odd)[:5]}"
        red = red or any(r > 200 and g < 60 for r, g, b in pixels)
    assert red, "the title is printed in red"


def test_the_poster_is_served_and_linked_from_the_tables_page(client, quebec):
    event, dric = quebec.event, quebec.dric
    assert client.login(username=dric.user.username, password=PASSWORD)
    page = client.get(reverse("events:tables", args=[event.slug])).content.decode()
    url = reverse("events:poster", args=[event.slug, "CR-1"])
    assert f"{url}?lang=en" in page and f"{url}?lang=fr" in page
    response = client.get(url, {"lang": "fr"})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    # Named by the table's code, as the staff know the table, not a number of the database.
    assert response["Content-Disposition"] == f'inline; filename="poster-{event.slug}-CR-1-fr.pdf"'
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "served-CR-1-fr.pdf").write_bytes(response.content)
    assert "Mises de 1,00 $ à 5,00 $" in text(ARTIFACTS / "served-CR-1-fr.pdf")


def test_a_bad_language_or_an_unknown_table_is_a_clear_404(client, quebec):
    event, dric = quebec.event, quebec.dric
    assert client.login(username=dric.user.username, password=PASSWORD)
    response = client.get(reverse("events:poster", args=[event.slug, "CR-1"]), {"lang": "de"})
    assert response.status_code == 404
    assert "in English (lang=en) or in French (lang=fr)" in response.content.decode()
    response = client.get(reverse("events:poster", args=[event.slug, "XX-9"]), {"lang": "en"})
    assert response.status_code == 404 and "The event has no table XX-9." in response.content.decode()
    with pytest.raises(CommandError, match="no table XX-9"):
        call_command("poster", "quebec", "XX-9", "--out", "/dev/null")


def test_a_poster_waits_for_the_licences_figures(client, quebec):
    event, dric = quebec.event, quebec.dric
    event.game_settings.filter(game="craps").delete()
    assert client.login(username=dric.user.username, password=PASSWORD)
    response = client.get(reverse("events:poster", args=[event.slug, "CR-1"]), {"lang": "en"}, follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("events:games", args=[event.slug])
    assert "cannot be printed: the administrator has not entered betting limits for Craps" in page
    with pytest.raises(CommandError, match="has not entered"):
        call_command("poster", "quebec", "CR-1", "--out", "/dev/null")


@pytest.mark.parametrize("lang,draws,stands", [("en", "H", "S"), ("fr", "T", "A")])
def test_the_banker_s_table_is_written_with_the_legend_s_letters(quebec, lang, draws, stands):
    # Section 37's row for a banker's 3: draws on every third card but an 8.
    path = poster("BAC-1", lang)
    layout = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True)
    lines = [line.split() for line in layout.stdout.splitlines()]
    row = next(words for words in lines if words[:1] == ["3"] and len(words) == 12)
    assert row[1:] == [draws] * 9 + [stands, draws], row


def test_the_wheel_s_payoff_odds_stay_on_one_sheet_when_they_fit_there(quebec):
    """The walk's French poster put "COTES" and "1 $ PAIE 1 À 1" at the foot of sheet 2 and the
    four other odds on sheet 3: a player compares the odds side by side. A heading and four odds
    are five lines, a sheet's text: they are printed together."""
    from events.models import GameTable
    from events.wheel_layouts import parse

    event = quebec.ontario
    event.name, event.licensee.name = "Gala", "Club"  # a short line before the odds: room on its sheet
    event.save()
    event.licensee.save()
    table = GameTable.objects.get(event=event, code="WOF-1")
    table.wheel_layout = parse("\n".join(["$1 1:1"] * 20 + ["$2 2:1"] * 8 + ["$5 5:1", "Joker 8:1"]))
    table.save()
    for lang, pays in (("en", " PAYS "), ("fr", " PAIE ")):
        read = sheets(poster("WOF-1", lang))
        holding = [n for n, page in enumerate(read) if pays in page]
        assert len(holding) == 1, f"{lang}: the odds are on sheets {holding}"
        assert read[holding[0]].count(pays) == 4


MARGIN = 0.25 * 72  # pt: a quarter inch, what a printer leaves unprinted


def page_boxes(path: Path):
    """(word, xMin, yMin, xMax, yMax, page width, page height, page) of every word, from pdftotext -bbox."""
    html = subprocess.run(["pdftotext", "-bbox", str(path), "-"], check=True, capture_output=True, text=True).stdout
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", html).replace(' xmlns="http://www.w3.org/1999/xhtml"', ""))
    for number, page in enumerate(root.iter("page"), start=1):
        width, height = float(page.get("width")), float(page.get("height"))
        for word in page.iter("word"):
            box = [float(word.get(k)) for k in ("xMin", "yMin", "xMax", "yMax")]
            yield (word.text or ""), *box, width, height, number


@pytest.mark.parametrize("table", [code for code, _game in TABLES])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_word_of_the_poster_stands_inside_the_page_with_a_margin(quebec, table, lang):
    """Nothing is clipped at the edge of the sheet: every word's box, as pdftotext -bbox measures
    it, stands at least a quarter inch inside each edge."""
    for word, x0, y0, x1, y1, width, height, page in page_boxes(poster(table, lang)):
        inside = x0 >= MARGIN and y0 >= MARGIN and x1 <= width - MARGIN and y1 <= height - MARGIN
        assert inside, f"{table} {lang} page {page}: {word!r} at ({x0:.1f}, {y0:.1f}, {x1:.1f}, {y1:.1f})"


@pytest.mark.parametrize(
    "lang, says",
    [
        ("en", "How this event settles a blackjack against the dealer's blackjack: a tie, pushed."),
        ("fr", "Comment cette activité règle un blackjack contre le blackjack du donneur : une égalité, mise de côté."),
    ],
)
def test_the_blackjack_poster_says_how_the_cage_settles_rule_3_1_3_in_both_texts(quebec, lang, says):
    """The French text's rule 3.1.3 has a blackjack beat the dealer's; the cage pushes it (the English
    text and rule 3.7): the poster says so, citing both, so the table never promises otherwise."""
    read = text(poster("BJ-1", lang)).replace("’", "'")
    assert says.replace("’", "'") in read
    assert "3.1.3" in read and "3.7" in read
