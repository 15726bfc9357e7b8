"""On PostgreSQL, with real connections in threads (issue 11): a slip locks what it takes from, not
the whole gaming day. Cashiers at other terminals carry on while one slip is being written; a slip
taking from the same place waits for it; reconciling or closing the day takes the day for itself,
so it waits for the slips being written and they wait for it, then see the day's new state."""

import threading
import time

import pytest
from django.db import connection, transaction

from cage import services
from cage.ledger_check import running_total_breaks
from cage.models import Slip
from core.rules import RuleViolation
from events.models import GamingDay
from tests.cage.helpers import CREDIT_SIGNED, FILL_SIGNED, SALE_SIGNED, open_table, stock
from tests.conftest import make_cast, owner_for_a_moment

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="PostgreSQL only: set DATABASE_URL (make test-postgres)"
    ),
]

REDEMPTION_SIGNED = {"paid_by": "general_cashier", "authorized_by": "dric"}
PATIENCE = 60  # seconds before a test gives up on a thread: a guard against a hang, not a measure


class Terminal(threading.Thread):
    """One cashier's terminal: its own database connection, running `work`. With `hold`, the work
    runs inside a transaction left open (its locks held) until `release` is set."""

    def __init__(self, work, *, hold: bool = False):
        super().__init__(daemon=True)
        self.work, self.hold = work, hold
        self.connected, self.holding, self.release = threading.Event(), threading.Event(), threading.Event()
        self.pid = None
        self.outcome = None

    def run(self):
        try:
            connection.ensure_connection()
            self.pid = connection.connection.info.backend_pid
            self.connected.set()
            if self.hold:
                with transaction.atomic():
                    self.outcome = self.work()
                    self.holding.set()
                    self.release.wait(PATIENCE)
            else:
                self.outcome = self.work()
        except RuleViolation as refused:
            self.outcome = refused
        finally:
            self.holding.set()
            connection.close()

    def finish(self):
        self.release.set()
        self.join(PATIENCE)
        assert not self.is_alive(), "a terminal never finished"
        return self.outcome


def waiting_for_a_lock(terminal: Terminal) -> bool:
    """Whether the terminal's connection waits for a lock another holds (PostgreSQL's own view)."""
    terminal.connected.wait(PATIENCE)
    until = time.monotonic() + PATIENCE
    while time.monotonic() < until and terminal.is_alive():
        # Read as the login: the application's role sees no other session's wait in pg_stat_activity.
        with owner_for_a_moment(), connection.cursor() as cursor:
            cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [terminal.pid])
            row = cursor.fetchone()
        if row and row[0] == "Lock":
            return True
        time.sleep(0.02)
    return False


def held(work) -> Terminal:
    terminal = Terminal(work, hold=True)
    terminal.start()
    assert terminal.holding.wait(PATIENCE)
    return terminal


class PausedBeforeItsLink(Terminal):
    """A terminal whose slip is being written: it holds the locks of the places it takes from and
    stops just before its link of the hash chain (core.chain), until released. From its link to its
    commit a slip holds the chain's lock, which the next slip's link waits for: the moment a chain
    takes, not the whole writing of a slip."""

    def __init__(self, work, monkeypatch):
        super().__init__(work)
        from cage.services import links

        original = links._append

        def pausing(*args, **kwargs):
            if threading.current_thread() is self:
                self.holding.set()
                self.release.wait(PATIENCE)
            return original(*args, **kwargs)

        monkeypatch.setattr(links, "_append", pausing)


@pytest.mark.django_db(transaction=True)
def test_a_sale_and_a_fill_go_through_while_a_credit_at_another_table_is_being_written(monkeypatch):
    cast = make_cast("locks")
    stock(cast)
    open_table(cast, cast.bj)
    open_table(cast, cast.wheel)
    # A place's account is made the first time it is used (the runner's, here): made now, so that
    # neither terminal waits for the other's first use of it.
    services.account_get(cast.event, "runner", person=cast.runner)
    credit = PausedBeforeItsLink(
        lambda: services.credit(day=cast.day, table=cast.wheel, chips={"1": 10}, signed=cast.signed(**CREDIT_SIGNED)),
        monkeypatch,
    )
    credit.start()
    assert credit.holding.wait(PATIENCE) and credit.is_alive()

    def sale_and_fill():
        sale = services.sale(day=cast.day, chips={"5": 4}, cash=2_000, signed=cast.signed(**SALE_SIGNED))
        fill = services.fill(day=cast.day, table=cast.bj, chips={"5": 10}, signed=cast.signed(**FILL_SIGNED))
        return [sale, fill]

    other = Terminal(sale_and_fill)
    other.start()
    other.join(PATIENCE)
    # Both were written, and are on file for everyone, while the credit still holds its locks.
    assert not other.is_alive() and [s.slip_type for s in other.outcome] == ["sale", "fill"]
    assert credit.is_alive()
    assert set(Slip.objects.values_list("slip_type", flat=True)) >= {"sale", "fill"}
    assert not Slip.objects.filter(slip_type="credit").exists()

    # A second credit from the same tray waits for the first, then reads what it left.
    second = Terminal(
        lambda: services.credit(day=cast.day, table=cast.wheel, chips={"1": 10}, signed=cast.signed(**CREDIT_SIGNED))
    )
    second.start()
    assert waiting_for_a_lock(second)
    assert isinstance(credit.finish(), Slip)
    assert isinstance(second.finish(), Slip)

    # Serials without gaps or doubles; each slip's time no earlier than the one written before it.
    credits = sorted(Slip.objects.filter(slip_type="credit").values_list("serial", flat=True))
    assert credits == [1, 2]
    times = list(Slip.objects.order_by("id").values_list("at", flat=True))
    assert times == sorted(times)
    assert (
        services.balance(services.account_get(cast.event, "table", table=cast.wheel))[
            cast.event.denominations.get(key="1").pk
        ]
        == 100 * 100 - 2 * 10 * 100
    )
    assert running_total_breaks([cast.event]) == []


