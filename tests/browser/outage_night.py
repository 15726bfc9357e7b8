"""One night at the cage, for the outage drill (test_outage_drill.py): run inside `manage.py shell`
on a database of its own, through the product's services.

`online_half` is the night until the network drops; `outage_online` is what the outage's paper
slips say, recorded as though the network had stayed up (the night all online, to compare with);
`close` closes the night. Every slip has its time, minutes after T0, so that both versions of the
night are the same night.
"""

import datetime
import json

from cage import services
from tests.cage.helpers import count_as_the_books_hold
from tests.conftest import make_cast

SLUG = "lakeside"
# The paper slips of the outage, oldest first: (type, minutes after T0, what the paper says).
PAPER = [
    ("fill", 20, {"table": "BJ-1", "chips": {"25": 4}}),
    ("sale", 25, {"chips": {"5": 10}, "cash": 5000}),
    ("credit", 30, {"table": "BJ-1", "chips": {"5": 10}}),
    ("redemption", 35, {"chips": {"25": 2}, "cash": 5000}),
    ("runner_return", 40, {"chips": {"5": 20}, "cash": 0}),
]


def _cast():
    from cage.selectors.people import current_day
    from events.models import Event

    event = Event.objects.get(slug=SLUG)
    people = {p.code: p for p in event.people.all()}
    return event, current_day(event), people, {t.code: t for t in event.tables.all()}


def _at(t0: str, minutes: int) -> datetime.datetime:
    return datetime.datetime.fromisoformat(t0) + datetime.timedelta(minutes=minutes)


def online_half(t0: str) -> None:
    """The event set up (every person with a login), the day open, and the night until the network
    drops: the bank stocked, BJ-1 open, a runner with chips, a sale at the cage."""
    cast = make_cast(SLUG)
    s = cast.signed
    day = cast.day
    services.chips_received(
        day=day,
        chips={"1": 500, "5": 200, "25": 40},
        signed=s(received_by="chip_cashier", witnessed_by="dric"),
        at=_at(t0, 0),
    )
    services.float_in(day=day, cash=50_000, signed=s(received_by="general_cashier", witnessed_by="dric"), at=_at(t0, 1))
    chips = {"5": 40, "25": 8}
    services.table_issue(
        day=day, table=cast.bj, chips=chips, signed=s(issued_by="chip_cashier", received_by="dealer"), at=_at(t0, 2)
    )
    services.table_open(
        day=day, table=cast.bj, chips=chips, signed=s(counted_by="dealer", verified_by="chip_cashier"), at=_at(t0, 3)
    )
    services.runner_issue(
        day=day,
        runner=cast.runner,
        chips={"5": 20},
        signed=s(issued_by="chip_cashier", received_by="runner"),
        at=_at(t0, 4),
    )
    services.sale(
        day=day,
        chips={"25": 4},
        cash=10_000,
        signed=s(sold_by="chip_cashier", authorized_by="dric"),
        at=_at(t0, 5),
    )


SIGNED = {
    "fill": {"issued_by": "chip_cashier", "carried_by": "runner", "received_by": "dealer", "authorized_by": "dric"},
    "sale": {"sold_by": "chip_cashier", "authorized_by": "dric"},
    "credit": {"released_by": "dealer", "carried_by": "runner", "received_by": "chip_cashier", "authorized_by": "dric"},
    "redemption": {"paid_by": "general_cashier", "authorized_by": "dric"},
    "runner_return": {"returned_by": "runner", "received_by": "chip_cashier"},
}


def outage_online(t0: str) -> None:
    """The outage's slips as if the network had stayed up: the same slips at the same times."""
    event, day, people, tables = _cast()
    for slip_type, minutes, paper in PAPER:
        fields = {"chips": paper["chips"]}
        if "table" in paper:
            fields["table"] = tables[paper["table"]]
        if "cash" in paper:  # a runner return brings back no cash here: nothing was sold on the floor
            fields["cash"] = paper["cash"]
        if slip_type in ("fill", "credit", "runner_return"):
            fields["runner"] = people["runner"]
        signed = {capacity: people[code] for capacity, code in SIGNED[slip_type].items()}
        getattr(services, slip_type)(day=day, signed=signed, at=_at(t0, minutes), **fields)


def close(t0: str) -> None:
    """BJ-1 closes, the floor closes, bank cash and the chip bank are counted, and the three sign
    the close."""
    event, day, people, tables = _cast()

    def signed(**capacities):
        return {capacity: people[code] for capacity, code in capacities.items()}

    services.table_close(
        day=day,
        table=tables["BJ-1"],
        chips={"5": 30, "25": 10},
        signed=signed(counted_by="dealer", verified_by="chip_cashier"),
        at=_at(t0, 60),
    )
    day = services.day_reconcile(day=day)
    count_as_the_books_hold(day, signed(counted_by="general_cashier", verified_by="chip_cashier"), at=_at(t0, 61))
    services.close_day(
        day=day,
        signed=signed(prepared_by="general_cashier", verified_by="chip_cashier", approved_by="dric"),
        at=_at(t0, 70),
    )


def run(step: str, t0: str) -> None:
    globals()[step](t0)
    print(json.dumps({"done": step}))
