"""The void form's slip choices tell same-minute slips apart: each names its amount and its table
or runner. On a day counted blind tonight they name no amount (cage.selectors.counts.books_blind)."""

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils.translation import override

from cage import services
from cage.forms import SlipForm
from cage.slip_types import SLIP_KINDS
from core.local import clock
from tests.cage.helpers import FILL_SIGNED, SALE_SIGNED, open_table, stock
from tests.cage.test_blind_counts import reconciling

pytestmark = pytest.mark.django_db


def choices(cast):
    form = SlipForm(kind=SLIP_KINDS["void"], day=cast.day, signer=cast.dric, request=RequestFactory().get("/"))
    with CaptureQueriesContext(connection) as queries:
        labels = [label for value, label in form.fields["target"].choices if value]
    assert len(queries) == 1  # however many slips: their tables, runners and cash in one query
    return labels


def test_each_choice_shows_the_amount_and_the_table_or_runner(cast):
    stock(cast)
    open_table(cast)
    sale = services.sale(day=cast.day, chips={"5": 10}, cash=5_000, signed=cast.signed(**SALE_SIGNED))
    fill = services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"5": 4},
        signed=cast.signed(**FILL_SIGNED),
    )
    labels = choices(cast)
    assert f"Chip sale {sale.serial} at {clock(sale.at)}: $50.00" in labels
    assert f"Fill {fill.serial} at {clock(fill.at)}, table BJ-1: $20.00" in labels
    with override("fr-ca"):
        labels = choices(cast)
    assert any(label.endswith("\u00a0: 50,00\u00a0$") for label in labels), labels


def test_a_day_counted_blind_shows_no_amount_in_the_choices(cast):
    reconciling(cast)
    labels = choices(cast)
    assert labels and all("$" not in label for label in labels), labels
    assert any(", runner Runner" in label for label in labels), labels
