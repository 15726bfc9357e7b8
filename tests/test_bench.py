"""The bench's smoke test: `python -m bench.run --tiny` runs every step of `make bench` on a tiny
event, on SQLite, start to end, as `make bench` runs them: the import, the close, the reports, the
pages, the floor and the hash chains, each said as it is measured; the real server under a
cashier's terminal; then the pages part (bench/pages.py): every page's ratio to GET /login/ with
its shape and the load average, the growth of each page from the short event to the long one, and
4 terminals beside 1 through gunicorn, with no error; all appended to the results file. What it
measures is not checked here (a shared machine's times say nothing): that it runs, and says what
it should."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PAGES = [
    "chip sale POST",
    "co-signed fill POST",
    "cage home",
    "DRIC's queue",
    "day's sheets (last day)",
    "register by amount",
    "voids",
    "audit trail",
]


def test_the_results_file_keeps_each_line_as_soon_as_it_is_said(tmp_path):
    """A bench stopped at any point keeps what it measured: each figure is appended to the file
    when it is said, not at the end."""
    from bench.pages import Results

    out = tmp_path / "results.md"
    results = Results(out)
    results.line("- import: 1.00 s")
    assert out.read_text() == "- import: 1.00 s\n"
    results.line("- the nightly close of the last day: 0.050 s")
    assert out.read_text().splitlines() == ["- import: 1.00 s", "- the nightly close of the last day: 0.050 s"]


def test_the_bench_runs_every_step_in_its_tiny_mode(tmp_path):
    env = {**os.environ, "BENCH_RESULTS": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, "-m", "bench.run", "--tiny"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200
    )
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    (results,) = tmp_path.glob("*.md")
    written = results.read_text()
    for text in (done.stdout, written):
        for page in PAGES:
            assert f"| {page} |" in text, page
        assert "(target at most 3x)" in text and "(target at most 6x)" in text
        assert "sales waiting for the DRIC" in text
        assert "| cage home | 3 sales waiting among 20 signed in full that day |" in text
        assert "- day's sheets (last day): " in text and " from 2 days x " in text
        assert "- DRIC's queue: " in text and "- cage home: " in text
        assert "4 terminals beside 1: " in text and "; 0 errors; load " in text
        assert "## sqlite, small fair: 2 days x 3 tables x 10 records a day (" in text
        for said in ("- import: ", " records/s (", " net of start-up), peak ", "- event_report PDF: "):
            assert said in text, said
        for said in ("- day_report PDF of the last day: ", "- floor (the same ", "- hash chains: ", "Start-up: "):
            assert said in text, said
        assert "### Summary of the events" in text and "| sqlite | 1 | none | " in text
