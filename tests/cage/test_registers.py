"""The cage's registers (cage:register, cage:voids): every slip of every day, filtered, sorted,
paged and exported; the voids; the serials never issued. Built through the real services."""

import csv
import datetime
import html as htmllib
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from cage import services
from cage.models import Account, Posting, Signature, Slip, SlipCounter, SlipType
from events import csv_safe
from events import services as event_services
from tests.cage.helpers import CLOSE_SIGNED, COUNT_SIGNED, FILL_SIGNED, SALE_SIGNED, open_table, stock, tables_written
from tests.conftest import PASSWORD, login

pytestmark = pytest.mark.django_db

HEADER = ["Slip", "Gaming day", "Time", "Table", "Runner", "Chips", "Amount", "State", "Signed by", "Note"]
FIRST, SECOND = "2026-09-11", "2026-09-12"


def register_url(cast, **query):
    url = reverse("cage:register", args=[cast.event.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def csv_rows(client, cast, **query) -> list[list[str]]:
    response = client.get(register_url(cast, export="csv", **query))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    # A UTF-8 byte order mark first, as the audit trail's CSV has, so that Excel reads the accents right.
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == HEADER
    return rows[1:]


def numbers(client, cast, **query) -> list[str]:
    return [row[0] for row in csv_rows(client, cast, **query)]


def in_french(client):
    client.post(reverse("events:set_language"), {"language": "fr-ca", "next": "/"})


def page_status(response) -> str:
    """The line beside the pager: which page this is, of how many."""
    found = re.search(r'<p class="page-status" id="page-status">(.*?)</p>', response.content.decode())
    return htmllib.unescape(found.group(1)) if found else ""


def page_numbers(response) -> list[str]:
    """The slips listed in the page's register, in order."""
    html = response.content.decode()
    body = html[html.index('id="register"') :]
    body = body[body.index("<tbody") : body.index("</tbody>")]
    return [htmllib.unescape(n) for n in re.findall(r'<a href="/cage/[^"]+/slips/\d+/">([^<]+)</a>', body)]


def two_days(cast):
    """A closed first day and a busy second one: fills complete and in transit, a sale voided and
    one waiting for the DRIC, an expense, and an opener whose reason and an expense whose
    description look like spreadsheet formulas."""
    stock(cast, chips={"1": 10}, cash=1000)
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=1000,
        signed=cast.signed(**COUNT_SIGNED),
    )
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "chip_bank"),
        chips={"1": 10},
        signed=cast.signed(**COUNT_SIGNED),
    )
    services.close_day(day=cast.day, signed=cast.signed(**CLOSE_SIGNED))
    cast.first_day = cast.day
    cast.day = event_services.day_open(
        day=event_services.day_add(event=cast.event, date=cast.day.date + datetime.timedelta(days=1))
    )
    stock(cast)
    open_table(cast)
    services.table_issue(
        day=cast.day,
        table=cast.wheel,
        chips={"1": 50},
        signed=cast.signed(issued_by="chip_cashier", received_by="dealer2"),
    )
    services.table_open(
        day=cast.day,
        table=cast.wheel,
        chips={"1": 50},
        reason="=cmd|' /C calc'!A0",
        signed=cast.signed(counted_by="dealer2", verified_by="chip_cashier"),
    )
    services.fill(day=cast.day, table=cast.bj, chips={"5": 40}, signed=cast.signed(**FILL_SIGNED))
    services.fill(
        day=cast.day,
        table=cast.bj,
        runner=cast.runner2,
        chips={"25": 4},
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner2"),
        allow_pending=True,
    )
    sale = services.sale(day=cast.day, chips={"5": 2}, cash=1000, signed=cast.signed(**SALE_SIGNED))
    services.sale(
        day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    services.void(
        day=cast.day,
        target=sale,
        reason="Wrong chips handed over",
        signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
    )
    services.expense(
        day=cast.day,
        category="other",
        description="=1+2",
        cash=2500,
        invoice="",
        signed=cast.signed(approved_by="dric"),
    )
    return cast


DAY_ONE = ["Chips received 1", "Float in 1", "Count 1", "Count 2", "Day close 1"]
DAY_TWO = [
    "Chips received 2",
    "Float in 2",
    "Table issue 1",
    "Opener 1",
    "Table issue 2",
    "Opener 2",
    "Fill 1",
    "Fill 2",
    "Chip sale 1",
    "Chip sale 2",
    "Void 1",
    "Expense 1",
]


@pytest.fixture
def busy(cast):
    return two_days(cast)


# --- the register ------------------------------------------------------------------------------


def test_the_register_lists_every_slip_of_every_day_in_order(client, busy):
    login(client, busy, "dric")
    response = client.get(register_url(busy))
    assert response.status_code == 200
    assert page_numbers(response) == DAY_ONE + DAY_TWO
    assert numbers(client, busy) == DAY_ONE + DAY_TWO
    page = response.content.decode()
    assert "17 slips" in page
    assert reverse("cage:voids", args=[busy.event.slug]) in page


def test_each_row_says_what_the_slip_says_as_people_say_it(client, busy):
    login(client, busy, "auditor")
    rows = {row[0]: dict(zip(HEADER, row, strict=True)) for row in csv_rows(client, busy)}
    fill = rows["Fill 1"]
    assert fill["Gaming day"] == SECOND
    assert re.fullmatch(r"\d\d:\d\d", fill["Time"])
    assert fill["Table"] == "BJ-1"
    assert fill["Runner"] == "Runner"
    assert fill["Chips"] == "40 × $5"
    assert fill["Amount"] == "200.00"
    assert fill["State"] == "Complete"
    assert fill["Signed by"] == "Issued by: Chip Cashier; Carried by: Runner; Received by: Dealer; Authorized by: Dric"
    assert rows["Fill 2"]["State"] == "In transit"
    assert rows["Fill 2"]["Runner"] == "Runner2"
    assert rows["Fill 2"]["Amount"] == "100.00"
    assert rows["Chip sale 1"]["State"] == "Voided"
    # A voided slip says which void stands against it and why.
    assert rows["Chip sale 1"]["Note"] == "Voided by Void 1: Wrong chips handed over"
    assert rows["Chip sale 2"]["State"] == "Waiting for signature"
    assert rows["Chips received 2"]["Chips"] == "1000 × $1; 400 × $5; 40 × $25"
    assert rows["Chips received 2"]["Amount"] == "4000.00"
    assert rows["Chips received 1"]["Gaming day"] == FIRST
    # Cash-only slips: the float's cash moved, the expense's cash, the void the slip it reverses.
    assert rows["Float in 2"]["Amount"] == "1000.00"
    assert rows["Expense 1"]["Amount"] == "25.00"
    assert rows["Void 1"]["Amount"] == "10.00"
    assert rows["Void 1"]["Note"] == "Voids Chip sale 1: Wrong chips handed over"
    assert rows["Day close 1"]["Amount"] == ""
    # Names, never codes.
    text = "\n".join(",".join(r.values()) for r in rows.values())
    assert "chip_cashier" not in text and "runner2," not in text and "table:" not in text

    page = client.get(register_url(busy)).content.decode()
    assert "$4,000.00" in page and "$200.00" in page
    assert "40 × $5" in page
    assert "Waiting for signature" in page and "In transit" in page and "Voided" in page


def test_each_filter_narrows_the_rows(client, busy):
    login(client, busy, "general_cashier")
    assert numbers(client, busy, day=busy.first_day.pk) == DAY_ONE
    assert numbers(client, busy, day=busy.day.pk) == DAY_TWO
    assert numbers(client, busy, type="fill") == ["Fill 1", "Fill 2"]
    assert numbers(client, busy, type="sale") == ["Chip sale 1", "Chip sale 2"]
    assert numbers(client, busy, table=busy.bj.pk) == ["Table issue 1", "Opener 1", "Fill 1", "Fill 2"]
    assert numbers(client, busy, table=busy.wheel.pk) == ["Table issue 2", "Opener 2"]
    # The runner named on it, or who signed it.
    assert numbers(client, busy, person=busy.runner2.pk) == ["Fill 2"]
    assert numbers(client, busy, person=busy.dealer2.pk) == ["Table issue 2", "Opener 2"]
    assert numbers(client, busy, person=busy.general_cashier.pk) == [
        "Float in 1",
        "Count 1",
        "Count 2",
        "Day close 1",
        "Float in 2",
    ]
    assert numbers(client, busy, state="in_transit") == ["Fill 2"]
    assert numbers(client, busy, state="waiting") == ["Chip sale 2"]
    assert numbers(client, busy, state="voided") == ["Chip sale 1"]
    assert len(numbers(client, busy, state="complete")) == 14
    # Together they all apply; the page says how many.
    assert numbers(client, busy, day=busy.day.pk, type="sale", state="waiting") == ["Chip sale 2"]
    response = client.get(register_url(busy, type="fill"))
    assert page_numbers(response) == ["Fill 1", "Fill 2"]
    assert "2 slips" in response.content.decode()
    # The export link keeps the filter.
    assert "export=csv" in response.content.decode() and "type=fill" in response.content.decode()
    # A choice that is not on this event lists nothing and says so, beside its field.
    response = client.get(register_url(busy, table=999999))
    assert response.status_code == 400 and 'id="register"' not in response.content.decode()
    assert "“999999” is not in this list; pick one of its choices." in field_errors(response)["id_table"]


def test_the_register_sorts_by_slip_day_time_and_amount(client, busy):
    login(client, busy, "chip_cashier")
    by_amount = csv_rows(client, busy, sort="amount")
    amounts = [float(r[6]) for r in by_amount if r[6]]
    assert amounts == sorted(amounts)
    assert by_amount[0][0] == "Day close 1"  # no amount sorts first
    by_amount_down = csv_rows(client, busy, sort="-amount")
    assert [float(r[6]) for r in by_amount_down if r[6]] == sorted(amounts, reverse=True)
    assert by_amount_down[0][0] == "Chips received 2"

    by_slip = numbers(client, busy, sort="slip")
    assert by_slip[:4] == ["Chip sale 1", "Chip sale 2", "Chips received 1", "Chips received 2"]
    assert by_slip == sorted(DAY_ONE + DAY_TWO, key=lambda n: (n.rsplit(" ", 1)[0], int(n.rsplit(" ", 1)[1])))
    assert numbers(client, busy, sort="-day")[: len(DAY_TWO)] == list(reversed(DAY_TWO))
    assert numbers(client, busy, sort="-time") == list(reversed(DAY_ONE + DAY_TWO))
    assert page_numbers(client.get(register_url(busy, sort="-amount")))[0] == "Chips received 2"


def test_the_register_pages_fifty_slips_at_a_time_and_sorts_serials_as_numbers(client, cast):
    for _ in range(55):
        services.chips_received(
            day=cast.day, chips={"1": 1}, signed=cast.signed(received_by="chip_cashier", witnessed_by="dric")
        )
    login(client, cast, "dric")
    first = page_numbers(client.get(register_url(cast, sort="slip")))
    second = page_numbers(client.get(register_url(cast, sort="slip", page=2)))
    assert first == [f"Chips received {n}" for n in range(1, 51)]
    assert second == [f"Chips received {n}" for n in range(51, 56)]
    assert page_numbers(client.get(register_url(cast, sort="-slip")))[:2] == ["Chips received 55", "Chips received 54"]
    # The export is every slip, not a page of them.
    assert len(numbers(client, cast, page=2)) == 55
    # A page past the end shows the last one rather than failing.
    assert client.get(register_url(cast, page=99)).status_code == 200


def test_a_cell_that_looks_like_a_formula_is_plain_text_in_the_csv(client, busy):
    login(client, busy, "dric")
    rows = {row[0]: row for row in csv_rows(client, busy)}
    assert rows["Expense 1"][9] == "'=1+2"
    assert rows["Opener 2"][9] == "'=cmd|' /C calc'!A0"
    for row in rows.values():
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@")), cell
    # The page shows them as written, escaped.
    page = client.get(register_url(busy)).content.decode()
    assert "=1+2" in page and "&#x27;=1+2" not in page


@pytest.mark.parametrize("persona", ["dric", "general_cashier", "chip_cashier", "auditor"])
def test_the_dric_cashiers_and_auditor_read_the_registers(client, busy, persona):
    login(client, busy, persona)
    for name in ("cage:register", "cage:voids"):
        assert client.get(reverse(name, args=[busy.event.slug])).status_code == 200
    page = client.get(reverse("events:detail", args=[busy.event.slug])).content.decode()
    assert reverse("cage:register", args=[busy.event.slug]) in page


@pytest.mark.parametrize("persona", ["runner", "dealer"])
def test_runners_and_dealers_are_refused_the_registers(client, busy, persona):
    login(client, busy, persona)
    for url in (
        register_url(busy),
        register_url(busy, export="csv"),
        reverse("cage:voids", args=[busy.event.slug]),
    ):
        response = client.get(url)
        assert response.status_code == 403
        assert "Fill 1" not in response.content.decode()
    page = client.get(reverse("events:detail", args=[busy.event.slug])).content.decode()
    assert reverse("cage:register", args=[busy.event.slug]) not in page


def test_someone_with_no_role_on_the_event_is_refused(client, busy, outsider):
    assert client.login(username="outsider", password=PASSWORD)
    for url in (register_url(busy), register_url(busy, export="csv"), reverse("cage:voids", args=[busy.event.slug])):
        assert client.get(url).status_code == 403


def test_the_registers_change_nothing_and_take_no_post(client, busy):
    login(client, busy, "dric")
    models = (Slip, Signature, Posting, Account, SlipCounter)
    before = [m.objects.count() for m in models]
    urls = [
        register_url(busy),
        register_url(busy, type="fill", sort="-amount", page=1),
        register_url(busy, export="csv"),
        reverse("cage:voids", args=[busy.event.slug]),
    ]
    with CaptureQueriesContext(connection) as queries:
        for url in urls:
            assert client.get(url).status_code == 200
    # The one write: the CSV leaving the system goes on the audit trail, with its link of the chain.
    assert tables_written(queries) == ["audit_auditentry", "audit_auditlink"]
    assert [m.objects.count() for m in models] == before
    for url in urls:
        assert client.post(url).status_code in (403, 405)


def query_counts(client, cast) -> list[int]:
    counts = []
    for url in (
        register_url(cast),
        register_url(cast, export="csv", sort="amount"),
        reverse("cage:voids", args=[cast.event.slug]),
    ):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries.captured_queries))
    return counts


