"""The DRIC approves several slips from her queue at once (issue 25): she ticks them, or takes all
the queue shows, sees each listed on a confirmation page that writes nothing, and confirms; each is
approved through the one approve, all in one transaction or none (cage.services.batch)."""

import re

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from cage import services
from cage.models import Signature, Slip
from tests.cage.helpers import open_table, stock
from tests.conftest import Client, login, make_cast
from tests.refusals import refuses
from tests.world import snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def sales(cast, n: int) -> list[Slip]:
    """`n` chip sales at the window, each waiting for the DRIC's witness."""
    stock(cast)
    return [
        services.sale(
            day=cast.day,
            chips={"5": 2 + i},
            cash=(2 + i) * 500,
            signed=cast.signed(sold_by="chip_cashier"),
            allow_pending=True,
        )
        for i in range(n)
    ]


def fill(cast) -> Slip:
    """A fill on its way to BJ-1: the runner carries it, the dealer and the DRIC still to sign."""
    return services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"5": 10},
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner"),
        allow_pending=True,
    )


def batch_url(cast) -> str:
    return reverse("cage:queue_batch", args=[cast.event.slug])


def witnessed_by(slip, person) -> bool:
    return slip.signatures.filter(capacity="authorized_by", person=person).exists()


# --- the service ------------------------------------------------------------------------------


def test_a_batch_approves_each_slip_and_records_each_approval(cast):
    chosen = sales(cast, 3)
    done = services.approve_batch(event=cast.event, ids=[str(s.pk) for s in chosen], person=cast.dric)
    assert [s.pk for s in done] == [s.pk for s in chosen]
    assert all(witnessed_by(s, cast.dric) for s in chosen)
    # On the audit trail as a single approval is: one entry per slip, naming what she signed.
    entries = AuditEntry.objects.filter(action="slip_approved", outcome="done")
    assert sorted(e.slip_id for e in entries) == sorted(s.pk for s in chosen)
    assert all(e.new == {"signed": {"authorized_by": cast.dric.name}} for e in entries)
    # And the batch as one entry naming every slip she confirmed together.
    (batch,) = AuditEntry.objects.filter(action="batch_approved", outcome="done")
    assert batch.new == {"slips": [s.pk for s in chosen]} and batch.about == cast.dric
    # Kept by their keys, named in each reader's language on the trail: in French as French names
    # them, in its summary and in what it recorded.
    french = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    login(french, cast, "dric")
    trail = french.get(reverse("audit:event", args=[cast.event.slug])).content.decode()
    numbers = ", ".join(f"Vente de jetons {s.serial}" for s in chosen)
    assert f"Dric a approuvé en une seule confirmation\u00a0: {numbers}" in trail.replace("&nbsp;", "\u00a0")
    assert f'<span class="key">fiches</span>\u00a0: {numbers}' in trail.replace("&nbsp;", "\u00a0")
    assert "Chip sale" not in trail


def test_one_refused_slip_signs_none_and_is_named(cast):
    first, second, third = sales(cast, 3)
    services.approve(slip=second, person=cast.dric)  # approved meanwhile, from another screen
    before = Signature.objects.count()
    with refuses("signing.no_witness_waiting", slip=second.number) as refused:
        services.approve_batch(event=cast.event, ids=[first.pk, second.pk, third.pk], person=cast.dric)
    assert refused.value.slip == second
    assert "T&C 2" in refused.value.text
    assert Signature.objects.count() == before  # the first, signed before the refusal, is undone
    assert not AuditEntry.objects.filter(action="batch_approved").exists()
    assert not witnessed_by(first, cast.dric) and not witnessed_by(third, cast.dric)


def test_a_slip_being_voided_in_the_batch_is_refused_whole(cast):
    first, second = sales(cast, 2)
    services.void(
        day=cast.day,
        target=second,
        reason="keyed twice",
        signed={"authorized_by": cast.dric},
        created_by=None,
        allow_pending=True,
    )
    # A void asked for: the slip it names takes no signature until the void is decided.
    with refuses("signing.void_pending") as refused:
        services.approve_batch(event=cast.event, ids=[first.pk, second.pk], person=cast.dric)
    assert refused.value.slip == second
    assert not witnessed_by(first, cast.dric)


