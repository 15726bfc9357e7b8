"""What goes on the audit trail, through the real pages, services and commands: logins, setup
changes with old and new values, every slip, signature, approval, void, count and day close,
report signatures and exports, and refusals with their rule, each with its actor, event and address."""

import datetime
import json
import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from audit.models import AuditEntry
from cage import services
from cage.models import Slip
from events.models import GameTable
from reports.audit_trail.reading import summary
from tests.audit.helpers import ADDRESS, last
from tests.cage.helpers import CLOSE_SIGNED, COUNT_SIGNED, SALE_SIGNED, open_table, roster_the_designated, stock
from tests.conftest import DAY, PASSWORD, PIN, Client, event_form, login, make_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return Client(REMOTE_ADDR=ADDRESS)


def signed_by(cast, **capacities):
    data = {}
    for capacity, persona in capacities.items():
        data[f"sign_{capacity}"] = getattr(cast, persona).pk
        data[f"pin_{capacity}"] = PIN
    return data


def new_slip(cast, slip_type):
    return reverse("cage:slip_new", args=[cast.event.slug, slip_type])


def form(**data):
    return {"request_key": uuid.uuid4().hex, **data}


def everything_recorded() -> str:
    return json.dumps(list(AuditEntry.objects.values("username", "message", "params", "old", "new", "request")))


# --- logins -------------------------------------------------------------------------------------


def test_logins_logouts_and_failed_logins_are_recorded_with_the_address(client, cast):
    username = cast.dric.user.username
    client.post(reverse("login"), {"username": username, "password": "not-her-password"})
    failed = last("login", outcome="refused")
    assert (failed.user, failed.username, failed.address, failed.event, failed.rule) == (
        cast.dric.user,
        username,
        ADDRESS,
        None,
        "login",
    )
    assert summary(failed) == f"Failed login as {username}"

    client.post(reverse("login"), {"username": "mallory", "password": "guess-1234"})
    unknown = last("login", outcome="refused")
    assert unknown.user is None and unknown.username == "mallory"

    client.post(reverse("login"), {"username": username, "password": PASSWORD})
    done = last("login", outcome="done")
    assert (done.user, done.address, done.channel) == (cast.dric.user, ADDRESS, "web")
    client.post(reverse("logout"))
    out = last("logout")
    assert out.user == cast.dric.user and out.address == ADDRESS
    # A password, right or wrong, is never recorded.
    trail = everything_recorded()
    assert "not-her-password" not in trail and "guess-1234" not in trail and PASSWORD not in trail


def test_the_address_comes_from_x_forwarded_for_only_behind_a_trusted_proxy(cast, settings):
    login_data = {"username": "mallory", "password": "x"}
    forwarded = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "198.51.100.66, 192.0.2.10"}
    Client(**forwarded).post(reverse("login"), login_data)
    assert last("login").address == "10.0.0.2"  # the header is anyone's claim: not taken

    settings.BEHIND_PROXY = True
    Client(**forwarded).post(reverse("login"), login_data)
    # The proxy adds the address it saw last; anything before it is the client's own claim.
    assert last("login").address == "192.0.2.10"
    Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="not-an-address").post(reverse("login"), login_data)
    assert last("login").address is None


# --- setup changes ------------------------------------------------------------------------------


