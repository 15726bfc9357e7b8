"""A slip form's lists of who signs are read by a query compiled once (cage.forms.PersonChoice):
each choice, good or bad, comes out as the ORM's `get` makes it, the same person or the same
refusal; a list narrowed after it was built (a runner's own sales, a handover's holders) is still
read by the ORM, through its narrowing."""

import pytest
from django import forms
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cage.forms import PersonChoice, people_with
from events.models import Person, Role
from tests.conftest import add_person, make_cast

pytestmark = pytest.mark.django_db

ROLES = (Role.RUNNER, Role.CHIP_CASHIER)


def orm_choice(queryset):
    """The same list as Django's own field reads it, a `get` built by the ORM for each choice."""
    return forms.ModelChoiceField(queryset=queryset)


def outcome(field, value):
    try:
        person = field.clean(value)
    except forms.ValidationError as refused:
        return ("refused", [error.code for error in refused.error_list])
    return ("chosen", person.pk, person.name, person.user_id, person.user and person.user.username)


def test_each_choice_reads_as_the_orms_get_whatever_is_sent(cast):
    other = make_cast("elsewhere")
    inactive = add_person(cast.event, "gone", Role.RUNNER)
    Person.objects.filter(pk=inactive.pk).update(registration=Person.Registration.SUSPENDED)
    compiled = PersonChoice(queryset=people_with(cast.event, ROLES))
    orm = orm_choice(people_with(cast.event, ROLES).filter(pk__isnull=False))  # narrowed: the ORM's own read
    sent = [
        cast.runner.pk,  # one of the list
        str(cast.chip_cashier.pk),
        f" {cast.runner2.pk} ",
        cast.dealer.pk,  # of the event, not holding the roles
        inactive.pk,  # not in good standing
        other.runner.pk,  # another event's
        "abc",
        "1.5",
        "-3",
        str(2**63),  # beyond any key the database holds
        "9" * 40,
        "",
        None,
    ]
    for value in sent:
        assert outcome(compiled, value) == outcome(orm, value), value
    assert outcome(compiled, cast.runner.pk)[0] == "chosen"
    assert outcome(compiled, cast.dealer.pk) == ("refused", ["invalid_choice"])
    assert outcome(compiled, "1\x00") == ("refused", ["null_characters_not_allowed"])


def test_a_choice_asks_one_query_and_its_login_comes_with_it(cast):
    field = PersonChoice(queryset=people_with(cast.event, ROLES))
    with CaptureQueriesContext(connection) as asked:
        person = field.clean(cast.runner.pk)
        assert person.user.username  # read with the person: the services check the login
    assert len(asked.captured_queries) == 1


def test_a_narrowed_list_is_read_through_its_narrowing(cast):
    # A runner selling on the floor chooses only themselves (cage.slip_fields.Runner): the list is
    # narrowed after it was built, and the other runner, a choice of the full list, is refused.
    narrowed = people_with(cast.event, [Role.RUNNER]).filter(pk=cast.runner.pk)
    field = PersonChoice(queryset=narrowed)
    assert field.clean(cast.runner.pk) == cast.runner
    with pytest.raises(forms.ValidationError):
        field.clean(cast.runner2.pk)
    left_out = PersonChoice(queryset=people_with(cast.event, [Role.RUNNER]))
    left_out.queryset = left_out.queryset.exclude(pk=cast.runner.pk)  # a handover's list, set again
    with pytest.raises(forms.ValidationError):
        left_out.clean(cast.runner.pk)
    assert left_out.clean(cast.runner2.pk) == cast.runner2
