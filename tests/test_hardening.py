"""Production settings: DEBUG off unless asked for, a key of the site's own, a clean deploy
check, a Content-Security-Policy, static files served by the app, and 500s that show nothing and
are logged.

Settings are read once, when a process starts, so each mode is tried in a `manage.py` of its own
with the environment a site would give it.
"""

import logging
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent
SITE_KEY = secrets.token_urlsafe(50)
# What a process would inherit from the test run (config/settings_for_tests.py, the browser
# tests' async switch) is taken away, so each run sees only what its test gives it.
OWN = (
    "DEBUG",
    "SECRET_KEY",
    "HTTPS",
    "ALLOWED_HOSTS",
    "SECURE_PROXY_SSL_HEADER",
    "LOG_FILE",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in OWN}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**environment, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def setting(*names: str, **env: str) -> list[str]:
    shown = "; ".join(f"print(repr(settings.{n}))" for n in names)
    run = manage("shell", "--no-imports", "-c", f"from django.conf import settings; {shown}", **env)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_the_app_refuses_to_start_in_production_mode_without_a_key_of_its_own():
    for env in ({}, {"DEBUG": "false"}, {"SECRET_KEY": settings.LAPTOP_SECRET_KEY}):
        run = manage("check", **env)
        assert run.returncode != 0, env
        assert "SECRET_KEY must be set to a key of your own when DEBUG is off" in run.stderr, env
        assert "Traceback" not in run.stdout


def test_debug_is_off_unless_asked_for_and_the_local_demo_asks():
    assert setting("DEBUG", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", SECRET_KEY=SITE_KEY) == [
        "False",
        "True",
        "True",
    ]
    # `make run`: DEBUG on, plain http on 127.0.0.1, the laptop key
    assert setting("DEBUG", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "SECURE_HSTS_SECONDS", DEBUG="true") == [
        "True",
        "False",
        "False",
        "0",
    ]


def test_the_deploy_check_passes_in_production_mode():
    production = {"DEBUG": "false", "SECRET_KEY": SITE_KEY, "ALLOWED_HOSTS": "cage.example.org"}
    run = manage("check", "--deploy", "--fail-level", "WARNING", **production)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "System check identified no issues" in run.stdout
    # and it is the hardening that makes it pass: over plain http the check names what is missing
    run = manage("check", "--deploy", "--fail-level", "WARNING", **production, HTTPS="false")
    assert run.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in run.stdout + run.stderr


def test_behind_a_tls_proxy_the_proxys_header_is_trusted_only_when_named():
    assert setting("SECURE_PROXY_SSL_HEADER", SECRET_KEY=SITE_KEY, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto") == [
        "('HTTP_X_FORWARDED_PROTO', 'https')"
    ]
    assert setting("SECURE_PROXY_SSL_HEADER", SECRET_KEY=SITE_KEY) == ["None"]
    run = manage("check", SECRET_KEY=SITE_KEY, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto: https")
    assert run.returncode != 0 and "SECURE_PROXY_SSL_HEADER must be a header name" in run.stderr


def test_errors_are_logged_to_stderr_and_to_the_log_file(tmp_path):
    log = tmp_path / "cage.log"
    run = manage(
        "shell",
        "-c",
        "import logging; logging.getLogger('django.request').error('Internal Server Error: /cage/x/')",
        SECRET_KEY=SITE_KEY,
        LOG_FILE=str(log),
    )
    assert run.returncode == 0, run.stderr
    assert "ERROR django.request: Internal Server Error: /cage/x/" in run.stderr
    assert "ERROR django.request: Internal Server Error: /cage/x/" in log.read_text()


@pytest.mark.django_db
@pytest.mark.urls("tests.urls_raising")
def test_a_500_shows_the_plain_error_page_and_nothing_of_the_error_and_is_logged(caplog):
    assert not settings.DEBUG  # as in production
    typed = "hunter2-typed-password"
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.post("/fails/", {"username": "ann", "password": typed})
    assert response.status_code == 500
    page = response.content.decode()
    assert "Something went wrong" in page and "has been logged" in page
    for secret in (typed, settings.SECRET_KEY, "RuntimeError", "ledger broke", "Traceback", "settings"):
        assert secret not in page
    errors = [r for r in caplog.records if r.name == "django.request" and r.levelno == logging.ERROR]
    assert len(errors) == 1 and errors[0].getMessage() == "Internal Server Error: /fails/"
    assert errors[0].exc_info[0] is RuntimeError


@pytest.mark.django_db
def test_every_page_carries_a_strict_content_security_policy():
    policy = Client().get("/login/")["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


def test_static_files_are_served_by_the_app_itself_without_debug():
    assert not settings.DEBUG
    response = Client().get("/static/site.css")  # no login: the stylesheet of the login page
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert "max-age" in response["Cache-Control"]
    assert b"--accent" in b"".join(response.streaming_content)
