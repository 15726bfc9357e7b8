"""The slip form at speed (issue 25, "Slip forms"): the runner chosen once, a sale's cash read from
its chips ("1,500" when that is what they are worth), Canadian cash the only tender offered, Record
another, a table that changed since the form was shown said in words, a form come back to after it
recorded, a second slip within a minute asked about, a refused opener that keeps its locked
figures, and a mistyped count refused by name. Through Django's test client, on a real database;
refusals are named by their codes (tests/refusals.py)."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from cage import services
from cage.forms import SlipForm, recent_slips
from cage.models import Slip
from core.local import clock
from core.money import parse_cash
from events.selectors import chip_values
from tests.cage.helpers import FILL_SIGNED, open_table, stock
from tests.cage.test_opener_check import OPENER_SIGNED, TRAY, first_day_closed, opener_form
from tests.cage.test_views import form, new_slip, runner_holds, signed_by
from tests.conftest import PIN, login
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]
NBSP = "\u00a0"


def codes(response, field=None) -> list[str]:
    """The codes of the form's refusals, of one field or of the form as a whole."""
    errors = response.context["form"].errors.as_data()
    return [error.code for error in errors.get(field or "__all__", [])]


def fill_data(cast, **more):
    return form(
        **{
            "table": cast.bj.pk,
            "runner": cast.runner.pk,
            "chips_5": "4",
            **signed_by(cast, issued_by="chip_cashier"),
            **more,
        }
    )


# --- 1. the runner, chosen once ----------------------------------------------------------------


def test_a_fill_names_its_runner_once_and_the_runner_signs_as_carried_by(client, cast):
    stock(cast)
    open_table(cast)
    login(client, cast, "chip_cashier")
    page = client.get(new_slip(cast.event.slug, "fill")).content.decode()
    # One choice of runner: the "Carried by" row names the runner chosen above, with their PIN.
    assert 'name="runner"' in page and 'name="sign_carried_by"' not in page
    assert "data-runner-signs" in page and "The runner chosen above" in page and 'name="pin_carried_by"' in page
    response = client.post(new_slip(cast.event.slug, "fill"), fill_data(cast, pin_carried_by=PIN))
    assert response.status_code == 302
    slip = Slip.objects.get(slip_type="fill")
    assert slip.runner == cast.runner
    assert {s.capacity: s.person for s in slip.signatures.all()} == {
        "issued_by": cast.chip_cashier,
        "carried_by": cast.runner,
    }


def test_a_fill_without_the_runners_pin_waits_for_their_own_signature(client, cast):
    stock(cast)
    open_table(cast)
    login(client, cast, "chip_cashier")
    assert client.post(new_slip(cast.event.slug, "fill"), fill_data(cast)).status_code == 302
    slip = Slip.objects.get(slip_type="fill")
    assert slip.runner == cast.runner and not slip.signatures.filter(capacity="carried_by").exists()


def test_a_runner_issue_needs_the_named_runners_pin_now_and_a_wrong_one_is_refused(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "runner_issue")
    data = form(runner=cast.runner2.pk, chips_5="2", **signed_by(cast, issued_by="chip_cashier"))
    page = client.post(url, data).content.decode()
    assert "Runner2, the runner named above, types their signing PIN here to sign as “received by”." in page
    page = client.post(url, {**data, "pin_received_by": "0000"}).content.decode()
    assert "the signing PIN of Runner2 is wrong" in page
    assert not Slip.objects.filter(slip_type="runner_issue").exists()
    assert client.post(url, {**data, "pin_received_by": PIN}).status_code == 302
    slip = Slip.objects.get(slip_type="runner_issue")
    assert slip.signatures.get(capacity="received_by").person == cast.runner2


