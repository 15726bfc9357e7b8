"""settings.CSRF_FAILURE_VIEW: a form refused by the CSRF check is written on the audit trail."""

from django.shortcuts import render
from django.urls import reverse

from . import services


def csrf_failure(request, reason=""):
    """settings.CSRF_FAILURE_VIEW: a form refused by the CSRF check is on the audit trail (with the
    page and Django's reason), and the person is told, plainly, what happened and what to do."""
    services.csrf_refused(request, reason)
    return render(
        request,
        "403_csrf.html",
        {"home_url": reverse("events:home")},
        status=403,
    )