def test_the_registers_take_a_fixed_number_of_queries(client, busy):
    login(client, busy, "auditor")
    few = query_counts(client, busy)
    for n in range(15):
        services.fill(day=busy.day, table=busy.bj, chips={"1": 1}, signed=busy.signed(**FILL_SIGNED))
        sale = services.sale(day=busy.day, chips={"1": 1}, cash=100, signed=busy.signed(**SALE_SIGNED))
        services.void(
            day=busy.day,
            target=sale,
            reason=f"mistake {n}",
            signed=busy.signed(requested_by="general_cashier", authorized_by="dric"),
        )
    assert Slip.objects.count() > 60
    assert query_counts(client, busy) == few


# --- voids and serials ---------------------------------------------------------------------------


def voids_text(client, cast) -> str:
    response = client.get(reverse("cage:voids", args=[cast.event.slug]))
    assert response.status_code == 200
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_the_voids_page_lists_each_void_with_who_asked_and_who_authorized(client, busy):
    services.void(
        day=busy.day,
        target=Slip.objects.get(slip_type=SlipType.FILL, serial=2),
        reason="Runner went to the wrong table",
        signed=busy.signed(requested_by="general_cashier"),
        allow_pending=True,
    )
    login(client, busy, "auditor")
    text = voids_text(client, busy)
    assert f"Void 1 Done: reversed Chip sale 1 $10.00 {SECOND}" in text
    assert "Wrong chips handed over Chip Cashier Dric" in text
    assert f"Void 2 Asked for: nothing moved yet Fill 2 $100.00 {SECOND}" in text
    assert "Runner went to the wrong table General Cashier not yet authorized" in text


