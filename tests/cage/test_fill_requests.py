"""A dealer asks for a fill from her tablet (My slips); the request moves nothing, appears at the cage
home for the Chip Cashier, who makes it into a fill (the request then names it) or declines it with
a reason; the dealer may withdraw it. Each refusal carries its code and changes nothing."""

import html

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from cage import services
from cage.models import FillRequest, FillRequestOutcome, Posting, Slip
from cage.services import fill_requests
from core.append_only import AppendOnlyError
from core.rules import RuleViolation
from events.models import GamingDay
from tests.cage.helpers import open_table, stock
from tests.conftest import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(cast):
    stock(cast)
    open_table(cast)  # the dealer counts BJ-1's opener: her table today
    return cast


def ask(cast, **changes):
    fields = {"day": cast.day, "table": cast.bj, "chips": {"5": 20}, "note": "", "person": cast.dealer, **changes}
    return fill_requests.ask(**fields)


def refused(code, act):
    with pytest.raises(RuleViolation) as caught:
        act()
    assert caught.value.code == code, caught.value.text
    return caught.value


def test_a_request_moves_nothing_and_is_on_the_trail(floor):
    postings = Posting.objects.count()
    asked = ask(floor, chips={"5": 20, "1": 0}, note="two racks")
    assert asked.chips == {"5": 20}
    assert asked.note == "two racks"
    assert Posting.objects.count() == postings
    assert not hasattr(asked, "outcome") or FillRequestOutcome.objects.filter(request=asked).count() == 0
    entry = AuditEntry.objects.filter(action="fill_requested").get()
    assert entry.new["table"] == "BJ-1"
    with pytest.raises(AppendOnlyError):
        asked.save()


def test_refusals_each_with_its_code_and_nothing_written(floor):
    cast = floor
    refused("fill_request.table_not_open", lambda: ask(cast, table=cast.wheel))
    refused("chips.none_given", lambda: ask(cast, chips={"5": 0}))
    refused("fill_request.not_the_dealer", lambda: ask(cast, person=cast.dealer2))
    refused("fill_request.not_the_dealer", lambda: ask(cast, person=cast.runner))
    refused("note.too_long", lambda: ask(cast, note="x" * 201))
    text = refused("fill_request.table_not_open", lambda: ask(cast, table=cast.wheel)).text
    assert "T&C 2.1.2" in text
    GamingDay.objects.filter(pk=cast.day.pk).update(status=GamingDay.Status.RECONCILING)
    cast.day.refresh_from_db()
    refused("fill_request.day_not_open", lambda: ask(cast))
    refused("fill_request.day_not_open", lambda: ask(cast, day=None))
    assert FillRequest.objects.count() == 0


def test_the_fill_made_from_a_request_answers_it(floor):
    cast = floor
    asked = ask(cast, note="for the high table")
    fill = services.fill(
        day=cast.day,
        table=cast.bj,
        chips=asked.chips,
        note=asked.note,
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner"),
        allow_pending=True,
        fill_request=asked,
    )
    outcome = FillRequestOutcome.objects.get(request=asked)
    assert (outcome.outcome, outcome.slip, outcome.person) == ("made", fill, cast.chip_cashier)
    assert fill.details["note"] == "for the high table"
    # Answered once: neither withdrawn nor declined nor made again.
    refused("fill_request.answered", lambda: fill_requests.withdraw(asked=asked, person=cast.dealer))
    refused(
        "fill_request.answered",
        lambda: fill_requests.decline(asked=asked, person=cast.chip_cashier, reason="no"),
    )


def test_a_fill_of_another_table_does_not_answer_a_request_and_is_not_written(floor):
    cast = floor
    other = open_table(cast, cast.wheel)
    asked = ask(cast)
    fills = Slip.objects.filter(slip_type="fill").count()
    refused(
        "fill_request.other_table",
        lambda: services.fill(
            day=cast.day,
            table=other,
            chips={"5": 20},
            signed=cast.signed(issued_by="chip_cashier", carried_by="runner"),
            allow_pending=True,
            fill_request=asked,
        ),
    )
    assert Slip.objects.filter(slip_type="fill").count() == fills
    assert not FillRequestOutcome.objects.filter(request=asked).exists()


