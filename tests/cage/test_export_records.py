"""export_records writes an event back out as a cage-records/1 file; importing that file into an
empty database gives the same event: the same report, and every slip with the same serial, times,
figures, signatures and movements. Also the way an event moves from SQLite to PostgreSQL."""

import copy
import datetime
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cage import services
from cage.exporter import export_event
from cage.importer import ImportFailed, import_records
from events import services as event_services
from events.models import Event, GamingDay
from tests.cage.helpers import stock
from tests.cage.round_trip import add_window_work, state
from tests.cage.test_import_fuzz import junk, paths
from tests.conftest import EXAMPLES
from tests.databases import fresh_postgres, manage, sqlite_url
from tests.records_generator import generated_event

pytestmark = pytest.mark.django_db


def export(slug, path) -> dict:
    call_command("export_records", slug, "--out", str(path), stderr=io.StringIO())
    return json.loads(path.read_text(encoding="utf-8"))


def state_in_fresh_database(url: str, path, slug: str) -> dict:
    manage(url, "migrate", "-v0")
    manage(url, "import_records", str(path))
    return printed_state(url, slug)


def printed_state(url: str, slug: str) -> dict:
    out = manage(url, "shell", "-c", f"from tests.cage.round_trip import print_state; print_state({slug!r})")
    return json.loads(out.strip().splitlines()[-1])


def generated_with_window_work(seed=5) -> Event:
    data = generated_event(seed=seed, days=3, records_per_day=40, leave_last_day_open=True)
    data["event"]["last_day"] = "2026-09-16"
    data["event"]["chip_colours"] = {"0.50": "pink", "1": "white", "5": "red", "25": "green", "100": "black"}
    event = import_records(data)
    add_window_work(event.slug)
    return event


def test_the_worked_example_comes_back_the_same_in_an_empty_database(tmp_path):
    event = import_records(json.loads((EXAMPLES / "lakeside-one-day.json").read_text()))
    before = json.loads(json.dumps(state(event)))
    export(event.slug, tmp_path / "out.json")
    after = state_in_fresh_database(sqlite_url(tmp_path), tmp_path / "out.json", event.slug)
    assert after["report"] == json.loads((EXAMPLES / "lakeside-one-day.report.json").read_text())
    assert after == before


def test_a_generated_event_and_the_cage_s_own_work_come_back_the_same(tmp_path):
    event = generated_with_window_work()
    before = json.loads(json.dumps(state(event)))
    data = export(event.slug, tmp_path / "out.json")
    records = [r for day in data["days"] for r in day["records"]]
    # Every record type, and the extensions the window's work needs, are in the file.
    assert {r["type"] for r in records} >= {
        "chips_received", "chips_returned", "float_in", "deposit", "table_issue", "table_return", "table_open",
        "fill", "credit", "tips", "table_close", "sale", "redemption", "runner_issue", "runner_return",
        "tip_payout", "count", "void", "expense", "close_day",
    }  # fmt: skip
    assert sum(1 for r in records if r.get("pending")) == 2
    assert any("signed_at" in r for r in records) and any("cash_lines" in r for r in records)
    assert [d.get("status") for d in data["days"]] == [None, None, None, "setup"]
    after = state_in_fresh_database(sqlite_url(tmp_path), tmp_path / "out.json", event.slug)
    assert after == before
    assert len(after["slips"]) == len(records) > 150


def test_an_event_moves_from_sqlite_to_postgresql(tmp_path):
    """Built on a laptop's SQLite file, exported, imported into an empty PostgreSQL database."""
    with fresh_postgres() as postgres:
        laptop = sqlite_url(tmp_path)
        generated = tmp_path / "generated.json"
        data = generated_event(seed=11, days=2, records_per_day=40, leave_last_day_open=True)
        data["event"]["last_day"] = "2026-09-13"  # the day the cage schedules next
        generated.write_text(json.dumps(data))
        manage(laptop, "migrate", "-v0")
        manage(laptop, "import_records", str(generated))
        manage(laptop, "shell", "-c", "from tests.cage.round_trip import add_window_work as w; w('generated-fair')")
        before = printed_state(laptop, "generated-fair")
        manage(laptop, "export_records", "generated-fair", "--out", str(tmp_path / "moved.json"))
        after = state_in_fresh_database(postgres, tmp_path / "moved.json", "generated-fair")
        assert after["report"] == before["report"]
        assert after == before


