"""Each slip type, declared once: its signatures, its fields, its service and its place in the report.

The cage form, the records importer, the signing pages and the reports all read `SLIP_KINDS`;
adding a slip type is one entry here plus its service, as adding a game is one module in
events/games/.

Signatures and when money moves (DESIGN: slips and signatures):
- a *custody* capacity belongs to a step: the people who hand over and take the chips or cash sign
  at the moment of the exchange, and that step's postings are made when its last custody signature
  is made. Most slips have one step, signed when the slip is written. A fill and a credit have two:
  cage ↔ runner and runner ↔ table; between them the slip is *in transit*.
- a *witness* capacity (the DRIC's authorization, witness or approval, T&C 2) moves nothing and may
  follow later, from the DRIC's queue.
"""

import functools
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cage.models import Account, SlipType
from cage.slip_fields import (
    ORDER,
    Cash,
    Chips,
    CountedCash,
    CountedPlace,
    Expense,
    HandedCash,
    HandedPlace,
    Hours,
    MissingChipsBill,
    Note,
    Reason,
    SlipField,
    Table,
    Target,
    Tender,
    ToTable,
)
from cage.slip_fields import Runner as RunnerField
from events.models import GameTable, GamingDay, Role

OPEN, CLOSED = GameTable.State.OPEN, GameTable.State.CLOSED  # a table's, as a slip type needs it
WITNESS = None  # the step of a witness capacity: it signs whenever, and moves nothing

CC, GC, DRIC, RUNNER, DEALER = Role.CHIP_CASHIER, Role.GENERAL_CASHIER, Role.DRIC, Role.RUNNER, Role.DEALER


@dataclass(frozen=True)
class Capacity:
    code: str  # the records format's name: "issued_by"
    roles: tuple[str, ...]
    step: int | None = 1  # 1 or 2 for custody; WITNESS for the DRIC's witness and authorization
    # A capacity the product asks for that cage-records/1 does not have: a records file may leave
    # it out, and its record then stands on the format's own signatures (docs/cage-records-extensions.md).
    file_optional: bool = False

    @property
    def label(self):
        return CAPACITY_LABELS.get(self.code, self.code)

    @property
    def witness(self) -> bool:
        return self.step is WITNESS

    def roles_label(self) -> str:
        """The roles that sign it, as people say them: "DRIC", "Chip Cashier / Runner"."""
        from events.access import ROLE_NAMES  # names, not the model's long labels

        return " / ".join(str(ROLE_NAMES[r]) for r in self.roles)

    def roles_in_a_sentence(self) -> str:
        """The same after "the" in a sentence: "DRIC", "dealer", "Chip Cashier / runner"."""
        from events.access import ROLE_IN_A_SENTENCE

        return " / ".join(str(ROLE_IN_A_SENTENCE[r]) for r in self.roles)


CAPACITY_LABELS = {
    "approved_by": _("Approved by"),
    "authorized_by": _("Authorized by"),
    "carried_by": _("Carried by"),
    "counted_by": _("Counted by"),
    "deposited_by": _("Deposited by"),
    "handed_over_by": _("Handed over by"),
    "issued_by": _("Issued by"),
    "paid_by": _("Paid by"),
    "prepared_by": _("Prepared by"),
    "received_by": _("Received by"),
    "released_by": _("Released by"),
    "requested_by": _("Requested by"),
    "returned_by": _("Returned by"),
    "sold_by": _("Sold by"),
    "taken_over_by": _("Taken over by"),
    "verified_by": _("Verified by"),
    "witnessed_by": _("Witnessed by"),
}

# The fields a slip type takes, by name (cage.slip_fields declares each: its form field, how a
# records file gives it and an export writes it, its line on the printed slip); the service
# receives them as keyword arguments.
TABLE, RUNNER_FIELD, CHIPS, CASH, TENDER, REASON, ACCOUNT, HOURS, TARGET, EXPENSE = (
    "table",
    "runner",
    "chips",
    "cash",
    "tender",
    "reason",
    "account",
    "hours",
    "target",
    "expense",
)


