"""Each person's own login: setting it up with the code they were handed, changing their own
password, and the page shown when too many wrong tries have locked a login."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from . import lockout, services
from .forms import LoginSetupForm, PasswordChangeForm
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
            "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
            "ends": timezone.localtime(ends) if ends else None,
        },
        status=429,
    )
