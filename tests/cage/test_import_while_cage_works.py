"""A long import does not stop the cage: while one process imports a large generated event,
another posts slips through the services against the same database, and every slip goes through.

The import checks the whole file in a scratch database and writes it in one short transaction
(cage.staging); on SQLite the cashier's slip queues behind that write (WAL, immediate
transactions, a busy timeout far longer than the write) instead of failing "database is locked".
Real processes on a real SQLite file, and on a fresh PostgreSQL database.
"""

import json

from tests.databases import fresh_postgres, manage, sqlite_url, start
from tests.records_generator import generated_event, record_count

SETUP = """
from tests.conftest import make_cast
from tests.cage.helpers import stock
stock(make_cast("cage"), chips={"1": 100000}, cash=0)
"""

# A cashier selling chips at a realistic, if busy, pace until told to stop. Any refusal or
# "database is locked" ends the process with a traceback.
CASHIER = """
import time
from pathlib import Path
from cage import services
from events.models import Event, Person
event = Event.objects.get(slug="cage")
day = event.days.get()
people = {{p.code: p for p in Person.objects.filter(event=event)}}
during = after = 0
while not Path({stop!r}).exists():
    importing = not Event.objects.filter(slug="generated-fair").exists()
    services.sale(day=day, chips={{"1": 1}}, cash=100,
                  signed={{"sold_by": people["chip_cashier"], "authorized_by": people["dric"]}})
    if importing:
        during += 1
    else:
        after += 1
    time.sleep(0.05)
print(during, after)
"""

CHECK = """
import json
from cage.models import Slip
serials = sorted(Slip.objects.filter(event__slug="cage", slip_type="sale").values_list("serial", flat=True))
print(json.dumps({"serials": serials, "imported": Slip.objects.filter(event__slug="generated-fair").count()}))
"""


def import_while_selling(url: str, tmp_path, data: dict) -> None:
    manage(url, "migrate", "-v0")
    manage(url, "shell", "-c", SETUP)
    path = tmp_path / "large.json"
    path.write_text(json.dumps(data))
    stop = tmp_path / "stop"
    cashier = start(url, "shell", "-c", CASHIER.format(stop=str(stop)))
    importer = start(url, "import_records", str(path))
    out, err = importer.communicate(timeout=1800)
    assert importer.returncode == 0, err
    stop.touch()
    sold, err = cashier.communicate(timeout=600)
    assert cashier.returncode == 0, err  # not one slip refused or "database is locked"
    during, after = map(int, sold.strip().splitlines()[-1].split())
    assert during > 0  # the cashier was selling while the import ran

    result = json.loads(manage(url, "shell", "-c", CHECK).strip().splitlines()[-1])
    # Every slip the cashier was told went through is there, once, with no gap in the serials.
    assert result["serials"] == list(range(1, during + after + 1))
    assert result["imported"] == record_count(data)
    assert "Ledger holds for 2 event(s)" in manage(url, "check_ledger")


def test_a_large_import_on_sqlite_leaves_every_cashier_slip_through(tmp_path):
    # About 4,000 records: the size that used to hold SQLite's write lock past the busy timeout.
    data = generated_event(seed=31, days=4, records_per_day=1000)
    assert record_count(data) > 3900
    import_while_selling(sqlite_url(tmp_path), tmp_path, data)


def test_a_large_import_on_postgresql_leaves_every_cashier_slip_through(tmp_path):
    with fresh_postgres() as url:
        import_while_selling(url, tmp_path, generated_event(seed=32, days=2, records_per_day=600))
