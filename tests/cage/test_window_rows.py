"""The window's busiest rows, drawn in Python (cage.templatetags.window_rows): the DRIC's queue, and
the cage home's slips waiting for signatures and its slips of the day. Each row says and offers what
its slip and its reader call for, every value escaped, in English and in French."""

import pytest
from django.urls import reverse

from cage import services
from tests.cage.helpers import stock
from tests.conftest import Client, login

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

TRICKY = 'keyed <b>$50</b> & "five"'
ESCAPED = "keyed &lt;b&gt;$50&lt;/b&gt; &amp; &quot;five&quot;"


def waiting_sale(cast):
    return services.sale(
        day=cast.day, chips={"5": 2}, cash=1000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )


def void_asked(cast):
    """A sale signed in full, and a void of it asked for by the Chip Cashier with a reason that
    looks like HTML."""
    sold = services.sale(
        day=cast.day, chips={"5": 10}, cash=5000, signed=cast.signed(sold_by="chip_cashier", authorized_by="dric")
    )
    void = services.void(
        day=cast.day, target=sold, reason=TRICKY, signed=cast.signed(requested_by="chip_cashier"), allow_pending=True
    )
    return sold, void


def row_of(page: str, slip) -> str:
    start = page.index(f'data-slip="{slip.pk}"')
    return page[page.rindex("<tr", 0, start) : page.index("</tr>", start)]


def queue_of(client, cast) -> str:
    response = client.get(reverse("cage:queue", args=[cast.event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def queue_with_a_sale_and_a_void(client, cast, persona: str):
    """The queue as `persona` reads it, with a sale waiting and a void asked for: (the page, the
    sale, the slip voided, the void)."""
    stock(cast)
    sale = waiting_sale(cast)
    sold, void = void_asked(cast)
    login(client, cast, persona)
    return queue_of(client, cast), sale, sold, void


def test_the_dric_s_queue_offers_each_slip_what_she_may_do_with_it(client, cast):
    page, sale, sold, void = queue_with_a_sale_and_a_void(client, cast, "dric")
    slug = cast.event.slug

    row = row_of(page, sale)
    assert row.startswith(f'<tr class="" data-slip="{sale.pk}">')
    assert f'id="pick-{sale.pk}"' in row and f'<span class="a11y-only">Select {sale.number}</span>' in row
    assert f'<a class="slipno" href="{reverse("cage:slip", args=[slug, sale.pk])}">{sale.number}</a>' in row
    assert '<span class="unbroken">2 × $5</span>' in row and '<td class="num">$10.00</td>' in row
    assert 'Authorized by <span class="muted">(DRIC)</span>' in row and "0 min" in row
    approve = reverse("cage:queue_approve", args=[slug, sale.pk])
    assert (
        f'<form method="post" action="{approve}" class="inline"><input type="hidden" name="csrfmiddlewaretoken"' in row
    )
    assert '<button type="submit">Approve</button>' in row
    assert f'action="{reverse("cage:queue_void", args=[slug, sale.pk])}"' in row and f'id="reason-{sale.pk}"' in row
    assert 'name="request_key"' in row and "overdue" not in row and 'id="id_request_key"' not in page

    row = row_of(page, void)
    assert f"Asked for by {cast.chip_cashier.name}. Reason: {ESCAPED}" in row and TRICKY not in page
    assert '<span class="unbroken">10 × $5</span>' in row
    assert '<button type="submit">Authorize</button>' in row and '<button type="submit">Refuse the void</button>' in row
    assert "<summary>Refuse…</summary>" in row and f'id="refuse-{void.pk}"' in row
    assert f"Nothing moves; the void stays on file as refused, and {sold.number} stands as it is." in row
    assert f'action="{reverse("cage:queue_refuse", args=[slug, void.pk])}"' in row


def test_a_slip_waiting_past_its_time_stands_out(client, cast, settings):
    settings.CAGE_QUEUE_OVERDUE_MINUTES = 0
    stock(cast)
    sale = waiting_sale(cast)
    login(client, cast, "dric")
    row = row_of(queue_of(client, cast), sale)
    assert row.startswith('<tr class="overdue"') and '0 min<br><strong class="fails">overdue</strong>' in row


def test_the_queue_offers_no_one_else_the_dric_s_buttons(client, cast):
    page, sale, _sold, void = queue_with_a_sale_and_a_void(client, cast, "general_cashier")
    for slip in (sale, void):
        row = row_of(page, slip)
        assert row.endswith('<td class="actions">\n</td>') and 'id="pick-' not in row
    assert "<form" not in page[page.index('<table class="grid" id="queue">') :]


def test_the_queue_in_french(cast):
    page, sale, _sold, void = queue_with_a_sale_and_a_void(Client(HTTP_ACCEPT_LANGUAGE="fr-CA"), cast, "dric")
    row = row_of(page, sale)
    assert f"Sélectionner {sale.number}" in row and '<button type="submit">Approuver</button>' in row
    assert '<td class="num">0 min</td>' in row
    row = row_of(page, void)
    assert f"Demandée par {cast.chip_cashier.name}. Motif\u00a0: {ESCAPED}" in row
    assert '<button type="submit">Autoriser</button>' in row and "Refuser l’annulation" in row


def test_the_cage_home_offers_the_reader_s_signature_and_lists_the_day_s_slips(client, cast):
    stock(cast)
    sale = waiting_sale(cast)
    _sold, void = void_asked(cast)
    login(client, cast, "dric")
    home = reverse("cage:home", args=[cast.event.slug])
    page = client.get(home).content.decode()
    panel = page[page.index('id="pending-slips"') : page.index("</table>", page.index('id="pending-slips"'))]
    start = panel.index(f'<a class="slipno" href="{reverse("cage:slip", args=[cast.event.slug, sale.pk])}">')
    row = panel[panel.rindex("<tr", 0, start) : panel.index("</tr>", start)]
    sign = reverse("cage:slip_sign", args=[cast.event.slug, sale.pk])
    assert f'<form method="post" action="{sign}" class="inline"><input type="hidden" name="csrfmiddlewaretoken"' in row
    assert '<input type="hidden" name="capacity" value="authorized_by">' in row
    assert f'<input type="hidden" name="next" value="{home}">' in row and "Sign as “authorized by”" in row
    assert 'Authorized by <span class="muted">(DRIC)</span>' in row and '<td class="num">$10.00</td>' in row

    slips = page[page.index('<table class="grid" id="slips">') :]
    start = slips.index(f">{void.number}</a>")
    row = slips[slips.rindex("<tr", 0, start) : slips.index("</tr>", start)]
    assert f'<tr data-signers="{cast.chip_cashier.name}">' in row and f"<td>{ESCAPED}</td>" in row
    assert TRICKY not in page
