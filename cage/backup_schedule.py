"""The backups the timer takes by itself (`manage.py scheduled_backup`, run every ten minutes by
fair-cage-backup.timer): when one is due, where it goes, how it is checked and how many are kept.

A copy is due while a gaming day is open (or reconciling) once the newest copy is an hour old, and
once a day has closed after the newest copy (the close's seal, DaySeal.sealed_at, says when). It is
written by the backup service (cage.backup) as `cage-YYYYMMDD-HHMMSS.sqlite3` or `.pgdump`, in
local time, first under a name ending in `.partial`, so that a copy cut short by a power cut is
never taken for a good one. It is then checked as it would be restored: the whole ledger check
(`check_ledger`) in another process whose DATABASE_URL is the copy itself (SQLite), or a scratch
database the copy is restored into, dropped afterwards (PostgreSQL). A copy that holds gets its
name; one that fails is renamed `….failed`, kept for whoever looks into it, and never counted
among the copies kept. Only good copies are pruned, the oldest first.
"""

import datetime
import os
import re
import subprocess
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlencode

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone
from django.utils.translation import gettext as _

from cage.backup import BackupError, backup
from cage.models import DaySeal
from cage.progress import QUIET, Progress
from core import local
from events.models import GamingDay

COPY_NAME = re.compile(r"cage-(?P<date>\d{8})-(?P<time>\d{6})(?:-(?P<number>\d+))?\.(?P<ext>sqlite3|pgdump)")
EXTENSIONS = {"sqlite": "sqlite3", "postgresql": "pgdump"}
PARTIAL, FAILED = ".partial", ".failed"
# While a day is open, a copy at least this often.
EVERY = datetime.timedelta(hours=1)
# How many good copies the timer keeps unless told otherwise: two days of hourly copies.
KEEP = 48
UNDER_WAY = (GamingDay.Status.OPEN, GamingDay.Status.RECONCILING)
# The check's own messages, at most this many lines of them, go into the refusal.
SHOWN_LINES = 8
# Where the PostgreSQL check may make its scratch database, if DATABASE_URL's role may not.
CHECK_SERVER_VARIABLE = "BACKUP_CHECK_DATABASE_URL"


class Refused(Exception):
    """No copy was taken or kept, in a sentence for the journal."""


class CopyFailed(Exception):
    def __init__(self, path: Path, problems: list[str]):
        self.path, self.problems = path, problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True, order=True)
class Copy:
    taken: datetime.datetime  # when it was begun, from its name
    number: int
    path: Path = field(compare=False)


@dataclass
class Outcome:
    reason: str
    taken: Path | None = None
    removed: list[Path] = field(default_factory=list)


def scheduled_backup(
    folder: Path, *, keep: int, progress: Progress = QUIET, now: datetime.datetime | None = None
) -> Outcome:
    """Take a copy into `folder` if one is due, check it, and keep the newest `keep` good copies."""
    problem = folder_problem(folder)
    if problem:
        raise Refused(problem)
    now = now or timezone.now()
    held = copies(folder)
    due, reason = decide(held[-1] if held else None, now, folder)
    if not due:
        return Outcome(reason)
    final = new_copy_path(folder, now)
    partial = final.with_name(final.name + PARTIAL)
    try:
        backup(partial, progress)
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    _private(partial)
    problems = check_copy(partial)
    if problems:
        failed = final.with_name(final.name + FAILED)
        partial.rename(failed)
        raise CopyFailed(failed, problems)
    partial.rename(final)
    return Outcome(reason, final, prune(folder, keep))


# --- the folder and the copies in it ---------------------------------------------------------------


def folder_problem(folder: Path) -> str | None:
    """Why copies cannot go into `folder` (a USB stick unplugged, mounted read-only), or None."""
    if not folder.exists():
        return _("%(folder)s does not exist: is the USB stick plugged in and mounted? No backup was taken.") % {
            "folder": folder
        }
    if not folder.is_dir():
        return _("%(folder)s is not a folder. No backup was taken.") % {"folder": folder}
    if not os.access(folder, os.R_OK | os.W_OK | os.X_OK):
        return _(
            "%(folder)s cannot be written to (mounted read-only, or another user's folder?). No backup was taken."
        ) % {"folder": folder}
    return None


