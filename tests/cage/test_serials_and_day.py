"""Serial numbers in order with no gaps, and the gaming day's lifecycle."""

import datetime

import pytest
from django.utils import timezone

from cage import services
from cage.models import Slip
from core.rules import RuleViolation
from events import services as event_services
from events.models import GamingDay
from tests.cage.helpers import close_clean_day, stock
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def receive(cast, chips):
    return services.chips_received(
        day=cast.day, chips=chips, signed=cast.signed(received_by="chip_cashier", witnessed_by="dric")
    )


def test_serials_run_per_slip_type_without_gaps_even_after_a_refusal(cast):
    first = receive(cast, {"1": 1})
    with pytest.raises(RuleViolation):
        receive(cast, {"1": -1})
    second = receive(cast, {"1": 1})
    floated = services.float_in(
        day=cast.day, cash=100, signed=cast.signed(received_by="general_cashier", witnessed_by="dric")
    )
    assert (first.serial, second.serial, floated.serial) == (1, 2, 1)
    assert second.number == "Chips received 2"


def test_a_slip_takes_its_serial_in_one_statement_and_a_refusal_gives_it_back(cast):
    """The counter is moved on and read back in one UPDATE, its row locked until the slip commits;
    a slip type's first slip makes its counter first."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from cage.services import ledger

    receive(cast, {"1": 1})
    with CaptureQueriesContext(connection) as ctx:
        second = receive(cast, {"1": 1})
    counter = [q["sql"] for q in ctx.captured_queries if "cage_slipcounter" in q["sql"]]
    assert len(counter) == 1 and counter[0].startswith("UPDATE"), counter
    # A serial taken in a transaction that rolls back (a slip refused after it took its number).
    with pytest.raises(RuntimeError), transaction.atomic():
        assert ledger.next_serial(cast.event, "chips_received") == second.serial + 1
        raise RuntimeError("refused")
    assert receive(cast, {"1": 1}).serial == second.serial + 1


def test_a_slip_dated_before_the_previous_one_is_refused(cast):
    at = timezone.make_aware(datetime.datetime(2026, 9, 11, 12, 0))
    services.chips_received(
        day=cast.day, chips={"1": 1}, at=at, signed=cast.signed(received_by="chip_cashier", witnessed_by="dric")
    )
    with refuses("slip.out_of_order"):
        services.chips_received(
            day=cast.day,
            chips={"1": 1},
            at=at - datetime.timedelta(minutes=1),
            signed=cast.signed(received_by="chip_cashier", witnessed_by="dric"),
        )


def test_a_day_in_setup_takes_no_posting(db):
    from tests.conftest import make_cast

    cast = make_cast("setup-fair", open_day=False)  # its own event, beside the module's cast
    with refuses("day.not_open_or_reconciling"):
        receive(cast, {"1": 1})


def test_a_closed_day_is_locked(cast):
    slip = close_clean_day(cast)
    assert slip.slip_type == "close_day"
    cast.day.refresh_from_db()
    assert cast.day.status == GamingDay.Status.CLOSED
    with refuses("day.closed"):
        receive(cast, {"1": 1})


def test_the_next_day_opens_only_after_the_last_one_closed(cast):
    nxt = event_services.day_add(event=cast.event, date=cast.day.date + datetime.timedelta(days=1))
    with refuses("day.earlier_not_closed"):
        event_services.day_open(day=nxt)
    close_clean_day(cast)
    assert event_services.day_open(day=nxt).status == "open"


def test_reconciling_closes_the_floor_but_money_settles(cast):
    stock(cast)
    services.day_reconcile(day=cast.day)
    with refuses("day.not_open"):
        services.sale(
            day=cast.day, chips={"1": 1}, cash=100, signed=cast.signed(sold_by="chip_cashier", authorized_by="dric")
        )
    services.deposit(day=cast.day, cash=500, signed=cast.signed(deposited_by="general_cashier", witnessed_by="dric"))
    assert Slip.objects.filter(slip_type="deposit").count() == 1
