"""The cage home lists the latest slips of the day, not every one (a season's busy day holds
thousands): it says how many there are in all and links to the register filtered to the day; "Find
a slip" searches every slip of the day on the server. A generated records file, imported, with its
last day still open and more slips on that day than the home shows."""

import re
import unicodedata

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.translation import override

from audit.models import AuditEntry
from cage.importer import import_records
from cage.models import Slip
from cage.selectors.amounts import amount_of, cash_moved_subquery
from cage.selectors.slips import search_amount
from cage.views import HOME_SLIPS
from tests.conftest import Client, give_login
from tests.records_generator import generated_event

pytestmark = pytest.mark.django_db

SLIP_LINK = re.compile(r'<a class="slipno" href="/cage/[^/]+/slips/([0-9]+)/">')


@pytest.fixture
def event():
    data = generated_event(seed=11, days=2, records_per_day=80, leave_last_day_open=True)
    data["event"]["slug"] = "home-slips"
    event = import_records(data)
    give_login(event.people.get(code="ann"), "ann-home-slips")
    return event


@pytest.fixture
def ann(client, event):
    client.force_login(event.people.get(code="ann").user)
    return client


def today(event):
    return event.days.order_by("date").last()


def home(client, event, **query):
    response = client.get(reverse("cage:home", args=[event.slug]), query)
    assert response.status_code == 200
    html = response.content.decode()
    return html, [int(pk) for pk in SLIP_LINK.findall(html)]


def register_table(html: str) -> str:
    return html[html.index('id="register"') :]


def test_the_home_shows_the_latest_slips_newest_first_says_how_many_and_links_to_the_day(ann, event):
    day = today(event)
    total = day.slips.count()
    assert total > HOME_SLIPS
    html, shown = home(ann, event)
    assert shown == list(day.slips.order_by("-id").values_list("pk", flat=True)[:HOME_SLIPS])
    assert f"The latest {HOME_SLIPS} of {total} slips of the day." in html
    link = f'href="/cage/{event.slug}/register/?day={day.pk}" id="day-register">All {total} slips of the day'
    assert link in html


def test_the_link_shows_the_days_slips_and_only_them(ann, event):
    day = today(event)
    earlier = event.days.order_by("date").first()
    assert earlier.slips.exists()
    response = ann.get(reverse("cage:register", args=[event.slug]), {"day": day.pk})
    html = response.content.decode()
    assert f'<span id="register-count">{day.slips.count()} slips</span>' in html
    table = register_table(html)
    assert day.date.isoformat() in table and earlier.date.isoformat() not in table
    # Paged as the register pages: its second page holds the rest of the day.
    second = ann.get(reverse("cage:register", args=[event.slug]), {"day": day.pk, "page": 2}).content.decode()
    rows = SLIP_LINK.pattern.replace('class="slipno" ', "")
    listed = {int(pk) for page in (html, second) for pk in re.findall(rows, register_table(page))}
    assert listed == set(day.slips.values_list("pk", flat=True))


@pytest.mark.parametrize("value", ["abc", "-1", "999999999", "1.5", "١"])
def test_a_bad_day_in_the_register_is_told_plainly_never_an_error(ann, event, value):
    response = ann.get(reverse("cage:register", args=[event.slug]), {"day": value})
    # Refused, listing nothing: every slip under a day the reader believes chosen would mislead.
    assert response.status_code == 400
    errors = re.findall(r'<span class="errorlist" id="id_day_error">([^<]+)</span>', response.content.decode())
    assert errors == [f"“{value}” is not in this list; pick one of its choices."], value
    assert 'id="register-refused"' in response.content.decode()


def old_slip(event, **having):
    """The day's oldest slip with these fields set that the home does not show."""
    day = today(event)
    latest = set(day.slips.order_by("-id").values_list("pk", flat=True)[:HOME_SLIPS])
    slip = day.slips.filter(**having).exclude(pk__in=latest).order_by("id").first()
    assert slip is not None
    return slip


