"""A shift handover: the outgoing and the incoming cashier count the place together (bank cash for
General Cashiers, the chip bank for Chip Cashiers) and both sign; nothing moves, the count stands
beside what the books expected, and the incoming cashier holds the place for the rest of the day."""

import copy
import datetime
import re
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from cage import services
from cage.exporter import export_event
from cage.forms import PaperSlipForm
from cage.importer import ImportFailed, import_records
from cage.models import Posting, Slip
from cage.selectors.handovers import custodians
from cage.slip_types import SLIP_KINDS
from events.models import Event, Role
from reports.daily import day_sheets
from tests.cage.helpers import COUNT_SIGNED, roster_dealers, stock
from tests.conftest import PIN, add_person, login
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def on_duty(cast):
    """A second General Cashier and a second Chip Cashier, both shifts of each role on the roster."""
    cast.gc2 = add_person(cast.event, "gc2", Role.GENERAL_CASHIER)
    cast.cc2 = add_person(cast.event, "cc2", Role.CHIP_CASHIER)
    roster_dealers(cast, dealers=("general_cashier", "gc2"), role=Role.GENERAL_CASHIER)
    roster_dealers(cast, dealers=("chip_cashier", "cc2"), role=Role.CHIP_CASHIER)
    roster_dealers(cast, dealers=("dric",), role=Role.DRIC)
    stock(cast, chips={"1": 1000, "5": 400}, cash=100_000)
    # Patrons hold chips to redeem: bank cash $1,045.00, the chip bank 955 × $1 and 400 × $5.
    services.sale(
        day=cast.day, chips={"1": 45}, cash=4_500, signed=cast.signed(sold_by="chip_cashier", authorized_by="dric")
    )


def hand_over_bank_cash(cast, *, cash=104_500, outgoing="general_cashier", incoming="gc2", **extra):
    return services.handover(
        day=cast.day,
        place="bank_cash",
        cash=cash,
        signed=cast.signed(handed_over_by=outgoing, taken_over_by=incoming),
        **extra,
    )


def redeem(cast, paid_by):
    return services.redemption(
        day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(paid_by=paid_by, authorized_by="dric")
    )


def test_a_handover_counts_the_place_moves_nothing_and_passes_custody(cast):
    on_duty(cast)
    slip = hand_over_bank_cash(cast, cash=104_000, reason="a $5 bill missing")
    assert slip.slip_type == "handover" and slip.account.code == "bank_cash"
    assert not Posting.objects.filter(slip=slip).exists()  # the books are not changed
    assert slip.details["differences"] == [{"account": "bank_cash", "instrument": "cash", "amount": -500}]
    assert services.balance(services.account_get(cast.event, "bank_cash")) == {None: 104_500}
    assert {s.capacity: s.person for s in slip.signatures.all()} == {
        "handed_over_by": cast.general_cashier,
        "taken_over_by": cast.gc2,
    }
    assert custodians(cast.day) == {Role.GENERAL_CASHIER: cast.gc2.pk}

    # The outgoing cashier no longer signs for bank cash; the incoming one does.
    with refuses("signing.handed_over") as refused:
        redeem(cast, "general_cashier")
    said = str(refused.value)
    assert " handed over the bank cash at a change of shift today: " in said, said
    with translation.override("fr-ca"):
        said = str(refused.value.words)  # the sentence, as the audit trail puts it in French
    assert " a cédé la garde de « encaisse » à un changement de quart aujourd’hui" in said.replace("\u00a0", " "), said
    assert redeem(cast, "gc2").signatures.get(capacity="paid_by").person == cast.gc2
    with refuses("signing.handed_over"):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, "bank_cash"),
            cash=104_000,
            signed=cast.signed(counted_by="general_cashier", verified_by="chip_cashier"),
        )
    # The Chip Cashier's custody is untouched until her own handover.
    services.handover(
        day=cast.day,
        place="chip_bank",
        chips={"1": 960, "5": 400},
        signed=cast.signed(handed_over_by="chip_cashier", taken_over_by="cc2"),
    )
    assert custodians(cast.day) == {Role.GENERAL_CASHIER: cast.gc2.pk, Role.CHIP_CASHIER: cast.cc2.pk}
    with refuses("signing.handed_over"):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, "chip_bank"),
            chips={"1": 960, "5": 400},
            signed=cast.signed(counted_by="gc2", verified_by="chip_cashier"),
        )
    # The handover is not the place's count: the close still waits for the nightly one.
    assert any("has not been counted" in p for p in services.close_problems(cast.day))
    # And it passes back: the first cashier may take it over again, from the one who holds it.
    hand_over_bank_cash(cast, cash=104_000, outgoing="gc2", incoming="general_cashier", reason="back")
    assert redeem(cast, "general_cashier")


