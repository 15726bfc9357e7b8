"""Chips go only to the day's rostered runners (T&C 2.1.2: the Chip Cashier supervises the chip and
table runners; T&C 3.4.2: players buy chips from the Chip Cashier or those runners). Once a gaming
day's roster lists its runners, a runner issue, a fill or credit carried by a runner, and a
runner's sale are refused for a runner not on it; what a runner hands back is always taken. The services refuse, so
the cage's form and the records importer say the same."""

import datetime
import io
import json
import uuid

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from cage import services
from cage.models import Slip
from core.rules import RuleViolation
from events import services as event_services
from events.models import Role
from tests.cage.helpers import open_table, stock
from tests.conftest import DAY, EXAMPLES, PASSWORD, PIN
from tests.refusals import refuses

pytestmark = pytest.mark.django_db

RULE = "T&C 2.1.2, 3.4.2"


def at(hour):
    return timezone.make_aware(datetime.datetime.combine(DAY, datetime.time(hour)))


@pytest.fixture
def rostered(cast):
    """The day's roster: the three designated persons, a dealer and one runner (not runner2)."""
    for persona, role in (
        ("dric", Role.DRIC),
        ("general_cashier", Role.GENERAL_CASHIER),
        ("chip_cashier", Role.CHIP_CASHIER),
        ("dealer", Role.DEALER),
        ("runner", Role.RUNNER),
    ):
        event_services.shift_add(
            day=cast.day, person=getattr(cast, persona), role=role, starts_at=at(11), ends_at=at(23)
        )
    stock(cast)
    return cast


def issue(cast, persona):
    return services.runner_issue(
        day=cast.day,
        runner=getattr(cast, persona),
        chips={"5": 10},
        signed=cast.signed(issued_by="chip_cashier", received_by=persona),
    )


def test_a_runner_issue_to_a_runner_not_on_the_roster_is_refused_and_writes_nothing(rostered):
    cast = rostered
    with pytest.raises(RuleViolation) as refused:
        issue(cast, "runner2")
    assert refused.value.rule == RULE
    assert str(refused.value).startswith(f"Runner2 is not on the roster of {DAY.isoformat()} as a runner:")
    assert not Slip.objects.filter(slip_type="runner_issue").exists()
    issue(cast, "runner")  # the rostered runner takes them


def test_a_fill_carried_by_or_a_sale_by_a_runner_not_on_the_roster_is_refused(rostered):
    cast = rostered
    open_table(cast)
    with refuses("roster.runner_not_rostered", name="Runner2") as refused:
        services.fill(
            day=cast.day,
            table=cast.bj,
            chips={"5": 4},
            runner=cast.runner2,
            signed=cast.signed(issued_by="chip_cashier", carried_by="runner2"),
            allow_pending=True,
        )
    assert refused.value.rule == RULE
    with refuses("roster.runner_not_rostered", name="Runner2"):
        services.credit(day=cast.day, table=cast.bj, chips={"1": 2}, runner=cast.runner2, signed={}, allow_pending=True)
    with refuses("roster.runner_not_rostered", name="Runner2"):
        services.sale(
            day=cast.day,
            chips={"5": 1},
            cash=500,
            runner=cast.runner2,
            signed=cast.signed(sold_by="runner2", authorized_by="dric"),
        )
    assert not Slip.objects.filter(slip_type__in=["fill", "credit", "sale"]).exists()


def test_a_runner_taken_off_the_roster_still_hands_back_what_they_hold(cast):
    stock(cast)
    issue(cast, "runner2")  # no runner on the roster yet: the day's runners are not rostered here
    event_services.shift_add(day=cast.day, person=cast.dric, role=Role.DRIC, starts_at=at(11), ends_at=at(23))
    issue(cast, "runner2")  # a roster of the designated positions only says nothing of the runners
    event_services.shift_add(day=cast.day, person=cast.runner, role=Role.RUNNER, starts_at=at(11), ends_at=at(23))
    with refuses("roster.runner_not_rostered", name="Runner2"):
        issue(cast, "runner2")
    services.runner_return(
        day=cast.day,
        runner=cast.runner2,
        chips={"5": 20},
        cash=0,
        signed=cast.signed(returned_by="runner2", received_by="chip_cashier"),
    )
    assert Slip.objects.filter(slip_type="runner_return", runner=cast.runner2).exists()


def test_a_runner_rostered_in_another_role_only_is_refused(rostered):
    cast = rostered
    event_services.role_assign(person=cast.runner2, role=Role.DEALER, by=None)
    event_services.shift_add(day=cast.day, person=cast.runner2, role=Role.DEALER, starts_at=at(11), ends_at=at(23))
    with refuses("roster.runner_not_rostered"):
        issue(cast, "runner2")


def test_the_cage_form_shows_the_rule_and_records_nothing(client, rostered):
    cast = rostered
    assert client.login(username=cast.chip_cashier.user.username, password=PASSWORD)
    data = {
        "request_key": uuid.uuid4().hex,
        "runner": cast.runner2.pk,
        "chips_5": "10",
        "sign_issued_by": cast.chip_cashier.pk,
        "sign_received_by": cast.runner2.pk,
        "pin_received_by": PIN,
    }
    response = client.post(reverse("cage:slip_new", args=[cast.event.slug, "runner_issue"]), data)
    page = response.content.decode()
    assert response.status_code == 200 and "Runner2 is not on the roster of 2026-09-11 as a runner" in page
    assert "(T&amp;C 2.1.2, 3.4.2)" in page
    assert not Slip.objects.filter(slip_type="runner_issue").exists()


def test_the_importer_refuses_a_runner_issue_to_a_runner_not_on_the_days_roster(tmp_path):
    data = json.loads((EXAMPLES / "lakeside-one-day.json").read_text())
    day = data["days"][0]
    # A roster for the day that leaves Rita out: her runner issue, sale and return are in the records.
    # The designated persons on duty until after the close (T&C 2: they sign only while on duty).
    day["shifts"] = [
        {"person": code, "role": role, "starts_at": "2026-09-11T10:00", "ends_at": ends}
        for code, role, ends in (
            ("ann", "dric", "2026-09-12T01:00"),
            ("gus", "general_cashier", "2026-09-12T01:00"),
            ("cora", "chip_cashier", "2026-09-12T01:00"),
            ("ron", "runner", "2026-09-11T23:30"),
        )
    ]
    path = tmp_path / "records.json"
    path.write_text(json.dumps(data))
    err = io.StringIO()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_records", str(path), stderr=err, stdout=io.StringIO())
    problems = err.getvalue()
    assert "(2026-09-11, runner_issue): Rita Okafor is not on the roster of 2026-09-11 as a runner" in problems
    assert f"({RULE})" in problems
    # With Rita on the roster, the same file imports; the worked example itself has no roster and
    # imports as it always has (tests/cage/test_import_records.py).
    day["shifts"].append(
        {"person": "rita", "role": "runner", "starts_at": "2026-09-11T10:00", "ends_at": "2026-09-11T23:30"}
    )
    path.write_text(json.dumps(data))
    call_command("import_records", str(path), stdout=io.StringIO())
    assert Slip.objects.filter(slip_type="runner_issue").count() == 1
