"""After an outage: paper slips entered in the order of their written times, by the same rules as any
slip, before any new slip of the day; every paper serial accounted for before the day closes."""

import datetime

import pytest
from django.utils import timezone

from cage import services
from cage.models import PaperConfirmation, PaperSerial, Slip
from cage.selectors.paper import books_of_day, read_serial, serial_ranges, unconfirmed_signatures, waiting_count
from cage.services import paper
from cage.services.day import close_problems
from tests.cage.helpers import SALE_SIGNED, stock, worked_then_paper, written
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

FILL_ON_PAPER = {"issued_by": "chip_cashier", "carried_by": "runner", "received_by": "dealer"}


@pytest.fixture
def outage(cast):
    return worked_then_paper(cast)


def enter_fill(cast, book, number, *, at, chips=None, confirmed=None):
    return paper.enter(
        day=cast.day,
        book=book,
        number=number,
        written_at=at,
        signed=cast.signed(**FILL_ON_PAPER),
        confirmed=confirmed if confirmed is not None else {"issued_by": "session"},
        entered_by=cast.chip_cashier,
        table=cast.bj,
        runner=cast.runner,
        chips=chips or {"5": 10},
    )


def test_the_paper_slips_come_first_then_the_window_opens_again(cast, outage):
    fills, sales = outage
    assert waiting_count(cast.day) == 3
    with refuses("paper.enter_first", n=3):
        services.sale(day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(**SALE_SIGNED))
    fill = enter_fill(cast, fills, 1, at=written(30))
    assert fill.at == fill.signatures.get(capacity="received_by").signed_at
    assert fill.details["paper"]["serial"] == "P-0001" and fill.details["paper"]["entered_by"] == "chip_cashier"
    assert fill.paper.outcome == PaperSerial.Outcome.ENTERED and fill.paper.book == fills
    # The chips went all the way to the table: nothing is in transit with the runner.
    assert services.balance(services.account_get(cast.event, "runner", person=cast.runner)) == {}
    paper.enter_void(day=cast.day, book=fills, number=2, reason="written in error, torn", entered_by=cast.chip_cashier)
    paper.enter(
        day=cast.day,
        book=sales,
        number=1,
        written_at=written(20),
        signed=cast.signed(sold_by="chip_cashier"),
        confirmed={"sold_by": "session"},
        entered_by=cast.chip_cashier,
        chips={"1": 5},
        cash=500,
    )
    assert waiting_count(cast.day) == 0
    sale = services.sale(day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(**SALE_SIGNED))
    assert sale.serial == 2 and "paper" not in sale.details


def test_a_paper_slip_written_before_one_already_entered_is_refused(cast, outage):
    fills, sales = outage
    enter_fill(cast, fills, 1, at=written(10))
    with refuses("paper.out_of_order"):
        paper.enter(
            day=cast.day,
            book=sales,
            number=1,
            written_at=written(20),
            signed=cast.signed(sold_by="chip_cashier"),
            confirmed={},
            entered_by=cast.chip_cashier,
            chips={"1": 5},
            cash=500,
        )
    assert not PaperSerial.objects.filter(book=sales).exists()


def test_a_paper_slip_may_not_take_chips_a_place_did_not_hold_at_its_time(cast, outage):
    fills, _sales = outage
    with refuses("custody.short"):
        enter_fill(cast, fills, 1, at=written(10), chips={"25": 500})
    assert not PaperSerial.objects.exists() and not Slip.objects.filter(slip_type="fill").exists()


def test_a_paper_slip_written_later_than_now_is_refused(cast, outage):
    fills, _sales = outage
    with refuses("paper.written_later"):
        enter_fill(cast, fills, 1, at=timezone.now() + datetime.timedelta(minutes=5))


def test_a_paper_slip_bears_every_custody_signature(cast, outage):
    fills, _sales = outage
    with refuses("paper.custody_unsigned"):
        paper.enter(
            day=cast.day,
            book=fills,
            number=1,
            written_at=written(10),
            signed=cast.signed(issued_by="chip_cashier", carried_by="runner"),
            confirmed={},
            entered_by=cast.chip_cashier,
            table=cast.bj,
            runner=cast.runner,
            chips={"5": 10},
        )


