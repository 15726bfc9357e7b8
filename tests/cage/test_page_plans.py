"""The window's pages read no table of the books whole: every question they ask starts from an index,
so a refresh costs the day's rows, not the event's, nor every event's in the database (issue 25).

Asked of SQLite's own planner (EXPLAIN QUERY PLAN) for each query the cage home, its panels' refresh,
the DRIC's queue and the slip forms run. SQLite plans without statistics unless told to gather them,
so the plan on this small event is the plan on a season's. The cage home's tables panel once read
every posting of the database, and every slip for the voids: its fills and credits were asked by
the postings' own day, which no index begins with.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cage.importer import import_records
from tests.conftest import give_login
from tests.records_generator import generated_event

pytestmark = pytest.mark.django_db

# The tables that grow with every slip.
BOOKS = (
    "cage_slip",
    "cage_posting",
    "cage_signature",
    "cage_ledgerlink",
    "cage_daytotal",
    "cage_runningtotal",
    "audit_auditentry",
)


def plan(sql: str, params=None) -> list[str]:
    """The steps of SQLite's plan for a query."""
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
        return [row[3] for row in cursor.fetchall()]


def whole_table_reads(sql: str) -> list[str]:
    """The steps of a query's plan that read a table of the books whole, or every slip of the event
    (by the slips' index on the event: what the event's days not closed hold is read by the day)."""
    steps = plan(sql)
    return [
        step
        for step in steps
        if (step.startswith("SCAN") and step.split()[1] in BOOKS) or "INDEX cage_slip_event_id" in step
    ]


def test_the_windows_pages_read_no_table_of_the_books_whole(client):
    if connection.vendor != "sqlite":
        pytest.skip("the planner asked is SQLite's; PostgreSQL's plans by its statistics")
    data = generated_event(seed=25, days=3, records_per_day=40, tables=4, leave_last_day_open=True)
    data["event"]["slug"] = "plans"
    event = import_records(data)
    client.force_login(give_login(event.people.get(code="ann"), "ann-plans"))
    pages = [reverse(f"cage:{name}", args=[event.slug]) for name in ("home", "home_panels", "queue")]
    pages += [reverse("cage:slip_new", args=[event.slug, kind]) for kind in ("sale", "fill", "credit")]
    found = {}
    for url in pages:
        client.get(url)  # warm: the session's first request reads more than the next
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200, url
        selects = [q["sql"] for q in ctx.captured_queries if q["sql"].lstrip().upper().startswith("SELECT")]
        assert selects, url
        for sql in selects:
            if reads := whole_table_reads(sql):
                found.setdefault(url, []).append((reads, sql[:300]))
    assert found == {}


def test_a_counted_places_last_movement_is_read_from_the_latest_back_by_its_index(cast):
    """The cage home's count states ask each counted place's last movement of the day on every
    refresh: read from the postings' index by place, day and slip, the latest first, never from every
    slip of the day and its postings (8 ms on a season's day of 5,000 slips, where this reads one)."""
    if connection.vendor != "sqlite":
        pytest.skip("the planner asked is SQLite's; PostgreSQL's plans by its statistics")
    from cage.selectors.counts import _LAST_MOVES

    steps = plan(*_LAST_MOVES.sql(cast.day.pk, cast.event.pk))
    assert any("cage_posting_last_move (account_id=? AND day_id=?)" in step for step in steps), steps
    assert not any(step.startswith("USE TEMP B-TREE") for step in steps), steps


def test_a_days_slips_are_read_in_their_order_from_one_end_by_their_index(cast):
    """The latest slips a person signed that day (the DRIC's queue, for a role given during the day):
    read from the slips' index by day in the order they happened until enough are found, never
    every slip of the day sorted (4 ms on a season's day for a holder who had signed most of them)."""
    if connection.vendor != "sqlite":
        pytest.skip("the planner asked is SQLite's; PostgreSQL's plans by its statistics")
    from cage.selectors.four_eyes import _latest_signed

    steps = plan(*_latest_signed(cast.chip_cashier.pk, cast.day.pk)[:10].query.sql_with_params())
    assert any("cage_slip_day_in_order (day_id=?)" in step for step in steps), steps
    assert not any(step.startswith("USE TEMP B-TREE") for step in steps), steps


def test_which_slips_wait_is_read_from_the_days_slips_not_signed_in_full(cast):
    """Which slips wait, the oldest or the latest first, a day's or the event's days not closed:
    read from the slips not signed in full by their day (cage.models.NotSignedInFull), each slip by
    its key, never the day's slips by their own index (on a season's day, 5,000 visited for the few
    that wait)."""
    if connection.vendor != "sqlite":
        pytest.skip("the planner asked is SQLite's; PostgreSQL's plans by its statistics")
    from cage.selectors.slips import _WAITING

    for (by_day, _latest), compiled in _WAITING.items():
        steps = plan(*compiled.sql(cast.day.pk if by_day else cast.event.pk, limit=25))
        assert steps[0].startswith("SEARCH cage_notsignedinfull USING INDEX cage_notsignedinfull_day_id"), steps
        assert "SEARCH cage_slip USING INTEGER PRIMARY KEY (rowid=?)" in steps, steps
        assert not any("INDEX cage_slip_day" in step or "INDEX cage_slip_event" in step for step in steps), steps


def test_a_places_balance_reads_its_running_totals_by_their_key_never_the_days_postings(cast):
    """A balance (a custody check at the window, the cage home's inventory) reads the running totals
    of its places' days not sealed, by their key, not the day's postings: a row per place and
    instrument where it read every posting of the day (10,000 on a season's day)."""
    if connection.vendor != "sqlite":
        pytest.skip("the planner asked is SQLite's; PostgreSQL's plans by its statistics")
    from cage.models import Account
    from cage.selectors.places import BALANCES
    from tests.cage.helpers import stock

    stock(cast)
    ids = list(Account.objects.filter(event=cast.event).values_list("pk", flat=True))
    places = ", ".join(["%s"] * len(ids))
    steps = plan(BALANCES.format(accounts=places, events="%s"), [*ids, *ids, cast.event.pk])
    # The key's index (SQLite names a unique constraint's own: sqlite_autoindex_...).
    assert any(
        s.startswith("SEARCH cage_runningtotal USING INDEX") and "(account_id=? AND day_id=?)" in s for s in steps
    ), steps
    assert not any("cage_posting" in step for step in steps), steps
