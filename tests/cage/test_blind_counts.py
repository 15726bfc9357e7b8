"""Counts are blind: while the day reconciles, no page the counter opens shows a counted place's
book balance until its count is in; then expected and counted show side by side."""

import re
import uuid

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils.translation import override

from audit.models import AuditEntry
from cage import services
from cage.forms import SlipForm
from cage.models import Account, Slip
from cage.selectors.counts import blind_places
from cage.slip_types import SLIP_KINDS
from reports.audit_trail.reading import Reader, summary
from tests.cage.helpers import COUNT_SIGNED, SALE_SIGNED, open_table, stock
from tests.conftest import PIN, login

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

# The books after reconciling() below; none of them is the amount of any one slip of the day.
BANK_CASH = "$1,045.00"  # a $1,000.00 float and a $45.00 sale
CHIP_BANK_ONES = "835"  # $1 chips in the chip bank: 1,000 − 100 to the table − 45 sold − 20 to the runner
TIP_POOL = "$9.00"  # two tip boxes, $4.00 and $5.00
RUNNER = "$14.00"  # runner 1 holds 14 × $1 (20 issued, 6 sold) and $6.00 cash


def reconciling(cast):
    stock(cast, chips={"1": 1000, "5": 400}, cash=100_000)
    open_table(cast)
    services.sale(day=cast.day, chips={"1": 45}, cash=4_500, signed=cast.signed(**SALE_SIGNED))
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"1": 20},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    services.sale(
        day=cast.day,
        runner=cast.runner,
        chips={"1": 6},
        cash=600,
        signed={"sold_by": cast.runner, "authorized_by": cast.dric},
    )
    for box in (4, 5):
        services.tips(
            day=cast.day,
            table=cast.bj,
            chips={"1": box},
            signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
        )
    services.table_close(
        day=cast.day,
        table=cast.bj,
        chips={"1": 130, "5": 80},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    services.day_reconcile(day=cast.day)
    cast.day.refresh_from_db()


def place_row(page: str, place: str) -> str:
    match = re.search(rf'<tr data-place="{re.escape(place)}"[^>]*>(.*?)</tr>', page, re.S)
    assert match, place
    return match.group(1)


def count(cast, code, **counted):
    return services.count(
        day=cast.day,
        account=Account.objects.get(event=cast.event, code=code),
        signed=cast.signed(**COUNT_SIGNED),
        **counted,
    )


def test_while_the_day_reconciles_the_inventory_shows_no_uncounted_balance_until_its_count_is_in(client, cast):
    reconciling(cast)
    login(client, cast, "general_cashier")
    home = reverse("cage:home", args=[cast.event.slug])
    panels = reverse("cage:home_panels", args=[cast.event.slug])
    for url in (home, panels):
        page = client.get(url).content.decode()
        assert BANK_CASH not in page and TIP_POOL not in page and RUNNER not in page
        for place in ("bank_cash", "chip_bank", "tip_pool", f"runner:{cast.runner.code}"):
            assert "Counted blind: shown once its count is in" in place_row(page, place)
        assert CHIP_BANK_ONES not in place_row(page, "chip_bank")
        assert "Shown once every count is in" in place_row(page, "total")  # the totals would give them away
        assert "$1,045.00" not in page
        # A table's count is its closer, but its tray would give the chip bank's books away: it
        # waits for the bank's counts (tests/cage/test_fully_blind.py).
        assert "130" not in place_row(page, "table:BJ-1")

    count(cast, "bank_cash", cash=104_500)
    page = client.get(home).content.decode()
    assert BANK_CASH in place_row(page, "bank_cash") and "Counted blind" not in place_row(page, "bank_cash")
    assert "Counted blind" in place_row(page, "chip_bank")
    count(cast, "chip_bank", chips={"1": 835, "5": 320})
    count(cast, "tip_pool", chips={"1": 9})
    count(cast, f"runner:{cast.runner.code}", chips={"1": 14}, cash=600)
    page = client.get(panels).content.decode()
    assert CHIP_BANK_ONES in place_row(page, "chip_bank") and TIP_POOL in place_row(page, "tip_pool")
    assert RUNNER in place_row(page, f"runner:{cast.runner.code}")
    assert "Counted blind" not in place_row(page, "tip_pool") and "$6.00" in place_row(
        page, f"runner:{cast.runner.code}"
    )  # and its cash
    # Runner 2 is not on the day's roster and never held anything: there is nothing to count, so
    # nothing to hide (the close asks no count of him).
    assert "Counted blind" not in place_row(client.get(home).content.decode(), f"runner:{cast.runner2.code}")


def test_a_movement_after_the_count_makes_the_place_blind_again(cast):
    reconciling(cast)
    count(cast, "bank_cash", cash=104_500)
    assert "bank_cash" not in blind_places(cast.day)
    services.redemption(
        day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(paid_by="general_cashier", authorized_by="dric")
    )
    assert "bank_cash" in blind_places(cast.day)


def test_while_the_day_is_open_the_cashiers_see_no_uncounted_balance_and_the_dric_does(client, cast):
    """Blind stays blind before the floor closes: the close page and the daily sheets (a day may
    close from open) and the cage home show those who count no expected figure of bank cash, the
    chip bank or the tip pool once it moved today, until its count is recorded; the DRIC and the
    auditor see the books as they always did."""
    stock(cast, chips={"1": 1000, "5": 400}, cash=100_000)
    assert blind_places(cast.day) == set()  # for the DRIC and the auditor: nothing while it is open
    assert blind_places(cast.day, counter=True) == {"bank_cash", "chip_bank"}  # moved today
    services.sale(day=cast.day, chips={"1": 45}, cash=4_500, signed=cast.signed(**SALE_SIGNED))
    home = reverse("cage:home", args=[cast.event.slug])
    close = reverse("cage:day_close", args=[cast.event.slug])
    sheets = reverse("reports:day", args=[cast.event.slug, cast.day.date.isoformat()])
    for persona in ("general_cashier", "chip_cashier"):
        login(client, cast, persona)
        page = client.get(home).content.decode()
        assert "Counted blind: shown once its count is in" in place_row(page, "bank_cash"), persona
        # And says why, though tables still to open have their own note (the walk read the figures
        # seen at the day's start go without a word).
        assert 'id="blind-counts"' in page and "not what the books expect" in page, persona
        assert BANK_CASH not in page and CHIP_BANK_ONES not in place_row(page, "chip_bank")
        for url in (close, sheets):
            page = client.get(url).content.decode()
            assert BANK_CASH not in page and "Counted blind: shown once its count is in" in page, (persona, url)
            # Nor the day's totals that, with the morning's count, give the books away.
            assert "$45.00" not in page and "hidden until the counts are in (blind count)" in page, (persona, url)
        for kind in ("csv", "pdf"):
            assert b"1045.00" not in client.get(sheets, {"format": kind}).content
        assert "Counted blind" in place_row(
            client.get(reverse("cage:home_panels", args=[cast.event.slug])).content.decode(), "bank_cash"
        )
        client.logout()
    for persona in ("dric", "auditor"):
        login(client, cast, persona)
        page = client.get(close).content.decode()
        assert BANK_CASH in page and "Counted blind: shown once" not in page, persona
        assert "$45.00" in page and "hidden until the counts are in" not in page
        assert BANK_CASH in client.get(sheets).content.decode()
        client.logout()

    # Once counted (blind), the cashier sees the books beside her count; a movement hides them again.
    count(cast, "bank_cash", cash=104_500)
    login(client, cast, "general_cashier")
    assert BANK_CASH in place_row(client.get(home).content.decode(), "bank_cash")
    assert "Expected $1,045.00 · counted $1,045.00" in client.get(close).content.decode()
    services.redemption(
        day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(paid_by="general_cashier", authorized_by="dric")
    )
    assert "Counted blind" in place_row(client.get(home).content.decode(), "bank_cash")


def test_on_an_open_day_a_place_is_blind_to_its_counters_only_once_it_moved_today(cast):
    # Before it moves today a place holds what its last count left: the counter knows it already.
    assert blind_places(cast.day, counter=True) == set()
    stock(cast, chips={"1": 1000, "5": 400}, cash=104_500)
    assert blind_places(cast.day, counter=True) == {"bank_cash", "chip_bank"}
    open_table(cast)
    services.tips(
        day=cast.day, table=cast.bj, chips={"1": 4}, signed=cast.signed(counted_by="dealer", verified_by="chip_cashier")
    )
    assert blind_places(cast.day, counter=True) == {"bank_cash", "chip_bank", "tip_pool"}
    count(cast, "tip_pool", chips={"1": 4})
    assert blind_places(cast.day, counter=True) == {"bank_cash", "chip_bank"}


def test_the_count_form_the_payout_and_the_runner_return_show_no_book_balance_before_the_count(client, cast):
    reconciling(cast)
    login(client, cast, "general_cashier")
    url = reverse("cage:slip_new", args=[cast.event.slug, "count"])
    for where in ("bank_cash", "chip_bank", "tip_pool", f"runner:{cast.runner.code}"):
        page = client.get(url, {"account": where}).content.decode()
        # The form's one-time keys are random and may hold any digits: read the page without them.
        shown = re.sub(r'name="(request_key|csrfmiddlewaretoken)" value="[^"]*"', "", page)
        assert "expected-and-counted" not in shown and BANK_CASH not in shown
        assert not re.search(r"\b835\b", shown)
    assert 'value="tip_pool"' in page  # the tip pool is one of the places counted

    payout = client.get(reverse("cage:slip_new", args=[cast.event.slug, "tip_payout"])).content.decode()
    assert TIP_POOL not in payout and "The tip pool is counted blind tonight" in payout

    back = client.get(
        reverse("cage:slip_new", args=[cast.event.slug, "runner_return"]), {"runner": cast.runner.pk}
    ).content.decode()
    assert 'value="14"' not in back.split('name="chips_1"')[1][:120]  # not filled in from the books

    # Once counted, the books show: the payout names the pool, the return starts from what is held.
    count(cast, "tip_pool", chips={"1": 9})
    count(cast, f"runner:{cast.runner.code}", chips={"1": 14}, cash=600)
    payout = client.get(reverse("cage:slip_new", args=[cast.event.slug, "tip_payout"])).content.decode()
    assert f"The tip pool holds {TIP_POOL}" in payout
    back = client.get(
        reverse("cage:slip_new", args=[cast.event.slug, "runner_return"]), {"runner": cast.runner.pk}
    ).content.decode()
    assert 'value="14"' in back.split('name="chips_1"')[1][:120]


def test_the_tip_pool_count_at_the_window_shows_the_books_only_once_it_is_in(client, cast):
    reconciling(cast)
    login(client, cast, "general_cashier")
    url = reverse("cage:slip_new", args=[cast.event.slug, "count"])
    blank = client.get(url, {"account": "tip_pool"}).content.decode()
    assert TIP_POOL not in blank and "expected-and-counted" not in blank
    data = {
        "request_key": uuid.uuid4().hex,
        "account": "tip_pool",
        "chips_1": "5",
        "sign_counted_by": cast.general_cashier.pk,
        "sign_verified_by": cast.chip_cashier.pk,
        "pin_verified_by": PIN,
    }
    page = client.post(url, data).content.decode()
    books = page.split('id="expected-and-counted"')[1].split("</table>")[0]
    assert "9 · $9.00" in books and "5 · $5.00" in books and "-$4.00" in books
    assert "choose a reason for the variance" in page and not Slip.objects.filter(slip_type="count").exists()
    shown = AuditEntry.objects.get(action="count_shown")
    assert (
        shown.new == {"account": "tip_pool", "chips": {"1": 5}, "pieces": {}} and shown.person == cast.general_cashier
    )
    # The trail names the place as people do, in the reader's language, never by its code.
    assert summary(shown, Reader(cast.event)) == summary(shown)
    assert summary(shown) == "Count of tip pool set beside the books, before its variance's reason"
    with override("fr-ca"):
        assert summary(shown) == (
            "Comptage mis en regard des livres, avant le motif de son écart\u00a0: cagnotte des pourboires"
        )

    # The count stands as typed once the books were shown, even from a fresh form (a new request
    # key, nothing carried over): typing the books' figure is refused.
    fresh = {**data, "request_key": uuid.uuid4().hex, "chips_1": "9", "variance_reason": "miscount"}
    page = client.post(url, fresh).content.decode()
    assert "stands as first typed" in page and not Slip.objects.filter(slip_type="count").exists()
    assert 'value="5"' in page.split('name="chips_1"')[1][:120]  # what was first counted is put back

    # Cash in the tip pool is refused at the window.
    page = client.post(url, {**data, "cash_500": "1"}).content.decode()
    assert "the tip pool holds the dealers&#x27; tip chips only" in page

    response = client.post(url, {**data, "variance_reason": "missing_chips", "reason": "two chips missing"})
    assert response.status_code == 302
    slip = Slip.objects.get(slip_type="count")
    assert slip.account.code == "tip_pool" and slip.reason == "two chips missing"
    assert slip.details["variances"] == [{"account": "tip_pool", "instrument": "chips:1", "amount": -400}]
    page = client.get(reverse("cage:home", args=[cast.event.slug])).content.decode()
    assert "$5.00" in place_row(page, "tip_pool")  # the books now say what was counted


def test_the_close_page_links_the_tip_pool_count_and_waits_for_it(client, cast):
    reconciling(cast)
    login(client, cast, "general_cashier")
    page = client.get(reverse("cage:day_close", args=[cast.event.slug])).content.decode()
    assert "Count the tip pool" in page and "?account=tip_pool" in page
    assert "the tip pool has not been counted since the last tips were put in" in page


def test_the_daily_sheets_of_a_reconciling_day_hold_back_the_uncounted_balances(client, cast):
    reconciling(cast)
    login(client, cast, "general_cashier")
    url = reverse("reports:day", args=[cast.event.slug, cast.day.date.isoformat()])
    page = client.get(url).content.decode()
    assert BANK_CASH not in page and "Counted blind: shown once its count is in" in page
    csv = client.get(url, {"format": "csv", "sheet": "cage_accountability"}).content.decode()
    assert "1045.00" not in csv and "Expected" not in csv
    count(cast, "bank_cash", cash=104_500)
    csv = client.get(url, {"format": "csv", "sheet": "cage_accountability"}).content.decode()
    assert "1045.00" in csv and csv.count("Counted blind") == 1  # the chip bank's still waits


def test_a_count_form_built_without_a_post_reads_and_creates_nothing(cast):
    reconciling(cast)
    accounts = Account.objects.count()
    form = SlipForm(
        kind=SLIP_KINDS["count"],
        day=cast.day,
        signer=cast.general_cashier,
        request=RequestFactory().get("/"),
        initial={"account": "tip_pool"},
    )
    assert "tip_pool" in dict(form.fields["account"].choices)
    assert Account.objects.count() == accounts
