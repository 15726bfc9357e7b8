"""The cage home page in a real browser: the inventory grid and tables panel refresh in place
while someone types elsewhere on the page, at a laptop's width and a tablet's."""

import pytest
from django.utils.translation import override
from playwright.sync_api import expect

from cage import services
from tests.browser.conftest import follow, log_in, screenshot
from tests.browser.test_cage_french import in_french
from tests.cage.helpers import FILL_SIGNED, open_table, stock
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cast():
    """A day under way: the bank stocked, BJ-1 open, a runner out with 40 five-dollar chips."""
    cast = make_cast()
    stock(cast)
    open_table(cast)
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"5": 40},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    return cast


@pytest.mark.parametrize("width,height", [(1366, 900), (768, 1024)])
def test_the_panels_refresh_without_touching_what_is_typed(page, settings, cast, width, height):
    settings.CAGE_REFRESH_SECONDS = 1
    page.set_viewport_size({"width": width, "height": height})
    log_in(page, cast.general_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/")

    runner = page.locator('#inventory tr[data-place="runner:runner"]')
    assert runner.locator("td").nth(1).inner_text().split() == ["40", "$200.00"]
    assert "$200.00" in runner.locator("td.total").inner_text()
    assert "—" in page.inner_text('#table-states tr[data-table="BJ-1"] td:nth-of-type(4)')
    # The grid fits the page: no sideways scrolling at this width.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, f"cage-home-{width}")

    page.evaluate("window.notReloaded = true")
    page.click("#slip-filter")
    page.keyboard.type("runner")
    # Posted by someone else while this person types: the next refresh shows it.
    services.fill(day=cast.day, table=cast.bj, chips={"25": 10}, signed=cast.signed(**FILL_SIGNED))
    # A function, not an expression: Playwright evals an expression in the page, which the page's
    # Content-Security-Policy (no unsafe-eval) refuses.
    page.wait_for_function(
        "() => document.querySelector('#table-states tr[data-table=\"BJ-1\"]').innerText.includes('1 fill')",
        timeout=10_000,
    )
    page.keyboard.type(" issue")

    assert page.input_value("#slip-filter") == "runner issue"
    assert page.evaluate("document.activeElement.id") == "slip-filter"
    assert page.evaluate("window.notReloaded") is True
    assert "$250.00" in page.inner_text('#table-states tr[data-table="BJ-1"]')
    bj = page.locator('#inventory tr[data-place="table:BJ-1"]')
    assert bj.locator("td").nth(2).inner_text().split() == ["10", "$250.00"]
    # The chip bank moved today: to the General Cashier, who counts it tonight, it is blind until
    # its count is in (issue 25: blind stays blind before the floor closes too).
    chip_bank = page.locator('#inventory tr[data-place="chip_bank"]')
    assert "Counted blind" in chip_bank.inner_text()
    assert page.inner_text("#refresh-status") == ""
    # The filter still works on the slips list below the panels.
    assert page.locator("#slips tbody tr:visible").count() == 1
    screenshot(page, f"cage-home-{width}-refreshed")


def test_find_a_slip_searches_the_whole_day_beyond_the_slips_shown(page, monkeypatch, cast):
    # Two slips shown of the day's several: the first one written is not on the page.
    monkeypatch.setattr("cage.views.HOME_SLIPS", 2)
    first = cast.day.slips.order_by("id").first()
    total = cast.day.slips.count()
    log_in(page, cast.general_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/")
    assert page.locator("#slips tbody tr").count() == 2
    assert f"The latest 2 of {total} slips of the day." in page.inner_text("#slips-shown")
    # Typing narrows the rows shown; the first slip is not among them.
    page.fill("#slip-filter", first.number)
    assert page.locator("#slips tbody tr:visible").count() == 0
    # Enter searches the day on the server.
    page.press("#slip-filter", "Enter")
    page.wait_for_url(f"**/cage/{cast.event.slug}/?q=*")
    assert page.locator("#slips tbody tr").count() == 1
    assert page.inner_text("#slips tbody a.slipno") == first.number
    assert page.input_value("#slip-filter") == first.number
    follow(page, "#slip-search-clear")
    assert page.locator("#slips tbody tr").count() == 2
    # The day's slips, every one, in the register.
    follow(page, "#day-register")
    assert page.inner_text("#register-count") == f"{total} slips"


def test_find_a_slip_by_who_signed_it_as_typed_and_on_the_server(page, cast):
    """The About column names a table or a runner, not every signer: typing a signer's name still
    keeps the rows she signed, and Enter finds the same slips on the server."""
    signed = set(cast.day.slips.filter(signatures__person=cast.dealer).values_list("pk", flat=True))
    assert signed and signed != set(cast.day.slips.values_list("pk", flat=True))
    log_in(page, cast.general_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/")
    name = cast.dealer.name.lower()
    page.fill("#slip-filter", name)
    visible = page.locator("#slips tbody tr:visible a.slipno")
    assert sorted(visible.all_inner_texts()) == sorted(s.number for s in cast.day.slips.filter(pk__in=signed))
    page.press("#slip-filter", "Enter")
    page.wait_for_url(f"**/cage/{cast.event.slug}/?q=*")
    found = page.locator("#slips tbody a.slipno").all_inner_texts()
    assert sorted(found) == sorted(s.number for s in cast.day.slips.filter(pk__in=signed))
    for width in (1366, 768):
        page.set_viewport_size({"width": width, "height": 900})
        screenshot(page, f"cage-home-search-signer-{width}")


def test_find_a_slip_by_its_amount_as_typed_in_french_and_on_the_server(page, cast):
    """The page prints "200,00 $" with a no-break space; the cashier types a plain one, or "$200":
    the rows narrow as typed, and Enter finds the runner's $200 issue on the server."""
    with override("fr-ca"):
        number = cast.day.slips.get(slip_type="runner_issue").number
    log_in(page, cast.chip_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/")
    in_french(page)
    page.fill("#slip-filter", "200,00 $")
    visible = page.locator("#slips tbody tr:visible a.slipno")
    expect(visible).to_have_text([number])
    page.fill("#slip-filter", "$200")
    page.press("#slip-filter", "Enter")
    page.wait_for_url(f"**/cage/{cast.event.slug}/?q=*")
    assert page.locator("#slips tbody a.slipno").all_inner_texts() == [number]
