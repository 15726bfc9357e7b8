"""The window's lists read their slips as SQL of its own (cage.selectors.slip_rows), and the questions
they ask on every refresh compiled once (core.compiled): the same answers as the ORM's, value for
value, on both databases."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Count

from cage import services
from cage.importer import import_records
from cage.models import Signature, Slip
from cage.selectors.amounts import cash_moved_subquery
from cage.selectors.slip_rows import slips_read
from cage.selectors.slips import State, pending_count, pending_slips, states_of
from core.compiled import Compiled
from tests.cage.helpers import fill_in_transit, open_table, stock
from tests.records_generator import generated_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    data = generated_event(seed=25, days=3, records_per_day=40, tables=3, leave_last_day_open=True)
    data["event"]["slug"] = "slip-rows"
    return import_records(data)


def orm_read(ids):
    return {
        s.pk: s
        for s in Slip.objects.filter(pk__in=ids)
        .annotate(cash_moved=cash_moved_subquery())
        .select_related("table", "runner", "day", "voids", "account__person", "account__table")
        .with_signers()
    }


def as_read(slip) -> dict:
    """Everything a row of the window's lists reads of a slip, as plain values."""
    fields = {f.attname: getattr(slip, f.attname) for f in Slip._meta.concrete_fields}
    return {
        **fields,
        "cash_moved": slip.cash_moved,
        "table": slip.table and (slip.table.pk, slip.table.code, slip.table.game, slip.table.state),
        "runner": slip.runner and (slip.runner.pk, slip.runner.name),
        "day": (slip.day.pk, slip.day.date, slip.day.status, slip.day.opens_at),
        "voids": slip.voids and (slip.voids.pk, slip.voids.number, slip.voids.details, slip.voids.at),
        "account": slip.account and (slip.account.pk, slip.account.code, slip.account.person_id, slip.account.table_id),
        "account_person": slip.account and slip.account.person and slip.account.person.name,
        "account_table": slip.account and slip.account.table and slip.account.table.code,
        "signatures": [
            (s.pk, s.capacity, s.person.pk, s.person.name, s.signed_at, s.slip is slip) for s in slip.signatures.all()
        ],
    }


def chosen(ids):
    return Slip.objects.filter(pk__in=ids).values_list("pk")


def test_slips_are_read_as_the_orm_reads_them_value_for_value(event, django_assert_num_queries):
    ids = list(Slip.objects.filter(event=event).values_list("pk", flat=True))
    expected = orm_read(ids)
    with django_assert_num_queries(3):  # the slips, their signatures, the event's places
        read = slips_read(chosen(ids), order=lambda s: s.pk)
    assert [s.pk for s in read] == sorted(ids)
    # The event has what each join reads: else the comparison would prove nothing of it.
    assert all(
        any(getattr(s, name) for s in read)
        for name in ("table_id", "runner_id", "voids_id", "account_id", "cash_moved")
    )
    assert any(s.account and s.account.person_id for s in read)
    assert any(s.details for s in read)
    for slip in read:
        assert as_read(slip) == as_read(expected[slip.pk]), slip.number


def test_a_slips_signatures_still_filter_in_the_database(event, django_assert_num_queries):
    """A slip's signatures are the list read with it (no query); a rule that asks
    slip.signatures.filter(...) or values_list(...) of a slip read here asks of that slip alone."""
    slip = Slip.objects.annotate(n=Count("signatures")).filter(event=event, n__gte=2).first()
    (read,) = slips_read(chosen([slip.pk]), order=lambda s: s.pk)
    expected = list(Signature.objects.filter(slip=slip).order_by("id"))
    with django_assert_num_queries(0):
        first = read.signatures.all()[0]
        assert [s.pk for s in read.signatures.all()] == [s.pk for s in expected]
        assert len(read.signatures.all()) == read.signatures.count() == len(expected)
        assert read.signatures.exists()
    with django_assert_num_queries(1):
        assert list(read.signatures.filter(person=first.person)) == [first]
    with django_assert_num_queries(1):
        assert set(read.signatures.values_list("capacity", flat=True)) == {s.capacity for s in expected}
    assert read.signatures.filter(pk__in=[s.pk for s in Signature.objects.exclude(slip=slip)]).count() == 0
    # Built as the ORM builds what it reads: from the database, not to be added again.
    assert not read._state.adding and read._state.db == "default"
    assert not read.signatures.all()[0]._state.adding and not read.day._state.adding


