"""import_records: the worked example, and each refusal the format lists, all or nothing."""

import copy
import io
import json

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

from cage.importer import ImportFailed, import_records
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.django_db

EXAMPLE = json.loads((EXAMPLES / "lakeside-one-day.json").read_text())


def example():
    return copy.deepcopy(EXAMPLE)


def records(data):
    return data["days"][0]["records"]


def row_counts():
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label in ("events", "cage", "auth")
    }


def refused(data, tmp_path) -> list[str]:
    """Import through the command; it must fail, print one line per problem and change nothing."""
    before = row_counts()
    path = tmp_path / "records.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    err = io.StringIO()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_records", str(path), stderr=err, stdout=io.StringIO())
    assert row_counts() == before
    lines = err.getvalue().strip().splitlines()
    assert lines and not any("Traceback" in line for line in lines)
    return lines


def test_the_example_imports_and_reports_as_worked_by_hand(tmp_path):
    out = io.StringIO()
    call_command("import_records", str(EXAMPLES / "lakeside-one-day.json"), stdout=out)
    assert "Imported lakeside-fair-2026: 1 day(s), 30 slip(s)." in out.getvalue()
    report = tmp_path / "report.json"
    call_command("event_report", "lakeside-fair-2026", "--format", "json", "--out", str(report))
    assert json.loads(report.read_text()) == json.loads((EXAMPLES / "lakeside-one-day.report.json").read_text())


def test_a_table_id_the_window_would_not_take_imports_as_the_format_allows(tmp_path):
    # The format names a table by any id; the window's rule on a code's characters (letters,
    # digits, hyphens) is the window's own, so a file with "BJ 1" still imports and reports.
    data = json.loads(json.dumps(example()).replace('"BJ-1"', '"BJ 1"'))
    event = import_records(data)
    assert "BJ 1" in {t.code for t in event.tables.all()}
    report = tmp_path / "report.json"
    call_command("event_report", event.slug, "--format", "json", "--out", str(report))
    expected = (EXAMPLES / "lakeside-one-day.report.json").read_text().replace('"BJ-1"', '"BJ 1"')
    assert json.loads(report.read_text())["tables"] == json.loads(expected)["tables"]


def test_the_report_goes_to_standard_output_without_out():
    import_records(example())
    out = io.StringIO()
    call_command("event_report", "lakeside-fair-2026", stdout=out)
    assert json.loads(out.getvalue())["event_totals"]["net_proceeds"] == "95.00"


def test_importing_the_same_event_twice_is_refused(tmp_path):
    import_records(example())
    assert refused(example(), tmp_path) == [
        "event.slug: an event 'lakeside-fair-2026' already exists; importing it again is refused (cage-records/1)"
    ]


def test_a_file_that_is_not_json_is_refused(tmp_path):
    assert refused("{not json", tmp_path)[0].startswith("file: not JSON")


def test_a_file_of_another_format_is_refused(tmp_path):
    data = example()
    data["format"] = "cage-records/2"
    assert refused(data, tmp_path) == ["format: must be 'cage-records/1', not 'cage-records/2' (cage-records/1)"]


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(CommandError):
        call_command("import_records", str(tmp_path / "nope.json"), stderr=io.StringIO())


def test_a_table_of_a_game_the_licence_does_not_authorize_is_refused(tmp_path):
    data = example()
    data["tables"].append({"id": "CR-1", "game": "craps"})
    lines = refused(data, tmp_path)
    assert lines == [
        "tables[3].game: The licence does not authorize Craps; a table can only be set up for Blackjack, Wheel of Fortune (T&C 1.5.1)"
    ]


def test_people_breaking_the_staffing_rules_are_refused_naming_the_field(tmp_path):
    data = example()
    data["people"][3]["born_on"] = "2010-01-01"  # rita, a runner, is 16
    data["people"][4]["registration"] = "revoked"  # ron
    data["people"][2]["supplier_associated"] = True  # cora, the chip cashier
    lines = refused(data, tmp_path)
    assert (
        "people[3].born_on: Rita Okafor is 16 on the event's first day; nobody under 18 may operate or supervise a game (T&C 1.5.2)"
        in lines
    )
    assert (
        "people[4].registration: Ron Gagnon's registration was revoked; such a person may not take part (T&C 2.3)"
        in lines
    )
    assert any(
        line.startswith("people[2].role: Cora Singh is associated with the registered supplier") for line in lines
    )
    assert "people: nobody holds the position of Chip Cashier (T&C 2)" in lines


def test_a_person_holding_two_positions_is_refused(tmp_path):
    data = example()
    data["people"][1]["roles"] = ["general_cashier", "chip_cashier"]
    assert any("each designated person holds one position (T&C 2)" in line for line in refused(data, tmp_path))


