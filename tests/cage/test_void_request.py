"""A void moves nothing until the DRIC authorizes it (T&C 2: she witnesses and authorizes every cage
transaction): a cashier's void waits on her queue, where she authorizes it (the reversal is posted
then, in one transaction) or refuses it with a reason (the void stays on file as refused, the slip
it named untouched). No one alone completes a void; the form shows the slip it names in full before
anything is written."""

import json

import pytest
from django.urls import reverse

from cage import services
from cage.exporter import dumps, export_event
from cage.importer import ImportFailed, import_bytes
from cage.models import Account, Posting, Refusal, Signature, Slip
from cage.selectors.registers import register_slips
from cage.selectors.slip_sheet import slip_sheet
from cage.selectors.slips import State, pending_slips
from reports.figures import event_figures
from tests.cage.helpers import COUNT_SIGNED, fill_in_transit, open_table, stock
from tests.cage.test_views import form, login, new_slip, signed_by
from tests.conftest import PIN
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def patrons(cast):
    return services.balance(services.account_get(cast.event, Account.Kind.PATRONS))


def sale(cast, chips=None, cash=5000):
    return services.sale(
        day=cast.day,
        chips=chips or {"5": 10},
        cash=cash,
        signed=cast.signed(sold_by="chip_cashier", authorized_by="dric"),
    )


def asked(cast, target, persona="chip_cashier", reason="keyed $50 for $5"):
    return services.void(
        day=cast.day,
        target=target,
        reason=reason,
        signed=cast.signed(requested_by=persona),
        allow_pending=True,
    )


# --- services ---------------------------------------------------------------------------------


def test_a_cashiers_void_moves_nothing_until_the_dric_authorizes_it(cast):
    stock(cast)
    sold = sale(cast)
    before = patrons(cast)
    void = asked(cast, sold)
    assert not void.postings.exists() and patrons(cast) == before
    assert Slip.objects.voids_waiting().get() == void and not Slip.objects.voided().exists()
    assert event_figures(cast.event)["days"][0]["chip_sales"] == "50.00"  # the sale still counts
    waiting = {item.slip.pk: item for item in pending_slips(cast.event)}
    assert void.pk in waiting and [c.code for c in waiting[void.pk].missing] == ["authorized_by"]
    assert sold.pk not in waiting  # the void is what waits
    sheet = slip_sheet(sold)
    assert sheet["state_code"] == State.COMPLETE and sheet["void_asked"]["number"] == "Void 1"
    assert "A void is asked for: Void 1, by Chip Cashier (requested by)" in sheet["void_notes"][0][1]
    assert "because: keyed $50 for $5" in sheet["void_notes"][0][1]

    authorized = services.approve(slip=void, person=cast.dric)
    assert patrons(cast) == {}  # the chips and cash went back, in the one transaction of her signature
    assert Slip.objects.voided().get() == sold
    assert Posting.objects.filter(slip=authorized).count() == Posting.objects.filter(slip=sold).count()
    assert event_figures(cast.event)["days"][0]["chip_sales"] == "0.00"
    assert slip_sheet(sold)["state_code"] == State.VOIDED


