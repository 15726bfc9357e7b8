"""Backing up the whole database to one file, and restoring it.

- SQLite: the online backup API (sqlite3's Connection.backup) copies a consistent snapshot page by
  page while the cage keeps working: in WAL mode writers are not held up, and the copy is of the
  database as it was when the backup began. The backup is itself an SQLite database file.
- PostgreSQL: pg_dump in its custom format, restored with pg_restore (the PostgreSQL client tools).

A restore refuses to replace a database that already holds data unless it is told to (--force):
restoring yesterday's backup over tonight's slips would lose them.
"""

import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.utils.translation import gettext as _

# Tables `migrate` fills by itself: a database holding rows only there holds no data of its own.
BOOKKEEPING = {"django_migrations", "django_content_type", "auth_permission"}


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


def backup(path: Path) -> None:
    if path.exists():
        raise BackupError(
            _("%(path)s already exists; a backup never overwrites a file: give a new name") % {"path": path}
        )
    if not path.parent.is_dir():
        raise BackupError(_("%(path)s is not a directory") % {"path": path.parent})
    vendor = _connection().vendor
    if vendor == "sqlite":
        _sqlite_backup(path)
    elif vendor == "postgresql":
        _pg_dump(path)
    else:
        raise BackupError(_("backups of a %(vendor)s database are not supported") % {"vendor": vendor})


def _sqlite_backup(path: Path) -> None:
    connection = _connection()
    connection.ensure_connection()
    target = sqlite3.connect(path)
    try:
        # One step: the whole database as one consistent snapshot. WAL lets writers carry on.
        connection.connection.backup(target)
        (check,) = target.execute("PRAGMA quick_check").fetchone()
    except sqlite3.Error as exc:
        target.close()
        path.unlink(missing_ok=True)
        raise BackupError(_("the backup failed: %(error)s") % {"error": exc}) from None
    target.close()
    if check != "ok":
        path.unlink(missing_ok=True)
        raise BackupError(_("the backup failed its check (%(check)s); nothing was kept") % {"check": check})


def _pg_dump(path: Path) -> None:
    _run_pg("pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={path}")
    if not path.exists() or path.stat().st_size == 0:
        raise BackupError(_("pg_dump wrote nothing"))


# --- restore -------------------------------------------------------------------------------------


def restore(path: Path, *, force: bool = False) -> None:
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
        _sqlite_restore(path)
    elif vendor == "postgresql":
        _pg_restore(path)
    else:
        raise BackupError(_("restoring a %(vendor)s database is not supported") % {"vendor": vendor})


def _sqlite_restore(path: Path) -> None:
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
        source.backup(connection.connection)
    except sqlite3.Error as exc:
        raise BackupError(_("the restore failed: %(error)s") % {"error": exc}) from None
    finally:
        source.close()
        connection.close()  # the next query opens the restored database afresh


def _pg_restore(path: Path) -> None:
    with open(path, "rb") as file:
        if file.read(5) != b"PGDMP":
            raise BackupError(_("%(path)s is not a pg_dump custom-format backup") % {"path": path})
    _connection().close()  # no session of ours holds a lock on what pg_restore replaces
    _run_pg(
        "pg_restore",
        "--clean",
        "--if-exists",
        "--no-owner",
        "--no-privileges",
        "--single-transaction",
        "--exit-on-error",
        str(path),
    )


def _run_pg(tool: str, *args: str) -> None:
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
    target = [f"--dbname={settings['NAME']}"]
    if settings.get("HOST"):
        target.append(f"--host={settings['HOST']}")
    if settings.get("PORT"):
        target.append(f"--port={settings['PORT']}")
    if settings.get("USER"):
        target.append(f"--username={settings['USER']}")
    done = subprocess.run([program, *target, "--no-password", *args], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(
            _("%(tool)s failed: %(error)s") % {"tool": tool, "error": done.stderr.strip() or done.returncode}
        )
