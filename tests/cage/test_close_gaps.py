"""The nightly close as a new user walks it (issue 7): no page gives away a blind count's expected
figure before the count is in, the tips are paid out before the counts (and the payout says which
counts it would undo), the payout's hours are the roster's, a closed day's roster is locked, and
the staffing sheet's columns are named."""

import csv
import datetime
import io
import re
import uuid
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from cage import services
from cage.models import Account, Slip
from events import services as event_services
from events.models import Role, Shift
from reports.daily import day_sheets, sheets_json
from tests.cage.helpers import close_clean_day, roster_dealers
from tests.cage.test_blind_counts import count, login, reconciling
from tests.conftest import PIN, add_person
from tests.refusals import refuses
from tests.reports.test_exports import pdf_text, poppler  # noqa: F401  (poppler: a fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]
PAYOUT_SIGNED = {"paid_by": "general_cashier", "verified_by": "chip_cashier", "authorized_by": "dric"}
NOT_COUNTED = "not counted yet"


def page(client, name, cast, *args, **query) -> str:
    response = client.get(reverse(name, args=[cast.event.slug, *args]), query)
    assert response.status_code == 200
    return response.content.decode()


def sheet_html(html: str, key: str) -> str:
    match = re.search(rf'<section class="day-sheet" id="sheet-{key}">(.*?)</section>', html, re.S)
    assert match, key
    return match.group(1)


def row_with(html: str, text: str) -> str:
    rows = [r for r in re.findall(r"<tr[^>]*>.*?</tr>", html, re.S) if text in r]
    assert rows, text
    return rows[0]


def element(html: str, element_id: str) -> str:
    match = re.search(rf'<(\w+)[^>]* id="{element_id}"[^>]*>(.*?)</\1>', html, re.S)
    assert match, element_id
    return match.group(2)


def count_everything(cast):
    """The books of reconciling(), counted as they stand."""
    count(cast, "bank_cash", cash=104_500)
    count(cast, "chip_bank", chips={"1": 835, "5": 320})
    count(cast, "tip_pool", chips={"1": 9})
    count(cast, f"runner:{cast.runner.code}", chips={"1": 14}, cash=600)


# --- 1. blind counts: the tip pool and the runners -----------------------------------------------


def test_the_close_summary_and_the_tip_sheet_say_not_counted_yet_until_the_tip_pool_is_counted(
    client,
    cast,
    tmp_path,
    poppler,  # noqa: F811
):
    reconciling(cast)  # two tip boxes, $4.00 and $5.00: the pool should hold $9.00
    login(client, cast, "general_cashier")
    close = page(client, "cage:day_close", cast)
    tips = row_with(sheet_html(close, "totals"), "Tips (dealers")
    assert NOT_COUNTED in tips and "$9.00" not in tips
    assert "The tips show once the tip pool is counted" in sheet_html(close, "totals")

    date = cast.day.date.isoformat()
    sheets = page(client, "reports:day", cast, date)
    tip_sheet = sheet_html(sheets, "tip_distribution")
    assert tip_sheet.count(NOT_COUNTED) == 2 and "$4.00" not in tip_sheet and "$5.00" not in tip_sheet
    assert NOT_COUNTED in row_with(sheet_html(sheets, "totals"), "Tips (dealers")
    lines = list(
        csv.DictReader(io.StringIO(page(client, "reports:day", cast, date, format="csv", sheet="tip_distribution")))
    )
    assert [(r["slip"], r["row"], r["amount"]) for r in lines] == [("Tips 1", "blind", ""), ("Tips 2", "blind", "")]
    assert sheets_json(day_sheets(cast.day))["figures"]["tips"] is None
    pdf = tmp_path / "day.pdf"
    pdf.write_bytes(client.get(reverse("reports:day", args=[cast.event.slug, date]), {"format": "pdf"}).content)
    text = {" ".join(line.split()) for line in pdf_text(pdf).splitlines()}
    assert "Tips (dealers' pool) not counted yet" in text
    assert not any("$9.00" in line or "$4.00" in line for line in text)

    # Counted (the bank too: until then the day's totals wait): expected, counted and variance as
    # before, on the DRIC's close page too.
    count_everything(cast)
    client.logout()
    login(client, cast, "dric")
    close = page(client, "cage:day_close", cast)
    assert "$9.00" in row_with(sheet_html(close, "totals"), "Tips (dealers") and NOT_COUNTED not in close
    tip_sheet = sheet_html(page(client, "reports:day", cast, date), "tip_distribution")
    assert "$4.00" in tip_sheet and "$5.00" in tip_sheet and NOT_COUNTED not in tip_sheet
    assert sheets_json(day_sheets(cast.day))["figures"]["tips"] == "9.00"