def test_a_sale_by_a_runner_at_the_window_is_signed_by_that_runner_and_at_the_cage_by_the_chip_cashier(client, cast):
    stock(cast)
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"5": 10},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "sale")
    page = client.get(url).content.decode()
    # Only the Chip Cashier is offered to sell at the cage: a runner's sale names the runner above.
    seller = re.search(r'<select name="sign_sold_by".*?</select>', page, re.S).group(0)
    assert "Chip Cashier" in seller and "Runner" not in seller
    # The row's list still says the Chip Cashier: the runner named above signs all the same.
    data = form(runner=cast.runner.pk, chips_5="2", cash="10", sign_sold_by=cast.chip_cashier.pk, pin_sold_by=PIN)
    assert client.post(url, data).status_code == 302
    sale = Slip.objects.get(slip_type="sale")
    assert sale.runner == cast.runner and sale.signatures.get(capacity="sold_by").person == cast.runner
    at_cage = form(chips_5="3", cash="15", sign_sold_by=cast.chip_cashier.pk)
    assert client.post(url, at_cage).status_code == 302
    sale = Slip.objects.filter(slip_type="sale").latest("id")
    assert sale.runner is None and sale.signatures.get(capacity="sold_by").person == cast.chip_cashier


def test_a_sale_at_the_cage_with_nobody_to_sell_it_is_refused_in_words(client, cast):
    stock(cast)
    login(client, cast, "dric")  # not a Chip Cashier: nothing is chosen for her
    page = client.post(new_slip(cast.event.slug, "sale"), form(chips_5="2", cash="10")).content.decode()
    assert "Choose who signs as “sold by” (Chip Cashier / Runner)." in page
    assert not Slip.objects.filter(slip_type="sale").exists()


# --- 2. a sale's cash, from its chips ----------------------------------------------------------


@pytest.mark.parametrize(
    "typed", ["1,500", "1 500", f"1{NBSP}500", "1\u202f500", "1.500", "$1,500", "1500", "1,500.00"]
)
def test_cash_grouped_in_thousands_is_read_as_the_chips_total_it_matches(typed):
    assert parse_cash(typed, matching=150_000) == 150_000


def test_cash_grouped_in_thousands_is_still_refused_when_it_does_not_match():
    with refuses("amount.ambiguous"):
        parse_cash("1,500", matching=100_000)
    with refuses("amount.ambiguous"):
        parse_cash("1,500")  # no chips to read it against
    with refuses("amount.no_cents"):
        parse_cash("1 500", matching=150)  # $1.50 is not how "1 500" reads
    with refuses("amount.bad_grouping"):
        parse_cash("12 50", matching=125_000)  # not thousands
    with refuses("amount.mixed_separators"):
        parse_cash("1,234 567", matching=123_456_700)
    assert parse_cash("1,234,567", matching=123_456_700) == 123_456_700
    assert parse_cash("1,50", matching=150_000) == 150  # cents stay cents


@pytest.mark.parametrize("typed", ["1,500", f"1{NBSP}500", "1 500"])
def test_a_sale_records_1500_typed_with_a_thousands_separator(client, cast, typed):
    stock(cast)
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "sale")
    response = client.post(url, form(chips_5="300", cash=typed, **signed_by(cast, sold_by="chip_cashier")))
    assert response.status_code == 302
    sale = Slip.objects.get(slip_type="sale")
    assert sale.details["chips"] == {"5": 300}
    assert sale.postings.filter(denomination__isnull=True, amount__gt=0).get().amount == 150_000


