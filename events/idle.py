"""A session left idle locks: a cage terminal or a dealer's tablet must not stay open for whoever
walks up to it, and its owner must not be sent back to a password form between two fills.

Each request of a logged-in user is activity, except the live panels' own refresh (a request
with ?panel=1, which static/live_panels.js sends every few seconds): a screen that only watches
itself refresh is idle. After CAGE_IDLE_MINUTES without activity the session locks: every page
then goes to the lock page (events.views_accounts.unlock), which shows nothing of the page behind
it and asks its owner for their signing PIN; a panel's refresh is answered 401 and its script
reloads the page, which then goes to the lock page. The right PIN unlocks and returns to the page;
wrong ones count as failed logins (events.services.session_unlock), and once they lock the login
out the session is logged out. A login with no signing PIN (the licensee's administrator, a login
not set up with one) cannot unlock by PIN: it is logged out at once, and logs in again in full.
"""

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import ngettext

from .models import SigningPin

# The session key holding the time (seconds since the epoch) of the last activity.
LAST_ACTIVITY = "last_activity"
# Set while the session is locked; only its owner's signing PIN lifts it.
LOCKED = "locked"
# The time is written at most this often, so that a busy page does not write its session on
# every request; the idle time is then measured to within these seconds.
WRITE_EVERY_SECONDS = 15
# What a locked session may still reach: the lock page, logging out ("Not you?") and the language
# switch. None of them shows anything of the event. Static files are answered before (WhiteNoise).
OPEN_WHILE_LOCKED = frozenset({"events:unlock", "logout", "events:set_language"})


def is_poll(request) -> bool:
    """A live panel refreshing itself, not a person at work."""
    return request.GET.get("panel") == "1"


def activity_starts_at_login(sender, request, user, **kwargs):
    """The idle time counts from the login, which also ends any lock (connected in events.apps)."""
    if request is not None and hasattr(request, "session"):
        request.session[LAST_ACTIVITY] = int(time.time())
        request.session.pop(LOCKED, None)


def is_locked(request) -> bool:
    return bool(request.session.get(LOCKED))


def unlocked(request) -> None:
    """The owner gave their PIN: the session goes on, its idle time counted from now."""
    request.session.pop(LOCKED, None)
    request.session[LAST_ACTIVITY] = int(time.time())


def _view_name(request) -> str | None:
    try:
        return resolve(request.path_info).view_name
    except Resolver404:
        return None


def _back_to(request) -> str:
    """The page to return to once unlocked: the one asked for (a GET), else the page the form was
    sent from, when it is one of ours; "" for none."""
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    back = request.headers.get("referer", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return back
    return ""


def lock_page(request):
    """To the lock page, keeping the page asked for (a panel's refresh: 401, see the module)."""
    if is_poll(request):
        # Not a redirect, which the script's fetch would follow quietly: the script reloads the
        # page itself, and the page then goes to the lock page.
        return HttpResponse(status=401)
    back = _back_to(request)
    url = reverse("events:unlock")
    return redirect(f"{url}?{urlencode({'next': back})}" if back else url)


def _logged_out(request, minutes: int):
    logout(request)
    messages.info(
        request,
        ngettext(
            "You were logged out after %(minutes)s minute without activity.",
            "You were logged out after %(minutes)s minutes without activity.",
            minutes,
        )
        % {"minutes": minutes},
    )
    if is_poll(request):
        # Not a redirect, whose login page the script would fetch (and so use up the message):
        # the script reloads the page itself, which then goes to log in.
        return HttpResponse(status=401)
    return redirect_to_login(request.get_full_path())


class IdleLogoutMiddleware:
    """Locks an idle session (or logs it out, for a login with no signing PIN)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.user.is_authenticated:
            now = int(time.time())
            last = request.session.get(LAST_ACTIVITY)
            minutes = settings.CAGE_IDLE_MINUTES
            if not is_locked(request) and isinstance(last, int) and now - last > minutes * 60:
                if not SigningPin.objects.filter(user=request.user).exists():
                    return _logged_out(request, minutes)
                request.session[LOCKED] = True
            if is_locked(request):
                if _view_name(request) in OPEN_WHILE_LOCKED:
                    return self.get_response(request)
                return lock_page(request)
            if not isinstance(last, int) or (not is_poll(request) and now - last >= WRITE_EVERY_SECONDS):
                request.session[LAST_ACTIVITY] = now
        return self.get_response(request)
