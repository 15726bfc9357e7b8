"""What a new user's walk of the cage found, mended and tried in a real browser, in English and in
French, at the cage's width (1366 px) and a tablet's (768 px), each page photographed:

- the DRIC's batch confirmation says "Authorized by:" once, not "Authorized by: your witness: …";
- a disclosure ("Keyboard", "Void…") shows its open or closed marker at every width;
- each tick box of the DRIC's queue is named, to a screen reader, by the slip it selects;
- the fill request's Note hint sits on a line of its own, under its box;
- after a slip is recorded, "Record another" and the way back stand apart, each a 44 px target;
- no "·" starts or ends a line where a list of names or links wraps;
- the cage home's keys follow the reader's language (V for vente in French), as its help says.
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from cage import services
from cage.models import Slip
from cage.shortcuts import KEYS
from tests.browser.conftest import WIDTHS, follow, person_page
from tests.browser.test_cage_french import in_french
from tests.browser.test_queue_batch import sale
from tests.cage.helpers import open_table, stock
from tests.conftest import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("WALK_SHOTS", "/tmp/shots/looks"))
LANGUAGES = ["en", "fr"]


def photograph(page, name):
    """The page at both widths, nothing sticking out sideways; the view is left at 1366 px."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, width)
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 900})


def in_language(page, language):
    if language == "fr":
        in_french(page)


def fill_in_transit(cast) -> Slip:
    return services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"25": 10},
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner"),
        allow_pending=True,
    )


@pytest.fixture
def cast():
    """The bank stocked, BJ-1 open on the dealer's opener, a fill on its way and a sale waiting."""
    cast = make_cast()
    stock(cast)
    open_table(cast)
    fill_in_transit(cast)
    sale(cast, 2)
    return cast


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_queue_names_each_box_and_the_confirmation_says_authorized_by_once(browser, live_server, cast, language):
    ann = person_page(browser, live_server, cast.dric, height=900)
    try:
        ann.goto(f"/cage/{cast.event.slug}/queue/")
        in_language(ann, language)
        # Each box is named by its slip, in the reader's language ("Vente de jetons 1"), and the
        # name is read, not shown.
        waiting = list(Slip.objects.filter(slip_type__in=["sale", "fill"]).order_by("pk"))
        for slip in waiting:
            number = ann.inner_text(f'#queue tr[data-slip="{slip.pk}"] a.slipno')
            box = ann.get_by_role("checkbox", name=number)
            expect(box).to_have_count(1)
            assert box.get_attribute("id") == f"pick-{slip.pk}"
            assert ann.eval_on_selector(f"#pick-{slip.pk} + .a11y-only", "s => s.getBoundingClientRect().width") <= 1
        if language == "en":
            expect(ann.get_by_role("checkbox", name=f"Select {waiting[0].number}", exact=True)).to_have_count(1)
        photograph(ann, f"walk-queue-{language}")

        for slip in waiting:
            ann.check(f"#pick-{slip.pk}")
        follow(ann, "#approve-selected")
        cells = ann.locator("#batch td.hers")
        expect(cells).to_have_count(2)
        for text in cells.all_inner_texts():
            first_line = text.strip().splitlines()[0]
            # One sentence naming the capacity, with one colon: a witness is said to be one.
            assert first_line.count(":") == 1, first_line
            assert "::" not in text.replace(" ", "").replace("\u00a0", "")
        if language == "en":
            assert "Your signature as “Authorized by” witnesses it: nothing moves." in cells.first.inner_text()
        photograph(ann, f"walk-batch-confirm-{language}")
    finally:
        ann.context.close()


# The marker a summary shows, as the page draws it, and whether it has room on the page.
MARKER = """s => { const m = getComputedStyle(s, '::before');
  return [m.content, parseFloat(m.width), getComputedStyle(s).display, s.getBoundingClientRect().height]; }"""


