"""The real server, killed in the middle of a stream of slips.

gunicorn serves the product on 127.0.0.1 as in production (DEBUG off, its own secret key). Two
cashiers log in through the login page and write slips through the slip forms, with the CSRF
token and one-time request key each form carries and a runner's signing PIN: the Chip Cashier
sells chips and sends fills, the General Cashier redeems. After some slips have been
acknowledged (a redirect to the slip's page), the server and its workers get SIGKILL while the
cashiers are still posting; it is started again, and the cashiers go on in the same sessions.

Then: every acknowledged slip is there, with its page; every other slip is one whose answer the
kill cut off; no slip is partial (each balances per instrument and has its signatures and its
postings); serials have no gap; and check_ledger passes. On SQLite and on PostgreSQL.
"""

import http.client
import itertools
import re
import threading

import pytest

from cage.slip_types import SLIP_KINDS
from tests.conftest import PASSWORD, PIN
from tests.faults.harness import VENDORS, fresh_database
from tests.faults.server import Server, Terminal

SLUG = "stream"
SET_UP = (
    "from tests.faults.ledger_state import set_up; "
    f"set_up({SLUG!r}, chips={{'5': 2000}}, cash=100_000, trays={{'5': 20}}, "
    "logins=('chip_cashier', 'general_cashier', 'runner'))"
)
STATE = f"from tests.faults.ledger_state import state; state({SLUG!r})"
KILL_AFTER = 8  # acknowledged slips before the kill, which then waits for a slip being posted
AFTER_RESTART = 2  # slips each cashier writes once the server is back
MOST = 100  # a stream that is never killed stops here instead of running on
CUT_OFF = (OSError, http.client.HTTPException)  # what a client sees of a server killed under it
SLIP_PAGE = re.compile(rf"^/cage/{SLUG}/slips/(\d+)/$")


class Cashier(threading.Thread):
    """A cashier writing one slip after another until the server goes away, then, once it is
    back, `AFTER_RESTART` more in the same session."""

    def __init__(self, terminal: Terminal, slips, acknowledged: threading.Condition):
        super().__init__(daemon=True)  # a failed test never waits for it
        self.terminal = terminal
        self.slips = slips  # an endless iterator of (slip type, form data)
        self.condition = acknowledged
        self.acknowledged: list[tuple[int, str, str]] = []  # (slip pk, slip type, request key)
        self.cut_off: list[str] = []  # request keys whose answer the kill cut off
        self.answers: list[str] = []  # anything else the server answered
        self.failure: BaseException | None = None
        self.posting = False  # a slip's POST is on its way or being answered
        self.stopped = threading.Event()
        self.back = threading.Event()

    def write(self, slip_type: str, data: dict) -> bool:
        path = f"/cage/{SLUG}/slips/new/{slip_type}/"
        key, token = self.terminal.open_form(path)
        with self.condition:
            self.posting = True
            self.condition.notify_all()
        try:
            status, headers, page = self.terminal.request("POST", path, {**data, **token, "request_key": key})
        except CUT_OFF:
            self.cut_off.append(key)
            raise
        finally:
            self.posting = False
        found = SLIP_PAGE.match(headers.get("Location") or "")
        if status == 302 and found:
            with self.condition:
                self.acknowledged.append((int(found.group(1)), slip_type, key))
                self.condition.notify_all()
            return True
        self.answers.append(f"{slip_type}: {status} {headers.get('Location')}\n{page[:2000]}")
        return False

    def run(self):
        try:
            try:
                for _ in range(MOST):
                    self.write(*next(self.slips))
            except CUT_OFF:
                pass
            self.stop()
            self.back.wait()
            for _ in range(AFTER_RESTART):
                assert self.write(*next(self.slips)), self.answers[-1]
        except BaseException as exc:
            self.failure = exc
        finally:
            self.stop()

    def stop(self):
        with self.condition:
            self.stopped.set()
            self.condition.notify_all()