@pytest.mark.django_db(transaction=True)
def test_reconciling_the_day_waits_for_the_slip_being_written_and_the_next_slips_wait_for_it():
    cast = make_cast("closing")
    stock(cast)
    services.sale(day=cast.day, chips={"5": 4}, cash=2_000, signed=cast.signed(**SALE_SIGNED))

    # A sale being written: the floor's close waits for it.
    sale = held(lambda: services.sale(day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(**SALE_SIGNED)))
    closing = Terminal(lambda: services.day_reconcile(day=cast.day), hold=True)
    closing.start()
    assert waiting_for_a_lock(closing)
    assert isinstance(sale.finish(), Slip)
    assert closing.holding.wait(PATIENCE) and closing.outcome.status == GamingDay.Status.RECONCILING

    # While the reconciliation is being written, a redemption and a sale wait for it; then the
    # redemption goes through (a day reconciling still pays patrons) and the sale is refused.
    redemption = Terminal(
        lambda: services.redemption(day=cast.day, chips={"5": 4}, cash=2_000, signed=cast.signed(**REDEMPTION_SIGNED))
    )
    late_sale = Terminal(
        lambda: services.sale(day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(**SALE_SIGNED))
    )
    for terminal in (redemption, late_sale):
        terminal.start()
        assert waiting_for_a_lock(terminal)
    closing.finish()
    assert isinstance(redemption.finish(), Slip)
    refused = late_sale.finish()
    assert isinstance(refused, RuleViolation) and "reconciling; this slip needs it open" in str(refused)
    assert Slip.objects.filter(slip_type="sale").count() == 2
    times = list(Slip.objects.order_by("id").values_list("at", flat=True))
    assert times == sorted(times)
    assert running_total_breaks([cast.event]) == []


@pytest.mark.django_db(transaction=True)
def test_two_terminals_voiding_one_sale_and_a_redemption_meanwhile_end_in_a_void_a_refusal_and_a_redemption():
    cast = make_cast("voids")
    stock(cast)
    sale = services.sale(day=cast.day, chips={"5": 8}, cash=4_000, signed=cast.signed(**SALE_SIGNED))
    void_signed = {"requested_by": "chip_cashier", "authorized_by": "dric"}
    first = held(
        lambda: services.void(day=cast.day, target=sale, reason="wrong chips", signed=cast.signed(**void_signed))
    )
    second = Terminal(
        lambda: services.void(day=cast.day, target=sale, reason="again", signed=cast.signed(**void_signed))
    )
    # A void of a sale takes chips back from patrons; a redemption takes them too: one waits for the
    # other's lock on the patrons' chips, never each for the other's (no deadlock, no error page).
    redemption = Terminal(
        lambda: services.redemption(day=cast.day, chips={"5": 2}, cash=1_000, signed=cast.signed(**REDEMPTION_SIGNED))
    )
    for terminal in (second, redemption):
        terminal.start()
        assert waiting_for_a_lock(terminal)
    assert isinstance(first.finish(), Slip)
    refused = second.finish()
    assert isinstance(refused, RuleViolation) and "already voided" in str(refused)
    # With the sale voided, patrons hold no chips from it: the redemption is refused for that, as
    # it would be had the two been written one after the other.
    outcome = redemption.finish()
    assert isinstance(outcome, RuleViolation), outcome
    assert Slip.objects.filter(slip_type="void").count() == 1
    assert not Slip.objects.filter(slip_type="redemption").exists()
    assert running_total_breaks([cast.event]) == []


@pytest.mark.django_db(transaction=True)
def test_a_slip_adding_to_its_places_running_totals_holds_the_chain_so_the_next_waits_for_the_chain(monkeypatch):
    """A slip adds to its places' running totals after its link, under the chain's lock, the last
    lock it takes: the next slip that adds to the same rows (the bank's cash, the patrons' chips)
    waits for the first to commit, holding none of them meanwhile (no deadlock, no error page), and
    both add up."""
    from cage.services import running_totals

    cast = make_cast("totals")
    stock(cast)
    bank = services.account_get(cast.event, "bank_cash")
    before = services.balance(bank)[None]
    original = running_totals.add
    paused = {}

    def pausing(*args, **kwargs):
        original(*args, **kwargs)
        terminal = paused.get("first")
        if terminal is not None and threading.current_thread() is terminal:
            terminal.holding.set()
            terminal.release.wait(PATIENCE)

    monkeypatch.setattr(running_totals, "add", pausing)
    first = Terminal(lambda: services.sale(day=cast.day, chips={"5": 4}, cash=2_000, signed=cast.signed(**SALE_SIGNED)))
    paused["first"] = first
    first.start()
    assert first.holding.wait(PATIENCE) and first.is_alive()
    second = Terminal(
        lambda: services.sale(day=cast.day, chips={"5": 2}, cash=1_000, signed=cast.signed(**SALE_SIGNED))
    )
    second.start()
    assert waiting_for_a_lock(second)
    assert isinstance(first.finish(), Slip)
    assert isinstance(second.finish(), Slip)
    assert running_total_breaks([cast.event]) == []
    assert services.balance(bank)[None] == before + 3_000
