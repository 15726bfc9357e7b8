"""A slip's rows at the window are written by INSERTs compiled once (core.compiled.Insert): the rows
the ORM writes, value for value, on both databases (PostgreSQL writes several rows as arrays of
columns), each row given its key back as bulk_create gives it."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEntry
from cage import services
from cage.models import Posting, Signature, Slip
from core.compiled import Insert
from events.models import Assignment, Person, Role
from tests.cage.helpers import stock

pytestmark = pytest.mark.django_db


def stored(model, pk) -> dict:
    return {f.attname: v for f in model._meta.concrete_fields if (v := getattr(model.objects.get(pk=pk), f.attname))}


def entry(**more) -> AuditEntry:
    return AuditEntry(
        at="2026-12-07T01:02:03.000004+00:00",
        action="slip_recorded",
        message="%(slip)s recorded",
        params={"slip": "Fill 1", "n": 3},
        new={"details": {"chips": {"5": 4}}, "signed": ["Rita"]},
        address="2001:db8::1",
        **more,
    )


def test_an_entry_is_the_row_the_orm_writes_value_for_value(cast):
    user = get_user_model().objects.create(username="writer")
    mine, orms = entry(event=cast.event, user=user), entry(event=cast.event, user=user)
    Insert(AuditEntry).save(mine)
    AuditEntry.objects.bulk_create([orms])  # the ORM's own INSERT, beside it
    assert mine.pk is not None and not mine._state.adding and mine._state.db == "default"
    assert {**stored(AuditEntry, mine.pk), "id": None} == {**stored(AuditEntry, orms.pk), "id": None}
    assert AuditEntry.objects.get(pk=mine.pk).new == {"details": {"chips": {"5": 4}}, "signed": ["Rita"]}


def newcomers(cast, n: int) -> list[Person]:
    return [
        Person.objects.create(event=cast.event, code=f"new{i}", name=f"Newcomer {i}", born_on="1990-01-01")
        for i in range(n)
    ]


def test_several_rows_get_their_keys_back_in_order_in_one_statement(cast):
    people = newcomers(cast, 3)
    rows = [Assignment(person=person, role=role) for person, role in zip(people, Role.values, strict=False)]
    with CaptureQueriesContext(connection) as written:
        Insert(Assignment).save_all(rows)
    assert len(written.captured_queries) == 1
    assert [(a.person_id, a.role) for a in rows] == [
        Assignment.objects.filter(pk=a.pk).values_list("person_id", "role").get() for a in rows
    ]
    # The same shape again: the statement compiled once, a row of its own each time.
    again = [Assignment(person=person, role=Role.AUDITOR) for person in people]
    Insert(Assignment).save_all(again)
    assert len({a.pk for a in rows + again}) == 6


def test_a_row_given_its_key_keeps_it_and_rows_of_both_kinds_are_refused_together(cast):
    [person] = newcomers(cast, 1)
    key = Assignment.objects.order_by("-pk").values_list("pk", flat=True).first() + 100
    given = Assignment(pk=key, person=person, role=Role.AUDITOR)
    Insert(Assignment).save(given)
    assert Assignment.objects.get(pk=key).role == Role.AUDITOR
    with pytest.raises(ValueError):
        Insert(Assignment).save_all(
            [Assignment(pk=key + 1, person=person, role=Role.DEALER), Assignment(person=person)]
        )
    Insert(Assignment).save_all([])  # nothing to write: nothing asked


def test_a_relation_set_before_its_row_was_saved_takes_its_key(cast):
    person = Person(event=cast.event, code="late", name="Late Comer", born_on="1990-01-01")
    assignment = Assignment(person=person, role=Role.DEALER)
    person.save()
    Insert(Assignment).save(assignment)
    assert Assignment.objects.get(pk=assignment.pk).person_id == person.pk


def test_a_slip_at_the_window_writes_its_rows_through_them(cast):
    stock(cast)
    signed = cast.signed(issued_by="chip_cashier", received_by="dealer")
    slip = services.table_issue(day=cast.day, table=cast.bj, chips={"1": 10, "5": 20}, signed=signed)
    assert Slip.objects.get(pk=slip.pk).created_at is not None  # set as the ORM's auto_now_add sets it
    assert sorted(Posting.objects.filter(slip=slip).values_list("amount", flat=True)) == [-10000, -1000, 1000, 10000]
    assert sorted(Signature.objects.filter(slip=slip).values_list("capacity", flat=True)) == [
        "issued_by",
        "received_by",
    ]
    assert AuditEntry.objects.filter(slip=slip).count() == 1