@dataclass(frozen=True)
class SlipKind:
    type: SlipType
    label: str  # as people say it: "Fill" (then the serial: "Fill 4")
    capacities: tuple[Capacity, ...]
    fields: tuple[SlipField, ...]  # in the order the form shows them (slip_fields.ORDER)
    service: str  # the function's name in cage.services
    chips_required: bool = True
    cash_required: bool = True
    reason_required: bool = False
    runner_required: bool = False
    # The capacity that the runner named on the slip signs.
    runner_capacity: str | None = None
    # Custody passes through a runner in two steps; a slip may be written before its first step
    # is signed (a credit is written at the cage, then released at the table).
    two_step: bool = False
    # Written before all its custody signers sign: a credit (released at the table); a void (asked
    # for by a cashier or by the DRIC, and posted once the other has signed).
    deferred: bool = False
    voidable: bool = False
    # Written on the floor, so only while the gaming day is open: once the floor closes (the day
    # reconciles) the services refuse it and no page offers it (DESIGN: gaming day).
    floor_only: bool = False
    # The state of the table a slip is written for (cage.selectors.offered): a table opens and is
    # stocked while closed, and is filled, credited and closed while open.
    table_state: str | None = None
    # Where a live slip's chips count in the day's figures (reports.figures).
    report_total: str | None = None
    # What the slip is in its table's day, whose win is closer - opener - fills + credits (the
    # game's own rule: events.games): "opener", "closer", "fills" or "credits".
    table_figure: str | None = None
    # What it is in the day of the other table it names (ToTable), for a slip between two tables.
    to_table_figure: str | None = None
    # What the slip is on its runner's sheet (reports.daily): chips "issued" to the runner, chips
    # "sold" for cash, chips and cash "returned", or a fill or credit "carried".
    runner_figure: str | None = None
    # A slip between two of the event's fixed places: (from, to), account kinds. What its one step
    # moves is its chips or its cash (details), posted when its last custody signer signs, whether
    # as it is written or later (cage.services.signing.step_legs).
    moves: tuple[str, str] | None = None
    # What it does to a closed table's tray: 1 stocks it from the chip bank, -1 takes it back.
    stocks_tray: int = 0
    # It may take chips out of the patrons' hands (cage.services.ledger.check_patrons_hold_chips).
    from_patrons: bool = False
    # A dealer may ask for one from her tablet (cage.services.fill_requests): the request moves
    # nothing, and the slip made from it answers it.
    asked_for: bool = False
    # What the audit trail calls its writing (audit.actions).
    trail_action: str = "slip_recorded"
    # The cage home's key for a new slip of this kind, by language (cage.shortcuts): a letter of
    # the kind's name in that language, unique on the page.
    keys: tuple[tuple[str, str], ...] = ()
    help: str = field(default="", compare=False)

    # The declarations never change: what every slip written asks of them is worked out once.
    @functools.cached_property
    def _by_code(self) -> dict[str, Capacity]:
        return {c.code: c for c in self.capacities}

    @functools.cached_property
    def dric_moves(self) -> bool:
        """Nothing moves until the DRIC signs (a custody capacity of hers): she authorizes it, or
        refuses it (cage.services.signing.refuse)."""
        return any(not c.witness and DRIC in c.roles for c in self.capacities)

    @functools.cached_property
    def _field_names(self) -> frozenset[str]:
        return frozenset(f.name for f in self.fields)

    def takes(self, name: str) -> bool:
        """Whether a slip of this kind has the field `name` (TABLE, CHIPS…)."""
        return name in self._field_names

    def table_figures(self, slip) -> list[tuple[str, str | None]]:
        """What a slip of this kind is in each table's day it counts in: (figure, None) for its own
        table, (figure, code) for the other table it names."""
        figures = [(self.table_figure, None)] if self.table_figure else []
        if self.to_table_figure:
            figures.append((self.to_table_figure, slip.details["to_table"]))
        return figures

    def capacity(self, code: str) -> Capacity | None:
        return self._by_code.get(code)

    @property
    def codes(self) -> list[str]:
        return [c.code for c in self.capacities]

    @functools.cached_property
    def steps(self) -> int:
        return max((c.step for c in self.capacities if not c.witness), default=0)

    @functools.cached_property
    def _by_step(self) -> dict[int, list[Capacity]]:
        steps: dict[int, list[Capacity]] = {}
        for c in self.capacities:
            steps.setdefault(c.step, []).append(c)
        return steps

    def step_capacities(self, step: int) -> list[Capacity]:
        return list(self._by_step.get(step, ()))

    @functools.cached_property
    def file_optional(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.capacities if c.file_optional)

    def required(self, details: dict | None) -> list[str]:
        """The capacities a slip of this kind waits for: all of them, but those a records file left
        out where the format has no such capacity (details["waived"])."""
        waived = (details or {}).get("waived") or ()
        return [code for code in self.codes if code not in waived]

    def signed_in_full(self, signed, details: dict | None) -> bool:
        """Whether a slip signed in the capacities `signed` waits for nobody: the rule its record
        of being signed in full is written by (cage.models.SignedInFull) and proved by
        (cage.ledger_check)."""
        return all(code in signed for code in self.required(details))

    def steps_done(self, signed) -> int:
        """How many custody steps are complete, in order, given the capacities signed so far."""
        done = 0
        for step in range(1, self.steps + 1):
            if all(c.code in signed for c in self.step_capacities(step)):
                done = step
            else:
                break
        return done


