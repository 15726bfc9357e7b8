"""What a round trip through export_records and import_records must keep, and the cage's own work
that a records file from paper never has, for the round-trip tests.

`state(event)` is everything about an event that the product shows or reports, without the
database's own keys: its report, and each slip with its serial, times, figures, signatures and
what it moved. Subprocess tests print it from a fresh database with `print_state(slug)`.
"""

import datetime
import json
from collections import defaultdict
from decimal import Decimal

from django.utils import timezone

from cage import services
from cage.fields import BillsAndCoins
from cage.models import Account, Posting, Signature, Slip, SlipCounter
from core.money import shortest_decimal
from events import services as event_services
from events.models import Event, Role
from reports.figures import event_figures


def _when(moment):
    return moment.astimezone(datetime.UTC).isoformat() if moment else None


def state(event: Event) -> dict:
    keys = {d.pk: d.key for d in event.denominations.all()}
    accounts = {a.pk: a.code for a in Account.objects.filter(event=event)}
    moved = defaultdict(lambda: defaultdict(int))
    for p in Posting.objects.filter(slip__event=event):
        moved[p.slip_id][(accounts[p.account_id], keys.get(p.denomination_id, "cash"))] += p.amount
    signatures = defaultdict(list)
    for s in Signature.objects.filter(slip__event=event).order_by("id").select_related("person"):
        signatures[s.slip_id].append([s.capacity, s.person.code, _when(s.signed_at)])
    slips = []
    for slip in Slip.objects.filter(event=event).order_by("id").select_related("day", "table", "runner", "voids"):
        details = {k: v for k, v in slip.details.items() if k != "ref"}  # a ref is the file's name for a slip
        for share in details.get("shares", []):
            share["hours"] = shortest_decimal(Decimal(share["hours"]))
        slips.append(
            {
                "slip": f"{slip.slip_type} {slip.serial}",
                "day": slip.day.date.isoformat(),
                "at": _when(slip.at),
                "table": slip.table.code if slip.table else None,
                "runner": slip.runner.code if slip.runner else None,
                "account": accounts.get(slip.account_id),
                "voids": f"{slip.voids.slip_type} {slip.voids.serial}" if slip.voids else None,
                "reason": slip.reason,
                "details": details,
                "signatures": signatures[slip.id],
                "moved": sorted([a, i, v] for (a, i), v in moved[slip.id].items() if v),
            }
        )
    licensee = event.licensee
    return {
        "report": event_figures(event),
        "event": [
            event.name,
            event.licence_number,
            event.licensing_authority,
            event.venue,
            event.first_day.isoformat(),
            event.last_day.isoformat(),
            event.supplier,
            event.supplier_registration_number,
            event.games,
            [licensee.name, licensee.address, licensee.charitable_registration_number],
        ],
        "chips": [[d.key, d.value_cents, d.colour] for d in event.denominations.all()],
        "people": [
            [
                p.code,
                p.name,
                p.born_on.isoformat(),
                p.identification,
                p.supplier_associated,
                p.registration,
                p.gaming_assistant_number,
                sorted(p.role_codes()),
            ]
            for p in event.people.order_by("code")
        ],
        "tables": [[t.code, t.game, t.state] for t in event.tables.order_by("code")],
        "days": [
            [
                d.date.isoformat(),
                d.status,
                str(d.opens_at),
                str(d.closes_at),
                [[s.person.code, s.role, _when(s.starts_at), _when(s.ends_at)] for s in d.shifts.order_by("starts_at")],
            ]
            for d in event.days.order_by("date")
        ],
        "accounts": sorted(accounts.values()),
        "counters": sorted([c.slip_type, c.last] for c in SlipCounter.objects.filter(event=event)),
        "slips": slips,
    }


def print_state(slug: str) -> None:
    print(json.dumps(state(Event.objects.get(slug=slug))))


