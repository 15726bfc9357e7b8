"""Who is on the other end of a request: the client's address, read one way for everyone.

The audit trail writes it on each entry (audit.services) and the lockout counts failed logins
under it (events.lockout.client_ip, settings.AXES_CLIENT_IP_CALLABLE), so the two agree on who
tried. It lives here, below both, because it reads nothing but the request and the settings.
"""

import ipaddress

from django.conf import settings


def client_address(request) -> str | None:
    """The client's address: REMOTE_ADDR, or, behind a trusted proxy (BEHIND_PROXY), the address
    that proxy added last to X-Forwarded-For. Any earlier entry is the client's own claim and
    could be anything, so it is never taken."""
    address = request.META.get("REMOTE_ADDR", "")
    if getattr(settings, "BEHIND_PROXY", False):
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
        if forwarded:
            address = forwarded[-1]
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None
