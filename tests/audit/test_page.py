"""The audit trail's pages: who may read them, what each shows (an event's entries and its people's
logins; the logins tied to no event for the administrator), the filters, sorting, paging, the CSV
with formula cells neutralised, and a fixed number of queries whatever the length of the trail."""

import csv
import datetime
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from audit import services as audit
from audit.models import AuditEntry
from audit.selectors import event_entries
from events import services as event_services
from tests.audit.helpers import ADDRESS
from tests.conftest import PASSWORD, Client, login, make_cast

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

HEADER = [
    "When",
    "Who",
    "Action",
    "Outcome",
    "What",
    "Rule",
    "Old and new",
    "From",
    "When (ISO 8601)",
    "Action code",
    "Login",
    "Person",
    "Roles",
    "Slip",
    "Old",
    "New",
    "Via",
    "Request",
]


def trail_url(cast, **query):
    url = reverse("audit:event", args=[cast.event.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def summaries(response) -> list[str]:
    """The "What" cell of each row on the page, in order."""
    html = response.content.decode()
    body = html[html.index('id="audit"') :]
    body = body[body.index("<tbody") : body.index("</tbody>")]
    cells = re.findall(r'<td[^>]*class="col-summary"[^>]*>(.*?)</td>', body, flags=re.S)
    return [re.sub(r"\s*<a .*", "", cell, flags=re.S).strip() for cell in cells]


def csv_rows(client, url) -> list[list[str]]:
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    # A UTF-8 byte order mark first, so that Excel reads the accents right.
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == HEADER
    return rows[1:]


def at(day: datetime.date, hour: int = 12) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))


def entry_at(when, action, message, **fields):
    """An entry recorded at a given time (as if made then): a new row, like any other."""
    made = audit.entry(action, message, **fields)
    made.at = when
    made.save()
    return made


# --- who may read it ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, status",
    [
        ("dric", 200),
        ("auditor", 200),
        ("general_cashier", 403),
        ("chip_cashier", 403),
        ("runner", 403),
        ("dealer", 403),
    ],
)
def test_the_event_trail_is_for_the_dric_and_the_auditor(client, cast, persona, status):
    login(client, cast, persona)
    response = client.get(trail_url(cast))
    assert response.status_code == status
    event_page = client.get(reverse("events:detail", args=[cast.event.slug])).content.decode()
    assert (trail_url(cast) in event_page) == (status == 200)  # in the navigation only for those who may
    if status == 200:
        assert client.post(trail_url(cast)).status_code == 405  # a page to read; nothing is posted to it


def test_the_administrator_reads_every_trail_and_others_none(client, cast, admin_user, outsider):
    assert client.get(trail_url(cast)).status_code == 302  # to the login page
    client.force_login(outsider)
    assert client.get(trail_url(cast)).status_code == 403
    assert client.get(reverse("audit:logins")).status_code == 403
    login(client, cast, "dric")
    assert client.get(reverse("audit:logins")).status_code == 403
    client.force_login(admin_user)
    assert client.get(trail_url(cast)).status_code == 200
    assert client.get(reverse("audit:logins")).status_code == 200
    assert reverse("audit:logins") in client.get(reverse("events:home")).content.decode()


# --- what each page shows -------------------------------------------------------------------------


def test_an_event_s_trail_shows_its_entries_and_its_people_s_logins_only(cast, admin_user):
    other = make_cast("other-fair")
    client = Client(REMOTE_ADDR=ADDRESS)
    client.post(reverse("login"), {"username": cast.runner.user.username, "password": "wrong-guess-1"})
    client.post(reverse("login"), {"username": other.runner.user.username, "password": "wrong-guess-2"})
    client.post(reverse("login"), {"username": "nobody-at-all", "password": "wrong-guess-3"})
    login(client, other, "dric")
    client.post(reverse("events:tables", args=[other.event.slug]), {"code": "BJ-OTHER", "game": "blackjack"})

    login(client, cast, "dric")
    page = client.get(trail_url(cast, outcome="refused")).content.decode()
    assert f"Failed login as {cast.runner.user.username}" in page
    assert other.runner.user.username not in page and "nobody-at-all" not in page
    assert "BJ-OTHER" not in client.get(trail_url(cast)).content.decode()
    # Her own login, just now, is on her event's trail too.
    assert f"{cast.dric.user.username} logged in" in client.get(trail_url(cast, action="login")).content.decode()

    # A name that is nobody's login belongs to no event: the administrator reads it on the logins page.
    client.force_login(admin_user)
    logins = client.get(reverse("audit:logins") + "?outcome=refused").content.decode()
    assert "Failed login as nobody-at-all" in logins and f"Failed login as {other.runner.user.username}" in logins
    assert "BJ-1" not in logins  # event entries stay on their event's page
    rows = csv_rows(client, reverse("audit:logins") + "?login=NOBODY-AT-ALL&export=csv")
    assert [row[10] for row in rows] == ["nobody-at-all"]