def test_the_dric_refuses_a_void_and_the_slip_it_named_stands(cast):
    stock(cast)
    sold = sale(cast)
    before = patrons(cast)
    void = asked(cast, sold)
    with refuses("refuse.reason_missing"):
        services.refuse(slip=void, person=cast.dric, reason="  ")
    assert not Refusal.objects.exists()
    refusal = services.refuse(slip=void, person=cast.dric, reason="the sale was right.")
    assert refusal.person == cast.dric and patrons(cast) == before and not void.postings.exists()
    assert void.serial == 1 and Slip.objects.filter(slip_type="void").count() == 1  # on file, its serial kept
    assert slip_sheet(void)["state_code"] == State.REFUSED
    assert slip_sheet(sold)["state_code"] == State.COMPLETE
    what, note = slip_sheet(sold)["void_notes"][0]
    assert what == "Void refused" and "was refused by Dric" in note and note.endswith(": the sale was right.")
    what, note = slip_sheet(void)["void_notes"][0]
    assert what == "Refused" and note.endswith(": the sale was right. Nothing moved; Chip sale 1 stands as it was.")
    assert void.pk not in {item.slip.pk for item in pending_slips(cast.event)}  # it waits for nobody
    rows = {row.number: row for row in register_slips(cast.event)}
    assert rows["Void 1"].state == State.REFUSED and rows["Void 1"].refused_reason == "the sale was right."
    assert [r.number for r in register_slips(cast.event, state=State.REFUSED)] == ["Void 1"]
    # A refused void takes no signature, and is not refused twice.
    with refuses("signing.slip_refused"):
        services.sign(slip=void, capacity="authorized_by", person=cast.dric)
    with refuses("refuse.already_refused"):
        services.refuse(slip=void, person=cast.dric, reason="again")
    # The slip may be named by a new void, which goes its own way.
    second = asked(cast, sold, persona="general_cashier", reason="customer left")
    services.approve(slip=second, person=cast.dric)
    assert Slip.objects.voided().get() == sold and patrons(cast) == {}


def test_only_the_dric_refuses_and_a_done_void_is_not_refused(cast):
    stock(cast)
    sold = sale(cast)
    void = asked(cast, sold)
    for persona in ("chip_cashier", "general_cashier", "runner"):
        with refuses("refuse.not_dric"):
            services.refuse(slip=void, person=getattr(cast, persona), reason="no")
    with refuses("refuse.not_refusable"):
        services.refuse(slip=sold, person=cast.dric, reason="no")
    services.approve(slip=void, person=cast.dric)
    with refuses("refuse.already_moved"):
        services.refuse(slip=void, person=cast.dric, reason="too late")
    assert not Refusal.objects.exists()


def test_no_one_alone_completes_a_void(cast):
    stock(cast)
    sold = sale(cast)
    # The DRIC asks from her queue: it waits for the cashier who takes the chips and cash back.
    void = services.void(
        day=cast.day, target=sold, reason="keyed twice", signed=cast.signed(authorized_by="dric"), allow_pending=True
    )
    assert not void.postings.exists()
    with refuses("signing.no_witness_waiting"):
        services.approve(slip=void, person=cast.dric)
    with refuses("signing.same_person"):
        services.sign(slip=void, capacity="requested_by", person=cast.dric)
    with refuses("void.already_asked"):
        asked(cast, sold)
    services.sign(slip=void, capacity="requested_by", person=cast.general_cashier)
    assert patrons(cast) == {} and Slip.objects.voided().get() == sold
    with refuses("void.already_voided"):
        asked(cast, sold)


def test_a_slip_whose_void_waits_takes_no_signature_and_the_day_waits_for_the_dric(cast):
    stock(cast)
    open_table(cast)
    fill = fill_in_transit(cast, chips={"5": 8})
    void = asked(cast, fill, reason="wrong table")
    with refuses("signing.void_pending"):
        services.sign(slip=fill, capacity="received_by", person=cast.dealer)
    # The table cannot close on it: the void is unfinished business of the table.
    with refuses("closer.transit_unfinished"):
        services.table_close(
            day=cast.day,
            table=cast.bj,
            chips={"1": 100, "5": 80},
            signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
        )
    services.refuse(slip=void, person=cast.dric, reason="the table was right")
    # Refused: the fill goes on to the table as it was.
    services.sign(slip=fill, capacity="received_by", person=cast.dealer)
    runner = services.balance(services.account_get(cast.event, Account.Kind.RUNNER, person=cast.runner))
    assert runner == {}


def test_a_refused_void_does_not_hold_the_close_but_a_waiting_one_does(cast):
    stock(cast, chips={"5": 40}, cash=1000)
    sold = sale(cast, chips={"5": 2}, cash=1000)
    void = asked(cast, sold)
    assert any("Void 1" in str(p) for p in services.close_problems(cast.day))
    services.refuse(slip=void, person=cast.dric, reason="the sale stands")
    assert not any("Void 1" in str(p) for p in services.close_problems(cast.day))
    for account, figures in (("bank_cash", {"cash": 2000}), ("chip_bank", {"chips": {"5": 38}})):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, account),
            signed=cast.signed(**COUNT_SIGNED),
            **figures,
        )
    services.close_day(
        day=cast.day, signed=cast.signed(prepared_by="general_cashier", verified_by="chip_cashier", approved_by="dric")
    )
    cast.day.refresh_from_db()
    assert cast.day.status == "closed"


