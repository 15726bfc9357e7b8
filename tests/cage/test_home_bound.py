"""The cage home is bounded whatever the number of slips waiting: its panel of slips in transit and
waiting lists the latest CAGE_HOME_PANEL_ROWS and says how many more (with a link to the DRIC's
queue), and what stands in the way of the close names as many and says how many more. Its queries
are the same for 10 slips waiting as for 300, and its size stops growing once its lists are full.

The in-transit panel has a Sign button where the reader is the one to sign: the capacity they may
sign now (cage.selectors.slips.can_sign), posted to the slip's signing as from the slip's own page."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cage import services
from cage.models import Signature
from tests.cage.helpers import open_table, stock
from tests.conftest import login

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

ROWS = 25  # settings.CAGE_HOME_PANEL_ROWS
PENDING_ROW = re.compile(r'<tr class="(?:overdue)?"><td><a class="slipno"')


def sales(cast, n, *, witnessed=False):
    signed = (
        cast.signed(sold_by="chip_cashier", authorized_by="dric") if witnessed else cast.signed(sold_by="chip_cashier")
    )
    for _ in range(n):
        services.sale(day=cast.day, chips={"5": 2}, cash=1000, signed=signed, allow_pending=True)


def measured(client, cast) -> tuple[int, int, str]:
    url = reverse("cage:home", args=[cast.event.slug])
    client.get(url)  # warm: the session's first request reads more than the next
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    return len(ctx.captured_queries), len(response.content), html


def pending_panel(html: str) -> str:
    return html[html.index('id="pending"') : html.index('id="fill-requests"')]


def test_the_home_s_queries_and_size_do_not_grow_with_the_slips_waiting(cast, client, settings):
    assert settings.CAGE_HOME_PANEL_ROWS == ROWS
    stock(cast, chips={"5": 5000}, cash=0)
    sales(cast, 50, witnessed=True)  # a full list of the day's latest slips, whatever waits
    login(client, cast, "chip_cashier")
    sales(cast, 10)
    small_queries, _small_size, html = measured(client, cast)
    assert len(PENDING_ROW.findall(pending_panel(html))) == 10
    assert 'id="pending-more"' not in html
    sales(cast, 20)
    full_queries, full_size, html = measured(client, cast)
    assert len(PENDING_ROW.findall(pending_panel(html))) == ROWS
    sales(cast, 270)
    large_queries, large_size, html = measured(client, cast)
    panel = pending_panel(html)
    assert len(PENDING_ROW.findall(panel)) == ROWS
    assert "The latest 25 are shown; 275 more slips wait" in panel
    assert reverse("cage:queue", args=[cast.event.slug]) in panel
    # The newest first: the last sale written is the panel's first row.
    last = cast.event.slips.order_by("-id").first()
    assert panel.index(f">{last.number}<") < panel.index("</tbody>")
    # What stands in the way of the close: as many, and how many more.
    problems = html[html.index('id="close-problems"') :]
    problems = problems[: problems.index("</ul>")]
    assert problems.count("still needs") == ROWS
    assert problems.count("<li>") == ROWS + 3  # the latest, the rest in one line, bank cash and the chip bank
    assert "and 275 more slips still waiting for a signature" in problems
    # Bounded: one query more once the panel is full (how many more wait), then no more however
    # many wait.
    assert small_queries + 1 == full_queries == large_queries
    # Only the serials' digits and the numbers said grow: well under 1% from 30 to 300 waiting.
    assert abs(large_size - full_size) < full_size / 100, (full_size, large_size)


def credit_in_transit(cast):
    return services.credit(
        day=cast.day,
        table=cast.bj,
        chips={"5": 4},
        signed=cast.signed(released_by="dealer", carried_by="runner"),
        allow_pending=True,
    )


def test_the_transit_panel_signs_where_the_reader_is_the_one_to_sign(cast, client):
    stock(cast)
    open_table(cast)
    credit = credit_in_transit(cast)
    home = reverse("cage:home", args=[cast.event.slug])
    sign = reverse("cage:slip_sign", args=[cast.event.slug, credit.pk])
    login(client, cast, "general_cashier")  # not hers to receive: no button, and the row says so
    html = client.get(home).content.decode()
    assert sign not in pending_panel(html)
    row = pending_panel(html).split(f">{credit.number}<", 1)[1].split("</tr>", 1)[0]
    assert '<td class="actions"><span class="muted not-yours">Not yours to sign</span></td>' in row
    # Mid-shift, what stands in the way of the close is the night's work ahead: said plainly, not
    # as faults in red (they are, once the floor has closed).
    assert '<p class="close-ahead">Before the day can close:</p><ul class="close-ahead" id="close-problems">' in html
    assert '<ul class="fails" id="close-problems">' not in html
    client.logout()
    login(client, cast, "chip_cashier")
    panel = pending_panel(client.get(home).content.decode())
    assert sign in panel and 'name="capacity" value="received_by"' in panel
    assert "Sign as “received by”" in panel
    # The panels' refresh carries the same button, and sends the signer back to the home, not to itself.
    refreshed = client.get(reverse("cage:home_panels", args=[cast.event.slug])).content.decode()
    assert sign in refreshed and f'name="next" value="{home}"' in refreshed
    assert 'data-panel="fill-requests"' in refreshed  # every live panel comes back with the refresh
    response = client.post(sign, {"capacity": "received_by", "next": home})
    assert response.status_code == 302 and response["Location"] == home
    assert Signature.objects.filter(slip=credit, capacity="received_by", person=cast.chip_cashier).exists()
    assert sign not in pending_panel(client.get(home).content.decode())


def test_the_sign_button_is_refused_as_the_slip_page_would_refuse_it(cast, client):
    """Signing for someone else takes their PIN, as ever: the panel's form is the same signing."""
    stock(cast)
    open_table(cast)
    credit = credit_in_transit(cast)
    login(client, cast, "general_cashier")
    home = reverse("cage:home", args=[cast.event.slug])
    client.post(
        reverse("cage:slip_sign", args=[cast.event.slug, credit.pk]),
        {"capacity": "received_by", "person": cast.chip_cashier.pk, "next": home},
    )
    assert not Signature.objects.filter(slip=credit, capacity="received_by").exists()