def test_a_sale_whose_grouped_cash_differs_from_its_chips_is_refused_as_before(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    data = form(chips_5="200", cash="1,500", **signed_by(cast, sold_by="chip_cashier"))
    response = client.post(new_slip(cast.event.slug, "sale"), data)
    assert codes(response, "cash") == ["amount.ambiguous"]
    assert not Slip.objects.filter(slip_type="sale").exists()
    # Matching as typed but not the chips (the server still checks they match, T&C 3.6).
    data = form(chips_5="200", cash="1500", **signed_by(cast, sold_by="chip_cashier"))
    page = client.post(new_slip(cast.event.slug, "sale"), data).content.decode()
    assert "a sale of $1,000.00 in chips must be for $1,000.00 cash, not $1,500.00" in page
    assert not Slip.objects.filter(slip_type="sale").exists()


def test_a_redemptions_cash_is_read_from_its_chips_too_and_its_form_says_it_is_filled_in(client, cast):
    stock(cast)
    services.sale(
        day=cast.day, chips={"5": 300}, cash=150_000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    login(client, cast, "general_cashier")
    url = new_slip(cast.event.slug, "redemption")
    assert "Filled in from the chips at face value (T&amp;C 3.6)" in client.get(url).content.decode()
    data = form(chips_5="300", cash="1,500", **signed_by(cast, paid_by="general_cashier"))
    assert client.post(url, data).status_code == 302


def test_a_deposits_grouped_cash_is_refused_as_before(client, cast):
    stock(cast)
    login(client, cast, "general_cashier")
    data = form(cash="1,000", **signed_by(cast, deposited_by="general_cashier"))
    response = client.post(new_slip(cast.event.slug, "deposit"), data)
    assert codes(response, "cash") == ["amount.ambiguous"]


# --- 3. Canadian cash, the only tender offered ---------------------------------------------------


def test_only_canadian_cash_is_offered_and_another_tender_sent_is_refused_with_its_rule(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "sale")
    page = client.get(url).content.decode()
    assert '<select name="tender"' not in page and 'type="hidden" name="tender" value="cad_cash"' in page
    assert "Paid with Canadian cash only: no card, cheque or other currency (T&amp;C 3.6, 3.7)." in page
    base = form(chips_5="2", cash="10", **signed_by(cast, sold_by="chip_cashier"))
    page = client.post(url, {**base, "tender": "cheque"}).content.decode()
    assert "payment by cheque refused" in page and "(T&amp;C 3.7)" in page
    page = client.post(url, {**base, "request_key": "k-usd", "tender": "usd_cash"}).content.decode()
    assert "(T&amp;C 3.6)" in page
    assert not Slip.objects.filter(slip_type="sale").exists()


# --- 4. Record another -------------------------------------------------------------------------


def test_record_another_keeps_the_type_and_a_fills_table_and_clears_the_rest(client, cast):
    stock(cast)
    open_table(cast)
    login(client, cast, "chip_cashier")
    response = client.post(new_slip(cast.event.slug, "fill"), fill_data(cast), follow=True)
    page = response.content.decode()
    another = f"{new_slip(cast.event.slug, 'fill')}?table={cast.bj.pk}"
    assert f'id="record-another" href="{another}"' in page
    fresh = client.get(another)
    assert fresh.context["form"]["table"].value() == cast.bj.pk
    assert not fresh.context["form"]["runner"].value() and not fresh.context["form"]["chips_5"].value()
    # A sale keeps its type only.
    response = client.post(
        new_slip(cast.event.slug, "sale"),
        form(chips_5="2", cash="10", **signed_by(cast, sold_by="chip_cashier")),
        follow=True,
    )
    assert f'id="record-another" href="{new_slip(cast.event.slug, "sale")}"' in response.content.decode()


def test_record_another_is_offered_only_to_who_wrote_the_slip_while_its_type_is_offered(client, cast):
    stock(cast)
    for table in (cast.bj, cast.wheel):
        services.table_issue(
            day=cast.day, table=table, chips=TRAY, signed=cast.signed(issued_by="chip_cashier", received_by="dealer")
        )
    login(client, cast, "chip_cashier")
    opener = form(table=cast.bj.pk, chips_1="100", chips_5="80", **signed_by(cast, **OPENER_SIGNED))
    page = client.post(new_slip(cast.event.slug, "table_open"), opener, follow=True).content.decode()
    # An opener keeps its type, not its table: a table opens once a day.
    assert f'id="record-another" href="{new_slip(cast.event.slug, "table_open")}"' in page
    url = reverse("cage:slip", args=[cast.event.slug, Slip.objects.get(slip_type="table_open").pk])
    services.table_open(day=cast.day, table=cast.wheel, chips=TRAY, signed=cast.signed(**OPENER_SIGNED))
    # No table is left to open: no opener is offered, so no Record another.
    assert 'id="record-another"' not in client.get(url).content.decode()
    # Nor to someone who did not write it.
    client.logout()
    login(client, cast, "dric")
    assert 'id="record-another"' not in client.get(url).content.decode()


# --- 5. a table that changed since the form was shown ------------------------------------------


def test_a_fill_for_a_table_closed_since_the_form_was_shown_says_so_in_words(client, cast):
    stock(cast)
    open_table(cast)
    login(client, cast, "chip_cashier")
    client.get(new_slip(cast.event.slug, "fill"))  # the form, with BJ-1 open
    closer = services.table_close(
        day=cast.day,
        table=cast.bj,
        chips={"1": 100, "5": 80},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    response = client.post(new_slip(cast.event.slug, "fill"), fill_data(cast, pin_carried_by=PIN))
    page = response.content.decode()
    assert codes(response, "table") == ["table.closed_since_the_form"]
    assert f"BJ-1 closed at {clock(closer.at)}; this fill can no longer be written for it (table state)" in page
    assert "Select a valid choice" not in page
    assert not Slip.objects.filter(slip_type="fill").exists()


def test_a_table_issue_for_a_table_opened_since_says_when_it_opened(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    open_table(cast)
    data = form(table=cast.bj.pk, chips_1="10", **signed_by(cast, issued_by="chip_cashier", received_by="dealer"))
    response = client.post(new_slip(cast.event.slug, "table_issue"), data)
    assert codes(response, "table") == ["table.opened_since_the_form"]
    assert "BJ-1 opened at " in response.content.decode()


def test_a_table_gone_is_said_by_its_state_now_whether_it_changed_today_or_never_was_so(cast):
    """table_gone, for each state a table may be in: what put it there today and when, or, when
    nothing did, the state the slip needs; the words and codes as the services refuse them."""
    from cage.forms import table_gone
    from cage.slip_types import SLIP_KINDS

    fill, issue = SLIP_KINDS["fill"], SLIP_KINDS["table_issue"]
    said = table_gone(cast.day, fill, cast.bj)  # closed all day
    assert (said.code, str(said)) == ("table.needs_open", "table BJ-1 is closed; a fill needs it open (table state)")
    stock(cast)
    open_table(cast)
    opener = Slip.objects.get(slip_type="table_open")
    said = table_gone(cast.day, issue, cast.bj)
    assert said.code == "table.opened_since_the_form"
    assert (
        str(said)
        == f"BJ-1 opened at {clock(opener.at)}; this table issue can no longer be written for it (table state)"
    )
    closer = services.table_close(
        day=cast.day, table=cast.bj, chips={"1": 100, "5": 80}, signed=cast.signed(**OPENER_SIGNED)
    )
    cast.bj.refresh_from_db()
    said = table_gone(cast.day, fill, cast.bj)
    assert said.code == "table.closed_since_the_form"
    assert str(said) == f"BJ-1 closed at {clock(closer.at)}; this fill can no longer be written for it (table state)"
    cast.wheel.state = "open"  # as read, with no opener of it today
    said = table_gone(cast.day, issue, cast.wheel)
    assert (said.code, str(said)) == (
        "table.needs_closed",
        "table WOF-1 is open; a table issue needs it closed (table state)",
    )


def test_a_table_of_another_event_is_still_not_a_choice(client, cast):
    from tests.conftest import make_cast

    other = make_cast("elsewhere")
    stock(cast)
    open_table(cast)
    login(client, cast, "chip_cashier")
    response = client.post(new_slip(cast.event.slug, "fill"), {**fill_data(cast), "table": other.bj.pk})
    assert codes(response, "table") == ["invalid_choice"]


# --- 6. a form come back to, and a second slip within a minute ----------------------------------


def test_back_to_a_recorded_form_shows_the_slip_it_recorded_and_no_form(client, cast):
    stock(cast)
    open_table(cast)
    login(client, cast, "chip_cashier")
    data = fill_data(cast)
    client.post(new_slip(cast.event.slug, "fill"), data)
    slip = Slip.objects.get(slip_type="fill")
    response = client.get(new_slip(cast.event.slug, "fill") + f"?key={data['request_key']}")
    page = response.content.decode()
    link = reverse("cage:slip", args=[cast.event.slug, slip.pk])
    assert f'<a href="{link}">Fill 1</a> was recorded from this form.' in page
    assert 'id="slip-form"' not in page and 'id="record-another"' in page
    # Sent again, even after its table closed: the slip it recorded, never a second one.
    services.sign(slip=slip, capacity="carried_by", person=cast.runner)
    services.sign(slip=slip, capacity="received_by", person=cast.dealer)
    services.table_close(
        day=cast.day,
        table=cast.bj,
        chips={"1": 100, "5": 76},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    again = client.post(new_slip(cast.event.slug, "fill"), data, follow=True)
    assert "This slip was already recorded as Fill 1." in again.content.decode()
    assert Slip.objects.filter(slip_type="fill").count() == 1


def test_a_key_that_recorded_nothing_or_another_persons_slip_shows_a_fresh_form(client, cast):
    stock(cast)
    open_table(cast)
    login(client, cast, "general_cashier")
    data = form(chips_5="2", cash="10", **signed_by(cast, sold_by="chip_cashier"))
    client.logout()
    login(client, cast, "chip_cashier")
    client.post(new_slip(cast.event.slug, "sale"), data)
    client.logout()
    login(client, cast, "dric")
    for key in (data["request_key"], "never-used", "<script>", "x" * 41):
        page = client.get(new_slip(cast.event.slug, "sale") + "?key=" + key).content.decode()
        assert 'id="slip-form"' in page and "was recorded from this form" not in page


def test_a_second_slip_of_the_same_amount_within_a_minute_asks_for_confirmation(client, cast):
    stock(cast)
    open_table(cast)
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "fill")
    client.post(url, fill_data(cast))
    first = Slip.objects.get(slip_type="fill")
    again = fill_data(cast)
    response = client.post(url, again)
    assert codes(response) == ["slip.second_within_a_minute"]
    page = response.content.decode()
    assert "Fill 1, for the same amount of $20.00, was recorded at" in page
    assert f'type="checkbox" name="confirm_second" value="{first.pk}"' in page
    # Refused as a whole, not for a field: the keyboard starts at the refusal, not at the table.
    assert autofocused(page) == ["form-refusals"]
    assert Slip.objects.filter(slip_type="fill").count() == 1
    assert client.post(url, {**again, "confirm_second": str(first.pk)}).status_code == 302
    assert Slip.objects.filter(slip_type="fill").count() == 2


def test_the_same_amount_in_other_chips_is_asked_about_and_other_amounts_are_not(client, cast):
    # Which earlier slips may be of the amount is read in the database (cage.forms.recent_slips):
    # the chips' keys are digits, an object's keys in the slip's details, not a list's indexes.
    stock(cast)
    open_table(cast)
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "fill")
    assert client.post(url, fill_data(cast, chips_5="3", chips_1="5")).status_code == 302  # $20
    assert client.post(url, fill_data(cast, chips_5="", chips_1="19")).status_code == 302  # $19
    assert client.post(url, fill_data(cast, chips_5="5")).status_code == 302  # $25
    response = client.post(url, fill_data(cast, chips_5="", chips_1="20"))
    assert codes(response) == ["slip.second_within_a_minute"]
    assert "Fill 1, for the same amount of $20.00, was recorded at" in response.content.decode()
    assert Slip.objects.filter(slip_type="fill").count() == 3
    # Of the three, the database reads back only the one worth $20, and each amount's own.
    user = Slip.objects.get(serial=1, slip_type="fill").created_by
    since = timezone.now() - datetime.timedelta(minutes=1)
    for amount, serials in ((2000, [1]), (1900, [2]), (2500, [3]), (500, [])):
        found = recent_slips(cast.day.pk, "fill", since, user.pk, "", amount=amount, values=chip_values(cast.event))
        assert [slip.serial for slip in found] == serials


def test_a_second_deposit_of_the_same_cash_within_a_minute_is_asked_about_too(client, cast):
    # A deposit counts no chips: its amount is the cash it moved, read only for such slips.
    stock(cast)
    login(client, cast, "general_cashier")
    url = new_slip(cast.event.slug, "deposit")
    assert client.post(url, form(cash="10.00", **signed_by(cast, deposited_by="general_cashier"))).status_code == 302
    assert client.post(url, form(cash="12.00", **signed_by(cast, deposited_by="general_cashier"))).status_code == 302
    again = form(cash="10.00", **signed_by(cast, deposited_by="general_cashier"))
    response = client.post(url, again)
    assert codes(response) == ["slip.second_within_a_minute"]
    assert "for the same amount of $10.00" in response.content.decode()
    assert Slip.objects.filter(slip_type="deposit").count() == 2


def test_a_runner_return_is_worth_its_chips_and_the_cash_handed_back_when_asked_about(client, cast):
    # $10 of chips and $10 of cash handed back, then $20 of chips: the same amount, asked about.
    runner_holds(cast)
    services.sale(
        day=cast.day,
        runner=cast.runner,
        chips={"5": 4},
        cash=2000,
        signed=cast.signed(sold_by="runner", authorized_by="dric"),
    )
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "runner_return")
    signed = signed_by(cast, returned_by="runner", received_by="chip_cashier")
    first = form(runner=cast.runner.pk, chips_5="2", cash="10.00", **signed)
    assert client.post(url, first).status_code == 302
    response = client.post(url, form(runner=cast.runner.pk, chips_5="4", **signed))
    assert codes(response) == ["slip.second_within_a_minute"]
    assert "for the same amount of $20.00" in response.content.decode()
    assert Slip.objects.filter(slip_type="runner_return").count() == 1


def test_another_amount_another_runner_or_a_minute_later_is_not_asked_about(client, cast, monkeypatch):
    stock(cast)
    open_table(cast)
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "fill")
    assert client.post(url, fill_data(cast)).status_code == 302
    assert client.post(url, fill_data(cast, chips_5="5")).status_code == 302
    assert client.post(url, {**fill_data(cast), "runner": cast.runner2.pk}).status_code == 302
    open_table(cast, cast.wheel)
    assert client.post(url, {**fill_data(cast), "table": cast.wheel.pk}).status_code == 302
    # The minute gone by (slips are written in order, so the clock is not turned back: the window is).
    monkeypatch.setattr(SlipForm, "SECOND_SLIP_WITHIN", datetime.timedelta(0))
    assert client.post(url, fill_data(cast)).status_code == 302
    assert Slip.objects.filter(slip_type="fill").count() == 5


def test_the_same_sale_at_another_window_in_the_same_minute_is_not_asked_about(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "sale")
    assert client.post(url, form(chips_5="4", cash="20", **signed_by(cast, sold_by="chip_cashier"))).status_code == 302
    client.logout()
    # The General Cashier's window sells the same $20 of chips a moment later, the Chip Cashier signing.
    login(client, cast, "general_cashier")
    data = form(chips_5="4", cash="20", **signed_by(cast, sold_by="chip_cashier"))
    assert client.post(url, data).status_code == 302
    assert Slip.objects.filter(slip_type="sale").count() == 2


# --- 7. a refused opener keeps its locked figures ----------------------------------------------


def test_a_refused_opener_refused_again_for_a_pin_keeps_its_figures_locked(client, cast):
    day2 = first_day_closed(cast)
    login(client, cast, "chip_cashier")
    url = reverse("cage:slip_new", args=[cast.event.slug, "table_open"])
    refused = client.post(url, opener_form(cast, day2, **{"1": 100, "5": 79})).content.decode()
    assert 'data-locked="yes"' in refused
    # The reason given, but the dealer's PIN mistyped: refused again, the figures still locked.
    data = {**opener_form(cast, day2, **{"1": 100, "5": 79}), "reason": "one chip short", "pin_counted_by": "1357"}
    page = client.post(url, data).content.decode()
    assert 'id="opener-standing"' in page and "was set beside the tray's books at" in page
    assert re.search(r'type="hidden" name="chips_5" value="79"[^>]*data-locked="yes"', page)
    assert '<span class="locked-figure">79</span>' in page
    # Figures changed behind the lock (a hand-made request) are put back as first typed.
    data = {**opener_form(cast, day2, **TRAY), "reason": "one chip short", "pin_counted_by": "1357"}
    page = client.post(url, data).content.decode()
    assert '<span class="locked-figure">79</span>' in page
    assert not Slip.objects.filter(slip_type="table_open", day=day2).exists()


# --- 8. a mistyped count ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "code", "words"),
    [
        ("2O", "count.letters", '"2O" contains letters: write a count with digits only'),
        ("1.5", "count.not_whole", '"1.5": a count is a whole number, written without a decimal part'),
        ("1,5", "count.not_whole", '"1,5": a count is a whole number'),
    ],
)
def test_a_mistyped_count_is_refused_by_name_and_records_nothing(client, cast, typed, code, words):
    stock(cast)
    login(client, cast, "chip_cashier")
    data = form(chips_5=typed, cash="10", **signed_by(cast, sold_by="chip_cashier"))
    response = client.post(new_slip(cast.event.slug, "sale"), data)
    assert codes(response, "chips_5") == [code]
    assert words.replace('"', "&quot;") in response.content.decode()
    assert not Slip.objects.filter(slip_type="sale").exists()


