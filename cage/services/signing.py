"""Signatures that follow a slip: the dealer at the table, the runner back at the cage, the DRIC
from her queue. Each is made by its signer, logged in as themselves or typing their own signing
PIN; when a signature completes a custody step, that step's chips move (DESIGN: slips and signatures).
"""

import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from audit import services as audit
from cage.models import Account, NotSignedInFull, Refusal, Signature, SignedInFull, Slip, SlipPrint
from cage.slip_types import SLIP_KINDS, VOID_KIND
from core.rules import Lower, RuleViolation, Words
from events.designation import check_takes_part
from events.models import GameTable, GamingDay, Person, Role

from . import links, running_totals, trail
from .ledger import (
    CASH,
    INSERT_SIGNATURES,
    INSERT_SIGNED,
    SIGNATURES,
    STEPS,
    Leg,
    account_get,
    check_custody,
    check_in_order,
    check_patrons_hold_chips,
    check_signer,
    chips_legs_value,
    lock_day,
    lock_slip,
    lock_table,
    move,
    net_legs,
    write_postings,
)

OPEN = (GamingDay.Status.OPEN,)
VOID_RULE = gettext_lazy("void: no one alone")
REFUSE_RULE = gettext_lazy("no one alone: the DRIC authorizes or refuses")
SETTLING = (GamingDay.Status.OPEN, GamingDay.Status.RECONCILING)


def transit_steps(slip_type: str, event, *, table: GameTable, runner: Person, value: dict) -> list[list[Leg]]:
    """A fill's or credit's two custody steps, through the runner who carries the chips."""
    bank = account_get(event, Account.Kind.CHIP_BANK)
    tray = account_get(event, Account.Kind.TABLE, table=table)
    carrier = account_get(event, Account.Kind.RUNNER, person=runner)
    if SLIP_KINDS[slip_type].table_figure == "fills":
        return [move(bank, carrier, value), move(carrier, tray, value)]
    return [move(tray, carrier, value), move(carrier, bank, value)]


def step_legs(slip: Slip, step: int) -> list[Leg]:
    """The legs of a step signed after the slip was written, worked out from the slip itself."""
    if slip.slip_type == VOID_KIND.type:
        target = slip.voids
        return [
            Leg(p.account, p.denomination, -p.amount) for p in target.postings.select_related("account", "denomination")
        ]
    kind = SLIP_KINDS[slip.slip_type]
    if kind.moves:
        # A deposit or an expense waiting for its second signature: what it names moves now.
        source, target = kind.moves
        details = slip.details or {}
        value = chips_legs_value(slip.event, details["chips"]) if details.get("chips") else {CASH: details["cash"]}
        return move(account_get(slip.event, source), account_get(slip.event, target), value)
    value = chips_legs_value(slip.event, slip.details.get("chips", {}))
    return transit_steps(slip.slip_type, slip.event, table=slip.table, runner=slip.runner, value=value)[step - 1]


@transaction.atomic
def sign(*, slip: Slip, capacity: str, person: Person, at: datetime.datetime | None = None) -> Slip:
    """`person` signs `capacity` of `slip`. The caller has authenticated `person` (their own session,
    or their signing PIN typed on the screen); nobody signs for someone else."""
    slip = _sign(slip=slip, capacity=capacity, person=person, at=at)
    trail.slip_signed(slip, SLIP_KINDS[slip.slip_type].capacity(capacity).label, person)
    return slip


