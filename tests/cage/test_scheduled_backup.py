"""scheduled_backup, which the timer runs every ten minutes: a copy when one is due (a day open and
the newest copy an hour old; a day closed after the newest copy), checked as it would be restored
(check_ledger in another process on the copy itself, or on PostgreSQL in a scratch database it is
restored into), a damaged copy set aside as .failed and the command failing, the oldest good copies
pruned, and a missing folder (a USB stick unplugged) refused with nothing changed. Real backups and
real checks, on the suite's own database (SQLite, or PostgreSQL in its pass)."""

import datetime
import io
import re
import sqlite3
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from cage import backup_schedule
from cage.backup import backup
from tests.cage.helpers import close_clean_day, stock
from tests.conftest import make_cast
from tests.databases import ROOT, environment

# The copies are written by another connection (pg_dump) or read by another process: what they
# copy must be committed.
pytestmark = pytest.mark.django_db(transaction=True)

EXTENSION = {"sqlite": "sqlite3", "postgresql": "pgdump"}


def scheduled(folder, *args: str) -> str:
    out = io.StringIO()
    call_command("scheduled_backup", "--to", str(folder), "--no-progress", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def ours(folder) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def named(moment: datetime.datetime, suffix: str = "") -> str:
    """The name a copy begun at `moment` has."""
    stamp = timezone.localtime(moment).strftime("%Y%m%d-%H%M%S")
    return f"cage-{stamp}.{EXTENSION[connection.vendor]}{suffix}"


def an_old_copy(folder, minutes_ago: int) -> str:
    """A copy's name only: the command decides and prunes by names and never reads old copies."""
    name = named(timezone.now() - datetime.timedelta(minutes=minutes_ago))
    (folder / name).write_text("an older copy")
    return name


def test_an_open_day_with_no_copy_yet_takes_one_checks_it_and_then_waits_an_hour(tmp_path):
    stock(make_cast())
    out = scheduled(tmp_path)
    (copy,) = tmp_path.iterdir()
    assert re.fullmatch(rf"cage-\d{{8}}-\d{{6}}\.{EXTENSION[connection.vendor]}", copy.name)
    assert out == (
        f"Backup taken, {copy}: the gaming day 2026-09-11 of Lakeside Fall Fair Casino is open and {tmp_path} holds no "
        "copy yet. Checked as it would be restored: its ledger holds.\n"
    )
    assert copy.stat().st_mode & 0o777 == 0o600  # it holds every login's password hash

    out = scheduled(tmp_path)
    assert out.startswith(
        f"No backup taken: the gaming day 2026-09-11 of Lakeside Fall Fair Casino is open, but the newest copy ({copy.name}) "
        "is only 0 minute(s) old: one is taken each hour while a day is open."
    )
    assert ours(tmp_path) == [copy.name]


def test_whether_a_copy_is_due_while_a_day_is_open(tmp_path, db):
    make_cast()
    now = timezone.now()

    def due(minutes: int) -> bool:
        taken = (now - datetime.timedelta(minutes=minutes)).replace(microsecond=0)
        return backup_schedule.decide(backup_schedule.Copy(taken, 1, tmp_path / "x"), now, tmp_path)[0]

    assert (due(0), due(59), due(60), due(600)) == (False, False, True, True)
    _due, reason = backup_schedule.decide(
        backup_schedule.Copy(now + datetime.timedelta(hours=2), 1, tmp_path), now, tmp_path
    )
    assert _due and reason.endswith("is dated after now: was the clock changed?")


def test_no_day_open_and_none_closed_takes_no_copy_and_says_why(tmp_path):
    make_cast(open_day=False)
    assert scheduled(tmp_path) == "No backup taken: no gaming day is open and none has closed yet.\n"
    assert ours(tmp_path) == []
    old = an_old_copy(tmp_path, 600)
    assert scheduled(tmp_path) == (
        f"No backup taken: no gaming day is open and none has closed since the newest copy ({old}).\n"
    )
    assert ours(tmp_path) == [old]


def test_a_day_closed_after_the_newest_copy_takes_one_and_then_no_more(tmp_path):
    cast = make_cast()
    old = an_old_copy(tmp_path, 5)  # taken while the day was open, minutes before it closed
    close_clean_day(cast)
    out = scheduled(tmp_path)
    assert re.match(
        rf"Backup taken, .*: the gaming day 2026-09-11 of Lakeside Fall Fair Casino closed at [0-9-]+ [0-9:]+, after the "
        rf"newest copy \({re.escape(old)}\)\. Checked as it would be restored: its ledger holds\.",
        out,
    ), out
    # A name says the second a copy began, not what came first within it: a copy begun in the very
    # second the day closed is taken again at the next run, one copy too many rather than a close
    # missed. A copy begun in a later second is the close's.
    sealed_at = cast.day.seal.sealed_at
    second = sealed_at.replace(microsecond=0)
    now = sealed_at + datetime.timedelta(minutes=10)
    after = backup_schedule.Copy(second + datetime.timedelta(seconds=1), 1, tmp_path / "after")
    assert backup_schedule.decide(after, now, tmp_path) == (
        False,
        "no gaming day is open and none has closed since the newest copy (after)",
    )
    assert backup_schedule.decide(backup_schedule.Copy(second, 1, tmp_path / "same"), now, tmp_path)[0]


def test_once_the_newest_is_an_hour_old_a_copy_is_taken_and_the_oldest_beyond_keep_removed(tmp_path):
    make_cast()
    old = [an_old_copy(tmp_path, hours * 60) for hours in (10, 9, 8, 7, 6)]
    failed = named(timezone.now() - datetime.timedelta(hours=11), ".failed")
    (tmp_path / failed).write_text("a copy that failed its check, kept for whoever looks into it")
    (tmp_path / "notes.txt").write_text("not ours")
    out = scheduled(tmp_path, "--keep", "3")
    assert f"is open and the newest copy ({old[4]}) is 360 minute(s) old. Checked" in out
    assert f"Removed 3 older copy(ies), keeping the newest 3: {old[0]}, {old[1]}, {old[2]}" in out
    left = ours(tmp_path)
    assert {old[3], old[4], failed, "notes.txt"} <= set(left) and len(left) == 5


def damage(path) -> None:
    """What a failing stick or a cut cable may leave: SQLite's schema page overwritten, or half a
    pg_dump."""
    content = path.read_bytes()
    if content.startswith(b"SQLite format 3"):
        path.write_bytes(content[:100] + b"\xff" * 3996 + content[4096:])
    else:
        path.write_bytes(content[: len(content) // 2])


def test_a_copy_damaged_before_its_check_is_set_aside_and_the_command_fails(tmp_path, monkeypatch):
    make_cast()
    good = an_old_copy(tmp_path, 120)
    checked = backup_schedule.check_copy

    def damaged_then_checked(path):
        damage(path)
        return checked(path)

    monkeypatch.setattr(backup_schedule, "check_copy", damaged_then_checked)
    with pytest.raises(CommandError) as refused:
        scheduled(tmp_path, "--keep", "1")
    (failed,) = [name for name in ours(tmp_path) if name.endswith(".failed")]
    assert str(refused.value).startswith(
        f"The copy failed its check and was renamed {tmp_path / failed}; it does not count among the copies kept. "
        "What the check found: "
    )
    assert refused.value.returncode == 1
    # Nothing was pruned for it, and the next run does not take it for the newest copy.
    assert ours(tmp_path) == sorted([good, failed])
    monkeypatch.setattr(backup_schedule, "check_copy", checked)
    assert f"newest copy ({good}) is 120 minute(s) old" in scheduled(tmp_path, "--keep", "1")
    assert failed in ours(tmp_path) and good not in ours(tmp_path)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="a SQLite copy tampered with; the damaged one covers both")
def test_the_check_finds_a_copy_whose_ledger_was_changed_below_the_database_rules(tmp_path):
    """A copy that SQLite reads well but whose ledger does not hold (a posting rewritten with its
    guard lifted) fails the check: the ledger check, not just SQLite's own, is run on it."""
    stock(make_cast())
    copy = tmp_path / "copy.sqlite3"
    backup(copy)
    assert backup_schedule.check_copy(copy) == []
    with sqlite3.connect(copy) as tampered:
        for (trigger,) in tampered.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
            tampered.execute(f'DROP TRIGGER "{trigger}"')
        tampered.execute("UPDATE cage_posting SET amount = amount + 100 WHERE id = (SELECT MIN(id) FROM cage_posting)")
    problems = backup_schedule.check_copy(copy)
    assert problems and any("break(s) in the ledger" in line for line in problems), problems


def test_a_missing_folder_is_refused_naming_it_with_nothing_changed(tmp_path):
    make_cast()
    unplugged = tmp_path / "usb-stick"
    with pytest.raises(CommandError) as refused:
        scheduled(unplugged)
    assert str(refused.value) == (
        f"{unplugged} does not exist: is the USB stick plugged in and mounted? No backup was taken."
    )
    assert refused.value.returncode == 1
    assert not unplugged.exists()
    (tmp_path / "a-file").write_text("")
    with pytest.raises(CommandError, match="a-file is not a folder. No backup was taken."):
        scheduled(tmp_path / "a-file")
    with pytest.raises(CommandError, match="is not a number of copies"):
        scheduled(tmp_path, "--keep", "0")
    assert ours(tmp_path) == ["a-file"]


def test_systemd_sees_exit_code_1_and_the_message_when_the_stick_is_unplugged(tmp_path):
    database = tmp_path / "cage.sqlite3"
    done = subprocess.run(
        [sys.executable, "manage.py", "scheduled_backup", "--to", str(tmp_path / "usb"), "--keep", "48"],
        cwd=ROOT,
        env=environment(f"sqlite:///{database}"),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert f"{tmp_path / 'usb'} does not exist: is the USB stick plugged in and mounted?" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert not database.exists()  # not even the database was opened


def test_a_new_copy_never_takes_a_name_already_used(tmp_path):
    now = timezone.now()
    first = backup_schedule.new_copy_path(tmp_path, now)
    (tmp_path / (first.name + ".failed")).write_text("")
    second = backup_schedule.new_copy_path(tmp_path, now)
    (tmp_path / (second.name + ".partial")).write_text("")
    third = backup_schedule.new_copy_path(tmp_path, now)
    stem = first.name.split(".")[0]
    assert (second.name.split(".")[0], third.name.split(".")[0]) == (f"{stem}-2", f"{stem}-3")
    third.write_text("")
    assert [c.path for c in backup_schedule.copies(tmp_path)] == [third]  # only a finished, good one counts
