"""The slip form at the cage window, built from the slip type's one declaration (cage.slip_types).

The slip's own fields come first, as counts of chips per denomination with live totals and cash as
people type it ("12,50" or "12.50"); then one signature per capacity. A signature is made by its
signer: the logged-in person signs their own capacity; anyone else signs on this screen by typing
their own signing PIN, or later from their own session (the dealer at the table, the DRIC from her
queue). Capacities left blank wait for that later signature (DESIGN: slips and signatures).
"""

import copy
import datetime
import functools
import uuid
from dataclasses import dataclass, field

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms import BoundField
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from cage.fields import BillsAndCoins, ConfirmAmountInput, ConfirmLargeAmounts
from cage.models import Account, CountShown, PaperConfirmation, Slip
from cage.selectors.amounts import amount_of, cash_moved_subquery, chips_worth
from cage.selectors.counts import count_states, counted_lines, standing_counts
from cage.selectors.handovers import custodians, handed_over
from cage.services.counts import keep_count_shown
from cage.services.day import recount_text
from cage.services.ledger import account_label, balance, chips_label, rostered_as
from cage.services.slips import TABLE_STATE
from cage.slip_fields import HandedPlace
from cage.slip_types import (
    ACCOUNT,
    CLOSED,
    CLOSERS,
    COUNTS,
    DAY_CLOSE_KIND,
    HOURS,
    OPEN,
    OPENERS,
    RUNNER_FIELD,
    TARGET,
    SlipKind,
)
from core.compiled import Compiled
from core.local import clock
from core.money import dollars
from core.rules import Clock, Lower, Money, Rule, RuleViolation, Several, Words, cite
from events.form_input import CheckedInput
from events.models import GameTable, GamingDay, Person, Role
from events.selectors import chip_set, tables_of
from events.services import pin_verify

# A slip is written once for what changes hands once: the same slip again within a minute is
# asked about before it is recorded (SlipForm.confirm_second_slip).
SECOND_SLIP_RULE = Rule("second_slip", gettext_lazy("one slip for each transaction"))

# The fixed places the cage counts, by their account's code (runners are "runner:<id>").
COUNTED = ("bank_cash", "chip_bank", "tip_pool")
# Places that hold chips only: counted by denomination, never by bill and coin.
CHIPS_ONLY = ("chip_bank", "tip_pool")


class PeopleWith(QuerySet):
    """people_with's list. `who`: (the event's id, the roles) while it is that list as built (a
    field's own copy of it included), None once narrowed (filtered, some left out): PersonChoice
    then reads a choice by a query compiled once instead of the ORM's `get`."""

    who = None

    def all(self):
        copy = super().all()
        copy.who = self.who
        return copy


def people_with(event, roles):
    """The event's people (in good standing) holding one of `roles`, by name: a list of who signs."""
    return _people_with(getattr(event, "pk", event), tuple(roles)).all()


@functools.lru_cache(maxsize=256)
def _people_with(event_id: int, roles: tuple) -> PeopleWith:
    # Built once per event and roles, never run itself: each form takes a copy (.all()), and a form
    # has three or four lists, whose building cost more than the rest of the form.
    # With their logins: the services check that whoever signs is not the administrator's login
    # (events.designation), which read each signer's login again, a query per signer per slip.
    people = (
        PeopleWith(Person)
        .filter(event=event_id, assignments__role__in=roles, registration=Person.Registration.GOOD)
        .select_related("user")
        .distinct()
        .order_by("name")
    )
    people.who = (event_id, roles)
    return people


# The ids a database's integer key holds: a choice beyond them is refused as no choice, never sent
# to the database (SQLite refuses so large an integer as a parameter).
KEYS = range(-(2**63), 2**63)


def one_of_people_with(event_id: int, roles: tuple, person_id: int) -> Person | None:
    return _one_of(roles).first(event_id, person_id)


@functools.cache
def _one_of(roles: tuple) -> Compiled:
    """One of people_with's list, by the event's and the person's ids, compiled once for each roles."""
    return Compiled(lambda event_id, person_id: people_with(event_id, roles).filter(pk=person_id))


