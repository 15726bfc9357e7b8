"""backup and restore: the whole database to one file and back, into a fresh SQLite file or a fresh
PostgreSQL database, with the same report and every slip as it was. Real processes, real files,
real pg_dump and pg_restore."""

import json
import subprocess
import sys
from pathlib import Path

from core.chain import grouped
from tests.conftest import EXAMPLES
from tests.databases import ROOT, environment, fresh_postgres, manage, sqlite_url, start
from tests.records_generator import generated_event

SLUG = "generated-fair"


def printed_state(url: str) -> dict:
    out = manage(url, "shell", "-c", f"from tests.cage.round_trip import print_state; print_state({SLUG!r})")
    return json.loads(out.strip().splitlines()[-1])


def an_event_with_logins(url: str, tmp_path: Path) -> None:
    data = generated_event(seed=21, days=2, records_per_day=30, leave_last_day_open=True)
    data["event"]["last_day"] = "2026-09-13"
    (tmp_path / "event.json").write_text(json.dumps(data))
    manage(url, "migrate", "-v0")
    manage(url, "import_records", str(tmp_path / "event.json"))
    manage(
        url,
        "shell",
        "-c",
        "from tests.cage.round_trip import add_window_work; add_window_work('generated-fair');"
        "from events import services; from events.models import Person;"
        "setup = services.login_create(person=Person.objects.get(code='ann'), username='ann', by=None);"
        "services.login_setup_complete(request=None, username='ann', code=setup.code,"
        " password='a-long-pass-2026', pin='2580')",
    )


