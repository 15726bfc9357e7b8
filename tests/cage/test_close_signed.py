"""The nightly close as a new user walked it (issue 7, third walk): the day's close is signed by
three people, each from their own session (the General Cashier prepares, the Chip Cashier
verifies, the DRIC approves with the day's figures in front of her), and locks once all three have;
anything posted after the preparation undoes it. The close page's figures: chip over/short not
counted yet until the chip bank is, the counted amounts beside expected, a tick on every step done,
runners offered only when rostered or holding, and a recount netted against the count it corrects."""

import datetime
import re
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from cage import services
from cage.models import CloseSignature, Slip
from cage.services.ledger import DuplicateRequest
from events import services as event_services
from events.models import GamingDay, Role
from reports.daily import day_sheets
from tests.cage.helpers import COUNT_SIGNED, stock
from tests.cage.test_blind_counts import count, login
from tests.cage.test_close_gaps import element, page, row_with, sheet_html
from tests.cage.test_opener_check import first_day_closed, open_short
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def ready(cast):
    """A day that may close: stocked, and bank cash and the chip bank counted as they stand."""
    stock(cast, chips={"1": 10}, cash=1000)
    count(cast, "bank_cash", cash=1000)
    count(cast, "chip_bank", chips={"1": 10})


def prepare(client, cast, **signed) -> object:
    """The close form's POST, as the General Cashier sends it: herself as prepared by, and the
    others as chosen ("" for "Signs later")."""
    data = {"request_key": uuid.uuid4().hex, "sign_prepared_by": cast.general_cashier.pk, **signed}
    return client.post(reverse("cage:day_close", args=[cast.event.slug]), data, follow=True)


def sign(client, cast, capacity):
    return client.post(reverse("cage:day_close_sign", args=[cast.event.slug]), {"capacity": capacity}, follow=True)


def status(cast) -> str:
    return GamingDay.objects.get(pk=cast.day.pk).status


# --- 1. three people, three sessions ------------------------------------------------------------


def test_each_signs_the_close_from_their_own_session_and_the_day_locks_once_all_three_have(client, cast):
    ready(cast)
    login(client, cast, "general_cashier")
    close = page(client, "cage:day_close", cast)
    form = element(close, "close-form")
    assert "novalidate" in close.split('id="close-form"')[1].split(">")[0]
    assert "Signs later" in form and "The day locks once all three have signed" in form

    answer = prepare(client, cast).content.decode()
    assert "The close is prepared; it waits for the signatures still missing." in answer
    assert status(cast) == GamingDay.Status.OPEN and not Slip.objects.filter(slip_type="close_day").exists()
    signatures = element(answer, "close-signatures")
    assert f"{cast.general_cashier.name}, at" in signatures and "Waiting: signs from their own session" in signatures
    assert 'id="close-form"' not in answer  # prepared: nobody prepares it twice
    assert (
        "Verify the close" not in answer and "Approve the close" not in answer
    )  # she has signed; nothing more is hers

    # The Chip Cashier sees it waiting on the cage home, and verifies it from her own session.
    login(client, cast, "chip_cashier")
    home = page(client, "cage:home", cast)
    waiting = element(home, "close-waiting")
    assert f"Prepared by {cast.general_cashier.name}" in waiting and "verified by" in waiting
    mine = page(client, "cage:day_close", cast)
    assert "Verify the close (Chip Cashier)" in mine and "Approve the close" not in mine  # her capacity alone
    answer = sign(client, cast, "verified_by").content.decode()
    assert f"{cast.chip_cashier.name} signed the close as “verified by”; it waits" in answer
    # Hers is done: nobody signs two capacities of the close.
    answer = sign(client, cast, "approved_by").content.decode()
    assert "Chip Cashier cannot sign both verified by and approved by" in answer
    assert status(cast) == GamingDay.Status.OPEN

    # The DRIC finds it in her queue, and approves on the close page, the day's figures above.
    login(client, cast, "dric")
    queue = page(client, "cage:queue", cast)
    assert "approved by" in element(queue, "close-waiting") and reverse(
        "cage:day_close", args=[cast.event.slug]
    ) in element(queue, "close-waiting")
    close = page(client, "cage:day_close", cast)
    assert 'id="day-figures"' in close and close.index('id="day-figures"') < close.index("Approve the close (DRIC)")
    answer = sign(client, cast, "approved_by").content.decode()
    assert "Gaming day" in answer and "closed and locked" in answer
    assert status(cast) == GamingDay.Status.CLOSED
    slip = Slip.objects.get(slip_type="close_day")
    signed = {s.capacity: s.person for s in slip.signatures.all()}
    assert signed == {
        "prepared_by": cast.general_cashier,
        "verified_by": cast.chip_cashier,
        "approved_by": cast.dric,
    }
    assert {"close_prepared", "close_signed"} <= set(AuditEntry.objects.values_list("action", flat=True))


