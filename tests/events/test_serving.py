"""Serving the fair's network: `make serve` over TLS with the event's own certificate authority,
plain http only when asked for and then said on every page, and /health/ for the organiser."""

import http.client
import io
import json
import os
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.x509.oid import ExtendedKeyUsageOID
from django.core.management import CommandError, call_command
from django.core.management.base import OutputWrapper
from django.urls import reverse

from core.version import version
from events import local_ca
from tests.databases import ROOT

# A safety net for a server that never comes up, not a timed assertion.
START_LIMIT = 180


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def on_postgres_pass() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


class Served:
    """A server started the way an organiser starts one, in a process group of its own."""

    def __init__(self, command: list[str], env: dict, log: Path):
        self.log = log
        with log.open("w") as out:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=out, stderr=out, stdin=subprocess.DEVNULL, start_new_session=True
            )

    def wait_until(self, answers) -> None:
        deadline = time.monotonic() + START_LIMIT
        while not answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"the server did not start:\n{self.log.read_text()[-6000:]}")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def get(port: int, path: str, context: ssl.SSLContext | None = None, host: str = "127.0.0.1", headers=None):
    if context is None:
        connection = http.client.HTTPConnection(host, port, timeout=30)
    else:
        connection = http.client.HTTPSConnection(host, port, timeout=30, context=context)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    return response, response.read()


def organiser_environment(var: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "HTTPS", "DJANGO_SETTINGS_MODULE")}
    env.pop("DATABASE_URL", None)
    env["PYTHONPATH"] = str(ROOT)
    return env


