"""A dealer asks for a fill from her tablet (My slips); the request moves nothing, appears at the cage
home for the Chip Cashier, who makes it into a fill (the request then names it) or declines it with
a reason; the dealer may withdraw it. Each refusal carries its code and changes nothing."""

import html
import re

import pytest
from django.urls import reverse
from django.utils.translation import override

from audit.models import AuditEntry
from cage import services
from cage.models import FillRequest, FillRequestOutcome, Posting, Slip
from cage.services import fill_requests
from core import local
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


def fill_for(cast, asked, **fields):
    """The Chip Cashier's fill answering `asked`, carried by the runner: its chips and table unless
    `fields` say otherwise."""
    return services.fill(
        day=cast.day,
        **{"table": cast.bj, "chips": asked.chips, **fields},
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner"),
        allow_pending=True,
        fill_request=asked,
    )


def answered_each_way(cast, made, declined, withdrawn, *, reason: str):
    """One request made into a fill, one declined by the Chip Cashier, one withdrawn by its dealer;
    the fill."""
    fill = fill_for(cast, made)
    fill_requests.decline(asked=declined, person=cast.chip_cashier, reason=reason)
    fill_requests.withdraw(asked=withdrawn, person=cast.dealer)
    return fill


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
    fill = fill_for(cast, asked, note=asked.note)
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
        lambda: fill_for(cast, asked, table=other, chips={"5": 20}),
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
    too_long = refused(
        "fill_request.reason_too_long",
        lambda: fill_requests.decline(asked=second, person=cast.chip_cashier, reason="x" * 201),
    )
    # One check for the reason and the request's note: the same limit and rule, each beside its field.
    note_too_long = refused("note.too_long", lambda: ask(cast, note="x" * 201))
    assert (too_long.field, note_too_long.field) == ("reason", "note")
    assert too_long.rule == note_too_long.rule == "the length of a note"
    assert too_long.text == "the reason is 201 characters long; it takes at most 200 (the length of a note)"
    fill_requests.decline(
        asked=ask(cast), person=cast.chip_cashier, reason="  " + "x" * 200 + "  "
    )  # as kept: stripped
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
    # A mistyped count is refused beside its field, and the form comes back as she typed it.
    response = client.post(
        reverse("cage:fill_request_ask", args=[slug]), {"table": cast.bj.pk, "chips_5": "2O", "note": "soon"}
    )
    page = response.content.decode()
    assert response.status_code == 200 and 'id="fill-request-refused"' in page
    field = re.search(r'<input[^>]*name="chips_5"[^>]*>', page).group(0)
    assert 'value="2O"' in field and 'aria-invalid="true"' in field
    assert 'value="soon"' in page and "contains letters" in html.unescape(page)
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


# --- her requests refresh with My slips' live panels -----------------------------------------------


def my_requests_panel(client, cast) -> str:
    """The dealer's own requests, as My slips' refresh (?panel=1) answers them."""
    response = client.get(reverse("cage:mine", args=[cast.event.slug]) + "?panel=1")
    assert response.status_code == 200
    part = response.content.decode()
    return part.split('data-panel="my-fill-requests"', 1)[1].split("data-panel=", 1)[0]


def test_what_the_cage_made_of_her_requests_comes_with_the_refresh(floor, client):
    cast = floor
    declined, made, withdrawn = ask(cast), ask(cast, chips={"1": 50}), ask(cast, chips={"25": 4})
    login(client, cast, "dealer")
    part = my_requests_panel(client, cast)
    for asked in (declined, made, withdrawn):
        row = part.split(f'data-request="{asked.pk}"', 1)[1].split("</tr>", 1)[0]
        assert "Waiting for the cage" in row and "Withdraw" in row
    # Each with what it comes to, beside its chips: 20 × $5, 50 × $1, 4 × $25.
    amounts = [
        re.search(r'<td class="num">([^<]*)</td>', part.split(f'data-request="{a.pk}"', 1)[1]).group(1)
        for a in (declined, made, withdrawn)
    ]
    assert amounts == ["$100.00", "$50.00", "$100.00"]
    # The refresh answers her requests alone: the form she may be typing in is left as it is.
    assert 'id="fill-request-form"' not in part

    fill = answered_each_way(cast, made, declined, withdrawn, reason="the table closes in five minutes")
    part = my_requests_panel(client, cast)
    rows = {a.pk: part.split(f'data-request="{a.pk}"', 1)[1].split("</tr>", 1)[0] for a in (declined, made, withdrawn)}
    assert "Declined" in rows[declined.pk] and "the table closes in five minutes" in rows[declined.pk]
    assert "Made into a fill" in rows[made.pk]
    assert f'href="{reverse("cage:slip", args=[cast.event.slug, fill.pk])}"' in rows[made.pk]
    assert fill.number in rows[made.pk]
    assert "Withdrawn" in rows[withdrawn.pk]
    assert "Waiting for the cage" not in part and "<form" not in part  # nothing left to withdraw


