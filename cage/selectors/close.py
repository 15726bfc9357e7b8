"""How far the day's close has come: who has signed it, who is still to, and whether its
preparation still stands (nothing posted to the day since). Read-only."""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from cage.models import Account, CloseSignature, Slip
from cage.selectors import people
from cage.selectors.counts import (
    MUST_COUNT,
    count_states,
    counted_lines,
    earlier_variances,
    nothing_to_count,
    runners_to_count,
    standing_counts,
)
from cage.selectors.openers import waiting_sign_off
from cage.selectors.seals import seal_of
from cage.selectors.slips import pending_slips
from cage.services.ledger import account_label, balance
from cage.slip_types import CLOSERS, DAY_CLOSE_KIND, OPENERS, TIP_PAYOUTS, Capacity
from core.compiled import Compiled
from core.money import dollars
from events.models import GamingDay, Person, Role
from events.selectors import chip_values

CLOSE = DAY_CLOSE_KIND
PREPARED = "prepared_by"


@dataclass
class CloseProgress:
    day: GamingDay
    signatures: dict[str, CloseSignature] = field(default_factory=dict)
    # The first slip posted to the day after the preparation: the preparation no longer stands.
    posted_since: Slip | None = None

    @property
    def prepared(self) -> CloseSignature | None:
        return self.signatures.get(PREPARED)

    @property
    def stands(self) -> bool:
        return self.prepared is not None and self.posted_since is None

    @property
    def waiting(self) -> bool:
        """Prepared, standing, and still waiting for a signature: what the DRIC's queue lists."""
        return self.stands and bool(self.missing)

    @property
    def missing(self) -> list[Capacity]:
        return [c for c in CLOSE.capacities if c.code not in self.signatures]

    @property
    def rows(self) -> list[tuple[Capacity, CloseSignature | None]]:
        return [(c, self.signatures.get(c.code)) for c in CLOSE.capacities]

    def mine(self, person: Person | None, roles: set[str]) -> list[Capacity]:
        """The capacities still to sign that this person may sign from their own session: their
        role, and never a second capacity of the close."""
        if person is None or not self.stands or any(s.person_id == person.pk for s in self.signatures.values()):
            return []
        return [c for c in self.missing if roles & set(c.roles)]


# Compiled once (core.compiled): the cage home and the queue ask on every refresh.
_CLOSE_SIGNATURES = Compiled(lambda day_id: CloseSignature.objects.filter(day_id=day_id).select_related("person"))


def close_progress(day: GamingDay | None) -> CloseProgress | None:
    """The close of a day not closed yet; None for no day, or a day set up or closed."""
    if day is None or day.status not in (GamingDay.Status.OPEN, GamingDay.Status.RECONCILING):
        return None
    signatures = {s.capacity: s for s in _CLOSE_SIGNATURES.objects(day.pk)}
    progress = CloseProgress(day=day, signatures=signatures)
    if progress.prepared is not None:
        progress.posted_since = (
            Slip.objects.filter(day=day, id__gt=progress.prepared.after_slip_id)
            .exclude(slip_type=DAY_CLOSE_KIND.type)
            .order_by("id")
            .first()
        )
    return progress


CLOSABLE = (GamingDay.Status.OPEN, GamingDay.Status.RECONCILING)


