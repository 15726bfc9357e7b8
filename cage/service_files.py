"""The systemd files that keep the cage running at a fair by itself (`manage.py install_service`):

- fair-cage.service: the production server (`manage.py serve`), started at boot and started again
  whenever it stops, so the cage is back by itself after a power cut;
- fair-cage-backup.service and fair-cage-backup.timer: every ten minutes, `manage.py
  scheduled_backup`, which decides by itself whether a copy is due (cage.backup_schedule);
- the settings file both services read (EnvironmentFile=): the site's secret key, its database.

Only the text is made here; the command writes it where it is told. Every path in the units is
absolute: systemd starts them from no folder in particular.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from django.utils.translation import gettext as _

SERVER = "fair-cage.service"
BACKUP = "fair-cage-backup.service"
TIMER = "fair-cage-backup.timer"
# Every ten minutes, on the clock (…:00, …:10, …); a run missed while the laptop was off is run at
# the next boot (Persistent=true). scheduled_backup itself decides whether a copy is due.
CALENDAR = "*:0/10"

# What a unit's command line or a settings file may carry unquoted.
PLAIN = re.compile(r"[A-Za-z0-9_@+=:,./~-]*")


@dataclass(frozen=True)
class Installation:
    python: Path  # the virtual environment's python, absolute (not resolved: its symlink is the venv)
    project: Path  # the folder of manage.py
    user: str
    env_file: Path
    backup_dir: Path
    keep: int

    @property
    def manage(self) -> Path:
        return self.project / "manage.py"


def unit_files(installation: Installation) -> dict[str, str]:
    """Each unit file's name and text."""
    return {
        SERVER: server_unit(installation),
        BACKUP: backup_unit(installation),
        TIMER: backup_timer(),
    }


def _heading() -> str:
    return "# " + _("Written by manage.py install_service: run it again rather than editing this file.") + "\n"


def _value(text) -> str:
    """A unit file's setting: systemd reads % as the start of a specifier."""
    return str(text).replace("%", "%%")


def _word(text) -> str:
    """One word of a unit's command line, quoted if it must be; % and $ are systemd's own."""
    text = str(text)
    escaped = text.replace("%", "%%").replace("$", "$$")
    if PLAIN.fullmatch(text) and text:
        return escaped
    return '"' + escaped.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _command(installation: Installation, *args) -> str:
    return " ".join(_word(word) for word in (installation.python, installation.manage, *args))


def _service_lines(installation: Installation) -> list[str]:
    return [
        f"User={_value(installation.user)}",
        f"WorkingDirectory={_value(installation.project)}",
        f"EnvironmentFile={_value(installation.env_file)}",
    ]


def server_unit(installation: Installation) -> str:
    lines = [
        "[Unit]",
        "Description=" + _value(_("Fair gaming cage: the production server")),
        # After a power cut the network and the database come up first; the server is started
        # again whenever it stops, however often (no limit on restarts).
        "Wants=network-online.target",
        "After=network-online.target postgresql.service",
        "StartLimitIntervalSec=0",
        "",
        "[Service]",
        "Type=simple",
        *_service_lines(installation),
        # The static files of this version, collected before each start (a no-op when unchanged).
        "ExecStartPre=" + _command(installation, "collectstatic", "--noinput", "--verbosity", "0"),
        "ExecStart=" + _command(installation, "serve"),
        "Restart=always",
        "RestartSec=5",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
    ]
    return _heading() + "\n".join(lines) + "\n"


def backup_unit(installation: Installation) -> str:
    lines = [
        "[Unit]",
        "Description=" + _value(_("Fair gaming cage: a checked backup, when one is due")),
        "After=postgresql.service",
        "",
        "[Service]",
        "Type=oneshot",
        *_service_lines(installation),
        "ExecStart="
        + _command(installation, "scheduled_backup", "--to", installation.backup_dir, "--keep", installation.keep),
        # The cage's own work comes first: the copy takes what the laptop has to spare.
        "Nice=10",
        "IOSchedulingClass=best-effort",
        "IOSchedulingPriority=7",
    ]
    return _heading() + "\n".join(lines) + "\n"


