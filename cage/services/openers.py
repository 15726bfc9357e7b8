"""The next day's openers are checked against the last closers (DESIGN: gaming day).

When a table opens, its opener count is compared, per chip denomination, with what the table's
last closer of an earlier day left in the tray (plus the chips issued to the tray and less those
returned since, which the Chip Cashier recorded). A difference is not refused (the chips are what
they are; the opener's count already posts it to over/short with its reason) but flagged on the
opener slip, and the DRIC signs it off from her own session (T&C 2: the designated persons
witness and authorize the cage's transactions and approve the control sheets; DESIGN: the DRIC
approves variances). The day cannot close while a flagged opener waits for her.
"""

import datetime
from collections import Counter

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from audit import services as audit
from cage.models import OpenerSignOff, Signature, Slip
from cage.selectors.openers import is_flagged
from cage.slip_types import CLOSERS, OPENERS, SLIP_KINDS, STOCKINGS
from core.compiled import Compiled
from core.rules import RuleViolation, Words
from events.designation import check_takes_part
from events.models import GameTable, GamingDay, Person, Role

from . import links
from . import memo as remembered
from .ledger import denominations, lock_day, lock_slip

# T&C 2: the designated persons witness and authorize the cage's transactions and approve the
# control sheets; the product's own rule is that openers are checked against the last closers.
RULE = "T&C 2"
CLOSER_CHECK = gettext_lazy("openers checked against the last closers, differences signed off by the DRIC")
SETTLING = (GamingDay.Status.OPEN, GamingDay.Status.RECONCILING)


def closer_check(day: GamingDay, table: GameTable, chips: dict[str, int]) -> dict | None:
    """What the opener `chips` are checked against, for the opener slip's details, or None when the
    table never closed on an earlier day (a first opening starts from what was issued to it).

    {"closer_serial", "date": the closer's gaming day, "left": {key: chips} the closer left plus
    issues less returns since, "differences": {key: opener − left} (empty: they match)}. The closer
    is named by its serial, never its row id, which an import's copy into the real database renumbers.
    """
    found = _last_left(day, table)
    if found is None:
        return None
    closer, left = found
    order = [d.key for d in denominations(day.event)]
    return {
        "closer_serial": closer["serial"],
        "date": closer["date"],
        "left": {key: left[key] for key in order if left.get(key)},
        "differences": {
            key: chips.get(key, 0) - left.get(key, 0) for key in order if chips.get(key, 0) != left.get(key, 0)
        },
    }


def _last_left(day: GamingDay, table: GameTable) -> tuple[dict, Counter] | None:
    """({"serial", "date"} of the table's last closer of an earlier day, the chips it left plus
    issues less returns since), or None. An import keeps it per table as it writes their slips
    (remember_written): every table opens every day, and two queries at each opening were a cost
    of the import's days, not of its records (issue 27)."""
    memo = remembered.current()
    known = memo.last_closers.get(table.pk) if memo is not None else None
    if known is not None and known[0]["date"] < day.date.isoformat():
        return known[0], Counter(known[1])
    closer = (
        Slip.objects.filter(event_id=day.event_id, table=table, slip_type__in=CLOSERS, day__date__lt=day.date)
        .select_related("day")
        .order_by("-id")
        .first()
    )
    if closer is None:
        return None
    left = _left_by(closer.details)
    since = Slip.objects.filter(table=table, slip_type__in=STOCKINGS, id__gt=closer.id).values_list(
        "slip_type", "details"
    )
    for slip_type, details in since:
        _stocked(left, slip_type, details)
    found = {"serial": closer.serial, "date": closer.day.date.isoformat()}, left
    if memo is not None and known is None:
        memo.last_closers[table.pk] = found[0], Counter(left)
    return found


def _left_by(details: dict) -> Counter:
    """The chips a closer left in the tray, as its slip counted them."""
    return Counter({k: int(n) for k, n in (details.get("chips") or {}).items()})