# --- the pages ----------------------------------------------------------------------------------


def test_the_void_form_shows_the_slip_in_full_before_anything_is_written(client, cast):
    stock(cast)
    sold = sale(cast)
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "void")
    data = form(target=sold.pk, reason="keyed $50 for $5", **signed_by(cast, requested_by="chip_cashier"))
    first = client.post(url, data)
    page = first.content.decode()
    assert first.status_code == 200 and not Slip.objects.filter(slip_type="void").exists()
    preview = page[page.index('id="void-preview"') :].split("</div>")[0]
    for shown in ("The slip to void: Chip sale 1", "serial 1", "10 × $5", "$50.00", "Chip Cashier (Chip Cashier)"):
        assert shown in preview, shown
    assert "Dric (DRIC)" in preview  # who signed it, and when
    assert f'name="confirm_target" value="{sold.pk}"' in page
    assert "Record the void" in page
    # Sent again as shown: the void is recorded, and waits for the DRIC.
    second = client.post(url, {**data, "confirm_target": str(sold.pk)}, follow=True)
    text = second.content.decode()
    assert (
        "Void 1 recorded: a void of Chip sale 1 is asked for. Nothing moves before it is signed; still to sign: authorized by (DRIC)."
        in text
    )
    void = Slip.objects.get(slip_type="void")
    assert void.voids == sold and not void.postings.exists()
    assert (
        "A void is asked for: Void 1"
        in client.get(reverse("cage:slip", args=[cast.event.slug, sold.pk])).content.decode()
    )


def test_a_changed_choice_is_shown_again_before_it_is_recorded(client, cast):
    stock(cast)
    first, second = sale(cast), sale(cast, chips={"25": 2})
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "void")
    data = form(
        target=second.pk,
        reason="wrong one",
        confirm_target=str(first.pk),
        **signed_by(cast, requested_by="chip_cashier"),
    )
    page = client.post(url, data).content.decode()
    assert "The slip to void: Chip sale 2" in page and not Slip.objects.filter(slip_type="void").exists()


def test_the_dric_authorizes_and_refuses_from_her_queue(client, cast):
    stock(cast)
    one, two = sale(cast), sale(cast, chips={"25": 2})
    void_one, void_two = asked(cast, one), asked(cast, two, reason="wrong chips")
    login(client, cast, "dric")
    queue = client.get(reverse("cage:queue", args=[cast.event.slug])).content.decode()
    row = queue[queue.index(f'data-slip="{void_one.pk}"') :].split("</tr>")[0]
    assert "Authorize" in row and "Refuse the void" in row and "Reason: keyed $50 for $5" in row and "10 × $5" in row
    refuse = reverse("cage:queue_refuse", args=[cast.event.slug, void_two.pk])
    page = client.post(refuse, {"reason": "", "request_key": "r0"}, follow=True).content.decode()
    assert "refusing a slip needs a reason" in page and not Refusal.objects.exists()
    page = client.post(refuse, {"reason": "the chips were right", "request_key": "r1"}, follow=True).content.decode()
    assert "Void 2 refused: nothing moved, and Chip sale 2 stands as it was." in page
    approve = reverse("cage:queue_approve", args=[cast.event.slug, void_one.pk])
    page = client.post(approve, follow=True).content.decode()
    assert "Void 1 authorized: Chip sale 1 is voided and its reversal posted." in page
    assert Slip.objects.voided().get() == one and Refusal.objects.get().slip == void_two
    voids = client.get(reverse("cage:voids", args=[cast.event.slug])).content.decode()
    assert "Refused by Dric: the chips were right" in voids


