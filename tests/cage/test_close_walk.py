"""The nightly close as a new user walks it (issue 7, second walk): the count form chooses no
reason for the counter, a count that stands is shown when its form is opened again, the close's
checklist ticks a count that is done, the window offers only the slips the day still takes, and
the cage home says which counts are awaited rather than that the day is ready."""

import re
import uuid

import pytest
from django.urls import reverse

from cage import services
from cage.models import Slip
from cage.selectors.offered import kinds_offered
from events.models import Role
from tests.cage.helpers import COUNT_SIGNED, SALE_SIGNED, open_table, roster_dealers, stock
from tests.cage.test_blind_counts import BANK_CASH, count, login, reconciling
from tests.cage.test_close_gaps import page as fetch_page
from tests.conftest import PIN
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def get(client, cast, name, *args, **query) -> str:
    """The page, fetched as test_close_gaps does (200 or fail), cast before the URL name."""
    return fetch_page(client, name, cast, *args, **query)


def element(html: str, element_id: str) -> str:
    match = re.search(rf'<(\w+)[^>]* id="{element_id}"[^>]*>(.*?)</\1>', html, re.S)
    assert match, element_id
    return match.group(2)


def field_tag(html: str, name: str) -> str:
    match = re.search(rf'<input[^>]* name="{name}"[^>]*>', html)
    assert match, name
    return match.group(0)


def count_bank_cash(cast, **more) -> dict:
    """The count form's POST: bank cash counted as ten $100 bills (the books say $1,045.00)."""
    return {
        "request_key": uuid.uuid4().hex,
        "account": "bank_cash",
        "cash_10000": "10",
        "sign_counted_by": cast.general_cashier.pk,
        "sign_verified_by": cast.chip_cashier.pk,
        "pin_verified_by": PIN,
        **more,
    }


# --- 1. no reason is chosen for the counter ------------------------------------------------------