def test_the_chip_cashier_and_the_dric_may_still_sign_now_with_their_pin(client, cast):
    from tests.conftest import PIN

    ready(cast)
    login(client, cast, "general_cashier")
    answer = prepare(
        client,
        cast,
        sign_verified_by=cast.chip_cashier.pk,
        pin_verified_by=PIN,
        sign_approved_by=cast.dric.pk,
        pin_approved_by=PIN,
    ).content.decode()
    assert "closed and locked" in answer and status(cast) == GamingDay.Status.CLOSED
    # The same form sent twice is recognised: one close.
    key = Slip.objects.get(slip_type="close_day").request_key
    with pytest.raises(DuplicateRequest):
        services.prepare_close(day=cast.day, signed={"prepared_by": cast.general_cashier}, request_key=key)


def test_close_and_lock_with_nothing_chosen_gets_the_apps_own_message(client, cast):
    ready(cast)
    login(client, cast, "general_cashier")
    answer = prepare(client, cast, sign_prepared_by="").content.decode()
    assert "Choose who signs as “prepared by” (General Cashier)." in answer
    assert not CloseSignature.objects.exists() and status(cast) == GamingDay.Status.OPEN


def test_one_person_never_signs_two_capacities_and_each_capacity_takes_its_role(cast):
    ready(cast)
    services.prepare_close(day=cast.day, signed={"prepared_by": cast.general_cashier})
    with refuses("signing.same_person"):
        services.sign_close(day=cast.day, capacity="verified_by", person=cast.general_cashier)
    with refuses("signing.role_not_held"):
        services.sign_close(day=cast.day, capacity="verified_by", person=cast.dric)
    with refuses("close.already_prepared"):
        services.prepare_close(day=cast.day, signed={"prepared_by": cast.general_cashier})
    # Nobody but the General Cashier prepares it, and it is prepared first.
    CloseSignature.objects.all().delete()
    with refuses("close.prepared_by_first"):
        services.prepare_close(day=cast.day, signed={"verified_by": cast.chip_cashier})
    with refuses("close.not_prepared"):
        services.sign_close(day=cast.day, capacity="verified_by", person=cast.chip_cashier)
    assert status(cast) == GamingDay.Status.OPEN


def test_a_slip_posted_after_the_preparation_undoes_it_and_the_close_is_prepared_again(client, cast):
    ready(cast)
    login(client, cast, "general_cashier")
    prepare(client, cast)
    services.deposit(
        day=cast.day, cash=200, signed=cast.signed(deposited_by="general_cashier", witnessed_by="dric")
    )  # a late deposit

    close = page(client, "cage:day_close", cast)
    stale = element(close, "close-stale")
    assert "Deposit 1 was recorded at" in stale and "the preparation no longer stands" in stale
    assert "prepares the close again" in stale
    login(client, cast, "chip_cashier")
    answer = sign(client, cast, "verified_by").content.decode()
    assert "the preparation no longer stands" in answer
    assert not CloseSignature.objects.filter(capacity="verified_by").exists()
    assert "no longer stands" in element(page(client, "cage:home", cast), "close-waiting")

    # The deposit moved bank cash: counted again, then the General Cashier prepares once more.
    count(cast, "bank_cash", cash=800)
    login(client, cast, "general_cashier")
    assert 'id="close-form"' in page(client, "cage:day_close", cast)
    assert "The close is prepared" in prepare(client, cast).content.decode()
    assert AuditEntry.objects.filter(action="close_withdrawn").count() == 1
    for persona, capacity in (("chip_cashier", "verified_by"), ("dric", "approved_by")):
        login(client, cast, persona)
        sign(client, cast, capacity)
    assert status(cast) == GamingDay.Status.CLOSED


