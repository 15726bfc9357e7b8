"""My slips refreshes itself as the cage home does (?panel=1, not activity, writing nothing), and a
fill or credit on its way to a dealer's table, or carried by a runner, shows as a notice at its top
once the runner has signed that she carries it (in transit), never before, with a Sign button where
the reader is the one to sign it; a notice, not an error. A dealer's own fill requests are one of
the live panels: what the cage made of them shows without a reload."""

import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cage import services
from events.idle import LAST_ACTIVITY
from tests.cage.helpers import open_table, stock
from tests.conftest import login

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def mine(cast) -> str:
    return reverse("cage:mine", args=[cast.event.slug])


def panel(client, cast) -> str:
    response = client.get(mine(cast) + "?panel=1")
    assert response.status_code == 200
    return response.content.decode()


def notices(html: str) -> str:
    """The notices' part of My slips (the page's or its panels')."""
    return html.split('data-panel="on-the-way"', 1)[1].split('id="my-roles"', 1)[0]


@pytest.fixture
def open_bj(cast):
    stock(cast)
    return open_table(cast)  # the dealer counted its opener: BJ-1 is her table


def fill(cast, **signed):
    return services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"5": 40},
        runner=cast.runner,
        signed=cast.signed(**signed),
        allow_pending=True,
    )


def test_my_slips_refreshes_itself_with_panel_1_as_the_cage_home_does(client, cast, settings):
    settings.CAGE_REFRESH_SECONDS = 7
    login(client, cast, "dealer")
    page = client.get(mine(cast)).content.decode()
    assert f'data-refresh-url="{mine(cast)}?panel=1"' in page and 'data-refresh-seconds="7"' in page
    assert "live_panels.js" in page and 'id="refresh-status"' in page
    assert "{#" not in page and "#}" not in page  # the templates' comments stay comments
    part = panel(client, cast)
    # The panels alone: every [data-panel] of the page, and none of the page around them.
    assert "<html" not in part and "<h1" not in part
    for name in ("on-the-way", "my-fill-requests", "paper", "to-sign", "holdings", "slips"):
        assert f'data-panel="{name}"' in page and f'data-panel="{name}"' in part, name
    # The notices are read out when they appear.
    assert 'data-panel="on-the-way" id="on-the-way" role="status" aria-live="polite"' in part


def test_the_refresh_is_not_activity_and_writes_nothing(client, cast, open_bj):
    fill(cast, issued_by="chip_cashier", carried_by="runner")
    login(client, cast, "dealer")
    session = client.session
    session[LAST_ACTIVITY] = kept = int(time.time()) - 600
    session.save()
    with CaptureQueriesContext(connection) as queries:
        assert "Fill 1 for BJ-1" in panel(client, cast)
    writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]
    assert writes == []
    assert client.session[LAST_ACTIVITY] == kept
    # The page itself is activity (a person at work).
    client.get(mine(cast))
    assert client.session[LAST_ACTIVITY] > kept


def test_a_fill_on_its_way_shows_at_the_top_of_the_dealers_page_with_her_sign_button(client, cast, open_bj):
    login(client, cast, "dealer")
    assert 'class="card notice"' not in panel(client, cast)
    slip = fill(cast, issued_by="chip_cashier", carried_by="runner")
    part = panel(client, cast)
    notice = notices(part)
    assert "Fill 1 for BJ-1 is on its way: $200.00 in chips, carried by Runner." in notice
    # News, not an error: the site's notice card, never the error colour of .flag.
    assert 'class="card notice"' in notice and "flag" not in notice
    assert "40 × $5" in notice
    # She is the one to sign it, on arrival; the button comes back to My slips, not to its panels.
    assert f'action="{reverse("cage:slip_sign", args=[cast.event.slug, slip.pk])}"' in notice
    assert 'name="capacity" value="received_by"' in notice and "Sign as “received by”" in notice
    assert f'name="next" value="{mine(cast)}"' in notice
    # Above everything else on the page.
    page = client.get(mine(cast)).content.decode()
    assert page.index('id="on-the-way"') < page.index('id="my-roles"') < page.index('id="to-sign"')
    if 'id="fill-request"' in page:  # her own requests for fills come below what is on its way
        assert page.index('id="on-the-way"') < page.index('id="fill-request"')
    # The "Waiting for your signature" list, refreshed with it, also comes back to the page.
    to_sign = part.split('id="to-sign"', 1)[1]
    assert f'name="next" value="{mine(cast)}"' in to_sign and "?panel=1" not in to_sign
    response = client.post(
        reverse("cage:slip_sign", args=[cast.event.slug, slip.pk]), {"capacity": "received_by", "next": mine(cast)}
    )
    assert response.url == mine(cast)
    assert "Fill 1" not in notices(panel(client, cast))  # received: no longer on its way