def test_the_runner_sheet_and_the_runners_own_page_wait_for_the_runners_count(client, cast):
    reconciling(cast)  # runner 1 was issued 20 × $1, sold 6 for $6.00: holds $14.00 in chips and $6.00
    name = cast.runner.name
    [row] = [r for r in day_sheets(cast.day)["sheets"] if r.key == "runner_reconciliation"][0].shown()[:1]
    cells = [text for text, _right in row["cells"]]
    assert cells[0] == name and cells[-2:] == [NOT_COUNTED, NOT_COUNTED]
    assert not {"$20.00", "$6.00", "$14.00"} & set(cells)  # nor the movements that add up to them
    login(client, cast, "dric")
    runners = sheet_html(page(client, "reports:day", cast, cast.day.date.isoformat()), "runner_reconciliation")
    assert NOT_COUNTED in row_with(runners, f"<td>{name}</td>") and "$20.00" not in runners
    client.logout()

    login(client, cast, "runner")
    held = element(page(client, "cage:mine", cast), "holdings")
    assert NOT_COUNTED in held and "$14.00" not in held and "$6.00" not in held and "$20.00" not in held
    assert "once the cage has counted it" in page(client, "cage:mine", cast)

    count(cast, f"runner:{cast.runner.code}", chips={"1": 14}, cash=600)
    held = element(page(client, "cage:mine", cast), "holdings")
    assert "$14.00" in held and "$6.00" in held and NOT_COUNTED not in held
    [line] = [r for r in day_sheets(cast.day)["sheets"] if r.key == "runner_reconciliation"][0].plain()[:1]
    assert (line["row"], line["issued"], line["sold"], line["holding_chips"], line["holding_cash"]) == (
        "line",
        "20.00",
        "6.00",
        "14.00",
        "6.00",
    )


def test_while_the_day_is_open_the_runner_sees_what_they_hold(client, cast):
    reconciling(cast)
    cast.day.status = "open"  # as before the floor closed: nothing is counted blind
    cast.day.save(update_fields=["status"])
    login(client, cast, "runner")
    held = element(page(client, "cage:mine", cast), "holdings")
    assert "$14.00" in held and NOT_COUNTED not in held


# --- 2. the tip payout before the counts ------------------------------------------------------------


def payout_form(cast, **hours):
    signed = {}
    for capacity, persona in PAYOUT_SIGNED.items():
        signed[f"sign_{capacity}"] = getattr(cast, persona).pk
        signed[f"pin_{capacity}"] = PIN
    return {"request_key": uuid.uuid4().hex, **{f"hours_{k}": v for k, v in hours.items()}, **signed}


def test_the_close_checklist_counts_the_tip_pool_then_pays_the_tips_out_before_the_bank_counts(client, cast):
    """The tip pool is counted before it is paid out (T&C 2.6), never as a count of $0 after; the
    payout moves bank cash and the chip bank, so their counts come after it."""
    reconciling(cast)
    login(client, cast, "general_cashier")
    close = page(client, "cage:day_close", cast)
    assert "never paid out before its count" in element(close, "close-tip-payout")
    step = element(close, "close-tip-count")
    assert "Count the tip pool" in step
    payout = reverse("cage:slip_new", args=[cast.event.slug, "tip_payout"])
    # Not offered until the pool's count stands.
    assert payout not in step and "Pay out the tips once the tip pool is counted." in step
    count(cast, "tip_pool", chips={"1": 9})
    close = page(client, "cage:day_close", cast)
    step = element(close, "close-tip-count")
    assert step.index("Tip pool: counted by") < step.index(payout)
    assert close.index('id="close-tip-payout"') < close.index("Count bank cash")