def test_nothing_chosen_reads_nothing_more(django_assert_num_queries):
    with django_assert_num_queries(0):  # the ORM knows an empty list of ids chooses none
        assert slips_read(chosen([]), order=lambda s: s.pk) == []
    with django_assert_num_queries(1):
        assert slips_read(chosen([-1]), order=lambda s: s.pk) == []


def test_the_slips_waiting_are_the_orms_question_compiled_once(cast):
    """pending_slips and pending_count by their compiled queries give what the ORM's queryset gives,
    in its order and bounds: the oldest first, the latest first, a page; and the slips as the ORM
    reads them."""
    from cage.selectors.slips import _waiting

    stock(cast)
    open_table(cast)
    for n in range(3):
        services.sale(
            day=cast.day,
            chips={"5": n + 1},
            cash=500 * (n + 1),
            signed=cast.signed(sold_by="chip_cashier"),
            allow_pending=True,
        )
    fill_in_transit(cast)
    event, day = cast.event, cast.day
    orm = list(_waiting(event, day).order_by("at", "id").values_list("pk", flat=True))
    assert len(orm) == 4
    waiting = pending_slips(event, day=day)
    assert [p.slip.pk for p in waiting] == orm
    expected = orm_read(orm)
    assert [as_read(p.slip) for p in waiting] == [as_read(expected[pk]) for pk in orm]
    assert [p.slip.pk for p in pending_slips(event)] == orm
    assert [p.slip.pk for p in pending_slips(event, day=day, latest=2)] == orm[::-1][:2]
    assert [p.slip.pk for p in pending_slips(event, rows=slice(1, 3))] == orm[1:3]
    assert [p.slip.pk for p in pending_slips(event, rows=slice(3, 6))] == orm[3:]
    assert [p.slip.pk for p in pending_slips(event, slip=expected[orm[1]])] == [orm[1]]
    assert pending_count(event, day=day) == pending_count(event) == 4


def test_a_compiled_query_converts_its_values_as_the_orm_does(event):
    compiled = Compiled(
        lambda day_id: Slip.objects.filter(day_id=day_id).order_by("id").values_list("pk", "details", "at")
    )
    day = event.days.first()
    expected = list(Slip.objects.filter(day=day).order_by("id").values_list("pk", "details", "at"))
    assert compiled.rows(day.pk) == expected
    assert isinstance(expected[0][1], dict)
    assert compiled.rows(day.pk, limit=2, offset=1) == expected[1:3]
    assert compiled.count(day.pk) == len(expected)
    assert compiled.rows(-1) == [] and compiled.count(-1) == 0


