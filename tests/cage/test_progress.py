"""A long import, export, backup or restore says how far it has got, on stderr (stdout stays the
command's result): the count, its total and its rate, drawn by tqdm in the commands only. A short
run prints nothing, and so does --no-progress. Real processes, real files; CAGE_PROGRESS_AFTER=0
stands for a run long enough to be shown."""

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tqdm.std

from cage.management.commands import _progress
from tests.databases import ROOT, environment, fresh_postgres, manage, sqlite_url
from tests.records_generator import generated_event, record_count

SLUG = "generated-fair"


def run(url: str, *args: str, after: str | None = None) -> subprocess.CompletedProcess:
    env = environment(url)
    env.pop(_progress.DELAY_VARIABLE, None)
    if after is not None:
        env[_progress.DELAY_VARIABLE] = after
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def shown(stage: str, done: int, unit: str) -> re.Pattern:
    """The last line of a counted stage: 100%, done of done, the time taken and the rate."""
    return re.compile(rf"^{stage}: +100%\|[#]+\| {done}/{done} \[\d\d:\d\d<00:00, +[0-9.]+ {unit}/s\]$", re.M)


@pytest.fixture(scope="module")
def season(tmp_path_factory) -> tuple[Path, int]:
    data = generated_event(seed=31, days=2, records_per_day=40)
    path = tmp_path_factory.mktemp("season") / "season.json"
    path.write_text(json.dumps(data))
    return path, record_count(data)


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    """A migrated SQLite file, copied for each test that imports (migrating takes seconds)."""
    path = tmp_path_factory.mktemp("migrated") / "cage.sqlite3"
    manage(f"sqlite:///{path}", "migrate", "-v0")
    return path


@pytest.fixture(scope="module")
def imported(migrated, season, tmp_path_factory) -> str:
    """A database holding the season, read (never changed) by the export and backup tests."""
    path = tmp_path_factory.mktemp("imported") / "cage.sqlite3"
    shutil.copy(migrated, path)
    url = f"sqlite:///{path}"
    manage(url, "import_records", "--no-progress", str(season[0]))
    return url


def fresh_copy(migrated: Path, folder: Path) -> str:
    folder.mkdir(exist_ok=True)
    path = folder / "cage.sqlite3"
    shutil.copy(migrated, path)
    return f"sqlite:///{path}"


def test_an_import_shows_its_count_total_and_rate_on_stderr_and_its_result_on_stdout(migrated, season, tmp_path):
    path, records = season
    done = run(fresh_copy(migrated, tmp_path), "import_records", str(path), after="0")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"Imported {SLUG}: 2 day(s), {records} slip(s).\n"
    assert shown("Checking", records, "records").search(done.stderr), done.stderr
    assert shown("Writing", 3, "steps").search(done.stderr), done.stderr
    # To a pipe (a log file, the journal) each drawing is a line of its own.
    assert "\r" not in done.stderr


def test_an_import_with_no_progress_or_too_short_to_show_leaves_stderr_quiet(migrated, season, tmp_path):
    path, records = season
    quiet = run(fresh_copy(migrated, tmp_path / "a"), "import_records", "--no-progress", str(path), after="0")
    assert (quiet.returncode, quiet.stderr) == (0, "")
    assert quiet.stdout == f"Imported {SLUG}: 2 day(s), {records} slip(s).\n"
    short = run(fresh_copy(migrated, tmp_path / "b"), "import_records", str(path))  # a few seconds at most
    assert (short.returncode, short.stderr) == (0, ""), short.stderr


def test_an_export_shows_its_records_on_stderr_and_writes_the_file_alone_on_stdout(imported, season):
    _path, records = season
    done = run(imported, "export_records", SLUG, after="0")
    assert done.returncode == 0, done.stderr
    assert shown("Reading", records, "records").search(done.stderr), done.stderr
    assert json.loads(done.stdout)["event"]["slug"] == SLUG
    quiet = run(imported, "export_records", SLUG, "--no-progress", after="0")
    assert (quiet.stderr, quiet.stdout) == ("", done.stdout)


