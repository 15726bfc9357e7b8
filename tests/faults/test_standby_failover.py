"""A standby laptop taking over from a primary that dies in the middle of a burst of slips.

Two PostgreSQL clusters on this machine stand for the cage's two laptops (tests/faults/standby.py):
the primary, and a standby streaming from it synchronously, so that a commit is acknowledged only
once the standby has it. The product is migrated, and gunicorn serves it, through the one
DATABASE_URL that names both (target_session_attrs=read-write). Two cashiers write slips through
the forms (tests/faults/server.py); mid-burst the primary's postmaster gets SIGKILL. Until the
standby is promoted every request gets the error page; whoever looks after the laptops sees it and
promotes the standby as docs/scaling.md says; the cashiers carry on in the same sessions, sending
again each form whose answer was the error page (the same form: its one-time request key) until
the slip is acknowledged.

Then, on the promoted standby: every acknowledged slip is there, once, as the server said, and no
other; no slip is partial, serials have no gap, and check_ledger passes.
"""

import http.client
import json
import os
import re
import threading
import time

import pytest

from tests.conftest import PASSWORD
from tests.faults.harness import Database, shell
from tests.faults.server import Server, Terminal, hidden
from tests.faults.standby import primary_and_standby
from tests.faults.test_server_crash import chip_cashier_slips, general_cashier_slips

SLUG = "standby"
SET_UP = (
    "from tests.faults.ledger_state import set_up; "
    f"set_up({SLUG!r}, chips={{'5': 2000}}, cash=100_000, trays={{'5': 20}}, "
    "logins=('chip_cashier', 'general_cashier', 'runner'))"
)
# Which server answers the product now, then every slip of the event and what check_ledger says
# (tests/faults/ledger_state.py), from one process connected through the URL that names both.
STATE = (
    "import json; from django.db import connection; cursor = connection.cursor(); "
    "cursor.execute('SELECT inet_server_port(), pg_is_in_recovery()'); print(json.dumps(cursor.fetchone())); "
    f"from tests.faults.ledger_state import state; state({SLUG!r})"
)
KILL_AFTER = 8  # acknowledged slips before the primary is killed
AFTER_PROMOTION = 3  # slips each cashier has acknowledged by the promoted standby before the burst ends
CUT_OFF = (OSError, http.client.HTTPException)
SLIP_PAGE = re.compile(rf"^/cage/{SLUG}/slips/(\d+)/$")
# A cashier who gets the error page sends the form again after a moment, as a person would; a
# request still failing this long after the promotion fails the test instead of hanging it.
AGAIN_AFTER = 0.1
OUTAGE_LIMIT = 60


def postgresql_pass_only():
    """Nothing here needs the suite's server, but the clusters are PostgreSQL: run once, in the
    PostgreSQL pass, as the other tests that need PostgreSQL are."""
    on_postgres = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
    if not on_postgres and not os.environ.get("ALL_DATABASES"):
        pytest.skip("a PostgreSQL standby's failover: runs in the PostgreSQL pass (make test-postgres, .ci/run)")


class Cashier(threading.Thread):
    """A cashier writing one slip after another, each until it is acknowledged, until told `enough`."""

    def __init__(self, terminal: Terminal, slips, progress: threading.Condition):
        super().__init__(daemon=True)  # a failed test never waits for it
        self.terminal = terminal
        self.slips = slips  # an endless iterator of (slip type, form data)
        self.progress = progress
        self.acknowledged: list[tuple[int, str, str]] = []  # (slip pk, slip type, request key)
        self.errors: list[str] = []  # each error page or cut-off answer, before the request was sent again
        self.failure: BaseException | None = None
        self.posting = False  # a slip's POST is on its way or being answered
        self.enough = threading.Event()
        self.stopped = threading.Event()

    def run(self):
        try:
            while not self.enough.is_set():
                self.write(*next(self.slips))
        except BaseException as exc:
            self.failure = exc
        finally:
            with self.progress:
                self.stopped.set()
                self.progress.notify_all()

    def write(self, slip_type: str, data: dict) -> None:
        path = f"/cage/{SLUG}/slips/new/{slip_type}/"
        _status, _headers, page = self.send("GET", path)
        form = {**data, "csrfmiddlewaretoken": hidden(page, "csrfmiddlewaretoken")}
        form["request_key"] = hidden(page, "request_key")
        with self.progress:
            self.posting = True
            self.progress.notify_all()
        try:
            status, headers, page = self.send("POST", path, form)
        finally:
            self.posting = False
        found = SLIP_PAGE.match(headers.get("Location") or "")
        if status != 302 or not found:  # nothing is refused here: a refusal fails the test
            raise AssertionError(f"{slip_type}: {status} {headers.get('Location')}\n{page[:2000]}")
        with self.progress:
            self.acknowledged.append((int(found.group(1)), slip_type, form["request_key"]))
            self.progress.notify_all()

    def send(self, method: str, path: str, form: dict | None = None):
        """One request, sent again while its answer is the error page or a broken connection."""
        deadline = time.monotonic() + OUTAGE_LIMIT
        while True:
            try:
                status, headers, page = self.terminal.request(method, path, form)
                if status != 500:
                    return status, headers, page
                # The product's own error page (templates/500.html), which needs no database.
                seen = f"{method} {status}" + ("" if 'id="server-error"' in page else f" {page[:500]}")
            except CUT_OFF as exc:
                seen = f"{method} cut off: {type(exc).__name__}"
            with self.progress:
                self.errors.append(seen)
                self.progress.notify_all()
            if time.monotonic() > deadline:
                raise AssertionError(f"{method} {path} still answered {seen} after {OUTAGE_LIMIT} s")
            time.sleep(AGAIN_AFTER)