def test_the_page_shows_who_when_what_and_the_old_and_new_values(client, cast):
    login(client, cast, "dric")
    client.post(
        reverse("events:registration_change", args=[cast.event.slug]),
        {"person": cast.runner.pk, "registration": "suspended"},
    )
    html = client.get(trail_url(cast, action="registration_changed")).content.decode()
    row = html[html.index("<tbody") : html.index("</tbody>")]
    assert "Runner&#x27;s registration: Good standing to Suspended" in row
    assert "Dric" in row and "DRIC" in row and ADDRESS not in row  # the test client's own address
    assert "Good standing → Suspended" in row and "Done" in row


# --- filters, sorting, paging ---------------------------------------------------------------------


@pytest.fixture
def week(cast):
    """Entries over three days: a refusal and a signature on the first, a table on the second, an
    export on the third."""
    day1, day2, day3 = (datetime.date(2026, 9, 11) + datetime.timedelta(days=n) for n in range(3))
    entry_at(at(day1, 19), "slip_recorded", "Refused: %(m)s", params={"m": "no"}, event=cast.event, outcome="refused")
    entry_at(at(day1, 20), "slip_signed", "signed by Dealer", event=cast.event, about=cast.dealer)
    entry_at(at(day2, 18), "table_added", "table on day 2", event=cast.event)
    entry_at(at(day3, 23), "exported", "export on day 3", event=cast.event)
    return day1, day2, day3


def test_the_filters_narrow_by_person_action_dates_and_outcome(client, cast, week):
    day1, day2, day3 = week
    login(client, cast, "auditor")
    assert summaries(client.get(trail_url(cast, since=day2, until=day2))) == ["table on day 2"]
    assert summaries(client.get(trail_url(cast, since=day2, until=day3))) == ["export on day 3", "table on day 2"]
    assert summaries(client.get(trail_url(cast, until=day1, outcome="refused"))) == ["Refused: no"]
    assert summaries(client.get(trail_url(cast, until=day1, outcome="done"))) == ["signed by Dealer"]
    assert summaries(client.get(trail_url(cast, action="exported"))) == ["export on day 3"]
    by_dealer = summaries(client.get(trail_url(cast, person=cast.dealer.pk)))
    assert "signed by Dealer" in by_dealer and "table on day 2" not in by_dealer
    assert "Dealer added to the event as dealer" in by_dealer  # what concerns them, too
    # A choice that is not valid narrows nothing and says why.
    response = client.get(trail_url(cast, since="yesterday", action="nonsense"))
    assert response.status_code == 200 and "Enter a valid date" in response.content.decode()
    assert len(summaries(response)) == min(50, event_entries(cast.event).count())


def test_the_page_sorts_newest_first_or_by_the_column_chosen(client, cast, week):
    day1, _day2, day3 = week
    login(client, cast, "dric")
    window = {"since": day1, "until": day3}
    assert summaries(client.get(trail_url(cast, **window))) == [
        "export on day 3",
        "table on day 2",
        "signed by Dealer",
        "Refused: no",
    ]
    assert summaries(client.get(trail_url(cast, sort="at", **window)))[0] == "Refused: no"
    # By action code: exported, slip_recorded, slip_signed, table_added.
    assert summaries(client.get(trail_url(cast, sort="action", **window))) == [
        "export on day 3",
        "Refused: no",
        "signed by Dealer",
        "table on day 2",
    ]
    assert summaries(client.get(trail_url(cast, sort="outcome", **window)))[-1] == "Refused: no"