def test_a_serial_entered_twice_from_no_book_or_from_another_event_is_refused(cast, outage):
    fills, _sales = outage
    enter_fill(cast, fills, 1, at=written(10))
    with refuses("paper.already_accounted"):
        paper.find(event=cast.event, text="lakeside:fill:P-0001")
    with refuses("paper.already_accounted"):
        enter_fill(cast, fills, 1, at=written(5))
    with refuses("paper.no_book"):
        paper.find(event=cast.event, text="P-0099", slip_type="fill")
    with refuses("paper.no_book"):
        paper.find(event=cast.event, text="P-0001", slip_type="credit")
    with refuses("paper.other_event", slug="riverside"):
        paper.find(event=cast.event, text="riverside:fill:P-0002")
    with refuses("paper.not_a_serial"):
        paper.find(event=cast.event, text="twelve", slip_type="fill")
    assert paper.find(event=cast.event, text=" p-0002 ", slip_type="fill") == (fills, 2)
    with refuses("paper.not_said_written"):
        paper.find(event=cast.event, text="lakeside:fill:P-0003")
    paper.written_declare(day=cast.day, book=fills, last=3, person=cast.chip_cashier)
    assert paper.find(event=cast.event, text="lakeside:fill:P-0003") == (fills, 3)


def test_what_a_scanner_or_a_cashier_types_reads_as_a_serial():
    assert read_serial("lakeside:fill:P-0012") == read_serial("lakeside:fill:P-0012")
    assert read_serial("lakeside:fill:P-0012").number == 12
    assert read_serial("P-0012").slip_type is None and read_serial("12").number == 12
    assert read_serial("P-0").number is None and read_serial("").number is None
    assert serial_ranges([5, 3, 6, 7, 9]) == "P-0003, P-0005–P-0007, P-0009"


def test_the_day_closes_once_every_serial_of_a_book_it_used_is_accounted_for(cast, outage):
    fills, sales = outage
    enter_fill(cast, fills, 1, at=written(10))
    paper.enter_void(day=cast.day, book=fills, number=2, reason="torn", entered_by=cast.chip_cashier)
    paper.enter_void(day=cast.day, book=sales, number=1, reason="patron left", entered_by=cast.chip_cashier)
    problems = [p for p in close_problems(cast.day) if "paper" in p]
    assert problems == [
        "paper slips not yet accounted for: Fill P-0003–P-0004; enter them, enter them as void, return the blank "
        "ones unused, or the DRIC records them missing (Paper slips)",
        "paper slips not yet accounted for: Chip sale P-0002–P-0003; enter them, enter them as void, return the "
        "blank ones unused, or the DRIC records them missing (Paper slips)",
    ]
    paper.return_unused(day=cast.day, book=fills, numbers=[3, 4], person=cast.chip_cashier)
    paper.return_unused(day=cast.day, book=sales, numbers=[3], person=cast.chip_cashier)
    with refuses("paper.missing_by_dric"):
        paper.declare_missing(day=cast.day, book=sales, numbers=[2], reason="not in the book", person=cast.chip_cashier)
    with refuses("paper.missing_reason"):
        paper.declare_missing(day=cast.day, book=sales, numbers=[2], reason=" ", person=cast.dric)
    paper.declare_missing(
        day=cast.day, book=sales, numbers=[2], reason="not in the book at the close", person=cast.dric
    )
    assert not [p for p in close_problems(cast.day) if "paper" in p]
    used = {b.book.slip_type: b for b in books_of_day(cast.day)}
    assert used["fill"].serials("entered") == ["P-0001"] and used["fill"].serials("void") == ["P-0002"]
    assert used["fill"].serials("unused") == ["P-0003", "P-0004"] and used["sale"].serials("missing") == ["P-0002"]
    with refuses("paper.already_accounted"):
        paper.return_unused(day=cast.day, book=fills, numbers=[4], person=cast.chip_cashier)


