"""A game is its declaration (events/games/__init__.py): its module and its registration are the
whole of it, and nothing else in the product names a game.

- A game made up here, Crown and Anchor, registered for the test's length and in no other file,
  is offered where a licence's games are chosen, takes its settings on the games page, gets its
  tables, its poster and its place on the calculators page (with no calculator: it declares none).
- No branch of the product outside events/games/ names a game: no comparison, no key of a
  dispatch table, no case, in the code or in the templates. The registration's docstring lists
  the files a new game touches, and there are two.
"""

import ast
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from django.urls import reverse

from events import games, services
from events.games import Bet, Game, Payoff, Setting
from events.models import GameSettings
from tests.conftest import PASSWORD, add_person, event_form, make_event
from tests.source import parse

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("core", "events", "audit", "cage", "reports", "config")


class CrownAndAnchor(Game):
    def house_advantages(self, figures: dict, layout: dict | None = None) -> dict:
        """Three dice, six symbols: a bet on one pays 1 to 1 for each die showing it, the licence's
        odds when all three do, and loses when none does."""
        if "triple_pays" not in figures:
            return {}
        to, per = figures["triple_pays"]
        expected = Fraction(75 * 1 + 15 * 2, 216) + Fraction(1, 216) * Fraction(to, per) - Fraction(125, 216)
        return {"symbol": -expected}


CROWN_AND_ANCHOR = CrownAndAnchor(
    code="crown_and_anchor",
    name_en="Crown and Anchor",
    name_fr="Couronne et ancre",
    limits=None,
    max_payout_odds=(3, 1),
    max_payout_cents=None,
    rules=("Crown and Anchor rule 1", "Crown and Anchor rule 2"),
    payout_section="Crown and Anchor rule 2",
    settings=(
        Setting("limits", "Betting limits", "limits", (100, 500)),
        Setting("triple_pays", "Three dice showing the symbol pay", "odds", (3, 1)),
    ),
    bets=(Bet("symbol", "A symbol"),),
    fixed_payoffs=(Payoff("A symbol, for each die showing it", (1, 1), "Crown and Anchor rule 2"),),
    rules_text={
        "en": "1. THE GAME\nThree dice are thrown from a cage.\n2. PAYOFFS\nEach die showing the symbol pays 1 to 1.",
        "fr": "1. LE JEU\nTrois dés sont lancés d’une cage.\n2. GAINS\nChaque dé qui montre le symbole paie 1 à 1.",
    },
    section_names=((r"^Crown and Anchor rule (?P<rule>.+)$", "Crown and Anchor rule %(rule)s"),),
)


@pytest.fixture
def crown_and_anchor(monkeypatch):
    """The game registered, as a line of events/games/__init__.py registers one, and gone after."""
    monkeypatch.setitem(games.REGISTRY, CROWN_AND_ANCHOR.code, CROWN_AND_ANCHOR)
    return CROWN_AND_ANCHOR


@pytest.fixture
def fair(db, crown_and_anchor):
    """An Ontario event whose licence authorizes blackjack and the new game, with a DRIC."""
    event = make_event("crown-fair", games=("blackjack", "crown_and_anchor"))
    return event, add_person(event, "dric", "dric")


def _page(client, name, event, **query):
    response = client.get(reverse(name, args=[event.slug]), query)
    assert response.status_code == 200, (name, response.status_code)
    return response.content.decode()


