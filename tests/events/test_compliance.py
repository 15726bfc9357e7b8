"""The compliance page's checks, each with its section."""

import datetime

import pytest

from events.compliance import event_compliance
from events.models import Person
from tests.conftest import add_person, make_cast

pytestmark = pytest.mark.django_db


def checks_by_rule(event):
    return {(c.section, c.rule): c for c in event_compliance(event)}


def test_a_well_staffed_event_holds_every_rule_except_unscheduled_hours():
    cast = make_cast()
    checks = event_compliance(cast.event)
    assert all(c.holds for c in checks if c.holds is not None)
    assert [c.problems for c in checks if c.holds is None] == [["No opening hours scheduled"]]


def test_a_registration_revoked_after_setup_is_flagged():
    cast = make_cast()
    Person.objects.filter(pk=cast.runner.pk).update(registration="revoked")
    check = checks_by_rule(cast.event)[
        ("T&C 2.3", "Nobody whose registration was refused, revoked or suspended takes part")
    ]
    assert check.holds is False and check.problems == ["Runner: registration revoked"]


def test_a_roster_gap_is_listed_on_the_compliance_page():
    cast = make_cast(open_day=False)
    cast.day.opens_at, cast.day.closes_at = datetime.time(12), datetime.time(13)
    cast.day.save()
    check = [c for c in event_compliance(cast.event) if "present continuously" in c.rule][0]
    assert check.holds is False
    assert len(check.problems) == 3 and check.problems[0].startswith("Designated Representative in Charge: nobody")


def test_a_supplier_dealer_without_a_number_is_flagged_when_data_changes_behind_the_rules():
    cast = make_cast()
    person = add_person(cast.event, "sam", "dealer", supplier_associated=True, gaming_assistant_number="GA-1")
    Person.objects.filter(pk=person.pk).update(gaming_assistant_number="")
    check = [c for c in event_compliance(cast.event) if c.section == "T&C 4.2"][0]
    assert check.holds is False and "Sam" in check.problems[0]