def test_setup_changes_on_the_pages_are_recorded_with_the_dric_and_old_and_new_values(client):
    cast = make_cast(open_day=False)
    slug = cast.event.slug
    login(client, cast, "dric")

    client.post(reverse("events:tables", args=[slug]), {"code": "BJ-2", "game": "blackjack"})
    table = last("table_added", event=cast.event, channel="web")
    assert (table.person, table.roles, table.address, table.user) == (cast.dric, "dric", ADDRESS, cast.dric.user)
    assert table.new == {"table": "BJ-2", "game": "blackjack"} and table.old is None
    assert summary(table) == "Table BJ-2 set up for Blackjack"
    assert table.request == f"POST /events/{slug}/tables/"

    client.post(reverse("events:chips", args=[slug]), {"value": "100", "colour": "black"})
    assert last("chip_added", event=cast.event, channel="web").new == {"value": "100", "colour": "black"}

    client.post(
        reverse("events:people", args=[slug]),
        {
            "code": "nia",
            "name": "Nia Brown",
            "born_on": "1990-05-05",
            "registration": "good",
            "role": "runner",
            "password": "a-long-password",
        },
    )
    nia = cast.event.people.get(code="nia")
    added = last("person_added", about=nia)
    assert added.new["name"] == "Nia Brown" and added.new["born_on"] == "1990-05-05"
    role = last("role_assigned", about=nia)
    assert (role.old, role.new, role.person) == ({"roles": []}, {"roles": ["runner"]}, cast.dric)
    assert "a-long-password" not in everything_recorded()

    client.post(
        reverse("events:registration_change", args=[slug]), {"person": cast.runner.pk, "registration": "suspended"}
    )
    registration = last("registration_changed", about=cast.runner)
    assert (registration.old, registration.new) == ({"registration": "good"}, {"registration": "suspended"})

    roster_the_designated(cast)  # the last line of the first day's checklist
    client.post(reverse("events:day_open", args=[slug, DAY.isoformat()]))
    opened = last("day_opened", event=cast.event)
    assert (opened.old, opened.new, opened.person) == ({"status": "setup"}, {"status": "open"}, cast.dric)

    later = DAY + datetime.timedelta(days=1)
    client.post(
        reverse("events:days", args=[slug]), {"date": later.isoformat(), "opens_at": "18:00", "closes_at": "01:00"}
    )
    assert last("day_added", event=cast.event, channel="web").new == {
        "date": later.isoformat(),
        "opens_at": "18:00:00",
        "closes_at": "01:00:00",
    }
    client.post(
        reverse("events:roster", args=[slug, later.isoformat()]),
        {
            "person": cast.chip_cashier.pk,
            "role": "chip_cashier",
            "starts_at": f"{later.isoformat()}T18:00",
            "ends_at": f"{later.isoformat()}T23:00",
        },
    )
    shift = last("shift_added", about=cast.chip_cashier)
    assert shift.new["role"] == "chip_cashier" and shift.person == cast.dric


def test_a_new_event_is_recorded_with_the_administrator(client, cast, admin_user):
    client.force_login(admin_user)
    client.post(
        reverse("events:create"),
        event_form(),
    )
    entry = last("event_created", event__slug="riverside")
    assert (entry.user, entry.person, entry.roles, entry.address) == (admin_user, None, "admin", ADDRESS)
    assert entry.new["licence_number"] == "F-1" and entry.new["games"] == ["blackjack"]


def test_logins_and_new_setup_codes_are_recorded_with_the_administrator_and_readable_values(client, cast, admin_user):
    client.force_login(admin_user)
    slug = cast.event.slug
    client.post(
        reverse("events:people", args=[slug]),
        {"code": "nia", "name": "Nia Brown", "born_on": "1990-05-05", "registration": "good", "username": "nia"},
    )
    nia = cast.event.people.get(code="nia")
    made = last("login_created", about=nia)
    assert made.old is None and made.new == {"login": "nia"} and made.user == admin_user
    client.post(reverse("events:setup_code_new", args=[slug, cast.runner.code]))
    reissued = last("setup_code_reissued", about=cast.runner)
    assert reissued.old == {"password_set": True, "signing_pin_set": True}
    assert reissued.new == {"password_set": False, "signing_pin_set": False}
    # Old and new read as words, never "yes → —".
    login(client, cast, "dric")
    page = client.get(reverse("audit:event", args=[slug]) + "?action=setup_code_reissued").content.decode()
    assert "password set</span>: yes → no" in page and "signing PIN set</span>: yes → no" in page
    assert "→ —" not in page
    codes = re.findall(r"[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}", everything_recorded())
    assert not codes  # a setup code is never recorded