def test_every_serial_issued_says_so_per_type(client, busy):
    login(client, busy, "dric")
    text = voids_text(client, busy)
    assert "Fill 1–2: all issued" in text
    assert "Chips received 1–2: all issued" in text
    assert "Void 1: all issued" in text
    assert "Day close 1: all issued" in text
    assert "never issued" not in text
    assert "Credit" not in text  # no credit was written: not in use


def test_a_serial_never_issued_is_found_from_the_slips_themselves(client, busy):
    # As a damaged database would look: a fill numbered 5 written past the counter, which stands at 2.
    Slip.objects.create(
        event=busy.event,
        day=busy.day,
        slip_type=SlipType.FILL,
        serial=5,
        at=timezone.now(),
        table=busy.bj,
        runner=busy.runner,
        details={"chips": {"1": 1}},
    )
    assert SlipCounter.objects.get(event=busy.event, slip_type=SlipType.FILL).last == 2
    login(client, busy, "dric")
    text = voids_text(client, busy)
    assert "Fill 1–5: never issued 3–4" in text
    assert "Fill: numbered past the last serial issued (2): 5" in text
    assert "Chips received 1–2: all issued" in text


# --- a page is built from the page's slips only ---------------------------------------------------

SORTS = ["slip", "-slip", "day", "-day", "time", "-time", "amount", "-amount"]
KEYS = {"slip": "slip_key", "day": "day_key", "time": "time_key", "amount": "amount_key"}


