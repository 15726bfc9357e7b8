"""The user a session names is read by a query compiled once (events.backends.ModelBackend): the
same login as Django's own backend gives, and none for a login made inactive or never made."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from events.backends import ModelBackend
from tests.conftest import login

pytestmark = pytest.mark.django_db


def test_the_session_reads_the_same_user_as_djangos_backend(cast):
    from django.contrib.auth.backends import ModelBackend as DjangosBackend

    user = cast.chip_cashier.user
    ours, djangos = ModelBackend().get_user(user.pk), DjangosBackend().get_user(user.pk)
    fields = [f.attname for f in get_user_model()._meta.concrete_fields]
    assert [getattr(ours, f) for f in fields] == [getattr(djangos, f) for f in fields]
    assert not ours._state.adding
    assert ModelBackend().get_user(-1) is None
    assert ModelBackend().get_user(str(user.pk)).pk == user.pk  # a key not read as a number: Django's way


def test_a_login_made_inactive_is_logged_out_at_its_next_page(client, cast):
    home = reverse("cage:home", args=[cast.event.slug])
    login(client, cast, "chip_cashier")
    assert client.get(home).status_code == 200
    user = cast.chip_cashier.user
    user.is_active = False
    user.save(update_fields=["is_active"])
    response = client.get(home)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    login(client, cast, "general_cashier")
    assert client.get(home).status_code == 200
    get_user_model().objects.filter(pk=cast.general_cashier.user.pk).update(username="renamed")
    assert client.get(home).status_code == 200  # the same login, renamed