def test_a_signing_pin_set_is_recorded_without_the_pin(client, cast):
    login(client, cast, "runner")
    client.post(reverse("events:my_pin"), {"password": PASSWORD, "pin": "8051", "pin_again": "8051"})
    entry = last("pin_set", user=cast.runner.user, channel="web")
    assert entry.event is None and summary(entry) == f"{cast.runner.user.username} changed their signing PIN"
    assert "8051" not in everything_recorded()


# --- the ledger ---------------------------------------------------------------------------------


def test_a_slip_its_signatures_and_the_dric_s_approval_are_recorded(client, cast):
    stock(cast)
    open_table(cast)
    slug = cast.event.slug
    login(client, cast, "chip_cashier")
    client.post(
        new_slip(cast, "fill"),
        form(
            table=cast.bj.pk,
            runner=cast.runner.pk,
            chips_5="40",
            **signed_by(cast, issued_by="chip_cashier", carried_by="runner"),
        ),
    )
    fill = Slip.objects.get(slip_type="fill")
    recorded = last("slip_recorded", slip=fill)
    assert (recorded.person, recorded.roles, recorded.address, recorded.event) == (
        cast.chip_cashier,
        "chip_cashier",
        ADDRESS,
        cast.event,
    )
    assert recorded.new["signed"] == {"issued_by": "Chip Cashier", "carried_by": "Runner"}
    assert recorded.new["table"] == "BJ-1" and recorded.new["details"]["chips"] == {"5": 40}
    assert summary(recorded) == "Fill 1 recorded"

    # At the table the dealer signs on the runner's tablet with her own PIN.
    login(client, cast, "runner")
    client.post(
        reverse("cage:slip_sign", args=[slug, fill.pk]),
        {"capacity": "received_by", "person": cast.dealer.pk, "pin": PIN},
    )
    signed = last("slip_signed", slip=fill)
    assert (signed.person, signed.about, signed.roles) == (cast.runner, cast.dealer, "runner")
    assert signed.new == {"capacity": "Received by", "signer": "Dealer"}
    assert summary(signed) == "Dealer signed Fill 1 as received by"

    login(client, cast, "dric")
    client.post(reverse("cage:queue_approve", args=[slug, fill.pk]))
    approved = last("slip_approved", slip=fill)
    assert approved.person == cast.dric and approved.new == {"signed": {"authorized_by": "Dric"}}
    # One entry for the approval, not one more per capacity signed.
    assert AuditEntry.objects.filter(slip=fill, action="slip_signed").count() == 1

    client.post(reverse("cage:slip_print", args=[slug, fill.pk]))
    client.post(reverse("cage:slip_print", args=[slug, fill.pk]))
    printed = last("slip_printed", slip=fill)
    assert printed.new == {"copy": 2, "reprint": True} and summary(printed) == "Fill 1 printed (copy 2)"


def test_a_void_a_count_the_floor_closing_and_the_day_close_are_recorded(client, cast):
    stock(cast, chips={"5": 10}, cash=1000)
    slug = cast.event.slug
    login(client, cast, "chip_cashier")
    client.post(
        new_slip(cast, "sale"),
        form(chips_5="2", cash="10", tender="cad_cash", **signed_by(cast, sold_by="chip_cashier")),
    )
    sale = Slip.objects.get(slip_type="sale")
    login(client, cast, "dric")
    client.post(reverse("cage:queue_void", args=[slug, sale.pk]), {"reason": "keyed twice", "request_key": "v1"})
    void = Slip.objects.get(slip_type="void")
    voided = last("slip_voided", slip=void)
    assert voided.person == cast.dric and voided.new["voids"] == "Chip sale 1" and voided.new["reason"] == "keyed twice"
    assert summary(voided) == "Void 1 written, asking to void Chip sale 1; nothing moves until it is signed in full"
    login(client, cast, "general_cashier")
    client.post(reverse("cage:slip_sign", args=[slug, void.pk]), {"capacity": "requested_by"})
    client.post(reverse("cage:slip_sign", args=[slug, sale.pk]), {"capacity": "authorized_by"})

    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=1000,
        signed=cast.signed(**COUNT_SIGNED),
    )
    count = last("count_recorded", event=cast.event)
    assert count.channel == "command" and count.address is None and count.new["account"] == "bank_cash"
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "chip_bank"),
        chips={"5": 10},
        signed=cast.signed(**COUNT_SIGNED),
    )
    client.post(reverse("cage:day_reconcile", args=[slug]))
    floor = last("day_reconciling", event=cast.event)
    assert (floor.old, floor.new, floor.person) == ({"status": "open"}, {"status": "reconciling"}, cast.general_cashier)

    services.close_day(day=cast.day, signed=cast.signed(**CLOSE_SIGNED))
    closed = last("day_closed", event=cast.event)
    assert (closed.old, closed.new["status"]) == ({"status": "reconciling"}, "closed")
    assert closed.slip.slip_type == "close_day" and closed.new["signed"]["approved_by"] == "Dric"