@pytest.mark.skipif(on_postgres_pass(), reason="make serve runs on its own SQLite file; the SQLite pass runs it")
def test_make_serve_answers_over_tls_with_the_events_authority(tmp_path):
    port = free_port()
    var = tmp_path / "var"
    # First the licensee's administrator, as the README has the organiser make one.
    env = organiser_environment(var)
    admin = ["make", "-s", "admin", f"PY={sys.executable}", f"SERVE_VAR={var}"]
    admin.append("ADMIN_ARGS=--noinput --username organiser --email organiser@example.org")
    done = subprocess.run(
        admin,
        cwd=ROOT,
        env={**env, "DJANGO_SUPERUSER_PASSWORD": "a long pass phrase 2026"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    command = ["make", "-s", "serve", f"PY={sys.executable}", f"SERVE_VAR={var}"]
    command.append(f"SERVE_ARGS=--bind 127.0.0.1 --port {port} --workers 1")
    served = Served(command, env, tmp_path / "serve.log")
    trusting = None

    def answers() -> bool:
        nonlocal trusting
        if not (var / "tls" / "ca.crt").exists():
            return False
        trusting = ssl.create_default_context(cafile=str(var / "tls" / "ca.crt"))
        try:
            return get(port, "/health/", trusting)[0].status == 200
        except OSError:
            return False

    try:
        served.wait_until(answers)
        response, body = get(port, "/health/", trusting)
        health = json.loads(body)
        assert health["status"] == "ok" and health["database"]["state"] == "ok" and health["version"]
        # The certificate names the laptop as the tablets reach it, and verifies against the event's
        # authority only: a client that does not trust it refuses the connection.
        response, body = get(port, "/login/", trusting, host="localhost")
        assert response.status == 200 and b"plain-http-warning" not in body
        assert "Strict-Transport-Security" in response.headers
        with pytest.raises(ssl.SSLCertVerificationError):
            get(port, "/health/", ssl.create_default_context())
        with pytest.raises((http.client.HTTPException, ConnectionError)):
            get(port, "/health/")  # plain http to the TLS port: no page
        # Static files collected with a hash in their names, compressed, kept for a year.
        stylesheet = body.decode().split('rel="stylesheet" href="')[1].split('"')[0]
        assert stylesheet.startswith("/static/site.") and stylesheet.count(".") == 2
        response, _ = get(port, stylesheet, trusting, headers={"Accept-Encoding": "gzip"})
        assert response.status == 200 and response.headers["Content-Encoding"] == "gzip"
        assert "immutable" in response.headers["Cache-Control"]
    finally:
        served.stop()
    # The key stays with its owner; the event's database and key are the organiser's, not the demo's.
    assert (var / "tls" / "ca.key").stat().st_mode & 0o777 == 0o600
    assert var.stat().st_mode & 0o777 == 0o700  # the database and the keys: the organiser's only
    server = x509.load_pem_x509_certificates((var / "tls" / "server.crt").read_bytes())[0]
    named = server.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "localhost" in named.get_values_for_type(x509.DNSName)
    assert "testserver" not in named.get_values_for_type(x509.DNSName)
    assert (var / "secret_key").stat().st_mode & 0o777 == 0o600
    users = sqlite3.connect(var / "event.sqlite3").execute("SELECT username, is_staff FROM auth_user").fetchall()
    assert users == [("organiser", 1)]


@pytest.mark.skipif(on_postgres_pass(), reason="runs on its own SQLite file; the SQLite pass runs it")
def test_plain_http_only_when_asked_and_then_said(tmp_path):
    port = free_port()
    env = organiser_environment(tmp_path)
    env.update(HTTPS="false", SECRET_KEY="a-key-for-this-test-only-0123456789-abcdefghij-klmnop")
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'plain.sqlite3'}"
    command = [sys.executable, "manage.py", "serve", "--bind", "127.0.0.1", "--port", str(port), "--workers", "1"]
    served = Served(command, env, tmp_path / "serve.log")

    def answers() -> bool:
        try:
            return get(port, "/health/")[0].status in (200, 503)  # an empty database: not migrated
        except OSError:
            return False

    try:
        served.wait_until(answers)
        response, body = get(port, "/health/")
        assert json.loads(body)["database"]["state"] == "migrations pending"
    finally:
        served.stop()
    assert "HTTPS=false: serving plain http" in (tmp_path / "serve.log").read_text()
    assert not (tmp_path / "tls").exists()


def test_the_production_server_never_runs_with_debug(settings):
    settings.DEBUG = True
    with pytest.raises(CommandError, match="never runs with DEBUG"):
        call_command("serve", "--port", "1")


def test_the_authority_is_made_once_and_issues_the_server_its_names(tmp_path):
    first, _key = local_ca.ensure_authority(tmp_path, "Lakeside Fair")
    again, _key = local_ca.ensure_authority(tmp_path, "another name")
    assert local_ca.fingerprint(first) == local_ca.fingerprint(again)  # tablets keep trusting it
    assert first.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    names = local_ca.laptop_names(("cage.fair.lan", "192.168.8.20"))
    assert {"localhost", "127.0.0.1", "cage.fair.lan", "192.168.8.20"} <= set(names)
    issued = local_ca.issue_server_certificate(tmp_path, names)
    chain = x509.load_pem_x509_certificates(issued.cert_path.read_bytes())
    server = chain[0]
    server.verify_directly_issued_by(first)
    alternative = server.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "cage.fair.lan" in alternative.get_values_for_type(x509.DNSName)
    assert "192.168.8.20" in {str(a) for a in alternative.get_values_for_type(x509.IPAddress)}
    usage = server.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert (server.not_valid_after_utc - server.not_valid_before_utc).days <= 398
    assert issued.key_path.stat().st_mode & 0o777 == 0o600


@pytest.mark.django_db
def test_a_page_read_over_the_network_in_plain_http_says_so(client):
    warning = b'id="plain-http-warning"'
    assert warning in client.get(reverse("login"), REMOTE_ADDR="192.168.8.31").content
    assert warning not in client.get(reverse("login"), REMOTE_ADDR="127.0.0.1").content
    assert warning not in client.get(reverse("login"), REMOTE_ADDR="192.168.8.31", secure=True).content


@pytest.mark.django_db
def test_health_answers_without_a_login(client):
    response = client.get(reverse("events:health"))
    assert response.status_code == 200
    assert response.json()["database"]["state"] == "ok"
    assert response.json()["version"] == version() != "unknown"


@pytest.mark.parametrize(
    "database_url, state",
    [
        ("postgres://postgres@127.0.0.1:1/nothing", "unreachable"),
        ("sqlite:///{tmp}/empty.sqlite3", "migrations pending"),
    ],
)
def test_health_answers_503_when_the_database_cannot_serve(tmp_path, database_url, state):
    script = (
        "import django, json; django.setup(); from django.test import Client; "
        "r = Client().get('/health/'); print(r.status_code, json.dumps(r.json()))"
    )
    env = organiser_environment(tmp_path)
    env.update(DJANGO_SETTINGS_MODULE="config.settings", SECRET_KEY="x" * 50, HTTPS="false")
    env["DATABASE_URL"] = database_url.format(tmp=tmp_path)
    env["ALLOWED_HOSTS"] = "testserver"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    status, body = done.stdout.strip().split(" ", 1)
    assert status == "503", done.stderr[-3000:]
    assert json.loads(body)["database"]["state"] == state
    assert json.loads(body)["status"] == "unavailable"


@pytest.mark.django_db
def test_the_trust_page_before_and_after_the_authority_is_made(client, admin_user, settings, tmp_path):
    settings.TLS_DIR = tmp_path
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.8.20"]
    client.force_login(admin_user)
    page = client.get(reverse("events:trust"))
    assert page.status_code == 200 and b'id="no-authority"' in page.content
    assert client.get(reverse("events:trust_ca")).status_code == 404
    authority, _key = local_ca.ensure_authority(tmp_path)
    page = client.get(reverse("events:trust"), HTTP_HOST="192.168.8.20:8443")
    text = page.content.decode()
    assert local_ca.fingerprint(authority) in text
    assert "https://192.168.8.20:8443/trust/fair-cage-ca.crt" in text.replace("http://", "https://")
    assert text.count("<svg") == 2  # the two QR codes


@pytest.mark.django_db
def test_anyone_fetches_the_authoritys_certificate_never_its_key(client, settings, tmp_path):
    settings.TLS_DIR = tmp_path
    authority, _key = local_ca.ensure_authority(tmp_path)
    der = client.get(reverse("events:trust_ca"))
    assert der.status_code == 200 and der["Content-Type"] == "application/x-x509-ca-cert"
    assert x509.load_der_x509_certificate(der.content) == authority
    pem = client.get(reverse("events:trust_ca_pem"))
    assert x509.load_pem_x509_certificate(pem.content) == authority
    assert b"PRIVATE KEY" not in der.content + pem.content


def test_serve_lists_only_the_addresses_it_answers_on():
    from events.management.commands.serve import Command

    command, out = Command(), io.StringIO()
    command.stdout = OutputWrapper(out)
    command._say_where("https", "0.0.0.0", 8443, ("localhost", "127.0.0.1", "::1", "192.168.8.10"))
    said = out.getvalue()
    assert "https://192.168.8.10:8443/" in said and "[::1]" not in said  # 0.0.0.0 answers IPv4 only
    assert "https://192.168.8.10:8443/trust/" in said  # the trust page at the address tablets use
    out.truncate(0)
    command._say_where("https", "127.0.0.1", 8443, ("localhost", "127.0.0.1", "192.168.8.10"))
    assert "192.168.8.10" not in out.getvalue()