@pytest.mark.django_db
def test_a_new_game_is_offered_where_a_licence_s_games_are_chosen(client, crown_and_anchor, admin_user):
    client.force_login(admin_user)
    page = client.get(reverse("events:create")).content.decode()
    assert 'value="crown_and_anchor"' in page and "Crown and Anchor" in page
    data = event_form(games=["crown_and_anchor"])
    response = client.post(reverse("events:create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    page = client.get(response.url).content.decode()
    assert "Crown and Anchor" in page


def test_the_games_page_takes_the_new_game_s_settings(client, fair, admin_user):
    event, _dric = fair
    client.force_login(admin_user)
    page = _page(client, "events:games", event)
    section = page.split('id="game-crown_and_anchor"', 1)[1].split("</section>", 1)[0]
    assert "Crown and Anchor" in section and "Three dice showing the symbol pay" in section
    assert "A symbol, for each die showing it" in section  # the odds its rules set, posted already
    form = {
        "crown_and_anchor-game": "crown_and_anchor",
        "crown_and_anchor-min_bet": "1",
        "crown_and_anchor-max_bet": "5",
        "crown_and_anchor-triple_pays": "3:1",
    }
    response = client.post(reverse("events:games", args=[event.slug]), form)
    assert response.status_code == 302
    assert GameSettings.objects.get(event=event, game="crown_and_anchor").figures["triple_pays"] == [3, 1]
    section = _page(client, "events:games", event).split('id="game-crown_and_anchor"', 1)[1].split("</section>")[0]
    assert "Bets from $1.00 to $5.00" in section and "Not entered yet" not in section
    assert "A symbol: 7.87%" in section  # 17/216, the house's, beside the odds


def test_a_table_of_the_new_game_is_set_up_and_posts_its_rules(client, fair, admin_user):
    event, dric = fair
    client.force_login(admin_user)
    response = client.post(reverse("events:tables", args=[event.slug]), {"code": "CA-1", "game": "crown_and_anchor"})
    assert response.status_code == 302
    page = _page(client, "events:tables", event)
    [row] = [row for row in page.split("<tr")[1:] if ">CA-1<" in row]
    assert "Crown and Anchor" in row and "poster-en" in row and 'class="layout"' not in row
    # It has no wheel: no layout to set.
    assert client.get(reverse("events:wheel_layout", args=[event.slug, "CA-1"])).status_code == 404
    poster = reverse("events:poster", args=[event.slug, "CA-1"])
    refused = client.get(poster, {"lang": "en"}, follow=True).content.decode()
    assert "cannot be printed: the administrator has not entered betting limits" in refused
    services.game_settings_set(
        event=event, game="crown_and_anchor", entered={"limits": ("1", "5"), "triple_pays": "3:1"}
    )
    for lang in ("en", "fr"):
        response = client.get(poster, {"lang": lang})
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    if shutil.which("pdftotext"):
        read = subprocess.run(["pdftotext", "-", "-"], input=response.content, capture_output=True, check=True).stdout
        assert "Chaque dé qui montre le symbole paie 1 à 1." in read.decode()


def test_the_calculators_page_shows_the_new_game_without_a_calculator(client, fair):
    event, dric = fair
    assert client.login(username=dric.user.username, password=PASSWORD)
    page = _page(client, "events:calculators", event)
    section = page.split('id="calc-crown_and_anchor"', 1)[1].split("</section>", 1)[0]
    assert "<h2>Crown and Anchor</h2>" in section and "No calculator for this game" in section
    assert "<form" not in section
    assert "Waiting for the licence&#x27;s settings: betting limits, three dice showing the symbol pay." in section
    assert 'id="calc-blackjack"' in page  # the others keep theirs
    # Asked for all the same (a link kept from elsewhere), it answers with the page, not an error.
    section = _page(client, "events:calculators", event, calc="crown_and_anchor").split('id="calc-crown_and_anchor"')[1]
    assert 'class="answer"' not in section.split("</section>", 1)[0]
    services.game_settings_set(
        event=event, game="crown_and_anchor", entered={"limits": ("1", "5"), "triple_pays": "3:1"}
    )
    section = _page(client, "events:calculators", event).split('id="calc-crown_and_anchor"', 1)[1]
    assert "A symbol: 7.87%" in section.split("</section>", 1)[0]


def test_the_new_game_s_tables_reach_the_reports(client, fair, admin_user):
    event, _dric = fair
    services.table_create(event=event, code="CA-1", game="crown_and_anchor")
    client.force_login(admin_user)
    response = client.get(reverse("reports:event_pdf", args=[event.slug]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    if shutil.which("pdftotext"):
        read = subprocess.run(["pdftotext", "-", "-"], input=response.content, capture_output=True, check=True).stdout
        assert "Crown and Anchor" in read.decode()


# --- nothing else names a game -------------------------------------------------------------------


def _codes() -> set[str]:
    return set(games.REGISTRY)


def _branches_naming_a_game(tree: ast.AST, codes: set[str]) -> list[tuple[int, str]]:
    """Where a game's code is compared with (==, !=, in), is a key of a dispatch table, or is a case."""

    def literals(node):
        if isinstance(node, ast.Constant) and node.value in codes:
            yield node
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            for element in node.elts:
                yield from literals(element)

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            candidates = [node.left, *node.comparators]
        elif isinstance(node, ast.Dict):
            candidates = [key for key in node.keys if key is not None]
        elif isinstance(node, ast.MatchValue):
            candidates = [node.value]
        elif isinstance(node, ast.Subscript):
            candidates = [node.slice]
        else:
            continue
        found += [(literal.lineno, literal.value) for c in candidates for literal in literals(c)]
    return found


def _outside_the_games():
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts or relative.parts[:2] == ("events", "games"):
                continue
            yield path


# A template tag that compares with a game's code: {% if s.code == "baccarat" %}.
TAG = re.compile(r"{%.*?%}", re.S)


def _template_tags_naming_a_game(text: str, codes: set[str]) -> list[str]:
    return [tag for tag in TAG.findall(text) for code in codes if f'"{code}"' in tag or f"'{code}'" in tag]


def test_no_branch_outside_the_game_modules_names_a_game():
    codes = _codes()
    found = [
        f"{path.relative_to(ROOT)}:{line}: {code!r}"
        for path in _outside_the_games()
        for line, code in _branches_naming_a_game(parse(path.read_text(), filename=str(path)), codes)
    ]
    found += [
        f"{path.relative_to(ROOT)}: {tag}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for tag in _template_tags_naming_a_game(path.read_text(), codes)
    ]
    assert not found, "a game is its declaration (events/games/__init__.py); these name one:\n" + "\n".join(found)


def test_the_check_sees_a_branch_on_a_game():
    """The check above can fail: each kind of branch on a game's name is seen."""
    source = (
        'if code == "craps": pass\n'
        'if table.game in ("baccarat", "x"): pass\n'
        'answer = {"blackjack": 1}[code]\n'
        'match code:\n    case "wheel_of_fortune": pass\n'
        'hand.get("blackjack")\n'  # a hand that is a blackjack: a word of the game, no branch on one
    )
    found = _branches_naming_a_game(parse(source), {"craps", "baccarat", "blackjack", "wheel_of_fortune"})
    assert found == [(1, "craps"), (2, "baccarat"), (3, "blackjack"), (5, "wheel_of_fortune")]
    assert _template_tags_naming_a_game('{% elif s.code == "craps" %}', {"craps"})


def test_a_new_game_touches_two_files_and_the_registration_says_which():
    docstring = ast.get_docstring(parse((ROOT / "events/games/__init__.py").read_text()))
    listed = re.findall(r"^- (events/games/\S+?):", docstring, re.M)
    assert listed == ["events/games/<code>.py", "events/games/__init__.py"], listed
