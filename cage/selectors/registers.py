"""The cage's registers, read-only: every slip of the event as a row, the voids, and the serials
never issued. Each runs a fixed number of queries whatever the number of slips."""

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch, Q
from django.utils import timezone

from cage.models import Signature, Slip, SlipCounter, SlipType
from cage.selectors.amounts import amount_of, chip_counts
from cage.selectors.amounts import cash_moved_subquery as _cash_moved
from cage.selectors.slips import State, slip_state
from cage.slip_types import SLIP_KINDS
from events.models import Event, GameTable, GamingDay, Person


@dataclass
class Signer:
    capacity: str  # "Issued by"
    name: str


@dataclass
class RegisterRow:
    slip: Slip
    number: str  # "Fill 4"
    day: datetime.date
    at: datetime.datetime  # local time
    table: str  # "BJ-1" or ""
    runner: str  # the runner's name or ""
    chips: list[str]  # ["40 × $5", ...]
    amount: int | None  # cents; None where the slip moves no value (a day close)
    state: str
    signers: list[Signer]
    note: str  # the reason, or an expense's description
    voided_slip: str = ""  # a void's target, as people say it

    @property
    def state_label(self) -> str:
        return str(State.LABELS[self.state])

    # Sort keys for the table: a slip sorts by type then serial ("Fill 2" before "Fill 10").
    @property
    def slip_key(self) -> tuple:
        return (self.number.rsplit(" ", 1)[0], self.slip.serial)

    @property
    def day_key(self) -> tuple:
        return (self.day, self.at, self.slip.pk)

    @property
    def time_key(self) -> tuple:
        return (self.at, self.slip.pk)

    @property
    def amount_key(self) -> tuple:
        return (-1 if self.amount is None else self.amount, self.slip.pk)


def _voided(slip: Slip) -> bool:
    try:
        return slip.voided_by is not None
    except Slip.DoesNotExist:
        return False


def _signers(slip: Slip) -> list[Signer]:
    kind = SLIP_KINDS[slip.slip_type]
    signers = []
    for s in slip.signatures.all():
        capacity = kind.capacity(s.capacity)
        signers.append(Signer(str(capacity.label) if capacity else s.capacity, s.person.name))
    return signers


def register_rows(
    event: Event,
    *,
    day: GamingDay | None = None,
    slip_type: str | None = None,
    table: GameTable | None = None,
    person: Person | None = None,
    state: str | None = None,
) -> list[RegisterRow]:
    """Every slip of the event, oldest first, narrowed by day, type, table, person (who signed
    it or the runner named on it) and state. Three queries."""
    values = {d.key: d.value_cents for d in event.denominations.all()}
    slips = Slip.objects.filter(event=event)
    if day is not None:
        slips = slips.filter(day=day)
    if slip_type:
        slips = slips.filter(slip_type=slip_type)
    if table is not None:
        slips = slips.filter(table=table)
    if person is not None:
        slips = slips.filter(Q(runner=person) | Q(pk__in=Signature.objects.filter(person=person).values("slip_id")))
    slips = (
        slips.select_related("day", "table", "runner", "voided_by", "voids")
        .prefetch_related(Prefetch("signatures", queryset=Signature.objects.select_related("person")))
        .annotate(cash_moved=_cash_moved("pk"))
        .order_by("at", "id")
    )
    rows = []
    for slip in slips:
        signed = {s.capacity for s in slip.signatures.all()}
        slip_state_code = slip_state(slip, signed, voided=_voided(slip))
        if state and slip_state_code != state:
            continue
        amount = amount_of(slip, values, slip.cash_moved)  # a void is worth what it reverses
        chips = chip_counts(slip.details.get("chips"))
        rows.append(
            RegisterRow(
                slip=slip,
                number=slip.number,
                day=slip.day.date,
                at=timezone.localtime(slip.at),
                table=slip.table.code if slip.table else "",
                runner=slip.runner.name if slip.runner else "",
                chips=chips,
                amount=amount,
                state=slip_state_code,
                signers=_signers(slip),
                note=slip.reason or str(slip.details.get("description") or ""),
                voided_slip=slip.voids.number if slip.voids else "",
            )
        )
    return rows


# --- voids and serials ---------------------------------------------------------------------------


@dataclass
class VoidRow:
    slip: Slip  # the void
    target: Slip | None  # the slip it voids
    day: datetime.date
    at: datetime.datetime
    reason: str
    requested_by: list[str]
    authorized_by: list[str]


def void_rows(event: Event) -> list[VoidRow]:
    """Every void of the event, oldest first, with who requested and who authorized it. Two queries."""
    voids = (
        Slip.objects.filter(event=event, slip_type=SlipType.VOID)
        .select_related("day", "voids")
        .prefetch_related(Prefetch("signatures", queryset=Signature.objects.select_related("person")))
        .order_by("at", "id")
    )
    rows = []
    for void in voids:
        by = defaultdict(list)
        for s in void.signatures.all():
            by[s.capacity].append(s.person.name)
        rows.append(
            VoidRow(
                slip=void,
                target=void.voids,
                day=void.day.date,
                at=timezone.localtime(void.at),
                reason=void.reason,
                requested_by=by["requested_by"],
                authorized_by=by["authorized_by"],
            )
        )
    return rows


@dataclass
class SerialCheck:
    label: str  # "Fill"
    last: int  # the counter's last serial
    highest: int  # the highest of the serials checked: the counter's or a slip's, whichever is higher
    missing: list[tuple[int, int]] = field(default_factory=list)  # runs of serials never issued
    above_counter: list[int] = field(default_factory=list)  # slips numbered past the counter

    @property
    def span(self) -> str:
        return "1" if self.highest == 1 else f"1–{self.highest}"

    @property
    def missing_text(self) -> str:
        return runs_text(self.missing)

    @property
    def above_text(self) -> str:
        return ", ".join(str(n) for n in self.above_counter)

    @property
    def complete(self) -> bool:
        return not self.missing and not self.above_counter


def runs(numbers: list[int]) -> list[tuple[int, int]]:
    """[3, 4, 5, 9] → [(3, 5), (9, 9)]."""
    result: list[tuple[int, int]] = []
    for n in sorted(numbers):
        if result and result[-1][1] == n - 1:
            result[-1] = (result[-1][0], n)
        else:
            result.append((n, n))
    return result


def runs_text(pairs: list[tuple[int, int]]) -> str:
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in pairs)


def serial_checks(event: Event) -> list[SerialCheck]:
    """For each slip type in use, the serials between 1 and the last issued that no slip bears.
    The counter hands serials out without gaps, so each should have none; this checks the slips
    themselves, and also flags any slip numbered past the counter's last. Two queries."""
    last = dict(SlipCounter.objects.filter(event=event).values_list("slip_type", "last"))
    serials: dict[str, set[int]] = defaultdict(set)
    for slip_type, serial in Slip.objects.filter(event=event).values_list("slip_type", "serial"):
        serials[slip_type].add(serial)
    checks = []
    for slip_type, kind in SLIP_KINDS.items():
        counter = last.get(slip_type, 0)
        issued = serials.get(slip_type, set())
        highest = max([counter, *issued])
        if highest == 0:
            continue
        checks.append(
            SerialCheck(
                label=str(kind.label),
                last=counter,
                highest=highest,
                missing=runs([n for n in range(1, highest + 1) if n not in issued]),
                above_counter=sorted(n for n in issued if n > counter),
            )
        )
    return checks