def test_once_the_floor_has_closed_what_stands_in_the_way_of_the_close_is_in_red(cast, client):
    stock(cast)  # the bank moved and is not counted yet: the close cannot happen
    services.day_reconcile(day=cast.day)
    login(client, cast, "general_cashier")
    html = client.get(reverse("cage:home", args=[cast.event.slug])).content.decode()
    assert '<ul class="fails" id="close-problems">' in html and "Before the day can close" not in html


def test_the_queue_finds_a_slip_as_the_cage_home_does(cast, client):
    """The DRIC's queue has its own Find a slip: it asks the day's search of the cage home, whose
    rows lead to each slip's page, where she signs it."""
    stock(cast)
    open_table(cast)
    credit = credit_in_transit(cast)
    login(client, cast, "dric")
    queue = client.get(reverse("cage:queue", args=[cast.event.slug])).content.decode()
    form = queue.split('id="queue-search"', 1)[1].split("</form>", 1)[0]
    home = reverse("cage:home", args=[cast.event.slug])
    # Its answer opens at the search and what it found, not at the top of the long cage home.
    assert f'action="{home}#slip-search"' in queue.split('id="queue-search"', 1)[0][-200:] and 'name="q"' in form
    assert 'id="queue-find"' not in queue.split('id="live-panels"', 1)[1]  # a refresh leaves it alone
    found = client.get(home, {"q": credit.number}).content.decode()
    assert "1 slip of the day matches" in found
    assert reverse("cage:slip", args=[cast.event.slug, credit.pk]) in found
