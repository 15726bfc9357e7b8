"""`make bench`: import, reports, the nightly close and the busiest pages, timed on SQLite and
PostgreSQL for three generated events, each beside its floor, every figure appended to the results
file as soon as it is measured.

Every product figure is a whole `manage.py` process (start-up included, as a cashier's or an
auditor's command would pay it) or, for the close and the pages, a measurement inside one process
(bench/probe.py). Peak memory is the process's maximum resident set. The floor (bench/floor.py)
writes the same slips and postings with plain executemany and sums them with one GROUP BY. On
PostgreSQL the peer (bench/peer) posts the same legs through django-hordak, in its own environment.

Then the real server: gunicorn with 4 workers on a fresh database of each kind, and 1, 4 and 16
cashiers' terminals posting sales and fills for BENCH_LOAD_SECONDS (20) seconds (bench/load.py), as
fast as the server answers, then 16 at a cashier's pace (a slip every BENCH_PACE, 2, seconds each):
slips per second, latency percentiles, errors (there must be none), then check_ledger.

Sizes (sizes()): a small fair = 60 days x 12 tables x 70 records a day; a season = 18 days x 40
tables x 5,000 records a day (about 88,000 records; BENCH_LARGE="days,tables,records_per_day" sets
another); a long event = 200 days x 5 tables x 20 records a day, for its event report's PDF.
BENCH_DATABASES="sqlite" or "postgres" runs one database only; PG_URL names the server.

Last, the pages beside the smallest page of the same server (bench/pages.py): the window's slips and
pages, a day's sheets, the register, the voids and the audit trail by the size of the event, and 4
terminals beside 1 through gunicorn. `--quick` (`make bench QUICK=1`) runs that part alone, smaller;
`--tiny` is the smoke test's (tests/test_bench.py): every step once, on a tiny event, on SQLite.

The results go to bench/results/<date>.md (BENCH_RESULTS: another directory), each line as it is
measured, to be committed: these machines are noisy, so the ratios (product / floor) are what to
compare from one run to the next.
"""

import datetime
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import floor, peer  # noqa: E402
from bench.pages import load_average  # noqa: E402
from tests.records_generator import generated_event, record_count  # noqa: E402

# Seconds between one cashier's slips in the paced run (BENCH_PACE): a window that sells, fills and
# credits without a pause between patrons; a real sale, cash and chips counted, takes longer.
PACE = float(os.environ.get("BENCH_PACE", "2"))
PG_SERVER = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432/postgres").rsplit("/", 1)[0] + "/postgres"


def sizes(mode: str = "full") -> dict:
    """The events measured: a small fair (60 days x 12 tables x about 70 records a day), a season
    (BENCH_LARGE, 18 days x 40 tables x 5,000 records a day) and a long event (200 days, whose
    event report's PDF must take at most 5 s); tiny ones for the smoke test."""
    if mode == "tiny":
        return {"small fair": {"days": 2, "tables": 3, "records_per_day": 10}}  # every step, once
    large = [int(n) for n in os.environ.get("BENCH_LARGE", "18,40,5000").split(",")]
    return {
        "small fair": {"days": 60, "tables": 12, "records_per_day": 70},
        "season": dict(zip(["days", "tables", "records_per_day"], large, strict=True)),
        "long event": {"days": 200, "tables": 5, "records_per_day": 20},
    }


def shape_said(shape: dict) -> str:
    return f"{shape['days']} days x {shape['tables']} tables x {shape['records_per_day']:,} records a day"


def slug_of(size: str) -> str:
    return "bench-" + size.replace(" ", "-")


def event_file(size: str, shape: dict, directory: Path) -> tuple[Path, dict]:
    """The generated event, its last close_day held back for the close measurement."""
    data = generated_event(seed=2026, **shape)
    data["event"]["slug"] = slug_of(size)
    last = data["days"][-1]["records"]
    assert last[-1]["type"] == "close_day"
    held_back = last.pop()
    path = directory / f"{size}.json"
    path.write_text(json.dumps(data))
    return path, {"records": record_count(data) + 1, "held_back": held_back, "last_day": data["days"][-1]["date"]}


