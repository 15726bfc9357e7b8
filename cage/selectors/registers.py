"""The cage's registers, read-only: every slip of the event as a row, the voids, and the serials
never issued. Each runs a fixed number of queries whatever the number of slips, and a page of the
register or of the voids builds the rows of that page only (the CSV export reads them all)."""

import datetime
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple

from django.core.paginator import Page, Paginator
from django.db.models import (
    BooleanField,
    Case,
    Count,
    ExpressionWrapper,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Value,
    When,
)
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from cage.models import Signature, Slip, SlipCounter
from cage.selectors import json_text
from cage.selectors.amounts import amount_of, chip_counts
from cage.selectors.amounts import cash_moved_subquery as _cash_moved
from cage.selectors.slips import State, slip_state
from cage.slip_types import SLIP_KINDS, VOID_KIND
from events.models import Event, GameTable, GamingDay, Person
from events.selectors import chip_values


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
    voided_by: str = ""  # the void of a voided slip, as people say it
    voided_reason: str = ""  # and its reason
    refused_by: str = ""  # a refused void: the DRIC who refused it
    refused_reason: str = ""  # and why

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


def _signers(slip: Slip) -> list[Signer]:
    kind = SLIP_KINDS[slip.slip_type]
    signers = []
    for s in slip.signatures.all():
        capacity = kind.capacity(s.capacity)
        signers.append(Signer(str(capacity.label) if capacity else s.capacity, s.person.name))
    return signers


def register_slips(
    event: Event,
    *,
    day: GamingDay | None = None,
    slip_type: str | None = None,
    table: GameTable | None = None,
    person: Person | None = None,
    state: str | None = None,
    serial: int | None = None,
    amount: int | None = None,
    who: str = "",
    hidden_days: frozenset = frozenset(),
) -> "RegisterSlips":
    """Every slip of the event, oldest first, narrowed by day, type, table, person (who signed
    it or the runner named on it) and state; and, to find a slip across the event's days, by its
    serial, its amount (cents) and a person's name (any part) or code (whole), as typed: a lazy
    sequence of RegisterRows (RegisterSlips). hidden_days: the days counted blind tonight, whose
    slips sort by amount as slips with none, and are never found by amount."""
    slips = Slip.objects.filter(event=event)
    if day is not None:
        # By the day alone (its index, day and type), not the event's slips filtered: a day's register
        # costs the same whatever the number of days. A day of another event lists nothing.
        slips = Slip.objects.filter(day=day) if day.event_id == event.pk else Slip.objects.none()
    if slip_type:
        slips = slips.filter(slip_type=slip_type)
    if table is not None:
        slips = slips.filter(table=table)
    if person is not None:
        slips = slips.filter(Q(runner=person) | Q(pk__in=Signature.objects.filter(person=person).values("slip_id")))
    if serial is not None:
        slips = slips.filter(serial=serial)
    if who:
        named = Q(name__icontains=who) | Q(code__iexact=who)
        people = Person.objects.filter(named, event=event).values("pk")
        slips = slips.filter(
            Q(runner__in=people) | Q(pk__in=Signature.objects.filter(person__in=people).values("slip_id"))
        )
    return RegisterSlips(event, slips, state=state, amount=amount, hidden_days=hidden_days)


def no_slips(event: Event) -> "RegisterSlips":
    """The register listing nothing: its filter was sent with a choice not in its list."""
    return RegisterSlips(event, Slip.objects.none())


class _Light(NamedTuple):
    """What cage.selectors.slips.slip_state and cage.selectors.amounts.amount_of read of a slip, from
    plain values: enough to filter by state or sort by amount without a model instance per slip."""

    slip_type: str
    voids_id: int | None = None
    details: dict | None = None
    voids: "_Light | None" = None
    cash_moved: int | None = None


def _slip_label_order():
    """The slip types in the order of their names in the reader's language: the register's slip
    column sorts by name then serial ("Chip sale 2" before "Chips received 1", "Fill 2" before
    "Fill 10"), as RegisterRow.slip_key does."""
    ranked = sorted(SLIP_KINDS, key=lambda t: str(SLIP_KINDS[t].label))
    return Case(*[When(slip_type=t, then=Value(i)) for i, t in enumerate(ranked)], output_field=IntegerField())