def pin_field(label) -> forms.CharField:
    """A signing PIN typed by the person beside the cashier: never shown, never remembered."""
    return forms.CharField(
        label=label,
        required=False,
        max_length=12,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


class PersonChoice(forms.ModelChoiceField):
    def label_from_instance(self, person):
        return person.name

    def to_python(self, value):
        # Every slip chooses two or three people: the choice is read as the ORM's `get` reads it,
        # by a query compiled once, while the list is people_with's as built.
        who = getattr(self.queryset, "who", None)
        if who is None or value in self.empty_values or isinstance(value, Person):
            return super().to_python(value)
        self.validate_no_null_characters(value)
        try:
            key = int(value)
        except (ValueError, TypeError):
            key = None
        person = one_of_people_with(*who, key) if key is not None and key in KEYS else None
        if person is None:
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice", params={"value": value})
        return person


class HolderSelect(forms.Select):
    """A shift handover's list of who signs: each cashier on the day's roster is tagged with the
    place their position holds (data-place), and those of the other place are neither shown nor
    chosen; slip_form.js swaps them when the place handed over changes."""

    def __init__(self, *args, holds: dict[int, str], shown: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.holds, self.shown = holds, shown

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex=subindex, attrs=attrs)
        place = self.holds.get(getattr(value, "value", value))
        if place is not None:
            option["attrs"]["data-place"] = place
            if place != self.shown:
                option["attrs"].update(hidden=True, disabled=True)
        return option


class TableChoice(forms.ModelChoiceField):
    """A table the slip is written for, among those its type may be written for now (`offered`:
    their ids). Any of the event's tables is read, so that one offered when the form was opened and
    no longer (it closed since) is refused in words (table_gone), not as "not one of the choices"."""

    def __init__(self, *args, offered: list[int], day: GamingDay, kind: SlipKind, **kwargs):
        super().__init__(*args, **kwargs)
        self.offered, self.day, self.kind = set(offered), day, kind

    def label_from_instance(self, table):
        return _("table %(table)s") % {"table": table.code}

    def to_python(self, value):
        if value in self.empty_values:
            return None
        self.validate_no_null_characters(value)
        # The event's tables, as events.selectors reads them (the offer was read from them as the
        # form was built): one query compiled once, or none within a reading, where the ORM built two.
        try:
            key = value.pk if isinstance(value, GameTable) else int(value)
        except (ValueError, TypeError):
            key = None
        table = next((t for t in tables_of(self.day.event_id) if t.pk == key), None)
        if table is None:
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice", params={"value": value})
        table = copy.copy(table)  # the form's own: a reading's tables are shared, never changed
        if table.pk not in self.offered:
            raise table_gone(self.day, self.kind, table)
        return table


@dataclass(frozen=True)
class TableGone:
    """What a table's state now says to a slip that needs the other: the slips that put it in this
    state today, and the words and codes for either case (changed since the form, or all along)."""

    since: tuple  # the slip types that put the table in this state (its closers, or its openers)
    since_words: str
    since_code: str
    needs_words: str
    needs_code: str


# By the state the table is in now: the words the services would refuse it with (TABLE_STATE).
TABLE_GONE = {
    CLOSED: TableGone(
        CLOSERS,
        N_("%(table)s closed at %(time)s; this %(slip)s can no longer be written for it"),
        "table.closed_since_the_form",
        N_("table %(table)s is closed; a %(slip)s needs it open"),
        "table.needs_open",
    ),
    OPEN: TableGone(
        OPENERS,
        N_("%(table)s opened at %(time)s; this %(slip)s can no longer be written for it"),
        "table.opened_since_the_form",
        N_("table %(table)s is open; a %(slip)s needs it closed"),
        "table.needs_closed",
    ),
}


def table_gone(day: GamingDay, kind: SlipKind, table) -> RuleViolation:
    """Why a table chosen on a form opened earlier no longer takes this slip: it closed, or opened,
    since (at the time its closer or opener was written), as the services would refuse it."""
    gone, slip = TABLE_GONE[table.state], Lower(kind.label)
    since = Slip.objects.filter(day=day, table=table, slip_type__in=gone.since).order_by("-id").first()
    if since is None:
        return RuleViolation(Words(gone.needs_words, table=table.code, slip=slip), TABLE_STATE, code=gone.needs_code)
    return RuleViolation(
        Words(gone.since_words, table=table.code, time=Clock(since.at), slip=slip),
        TABLE_STATE,
        code=gone.since_code,
    )


class SlipChoice(forms.ModelChoiceField):
    """A slip to void, told apart from the others of the same minute by its amount and its table
    or runner: "Chip sale 31 at 18:01, runner Rita: $50.00". On a day counted blind tonight
    (cage.selectors.counts.books_blind) no choice shows an amount: listed together, the day's
    amounts would give the counted places' books away. The queryset comes with each slip's table,
    runner and cash_moved (one query for the whole list)."""

    def __init__(self, *args, values: dict[str, int] | None = None, blind: bool = False, among=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.values = values or {}
        self.blind = blind
        # The slips a choice is read from: beyond those offered, the day's voidable slips a void
        # already names (a form opened before), so that the service says why, not "not a choice".
        self.among = among

    def to_python(self, value):
        if self.among is None:
            return super().to_python(value)
        offered, self.queryset = self.queryset, self.among
        try:
            return super().to_python(value)
        finally:
            self.queryset = offered

    def label_from_instance(self, slip):
        amount = None if self.blind else amount_of(slip, self.values, getattr(slip, "cash_moved", None))
        parts = {"slip": slip.number, "time": clock(slip.at)}
        if amount is not None:
            parts["amount"] = dollars(amount)
        if slip.table_id:
            parts["table"] = slip.table.code
            if amount is None:
                return _("%(slip)s at %(time)s, table %(table)s") % parts
            return _("%(slip)s at %(time)s, table %(table)s: %(amount)s") % parts
        if slip.runner_id:
            parts["runner"] = slip.runner.name
            if amount is None:
                return _("%(slip)s at %(time)s, runner %(runner)s") % parts
            return _("%(slip)s at %(time)s, runner %(runner)s: %(amount)s") % parts
        if amount is None:
            return _("%(slip)s at %(time)s") % parts
        return _("%(slip)s at %(time)s: %(amount)s") % parts


# The places a tip payout moves: the pool's chips go into the chip bank, the shares are paid out of
# bank cash (cage.services.slips.tip_payout).
PAYOUT_MOVES = (Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK)


def recounts_after_payout(day) -> list[str]:
    """The places already counted that a tip payout now would move: their counts would have to be
    taken again before the day closes (cage.selectors.counts)."""
    states = count_states(day)
    return [account_label(states[kind].account) for kind in PAYOUT_MOVES if kind in states and states[kind].counted]


@dataclass(frozen=True)
class StandingCount:
    """The day's count of a place as a fresh count form shows it (SlipForm.count_standing)."""

    state: str  # "shown": set beside the books, not recorded; "recorded": stands; "again": undone
    place: str
    counted_by: str = ""
    verified_by: str = ""
    at: datetime.datetime | None = None
    slip: Slip | None = None
    lines: list = field(default_factory=list)  # [(count or None, what)]
    again: str = ""  # why it is to be counted again
    # A recorded count's expected and counted per instrument (the books may be seen once it is in).
    books: list = field(default_factory=list)


class SlipBoundField(BoundField):
    """A field of the slip form as the page shows it. On a refused form the keyboard starts at the
    first field in error, in the page's order (SlipForm.first_in_error), never at the form's first
    field: decided as the field is shown, once every refusal is known (the view adds the services'
    refusals after the form's own)."""

    def build_widget_attrs(self, attrs, widget=None):
        attrs = super().build_widget_attrs(attrs, widget)
        if self.form.is_bound and self.form.errors:
            attrs["autofocus"] = self.name == self.form.first_in_error()  # False: not written at all
        return attrs


def _recent_slips(day_id, slip_type, since, user_id, request_key, *, cash: bool):
    """A person's slips of a type written on the day since a moment, but the one of this form,
    latest first. `cash`: with the cash each moved (cash_moved), for slips whose amount it is, or is
    part of: slips of a type that counts chips are worth their chips (amount_of)."""
    recent = (
        Slip.objects.filter(day_id=day_id, slip_type=slip_type, at__gte=since, created_by_id=user_id)
        .exclude(request_key=request_key)
        .only("serial", "at", "slip_type", "details", "table_id", "runner_id")
        .order_by("-id")
    )
    return recent.annotate(cash_moved=cash_moved_subquery()) if cash else recent


def _recent_slips_worth(day_id, slip_type, since, user_id, request_key, amount, *, values: tuple):
    """_recent_slips of a slip type worth its chips (not a runner's, not a count), but only those
    whose chips are worth `amount` at `values` ((key, cents) of the event's chips), or that name no
    chips (whose amount is read from the rest): every slip that can be of that amount, read in the
    database, so that a window writing many slips of a type a minute reads only those few."""
    recent = _recent_slips(day_id, slip_type, since, user_id, request_key, cash=False)
    return recent.alias(worth=chips_worth(values)).filter(worth__in=[amount, 0])


# Compiled once (core.compiled): SlipForm.confirm_second_slip, of a slip worth what it moves, and
# of a slip worth its chips, once for each chip set (an event's).
_RECENT_SLIPS = Compiled(
    functools.partial(_recent_slips, cash=True), texts=("slip_type", "request_key"), moments=("since",)
)
_RECENT_SLIPS_WORTH: dict[tuple, Compiled] = {}


def recent_slips(day_id, slip_type, since, user_id, request_key, *, amount: int, values: dict | None) -> list[Slip]:
    """The person's slips of a type since a moment that may be of `amount`: all of them when the
    slip's amount is cash (`values` None), else those whose chips at `values` are worth it."""
    if values is None:
        return _RECENT_SLIPS.objects(day_id, slip_type, since, user_id, request_key)
    chips = tuple(sorted(values.items()))
    compiled = _RECENT_SLIPS_WORTH.get(chips)
    if compiled is None:
        compiled = _RECENT_SLIPS_WORTH[chips] = Compiled(
            functools.partial(_recent_slips_worth, values=chips),
            texts=("slip_type", "request_key"),
            moments=("since",),
        )
    return compiled.objects(day_id, slip_type, since, user_id, request_key, amount)


class SlipForm(CheckedInput, ConfirmLargeAmounts, forms.Form):
    bound_field_class = SlipBoundField
    # One per form shown: a second POST of the same form is recognised and records nothing.
    request_key = forms.CharField(widget=forms.HiddenInput, max_length=40)

    def __init__(
        self, *args, kind: SlipKind, day: GamingDay, signer: Person | None, request, initial_chips=None, **kwargs
    ):
        super().__init__(*args, **kwargs)
        # A signing PIN typed here counts for or against its owner's lockout from this address.
        self.request = request
        self.fields["request_key"].initial = uuid.uuid4().hex
        self.kind = kind
        self.slip_type = kind.type
        self.day = day
        self.event = event = day.event
        self.signer = signer
        self.denominations = chip_set(event)
        # {denomination key: cents}, from the chip set read just above (no query of its own).
        self.chip_values = {d.key: d.value_cents for d in self.denominations}
        self.initial_chips = initial_chips
        # Each of the slip type's fields adds its own (cage.slip_fields), in the declaration's order.
        for slip_field in kind.fields:
            slip_field.add_to(self)
        self.add_signature_fields()
        if kind.takes(HandedPlace.name):
            self.offer_the_place_holders()
        else:
            self.leave_out_those_handed_over()
        if kind.takes(ACCOUNT) and not self.is_bound:
            self.standing = self.count_standing(self.initial.get("account"))
        if kind.table_figure == "opener" and not self.is_bound and self.initial.get("table"):
            self.standing = self.opener_standing(self.initial["table"])
        # The cursor starts where the cashier must type: at a sale, the chips, not the runner a
        # sale at the cage leaves empty (or a runner on the floor finds already chosen).
        runner = self.fields.get("runner")
        chosen = runner is not None and (not runner.required or runner.initial is not None)
        first = next((f for f in self.visible_fields() if not (chosen and f.name == "runner")), None)
        if first is not None:
            first.field.widget.attrs["autofocus"] = True

    tip_pool = None
    standing = None
    tender_note = ""  # what a sale or a redemption is paid with (slip_fields.Tender)
    tip_pool_blind = False
    recounts: list = []

    @property
    def tip_pool_dollars(self) -> str:
        return dollars(self.tip_pool or 0)

    @property
    def zero_dollars(self) -> str:
        """What a total shows before anything is counted (the page's script keeps it up to date)."""
        return dollars(0)

    def runner_on_the_floor(self) -> bool:
        """A runner, not a cashier, writing this slip (a sale to a patron on the floor)."""
        roles = self.signer.role_codes() if self.signer else set()
        return Role.RUNNER in roles and not roles & {Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER}

    # --- signatures --------------------------------------------------------------------

    def add_signature_fields(self):
        own = self.signer.role_codes() if self.signer else set()
        mine_taken = False
        for cap in self.kind.capacities:
            roles = cap.roles
            if self.runner_signs(cap):
                # The runner chosen above signs here: they are not chosen a second time. A sale
                # with no runner is the Chip Cashier's, chosen here (T&C 3.4.2).
                roles = tuple(r for r in cap.roles if r != Role.RUNNER)
                if not roles or self.runner_on_the_floor():
                    self.fields[f"pin_{cap.code}"] = pin_field(_("Their signing PIN"))
                    continue
            # The logged-in person's own capacity is preselected (once): they sign without a PIN.
            # A later custody step signs when the chips arrive, never as the slip is written.
            mine = not mine_taken and bool(own & set(roles)) and cap.step in (1, None)
            mine_taken = mine_taken or mine
            self.fields[f"sign_{cap.code}"] = PersonChoice(
                label=_("%(capacity)s (%(roles)s)") % {"capacity": cap.label, "roles": cap.roles_label()},
                queryset=people_with(self.event, roles),
                initial=self.signer.pk if mine else None,
                # Chosen only for a sale at the cage, with no runner named (clean_signatures).
                required=self.signs_now(cap) and roles == cap.roles,
                empty_label=_("Signs later") if not self.signs_now(cap) else _("Choose who signs"),
                # The app's own words when nobody is chosen (the page's forms are not left to the
                # browser's "required" bubble).
                error_messages={
                    "required": _("Choose who signs as “%(capacity)s” (%(roles)s).")
                    % {"capacity": str(cap.label).lower(), "roles": cap.roles_label()}
                },
            )
            self.fields[f"pin_{cap.code}"] = pin_field(_("Their signing PIN"))

    def leave_out_those_handed_over(self):
        """A cashier who handed bank cash or the chip bank over at a change of shift signs no custody
        in that position for the rest of the day (cage.services.ledger.check_holds_the_place refuses
        it, T&C 2): the lists of who signs no longer offer them. One query on a day without a
        handover; after one, a query more for each list of who signs in custody."""
        holders = custodians(self.day)
        if not holders:
            return
        for cap in self.kind.capacities:
            field = self.fields.get(f"sign_{cap.code}")
            if field is None or cap.witness:
                continue
            handed = [p.pk for p in field.queryset if handed_over(p.role_codes() & set(cap.roles), p.pk, holders)]
            if handed:
                field.queryset = field.queryset.exclude(pk__in=handed)
                if field.initial in handed:
                    field.initial = None

    def offer_the_place_holders(self):
        """A shift handover passes its place between two cashiers of the place's own position on
        the day's roster (cage.services.slips.handover refuses anyone else): each list of who signs
        offers only them, never a Chip Cashier to take over bank cash nor a General Cashier the
        chip bank."""
        holds = {person: place for place, role in HandedPlace.PLACES.items() for person in rostered_as(self.day, role)}
        shown = self.place_shown()
        for cap in self.kind.capacities:
            field = self.fields[f"sign_{cap.code}"]
            field.widget = HolderSelect(holds=holds, shown=shown)
            field.widget.is_required = field.required
            # The logged-in cashier, preselected, is unchosen if the place changes to the other's:
            # the list then says so rather than showing blank.
            field.empty_label = field.empty_label or _("Choose who signs")
            field.queryset = field.queryset.filter(pk__in=holds)  # and gives the new list its choices

    def place_shown(self) -> str:
        """The place the handover form is about now: as sent; else the one the logged-in cashier's
        position holds (a Chip Cashier hands over the chip bank), else bank cash, first on the list."""
        if self.is_bound:
            return self["place"].data or ""
        own = self.signer.role_codes() if self.signer else set()
        place = next((p for p, role in HandedPlace.PLACES.items() if role in own), Account.Kind.BANK_CASH)
        return self.initial.setdefault("place", place)

    def runner_signs(self, cap) -> bool:
        """The capacity the runner named on the slip signs (the service holds them to it): a fill's
        carrier, a runner issue's receiver, a sale's seller when a runner sells."""
        return cap.code == self.kind.runner_capacity and self.kind.takes(RUNNER_FIELD)

    def signs_now(self, cap) -> bool:
        """Capacities that must sign as the slip is written: the first custody step of a one-step
        slip. Witnesses and later steps may follow; a deferred slip may wait for all of them."""
        if self.kind is DAY_CLOSE_KIND:
            # The General Cashier prepares the close now; the Chip Cashier and the DRIC sign now
            # with their PIN, or later from their own sessions (cage.services.close).
            return cap.code == "prepared_by"
        return cap.step == 1 and not self.kind.deferred

    @property
    def some_sign_later(self) -> bool:
        return any(not self.signs_now(c) for c in self.kind.capacities)

    def signature_rows(self):
        """(person field, PIN field, capacity) for the nightly close's template (no runner signs it)."""
        return [(self[f"sign_{c.code}"], self[f"pin_{c.code}"], c) for c in self.kind.capacities]

    def slip_signature_rows(self):
        """(person field or None, PIN field, capacity, whether the runner chosen above signs it)
        for the slip form's template."""
        return [
            (
                self[f"sign_{c.code}"] if f"sign_{c.code}" in self.fields else None,
                self[f"pin_{c.code}"],
                c,
                self.runner_signs(c),
            )
            for c in self.kind.capacities
        ]

    def runner_named(self) -> str:
        """The name of the runner the form names now (sent, or first shown), for the row they sign."""
        field = self.fields.get("runner")
        value = self["runner"].value() if field is not None else None
        if not value:
            return ""
        try:
            return field.to_python(value).name
        except forms.ValidationError:
            return ""

    def entry_fields(self):
        skip = ("sign_", "pin_", "chips_", "cash_", "confirm_large", "confirm_second", "hours_")
        return [f for f in self.visible_fields() if not f.name.startswith(skip) and f.name != "cash"]

    def hours_fields(self):
        """A tip payout's hours, one per dealer: laid out apart, each name with its roster below."""
        return [self[f"hours_{p.code}"] for p in getattr(self, "dealers", [])]

    def chip_fields(self):
        return [self[f"chips_{d.key}"] for d in self.denominations if f"chips_{d.key}" in self.fields]

    def bill_bound_fields(self):
        return [self[name] for name in getattr(self, "bill_fields", [])]

    def shown_in_order(self) -> list[str]:
        """The fields a person types in or chooses, in the order the page lays them out
        (slip_form.html): the slip's own, the hours, the chips, the bills and coins, the cash, the
        boxes to tick, then who signs and their PINs. Figures standing as first typed are not shown."""
        fields = [*self.entry_fields(), *self.hours_fields(), *self.chip_fields(), *self.bill_bound_fields()]
        fields += [self[name] for name in ("cash", "confirm_large", "confirm_second") if name in self.fields]
        for person, pin, _cap, _runner_signs in self.slip_signature_rows():
            fields += [person, pin] if person is not None else [pin]
        return [f.name for f in fields if not f.is_hidden]

    def first_in_error(self) -> str | None:
        return next((name for name in self.shown_in_order() if name in self.errors), None)

    def field_refusals(self) -> list[tuple]:
        """(field, refusal) for each refusal of a field shown, in the page's order: the list at the
        top of a refused form names each with its field, beside which it is said again."""
        return [(self[name], error) for name in self.shown_in_order() for error in self.errors.get(name, [])]

    @property
    def focus_on_refusals(self) -> bool:
        """A form refused as a whole (no field in error): the keyboard starts at its refusals."""
        return self.is_bound and bool(self.errors) and self.first_in_error() is None

    def count_choices(self):
        choices = [("bank_cash", _("bank cash")), ("chip_bank", _("chip bank"))]
        choices += [
            (f"runner:{p.code}", _("runner %(name)s") % {"name": p.name})
            for p in people_with(self.event, [Role.RUNNER])
        ]
        return [*choices, ("tip_pool", _("tip pool"))]

    # --- cleaning ----------------------------------------------------------------------

    def clean(self):
        data = super().clean()
        self.cash_waits_for_the_chips()
        if self.kind.takes(TARGET) and not self.errors and self.confirm_void_target(data):
            # The slip to void is shown first: nobody's PIN is tried before it is checked.
            data["signed"] = {}
            return data
        data["signed"] = self.clean_signatures(data)
        data["chips"] = {
            d.key: data.get(f"chips_{d.key}") or 0 for d in self.denominations if f"chips_{d.key}" in self.fields
        }
        if self.kind.takes(ACCOUNT):
            self.clean_count(data)
            if not self.errors and self.count_stands(data):
                self.compare_with_the_books(data)
        elif "cash" in self.fields:
            data["cash_cents"] = data.get("cash")
        if self.kind.table_figure == "opener":
            # Whatever else is refused, an opener set beside the tray's books stays as first typed.
            self.count_stands(data)
        if self.kind.takes(HOURS):
            data["hours"] = [(p, data[f"hours_{p.code}"]) for p in self.dealers if data.get(f"hours_{p.code}")]
        if not self.errors:
            self.confirm_large_amount(self.total_cents(data))
        if not self.errors:
            self.confirm_second_slip(data)
        return data

    def cash_waits_for_the_chips(self) -> None:
        """A sale's or a redemption's cash is filled in from its chips (T&C 3.6, slip_form.js), and
        nothing is filled in while a count of them is not a count ("2O"): its empty cash is then no
        refusal of its own, and the count's refusal alone says what to put right."""
        cash = self.fields.get("cash")
        if getattr(cash, "matching", None) is None or self.chips_cents_cleaned() is not None:
            return
        if [error.code for error in self.errors.as_data().get("cash", [])] == ["required"]:
            del self.errors["cash"]

    # A slip like one written less than this long ago is asked about before it is recorded.
    SECOND_SLIP_WITHIN = datetime.timedelta(minutes=1)
    checks_twice = True

    def chips_cents_cleaned(self) -> int | None:
        """The chips' value as cleaned so far: their fields come before the cash's, so that a sale's
        cash is read against it (CashField.matching). None while a count of them is refused."""
        cleaned, errors, cents = getattr(self, "cleaned_data", {}), self._errors or {}, 0
        for d in self.denominations:
            name = f"chips_{d.key}"
            if name in errors:
                return None
            cents += (cleaned.get(name) or 0) * d.value_cents
        return cents

    def slip_amount(self, data) -> int:
        """What this slip is about, as cage.selectors.amounts.amount_of reads a written one."""
        chips = sum(d.value_cents * (data.get("chips") or {}).get(d.key, 0) for d in self.denominations)
        if chips and self.kind.runner_figure == "returned":
            return chips + (data.get("cash_cents") or 0)
        return chips or data.get("cash_cents") or 0

    def confirm_second_slip(self, data) -> None:
        """A slip of the same type, amount, table and runner as one the same person wrote less than a
        minute ago is asked about: a second slip, or the same one sent twice (a double tap, a form
        opened twice)? Ticking "Yes, this is a second slip" confirms it against that earlier slip
        only. Another window's slip is never asked about: two cashiers selling $20 of chips in the
        same minute is the window at work, not a slip sent twice."""
        if not self.checks_twice or self.kind.takes(ACCOUNT) or self.kind.takes(TARGET) or self.kind.takes(HOURS):
            return
        amount = self.slip_amount(data)
        if not amount:
            return
        # The same person's slips of the type in the last minute that may be of this amount, by a
        # query compiled once (the window asks it on every slip); of those, the same table's and
        # runner's, of the same amount.
        cash = self.kind.runner_figure == "returned" or not any((data.get("chips") or {}).values())
        table, runner = data.get("table"), data.get("runner")
        values = self.chip_values
        recent = recent_slips(
            self.day.pk,
            self.kind.type,
            timezone.now() - self.SECOND_SLIP_WITHIN,
            self.request.user.pk,
            data.get("request_key") or "",
            amount=amount,
            values=None if cash else values,
        )
        earlier = next(
            (
                slip
                for slip in recent
                if slip.table_id == (table and table.pk)
                and slip.runner_id == (runner and runner.pk)
                and amount_of(slip, values, getattr(slip, "cash_moved", None)) == amount
            ),
            None,
        )
        if earlier is None:
            return
        field = forms.BooleanField(
            label=_("Yes, this is a second slip"),
            label_suffix="",  # a box ticked beside its words, not a field that follows a colon
            required=False,
            widget=ConfirmAmountInput(earlier.pk),
        )
        self.fields["confirm_second"] = field
        ticked = field.widget.value_from_datadict(self.data, self.files, self.add_prefix("confirm_second"))
        if ticked == str(earlier.pk):
            return
        self.add_error(
            None,
            RuleViolation(
                Words(
                    N_(
                        "%(slip)s, for the same amount of %(amount)s, was recorded at %(time)s, less than a minute "
                        "ago. If this is another %(kind)s, not the same one sent again, tick “Yes, this is a second "
                        "slip” and record it."
                    ),
                    slip=Several(self.kind.label, earlier.serial),
                    amount=Money(amount),
                    time=Clock(earlier.at),
                    kind=Lower(self.kind.label),
                ),
                SECOND_SLIP_RULE,
                code="slip.second_within_a_minute",
            ),
        )

    void_preview = None

    def confirm_void_target(self, data) -> bool:
        """Before a void is recorded, the slip it names is shown in full (type, serial, table, chips,
        who signed and when), so that a wrong line picked in the list is caught before anything is
        written: the first send shows it, the second (with the same slip) records the void. True
        when it is shown now."""
        target = data.get("target")
        if target is None or data.get("confirm_target") == str(target.pk):
            return False
        from cage.selectors.slip_sheet import slip_sheet  # the sheet reads what this form writes

        self.void_preview = slip_sheet(target)
        self.data = self.data.copy()
        self.data[self.add_prefix("confirm_target")] = str(target.pk)
        self.add_error(
            None,
            _(
                "Check the slip below: it is %(slip)s. If it is the slip to void, record the void; if not, choose another."
            )
            % {"slip": target.number},
        )
        return True

    def clean_signatures(self, data) -> dict[str, Person]:
        signed = {}
        for cap in self.kind.capacities:
            person = data.get(f"sign_{cap.code}")
            named = self.runner_signs(cap) and data.get("runner") is not None
            if named:
                person = data["runner"]  # the runner chosen above, whatever the row's list says
            if person is None:
                if (data.get(f"pin_{cap.code}") or "").strip():
                    # A PIN typed for nobody is a mistake to point out, never one to ignore.
                    self.add_error(
                        f"pin_{cap.code}",
                        _(
                            "A PIN was typed, but nobody is chosen to sign as “%(capacity)s”: choose who signs, or clear the PIN."
                        )
                        % {"capacity": str(cap.label).lower()},
                    )
                elif self.runner_signs(cap) and self.signs_now(cap) and f"sign_{cap.code}" in self.fields:
                    # A sale at the cage, with no runner named: the Chip Cashier sells it.
                    self.add_error(f"sign_{cap.code}", self.fields[f"sign_{cap.code}"].error_messages["required"])
                continue
            if self.signer is not None and person.pk == self.signer.pk:
                signed[cap.code] = person
                continue
            pin = data.get(f"pin_{cap.code}") or ""
            if not pin.strip():
                # Nothing typed is not a wrong try: it burns none of their tries. The runner named
                # above signs later from their own session, where the slip lets them.
                if not (named and not self.signs_now(cap)):
                    self.add_error(f"pin_{cap.code}", self.pin_missing(cap, person, named))
                continue
            try:
                pin_verify(request=self.request, person=person, pin=pin)
            except RuleViolation as exc:
                self.add_error(f"pin_{cap.code}", exc.text)
                continue
            signed[cap.code] = person
        return signed

    def pin_missing(self, cap, person, named: bool) -> str:
        if named:
            return _("%(name)s, the runner named above, types their signing PIN here to sign as “%(capacity)s”.") % {
                "name": person.name,
                "capacity": str(cap.label).lower(),
            }
        return _("%(name)s types their signing PIN here, or choose “Signs later” for them to sign later.") % {
            "name": person.name
        }

    def clean_count(self, data):
        """A count of bank cash is by bill and coin; of the chip bank and the tip pool, by chips; of
        a runner, both."""
        cash, lines = BillsAndCoins.total(data, prefix="cash_")
        where = data.get("account")
        data["cash_lines"] = lines
        if where == "bank_cash":
            if any(data["chips"].values()):
                self.add_error(None, _("bank cash holds cash only; count chips as the chip bank (count)"))
            data["chips"], data["cash_cents"] = None, cash
        elif where in CHIPS_ONLY:
            if cash:
                self.add_error(
                    None,
                    _("the chip bank holds chips only; count cash as bank cash (count)")
                    if where == "chip_bank"
                    else _("the tip pool holds the dealers' tip chips only; count cash as bank cash (count; %(rule)s)")
                    % {"rule": cite("T&C 2.6")},
                )
            data["cash_cents"] = None
        else:
            data["cash_cents"] = cash

    variance_rows: list = []

    def counted_figures(self, data) -> dict:
        """The count as typed: the place, and the non-zero chips and bills and coins."""
        pieces = {
            BillsAndCoins.field_name(p, "cash_"): data.get(BillsAndCoins.field_name(p, "cash_")) or 0
            for p in BillsAndCoins.DENOMINATIONS
        }
        return {
            "account": self.counted_where(data),
            "chips": {k: n for k, n in (data.get("chips") or {}).items() if n},
            "pieces": {name: n for name, n in pieces.items() if n},
        }

    def counted_where(self, data) -> str | None:
        """The place this count is of: the count form's chosen place, or an opener's tray
        ("table:BJ-1"). An opener refused for its difference from the tray has been set beside the
        books as a count has: its figures stand as first typed (DESIGN: gaming day)."""
        if self.kind.table_figure == "opener":
            table = data.get("table")
            return f"{Account.Kind.TABLE}:{table.code}" if table is not None else None
        return data.get("account")

    def count_shown(self, where) -> CountShown | None:
        """The count of this place already set beside the books today, if it still stands: no
        movement of the place and no count slip of it since (cage.models.CountShown)."""
        shown = CountShown.objects.filter(day=self.day, account_code=where).order_by("-id").first()
        if shown is None:
            return None
        account = self.existing_counted_account(where)
        if account is not None:
            later = Slip.objects.filter(day=self.day, id__gt=shown.after_slip_id)
            if (
                later.filter(postings__account=account).exists()
                or later.filter(slip_type__in=COUNTS, account=account).exists()
            ):
                return None
        return shown

    def count_stands(self, data) -> bool:
        """False (with the error said) when the books were shown beside a count of this place and
        this count's figures differ from the ones first typed; those are put back on the form."""
        shown = self.count_shown(self.counted_where(data))
        if shown is not None and self.kind.table_figure == "opener":
            self.lock_counted_inputs()  # an opener's figures stay locked until it records
            self.standing = self.opener_standing(data["table"].pk)
        if shown is None or self.as_first_typed(shown.figures) == self.counted_figures(data):
            return True
        first = shown.figures
        self.add_error(
            None,
            _(
                "The opener was set beside the tray's books at %(time)s and stands as first typed: give the "
                "reason for its difference and record it; the DRIC signs the difference off (counts are blind)."
            )
            % {"time": clock(shown.shown_at)}
            if self.kind.table_figure == "opener"
            else _(
                "The count was set beside the books at %(time)s and stands as first typed. To recount, "
                "record this count with its reason, then write a new count (nightly reconciliation: "
                "counts are blind)."
            )
            % {"time": clock(shown.shown_at)},
        )
        self.lock_counted_inputs()
        restored = self.data.copy()
        for name in [f"chips_{d.key}" for d in self.denominations] + list(getattr(self, "bill_fields", [])):
            value = first["chips"].get(name.removeprefix("chips_")) if name.startswith("chips_") else None
            value = value or first["pieces"].get(name)
            restored[name] = str(value) if value else ""
        if "account" in self.fields:
            restored["account"] = first["account"] or ""
        self.data = restored
        return False

    def lock_opener(self, data) -> None:
        """An opener refused for its difference from the tray has now been set beside its books: its
        figures stand as first typed, locked, and only its reason is left to give."""
        self.keep_count_shown(data)
        self.lock_counted_inputs()
        if data.get("table") is not None:
            self.standing = self.opener_standing(data["table"].pk)

    def keep_count_shown(self, data) -> None:
        """The books are about to be shown beside this count without recording it: keep the
        figures, so that no fresh form gives a second blind count (and the audit trail says so)."""
        where = self.counted_where(data)
        if where is None or self.count_shown(where) is not None:
            return
        figures = self.counted_figures(data)
        if self.kind.table_figure == "opener":
            # Who counted the tray and who verified it, for the words that name them: the session
            # that showed the books may be the verifier's, never the counter's alone.
            figures["signed"] = {cap: person.pk for cap, person in (data.get("signed") or {}).items()}
        keep_count_shown(day=self.day, where=where, figures=figures, person=self.signer)

    @staticmethod
    def as_first_typed(figures: dict) -> dict:
        """The figures of a count set beside the books, without who signed them (an opener's)."""
        return {key: value for key, value in figures.items() if key != "signed"}

    def count_standing(self, where) -> "StandingCount | None":
        """What stands of the day's count of this place, for a fresh count form pointed at it (the
        close's links): a count set beside the books and not yet recorded (its figures put back
        and locked: it stands as first typed); a recorded count with nothing moved since (its
        figures filled in for a recount, which is a new count slip); or a count that a movement
        since has undone (nothing of it shown: the place is counted blind again). These are the
        counter's own figures, never the books (cage.selectors.counts.books_blind)."""
        account = self.existing_counted_account(where)
        if account is None:
            return None
        shown = self.count_shown(where)
        if shown is not None:
            self.fill_counted_inputs(shown.figures.get("chips", {}), shown.figures.get("pieces", {}))
            self.lock_counted_inputs()
            return StandingCount(
                state="shown",
                place=account_label(account),
                counted_by=shown.person.name if shown.person else "",
                at=shown.shown_at,
                lines=self.figure_lines(shown.figures.get("chips", {}), shown.figures.get("pieces", {})),
            )
        states = count_states(self.day)
        state = states.get(account.code)
        if state is None or state.last_count is None:
            return None
        if not state.counted:
            return StandingCount(state="again", place=account_label(account), again=recount_text(state))
        slip = standing_counts(self.day, states)[account.code]
        details = slip.details or {}
        pieces = {f"cash_{line['cents']}": line["count"] for line in details.get("cash_lines") or []}
        self.fill_counted_inputs(details.get("chips") or {}, pieces)
        signers = {s.capacity: s.person.name for s in slip.signatures.all()}
        lines = self.figure_lines(details.get("chips") or {}, pieces)
        if details.get("cash") and not pieces:
            lines.append((None, dollars(details["cash"])))  # cash counted as a sum (a records file)
        values = self.chip_values
        return StandingCount(
            state="recorded",
            place=account_label(account),
            counted_by=signers.get("counted_by", ""),
            verified_by=signers.get("verified_by", ""),
            at=slip.at,
            slip=slip,
            lines=lines,
            books=[
                {
                    "what": chips_label(line.what.removeprefix("chips:")) if line.denomination_cents else _("cash"),
                    "expected": dollars(line.expected),
                    "counted": dollars(line.counted),
                    "variance": dollars(line.variance) if line.variance else "",
                    "expected_count": line.expected_count,
                    "counted_count": line.counted_count,
                }
                for line in counted_lines(slip, values)
            ],
        )

    def opener_standing(self, table_id) -> "StandingCount | None":
        """An opener of this table refused today for its difference from the tray: its figures
        stand as first typed, put back and locked; only its reason is left to give."""
        table = self.fields["table"].queryset.filter(pk=table_id).first()
        shown = self.count_shown(f"{Account.Kind.TABLE}:{table.code}") if table is not None else None
        if shown is None:
            return None
        chips = shown.figures.get("chips", {})
        self.fill_counted_inputs(chips, {})
        self.lock_counted_inputs()
        # Named in their capacities as they signed the count; one kept before they were kept with
        # it names nobody rather than the session's person, who may have verified it.
        signed = shown.figures.get("signed") or {}
        names = dict(Person.objects.filter(pk__in=signed.values()).values_list("pk", "name")) if signed else {}
        return StandingCount(
            state="opener",
            place=_("table %(table)s") % {"table": table.code},
            counted_by=names.get(signed.get("counted_by"), ""),
            verified_by=names.get(signed.get("verified_by"), ""),
            at=shown.shown_at,
            lines=self.figure_lines(chips, {}),
        )

    def fill_counted_inputs(self, chips: dict, pieces: dict) -> None:
        for d in self.denominations:
            if f"chips_{d.key}" in self.fields:
                self.fields[f"chips_{d.key}"].initial = chips.get(d.key) or None
        for name in getattr(self, "bill_fields", []):
            self.fields[name].initial = pieces.get(name) or None

    def figure_lines(self, chips: dict, pieces: dict) -> list[tuple[int | None, str]]:
        """(count, what) per chip denomination and bill or coin counted, as the count was typed."""
        lines = [(chips[d.key], chips_label(d.key)) for d in self.denominations if chips.get(d.key)]
        for piece in BillsAndCoins.DENOMINATIONS:
            count = pieces.get(BillsAndCoins.field_name(piece, "cash_"))
            if count:
                lines.append((count, str(piece.label)))
        return lines

    def lock_counted_inputs(self):
        """The figures stand as first typed: sent back with the form, shown as plain text (a box
        that looks editable but is not would mislead the counter)."""
        for name in [f"chips_{d.key}" for d in self.denominations] + list(getattr(self, "bill_fields", [])):
            widget = self.fields[name].widget
            widget.input_type = "hidden"
            widget.attrs["data-locked"] = "yes"
        self.counted_locked = True

    counted_locked = False

    def locked_total(self, names) -> tuple[int, int]:
        """(pieces, cents) of the counted figures standing as first typed, as the form holds them:
        the totals a locked count shows without the page's script, which adds up only boxes."""
        pieces = cents = 0
        for name in names:
            bound = self[name]
            value = bound.value()
            count = int(value) if str(value or "").isdigit() else 0
            pieces += count
            cents += count * (bound.field.value_cents or 0)
        return pieces, cents

    @property
    def locked_chips_count(self) -> int:
        return self.locked_total([f"chips_{d.key}" for d in self.denominations if f"chips_{d.key}" in self.fields])[0]

    @property
    def locked_chips_dollars(self) -> str:
        return dollars(
            self.locked_total([f"chips_{d.key}" for d in self.denominations if f"chips_{d.key}" in self.fields])[1]
        )

    @property
    def locked_cash_dollars(self) -> str:
        return dollars(self.locked_total(getattr(self, "bill_fields", []))[1])

    def compare_with_the_books(self, data):
        """Once the blind count is in: expected and counted side by side, per instrument. A
        variance needs a reason from the list (nightly reconciliation: every variance explained)."""
        account = self.existing_counted_account(data.get("account"))
        held = balance(account) if account else {}
        counted = {d.pk: (data.get("chips") or {}).get(d.key, 0) * d.value_cents for d in self.denominations}
        if data.get("cash_cents") is not None:
            counted[None] = data["cash_cents"]
        rows = []
        for d in [*self.denominations, None]:
            key = d.pk if d else None
            if key not in counted and key not in held:
                continue
            if d is not None and data.get("chips") is None:
                continue  # bank cash is counted as cash only
            expected, found = held.get(key, 0), counted.get(key, 0)
            if not expected and not found:
                continue
            rows.append(
                {
                    "what": chips_label(d.key) if d else _("cash"),
                    "expected": dollars(expected),
                    "counted": dollars(found),
                    "variance": dollars(found - expected) if found != expected else "",
                    "expected_count": expected // d.value_cents if d else None,
                    "counted_count": found // d.value_cents if d else None,
                }
            )
        self.variance_rows = rows
        self.lock_counted_inputs()
        choice = data.get("variance_reason") or ""
        words = (data.get("reason") or "").strip()
        if any(r["variance"] for r in rows):
            if not choice:
                self.add_error(
                    "variance_reason",
                    _("The count differs from the books: choose a reason for the variance (nightly reconciliation)."),
                )
            elif choice == "other" and not words:
                self.add_error("reason", _("Say in words what “other” is."))
            if self.errors:
                self.keep_count_shown(data)
        if choice:
            # The list's choice is kept as its code, the counter's own words beside it: never the
            # label in this screen's language (every sheet names the code in its reader's).
            data["reason"] = words
            data["variance_reason_code"] = choice

    def existing_counted_account(self, where) -> Account | None:
        """The counted place's account if it exists; reading it creates nothing."""
        if where in COUNTED or (where and where.startswith(f"{Account.Kind.TABLE}:")):
            return Account.objects.filter(event=self.event, code=where).first()
        if where and where.startswith("runner:"):
            return Account.objects.filter(
                event=self.event, kind=Account.Kind.RUNNER, person__code=where.split(":", 1)[1]
            ).first()
        return None

    def total_cents(self, data) -> int:
        values = self.chip_values
        chips = sum(values[k] * n for k, n in (data.get("chips") or {}).items())
        return max(chips, data.get("cash_cents") or 0)

    # --- what the service gets ---------------------------------------------------------

    def service_kwargs(self) -> dict:
        """The cleaned form as the slip type's service takes it (the importer does the same from
        a record of the records format)."""
        kwargs = {}
        for slip_field in self.kind.fields:
            kwargs.update(slip_field.from_form(self, self.cleaned_data))
        return kwargs

    def counted_account(self) -> Account:
        # On a POST only: an account is made on first use (accounts are places, not balances).
        from cage.services.ledger import account_get

        where = self.cleaned_data.get("account")
        if where in COUNTED:
            return account_get(self.event, where)
        runner = people_with(self.event, [Role.RUNNER]).get(code=where.split(":", 1)[1])
        return account_get(self.event, Account.Kind.RUNNER, person=runner)


class SignForm(CheckedInput, forms.Form):
    """One signature on a waiting slip: the logged-in person's own, or someone beside them who
    types their signing PIN (the dealer on the runner's tablet at the table)."""

    capacity = forms.CharField(widget=forms.HiddenInput)
    person = PersonChoice(queryset=Person.objects.none(), required=False, label=gettext_lazy("Who signs"))
    pin = forms.CharField(
        label=gettext_lazy("Their signing PIN"),
        required=False,
        max_length=12,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def __init__(self, *args, event, signer: Person | None, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.signer = signer
        self.request = request
        self.fields["person"].queryset = Person.objects.filter(event=event)

    def clean(self):
        data = super().clean()
        person = data.get("person") or self.signer
        if person is None:
            raise forms.ValidationError(_("Choose who signs."))
        if self.signer is None or person.pk != self.signer.pk:
            if not (data.get("pin") or "").strip():
                raise forms.ValidationError(_("%(name)s types their signing PIN to sign here.") % {"name": person.name})
            try:
                pin_verify(request=self.request, person=person, pin=data.get("pin") or "")
            except RuleViolation as exc:
                raise forms.ValidationError(exc.text) from None
        data["person"] = person
        return data


class PaperSlipForm(SlipForm):
    """A paper slip written during an outage, entered as written: its type's own fields, the time
    written on it, and who signed it. Every custody capacity is on the paper; the DRIC's witness
    may be, or follow from her queue. The person entering it confirms their own signature by their
    session; the others confirm with their signing PIN here, or later from their own session."""

    def __init__(self, *args, written_on: datetime.date, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["written_date"] = forms.DateField(label=_("Date written"), initial=written_on)
        self.fields["written_time"] = forms.TimeField(
            label=_("Time written"),
            help_text=_("As written on the paper slip: 23:45 or 23 h 45."),
            # As a cashier writes the time, in either language.
            input_formats=["%H:%M", "%H:%M:%S", "%H h %M", "%Hh%M", "%H h%M", "%Hh %M", "%H H %M", "%HH%M"],
        )
        self.fields["written_time"].widget.attrs["autofocus"] = True
        for name, form_field in self.fields.items():
            if name != "written_time":
                form_field.widget.attrs.pop("autofocus", None)
        self.order_fields(["written_date", "written_time"])

    def add_signature_fields(self):
        for cap in self.kind.capacities:
            self.fields[f"sign_{cap.code}"] = PersonChoice(
                label=_("%(capacity)s (%(roles)s)") % {"capacity": cap.label, "roles": cap.roles_label()},
                queryset=people_with(self.event, cap.roles),
                required=not cap.witness,
                empty_label=_("Not signed on the paper: signs later") if cap.witness else _("Who signed the paper"),
                error_messages={
                    "required": _("Choose who signed the paper as “%(capacity)s” (%(roles)s).")
                    % {"capacity": str(cap.label).lower(), "roles": cap.roles_label()}
                },
            )
            self.fields[f"pin_{cap.code}"] = pin_field(_("Their signing PIN, to confirm now"))

    @property
    def some_sign_later(self) -> bool:
        return True

    # Entered as the paper was written: every capacity named as signed on it, and slips of the same
    # amount one after another as the book has them.
    checks_twice = False

    def runner_signs(self, cap) -> bool:
        return False

    def clean_signatures(self, data) -> dict[str, Person]:
        """Who signed the paper; `confirmed` says who has confirmed it so far."""
        signed, self.confirmed = {}, {}
        for cap in self.kind.capacities:
            person = data.get(f"sign_{cap.code}")
            if person is None:
                continue
            signed[cap.code] = person
            pin = (data.get(f"pin_{cap.code}") or "").strip()
            if self.signer is not None and person.pk == self.signer.pk:
                self.confirmed[cap.code] = PaperConfirmation.Via.SESSION
            elif pin:
                try:
                    pin_verify(request=self.request, person=person, pin=pin)
                except RuleViolation as exc:
                    self.add_error(f"pin_{cap.code}", exc.text)
                    continue
                self.confirmed[cap.code] = PaperConfirmation.Via.PIN
        return signed

    def written_at(self) -> datetime.datetime:
        from django.utils import timezone

        data = self.cleaned_data
        return timezone.make_aware(datetime.datetime.combine(data["written_date"], data["written_time"]))