@pytest.mark.parametrize("ids", [[], [""], ["  "]])
def test_choosing_nothing_is_refused(cast, ids):
    with refuses("approve.nothing_chosen"):
        services.approve_batch(event=cast.event, ids=ids, person=cast.dric)


def test_a_slip_not_hers_to_sign_is_refused(cast):
    (sale,) = sales(cast, 1)
    open_table(cast)
    on_its_way = fill(cast)
    services.approve(slip=on_its_way, person=cast.dric)  # hers is signed; it waits for the dealer
    with refuses("signing.no_witness_waiting", slip=on_its_way.number):
        services.approve_batch(event=cast.event, ids=[sale.pk, on_its_way.pk], person=cast.dric)
    assert not witnessed_by(sale, cast.dric)
    # The chip cashier holds no DRIC capacity: nothing of a sale is hers to approve.
    with refuses("signing.no_witness_waiting"):
        services.approve_batch(event=cast.event, ids=[sale.pk], person=cast.chip_cashier)


def test_a_slip_of_another_event_or_no_slip_at_all_is_refused(cast):
    (sale,) = sales(cast, 1)
    other = make_cast("elsewhere")
    (theirs,) = sales(other, 1)
    for bad in (theirs.pk, "abc", "999999999999999999999999"):
        with refuses("approve.not_a_slip"):
            services.approve_batch(event=cast.event, ids=[sale.pk, bad], person=cast.dric)
    assert not witnessed_by(sale, cast.dric) and not witnessed_by(theirs, other.dric)


def test_no_more_than_one_page_is_approved_at_once(cast, settings):
    settings.CAGE_QUEUE_ROWS = 2
    chosen = sales(cast, 3)
    with refuses("approve.too_many", count=3, most=2):
        services.approve_batch(event=cast.event, ids=[s.pk for s in chosen], person=cast.dric)


# --- the pages --------------------------------------------------------------------------------


def test_the_queue_offers_a_box_per_slip_she_may_approve(client, cast):
    chosen = sales(cast, 2)
    open_table(cast)
    on_its_way = fill(cast)
    services.approve(slip=on_its_way, person=cast.dric)  # nothing more of hers on it
    login(client, cast, "dric")
    page = client.get(reverse("cage:queue", args=[cast.event.slug])).content.decode()
    for slip in chosen:
        assert f'id="pick-{slip.pk}"' in page and f'name="shown" value="{slip.pk}"' in page
    assert f'id="pick-{on_its_way.pk}"' not in page and f'name="shown" value="{on_its_way.pk}"' not in page
    # Counted as the slips she may approve, not the rows: the fill still waits, for the table alone.
    assert 'id="approve-selected"' in page and "Approve all 2 shown that wait for you" in page
    assert "Your ticks stay as the list refreshes itself" in page
    # The refreshed rows carry the boxes too (the script ticks again those ticked).
    rows = client.get(reverse("cage:queue", args=[cast.event.slug]), {"panel": "1"}).content.decode()
    assert f'id="pick-{chosen[0].pk}"' in rows and "data-keep" in rows


