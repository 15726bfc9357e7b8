"""Read-only queries for a person's own page: what a runner holds, the slips that name them, a
dealer's tip shares. Each runs a fixed number of queries and never creates an account: a runner
with no account yet simply holds nothing."""

from collections import defaultdict
from decimal import Decimal

from django.db.models import Exists, OuterRef, Q

from cage.models import Account, Signature, Slip
from cage.selectors.amounts import amount_of, cash_moved_subquery
from cage.selectors.places import held_together
from cage.slip_types import SLIP_KINDS, TIP_PAYOUTS
from core.compiled import Compiled
from core.money import dollars, hours_text
from events.models import Event, GamingDay, Person
from events.selectors import chip_values

# Compiled once (core.compiled): every page and slip of the window asks.
_WORKING_DAY = Compiled(
    lambda event_id: GamingDay.objects.filter(
        event_id=event_id, status__in=(GamingDay.Status.OPEN, GamingDay.Status.RECONCILING)
    ).order_by("date")
)
_LATEST_DAY = Compiled(lambda event_id: GamingDay.objects.filter(event_id=event_id).order_by("-date"))


def current_day(event: Event) -> GamingDay | None:
    """The day the cage works in: the open or reconciling one, else the latest."""
    day = _WORKING_DAY.first(event.pk) or _LATEST_DAY.first(event.pk)
    if day is not None:
        day.event = event  # as event.days gives it: the day's event is the one asked about
    return day


def holdings(event: Event, person: Person) -> dict:
    """What a runner holds now, from the balance of their runner account (if they have one).

    {"chips": [{"denomination", "count", "amount"}], "cash": str | None, "total": str, "empty": bool};
    amounts are dollars as people read them. Three queries: the chip set, the runner's account and
    its balance (cage.selectors.places.balances_read).
    """
    denominations = list(event.denominations.all())
    held = held_together(Account.objects.filter(event=event, kind=Account.Kind.RUNNER, person=person))
    chips = []
    for denomination in denominations:
        cents = held.get(denomination.pk) or 0
        if cents:
            chips.append(
                {
                    "denomination": denomination,
                    "count": cents // denomination.value_cents,
                    "amount": dollars(cents),
                }
            )
    cash = held.get(None) or 0
    total = sum(v for v in held.values() if v)
    return {
        "chips": chips,
        "cash": dollars(cash) if cash else None,
        "cash_cents": cash,
        "total": dollars(total),
        "empty": not chips and not cash,
    }


def day_slips(day: GamingDay | None, person: Person) -> list[dict]:
    """The day's slips that name this person as runner or that they signed, newest first.

    [{"slip", "label", "serial", "at", "table", "amount", "voided", "runner"}]. Two queries.
    """
    if day is None:
        return []
    values = chip_values(day.event)
    signed = Signature.objects.filter(person=person).values("slip_id")
    slips = (
        Slip.objects.filter(day=day)
        .filter(Q(runner=person) | Q(pk__in=signed))
        .select_related("table", "voids", "refusal")
        .annotate(
            cash_moved=cash_moved_subquery(), voided=Exists(Slip.objects.voids_done().filter(voids=OuterRef("pk")))
        )
        .order_by("-at", "-id")
    )
    rows = []
    for slip in slips:
        voided = slip.voided
        rows.append(
            {
                "slip": slip,
                # As its number says it everywhere else: "Chips received 1", "Fill 4".
                "label": SLIP_KINDS[slip.slip_type].label,
                "serial": slip.serial,
                "at": slip.at,
                "table": slip.table.code if slip.table else "",
                "amount": dollars(amount_of(slip, values, slip.cash_moved) or 0),
                "voided": voided,
                "refused": hasattr(slip, "refusal"),
                "runner": slip.runner_id == person.pk,
            }
        )
    return rows


def tip_shares(event: Event, person: Person) -> dict:
    """A dealer's shares of the tips paid out (the tip payouts' details["shares"]), per gaming day
    and in total; voided payouts left out. One query.

    {"days": [{"date", "hours", "amount"}], "hours": str, "amount": str, "empty": bool}.
    """
    payouts = (
        Slip.objects.filter(event=event, slip_type__in=TIP_PAYOUTS)
        .standing()
        .select_related("day")
        .order_by("day__date", "id")
    )
    hours: dict = defaultdict(Decimal)
    cents: dict = defaultdict(int)
    for payout in payouts:
        for share in payout.details.get("shares", []):
            if share["person"] == person.code:
                hours[payout.day.date] += Decimal(share["hours"])
                cents[payout.day.date] += share["amount"]
    days = [{"date": date, "hours": hours_text(hours[date]), "amount": dollars(cents[date])} for date in sorted(cents)]
    return {
        "days": days,
        "hours": hours_text(sum(hours.values(), Decimal(0))),
        "amount": dollars(sum(cents.values())),
        "empty": not days,
    }
