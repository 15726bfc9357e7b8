"""Under load: eight cashiers' terminals (separate processes, each with its own database connection)
post sales, fills, credits and redemptions at once against one bank, on PostgreSQL and on a SQLite
file whose writers queue. Bounded by a count of operations, never by the clock.

Afterwards the ledger holds (check_ledger), no custody account is below zero, every slip a worker
was given back is there exactly once, nothing else was written, and serials have no gap. A refusal
(the bank is out of chips or cash) is an answer and is counted; a worker that fails any other way
(a database error: "database is locked", a deadlock, a serialization failure) fails the test.
"""

import json
import subprocess
from collections import Counter

import pytest

from tests.faults.harness import OUTPUT_SHOWN, VENDORS, fresh_database, shell

PROCESSES, THREADS = 4, 2  # eight workers, each with its own connection
WORKERS = PROCESSES * THREADS
OPERATIONS = 12  # each
SLUG = "load"
# A bank small enough that the workers run it dry and refill it: the refusals must happen.
SET_UP = (
    f"from tests.faults.ledger_state import set_up; set_up({SLUG!r}, chips={{'5': 60}}, cash=6_000, trays={{'5': 10}})"
)
STATE = f"from tests.faults.ledger_state import state; state({SLUG!r})"


def worker(database, number):
    seeds = [number * THREADS + i for i in range(THREADS)]
    code = f"from tests.faults.load_worker import work; work({SLUG!r}, seeds={seeds}, operations={OPERATIONS})"
    return database.manage(*shell(code), stdin=subprocess.PIPE)


@pytest.mark.parametrize("vendor", VENDORS)
def test_concurrent_terminals_keep_the_ledger_whole(vendor, workdir):
    with fresh_database(vendor, workdir, "cage_load") as database:
        setup_slips = set(database.python(SET_UP)["slips"])
        workers = [worker(database, number) for number in range(PROCESSES)]
        try:
            for process in workers:
                line = process.stdout.readline()
                if line.strip() != "READY":
                    process.kill()
                    pytest.fail(f"a worker did not start: {line}{process.communicate()[1][-OUTPUT_SHOWN:]}")
            for process in workers:  # all at once
                process.stdin.write("GO\n")
                process.stdin.flush()
            outputs = [process.communicate(timeout=300) for process in workers]
        finally:
            for process in workers:
                if process.poll() is None:
                    process.kill()
                    process.wait()
        crashed = [
            err[-OUTPUT_SHOWN:] for process, (_out, err) in zip(workers, outputs, strict=True) if process.returncode
        ]
        assert not crashed, "a worker failed instead of posting or being refused:\n" + "\n---\n".join(crashed)
        results = [json.loads(out.strip().splitlines()[-1]) for out, _err in outputs]
        acknowledged = [slip for result in results for slip in result["acknowledged"]]
        refused = Counter()
        for result in results:
            refused.update(result["refused"])

        # Every operation was answered: a slip or a refusal, and both happened.
        assert len(acknowledged) + sum(refused.values()) == WORKERS * OPERATIONS
        assert acknowledged and refused
        # The bank out of chips or cash; or, with both tables open, a redemption of more $5 chips
        # than patrons and the trays together hold (the window's bound, T&C 3.4.3).
        assert set(refused) <= {"custody: no account pays out what it does not hold", "T&C 3.4.3"}, refused
        assert {slip[1] for slip in acknowledged} == {"sale", "fill", "credit", "redemption"}

        state = database.python(STATE)  # with what check_ledger says
        assert state["problems"] == [] and state["ledger_breaks"] == []
        assert state["check_ledger"].startswith("Ledger holds")
        written = [slip for slip in state["slips"] if slip[0] not in setup_slips]
        # Every acknowledged slip is there exactly once, as the worker was told, and nothing else.
        assert sorted(map(tuple, written)) == sorted(map(tuple, acknowledged))
        assert len({slip[3] for slip in written}) == len(written)