def to_sign(html: str) -> str:
    """The "Waiting for your signature" panel of My slips."""
    return html.split('id="to-sign"', 1)[1].split('data-panel="holdings"', 1)[0]


def test_the_runner_signs_for_the_fill_in_her_list_then_it_is_on_its_way(client, cast, open_bj):
    slip = fill(cast, issued_by="chip_cashier")  # written at the cage; the runner has not taken it yet
    login(client, cast, "runner")
    part = panel(client, cast)
    # Still at the cage: no notice yet; she signs for it from "Waiting for your signature".
    assert "is on its way" not in notices(part)
    assert "Fill 1" in to_sign(part) and 'value="carried_by"' in to_sign(part)
    client.post(
        reverse("cage:slip_sign", args=[cast.event.slug, slip.pk]), {"capacity": "carried_by", "next": mine(cast)}
    )
    notice = notices(panel(client, cast))
    assert "Fill 1 for BJ-1 is on its way: $200.00 in chips, carried by you." in notice
    assert "<form" not in notice  # the dealer signs it on arrival, not she


def test_the_dealer_sees_no_notice_before_the_runner_has_taken_the_fill(client, cast, open_bj):
    slip = fill(cast, issued_by="chip_cashier")
    login(client, cast, "dealer")
    part = panel(client, cast)
    assert "Fill 1" not in notices(part) and "Fill 1" not in to_sign(part)
    services.sign(slip=slip, capacity="carried_by", person=cast.runner)
    notice = notices(panel(client, cast))
    assert "Fill 1 for BJ-1 is on its way: $200.00 in chips, carried by Runner." in notice
    assert 'value="received_by"' in notice


def test_a_credit_shows_once_released_and_carried(client, cast, open_bj):
    credit = services.credit(
        day=cast.day, table=cast.bj, chips={"1": 10}, runner=cast.runner, signed={}, allow_pending=True
    )
    login(client, cast, "dealer")
    part = panel(client, cast)
    # Still at her table: she releases it from her list, and nothing is on its way yet.
    assert "Credit 1" not in notices(part)
    assert "Credit 1" in to_sign(part) and 'value="released_by"' in to_sign(part)
    services.sign(slip=credit, capacity="released_by", person=cast.dealer)
    assert "Credit 1" not in notices(panel(client, cast))  # released, but the runner has not taken it
    services.sign(slip=credit, capacity="carried_by", person=cast.runner)
    notice = notices(panel(client, cast))
    assert "Credit 1 for BJ-1 is on its way: $10.00 in chips, carried by Runner." in notice
    assert "<form" not in notice  # the Chip Cashier receives it at the cage


def test_another_tables_fill_and_other_peoples_pages_show_no_notice(client, cast, open_bj):
    fill(cast, issued_by="chip_cashier", carried_by="runner")
    for persona in ("dealer2", "runner2", "general_cashier"):
        login(client, cast, persona)
        assert 'class="card notice"' not in panel(client, cast), persona
        client.logout()


def test_a_locked_tablets_refresh_shows_nothing(client, cast, open_bj):
    fill(cast, issued_by="chip_cashier", carried_by="runner")
    login(client, cast, "dealer")
    session = client.session
    session[LAST_ACTIVITY] = int(time.time()) - 16 * 60
    session.save()
    response = client.get(mine(cast) + "?panel=1")
    assert response.status_code == 401 and b"Fill" not in response.content