def test_the_payout_form_warns_of_the_counts_it_undoes_and_the_close_page_says_which_and_why(client, cast):
    roster_dealers(cast)
    reconciling(cast)
    login(client, cast, "general_cashier")
    form = page(client, "cage:slip_new", cast, "tip_payout")
    assert 'id="recount-warning"' not in form  # nothing counted yet: nothing to count again

    count(cast, "tip_pool", chips={"1": 9})
    assert 'id="recount-warning"' not in page(client, "cage:slip_new", cast, "tip_payout")  # the pool is not recounted
    count(cast, "bank_cash", cash=104_500)
    warning = element(page(client, "cage:slip_new", cast, "tip_payout"), "recount-warning")
    assert "Already counted: bank cash. This payout moves it, so its count will have to be taken again" in warning
    count(cast, "chip_bank", chips={"1": 835, "5": 320})
    warning = element(page(client, "cage:slip_new", cast, "tip_payout"), "recount-warning")
    assert (
        "Already counted: bank cash, chip bank. This payout moves them, so their counts will have to be taken again"
        in warning
    )
    assert "The tip pool's chips go into the chip bank and the dealers' shares are paid out of bank cash" in warning

    response = client.post(
        reverse("cage:slip_new", args=[cast.event.slug, "tip_payout"]), payout_form(cast, dealer="4", dealer2="5")
    )
    assert response.status_code == 302
    problems = element(page(client, "cage:day_close", cast), "close-problems")
    assert (
        "bank cash is to be counted again: the tip payout after its count paid the dealers&#x27; shares out of it "
        "(T&amp;C 2.6)" in problems
    )
    assert (
        "chip bank is to be counted again: the tip payout after its count put the tip pool&#x27;s chips into it"
        in problems
    )
    assert "the tip pool has not been counted" not in problems  # emptied by the payout: its count stands

    count(cast, "bank_cash", cash=104_500 - 900)
    count(cast, "chip_bank", chips={"1": 844, "5": 320})
    problems = services.close_problems(cast.day)
    assert not [p for p in problems if "counted" in p], problems


def test_a_redemption_after_a_count_is_named_as_the_reason_to_count_again(cast):
    reconciling(cast)
    count(cast, "bank_cash", cash=104_500)
    services.redemption(
        day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(paid_by="general_cashier", authorized_by="dric")
    )
    assert "bank cash is to be counted again: a redemption after its count moved it" in services.close_problems(
        cast.day
    )


# --- 3. the payout's hours are the roster's --------------------------------------------------------


def at(hour, minute=0):
    return timezone.make_aware(datetime.datetime(2026, 9, 11, hour, minute))


def rostered_and_tipped(cast):
    shift = event_services.shift_add
    shift(day=cast.day, person=cast.dealer, role=Role.DEALER, starts_at=at(12), ends_at=at(20))
    shift(day=cast.day, person=cast.dealer2, role=Role.DEALER, starts_at=at(12), ends_at=at(15, 30))
    shift(day=cast.day, person=cast.dealer2, role=Role.DEALER, starts_at=at(18), ends_at=at(20))
    reconciling(cast)
    count(cast, "tip_pool", chips={"1": 9})
    return add_person(cast.event, "dealer3", Role.DEALER)


def hours_input(html, code) -> str:
    match = re.search(rf'<input[^>]*name="hours_{code}"[^>]*>', html)
    assert match, code
    return match.group(0)


def test_the_payout_form_fills_in_each_dealers_hours_from_the_roster(client, cast):
    rostered_and_tipped(cast)
    login(client, cast, "general_cashier")
    form = page(client, "cage:slip_new", cast, "tip_payout")
    assert 'value="8"' in hours_input(form, "dealer") and 'value="5.5"' in hours_input(form, "dealer2")
    assert "value=" not in hours_input(form, "dealer3")
    assert "On the roster as a dealer 12:00–20:00: 8 hours at most." in form
    assert "On the roster as a dealer 12:00–15:30, 18:00–20:00: 5.5 hours at most." in form
    assert "Not on this day&#x27;s roster as a dealer: shares no tips (T&amp;C 2.6)." in form
    # Each dealer's name on its own as the label, the roster's note as the field's help below it.
    assert f'<label for="id_hours_dealer">{cast.dealer.name}</label>' in form and "Hours worked:" not in form
    assert 'aria-describedby="id_hours_dealer_helptext"' in hours_input(form, "dealer")
    assert '<span class="helptext" id="id_hours_dealer_helptext">On the roster as a dealer 12:00–20:00' in form


@pytest.mark.parametrize(
    "hours, field, message",
    [
        (
            {"dealer": "8.01", "dealer2": "5"},
            "dealer",
            "Dealer&#x27;s 8.01 hours are more than the 8 hours of their shifts as a dealer on the roster of "
            "2026-09-11 (12:00–20:00) (T&amp;C 2.6)",
        ),
        (
            {"dealer": "8", "dealer3": "2"},
            "dealer3",
            "Dealer3 is not on the roster of 2026-09-11 as a dealer; the tips are shared among the dealers who "
            "worked, pro rata to their hours on the roster (T&amp;C 2.6)",
        ),
        (
            {"dealer": "25"},
            "dealer",
            "Dealer&#x27;s 25 hours are more than the 24 hours of one gaming day: tips are shared pro rata to the hours worked (T&amp;C 2.6)",
        ),
    ],
)
def test_hours_off_the_roster_or_beyond_it_are_refused_beside_the_field_and_nothing_is_paid(
    client, cast, hours, field, message
):
    rostered_and_tipped(cast)
    login(client, cast, "general_cashier")
    pool = Account.objects.get(event=cast.event, kind=Account.Kind.TIP_POOL)
    before = services.balance(pool)
    response = client.post(reverse("cage:slip_new", args=[cast.event.slug, "tip_payout"]), payout_form(cast, **hours))
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    field_at = html.index(f'name="hours_{field}"')
    assert html.rfind("errorlist", 0, field_at) > html.rfind("<p>", 0, field_at)  # said beside its field
    assert not Slip.objects.filter(slip_type="tip_payout").exists() and services.balance(pool) == before