def test_a_compiled_query_must_use_its_id():
    compiled = Compiled(lambda day_id: Slip.objects.values_list("pk"))
    with pytest.raises(ImproperlyConfigured):
        compiled.rows(1)
    both = Compiled(lambda event_id, day_id: Slip.objects.filter(event_id=event_id).values_list("pk"))
    with pytest.raises(ImproperlyConfigured):
        both.rows(1, 2)
    with pytest.raises(TypeError):
        Compiled(lambda day_id: Slip.objects.filter(day_id=day_id)).rows(1, 2)


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_compiled_model_instances_are_the_orms(event):
    """objects(): the ORM's instances, value for value, with the relations the query selects read
    from its own row (no query more), and its annotations; first(), get() and exists() as the
    queryset's."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from cage.models import Posting

    day = event.days.order_by("date").last()
    compiled = Compiled(
        lambda day_id, slip_type: (
            Slip.objects.filter(day_id=day_id, slip_type=slip_type)
            .select_related("table", "day__event", "runner")
            .annotate(signed=Count("signatures"))
            .order_by("-id")
        ),
        texts=("slip_type",),
    )
    orm = list(
        Slip.objects.filter(day=day, slip_type="fill")
        .select_related("table", "day__event", "runner")
        .annotate(signed=Count("signatures"))
        .order_by("-id")
    )
    assert orm, "the event has fills on its last day"
    with CaptureQueriesContext(connection) as read:
        built = compiled.objects(day.pk, "fill")
        related = [(s.table.code, s.day.date, s.day.event.slug, s.runner and s.runner.code, s.signed) for s in built]
    assert len(read.captured_queries) == 1
    assert [fields_of(s) for s in built] == [fields_of(s) for s in orm]
    assert related == [(s.table.code, s.day.date, s.day.event.slug, s.runner and s.runner.code, s.signed) for s in orm]
    assert isinstance(built[0].details, dict) and all(not s._state.adding for s in built)
    assert compiled.objects(day.pk, "no such type") == []
    assert compiled.first(day.pk, "fill").pk == orm[0].pk
    assert compiled.first(day.pk, "no such type") is None
    assert compiled.exists(day.pk, "fill") and not compiled.exists(day.pk, "no such type")
    assert [s.pk for s in compiled.objects(day.pk, "fill", limit=2, offset=1)] == [s.pk for s in orm[1:3]]

    one = Compiled(lambda pk: Posting.objects.filter(pk=pk).select_related("account__person", "denomination"))
    posting = Posting.objects.filter(slip__day=day, account__person__isnull=False).first()
    assert fields_of(one.get(posting.pk)) == fields_of(posting)
    assert one.get(posting.pk).account.person.pk == posting.account.person_id
    with pytest.raises(Posting.DoesNotExist):
        one.get(-1)
    with pytest.raises(ImproperlyConfigured):
        Compiled(lambda pk: Slip.objects.filter(pk=pk).values_list("pk")).objects(1)


def test_a_compiled_query_bounded_by_a_moment_gives_the_orms_rows_either_side_of_it(event):
    """A moment (a time bound) is passed as the ORM passes a DateTimeField's value: the rows on
    either side of each slip's own time are the ORM's, to the microsecond, in any time zone."""
    import datetime
    import zoneinfo

    day = event.days.order_by("date").last()
    since = Compiled(
        lambda day_id, moment: Slip.objects.filter(day_id=day_id, at__gte=moment).order_by("id").values_list("pk"),
        moments=("moment",),
    )
    times = sorted(set(Slip.objects.filter(day=day).values_list("at", flat=True)))
    assert len(times) > 2, "the day's slips are written at several times"
    toronto = zoneinfo.ZoneInfo("America/Toronto")
    for at in (times[0], times[len(times) // 2], times[-1]):
        for moment in (at - datetime.timedelta(microseconds=1), at, at + datetime.timedelta(microseconds=1)):
            moment = moment.astimezone(toronto)
            orm = list(Slip.objects.filter(day=day, at__gte=moment).order_by("id").values_list("pk"))
            assert since.rows(day.pk, moment) == orm
    assert since.rows(day.pk, times[-1] + datetime.timedelta(microseconds=1)) == []


def test_a_days_states_read_from_its_voids_are_the_same(event):
    """The cage home reads its slips' states from the day's voids, compiled once: the same states
    as from the voids among and naming the slips, done, refused and standing alike."""
    for day in event.days.all():
        slips = slips_read(Slip.objects.filter(day=day).values_list("pk"), order=lambda s: s.pk)
        assert states_of(slips, day=day) == states_of(slips)
    states = [
        state
        for day in event.days.all()
        for state in states_of(
            slips_read(Slip.objects.filter(day=day).values_list("pk"), order=lambda s: s.pk)
        ).values()
    ]
    assert {State.VOIDED, State.COMPLETE} <= set(states)


def test_a_days_count_states_from_their_compiled_queries_are_the_orms(event):
    """count_states reads a day's last counts and each place's last movement by queries compiled once,
    the places by their kind: the same as the ORM's questions of every slip of the day, day by day
    (a movement: not a count, nor a payout that empties the tip pool)."""
    from django.db.models import Max

    from cage.selectors.counts import _LAST_COUNTS, _LAST_MOVES, COUNTED, EMPTIES
    from cage.selectors.places import places_of_kind
    from cage.slip_types import COUNTS

    counted = moved = 0
    for day in event.days.all():
        accounts = places_of_kind(event.pk, COUNTED)
        kinds = {a.pk: a.kind for a in accounts}
        counts = (
            Slip.objects.filter(day=day, slip_type__in=COUNTS, account__in=accounts)
            .values("account_id")
            .annotate(last=Max("id"))
            .values_list("account_id", "last")
        )
        last_move: dict[int, tuple] = {}
        for account_id, slip_type, last in (
            Slip.objects.filter(day=day, postings__account__in=accounts)
            .exclude(slip_type__in=COUNTS)
            .values_list("postings__account_id", "slip_type")
            .annotate(last=Max("id"))
        ):
            if slip_type not in EMPTIES.get(kinds[account_id], ()) and last > last_move.get(account_id, (0, ""))[0]:
                last_move[account_id] = (last, slip_type)
        assert sorted(_LAST_COUNTS.rows(day.pk)) == sorted(counts)
        assert sorted(_LAST_MOVES.rows(day.pk, event.pk)) == sorted((a, t, last) for a, (last, t) in last_move.items())
        counted, moved = counted + len(counts), moved + len(last_move)
    assert counted and moved


def test_the_tables_fills_and_credits_by_the_slips_day_are_the_postings_day(cast):
    """The tables panel reads a day's fills and credits by the slips' day and the slips its done
    voids name: the same as by the postings' own day and every slip a done void reverses; and a
    voided fill counts for nothing, a fill whose void was only asked for still counts."""
    from django.db.models import Case, Sum, Value, When

    from cage.models import Account, Posting
    from cage.selectors.inventory import _MOVED
    from cage.slip_types import types_that
    from tests.cage.helpers import FILL_SIGNED

    stock(cast)
    open_table(cast)
    open_table(cast, cast.wheel)
    fills = [
        services.fill(day=cast.day, table=table, chips={"5": n}, runner=cast.runner, signed=cast.signed(**FILL_SIGNED))
        for table, n in ((cast.bj, 4), (cast.bj, 6), (cast.wheel, 2), (cast.wheel, 3))
    ]
    services.void(
        day=cast.day,
        target=fills[0],
        reason="wrong table",
        signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
    )
    services.void(
        day=cast.day,
        target=fills[2],
        reason="asked, not yet authorized",
        signed=cast.signed(requested_by="chip_cashier"),
        allow_pending=True,
    )
    straight = (
        Posting.objects.filter(
            day=cast.day,
            slip__slip_type__in=types_that(lambda k: k.table_figure in ("fills", "credits")),
            account__kind=Account.Kind.TABLE,
        )
        .exclude(slip__in=Slip.objects.voided())
        .annotate(into=Case(When(amount__gt=0, then=Value(True)), default=Value(False)))
        .values_list("account__table_id", "into")
        .annotate(slips=Count("slip", distinct=True), cents=Sum("amount"))
    )

    def plain(rows):
        return sorted((table, bool(into), slips, int(cents)) for table, into, slips, cents in rows)

    assert plain(_MOVED.rows(cast.day.pk)) == plain(straight)
    assert plain(_MOVED.rows(cast.day.pk)) == [(cast.bj.pk, True, 1, 3000), (cast.wheel.pk, True, 2, 2500)]


def test_slips_a_page_has_read_already_are_not_read_again(event, django_assert_num_queries):
    """The cage home reads its slips waiting first; those among its latest slips of the day are
    given as they are (the same instances), and only the others are read, in the order asked."""
    day = event.days.order_by("date").last()
    ids = list(Slip.objects.filter(day=day).order_by("-id").values_list("pk", flat=True)[:6])
    latest = Slip.objects.filter(day=day).order_by("-id").values_list("pk")[:6]
    first = slips_read(chosen(ids[::2]), order=lambda s: s.pk)
    known = {s.pk: s for s in first}
    known[-5] = Slip(pk=-5)  # known, but not chosen: not given
    with django_assert_num_queries(3):  # the ids chosen, the others' slips, their signatures
        read = slips_read(latest, order=lambda s: s.pk, reverse=True, known=known)
    assert [s.pk for s in read] == ids
    assert all(s is known[s.pk] for s in read if s.pk in ids[::2])
    expected = orm_read(ids)
    assert [as_read(s) for s in read] == [as_read(expected[pk]) for pk in ids]
    with django_assert_num_queries(1):  # every slip chosen known: only the ids are asked
        assert slips_read(chosen(ids[::2]), order=lambda s: s.pk, known=known) == first
