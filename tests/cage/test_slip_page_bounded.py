"""A slip's own page reads that slip alone among those waiting (issue 25): what the reader may sign
on it, and whether a dealer or runner may read it at all, is the same answer whatever else waits,
and so is the page's cost."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cage import services
from cage.selectors.slips import pending_slips
from tests.cage.helpers import fill_in_transit, open_table, stock
from tests.conftest import login_person

pytestmark = pytest.mark.django_db


def sales_waiting(cast, n: int) -> None:
    for i in range(n):
        services.sale(
            day=cast.day,
            chips={"1": i + 1},
            cash=(i + 1) * 100,
            signed=cast.signed(sold_by="chip_cashier"),
            allow_pending=True,
        )


def queries_of(client, url) -> tuple[int, bytes]:
    client.get(url)  # warm: the session's first request reads more than the next
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries), response.content


def test_pending_slips_of_one_slip_is_that_slip_alone_while_it_waits(cast):
    stock(cast)
    open_table(cast)
    fill = fill_in_transit(cast)
    sales_waiting(cast, 3)
    (item,) = pending_slips(cast.event, slip=fill)
    assert item.slip.pk == fill.pk and item.state == "in_transit"
    assert [c.code for c in item.missing] == ["received_by", "authorized_by"]
    services.sign(slip=fill, capacity="received_by", person=cast.dealer)
    services.sign(slip=fill, capacity="authorized_by", person=cast.dric)
    assert pending_slips(cast.event, slip=fill) == []
    assert len(pending_slips(cast.event)) == 3


def test_the_dealers_page_of_a_fill_offers_her_signature_at_the_same_cost_whatever_waits(client, cast):
    stock(cast, chips={"1": 5000, "5": 400})
    open_table(cast)
    fill = fill_in_transit(cast)
    login_person(client, cast.dealer)
    url = reverse("cage:slip", args=[cast.event.slug, fill.pk])
    few, page = queries_of(client, url)
    assert b'id="sign-here"' in page and b'name="capacity" value="received_by"' in page
    sales_waiting(cast, 30)
    many, page = queries_of(client, url)
    assert many == few
    assert b'id="sign-here"' in page and b'name="capacity" value="received_by"' in page
    # A sale she has no part in stays closed to her, however many wait.
    other = pending_slips(cast.event)[-1].slip
    assert client.get(reverse("cage:slip", args=[cast.event.slug, other.pk])).status_code == 403
