import os
import pwd
import secrets
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage import service_files
from cage.backup_schedule import KEEP
from cage.management.commands.scheduled_backup import copies_to_keep
from events.commands import Command as TranslatedHelpCommand

SYSTEM_UNITS = Path("/etc/systemd/system")
SYSTEM_ENV_FILE = Path("/etc/fair-cage/env")
ENABLED = (service_files.SERVER, service_files.TIMER)


def default_user() -> str:
    """Whoever runs the command; under sudo, whoever ran sudo (the cage never needs root)."""
    if os.geteuid() == 0 and os.environ.get("SUDO_USER"):
        return os.environ["SUDO_USER"]
    return pwd.getpwuid(os.geteuid()).pw_name


class Command(TranslatedHelpCommand):
    help = gettext_lazy(
        "Write the systemd units that run the cage by itself: fair-cage.service (the server, started at boot "
        "and again whenever it stops) and fair-cage-backup.timer (scheduled_backup every ten minutes), with "
        "the settings file they read, written only if missing. Into ./deploy unless --install, which writes "
        "them into /etc, reloads systemd and enables them."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--install",
            action="store_true",
            help=gettext_lazy("write into /etc/systemd/system and /etc/fair-cage/env, reload systemd and enable them"),
        )
        parser.add_argument(
            "--dir",
            help=gettext_lazy("the folder of the unit files (default ./deploy, or /etc/systemd/system with --install)"),
        )
        parser.add_argument(
            "--env-file",
            help=gettext_lazy(
                "the settings file the units read (default DIR/env, or /etc/fair-cage/env with --install)"
            ),
        )
        parser.add_argument(
            "--user", default=None, help=gettext_lazy("the login the cage runs as (default: whoever runs this)")
        )
        parser.add_argument(
            "--backup-dir",
            help=gettext_lazy("the folder of the timer's backups, e.g. a USB stick's (default var/backups)"),
        )
        parser.add_argument(
            "--keep",
            type=copies_to_keep,
            default=KEEP,
            help=gettext_lazy("how many backups the timer keeps (default %(default)s)"),
        )
        parser.add_argument(
            "--database-url",
            help=gettext_lazy(
                "for a new settings file: the event's database (default DATABASE_URL, or var/event.sqlite3)"
            ),
        )
        parser.add_argument(
            "--allowed-hosts",
            help=gettext_lazy(
                "for a new settings file: other names of the laptop, comma-separated (default ALLOWED_HOSTS)"
            ),
        )

    def handle(self, *args, **options):
        installation, unit_dir = self._installation(options)
        systemctl = self._systemctl() if options["install"] else None
        for folder in {unit_dir, installation.env_file.parent}:
            self._writable(folder)
        unit_dir.mkdir(parents=True, exist_ok=True)
        for name, text in service_files.unit_files(installation).items():
            _write_unit(unit_dir / name, text)
            self.stdout.write(_("Wrote %(path)s") % {"path": unit_dir / name})
        self._settings_file(installation, options)
        if not installation.backup_dir.is_dir():
            self.stderr.write(
                _(
                    "The backup folder %(folder)s does not exist: until it does, each backup fails, saying so. "
                    "Mount the USB stick there, or create the folder, writable by %(user)s."
                )
                % {"folder": installation.backup_dir, "user": installation.user}
            )
        if systemctl:
            self._enable(systemctl)
        else:
            self.stdout.write(
                _(
                    "Nothing was installed: these are for reading, or to install by hand. To install them, as root: "
                    "%(command)s"
                )
                % {"command": _install_command(installation)}
            )

    def _installation(self, options) -> tuple[service_files.Installation, Path]:
        install = options["install"]
        user = options["user"] or default_user()
        try:
            pwd.getpwnam(user)
        except KeyError:
            raise CommandError(
                _("There is no user %(user)s on this machine: give --user the login the cage runs as.") % {"user": user}
            ) from None
        if user == "root":
            self.stderr.write(_("The cage would run as root: better a login of its own (--user)."))
        default_dir = SYSTEM_UNITS if install else Path.cwd() / "deploy"
        unit_dir = Path(options["dir"]).absolute() if options["dir"] else default_dir
        default_env = SYSTEM_ENV_FILE if install else unit_dir / "env"
        project = Path(settings.BASE_DIR).absolute()
        installation = service_files.Installation(
            python=Path(sys.executable).absolute(),
            project=project,
            user=user,
            env_file=Path(options["env_file"]).absolute() if options["env_file"] else default_env,
            backup_dir=Path(options["backup_dir"]).absolute() if options["backup_dir"] else project / "var" / "backups",
            keep=options["keep"],
        )
        return installation, unit_dir

    def _systemctl(self) -> str:
        program = shutil.which("systemctl")
        if program is None:
            raise CommandError(
                _("systemctl was not found: --install needs a machine run by systemd. Nothing was written.")
            )
        return program

    def _writable(self, folder: Path) -> None:
        """The folder, or the nearest of its parents that exists, takes new files: checked before
        anything is written, so that a refusal leaves nothing half done."""
        existing = folder
        while not existing.exists():
            existing = existing.parent
        if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
            raise CommandError(
                _("%(folder)s cannot be written to (run it as root for /etc). Nothing was written.")
                % {"folder": folder}
            )

    def _settings_file(self, installation: service_files.Installation, options) -> None:
        path = installation.env_file
        text = service_files.env_file(
            secret_key=secrets.token_urlsafe(50),
            database_url=options["database_url"] or _database_url(installation.project),
            allowed_hosts=options["allowed_hosts"] or os.environ.get("ALLOWED_HOSTS") or "localhost,127.0.0.1",
            backup_dir=installation.backup_dir,
            project=installation.project,
            # The key make serve made, if that is the one in use: the same sessions go on.
            key_file=_key_file(),
        )
        if _write_private(path, text):
            self.stdout.write(
                _(
                    "Wrote the services' settings %(path)s (mode 0600, with a secret key of its own): check "
                    "DATABASE_URL and ALLOWED_HOSTS in it."
                )
                % {"path": path}
            )
            return
        self.stdout.write(_("Kept the services' settings %(path)s as they are: never overwritten.") % {"path": path})
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:
            self.stderr.write(
                _("%(path)s can be read by other users (mode %(mode)s): chmod 600 %(path)s")
                % {"path": path, "mode": f"{mode:04o}"}
            )

    def _enable(self, systemctl: str) -> None:
        for args in (["daemon-reload"], ["enable", *ENABLED]):
            done = subprocess.run([systemctl, *args], capture_output=True, text=True)
            if done.returncode != 0:
                raise CommandError(
                    _("systemctl %(args)s failed: %(error)s")
                    % {"args": " ".join(args), "error": done.stderr.strip() or done.returncode}
                )
        units = " ".join(ENABLED)
        self.stdout.write(
            _(
                "Ran systemctl daemon-reload and enabled %(units)s: they start at every boot. To start them now: "
                "systemctl start %(units)s"
            )
            % {"units": units}
        )


