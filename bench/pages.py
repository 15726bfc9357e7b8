"""The pages beside the smallest page of the same server (issue 25): each page's median time over
the median time of an anonymous GET /login/, both fetched in the same process, in turn, in the same
run, so that a busy or a quiet machine moves both alike. Printed as they come, with their shape and
the machine's load average, and appended to the bench's results file.

- At the window: a chip sale POST (target at most 3x), a co-signed fill POST (the runner's signing
  PIN checked by the product's own hashers; at most 4x), the cage home (at most 6x) and the DRIC's
  queue (at most 4x), each with few and with many sales waiting for the DRIC's witness; and both
  again with few waiting on a season's day (thousands of slips signed in full before them).
- By the size of the event: a day's sheets page (the last day), the register sorted by amount, the
  voids, the audit trail, the cage home and the DRIC's queue, on a short and on a long event (generated records files of the same
  shape, imported): the same for a day of the same size, so the long one's ratio should match.
- Through the real server: gunicorn with 4 workers, 4 cashiers' terminals posting sales and fills
  beside 1 (bench/load.py): slips per second and the sale's median time, 4 over 1.

`python -m bench.pages probe MODE` is the measuring process (on the database DATABASE_URL names,
migrated), printing one JSON line per measurement; `run(mode, results)` starts it on a fresh SQLite
database and writes its lines out, then runs the terminals. MODE: full (`make bench`), quick
(`make bench QUICK=1`: smaller shapes, a minute or two) or tiny (the smoke test, tests/test_bench.py).
"""

import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent

MODES = {
    "full": {
        "repeats": 15,
        "days": (20, 200),
        "records_per_day": 40,
        "waiting": (10, 750),
        "signed_day": 5000,
        "load_seconds": 10,
    },
    "quick": {
        "repeats": 7,
        "days": (5, 50),
        "records_per_day": 20,
        "waiting": (10, 100),
        "signed_day": 1000,
        "load_seconds": 3,
    },
    "tiny": {
        "repeats": 3,
        "days": (2, 4),
        "records_per_day": 10,
        "waiting": (3, 6),
        "signed_day": 20,
        "load_seconds": 1,
    },
}
# The targets, as ratios to GET /login/ (issue 25); the pages by event size have none of
# their own: the long event's ratio should be the short one's.
TARGETS = {"chip sale POST": 3, "co-signed fill POST": 4, "cage home": 6, "DRIC's queue": 4}
WINDOW = "bench-window"


def load_average() -> str:
    return " ".join(f"{n:.2f}" for n in os.getloadavg())


# --- the measuring process ------------------------------------------------------------------------


def _now() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _since(started: tuple[float, float]) -> tuple[float, float]:
    return tuple(now - then for now, then in zip(_now(), started, strict=True))


def _medians(samples: list[tuple]) -> tuple:
    return tuple(statistics.median(column) for column in zip(*samples, strict=True))


def _emit(**record) -> None:
    print(json.dumps(record), flush=True)


class _Timer:
    """Medians of a page and of GET /login/, fetched in turn (login, page, login, page, ...)."""

    def __init__(self, repeats: int):
        from django.test import Client

        self.repeats = repeats
        self.anonymous = Client(SERVER_NAME="127.0.0.1")
        self.anonymous.get("/login/")  # warm

    def login_once(self) -> float:
        started = _now()
        response = self.anonymous.get("/login/")
        elapsed = _since(started)
        assert response.status_code == 200, response.status_code
        return elapsed

    def compare(self, fetch, times: int | None = None) -> tuple[tuple, tuple, object]:
        """(page medians, login medians, last response), each median (wall s, CPU s); `fetch()`
        returns ((wall s, CPU s), response)."""
        pages, logins, response = [], [], None
        for _ in range(times or self.repeats):
            logins.append(self.login_once())
            seconds, response = fetch()
            pages.append(seconds)
        return _medians(pages), _medians(logins), response


def _get(client, url):
    def fetch():
        started = _now()
        response = client.get(url)
        seconds = _since(started)
        assert response.status_code == 200, (url, response.status_code)
        return seconds, response

    return fetch


