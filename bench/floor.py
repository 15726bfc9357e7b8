"""The floor: the same slips and postings written with plain executemany in one transaction, and
summed with one SQL GROUP BY, on the same kind of database. What the product's import and
report would cost if the ORM, the checks and the rules cost nothing."""

import sqlite3
import time
import uuid
from pathlib import Path

SLIPS = "SELECT id, event_id, day_id, slip_type, serial, at, details FROM cage_slip ORDER BY id"
POSTINGS = "SELECT id, slip_id, day_id, account_id, denomination_id, amount FROM cage_posting ORDER BY id"
CREATE = [
    "CREATE TABLE floor_slip (id bigint PRIMARY KEY, event_id bigint, day_id bigint, slip_type varchar(20),"
    " serial integer, at text, details text)",
    "CREATE TABLE floor_posting (id bigint PRIMARY KEY, slip_id bigint REFERENCES floor_slip (id),"
    " day_id bigint, account_id bigint, denomination_id bigint, amount bigint)",
    "CREATE INDEX floor_posting_account ON floor_posting (account_id, day_id, denomination_id, amount)",
]
SUM = "SELECT account_id, denomination_id, SUM(amount) FROM floor_posting GROUP BY account_id, denomination_id"


def read_rows(url: str):
    """The product's slips and postings, as plain tuples, from the database at `url`."""
    if url.startswith("sqlite"):
        connection = sqlite3.connect(url.removeprefix("sqlite:///"))
    else:
        import psycopg

        connection = psycopg.connect(url)
    with connection:
        cursor = connection.cursor()
        slips = [tuple(str(v) if k in (5, 6) else v for k, v in enumerate(row)) for row in cursor.execute(SLIPS)]
        postings = list(cursor.execute(POSTINGS))
    connection.close()
    return slips, postings


def _write_and_sum(connection, placeholder: str, slips, postings) -> dict:
    cursor = connection.cursor()
    for statement in CREATE:
        cursor.execute(statement)
    connection.commit()
    started = time.perf_counter()
    cursor.executemany(f"INSERT INTO floor_slip VALUES ({', '.join([placeholder] * 7)})", slips)
    cursor.executemany(f"INSERT INTO floor_posting VALUES ({', '.join([placeholder] * 6)})", postings)
    connection.commit()
    written = time.perf_counter() - started
    started = time.perf_counter()
    cursor.execute(SUM)
    cursor.fetchall()
    summed = time.perf_counter() - started
    return {"write_seconds": written, "sum_seconds": summed}


def sqlite_floor(directory: Path, slips, postings) -> dict:
    path = directory / f"floor-{uuid.uuid4().hex[:8]}.sqlite3"
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=WAL")
    try:
        return _write_and_sum(connection, "?", slips, postings)
    finally:
        connection.close()
        path.unlink(missing_ok=True)


def postgres_floor(server_url: str, slips, postings) -> dict:
    import psycopg

    name = f"bench_floor_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        with psycopg.connect(server_url.rsplit("/", 1)[0] + "/" + name) as connection:
            return _write_and_sum(connection, "%s", slips, postings)
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
