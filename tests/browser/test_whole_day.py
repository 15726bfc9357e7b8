"""The worked example's whole gaming day, made through the pages only.

The setup (people, tables, chip set) comes from docs/examples/lakeside-one-day.json without its
day; then every one of the day's 30 records is made in the file's order by the person whose role
makes it, each in their own browser: the cashiers on laptops at the cage, the runners and dealers
on tablets on the floor. Co-signers type their signing PIN on the cashier's screen or sign later
from their own page; the DRIC authorizes from her queue. The tip pool is counted at the window
before its payout (the records format has no count of it). At the end the event's report is the
example's report, worked by hand.
"""

import copy
import io
import json
import re

import pytest
from django.core.management import call_command

from cage.importer import import_records
from cage.models import Slip
from events.models import GamingDay
from tests.browser.conftest import follow, log_in, screenshot
from tests.conftest import EXAMPLES, PASSWORD, PIN, give_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "lakeside-pages"
EXAMPLE = json.loads((EXAMPLES / "lakeside-one-day.json").read_text())
REPORT = json.loads((EXAMPLES / "lakeside-one-day.report.json").read_text())
DAY = EXAMPLE["days"][0]
NAMES = {p["id"]: p["name"] for p in EXAMPLE["people"]}
CASHIERS = {"ann", "gus", "cora"}  # laptops at the cage; runners and dealers carry tablets
LAPTOP = {"width": 1366, "height": 768}
TABLET = {"width": 768, "height": 1024}
DENOMINATIONS = EXAMPLE["event"]["chip_denominations"]
RECORDED = re.compile(r"^(.+?) recorded[.:]")


def set_up_the_event_without_its_day():
    data = copy.deepcopy(EXAMPLE)
    data["event"]["slug"] = SLUG
    # The day's roster: the dealers' shifts are what the tip payout's hours are held to (T&C 2.6).
    shifts = [
        {"person": code, "role": "dealer", "starts_at": f"{DAY['date']}T12:00", "ends_at": f"{DAY['date']}T23:00"}
        for code in ("dana", "dev", "del")
    ]
    data["days"] = [{"date": DAY["date"], "records": [], "shifts": shifts}]
    event = import_records(data)
    for person in event.people.all():
        give_login(person, person.code)
    return event


class Floor:
    """Everyone's own browser, opened and logged in at first use, then kept: `floor("cora")`."""

    def __init__(self, browser, live_server):
        self.browser, self.url, self.pages = browser, live_server.url, {}
        self.slips = {}  # the records file's ref -> the slip's number, as the page said it

    def __call__(self, who):
        if who not in self.pages:
            viewport = LAPTOP if who in CASHIERS else TABLET
            context = self.browser.new_context(base_url=self.url, viewport=viewport)
            page = context.new_page()
            page.set_default_timeout(15_000)
            log_in(page, who, PASSWORD)
            self.pages[who] = page
        return self.pages[who]

    def close(self):
        for page in self.pages.values():
            page.context.close()


def snap(page, name):
    """A screenshot at the laptop's width and the tablet's, the page's own size restored after."""
    own = page.viewport_size
    for viewport in (LAPTOP, TABLET):
        page.set_viewport_size(viewport)
        screenshot(page, f"wholeday-{name}-{viewport['width']}")
    page.set_viewport_size(own)