def test_only_a_dealers_page_and_its_refresh_have_her_requests_panel(floor, client):
    """The script swaps the panels the page has: its refresh answers the same ones, for each reader."""
    cast = floor
    for persona, shown in (("dealer", True), ("dealer2", True), ("runner", False), ("chip_cashier", False)):
        login(client, cast, persona)
        page = client.get(reverse("cage:mine", args=[cast.event.slug])).content.decode()
        part = client.get(reverse("cage:mine", args=[cast.event.slug]) + "?panel=1").content.decode()
        assert ('data-panel="my-fill-requests"' in page) is shown, persona
        assert ('data-panel="my-fill-requests"' in part) is shown, persona
        client.logout()


# --- a request already answered: who answered it, how and when, in a whole sentence ---------------


def test_a_stale_answer_says_who_answered_the_request_how_and_when(floor):
    cast = floor
    made, declined, withdrawn = ask(cast), ask(cast), ask(cast)
    fill = answered_each_way(cast, made, declined, withdrawn, reason="no runner free")
    at = {a.pk: local.clock(FillRequestOutcome.objects.get(request=a).at) for a in (made, declined, withdrawn)}
    text = refused("fill_request.answered", lambda: fill_requests.withdraw(asked=made, person=cast.dealer)).text
    assert text == (
        f"This fill request was already answered: Chip Cashier made it into {fill.number} at {at[made.pk]} (T&C 2.1.2)"
    )
    text = refused("fill_request.answered", lambda: fill_requests.withdraw(asked=declined, person=cast.dealer)).text
    assert text == f"This fill request was already answered: Chip Cashier declined it at {at[declined.pk]} (T&C 2.1.2)"
    text = refused(
        "fill_request.answered",
        lambda: fill_requests.decline(asked=withdrawn, person=cast.chip_cashier, reason="late"),
    ).text
    assert text == f"This fill request was already answered: Dealer withdrew it at {at[withdrawn.pk]} (T&C 2.1.2)"
    # In French too: a whole sentence with its capital, the rule cited in the French numbering.
    with override("fr-ca"):
        caught = refused("fill_request.answered", lambda: fill_requests.withdraw(asked=made, person=cast.dealer))
    assert caught.text[0].isupper() and caught.text.endswith("(M&C 2.2.2)")
    assert "Chip Cashier" in caught.text and str(fill.serial) in caught.text
    assert caught.words.stored()["with"]["name"] == "Chip Cashier"  # the trail puts it in its reader's words
    assert FillRequestOutcome.objects.count() == 3


def test_the_dealers_stale_withdraw_reads_the_sentence_on_my_slips(floor, client):
    cast = floor
    asked = ask(cast)
    fill_requests.decline(asked=asked, person=cast.chip_cashier, reason="no runner free")
    login(client, cast, "dealer")
    response = client.post(reverse("cage:fill_request_withdraw", args=[cast.event.slug, asked.pk]), follow=True)
    page = html.unescape(response.content.decode())
    messages = page.split('class="messages"', 1)[1].split("</ul>", 1)[0]
    assert "This fill request was already answered: Chip Cashier declined it at " in messages
    assert "(T&C 2.1.2)" in messages
    assert FillRequestOutcome.objects.get(request=asked).outcome == "declined"


# --- the fill form opened from a request -------------------------------------------------------------


