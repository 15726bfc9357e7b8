"""Each row's address, reversed once per list (core.addresses), is what reverse() gives for it."""

import pytest
from django.urls import NoReverseMatch, reverse

from core.addresses import RowAddress, row_addresses


@pytest.mark.parametrize("slug", ["fair-2026", "7302517113", "a1"])
@pytest.mark.parametrize("name", ["cage:slip", "cage:slip_sign", "cage:queue_approve", "cage:queue_void"])
def test_a_rows_address_is_reverses(slug, name):
    address = RowAddress(name, slug)
    for pk in (1, 9, 7302517113, 10**12):
        assert address(pk) == reverse(name, args=[slug, pk])


def test_several_routes_at_once():
    to = row_addresses("fair", slip="cage:slip", refuse="cage:queue_refuse")
    assert to["slip"](4) == reverse("cage:slip", args=["fair", 4])
    assert to["refuse"](4) == reverse("cage:queue_refuse", args=["fair", 4])


def test_a_route_not_of_a_slug_and_an_id_is_refused_at_once():
    with pytest.raises(NoReverseMatch):
        RowAddress("cage:home", "fair")