def _database_url(project: Path) -> str:
    """The database the command itself was given, or the one `make serve` uses."""
    return os.environ.get("DATABASE_URL") or "sqlite:///" + quote(str(project / "var" / "event.sqlite3"))


def _write_unit(path: Path, text: str) -> None:
    """Whole or not at all: a unit half written would not start after a power cut."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.chmod(0o644)
    os.replace(partial, path)


def _write_private(path: Path, text: str) -> bool:
    """Write `path`, readable by its owner alone, unless it exists; whether it was written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
    return True


# What the settings need to load, and the settings file takes its values from: sudo keeps them.
KEPT_BY_SUDO = ("DEBUG", "SECRET_KEY", "SECRET_KEY_FILE", "DATABASE_URL", "ALLOWED_HOSTS")


def _install_command(installation: service_files.Installation) -> str:
    kept = [name for name in KEPT_BY_SUDO if name in os.environ]
    words = [
        "sudo",
        *([f"--preserve-env={','.join(kept)}"] if kept else []),
        installation.python,
        installation.manage,
        "install_service",
        "--install",
        f"--user={installation.user}",
        f"--backup-dir={installation.backup_dir}",
        f"--keep={installation.keep}",
    ]
    return " ".join(shlex.quote(str(word)) for word in words)


def _key_file() -> str:
    """The absolute path of the key file in use (SECRET_KEY_FILE, as `make serve` sets it), or ""
    where the key is given as SECRET_KEY or its file cannot be read."""
    path = os.environ.get("SECRET_KEY_FILE", "")
    if os.environ.get("SECRET_KEY") or not path or not os.access(path, os.R_OK):
        return ""
    return str(Path(path).resolve())