def test_the_confirmation_lists_every_chosen_slip_and_writes_nothing(client, cast):
    first, second = sales(cast, 2)
    open_table(cast)
    on_its_way = fill(cast)
    login(client, cast, "dric")
    before = snapshot(), AuditEntry.objects.count()
    response = client.get(batch_url(cast), {"selected": "1", "slip": [first.pk, on_its_way.pk]})
    assert (snapshot(), AuditEntry.objects.count()) == before
    page = response.content.decode()
    assert response.status_code == 200
    assert first.number in page and on_its_way.number in page and second.number not in page
    fill_row = page[page.index(f'<tr data-slip="{on_its_way.pk}"') :].split("</tr>")[0]
    assert "Fill" in fill_row and "BJ-1" in fill_row and "$50.00" in fill_row
    assert 'Chip Cashier <span class="muted">(issued by)</span>' in fill_row
    assert 'Runner <span class="muted">(carried by)</span>' in fill_row
    assert "Your signature as “Authorized by” witnesses it: nothing moves." in fill_row
    # Said once: the capacity's colon is the only one in what her signature does.
    hers = fill_row[fill_row.index('class="hers"') :].split("</td>")[0]
    assert hers.count(":") == 1, hers
    assert "It then still waits for received by (Dealer)." in fill_row
    sale_row = page[page.index(f'<tr data-slip="{first.pk}"') :].split("</tr>")[0]
    assert (
        "$10.00" in sale_row
        and "Your signature as “Authorized by” witnesses it: nothing moves." in sale_row
        and "The slip is then complete." in sale_row
    )
    # The form carries the exact list she saw, and says how many.
    form = page[page.index('id="batch-confirm-form"') :].split("</form>")[0]
    assert sorted(int(i) for i in re.findall(r'name="slip" value="(\d+)"', form)) == sorted([first.pk, on_its_way.pk])
    assert "Approve these 2 slips" in form


def test_approve_all_shown_takes_the_rows_shown_and_confirming_signs_them(client, cast):
    chosen = sales(cast, 3)
    login(client, cast, "dric")
    page = client.get(batch_url(cast), {"all": "1", "shown": [s.pk for s in chosen]}).content.decode()
    assert "Approve these 3 slips" in page
    response = client.post(batch_url(cast), {"slip": [s.pk for s in chosen]}, follow=True)
    assert all(witnessed_by(s, cast.dric) for s in chosen)
    assert "3 slips approved: Chip sale 1, Chip sale 2, Chip sale 3." in response.content.decode()


def test_a_fill_approved_in_a_batch_still_says_what_it_waits_for(client, cast):
    (sale,) = sales(cast, 1)
    open_table(cast)
    on_its_way = fill(cast)
    login(client, cast, "dric")
    response = client.post(batch_url(cast), {"slip": [sale.pk, on_its_way.pk]}, follow=True)
    page = response.content.decode()
    assert "2 slips approved" in page
    assert "Still waiting after your approval: Fill 1: received by (Dealer)." in page


def test_what_still_waits_after_a_batch_is_written_as_french_writes_a_list(cast):
    stock(cast)
    open_table(cast)
    first, second = fill(cast), fill(cast)
    french = Client(HTTP_ACCEPT_LANGUAGE="fr-CA")
    login(french, cast, "dric")
    page = french.post(batch_url(cast), {"slip": [first.pk, second.pk]}, follow=True).content.decode()
    waiting = re.search(r"Encore en attente après votre approbation\xa0: ([^<]*)\.", page)
    assert waiting, page
    parts = waiting.group(1).split("\xa0; ")
    assert [part.split("\xa0: ")[0] for part in parts] == ["Remplissage 1", "Remplissage 2"]


