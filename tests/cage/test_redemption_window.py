"""The window's bound on a redemption while a table is open (T&C 3.4.3): chips cashed in come from
patrons, who may have won them from an open table's tray, so patrons' chips and the open trays'
chips together must cover what is redeemed. A records file keeps the format's rule only."""

import copy
import json
import uuid

import pytest
from django.urls import reverse

from cage import services
from cage.importer import import_records
from cage.models import Account, Posting, Slip
from tests.cage.helpers import SALE_SIGNED, open_table, stock
from tests.conftest import EXAMPLES, PASSWORD, PIN
from tests.refusals import refuses
from tests.world import snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

REDEMPTION_SIGNED = {"paid_by": "general_cashier", "authorized_by": "dric"}


def two_quarters_sold_one_table_open(cast):
    """Two $25 chips in patrons' hands; BJ-1 open with no $25 chip in its tray."""
    stock(cast, chips={"1": 1000, "5": 400, "25": 40}, cash=100_000)
    open_table(cast)  # $1 and $5 chips only
    services.sale(day=cast.day, chips={"25": 2}, cash=5_000, signed=cast.signed(**SALE_SIGNED))


def patrons_chips(cast) -> dict[str, int]:
    rows = Posting.objects.filter(account__event=cast.event, account__kind=Account.Kind.PATRONS).exclude(
        denomination=None
    )
    held: dict[str, int] = {}
    for row in rows.select_related("denomination"):
        held[row.denomination.key] = held.get(row.denomination.key, 0) + row.amount // row.denomination.value_cents
    return held


def test_the_window_refuses_more_chips_than_patrons_and_open_trays_hold(cast):
    two_quarters_sold_one_table_open(cast)
    with refuses("chips.redeemed_more_than_held", held="2 $25 chips", redeemed="3 $25 chips") as refused:
        services.redemption(day=cast.day, chips={"25": 3}, cash=7_500, signed=cast.signed(**REDEMPTION_SIGNED))
    assert refused.value.rule == "T&C 3.4.3"
    assert not Slip.objects.filter(slip_type="redemption").exists()


def test_chips_patrons_may_have_won_from_an_open_tray_are_redeemed(cast):
    two_quarters_sold_one_table_open(cast)
    # Patrons bought no $5 chip, but the open table's tray holds 80: they may have won some.
    slip = services.redemption(day=cast.day, chips={"5": 3}, cash=1_500, signed=cast.signed(**REDEMPTION_SIGNED))
    assert slip.slip_type == "redemption" and patrons_chips(cast)["5"] == -3
    # And a normal redemption of chips patrons bought.
    services.redemption(day=cast.day, chips={"25": 2}, cash=5_000, signed=cast.signed(**REDEMPTION_SIGNED))
    assert patrons_chips(cast)["25"] == 0
    # The tray's 80 $5 chips are the bound: 3 redeemed, 77 more, not 78.
    with refuses("chips.redeemed_more_than_held", held="77 $5 chips", redeemed="78 $5 chips"):
        services.redemption(day=cast.day, chips={"5": 78}, cash=39_000, signed=cast.signed(**REDEMPTION_SIGNED))


def redemption_form(cast, **chips) -> dict:
    data = {"request_key": uuid.uuid4().hex, "tender": "cad_cash", "sign_paid_by": cast.general_cashier.pk}
    data["pin_paid_by"] = PIN
    cents = 0
    for key, count in chips.items():
        data[f"chips_{key}"] = str(count)
        cents += int(key) * 100 * count
    data["cash"] = str(cents // 100)
    return data


def test_the_redemption_form_shows_the_refusal_and_changes_nothing(client, cast):
    two_quarters_sold_one_table_open(cast)
    assert client.login(username=cast.general_cashier.user.username, password=PASSWORD)
    url = reverse("cage:slip_new", args=[cast.event.slug, "redemption"])
    before = snapshot()
    response = client.post(url, redemption_form(cast, **{"25": 3}))
    page = response.content.decode()
    assert response.status_code == 200
    assert "patrons and the open tables&#x27; trays together hold only 2 $25 chips" in page
    assert "(T&amp;C 3.4.3)" in page or "(T&C 3.4.3)" in page
    assert snapshot() == before

    response = client.post(url, redemption_form(cast, **{"25": 2}))
    assert response.status_code == 302
    assert Slip.objects.filter(slip_type="redemption").count() == 1 and patrons_chips(cast)["25"] == 0


def test_the_same_redemption_in_a_records_file_is_held_to_the_format_only(tmp_path):
    """cage-records/1 lets patrons dip below zero while a table is open: the importer accepts the
    redemption the window refuses (the day left open, as the format allows for the last day)."""
    data = copy.deepcopy(json.loads((EXAMPLES / "lakeside-one-day.json").read_text()))
    records = data["days"][0]["records"][:19]  # every table still open, 20 $25 chips sold
    records.append(
        {
            "type": "redemption",
            "at": "2026-09-11T22:56",
            "chips": {"25": 21},
            "cash": "525.00",
            "signed": {"paid_by": "gus", "authorized_by": "ann"},
        }
    )
    data["days"][0]["records"] = records
    import_records(data)
    slip = Slip.objects.get(slip_type="redemption")
    assert slip.details["chips"] == {"25": 21}
    held = sum(p.amount for p in Posting.objects.filter(account__kind=Account.Kind.PATRONS, denomination__key="25"))
    assert held == -2_500  # patrons at −1 $25 chip: the format's rule waits for every table to close
