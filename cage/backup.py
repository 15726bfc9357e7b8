"""Backing up the whole database to one file, and restoring it.

- SQLite: the online backup API (sqlite3's Connection.backup) copies a consistent snapshot page by
  page while the cage keeps working: in WAL mode writers are not held up, and the copy is of the
  database as it was when the backup began. The backup is itself an SQLite database file.
- PostgreSQL: pg_dump in its custom format, restored with pg_restore (the PostgreSQL client tools).

A restore refuses to replace a database that already holds data unless it is told to (--force):
restoring yesterday's backup over tonight's slips would lose them.

Both say how far they have got through a `Progress` (cage.progress): SQLite's pages copied of all,
the bytes pg_dump has written, and for pg_restore, which says nothing of how far it is, the time.
"""

import os
import shutil
import sqlite3
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.utils.translation import gettext as _

from cage.progress import QUIET, Progress

# Tables `migrate` fills by itself: a database holding rows only there holds no data of its own.
BOOKKEEPING = {"django_migrations", "django_content_type", "auth_permission"}
# SQLite copies this many pages (4 MiB of 4 KiB pages) between two reports of its progress.
STEP_PAGES = 1024
# How often a running pg_dump or pg_restore is looked at, for its progress (seconds).
POLL_SECONDS = 0.5


class BackupError(Exception):
    """Why a backup or a restore could not be made, in a sentence for the person running it."""


def _connection():
    return connections[DEFAULT_DB_ALIAS]


def database_name() -> str:
    return str(_connection().settings_dict["NAME"])


# --- what a database holds ------------------------------------------------------------------------


@dataclass
class Contents:
    rows: int  # rows outside the bookkeeping tables
    events: int
    logins: int

    @property
    def empty(self) -> bool:
        return self.rows == 0


def contents() -> Contents:
    """What the default database holds, table by table (no model is needed: the tables may be of
    another version of the product)."""
    connection = _connection()
    with connection.cursor() as cursor:
        tables = [t for t in connection.introspection.table_names(cursor) if t not in BOOKKEEPING]
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return Contents(rows=sum(counts.values()), events=counts.get("events_event", 0), logins=counts.get("auth_user", 0))


def unapplied_migrations() -> list[str]:
    """Migrations of this version of the product that the (restored) database has not had."""
    executor = MigrationExecutor(_connection())
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _backwards in plan]


# --- backup --------------------------------------------------------------------------------------


def backup(path: Path, progress: Progress = QUIET) -> None:
    if path.exists():
        raise BackupError(
            _("%(path)s already exists; a backup never overwrites a file: give a new name") % {"path": path}
        )
    if not path.parent.is_dir():
        raise BackupError(_("%(path)s is not a directory") % {"path": path.parent})
    vendor = _connection().vendor
    if vendor == "sqlite":
        _sqlite_backup(path, progress)
    elif vendor == "postgresql":
        _pg_dump(path, progress)
    else:
        raise BackupError(_("backups of a %(vendor)s database are not supported") % {"vendor": vendor})


def _sqlite_backup(path: Path, progress: Progress) -> None:
    connection = _connection()
    connection.ensure_connection()
    source = connection.connection
    target = sqlite3.connect(path)
    try:
        with _snapshot(source):
            _copy_pages(source, target, progress)
        with progress.stage(_("Checking the copy")) as meter:
            target.set_progress_handler(meter.alive, 1_000_000)
            (check,) = target.execute("PRAGMA quick_check").fetchone()
            target.set_progress_handler(None, 0)
    except sqlite3.Error as exc:
        target.close()
        path.unlink(missing_ok=True)
        raise BackupError(_("the backup failed: %(error)s") % {"error": exc}) from None
    target.close()
    if check != "ok":
        path.unlink(missing_ok=True)
        raise BackupError(_("the backup failed its check (%(check)s); nothing was kept") % {"check": check})


@contextmanager
def _snapshot(source: sqlite3.Connection):
    """The copy is made in steps, to report its progress, yet must be of one moment: a read
    transaction held across the steps keeps the database as it was when the backup began (WAL lets
    the cage's writers carry on meanwhile). Without it SQLite would start the copy over at each slip
    written, and might never finish on a busy night. In the caller's own transaction, that one is
    the moment."""
    if source.in_transaction:
        yield
        return
    source.execute("BEGIN DEFERRED")
    try:
        source.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # the snapshot starts here
        yield
    finally:
        source.execute("ROLLBACK")  # it read only


def _copy_pages(source: sqlite3.Connection, target: sqlite3.Connection, progress: Progress) -> None:
    """SQLite's backup API, page by page, saying how many pages are copied of how many."""
    (pages,) = source.execute("PRAGMA page_count").fetchone()
    with progress.stage(_("Copying"), unit=_("pages"), total=pages) as meter:
        source.backup(
            target,
            pages=STEP_PAGES,
            sleep=0,
            progress=lambda _status, remaining, total: meter.reach(total - remaining, total),
        )


