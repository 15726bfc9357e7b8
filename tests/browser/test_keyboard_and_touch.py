"""Keyboard and touch (issue 25): "Skip to content" comes first on every page and lands on the page's
own content; the focus ring is plain to see; the cage home's shortcuts open a new slip's form and
the search, never while typing; at a tablet's width (768 px) every button, box and link in a table
is at least 44 px tall, measured in the browser. In English and in French, at 1366 and 768 px."""

import pytest

from cage import services
from cage.shortcuts import KEYS
from tests.browser.conftest import at_both_widths, follow, person_page
from tests.cage.helpers import stock
from tests.conftest import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every control a finger taps, visible on the page, with its size: (what, height, width).
MEASURE = """() => {
  const seen = [...document.querySelectorAll(
    'button, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea, a.button, summary.button, table a, label.pick, .notice a'
  )].filter(el => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden');
  return seen.map(el => {
    const box = el.getBoundingClientRect();
    return [el.outerHTML.slice(0, 80), box.height, box.width, el.tagName];
  });
}"""


@pytest.fixture
def cast():
    return make_cast()


def too_small(page):
    return [
        (html, round(height), round(width))
        for html, height, width, tag in page.evaluate(MEASURE)
        # A button, and a tick box's label (the queue's), are as wide as they are tall.
        if height < 44 or (tag in ("BUTTON", "LABEL") and width < 44)
    ]


# What a person types or chooses reads at 16 px or more: a tablet zooms into a smaller box's text.
FIELDS_TEXT = """() => [...document.querySelectorAll(
    'select, textarea, input:not([type=checkbox]):not([type=radio]):not([type=hidden])'
  )].filter(el => el.offsetParent !== null)
   .map(el => [el.outerHTML.slice(0, 80), parseFloat(getComputedStyle(el).fontSize)])"""


def small_text(page):
    return [(html, size) for html, size in page.evaluate(FIELDS_TEXT) if size < 16]


def test_the_skip_link_comes_first_and_lands_on_the_content(browser, live_server, cast):
    page = person_page(browser, live_server, cast.chip_cashier)
    page.goto(f"/cage/{cast.event.slug}/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    # Hidden until it has focus, then shown on the page.
    assert page.evaluate("document.activeElement.getBoundingClientRect().top") >= 0
    page.keyboard.press("Enter")
    # Following a link within the page is asynchronous: wait for it (a timeout here fails the test).
    page.wait_for_url("**#content")
    page.wait_for_function("document.activeElement.id === 'content'")
    # The next Tab goes on past the header and the event's menu, into the page's own content.
    page.keyboard.press("Tab")
    assert page.evaluate("!!document.activeElement.closest('#content')")
    page.context.close()


def test_the_focus_ring_is_plain_to_see(browser, live_server, cast):
    page = person_page(browser, live_server, cast.chip_cashier)
    page.goto(f"/cage/{cast.event.slug}/")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # the header's first link: focused from the keyboard
    ring = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor]; })()"
    )
    assert ring[0] == "solid" and ring[1] >= 3, ring
    page.context.close()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_cage_home_shortcuts_open_a_sale_and_the_search(browser, live_server, cast, language):
    page = person_page(browser, live_server, cast.general_cashier)
    if language == "fr":
        follow(page, "#language-fr-ca")
    page.goto(f"/cage/{cast.event.slug}/")
    page.click("#keyboard-help summary")
    keys = page.eval_on_selector_all("#keyboard-help [data-key]", "els => els.map(e => e.dataset.key)")
    # One key for each of sale, redemption, fill and credit the page offers (a fill or a credit only
    # once a table is open), and one for the search: the keys of the page's language (cage.shortcuts).
    offered = page.eval_on_selector_all("#slip-types a", "els => els.map(e => e.getAttribute('href'))")
    own = KEYS[language]
    wanted = {own[t]: t for t in ("sale", "redemption", "fill", "credit")}
    assert set(keys) == {own["find"]} | {k for k, t in wanted.items() if any(h.endswith(f"/new/{t}/") for h in offered)}
    assert {own["sale"], own["redemption"]} <= set(keys)
    at_both_widths(page, f"cage-home-keyboard-{language}")
    page.set_viewport_size({"width": 1366, "height": 900})
    # "/" ("T" in French) puts the cursor in "Find a slip"; a letter typed there is typed, not a shortcut.
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press(own["find"])
    assert page.evaluate("document.activeElement.id") == "slip-filter"
    page.keyboard.type(own["sale"])
    assert page.input_value("#slip-filter") == own["sale"] and page.url.endswith(f"/cage/{cast.event.slug}/")
    page.evaluate("document.activeElement.blur()")
    with page.expect_navigation():
        page.keyboard.press(own["sale"])
    assert page.url.endswith(f"/cage/{cast.event.slug}/slips/new/sale/")
    assert page.locator("#slip-form").is_visible()
    page.context.close()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_control_is_44_px_tall_on_a_tablet(browser, live_server, cast, language):
    # A sale waiting for her witness: the queue shows its tick box.
    stock(cast)
    services.sale(
        day=cast.day, chips={"5": 2}, cash=1000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    page = person_page(browser, live_server, cast.dric, width=768, height=1024)
    if language == "fr":
        follow(page, "#language-fr-ca")
    slug = cast.event.slug
    for path in (
        f"/cage/{slug}/",
        f"/cage/{slug}/queue/",
        f"/cage/{slug}/slips/new/fill/",
        f"/cage/{slug}/register/",
        f"/events/{slug}/people/",
    ):
        page.goto(path)
        assert page.evaluate(MEASURE), path
        assert too_small(page) == [], path
        assert small_text(page) == [], path
    page.goto(f"/cage/{slug}/")
    at_both_widths(page, f"touch-targets-cage-home-{language}")
    # A table's code holds on one line at a tablet's width: WOF-1, never WOF- / 1.
    page.set_viewport_size({"width": 768, "height": 1024})
    lines = page.eval_on_selector_all(
        "#table-states tbody tr[data-table] > th",
        "els => els.map(el => { const r = document.createRange(); r.selectNodeContents(el);"
        " return [el.textContent.trim(), new Set([...r.getClientRects()].map(b => Math.round(b.top))).size]; })",
    )
    assert lines and all(n == 1 for _code, n in lines), lines
    page.context.close()