def test_a_refusal_on_confirming_names_the_slip_and_its_rule_and_signs_nothing(client, cast):
    first, second = sales(cast, 2)
    login(client, cast, "dric")
    services.approve(slip=second, person=cast.dric)  # approved meanwhile, from another screen
    response = client.post(batch_url(cast), {"slip": [first.pk, second.pk]}, follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("cage:queue", args=[cast.event.slug])
    assert "Nothing is signed: Chip sale 2 is refused: Chip sale 2 waits for no witness signature of yours" in page
    assert "(T&amp;C 2)" in page
    assert not witnessed_by(first, cast.dric)


def test_the_confirmation_says_which_slip_has_nothing_of_hers_and_offers_no_button(client, cast):
    first, second = sales(cast, 2)
    login(client, cast, "dric")
    services.approve(slip=second, person=cast.dric)
    page = client.get(batch_url(cast), {"slip": [first.pk, second.pk]}).content.decode()
    assert 'id="batch-blocked"' in page and "Nothing of yours to sign now on Chip sale 2" in page
    assert 'id="batch-confirm"' not in page


@pytest.mark.parametrize("method", ["get", "post"])
def test_choosing_nothing_is_refused_on_the_queue(client, cast, method):
    sales(cast, 1)
    login(client, cast, "dric")
    before = snapshot()
    response = getattr(client, method)(batch_url(cast), {"selected": "1"}, follow=True)
    assert snapshot() == before
    assert response.redirect_chain[-1][0] == reverse("cage:queue", args=[cast.event.slug])
    assert "no slip is chosen: tick the slips to approve, or choose Approve all shown" in response.content.decode()


@pytest.mark.parametrize("persona", ["general_cashier", "chip_cashier", "auditor", "runner", "dealer"])
def test_only_the_dric_approves_several_at_once(client, cast, persona):
    (sale,) = sales(cast, 1)
    login(client, cast, persona)
    assert client.get(batch_url(cast), {"slip": [sale.pk]}).status_code == 403
    assert client.post(batch_url(cast), {"slip": [sale.pk]}).status_code == 403
    assert not sale.signatures.filter(capacity="authorized_by").exists()
    page = client.get(reverse("cage:queue", args=[cast.event.slug]))
    if page.status_code == 200:  # those who read the queue see no box to tick
        assert 'id="queue-batch"' not in page.content.decode() and "data-keep" not in page.content.decode()


def test_the_queue_shows_one_page_and_says_how_many_more_wait(client, cast, settings):
    settings.CAGE_QUEUE_ROWS = 4
    waiting = sales(cast, 4 + 5)
    login(client, cast, "dric")
    url = reverse("cage:queue", args=[cast.event.slug])
    page = client.get(url).content.decode()
    assert [s for s in waiting if f'data-slip="{s.pk}"' in page] == waiting[:4]  # the oldest
    assert "Slips 1 to 4 of 9 waiting, oldest first." in page and "5 more slips wait after these." in page
    assert f'href="{url}?page=2" id="queue-next"' in page
    # "Approve all shown" takes only those shown.
    assert re.findall(r'name="shown" value="(\d+)"', page) == [str(s.pk) for s in waiting[:4]]
    second = client.get(url, {"page": "2"}).content.decode()
    assert [s for s in waiting if f'data-slip="{s.pk}"' in second] == waiting[4:8]
    assert "1 more slip waits after these." in second and 'id="queue-previous"' in second
    assert "?panel=1&amp;page=2" in second  # the refresh keeps to the page shown
    rows = client.get(url, {"page": "3", "panel": "1"}).content.decode()
    assert [s for s in waiting if f'data-slip="{s.pk}"' in rows] == waiting[8:]
    # A page past the end, or not a number, shows the nearest one rather than an error.
    for asked, first_shown in (("99", waiting[8]), ("abc", waiting[0]), ("-1", waiting[0])):
        response = client.get(url, {"page": asked})
        assert response.status_code == 200 and f'data-slip="{first_shown.pk}"' in response.content.decode()


def test_a_queue_of_one_page_says_nothing_of_pages(client, cast, settings):
    settings.CAGE_QUEUE_ROWS = 4
    sales(cast, 4)
    login(client, cast, "dric")
    page = client.get(reverse("cage:queue", args=[cast.event.slug])).content.decode()
    assert 'id="queue-more"' not in page


def test_the_confirmation_says_her_signature_authorizes_a_void_and_posts_it(client, cast):
    first, second = sales(cast, 2)
    void = services.void(
        day=cast.day,
        target=second,
        reason="keyed twice",
        signed={"requested_by": cast.chip_cashier},
        created_by=None,
        allow_pending=True,
    )
    login(client, cast, "dric")
    page = client.get(batch_url(cast), {"slip": [first.pk, void.pk]}).content.decode()
    row = page[page.index(f'<tr data-slip="{void.pk}"') :].split("</tr>")[0]
    assert (
        "Your signature as “Authorized by” authorizes the void: Chip sale 2 is voided and its reversal posted." in row
        and "The slip is then complete." in row
    )
    client.post(batch_url(cast), {"slip": [first.pk, void.pk]})
    assert witnessed_by(first, cast.dric) and witnessed_by(void, cast.dric)
    assert void.postings.exists()  # her authorization posted the reversal