@pytest.mark.parametrize(
    "call, code",
    [
        # One person never signs both capacities (T&C 2).
        (lambda c: hand_over_bank_cash(c, incoming="general_cashier"), "signing.same_person"),
        # A Chip Cashier on duty does not take over bank cash, nor a General Cashier the chip bank,
        # nor does either hand over the other's place.
        (lambda c: hand_over_bank_cash(c, incoming="chip_cashier"), "handover.role_not_held"),
        (lambda c: hand_over_bank_cash(c, outgoing="cc2"), "handover.role_not_held"),
        (
            lambda c: services.handover(
                day=c.day,
                place="chip_bank",
                chips={"1": 955, "5": 400},
                signed=c.signed(handed_over_by="chip_cashier", taken_over_by="gc2"),
            ),
            "handover.role_not_held",
        ),
        # Bank cash is counted in cash, the chip bank in chips.
        (lambda c: hand_over_bank_cash(c, cash=-5), "count.cash_negative"),
        (lambda c: hand_over_bank_cash(c, cash=None), "count.bank_cash_missing"),
        (
            lambda c: services.handover(
                day=c.day,
                place="bank_cash",
                cash=100_000,
                chips={"1": 3},
                signed=c.signed(handed_over_by="general_cashier", taken_over_by="gc2"),
            ),
            "count.bank_cash_chips",
        ),
        (
            lambda c: services.handover(
                day=c.day,
                place="chip_bank",
                chips={"2": 3},
                signed=c.signed(handed_over_by="chip_cashier", taken_over_by="cc2"),
            ),
            "chips.unknown_denomination",
        ),
        (
            lambda c: services.handover(
                day=c.day,
                place="chip_bank",
                chips={},
                signed=c.signed(handed_over_by="chip_cashier", taken_over_by="cc2"),
            ),
            "handover.chips_missing",
        ),
        (
            lambda c: services.handover(
                day=c.day,
                place="tip_pool",
                chips={"1": 1},
                signed=c.signed(handed_over_by="chip_cashier", taken_over_by="cc2"),
            ),
            "handover.not_a_place",
        ),
        # Both cashiers sign as it is counted.
        (
            lambda c: services.handover(
                day=c.day, place="bank_cash", cash=100_000, signed=c.signed(handed_over_by="general_cashier")
            ),
            "signing.missing",
        ),
    ],
)
def test_a_handover_is_refused_with_its_code_and_changes_nothing(cast, call, code):
    on_duty(cast)
    with refuses(code):
        call(cast)
    assert not Slip.objects.filter(slip_type="handover").exists()
    assert custodians(cast.day) == {}


def test_the_refusal_of_another_position_names_it_and_cites_the_designated_persons(cast):
    on_duty(cast)
    with refuses("handover.role_not_held", name="Chip Cashier") as refused:
        hand_over_bank_cash(cast, incoming="chip_cashier")
    assert refused.value.field == "sign_taken_over_by"
    text = str(refused.value.text)
    assert "does not hold the position of General Cashier" in text and "bank cash" in text
    # T&C 2 names the designated persons, 2.1 the cashiers who run the bank.
    assert refused.value.rule_reference == "T&C 2, 2.1" and text.endswith("(T&C 2, 2.1)"), text
    # Cited as the French text numbers them: its designated persons' block is 2.1.
    with translation.override("fr-ca"), refuses("handover.role_not_held") as refused:
        hand_over_bank_cash(cast, incoming="chip_cashier")
    assert str(refused.value.text).endswith("(M&C 2.1, 2.2)"), str(refused.value.text)