# Where every process of the bench keeps the product's compiled modules between runs, as an
# installed product does, even where the environment says not to write them
# (PYTHONDONTWRITEBYTECODE): set by main() for the whole bench, so that an import's "net of
# start-up" takes off a start-up measured the same way, not one spared the compiling the import
# pays.
BYTECODE: str | None = None


def run(url: str, *args: str, module: bool = False) -> dict:
    """One process against the database at `url`: wall seconds, peak memory (MB), its output, with
    the product's modules compiled once in BYTECODE (where main() sets it).

    A command runs as at a real event, DEBUG off, with a key of its own (DEBUG keeps every query's
    text, which a season's import pays for); the probe measures pages through the test client,
    which the demo's DEBUG settings serve over plain http."""
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    if module:
        env["DEBUG"] = "true"
    else:
        env.update(DEBUG="false", SECRET_KEY=f"bench-{secrets.token_urlsafe(40)}")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    if BYTECODE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = BYTECODE
    command = [sys.executable, "-m", *args] if module else [sys.executable, "manage.py", *args]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        if status != 0:
            raise SystemExit(f"{' '.join(args)} failed:\n{err.read().decode()[-3000:]}")
        return {"seconds": seconds, "peak_mb": usage.ru_maxrss / 1024, "out": out.read().decode()}


