"""The production server (gunicorn) in a process group of its own, and a cashier's terminal that
talks to it over HTTP as a browser does: the login page, CSRF tokens, the slip forms."""

import http.client
import os
import re
import signal
import subprocess
import sys
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

from tests.faults.harness import ROOT, Database

LISTENING = re.compile(r"Listening at: http://127\.0\.0\.1:(\d+)")
# How long the server may take to come up before the test gives up on it (not a timed assertion:
# a safety net, so that a server that never starts fails the test instead of hanging it).
START_LIMIT = 120


class ServerFailed(AssertionError):
    pass


class Server:
    """gunicorn serving config.wsgi on 127.0.0.1, on a port the system chooses."""

    def __init__(self, database: Database, log: Path, *, workers: int = 2):
        self.database = database
        self.log = log
        self.workers = workers
        self.process: subprocess.Popen | None = None
        self.port: int | None = None

    def start(self) -> None:
        offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("a") as log:
            # A session of its own: its process group is gunicorn and its workers, killed together.
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "config.wsgi:application",
                    "--bind=127.0.0.1:0",
                    f"--workers={self.workers}",
                    "--no-control-socket",
                    "--preload",  # the application loads once, before the workers fork
                    "--timeout=120",
                ],
                cwd=ROOT,
                env=self.database.env(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_LIMIT
        while self.port is None or not self.answers():
            if self.port is None:
                found = LISTENING.search(self.log.read_text()[offset:])
                self.port = int(found.group(1)) if found else None
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise ServerFailed(f"gunicorn did not start:\n{self.log.read_text()[offset:][-6000:]}")
            time.sleep(0.05)

    def answers(self) -> bool:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            connection.request("GET", "/login/")
            return connection.getresponse().status == 200
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL to gunicorn and every worker at once: a power cut, as far as the server knows."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.port = None

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found, f"no {name} on the page:\n{page[:3000]}"
    return found.group(1)


class Terminal:
    """A cashier's browser: cookies kept by hand (whatever their Secure flag says, this is the
    loopback), one connection per request, as a browser's form posts go."""

    def __init__(self, server: Server):
        self.server = server
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None):
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=120)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            page = response.read().decode()
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return response.status, response.headers, page

    def log_in(self, username: str, password: str) -> None:
        status, _headers, page = self.request("GET", "/login/")
        assert status == 200, page[:3000]
        form = {
            "csrfmiddlewaretoken": hidden(page, "csrfmiddlewaretoken"),
            "username": username,
            "password": password,
            "next": "",
        }
        status, headers, page = self.request("POST", "/login/", form)
        assert status == 302 and "/login/" not in headers["Location"], f"{username} could not log in:\n{page[:3000]}"

    def open_form(self, path: str) -> tuple[str, dict]:
        """The slip form as the cashier gets it: its one-time request key and CSRF token."""
        status, _headers, page = self.request("GET", path)
        assert status == 200, page[:3000]
        return hidden(page, "request_key"), {"csrfmiddlewaretoken": hidden(page, "csrfmiddlewaretoken")}
