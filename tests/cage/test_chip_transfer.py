"""A chip transfer between two open tables: the proof that a slip type is one declaration
(cage.slip_types) and one service. Everything else (the slip form, the printed slip, the records
file both ways, the table days of the sheets and the report) reads the declaration."""

import pytest
from django.urls import reverse
from django.utils import translation

from cage import services
from cage.exporter import export_event
from cage.importer import import_records
from cage.models import Account, Slip
from core.rules import RuleViolation
from events.models import GameTable
from reports.daily import day_sheets
from reports.figures import event_figures
from tests.cage.helpers import CREDIT_SIGNED, open_table, stock
from tests.cage.round_trip import state
from tests.cage.test_views import form, signed_by
from tests.conftest import login

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

SIGNED = {"released_by": "dealer", "received_by": "dealer2", "authorized_by": "dric"}
CLOSER_SIGNED = {"counted_by": "dealer", "verified_by": "chip_cashier"}


def tray(cast, table):
    account = services.account_get(cast.event, Account.Kind.TABLE, table=table)
    keys = {d.pk: d.key for d in cast.event.denominations.all()}
    return {keys[k]: v for k, v in services.balance(account).items() if v}


def two_open_tables(cast):
    stock(cast)
    open_table(cast, cast.bj, chips={"1": 100, "5": 80})
    open_table(cast, cast.wheel, chips={"1": 50})


def transfer(cast, chips=None, **options):
    return services.chip_transfer(
        day=cast.day,
        table=options.pop("table", cast.bj),
        to_table=options.pop("to_table", cast.wheel),
        chips=chips or {"5": 10},
        signed=cast.signed(**SIGNED),
        **options,
    )


def close_both(cast):
    services.table_close(day=cast.day, table=cast.bj, chips={"1": 100, "5": 70}, signed=cast.signed(**CLOSER_SIGNED))
    services.table_close(day=cast.day, table=cast.wheel, chips={"1": 50, "5": 10}, signed=cast.signed(**CLOSER_SIGNED))


def test_a_transfer_moves_chips_from_one_open_tray_to_the_other(cast):
    two_open_tables(cast)
    slip = transfer(cast)
    assert slip.number == "Chip transfer 1" and slip.table == cast.bj
    assert slip.details == {"chips": {"5": 10}, "to_table": "WOF-1"}
    assert tray(cast, cast.bj) == {"1": 10_000, "5": 35_000}
    assert tray(cast, cast.wheel) == {"1": 5_000, "5": 5_000}
    assert {s.capacity for s in slip.signatures.all()} == {"released_by", "received_by", "authorized_by"}


def test_it_is_a_credit_of_the_giving_table_and_a_fill_of_the_taking_one(cast):
    two_open_tables(cast)
    transfer(cast)
    close_both(cast)
    rows = {row["table"]: row for row in event_figures(cast.event)["tables"]}
    # Each table's win stands as if the chips had gone through the chip bank: BJ-1 closed $50 short
    # of its opener and gave $50 away (a credit), WOF-1 closed $50 up and was given it (a fill).
    assert (rows["BJ-1"]["credits"], rows["BJ-1"]["fills"], rows["BJ-1"]["win"]) == ("50.00", "0.00", "0.00")
    assert (rows["WOF-1"]["fills"], rows["WOF-1"]["credits"], rows["WOF-1"]["win"]) == ("50.00", "0.00", "0.00")
    sheets = {sheet.key: sheet for sheet in day_sheets(cast.day)["sheets"]}
    master = {row.cells[1]: row.cells for row in sheets["master_game_report"].rows if len(row.cells) > 3}
    assert master["BJ-1"][4] == 5000 and master["WOF-1"][3] == 5000  # credits of BJ-1, fills of WOF-1
    register = sheets["fill_credit_register"].rows
    assert any(row.cells[0] == "Chip transfer 1" and row.cells[2] == "BJ-1 → WOF-1" for row in register)


def test_the_same_table_twice_is_refused_and_nothing_moves(cast):
    two_open_tables(cast)
    with pytest.raises(RuleViolation) as refused:
        transfer(cast, to_table=cast.bj)
    assert refused.value.code == "transfer.same_table" and refused.value.field == "to_table"
    assert not Slip.objects.filter(slip_type="chip_transfer").exists()


def test_a_closed_table_takes_no_transfer(cast):
    stock(cast)
    open_table(cast, cast.bj)
    with pytest.raises(RuleViolation) as refused:
        transfer(cast)
    assert refused.value.code == "table.needs_open"
    assert "table WOF-1 is closed; a chip transfer needs it open" in str(refused.value)
    assert tray(cast, cast.bj) == {"1": 10_000, "5": 40_000}