def _sign(*, slip: Slip, capacity: str, person: Person, at: datetime.datetime | None = None) -> Slip:
    kind = SLIP_KINDS[slip.slip_type]
    cap = kind.capacity(capacity)
    if cap is None:
        raise RuleViolation(
            Words(N_("a %(slip)s slip has no capacity %(capacity)s"), slip=Lower(kind.label), capacity=capacity),
            SIGNATURES,
            code="signing.no_such_capacity",
        )
    # Chips reach a table only while the floor is open; a witness may sign while the day reconciles.
    moves_at_table = kind.two_step and cap.step is not None
    lock_day(slip.day, allowed=OPEN if moves_at_table else SETTLING)
    lock_slip(slip)  # two signatures of one slip: one after the other
    slip = Slip.objects.select_related("event", "table", "runner", "voids").get(pk=slip.pk)
    check_takes_signatures(slip)
    signed = {s.capacity: s.person for s in slip.signatures.select_related("person")}
    if capacity in signed:
        raise RuleViolation(
            Words(
                N_("%(capacity)s of %(slip)s is already signed by %(name)s"),
                capacity=cap.label,
                slip=slip.number,
                name=signed[capacity].name,
            ),
            gettext_lazy("slips and signatures: one signature per capacity"),
            code="signing.already_signed",
        )
    at = check_in_order(slip.event, at)
    check_signer(slip.event, kind, capacity, person, runner=slip.runner, signed=signed, day=slip.day, at=at)
    before = kind.steps_done(signed)
    if cap.step is not None and cap.step > before + 1:
        waiting = [c.label for c in kind.step_capacities(before + 1) if c.code not in signed]
        raise RuleViolation(
            Words(
                N_("%(slip)s: %(capacity)s signs when the chips arrive; first %(waiting)s must sign"),
                slip=slip.number,
                capacity=Lower(cap.label),
                waiting=", ".join(str(w).lower() for w in waiting),
            ),
            STEPS,
            code="signing.waits_for_earlier_step",
        )
    signed[capacity] = person
    after = kind.steps_done(signed)
    moving = []
    for step in range(before + 1, after + 1):
        if slip.table_id and kind.two_step:
            table = lock_table(slip.table)
            if table.state != GameTable.State.OPEN:
                raise RuleViolation(
                    Words(
                        N_("table %(table)s is closed; a %(slip)s needs it open"),
                        table=table.code,
                        slip=Lower(kind.label),
                    ),
                    gettext_lazy("table state"),
                    code="signing.table_closed",
                )
        moving += step_legs(slip, step)
    merged, accounts = net_legs(moving, slip.slip_type)
    check_custody(merged, accounts, slip.slip_type)
    write_postings(slip, merged, accounts)
    INSERT_SIGNATURES.save(Signature(slip=slip, capacity=capacity, person=person, signed_at=at))
    if kind.signed_in_full(signed, slip.details):
        NotSignedInFull.objects.filter(slip=slip).delete()
        INSERT_SIGNED.save(SignedInFull(slip=slip, signed_at=at))
    links.signed(slip, legs=moving, merged=merged, accounts=accounts, capacity=capacity, person=person, at=at)
    running_totals.add(slip.day_id, merged)  # under the chain's lock, as post_slip adds them
    if moving:
        check_patrons_hold_chips(slip)
    return slip


def check_takes_signatures(slip: Slip) -> None:
    """A slip named by a void that is not refused takes no signature: once voided it is done with,
    and while its void waits, a signature could move chips the void is about to put back. A slip the
    DRIC refused takes none either: it stays on file as it was refused."""
    if hasattr(slip, "refusal"):
        raise RuleViolation(
            Words(
                N_("%(slip)s was refused by %(name)s; it takes no more signatures"),
                slip=slip.number,
                name=slip.refusal.person.name,
            ),
            REFUSE_RULE,
            code="signing.slip_refused",
        )
    void = slip.void_requests.filter(refusal__isnull=True).first()
    if void is None:
        return
    if Slip.objects.voids_done().filter(pk=void.pk).exists():
        raise RuleViolation(
            Words(
                N_("%(slip)s is voided by %(void)s; it takes no more signatures"), slip=slip.number, void=void.number
            ),
            gettext_lazy("void: both stay on file"),
            code="signing.slip_voided",
        )
    raise RuleViolation(
        Words(
            N_(
                "a void of %(slip)s is asked for (%(void)s); it takes no signature until the void is authorized or refused"
            ),
            slip=slip.number,
            void=void.number,
        ),
        VOID_RULE,
        code="signing.void_pending",
    )


def dric_capacities(slip: Slip, person: Person, signed: set[str]) -> list:
    """The capacities of `slip` still to sign that are the DRIC's and may be signed now: her
    witness (T&C 2: witness and authorize all cage transactions in a timely manner), and her
    authorization that a void or a deposit waits for before it moves anything."""
    kind = SLIP_KINDS[slip.slip_type]
    done = kind.steps_done(signed)
    return [
        c
        for c in kind.capacities
        if c.code not in signed
        and person.role_codes() & set(c.roles)
        and Role.DRIC in c.roles
        and (c.witness or c.step <= done + 1)
    ]


@transaction.atomic
def approve(*, slip: Slip, person: Person) -> Slip:
    """The DRIC's one action from her queue: she signs every capacity of the slip that is hers:
    her witness, or the authorization a void waits for (the reversal is posted then)."""
    signed = set(slip.signatures.values_list("capacity", flat=True))
    hers = dric_capacities(slip, person, signed)
    if not hers:
        raise RuleViolation(
            Words(
                N_(
                    "%(slip)s waits for no witness signature of yours: the DRIC witnesses and authorizes cage transactions"
                ),
                slip=slip.number,
            ),
            "T&C 2",
            code="signing.no_witness_waiting",
        )
    for cap in hers:
        slip = _sign(slip=slip, capacity=cap.code, person=person)
    # One entry for the one action, naming every capacity she signed.
    audit.record(
        "slip_approved",
        N_("%(name)s approved %(slip)s"),
        {"name": person.name, "slip": str(slip.number)},
        event=slip.event,
        slip=slip,
        about=person,
        new={"signed": {cap.code: person.name for cap in hers}},
    )
    return slip