def fits_the_width(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


# --- the slip form ---------------------------------------------------------------------------


def open_form(page, slip_type):
    page.goto(f"/cage/{SLUG}/slips/new/{slip_type}/")


def choose_table(page, table, *, prefilled=False):
    if prefilled:
        # A closer: choosing the table reloads the form with its last count.
        with page.expect_navigation():
            page.select_option("select[name=table]", label=f"table {table}")
    else:
        page.select_option("select[name=table]", label=f"table {table}")


def count_chips(page, chips):
    """Every denomination's count typed over whatever the form holds."""
    for key in DENOMINATIONS:
        page.fill(f"input[name=chips_{key}]", str(chips[key]) if chips.get(key) else "")


def co_sign(page, record, *capacities):
    """The people beside the cashier sign these capacities on her screen with their own PIN."""
    for capacity in capacities:
        # The runner chosen above signs their own row (carried by, returned by…): not chosen again.
        if page.locator(f"select[name=sign_{capacity}]").is_visible():
            page.select_option(f"select[name=sign_{capacity}]", label=NAMES[record["signed"][capacity]])
        page.fill(f"input[name=pin_{capacity}]", PIN)


def record_slip(page, record, *signed_here):
    """The co-signers beside the cashier sign `signed_here`, and the slip is recorded. Above the
    confirmation limit the form asks for a tick, and the PINs are typed again. Returns the
    slip's number as the page says it ("Fill 1")."""
    co_sign(page, record, *signed_here)
    # A refused or previewed form being left has .errors too: wait for the page the send brings.
    follow(page, "#slip-form button[type=submit]")
    page.wait_for_selector(".messages li.success, .errors, .errorlist")
    if page.locator("input[name=confirm_large]").count():
        page.check("input[name=confirm_large]")
        co_sign(page, record, *signed_here)
        follow(page, "#slip-form button[type=submit]")
        page.wait_for_selector(".messages li.success, .errors, .errorlist")
    assert page.locator(".messages li.success").count(), page.inner_text("main")
    return RECORDED.match(page.inner_text(".messages li.success")).group(1)


# --- signing later, from one's own page or the DRIC's queue ----------------------------------


def signs_from_my_slips(page, who, slip, capacity):
    page.goto(f"/cage/{SLUG}/me/")
    row = page.locator("#to-sign tr", has=page.locator(f"a:text-is('{slip}')"))
    # A signature on her own page is confirmed before it is given (a tap is easily made by mistake).
    row.locator(f"summary:text-is('Sign as “{capacity.lower()}”…')").click()
    row.locator(f"button:text-is('Yes, sign as “{capacity.lower()}”')").click()
    page.wait_for_selector(f"text={NAMES[who]} signed {slip} as “{capacity.lower()}”.")


def the_dric_approves_her_queue(floor, *, snap_as=None):
    """Ann opens her queue and approves every slip that waits for her, one after another."""
    ann = floor("ann")
    ann.goto(f"/cage/{SLUG}/queue/")
    if snap_as:
        snap(ann, snap_as)
    approve = ann.locator("#queue button:text-is('Approve')")
    while approve.count():
        slip = approve.first.locator("xpath=ancestor::tr").locator("a").first.inner_text()
        approve.first.click()
        # "Fill 3 approved." or, where the table has still to sign, "Fill 3: your approval is signed; …"
        ann.wait_for_selector(f".messages >> text=/^{slip}( approved\\.|: your approval is signed)/")
    assert ann.locator("#queue button:text-is('Approve')").count() == 0


# --- one function per kind of record ---------------------------------------------------------


def chips_received(floor, r):
    cora = floor("cora")
    open_form(cora, "chips_received")
    count_chips(cora, r["chips"])
    return record_slip(cora, r)  # witnessed by the DRIC from her queue


def float_in(floor, r):
    """Gus receives the float; it moves into bank cash once Ann has witnessed it (two signatures)."""
    gus = floor("gus")
    open_form(gus, "float_in")
    gus.fill("input[name=cash]", r["cash"])
    slip = record_slip(gus, r)
    the_dric_approves_her_queue(floor)
    return slip


def deposit(floor, r):
    """Gus deposits; the cash moves once Ann has witnessed it from her queue (two signatures)."""
    gus = floor("gus")
    open_form(gus, "deposit")
    gus.fill("input[name=cash]", r["cash"])
    slip = record_slip(gus, r)
    the_dric_approves_her_queue(floor)
    return slip


def table_issue(floor, r):
    cora = floor("cora")
    open_form(cora, "table_issue")
    choose_table(cora, r["table"])
    count_chips(cora, r["chips"])
    return record_slip(cora, r, "received_by")


def table_count(floor, r):
    """An opener or a closer: the dealer counts the tray, the Chip Cashier verifies."""
    cora = floor("cora")
    open_form(cora, r["type"])
    if r["type"] == "table_close":
        choose_table(cora, r["table"], prefilled=True)
        assert cora.input_value("input[name=chips_1]"), "the closer starts from the table's last count"
    else:
        choose_table(cora, r["table"])
        assert not cora.input_value("input[name=chips_1]"), "the opener is counted blind"
    count_chips(cora, r["chips"])
    return record_slip(cora, r, "counted_by")


def tips(floor, r):
    cora = floor("cora")
    open_form(cora, "tips")
    choose_table(cora, r["table"])
    count_chips(cora, r["chips"])
    return record_slip(cora, r, "counted_by")


def sale(floor, r):
    """At the cage by the Chip Cashier, or on the floor by the runner herself; the cash fills in
    from the chips at face value."""
    seller = floor(r["signed"]["sold_by"])
    open_form(seller, "sale")
    count_chips(seller, r["chips"])
    assert seller.input_value("input[name=cash]") == r["cash"]
    if "runner" in r:
        assert seller.locator("select[name=runner] option:checked").inner_text() == NAMES[r["runner"]]
        snap(seller, "runner-sale-form")
    return record_slip(seller, r)


def redemption(floor, r):
    gus = floor("gus")
    open_form(gus, "redemption")
    count_chips(gus, r["chips"])
    assert gus.input_value("input[name=cash]") == r["cash"]
    return record_slip(gus, r)


def runner_issue(floor, r):
    cora = floor("cora")
    open_form(cora, "runner_issue")
    cora.select_option("select[name=runner]", label=NAMES[r["runner"]])
    count_chips(cora, r["chips"])
    return record_slip(cora, r, "received_by")


def runner_return(floor, r):
    cora = floor("cora")
    open_form(cora, "runner_return")
    cora.select_option("select[name=runner]", label=NAMES[r["runner"]])
    count_chips(cora, r["chips"])
    cora.fill("input[name=cash]", r["cash"])
    return record_slip(cora, r, "returned_by")


def fill(floor, r):
    """Cora issues the chips to the runner (his PIN on her screen); the dealer signs for them at
    the table from his own tablet; the DRIC authorizes from her queue."""
    cora = floor("cora")
    open_form(cora, "fill")
    choose_table(cora, r["table"])
    cora.select_option("select[name=runner]", label=NAMES[r["signed"]["carried_by"]])
    count_chips(cora, r["chips"])
    slip = record_slip(cora, r, "carried_by")
    assert "In transit" in cora.inner_text("h1")
    dealer = r["signed"]["received_by"]
    if r.get("ref") == "fill-wrong-table":
        snap(cora, "slip-in-transit")
        floor(dealer).goto(f"/cage/{SLUG}/me/")
        snap(floor(dealer), "dealer-my-slips")
        assert fits_the_width(floor(dealer))
    signs_from_my_slips(floor(dealer), dealer, slip, "Received by")
    if r["table"] != "WOF-1":  # that one waits for the DRIC's round before the close
        the_dric_approves_her_queue(floor, snap_as="queue" if r.get("ref") == "fill-wrong-table" else None)
    return slip


def credit(floor, r):
    """Written at the cage naming the runner, nothing signed; at the table the dealer releases the
    chips and the runner takes them, each from their own tablet; back at the cage Cora signs."""
    cora = floor("cora")
    open_form(cora, "credit")
    choose_table(cora, r["table"])
    cora.select_option("select[name=runner]", label=NAMES[r["signed"]["carried_by"]])
    count_chips(cora, r["chips"])
    slip = record_slip(cora, r)
    dealer, runner = r["signed"]["released_by"], r["signed"]["carried_by"]
    signs_from_my_slips(floor(dealer), dealer, slip, "Released by")
    signs_from_my_slips(floor(runner), runner, slip, "Carried by")
    signs_from_my_slips(cora, "cora", slip, "Received by")
    return slip


def void(floor, r):
    """Cora asks for the void with the reason, after the form has shown her the slip in full;
    nothing moves until the DRIC authorizes it from her queue."""
    cora = floor("cora")
    open_form(cora, "void")
    target = floor.slips[r["void"]]
    option = cora.locator("select[name=target] option", has_text=f"{target} at ")
    cora.select_option("select[name=target]", value=option.get_attribute("value"))
    cora.fill("textarea[name=reason]", r["reason"])
    cora.click("#slip-form button[type=submit]")
    cora.wait_for_selector("#void-preview")
    assert f"The slip to void: {target}" in cora.inner_text("#void-preview")
    slip = record_slip(cora, r)
    ann = floor("ann")
    ann.goto(f"/cage/{SLUG}/queue/")
    row = ann.locator("#queue tr", has=ann.locator(f"a:text-is('{slip}')"))
    row.locator("button:text-is('Authorize')").click()
    ann.wait_for_selector(f".messages >> text={slip} authorized: {target} is voided and its reversal posted.")
    return slip


def tip_payout(floor, r):
    """The tip pool is counted first (blind, from the close page's link), then paid out whole."""
    gus = floor("gus")
    gus.goto(f"/cage/{SLUG}/close/")
    follow(gus, ".count-links >> text=Count the tip pool")
    assert gus.input_value("select[name=account]") == "tip_pool"
    assert gus.locator("#cash-counts").is_hidden() and "$40.00" not in gus.inner_text("main")
    count_chips(gus, {"1": 40})  # the BJ-1 tip box
    record_slip(gus, {"signed": {"verified_by": "cora"}}, "verified_by")
    open_form(gus, "tip_payout")
    for dealer, hours in r["hours"].items():
        gus.fill(f"input[name=hours_{dealer}]", str(hours))
    return record_slip(gus, r, "verified_by")


def count(floor, r):
    """From the nightly close page's links; bank cash by bill and coin."""
    gus = floor("gus")
    gus.goto(f"/cage/{SLUG}/close/")
    link = "Count bank cash (bills and coins)" if r["account"] == "bank_cash" else "Count the chip bank"
    follow(gus, f".count-links >> text={link}")
    if r["account"] == "bank_cash":
        assert r["cash"] == "180.00"
        for cents, pieces in ((10000, 1), (2000, 3), (1000, 2)):
            gus.fill(f"input[name=cash_{cents}]", str(pieces))
        assert gus.inner_text("#cash-total") == "$180.00"
    else:
        count_chips(gus, r["chips"])
    if r.get("reason"):
        # A blind count: the books show only once the count is in, beside it, with the variance.
        co_sign(gus, r, "verified_by")
        gus.click("#slip-form button[type=submit]")
        gus.wait_for_selector("#expected-and-counted")
        assert "-$2.00" in gus.inner_text("#expected-and-counted")
        gus.select_option("select[name=variance_reason]", "missing_chips")
        gus.fill("textarea[name=reason]", r["reason"])
    return record_slip(gus, r, "verified_by")


def expense(floor, r):
    """Gus prepares the expense; Ann approves it from her queue (never one signature)."""
    gus = floor("gus")
    open_form(gus, "expense")
    gus.select_option("select[name=category]", r["category"])
    gus.fill("input[name=description]", r["description"])
    gus.fill("input[name=invoice]", r["invoice"])
    gus.fill("input[name=cash]", r["cash"])
    slip = record_slip(gus, r)
    the_dric_approves_her_queue(floor)
    return slip


def close_day(floor, r):
    """Ann clears her queue; Gus prepares the close, Cora and Ann sign it with their PINs."""
    the_dric_approves_her_queue(floor)
    gus = floor("gus")
    gus.goto(f"/cage/{SLUG}/close/")
    assert gus.locator("#close-problems").count() == 0, gus.inner_text("main")
    snap(gus, "close-page")
    co_sign(gus, r, "verified_by", "approved_by")
    gus.click("#close-form button[type=submit]")
    gus.wait_for_selector("text=Gaming day 2026-09-11 closed and locked.")  # the date as every date is written
    return "Day close 1"


def maker(record):
    """Who writes the record at their own screen."""
    if record["type"] in ("float_in", "deposit", "redemption", "tip_payout", "count", "expense", "close_day"):
        return "gus"
    return record["signed"].get("sold_by", "cora")


STEPS = {
    "chips_received": chips_received,
    "float_in": float_in,
    "deposit": deposit,
    "table_issue": table_issue,
    "table_open": table_count,
    "table_close": table_count,
    "tips": tips,
    "sale": sale,
    "redemption": redemption,
    "runner_issue": runner_issue,
    "runner_return": runner_return,
    "fill": fill,
    "credit": credit,
    "void": void,
    "tip_payout": tip_payout,
    "count": count,
    "expense": expense,
    "close_day": close_day,
}


def test_the_worked_example_day_made_through_the_pages_gives_the_worked_report(browser, live_server):
    event = set_up_the_event_without_its_day()
    floor = Floor(browser, live_server)
    try:
        for n, record in enumerate(DAY["records"], start=1):
            slip = STEPS[record["type"]](floor, record)
            if record.get("ref"):
                floor.slips[record["ref"]] = slip
            if n == 17:  # mid-day, after the credit: the cage home and a slip's own page
                cora = floor("cora")
                cora.goto(f"/cage/{SLUG}/")
                snap(cora, "cage-home")
                follow(cora, f"#slips >> text={slip}")
                snap(cora, "slip-page")
        screenshot(floor("gus"), "wholeday-closed-home-1366")
    finally:
        floor.close()

    out = io.StringIO()
    call_command("event_report", SLUG, "--format", "json", stdout=out)
    report = json.loads(out.getvalue())
    assert report.pop("event") == SLUG
    assert report == {k: v for k, v in REPORT.items() if k != "event"}

    slips = (
        Slip.objects.filter(event=event)
        .exclude(slip_type="count", account__code="tip_pool")  # the window's count; the format has none
        .select_related("created_by")
        .prefetch_related("signatures__person")
    )
    assert Slip.objects.get(event=event, account__code="tip_pool").details["variances"] == []
    assert [s.slip_type for s in slips.order_by("id")] == [r["type"] for r in DAY["records"]]
    for slip, record in zip(slips.order_by("id"), DAY["records"], strict=True):
        assert slip.created_by.username == maker(record), slip.number
        signed = {s.capacity: s.person.code for s in slip.signatures.all()}
        # The window's expense is prepared by the General Cashier too (the format's has the DRIC only).
        expected = {"prepared_by": "gus", **record["signed"]} if record["type"] == "expense" else record["signed"]
        assert signed == expected, slip.number  # complete, each capacity by its own signer
    assert event.days.get().status == GamingDay.Status.CLOSED
    call_command("check_ledger", stdout=io.StringIO())
