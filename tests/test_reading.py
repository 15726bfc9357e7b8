"""One reading of the books per page (core.reading): within a GET a `@read_once` selector asks the
database once however many parts of the page ask it; outside a reading (a service, a POST, the
importer) every ask reads afresh, so a write between two asks is seen."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.reading import OneReadingMiddleware, one_reading, read_once
from core.rules import RuleViolation
from events.models import ChipDenomination
from events.selectors import chip_set, chip_values, tables_of

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def test_within_a_reading_the_chip_set_is_read_once(cast):
    with CaptureQueriesContext(connection) as ctx, one_reading():
        first = chip_values(cast.event)
        again = chip_values(cast.event)
        same_event_read_again = chip_set(type(cast.event).objects.get(pk=cast.event.pk))
    chip_queries = [q for q in ctx.captured_queries if "chipdenomination" in q["sql"]]
    assert first == again and len(first) > 0
    assert len(same_event_read_again) == len(first)  # the same row, by its key, is the same question
    assert len(chip_queries) == 1


def test_outside_a_reading_a_write_between_two_asks_is_seen(cast):
    before = chip_values(cast.event)
    ChipDenomination.objects.create(event=cast.event, key="5000", value_cents=500_000)
    after = chip_values(cast.event)
    assert "5000" not in before and after["5000"] == 500_000


def test_each_reading_starts_afresh_and_a_nested_one_shares_the_outer(cast):
    with one_reading():
        codes = [t.code for t in tables_of(cast.event.pk)]
        with one_reading(), CaptureQueriesContext(connection) as nested:
            assert [t.code for t in tables_of(cast.event.pk)] == codes
        assert nested.captured_queries == []
    ChipDenomination.objects.create(event=cast.event, key="5000", value_cents=500_000)
    with one_reading():
        assert chip_values(cast.event)["5000"] == 500_000


def test_answers_differ_by_their_arguments():
    asked = []

    @read_once
    def double(n, *, times=2):
        asked.append((n, times))
        return n * times

    with one_reading():
        assert [double(2), double(2), double(3), double(2, times=3), double(2, times=3)] == [4, 4, 6, 6, 6]
    assert asked == [(2, 2), (3, 2), (2, 3)]


def test_only_a_get_or_a_head_is_one_reading(rf):
    seen = {}

    @read_once
    def ask():
        seen["n"] = seen.get("n", 0) + 1
        return seen["n"]

    def page(request):
        ask()
        ask()
        return seen.get("n")

    middleware = OneReadingMiddleware(page)
    assert middleware(rf.get("/")) == 1
    seen.clear()
    assert middleware(rf.head("/")) == 1
    seen.clear()
    assert middleware(rf.post("/")) == 2


def test_a_slips_transaction_reads_what_no_slip_changes_once_and_its_balances_afresh(cast):
    """A sale asks the chip set, the cashier's roles and the cage's own places once each
    (core.reading.settled_facts), and still reads the balances it checks, which slips change."""
    from cage import services
    from tests.cage.helpers import stock

    stock(cast)
    with CaptureQueriesContext(connection) as ctx:
        services.sale(
            day=cast.day, chips={"5": 2}, cash=1000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
        )
    sql = [q["sql"] for q in ctx.captured_queries]
    assert sum("events_chipdenomination" in q and q.lstrip().startswith("SELECT") for q in sql) == 1
    assert sum('FROM "events_assignment"' in q for q in sql) == 1
    # The own places, read once (PostgreSQL also locks the places the sale takes from: FOR NO KEY UPDATE).
    places = [q for q in sql if 'FROM "cage_account"' in q and "LIMIT" not in q and " UPDATE" not in q]
    assert len(places) == 1, places
    # The balances it checks (cage.selectors.places.balances_read: the sealed days' totals and the
    # open day's postings).
    assert any("cage_daytotal" in q and "SUM(amount)" in q for q in sql)
    # Two sales, two transactions: the second reads afresh, so a chip added between them is known.
    ChipDenomination.objects.create(event=cast.event, key="5000", value_cents=500_000)
    with pytest.raises(RuleViolation) as refused:
        services.sale(
            day=cast.day,
            chips={"5000": 1},
            cash=500_000,
            signed=cast.signed(sold_by="chip_cashier"),
            allow_pending=True,
        )
    assert refused.value.code != "chips.unknown"  # known: refused only as the chip bank holds none


def test_settled_facts_answer_only_settled_questions_and_start_afresh_each_time():
    from core.reading import settled_facts

    asked = []

    @read_once(settled=True)
    def settled():
        asked.append("settled")
        return len(asked)

    @read_once
    def moving():
        asked.append("moving")
        return len(asked)

    with settled_facts():
        settled(), settled(), moving(), moving()
        with settled_facts():
            settled()
    assert asked == ["settled", "moving", "moving", "settled"]