def _kind(slip_type, label, capacities, fields, service, **options) -> SlipKind:
    fields = tuple(sorted(fields, key=lambda f: ORDER.index(f.name)))
    return SlipKind(slip_type, label, tuple(capacities), fields, service, **options)


def C(code, *roles, step=1, file_optional=False):  # noqa: N802 - reads as a table below
    return Capacity(code, roles, step, file_optional)


def W(code, *roles):  # noqa: N802
    return Capacity(code, roles, WITNESS)


SLIP_KINDS: dict[str, SlipKind] = {
    k.type: k
    for k in [
        _kind(
            SlipType.CHIPS_RECEIVED,
            pgettext_lazy("slip", "Chips received"),
            [C("received_by", CC), W("witnessed_by", DRIC)],
            [Chips()],
            "chips_received",
            cash_required=False,
            moves=(Account.Kind.SUPPLIER, Account.Kind.CHIP_BANK),
        ),
        _kind(
            SlipType.CHIPS_RETURNED,
            pgettext_lazy("slip", "Chips returned"),
            [C("returned_by", CC), W("witnessed_by", DRIC)],
            [Chips()],
            "chips_returned",
            cash_required=False,
            moves=(Account.Kind.CHIP_BANK, Account.Kind.SUPPLIER),
        ),
        _kind(
            SlipType.FLOAT_IN,
            pgettext_lazy("slip", "Float in"),
            # Money out of the trust account takes two: the float moves into bank cash once the
            # General Cashier who receives it and the DRIC who witnesses it have both signed (T&C 2).
            [C("received_by", GC), C("witnessed_by", DRIC)],
            [Cash()],
            "float_in",
            chips_required=False,
            deferred=True,
            moves=(Account.Kind.TRUST, Account.Kind.BANK_CASH),
        ),
        _kind(
            SlipType.DEPOSIT,
            pgettext_lazy("slip", "Deposit"),
            # Money out of the cage to the trust account takes two: it moves once the General
            # Cashier who deposits it and the DRIC who witnesses it have both signed (T&C 2).
            [C("deposited_by", GC), C("witnessed_by", DRIC)],
            [Cash()],
            "deposit",
            chips_required=False,
            deferred=True,
            moves=(Account.Kind.BANK_CASH, Account.Kind.TRUST),
        ),
        _kind(
            SlipType.TABLE_ISSUE,
            pgettext_lazy("slip", "Table issue"),
            [C("issued_by", CC), C("received_by", DEALER)],
            [Table(), Chips()],
            "table_issue",
            cash_required=False,
            floor_only=True,
            table_state=CLOSED,
            stocks_tray=1,
        ),
        _kind(
            SlipType.TABLE_RETURN,
            pgettext_lazy("slip", "Table return"),
            [C("returned_by", DEALER), C("received_by", CC)],
            [Table(), Chips()],
            "table_return",
            cash_required=False,
            table_state=CLOSED,
            stocks_tray=-1,
        ),
        _kind(
            SlipType.TABLE_OPEN,
            pgettext_lazy("slip", "Opener"),
            [C("counted_by", DEALER), C("verified_by", CC)],
            [Table(), Chips(), Reason()],
            "table_open",
            cash_required=False,
            floor_only=True,
            table_figure="opener",
            table_state=CLOSED,
        ),
        _kind(
            SlipType.FILL,
            pgettext_lazy("slip", "Fill"),
            [
                C("issued_by", CC),
                C("carried_by", RUNNER),
                C("received_by", DEALER, step=2),
                W("authorized_by", DRIC),
            ],
            [Table(), RunnerField(), Chips(), Note()],
            "fill",
            cash_required=False,
            runner_required=True,
            runner_capacity="carried_by",
            two_step=True,
            deferred=True,
            voidable=True,
            floor_only=True,
            table_figure="fills",
            runner_figure="carried",
            table_state=OPEN,
            asked_for=True,
            keys=(("en", "f"), ("fr", "p")),  # Fill, remPlissage (R is rachat's)
        ),
        _kind(
            SlipType.CREDIT,
            pgettext_lazy("slip", "Credit"),
            [
                C("released_by", DEALER),
                C("carried_by", RUNNER),
                C("received_by", CC, step=2),
                W("authorized_by", DRIC),
            ],
            [Table(), RunnerField(), Chips(), Note()],
            "credit",
            cash_required=False,
            runner_required=True,
            runner_capacity="carried_by",
            two_step=True,
            deferred=True,
            voidable=True,
            floor_only=True,
            table_figure="credits",
            runner_figure="carried",
            table_state=OPEN,
            keys=(("en", "c"), ("fr", "c")),  # Credit, Crédit
        ),
        _kind(
            SlipType.CHIP_TRANSFER,
            pgettext_lazy("slip", "Chip transfer"),
            # Chips from one open table's tray straight to another's, without the cage: the dealer
            # who releases them and the dealer who receives them sign as they change hands, and the
            # DRIC authorizes it as she does a fill or a credit (T&C 2). To the table that gives
            # them it is a credit, to the one that takes them a fill, so each table's win and the
            # event's stand as if the chips had gone through the chip bank.
            [C("released_by", DEALER), C("received_by", DEALER), W("authorized_by", DRIC)],
            [Table(label=_("From table")), ToTable(), Chips()],
            "chip_transfer",
            cash_required=False,
            floor_only=True,
            table_figure="credits",
            to_table_figure="fills",
            table_state=OPEN,
        ),
        _kind(
            SlipType.TIPS,
            pgettext_lazy("slip", "Tips"),
            [C("counted_by", DEALER), C("verified_by", CC)],
            [Table(), Chips()],
            "tips",
            cash_required=False,
            report_total="tips",
            from_patrons=True,
        ),
        _kind(
            SlipType.TABLE_CLOSE,
            pgettext_lazy("slip", "Closer"),
            [C("counted_by", DEALER), C("verified_by", CC)],
            [Table(), Chips()],
            "table_close",
            chips_required=False,
            cash_required=False,
            table_figure="closer",
            table_state=OPEN,
            from_patrons=True,
        ),
        _kind(
            SlipType.SALE,
            pgettext_lazy("slip", "Chip sale"),
            [C("sold_by", CC, RUNNER), W("authorized_by", DRIC)],
            [RunnerField(), Chips(), Cash(), Tender()],
            "sale",
            runner_capacity="sold_by",
            voidable=True,
            report_total="chip_sales",
            floor_only=True,
            runner_figure="sold",
            keys=(("en", "s"), ("fr", "v")),  # Sale, Vente
        ),
        _kind(
            SlipType.REDEMPTION,
            pgettext_lazy("slip", "Redemption"),
            [C("paid_by", GC), W("authorized_by", DRIC)],
            [Chips(), Cash(), Tender()],
            "redemption",
            voidable=True,
            report_total="redemptions",
            from_patrons=True,
            keys=(("en", "r"), ("fr", "r")),  # Redemption, Rachat
        ),
        _kind(
            SlipType.RUNNER_ISSUE,
            pgettext_lazy("slip", "Runner issue"),
            [C("issued_by", CC), C("received_by", RUNNER)],
            [RunnerField(), Chips()],
            "runner_issue",
            cash_required=False,
            runner_required=True,
            runner_capacity="received_by",
            voidable=True,
            floor_only=True,
            runner_figure="issued",
        ),
        _kind(
            SlipType.RUNNER_RETURN,
            pgettext_lazy("slip", "Runner return"),
            [C("returned_by", RUNNER), C("received_by", CC)],
            [RunnerField(), Chips(absent={}), Cash()],
            "runner_return",
            chips_required=False,
            cash_required=False,
            runner_required=True,
            runner_capacity="returned_by",
            voidable=True,
            runner_figure="returned",
        ),
        _kind(
            SlipType.TIP_PAYOUT,
            pgettext_lazy("slip", "Tip payout"),
            [C("paid_by", GC), C("verified_by", CC), W("authorized_by", DRIC)],
            [Hours()],
            "tip_payout",
            chips_required=False,
            cash_required=False,
        ),
        _kind(
            SlipType.COUNT,
            pgettext_lazy("slip", "Count"),
            [C("counted_by", GC), C("verified_by", CC)],
            [
                CountedPlace(),
                Chips(absent=None),
                CountedCash(),
                Reason(
                    label=_("Details"),
                    help_text=_("Required for “other”; anything the DRIC should know."),
                ),
            ],
            "count",
            chips_required=False,
            cash_required=False,
            trail_action="count_recorded",
        ),
        _kind(
            SlipType.VOID,
            pgettext_lazy("slip", "Void"),
            # No one alone voids a slip: the reversal is posted once both have signed, the cashier
            # who takes the chips or cash back and the DRIC who authorizes it (T&C 2), in either
            # order; until then the void is asked for, and the DRIC may refuse it.
            [C("requested_by", CC, GC), C("authorized_by", DRIC)],
            [Target(), Reason()],
            "void",
            chips_required=False,
            cash_required=False,
            reason_required=True,
            deferred=True,
            from_patrons=True,  # a void of a sale takes the chips back
            trail_action="slip_voided",
        ),
        _kind(
            SlipType.EXPENSE,
            pgettext_lazy("slip", "Expense"),
            # Prepared by the General Cashier, approved by the DRIC: never one signature (T&C 2). The
            # records format's expense has the DRIC's approval only; a file may add the preparer.
            [C("prepared_by", GC, file_optional=True), C("approved_by", DRIC)],
            [Expense(), Cash(kept=True), MissingChipsBill()],
            "expense",
            chips_required=False,
            deferred=True,
            moves=(Account.Kind.TRUST, Account.Kind.EXPENSES),
            # Said on its form: the cashier types what the trust account paid, not cash of the cage.
            help=_(
                "The licensee's trust account pays this expense, not the cage: no cash leaves the bank. "
                "Type the amount paid from the trust account, as the invoice or the cheque shows it."
            ),
        ),
        _kind(
            SlipType.CLOSE_DAY,
            pgettext_lazy("slip", "Day close"),
            [C("prepared_by", GC), C("verified_by", CC), C("approved_by", DRIC)],
            [],
            "close_day",
            chips_required=False,
            cash_required=False,
            trail_action="day_closed",
        ),
        _kind(
            SlipType.HANDOVER,
            pgettext_lazy("slip", "Shift handover"),
            # The outgoing cashier hands the place over and the incoming one takes it, both there as
            # it is counted: two custody signatures, the other's with their signing PIN (T&C 2). It
            # moves nothing; from then on the incoming cashier is the place's custodian for the day
            # (cage.selectors.handovers), and the outgoing one no longer signs for it.
            [C("handed_over_by", GC, CC), C("taken_over_by", GC, CC)],
            [
                HandedPlace(),
                Chips(absent=None),
                HandedCash(),
                Reason(label=_("Details"), help_text=_("Optional: anything the DRIC should know of the handover.")),
            ],
            "handover",
            chips_required=False,
            cash_required=False,
            help=_(
                "Between two cashiers of the same role, at a change of shift: the place is counted together "
                "and both sign. The books are shown beside the count once it is recorded; a difference is "
                "noted, not posted (the nightly count settles the books). The incoming cashier holds the "
                "place for the rest of the day."
            ),
        ),
    ]
}