def crowded(cast):
    """The two days, then more than two pages of slips on the second: fills of many amounts, some
    in transit, sales waiting, sales voided."""
    two_days(cast)
    for n in range(1, 61):
        services.fill(
            day=cast.day,
            table=cast.bj if n % 3 else cast.wheel,
            chips={"1": n % 17 + 1},
            signed=cast.signed(**(FILL_SIGNED if n % 5 else {"issued_by": "chip_cashier", "carried_by": "runner"})),
            allow_pending=True,
        )
    for n in range(12):
        sale = services.sale(day=cast.day, chips={"1": n + 1}, cash=100 * (n + 1), signed=cast.signed(**SALE_SIGNED))
        if n % 3 == 0:
            services.void(
                day=cast.day,
                target=sale,
                reason=f"mistake {n}",
                signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
            )
    for _ in range(8):
        services.sale(
            day=cast.day, chips={"5": 1}, cash=500, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
        )
    return cast


@pytest.fixture
def crowd(cast):
    return crowded(cast)


def every_row(cast):
    """Every slip as a row, built one by one and kept in a list, as the register used to build them."""
    from cage.selectors.registers import RegisterSlips

    return list(RegisterSlips(cast.event, Slip.objects.filter(event=cast.event)))


def expected(rows, *, sort=None, day=None, type=None, table=None, person=None, state=None) -> list[str]:
    """The register's rows filtered and sorted in Python, by RegisterRow's own sort keys."""
    kept = [
        r
        for r in rows
        if (day is None or r.slip.day_id == day)
        and (type is None or r.slip.slip_type == type)
        and (table is None or r.slip.table_id == table)
        and (
            person is None or r.slip.runner_id == person or any(s.person_id == person for s in r.slip.signatures.all())
        )
        and (state is None or r.state == state)
    ]
    if sort:
        kept.sort(key=lambda r: getattr(r, KEYS[sort.lstrip("-")]), reverse=sort.startswith("-"))
    return [r.number for r in kept]