def wait(progress: threading.Condition, cashiers: list[Cashier], until) -> None:
    with progress:
        progress.wait_for(lambda: until() or any(c.stopped.is_set() for c in cashiers))
    assert not any(c.stopped.is_set() for c in cashiers), [c.failure for c in cashiers]


def test_the_standby_takes_over_when_the_primary_dies_mid_burst_and_no_acknowledged_slip_is_lost(workdir):
    postgresql_pass_only()
    with primary_and_standby() as pair:
        database = Database("postgresql", pair.url)
        database.run("migrate", "--noinput", "-v0")
        ids = database.python(SET_UP)
        server = Server(database, workdir / "gunicorn.log")
        progress = threading.Condition()
        cashiers = []
        try:
            server.start()
            for persona, slips in (("chip_cashier", chip_cashier_slips), ("general_cashier", general_cashier_slips)):
                terminal = Terminal(server)
                terminal.log_in(ids["usernames"][persona], PASSWORD)
                cashiers.append(Cashier(terminal, slips(ids), progress))
            for cashier in cashiers:
                cashier.start()
            # Mid-burst: once enough slips are acknowledged, while a slip's form is being sent.
            wait(
                progress,
                cashiers,
                lambda: sum(len(c.acknowledged) for c in cashiers) >= KILL_AFTER and any(c.posting for c in cashiers),
            )
            errors = sum(len(c.errors) for c in cashiers)
            pair.kill_primary()
            # Nothing goes through until the standby is promoted: the cashiers get the error page.
            wait(progress, cashiers, lambda: sum(len(c.errors) for c in cashiers) > errors)
            pair.promote()
            before = [len(c.acknowledged) for c in cashiers]
            wait(
                progress,
                cashiers,
                lambda: all(len(c.acknowledged) >= n + AFTER_PROMOTION for c, n in zip(cashiers, before, strict=True)),
            )
        finally:
            for cashier in cashiers:
                cashier.enough.set()
            for cashier in cashiers:
                if cashier.ident is not None:
                    cashier.join(OUTAGE_LIMIT)
            server.stop()
        log = server.log.read_text()[-6000:]
        assert [c.failure for c in cashiers] == [None, None], f"{[c.failure for c in cashiers]}\n{log}"
        # What the cashiers saw of the outage: the error page ("Something went wrong"), nothing else.
        assert {seen for c in cashiers for seen in c.errors} <= {"GET 500", "POST 500"}, [c.errors for c in cashiers]

        answering, state = [json.loads(line) for line in database.run(*shell(STATE)).stdout.splitlines()[-2:]]
        assert answering == [pair.standby.port, False]  # the promoted standby, taking writes
        # No slip is partial, serials have no gap, and check_ledger passes (state runs it).
        assert state["problems"] == [] and state["ledger_breaks"] == []
        setup_slips = set(ids["slips"])
        stream = [row for row in state["slips"] if row[0] not in setup_slips]
        keys = [request_key for _pk, _type, _serial, request_key in stream]
        assert len(keys) == len(set(keys))  # no slip twice
        acked = {key: (pk, slip_type) for c in cashiers for pk, slip_type, key in c.acknowledged}
        # Every slip acknowledged is there as the server said, and there is no other: each form
        # whose answer was the error page was sent again until it was acknowledged.
        assert {key: (pk, slip_type) for pk, slip_type, _serial, key in stream} == acked