def types_that(test) -> tuple[str, ...]:
    """The slip types whose declaration passes `test`, in their declared order: what a page, a
    sheet or a service looks for by what a slip does, never by a list of names to keep up."""
    return tuple(k.type for k in SLIP_KINDS.values() if test(k))


# The two kinds there is one of: the void, which names the slip it reverses (its Target), and the
# day close, which has its own page and closes the gaming day.
VOID_KIND = next(k for k in SLIP_KINDS.values() if k.takes(TARGET))
DAY_CLOSE_KIND = SLIP_KINDS[SlipType.CLOSE_DAY]
# The slip types written from the cage's slip form.
ENTRY_KINDS = [k for k in SLIP_KINDS.values() if k is not DAY_CLOSE_KIND]
VOIDABLE = {k.type for k in SLIP_KINDS.values() if k.voidable}
# The slip types the cage keeps books of blank paper slips of, for when the system is down
# (cage.services.paper): every one written at the window but the void, which names a slip of the
# system's; a paper slip written in error is marked VOID on the paper itself.
PAPER_KINDS = [k for k in ENTRY_KINDS if k is not VOID_KIND]
# What the nightly sheets read by what the slips do.
COUNTS = types_that(lambda k: k.takes(ACCOUNT))  # a count of a place
DEPOSITS = types_that(lambda k: k.moves == (Account.Kind.BANK_CASH, Account.Kind.TRUST))
EXPENSES = types_that(lambda k: k.takes(EXPENSE))
HANDOVERS = types_that(lambda k: k.takes(HandedPlace.name))  # a place passed between cashiers
TIP_PAYOUTS = types_that(lambda k: k.takes(HOURS))
FLOATS = types_that(lambda k: k.moves == (Account.Kind.TRUST, Account.Kind.BANK_CASH))
OPENERS = types_that(lambda k: k.table_figure == "opener")
CLOSERS = types_that(lambda k: k.table_figure == "closer")
TABLE_COUNTS = OPENERS + CLOSERS  # a tray counted
SALES = types_that(lambda k: k.report_total == "chip_sales")
STOCKINGS = types_that(lambda k: k.stocks_tray)  # a closed table's tray stocked or taken back
ISSUES = types_that(lambda k: k.stocks_tray > 0)  # a closed table's tray stocked


def day_states(slip_type: str) -> tuple[str, ...]:
    """The gaming day states a slip of this type is written in: the floor's slips while the day is
    open; the others while it reconciles too (counts, redemptions, returns, payouts)."""
    if SLIP_KINDS[slip_type].floor_only:
        return (GamingDay.Status.OPEN,)
    return (GamingDay.Status.OPEN, GamingDay.Status.RECONCILING)


def kind_of(slip_type: str) -> SlipKind:
    return SLIP_KINDS[slip_type]
