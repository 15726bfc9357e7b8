"""When the audit trail cannot be written (a real fault: the database refuses every new entry), an
action fails with it and changes nothing; a refusal or a failed login is still answered as usual."""

import uuid

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from cage.models import Slip
from events.models import GameTable
from tests.audit.helpers import ADDRESS, audit_trail_broken
from tests.cage.helpers import stock
from tests.conftest import PASSWORD, PIN, Client, login, make_cast

NOT_DONE = "nothing was done: the audit trail could not be written"


def sale_form(cast, cash="10"):
    return {
        "request_key": uuid.uuid4().hex,
        "chips_5": "2",
        "cash": cash,
        "tender": "cad_cash",
        "sign_sold_by": cast.chip_cashier.pk,
        "pin_sold_by": PIN,
    }


@pytest.mark.django_db
def test_a_slip_that_cannot_be_audited_is_not_recorded(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    with audit_trail_broken():
        response = client.post(reverse("cage:slip_new", args=[cast.event.slug, "sale"]), sale_form(cast))
    assert response.status_code == 200 and NOT_DONE in response.content.decode()
    assert not Slip.objects.filter(slip_type="sale").exists()


@pytest.mark.django_db
def test_a_setup_change_that_cannot_be_audited_is_not_made(client, cast):
    login(client, cast, "dric")
    with audit_trail_broken():
        response = client.post(reverse("events:tables", args=[cast.event.slug]), {"code": "BJ-2", "game": "blackjack"})
    assert response.status_code == 200 and NOT_DONE in response.content.decode()
    assert not GameTable.objects.filter(code="BJ-2").exists()


@pytest.mark.django_db
def test_a_refusal_is_still_answered_when_it_cannot_be_audited(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    with audit_trail_broken():
        response = client.post(reverse("cage:slip_new", args=[cast.event.slug, "sale"]), sale_form(cast, cash="1"))
    assert (
        response.status_code == 200
        and "for $1.00 cash would give $9.00 of chips on credit" in response.content.decode()
    )
    assert not AuditEntry.objects.filter(outcome="refused").exists()


@pytest.mark.django_db(transaction=True)
def test_an_export_or_a_login_that_cannot_be_audited_is_refused_and_a_failed_login_is_answered():
    cast = make_cast("broken")
    client = Client(REMOTE_ADDR=ADDRESS)
    login(client, cast, "dric")
    with audit_trail_broken():
        response = client.get(reverse("reports:event_csv", args=[cast.event.slug]))
        assert response.status_code == 503 and NOT_DONE in response.content.decode()

        fresh = Client(REMOTE_ADDR=ADDRESS)
        username = cast.general_cashier.user.username
        response = fresh.post(reverse("login"), {"username": username, "password": PASSWORD})
        assert response.status_code == 503
        # The login did not stand: the next page asks for a login again.
        assert fresh.get(reverse("events:home")).status_code == 302

        response = fresh.post(reverse("login"), {"username": username, "password": "wrong-password"})
        assert (
            response.status_code == 200
            and "The username or the password is wrong; both are case-sensitive." in response.content.decode()
        )
    assert not AuditEntry.objects.filter(action__in=["exported", "login"], user=cast.general_cashier.user).exists()
    # Mended, the same login goes through and is recorded.
    assert fresh.post(reverse("login"), {"username": username, "password": PASSWORD}).status_code == 302
    assert AuditEntry.objects.filter(action="login", outcome="done", user=cast.general_cashier.user).exists()