class Database:
    """A fresh database of one kind, dropped afterwards."""

    def __init__(self, kind: str, directory: Path):
        self.kind = kind
        if kind == "sqlite":
            self.url = f"sqlite:///{directory / f'bench-{uuid.uuid4().hex[:8]}.sqlite3'}"
        else:
            import psycopg

            self.name = f"bench_{uuid.uuid4().hex[:8]}"
            with psycopg.connect(PG_SERVER, autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{self.name}"')
            self.url = PG_SERVER.rsplit("/", 1)[0] + "/" + self.name

    def drop(self):
        if self.kind == "postgres":
            import psycopg

            with psycopg.connect(PG_SERVER, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def measure(kind: str, size: str, path: Path, facts: dict, directory: Path, say, startup: float) -> dict:
    """Every figure of one event on one database, each said (appended to the results file) as soon
    as it is measured: a bench stopped at any point keeps what it measured."""
    database = Database(kind, directory)
    slug = slug_of(size)
    records = facts["records"]
    try:
        run(database.url, "migrate", "--noinput", "-v0")
        figures = {"records": records}
        figures["import"] = imported = run(database.url, "import_records", str(path))
        say(
            f"- import: {imported['seconds']:.2f} s, {records / imported['seconds']:,.0f} records/s "
            f"({records / max(imported['seconds'] - startup, 0.01):,.0f} net of start-up), "
            f"peak {imported['peak_mb']:.0f} MB; load {load_average()}"
        )
        figures["close"] = json.loads(run(database.url, "bench.probe", "close", slug, module=True)["out"])
        say(f"- the nightly close of the last day: {figures['close']['seconds']:.3f} s")
        for fmt in ("json", "pdf"):
            figures[f"event_report {fmt}"] = report = run(
                database.url, "event_report", slug, "--format", fmt, "--out", str(directory / f"report.{fmt}")
            )
            say(f"- event_report {fmt.upper()}: {report['seconds']:.2f} s, peak {report['peak_mb']:.0f} MB")
        figures["day_report pdf"] = run(
            database.url, "day_report", slug, facts["last_day"], "--format", "pdf", "--out", str(directory / "day.pdf")
        )
        say(f"- day_report PDF of the last day: {figures['day_report pdf']['seconds']:.2f} s")
        figures["pages"] = json.loads(run(database.url, "bench.probe", "pages", slug, module=True)["out"])
        for page, p in figures["pages"].items():
            say(
                f"- {page} (warm, as the DRIC): {p['seconds'] * 1000:.0f} ms, {p['queries']} queries, {p['kilobytes']:.0f} KB"
            )
        slips, postings = floor.read_rows(database.url)
        figures["postings"] = len(postings)
        figures["floor"] = (
            floor.sqlite_floor(directory, slips, postings)
            if kind == "sqlite"
            else floor.postgres_floor(PG_SERVER, slips, postings)
        )
        say(
            f"- floor (the same {len(slips):,} slips and {len(postings):,} postings, plain executemany in one "
            f"transaction): write {figures['floor']['write_seconds']:.3f} s (import / floor "
            f"{ratio(imported['seconds'], figures['floor']['write_seconds'])}), sum {figures['floor']['sum_seconds']:.4f} s"
        )
        # Last, as it adds a copy of the event to the database: the hash chains' share of an import
        # and of slips at the window, measured in the same process as the work they are part of.
        figures["chain"] = c = json.loads(run(database.url, "bench.probe", "chain", str(path), module=True)["out"])
        say(
            f"- hash chains: {c['import_chain_seconds']:.3f} s of an import of {c['import_seconds']:.2f} s; "
            f"{c['window_chain_seconds']:.3f} s of 100 sales of {c['window_seconds']:.2f} s"
        )
        if kind == "postgres":
            for line in peer_lines(figures, postings):
                say(line)
        return figures
    finally:
        database.drop()


def peer_lines(figures: dict, postings) -> list[str]:
    """The product beside django-hordak on the same postings, server and run, like for like: both
    in one transaction (the product's import, a whole process with its start-up and every rule's
    check; hordak's posting alone), and both one transaction per slip (the product's window: 100
    sales through its services, in-process; hordak's posting of the import's slips). Per posting,
    as hordak posts legs."""
    chain = figures["chain"]
    ours = {
        "batched": (figures["import"]["seconds"], figures["postings"], "the import, one transaction"),
        "per-slip": (chain["window_seconds"], chain["window_postings"], "100 sales at the window, each its own"),
    }
    figures["peer"], lines = {}, []
    for mode, (seconds, count, what) in ours.items():
        theirs = peer.measure(PG_SERVER, postings, mode)
        # Each side's milliseconds per posting, kept for the summary table (markdown).
        compared = figures["peer"][mode] = {
            "legs": theirs["legs"],
            "hordak_ms": theirs["seconds"] / max(theirs["legs"], 1) * 1000,
            "postings": count,
            "product_ms": seconds / max(count, 1) * 1000,
        }
        mine, hers = compared["product_ms"], compared["hordak_ms"]
        verdict = "faster" if mine < hers else "slower"
        lines.append(
            f"- against django-hordak, {mode}: the product {mine:.3f} ms a posting ({what}: {count:,} postings "
            f"in {seconds:.2f} s), hordak {hers:.3f} ms a leg ({theirs['legs']:,} legs in "
            f"{theirs['seconds']:.2f} s): the product is {max(mine, hers) / min(mine, hers):.1f}x {verdict}; "
            f"load {load_average()}"
        )
    return lines


def ratio(value: float, base: float) -> str:
    return f"{value / base:,.0f}x" if base else "n/a"


def markdown(results: dict, startup: float) -> str:
    lines = [
        "",
        "### Summary of the events (the figures above, side by side)",
        "",
        "Records/s divides by the whole process; net, by the process less that start-up.",
        "",
        "| database | event | records | postings | import s | records/s | net records/s | import / floor "
        "| import peak MB | close s | JSON s | PDF s | report / floor | day PDF s | report peak MB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (kind, size), f in results.items():
        imported = f["import"]["seconds"]
        lines.append(
            f"| {kind} | {size} | {f['records']:,} | {f['postings']:,} | {imported:.2f} | {f['records'] / imported:,.0f} "
            f"| {f['records'] / max(imported - startup, 0.01):,.0f} "
            f"| {ratio(imported, f['floor']['write_seconds'])} | {f['import']['peak_mb']:.0f} | {f['close']['seconds']:.3f} "
            f"| {f['event_report json']['seconds']:.2f} | {f['event_report pdf']['seconds']:.2f} "
            f"| {ratio(f['event_report json']['seconds'], f['floor']['sum_seconds'])} "
            f"| {f['day_report pdf']['seconds']:.2f} "
            f"| {max(f['event_report json']['peak_mb'], f['event_report pdf']['peak_mb']):.0f} |"
        )
    lines += ["", "Pages, fetched as the DRIC (warm), with their number of queries:", ""]
    lines += ["| database | event | page | ms | queries | KB |", "|---|---|---|---:|---:|---:|"]
    for (kind, size), f in results.items():
        for page, p in f["pages"].items():
            lines.append(
                f"| {kind} | {size} | {page} | {p['seconds'] * 1000:.0f} | {p['queries']} | {p['kilobytes']:.0f} |"
            )
    lines += ["", "Floor (plain executemany in one transaction; one GROUP BY):", ""]
    lines += ["| database | event | write s | sum s |", "|---|---|---:|---:|"]
    for (kind, size), f in results.items():
        lines.append(f"| {kind} | {size} | {f['floor']['write_seconds']:.3f} | {f['floor']['sum_seconds']:.4f} |")
    lines += [
        "",
        "The hash chains' cost (core.chain): the time spent in the chains' own code (hashing, the last link read"
        " and its lock, the link written) within an import of the event and within 100 chip sales at the window,"
        " each in its own transaction; 'more' is that time over the rest (target: at most 10% more):",
        "",
        "| database | event | import s | chains s | import: more | 100 sales s | chains s | window: more |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for (kind, size), f in results.items():
        c = f["chain"]
        lines.append(
            f"| {kind} | {size} | {c['import_seconds']:.2f} | {c['import_chain_seconds']:.3f} "
            f"| {c['import_chain_seconds'] / (c['import_seconds'] - c['import_chain_seconds']):.1%} "
            f"| {c['window_seconds']:.2f} | {c['window_chain_seconds']:.3f} "
            f"| {c['window_chain_seconds'] / (c['window_seconds'] - c['window_chain_seconds']):.1%} |"
        )
    peers = [(kind, size, f) for (kind, size), f in results.items() if "peer" in f]
    if peers:
        lines += ["", "Peer: the same postings through django-hordak 2.0 (bench/peer), like for like:", ""]
        lines += [
            "| database | event | commits | hordak legs | hordak ms/leg | product postings | product ms/posting "
            "| product / hordak |",
            "|---|---|---|---:|---:|---:|---:|---:|",
        ]
        for kind, size, f in peers:
            for mode, c in f["peer"].items():
                lines.append(
                    f"| {kind} | {size} | {mode} | {c['legs']:,} | {c['hordak_ms']:.3f} | {c['postings']:,} "
                    f"| {c['product_ms']:.3f} | {c['product_ms'] / c['hordak_ms']:.1f}x |"
                )
    return "\n".join(lines) + "\n"


LOAD_HEADER = [
    "",
    "The real server (gunicorn, 4 workers) under cashiers' terminals posting sales and fills through the"
    ' slip forms (a fill carries the runner\'s signing PIN). Pace "none": every terminal posts its next slip'
    " as soon as the last is answered (the server's throughput; latency is then mostly queueing, about"
    " cashiers / throughput). Pace N s: each terminal opens a slip form every N seconds, a busy window's pace"
    " (bench/load.py):",
    "",
    "| database | cashiers | pace | slips/s | sale p50 ms | p95 | p99 | fill p50 ms | p95 | p99 | errors | check_ledger | load |",
    "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
]


def load_row(kind: str, r: dict) -> str:
    sale, fill = r["sale_ms"], r["fill_ms"]
    pace = f"{r['pace']:g} s" if r.get("pace") else "none"
    return (
        f"| {kind} | {r['cashiers']} | {pace} | {r['slips_per_second']:.1f} | {sale[50]:.0f} | {sale[95]:.0f} | {sale[99]:.0f} "
        f"| {fill[50]:.0f} | {fill[95]:.0f} | {fill[99]:.0f} | {len(r['errors'])} | {r['ledger']} | {load_average()} |"
    )


def results_file() -> Path:
    """bench/results/<date>.md, or the same name in BENCH_RESULTS (a directory) where it is set."""
    directory = Path(os.environ.get("BENCH_RESULTS") or ROOT / "bench" / "results")
    return directory / f"{datetime.date.today().isoformat()}.md"


def start_up(say) -> float:
    """What every manage.py command pays before it does any work (median of five), with its modules
    compiled once beforehand, as they are once installed (BYTECODE)."""
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'start-up.sqlite3'}"
        run(url, "check")
        startup = sorted(run(url, "check")["seconds"] for _ in range(5))[2]
    say(f"Start-up: `manage.py check` takes {startup:.2f} s (median of 5; target under 0.5 s).")
    return startup


def main() -> None:
    # --quick (`make bench QUICK=1`): the pages part alone, smaller (bench/pages.py). --tiny (the
    # smoke test): everything, on tiny events, SQLite alone unless BENCH_DATABASES says otherwise.
    mode = "quick" if "--quick" in sys.argv else "tiny" if "--tiny" in sys.argv else "full"
    from bench import pages

    out = results_file()
    results = pages.Results(out)
    if mode == "quick":
        pages.run(mode, results)
        print(f"bench: appended to {out}")
        return
    kinds = os.environ.get("BENCH_DATABASES", "sqlite" if mode == "tiny" else "sqlite,postgres").split(",")
    shapes = sizes(mode)
    say = results.line
    say()
    say(f"# Bench of {datetime.date.today().isoformat()} ({mode})")
    say()
    say(
        f"Machine: {os.cpu_count()} CPU(s), Python {sys.version.split()[0]}, load {load_average()} at the start. "
        "Every figure is appended here as soon as it is measured. Whole processes include the start-up of "
        "`manage.py`; records/s divides by the whole process, net by the process less that start-up."
    )
    say()
    global BYTECODE
    with tempfile.TemporaryDirectory() as compiled:
        BYTECODE = compiled
        run_all(mode, kinds, shapes, say)
    pages.run(mode, results)
    print(f"bench: written to {out}")


def run_all(mode: str, kinds: list[str], shapes: dict, say) -> None:
    startup = start_up(say)
    measured = {}
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        for size, shape in shapes.items():
            path, facts = event_file(size, shape, directory)
            for kind in kinds:
                say()
                say(f"## {kind}, {size}: {shape_said(shape)} ({facts['records']:,} records)")
                say()
                measured[(kind, size)] = measure(kind, size, path, facts, directory, say, startup)
    say(markdown(measured, startup))
    seconds = float(os.environ.get("BENCH_LOAD_SECONDS", "1" if mode == "tiny" else "20"))
    runs = ((1, None),) if mode == "tiny" else ((1, None), (4, None), (16, None), (16, PACE))
    for line in LOAD_HEADER:
        say(line)
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        from bench.load import load

        for kind in kinds:
            for cashiers, pace in runs:
                how = f"a slip every {pace:g} s each" if pace else "at saturation"
                print(
                    f"bench: {kind}, gunicorn under {cashiers} cashier(s), {how}, for {seconds:.0f} s ...", flush=True
                )
                vendor = "postgresql" if kind == "postgres" else kind
                result = load(vendor, Path(tmp), cashiers=cashiers, seconds=seconds, workers=4, pace=pace)
                say(load_row(kind, result))
                errors += result["errors"][:20]
    if errors:
        print("\n".join(errors))


if __name__ == "__main__":
    main()