def every_page(client, cast, **query) -> list[str]:
    """The slips of every page of the register, page after page."""
    shown, page = [], 1
    while True:
        response = client.get(register_url(cast, page=page, **query))
        assert response.status_code == 200
        rows = page_numbers(response)
        assert len(rows) <= 50
        shown += rows
        if f"page={page + 1}" not in response.content.decode():
            return shown
        page += 1


def test_each_page_shows_its_fifty_slips_in_each_order(client, crowd):
    login(client, crowd, "dric")
    rows = every_row(crowd)
    assert len(rows) > 100
    for sort in SORTS:
        want = expected(rows, sort=sort)
        first = page_numbers(client.get(register_url(crowd, sort=sort)))
        assert first == want[:50], sort
        assert page_numbers(client.get(register_url(crowd, sort=sort, page=2))) == want[50:100], sort
        assert every_page(client, crowd, sort=sort) == want, sort
        assert numbers(client, crowd, sort=sort) == want, sort
    assert every_page(client, crowd) == [r.number for r in rows]
    assert f"{len(rows)} slips" in client.get(register_url(crowd, page=2)).content.decode()


def test_filters_alone_and_together_page_and_count_as_the_whole_list(client, crowd):
    login(client, crowd, "auditor")
    rows = every_row(crowd)
    day, bj, runner = crowd.day.pk, crowd.bj.pk, crowd.runner.pk
    cases = [
        {"day": day},
        {"type": "fill"},
        {"table": bj},
        {"person": runner},
        {"state": "complete"},
        {"state": "in_transit"},
        {"state": "waiting"},
        {"state": "voided"},
        {"day": day, "type": "fill", "state": "complete"},
        {"table": bj, "person": runner, "state": "in_transit"},
        {"type": "sale", "state": "voided"},
        {"day": crowd.first_day.pk, "state": "waiting"},
    ]
    for criteria in cases:
        for sort in (None, "-amount", "slip", "-time"):
            query = {**criteria, **({"sort": sort} if sort else {})}
            want = expected(rows, sort=sort, **criteria)
            page = client.get(register_url(crowd, **query))
            assert page_numbers(page) == want[:50], query
            count = f"{len(want)} slip" + ("" if len(want) == 1 else "s")
            assert f'<span id="register-count">{count}</span>' in page.content.decode(), query
            assert numbers(client, crowd, **query) == want, query
    # The state filter across pages: the complete slips, more than a page of them.
    complete = expected(rows, state="complete")
    assert len(complete) > 50
    assert every_page(client, crowd, state="complete") == complete
    assert page_numbers(client.get(register_url(crowd, state="complete", page=2))) == complete[50:100]