def marker_of(page, summary):
    content, width, display, height = page.eval_on_selector(summary, MARKER)
    return content, width, display, height


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", WIDTHS)
def test_a_disclosure_shows_open_or_closed_at_every_width(browser, live_server, cast, language, width):
    ann = person_page(browser, live_server, cast.dric, width=width, height=900)
    try:
        ann.goto(f"/cage/{cast.event.slug}/")
        in_language(ann, language)
        sale = Slip.objects.get(slip_type="sale")
        for path, summary in (
            (f"/cage/{cast.event.slug}/", "#keyboard-help > summary"),
            (f"/cage/{cast.event.slug}/queue/", f'#queue tr[data-slip="{sale.pk}"] details.void > summary'),
        ):
            ann.goto(path)
            content, marker_width, display, height = marker_of(ann, summary)
            assert "▶" in content and marker_width > 0, (path, content, marker_width)
            if width < 1024:
                assert display == "inline-flex" and height >= 44, (path, display, height)  # still a finger's target
            ann.click(summary)
            content, marker_width, _display, _height = marker_of(ann, summary)
            assert "▼" in content and marker_width > 0, (path, content)
            name = "keyboard" if "keyboard" in summary else "void"
            ann.screenshot(path=str(SHOTS / f"walk-disclosure-{name}-open-{language}-{width}.png"), full_page=True)
    finally:
        ann.context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_fill_request_note_hint_has_a_line_of_its_own(browser, live_server, cast, language):
    dealer = person_page(browser, live_server, cast.dealer, width=768, height=1024)
    try:
        dealer.goto(f"/cage/{cast.event.slug}/me/")
        in_language(dealer, language)
        note = dealer.locator("#fill-request-form input[name=note]")
        hint = dealer.locator("#fill-request-form .helptext")
        expect(hint).to_be_visible()
        assert note.get_attribute("aria-describedby") == hint.get_attribute("id")  # read with the box
        for width in WIDTHS:
            dealer.set_viewport_size({"width": width, "height": 1024})
            box, under = note.bounding_box(), hint.bounding_box()
            assert under["y"] >= box["y"] + box["height"] + 2, (width, box, under)  # below it, a gap between
            assert under["x"] < box["x"] + box["width"]  # under the box, not beside it
        photograph(dealer, f"walk-fill-request-{language}")
    finally:
        dealer.context.close()


def apart(page, one, other) -> float:
    """The room between two boxes on the page: across if side by side, down if one under the other."""
    a, b = page.locator(one).bounding_box(), page.locator(other).bounding_box()
    across = max(b["x"] - (a["x"] + a["width"]), a["x"] - (b["x"] + b["width"]))
    down = max(b["y"] - (a["y"] + a["height"]), a["y"] - (b["y"] + b["height"]))
    return max(across, down)


@pytest.mark.parametrize("language", LANGUAGES)
def test_record_another_stands_apart_from_the_way_back(browser, live_server, cast, language):
    cc = person_page(browser, live_server, cast.chip_cashier, height=900)
    try:
        cc.goto(f"/cage/{cast.event.slug}/slips/new/sale/")
        in_language(cc, language)
        cc.fill("input[name=chips_5]", "4")
        follow(cc, "#slip-form button[type=submit]")
        expect(cc.locator("#record-another")).to_be_visible()
        # The slip's page: "Record another" clear of the slip's facts below it, and the way back at
        # its foot a finger's target too.
        for width in WIDTHS:
            cc.set_viewport_size({"width": width, "height": 900})
            assert apart(cc, "#record-another", "table.facts") >= 12, width
            for link in ("#record-another", "#slip-back a"):
                assert cc.locator(link).bounding_box()["height"] >= 44, (link, width)
        photograph(cc, f"walk-slip-recorded-detail-{language}")
        # Back to the form that recorded it: "Record another" and "Back to the cage", apart.
        cc.go_back()
        cc.wait_for_selector("#form-recorded")
        for width in WIDTHS:
            cc.set_viewport_size({"width": width, "height": 900})
            assert apart(cc, "#record-another", "#back-to-cage") >= 12, width
            for link in ("#record-another", "#back-to-cage"):
                assert cc.locator(link).bounding_box()["height"] >= 44, (link, width)
        photograph(cc, f"walk-slip-recorded-{language}")
    finally:
        cc.context.close()