# Each sort key of RegisterRow (the register's columns sort by them) as SQL: every one ends with
# the slip's id, so the first key of an order decides it whole. The amount is no column: it is
# worked out in Python (amount_of), by a light pass over plain values.
SQL_ORDERS = {
    "slip_key": lambda: [_slip_label_order(), "serial", "id"],
    "day_key": lambda: ["day__date", "at", "id"],
    "time_key": lambda: ["at", "id"],
}
DEFAULT_ORDER = ("time_key", False)


class RegisterSlips:
    """The register's slips, filtered and in order, held as ids: its length is how many match,
    and a slice builds the RegisterRows of the slips in it only, so that a page of 50 reads 50
    slips (their signatures, amounts and states) whatever the size of the event.

    The default order and the slip, day and time orders are SQL's. A state filter and the amount
    order need what Python works out (slip_state, amount_of): they take one light pass over plain
    values (a slip's type and voids, the capacities signed as (slip, capacity) pairs, its details
    and cash moved), never a model instance per slip. Iterating builds every row, in chunks: the
    CSV export."""

    CHUNK = 1000

    def __init__(
        self,
        event: Event,
        slips,
        *,
        state: str | None = None,
        amount: int | None = None,
        hidden_days: frozenset = frozenset(),
    ):
        self.event = event
        self.slips = slips  # the SQL filters, unordered
        self.state = state
        self.amount = amount  # cents: only the slips of this amount (worked out, as the amount order is)
        self._amounts = None  # {id: amount or None} of the candidates, once worked out
        self.order = DEFAULT_ORDER
        self._matching = None  # the ids in the state asked for (a set), once worked out
        self._ids = None  # every id, in order, where SQL cannot page them alone
        self._count = None
        self._values = None
        # Days counted blind tonight (cage.registers.RegisterTable): their slips sort by amount as
        # slips with none, or the order alone would tell their sizes the page hides.
        self.hidden_days = frozenset(hidden_days)

    # --- order and filter ----------------------------------------------------------------------

    def order_by(self, keys: list[tuple[str, bool]]) -> None:
        """Order by RegisterRow sort keys, each (name, descending); the first one decides."""
        known = [(k, desc) for k, desc in keys if k in SQL_ORDERS or k == "amount_key"]
        order = known[0] if known else DEFAULT_ORDER
        if order != self.order:
            self.order = order
            self._ids = None

    def _candidates(self):
        """The slips that may be in the state asked for. A voided slip's state is "voided" and a
        refused void's "refused" whatever their signatures (slip_state): this only narrows the light
        pass, slip_state still decides."""
        if self.state is None:
            return self.slips
        if self.state == State.VOIDED:
            return self.slips.voided()
        if self.state == State.REFUSED:
            return self.slips.filter(refusal__isnull=False)
        return self.slips.standing().filter(refusal__isnull=True)

    @property
    def narrowed(self) -> bool:
        """Narrowed by what Python works out (a state, an amount): SQL cannot page the ids alone."""
        return self.state is not None or self.amount is not None

    def _matching_ids(self) -> set[int] | None:
        """The ids in the state and of the amount asked for; None when neither is asked for."""
        in_state = self._in_state()
        if self.amount is None:
            return in_state
        of_amount = {pk for pk, cents in self._amounts_of().items() if cents == self.amount}
        return of_amount if in_state is None else of_amount & in_state

    def _in_state(self) -> set[int] | None:
        if self.state is None:
            return None
        if self._matching is None:
            candidates = self._candidates()
            signed: dict[int, set[str]] = defaultdict(set)
            for slip_id, capacity in Signature.objects.filter(slip__in=candidates.values("pk")).values_list(
                "slip_id", "capacity"
            ):
                signed[slip_id].add(capacity)
            # The candidates are all voided, all refused, or neither (_candidates).
            flags = {"voided": self.state == State.VOIDED, "refused": self.state == State.REFUSED}
            waived = ExpressionWrapper(Q(details__has_key="waived"), output_field=BooleanField())
            self._matching = {
                pk
                for pk, slip_type, was_waived in candidates.annotate(waived=waived).values_list(
                    "pk", "slip_type", "waived"
                )
                if slip_state(
                    _Light(slip_type, details={"waived": SLIP_KINDS[slip_type].file_optional} if was_waived else None),
                    signed.get(pk, set()),
                    **flags,
                )
                == self.state
            }
        return self._matching

    def _sql_ordered(self):
        key, descending = self.order
        fields = SQL_ORDERS[key]()
        if descending:
            fields = [f.desc() if hasattr(f, "desc") else f"-{f}" for f in fields]
        return self.slips.order_by(*fields)

    def _by_amount(self) -> list[int]:
        amounts = self._amounts_of()
        matching = self._matching_ids()
        ids = amounts if matching is None else [pk for pk in amounts if pk in matching]
        # As RegisterRow.amount_key: no amount (a day close) sorts below every amount.
        return sorted(ids, key=lambda pk: (-1 if amounts[pk] is None else amounts[pk], pk), reverse=self.order[1])

    def _amounts_of(self) -> dict[int, int | None]:
        """{id: amount in cents, None for none or for a day counted blind} of the candidates: one
        light pass over plain values, whatever the number of days."""
        if self._amounts is not None:
            return self._amounts
        values = self.values()
        amounts = {}
        light = self._candidates().annotate(
            cash_moved=_cash_moved("pk"), details_text=json_text("details"), target_details=json_text("voids__details")
        )
        for pk, slip_type, voids_id, details, target_type, target_details, cash, date in light.values_list(
            "pk",
            "slip_type",
            "voids_id",
            "details_text",
            "voids__slip_type",
            "target_details",
            "cash_moved",
            "day__date",
        ):
            if date in self.hidden_days:
                amounts[pk] = None
                continue
            target = _Light(target_type, details=json.loads(target_details)) if voids_id else None
            slip = _Light(slip_type, voids_id, json.loads(details), target, cash)
            amounts[pk] = amount_of(slip, values, cash)
        self._amounts = amounts
        return amounts

    def ids(self) -> list[int] | None:
        """Every id in order, where SQL cannot page them alone; None where it can."""
        if self._ids is None:
            if self.order[0] == "amount_key":
                self._ids = self._by_amount()
            elif self.narrowed:
                matching = self._matching_ids()
                self._ids = [pk for pk in self._sql_ordered().values_list("pk", flat=True) if pk in matching]
        return self._ids

    # --- the sequence --------------------------------------------------------------------------

    def __len__(self) -> int:
        if self._count is None:
            if self.narrowed:
                self._count = len(self._matching_ids())
            elif self._ids is not None:
                self._count = len(self._ids)
            else:
                self._count = self.slips.count()
        return self._count

    def __getitem__(self, key):
        if isinstance(key, slice):
            ids = self.ids()
            if ids is None:
                ids = list(self._sql_ordered().values_list("pk", flat=True)[key])
            else:
                ids = ids[key]
            return self.rows(ids)
        rows = self[key : key + 1] if key >= 0 else self[len(self) + key :][:1]
        if not rows:
            raise IndexError(key)
        return rows[0]

    def __iter__(self):
        ids = self.ids()
        if ids is None:
            ids = list(self._sql_ordered().values_list("pk", flat=True))
        for start in range(0, len(ids), self.CHUNK):
            yield from self.rows(ids[start : start + self.CHUNK])

    def values(self) -> dict[str, int]:
        if self._values is None:
            self._values = chip_values(self.event)
        return self._values

    def rows(self, ids: list[int]) -> list[RegisterRow]:
        """The RegisterRows of these slips, in this order. Three queries (none for no slip)."""
        if not ids:
            return []
        values = self.values()
        slips = (
            Slip.objects.filter(pk__in=ids)
            .select_related("day", "table", "runner", "voids", "refusal__person")
            .prefetch_related(Prefetch("signatures", queryset=Signature.objects.select_related("person")))
            .annotate(cash_moved=_cash_moved("pk"), **done_void_columns())
        )
        by_id = {slip.pk: slip for slip in slips}
        return [register_row(by_id[pk], values) for pk in ids]