def test_a_cashier_not_on_the_days_roster_in_the_role_takes_nothing_over(cast):
    on_duty(cast)
    cast.gc3 = add_person(cast.event, "gc3", Role.GENERAL_CASHIER)
    with refuses("handover.not_rostered", name="Gc3"):
        hand_over_bank_cash(cast, incoming="gc3")
    # Nor does the one who handed it over pass it on again.
    hand_over_bank_cash(cast)
    roster_dealers(cast, dealers=("gc3",), role=Role.GENERAL_CASHIER)
    with refuses("handover.not_the_holder"):
        hand_over_bank_cash(cast, outgoing="general_cashier", incoming="gc3")
    assert Slip.objects.filter(slip_type="handover").count() == 1


def test_a_handover_needs_the_day_open(cast):
    on_duty(cast)
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=104_500,
        signed=cast.signed(**COUNT_SIGNED),
    )
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "chip_bank"),
        chips={"1": 955, "5": 400},
        signed=cast.signed(**COUNT_SIGNED),
    )
    services.close_day(
        day=cast.day, signed=cast.signed(prepared_by="general_cashier", verified_by="chip_cashier", approved_by="dric")
    )
    with refuses("day.closed"):
        hand_over_bank_cash(cast)


def test_the_daily_sheets_show_the_handover(client, cast):
    on_duty(cast)
    slip = hand_over_bank_cash(cast, cash=104_000, reason="a $5 bill missing")
    sheet = next(s for s in day_sheets(cast.day)["sheets"] if s.key == "handovers")
    assert sheet.plain() == [
        {
            "row": "line",
            "slip": slip.number,
            "time": sheet.plain()[0]["time"],
            "place": "bank cash",
            "outgoing": "General Cashier",
            "incoming": "Gc2",
            "counted": "1040.00",
            "expected": "1045.00",
            "difference": "-5.00",
        }
    ]
    login(client, cast, "dric")
    url = reverse("reports:day", args=[cast.event.slug, cast.day.date.isoformat()])
    page = client.get(url).content.decode()
    assert "Shift handovers" in page and "$1,040.00" in page and "-$5.00" in page
    assert "1040.00" in client.get(url, {"format": "csv", "sheet": "handovers"}).content.decode()


def test_a_handover_survives_the_records_round_trip(cast):
    on_duty(cast)
    hand_over_bank_cash(cast, cash=104_000, reason="a $5 bill missing")
    services.handover(
        day=cast.day,
        place="chip_bank",
        chips={"1": 955, "5": 400},
        signed=cast.signed(handed_over_by="chip_cashier", taken_over_by="cc2"),
    )
    exported = export_event(cast.event)
    records = [r for d in exported["days"] for r in d["records"] if r["type"] == "handover"]
    assert records[0]["place"] == "bank_cash" and records[0]["cash"] == "1040.00" and "chips" not in records[0]
    assert records[0]["signed"] == {"handed_over_by": "general_cashier", "taken_over_by": "gc2"}
    assert records[1]["place"] == "chip_bank" and records[1]["chips"] == {"1": 955, "5": 400}
    again = copy.deepcopy(exported)
    again["event"]["slug"] = "lakeside-again"
    event = import_records(again)
    assert export_event(event)["days"] == exported["days"]
    # Read back, custody passed as it did.
    day = event.days.get()
    holders = custodians(day)
    assert {role: event.people.get(pk=pk).code for role, pk in holders.items()} == {
        Role.GENERAL_CASHIER: "gc2",
        Role.CHIP_CASHIER: "cc2",
    }


def exported_after_a_handover(cast, redemptions: int) -> dict:
    """The cast's day exported: bank cash handed over to gc2, then `redemptions` paid by gc2."""
    on_duty(cast)
    hand_over_bank_cash(cast)
    for _ in range(redemptions):
        redeem(cast, "gc2")
    exported = copy.deepcopy(export_event(cast.event))
    exported["event"]["slug"] = "lakeside-again"
    return exported


def paid_by(data: dict) -> list[dict]:
    return [r["signed"] for d in data["days"] for r in d["records"] if r["type"] == "redemption"]


