"""Short ways to put a cast's cage into a known state through the real services."""

import datetime

from django.utils import timezone

from cage import services
from events import services as event_services
from events.models import Role


def stock(cast, *, chips=None, cash=100_000):
    """Chips from the supplier into the chip bank and a float into bank cash."""
    services.chips_received(
        day=cast.day,
        chips=chips or {"1": 1000, "5": 400, "25": 40},
        signed=cast.signed(received_by="chip_cashier", witnessed_by="dric"),
    )
    if cash:
        services.float_in(
            day=cast.day, cash=cash, signed=cast.signed(received_by="general_cashier", witnessed_by="dric")
        )


def open_table(cast, table=None, chips=None):
    table = table or cast.bj
    chips = chips or {"1": 100, "5": 80}
    services.table_issue(
        day=cast.day, table=table, chips=chips, signed=cast.signed(issued_by="chip_cashier", received_by="dealer")
    )
    services.table_open(
        day=cast.day, table=table, chips=chips, signed=cast.signed(counted_by="dealer", verified_by="chip_cashier")
    )
    table.refresh_from_db()
    return table


def fill_in_transit(cast, chips=None, runner=None):
    """A fill to BJ-1 issued at the cage and carried by the runner: in transit, waiting for the
    dealer's "received by" and the DRIC's "authorized by"."""
    runner = runner or cast.runner
    return services.fill(
        day=cast.day,
        table=cast.bj,
        chips=chips or {"5": 4},
        runner=runner,
        signed={"issued_by": cast.chip_cashier, "carried_by": runner},
        allow_pending=True,
    )


FILL_SIGNED = {"issued_by": "chip_cashier", "carried_by": "runner", "received_by": "dealer", "authorized_by": "dric"}


def fill_issued(cast):
    """A fill of 4 $5 chips to BJ-1 (opened first), issued at the cage and authorized by the DRIC:
    waiting for its runner's "carried by", nothing moved yet."""
    open_table(cast)
    issued = {k: v for k, v in FILL_SIGNED.items() if k in ("issued_by", "authorized_by")}
    return services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"5": 4},
        runner=cast.runner,
        signed=cast.signed(**issued),
        allow_pending=True,
    )


CREDIT_SIGNED = {
    "released_by": "dealer",
    "carried_by": "runner",
    "received_by": "chip_cashier",
    "authorized_by": "dric",
}
COUNT_SIGNED = {"counted_by": "general_cashier", "verified_by": "chip_cashier"}
CLOSE_SIGNED = {"prepared_by": "general_cashier", "verified_by": "chip_cashier", "approved_by": "dric"}
SALE_SIGNED = {"sold_by": "chip_cashier", "authorized_by": "dric"}


def close_clean_day(cast):
    """Stock the bank, count it and close the day: the shortest day that closes cleanly."""
    stock(cast, chips={"1": 10}, cash=1000)
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=1000,
        signed=cast.signed(**COUNT_SIGNED),
    )
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "chip_bank"),
        chips={"1": 10},
        signed=cast.signed(**COUNT_SIGNED),
    )
    return services.close_day(day=cast.day, signed=cast.signed(**CLOSE_SIGNED))


def roster_dealers(cast, hours=24, *, dealers=("dealer", "dealer2"), start=0, role=Role.DEALER):
    """The cast's dealers (or other people, in `role`) on the day's roster, each from `start`
    o'clock for `hours` hours: the hours a tip payout shares the pool by are held to them (T&C 2.6)."""
    begins = timezone.make_aware(datetime.datetime.combine(cast.day.date, datetime.time(start)))
    for persona in dealers:
        event_services.shift_add(
            day=cast.day,
            person=getattr(cast, persona),
            role=role,
            starts_at=begins,
            ends_at=begins + datetime.timedelta(hours=hours),
        )


def roster_the_designated(cast, hours=24):
    """The cast's DRIC, General Cashier and Chip Cashier on the day's roster in their positions, from
    midnight for `hours` hours: the last thing an event's first day waits for (events.readiness)."""
    for persona in (Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER):
        roster_dealers(cast, hours, dealers=(persona,), role=persona)