@pytest.mark.parametrize(
    "index,change,expected",
    [
        (
            9,
            {"currency": "USD"},
            "record 9 (2026-09-11, sale): USD refused: chips are bought and redeemed for Canadian currency only (T&C 3.6)",
        ),
        (
            9,
            {"tender": "credit card"},
            "record 9 (2026-09-11, sale): payment by credit card refused: no credit of any kind, debit or credit cards or cheques (T&C 3.7)",
        ),
        (
            9,
            {"cash": "1499.00"},
            "record 9 (2026-09-11, sale): a sale of $1,500.00 in chips for $1,499.00 cash would give $1.00 of chips on credit: no credit of any kind is extended for gaming (T&C 3.7)",
        ),
        (
            9,
            {"chips": {"100": 15}},
            "record 9 (2026-09-11, sale): the event has no $100 chip; its chips are $1, $5, $25 (T&C 3.4.3)",
        ),
        (
            9,
            {"type": "raffle"},
            "record 9 (2026-09-11, raffle): unknown record type 'raffle' (cage-records/1: record types)",
        ),
        (
            9,
            {"signed": {"sold_by": "gus", "authorized_by": "ann"}},
            "record 9 (2026-09-11, sale): Sold by must be signed by the Chip Cashier; Gus Tremblay does not hold that role (T&C 3.4.2)",
        ),
        (
            9,
            {"signed": {"sold_by": "cora", "authorized_by": "cora"}},
            "record 9 (2026-09-11, sale): Cora Singh cannot sign both sold by and authorized by; one person never signs two capacities of a slip (T&C 2)",
        ),
        (
            9,
            {"signed": {"sold_by": "cora"}},
            "record 9 (2026-09-11, sale): a chip sale slip needs authorized by signed (slips and signatures: every capacity signs)",
        ),
        (
            9,
            {"signed": {"sold_by": "zed", "authorized_by": "ann"}},
            "record 9 (2026-09-11, sale): no person with id 'zed' in people (cage-records/1)",
        ),
        (
            9,
            {"at": "2026-09-11T11:00"},
            "record 9 (2026-09-11, sale): 2026-09-11 11:00 is earlier than the last slip (2026-09-11 11:57); slips are recorded in order (cage-records/1: at never earlier than the record before)",
        ),
        (
            11,
            {"signed": {"sold_by": "ron", "authorized_by": "ann"}},
            "record 11 (2026-09-11, sale): Sold by must be signed by the runner named on the slip, Rita Okafor (T&C 2.1.2)",
        ),
        (
            6,
            {"chips": {"1": 100, "5": 79}},
            "record 6 (2026-09-11, table_open): the opener differs from table BJ-1's tray by -$5.00 in $5 chips (1 chip short); a variance needs a reason (variances explained and signed)",
        ),
        (3, {"table": "BJ-9"}, "record 3 (2026-09-11, table_issue): no table 'BJ-9' (cage-records/1: tables)"),
        (
            3,
            {"chips": {"1": 100, "5": 80, "25": 41}},
            "record 3 (2026-09-11, table_issue): chip bank holds $1,000.00 in $25 chips, not the $1,025.00 this table issue takes out (custody: no account pays out what it does not hold)",
        ),
        (
            26,
            {"cash": "179.00"},
            "record 26 (2026-09-11, count): the count of bank cash differs from the books by -$1.00 in cash (short); a variance needs a reason (nightly reconciliation: every variance explained and signed)",
        ),
    ],
)
def test_a_record_breaking_a_rule_is_refused_with_its_number_day_type_and_rule(tmp_path, index, change, expected):
    data = example()
    records(data)[index - 1].update(change)
    assert expected in refused(data, tmp_path)


def test_a_fill_to_a_closed_table_is_refused(tmp_path):
    data = example()
    records(data).insert(
        3,
        {
            "type": "fill",
            "at": "2026-09-11T10:20",
            "table": "BJ-1",
            "chips": {"5": 1},
            "signed": {"issued_by": "cora", "carried_by": "ron", "received_by": "dana", "authorized_by": "ann"},
        },
    )
    assert "record 4 (2026-09-11, fill): table BJ-1 is closed; a fill needs it open (table state)" in refused(
        data, tmp_path
    )


def test_a_void_of_an_unknown_ref_is_refused(tmp_path):
    data = example()
    records(data)[13]["void"] = "no-such-ref"
    assert "record 14 (2026-09-11, void): void: no earlier record has ref 'no-such-ref' (cage-records/1)" in refused(
        data, tmp_path
    )


def test_a_redemption_larger_than_bank_cash_is_refused(tmp_path):
    data = example()
    records(data)[22].update({"chips": {"25": 140}, "cash": "3500.00"})
    lines = refused(data, tmp_path)
    assert lines[0] == (
        "record 23 (2026-09-11, redemption): bank cash holds $3,000.00 in cash, not the $3,500.00 this redemption "
        "takes out (custody: no account pays out what it does not hold)"
    )


def test_closing_a_day_with_an_open_table_is_refused(tmp_path):
    data = example()
    del records(data)[19]  # BJ-1's closer
    lines = refused(data, tmp_path)
    assert any(
        line.startswith("record 29 (2026-09-11, close_day): the day cannot close: tables still open: BJ-1")
        for line in lines
    )


