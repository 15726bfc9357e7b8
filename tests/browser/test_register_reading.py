"""The register and the voids read by a newcomer, in English and in French, at the cage's screen
(1366 px) and a tablet's (768 px): a voided slip's row is as readable as any other, and every column
of the register is on the page (nothing cut off at its edge, nothing hidden)."""

import os

import pytest

from events.models import Person
from tests.browser.conftest import WIDTHS, log_in
from tests.browser.test_cage_french import in_french
from tests.cage.test_registers import two_days
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("REGISTER_SHOTS")  # a folder to photograph the pages into, when looking at them

# WCAG 2's contrast ratio of the text's colour against the background it is painted on (the first
# one not transparent, from the cell up); both colours as rgb()/rgba() strings from getComputedStyle.
CONTRAST = """
(el) => {
  const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
  const background = (node) => {
    for (; node; node = node.parentElement) {
      const c = rgb(getComputedStyle(node).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  const luminance = ([r, g, b]) => {
    const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const text = rgb(getComputedStyle(el).color), back = background(el);
  const [a, b] = [luminance(text), luminance(back)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}
"""

# Each cell whose content runs past its own box (and so past what the reader sees of it), and
# whether the table runs past its box: both must be none.
CLIPPED = """
(table) => {
  const box = table.parentElement;
  const cells = [...table.querySelectorAll("td, th")].filter(
    (td) => getComputedStyle(td).display !== "none" && td.scrollWidth > td.clientWidth + 1
  ).map((td) => td.innerText);
  return {cells, wider: table.scrollWidth > box.clientWidth + 1, hidden: [...table.querySelectorAll("th, td")]
    .filter((c) => getComputedStyle(c).display === "none" && c.innerText.trim() && c.tagName === "TD").length};
}
"""


def photograph(page, name):
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def at_each_width(page, name, check):
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, width)
        check(width)
        photograph(page, f"{name}-{width}")


def voided_rows_read(page, width):
    cells = page.locator("#register tbody tr.state-voided td")
    assert cells.count() >= 10, width  # the voided sale's every cell
    for i in range(cells.count()):
        cell = cells.nth(i)
        if not cell.is_visible():
            continue
        for el in [cell, *cell.locator("*").all()]:
            if el.inner_text().strip():
                ratio = el.evaluate(CONTRAST)
                assert ratio >= 4.5, (width, el.inner_text(), ratio)
    # Still marked as voided: its own background, and its state says so.
    row = page.locator("#register tbody tr.state-voided").first
    assert row.locator(".state.voided").is_visible()
    assert page.evaluate(
        "() => { const r = document.querySelector('#register tbody tr.state-voided');"
        " const td = r.querySelector('td'); const bg = (e) => getComputedStyle(e).backgroundColor;"
        " return [bg(r), bg(td)].some((c) => c !== 'rgba(0, 0, 0, 0)' && c !== 'rgb(255, 255, 255)'); }"
    ), width


def whole_table(page, selector):
    def check(width):
        found = page.locator(selector).evaluate(CLIPPED)
        assert found == {"cells": [], "wider": False, "hidden": 0}, (selector, width, found)

    return check


def test_a_voided_row_reads_as_well_as_any_in_english_and_french(page):
    cast = two_days(make_cast())
    log_in(page, cast.dric.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/register/?state=voided")
    page.wait_for_selector("#register")
    at_each_width(page, "register-voided-en", lambda w: voided_rows_read(page, w))
    in_french(page)
    page.wait_for_selector("#register tbody tr.state-voided")
    at_each_width(page, "register-voided-fr", lambda w: voided_rows_read(page, w))


def test_every_column_of_the_register_and_voids_is_on_the_page_in_french(page):
    cast = two_days(make_cast())
    # Names as long as people's are: the one that was clipped ("Dana Kowals…"), and a longer one.
    Person.objects.filter(pk=cast.chip_cashier.pk).update(name="Dana Kowalski-Beauregard")
    Person.objects.filter(pk=cast.dric.pk).update(name="Marie-Ève Castonguay-Lefebvre")
    log_in(page, cast.dric.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/register/")
    page.wait_for_selector("#register")
    at_each_width(page, "register-en", whole_table(page, "#register"))
    in_french(page)
    page.wait_for_selector("#register")
    at_each_width(page, "register-fr", whole_table(page, "#register"))
    # The last column, the note with the void's reason, in full.
    page.set_viewport_size({"width": 1366, "height": 900})
    # The void's note ("Annule la fiche …"); the voided sale's names its void with the same reason.
    note = page.locator("#register td.col-note", has_text="Annule la fiche")
    assert note.is_visible() and "Wrong chips handed over" in note.inner_text()
    voided = page.locator("#register td.col-note", has_text="Annulée par la fiche")
    assert voided.is_visible() and "Wrong chips handed over" in voided.inner_text()
    box, main = note.bounding_box(), page.locator("main").bounding_box()
    assert box["x"] + box["width"] <= main["x"] + main["width"] + 1
    page.goto(f"/cage/{cast.event.slug}/register/voids/")
    page.wait_for_selector("#voids")
    at_each_width(page, "voids-fr", whole_table(page, "#voids"))
    page.click("#language-en-ca")
    page.wait_for_selector('html[lang="en-ca"]')
    at_each_width(page, "voids-en", whole_table(page, "#voids"))


def test_a_choice_not_in_its_list_is_said_beside_its_box_and_lists_nothing(page):
    cast = two_days(make_cast())
    log_in(page, cast.dric.user.username, PASSWORD)
    in_french_at = f"/cage/{cast.event.slug}/register/?day=abc&type=fill"
    page.goto(in_french_at)
    in_french(page)
    page.wait_for_selector("#register-refused")

    def check(width):
        error = page.locator("#id_day_error")
        assert error.is_visible() and "abc" in error.inner_text()
        # The error sits under its own box, and the boxes of the first line stay in line.
        day, kind = page.locator("#id_day").bounding_box(), page.locator("#id_type").bounding_box()
        assert abs(day["y"] - kind["y"]) < 1, width
        box = error.bounding_box()
        assert box["y"] >= day["y"] + day["height"] and box["x"] < day["x"] + day["width"], width
        assert page.locator("#register").count() == 0 and page.locator("#export-csv").count() == 0

    at_each_width(page, "register-refused-fr", check)
    page.goto(f"/cage/{cast.event.slug}/register/voids/?day=abc")
    page.wait_for_selector("#voids-refused")
    at_each_width(page, "voids-refused-fr", lambda width: page.locator("#id_day_error").is_visible())
