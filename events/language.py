"""English or French: the switch in every page's header, remembered per login.

On a first visit Django's LocaleMiddleware takes the browser's language (Accept-Language), or the
cookie the switch sets. Once a person is logged in, the language their login chose wins, on
whatever screen they log in from: a cashier who works in French gets French at any window. A
choice made with the switch before logging in (on the login page) is that person's choice too:
it becomes their login's as they log in.
"""

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import HttpResponseRedirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from .models import LanguagePreference

CODES = frozenset(code for code, _name in settings.LANGUAGES)


# The login's choice rides in its session, put there as it logs in: no query per page.
SESSION_KEY = "language"
# A choice made with the switch before logging in, in this browser's session (the login page).
CHOSEN_BEFORE_LOGIN = "language_chosen"


def language_of_login(sender, request, user, **kwargs):
    if request is None or not hasattr(request, "session"):
        return
    chosen_now = request.session.pop(CHOSEN_BEFORE_LOGIN, None)
    if chosen_now in CODES:
        # The person chose on the login page and then logged in: it is their choice, kept for
        # their login wherever they log in next.
        LanguagePreference.objects.update_or_create(user=user, defaults={"language": chosen_now})
        request.session[SESSION_KEY] = chosen_now
        return
    chosen = LanguagePreference.objects.filter(user=user).values_list("language", flat=True).first()
    if chosen in CODES:
        request.session[SESSION_KEY] = chosen


class UserLanguageMiddleware:
    """After the session's login is known: a logged-in person's chosen language, if they chose one."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            chosen = request.session.get(SESSION_KEY)
            if chosen in CODES:
                translation.activate(chosen)
                request.LANGUAGE_CODE = chosen
        return self.get_response(request)


def _next_page(request) -> str:
    target = request.POST.get("next") or request.headers.get("referer") or "/"
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return "/"


@login_not_required
@require_POST
def set_language(request):
    """POST language=en-ca|fr-ca: the page comes back in that language, and stays so for this
    browser (cookie) and, once logged in, for this login wherever it is used."""
    response = HttpResponseRedirect(_next_page(request))
    language = request.POST.get("language", "")
    if language not in CODES:
        return response  # an unknown language changes nothing; the page stays as it was
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
    )
    if request.user.is_authenticated:
        LanguagePreference.objects.update_or_create(user=request.user, defaults={"language": language})
        request.session[SESSION_KEY] = language
    else:
        # Kept until this browser logs in, when it becomes the login's choice (language_of_login).
        request.session[CHOSEN_BEFORE_LOGIN] = language
    return response