def field_errors(response) -> dict[str, str]:
    """Each filter field's error, by the id of its box: the error sits in the box's own paragraph."""
    html = response.content.decode()
    return {
        box: htmllib.unescape(error)
        for box, error in re.findall(
            r'<p class="invalid">.*?id="(id_\w+)".*?<span class="errorlist"[^>]*>(.*?)</span>', html, re.S
        )
    }


def test_a_choice_not_in_its_list_lists_no_slip_and_exports_none(client, crowd):
    """?day=abc, ?type=bogus: the register does not list (or export) every slip under a filter the
    reader believes applied; it says which choice is wrong, beside it, and lists nothing."""
    from audit.models import AuditEntry

    login(client, crowd, "dric")
    entries = AuditEntry.objects.count()
    for query, box, value in (
        ({"state": "lost"}, "id_state", "lost"),
        ({"day": "abc"}, "id_day", "abc"),
        ({"type": "bogus"}, "id_type", "bogus"),
        ({"type": "fill", "person": "-4"}, "id_person", "-4"),
        ({"table": "999999"}, "id_table", "999999"),
    ):
        for export in ({}, {"export": "csv"}):
            response = client.get(register_url(crowd, **query, **export))
            assert response.status_code == 400, query
            assert response["Content-Type"].startswith("text/html"), query  # the page, not a file
            html = response.content.decode()
            assert field_errors(response) == {box: f"“{value}” is not in this list; pick one of its choices."}, query
            assert 'id="register-refused"' in html and "No slip is listed" in html, query
            assert 'id="register"' not in html and 'id="export-csv"' not in html, query
    assert AuditEntry.objects.count() == entries  # nothing was exported


def test_a_choice_not_in_its_list_reads_plainly_in_french(client, crowd):
    login(client, crowd, "dric")
    in_french(client)
    response = client.get(register_url(crowd, day="abc"))
    html = htmllib.unescape(response.content.decode())
    assert "«\u00a0abc\u00a0» ne figure pas dans cette liste\u00a0; choisissez-en un élément." in html
    assert "Aucune fiche n’est affichée\u00a0:" in html


def test_a_bad_sort_or_page_shows_the_register_rather_than_failing(client, crowd):
    login(client, crowd, "dric")
    everything = expected(every_row(crowd))
    for query in ({"sort": "state"}, {"sort": "nonsense"}, {"sort": "-"}):
        response = client.get(register_url(crowd, **query))
        assert response.status_code == 200, query
        assert page_numbers(response) == everything[:50], query
        assert numbers(client, crowd, **query) == everything, query
    # A page past the end is the last, one that is not a number the first (django-tables2's own way),
    # and the page says so: which page this is, of how many.
    last = page_numbers(client.get(register_url(crowd, page=3)))
    assert last == everything[100:] and last
    assert page_status(client.get(register_url(crowd, page=3))) == "Page 3 of 3"
    assert page_status(client.get(register_url(crowd))) == "Page 1 of 3"
    for asked, shown in (("999", 3), ("0", 3), ("-1", 3), ("x", 1)):
        response = client.get(register_url(crowd, page=asked))
        assert page_status(response) == f"There is no page “{asked}”; this is page {shown} of 3.", asked
    assert page_numbers(client.get(register_url(crowd, page=9999))) == last
    assert page_numbers(client.get(register_url(crowd, page=9999, state="voided"))) == expected(
        every_row(crowd), state="voided"
    )
    assert page_numbers(client.get(register_url(crowd, page="x"))) == everything[:50]
    assert page_numbers(client.get(register_url(crowd, state="voided", type="expense"))) == []
    in_french(client)
    fr = client.get(register_url(crowd, page=2))
    assert page_status(fr) == "Page 2 sur 3"
    fr = client.get(register_url(crowd, page=999))
    assert page_status(fr) == "Il n’y a pas de page «\u00a0999\u00a0»\u00a0; voici la page 3 sur 3."