def _stocked(left: Counter, slip_type: str, details: dict) -> None:
    """`left` after a closed table's tray was stocked (an issue) or taken back (a return)."""
    sign = SLIP_KINDS[slip_type].stocks_tray
    for key, count in (details.get("chips") or {}).items():
        left[key] += sign * int(count)


def remember_written(memo, slip: Slip) -> None:
    """An import wrote `slip`: what its table's next opener is checked against follows it (a
    closer starts it afresh, an issue or a return to the closed tray moves it)."""
    if slip.table_id is None:
        return
    if slip.slip_type in CLOSERS:
        # The slip was made with its day (post_slip): its date is read without a query.
        memo.last_closers[slip.table_id] = (
            {"serial": slip.serial, "date": slip.day.date.isoformat()},
            _left_by(slip.details),
        )
    elif slip.slip_type in STOCKINGS and slip.table_id in memo.last_closers:
        _stocked(memo.last_closers[slip.table_id][1], slip.slip_type, slip.details)


# Compiled once (core.compiled): an import's close signs off the day's flagged openers every day.
_OPENER = Compiled(lambda pk: Slip.objects.select_related("event", "table", "day").filter(pk=pk))
_SIGNED_OFF = Compiled(
    lambda slip_id: OpenerSignOff.objects.filter(slip_id=slip_id).select_related("person").order_by("pk")
)
_SIGNED_BY = Compiled(lambda slip_id, person_id: Signature.objects.filter(slip_id=slip_id, person_id=person_id))


@transaction.atomic
def opener_sign_off(
    *, slip: Slip, person: Person, at: datetime.datetime | None = None, via: str = OpenerSignOff.Via.APP
) -> OpenerSignOff:
    """The DRIC signs off an opener that differs from its table's last closer. The caller has
    authenticated `person` (her own session; a records file's close_day approved by her)."""
    slip = _OPENER.get(slip.pk)
    if slip.slip_type not in OPENERS or not is_flagged(slip):
        raise RuleViolation(
            Words(
                N_("%(slip)s does not differ from its table's last closer; there is nothing to sign off"),
                slip=slip.number,
            ),
            CLOSER_CHECK,
            code="opener.nothing_to_sign_off",
        )
    lock_day(slip.day, allowed=SETTLING)
    lock_slip(slip)  # signed off once: a second terminal finds the first's sign-off
    done = _SIGNED_OFF.first(slip.pk)
    if done is not None:
        raise RuleViolation(
            Words(N_("%(slip)s is already signed off by %(name)s"), slip=slip.number, name=done.person.name),
            CLOSER_CHECK,
            code="opener.already_signed_off",
        )
    if person.event_id != slip.event_id:
        raise RuleViolation(
            Words(N_("%(name)s is not on this event"), name=person.name), "T&C 2", code="person.not_on_event"
        )
    check_takes_part(person)
    if Role.DRIC not in person.role_codes():
        raise RuleViolation(
            Words(
                N_(
                    "an opener that differs from the last closer is signed off by the DRIC; %(name)s does not hold that role"
                ),
                name=person.name,
            ),
            RULE,
            code="opener.not_dric",
        )
    if _SIGNED_BY.exists(slip.pk, person.pk):
        raise RuleViolation(
            Words(
                N_("%(name)s signed %(slip)s; the person who signs a slip never signs off its difference"),
                name=person.name,
                slip=slip.number,
            ),
            "T&C 2",
            code="opener.own_slip",
        )
    sign_off = OpenerSignOff.objects.create(slip=slip, person=person, signed_at=at or timezone.now(), via=via)
    links.signed_off(sign_off)
    audit.record(
        "opener_signed_off",
        N_("%(name)s signed off %(slip)s, which differs from its table's last closer"),
        {"name": person.name, "slip": slip.number},
        event=slip.event_id,
        slip=slip,
        new={"differences": slip.details.get("closer_check", {}).get("differences"), "via": via},
    )
    return sign_off
