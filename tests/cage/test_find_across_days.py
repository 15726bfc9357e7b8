"""Find a slip across the event's days (the register, every day): by serial, amount, a person's name
or code, and slip type; each result with its day and a link to the slip; the first 50 shown, and
how many more said. The DRIC and the auditor search; the queries do not grow with the days."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cage.importer import import_records
from cage.selectors.registers import register_slips
from core.money import cents_str
from tests.conftest import give_login
from tests.records_generator import generated_event

pytestmark = pytest.mark.django_db


def imported(slug, **shape):
    data = generated_event(seed=11, leave_last_day_open=True, **shape)
    data["event"]["slug"] = slug
    event = import_records(data)
    give_login(event.people.get(code="ann"), f"ann-{slug}")
    return event


@pytest.fixture
def event(db):
    return imported("find-days", days=3, records_per_day=40)


def page(client, event, **query):
    client.force_login(event.people.get(code="ann").user)
    return client.get(reverse("cage:register", args=[event.slug]), query)


def test_a_slip_of_an_earlier_day_is_found_by_its_serial_and_type_with_its_day_and_link(client, event):
    last, first = event.days.order_by("-date")[0], event.days.order_by("date")[0]
    slip = event.slips.filter(day=first, slip_type="fill").order_by("serial").last()
    response = page(client, event, serial=f"Fill {slip.serial}", type="fill")
    html = response.content.decode()
    assert response.status_code == 200 and '<span id="register-count">1 slip</span>' in html
    assert reverse("cage:slip", args=[event.slug, slip.pk]) in html
    assert first.date.isoformat() in html and last != first
    # The serial alone finds that number of every type, on every day.
    by_serial = register_slips(event, serial=slip.serial)
    assert len(by_serial) == event.slips.filter(serial=slip.serial).count() > 1


def test_slips_are_found_by_amount_across_the_days(client, event):
    rows = list(register_slips(event, slip_type="sale"))
    amount = max(rows, key=lambda r: r.amount or 0).amount
    same = {r.slip.pk for r in rows if r.amount == amount}
    found = register_slips(event, amount=amount, slip_type="sale")
    assert {r.slip.pk for r in found} == same
    html = page(client, event, amount=cents_str(amount), type="sale").content.decode()
    assert all(reverse("cage:slip", args=[event.slug, pk]) in html for pk in same)


def test_slips_are_found_by_a_part_of_a_name_or_a_whole_code(client, event):
    person = event.people.get(code="ann")
    by_code = {r.slip.pk for r in register_slips(event, who="ANN")}
    by_name = {r.slip.pk for r in register_slips(event, who=person.name.split()[0][1:].lower())}
    by_choice = {r.slip.pk for r in register_slips(event, person=person)}
    assert by_code == by_choice and by_choice <= by_name and by_choice
    assert len(register_slips(event, who="an")) >= len(by_code)  # a part of a code is no code
    assert not len(register_slips(event, who="nobody-here"))


def test_more_than_a_page_says_how_many_more(client, event):
    total = event.slips.count()
    html = page(client, event, who="ann").content.decode()
    found = len(register_slips(event, who="ann"))
    assert found > 50
    assert f"{found - 50} more slips match beyond the first 50" in html
    assert total > found or total == found


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"serial": "four"}, "A serial is the slip&#x27;s number"),
        ({"amount": "1,500"}, "1,500"),
        ({"amount": "-5"}, "amount limits of a slip or count"),
    ],
)
def test_what_is_typed_wrong_lists_nothing_and_says_why(client, event, query, words):
    response = page(client, event, **query)
    html = response.content.decode()
    assert response.status_code == 400 and 'id="register-refused"' in html
    assert "what is typed above" in html and words in html
    assert 'id="register-count"' not in html


def queries(client, event, query) -> int:
    client.force_login(event.people.get(code="ann").user)
    url = reverse("cage:register", args=[event.slug]) + f"?{query}"
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_search_runs_the_same_queries_for_twice_the_days(client):
    small = imported("find-small", days=2, records_per_day=30)
    large = imported("find-large", days=4, records_per_day=60, tables=8)
    assert large.days.count() == 2 * small.days.count()
    # Each search finds slips in both events (an empty page reads none of their rows).
    for query in ("serial=3", "amount=5", "who=ann", "who=ann&type=fill&serial=2", "amount=5&sort=-amount"):
        found = [len(register_slips(e, **criteria(e, query))) for e in (small, large)]
        assert all(found), (query, found)
        assert queries(client, small, query) == queries(client, large, query), query


def criteria(event, query):
    from django.http import QueryDict

    from cage.registers import RegisterFilter

    form = RegisterFilter(QueryDict(query), event=event)
    assert form.is_valid(), form.errors
    return form.criteria()
