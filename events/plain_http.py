"""Every page says so when it reached its reader over the network in plain http.

The production server serves plain http only when HTTPS=false is set on purpose (`manage.py
serve`). Then a password or signing PIN typed on a tablet crosses the fair's Wi-Fi in clear, and
the people typing them must know. A page read on the laptop itself (the loopback) crosses no
network and says nothing; neither does a page behind a proxy that ended TLS (request.is_secure()).
"""

import ipaddress

from core.client import client_address


def crosses_network_in_clear(request) -> bool:
    if request.is_secure():
        return False
    address = client_address(request) or ""
    try:
        return not ipaddress.ip_address(address).is_loopback
    except ValueError:
        return True


def plain_http(request):
    """Context processor: `plain_http_warning` for the base template's banner."""
    return {"plain_http_warning": crosses_network_in_clear(request)}