# --- 2. the close page's figures -------------------------------------------------------------------


def test_chip_over_short_reads_not_counted_yet_on_a_day_whose_openers_differ(client, cast):
    day2 = first_day_closed(cast)
    open_short(cast, day2)  # one $5 chip fewer than the closer left: a variance on the opener
    login(client, cast, "general_cashier")
    totals = sheet_html(page(client, "cage:day_close", cast), "totals")
    chips = row_with(totals, "Chip over/short")
    assert "not counted yet" in chips and "-$" not in chips


def test_the_close_shows_what_was_counted_beside_expected_and_over_short_once_recorded(client, cast):
    stock(cast, chips={"1": 10}, cash=1000)
    login(client, cast, "general_cashier")
    close = page(client, "cage:day_close", cast)
    assert "Expected $" not in close  # nothing recorded yet: nothing of the books
    count(cast, "bank_cash", cash=1000)
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "chip_bank"),
        chips={"1": 9},
        reason="one chip missing",
        signed=cast.signed(**COUNT_SIGNED),
    )
    counts = element(page(client, "cage:day_close", cast), "close-counts")
    assert "Expected $10.00 · counted $10.00 · over/short $0.00" in counts
    assert "Expected $10.00 · counted $9.00 · over/short -$1.00" in counts


def test_every_step_done_is_ticked(client, cast):
    stock(cast, chips={"1": 10}, cash=1000)
    services.day_reconcile(day=cast.day)
    login(client, cast, "general_cashier")
    close = page(client, "cage:day_close", cast)
    for step in ("close-step-floor", "close-step-runners"):
        assert "✓" in element(close, step), step
    assert "✓" not in element(close, "close-step-counts").split("<ul")[0]  # the bank is still to count
    # Nothing to do is not done: no tip to pay out, no opener this day.
    for step, idle in (("close-tip-payout", "Nothing to pay out yet"), ("close-step-sign-offs", "No table has opened")):
        assert "✓" not in element(close, step) and idle in element(close, step), step


def test_the_next_days_close_ticks_nothing_before_anything_is_done(client, cast):
    """Day two open, nothing recorded yet: no step is ticked; the tips and the counts say there is
    nothing to pay out or counted yet."""
    first_day_closed(cast)
    login(client, cast, "general_cashier")
    close = page(client, "cage:day_close", cast)
    assert "✓" not in element(close, "close-step-floor") and "✓" not in element(close, "close-tip-payout")
    assert "Nothing to pay out yet" in element(close, "close-tip-payout")
    assert "✓" not in element(close, "close-step-counts") and "Nothing counted yet today." in close
    assert "✓" not in element(close, "close-step-sign-offs") and "✓" not in element(close, "close-step-runners")