def test_report_signatures_and_every_export_are_recorded(client, cast, tmp_path):
    stock(cast, chips={"5": 10}, cash=1000)
    for account, counted in (("bank_cash", {"cash": 1000}), ("chip_bank", {"chips": {"5": 10}})):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, account),
            signed=cast.signed(**COUNT_SIGNED),
            **counted,
        )
    services.close_day(day=cast.day, signed=cast.signed(**CLOSE_SIGNED))
    slug = cast.event.slug
    login(client, cast, "dric")
    client.post(reverse("reports:event_sign", args=[slug]))
    signed = last("report_signed", event=cast.event)
    assert signed.person == cast.dric and signed.new["role"] == "dric" and len(signed.new["figures_digest"]) == 64

    day = DAY.isoformat()
    for url in (
        reverse("reports:event_json", args=[slug]),
        reverse("reports:event_csv", args=[slug]),
        reverse("reports:event_pdf", args=[slug]),
        reverse("reports:day", args=[slug, day]) + "?format=csv",
        reverse("reports:day", args=[slug, day]) + "?format=pdf",
        reverse("cage:register", args=[slug]) + "?export=csv",
        reverse("audit:event", args=[slug]) + "?export=csv",
    ):
        assert client.get(url).status_code == 200
    exports = list(AuditEntry.objects.filter(action="exported", event=cast.event).order_by("id"))
    assert [(e.new["what"], e.new["format"]) for e in exports] == [
        ("event_report", "json"),
        ("event_report", "csv"),
        ("event_report", "pdf"),
        ("day_sheets", "csv"),
        ("day_sheets", "pdf"),
        ("register", "csv"),
        ("audit_trail", "csv"),
    ]
    assert all(e.person == cast.dric and e.address == ADDRESS for e in exports)
    assert (
        summary(exports[3]) == "The control sheets of 2026-09-11 exported as CSV"
    )  # the date as every date is written
    # Looking at the report and the sheets on their pages is not an export.
    client.get(reverse("reports:event", args=[slug]))
    client.get(reverse("reports:day", args=[slug, day]))
    assert AuditEntry.objects.filter(action="exported").count() == 7

    call_command("event_report", slug, format="json", out=str(tmp_path / "r.json"))
    call_command("day_report", slug, day, format="csv", out=str(tmp_path / "d.csv"))
    commands = list(AuditEntry.objects.filter(action="exported", channel="command").order_by("id"))
    assert [(e.new["what"], e.new["format"], e.address, e.user) for e in commands] == [
        ("event_report", "json", None, None),
        ("day_sheets", "csv", None, None),
    ]


