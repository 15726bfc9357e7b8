"""The event figures (cage-report/1): definitions, ordering, and a fixed number of queries."""

import copy
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cage.importer import import_records
from reports.figures import event_figures
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.django_db
EXAMPLE = json.loads((EXAMPLES / "lakeside-one-day.json").read_text())


def two_days(slug="lakeside-fair-2026"):
    """The example, then a second day on which BJ-1 reopens from its tray and closes up $25."""
    return import_records(two_days_data(slug))


def two_days_data(slug="lakeside-fair-2026") -> dict:
    """The records of `two_days`, not yet imported."""
    data = copy.deepcopy(EXAMPLE)
    data["event"]["slug"] = slug
    day2 = [
        {
            "type": "table_open",
            "at": "2026-09-12T12:00",
            "table": "BJ-1",
            "chips": {"1": 140, "5": 136},
            "signed": {"counted_by": "dana", "verified_by": "cora"},
        },
        {
            "type": "sale",
            "at": "2026-09-12T12:05",
            "chips": {"25": 4},
            "cash": "100.00",
            "signed": {"sold_by": "cora", "authorized_by": "ann"},
        },
        {
            "type": "tips",
            "at": "2026-09-12T22:00",
            "table": "BJ-1",
            "chips": {"1": 5},
            "signed": {"counted_by": "dana", "verified_by": "cora"},
        },
        {
            "type": "table_close",
            "at": "2026-09-12T22:10",
            "table": "BJ-1",
            "chips": {"1": 145, "5": 140},
            "signed": {"counted_by": "dana", "verified_by": "cora"},
        },
        {
            "type": "tip_payout",
            "at": "2026-09-12T22:20",
            "hours": {"dana": 2.5, "dev": 0.5},
            "signed": {"paid_by": "gus", "verified_by": "cora", "authorized_by": "ann"},
        },
        {
            "type": "count",
            "at": "2026-09-12T22:30",
            "account": "bank_cash",
            "cash": "280.00",
            "reason": "five dollars over",
            "signed": {"counted_by": "gus", "verified_by": "cora"},
        },
        {
            "type": "count",
            "at": "2026-09-12T22:35",
            "account": "chip_bank",
            "chips": {"1": 823, "5": 400, "25": 36},
            "signed": {"counted_by": "gus", "verified_by": "cora"},
        },
        {
            "type": "close_day",
            "at": "2026-09-12T23:00",
            "signed": {"prepared_by": "gus", "verified_by": "cora", "approved_by": "ann"},
        },
    ]
    data["days"].append({"date": "2026-09-12", "records": day2})
    return data


def test_a_second_day_adds_its_own_rows_and_the_totals_add_up():
    report = event_figures(two_days())
    assert [(t["date"], t["table"], t["win"]) for t in report["tables"]][-1] == ("2026-09-12", "BJ-1", "25.00")
    assert report["games"][-1] == {"date": "2026-09-12", "game": "blackjack", "win": "25.00"}
    assert [d["win"] for d in report["days"]] == ["150.00", "25.00"]
    totals = report["event_totals"]
    assert totals["win"] == "175.00" and totals["chip_sales"] == "2100.00" and totals["tips"] == "45.00"
    # chips outstanding = sales − redemptions − win − tips = 2100 − 1780 − 175 − 45
    assert totals["chips_outstanding"] == "100.00"
    assert totals["cash_over_short"] == "5.00" and totals["chip_over_short"] == "-2.00"
    # net proceeds = win + outstanding + cash over/short − expenses
    assert totals["net_proceeds"] == "195.00"


def test_tip_hours_are_written_in_their_shortest_form_and_shares_add_up():
    shares = [s for s in event_figures(two_days())["tip_shares"] if s["date"] == "2026-09-12"]
    assert shares == [
        {"date": "2026-09-12", "person": "dana", "hours": "2.5", "amount": "4.17"},
        {"date": "2026-09-12", "person": "dev", "hours": "0.5", "amount": "0.83"},
    ]


def test_variances_are_listed_in_record_order_with_their_reasons():
    variances = event_figures(two_days())["variances"]
    assert [(v["account"], v["instrument"], v["amount"], v["reason"]) for v in variances] == [
        ("chip_bank", "chips:1", "-2.00", "two $1 chips missing"),
        ("bank_cash", "cash", "5.00", "five dollars over"),
    ]


def test_a_voided_fill_counts_for_nothing():
    report = event_figures(import_records(copy.deepcopy(EXAMPLE)))
    bj2 = [t for t in report["tables"] if t["table"] == "BJ-2"][0]
    assert bj2["fills"] == "0.00"


def test_the_report_runs_a_fixed_number_of_queries_whatever_the_size():
    small = import_records(copy.deepcopy(EXAMPLE))
    with CaptureQueriesContext(connection) as one_day:
        event_figures(small)
    large = two_days("lakeside-two-days")
    with CaptureQueriesContext(connection) as two:
        event_figures(large)
    # One of them reads the deposits with their bank slips (the trust_account extension).
    assert len(one_day) == len(two) <= 5
