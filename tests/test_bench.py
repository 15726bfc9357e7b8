"""The bench's smoke test: `python -m bench.run --tiny` runs the pages part of `make bench`
(bench/pages.py) on tiny events, start to end, as `make bench` and `make bench QUICK=1` run it:
every page's ratio to GET /login/ printed with its shape and the load average, the growth of each
page from the short event to the long one, and 4 terminals beside 1 through gunicorn, with no
error; all appended to the results file. What it measures is not checked here (a shared machine's
times say nothing): that it runs, and says what it should."""

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


def test_the_bench_pages_part_runs_in_its_tiny_mode(tmp_path):
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
        assert "- day's sheets (last day): " in text and " from 2 days x " in text
        assert "4 terminals beside 1: " in text and "; 0 errors; load " in text