def refused(url: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment(url), text=True, capture_output=True
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    return done.stderr


def check_restored(original: str, restored: str, backup: Path) -> None:
    before = printed_state(original)
    out = manage(restored, "restore", str(backup))
    assert out.startswith(f"Restored {backup} into ")
    assert printed_state(restored) == before
    report = manage(restored, "event_report", SLUG)
    assert json.loads(report) == before["report"]
    assert "Ledger holds" in manage(restored, "check_ledger")
    # The logins came back too: the backup is the whole database.
    check = (
        "from django.contrib.auth import authenticate; from django.test import RequestFactory;"
        "print(authenticate(RequestFactory().post('/login/'), username='ann', password='a-long-pass-2026'))"
    )
    assert manage(restored, "shell", "-c", check).strip().splitlines()[-1] == "ann"

    # The restored database now holds data: restoring over it is refused, unless forced.
    message = refused(restored, "restore", str(backup))
    assert "already holds data (1 event(s), 1 login(s)" in message and "--force" in message
    assert manage(restored, "restore", "--force", str(backup)).startswith("Restored")
    assert json.loads(manage(restored, "event_report", SLUG)) == before["report"]


def test_sqlite_backup_restores_into_a_fresh_file_with_the_same_report(tmp_path):
    original, restored = sqlite_url(tmp_path), sqlite_url(tmp_path)
    an_event_with_logins(original, tmp_path)
    backup = tmp_path / "cage-backup.sqlite3"
    assert manage(original, "backup", str(backup)).startswith("Backed up")
    check_restored(original, restored, backup)


def test_a_backup_never_overwrites_a_file_and_restore_refuses_what_is_not_a_backup(tmp_path):
    url = sqlite_url(tmp_path)
    manage(url, "migrate", "-v0")
    taken = tmp_path / "taken.sqlite3"
    taken.write_text("yesterday's backup")
    assert "already exists; a backup never overwrites a file" in refused(url, "backup", str(taken))
    assert taken.read_text() == "yesterday's backup"
    assert "is not a backup of this product's SQLite database" in refused(url, "restore", str(taken))
    assert "is not a file" in refused(url, "restore", str(tmp_path / "missing.sqlite3"))


SETUP = """
from tests.conftest import make_cast
from tests.cage.helpers import stock
stock(make_cast("cage"), chips={"1": 1000}, cash=0)
"""

WRITER = """
from cage import services
from events.models import Event, Person
event = Event.objects.get(slug="cage")
day = event.days.get()
people = {p.code: p for p in Person.objects.filter(event=event)}
for _ in range(150):
    services.sale(day=day, chips={"1": 1}, cash=100,
                  signed={"sold_by": people["chip_cashier"], "authorized_by": people["dric"]})
print("all sold")
"""

SERIALS = """
from cage.models import Slip
serials = sorted(Slip.objects.filter(slip_type="sale").values_list("serial", flat=True))
print(serials == list(range(1, len(serials) + 1)), len(serials))
"""


def test_a_sqlite_backup_taken_while_the_cage_writes_is_whole(tmp_path):
    """The online backup is a consistent snapshot: taken while another process posts sales, it
    restores to a ledger that holds, with gapless serials, and the writer never fails."""
    original, restored = sqlite_url(tmp_path), sqlite_url(tmp_path)
    manage(original, "migrate", "-v0")
    manage(original, "shell", "-c", SETUP)
    writer = start(original, "shell", "-c", WRITER)
    backup = tmp_path / "during.sqlite3"
    manage(original, "backup", str(backup))
    out, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
    assert "all sold" in out
    manage(restored, "restore", str(backup))
    assert "Ledger holds" in manage(restored, "check_ledger")
    gapless, _count = manage(restored, "shell", "-c", SERIALS).strip().splitlines()[-1].split()
    assert gapless == "True"


def test_postgresql_backup_restores_into_a_fresh_database_with_the_same_report(tmp_path):
    with fresh_postgres() as original, fresh_postgres() as restored:
        an_event_with_logins(original, tmp_path)
        backup = tmp_path / "cage-backup.pgdump"
        assert manage(original, "backup", str(backup)).startswith("Backed up")
        assert backup.read_bytes()[:5] == b"PGDMP"
        check_restored(original, restored, backup)


def test_postgresql_restore_into_an_empty_migrated_database(tmp_path):
    with fresh_postgres() as original, fresh_postgres() as restored:
        manage(original, "migrate", "-v0")
        manage(original, "import_records", str(EXAMPLES / "lakeside-one-day.json"))
        backup = tmp_path / "example.pgdump"
        manage(original, "backup", str(backup))
        manage(restored, "migrate", "-v0")  # tables, no data: still empty
        manage(restored, "restore", str(backup))
        report = json.loads(manage(restored, "event_report", "lakeside-fair-2026"))
        assert report == json.loads((EXAMPLES / "lakeside-one-day.report.json").read_text())


def test_a_restored_backup_older_than_a_seal_on_paper_is_recognised(tmp_path):
    """The same event kept in two databases: the cage's own, with both days closed and sealed, and
    a backup taken after the first close only. The seals printed on the signed paper tell them
    apart: the backup holds the first day sealed as signed, and lacks the second day's close."""
    data = generated_event(seed=22, days=2, records_per_day=20)
    (tmp_path / "both.json").write_text(json.dumps(data))
    (tmp_path / "first.json").write_text(json.dumps({**data, "days": data["days"][:1]}))
    cage, older = sqlite_url(tmp_path), sqlite_url(tmp_path)
    for url, name in ((cage, "both.json"), (older, "first.json")):
        manage(url, "migrate", "-v0")
        manage(url, "import_records", str(tmp_path / name))
    exported = json.loads(manage(cage, "export_records", SLUG))
    paper = {day["date"]: day["seal"] for day in exported["days"]}
    first, second = sorted(paper)
    said = [line for line in manage(cage, "check_ledger").splitlines() if "last sealed day" in line]
    assert said == [f"{SLUG}: last sealed day {second}, seal {grouped(paper[second])}"]

    backup = tmp_path / "older-backup.sqlite3"
    manage(older, "backup", str(backup))
    restored = sqlite_url(tmp_path)
    out = manage(restored, "restore", str(backup))
    assert f"{SLUG}: last sealed day {first}, seal {grouped(paper[first])}" in out
    said = manage(restored, "check_ledger", f"--seal={first}={paper[first]}")
    assert "Ledger holds" in said and f"The gaming day {first} is sealed as on its paper (its first 64 of 64" in said
    message = refused(
        restored, "check_ledger", f"--seal={first}={paper[first][:16]}", f"--seal={second}={paper[second]}"
    )
    assert f"the gaming day {second} is sealed on paper but not in this database: the database is older" in message
    # The cage's own database holds both days as signed.
    assert "Ledger holds" in manage(
        cage, "check_ledger", f"--seal={first}={paper[first]}", f"--seal={second}={paper[second]}"
    )
