"""After an outage, through the pages: the Chip Cashier says what was written, scans and enters each
paper slip in order, enters one as void, returns the blank ones; signers confirm; the pages say what
is left."""

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from cage.models import PaperConfirmation, PaperSerial, Slip
from cage.selectors.paper import waiting_count
from tests.cage.helpers import worked_then_paper, written
from tests.conftest import PIN, login

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def at(when):
    local = timezone.localtime(when)
    return {"written_date": local.date().isoformat(), "written_time": local.strftime("%H:%M")}


def fill_on_paper(cast, when, **changes):
    return {
        "request_key": changes.pop("request_key", "k-" + str(when.timestamp())),
        **at(when),
        "table": cast.bj.pk,
        "runner": cast.runner.pk,
        "chips_5": "10",
        "sign_issued_by": cast.chip_cashier.pk,
        "sign_carried_by": cast.runner.pk,
        "sign_received_by": cast.dealer.pk,
        "pin_received_by": PIN,
        **changes,
    }


@pytest.fixture
def outage(cast):
    return worked_then_paper(cast)


def test_the_cage_says_the_paper_slips_come_first_and_the_window_waits(client, cast, outage):
    login(client, cast, "chip_cashier")
    home = client.get(reverse("cage:home", args=["lakeside"])).content.decode()
    assert "3 paper slips written during the outage are still to be entered" in home
    # The window says so before anything is typed, and sends the cashier to the paper slips.
    form = client.get(reverse("cage:slip_new", args=["lakeside", "sale"]), follow=True)
    assert form.redirect_chain == [(reverse("cage:paper", args=["lakeside"]), 302)]
    assert "3 paper slips written during the outage are still to be entered first" in form.content.decode()
    # And the service refuses a slip sent all the same.
    response = client.post(
        reverse("cage:slip_new", args=["lakeside", "sale"]),
        {"request_key": "x1", "chips_1": "5", "cash": "5", "tender": "cad_cash", "sign_sold_by": cast.chip_cashier.pk},
    )
    assert response.status_code == 302
    assert not Slip.objects.filter(slip_type="sale").exists()


def sale_on_paper(cast, when):
    return {
        "request_key": "s-" + str(when.timestamp()),
        **at(when),
        "chips_1": "5",
        "cash": "5",
        "tender": "cad_cash",
        "sign_sold_by": cast.chip_cashier.pk,
    }


def test_paper_slips_typed_in_any_order_are_posted_in_the_order_of_their_times(client, cast, outage):
    fills, sales = outage
    login(client, cast, "chip_cashier")
    found = client.get(reverse("cage:paper_find", args=["lakeside"]), {"serial": "lakeside:fill:P-0001"})
    assert found.status_code == 302 and found["Location"] == reverse("cage:paper_enter", args=["lakeside", fills.pk, 1])
    form = client.get(found["Location"]).content.decode()
    assert "Paper slip: Fill P-0001" in form and "Time written" in form
    fill_at = written(20).replace(second=0, microsecond=0)
    response = client.post(found["Location"], fill_on_paper(cast, fill_at), follow=True)
    page = response.content.decode()
    assert "Fill P-0001 typed." in page and "2 paper slips of the outage are still to be typed" in page
    assert not Slip.objects.filter(slip_type="fill").exists()  # typed, not yet posted
    client.post(reverse("cage:paper_void", args=["lakeside", fills.pk, 2]), {"reason": "torn"})
    # The sale was written before the fill: typed after it, it is posted before it.
    sale_at = written(30).replace(second=0, microsecond=0)
    done = client.post(
        reverse("cage:paper_enter", args=["lakeside", sales.pk, 1]), sale_on_paper(cast, sale_at), follow=True
    )
    assert "Every paper slip of the outage is entered" in done.content.decode()
    sale, fill = Slip.objects.filter(slip_type__in=("sale", "fill")).order_by("id")
    assert (sale.slip_type, sale.at, fill.slip_type, fill.at) == ("sale", sale_at, "fill", fill_at)
    assert fill.paper.number == 1 and sale.paper.number == 1
    confirmed = dict(PaperConfirmation.objects.filter(signature__slip=fill).values_list("signature__capacity", "via"))
    assert confirmed == {"issued_by": "session", "received_by": "pin"}
    # The slip's own page says where it came from.
    sheet = client.get(reverse("cage:slip", args=["lakeside", fill.pk])).content.decode()
    assert "Entered from paper" in sheet and "paper slip P-0001" in sheet
    # The runner confirms from his own session.
    runner_signature = fill.signatures.get(capacity="carried_by")
    login(client, cast, "runner")
    own = client.get(reverse("cage:slip", args=["lakeside", fill.pk])).content.decode()
    assert "The paper bears my signature (Carried by)" in own
    assert (
        "Paper slips that name you as a signer" in client.get(reverse("cage:mine", args=["lakeside"])).content.decode()
    )
    client.post(reverse("cage:paper_confirm", args=["lakeside", runner_signature.pk]))
    assert PaperConfirmation.objects.filter(signature=runner_signature, via="session").exists()