# Every "·" in the element's text that a wrap leaves at the start or at the end of a line: the
# line box of the character before it (or after it) is not the dot's own.
DANGLING = """root => { const found = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const top = (node, i) => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
    const rects = r.getClientRects(); return rects.length ? Math.round(rects[0].top) : null; };
  while (walker.nextNode()) { const node = walker.currentNode, text = node.data;
    if (!node.parentElement.offsetParent) continue;
    for (let i = text.indexOf('·'); i !== -1; i = text.indexOf('·', i + 1)) {
      let b = i - 1; while (b >= 0 && /\\s/.test(text[b])) b--;
      let a = i + 1; while (a < text.length && /\\s/.test(text[a])) a++;
      const dot = top(node, i);
      if (b < 0 || top(node, b) !== dot) found.push(['starts a line', text]);
      if (a >= text.length || top(node, a) !== dot) found.push(['ends a line', text]);
    } }
  return found; }"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_separator_starts_or_ends_a_line(browser, live_server, cast, language):
    # A runner with a long name: the slips' "About" cells wrap at a tablet's width.
    cast.runner.name = "Marie-Ève Castonguay-Lefebvre"
    cast.runner.save()
    cc = person_page(browser, live_server, cast.chip_cashier, height=900)
    try:
        cc.goto(f"/cage/{cast.event.slug}/")
        in_language(cc, language)
        for width in (*WIDTHS, 600):
            cc.set_viewport_size({"width": width, "height": 900})
            assert cc.eval_on_selector("#slip-types", "ul => ul.textContent.includes('·')") is False
            for where in ("#slip-types", "#pending-slips", "#slips"):
                assert cc.eval_on_selector(where, DANGLING) == [], (where, width)
        # The new slip's links are still every type offered, each its own target.
        assert cc.locator("#slip-types li > a").count() >= 4
        # What the fill is about: its table and its runner, joined as words are, by a comma.
        about = cc.inner_text("#pending-slips tbody tr:has-text('Castonguay') td:nth-child(2)")
        assert "BJ-1, Marie-Ève Castonguay-Lefebvre" in about.replace("\n", " "), about
        photograph(cc, f"walk-home-lists-{language}")
    finally:
        cc.context.close()


LABELS = {
    "en": {"s": "Chip sale", "r": "Redemption", "f": "Fill", "c": "Credit", "/": "Find a slip of the day"},
    "fr": {
        "v": "Vente de jetons",
        "r": "Rachat de jetons",
        "p": "Remplissage",
        "c": "Crédit",
        "t": "Trouver une fiche",
    },
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_keys_follow_the_language_and_its_help(browser, live_server, cast, language):
    slug = cast.event.slug
    cc = person_page(browser, live_server, cast.general_cashier, height=900)
    try:
        cc.goto(f"/cage/{slug}/")
        in_language(cc, language)
        cc.click("#keyboard-help summary")
        # The help: each key printed beside what it does, and the same key the script acts on.
        shown = cc.eval_on_selector_all(
            "#keyboard-help dt",
            "dts => dts.map(dt => [dt.innerText.trim(), dt.nextElementSibling.dataset.key, dt.nextElementSibling.innerText])",
        )
        keys = KEYS[language]
        # The page's order: the types as the window lists them, then the search.
        assert sorted(key for _printed, key, _what in shown) == sorted(keys.values())
        assert shown[-1][1] == keys["find"]
        for printed, key, what in shown:
            assert printed == key.upper()
            assert LABELS[language][key] in what, (key, what)
        photograph(cc, f"walk-keyboard-help-{language}")

        cc.locator("body").click(position={"x": 5, "y": 300})
        other = {"en": "v", "fr": "s"}[language]  # the other language's key for a sale does nothing
        cc.keyboard.press(other)
        cc.wait_for_timeout(300)
        assert cc.url.endswith(f"/cage/{slug}/")
        cc.keyboard.press(keys["find"])
        assert cc.evaluate("document.activeElement.id") == "slip-filter"
        assert cc.input_value("#slip-filter") == ""  # the key puts the cursor there, types nothing
        cc.evaluate("document.activeElement.blur()")
        for action in ("sale", "fill"):
            with cc.expect_navigation():
                cc.keyboard.press(keys[action])
            assert cc.url.endswith(f"/cage/{slug}/slips/new/{action}/"), action
            cc.go_back()
            cc.wait_for_selector("#keyboard-help")
    finally:
        cc.context.close()
