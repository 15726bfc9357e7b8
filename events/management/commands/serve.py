"""`manage.py serve`: the production server (gunicorn) on the fair's network, over TLS.

`make serve` migrates, collects the static files and calls this. It issues the server a certificate
from the event's own authority (events.local_ca) for the laptop's names and addresses as they are
now, tells Django those names are this site's, and replaces itself with gunicorn, so systemd and
a terminal alike see one process that stops on SIGTERM.

Plain http is served only when HTTPS=false is set on purpose; every page then says so to anyone
reaching it over the network (events.plain_http).
"""

import ipaddress
import os
import shutil
import sys

from django.conf import settings
from django.core.management.base import CommandError
from django.db import DatabaseError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from events import local_ca
from events.commands import Command as TranslatedHelpCommand
from events.models import Event


def _url_host(name: str) -> str:
    try:
        return f"[{name}]" if ipaddress.ip_address(name).version == 6 else name
    except ValueError:
        return name


def _is_loopback(bind: str) -> bool:
    try:
        return ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return bind == "localhost"


class Command(TranslatedHelpCommand):
    help = gettext_lazy(
        "Serve the cage on the fair's network over TLS with gunicorn, with a certificate from the "
        "event's own certificate authority (made on first use). HTTPS=false serves plain http "
        "instead, on purpose only."
    )

    def add_arguments(self, parser):
        parser.add_argument("--bind", default="0.0.0.0", help=gettext_lazy("the address to listen on (default: all)"))
        parser.add_argument("--port", type=int, default=8443, help=gettext_lazy("the port (default 8443)"))
        parser.add_argument("--workers", type=int, default=3, help=gettext_lazy("gunicorn's workers (default 3)"))
        parser.add_argument(
            "--name",
            action="append",
            default=[],
            help=gettext_lazy("another name or address the tablets use for this laptop (repeatable)"),
        )

    def handle(self, *args, bind, port, workers, name, **options):
        if settings.DEBUG:
            raise CommandError(_("The production server never runs with DEBUG on: unset DEBUG (make run is the demo)."))
        if not 1 <= port <= 65535 or workers < 1:
            raise CommandError(_("The port must be from 1 to 65535 and the workers at least 1."))
        gunicorn = shutil.which("gunicorn", path=os.path.dirname(sys.executable)) or shutil.which("gunicorn")
        if gunicorn is None:
            raise CommandError(_("gunicorn is not installed: pip install -r requirements.txt"))
        # "testserver" is the test client's name, in the default ALLOWED_HOSTS: no tablet uses it.
        given = tuple(h for h in settings.ALLOWED_HOSTS if h not in ("*", "testserver"))
        names = local_ca.laptop_names(tuple(name) + given)
        command = [gunicorn, "config.wsgi:application", f"--bind={_url_host(bind)}:{port}", f"--workers={workers}"]
        command += ["--no-control-socket", "--preload", "--access-logfile=-", "--timeout=120"]
        if settings.HTTPS:
            certificate = local_ca.issue_server_certificate(settings.TLS_DIR, names, self._event_name())
            command += [f"--certfile={certificate.cert_path}", f"--keyfile={certificate.key_path}"]
            scheme = "https"
            self.stdout.write(
                _("Certificate authority: %(path)s (trust it once on each tablet).") % {"path": certificate.ca_path}
            )
        else:
            scheme = "http"
            self.stderr.write(
                _(
                    "HTTPS=false: serving plain http. Passwords and signing PINs cross the network in "
                    "clear, and every page says so. Use it only on a network nobody else can join."
                )
            )
        self._say_where(scheme, bind, port, names)
        environment = dict(os.environ, ALLOWED_HOSTS=",".join(names))
        sys.stdout.flush()
        os.execve(gunicorn, command, environment)

    def _event_name(self) -> str:
        try:
            event = Event.objects.order_by("-pk").first()
        except DatabaseError:
            return ""
        return event.name if event else ""

    def _say_where(self, scheme: str, bind: str, port: int, names: tuple[str, ...]) -> None:
        """The addresses a tablet may type: every name and address of the laptop that the listening
        address answers on (0.0.0.0 answers IPv4 only; :: both), or the one address it listens on."""
        if bind in ("0.0.0.0", "::"):
            where = [n for n in names if bind == "::" or _family(n) != 6]
        else:
            where = [bind]
        self.stdout.write(_("The cage answers at:"))
        for host in where:
            self.stdout.write(f"  {scheme}://{_url_host(host)}:{port}/")
        network = next((h for h in where if _family(h) == 4 and not _is_loopback(h)), where[0])
        self.stdout.write(
            _("Trusting the certificate: %(url)s (administrator)")
            % {"url": f"{scheme}://{_url_host(network)}:{port}/trust/"}
        )


def _family(name: str) -> int | None:
    try:
        return ipaddress.ip_address(name).version
    except ValueError:
        return None