def backup_timer() -> str:
    lines = [
        "[Unit]",
        "Description=" + _value(_("Fair gaming cage: every ten minutes, a backup if one is due")),
        "",
        "[Timer]",
        f"OnCalendar={CALENDAR}",
        "Persistent=true",
        f"Unit={BACKUP}",
        "",
        "[Install]",
        "WantedBy=timers.target",
    ]
    return _heading() + "\n".join(lines) + "\n"


def _setting(text: str) -> str:
    """A value of the settings file, quoted as systemd's EnvironmentFile= reads it when it must be."""
    if PLAIN.fullmatch(text):
        return text
    if "'" not in text:
        return f"'{text}'"
    return '"' + re.sub(r'([\\"$`])', r"\\\1", text) + '"'


def _comment(text: str) -> list[str]:
    """A paragraph of explanation as comment lines of at most about 100 characters."""
    lines, line = [], "#"
    for word in text.split():
        if len(line) + 1 + len(word) > 100:
            lines.append(line)
            line = "#"
        line += " " + word
    return [*lines, line]


def env_file(
    *, secret_key: str, database_url: str, allowed_hosts: str, backup_dir: Path, project: Path, key_file: str = ""
) -> str:
    """The services' settings file, each setting with what it is for. With `key_file` (the key
    `make serve` keeps), the services read that key, so nobody is logged out by the move."""
    lines = [
        *_comment(
            _(
                "The settings of the cage's services (fair-cage.service and fair-cage-backup.service), written "
                "by manage.py install_service, which never overwrites this file. It holds the site's secret key "
                "and its database's password: keep it readable by root only (chmod 600)."
            )
        ),
        "",
        *_comment(_("The key that signs the logins' sessions, this site's own. Changing it logs everyone out.")),
        f"SECRET_KEY_FILE={_setting(key_file)}" if key_file else f"SECRET_KEY={_setting(secret_key)}",
        "",
        *_comment(_("Always false at a fair: true is for the demo only (make run).")),
        "DEBUG=false",
        "",
        *_comment(
            _(
                "The names and addresses the tablets use to reach the cage, separated by commas. `serve` adds "
                "the laptop's own names and addresses as they are when it starts; list here any other."
            )
        ),
        f"ALLOWED_HOSTS={_setting(allowed_hosts)}",
        "",
        *_comment(
            _(
                "The event's database: sqlite:////absolute/path/event.sqlite3 (four slashes) or "
                "postgres://user:password@host:5432/name. Migrate it before starting the server."
            )
        ),
        f"DATABASE_URL={_setting(database_url)}",
        "",
        *_comment(
            _(
                "Where the static files are collected, each name with a hash of its content, so the tablets "
                "keep them a year: the server collects them each time it starts, as make serve does."
            )
        ),
        f"STATIC_ROOT={_setting(str(project / 'var' / 'static'))}",
        "",
        *_comment(
            _(
                "The event's certificate authority and the server's certificate, made by serve on first use "
                "(the same folder as make serve's, so the tablets that trust it keep trusting it)."
            )
        ),
        f"TLS_DIR={_setting(str(project / 'var' / 'tls'))}",
        "",
        *_comment(
            _(
                "Where the backup timer keeps its copies is set in fair-cage-backup.service (scheduled_backup "
                "--to), not here: to change it, run install_service again with --backup-dir. It is now:"
            )
        ),
        f"# BACKUP_DIR={backup_dir}",
        "",
        *_comment(
            _(
                "On PostgreSQL each copy is checked in a scratch database, made and dropped by the role of "
                "DATABASE_URL. If that role may not create databases, name one that may here:"
            )
        ),
        "# BACKUP_CHECK_DATABASE_URL=postgres://cage_owner@127.0.0.1:5432/postgres",
    ]
    return "\n".join(lines) + "\n"