def test_the_csv_holds_every_row_as_the_whole_list_built_it(client, crowd):
    """The export is the rows the register always built, filtered and sorted, in the same order."""
    import django_tables2 as tables

    from cage.registers import RegisterTable

    login(client, crowd, "dric")
    rows = every_row(crowd)
    for query in ({}, {"sort": "-amount"}, {"state": "complete", "sort": "slip"}, {"type": "fill", "sort": "-day"}):
        criteria = {k: v for k, v in query.items() if k != "sort"}
        want = {r.number: r for r in rows}
        order = expected(rows, **query)
        # The rows as a plain list, in the table the register always gave them to, written as the export writes.
        out = io.StringIO()
        # (django-tables2's own as_values, cell by cell, which RegisterTable's gives faster.)
        table = RegisterTable([want[n] for n in order], event=crowd.event)
        csv_safe.writer(out).writerows(tables.Table.as_values(table))
        blind = RegisterTable([want[n] for n in order], event=crowd.event, hidden_days={crowd.day.date})
        assert list(blind.as_values()) == list(tables.Table.as_values(blind))
        assert csv_rows(client, crowd, **query) == list(csv.reader(io.StringIO(out.getvalue())))[1:], criteria


def test_the_voids_page_shows_fifty_voids_a_page_and_how_many(client, cast):
    stock(cast)
    for n in range(55):
        sale = services.sale(day=cast.day, chips={"1": 1}, cash=100, signed=cast.signed(**SALE_SIGNED))
        services.void(
            day=cast.day,
            target=sale,
            reason=f"mistake {n}",
            signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
        )
    login(client, cast, "auditor")
    url = reverse("cage:voids", args=[cast.event.slug])

    def voids_on(response) -> list[str]:
        body = response.content.decode()
        body = body[body.index('id="voids"') : body.index("</tbody>")]
        return re.findall(r">(Void \d+)</a>", body)

    first = client.get(url)
    assert voids_on(first) == [f"Void {n}" for n in range(1, 51)]
    page = first.content.decode()
    assert '<p id="voids-count">55 voids</p>' in page
    assert "?page=2" in page and "Chip sale 55: all issued" not in page
    assert "Chip sale 1–55: all issued" in page  # the serials stay whole
    assert voids_on(client.get(url + "?page=2")) == [f"Void {n}" for n in range(51, 56)]
    assert voids_on(client.get(url + "?page=99")) == [f"Void {n}" for n in range(51, 56)]
    assert voids_on(client.get(url + "?page=x")) == [f"Void {n}" for n in range(1, 51)]


def test_the_page_size_is_the_register_s_own_whatever_the_address_asks(client, crowd):
    """?per_page= is no choice the register offers: a page is 50 slips (a season's register asked
    for 100,000 a page built every row)."""
    from cage.registers import PER_PAGE

    login(client, crowd, "dric")
    assert len(every_row(crowd)) > PER_PAGE
    assert len(page_numbers(client.get(register_url(crowd), {"per_page": "100000"}))) == PER_PAGE


def test_the_voids_page_shows_the_amount_voided_and_filters_by_gaming_day(client, busy):
    login(client, busy, "auditor")
    url = reverse("cage:voids", args=[busy.event.slug])
    every = client.get(url)
    assert '<p id="voids-count">1 void</p>' in every.content.decode()
    assert page_status(every) == "Page 1 of 1"
    # The amount of the slip voided, as the register gives it (a sale of 2 × $5).
    text = voids_text(client, busy)
    assert f"Void 1 Done: reversed Chip sale 1 $10.00 {SECOND}" in text
    # A day of its own: its voids, counted; the pages keep the day.
    second = client.get(url, {"day": busy.day.pk}).content.decode()
    assert '<p id="voids-count">1 void</p>' in second and ">Void 1</a>" in second
    assert f'<option value="{busy.day.pk}" selected>' in second
    first = client.get(url, {"day": busy.first_day.pk}).content.decode()
    assert '<p id="voids-count">0 voids</p>' in first and ">Void 1</a>" not in first
    assert "No slip was voided that day." in first
    # A day not in the list: said beside the field; no void listed.
    for day in ("abc", "999999"):
        refused = client.get(url, {"day": day})
        assert refused.status_code == 400
        assert field_errors(refused) == {"id_day": f"“{day}” is not in this list; pick one of its choices."}
        html = refused.content.decode()
        assert 'id="voids-refused"' in html and 'id="voids"' not in html and 'id="voids-count"' not in html
        assert "Chip sale 1–2: all issued" in htmllib.unescape(html)  # the serials stay whole