def test_the_keepers_of_the_books_return_them_and_the_cage_enters_paper_slips(cast, outage):
    fills, _sales = outage
    with refuses("paper.not_a_keeper", name="General Cashier"):
        paper.return_unused(day=cast.day, book=fills, numbers=[4], person=cast.general_cashier)
    with refuses("paper.not_cage", name="Runner"):
        paper.enter_void(day=cast.day, book=fills, number=1, reason="torn", entered_by=cast.runner)
    # The General Cashier enters the paper slips of her own window, as at the window.
    paper.enter_void(day=cast.day, book=fills, number=1, reason="torn", entered_by=cast.general_cashier)
    with refuses("paper.not_in_book"):
        paper.written_declare(day=cast.day, book=fills, last=9, person=cast.chip_cashier)


def test_signers_confirm_the_paper_bears_their_signature(cast, outage):
    fills, _sales = outage
    fill = enter_fill(cast, fills, 1, at=written(10), confirmed={"issued_by": "session", "received_by": "pin"})
    waiting = list(unconfirmed_signatures(cast.event))
    assert [(s.capacity, s.person) for s in waiting] == [("carried_by", cast.runner)]
    with refuses("paper.confirm_own"):
        paper.confirm(signature=waiting[0], person=cast.dealer, via="session")
    paper.confirm(signature=waiting[0], person=cast.runner, via="session")
    assert not unconfirmed_signatures(cast.event)
    assert PaperConfirmation.objects.filter(signature__slip=fill).count() == 3
    with refuses("paper.confirmed"):
        paper.confirm(signature=waiting[0], person=cast.runner, via="session")


def test_an_online_day_with_no_paper_slip_is_not_held_back(cast):
    stock(cast)
    assert waiting_count(cast.day) == 0
    assert not [p for p in close_problems(cast.day) if "paper" in p]


def test_a_records_file_import_is_not_held_back_by_another_days_paper(cast):
    assert waiting_count(None) == 0
    assert waiting_count(cast.day) == 0


def test_a_records_file_carries_an_entered_paper_slip_both_ways(cast, outage):
    from cage.exporter import export_event
    from cage.importer import ImportFailed, import_records

    fills, _sales = outage
    fill = enter_fill(cast, fills, 1, at=written(10))
    data = export_event(cast.event)
    (record,) = [r for r in data["days"][0]["records"] if r["type"] == "fill"]
    assert record["paper"]["serial"] == "P-0001" and record["paper"]["entered_by"] == "chip_cashier"
    assert record["at"] == timezone.localtime(fill.at).replace(tzinfo=None).isoformat()
    data["event"]["slug"] = "lakeside-again"
    again = import_records(data)
    copied = Slip.objects.get(event=again, slip_type="fill")
    assert copied.details["paper"] == fill.details["paper"] and copied.at == fill.at
    assert copied.links.get().digest != ""  # chained as the original was
    data["event"]["slug"] = "lakeside-third"
    record["paper"] = {"serial": "12", "entered_by": "chip_cashier", "entered_at": record["paper"]["entered_at"]}
    with pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert any("paper:" in p for p in failed.value.problems)


def test_the_days_sheets_list_every_paper_serial_of_the_day(cast, outage):
    from reports.daily import day_sheets, sheets_json

    fills, sales = outage
    fill = enter_fill(cast, fills, 1, at=written(10))
    paper.enter_void(day=cast.day, book=fills, number=2, reason="torn", entered_by=cast.chip_cashier)
    paper.return_unused(day=cast.day, book=fills, numbers=[3], person=cast.chip_cashier)
    rows = sheets_json(day_sheets(cast.day))["sheets"]["paper"]
    assert rows == [
        {
            "row": "line",
            "book": "Fill P-0001–P-0004",
            "entered": f"P-0001 → {fill.number}",
            "void": "P-0002",
            "unused": "P-0003",
            "missing": "",
            "unaccounted": "P-0004",
        },
        {
            "row": "line",
            "book": "Chip sale P-0001–P-0003",
            "entered": "",
            "void": "",
            "unused": "",
            "missing": "",
            "unaccounted": "P-0001–P-0003",
        },
    ]


def test_a_day_that_used_no_paper_has_no_paper_sheet(cast):
    from reports.daily import day_sheets

    assert "paper" not in [s.key for s in day_sheets(cast.day)["sheets"]]