def test_a_reconciling_day_and_a_later_registration_come_back(cast, tmp_path):
    stock(cast)
    event_services.day_add(event=cast.event, date=cast.day.date + datetime.timedelta(days=1))
    services.day_reconcile(day=cast.day)
    event_services.registration_change(person=cast.runner2, registration="revoked")
    data = export_event(cast.event)
    assert data["days"][0]["status"] == "reconciling" and data["days"][1]["status"] == "setup"
    runner2 = next(p for p in data["people"] if p["id"] == "runner2")
    assert runner2["registration"] == "good" and runner2["registration_changed_to"] == "revoked"
    data["event"]["slug"] = "lakeside-again"
    again = import_records(data)
    assert [d.status for d in again.days.all()] == [GamingDay.Status.RECONCILING, GamingDay.Status.SETUP]
    assert again.people.get(code="runner2").registration == "revoked"
    assert [d.colour for d in again.denominations.all()] == ["white", "red", "green"]


def exported_example() -> dict:
    event = import_records(json.loads((EXAMPLES / "lakeside-one-day.json").read_text()))
    data = export_event(event)
    data["event"]["slug"] = "lakeside-again"
    return data


def refused(data) -> list[str]:
    with pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert not Event.objects.filter(slug="lakeside-again").exists()
    return failed.value.problems


def record(data, kind, n=0):
    return [r for r in data["days"][0]["records"] if r["type"] == kind][n]


def test_bad_extensions_are_refused_naming_the_rule():
    data = exported_example()
    sale = record(data, "sale")
    sale["signed_at"] = {"authorized_by": "2026-09-11T09:00"}
    count = record(data, "count")
    count["cash_lines"] = [{"unit": "20.00", "count": 3}]
    count_two = record(data, "count", 1)
    count_two["variance_reason"] = "the dog ate it"
    data["days"][0]["status"] = "finished"
    assert refused(copy.deepcopy(data)) == [
        "days[0].status: 'finished' is not one of reconciling, setup",
    ]
    data["days"][0].pop("status")
    problems = refused(data)
    assert any(
        "record 9 (2026-09-11, sale): Authorized by is signed at 2026-09-11 09:00, before the slip was written "
        "(slips and signatures)" in p
        for p in problems
    ), problems
    assert any(
        "count): cash_lines: the bills and coins do not add up to the cash counted (count)" in p for p in problems
    ), problems
    assert any("variance_reason: 'the dog ate it' is not one of miscount" in p for p in problems), problems


def test_a_day_still_in_setup_takes_no_records():
    data = exported_example()
    data["days"][0]["status"] = "setup"
    assert refused(data) == ["days[0].records: a day still in setup has no records (gaming day)"]


def test_export_of_an_unknown_event_is_refused():
    with pytest.raises(CommandError, match="no event 'nope'"):
        call_command("export_records", "nope")


def test_the_file_goes_to_standard_output_without_out():
    import_records(json.loads((EXAMPLES / "lakeside-one-day.json").read_text()))
    out = io.StringIO()
    call_command("export_records", "lakeside-fair-2026", stdout=out)
    data = json.loads(out.getvalue())
    assert data["format"] == "cage-records/1" and len(data["days"][0]["records"]) == 30


