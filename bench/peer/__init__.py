"""The peer: the same postings through django-hordak 2.0, on the same PostgreSQL server.

Hordak lives in a virtual environment of its own (bench/.peer-venv, from bench/peer/requirements.txt),
made on first use and never a dependency of the product. Its posting is timed inside its process
(bench/peer/post.py), without its start-up; the product's import is a whole process, so the ratio
product / peer is, if anything, unkind to the product.
"""

import json
import os
import subprocess
import sys
import tempfile
import uuid
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE.parent / ".peer-venv"
PYTHON = VENV / "bin" / "python"


def environment() -> Path:
    """The peer's interpreter, its environment made (or brought up to date) from its requirements."""
    stamp = VENV / ".installed"
    requirements = HERE / "requirements.txt"
    if not stamp.exists() or stamp.read_text() != requirements.read_text():
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
        subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "-r", str(requirements)], check=True)
        stamp.write_text(requirements.read_text())
    return PYTHON


def slips_of(postings) -> list:
    """The floor's posting rows (id, slip, day, account, denomination, amount) grouped into slips."""
    slips = defaultdict(list)
    for _id, slip, _day, account, denomination, amount in postings:
        slips[slip].append([account, denomination, int(amount)])
    return [slips[slip] for slip in sorted(slips)]


def measure(server_url: str, postings, mode: str = "per-slip") -> dict:
    """Posts `postings` through hordak on a fresh database of the server, each slip committed on
    its own ("per-slip") or all in one transaction ("batched"); its figures."""
    import psycopg

    python = environment()
    name = f"bench_peer_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".json") as data:
            json.dump(slips_of(postings), data)
            data.flush()
            env = {**os.environ, "PEER_URL": server_url.rsplit("/", 1)[0] + "/" + name}
            env.pop("DJANGO_SETTINGS_MODULE", None)
            done = subprocess.run(
                [str(python), str(HERE / "post.py"), data.name, mode],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
        if done.returncode != 0:
            raise SystemExit(f"the peer failed:\n{done.stderr[-3000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