def copies(folder: Path) -> list[Copy]:
    """The good copies in `folder`, oldest first: not a failed one, nor one cut short."""
    found = []
    for path in folder.iterdir():
        match = COPY_NAME.fullmatch(path.name)
        if not match or not path.is_file():
            continue
        try:
            moment = datetime.datetime.strptime(match["date"] + match["time"], "%Y%m%d%H%M%S")
        except ValueError:
            continue  # digits that are no date: not one of ours
        found.append(Copy(timezone.make_aware(moment), int(match["number"] or 1), path))
    return sorted(found)


def new_copy_path(folder: Path, now: datetime.datetime) -> Path:
    """`cage-YYYYMMDD-HHMMSS.<ext>` in local time, numbered -2, -3… when a copy, failed or cut short
    or not, already has the name."""
    vendor = connections[DEFAULT_DB_ALIAS].vendor
    if vendor not in EXTENSIONS:
        raise BackupError(_("backups of a %(vendor)s database are not supported") % {"vendor": vendor})
    stem = "cage-" + timezone.localtime(now).strftime("%Y%m%d-%H%M%S")
    taken = {path.name.split(".")[0] for path in folder.iterdir()}
    name, number = stem, 1
    while name in taken:
        number += 1
        name = f"{stem}-{number}"
    return folder / f"{name}.{EXTENSIONS[vendor]}"


def _private(path: Path) -> None:
    """A copy holds every login's password and PIN hashes: its owner's alone, where the file system
    keeps owners (a FAT-formatted stick does not, and says nothing)."""
    try:
        path.chmod(0o600)
    except OSError:
        pass


def prune(folder: Path, keep: int) -> list[Path]:
    """Remove the oldest good copies beyond the newest `keep`; the removed, oldest first."""
    held = copies(folder)
    removed = held[: max(len(held) - keep, 0)]
    for copy in removed:
        try:
            copy.path.unlink()
        except OSError as exc:
            raise Refused(
                _("%(path)s could not be removed: %(reason)s") % {"path": copy.path, "reason": exc.strerror}
            ) from None
    return [copy.path for copy in removed]


# --- whether a copy is due -------------------------------------------------------------------------