def count_short_and_close(cast):
    """A day on the books: stock in, bank cash counted even, the chip bank two $1 chips short
    ("missing chips" chosen from the list, no words), and the day closed."""
    stock(cast)
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=100_000,
        signed=cast.signed(**COUNT_SIGNED),
    )
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "chip_bank"),
        chips={"1": 998, "5": 400, "25": 40},
        variance_reason="missing_chips",
        signed=cast.signed(**COUNT_SIGNED),
    )
    return services.close_day(day=cast.day, signed=cast.signed(**CLOSE_SIGNED))


def count_bank_and_close(cast, *, cash: int, chips: dict):
    """The bank counted as it stands (bank cash, the chip bank), and the day closed."""
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=cash,
        signed=cast.signed(**COUNT_SIGNED),
    )
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "chip_bank"),
        chips=chips,
        signed=cast.signed(**COUNT_SIGNED),
    )
    return services.close_day(day=cast.day, signed=cast.signed(**CLOSE_SIGNED))


def written(minutes_ago: int) -> datetime.datetime:
    """A time written on a paper slip: some minutes before now."""
    return timezone.now() - datetime.timedelta(minutes=minutes_ago)


def worked_then_paper(cast):
    """A night worked online until an hour ago (the bank stocked, BJ-1 open), then on paper: a book
    of four fills and one of three sales printed beforehand, of which the outage used two fills
    and a sale, as the Chip Cashier says once the system is back. Returns (fills, sales)."""
    from cage.services import paper

    services.chips_received(
        day=cast.day,
        chips={"1": 1000, "5": 400, "25": 40},
        signed=cast.signed(received_by="chip_cashier", witnessed_by="dric"),
        at=written(62),
    )
    services.float_in(
        day=cast.day,
        cash=100_000,
        signed=cast.signed(received_by="general_cashier", witnessed_by="dric"),
        at=written(61),
    )
    services.table_issue(
        day=cast.day,
        table=cast.bj,
        chips={"5": 80},
        signed=cast.signed(issued_by="chip_cashier", received_by="dealer"),
        at=written(60),
    )
    services.table_open(
        day=cast.day,
        table=cast.bj,
        chips={"5": 80},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
        at=written(59),
    )
    cast.bj.refresh_from_db()
    fills = paper.book_print(event=cast.event, slip_type="fill", count=4, user=None, language="en").book
    sales = paper.book_print(event=cast.event, slip_type="sale", count=3, user=None, language="en").book
    paper.written_declare(day=cast.day, book=fills, last=2, person=cast.chip_cashier)
    paper.written_declare(day=cast.day, book=sales, last=1, person=cast.chip_cashier)
    return fills, sales


def count_as_the_books_hold(day, signed: dict, *, at=None):
    """Bank cash and the chip bank counted at what they hold: a close with no variance."""
    event = day.event
    for kind in ("bank_cash", "chip_bank"):
        account = services.account_get(event, kind)
        held = services.balance(account)
        chips = {d.key: held.get(d.pk, 0) // d.value_cents for d in event.denominations.all() if held.get(d.pk)}
        services.count(
            day=day,
            account=account,
            cash=held.get(None) if kind == "bank_cash" else None,
            chips=chips if kind == "chip_bank" else {},
            signed=signed,
            **({"at": at} if at else {}),
        )


def tables_written(queries) -> list[str]:
    """The tables each write of a captured run of queries (CaptureQueriesContext) went to, in order:
    a GET that writes nothing but its audit entry writes ["audit_auditentry", "audit_auditlink"]."""
    return [
        q["sql"].split('"')[1]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]


def count_tip_pool(cast, *, at=None):
    """The tip pool counted at what it holds: the count a payout waits for (T&C 2.6, counted
    before it is paid out)."""
    event = cast.event
    account = services.account_get(event, "tip_pool")
    held = services.balance(account)
    chips = {d.key: held.get(d.pk, 0) // d.value_cents for d in event.denominations.all() if held.get(d.pk)}
    return services.count(
        day=cast.day,
        account=account,
        chips=chips,
        signed=cast.signed(**COUNT_SIGNED),
        **({"at": at} if at else {}),
    )
