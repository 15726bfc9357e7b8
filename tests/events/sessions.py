"""A logged-in test client and a session left idle, for the idle lock's tests (events.idle)."""

import time

from events.idle import LAST_ACTIVITY
from tests.conftest import PASSWORD


def logged_in(client, person):
    assert client.login(username=person.user.username, password=PASSWORD)
    return client


def idle_for(client, minutes: float):
    """The session's last activity set this many minutes back, as if the terminal had been left."""
    session = client.session
    session[LAST_ACTIVITY] = int(time.time() - minutes * 60)
    session.save()