def test_the_rostered_hours_are_paid(client, cast):
    rostered_and_tipped(cast)
    login(client, cast, "general_cashier")
    response = client.post(
        reverse("cage:slip_new", args=[cast.event.slug, "tip_payout"]), payout_form(cast, dealer="8", dealer2="5.5")
    )
    assert response.status_code == 302
    slip = Slip.objects.get(slip_type="tip_payout")
    assert [(s["person"], s["hours"]) for s in slip.details["shares"]] == [("dealer", "8"), ("dealer2", "5.5")]


def test_the_service_holds_the_hours_to_the_roster_and_a_records_file_to_its_own_hours(cast):
    reconciling(cast)  # no roster
    signed = cast.signed(**PAYOUT_SIGNED)
    with refuses("tip_payout.dealer_not_rostered", name="Dealer"):
        services.tip_payout(day=cast.day, hours=[(cast.dealer, Decimal(4))], signed=signed)
    assert not Slip.objects.filter(slip_type="tip_payout").exists()
    # cage-records/1 gives the hours and no roster: a records file's payout is taken as it says.
    slip = services.tip_payout(day=cast.day, hours=[(cast.dealer, Decimal(4))], signed=signed, records_file=True)
    assert slip.details["total"] == 900


# --- 4. a closed day's roster is locked --------------------------------------------------------------


def test_a_closed_days_roster_offers_no_shift_and_refuses_one(client, cast):
    login(client, cast, "dric")
    roster = reverse("events:roster", args=[cast.event.slug, "2026-09-11"])
    assert "Add a shift" in client.get(roster).content.decode()  # open: the roster may still change
    close_clean_day(cast)
    html = client.get(roster).content.decode()
    assert "Add a shift" not in html and 'id="add-shift"' not in html
    assert "This gaming day is closed and locked: its roster no longer changes." in html
    shifts = Shift.objects.count()
    data = {
        "person": cast.dealer.pk,
        "role": Role.DEALER,
        "starts_at": "2026-09-11T12:00",
        "ends_at": "2026-09-11T18:00",
    }
    response = client.post(roster, data, follow=True)
    assert (
        "Gaming day 2026-09-11 is closed and locked: its roster no longer changes (gaming day: a closed day is "
        "locked)" in response.content.decode()
    )
    assert Shift.objects.count() == shifts
    with refuses("roster.day_locked"):
        event_services.shift_add(day=cast.day, person=cast.dealer, role=Role.DEALER, starts_at=at(12), ends_at=at(18))
    assert Shift.objects.count() == shifts


# --- 5. the staffing sheet's columns ---------------------------------------------------------------


def test_the_staffing_sheet_names_its_columns_on_the_page_in_csv_and_in_the_pdf(
    client,
    cast,
    tmp_path,
    poppler,  # noqa: F811
):
    event_services.shift_add(day=cast.day, person=cast.dric, role=Role.DRIC, starts_at=at(11), ends_at=at(17))
    login(client, cast, "dric")
    date = cast.day.date.isoformat()
    staffing = sheet_html(page(client, "reports:day", cast, date), "staffing")
    headers = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', staffing)
    assert headers == ["Position", "Person", "From", "Until", "Source"]
    assert "From the" not in staffing
    csv_text = page(client, "reports:day", cast, date, format="csv", sheet="staffing")
    assert csv_text.splitlines()[:2] == ["row,position,person,from,until,source", "line,DRIC,Dric,11:00,17:00,roster"]
    pdf = tmp_path / "day.pdf"
    pdf.write_bytes(client.get(reverse("reports:day", args=[cast.event.slug, date]), {"format": "pdf"}).content)
    lines = [" ".join(line.split()) for line in pdf_text(pdf).splitlines()]
    assert "Position Person From Until Source" in lines and "DRIC Dric 11:00 17:00 roster" in lines
    assert not any("From the" in line for line in lines)