def fill_form(client, cast, query="") -> str:
    response = client.get(reverse("cage:slip_new", args=[cast.event.slug, "fill"]) + query)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def selected_table(page: str) -> str | None:
    """The value of the table chosen on the form, or None."""
    select = page.split('<select name="table"', 1)[1].split("</select>", 1)[0]
    found = re.search(r'<option value="(\d*)" selected>', select)
    return found.group(1) if found and found.group(1) else None


def test_the_fill_form_says_which_request_it_answers_with_its_table_chosen(floor, client):
    cast = floor
    open_table(cast, cast.wheel)  # two tables open: the request's own is the one chosen
    asked = ask(cast, chips={"5": 20, "25": 4}, note="two racks, please")
    login(client, cast, "chip_cashier")
    page = fill_form(client, cast, f"?request={asked.pk}")
    top = page.split('id="fill-request-answered"', 1)[1].split("</section>", 1)[0]
    # Who asked, for which table, when, the chips and the note: above the form.
    assert page.index('id="fill-request-answered"') < page.index('id="slip-form"')
    assert f"This fill answers the fill request of Dealer for table BJ-1, asked at {local.clock(asked.at)}" in top
    assert "Chips asked for: 20 × $5, 4 × $25 ($200.00)." in top
    assert "The dealer’s note: “two racks, please”" in top
    assert 'class="card notice"' in page.split('id="fill-request-answered"', 1)[0].rsplit("<section", 1)[1]
    assert selected_table(page) == str(cast.bj.pk)
    # Who receives it is a signature, given by the dealer at the table: it is left to sign later.
    received = page.split('<select name="sign_received_by"', 1)[1].split("</select>", 1)[0]
    assert '<option value="" selected>Signs later</option>' in received
    # A plain fill form with two tables open chooses none, and says nothing of a request.
    plain = fill_form(client, cast)
    assert selected_table(plain) is None and 'id="fill-request-answered"' not in plain


def test_a_plain_fill_form_chooses_the_one_open_table(floor, client):
    cast = floor
    login(client, cast, "chip_cashier")
    assert selected_table(fill_form(client, cast)) == str(cast.bj.pk)
    # A table named by the link stands; the other slip types are left as they were.
    open_table(cast, cast.wheel)
    assert selected_table(fill_form(client, cast, f"?table={cast.wheel.pk}")) == str(cast.wheel.pk)
    credit = client.get(reverse("cage:slip_new", args=[cast.event.slug, "credit"])).content.decode()
    assert selected_table(credit) is None


def test_a_request_answered_meanwhile_fills_in_nothing_and_makes_no_fill(floor, client):
    cast = floor
    asked = ask(cast, chips={"5": 20}, note="please")
    login(client, cast, "chip_cashier")
    make = reverse("cage:slip_new", args=[cast.event.slug, "fill"]) + f"?request={asked.pk}"
    assert 'value="please"' in fill_form(client, cast, f"?request={asked.pk}")
    fill_requests.withdraw(asked=asked, person=cast.dealer)  # while the Chip Cashier's form is open

    # Sent now, the form is refused in the sentence that says what became of the request.
    fields = {
        "table": cast.bj.pk,
        "runner": cast.runner.pk,
        "chips_5": "20",
        "note": "please",
        "sign_issued_by": cast.chip_cashier.pk,
        "request_key": "k-stale",
    }
    response = client.post(make, fields)
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "This fill request was already answered: Dealer withdrew it at " in page
    assert not Slip.objects.filter(slip_type="fill").exists()

    # Opened again, it says so at its top, fills in nothing, and the form below writes a new fill.
    page = fill_form(client, cast, f"?request={asked.pk}")
    top = page.split('id="fill-request-answered"', 1)[1].split("</section>", 1)[0]
    assert "The fill request of Dealer for table BJ-1, asked at " in top and "no longer waits" in top
    assert "This fill request was already answered: Dealer withdrew it at " in top
    assert 'value="please"' not in page.split('id="slip-form"', 1)[1]
    assert f'action="{reverse("cage:slip_new", args=[cast.event.slug, "fill"])}"' in page