def test_the_drics_approval_after_entry_is_hers_and_needs_no_confirmation(cast, outage):
    fills, _sales = outage
    fill = enter_fill(
        cast, fills, 1, at=written(10), confirmed={"issued_by": "session", "carried_by": "pin", "received_by": "pin"}
    )
    services.approve(slip=fill, person=cast.dric)
    assert fill.signatures.filter(capacity="authorized_by").exists()
    assert unconfirmed_signatures(cast.event) == []


def test_the_close_is_refused_while_a_paper_serial_is_missing(cast, outage):
    from tests.cage.helpers import CLOSE_SIGNED, COUNT_SIGNED, count_as_the_books_hold

    fills, sales = outage
    paper.enter_void(day=cast.day, book=fills, number=1, reason="torn", entered_by=cast.chip_cashier)
    paper.enter_void(day=cast.day, book=fills, number=2, reason="torn", entered_by=cast.chip_cashier)
    paper.enter_void(day=cast.day, book=sales, number=1, reason="torn", entered_by=cast.chip_cashier)
    services.table_close(
        day=cast.day,
        table=cast.bj,
        chips={"5": 80},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    day = services.day_reconcile(day=cast.day)
    count_as_the_books_hold(day, cast.signed(**COUNT_SIGNED))
    with refuses("day.cannot_close") as refused:
        services.close_day(day=day, signed=cast.signed(**CLOSE_SIGNED))
    assert "paper slips not yet accounted for: Fill P-0003–P-0004" in str(refused.value)
    paper.return_unused(day=day, book=fills, numbers=[3, 4], person=cast.chip_cashier)
    paper.return_unused(day=day, book=sales, numbers=[2, 3], person=cast.chip_cashier)
    assert services.close_day(day=day, signed=cast.signed(**CLOSE_SIGNED)).slip_type == "close_day"


def test_what_was_said_written_stands_and_is_never_returned_blank(cast, outage):
    fills, _sales = outage
    with refuses("paper.written_lower", said="P-0002"):
        paper.written_declare(day=cast.day, book=fills, last=1, person=cast.chip_cashier)
    with refuses("paper.written_not_blank", serials="P-0001–P-0002"):
        paper.return_unused(day=cast.day, book=fills, numbers=[1, 2, 3], person=cast.chip_cashier)
    # Said written in error: entered as void, saying so; the DRIC may record a lost one missing.
    paper.enter_void(day=cast.day, book=fills, number=2, reason="said written in error", entered_by=cast.chip_cashier)
    paper.declare_missing(day=cast.day, book=fills, numbers=[1], reason="lost in the outage", person=cast.dric)
    assert paper.written_declare(day=cast.day, book=fills, last=3, person=cast.chip_cashier).last == 3
    with refuses("paper.type_needed"):
        paper.find(event=cast.event, text="P-0003")


def test_typed_paper_slips_keep_what_their_services_take_and_post_in_written_order(cast, outage):
    from decimal import Decimal

    fills, sales = outage
    kept = paper._kept({"table": cast.bj, "hours": [(cast.dealer, Decimal("2.5"))], "chips": {"5": 10}})
    assert paper._restored(kept) == {"table": cast.bj, "hours": [[cast.dealer, Decimal("2.5")]], "chips": {"5": 10}}
    paper.enter_void(day=cast.day, book=fills, number=2, reason="torn", entered_by=cast.chip_cashier)
    paper.draft_keep(
        day=cast.day,
        book=sales,
        number=1,
        written_at=written(10),
        typed={},
        fields={"chips": {"1": 5}, "cash": 500},
        signed=cast.signed(sold_by="chip_cashier"),
        confirmed={"sold_by": "session"},
        entered_by=cast.chip_cashier,
    )
    assert not paper.drafts_ready(cast.day)
    paper.draft_keep(
        day=cast.day,
        book=fills,
        number=1,
        written_at=written(20),
        typed={},
        fields={"table": cast.bj, "runner": cast.runner, "chips": {"5": 10}},
        signed=cast.signed(**FILL_ON_PAPER),
        confirmed={},
        entered_by=cast.chip_cashier,
    )
    assert paper.drafts_ready(cast.day)
    posted, refused = paper.drafts_post(cast.day)
    assert refused is None and [s.slip_type for s in posted] == ["fill", "sale"]
    assert waiting_count(cast.day) == 0 and not paper.PaperDraft.objects.exists()
