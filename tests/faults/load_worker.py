"""Workers of the load test, run in a process of their own (manage.py shell): each worker is a
thread with its own database connection, posting a fixed number of sales, fills, credits and
redemptions through the services, against the one bank of the event.

The process says READY, waits for GO on its standard input (so every worker starts at once), and
prints one JSON line: each slip the services acknowledged, and each refusal by its rule. A refusal
(not enough chips, not enough cash) is an answer; any other exception ends the process with its
traceback, which the test shows.
"""

import json
import random
import sys
import threading
import traceback
import uuid

from django.db import connection

from cage import services
from core.rules import RuleViolation
from events.models import Event, Person

CREDIT_SIGNED = {
    "released_by": "dealer",
    "carried_by": "runner",
    "received_by": "chip_cashier",
    "authorized_by": "dric",
}
FILL_SIGNED = {"issued_by": "chip_cashier", "carried_by": "runner", "received_by": "dealer", "authorized_by": "dric"}
SALE_SIGNED = {"sold_by": "chip_cashier", "authorized_by": "dric"}
REDEMPTION_SIGNED = {"paid_by": "general_cashier", "authorized_by": "dric"}
KINDS = ("sale", "fill", "credit", "redemption")


def work(slug: str, *, seeds: list[int], operations: int) -> None:
    """One thread per seed, each posting `operations` slips."""
    go = threading.Event()
    results, crashes = [], []

    def worker(seed):
        try:
            go.wait()
            results.append(post(slug, seed=seed, operations=operations))
        except BaseException:
            crashes.append(traceback.format_exc())
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in seeds]
    for thread in threads:
        thread.start()
    print("READY", flush=True)
    if sys.stdin.readline().strip() != "GO":
        raise SystemExit("no GO on standard input")
    go.set()
    for thread in threads:
        thread.join()
    if crashes:
        raise SystemExit("\n".join(crashes))
    acknowledged = [slip for slips, _refused in results for slip in slips]
    refused = {}
    for _slips, refusals in results:
        for rule, times in refusals.items():
            refused[rule] = refused.get(rule, 0) + times
    print(json.dumps({"acknowledged": acknowledged, "refused": refused}), flush=True)


def post(slug: str, *, seed: int, operations: int) -> tuple[list, dict]:
    """One worker's slips: ([[pk, slip type, serial, request key], ...], {rule: refusals})."""
    event = Event.objects.get(slug=slug)
    day = event.days.get()
    people = {p.code: p for p in Person.objects.filter(event=event)}
    tables = list(event.tables.order_by("code"))

    def signed(capacities):
        return {capacity: people[code] for capacity, code in capacities.items()}

    choose = random.Random(seed)
    acknowledged, refused = [], {}
    for _ in range(operations):
        kind = choose.choice(KINDS)
        fives = choose.randint(1, 12)
        key = uuid.uuid4().hex
        common = {"day": day, "chips": {"5": fives}, "request_key": key}
        try:
            if kind == "sale":
                slip = services.sale(cash=fives * 500, signed=signed(SALE_SIGNED), **common)
            elif kind == "redemption":
                slip = services.redemption(cash=fives * 500, signed=signed(REDEMPTION_SIGNED), **common)
            elif kind == "fill":
                slip = services.fill(table=choose.choice(tables), signed=signed(FILL_SIGNED), **common)
            else:
                slip = services.credit(table=choose.choice(tables), signed=signed(CREDIT_SIGNED), **common)
        except RuleViolation as refusal:
            refused[refusal.rule] = refused.get(refusal.rule, 0) + 1
        else:
            acknowledged.append([slip.pk, slip.slip_type, slip.serial, key])
    return acknowledged, refused