def test_an_import_holds_its_own_handovers_to_the_custody_they_pass(cast):
    """The importer reads a day's handovers once (cage.services.ledger.custodians_of), and a
    handover earlier in the same file is seen: the outgoing cashier's later custody signature is
    refused, as at the window, and nothing is imported."""
    data = exported_after_a_handover(cast, redemptions=1)
    paid_by(data)[-1]["paid_by"] = "general_cashier"
    with pytest.raises(ImportFailed) as failed:
        import_records(data)
    said = str(failed.value)
    assert "handed over the bank cash at a change of shift today" in said and "(T&C 2)" in said, said
    assert not Event.objects.filter(slug="lakeside-again").exists()


def test_an_import_reads_a_days_handovers_once_not_once_a_signature(cast, monkeypatch):
    """Each custody signature of a cashier asks who holds the place; an import answers from the
    day's handovers, known to be none for the day it has just added (cage.services.memo.day_added)
    and read again only after a handover it writes: a query of the signatures for each would write
    out, one record at a time, every row the import holds for a bulk write."""
    from cage.services import ledger

    data = exported_after_a_handover(cast, redemptions=8)
    reads = []
    real = ledger.takeovers
    monkeypatch.setattr(ledger, "takeovers", lambda day: reads.append(day.date) or real(day))
    event = import_records(data)
    assert len(paid_by(data)) == 8 and reads == [cast.day.date], reads
    assert [s["paid_by"] for s in paid_by(export_event(event))] == ["gc2"] * 8


def test_the_handover_form_is_blind_then_shows_the_books_and_the_new_holder(client, cast):
    on_duty(cast)
    login(client, cast, "general_cashier")
    url = reverse("cage:slip_new", args=[cast.event.slug, "handover"])
    blank = client.get(url).content.decode()
    assert "$1,045.00" not in blank and 'name="place"' in blank and 'name="pin_taken_over_by"' in blank
    data = {
        "request_key": uuid.uuid4().hex,
        "place": "bank_cash",
        "cash_10000": "10",
        "cash_2000": "2",
        "sign_handed_over_by": cast.general_cashier.pk,
        "sign_taken_over_by": cast.gc2.pk,
        "pin_taken_over_by": "0000",
    }
    page = client.post(url, data).content.decode()
    assert not Slip.objects.filter(slip_type="handover").exists() and "PIN" in page
    response = client.post(url, {**data, "request_key": uuid.uuid4().hex, "pin_taken_over_by": PIN})
    assert response.status_code == 302, re.findall(
        r'class="errorlist[^"]*">(.*?)</ul>', response.content.decode(), re.S
    )
    slip = Slip.objects.get(slip_type="handover")
    assert slip.details["cash"] == 104_000 and slip.details["cash_lines"][0] == {"cents": 10_000, "count": 10}
    shown = client.get(reverse("cage:slip", args=[cast.event.slug, slip.pk])).content.decode()
    assert "Gc2" in shown and "Shift handover" in shown
    # The books beside the count, once it is recorded: $1,045.00 expected, $5.00 short.
    assert re.search(r"Expected</th>\s*<td[^>]*>\$1,045\.00", shown) or "$1,045.00" in shown
    assert "-$5.00" in shown
    # The day's handovers are kept to their time: a slip entered later from paper, written before
    # the handover, is held to the custody of its own time.
    before = slip.at - datetime.timedelta(minutes=5)
    assert custodians(cast.day, until=before) == {} and timezone.now() >= slip.at


def offered(page: str, capacity: str) -> dict[str, str]:
    """Who the form's list of `capacity` holds: {name: "offered" or "hidden"} (hidden options are
    also disabled: the other place's cashiers, shown again by slip_form.js when the place changes)."""
    listed = re.search(rf'<select name="sign_{capacity}"[^>]*>(.*?)</select>', page, re.S).group(1)
    people = {}
    for attrs, name in re.findall(r'<option value="\d+"([^>]*)>(.*?)</option>', listed):
        hidden = " hidden" in attrs and " disabled" in attrs
        people[name] = "hidden" if hidden else "offered"
    return people