def test_a_paper_slip_refused_when_its_turn_comes_waits_for_its_correction(client, cast, outage):
    fills, sales = outage
    login(client, cast, "chip_cashier")
    client.post(reverse("cage:paper_void", args=["lakeside", fills.pk, 2]), {"reason": "torn"})
    client.post(reverse("cage:paper_enter", args=["lakeside", sales.pk, 1]), sale_on_paper(cast, written(10)))
    # The chip bank never held 41 chips of $25: the fill is refused at its time, the sale after it waits.
    bad = fill_on_paper(cast, written(20), chips_25="41", chips_5="")
    page = client.post(reverse("cage:paper_enter", args=["lakeside", fills.pk, 1]), bad, follow=True).content.decode()
    assert "Fill P-0001 could not be posted" in page and "Correct it on its form and the rest follows" in page
    home = client.get(reverse("cage:home", args=["lakeside"])).content.decode()
    assert "1 paper slip could not be posted when its turn came" in home
    assert not Slip.objects.filter(slip_type__in=("fill", "sale")).exists()
    assert "Not posted:" in client.get(reverse("cage:paper", args=["lakeside"])).content.decode()
    form = client.get(reverse("cage:paper_enter", args=["lakeside", fills.pk, 1])).content.decode()
    assert 'value="41"' in form  # as typed, to correct
    good = fill_on_paper(cast, written(20), chips_25="4", chips_5="")
    client.post(reverse("cage:paper_enter", args=["lakeside", fills.pk, 1]), good)
    assert [s.slip_type for s in Slip.objects.filter(slip_type__in=("fill", "sale")).order_by("id")] == ["fill", "sale"]
    assert waiting_count(cast.day) == 0


def test_a_void_paper_slip_and_the_blank_ones_are_accounted_for_from_the_page(client, cast, outage):
    fills, sales = outage
    login(client, cast, "chip_cashier")
    client.post(reverse("cage:paper_void", args=["lakeside", fills.pk, 1]), {"reason": "torn"})
    client.post(reverse("cage:paper_void", args=["lakeside", fills.pk, 2]), {"reason": "written in error"})
    client.post(reverse("cage:paper_void", args=["lakeside", sales.pk, 1]), {"reason": "patron left"})
    assert waiting_count(cast.day) == 0
    client.post(reverse("cage:paper_close", args=["lakeside", fills.pk]), {"serial": ["3", "4"], "outcome": "unused"})
    client.post(reverse("cage:paper_close", args=["lakeside", sales.pk]), {"serial": ["2", "3"], "outcome": "unused"})
    assert PaperSerial.objects.filter(outcome="unused").count() == 4
    page = client.get(reverse("cage:paper", args=["lakeside"])).content.decode()
    assert page.count("Every serial accounted for") == 2
    assert AuditEntry.objects.filter(action="paper_slip_void").count() == 3


