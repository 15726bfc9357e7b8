"""Each person's own login: setting it up with the code they were handed, changing their own
password, unlocking their idle session with their signing PIN, and the page shown when too many
wrong tries have locked a login."""

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from core.rules import RuleViolation

from . import idle, lockout, services
from .forms import LoginForm, LoginSetupForm, PasswordChangeForm, UnlockForm
from .views import applied_counting_tries


@login_not_required
@sensitive_post_parameters()
@never_cache
def setup(request):
    """The owner of a new login sets it up: username, the setup code on their paper, then their
    own password and signing PIN. Open without logging in; wrong codes lock like wrong passwords."""
    form = LoginSetupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        if applied_counting_tries(
            form,
            lambda: services.login_setup_complete(
                request=request, username=d["username"], code=d["code"], password=d["password"], pin=d["pin"]
            ),
        ):
            messages.success(request, _("Your password and signing PIN are set. Log in with your password."))
            return redirect("login")
    return render(request, "registration/setup.html", {"form": form, "hours": settings.LOGIN_SETUP_HOURS})


@sensitive_post_parameters()
@never_cache
def password_change(request):
    """The logged-in user changes their own password (never anyone else's)."""
    form = PasswordChangeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        if applied_counting_tries(
            form,
            lambda: services.password_change(
                request=request, user=request.user, old_password=d["old_password"], new_password=d["new_password"]
            ),
        ):
            messages.success(request, _("Your password is changed."))
            return redirect("events:password_change")
    return render(request, "registration/password_change.html", {"form": form})


def lands_by_role(back: str) -> bool:
    """A `next` that names no page but the site's root (empty, or "/": after a logout, a lock, or a
    login page opened at the root): the login lands on the page its role works from
    (events.access.landing_url), not on the events list the root shows."""
    return urlsplit(back).path in ("", reverse("events:home"))


class LogoutView(auth_views.LogoutView):
    """Django's logout, which says so on the login page it leads to: at a shared terminal the next
    person sees that the last one's session is over (kept in a cookie: the session is gone)."""

    def post(self, request, *args, **kwargs):
        was_in = request.user.is_authenticated
        response = super().post(request, *args, **kwargs)
        if was_in:
            messages.info(request, _("You are logged out."))
        return response


class LoginView(auth_views.LoginView):
    """Django's login page, whose `next` of the site's root lands by role as no `next` does, and
    whose refusal says how many tries are left (events.forms.LoginForm)."""

    authentication_form = LoginForm

    def get_redirect_url(self):
        back = super().get_redirect_url()
        return "" if lands_by_role(back) else back


def _safe_next(request) -> str:
    """The page to go back to once unlocked, if it is one of ours (a `next` pointing at another
    site, or at the lock page itself, is ignored; the site's root lands by role): else where a
    login lands."""
    back = request.POST.get("next") or request.GET.get("next") or ""
    ours = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    if ours and not lands_by_role(back) and not back.startswith(reverse("events:unlock")):
        return back
    return reverse(settings.LOGIN_REDIRECT_URL)


@sensitive_post_parameters()
@never_cache
def unlock(request):
    """A locked session (events.idle): who is logged in, and their signing PIN asked to go on.
    Nothing of the page behind it is shown; "Not you?" logs out."""
    back = _safe_next(request)
    if not idle.is_locked(request):
        return redirect(back)
    form = UnlockForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.session_unlock(request=request, user=request.user, pin=form.cleaned_data["pin"])
        except RuleViolation as exc:
            if exc.code not in services.UNLOCK_LOGS_OUT:
                form.add_error(exc.field if exc.field in form.fields else None, exc.text)
            else:
                # No unlocking by PIN now: a full login, under the lockout's rules as any login.
                logout(request)
                messages.error(request, exc.text)
                return redirect_to_login(back)
        else:
            idle.unlocked(request)
            return redirect(back)
    return render(
        request,
        "registration/unlock.html",
        {"form": form, "next": back, "minutes": settings.CAGE_IDLE_MINUTES, "locked": True},
    )


def locked_out(request, response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: the login page's answer once a username is locked at this address."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    # Locked for this address (too many failed logins from it, whatever usernames), or this username here.
    by_address = lockout.address_locked(request) and not (username and lockout.is_locked_here(request, username))
    ends = (
        lockout.address_lock_ends(request) if by_address else lockout.lock_ends(request, username) if username else None
    )
    return render(
        request,
        "registration/locked_out.html",
        {
            "by_address": by_address,
            "address_limit": settings.LOGIN_ADDRESS_MAX_FAILURES,
            "username": username,
            "limit": lockout.limit(request, username),
            "minutes": lockout.lock_minutes(request),
            "ends": timezone.localtime(ends) if ends else None,
        },
        status=429,
    )
