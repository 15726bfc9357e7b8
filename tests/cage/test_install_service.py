"""install_service writes the systemd units that keep the cage running by itself (the server,
restarted always and started at boot; the backup timer every ten minutes) and the settings file
they read, never overwriting it. The units are read back by systemd's own checker
(`systemd-analyze verify`); --install is tried with a stand-in systemctl that records its calls."""

import io
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cage import service_files
from tests.databases import ROOT

ME = pwd.getpwuid(os.geteuid()).pw_name
UNITS = (service_files.SERVER, service_files.BACKUP, service_files.TIMER)


def install(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("install_service", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def read_unit(path: Path) -> dict[str, dict[str, str]]:
    """A unit file as systemd reads it: sections of settings, comments left out."""
    sections, current = {}, None
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _equals, value = line.partition("=")
        current[key] = value
    return sections


def read_settings(path: Path) -> dict[str, str]:
    pairs = [line.split("=", 1) for line in path.read_text().splitlines() if line and not line.startswith("#")]
    return dict(pairs)


@pytest.fixture
def written(tmp_path) -> Path:
    install("--dir", str(tmp_path / "units"), "--backup-dir", str(tmp_path / "usb"), "--user", ME)
    return tmp_path / "units"


def test_the_server_runs_the_venvs_python_on_manage_py_serve_restarted_always_and_at_boot(written):
    unit = read_unit(written / service_files.SERVER)
    python = Path(sys.executable).absolute()
    assert unit["Service"]["ExecStart"] == f"{python} {ROOT / 'manage.py'} serve"
    # The static files of this version are collected before each start, where the settings say.
    assert unit["Service"]["ExecStartPre"] == f"{python} {ROOT / 'manage.py'} collectstatic --noinput --verbosity 0"
    assert unit["Service"]["WorkingDirectory"] == str(ROOT)
    assert unit["Service"]["EnvironmentFile"] == str(written / "env")
    assert unit["Service"]["User"] == ME
    assert unit["Service"]["Restart"] == "always"
    assert unit["Unit"]["After"].split() == ["network-online.target", "postgresql.service"]
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"  # never gives up restarting
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    for path in (python, ROOT / "manage.py", Path(unit["Service"]["WorkingDirectory"])):
        assert path.is_absolute() and path.exists()


def test_the_timer_runs_the_checked_backup_every_ten_minutes_and_catches_up_after_a_power_cut(written, tmp_path):
    timer = read_unit(written / service_files.TIMER)
    assert timer["Timer"] == {"OnCalendar": "*:0/10", "Persistent": "true", "Unit": service_files.BACKUP}
    assert timer["Install"]["WantedBy"] == "timers.target"
    backup = read_unit(written / service_files.BACKUP)
    python = Path(sys.executable).absolute()
    expected = f"{python} {ROOT / 'manage.py'} scheduled_backup --to {tmp_path / 'usb'} --keep 48"
    assert backup["Service"]["ExecStart"] == expected
    assert backup["Service"]["Type"] == "oneshot"
    assert backup["Service"]["EnvironmentFile"] == str(written / "env")
    assert (backup["Service"]["User"], backup["Service"]["WorkingDirectory"]) == (ME, str(ROOT))


def test_the_settings_file_is_private_explained_and_never_overwritten(written, tmp_path):
    env = written / "env"
    assert env.stat().st_mode & 0o777 == 0o600
    settings = read_settings(env)
    assert len(settings["SECRET_KEY"]) >= 50 and settings["DEBUG"] == "false"
    assert settings["DATABASE_URL"] and settings["ALLOWED_HOSTS"]
    # The same folders as make serve's: the tablets keep trusting the same authority.
    assert (settings["STATIC_ROOT"], settings["TLS_DIR"]) == (str(ROOT / "var" / "static"), str(ROOT / "var" / "tls"))
    text = env.read_text()
    assert f"# BACKUP_DIR={tmp_path / 'usb'}" in text  # where the copies go, said where settings are read
    assert text.count("\n#") >= 10  # each setting with what it is for
    before = env.read_bytes()

    out, _err = install(
        "--dir", str(written), "--backup-dir", str(tmp_path / "usb2"), "--user", ME, "--database-url", "sqlite:////x"
    )
    assert env.read_bytes() == before
    assert f"Kept the services' settings {env} as they are: never overwritten." in out
    # The units are written again: the new folder of the copies is in them.
    assert f"--to {tmp_path / 'usb2'} " in (written / service_files.BACKUP).read_text()

    env.chmod(0o644)
    _out, err = install("--dir", str(written), "--backup-dir", str(tmp_path / "usb"), "--user", ME)
    assert f"{env} can be read by other users (mode 0644): chmod 600 {env}" in err


def test_the_services_keep_the_key_make_serve_made(tmp_path, monkeypatch):
    key = tmp_path / "secret_key"
    key.write_text("k" * 60)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("SECRET_KEY_FILE", str(key))
    install("--dir", str(tmp_path / "units"), "--user", ME)
    settings = read_settings(tmp_path / "units" / "env")
    assert settings["SECRET_KEY_FILE"] == str(key) and "SECRET_KEY" not in settings  # nobody is logged out


def test_a_new_settings_file_takes_the_database_and_names_given(tmp_path):
    install(
        "--dir",
        str(tmp_path),
        "--user",
        ME,
        "--database-url",
        "postgres://cage:p@ss w'rd@127.0.0.1:5432/cage",
        "--allowed-hosts",
        "cage.fair.example,10.0.0.2",
    )
    text = (tmp_path / "env").read_text()
    assert "ALLOWED_HOSTS=cage.fair.example,10.0.0.2\n" in text
    # Quoted as systemd (and a shell) reads it.
    assert 'DATABASE_URL="postgres://cage:p@ss w\'rd@127.0.0.1:5432/cage"\n' in text


def test_by_default_the_files_go_to_a_deploy_folder_here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out, _err = install("--user", ME)
    assert sorted(p.name for p in (tmp_path / "deploy").iterdir()) == sorted([*UNITS, "env"])
    assert read_unit(tmp_path / "deploy" / service_files.SERVER)["Service"]["EnvironmentFile"] == str(
        tmp_path / "deploy" / "env"
    )
    assert read_unit(tmp_path / "deploy" / service_files.BACKUP)["Service"]["ExecStart"].endswith(
        f"--to {ROOT / 'var' / 'backups'} --keep 48"
    )
    assert "Nothing was installed" in out and "install_service --install" in out


def systemd_analyze() -> str:
    program = shutil.which("systemd-analyze")
    if program is None:
        if os.environ.get("REQUIRE_SYSTEMD_TOOLS"):
            pytest.fail("REQUIRE_SYSTEMD_TOOLS is set but systemd-analyze is not installed")
        pytest.skip("systemd-analyze is not installed (apt-get install systemd): the units' syntax is not checked")
    return program


def verify(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run([systemd_analyze(), "verify", *map(str, paths)], capture_output=True, text=True)


def test_systemd_reads_the_units_without_a_complaint(written):
    done = verify(*(written / name for name in UNITS))
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert not any(word in said for word in ("Unknown", "ignoring", "Failed", "not executable")), said


def test_systemd_would_complain_of_a_wrong_unit_so_the_check_above_means_something(written):
    timer = written / service_files.TIMER
    timer.write_text(timer.read_text().replace("OnCalendar=*:0/10", "OnCalendar=every ten minutes"))
    assert verify(timer, written / service_files.BACKUP).returncode != 0


def test_paths_with_spaces_and_percent_signs_are_quoted_as_systemd_reads_them(tmp_path):
    venv = tmp_path / "a venv 100%" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(sys.executable)
    installation = service_files.Installation(
        python=venv / "python",
        project=ROOT,
        user=ME,
        env_file=tmp_path / "env",
        backup_dir=tmp_path / "USB stick",
        keep=3,
    )
    for name, text in service_files.unit_files(installation).items():
        (tmp_path / name).write_text(text)
    start = read_unit(tmp_path / service_files.BACKUP)["Service"]["ExecStart"]
    assert start.startswith(f'"{venv}/python"'.replace("%", "%%"))
    assert f'--to "{tmp_path}/USB stick" --keep 3' in start
    done = verify(*(tmp_path / name for name in UNITS))
    assert done.returncode == 0, done.stderr


def fake_systemctl(tmp_path: Path, monkeypatch, *, fails: bool = False) -> Path:
    """A systemctl that records its calls (and, if asked, refuses them), first on the PATH."""
    folder, calls = tmp_path / "bin", tmp_path / "systemctl-calls"
    folder.mkdir()
    script = folder / "systemctl"
    failure = 'echo "Failed to connect to bus: No such file or directory" >&2; exit 1' if fails else "exit 0"
    script.write_text(f'#!/bin/sh\necho "$@" >> "{calls}"\n{failure}\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return calls


def test_install_writes_the_units_reloads_systemd_enables_them_and_says_so(tmp_path, monkeypatch):
    calls = fake_systemctl(tmp_path, monkeypatch)
    env = tmp_path / "etc" / "fair-cage" / "env"
    out, _err = install("--install", "--dir", str(tmp_path / "system"), "--env-file", str(env), "--user", ME)
    assert calls.read_text().splitlines() == ["daemon-reload", "enable fair-cage.service fair-cage-backup.timer"]
    assert "Ran systemctl daemon-reload and enabled fair-cage.service fair-cage-backup.timer" in out
    assert sorted(p.name for p in (tmp_path / "system").iterdir()) == sorted(UNITS)
    assert env.stat().st_mode & 0o777 == 0o600
    assert read_unit(tmp_path / "system" / service_files.SERVER)["Service"]["EnvironmentFile"] == str(env)


def test_install_says_why_systemctl_refused(tmp_path, monkeypatch):
    fake_systemctl(tmp_path, monkeypatch, fails=True)
    with pytest.raises(CommandError, match="systemctl daemon-reload failed: Failed to connect to bus"):
        install("--install", "--dir", str(tmp_path / "system"), "--env-file", str(tmp_path / "env"), "--user", ME)


def test_refusals_write_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no systemctl here
    with pytest.raises(CommandError, match="systemctl was not found: --install needs a machine run by systemd"):
        install("--install", "--dir", str(tmp_path / "a"), "--env-file", str(tmp_path / "a" / "env"), "--user", ME)
    with pytest.raises(CommandError, match="There is no user nobody-here-at-all on this machine"):
        install("--dir", str(tmp_path / "b"), "--user", "nobody-here-at-all")
    (tmp_path / "a-file").write_text("")
    with pytest.raises(CommandError, match="cannot be written to"):
        install("--dir", str(tmp_path / "a-file" / "units"), "--user", ME)
    with pytest.raises(CommandError, match="is not a number of copies"):
        install("--dir", str(tmp_path / "c"), "--user", ME, "--keep", "0")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