def autofocused(page: str) -> list[str]:
    """What the page starts the keyboard at: the id of each element marked autofocus."""
    tags = re.findall(r"<[a-z]+ [^>]*\bautofocus\b[^>]*>", page)
    return [re.search(r'\bid="([^"]+)"', tag).group(1) for tag in tags]


def test_a_mistyped_count_with_its_cash_left_empty_is_refused_for_the_count_alone(client, cast):
    """The page fills in no cash while a count is not a count ("2O"), and lets the form go: the
    server refuses the count by name (count.letters), says nothing of the empty cash that waits
    for it, and the keyboard starts at the count, on the fresh form as on the refused one: not at
    the runner, the form's first field, which a sale at the cage leaves empty."""
    stock(cast)
    login(client, cast, "chip_cashier")
    fresh = client.get(new_slip(cast.event.slug, "sale")).content.decode()
    assert autofocused(fresh) == ["id_chips_1"]
    data = form(chips_5="2O", chips_25="1.5", cash="", **signed_by(cast, sold_by="chip_cashier"))
    response = client.post(new_slip(cast.event.slug, "sale"), data)
    page = response.content.decode()
    assert codes(response, "chips_5") == ["count.letters"] and codes(response, "chips_25") == ["count.not_whole"]
    assert "cash" not in response.context["form"].errors
    assert autofocused(page) == ["id_chips_5"]
    # Listed at the top one a line, each naming its field and leading to it, in the page's order.
    refusals = page.split('id="form-refusals"')[1].split("</div>")[0]
    assert re.findall(r'<li><a href="#(id_[a-z_0-9]+)">', refusals) == ["id_chips_5", "id_chips_25"]
    assert "$5 chips: &quot;2O&quot; contains letters" in refusals
    assert not Slip.objects.filter(slip_type="sale").exists()