def done_void_columns() -> dict:
    """Per slip, the serial and reason of the done void that reverses it (None where none does),
    read with the slip: a void asked for or refused leaves it standing."""
    done = Slip.objects.voids_done().filter(voids=OuterRef("pk"))
    return {
        "done_void_serial": Subquery(done.values("serial")[:1]),
        "done_void_reason": Subquery(done.values("reason")[:1]),
    }


def register_row(slip: Slip, values: dict[str, int]) -> RegisterRow:
    """A slip as the register shows it, fetched with its day, table, runner, voids and refusal,
    its signatures and their people, its cash_moved and its done_void_columns."""
    signed = {s.capacity for s in slip.signatures.all()}
    refusal = getattr(slip, "refusal", None)
    serial = slip.done_void_serial
    voided_by = f"{VOID_KIND.label} {serial}" if serial is not None else ""
    return RegisterRow(
        slip=slip,
        number=slip.number,
        day=slip.day.date,
        at=timezone.localtime(slip.at),
        table=slip.table.code if slip.table else "",
        runner=slip.runner.name if slip.runner else "",
        chips=chip_counts(slip.details.get("chips")),
        amount=amount_of(slip, values, slip.cash_moved),  # a void is worth what it reverses
        state=slip_state(slip, signed, voided=bool(voided_by), refused=refusal is not None),
        signers=_signers(slip),
        note=slip.reason or str(slip.details.get("description") or ""),
        voided_slip=slip.voids.number if slip.voids else "",
        # A voided slip's void and its reason: the register says why a slip stands voided.
        voided_by=voided_by,
        voided_reason=slip.done_void_reason or "",
        refused_by=refusal.person.name if refusal else "",
        refused_reason=refusal.reason if refusal else "",
    )


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
    amount: int | None = None  # cents: the voided slip's amount, as the register gives it (amount_of)
    hidden: bool = False  # its day is counted blind tonight: no amount shown (cage.views_registers)
    refused_by: str = ""  # the DRIC who refused it: it moved nothing
    refused_reason: str = ""

    @property
    def state(self) -> str:
        """Done (both signed, the reversal posted), waiting (asked for) or refused by the DRIC."""
        if self.refused_by:
            return State.REFUSED
        return State.COMPLETE if self.requested_by and self.authorized_by else State.WAITING

    @property
    def state_label(self) -> str:
        return str(VOID_STATES[self.state])

    @property
    def dollars(self) -> str:
        """The amount as the reader's language writes it ("$10.00", "10,00 $"); "" for none."""
        from core.money import dollars

        return "" if self.amount is None else dollars(self.amount)


