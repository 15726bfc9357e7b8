"""The sessions' store (core.sessions): Django's database sessions, read by a query compiled once.
A session reads as Django's own store reads it; one past its expiry is no session at all."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from core.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_the_site_keeps_its_sessions_in_this_store():
    assert settings.SESSION_ENGINE == "core.sessions"


def test_a_session_reads_as_djangos_own_store_reads_it():
    own = db.SessionStore()
    own["cart"] = {"chips": [5, 25], "note": "é"}
    own.save()
    read = SessionStore(own.session_key)
    assert read.load() == db.SessionStore(own.session_key).load() == {"cart": {"chips": [5, 25], "note": "é"}}
    assert read.session_key == own.session_key


@pytest.mark.parametrize("key", ["no-such-session-key", "x" * 40])
def test_no_session_is_read_for_a_key_nobody_holds(key):
    store = SessionStore(key)
    assert store.load() == {}
    assert store.session_key is None  # as Django's store: a new key is made when it is saved


def test_a_session_past_its_expiry_logs_nobody_in(client):
    user = get_user_model().objects.create_user("sessions-test", password="not-used-here-2026")
    client.force_login(user)
    landing = reverse("events:landing")
    assert client.get(landing).wsgi_request.user == user
    key = client.session.session_key
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - datetime.timedelta(seconds=1))
    assert SessionStore(key).load() == {}
    assert not client.get(landing).wsgi_request.user.is_authenticated