@pytest.mark.parametrize("persona", ["chip_cashier", "general_cashier", "auditor"])
def test_only_the_dric_refuses_from_the_queue(client, cast, persona):
    stock(cast)
    void = asked(cast, sale(cast))
    login(client, cast, persona)
    url = reverse("cage:queue_refuse", args=[cast.event.slug, void.pk])
    assert client.post(url, {"reason": "no", "request_key": "x"}).status_code == 403
    assert not Refusal.objects.exists()


# --- the records file -----------------------------------------------------------------------------


def test_a_refused_void_comes_back_from_its_export(cast):
    stock(cast)
    sold = sale(cast)
    services.refuse(slip=asked(cast, sold), person=cast.dric, reason="the sale was right")
    second = asked(cast, sold, persona="general_cashier", reason="customer left")
    services.approve(slip=second, person=cast.dric)
    exported = export_event(cast.event)
    records = [r for day in exported["days"] for r in day["records"] if r["type"] == "void"]
    assert records[0]["pending"] is True and records[0]["refused"]["by"] == "dric"
    assert records[0]["refused"]["reason"] == "the sale was right" and "refused" not in records[1]
    exported["event"]["slug"] = "lakeside-copy"
    copy = import_bytes(dumps(exported).encode())
    again = export_event(copy)
    again["event"]["slug"] = "lakeside"
    exported["event"]["slug"] = "lakeside"
    assert again["days"] == exported["days"]
    assert Refusal.objects.filter(slip__event=copy).count() == 1
    assert event_figures(copy)["event_totals"] == event_figures(cast.event)["event_totals"]


def test_a_records_files_void_carries_both_signatures(cast):
    with open("docs/examples/lakeside-one-day.json", encoding="utf-8") as f:
        data = json.load(f)
    data["event"]["slug"] = "one-signature"
    for day in data["days"]:
        for record in day["records"]:
            if record["type"] == "void":
                del record["signed"]["authorized_by"]
    with pytest.raises(ImportFailed) as failed:
        import_bytes(json.dumps(data).encode())
    assert "a void slip needs authorized by signed" in str(failed.value.problems)
    assert not Signature.objects.filter(slip__event__slug="one-signature").exists()


def test_the_preview_tries_no_pin_and_a_slip_voided_meanwhile_is_said_plainly(client, cast):
    from axes.models import AccessAttempt

    stock(cast)
    sold = sale(cast)
    login(client, cast, "chip_cashier")
    url = new_slip(cast.event.slug, "void")
    data = form(
        target=sold.pk, reason="keyed twice", **signed_by(cast, requested_by="chip_cashier", authorized_by="dric")
    )
    data["pin_authorized_by"] = "9999"  # wrong, but not tried while the slip is only shown
    page = client.post(url, data).content.decode()
    assert 'id="void-preview"' in page and not AccessAttempt.objects.exists()
    # Meanwhile, from another window, a void of the same sale is asked for.
    asked(cast, sold, persona="general_cashier")
    page = client.post(url, {**data, "pin_authorized_by": PIN, "confirm_target": str(sold.pk)}).content.decode()
    assert "a void of Chip sale 1 is already asked for: Void 1" in page
    assert "Select a valid choice" not in page and Slip.objects.filter(slip_type="void").count() == 1


def test_a_deposit_or_an_expense_the_dric_refuses_moves_nothing_and_stays_on_file(cast):
    stock(cast, cash=50_000)
    deposit = services.deposit(
        day=cast.day, cash=20_000, signed=cast.signed(deposited_by="general_cashier"), allow_pending=True
    )
    assert services.refusable(deposit)
    services.refuse(slip=deposit, person=cast.dric, reason="the envelope holds $150")
    assert services.balance(services.account_get(cast.event, Account.Kind.BANK_CASH)) == {None: 50_000}
    assert slip_sheet(deposit)["state_code"] == State.REFUSED
    assert deposit.pk not in {item.slip.pk for item in pending_slips(cast.event)}
    with refuses("signing.slip_refused"):
        services.approve(slip=deposit, person=cast.dric)
    with refuses("refuse.not_refusable"):
        services.refuse(slip=sale(cast), person=cast.dric, reason="no")