VOIDS_PER_PAGE = 50
# A void's state as the voids page says it.
VOID_STATES = {
    State.COMPLETE: pgettext_lazy("void", "Done: reversed"),
    State.WAITING: pgettext_lazy("void", "Asked for: nothing moved yet"),
    State.REFUSED: pgettext_lazy("void", "Refused: nothing moved"),
}


def voids_page(
    event: Event, number, *, day: GamingDay | None = None, hidden_days: frozenset = frozenset(), refused=False
) -> Page:
    """One page of the event's voids (of one gaming day, where given), oldest first, 50 a page, its
    object_list their VoidRows (with the amount of the slip each voids, and who requested and who
    authorized it); the paginator counts them all. A page that is not a number is the first, one
    past the end the last, as on the register. refused: the filter was sent with a day not in its
    list, and the page lists no void. Four queries, whatever the number of voids."""
    voids = Slip.objects.none() if refused else Slip.objects.filter(event=event, slip_type=VOID_KIND.type)
    if day is not None and not refused:
        # By the day's own index (day, type), as the register's day (register_slips).
        voids = Slip.objects.filter(day=day, slip_type=VOID_KIND.type) if day.event_id == event.pk else voids.none()
    voids = (
        voids.select_related("day", "voids", "refusal__person")
        .prefetch_related(Prefetch("signatures", queryset=Signature.objects.select_related("person")))
        .annotate(target_cash_moved=_cash_moved("voids"))
        .order_by("at", "id")
    )
    page = Paginator(voids, VOIDS_PER_PAGE).get_page(number)
    values = chip_values(event) if page.object_list else {}
    page.object_list = void_rows(page.object_list, values, hidden_days)
    page.links = list(page.paginator.get_elided_page_range(page.number))  # cage/page_links.html
    return page


