"""Each person's own page (cage:mine) and the refusal page, per role, through the real services."""

import html as htmllib
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cage import services
from cage.models import Account, Posting, Signature, Slip
from events.models import Person
from tests.cage.helpers import FILL_SIGNED, count_tip_pool, open_table, roster_dealers, stock
from tests.conftest import login

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

PAYOUT_SIGNED = {"paid_by": "general_cashier", "verified_by": "chip_cashier", "authorized_by": "dric"}


def mine(cast):
    return reverse("cage:mine", args=[cast.event.slug])


def text(response) -> str:
    """The page's words without tags, whitespace collapsed."""
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).strip())


def section(response, element_id) -> str:
    html = response.content.decode()
    start = html.index(f'id="{element_id}"')
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[start : html.index("</table>", start)])))


def runner_on_the_floor(cast):
    """The runner takes $200 of chips, sells $10 of them, then carries a fill to BJ-1."""
    stock(cast)
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"5": 20, "25": 4},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    services.sale(
        day=cast.day,
        runner=cast.runner,
        chips={"5": 2},
        cash=1_000,
        signed=cast.signed(sold_by="runner", authorized_by="dric"),
    )
    open_table(cast)
    services.fill(day=cast.day, table=cast.bj, chips={"1": 50}, signed=cast.signed(**FILL_SIGNED))