def test_the_keyboard_starts_where_the_slip_must_be_typed(client, cast):
    """A fill starts at its table, the first thing it needs; a runner's own sale on the floor at its
    chips, the runner being already chosen (herself)."""
    stock(cast)
    login(client, cast, "chip_cashier")
    assert autofocused(client.get(new_slip(cast.event.slug, "fill")).content.decode()) == ["id_table"]
    client.logout()
    login(client, cast, "runner")
    page = client.get(new_slip(cast.event.slug, "sale")).content.decode()
    assert autofocused(page) == ["id_chips_1"]


def test_an_empty_cash_is_still_refused_when_the_chips_are_counts(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    data = form(chips_5="4", cash="", **signed_by(cast, sold_by="chip_cashier"))
    response = client.post(new_slip(cast.event.slug, "sale"), data)
    assert codes(response, "cash") == ["required"]
    assert autofocused(response.content.decode()) == ["id_cash"]
    assert not Slip.objects.filter(slip_type="sale").exists()


def test_a_refused_pin_takes_the_keyboard_after_a_refused_count_above_it(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    data = form(chips_5="2O", cash="10", sign_authorized_by=cast.dric.pk, pin_authorized_by="")
    data.update(signed_by(cast, sold_by="chip_cashier"))
    response = client.post(new_slip(cast.event.slug, "sale"), data)
    page = response.content.decode()
    assert "pin_authorized_by" in response.context["form"].errors
    assert autofocused(page) == ["id_chips_5"]
    refusals = page.split('id="form-refusals"')[1].split("</div>")[0]
    assert re.findall(r'<li><a href="#(id_[a-z_0-9]+)">', refusals) == ["id_chips_5", "id_pin_authorized_by"]


def test_the_services_still_hold_a_fills_carrier_to_the_runner_it_names(cast):
    # The form names the runner once; the service's own rule is unchanged (T&C 2.1.2).
    stock(cast)
    open_table(cast)
    with refuses("signing.not_the_runner"):
        services.fill(
            day=cast.day,
            table=cast.bj,
            runner=cast.runner2,
            chips={"5": 4},
            signed=cast.signed(**{k: v for k, v in FILL_SIGNED.items() if k in ("issued_by", "carried_by")}),
            allow_pending=True,
        )