def void_rows(voids, values: dict[str, int] | None = None, hidden_days: frozenset = frozenset()) -> list[VoidRow]:
    """Voids, fetched with their day, the slip each voids (annotated target_cash_moved, the cash its
    postings moved) and their signatures' people, as rows."""
    rows = []
    for void in voids:
        by = defaultdict(list)
        for s in void.signatures.all():
            by[s.capacity].append(s.person.name)
        target = void.voids
        hidden = void.day.date in hidden_days
        amount = None
        if target is not None and values is not None and not hidden:
            amount = amount_of(target, values, getattr(void, "target_cash_moved", None))
        refusal = getattr(void, "refusal", None)
        rows.append(
            VoidRow(
                refused_by=refusal.person.name if refusal else "",
                refused_reason=refusal.reason if refusal else "",
                slip=void,
                target=target,
                day=void.day.date,
                at=timezone.localtime(void.at),
                reason=void.reason,
                requested_by=by["requested_by"],
                authorized_by=by["authorized_by"],
                amount=amount,
                hidden=hidden,
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
    day_serials: list[tuple[int, int]] = field(default_factory=list)  # runs of one gaming day's own

    @property
    def span(self) -> str:
        return "1" if self.highest == 1 else f"1–{self.highest}"

    @property
    def day_text(self) -> str:
        return runs_text(self.day_serials)

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


def serial_checks(event: Event, *, through: GamingDay | None = None) -> list[SerialCheck]:
    """For each slip type in use, the serials between 1 and the last issued that no slip bears.
    The counter hands serials out without gaps, so each should have none; this checks the slips
    themselves, and also flags any slip numbered past the counter's last. Three queries (two
    without `through`), and a fourth only where some type's serials are not the plain run 1 to N.

    `through`: a gaming day's sheets, which read the same whenever they are printed: the event's
    serials up to that day (its own in `day_serials`), and, once it is locked, not the counter,
    which later days move on.

    Each type's serials are counted, not read: how many, the lowest and the highest (one aggregate
    query), since N distinct serials from 1 to N are the run 1 to N, with no gap. They are distinct
    by the slips' own constraint (one_serial_per_slip_type), so the count is a plain one, read from
    that constraint's index without sorting them again. Only a type whose serials aren't the run,
    or that has serials past its counter, has them read one by one, so the page costs about the same
    on the two hundredth day of an event as on the twentieth."""
    last = dict(SlipCounter.objects.filter(event=event).values_list("slip_type", "last"))
    slips = Slip.objects.filter(event=event)
    locked = through is not None and through.status == GamingDay.Status.CLOSED
    if through is not None:
        slips = slips.filter(day__date__lte=through.date)
    spans = {
        row["slip_type"]: row
        for row in slips.values("slip_type").annotate(
            count=Count("serial"), lowest=Min("serial"), highest=Max("serial")
        )
    }
    counters = {t: spans[t]["highest"] if t in spans else 0 for t in SLIP_KINDS} if locked else last
    irregular = [
        t
        for t, span in spans.items()
        if span["lowest"] < 1 or span["count"] != span["highest"] or span["highest"] > counters.get(t, 0)
    ]
    serials: dict[str, set[int]] = defaultdict(set)
    if irregular:
        for slip_type, serial in slips.filter(slip_type__in=irregular).values_list("slip_type", "serial"):
            serials[slip_type].add(serial)
    own: dict[str, list[int]] = defaultdict(list)
    if through is not None:
        for slip_type, serial in Slip.objects.filter(day=through).values_list("slip_type", "serial"):
            own[slip_type].append(serial)
    checks = []
    for slip_type, kind in SLIP_KINDS.items():
        span = spans.get(slip_type)
        counter = counters.get(slip_type, 0)
        highest = max(counter, span["highest"] if span else 0)
        if highest == 0:
            continue
        if slip_type in irregular:
            issued = serials[slip_type]
            missing = runs([n for n in range(1, highest + 1) if n not in issued])
            above = sorted(n for n in issued if n > counter)
        else:
            # The run 1 to the last slip's, none past the counter: missing only what the counter
            # handed out after it.
            top = span["highest"] if span else 0
            missing, above = ([(top + 1, highest)] if highest > top else []), []
        checks.append(
            SerialCheck(
                label=str(kind.label),
                last=counter,
                highest=highest,
                missing=missing,
                above_counter=above,
                day_serials=runs(own.get(slip_type, [])),
            )
        )
    return checks
