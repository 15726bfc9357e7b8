"""DATABASE_URL read into Django's DATABASES entry, with a list of PostgreSQL hosts allowed.

A cage with a standby laptop names both servers, and libpq (under psycopg) connects to the first
that takes writes: `postgres://cage@laptop-a:5432,laptop-b:5432/cage?target_session_attrs=read-write`
(docs/scaling.md, "A standby laptop"). dj-database-url 3.1.2 reads one host only: to urllib that
URL is the host "laptop-a" with the port "5432,laptop-b:5432", and it gives up (ParseError);
without ports it passes "laptop-a,laptop-b" through as one host, lower-cased. So the list of hosts
is read here, into the lists libpq takes (HOST "laptop-a,laptop-b", PORT "5432,5432"), and the
rest of the URL (user, password, database, options) is left to dj-database-url as before.
"""

import re
from urllib.parse import unquote

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

# dj-database-url's schemes for django.db.backends.postgresql: the only backend that takes a list.
POSTGRES_SCHEMES = ("postgres", "postgresql", "pgsql")
# libpq's values (PostgreSQL 14 and later). The cage needs read-write: the one server that writes.
SESSION_ATTRS = ("any", "read-write", "read-only", "primary", "standby", "prefer-standby")
# With several hosts, what libpq does when one of them is a laptop that just died, unless the URL
# says otherwise. connect_timeout (seconds, per host): a switched-off laptop never answers, and
# without it a new connection could wait for TCP's own limit (about two minutes) before trying the
# next host. tcp_user_timeout (ms): a kept connection to it could wait up to about fifteen minutes
# for its query to be acknowledged before the check before reuse (CONN_HEALTH_CHECKS) gave up.
SEVERAL_HOSTS_DEFAULTS = {"connect_timeout": 3, "tcp_user_timeout": 5000}
URL = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?P<netloc>[^/?#]*)(?P<rest>.*)", re.DOTALL)
# One host of the list: a name or IPv4 address, or an IPv6 address in brackets; then maybe a port.
HOST = re.compile(r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<name>[^:\[\]@]+))(?::(?P<port>[0-9]{1,5}))?")


def database_settings(url: str, *, name: str = "DATABASE_URL", **options) -> dict:
    """Django's DATABASES entry for `url` (`options` as dj_database_url.parse takes them, e.g.
    conn_max_age). Raises ImproperlyConfigured, naming the variable `name`, for a URL it cannot
    use; the message never repeats the URL, which may hold a password."""
    found = URL.fullmatch(url)
    userinfo, at, hosts = found.group("netloc").rpartition("@") if found else ("", "", "")
    if "," not in hosts:
        return _checked(_parse(url, name, options), name, several=False)
    if found.group("scheme") not in POSTGRES_SCHEMES:
        raise ImproperlyConfigured(f"{name} names several hosts, which only a PostgreSQL URL (postgres://) may do")
    listed = [_host_and_port(entry, name) for entry in hosts.split(",")]
    # dj-database-url reads everything but the hosts, from the URL with one placeholder host.
    settings = _parse(f"{found.group('scheme')}://{userinfo}{at}localhost{found.group('rest')}", name, options)
    settings["HOST"] = ",".join(host for host, _port in listed)
    ports = [port for _host, port in listed]
    # libpq takes one port per host, an empty one being the default port (5432).
    settings["PORT"] = ",".join(ports) if any(ports) else ""
    settings["OPTIONS"] = {**SEVERAL_HOSTS_DEFAULTS, **settings.get("OPTIONS", {})}
    return _checked(settings, name, several=True)


def _parse(url: str, name: str, options: dict) -> dict:
    try:
        return dj_database_url.parse(url, **options)
    except Exception as exc:  # dj_database_url raises several types for a bad URL
        raise ImproperlyConfigured(f"{name} is not a database URL: {exc}") from exc


def _host_and_port(entry: str, name: str) -> tuple[str, str]:
    if not entry:
        raise ImproperlyConfigured(f"{name} has an empty host in its list of hosts (two commas, or one at an end)")
    found = HOST.fullmatch(entry)
    if found is None:
        raise ImproperlyConfigured(
            f"{name}: {entry!r} in its list of hosts is not host or host:port "
            "(an IPv6 address goes in brackets: [::1]:5432)"
        )
    port = found.group("port") or ""
    if port and not 1 <= int(port) <= 65535:
        raise ImproperlyConfigured(f"{name}: the port of {entry!r} is not a port from 1 to 65535")
    return found.group("ipv6") or unquote(found.group("name")), port


def _checked(settings: dict, name: str, *, several: bool) -> dict:
    options = settings.get("OPTIONS", {})
    for key, value in options.items():
        if isinstance(value, list):
            raise ImproperlyConfigured(f"{name} gives the option {key} more than once")
    attrs = options.get("target_session_attrs")
    if attrs is None and several:
        # libpq's default, "any", would take a standby that answers first, and every slip would fail there.
        raise ImproperlyConfigured(
            f"{name} names several hosts: add ?target_session_attrs=read-write, so that the product "
            "connects to the one that takes writes (the primary)"
        )
    if attrs is not None and attrs not in SESSION_ATTRS:
        raise ImproperlyConfigured(
            f"{name}: target_session_attrs must be one of {', '.join(SESSION_ATTRS)}, not {str(attrs)!r}"
        )
    return settings