def test_a_record_in_a_day_after_a_day_never_closed_is_refused(tmp_path):
    data = example()
    closing = records(data).pop()
    data["days"].append({"date": "2026-09-12", "records": [dict(closing, at="2026-09-12T23:00")]})
    lines = refused(data, tmp_path)
    assert "days[1].date: The gaming day 2026-09-11 is not closed yet (gaming day)" in lines


def test_a_record_in_a_closed_day_is_refused(tmp_path):
    data = example()
    records(data).append(
        {
            "type": "float_in",
            "at": "2026-09-12T00:10",
            "cash": "5.00",
            "signed": {"received_by": "gus", "witnessed_by": "ann"},
        }
    )
    assert (
        "record 31 (2026-09-11, float_in): the gaming day 2026-09-11 is closed and locked (gaming day: a closed day takes no posting)"
        in refused(data, tmp_path)
    )


def test_the_last_day_may_stay_open_and_the_report_shows_what_closed(tmp_path):
    data = example()
    del records(data)[19:]  # from BJ-1's closer on
    event = import_records(data)
    from reports.figures import event_figures

    report = event_figures(event)
    assert report["tables"] == []
    assert report["games"] == [
        {"date": "2026-09-11", "game": "blackjack", "win": "0.00"},
        {"date": "2026-09-11", "game": "wheel_of_fortune", "win": "0.00"},
    ]
    assert event.days.get().status == "open"


def test_every_problem_is_listed_not_only_the_first(tmp_path):
    data = example()
    records(data)[8]["currency"] = "EUR"
    records(data)[11]["tender"] = "cheque"
    lines = refused(data, tmp_path)
    assert lines[0].startswith("record 9 ") and lines[1].startswith("record 12 ")


def test_an_import_failure_leaves_the_database_as_it_was():
    before = row_counts()
    data = example()
    records(data)[-1]["signed"]["approved_by"] = "gus"
    with pytest.raises(ImportFailed):
        import_records(data)
    assert row_counts() == before


def test_a_ref_used_twice_is_refused(tmp_path):
    data = example()
    records(data)[14]["ref"] = "fill-wrong-table"
    assert (
        "record 15 (2026-09-11, fill): ref 'fill-wrong-table' must be a string unique in the file (cage-records/1)"
        in refused(data, tmp_path)
    )


def test_a_second_day_in_the_wrong_order_is_refused(tmp_path):
    data = example()
    data["days"].insert(0, {"date": "2026-09-12", "records": []})
    lines = refused(data, tmp_path)
    assert "days[1].date: days must be in date order, 2026-09-11 comes after 2026-09-12 (cage-records/1)" in lines


def test_a_void_of_a_fill_whose_table_has_closed_is_refused(tmp_path):
    data = example()
    void = records(data).pop(13)
    records(data).insert(21, dict(void, at="2026-09-11T23:01"))  # after BJ-2's closer
    assert any(
        line.startswith("record 22 (2026-09-11, void): table BJ-2 has closed; its fills and credits stand")
        for line in refused(data, tmp_path)
    )


def test_a_count_of_a_runner_who_holds_nothing_posts_no_variance():
    data = example()
    records(data).insert(
        -1,
        {
            "type": "count",
            "at": "2026-09-11T23:58",
            "account": "rita",
            "cash": "0.00",
            "chips": {},
            "signed": {"counted_by": "gus", "verified_by": "cora"},
        },
    )
    event = import_records(data)
    assert event.slips.filter(slip_type="count", account__code="runner:rita").get().postings.count() == 0


@pytest.mark.parametrize(
    "cash", ["1,780.00", "1780.001", "-1780.00", "1e3", "+180", " 180", "10000000.01", "99999999999999999999"]
)
def test_cash_not_written_as_the_format_says_is_refused(tmp_path, cash):
    data = example()
    records(data)[22]["cash"] = cash  # the redemption
    problems = refused(data, tmp_path)
    assert any(
        p.startswith("record 23 (2026-09-11, redemption): cash:") and "(cage-records/1: amounts)" in p for p in problems
    )


def test_a_count_of_chips_beyond_the_bound_is_refused_without_a_traceback(tmp_path):
    data = example()
    records(data)[0]["chips"]["1"] = 10**30
    problems = refused(data, tmp_path)
    assert any(
        "record 1 (2026-09-11, chips_received): $1 chips:" in p and "cage-records/1: amounts" in p for p in problems
    )


def test_a_redemption_of_chips_nobody_bought_is_refused_once_every_table_is_closed(tmp_path):
    data = example()
    records(data)[22]["chips"]["25"] = 21  # one more $25 chip than patrons bought
    records(data)[22]["cash"] = "1805.00"
    problems = refused(data, tmp_path)
    assert any(
        p.startswith(
            "record 23 (2026-09-11, redemption): after this redemption every table is closed and patrons would hold -1 $25 chips"
        )
        and p.endswith("(T&C 3.4.3)")
        for p in problems
    )