def chip_cashier_slips(ids):
    """Sales at the cage, and fills carried by the runner, who signs with their PIN. Each slip has
    a number of chips of its own: the same slip again within a minute would be asked about first
    (SlipForm.confirm_second_slip), as a double tap is."""
    people, tables = ids["people"], ids["tables"]
    for n in itertools.count():
        chips = 100 + n  # a sale well ahead of the redemptions, so that the patrons hold the chips
        yield (
            "sale",
            {
                "chips_5": str(chips),
                "cash": f"{5 * chips}.00",
                "tender": "cad_cash",
                "runner": "",
                "sign_sold_by": people["chip_cashier"],
            },
        )
        yield (
            "fill",
            {
                "table": tables["bj"],
                "runner": people["runner"],
                "chips_5": str(4 + n),
                "sign_issued_by": people["chip_cashier"],
                "sign_carried_by": people["runner"],
                "pin_carried_by": PIN,
            },
        )


def general_cashier_slips(ids):
    for n in itertools.count():
        yield (
            "redemption",
            {
                "chips_5": str(1 + n),
                "cash": f"{5 * (1 + n)},00",
                "tender": "cad_cash",
                "sign_paid_by": ids["people"]["general_cashier"],
            },
        )


@pytest.mark.parametrize("vendor", VENDORS)
def test_a_server_killed_mid_stream_loses_no_acknowledged_slip_and_leaves_no_partial_one(vendor, workdir):
    with fresh_database(vendor, workdir, "cage_crash") as database:
        ids = database.python(SET_UP)
        setup_slips = set(ids["slips"])
        server = Server(database, workdir / "gunicorn.log")
        try:
            server.start()
            acknowledged = threading.Condition()
            cashiers = []
            for persona, slips in (("chip_cashier", chip_cashier_slips), ("general_cashier", general_cashier_slips)):
                terminal = Terminal(server)
                terminal.log_in(ids["usernames"][persona], PASSWORD)
                cashiers.append(Cashier(terminal, slips(ids), acknowledged))
            for cashier in cashiers:
                cashier.start()
            with acknowledged:
                acknowledged.wait_for(
                    lambda: (
                        sum(len(c.acknowledged) for c in cashiers) >= KILL_AFTER
                        or any(c.stopped.is_set() for c in cashiers)
                    )
                )
            assert not any(c.stopped.is_set() for c in cashiers), [c.failure or c.answers for c in cashiers]
            server.kill()  # while both cashiers are still posting
            for cashier in cashiers:
                cashier.stopped.wait()
            server.start()
            for cashier in cashiers:
                cashier.back.set()
            for cashier in cashiers:
                cashier.join()
            log = server.log.read_text()[-6000:]
            failures = [c.failure for c in cashiers if c.failure]
            assert not failures, f"{failures}\n{log}"
            # Nothing refused, nothing else answered.
            assert [c.answers for c in cashiers] == [[], []], f"{[c.answers for c in cashiers]}\n{log}"

            state = database.python(STATE)
            assert state["problems"] == [] and state["ledger_breaks"] == []
            stream = {row[3]: row for row in state["slips"] if row[0] not in setup_slips}
            acked = {key: (pk, slip_type) for c in cashiers for pk, slip_type, key in c.acknowledged}
            cut_off = {key for c in cashiers for key in c.cut_off}
            # Every acknowledged slip is there, as the server said; any other is one whose answer
            # the kill cut off (committed just before it, or not at all).
            assert {key: (stream[key][0], stream[key][1]) for key in acked if key in stream} == acked
            assert set(stream) <= set(acked) | cut_off
            assert len(acked) >= KILL_AFTER + AFTER_RESTART * len(cashiers)
            terminal = cashiers[0].terminal
            for key, (pk, slip_type) in acked.items():
                status, _headers, page = terminal.request("GET", f"/cage/{SLUG}/slips/{pk}/")
                assert status == 200 and f"{SLIP_KINDS[slip_type].label} {stream[key][2]}" in page
        finally:
            server.stop()
        ledger = database.run("check_ledger", check=False)
        assert ledger.returncode == 0, ledger.stderr