def test_the_page_shows_fifty_entries_at_a_time(client, cast):
    for n in range(60):
        audit.record("page", "entry %(n)s", {"n": n}, event=cast.event)
    login(client, cast, "dric")
    first = client.get(trail_url(cast, action="page"))
    assert summaries(first)[:2] == ["entry 59", "entry 58"] and len(summaries(first)) == 50
    assert "60 entries" in first.content.decode()
    assert summaries(client.get(trail_url(cast, action="page", page=2))) == [f"entry {n}" for n in range(9, -1, -1)]


# --- CSV ------------------------------------------------------------------------------------------


def test_the_csv_has_every_entry_chosen_and_no_cell_runs_as_a_formula(client, cast):
    event_services.person_add(
        event=cast.event, code="mal", name='=HYPERLINK("http://evil","x")', born_on=datetime.date(1980, 1, 1)
    )
    Client(REMOTE_ADDR=ADDRESS).post(
        reverse("login"), {"username": cast.dealer.user.username, "password": "@SUM(1+1)*cmd|' /C calc'!A0"}
    )
    entry_at(at(datetime.date(2026, 9, 11)), "page", "+%(x)s", params={"x": "1"}, event=cast.event, rule="-2+3")
    login(client, cast, "dric")
    rows = csv_rows(client, trail_url(cast, export="csv"))
    assert len(rows) == event_entries(cast.event).exclude(action="exported").count()  # its people's logins too
    assert len(rows) > AuditEntry.objects.filter(event=cast.event).count()
    # The action as people read it, and its code in a column of its own for machines.
    added = next(r for r in rows if r[2] == "Person added" and "HYPERLINK" in r[4])
    assert added[9] == "person_added"
    assert added[4].startswith("'=HYPERLINK") and added[15].startswith('{"born_on"')
    plus = next(r for r in rows if r[4] == "'+1")
    # People read the time to the minute; machines, the exact time with its offset.
    assert plus[5] == "'-2+3" and plus[0] == "2026-09-11 12:00" and plus[8] == "2026-09-11T12:00:00-04:00"
    failed = next(r for r in rows if r[9] == "login" and r[3] == "Refused")
    assert failed[2] == "Log in" and failed[10] == cast.dealer.user.username and failed[7] == ADDRESS
    assert "@SUM" not in "".join("".join(r) for r in rows)  # a password typed is never recorded
    assert not any(r[9] == "exported" for r in rows)  # the export is recorded once it is made
    exported = AuditEntry.objects.get(action="exported", event=cast.event)
    assert exported.new == {"what": "audit_trail", "format": "csv", "rows": len(rows)}


def test_the_csv_follows_the_filters_and_the_sort(client, cast, week):
    day1, _day2, day3 = week
    login(client, cast, "auditor")
    rows = csv_rows(client, trail_url(cast, since=day1, until=day3, sort="at", export="csv"))
    assert [r[4] for r in rows] == ["Refused: no", "signed by Dealer", "table on day 2", "export on day 3"]
    assert [r[3] for r in rows] == ["Refused", "Done", "Done", "Done"]


# --- a fixed number of queries ----------------------------------------------------------------------


def queries_for(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    # The export's own entry is one INSERT whatever the length of the trail.
    return len(captured.captured_queries)


def test_the_page_and_the_csv_cost_the_same_queries_whatever_the_number_of_entries(client, cast):
    login(client, cast, "dric")
    urls = [trail_url(cast), trail_url(cast, sort="who", page=1), trail_url(cast, export="csv")]
    few = [queries_for(client, url) for url in urls]
    for n in range(120):
        audit.record("slip_signed", "entry %(n)s", {"n": n}, event=cast.event, about=cast.dealer, new={"n": n})
        Client().post(reverse("login"), {"username": cast.runner.user.username, "password": f"wrong-{n}"})
    assert AuditEntry.objects.count() > 250
    many = [queries_for(client, url) for url in urls]
    assert many == few


def test_the_person_filter_lists_the_event_s_people(client, cast):
    assert client.login(username=cast.dric.user.username, password=PASSWORD)
    page = client.get(trail_url(cast)).content.decode()
    for person in (cast.dric, cast.runner, cast.auditor):
        assert f'<option value="{person.pk}">{person.name}</option>' in page


def test_the_filters_read_as_words_with_their_help_apart(client, cast, admin_user):
    client.force_login(admin_user)
    html = client.get(reverse("audit:logins")).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "Loginas typed" not in re.sub(r"<[^>]+>", "", html)
    assert "Login (the login name as it was typed, also one that is nobody" in text