def refusable(slip: Slip) -> bool:
    """A slip the DRIC may refuse: one that waits for her signature before it moves anything (a
    void asked for, a deposit, an expense, a float: SlipKind.dric_moves), not yet signed in full."""
    kind = SLIP_KINDS[slip.slip_type]
    return kind.dric_moves and kind.steps_done(set(slip.signatures.values_list("capacity", flat=True))) < kind.steps


@transaction.atomic
def refuse(*, slip: Slip, person: Person, reason: str, at: datetime.datetime | None = None) -> Refusal:
    """The DRIC refuses a slip that waits for her signature before it moves anything: nothing moves,
    the slip keeps its serial and stays on file as refused, and a void's slip stands untouched (T&C 2:
    she witnesses and authorizes every cage transaction; a wrong pick is refused, not authorized
    and patched)."""
    if not SLIP_KINDS[slip.slip_type].dric_moves:
        raise RuleViolation(
            Words(
                N_("%(slip)s is not refused: only a void, a deposit, an expense or a float waits for the DRIC"),
                slip=slip.number,
            ),
            REFUSE_RULE,
            code="refuse.not_refusable",
        )
    lock_day(slip.day, allowed=SETTLING)
    lock_slip(slip)
    slip = Slip.objects.select_related("event", "voids").get(pk=slip.pk)
    if Role.DRIC not in person.role_codes() or person.event_id != slip.event_id:
        raise RuleViolation(
            Words(N_("only the DRIC refuses a slip: %(name)s is not the DRIC of this event"), name=person.name),
            "T&C 2",
            code="refuse.not_dric",
        )
    check_takes_part(person)
    if Refusal.objects.filter(slip=slip).exists():
        raise RuleViolation(
            Words(N_("%(slip)s is already refused"), slip=slip.number), REFUSE_RULE, code="refuse.already_refused"
        )
    if not refusable(slip):
        raise RuleViolation(
            Words(N_("%(slip)s is signed and has moved what it names; it is not refused"), slip=slip.number),
            REFUSE_RULE,
            code="refuse.already_moved",
        )
    reason = str(reason or "").strip()
    if not reason:
        raise RuleViolation(
            Words(N_("refusing a slip needs a reason")), REFUSE_RULE, field="reason", code="refuse.reason_missing"
        )
    at = check_in_order(slip.event, at)
    refusal = Refusal.objects.create(slip=slip, person=person, reason=reason, refused_at=at)
    links.refused(refusal)
    audit.record(
        "slip_refused",
        N_("%(name)s refused %(slip)s: %(reason)s"),
        {"name": person.name, "slip": str(slip.number), "reason": reason},
        event=slip.event,
        slip=slip,
        about=person,
        new={"refused_by": person.name, "reason": reason},
    )
    return refusal


def slip_printed(*, slip: Slip, user, for_reading: bool = False, printer: str = "") -> SlipPrint:
    """Record that a copy of the slip is being printed, so later copies say REPRINT.

    `printer`: the receipt printer the server sent it to (cage.views_print), kept on the trail; ""
    for a copy the browser printed.
    `for_reading`: the copy of someone who only reads the slip (events.access.Access.prints_original).
    It is on the trail as such and never counts among the cage's copies: the cage's first print
    stays the original whoever printed a copy for reading before it."""
    with transaction.atomic():
        if for_reading:
            printed = SlipPrint.objects.create(slip=slip, printed_by=user, for_reading=True)
            audit.record(
                "slip_printed_for_reading",
                N_("%(slip)s printed as a copy for reading, not the original"),
                {"slip": str(slip.number)},
                event=slip.event_id,
                slip=slip,
                new={"for_reading": True, **({"printer": printer} if printer else {})},
            )
            return printed
        printed = SlipPrint.objects.create(slip=slip, printed_by=user)
        copies = SlipPrint.objects.filter(slip=slip, for_reading=False).count()
        audit.record(
            "slip_printed",
            N_("%(slip)s printed (copy %(copy)s)") if copies > 1 else N_("%(slip)s printed"),
            {"slip": str(slip.number), "copy": copies},
            event=slip.event_id,
            slip=slip,
            new={"copy": copies, "reprint": copies > 1, **({"printer": printer} if printer else {})},
        )
    return printed