def test_a_sqlite_backup_and_restore_show_the_pages_copied(imported, tmp_path):
    backup = tmp_path / "copy.sqlite3"
    done = run(imported, "backup", str(backup), after="0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Backed up")
    pages = int(re.search(r"\| (\d+)/\1 \[", done.stderr).group(1))
    assert pages * 4096 == backup.stat().st_size
    assert shown("Copying", pages, "pages").search(done.stderr), done.stderr
    assert re.search(r"^Checking the copy: \d\d:\d\d$", done.stderr, re.M), done.stderr

    restored = run(sqlite_url(tmp_path), "restore", str(backup), after="0")
    assert restored.returncode == 0, restored.stderr
    assert shown("Copying", pages, "pages").search(restored.stderr), restored.stderr
    assert "Copying" not in restored.stdout

    quiet = run(imported, "backup", "--no-progress", str(tmp_path / "quiet.sqlite3"), after="0")
    assert (quiet.returncode, quiet.stderr) == (0, "")
    quiet = run(sqlite_url(tmp_path), "restore", "--no-progress", str(backup), after="0")
    assert (quiet.returncode, quiet.stderr) == (0, "")


def test_a_postgresql_backup_shows_the_bytes_pg_dump_wrote_and_a_restore_its_time(tmp_path):
    """pg_dump says nothing of how far it is: what it has written so far is measured; pg_restore
    says nothing at all, so its time is shown, honestly, and nothing more."""
    with fresh_postgres() as original, fresh_postgres() as restored:
        manage(original, "migrate", "-v0")
        backup = tmp_path / "copy.pgdump"
        done = run(original, "backup", str(backup), after="0")
        assert done.returncode == 0, done.stderr
        assert re.search(r"^Writing with pg_dump: [0-9.]+[kMG]?B \[\d\d:\d\d, +[0-9.?]+[kMG]?B/s\]$", done.stderr, re.M)
        back = run(restored, "restore", str(backup), after="0")
        assert back.returncode == 0, back.stderr
        assert re.search(r"^Restoring with pg_restore: \d\d:\d\d$", back.stderr, re.M), back.stderr


def test_a_wrong_delay_is_refused_in_a_sentence_and_imports_nothing(migrated, season, tmp_path):
    url = fresh_copy(migrated, tmp_path)
    done = run(url, "import_records", str(season[0]), after="soon")
    assert done.returncode == 1
    assert "CAGE_PROGRESS_AFTER must be a number of seconds (0 or more), not 'soon'" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    count = "from events.models import Event; print(Event.objects.count())"
    assert manage(url, "shell", "-c", count).strip().splitlines()[-1] == "0"


# --- the drawing itself ----------------------------------------------------------------------------


class Clock:
    """tqdm's clock, moved by the test: a long run without waiting for it."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_long_run_to_a_log_prints_a_line_every_interval_and_one_at_the_end(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(tqdm.std, "time", clock)
    log = io.StringIO()  # not a terminal: a log file, or the journal under systemd
    with _progress.Shown(log).stage("Checking", unit="records", total=600) as meter:
        for _second in range(600):  # ten minutes, a record a second
            clock.now += 1
            meter.advance()
    lines = log.getvalue().splitlines()
    interval = int(_progress.LOG_INTERVAL)
    assert len(lines) == 600 // interval + 1  # one per interval, and the last
    assert (
        lines[0].startswith(f"Checking:   {100 * interval // 600}%|")
        and f"| {interval}/600 [00:{interval}<" in lines[0]
    )
    assert lines[-1].startswith("Checking: 100%|") and "| 600/600 [10:00<00:00,  1.00 records/s]" in lines[-1]
    assert "\r" not in log.getvalue()


def test_a_run_shorter_than_the_delay_prints_nothing_even_at_its_end(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(tqdm.std, "time", clock)
    log = io.StringIO()
    with _progress.Shown(log, delay=_progress.DELAY).stage("Checking", unit="records", total=10) as meter:
        for _record in range(10):
            clock.now += _progress.DELAY / 20
            meter.advance()
    assert log.getvalue() == ""


def test_on_a_terminal_the_count_is_drawn_in_place(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    clock = Clock()
    monkeypatch.setattr(tqdm.std, "time", clock)
    terminal = Terminal()
    with _progress.Shown(terminal, delay=0).stage("Copying", unit="pages", total=4) as meter:
        for done in (1, 2, 3, 4):
            clock.now += 1
            meter.reach(done)
    drawn = terminal.getvalue()
    assert drawn.count("\r") >= 4 and drawn.endswith("\n")
    assert "4/4 [00:04<00:00,  1.00 pages/s]" in drawn


def test_the_services_count_their_work_without_knowing_tqdm():
    """Only the commands draw: the services take a cage.progress.Progress, quiet by default, so the
    window's import (if any) never prints."""
    for module in ("importer", "exporter", "backup", "backup_schedule", "progress"):
        assert "tqdm" not in (ROOT / "cage" / f"{module}.py").read_text()
