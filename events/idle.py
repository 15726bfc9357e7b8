"""A session left idle ends: a cage terminal must not stay logged in for whoever walks up to it.

Each request of a logged-in user is activity, except the live panels' own refresh (a request
with ?panel=1, which static/live_panels.js sends every few seconds): a screen that only watches
itself refresh is idle. After CAGE_IDLE_MINUTES without activity the next request logs the
session out and goes to the login page, which says why; a panel's refresh is answered 401 and
its script reloads the page, which then goes to the login page.
"""

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.utils.translation import ngettext

# The session key holding the time (seconds since the epoch) of the last activity.
LAST_ACTIVITY = "last_activity"
# The time is written at most this often, so that a busy page does not write its session on
# every request; the idle time is then measured to within these seconds.
WRITE_EVERY_SECONDS = 15


def is_poll(request) -> bool:
    """A live panel refreshing itself, not a person at work."""
    return request.GET.get("panel") == "1"


def activity_starts_at_login(sender, request, user, **kwargs):
    """The idle time counts from the login (connected in events.apps)."""
    if request is not None and hasattr(request, "session"):
        request.session[LAST_ACTIVITY] = int(time.time())


class IdleLogoutMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.user.is_authenticated:
            now = int(time.time())
            last = request.session.get(LAST_ACTIVITY)
            minutes = settings.CAGE_IDLE_MINUTES
            if isinstance(last, int) and now - last > minutes * 60:
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
                    # Not a redirect, whose login page the script would fetch (and so use up the
                    # message): the script reloads the page itself, which then goes to log in.
                    return HttpResponse(status=401)
                return redirect_to_login(request.get_full_path())
            if not isinstance(last, int) or (not is_poll(request) and now - last >= WRITE_EVERY_SECONDS):
                request.session[LAST_ACTIVITY] = now
        return self.get_response(request)
