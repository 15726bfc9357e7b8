"""The lockout for every secret a person types: django-axes.

A wrong password at the login page, a wrong current password where one is asked again, and a wrong
setup code count as failed logins of the username they were typed for, from the address they came
from (settings.AXES_LOCKOUT_PARAMETERS; the address is the client's, also behind a proxy:
settings.AXES_CLIENT_IP_CALLABLE). Once LOGIN_MAX_FAILURES are counted, that username is locked
there for LOGIN_LOCK_MINUTES.

A wrong signing PIN, typed on a slip at a cashier's window or on a signing page, counts apart: the
same limit and time lock that person's signing by PIN at that address, not their login. Wrong PINs
typed on someone else's screen must not shut the runner out of their own session, from which they
can still sign (no PIN asked there); and wrong passwords do not lock their PIN either. Axes keeps
the two counts under two keys of the same username (`lockout_key`): the username itself, and
"pin:" + the username. To lift a PIN lock early: `manage.py axes_reset_username pin:USERNAME`.

The login page goes through axes' own backend and middleware; the other fields call these.
Call them outside any transaction, as a view's form cleaning does: axes writes each wrong try
at once, and a try counted inside a block that is later rolled back would be lost.
"""

import copy
import datetime

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username, get_cool_off, get_credentials, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.db.models import Max, Sum
from django.http import QueryDict
from django.utils import timezone

from core.client import client_address
from core.compiled import Compiled

# In the credentials handed to axes: the secret was a signing PIN, not a password.
SIGNING_PIN = "signing_pin"
PIN_KEY_PREFIX = "pin:"
# A name typed at the login page that begins like a PIN's key is counted under this prefix, so that
# typing "pin:rita" there can never lock Rita's PIN (no real username has a colon).
TYPED_PREFIX = "typed:"


def lockout_key(request, credentials=None) -> str | None:
    """settings.AXES_USERNAME_CALLABLE: the name axes counts a try under."""
    field = settings.AXES_USERNAME_FORM_FIELD
    if credentials is not None:
        name = credentials.get(field)
    else:
        name = getattr(request, "data", request.POST).get(field)
    if name is None:
        return None
    name = str(name)
    if credentials is not None and credentials.get(SIGNING_PIN):
        return PIN_KEY_PREFIX + name
    if name.startswith((PIN_KEY_PREFIX, TYPED_PREFIX)):
        return TYPED_PREFIX + name
    return name


def client_ip(request) -> str | None:
    """settings.AXES_CLIENT_IP_CALLABLE: the address the audit trail records, so the lockout and the
    trail agree on who tried (core.client.client_address; behind a proxy with BEHIND_PROXY)."""
    return client_address(request)


def _credentials(username: str, pin: bool) -> dict:
    return get_credentials(username, **({SIGNING_PIN: True} if pin else {}))


def is_locked(request, username: str, *, pin: bool = False) -> bool:
    """True while this username (or, with `pin`, its signing PIN) may not be tried from this
    request's address."""
    return not AxesProxyHandler.is_allowed(request, _credentials(username, pin))


def is_locked_here(request, username: str) -> bool:
    """True while this username is locked at this address by its own wrong tries (not the address's)."""
    credentials = _credentials(username, False)
    return AxesProxyHandler.get_failures(request, credentials) >= get_failure_limit(request, credentials)


def count_failure(request, username: str, *, pin: bool = False) -> None:
    """A wrong secret typed for this username: one failed try, as axes counts them (with `pin`,
    against the signing PIN only).

    Axes is handed a copy of the request without its form data, so the secret typed (a PIN, a
    code, a password under another field name) is never written into its record, and the page
    the person is on answers with its own message rather than axes' lockout page.
    """
    quiet = copy.copy(request)
    quiet.POST = QueryDict()
    user_login_failed.send(sender=__name__, credentials=_credentials(username, pin), request=quiet)


def count_success(request, username: str, *, pin: bool = False) -> None:
    """The right secret: the count of wrong tries for this username (or its PIN) here starts
    again, as a right password does at the login page (AXES_RESET_ON_SUCCESS)."""
    if not (settings.AXES_ENABLED and settings.AXES_RESET_ON_SUCCESS):
        return
    AxesProxyHandler.update_request(request)
    AxesProxyHandler.get_implementation().reset_user_attempts(request, _credentials(username, pin))


def tries_left(request, username: str, *, pin: bool = False) -> int:
    credentials = _credentials(username, pin)
    failures = AxesProxyHandler.get_failures(request, credentials)
    return max(0, get_failure_limit(request, credentials) - failures)


def limit(request, username: str, *, pin: bool = False) -> int:
    return get_failure_limit(request, _credentials(username, pin))