def _record(name, shape, page_s, login_s, response, target=None, queries=None) -> None:
    _emit(
        page=name,
        shape=shape,
        ms=page_s[0] * 1000,
        login_ms=login_s[0] * 1000,
        ratio=page_s[0] / login_s[0],
        # The same in this process's CPU time (SQLite's work included): steadier on a busy machine.
        cpu_ratio=page_s[1] / login_s[1] if login_s[1] else None,
        target=target,
        kilobytes=len(response.content) / 1024,
        queries=queries,
        load=load_average(),
    )


def _queries(client, url) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    return len(ctx.captured_queries)


def _slip_poster(client, slip_type: str, data: dict):
    """A fetch that opens the slip form (its one-time request key, not timed) and times the POST, each
    slip of a number of chips of its own (bench.load.distinct)."""
    from bench.load import distinct

    path = f"/cage/{WINDOW}/slips/new/{slip_type}/"

    def fetch():
        form = client.get(path)
        key = re.search(r'name="request_key" value="([^"]*)"', form.content.decode()).group(1)
        # Sent as a browser sends the slip form (no file in it: form-urlencoded), not as the test
        # client's default multipart body, whose parsing no terminal asks of the server.
        body = urlencode({**distinct(slip_type, data), "request_key": key})
        started = _now()
        response = client.post(path, body, content_type="application/x-www-form-urlencoded")
        seconds = _since(started)
        if response.status_code != 302 or "/slips/" not in response["Location"]:
            errors = re.findall(r'class="[^"]*error[^"]*"[^>]*>(.*?)</', response.content.decode(), re.S)
            raise SystemExit(f"{slip_type}: {response.status_code} {errors[:5]}")
        return seconds, response

    return fetch


def _open_day(slug: str, logins: tuple) -> tuple[dict, object, object]:
    """An event of `slug` on an open day with the standard cast (tests/faults), its bank stocked and
    both tables open: (the ids set_up printed, the Chip Cashier's client, the DRIC's client)."""
    import contextlib
    import io

    from django.contrib.auth import get_user_model
    from django.test import Client

    from tests.faults.ledger_state import set_up

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        set_up(slug, chips={"5": 1_000_000}, cash=100_000, trays={"5": 20}, logins=logins)
    ids = json.loads(out.getvalue().strip().splitlines()[-1])
    users = get_user_model().objects
    cashier, dric = Client(SERVER_NAME="127.0.0.1"), Client(SERVER_NAME="127.0.0.1")
    cashier.force_login(users.get(username=ids["usernames"]["chip_cashier"]))
    dric.force_login(users.get(username=ids["usernames"]["dric"]))
    return ids, cashier, dric


def _window(settings: dict, timer: _Timer) -> None:
    """The window's slips and pages, on an open day with the standard cast (tests/faults)."""
    from django.urls import reverse

    from tests.conftest import PIN

    ids, cashier, dric = _open_day(WINDOW, ("chip_cashier", "runner"))
    people = ids["people"]
    sale = {"chips_5": "2", "cash": "10.00", "tender": "cad_cash", "runner": "", "sign_sold_by": people["chip_cashier"]}
    fill = {
        "table": ids["tables"]["bj"],
        "runner": people["runner"],
        "chips_5": "4",
        "sign_issued_by": people["chip_cashier"],
        "sign_carried_by": people["runner"],
        "pin_carried_by": PIN,
    }
    few, many = settings["waiting"]
    page_s, login_s, response = timer.compare(_slip_poster(cashier, "sale", sale), times=max(few, 1))
    _record(
        "chip sale POST",
        "a sale of $5 chips (a number of its own), sold by the CC",
        page_s,
        login_s,
        response,
        TARGETS["chip sale POST"],
    )
    home, queue = reverse("cage:home", args=[WINDOW]), reverse("cage:queue", args=[WINDOW])
    for waiting in (few, many):
        post = _slip_poster(cashier, "sale", sale)
        for _ in range(waiting - few if waiting == many else 0):
            post()
        shape = f"{waiting} sales waiting for the DRIC"
        cashier.get(home)
        _record("cage home", shape, *timer.compare(_get(cashier, home)), TARGETS["cage home"], _queries(cashier, home))
        dric.get(queue)
        _record(
            "DRIC's queue", shape, *timer.compare(_get(dric, queue)), TARGETS["DRIC's queue"], _queries(dric, queue)
        )
    page_s, login_s, response = timer.compare(_slip_poster(cashier, "fill", fill))
    _record(
        "co-signed fill POST",
        "a fill of $5 chips to BJ, carried by the runner with her signing PIN",
        page_s,
        login_s,
        response,
        TARGETS["co-signed fill POST"],
    )