def test_an_import_puts_every_record_on_the_trail_in_a_few_statements(django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from cage.importer import import_file
    from tests.conftest import EXAMPLES

    example = sorted(EXAMPLES.glob("*.json"))[0]
    with CaptureQueriesContext(connection) as queries:
        event = import_file(example)
    entries = AuditEntry.objects.filter(event=event)
    slips = Slip.objects.filter(event=event).count()
    assert entries.filter(action="person_added").count() == event.people.count()
    assert set(entries.values_list("channel", flat=True)) == {"command"}
    # The entries are held in memory through the check and copied with the event's rows: each
    # still points at its own slip under the slip's new key, and they follow the records' order.
    written = ["slip_recorded", "count_recorded", "slip_voided", "day_closed"]
    recorded = entries.filter(action__in=written).select_related("slip").order_by("id")
    assert [e.new["slip"] for e in recorded] == [str(e.slip.number) for e in recorded]
    assert [e.slip_id for e in recorded] == sorted(e.slip_id for e in recorded)
    assert len(recorded) == slips
    assert {e.slip_id for e in recorded} == set(Slip.objects.filter(event=event).values_list("id", flat=True))
    # One statement per batch of rows (an executemany is logged as "N times: INSERT ..."); on
    # PostgreSQL the copy into the real tables is one COPY per table (cage.staging), no INSERT.
    inserts = [q for q in queries.captured_queries if 'INSERT INTO "audit_auditentry"' in q["sql"]]
    if connection.vendor == "postgresql":
        assert inserts == []
    else:
        assert 0 < len(inserts) <= entries.count() // 20


def test_a_refused_import_leaves_nothing_on_the_trail(tmp_path):
    from cage.importer import ImportFailed, import_file
    from tests.conftest import EXAMPLES

    data = json.loads(sorted(EXAMPLES.glob("*.json"))[0].read_text())
    data["days"][0]["records"][0]["chips"] = {"7": 1}  # no $7 chip
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ImportFailed):
        import_file(path)
    assert not AuditEntry.objects.exists()


# --- refusals -----------------------------------------------------------------------------------