def extended_example() -> dict:
    """The worked example with every extension export_records writes."""
    data = json.loads((EXAMPLES / "lakeside-one-day.json").read_text())
    data["event"].update(
        first_day="2026-09-11",
        last_day="2026-09-12",
        supplier_registration_number="GS-44120",
        licensee_address="12 Fairground Road, Lakeside, ON",
        licensee_charitable_number="10747 1234 RR0001",
        chip_colours={"1": "white", "5": "red", "25": "green"},
    )
    data["people"][3]["registration_changed_to"] = "suspended"
    data["people"].append(
        {
            "id": "audrey",
            "name": "Audrey Fortin",
            "born_on": "1972-05-09",
            "roles": ["auditor"],
            "identification": "card",
        }
    )
    day = data["days"][0]
    day.update(opens_at="12:00", closes_at="23:00")
    day["shifts"] = [
        {"person": p, "role": r, "starts_at": "2026-09-11T10:00", "ends_at": "2026-09-12T01:00"}
        for p, r in (("ann", "dric"), ("gus", "general_cashier"), ("cora", "chip_cashier"))
    ]
    next(r for r in day["records"] if r["type"] == "sale")["signed_at"] = {"authorized_by": "2026-09-11T12:15:30.5"}
    bank = next(r for r in day["records"] if r["type"] == "count" and r["account"] == "bank_cash")
    bank["cash_lines"] = [{"unit": u, "count": 1} for u in ("100.00", "50.00", "20.00", "10.00")]
    next(r for r in day["records"] if r.get("account") == "chip_bank")["variance_reason"] = "missing_chips"
    data["days"].append(
        {"date": "2026-09-12", "status": "setup", "opens_at": "12:00", "closes_at": "23:00", "records": []}
    )
    return data


def test_every_extension_imports_and_the_figures_are_the_worked_example_s():
    event = import_records(extended_example())
    report = state(event)["report"]
    expected = json.loads((EXAMPLES / "lakeside-one-day.report.json").read_text())
    assert report["tables"] == expected["tables"] and report["event_totals"] == expected["event_totals"]
    assert [d.status for d in event.days.all()] == [GamingDay.Status.CLOSED, GamingDay.Status.SETUP]
    assert event.people.get(code="rita").registration == "suspended"
    assert event.days.first().shifts.count() == 3
    exported = export_event(event)
    assert exported["days"][0]["shifts"] == [
        {"person": p, "role": r, "starts_at": "2026-09-11T10:00:00", "ends_at": "2026-09-12T01:00:00"}
        for p, r in (("ann", "dric"), ("gus", "general_cashier"), ("cora", "chip_cashier"))
    ]
    bank = next(r for r in exported["days"][0]["records"] if r.get("account") == "bank_cash")
    assert bank["cash_lines"] == [{"unit": u, "count": 1} for u in ("100.00", "50.00", "20.00", "10.00")]
    sale = next(r for r in exported["days"][0]["records"] if r["type"] == "sale")
    assert sale["signed_at"] == {"authorized_by": "2026-09-11T12:15:30.500000"}


EXTENDED = extended_example()
EXTENDED_PATHS = [p for p in paths(EXTENDED) if p]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(damage=st.lists(st.tuples(st.sampled_from(EXTENDED_PATHS), junk, st.booleans()), min_size=1, max_size=3))
def test_damaged_extensions_are_imported_or_refused_never_crash(damage):
    data = copy.deepcopy(EXTENDED)
    for path, value, delete in damage:
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            if delete and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    with transaction.atomic():
        try:
            import_records(data)
        except ImportFailed as failed:
            assert failed.problems and all(isinstance(line, str) and line for line in failed.problems)
            assert not Event.objects.exists()
        transaction.set_rollback(True)


def test_a_variance_reason_that_is_no_word_is_refused_not_a_crash():
    data = exported_example()
    record(data, "count")["variance_reason"] = []
    assert any("variance_reason: [] is not one of miscount" in p for p in refused(data))


def test_a_days_status_that_is_no_word_is_refused_not_a_crash():
    """Found by the property test above: a day's status of [] was looked up among the statuses,
    which a list cannot be."""
    data = copy.deepcopy(EXTENDED)
    data["days"][1]["status"] = []
    assert any("days[1].status: [] is not one of reconciling, setup" in p for p in refused(data))


def test_a_slug_holding_half_a_character_is_refused_before_the_database_is_asked():
    """Found by the property test above on PostgreSQL: the check for an event of the same slug
    asked the database about "\\ud800", which PostgreSQL cannot be sent; the file's own checks now
    refuse it first, on both databases."""
    data = copy.deepcopy(EXTENDED)
    data["event"]["slug"] = "\ud800"
    with pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert any("half of a character" in problem for problem in failed.value.problems)
    assert not Event.objects.exists()