def pieces(cents: int) -> list[dict]:
    """Cash as bills and coins, largest first (as the count form's lines)."""
    lines = []
    for piece in BillsAndCoins.DENOMINATIONS:
        count, cents = divmod(cents, piece.cents)
        if count:
            lines.append({"unit_cents": piece.cents, "count": count})
    assert cents == 0
    return lines


def add_window_work(slug: str) -> None:
    """On the event's open day, what the cage's pages do that a file from paper does not: signatures
    that follow their slip, slips still in transit or waiting, a void the DRIC asks for, bank cash
    counted by bill and coin with a reason from the list; then a registration changed, an auditor
    added, the day's roster, and the next day scheduled with its hours and roster."""
    event = Event.objects.get(slug=slug)
    day = event.days.get(status="open")
    people = {p.code: p for p in event.people.all()}
    ann, cora, gus, rita, ron, dana = (people[c] for c in ("ann", "cora", "gus", "rita", "ron", "dana"))
    table = event.tables.get(code="BJ-1")
    clock = [Slip.objects.filter(event=event).order_by("-id").first().at]

    def later(minutes=1):
        clock[0] += datetime.timedelta(minutes=minutes, seconds=7, microseconds=1234)
        return clock[0]

    sale = services.sale(day=day, chips={"1": 3}, cash=300, signed={"sold_by": cora}, allow_pending=True, at=later())
    services.sign(slip=sale, capacity="authorized_by", person=ann, at=later())
    fill = services.fill(
        day=day,
        table=table,
        chips={"1": 5},
        signed={"issued_by": cora, "carried_by": rita},
        allow_pending=True,
        at=later(),
    )
    services.sign(slip=fill, capacity="received_by", person=dana, at=later(3))
    services.sign(slip=fill, capacity="authorized_by", person=ann, at=later())
    # Still in transit when the event is exported.
    services.fill(
        day=day,
        table=table,
        chips={"5": 2},
        signed={"issued_by": cora, "carried_by": ron},
        allow_pending=True,
        at=later(),
    )
    # Written at the cage; nobody has signed it yet.
    services.credit(day=day, table=table, chips={"1": 2}, runner=rita, signed={}, allow_pending=True, at=later())
    # A void the DRIC asks for from her queue; the cashier signs it when the cash comes back.
    wrong = services.sale(
        day=day, chips={"5": 4}, cash=2000, signed={"sold_by": cora, "authorized_by": ann}, at=later()
    )
    void = services.void(
        day=day, target=wrong, reason="sold twice", signed={"authorized_by": ann}, allow_pending=True, at=later()
    )
    services.sign(slip=void, capacity="requested_by", person=cora, at=later(2))
    bank_cash = services.account_get(event, Account.Kind.BANK_CASH)
    counted = services.balance(bank_cash)[None] - 500
    services.count(
        day=day,
        account=bank_cash,
        cash=counted,
        cash_lines=pieces(counted),
        variance_reason="cash_short",
        reason="Cash short",
        signed={"counted_by": gus, "verified_by": cora},
        at=later(),
    )
    event_services.registration_change(person=people["rae"], registration="suspended")
    auditor = event_services.person_add(
        event=event,
        code="audrey",
        name="Audrey Fortin",
        born_on=datetime.date(1972, 5, 9),
        identification="AGCO inspector card",
    )
    event_services.role_assign(person=auditor, role=Role.AUDITOR, by=None)

    next_day = event_services.day_add(
        event=event,
        date=day.date + datetime.timedelta(days=1),
        opens_at=datetime.time(12, 0),
        closes_at=datetime.time(23, 30),
    )
    for d in (day, next_day):
        # From before the day's first record: a designated person signs only while on duty (T&C 2).
        for code, role in (("ann", Role.DRIC), ("gus", Role.GENERAL_CASHIER), ("cora", Role.CHIP_CASHIER)):
            start = datetime.datetime.combine(d.date, datetime.time(9, 0))
            event_services.shift_add(
                day=d,
                person=people[code],
                role=role,
                starts_at=timezone.make_aware(start),
                ends_at=timezone.make_aware(start + datetime.timedelta(hours=16)),
            )
