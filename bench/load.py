"""The real server under load: gunicorn with several workers on 127.0.0.1, and cashiers' terminals
(threads, each with its own session) posting chip sales and fills through the slip forms for a
fixed time, as a browser does (login page, CSRF token, one-time request key; a fill carries the
runner's signing PIN, checked by the product's own hashers).

Reports requests per second, p50/p95/p99 latency of the slip POSTs and the errors, which must be
none (an answer other than the slip's page); then runs check_ledger.

Two kinds of run. At saturation (no pace) every terminal posts its next slip as soon as the last is
answered: the server's throughput, and latencies that are mostly queueing (with N terminals always
waiting, the mean latency is N / throughput, whatever a slip costs). At a cashier's pace each
terminal opens a slip form every `pace` seconds, as a busy window would (a real sale, with its cash
and chips counted, takes longer still): the latency a cashier sees when 16 windows work at once. The terminals and gunicorn are
tests/faults' (tests/faults/server.py), on a fresh database of each kind.
"""

import itertools
import os
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

import django

# The terminals are tests/faults', whose modules read the product's models: this process loads
# the apps (on no database of its own) before importing them; the server runs in its own processes.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "true")
# The bench asks for PostgreSQL itself (BENCH_DATABASES), whatever DATABASE_URL says: the suite's
# rule that a test of its own PostgreSQL database waits for the PostgreSQL pass
# (tests.databases.in_the_postgresql_pass_only) is not the bench's. Without this, `make bench`
# stopped at its first PostgreSQL load run with "Skipped: needs a PostgreSQL server".
os.environ.setdefault("ALL_DATABASES", "1")
django.setup()

from tests.conftest import PASSWORD, PIN  # noqa: E402
from tests.faults.harness import fresh_database  # noqa: E402
from tests.faults.server import Server, Terminal  # noqa: E402

SLUG = "bench-load"


# Every slip a different number of chips: the slip forms ask before recording a second slip of the
# same type and amount within a minute (cage.forms.SlipForm.confirm_second_slip), a double tap's
# guard; a terminal posting the same slip over and over would only be asked. One count a slip type,
# shared by the terminals, from 1 to DISTINCT and again: a run posts fewer slips of a type than that
# in a minute (at 55 slips/s, about 1,650 of each), started again by each run. The bank is stocked
# with four million $5 chips (STOCKS slips of a million, the most one slip may carry), which a run
# at twice that speed would not use up (about 2,000 slips of 1,500 chips on average).
DISTINCT = 3000
STOCKS = 4
_chips: dict = {}


def restart_counts() -> None:
    """Each run's slips from 1 again (the run's own bank)."""
    _chips.update(sale=itertools.count(), fill=itertools.count())


restart_counts()

SET_UP = (
    "from tests.faults.ledger_state import set_up; "
    f"set_up({SLUG!r}, chips={{'5': 1_000_000}}, stocks={STOCKS}, cash=100_000, trays={{'5': 20}}, "
    "logins=('chip_cashier', 'runner'))"
)


def distinct(slip_type: str, data: dict) -> dict:
    """The slip's form with a number of $5 chips no other slip of its type of the last minute has (a
    sale's cash to match)."""
    chips = 1 + next(_chips[slip_type]) % DISTINCT
    return {**data, "chips_5": str(chips), **({"cash": f"{5 * chips}.00"} if slip_type == "sale" else {})}