def _pg_dump(path: Path, progress: Progress) -> None:
    # pg_dump says nothing of how far it is; what it has written so far is what can be measured.
    with progress.stage(_("Writing with pg_dump"), size=True) as meter:
        _run_pg(
            "pg_dump",
            "--format=custom",
            "--no-owner",
            "--no-privileges",
            f"--file={path}",
            while_running=lambda: meter.reach(_size(path)),
        )
        meter.reach(_size(path))
    if not path.exists() or path.stat().st_size == 0:
        raise BackupError(_("pg_dump wrote nothing"))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


# --- restore -------------------------------------------------------------------------------------


def restore(path: Path, *, force: bool = False, progress: Progress = QUIET) -> None:
    if not path.is_file():
        raise BackupError(_("%(path)s is not a file") % {"path": path})
    held = contents()
    if not held.empty and not force:
        raise BackupError(
            _(
                "the database %(name)s already holds data (%(events)s event(s), %(logins)s login(s), %(rows)s row(s) "
                "in all); restoring would replace all of it. Restore into an empty database, or add --force to "
                "replace it"
            )
            % {"name": database_name(), "events": held.events, "logins": held.logins, "rows": held.rows}
        )
    vendor = _connection().vendor
    if vendor == "sqlite":
        _sqlite_restore(path, progress)
    elif vendor == "postgresql":
        _pg_restore(path, progress)
    else:
        raise BackupError(_("restoring a %(vendor)s database is not supported") % {"vendor": vendor})


def _sqlite_restore(path: Path, progress: Progress) -> None:
    try:
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        (check,) = source.execute("PRAGMA quick_check").fetchone()
        source.execute("SELECT COUNT(*) FROM django_migrations").fetchone()
    except sqlite3.Error as exc:
        raise BackupError(
            _("%(path)s is not a backup of this product's SQLite database (%(error)s)") % {"path": path, "error": exc}
        ) from None
    if check != "ok":
        source.close()
        raise BackupError(_("%(path)s is damaged (%(check)s); nothing was restored") % {"path": path, "check": check})
    connection = _connection()
    connection.ensure_connection()
    try:
        # Written in one transaction of the restored database, however many steps report it.
        _copy_pages(source, connection.connection, progress)
    except sqlite3.Error as exc:
        raise BackupError(_("the restore failed: %(error)s") % {"error": exc}) from None
    finally:
        source.close()
        connection.close()  # the next query opens the restored database afresh


def _pg_restore(path: Path, progress: Progress) -> None:
    with open(path, "rb") as file:
        if file.read(5) != b"PGDMP":
            raise BackupError(_("%(path)s is not a pg_dump custom-format backup") % {"path": path})
    _connection().close()  # no session of ours holds a lock on what pg_restore replaces
    with progress.stage(_("Restoring with pg_restore")) as meter:
        _run_pg(
            "pg_restore",
            "--clean",
            "--if-exists",
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
            str(path),
            while_running=meter.alive,
        )


def _run_pg(tool: str, *args: str, while_running=None) -> None:
    """Run a PostgreSQL client tool on the default database; `while_running` is called every
    POLL_SECONDS until it is done."""
    program = shutil.which(tool)
    if program is None:
        raise BackupError(
            _("%(tool)s was not found: install the PostgreSQL client tools (e.g. apt-get install postgresql-client)")
            % {"tool": tool}
        )
    settings = _connection().settings_dict
    env = {**os.environ}
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings["PASSWORD"])
    if settings.get("OPTIONS", {}).get("sslmode"):
        env["PGSSLMODE"] = settings["OPTIONS"]["sslmode"]
    # A standby's list of hosts (config.database_url): the tools, like the app, go to the one that
    # takes writes, never to the read-only standby (a restore there would fail half-way).
    for option, variable in (
        ("target_session_attrs", "PGTARGETSESSIONATTRS"),
        ("connect_timeout", "PGCONNECT_TIMEOUT"),
    ):
        if settings.get("OPTIONS", {}).get(option):
            env[variable] = str(settings["OPTIONS"][option])
    target = [f"--dbname={settings['NAME']}"]
    if settings.get("HOST"):
        target.append(f"--host={settings['HOST']}")
    if settings.get("PORT"):
        target.append(f"--port={settings['PORT']}")
    if settings.get("USER"):
        target.append(f"--username={settings['USER']}")
    running = subprocess.Popen(
        [program, *target, "--no-password", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    while True:
        try:
            _out, error = running.communicate(timeout=POLL_SECONDS)
            break
        except subprocess.TimeoutExpired:
            if while_running is not None:
                while_running()
    if running.returncode != 0:
        raise BackupError(
            _("%(tool)s failed: %(error)s") % {"tool": tool, "error": error.strip() or running.returncode}
        )