def decide(newest: Copy | None, now: datetime.datetime, folder: Path) -> tuple[bool, str]:
    """Whether a copy is due, and why (or why not), in words for the journal."""
    named = {"folder": folder, "copy": newest.path.name if newest else ""}
    closed = DaySeal.objects.select_related("day__event").order_by("-sealed_at", "-pk").first()
    # A copy's name says the second it began, not what came first within that second: a close in
    # the same second counts as after it. One copy too many, rather than a close never copied.
    if closed and (newest is None or closed.sealed_at > newest.taken):
        named |= {"date": local.day(closed.day.date), "event": closed.day.event.name}
        named["time"] = local.moment(closed.sealed_at)
        if newest is None:
            return True, _(
                "the gaming day %(date)s of %(event)s closed at %(time)s and %(folder)s holds no copy yet"
            ) % named
        return True, _(
            "the gaming day %(date)s of %(event)s closed at %(time)s, after the newest copy (%(copy)s)"
        ) % named
    day = GamingDay.objects.filter(status__in=UNDER_WAY).select_related("event").order_by("date", "pk").first()
    if day is None:
        if newest is None:
            return False, _("no gaming day is open and none has closed yet")
        return False, _("no gaming day is open and none has closed since the newest copy (%(copy)s)") % named
    named |= {"date": local.day(day.date), "event": day.event.name}
    if newest is None:
        return True, _("the gaming day %(date)s of %(event)s is open and %(folder)s holds no copy yet") % named
    age = now - newest.taken
    named["minutes"] = int(age.total_seconds() // 60)
    if age < datetime.timedelta(0):
        return True, _(
            "the gaming day %(date)s of %(event)s is open and the newest copy (%(copy)s) is dated after now: "
            "was the clock changed?"
        ) % named
    if age >= EVERY:
        return True, _(
            "the gaming day %(date)s of %(event)s is open and the newest copy (%(copy)s) is %(minutes)s minute(s) old"
        ) % named
    return False, _(
        "the gaming day %(date)s of %(event)s is open, but the newest copy (%(copy)s) is only %(minutes)s "
        "minute(s) old: one is taken each hour while a day is open"
    ) % named


# --- the check of a copy ---------------------------------------------------------------------------


def check_copy(path: Path) -> list[str]:
    """What is wrong with the copy at `path`, checked as it would be restored; empty if it holds."""
    vendor = connections[DEFAULT_DB_ALIAS].vendor
    if vendor == "postgresql":
        return _check_pg_dump(path)
    return _problems(_manage(_sqlite_url(path), "check_ledger"))


def _sqlite_url(path: Path) -> str:
    return "sqlite:///" + quote(str(path.absolute()))


def _manage(url: str, *args: str) -> subprocess.CompletedProcess:
    """manage.py in another process, on the database at `url`: the copy is checked as a restored
    database would be, by the same commands, and nothing of it comes into this process."""
    env = {**os.environ, "DATABASE_URL": url}
    env.pop("MIGRATE_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )


def _problems(done: subprocess.CompletedProcess) -> list[str]:
    if done.returncode == 0:
        return []
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    if not lines:
        return [_("the check stopped with exit code %(code)s") % {"code": done.returncode}]
    if len(lines) > SHOWN_LINES:
        lines = [*lines[: SHOWN_LINES - 1], _("… and %(count)s line(s) more") % {"count": len(lines) - SHOWN_LINES + 1}]
    return lines


def _check_pg_dump(path: Path) -> list[str]:
    """Restore the dump into a scratch database of the same server, check it there, drop it."""
    import psycopg  # PostgreSQL's driver, loaded only where it is used

    server = _check_server()
    name = f"cage_check_{uuid.uuid4().hex[:12]}"
    try:
        with _maintenance(psycopg, server) as maintenance:
            maintenance.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as exc:
        return [
            _(
                "the copy could not be checked: no scratch database could be made (%(error)s). Give the role "
                "CREATEDB, or name in %(variable)s a role that may create databases"
            )
            % {"error": str(exc).strip(), "variable": CHECK_SERVER_VARIABLE}
        ]
    url = _pg_url(server, name)
    try:
        problems = _problems(_manage(url, "restore", "--no-progress", str(path.absolute())))
        problems = problems or _problems(_manage(url, "check_ledger"))
    finally:
        _drop(psycopg, server, name)
    return problems


def _drop(psycopg, server: dict, name: str) -> None:
    try:
        with _maintenance(psycopg, server) as maintenance:
            maintenance.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except psycopg.Error as exc:
        raise Refused(
            _("the scratch database %(name)s could not be dropped (%(error)s): drop it by hand")
            % {"name": name, "error": str(exc).strip()}
        ) from None


def _check_server() -> dict:
    url = os.environ.get(CHECK_SERVER_VARIABLE)
    if url:
        import dj_database_url

        return dj_database_url.parse(url)
    return connections[DEFAULT_DB_ALIAS].settings_dict


def _maintenance(psycopg, server: dict):
    """A connection to the server's own database, outside any transaction (CREATE DATABASE)."""
    params = {
        "host": server.get("HOST"),
        "port": server.get("PORT"),
        "user": server.get("USER"),
        "password": server.get("PASSWORD"),
        "dbname": server.get("NAME"),
        "sslmode": (server.get("OPTIONS") or {}).get("sslmode"),
    }
    return psycopg.connect(**{k: v for k, v in params.items() if v}, autocommit=True, connect_timeout=10)


def _pg_url(server: dict, name: str) -> str:
    user, password = server.get("USER") or "", server.get("PASSWORD") or ""
    login = quote(str(user), safe="") + (":" + quote(str(password), safe="") if password else "")
    host = quote(str(server.get("HOST") or ""), safe="") + (f":{server['PORT']}" if server.get("PORT") else "")
    sslmode = (server.get("OPTIONS") or {}).get("sslmode")
    query = "?" + urlencode({"sslmode": sslmode}) if sslmode else ""
    return f"postgres://{login + '@' if login else ''}{host}/{name}{query}"