def close_checklist(day: GamingDay, problems: list) -> dict:
    """What the close page lists beside the close itself: the slips still to sign, the openers to
    sign off, the runners to return and the counts to make (each a link), whether tips are to be
    paid out, each step of the checklist done or idle, and a locked day's close slip and seal."""
    event = day.event
    closable = day.status in CLOSABLE
    states = count_states(day) if day.status != GamingDay.Status.SETUP else {}
    pending = pending_slips(event, day=day) if closable else []
    sign_offs = waiting_sign_off(event, day=day) if closable else []
    returns = return_links(event) if closable else []
    to_pay = closable and tips_to_pay(event)
    # Each step of the checklist that is done gets its tick, not only the counts (a day may also
    # close from open, once every table has closed). A step with nothing done yet is never ticked:
    # the next day's close, before anything moved, says there is nothing to pay out or count yet
    # rather than that it is done.
    done_today = set(Slip.objects.filter(day=day).values_list("slip_type", flat=True).distinct())
    under_way = closable and (day.status == GamingDay.Status.RECONCILING or bool(done_today))
    paid = any(t in done_today for t in TIP_PAYOUTS)
    counted = any(state.counted for state in states.values())
    due = any(states[k].due for k in MUST_COUNT if k in states)
    opened = any(t in done_today for t in OPENERS)
    tables_open = event.tables.filter(state="open").exists()
    closed = day.status == GamingDay.Status.CLOSED
    tasks = count_links(day, states)
    return {
        "pending": pending,
        "sign_offs": sign_offs,
        # The tip pool is counted before its payout (T&C 2.6), so its count heads the tips' step;
        # bank cash and the chip bank, which the payout moves, are counted after it.
        "tip_count": next((t for t in tasks if t.where == Account.Kind.TIP_POOL), None),
        "count_links": [t for t in tasks if t.where != Account.Kind.TIP_POOL],
        "return_links": returns,
        "tips_to_pay": to_pay,
        "steps": {
            "floor": under_way
            and (day.status == GamingDay.Status.RECONCILING or any(t in done_today for t in CLOSERS))
            and not tables_open,
            "runners": under_way and not returns and not pending,
            "tips": under_way and paid and not to_pay,
            "counts": under_way and counted and not due,
            "sign_offs": under_way and opened and not sign_offs,
        },
        # The steps with nothing to do yet: said so, without a tick.
        "idle": {
            "tips": closable and not paid and not to_pay,
            "counts": closable and not counted and not due,
            "sign_offs": closable and not opened,
        },
        "tip_pool_counted": not nothing_to_count(day, Account.Kind.TIP_POOL),
        # A locked day: its close slip and its seal, as printed beside the three signatures.
        "close_slip": Slip.objects.filter(day=day, slip_type=DAY_CLOSE_KIND.type).first() if closed else None,
        "seal": seal_of(day) if closed else None,
        "floor_can_close": day.status == GamingDay.Status.OPEN and bool(problems) and not tables_open,
    }


def return_links(event) -> list[tuple[int, str]]:
    """Runners who still hold chips or cash at the close, each a link to their return."""
    links = []
    for person in event.people.filter(assignments__role=Role.RUNNER).order_by("name"):
        if not people.holdings(event, person)["empty"]:
            links.append((person.pk, _("Runner return: %(name)s") % {"name": person.name}))
    return links


def tips_to_pay(event) -> bool:
    """The tip pool holds something to pay out (how much is not said: it may be counted blind)."""
    pool = Account.objects.filter(event=event, kind=Account.Kind.TIP_POOL).first()
    return pool is not None and any(balance(pool).values())


@dataclass(frozen=True)
class CountTask:
    """One count of the nightly close: a link to its form, or, once its count stands, that count."""

    where: str  # the count form's place: "bank_cash", "runner:rita"
    label: str  # the task: "Count bank cash (bills and coins)"
    done: Slip | None = None  # the standing count, its signatures read
    # Once recorded, its expected, counted and over/short (cents): the books may be seen then.
    lines: tuple = ()
    # What the day's earlier counts of the place posted to over/short (counts.earlier_variances):
    # expected reads as the books before them, over/short as the day's net.
    earlier: int = 0

    def signer(self, capacity: str) -> str:
        return next((s.person.name for s in self.done.signatures.all() if s.capacity == capacity), "")

    @property
    def place(self) -> str:
        return account_label(self.done.account)

    @property
    def counted_by(self) -> str:
        return self.signer("counted_by")

    @property
    def verified_by(self) -> str:
        return self.signer("verified_by")

    @property
    def expected(self) -> str:
        return dollars(sum(line.expected for line in self.lines) - self.earlier)

    @property
    def counted(self) -> str:
        return dollars(sum(line.counted for line in self.lines))

    @property
    def over_short(self) -> str:
        return dollars(sum(line.variance for line in self.lines) + self.earlier)


def count_links(day, states=None) -> list[CountTask]:
    """The counts of the nightly close, each a link to a count form already pointed at its place;
    a place whose count of the day stands (after its last movement) is shown done instead, with
    its expected, counted and over/short. Runners are offered as counts.runners_to_count says: not
    every runner the event ever had."""
    event = day.event
    links = [("bank_cash", _("Count bank cash (bills and coins)")), ("chip_bank", _("Count the chip bank"))]
    states = states if states is not None else (count_states(day) if day.status != GamingDay.Status.SETUP else {})
    to_count = runners_to_count(day, states)
    for person in event.people.filter(assignments__role=Role.RUNNER).distinct().order_by("name"):
        where = f"runner:{person.code}"
        if where in to_count:
            links.append((where, _("Count runner %(name)s") % {"name": person.name}))
    links.append(("tip_pool", _("Count the tip pool")))
    done = standing_counts(day, states) if day.status != GamingDay.Status.SETUP else {}
    values = chip_values(event)
    earlier = earlier_variances(day, done) if done else {}
    return [
        CountTask(
            where=where,
            label=label,
            done=done.get(where),
            lines=tuple(counted_lines(done[where], values)) if where in done else (),
            earlier=earlier.get(where, 0),
        )
        for where, label in links
    ]