def lock_minutes(request) -> int:
    """How long a lock lasts, in whole minutes (axes' cool-off)."""
    return int(get_cool_off(request).total_seconds() // 60)


def _address_attempts(request):
    """The failed logins counted from this request's address within the cool-off, whatever the
    usernames typed; not the signing PINs, which lock only their owner's signing (PIN_KEY_PREFIX)."""
    AxesProxyHandler.update_request(request)
    since = timezone.now() - get_cool_off(request)
    return AccessAttempt.objects.filter(ip_address=request.axes_ip_address, attempt_time__gte=since).exclude(
        username__startswith=PIN_KEY_PREFIX
    )


def address_failures(request) -> int:
    return _address_attempts(request).aggregate(n=Sum("failures_since_start"))["n"] or 0


def address_locked(request) -> bool:
    return address_failures(request) >= settings.LOGIN_ADDRESS_MAX_FAILURES


def address_lock_ends(request) -> datetime.datetime | None:
    last = _address_attempts(request).aggregate(last=Max("attempt_time"))["last"]
    return last + get_cool_off(request) if last is not None else None


# On a request: {the name a try is counted under: the wrong tries its lock check counted}.
FAILURES_SEEN = "_lockout_failures_seen"
# The lockout parameters under which a username's wrong tries are counted at one address (settings).
USERNAME_AT_ADDRESS = [["username", "ip_address"]]


def _recent_tries(username, since):
    """A name's counted tries since a moment, at every address: (address, wrong tries), one row an
    address and browser (axes keeps one per username, address and user agent)."""
    return AccessAttempt.objects.filter(username=username, attempt_time__gte=since).values_list(
        "ip_address", "failures_since_start"
    )


# Compiled once (core.compiled): every PIN typed at the window asks it. The address is compared
# here, as the field keeps it, not in the query: PostgreSQL's address type takes no stand-in.
_RECENT_TRIES = Compiled(_recent_tries, texts=("username",), moments=("since",))
_ADDRESS = AccessAttempt._meta.get_field("ip_address")


class AddressAwareHandler(AxesDatabaseHandler):
    """settings.AXES_HANDLER: axes' own database handler, which locks a username at an address, and
    also an address: LOGIN_ADDRESS_MAX_FAILURES failed logins from one address, whatever usernames
    they typed, refuse every login from it until the cool-off ends. Refused before any password is
    hashed, so a few anonymous clients cannot tie the server's workers up in argon2 and starve the
    cage. Not in axes' lockout parameters: its reset on a right password would then forget every
    username's tries from that address, and one valid login would wipe another's count."""

    def is_locked(self, request, credentials=None) -> bool:
        if super().is_locked(request, credentials):
            return True
        if credentials is not None and credentials.get(SIGNING_PIN):
            return False
        return address_locked(request)

    def get_failures(self, request, credentials=None) -> int:
        """Axes' count, remembered on the request for the name it counts under, so that the reset on
        a right secret that follows (reset_user_attempts) knows when there is nothing to reset."""
        failures = self._failures_here(request, credentials)
        request.__dict__.setdefault(FAILURES_SEEN, {})[lockout_key(request, credentials)] = failures
        return failures

    def _failures_here(self, request, credentials) -> int:
        """Axes' own count (the sum of the tries kept for the name at the address within the
        cool-off), by a compiled query under this product's lockout parameters; by axes otherwise."""
        username, address = get_client_username(request, credentials), request.axes_ip_address
        if (
            settings.AXES_LOCKOUT_PARAMETERS != USERNAME_AT_ADDRESS
            or settings.AXES_COOLOFF_TIME is None
            or username is None
            or address is None
        ):
            return super().get_failures(request, credentials)
        address = _ADDRESS.get_prep_value(address)
        since = get_cool_off_threshold(request)
        return sum(tries for kept, tries in _RECENT_TRIES.rows(str(username), since) if kept == address)

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        if request is not None:
            request.__dict__.get(FAILURES_SEEN, {}).pop(lockout_key(request, credentials), None)
        return super().user_login_failed(sender, credentials, request, **kwargs)

    def reset_user_attempts(self, request, credentials=None) -> int:
        """Axes' reset on a right secret, asking first whether there is anything to reset: the usual
        right PIN at the window, with no wrong try before it, otherwise opened a write transaction
        (SQLite's write lock, taken from the other terminals) on every co-signed slip, to delete
        nothing. Nothing is asked when this request's lock check counted no wrong try within the
        cool-off (get_failures): an older try no longer counts, and axes clears it at the next."""
        if request.__dict__.get(FAILURES_SEEN, {}).get(lockout_key(request, credentials)) == 0:
            return 0
        count = 0
        for attempts in self.filter_user_attempts(request, credentials):
            if attempts.exists():
                count += attempts.delete()[0]
        return count


def lock_ends(request, username: str, *, pin: bool = False) -> datetime.datetime | None:
    """When the lock on this username (or its PIN) at this address ends: the last counted try plus
    the cool-off."""
    AxesProxyHandler.update_request(request)
    key = lockout_key(request, _credentials(username, pin))
    last = AccessAttempt.objects.filter(username=key, ip_address=request.axes_ip_address).aggregate(
        last=Max("attempt_time")
    )["last"]
    cool_off = get_cool_off(request)
    if last is None or cool_off is None:
        return None
    return last + cool_off
