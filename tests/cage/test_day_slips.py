"""What a table's opening and closing, and the day's close, ask of the day's slips is answered the
same at the window (the database, each time) and within an import (the import's memory of the day,
kept as it writes: cage.services.day_slips). Each test runs both ways, with signatures added and a
void refused after the memory was read, which are not written through the import's own writes."""

import pytest

from cage import services
from cage.services import day_slips
from cage.services import memo as remembered
from cage.services.day import close_problems
from tests.cage.helpers import fill_in_transit, open_table, stock
from tests.refusals import refuses

pytestmark = pytest.mark.django_db

CLOSER = {"counted_by": "dealer", "verified_by": "chip_cashier"}


@pytest.fixture(params=["window", "import"])
def way(request):
    """Nothing remembered (the window), or within an import's memory."""
    if request.param == "window":
        yield None
        return
    with remembered.remembering() as memo:
        yield memo


def close_bj(cast):
    return services.table_close(day=cast.day, table=cast.bj, chips={"1": 100, "5": 80}, signed=cast.signed(**CLOSER))


def test_a_table_waits_for_its_fill_and_its_void_until_both_are_done(cast, way):
    stock(cast)
    open_table(cast)
    if way is not None:
        assert cast.day.pk in way.day_slips  # read once, and kept from here on
    fill = fill_in_transit(cast, chips={"5": 8})
    assert day_slips.unfinished_custody(cast.day, table=cast.bj) == [fill]
    assert day_slips.unfinished_custody(cast.day, table=cast.wheel) == []
    assert any(fill.number in problem for problem in close_problems(cast.day))
    with refuses("closer.transit_unfinished", table="BJ-1"):
        close_bj(cast)

    # A void asked for: the void is what the table waits for, not the fill it names.
    void = services.void(
        day=cast.day,
        target=fill,
        reason="wrong table",
        signed=cast.signed(requested_by="chip_cashier"),
        allow_pending=True,
    )
    assert day_slips.unfinished_custody(cast.day, table=cast.bj) == [void]
    # Refused by the DRIC (a write the import's memory does not make): the fill waits again.
    services.refuse(slip=void, person=cast.dric, reason="the table was right")
    assert day_slips.unfinished_custody(cast.day, table=cast.bj) == [fill]

    # Signed through (signatures added one by one, as at the table): nothing waits, and it closes.
    services.sign(slip=fill, capacity="received_by", person=cast.dealer)
    services.sign(slip=fill, capacity="authorized_by", person=cast.dric)
    assert day_slips.unfinished_custody(cast.day) == []
    assert not any(fill.number in problem for problem in close_problems(cast.day))
    close_bj(cast)


def test_a_table_opens_once_a_day_whichever_way_it_is_asked(cast, way):
    stock(cast)
    open_table(cast)
    close_bj(cast)
    assert day_slips.opened_today(cast.day, cast.bj, "table_open")
    assert not day_slips.opened_today(cast.day, cast.wheel, "table_open")
    with refuses("opener.already_opened", table="BJ-1"):
        services.table_open(
            day=cast.day, table=cast.bj, chips={"1": 100, "5": 80}, signed=cast.signed(**CLOSER), reason="again"
        )