def test_find_a_slip_finds_an_old_slip_by_its_number(ann, event):
    slip = old_slip(event)
    html, shown = home(ann, event, q=slip.number)
    assert shown == [slip.pk]
    assert f"1 slip of the day matches “{slip.number}”." in html
    # As a person types it: any case, spaces around, "#" before the serial.
    for query in (
        slip.number.upper(),
        f"  {slip.number.lower()}  ",
        f"{slip.number[: -len(str(slip.serial))]}#{slip.serial}",
    ):
        assert home(ann, event, q=query)[1] == [slip.pk], query
    # The serial alone: that slip among the others of the same serial.
    html, shown = home(ann, event, q=str(slip.serial))
    assert slip.pk in shown


def test_find_a_slip_finds_old_slips_by_table_code(ann, event):
    slip = old_slip(event, table__isnull=False)
    code = slip.table.code
    html, shown = home(ann, event, q=code.lower())
    matching = today(event).slips.filter(table__code__iexact=code)
    assert shown == list(matching.order_by("-id").values_list("pk", flat=True)[:HOME_SLIPS])
    assert slip.pk in shown or matching.count() > HOME_SLIPS
    assert f"slips of the day match “{code.lower()}”." in html or "The latest" in html


def test_find_a_slip_finds_an_old_slip_by_its_runner(ann, event):
    slip = old_slip(event, runner__isnull=False)
    first_name = slip.runner.name.split()[0]
    html, shown = home(ann, event, q=first_name)
    assert slip.pk in shown
    matching = today(event).slips.filter(runner__name__icontains=first_name)
    assert len(shown) == min(matching.count(), HOME_SLIPS)
    assert f"{matching.count()} slips of the day match “{first_name}”." in html


def test_a_nonsense_query_finds_no_slip_and_an_empty_or_odd_one_changes_nothing(ann, event):
    html, shown = home(ann, event, q="zzz no such slip")
    assert shown == [] and "No slip of the day matches “zzz no such slip”." in html and "No slip matches." in html
    assert "Nothing recorded yet today." not in html
    plain, latest = home(ann, event)
    for query in ("", "   ", "\x00", "\u200b\t"):
        assert home(ann, event, q=query)[1] == latest, repr(query)
    # Odd, never an error: wildcards are plain characters, a long query is cut, a NUL is dropped.
    for query in ("%", "_", "Fill 99999999999999999999", "x" * 5000, "BJ\x00-1", "<b>Fill</b>", "١٢"):
        html, shown = home(ann, event, q=query)
        assert "<b>Fill</b>" not in html
    assert home(ann, event, q="%")[1] == []


def test_a_search_costs_one_query_more_than_the_home_at_most(ann, event):
    def queries(**query):
        with CaptureQueriesContext(connection) as ctx:
            home(ann, event, **query)
        return len(ctx.captured_queries)

    home(ann, event)  # warm: the session's first request reads more than the next
    plain = queries()
    # The count of the matches; with none, no signatures or states are read.
    signer = today(event).slips.order_by("id").first().signatures.first().person.name.split()[0]
    assert [queries(q="Rae"), queries(q="BJ-1"), queries(q=signer), queries(q="   ")] == [plain + 1] * 3 + [plain]
    # A sum reads the day's slips once more, to work out their amounts.
    assert queries(q="$5.00") == plain + 2
    assert queries(q="zzz") < plain


def test_the_homes_gets_write_nothing(ann, event):
    before = Slip.objects.count(), AuditEntry.objects.count()
    home(ann, event)
    home(ann, event, q="Rae")
    ann.get(reverse("cage:register", args=[event.slug]), {"day": today(event).pk})
    assert (Slip.objects.count(), AuditEntry.objects.count()) == before