def test_chips_a_tray_does_not_hold_are_refused(cast):
    two_open_tables(cast)
    with pytest.raises(RuleViolation):
        transfer(cast, chips={"25": 1})
    assert tray(cast, cast.wheel) == {"1": 5_000}
    assert not Slip.objects.filter(slip_type="chip_transfer").exists()


def test_no_transfer_once_the_floor_has_closed(cast):
    two_open_tables(cast)
    close_both(cast)
    services.day_reconcile(day=cast.day)
    with pytest.raises(RuleViolation):
        transfer(cast)


def test_a_transfer_comes_back_the_same_through_a_records_file(cast):
    two_open_tables(cast)
    transfer(cast)
    services.credit(day=cast.day, table=cast.wheel, chips={"1": 5}, signed=cast.signed(**CREDIT_SIGNED))
    close_both_after_credit = {"1": 45, "5": 10}
    services.table_close(day=cast.day, table=cast.bj, chips={"1": 100, "5": 70}, signed=cast.signed(**CLOSER_SIGNED))
    services.table_close(
        day=cast.day, table=cast.wheel, chips=close_both_after_credit, signed=cast.signed(**CLOSER_SIGNED)
    )
    data = export_event(cast.event)
    written = next(r for r in data["days"][0]["records"] if r["type"] == "chip_transfer")
    assert (written["table"], written["to_table"], written["chips"]) == ("BJ-1", "WOF-1", {"5": 10})
    before = state(cast.event)
    data["event"]["slug"] = "lakeside-again"
    again = import_records(data)
    after = state(again)
    assert after["slips"] == before["slips"]
    assert after["report"]["tables"] == before["report"]["tables"]


def test_a_file_s_transfer_to_an_unknown_table_is_refused(cast):
    two_open_tables(cast)
    transfer(cast)
    data = export_event(cast.event)
    next(r for r in data["days"][0]["records"] if r["type"] == "chip_transfer")["to_table"] = "BJ-9"
    data["event"]["slug"] = "lakeside-again"
    from cage.importer import ImportFailed

    with pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert any("no table 'BJ-9'" in problem for problem in failed.value.problems)


def test_the_slip_form_records_a_transfer_and_its_page_names_both_tables(client, cast):
    two_open_tables(cast)
    login(client, cast, "dric")
    url = reverse("cage:slip_new", args=[cast.event.slug, "chip_transfer"])
    page = client.get(url).content.decode()
    assert "From table" in page and "To table" in page and "Chip transfer" in page
    data = {"table": cast.bj.pk, "to_table": cast.wheel.pk, "chips_5": "10"}
    response = client.post(
        url, form(**data, **signed_by(cast, released_by="dealer", received_by="dealer2", authorized_by="dric"))
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    slip = Slip.objects.get(slip_type="chip_transfer")
    assert slip.details["to_table"] == "WOF-1"
    shown = client.get(response.url).content.decode()
    assert "From table" in shown and "To table" in shown and "WOF-1" in shown and "BJ-1" in shown


def test_the_form_refuses_the_same_table_twice_naming_the_field(client, cast):
    two_open_tables(cast)
    login(client, cast, "dric")
    url = reverse("cage:slip_new", args=[cast.event.slug, "chip_transfer"])
    data = {"table": cast.bj.pk, "to_table": cast.bj.pk, "chips_5": "10"}
    response = client.post(
        url, form(**data, **signed_by(cast, released_by="dealer", received_by="dealer2", authorized_by="dric"))
    )
    assert response.status_code == 200
    assert "a chip transfer goes from one table to another" in response.content.decode()
    assert not Slip.objects.filter(slip_type="chip_transfer").exists()


def test_french_names_the_transfer_and_its_other_table(cast):
    two_open_tables(cast)
    slip = transfer(cast)
    with translation.override("fr-ca"):
        assert str(slip.number) == "Transfert de jetons 1"
        with pytest.raises(RuleViolation) as refused:
            transfer(cast, to_table=cast.bj)
        assert "table BJ-1" in str(refused.value) and "transfert" in str(refused.value)
    assert GameTable.objects.get(pk=cast.wheel.pk).state == GameTable.State.OPEN


def test_the_tables_panel_counts_it_a_credit_of_one_table_and_a_fill_of_the_other(cast):
    from cage.selectors.inventory import table_states

    two_open_tables(cast)
    transfer(cast)
    states = {s.table.code: s for s in table_states(cast.day)}
    assert (states["BJ-1"].credits.count, states["BJ-1"].credits.cents, states["BJ-1"].fills.count) == (1, 5000, 0)
    assert (states["WOF-1"].fills.count, states["WOF-1"].fills.cents, states["WOF-1"].credits.count) == (1, 5000, 0)