def tips_paid(cast):
    """$40 in the tip box at BJ-1, paid out 3 hours to 1: the dealer's share is $30.00."""
    roster_dealers(cast)
    stock(cast)
    open_table(cast)
    services.tips(
        day=cast.day,
        table=cast.bj,
        chips={"1": 30, "5": 2},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    count_tip_pool(cast)  # counted before it is paid out (T&C 2.6)
    return services.tip_payout(
        day=cast.day,
        hours=[(cast.dealer, Decimal(3)), (cast.dealer2, Decimal(1))],
        signed=cast.signed(**PAYOUT_SIGNED),
    )


# --- my page ------------------------------------------------------------------------------


def test_a_runner_sees_what_they_hold_in_chips_and_dollars_and_cash(client, cast):
    runner_on_the_floor(cast)
    login(client, cast, "runner")
    response = client.get(mine(cast))
    assert response.status_code == 200
    held = section(response, "holdings")
    assert "$5 chips 18 $90.00" in held
    assert "$25 chips 4 $100.00" in held
    assert "Cash $10.00" in held
    assert "Total $200.00" in held
    assert "$1 chips" not in held
    assert "Your roles on this event: Runner" in text(response)


def test_a_runner_sees_the_days_slips_that_name_them_newest_first_and_opens_them(client, cast):
    runner_on_the_floor(cast)
    login(client, cast, "runner")
    response = client.get(mine(cast))
    slips = section(response, "my-slips")
    assert re.search(r"Fill 1 \d\d:\d\d table BJ-1 \$50\.00", slips)
    assert re.search(r"Chip sale 1 \d\d:\d\d \$10\.00", slips)
    assert re.search(r"Runner issue 1 \d\d:\d\d \$200\.00", slips)
    assert slips.index("Fill 1") < slips.index("Chip sale 1") < slips.index("Runner issue 1")
    # Slips they neither carry nor signed are not theirs.
    assert "Table issue" not in slips and "Opener" not in slips
    # Each links to its page, which the runner may open; a slip that is not theirs stays closed.
    page = response.content.decode()
    for link in re.findall(r'href="(/cage/[^"]+/slips/\d+/)"', page):
        assert client.get(link).status_code == 200
    table_issue = Slip.objects.filter(slip_type="table_issue").first()
    if table_issue:
        assert client.get(f"/cage/{cast.event.slug}/slips/{table_issue.pk}/").status_code == 403
    assert "Your slips of gaming day 2026-09-11 (Open)" in text(response)


def test_the_general_cashier_sees_their_page_with_links_to_the_slips(client, cast):
    tips_paid(cast)
    login(client, cast, "general_cashier")
    response = client.get(mine(cast))
    assert response.status_code == 200
    payout = Slip.objects.get(slip_type="tip_payout")
    assert reverse("cage:slip", args=[cast.event.slug, payout.pk]) in response.content.decode()
    assert re.search(r"Tip payout 1 \d\d:\d\d \$40\.00", section(response, "my-slips"))
    assert "Your roles on this event: General Cashier" in text(response)
    # Custody, but neither a runner's holdings nor a dealer's tips.
    assert 'id="holdings"' not in response.content.decode()
    assert 'id="tips"' not in response.content.decode()
    assert 'id="no-custody"' not in response.content.decode()


def test_a_dealer_sees_their_tip_shares_per_day_and_in_total_and_the_slips_they_signed(client, cast):
    tips_paid(cast)
    login(client, cast, "dealer")
    response = client.get(mine(cast))
    assert response.status_code == 200
    tips = section(response, "tips")
    assert "2026-09-11 3 $30.00" in tips
    assert "Total 3 $30.00" in tips
    assert "$10.00" not in tips  # the other dealer's share
    slips = section(response, "my-slips")
    assert re.search(r"Tips 1 \d\d:\d\d table BJ-1 \$40\.00", slips)
    assert re.search(r"Opener 1 \d\d:\d\d table BJ-1 \$500\.00", slips)
    assert "Table issue 1" in slips
    assert "Tip payout" not in slips  # the dealer did not sign it
    assert 'id="holdings"' not in response.content.decode()
    client.logout()
    login(client, cast, "dealer2")
    assert "2026-09-11 1 $10.00" in section(client.get(mine(cast)), "tips")


def test_a_dealer_before_any_payout_is_told_so(client, cast):
    login(client, cast, "dealer")
    response = client.get(mine(cast))
    assert "No tips have been paid out to you yet." in text(response)
    assert "No slip of this gaming day names you or bears your signature." in text(response)


@pytest.mark.parametrize("persona", ["auditor", "admin"])
def test_auditors_and_administrators_are_told_they_hold_no_custody(client, cast, admin_user, persona):
    if persona == "admin":
        client.force_login(admin_user)
    else:
        login(client, cast, persona)
    response = client.get(mine(cast))
    assert response.status_code == 200
    assert "You hold no custody on this event" in text(response)
    assert 'id="holdings"' not in response.content.decode()
    if persona == "auditor":
        assert "Your roles on this event: Auditor" in text(response)
    else:
        assert "You are one of the licensee's administrators." in text(response)


def test_an_outsider_is_refused_my_page(client, cast, outsider):
    client.force_login(outsider)
    response = client.get(mine(cast), follow=False)
    assert response.status_code == 403
    assert "You hold no role on this event" in text(response)
    assert 'class="event"' not in response.content.decode()


def test_a_suspended_person_is_refused_my_page(client, cast):
    Person.objects.filter(pk=cast.runner.pk).update(registration=Person.Registration.SUSPENDED)
    login(client, cast, "runner")
    assert client.get(mine(cast)).status_code == 403


def test_my_page_takes_no_post(client, cast):
    login(client, cast, "runner")
    assert client.post(mine(cast)).status_code == 405


@pytest.mark.parametrize("persona", ["runner", "runner2", "dealer", "general_cashier", "auditor"])
def test_a_get_writes_nothing(client, cast, persona):
    """runner2 has no account yet: the page reads, it does not make one."""
    runner_on_the_floor(cast)
    before = (Account.objects.count(), Slip.objects.count(), Posting.objects.count(), Signature.objects.count())
    login(client, cast, persona)
    response = client.get(mine(cast))
    assert response.status_code == 200
    assert (Account.objects.count(), Slip.objects.count(), Posting.objects.count(), Signature.objects.count()) == before
    if persona == "runner2":
        assert "You hold no chips and no cash." in text(response)
        assert not Account.objects.filter(person=cast.runner2).exists()


def test_my_page_takes_the_same_number_of_queries_however_many_slips(client, cast):
    runner_on_the_floor(cast)
    tips_paid_once = services.tips(
        day=cast.day, table=cast.bj, chips={"1": 4}, signed=cast.signed(counted_by="dealer", verified_by="chip_cashier")
    )
    assert tips_paid_once
    roster_dealers(cast)
    count_tip_pool(cast)
    services.tip_payout(day=cast.day, hours=[(cast.dealer, Decimal(2))], signed=cast.signed(**PAYOUT_SIGNED))
    login(client, cast, "runner")
    client.get(mine(cast))
    with CaptureQueriesContext(connection) as few:
        client.get(mine(cast))
    for _ in range(5):
        services.sale(
            day=cast.day,
            runner=cast.runner,
            chips={"5": 1},
            cash=500,
            signed=cast.signed(sold_by="runner", authorized_by="dric"),
        )
        services.fill(day=cast.day, table=cast.bj, chips={"1": 1}, signed=cast.signed(**FILL_SIGNED))
    with CaptureQueriesContext(connection) as many:
        response = client.get(mine(cast))
    assert section(response, "my-slips").count("Fill ") == 6
    assert len(many) == len(few)


# --- the refusal page ---------------------------------------------------------------------


CAGE_ONLY = ("cage:home", "reports:event", "events:people", "events:compliance")


@pytest.mark.parametrize("persona,role", [("runner", "Runner"), ("dealer", "Dealer")])
def test_the_cage_refuses_a_runner_or_dealer_with_an_explanation_and_the_navigation(client, cast, persona, role):
    login(client, cast, persona)
    response = client.get(reverse("cage:home", args=[cast.event.slug]))
    assert response.status_code == 403
    words = text(response)
    assert f"Your role on this event ({role}) does not allow this page." in words
    assert "The cage pages are for the DRIC, the General Cashier and the Chip Cashier." in words
    html = response.content.decode()
    assert 'class="event"' in html and cast.event.name in html
    assert f'href="{mine(cast)}"' in html
    assert f'href="{reverse("events:days", args=[cast.event.slug])}"' in html
    for name in CAGE_ONLY:
        assert f'href="{reverse(name, args=[cast.event.slug])}"' not in html, name


def test_the_report_refusal_names_who_the_report_is_for(client, cast):
    login(client, cast, "dealer")
    response = client.get(reverse("reports:event", args=[cast.event.slug]))
    assert response.status_code == 403
    assert (
        "The event's report is for the DRIC, the General Cashier and the Chip Cashier. "
        "An auditor may look, and changes nothing." in text(response)
    )


def test_a_refused_change_says_who_makes_it(client, cast):
    login(client, cast, "general_cashier")
    response = client.post(reverse("events:tables", args=[cast.event.slug]), {"code": "BJ-9", "game": "blackjack"})
    assert response.status_code == 403
    words = text(response)
    assert "Your role on this event (General Cashier) does not allow this change." in words
    assert "Changes here are made by the DRIC." in words
    # The cashier keeps the cage in the navigation.
    assert f'href="{reverse("cage:home", args=[cast.event.slug])}"' in response.content.decode()


def test_an_outsider_refused_an_event_sees_no_event_navigation(client, cast, outsider):
    client.force_login(outsider)
    response = client.get(reverse("events:detail", args=[cast.event.slug]))
    assert response.status_code == 403
    assert "You hold no role on this event, so its pages are not open to you." in text(response)
    assert cast.event.name not in response.content.decode()
    assert f'href="{reverse("events:home")}"' in response.content.decode()


def test_a_refusal_outside_an_event_keeps_its_reason(client, cast):
    login(client, cast, "dric")
    response = client.get(reverse("events:create"))
    assert response.status_code == 403
    assert "Only the licensee&#x27;s administrators create events." in response.content.decode()


# --- the navigation -----------------------------------------------------------------------


@pytest.mark.parametrize("persona", ["runner", "dealer"])
def test_the_navigation_shows_a_runner_or_dealer_only_what_they_may_open(client, cast, persona):
    login(client, cast, persona)
    response = client.get(reverse("events:detail", args=[cast.event.slug]))
    html = response.content.decode()
    nav = html[html.index('<nav class="event"') : html.index("</nav>")]
    assert f'href="{mine(cast)}"' in nav and "My slips" in nav
    for name in CAGE_ONLY:
        assert f'href="{reverse(name, args=[cast.event.slug])}"' not in nav, name
    # Every link in the navigation opens for this role.
    for href in re.findall(r'href="([^"]+)"', nav):
        assert client.get(href).status_code == 200, href


@pytest.mark.parametrize("persona", ["dric", "general_cashier", "chip_cashier", "auditor"])
def test_the_navigation_shows_the_cage_roles_and_the_auditor_every_page(client, cast, persona):
    login(client, cast, persona)
    html = client.get(reverse("events:detail", args=[cast.event.slug])).content.decode()
    nav = html[html.index('<nav class="event"') : html.index("</nav>")]
    for name in (*CAGE_ONLY, "cage:mine"):
        assert f'href="{reverse(name, args=[cast.event.slug])}"' in nav, name
    for href in re.findall(r'href="([^"]+)"', nav):
        assert client.get(href).status_code == 200, href