def test_a_wrong_signing_pin_is_recorded_as_a_refusal(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    data = form(runner=cast.runner.pk, chips_5="10", **signed_by(cast, issued_by="chip_cashier", received_by="runner"))
    data["pin_received_by"] = "9999"
    client.post(new_slip(cast, "runner_issue"), data)
    refused = last("slip_recorded", outcome="refused")
    assert (refused.person, refused.roles, refused.event, refused.address, refused.rule) == (
        cast.chip_cashier,
        "chip_cashier",
        cast.event,
        ADDRESS,
        "signing PINs",
    )
    assert "the signing PIN of Runner is wrong; 4 tries left" in summary(refused)
    # Which refusal it was, whatever its words: its code, kept with the entry's values.
    assert refused.params["code"] == "pin.wrong"
    assert "9999" not in everything_recorded()


@pytest.mark.parametrize(
    "persona, method, name, action",
    [
        ("dealer", "get", "cage:register", "page"),
        ("general_cashier", "get", "audit:event", "page"),
        ("dealer", "get", "events:people", "page"),
        ("dealer", "post", "events:tables", "table_added"),
        ("auditor", "post", "events:chips", "chip_added"),
    ],
)
def test_a_refused_role_is_recorded(client, cast, persona, method, name, action):
    person = login(client, cast, persona)
    url = reverse(name, args=[cast.event.slug])
    assert getattr(client, method)(url, {"code": "X-1", "game": "blackjack", "value": "2"}).status_code == 403
    refused = last(action, outcome="refused")
    assert (refused.person, refused.roles, refused.event, refused.rule, refused.address) == (
        person,
        persona,
        cast.event,
        "roles",
        ADDRESS,
    )
    assert summary(refused).startswith(f"Refused: {method.upper()} {url} needs the role of ")


@pytest.mark.parametrize(
    "name, page", [("events:people", "People"), ("events:tables", "Tables"), ("cage:day_close", "Nightly close")]
)
def test_opening_a_page_one_is_refused_is_a_refused_page_view_not_the_pages_form(client, cast, outsider, name, page):
    """Opening the People page is not adding a person: a refused GET is "Page refused: People"."""
    client.force_login(outsider)
    url = reverse(name, args=[cast.event.slug])
    assert client.get(url).status_code == 403
    refused = last("page", outcome="refused")
    assert refused.params["view"] == name and refused.request == f"GET {url}"
    assert not AuditEntry.objects.exclude(action="page").filter(outcome="refused").exists()
    login(client, cast, "dric")
    trail = client.get(reverse("audit:event", args=[cast.event.slug]) + "?outcome=refused").content.decode()
    table = trail[trail.index('id="audit"') :]
    assert f"Page refused: {page}" in table
    assert "Person added" not in table and ">Table<" not in table
    rows = client.get(reverse("audit:event", args=[cast.event.slug]) + "?outcome=refused&export=csv")
    assert f"Page refused: {page},".encode() in rows.content and b",page," in rows.content


def test_every_page_one_can_open_has_a_name_on_the_trail():
    from audit.actions import PAGE_NAMES
    from events.permissions import MATRIX

    pages = {key.split("[")[0] for key, entry in MATRIX.items() if "GET" in entry.methods}
    assert pages - set(PAGE_NAMES) == set() and set(PAGE_NAMES) - pages == set()


def test_an_outsider_and_a_non_administrator_are_recorded_when_refused(client, cast, outsider):
    client.force_login(outsider)
    client.get(reverse("cage:home", args=[cast.event.slug]))
    refused = last("page", outcome="refused")
    assert (refused.user, refused.person, refused.event) == (outsider, None, cast.event)
    client.post(reverse("events:create"), {"slug": "x"})
    refused = last("event_created", outcome="refused")
    assert refused.rule == "permission" and "administrators create events" in summary(refused)


@pytest.mark.django_db(transaction=True)
def test_a_refused_slip_is_recorded_and_its_entry_survives_the_rollback():
    """A redemption of chips nobody bought: the slip and its "recorded" entry are written, then
    T&C 3.4.3 refuses it and the whole transaction rolls back. The refusal's entry stays."""
    cast = make_cast("rollback")
    stock(cast, chips={"5": 10}, cash=1000)
    client = Client(REMOTE_ADDR=ADDRESS)
    login(client, cast, "general_cashier")
    response = client.post(
        new_slip(cast, "redemption"),
        form(chips_5="2", cash="10", tender="cad_cash", **signed_by(cast, paid_by="general_cashier")),
    )
    assert response.status_code == 200 and "T&amp;C 3.4.3" in response.content.decode()
    assert not Slip.objects.filter(slip_type="redemption").exists()
    assert not AuditEntry.objects.filter(action="slip_recorded", outcome="done", new__slip="Redemption 1").exists()
    refused = last("slip_recorded", outcome="refused")
    assert (refused.person, refused.roles, refused.event, refused.address, refused.rule) == (
        cast.general_cashier,
        "general_cashier",
        cast.event,
        ADDRESS,
        "T&C 3.4.3",
    )
    assert refused.request == f"POST /cage/{cast.event.slug}/slips/new/redemption/"
    assert "patrons would hold -2 $5 chips" in summary(refused)


def test_a_refused_setup_change_is_recorded_and_changes_nothing(client, cast):
    login(client, cast, "dric")
    client.post(reverse("events:tables", args=[cast.event.slug]), {"code": "CR-1", "game": "craps"})
    refused = last("table_added", outcome="refused")
    assert refused.rule == "T&C 1.5.1" and refused.person == cast.dric
    assert not GameTable.objects.filter(code="CR-1").exists()
    assert not AuditEntry.objects.filter(action="table_added", outcome="done", new__table="CR-1").exists()


# --- what it costs ------------------------------------------------------------------------------

STANDING_QUERY = '"events_assignment"."role" AS "assignments__role"'


def audit_queries(queries) -> tuple[int, int]:
    """(INSERTs into the trail, look-ups of the actor's standing made for it)."""
    sqls = [q["sql"] for q in queries.captured_queries]
    return (
        sum(sql.startswith('INSERT INTO "audit_auditentry"') for sql in sqls),
        sum(STANDING_QUERY in sql for sql in sqls),
    )


def test_recording_costs_one_insert_per_action(client, cast):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    stock(cast)
    login(client, cast, "chip_cashier")
    with CaptureQueriesContext(connection) as queries:
        client.post(
            new_slip(cast, "sale"),
            form(chips_5="2", cash="10", tender="cad_cash", **signed_by(cast, sold_by="chip_cashier")),
        )
    assert audit_queries(queries) == (1, 0)  # the page checked her roles already
    with CaptureQueriesContext(connection) as queries:
        client.post(
            new_slip(cast, "sale"),
            form(chips_5="2", cash="1", tender="cad_cash", **signed_by(cast, sold_by="chip_cashier")),
        )
    assert audit_queries(queries) == (1, 0)  # a refusal, written after the page
    with CaptureQueriesContext(connection) as queries:
        services.sale(day=cast.day, chips={"5": 1}, cash=500, signed=cast.signed(**SALE_SIGNED))
    assert audit_queries(queries) == (1, 0)  # the command line: nobody to look up
    login(client, cast, "dealer")
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("cage:register", args=[cast.event.slug]))
    assert audit_queries(queries) == (1, 0)  # the refusal carries the standing it refused