def test_the_count_and_the_search_in_french(event):
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-CA")
    client.force_login(event.people.get(code="ann").user)
    total = today(event).slips.count()
    html, shown = home(client, event)
    assert len(shown) == HOME_SLIPS
    assert f"Les {HOME_SLIPS} dernières des {total} fiches de la journée." in html
    assert f"Les {total} fiches de la journée, au registre" in html
    html, shown = home(client, event, q="zzz")
    assert "Aucune fiche de la journée ne correspond à «\u00a0zzz\u00a0»." in html
    # A slip's number as the French page prints it.
    slip = old_slip(event)
    with override("fr-ca"):
        number = slip.number
    with override("en-ca"):
        assert number != slip.number
    html, shown = home(client, event, q=number)
    assert shown == [slip.pk] and f"1 fiche de la journée correspond à «\u00a0{number}\u00a0»." in html


def test_find_a_slip_finds_old_slips_by_who_signed_them_within_the_day(ann, event):
    day = today(event)
    slip = old_slip(event, runner__isnull=True, table__isnull=True)
    signer = slip.signatures.select_related("person").first().person
    first_name = signer.name.split()[0]
    html, shown = home(ann, event, q=first_name.lower())
    matching = day.slips.filter(
        Q(signatures__person__name__icontains=first_name)
        | Q(runner__name__icontains=first_name)
        | Q(table__code__icontains=first_name)
    ).distinct()
    assert shown == list(matching.order_by("-id").values_list("pk", flat=True)[:HOME_SLIPS])
    assert slip.pk in shown or matching.count() > HOME_SLIPS
    assert len(shown) == len(set(shown))  # a slip she signed twice over is listed once
    # The day's slips only: the earlier day's, signed by her too, are not counted.
    earlier = event.days.order_by("date").first()
    assert earlier.slips.filter(signatures__person=signer).exists()
    count = matching.count()
    assert (f"{count} slips of the day match" if count > 1 else "1 slip of the day matches") in html


def test_a_number_is_found_as_printed_in_either_language(event):
    slip = old_slip(event)
    with override("fr-ca"):
        french = slip.number
    with override("en-ca"):
        english = slip.number
    folded = "".join(c for c in unicodedata.normalize("NFKD", french) if not unicodedata.combining(c))
    for language in ("fr-CA", "en-CA"):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(event.people.get(code="ann").user)
        for query in (french, english, english.lower(), folded.upper()):
            assert home(client, event, q=query)[1] == [slip.pk], (language, query)


@pytest.mark.parametrize(
    "text, cents",
    [
        ("200", 20000),
        ("$200", 20000),
        ("$ 200.00", 20000),
        ("200,00 $", 20000),
        ("200 $", 20000),
        ("12.5", 1250),
        ("$1,200.50", 120050),
        ("1 200,50 $", 120050),
        ("1,20", 120),
        ("0", None),
        ("$", None),
        ("Fill 12", None),
        ("BJ-1", None),
        ("12:30", None),
        ("١٢", None),
        ("99999999999", None),
    ],
)
def test_a_sum_is_read_as_a_cashier_types_it_in_either_language(text, cents):
    assert search_amount(text) == cents


def amount_cents(slip, event):
    values = {d.key: d.value_cents for d in event.denominations.all()}
    moved = Slip.objects.filter(pk=slip.pk).annotate(m=cash_moved_subquery()).get().m
    return amount_of(slip, values, moved)


def test_find_a_slip_finds_old_slips_by_their_amount_as_the_page_shows_it(ann, event):
    slip = old_slip(event, slip_type="sale")
    cents = amount_cents(slip, event)
    day = today(event)
    same = {s.pk for s in day.slips.all() if amount_cents(s, event) == cents}
    whole, part = divmod(cents, 100)
    for query in (f"${whole}.{part:02}", f"{whole},{part:02} $", f"{whole}.{part:02}"):
        html, shown = home(ann, event, q=query)
        assert slip.pk in shown, query
        # Every slip of that amount, and no other (but a slip numbered so when the sum is whole).
        assert set(shown) == same or len(same) > HOME_SLIPS, query
        assert f"of the day match “{query}”." in html or f"matches “{query}”." in html or "The latest" in html
    html, shown = home(ann, event, q=f"${whole + 1000}.01")
    assert shown == [] and "No slip of the day matches" in html
