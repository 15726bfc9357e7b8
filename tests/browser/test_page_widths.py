"""Every cage page at the cage's 1366 px screen and a table's 768 px tablet: nothing wider than the
window, and a screenshot of each to look at."""

import pytest

from cage import services
from cage.models import Slip
from cage.slip_types import ENTRY_KINDS
from tests.browser.conftest import log_in, screenshot
from tests.cage.helpers import open_table, stock
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = ((1366, 768), (768, 1024))


def busy_day():
    cast = make_cast()
    stock(cast)
    open_table(cast)
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"1": 50, "5": 20},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    services.sale(
        day=cast.day, chips={"5": 10}, cash=5000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"5": 40},
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner2"),
        allow_pending=True,
    )
    return cast


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def visit_all(browser, live_server, person, paths, name):
    for width, height in WIDTHS:
        context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(15_000)
        log_in(page, person.user.username, PASSWORD)
        wide = []
        for label, path in paths:
            response = page.goto(path)
            assert response.status < 400, (path, response.status)
            screenshot(page, f"width-{name}-{label}-{width}")
            if not fits(page):
                wide.append(label)
        context.close()
        assert wide == [], f"wider than {width} px: {wide}"


def test_the_cage_pages_fit_the_cage_screen_and_a_tablet(browser, live_server):
    cast = busy_day()
    slug = cast.event.slug
    fill = Slip.objects.get(slip_type="fill")
    paths = [
        ("home", f"/cage/{slug}/"),
        ("queue", f"/cage/{slug}/queue/"),
        ("close", f"/cage/{slug}/close/"),
        ("register", f"/cage/{slug}/register/"),
        ("voids", f"/cage/{slug}/register/voids/"),
        ("fill-slip", f"/cage/{slug}/slips/{fill.pk}/"),
        ("mine", f"/cage/{slug}/me/"),
    ] + [(k.type.value, f"/cage/{slug}/slips/new/{k.type.value}/") for k in ENTRY_KINDS]
    visit_all(browser, live_server, cast.chip_cashier, paths, "cc")


def test_the_floor_pages_fit_a_tablet(browser, live_server):
    cast = busy_day()
    slug = cast.event.slug
    fill = Slip.objects.get(slip_type="fill")
    visit_all(
        browser,
        live_server,
        cast.dealer,
        [("mine", f"/cage/{slug}/me/"), ("fill-slip", f"/cage/{slug}/slips/{fill.pk}/")],
        "dealer",
    )
    visit_all(
        browser,
        live_server,
        cast.runner2,
        [("mine", f"/cage/{slug}/me/"), ("sale", f"/cage/{slug}/slips/new/sale/")],
        "runner",
    )


@pytest.mark.parametrize("language", ["en-CA", "fr-CA"])
def test_the_people_table_shows_every_column_on_the_cage_screen(browser, live_server, language):
    # At 1366 px the table of people and roles is read whole, its Login column included, rather
    # than scrolled sideways (the new-user walk); at a tablet's width it scrolls within its frame.
    cast = make_cast()
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 1366, "height": 768},
        extra_http_headers={"Accept-Language": language},
    )
    page = context.new_page()
    log_in(page, cast.dric.user.username, PASSWORD)
    page.goto(f"/events/{cast.event.slug}/people/")
    screenshot(page, f"width-people-{language}-1366")
    scroll, shown = page.evaluate(
        "(() => { const s = document.querySelector('#people').closest('.scroll-x'); return [s.scrollWidth, s.clientWidth]; })()"
    )
    assert scroll <= shown + 1, (scroll, shown)
    assert fits(page)
    context.close()


def test_a_register_keeps_its_width_when_a_refusal_shows_no_table(browser, live_server):
    # A day not in the list shows no table: the page keeps the registers' width rather than jumping
    # to the narrow column, the filter where it was (the new-user walk).
    cast = busy_day()
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1366, "height": 768})
    page = context.new_page()
    log_in(page, cast.dric.user.username, PASSWORD)
    for path in (f"/cage/{cast.event.slug}/register/", f"/cage/{cast.event.slug}/register/voids/"):
        widths = []
        for query in ("", "?day=abc"):
            page.goto(path + query)
            widths.append(page.evaluate("document.querySelector('main').getBoundingClientRect().width"))
        assert widths[0] == widths[1] > 1100, (path, widths)
    context.close()
