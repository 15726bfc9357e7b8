"""Pages of the site itself, outside any event: its health, and trusting its certificate authority."""

import functools
import ipaddress

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.db import DatabaseError, connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.http import HttpResponse, JsonResponse
from django.http.request import split_domain_port
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from core.qr_svg import qr_svg
from core.version import version
from events import local_ca
from events.not_found import NotThere

# The authority's certificate as a tablet downloads it: DER, the kind every device opens; PEM for Linux.
CA_DER_NAME, CA_PEM_NAME = "fair-cage-ca.crt", "fair-cage-ca.pem"


@functools.cache
def _migrations_of_this_version() -> frozenset:
    """Every migration this version of the product holds, read from its files once per process:
    loading the graph costs far more than the check itself, and the files do not change while
    the server runs."""
    return frozenset(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)


def _database_state() -> dict:
    """Whether the database answers and holds every migration of this version of the product."""
    try:
        applied = MigrationRecorder(connection).applied_migrations()
    except DatabaseError as exc:
        return {"vendor": connection.vendor, "state": "unreachable", "error": type(exc).__name__}
    pending = _migrations_of_this_version() - set(applied)
    return {"vendor": connection.vendor, "state": "migrations pending" if pending else "ok", "pending": len(pending)}


@login_not_required
def health(request):
    """For the organiser's own check and for monitoring: 200 when the database answers and is up
    to date, 503 otherwise, with the database's state and the version. No login, nothing private."""
    database = _database_state()
    healthy = database["state"] == "ok"
    body = {"status": "ok" if healthy else "unavailable", "version": version(), "database": database}
    return JsonResponse(body, status=200 if healthy else 503)


def _network_host(request) -> str:
    """The host a tablet reaches this laptop by: the one this page was asked at, unless that is the
    laptop's own loopback, then the laptop's first address on a network, on the same port."""
    host, _port = split_domain_port(request.get_host())
    if not _loopback(host.strip("[]")):
        return request.get_host()
    for name in local_ca.laptop_names():
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            continue
        if not address.is_loopback and address.version == 4:
            port = request.get_port()
            return name if port in ("80", "443") else f"{name}:{port}"
    return request.get_host()


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def trust(request):
    """The administrator's page: how to trust the event's certificate authority on each kind of
    device, with QR codes to fetch it and to open the cage."""
    authority = local_ca.authority_certificate(settings.TLS_DIR)
    base = f"{request.scheme}://{_network_host(request)}"
    context = {"authority": authority, "base": base, "ca_der_name": CA_DER_NAME, "ca_pem_name": CA_PEM_NAME}
    if authority is not None:
        ca_url = base + reverse("events:trust_ca")
        context.update(
            fingerprint=local_ca.fingerprint(authority),
            subject=authority.subject.rfc4514_string(),
            valid_until=authority.not_valid_after_utc,
            ca_url=ca_url,
            ca_qr=qr_svg(ca_url, _("QR code: the certificate authority's address")),
            cage_url=base + "/",
            cage_qr=qr_svg(base + "/", _("QR code: the cage's address")),
        )
    return render(request, "events/trust.html", context)


@login_not_required
def trust_ca(request, encoding: str = "der"):
    """The authority's certificate (never its key), for a tablet that does not trust it yet and so
    cannot log in: public by nature. DER for tablets and browsers, PEM for a Linux laptop."""
    authority = local_ca.authority_certificate(settings.TLS_DIR)
    if authority is None:
        raise NotThere(_("No certificate authority has been made yet: start the server with make serve."))
    if encoding == "pem":
        data, kind, name = (
            authority.public_bytes(serialization.Encoding.PEM),
            "application/x-pem-file",
            CA_PEM_NAME,
        )
    else:
        data, kind, name = (
            authority.public_bytes(serialization.Encoding.DER),
            "application/x-x509-ca-cert",
            CA_DER_NAME,
        )
    response = HttpResponse(data, content_type=kind)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
