"""Fresh databases for tests that run manage.py in another process: a new SQLite file, or a new
PostgreSQL database on the server the suite uses (or 127.0.0.1:5432), dropped afterwards."""

import atexit
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _server() -> str:
    """The PostgreSQL server's URL with the maintenance database `postgres`."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        url = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/postgres", "", ""))


def environment(url: str) -> dict:
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


# An empty SQLite database migrated once per test process by `manage.py migrate`, copied for each
# test that would migrate a new SQLite file of its own: migrating takes seconds of CPU and tests
# nothing the first migration did not. (PostgreSQL databases are still migrated each time.)
_MIGRATED: list[Path] = []


def migrated_sqlite(path: Path) -> None:
    """Make `path` an empty, migrated SQLite database (a copy of this process's template)."""
    if not _MIGRATED:
        template = Path(tempfile.mkdtemp(prefix="cage-migrated-")) / "template.sqlite3"
        _run(f"sqlite:///{template}", ("migrate", "-v0"), timeout=600)
        atexit.register(shutil.rmtree, template.parent, ignore_errors=True)
        _MIGRATED.append(template)
    shutil.copyfile(_MIGRATED[0], path)


def _new_sqlite_file(url: str) -> Path | None:
    path = Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None
    return path if path is not None and not (path.exists() and path.stat().st_size) else None


def manage(url: str, *args: str, timeout: int = 600) -> str:
    """Run manage.py against the database at `url`; its standard output. Fails the test, with the
    command's own messages, if it fails. `migrate` of a SQLite file not made yet copies the
    template instead (migrated_sqlite), and says nothing."""
    new_file = _new_sqlite_file(url)
    if args and args[0] == "migrate" and set(args[1:]) <= {"-v0", "--noinput"} and new_file is not None:
        migrated_sqlite(new_file)
        return ""
    return _run(url, args, timeout=timeout)


def _run(url: str, args, *, timeout: int) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment(url),
        text=True,
        capture_output=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"manage.py {' '.join(args)} failed:\n{done.stderr}"
    return done.stdout


def start(url: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment(url),
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


_names = itertools.count()


def sqlite_url(directory: Path) -> str:
    return f"sqlite:///{directory / f'fresh-{next(_names)}.sqlite3'}"


def postgres_connect(dbname: str = "postgres"):
    import psycopg

    parts = urlsplit(_server())
    return psycopg.connect(
        host=parts.hostname,
        port=parts.port or 5432,
        user=parts.username or "postgres",
        password=parts.password,
        dbname=dbname,
        autocommit=True,
        connect_timeout=3,
    )


def in_the_postgresql_pass_only() -> None:
    """A test that needs a PostgreSQL server of its own runs once, in the suite's PostgreSQL pass
    (make test-postgres, the second half of .ci/run): the SQLite pass (make test) leaves it to
    that pass and says so, unless ALL_DATABASES=1 asks for it there too."""
    on_postgres = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
    if not on_postgres and not os.environ.get("ALL_DATABASES"):
        pytest.skip("needs a PostgreSQL server: runs in the PostgreSQL pass (make test-postgres, .ci/run)")


def postgres_or_skip() -> None:
    in_the_postgresql_pass_only()
    try:
        postgres_connect().close()
    except Exception as exc:  # any reason it does not answer: not installed, not running, refused
        pytest.skip(f"PostgreSQL does not answer at {_server()} ({type(exc).__name__}); CI runs this part")


@contextmanager
def fresh_postgres():
    """A new, empty PostgreSQL database (no tables: migrate it); dropped when the block ends."""
    postgres_or_skip()
    name = f"cage_fresh_{uuid.uuid4().hex[:12]}"
    with postgres_connect() as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(_server())
    try:
        yield urlunsplit((parts.scheme, parts.netloc, f"/{name}", "", ""))
    finally:
        with postgres_connect() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
