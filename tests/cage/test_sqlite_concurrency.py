"""On SQLite, two processes posting at once queue (immediate transactions) instead of failing,
and serials stay in order with no gaps. Real processes on a real database file."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SETUP = """
from tests.conftest import make_cast
from tests.cage.helpers import stock
cast = make_cast("queue")
stock(cast, chips={"1": 1000}, cash=0)
"""

WORKER = """
from cage import services
from events.models import Event, Person
event = Event.objects.get(slug="queue")
day = event.days.get()
people = {p.code: p for p in Person.objects.filter(event=event)}
for _ in range(50):
    services.sale(day=day, chips={"1": 2}, cash=200,
                  signed={"sold_by": people["chip_cashier"], "authorized_by": people["dric"]})
"""

CHECK = """
from cage.models import Slip
print(sorted(Slip.objects.filter(slip_type="sale").values_list("serial", flat=True)))
"""


def manage(db: Path, *args, **kwargs):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "PYTHONPATH": str(ROOT)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kwargs,
    )


def run(db, *args):
    process = manage(db, *args)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    return out


def test_two_cashiers_posting_at_once_both_get_through_with_gapless_serials(tmp_path):
    db = tmp_path / "cage.sqlite3"
    run(db, "migrate", "-v0")
    run(db, "shell", "-c", SETUP)
    workers = [manage(db, "shell", "-c", WORKER) for _ in range(2)]
    for worker in workers:
        _, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err  # neither failed with "database is locked"
    assert run(db, "shell", "-c", CHECK).strip().splitlines()[-1] == str(list(range(1, 101)))
    journal = run(
        db,
        "shell",
        "-c",
        "from django.db import connection; c = connection.cursor(); "
        "c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])",
    )
    assert journal.strip().splitlines()[-1] == "wal"
