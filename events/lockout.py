"""The one lockout for every secret a person types: django-axes.

A wrong password at the login page, a wrong signing PIN typed on a slip, a wrong current password
where one is asked again, and a wrong setup code all count as failed logins of the username they
were typed for, from the address they came from (settings.AXES_LOCKOUT_PARAMETERS). Once
LOGIN_MAX_FAILURES are counted, that username is locked there for LOGIN_LOCK_MINUTES: its login,
its PIN and its setup alike, so no field is a guessing oracle for another.

The login page goes through axes' own backend and middleware; the other fields call these.
Call them outside any transaction, as a view's form cleaning does: axes writes each wrong try
at once, and a try counted inside a block that is later rolled back would be lost.
"""

import copy
import datetime

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_cool_off, get_credentials, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.db.models import Max
from django.http import QueryDict


def is_locked(request, username: str) -> bool:
    """True while this username may not be tried from this request's address."""
    return not AxesProxyHandler.is_allowed(request, get_credentials(username))


def count_failure(request, username: str) -> None:
    """A wrong secret typed for this username: one failed login, as axes counts them.

    Axes is handed a copy of the request without its form data, so the secret typed (a PIN, a
    code, a password under another field name) is never written into its record, and the page
    the person is on answers with its own message rather than axes' lockout page.
    """
    quiet = copy.copy(request)
    quiet.POST = QueryDict()
    user_login_failed.send(sender=__name__, credentials=get_credentials(username), request=quiet)


def count_success(request, username: str) -> None:
    """The right secret: the count of wrong tries for this username here starts again, as a right
    password does at the login page (AXES_RESET_ON_SUCCESS)."""
    if not (settings.AXES_ENABLED and settings.AXES_RESET_ON_SUCCESS):
        return
    AxesProxyHandler.update_request(request)
    AxesProxyHandler.get_implementation().reset_user_attempts(request, get_credentials(username))


def tries_left(request, username: str) -> int:
    credentials = get_credentials(username)
    failures = AxesProxyHandler.get_failures(request, credentials)
    return max(0, get_failure_limit(request, credentials) - failures)


def limit(request, username: str) -> int:
    return get_failure_limit(request, get_credentials(username))


def lock_ends(request, username: str) -> datetime.datetime | None:
    """When the lock on this username at this address ends: the last counted try plus the cool-off."""
    AxesProxyHandler.update_request(request)
    last = AccessAttempt.objects.filter(username=username, ip_address=request.axes_ip_address).aggregate(
        last=Max("attempt_time")
    )["last"]
    cool_off = get_cool_off(request)
    if last is None or cool_off is None:
        return None
    return last + cool_off