def test_the_count_form_chooses_no_reason_and_a_variance_without_one_is_refused(client, cast):
    reconciling(cast)
    login(client, cast, "general_cashier")
    page = get(client, cast, "cage:slip_new", "count", account="bank_cash")
    options = re.search(r'<select name="variance_reason"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert re.match(r'\s*<option value="" selected>Choose a reason…</option>', options)
    assert "matches the books" not in page and "Only a count that differs from the books needs one" in page

    url = reverse("cage:slip_new", args=[cast.event.slug, "count"])
    page = client.post(url, count_bank_cash(cast)).content.decode()
    assert "The count differs from the books: choose a reason for the variance" in page
    assert not Slip.objects.filter(slip_type="count").exists()

    # The service refuses it too, whoever calls it (a records file).
    with refuses("count.variance_without_reason"):
        count(cast, "bank_cash", cash=100_000)
    assert not Slip.objects.filter(slip_type="count").exists()


# --- 2. a count that stands is shown when its form is opened again ------------------------------


def test_a_count_set_beside_the_books_is_shown_standing_when_its_form_is_opened_again(client, cast):
    reconciling(cast)
    login(client, cast, "general_cashier")
    url = reverse("cage:slip_new", args=[cast.event.slug, "count"])
    client.post(url, count_bank_cash(cast))  # refused: a variance without a reason

    page = get(client, cast, "cage:slip_new", "count", account="bank_cash")
    standing = element(page, "count-standing")
    assert "Bank cash was counted and set beside the books at" in standing
    assert f"from {cast.general_cashier.name}'s session" in standing
    assert "stands as first typed" in standing and "10 × $100 bills" in standing
    assert BANK_CASH not in page and "expected-and-counted" not in page  # his count, not the books
    tag = field_tag(page, "cash_10000")
    # Locked: shown as plain text, sent back in a hidden field, never a box that looks editable.
    assert 'value="10"' in tag and 'type="hidden"' in tag
    assert '<span class="locked-figure">10</span>' in page
    # Its total is the locked figures' own, not $0.00 (the page's script adds up only boxes).
    assert re.search(r'id="cash-total">\$1,000\.00<', page)
    assert "To recount: choose the reason for its variance and record this count" in standing
    assert reverse("cage:day_close", args=[cast.event.slug]) in standing

    response = client.post(url, count_bank_cash(cast, variance_reason="miscount"))
    assert response.status_code == 302
    slip = Slip.objects.get(slip_type="count")

    # Recorded: the form says it stands, who counted and verified it, and starts a recount from it.
    page = get(client, cast, "cage:slip_new", "count", account="bank_cash")
    standing = element(page, "count-standing")
    assert (
        f"Bank cash is counted for the day: {slip.number}, counted by {cast.general_cashier.name} at" in standing
        and f"verified by {cast.chip_cashier.name}." in standing
    )
    assert "10 × $100 bills" in standing and "To recount" in standing
    tag = field_tag(page, "cash_10000")
    assert 'value="10"' in tag and 'type="hidden"' not in tag
    # Recorded, the books may be seen: expected against counted, for this count.
    books = element(page, "count-books")
    assert "Expected" in books and "$1,000.00" in books

    # A movement since undoes it: counted blind again, nothing of it shown.
    services.redemption(
        day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(paid_by="general_cashier", authorized_by="dric")
    )
    page = get(client, cast, "cage:slip_new", "count", account="bank_cash")
    assert "Bank cash is to be counted again: a redemption after its count moved it" in element(page, "count-again")
    assert "count-standing" not in page and 'value="10"' not in field_tag(page, "cash_10000")


def test_a_place_never_counted_opens_a_blank_count_form(client, cast):
    reconciling(cast)
    login(client, cast, "general_cashier")
    page = get(client, cast, "cage:slip_new", "count", account="chip_bank")
    assert "count-standing" not in page and "count-again" not in page


# --- 3. the checklist ticks a count that is done --------------------------------------------------


def test_the_close_checklist_shows_a_done_count_with_a_tick_and_who_counted(client, cast):
    reconciling(cast)
    slip = count(cast, "bank_cash", cash=104_500)
    login(client, cast, "general_cashier")
    counts = element(get(client, cast, "cage:day_close"), "close-counts")
    done = re.search(r'<li class="done" data-place="bank_cash">(.*?)</li>', counts, re.S).group(1)
    assert "✓" in done
    assert (
        f"Bank cash: counted by {cast.general_cashier.name} at" in done
        and f"verified by {cast.chip_cashier.name}." in done
    )
    # Not offered as a task; only as a recount, beside the count (to the same count form).
    assert slip.number in done and "Count bank cash" not in counts
    assert re.search(r'<a class="recount" href="[^"]*/count/\?account=bank_cash">Recount</a>', done)
    assert "Count the chip bank" in counts and "?account=chip_bank" in counts
    # The tip pool's count heads the tips' step: it is counted before its payout (T&C 2.6).
    assert "Count the tip pool" not in counts
    assert "Count the tip pool" in element(get(client, cast, "cage:day_close"), "close-tip-count")

    # Moved after its count: a task again.
    services.redemption(
        day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(paid_by="general_cashier", authorized_by="dric")
    )
    counts = element(get(client, cast, "cage:day_close"), "close-counts")
    assert "?account=bank_cash" in counts and 'class="done"' not in counts


# --- 4. only the slips the day still takes --------------------------------------------------------


FLOOR = {"Table issue", "Opener", "Fill", "Credit", "Chip sale", "Runner issue"}


def offered(client, cast) -> set[str]:
    return set(re.findall(r">([^<]+)</a>", element(get(client, cast, "cage:home"), "slip-types")))


def test_once_the_floor_closes_the_window_offers_no_opener_fill_or_sale(client, cast):
    stock(cast)
    open_table(cast)
    login(client, cast, "general_cashier")
    links = offered(client, cast)
    assert FLOOR | {"Closer", "Redemption", "Count"} <= links  # WOF-1 may still open

    services.sale(day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(**SALE_SIGNED))
    services.table_close(
        day=cast.day, table=cast.bj, chips={"1": 100, "5": 80}, signed=cast.signed(**COUNT_SIGNED_TABLE)
    )
    # Every table closed, the day still open: no table to fill, credit or close; BJ-1 opened
    # today and may not open again, but WOF-1 may.
    links = offered(client, cast)
    assert not {"Fill", "Credit", "Closer"} & links and {"Opener", "Chip sale", "Table issue"} <= links

    services.day_reconcile(day=cast.day)
    cast.day.refresh_from_db()
    links = offered(client, cast)
    assert not FLOOR & links and not {"Closer"} & links
    assert {"Redemption", "Runner return", "Tip payout", "Count", "Table return", "Deposit"} <= links
    assert [k.type for k in kinds_offered(cast.day) if k.floor_only] == []

    # A link kept from before is answered before anything is typed, as the service would after.
    response = client.get(reverse("cage:slip_new", args=[cast.event.slug, "fill"]), follow=True)
    assert "The floor is closed for" in response.content.decode()
    assert "a fill is written only while the gaming day is open" in response.content.decode()
    with refuses("day.not_open"):
        services.sale(day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(**SALE_SIGNED))


COUNT_SIGNED_TABLE = {"counted_by": "dealer", "verified_by": "chip_cashier"}


def test_the_opener_form_offers_no_table_that_opened_today(client, cast):
    stock(cast)
    open_table(cast)
    services.table_close(
        day=cast.day, table=cast.bj, chips={"1": 100, "5": 80}, signed=cast.signed(**COUNT_SIGNED_TABLE)
    )
    login(client, cast, "general_cashier")
    page = get(client, cast, "cage:slip_new", "table_open")
    tables = re.search(r'<select name="table"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert "table WOF-1" in tables and "table BJ-1" not in tables


# --- 5. counts awaited, not ready to close --------------------------------------------------------


def test_the_cage_home_says_the_counts_are_awaited_while_any_place_is_still_blind(client, cast):
    stock(cast, chips={"1": 1000, "5": 400}, cash=100_000)
    open_table(cast)
    services.sale(day=cast.day, chips={"1": 45}, cash=4_500, signed=cast.signed(**SALE_SIGNED))
    services.table_close(
        day=cast.day, table=cast.bj, chips={"1": 100, "5": 80}, signed=cast.signed(**COUNT_SIGNED_TABLE)
    )
    # Runner 1 is on the day's roster; runner 2 is not and holds nothing: no count is asked of him.
    roster_dealers(cast, dealers=("runner",), role=Role.RUNNER)
    services.day_reconcile(day=cast.day)
    cast.day.refresh_from_db()
    count(cast, "bank_cash", cash=104_500)
    count(cast, "chip_bank", chips={"1": 855, "5": 320})
    login(client, cast, "general_cashier")

    # What the close needs is counted; the rostered runner and the (empty) tip pool are still
    # blind, and so is the inventory's total.
    page = get(client, cast, "cage:home")
    assert "Shown once every count is in" in page
    awaited = element(page, "counts-awaited")
    assert f"Counts awaited: runner {cast.runner.name}, tip pool." in awaited
    assert cast.runner2.name not in awaited
    assert "Ready to close" not in page and "Close the day…" not in page

    for place in (cast.runner, cast.runner2):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, "runner", person=place),
            chips={},
            cash=0,
            signed=cast.signed(**COUNT_SIGNED),
        )
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "tip_pool"),
        chips={},
        signed=cast.signed(**COUNT_SIGNED),
    )
    page = get(client, cast, "cage:home")
    assert "counts-awaited" not in page and "Ready to close" in element(page, "close-ready")
    assert "Close the day…" in page
