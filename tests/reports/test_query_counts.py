"""Every report page and export runs the same, exact number of queries for a small event and for a
larger one (issue 7): nothing is fetched per table, per day, per slip or per person."""

import copy

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cage.importer import import_records
from tests.conftest import built_once, give_login
from tests.reports.test_figures import EXAMPLE, two_days_data

pytestmark = pytest.mark.django_db

PAIRS = 12  # sales and redemptions, fills and credits, added to each day of the larger event


def busier(day: dict, start_hour: int) -> None:
    """Add PAIRS of each movement that leaves the day's figures balanced: a sale and a redemption of
    the same chips, a fill and a credit of the same chips at BJ-1, all between two existing records."""
    extra = []
    for i in range(PAIRS):
        at = f"{day['date']}T{start_hour:02d}:{i * 4:02d}"
        later = f"{day['date']}T{start_hour:02d}:{i * 4 + 1:02d}"
        extra += [
            {"type": "sale", "at": at, "chips": {"25": 4}, "cash": "100.00",
             "signed": {"sold_by": "cora", "authorized_by": "ann"}},
            {"type": "redemption", "at": later, "chips": {"25": 4}, "cash": "100.00",
             "signed": {"paid_by": "gus", "authorized_by": "ann"}},
            {"type": "fill", "at": at, "table": "BJ-1", "chips": {"5": 4},
             "signed": {"issued_by": "cora", "carried_by": "ron", "received_by": "dana", "authorized_by": "ann"}},
            {"type": "credit", "at": later, "table": "BJ-1", "chips": {"5": 4},
             "signed": {"released_by": "dana", "carried_by": "rita", "received_by": "cora", "authorized_by": "ann"}},
        ]  # fmt: skip
    records = day["records"] + extra
    day["records"] = sorted(records, key=lambda r: r["at"])  # a stable sort keeps same-minute order


def small_event():
    return import_records(copy.deepcopy(EXAMPLE))


def larger_event():
    """Two days, each with PAIRS × 4 more slips than the example's day."""
    data = two_days_data("lakeside-larger")
    busier(data["days"][0], 14)
    busier(data["days"][1], 13)
    return import_records(data)


def report_urls(event) -> dict[str, str]:
    slug = event.slug
    day = reverse("reports:day", args=[slug, "2026-09-11"])
    return {
        "report page": reverse("reports:event", args=[slug]),
        "report JSON": reverse("reports:event_json", args=[slug]),
        "report CSV": reverse("reports:event_csv", args=[slug]),
        "financial report PDF": reverse("reports:event_pdf", args=[slug]),
        "day's sheets page": day,
        "day's sheets CSV": day + "?format=csv",
        "day's sheet CSV": day + "?format=csv&sheet=master_game_report",
        "day's sheets PDF": day + "?format=pdf",
    }


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


# The exact counts (an export's include the one INSERT of its audit entry). A change that adds a query per row of anything breaks the second assertion;
# one that adds a fixed query changes the number here, on purpose and in review.
# The exports' one more: whether a day reconciles with its bank still to count (blind counts).
# One more everywhere since a void or an expense stands only once signed in full: the figures read
# which voids are done and which expenses approved (reports.figures).
# Two more for each export since the audit trail is chained (audit.chain): its last link read, the
# entry's own link written; on PostgreSQL a third, the chain's lock. One more on the day's sheets:
# the day's seal; on the financial report and its page, the seals of every day. One more on the
# day's sheets: whether the day used paper slips during an outage (its sheet of paper serials).
# Five more on the day's sheets since they read the day's own slips, never every earlier day's
# (issue 25): whether every earlier day is closed, then what the patrons and the cage's places held
# before the day, each as their postings' total less what this day and later ones moved (two
# queries each, reports.figures.held_before), which runners held anything yet, and the day's own
# serials beside the event's counted ones (cage.selectors.registers.serial_checks); the event's
# days are no longer read.
# One fewer on the day's sheets since each GET is one reading of the books (core.reading): the
# event's chip set is read once.
# One fewer on each since a person's event is read with their person (events.access).
# One more on the report page, its JSON and its CSV since they carry the trust account's deposits with
# their bank slips (cage.selectors.bank_slips, read once a page); the PDF read them already. One
# more on the report page for its filing (reports.filing), and one for the cheques of the expenses,
# once the report is no longer a draft (what its filing still waits for). One more on the day's sheets for the
# day's expenses, paid from the trust account (reports.daily.expense_sheet). One more on the PDF for
# the cheque register (section C). On the report page, three more for what its filing waits for:
# whether an approved purpose is entered, the cash the cage still holds, and the cheques for the
# approved purposes (the use of proceeds); on the PDF, the bank reconciliation (floats, cheques),
# the purposes and their cheques, and the filing, less the expenses now read once with their
# cheques; on the JSON, the filing.
EXACT = {
    "report page": 24,
    "report JSON": 14,
    "report CSV": 13,
    "financial report PDF": 31,
    "day's sheets page": 29,
    "day's sheets CSV": 31,
    "day's sheet CSV": 31,
    "day's sheets PDF": 31,
}
EXPORTS = {
    "report JSON",
    "report CSV",
    "financial report PDF",
    "day's sheets CSV",
    "day's sheet CSV",
    "day's sheets PDF",
}


@pytest.fixture(scope="module")
def two_sizes(django_db_setup, django_db_blocker):
    """The example event and a larger one, each with its DRIC's login; built once for the module,
    whose tests only read them."""
    with built_once(django_db_blocker):
        events = small_event(), larger_event()
        for event in events:
            dric = event.people.get(code="ann")
            if dric.user is None:
                give_login(dric, f"ann-{event.slug}")
        yield events


@pytest.mark.parametrize("name", EXACT)
def test_each_report_runs_an_exact_number_of_queries_whatever_the_size(client, name, two_sizes):
    small, large = two_sizes
    assert large.slips.count() > 2 * small.slips.count()
    counts = []
    for event in (small, large):
        dric = event.people.get(code="ann")
        client.force_login(dric.user)
        counts.append(queries(client, report_urls(event)[name]))
    exact = EXACT[name] + (1 if name in EXPORTS and connection.vendor == "postgresql" else 0)
    assert counts == [exact, exact], counts