def test_the_voids_page_in_french_says_where_it_stands(client, busy):
    login(client, busy, "auditor")
    in_french(client)
    response = client.get(reverse("cage:voids", args=[busy.event.slug]))
    # Tags out, spaces as sent: a no-break space stays one.
    text = htmllib.unescape(re.sub(r"[ \n\t]+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))
    assert "Page 1 sur 1" in text
    assert "Annulation 1 Faite\u00a0: contrepassée Vente de jetons 1 10,00\u00a0$" in text
    # The no-break space before a colon comes from the translation itself.
    assert "Annulation 1\u00a0: tous émis" in text


def test_a_voided_slip_names_its_void_with_french_punctuation(client, busy):
    login(client, busy, "auditor")
    in_french(client)
    sale = Slip.objects.get(event=busy.event, slip_type=SlipType.SALE, serial=1)
    html = client.get(reverse("cage:slip", args=[busy.event.slug, sale.pk])).content.decode()
    void = Slip.objects.get(event=busy.event, slip_type=SlipType.VOID)
    url = reverse("cage:slip", args=[busy.event.slug, void.pk])
    assert f'<a href="{url}">Annulation 1</a>\u00a0: Wrong chips handed over' in html


@pytest.mark.parametrize("sent", [False, True])
def test_the_filter_s_lists_are_written_as_django_s_own_select_writes_them(busy, sent):
    """cage.registers.ListSelect writes its options in one pass: the same select, options, choice
    made and attributes (an error's aria-invalid) as Django's Select through its templates."""
    from django import forms

    from cage.registers import RegisterFilter

    data = {"day": str(busy.day.pk), "type": "fill", "state": "voided", "table": "abc"} if sent else None
    form = RegisterFilter(data, event=busy.event)
    if data:
        assert not form.is_valid() and "table" in form.errors
    for name in ("day", "type", "table", "person", "state"):
        bound = form[name]
        plain = forms.Select(attrs=bound.field.widget.attrs)
        plain.choices, plain.is_required = bound.field.widget.choices, bound.field.widget.is_required
        ours, django_s = str(bound), bound.as_widget(widget=plain)

        def parts(html):
            options = re.findall(r"<option[^>]*>[^<]*</option>", html)
            attributes = sorted(re.search(r"<select([^>]*)>", html).group(1).split())
            return attributes, options

        assert parts(ours) == parts(django_s), name
        assert len(parts(ours)[1]) > 1, name
    if data:
        assert f'<option value="{busy.day.pk}" selected>' in str(form["day"])
        assert '<option value="fill" selected>' in str(form["type"])
        assert 'aria-invalid="true"' in str(form["table"])


def test_a_gaming_day_may_be_named_by_its_date_in_the_address(client, busy):
    # ?day=2026-09-12, as people write it, chooses the same day as the list's own value, on the
    # register and the voids alike; a date that is not one of the event's is refused as any choice
    # not in the list is.
    login(client, busy, "auditor")
    for url in (reverse("cage:register", args=[busy.event.slug]), reverse("cage:voids", args=[busy.event.slug])):
        by_id = client.get(url, {"day": busy.day.pk}).content.decode()
        by_date = client.get(url, {"day": SECOND}).content.decode()
        assert f'<option value="{busy.day.pk}" selected>' in by_date
        strip = lambda html: re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"|\?[^"]*day=[^"&]*', "", html)  # noqa: E731
        assert strip(by_date) == strip(by_id), url
        refused = client.get(url, {"day": "2025-01-01"})
        assert refused.status_code == 400
        assert field_errors(refused) == {"id_day": "“2025-01-01” is not in this list; pick one of its choices."}