def test_withdraw_and_decline(floor):
    cast = floor
    first, second = ask(cast), ask(cast, chips={"1": 50})
    refused("fill_request.not_yours", lambda: fill_requests.withdraw(asked=first, person=cast.dealer2))
    fill_requests.withdraw(asked=first, person=cast.dealer)
    assert first.outcome.outcome == "withdrawn"
    refused(
        "fill_request.reason_missing", lambda: fill_requests.decline(asked=second, person=cast.chip_cashier, reason=" ")
    )
    refused(
        "fill_request.reason_too_long",
        lambda: fill_requests.decline(asked=second, person=cast.chip_cashier, reason="x" * 201),
    )
    refused(
        "fill_request.not_chip_cashier", lambda: fill_requests.decline(asked=second, person=cast.runner, reason="no")
    )
    fill_requests.decline(asked=second, person=cast.chip_cashier, reason="the table closes in five minutes")
    second.refresh_from_db()
    assert second.outcome.reason == "the table closes in five minutes"
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"fill_requested", "fill_request_withdrawn", "fill_request_declined"} <= actions


def test_the_pages_dealer_asks_cc_makes_the_fill_dealer_sees_it(floor, client):
    cast, slug = floor, floor.event.slug
    login(client, cast, "dealer")
    mine = client.get(reverse("cage:mine", args=[slug])).content.decode()
    assert 'id="fill-request-form"' in mine
    response = client.post(
        reverse("cage:fill_request_ask", args=[slug]),
        {"table": cast.bj.pk, "chips_5": "20", "chips_1": "", "chips_25": "", "note": "please"},
    )
    assert response.status_code == 302
    asked = FillRequest.objects.get()
    # A closed table is refused with the rule, not "Select a valid choice".
    response = client.post(
        reverse("cage:fill_request_ask", args=[slug]), {"table": cast.wheel.pk, "chips_5": "20"}, follow=True
    )
    assert "table WOF-1 is closed; a fill is asked for an open table (T&C 2.1.2)" in html.unescape(
        response.content.decode()
    )
    assert FillRequest.objects.count() == 1

    client.logout()
    login(client, cast, "chip_cashier")
    home = client.get(reverse("cage:home", args=[slug])).content.decode()
    make = reverse("cage:slip_new", args=[slug, "fill"]) + f"?request={asked.pk}"
    assert make in home
    form = client.get(make).content.decode()
    assert 'value="please"' in form and 'value="20"' in form
    response = client.post(
        make,
        {
            "table": cast.bj.pk,
            "runner": cast.runner.pk,
            "chips_5": "20",
            "note": "please",
            "sign_issued_by": cast.chip_cashier.pk,
            "request_key": "k1",
        },
    )
    fill = Slip.objects.get(slip_type="fill")
    assert response.status_code == 302, response.content.decode()[:3000]
    outcome = FillRequestOutcome.objects.get(request=asked)
    assert (outcome.slip, outcome.person) == (fill, cast.chip_cashier)
    assert fill.details["note"] == "please"
    assert "fill_request" not in fill.details
    # Gone from the cage home's panel once answered.
    home = client.get(reverse("cage:home", args=[slug])).content.decode()
    assert f'data-request="{asked.pk}"' not in home

    client.logout()
    login(client, cast, "dealer")
    mine = client.get(reverse("cage:mine", args=[slug])).content.decode()
    assert fill.number in mine


def test_only_the_chip_cashier_declines_and_only_dealers_ask(floor, client):
    cast, slug = floor, floor.event.slug
    asked = ask(cast)
    login(client, cast, "runner")
    response = client.post(reverse("cage:fill_request_ask", args=[slug]), {"table": cast.bj.pk, "chips_5": "1"})
    assert response.status_code == 403
    client.logout()
    login(client, cast, "general_cashier")
    response = client.post(reverse("cage:fill_request_decline", args=[slug, asked.pk]), {"reason": "no"})
    assert response.status_code == 403
    assert not FillRequestOutcome.objects.exists()