class Cashier(threading.Thread):
    def __init__(self, terminal: Terminal, ids: dict, until: float, number: int, pace: float | None = None):
        super().__init__(daemon=True)
        self.terminal, self.until, self.pace = terminal, until, pace
        # Paced terminals start spread over one pace, as windows do, not all in the same instant.
        self.next_at = time.monotonic() + (pace or 0) * random.Random(number).random()
        people = ids["people"]
        self.slips = [
            ("sale", {"chips_5": "2", "cash": "10.00", "tender": "cad_cash", "runner": "", "sign_sold_by": people["chip_cashier"]}),
            (
                "fill",
                {
                    "table": ids["tables"]["bj" if number % 2 else "wheel"],
                    "runner": people["runner"],
                    "chips_5": "4",
                    "sign_issued_by": people["chip_cashier"],
                    "sign_carried_by": people["runner"],
                    "pin_carried_by": PIN,
                },
            ),
        ]  # fmt: skip
        self.latencies: dict[str, list[float]] = {"sale": [], "fill": []}
        self.errors: list[str] = []

    def run(self):
        n = 0
        while time.monotonic() < self.until:
            if self.pace:
                time.sleep(max(0.0, self.next_at - time.monotonic()))
                self.next_at = max(time.monotonic(), self.next_at + self.pace)
                if time.monotonic() >= self.until:
                    break
            slip_type, data = self.slips[n % len(self.slips)]
            n += 1
            path = f"/cage/{SLUG}/slips/new/{slip_type}/"
            try:
                key, token = self.terminal.open_form(path)
                started = time.perf_counter()
                form = {**distinct(slip_type, data), **token, "request_key": key}
                status, headers, page = self.terminal.request("POST", path, form)
                elapsed = time.perf_counter() - started
            except Exception as exc:  # noqa: BLE001 - every failure is counted and shown, never hidden
                self.errors.append(f"{slip_type}: {exc!r}")
                continue
            if status == 302 and "/slips/" in (headers.get("Location") or ""):
                self.latencies[slip_type].append(elapsed)
            else:
                self.errors.append(f"{slip_type}: {status} {page[:300]}")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def load(
    vendor: str, directory: Path, *, cashiers: int, seconds: float, workers: int, pace: float | None = None
) -> dict:
    """`cashiers` terminals posting sales and fills for `seconds`, on a fresh database and server."""
    return load_runs(vendor, directory, [cashiers], seconds=seconds, workers=workers, pace=pace)[0]


def load_runs(
    vendor: str, directory: Path, cashiers: list[int], *, seconds: float, workers: int, pace: float | None = None
) -> list[dict]:
    """One run per number of terminals in `cashiers`, in turn, on one fresh database and one
    server (a comparison of 4 terminals beside 1 on the same server, started once)."""
    restart_counts()
    directory = Path(tempfile.mkdtemp(dir=directory))  # a SQLite file of its own for each run
    with fresh_database(vendor, directory, "bench_load") as database:
        ids = database.python(SET_UP)
        server = Server(database, directory / f"gunicorn-{vendor}-{'-'.join(map(str, cashiers))}.log", workers=workers)
        server.start()
        try:
            # Every worker warmed first (its imports, its first connection), so that the first run
            # measured is not the only one to pay for them.
            _drive(server, ids, max(cashiers), min(seconds, 1.0), pace)
            runs = [_drive(server, ids, n, seconds, pace) for n in cashiers]
        finally:
            server.stop()
        ledger = database.run("check_ledger").stdout.strip().splitlines()[-1]
    return [
        _figures(threads, elapsed, n, pace, workers, ledger)
        for n, (threads, elapsed) in zip(cashiers, runs, strict=True)
    ]


def _drive(server, ids: dict, cashiers: int, seconds: float, pace: float | None) -> tuple[list, float]:
    """`cashiers` terminals logged in and posting until `seconds` have passed: (their threads, the
    seconds they ran)."""
    terminals = []
    for _ in range(cashiers):
        terminal = Terminal(server)
        terminal.log_in(ids["usernames"]["chip_cashier"], PASSWORD)
        terminals.append(terminal)
    until = time.monotonic() + seconds
    threads = [Cashier(t, ids, until, i, pace) for i, t in enumerate(terminals)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return threads, time.perf_counter() - started


def _figures(threads, elapsed: float, cashiers: int, pace: float | None, workers: int, ledger: str) -> dict:
    sales = [x for t in threads for x in t.latencies["sale"]]
    fills = [x for t in threads for x in t.latencies["fill"]]
    errors = [e for t in threads for e in t.errors]
    return {
        "cashiers": cashiers,
        "pace": pace,
        "workers": workers,
        "slips_per_second": (len(sales) + len(fills)) / elapsed,
        "sale_ms": {p: percentile(sales, p) * 1000 for p in (50, 95, 99)},
        "fill_ms": {p: percentile(fills, p) * 1000 for p in (50, 95, 99)},
        "sale_mean_ms": statistics.fmean(sales) * 1000 if sales else float("nan"),
        "errors": errors,
        "ledger": ledger,
    }