def test_the_form_offers_only_cashiers_of_the_places_position_on_the_days_roster(client, cast):
    on_duty(cast)
    add_person(cast.event, "gc3", Role.GENERAL_CASHIER)  # a General Cashier not on today's roster
    url = reverse("cage:slip_new", args=[cast.event.slug, "handover"])
    login(client, cast, "general_cashier")
    page = client.get(url).content.decode()
    # A General Cashier hands over bank cash: the form starts there.
    assert re.search(r'<option value="bank_cash" selected>', page)
    cashiers = {"General Cashier": "offered", "Gc2": "offered", "Chip Cashier": "hidden", "Cc2": "hidden"}
    assert offered(page, "taken_over_by") == cashiers
    assert offered(page, "handed_over_by") == cashiers
    assert 'data-place="chip_bank"' in page and 'data-place="bank_cash"' in page
    # A Chip Cashier hands over the chip bank, to a Chip Cashier.
    login(client, cast, "chip_cashier")
    page = client.get(url).content.decode()
    assert re.search(r'<option value="chip_bank" selected>', page)
    assert offered(page, "taken_over_by") == {
        "General Cashier": "hidden",
        "Gc2": "hidden",
        "Chip Cashier": "offered",
        "Cc2": "offered",
    }


def test_a_chip_cashier_sent_to_take_over_bank_cash_is_refused_beside_their_name(client, cast):
    on_duty(cast)
    login(client, cast, "general_cashier")
    url = reverse("cage:slip_new", args=[cast.event.slug, "handover"])
    data = {
        "request_key": uuid.uuid4().hex,
        "place": "bank_cash",
        "cash_10000": "10",
        "cash_2000": "2",
        "cash_500": "1",
        "sign_handed_over_by": cast.general_cashier.pk,
        "sign_taken_over_by": cast.cc2.pk,
        "pin_taken_over_by": PIN,
    }
    page = client.post(url, data).content.decode()
    assert not Slip.objects.filter(slip_type="handover").exists()
    assert "Cc2 does not hold the position of General Cashier" in page and "T&amp;C 2, 2.1" in page
    # The form shown again is about bank cash: the Chip Cashiers are not on offer.
    assert offered(page, "taken_over_by")["Cc2"] == "hidden"
    assert custodians(cast.day) == {}


def test_a_paper_handover_entered_by_the_dric_offers_the_same_cashiers(cast):
    """Entered from paper by the DRIC (no cashier's position to start from): bank cash first, its
    General Cashiers on the roster offered, the Chip Cashiers hidden until the chip bank is chosen."""
    on_duty(cast)
    form = PaperSlipForm(
        kind=SLIP_KINDS["handover"], day=cast.day, signer=cast.dric, request=None, written_on=cast.day.date
    )
    assert form["place"].value() == "bank_cash"
    assert offered(str(form["sign_taken_over_by"]), "taken_over_by") == {
        "General Cashier": "offered",
        "Gc2": "offered",
        "Chip Cashier": "hidden",
        "Cc2": "hidden",
    }


def test_a_cashier_who_handed_over_is_no_longer_offered_to_sign_custody(client, cast):
    """After the handover the outgoing General Cashier signs no redemption (the service refuses it,
    signing.handed_over): the redemption form no longer offers her, nor preselects her; the
    incoming one is offered. Before it, both are."""
    on_duty(cast)
    url = reverse("cage:slip_new", args=[cast.event.slug, "redemption"])
    login(client, cast, "general_cashier")

    def paid_by_offered() -> set[str]:
        page = client.get(url).content.decode()
        select = page[page.index('name="sign_paid_by"') :].split("</select>")[0]
        return set(re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', select))

    assert {"General Cashier", "Gc2"} <= paid_by_offered()
    hand_over_bank_cash(cast)
    offered_now = paid_by_offered()
    assert "Gc2" in offered_now and "General Cashier" not in offered_now
    page = client.get(url).content.decode()
    select = page[page.index('name="sign_paid_by"') :].split("</select>")[0]
    assert " selected" not in select  # she was preselected as the one logged in; no longer
    # And the service still refuses her, should a form name her.
    with refuses("signing.handed_over"):
        redeem(cast, paid_by="general_cashier")