def test_refusals_on_the_pages_name_the_rule_and_change_nothing(client, cast, outage):
    fills, _sales = outage
    login(client, cast, "chip_cashier")
    other = client.get(reverse("cage:paper_find", args=["lakeside"]), {"serial": "riverside:fill:P-0001"})
    assert other.status_code == 400 and "from another event (riverside)" in other.content.decode()
    none = client.get(reverse("cage:paper_find", args=["lakeside"]), {"serial": "P-0077", "slip_type": "fill"})
    assert none.status_code == 400 and "no book of paper slips printed for this event holds Fill P-0077" in (
        none.content.decode()
    )
    void = client.post(reverse("cage:paper_void", args=["lakeside", fills.pk, 1]), {"reason": ""})
    assert void.status_code == 302 and not PaperSerial.objects.exists()
    wrong_pin = client.post(
        reverse("cage:paper_enter", args=["lakeside", fills.pk, 1]),
        fill_on_paper(cast, written(30), pin_received_by="0000"),
    )
    assert wrong_pin.status_code == 200 and not Slip.objects.filter(slip_type="fill").exists()
    # The General Cashier enters paper slips, but the books are the Chip Cashier's and the DRIC's.
    login(client, cast, "general_cashier")
    assert client.get(reverse("cage:paper", args=["lakeside"])).status_code == 200
    returned = client.post(
        reverse("cage:paper_close", args=["lakeside", fills.pk]), {"serial": ["4"], "outcome": "unused"}
    )
    assert returned.status_code == 403
    # A runner reads none of it.
    login(client, cast, "runner")
    assert client.get(reverse("cage:paper", args=["lakeside"])).status_code == 403
    assert client.post(reverse("cage:paper_void", args=["lakeside", fills.pk, 1]), {"reason": "x"}).status_code == 403


def test_the_drics_queue_shows_the_signatures_still_to_confirm(client, cast, outage):
    fills, sales = outage
    login(client, cast, "chip_cashier")
    client.post(reverse("cage:paper_void", args=["lakeside", fills.pk, 2]), {"reason": "torn"})
    client.post(reverse("cage:paper_enter", args=["lakeside", sales.pk, 1]), sale_on_paper(cast, written(10)))
    client.post(
        reverse("cage:paper_enter", args=["lakeside", fills.pk, 1]),
        fill_on_paper(cast, written(30), pin_received_by=""),
    )
    login(client, cast, "dric")
    queue = client.get(reverse("cage:queue", args=["lakeside"])).content.decode()
    assert "Paper slips whose signers have not confirmed" in queue
    assert "Runner" in queue and "Dealer" in queue
    assert "The paper bears my signature" not in queue  # none of them is the DRIC's


def test_a_time_written_the_french_way_and_every_blank_left_in_one_tap(client, cast, outage):
    fills, sales = outage
    login(client, cast, "chip_cashier")
    when = timezone.localtime(written(20))
    data = fill_on_paper(cast, when)
    data["written_time"] = when.strftime("%H h %M")
    page = client.post(reverse("cage:paper_enter", args=["lakeside", fills.pk, 1]), data, follow=True).content.decode()
    assert "Fill P-0001 typed." in page
    again = client.get(reverse("cage:paper_enter", args=["lakeside", fills.pk, 1])).content.decode()
    assert "was typed by Chip Cashier" in again and "sending it again replaces it" in again
    # A serial past what was said written is not typed: a blank slip would go on record.
    past = client.get(reverse("cage:paper_find", args=["lakeside"]), {"serial": "lakeside:fill:P-0003"})
    assert past.status_code == 400 and "past what was said written in its book (up to P-0002)" in past.content.decode()
    client.post(reverse("cage:paper_close", args=["lakeside", fills.pk]), {"all_blank": "1", "outcome": "unused"})
    assert sorted(PaperSerial.objects.filter(book=fills, outcome="unused").values_list("number", flat=True)) == [3, 4]
