"""The sessions' store: Django's database sessions, each read by a query compiled once.

Every page a person opens reads their session first. Django's own store asks the ORM to build and
compile the same query on every request (a session's key, not expired), which cost about as much as
the database's answer (issue 25: pages that cost little). Here that query, Django's own, is
compiled once (core.compiled, its time bound passed as a moment): a session past its expiry is
none, and its key is dropped as Django drops it. Everything else is Django's store.
"""

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from core.compiled import Compiled

_SESSION = Compiled(
    lambda session_key, now: Session.objects.filter(session_key=session_key, expire_date__gt=now),
    texts=("session_key",),
    moments=("now",),
)


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        if self.model is not Session:  # a store of another model: Django's own query
            return super()._get_session_from_db()
        session = _SESSION.first(self.session_key, timezone.now())
        if session is None:
            self._session_key = None
        return session