def test_a_login_on_two_events_is_recorded_as_the_person_of_the_event_acted_on(cast):
    """A login shared by two events records the person of the event the entry is about; where the
    page has not checked it, finding that person costs one query."""
    other = make_cast("other-fair")
    user = get_user_model().objects.get(username=cast.dric.user.username)
    other_dric = other.dric
    other_dric.user = user
    other_dric.save(update_fields=["user"])
    client = Client(REMOTE_ADDR=ADDRESS)
    client.force_login(user)
    client.post(reverse("events:tables", args=[other.event.slug]), {"code": "BJ-7", "game": "blackjack"})
    assert last("table_added", event=other.event, channel="web").person == other_dric


def test_outside_a_page_that_checked_it_the_actor_s_standing_costs_one_query_per_request(cast, rf):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from audit import context
    from audit import services as audit

    request = rf.post("/somewhere/", REMOTE_ADDR=ADDRESS)
    request.user = cast.chip_cashier.user
    token = context.begin(request)
    try:
        with CaptureQueriesContext(connection) as first:
            audit.record("page", "first", event=cast.event)
        with CaptureQueriesContext(connection) as second:
            audit.record("page", "second", event=cast.event)
    finally:
        context.end(token)
    assert audit_queries(first) == (1, 1) and audit_queries(second) == (1, 0)
    entry = last("page", message="second")
    assert (entry.person, entry.roles, entry.address, entry.request) == (
        cast.chip_cashier,
        "chip_cashier",
        ADDRESS,
        "POST /somewhere/",
    )


# --- CSRF failures ------------------------------------------------------------------------------


def test_a_form_refused_by_the_csrf_check_is_recorded_and_explained(cast):
    client = Client(REMOTE_ADDR=ADDRESS, enforce_csrf_checks=True)
    login(client, cast, "dric")
    url = reverse("events:tables", args=[cast.event.slug])
    before = GameTable.objects.count()
    response = client.post(url, {"code": "BJ-9", "game": "blackjack"})  # no CSRF token: a forged form
    page = response.content.decode()
    assert response.status_code == 403 and "This form was not accepted" in page and "Nothing was recorded" in page
    assert "no-store" in response["Cache-Control"]
    assert GameTable.objects.count() == before
    refused = last("csrf_refused", outcome="refused")
    assert (refused.user, refused.person, refused.event, refused.rule, refused.address) == (
        cast.dric.user,
        cast.dric,
        cast.event,
        "CSRF",
        ADDRESS,
    )
    assert refused.params["request"] == f"POST {url}" and "CSRF" in refused.params["reason"]
    assert summary(refused) == f"Refused: POST {url} failed the CSRF check: {refused.params['reason']}"
    # Not logged in, at the login page: recorded too.
    Client(REMOTE_ADDR=ADDRESS, enforce_csrf_checks=True).post(reverse("login"), {"username": "x", "password": "y"})
    anonymous = last("csrf_refused", request=f"POST {reverse('login')}")
    assert anonymous.user is None and anonymous.event is None
