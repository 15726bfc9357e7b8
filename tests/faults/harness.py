"""Real processes on a real database of their own, for the fault and load tests.

Each test gets a database nobody else uses: a temporary SQLite file, or a freshly created
PostgreSQL database with a unique name that the test drops again. The product runs in separate
processes (manage.py, gunicorn), configured only through its environment variables, as in
production: DEBUG off, a secret key of its own, the database in DATABASE_URL.
"""

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.databases import migrated_sqlite

ROOT = Path(__file__).resolve().parents[2]
# The PostgreSQL server the tests create their databases on: the suite's own when it runs on
# PostgreSQL (make test-postgres), else CAGE_TEST_POSTGRES_URL, else the local server CI starts.
LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
# Sent with every subprocess's output when something fails, so the failure explains itself.
OUTPUT_SHOWN = 6000


@dataclass
class Database:
    vendor: str  # "sqlite" or "postgresql"
    url: str
    # One key for every process on this database, so sessions outlive a server restart.
    secret_key: str = field(default_factory=lambda: "faults-test-" + uuid.uuid4().hex)

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a production process on this database."""
        env = {
            **os.environ,
            "DATABASE_URL": self.url,
            "PYTHONPATH": str(ROOT),
            "DEBUG": "false",
            "SECRET_KEY": self.secret_key,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # Plain HTTP on the loopback: nothing in between terminates TLS (config/settings.py:
            # no secure cookies, HSTS or redirect to https).
            "HTTPS": "false",
            **extra,
        }
        env.pop("DJANGO_SETTINGS_MODULE", None)  # manage.py and config.wsgi name config.settings
        return env

    def manage(self, *args: str, stdin=None) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env(),
            text=True,
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        process = self.manage(*args)
        out, err = process.communicate(timeout=300)
        result = subprocess.CompletedProcess(process.args, process.returncode, out, err)
        if check:
            assert process.returncode == 0, f"manage.py {' '.join(args)} failed:\n{err[-OUTPUT_SHOWN:]}"
        return result

    def python(self, code: str):
        """Run `code` in a manage.py shell on this database; it prints one JSON line last."""
        out = self.run(*shell(code)).stdout
        return json.loads(out.strip().splitlines()[-1])


def shell(code: str) -> tuple[str, ...]:
    """manage.py's arguments to run `code`, printing nothing of its own."""
    return ("shell", "--no-imports", "-c", code)


def postgres_server_url() -> str:
    suite = os.environ.get("DATABASE_URL", "")
    if suite.startswith(("postgres://", "postgresql://")):
        return suite
    return os.environ.get("CAGE_TEST_POSTGRES_URL", LOCAL_POSTGRES)


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@contextmanager
def postgres_database(prefix: str) -> Iterator[Database]:
    import psycopg

    from tests.databases import in_the_postgresql_pass_only

    in_the_postgresql_pass_only()
    server = with_database(postgres_server_url(), "postgres")
    try:
        admin = psycopg.connect(server, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL does not answer at {urlsplit(server).hostname}: {exc}".strip())
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    try:
        admin.execute(f'CREATE DATABASE "{name}"')
        yield Database("postgresql", with_database(server, name))
    finally:
        # FORCE: a server killed by the test may leave a connection the database has not yet seen close.
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@contextmanager
def sqlite_database(directory: Path) -> Iterator[Database]:
    yield Database("sqlite", f"sqlite:///{directory / 'cage.sqlite3'}")


@contextmanager
def fresh_database(vendor: str, directory: Path, prefix: str) -> Iterator[Database]:
    """A migrated, empty database of the given kind."""
    opened = postgres_database(prefix) if vendor == "postgresql" else sqlite_database(directory)
    with opened as database:
        if vendor == "sqlite":
            migrated_sqlite(Path(database.url.removeprefix("sqlite:///")))  # a copy: tests.databases
        else:
            database.run("migrate", "--noinput", "-v0")
        yield database


VENDORS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]