def _busy_day(settings: dict, timer: _Timer) -> None:
    """The cage home and the DRIC's queue on a season's day: as many sales signed in full as the
    day already holds (`signed_day`, written through the services), and a few waiting at the
    window. What grows with the day's slips, not with those waiting, shows here."""
    from django.urls import reverse

    from cage import services
    from events.models import GamingDay, Person

    slug = f"{WINDOW}-day"
    ids, cashier, dric = _open_day(slug, ("chip_cashier",))
    people = {p: Person.objects.get(pk=pk) for p, pk in ids["people"].items()}
    day = GamingDay.objects.get(event__slug=slug, status=GamingDay.Status.OPEN)
    signed = {"sold_by": people["chip_cashier"], "authorized_by": people["dric"]}
    for _ in range(settings["signed_day"]):
        services.sale(day=day, chips={"5": 2}, cash=1000, signed=signed)
    few = settings["waiting"][0]
    for _ in range(few):
        services.sale(
            day=day, chips={"5": 2}, cash=1000, signed={"sold_by": people["chip_cashier"]}, allow_pending=True
        )
    shape = f"{few} sales waiting among {settings['signed_day']:,} signed in full that day"
    home, queue = reverse("cage:home", args=[slug]), reverse("cage:queue", args=[slug])
    cashier.get(home)
    _record("cage home", shape, *timer.compare(_get(cashier, home)), TARGETS["cage home"], _queries(cashier, home))
    dric.get(queue)
    _record("DRIC's queue", shape, *timer.compare(_get(dric, queue)), TARGETS["DRIC's queue"], _queries(dric, queue))


def _event_pages(settings: dict, timer: _Timer) -> None:
    """A day's sheets, the register by amount, the voids, the audit trail, the cage home and the
    DRIC's queue on a short and a long event of the same shape of day."""
    from django.test import Client
    from django.urls import reverse

    from bench.probe import dric_login
    from cage.importer import import_records
    from tests.records_generator import generated_event

    for days in settings["days"]:
        data = generated_event(seed=2026, days=days, records_per_day=settings["records_per_day"], tables=5)
        slug = data["event"]["slug"] = f"bench-pages-{days}"
        event = import_records(data)
        client = Client(SERVER_NAME="127.0.0.1")
        client.force_login(dric_login(event))
        last = event.days.order_by("-date").last()
        shape = f"{days} days x {settings['records_per_day']} records, 5 tables"
        for name, url in {
            "day's sheets (last day)": reverse("reports:day", args=[slug, last.date.isoformat()]),
            "register by amount": reverse("cage:register", args=[slug]) + "?sort=-amount",
            "a day's register by amount": reverse("cage:register", args=[slug]) + f"?sort=-amount&day={last.pk}",
            "voids": reverse("cage:voids", args=[slug]),
            "a day's voids": reverse("cage:voids", args=[slug]) + f"?day={last.pk}",
            "audit trail": reverse("audit:event", args=[slug]),
            # Every day closed: what the window asks of the days not closed must not read the rest.
            "cage home": reverse("cage:home", args=[slug]),
            "DRIC's queue": reverse("cage:queue", args=[slug]),
        }.items():
            client.get(url)  # warm
            _record(name, shape, *timer.compare(_get(client, url)), queries=_queries(client, url))


def probe(mode: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    django.setup()
    settings = MODES[mode]
    timer = _Timer(settings["repeats"])
    _window(settings, timer)
    _busy_day(settings, timer)
    _event_pages(settings, timer)


# --- the bench's side ------------------------------------------------------------------------------


class Results:
    """Lines printed as they come and appended to the results file (None: printed only)."""

    def __init__(self, path: Path | None):
        self.path = path
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)  # BENCH_RESULTS may name a new directory

    def line(self, text: str = "") -> None:
        print(text, flush=True)
        if self.path is not None:
            with self.path.open("a") as out:
                out.write(text + "\n")