def test_the_close_page_shows_the_tip_distribution_and_the_cage_walk_and_a_closed_days_figures(client, cast):
    day2 = first_day_closed(cast)  # day one: the bank counted and the day closed
    login(client, cast, "dric")
    response = client.get(reverse("cage:day_close", args=[cast.event.slug]))
    close = response.content.decode()
    assert 'id="day-figures"' in close  # day two is open: its figures so far
    for key in ("tip_distribution", "cage_accountability"):
        assert sheet_html(close, key), key
    walk = sheet_html(close, "cage_accountability")
    assert "Opening balance" in walk and "Expected" in walk and "Counted" in walk
    # Nothing counted yet on day two: no over/short, rather than an even $0.00.
    for place in ("bank cash", "chip bank"):
        over_short = [r for r in re.findall(r"<tr[^>]*>.*?</tr>", walk, re.S) if place in r and "Over/short" in r]
        assert len(over_short) == 1 and "not counted yet" in over_short[0] and "$" not in over_short[0], place
    sheet = next(s for s in day_sheets(day2)["sheets"] if s.key == "cage_accountability")
    assert [r["amount"] for r in sheet.plain() if r["line"] == "Over/short"] == ["", ""]  # the CSV's cells
    # Day one, closed: its figures still show on its close page (the cage's day is day two now).
    day2.status = GamingDay.Status.SETUP
    day2.save(update_fields=["status"])
    day2.delete()
    close = client.get(reverse("cage:day_close", args=[cast.event.slug])).content.decode()
    assert "closed and locked" in close and 'id="day-figures"' in close
    walk = sheet_html(close, "cage_accountability")
    assert "Counted (Count 1)" in walk and "$100.00" in walk


def test_runners_are_offered_a_count_only_when_rostered_or_holding_something(client, cast):
    stock(cast)
    login(client, cast, "general_cashier")
    counts = element(page(client, "cage:day_close", cast), "close-counts")
    assert "Count runner" not in counts  # neither on the roster nor holding anything
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"1": 5},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    begins = timezone.make_aware(datetime.datetime.combine(cast.day.date, datetime.time(18)))
    event_services.shift_add(
        day=cast.day,
        person=cast.runner2,
        role=Role.RUNNER,
        starts_at=begins,
        ends_at=begins + datetime.timedelta(hours=4),
    )
    counts = element(page(client, "cage:day_close", cast), "close-counts")
    assert f"Count runner {cast.runner.name}" in counts and f"Count runner {cast.runner2.name}" in counts


def test_closing_the_floor_lands_on_the_close_page(client, cast):
    stock(cast)
    login(client, cast, "general_cashier")
    response = client.post(reverse("cage:day_reconcile", args=[cast.event.slug]))
    assert response.status_code == 302 and response.url == reverse("cage:day_close", args=[cast.event.slug])


# --- 3. a recount corrects the earlier count --------------------------------------------------------


def test_a_recount_is_shown_correcting_the_earlier_count_with_the_net_for_its_place(cast):
    stock(cast, chips={"1": 10}, cash=1000)
    for found in (5, 10):  # five $1 chips missing, then found on a recount
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, "chip_bank"),
            chips={"1": found},
            variance_reason="miscount",
            signed=cast.signed(**COUNT_SIGNED),
        )
    sheet = next(s for s in day_sheets(cast.day)["sheets"] if s.key == "variances")
    rows = [(r["row"], r["slip"], r["place"], r["amount"]) for r in sheet.plain()]
    assert rows == [
        ("line", "Count 1", "chip bank", "-5.00"),
        ("line", "Count 2, recount of Count 1", "chip bank", "5.00"),
        ("subtotal", "Net for chip bank", "chip bank", "0.00"),
    ]
    assert any("A recount corrects the earlier count" in str(n) for n in sheet.notes)


def test_a_recounted_place_reads_expected_before_the_days_counts_and_its_net_over_short(client, cast):
    """Bank cash of $257 counted at $252 (−$5 posted), then recounted at $257: the close page reads
    expected $257, counted $257, over/short $0 for the day, as the summary and the variance report."""
    stock(cast, chips={"1": 10}, cash=25_700)
    count(cast, "bank_cash", cash=25_200, variance_reason="miscount")
    count(cast, "bank_cash", cash=25_700, variance_reason="miscount")
    login(client, cast, "general_cashier")
    close = page(client, "cage:day_close", cast)
    assert "Expected $257.00 · counted $257.00 · over/short $0.00" in element(close, "close-counts")
    assert "$5.00" not in element(close, "close-counts")
    assert "$0.00" in row_with(sheet_html(close, "totals"), "Cash over/short")