def _line(r: dict) -> str:
    target = f" (target at most {r['target']}x)" if r.get("target") else ""
    queries = f", {r['queries']} queries" if r.get("queries") is not None else ""
    cpu = f"{r['cpu_ratio']:.1f}x" if r.get("cpu_ratio") else "n/a"
    return (
        f"| {r['page']} | {r['shape']} | {r['ratio']:.1f}x{target} | {cpu} | {r['ms']:.1f} | {r['login_ms']:.1f} "
        f"| {r['kilobytes']:.0f}{queries} | {r['load']} |"
    )


# The pages as the fair's server serves them: DEBUG off (no template debugging, no query log), a key
# of the run's own; plain http, as the test client speaks it.
PRODUCTION = {"DEBUG": "false", "HTTPS": "false", "SECRET_KEY": secrets.token_urlsafe(50)}


def _measured(mode: str, results: Results, directory: Path) -> list[dict]:
    url = f"sqlite:///{directory / 'pages.sqlite3'}"
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT), **PRODUCTION}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    records = []
    with (directory / "pages.err").open("w") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "bench.pages", "probe", mode],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
        for text in process.stdout:
            record = json.loads(text)
            records.append(record)
            results.line(_line(record))
        if process.wait() != 0:
            raise SystemExit(f"bench.pages probe failed:\n{(directory / 'pages.err').read_text()[-3000:]}")
    return records


def _growth(records: list[dict], results: Results) -> None:
    """Each page by event size: the long event's ratio over the short one's (1.0: no growth)."""
    by_page: dict[str, list[dict]] = {}
    for r in records:
        if r["shape"].endswith("5 tables"):
            by_page.setdefault(r["page"], []).append(r)
    results.line()
    for page, (short, long) in ((p, rs) for p, rs in by_page.items() if len(rs) == 2):
        results.line(
            f"- {page}: {long['ratio'] / short['ratio']:.2f}x from {short['shape']} to {long['shape']} "
            f"(ratios to login {short['ratio']:.1f}x and {long['ratio']:.1f}x; in CPU time "
            f"{(long['cpu_ratio'] or 0) / (short['cpu_ratio'] or 1):.2f}x); load {long['load']}"
        )


def _terminals(mode: str, results: Results, directory: Path) -> dict:
    """4 terminals beside 1 through gunicorn (4 workers), posting sales and fills (bench/load.py),
    on one server started once."""
    from bench.load import load_runs

    seconds = MODES[mode]["load_seconds"]
    one, four = load_runs("sqlite", directory, [1, 4], seconds=seconds, workers=4)
    ratio = {
        "throughput": four["slips_per_second"] / one["slips_per_second"],
        "sale_p50": four["sale_ms"][50] / one["sale_ms"][50],
        "errors": len(one["errors"]) + len(four["errors"]),
    }
    results.line()
    results.line(
        f"- gunicorn, 4 workers, SQLite, {seconds:g} s each: 4 terminals beside 1: "
        f"{ratio['throughput']:.2f}x the slips per second ({one['slips_per_second']:.1f} -> "
        f"{four['slips_per_second']:.1f}), {ratio['sale_p50']:.2f}x the sale's median time "
        f"({one['sale_ms'][50]:.0f} -> {four['sale_ms'][50]:.0f} ms); {ratio['errors']} errors; load {load_average()}"
    )
    return ratio


def run(mode: str, results: Results) -> dict:
    """The pages part of the bench; {"pages": [records], "terminals": ratios}."""
    results.line()
    results.line(
        f"## Pages beside GET /login/ ({mode} mode; medians of {MODES[mode]['repeats']}, in turn with the login page;"
        f" in-process through Django's test client, DEBUG off; {os.cpu_count()} CPU(s), load {load_average()})"
    )
    results.line()
    results.line("| page | shape | ratio to login | CPU ratio | page ms | login ms | KB, queries | load average |")
    results.line("|---|---|---:|---:|---:|---:|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        records = _measured(mode, results, Path(tmp))
        _growth(records, results)
        terminals = _terminals(mode, results, Path(tmp))
    return {"pages": records, "terminals": terminals}


if __name__ == "__main__":
    probe(sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "probe" else "tiny")
