"""The fields a slip type takes, each declared once as an object that knows all it is:

- `add_to(form)`: its fields on the cage's slip form (cage.forms.SlipForm);
- `from_form(form, data)`: what the slip type's service gets from the cleaned form;
- `from_record(reader, kind, record, common)`: what the service gets from a record of a records
  file (cage.importer), refusing what the format does not allow;
- `to_record(slip, details, cash_moved, refs)`: what an export writes of it (cage.exporter);
- `facts(slip, kind, details)`: its lines on the slip's page and printed slip
  (cage.selectors.slip_sheet);
- `on_paper(kind)`: what a blank paper slip of its type leaves for the hand to fill in, should the
  cage work on paper (cage.paper_pdf).

A slip type names its fields in its declaration (cage.slip_types); the form, the importer, the
exporter and the printed slip loop over them. A field that needs the cage's selectors or form
pieces imports them when a form is built: the declaration is read by everything below them.
"""

from dataclasses import dataclass
from decimal import Decimal
from reprlib import repr as shown

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from cage.fields import BillsAndCoins, CashField, ChipCountField
from cage.models import Account
from cage.records_file import FORMAT_RULE as FORMAT
from core.money import cents_str, dollars, hours_text
from core.rules import RuleViolation, Words, cite
from events.models import DESIGNATED, Role
from events.selectors import chip_values

# How the patron pays: only Canadian cash is accepted (T&C 3.6, 3.7); the others are listed so
# that a cashier who is offered them sees the rule that refuses them.
TENDERS = {
    "cad_cash": ("CAD", "cash", gettext_lazy("Canadian cash")),
    "usd_cash": ("USD", "cash", gettext_lazy("US cash")),
    "debit": ("CAD", "debit card", gettext_lazy("Debit card")),
    "credit": ("CAD", "credit card", gettext_lazy("Credit card")),
    "cheque": ("CAD", "cheque", gettext_lazy("Cheque")),
}

EXPENSE_LABELS = {
    "supplier_equipment": gettext_lazy("Supplier: equipment rented or leased (T&C 4.1)"),
    "supplier_services": gettext_lazy("Supplier: services billed, never its staff's wages"),
    "licence_fee": gettext_lazy("Licence fee"),
    "bank_charges": gettext_lazy("Bank charges of the trust account"),
    "advertising": gettext_lazy("Advertising of the event"),
    "other": gettext_lazy("Other, named in the description (never wages of the supplier's staff)"),
}
# Why no category covers wages: the licensee never pays the registered supplier's employees (T&C 2.4).
EXPENSE_HELP = gettext_lazy(
    "What the expense pays for. No category covers the wages of the registered supplier's employees "
    "(dealers and runners it provides): the licensee must not pay them (%(rule)s)."
)

REQUIRED = object()  # a record must give it


@dataclass(frozen=True)
class PaperLine:
    """One thing a blank paper slip asks the hand for (cage.paper_pdf lays it out). `shape`:
    "box" (words or a code written in), "amount" (dollars), "chips" (a line per denomination of the
    event, count and amount), "choices" (tick one of `choices`), "rows" (a small table of `columns`)
    or "note" (printed words, nothing to fill in)."""

    shape: str
    label: str
    choices: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()


class SlipField:
    """One thing a slip type takes. The service gets the form's cleaned value under the field's
    name; otherwise each method does nothing unless the field says so."""

    name = ""

    def add_to(self, form) -> None:
        pass

    def from_form(self, form, data: dict) -> dict:
        return {self.name: data.get(self.name)}

    def from_record(self, reader, kind, record: dict, common: dict) -> dict:
        return {}

    def to_record(self, slip, details: dict, cash_moved: int, refs: dict) -> dict:
        return {}

    def facts(self, slip, kind, details: dict) -> list[tuple[str, str]]:
        return []

    def on_paper(self, kind) -> list[PaperLine]:
        return []


class Table(SlipField):
    """The table a slip is written for: the one whose tray it stocks, fills, credits or counts."""

    name = "table"

    def __init__(self, label=None):
        self._label = label  # lazily translated; a chip transfer's is "From table"

    def label(self):
        return self._label or _("Table")

    def add_to(self, form):
        from cage.forms import TableChoice
        from cage.selectors.offered import tables_offered

        offered = tables_offered(form.day, form.kind.type)
        form.fields[self.name] = TableChoice(
            label=self.label(),
            queryset=form.event.tables.filter(pk__in=offered),
            empty_label=_("Choose the table"),
            offered=offered,
            day=form.day,
            kind=form.kind,
        )

    def from_record(self, reader, kind, record, common):
        return {self.name: reader.table(record.get(self.name))}

    def code(self, slip, details) -> str | None:
        return slip.table.code if slip.table_id else None

    def to_record(self, slip, details, cash_moved, refs):
        code = self.code(slip, details)
        return {self.name: code} if code is not None else {}

    def facts(self, slip, kind, details):
        # A void names its slip's table too.
        code = self.code(slip, details)
        return [(self.label(), code)] if code is not None else []

    def on_paper(self, kind):
        return [PaperLine("box", self.label())]


class ToTable(Table):
    """The open table a chip transfer takes chips to (the slip's own table gives them): kept by
    its code in the slip's details, as a records file writes it."""

    name = "to_table"

    def label(self):
        return self._label or _("To table")

    def code(self, slip, details) -> str | None:
        return details.get("to_table")


class Runner(SlipField):
    name = "runner"

    def add_to(self, form):
        from cage.forms import PersonChoice, people_with

        runners = people_with(form.event, [Role.RUNNER])
        selling_runner = form.runner_on_the_floor()
        if selling_runner:
            # A runner records their own sales on the floor, and only their own.
            runners = runners.filter(pk=form.signer.pk)
        kind = form.kind
        form.fields["runner"] = PersonChoice(
            label=_("Runner"),
            queryset=runners,
            required=kind.runner_required or selling_runner,
            initial=form.signer.pk if selling_runner else None,
            # A sale may be made at the cage, with no runner; every other slip names one.
            empty_label=_("Choose the runner") if kind.runner_required else _("No runner: at the cage"),
        )

    def from_record(self, reader, kind, record, common):
        # A fill's or credit's runner is the one who signs it as carried_by.
        if record.get("runner") is not None or (kind.runner_required and not kind.two_step):
            return {"runner": reader.person(record.get("runner"))}
        return {}

    def to_record(self, slip, details, cash_moved, refs):
        return {"runner": slip.runner.code} if slip.runner is not None else {}

    def facts(self, slip, kind, details):
        return [(_("Runner"), slip.runner.name)] if slip.runner_id else []

    def on_paper(self, kind):
        label = _("Runner") if kind.runner_required else _("Runner (none: sold at the cage)")
        return [PaperLine("box", label)]


class CountedPlace(SlipField):
    """The place a count counts: bank cash, the chip bank, the tip pool or a runner."""

    name = "account"

    def add_to(self, form):
        form.fields["account"] = forms.ChoiceField(label=_("Counted"), choices=form.count_choices())

    def from_form(self, form, data):
        return {"account": form.counted_account()}

    def from_record(self, reader, kind, record, common):
        return {"account": reader.counted(common["day"].event, record.get("account"))}

    def to_record(self, slip, details, cash_moved, refs):
        account = slip.account
        return {"account": account.person.code if account.kind == Account.Kind.RUNNER else account.kind}

    def facts(self, slip, kind, details):
        from cage.services.ledger import account_label

        return [(_("Counted"), account_label(slip.account))] if slip.account_id else []

    def on_paper(self, kind):
        places = (Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK, Account.Kind.TIP_POOL)
        choices = tuple(str(Account.Kind(place).label) for place in places) + (_("Runner: ……………………"),)
        return [PaperLine("choices", _("Counted"), choices=choices)]


class Chips(SlipField):
    """Chips by denomination. `absent`: what a record that gives none means (REQUIRED: it must)."""

    name = "chips"

    def __init__(self, absent=REQUIRED):
        self.absent = absent

    def add_to(self, form):
        from cage.services.ledger import chips_label

        initial = form.initial_chips or {}
        for d in form.denominations:
            form.fields[f"chips_{d.key}"] = ChipCountField(
                label=chips_label(d.key), value_cents=d.value_cents, required=False, initial=initial.get(d.key)
            )

    def from_record(self, reader, kind, record, common):
        if self.absent is not REQUIRED:
            return {"chips": record.get("chips", self.absent)}
        if "chips" not in record:
            raise RuleViolation(Words(N_("chips: required")), FORMAT, code="import.chips_missing")
        return {"chips": record["chips"]}

    def to_record(self, slip, details, cash_moved, refs):
        # Bank cash is counted in bills and coins, never in chips.
        if slip.account_id is not None and slip.account.kind == Account.Kind.BANK_CASH:
            return {}
        return {"chips": dict(details.get("chips", {}))}

    def on_paper(self, kind):
        return [PaperLine("chips", _("Chips"))]


class Cash(SlipField):
    """Cash as a cashier types it. `kept`: the slip keeps its amount in its details (an expense)
    rather than as what it moved."""

    name = "cash"

    def __init__(self, kept=False):
        self.kept = kept

    def add_to(self, form):
        required = form.kind.cash_required
        # A sale's or a redemption's cash is its chips at face value (T&C 3.6): the page fills it
        # in from the chips for the cashier to check, and "1,500" is read as the chips' $1,500.00.
        face_value = form.kind.takes(Tender.name)
        form.fields["cash"] = CashField(
            label=_("Cash"),
            required=required,
            min_cents=1 if required else 0,
            matching=form.chips_cents_cleaned if face_value else None,
            help_text=_("Filled in from the chips at face value (%(rule)s): check it against the cash in hand.")
            % {"rule": cite("T&C 3.6")}
            if face_value
            else _('As counted: "12,50" or "12.50".'),
        )

    def from_form(self, form, data):
        cash = data.get("cash_cents")
        return {"cash": 0 if cash is None else cash}

    def from_record(self, reader, kind, record, common):
        if kind.cash_required:
            return {"cash": reader.cents(record.get("cash"))}
        return {"cash": reader.cents(record["cash"]) if record.get("cash") is not None else 0}

    def to_record(self, slip, details, cash_moved, refs):
        cents = details.get("cash") if self.kept else cash_moved
        return {"cash": cents_str(cents)} if cents else {}

    def on_paper(self, kind):
        return [PaperLine("amount", _("Cash"))]


class CountedCash(SlipField):
    """A count's cash, by bill and coin, and the reason chosen for a variance from the books. A
    count of chips alone has no cash (None, not nothing)."""

    name = "cash"

    def add_to(self, form):
        from cage.variances import VARIANCE_REASONS

        # Bank cash is counted by bill and coin; the form adds them up.
        form.bill_fields = BillsAndCoins.add_fields(form, prefix="cash_")
        # A blind count: the counter does not see the books until the count is in. A variance then
        # gets a reason from the list, with words of their own for "other". Nothing is chosen for
        # the counter: the empty choice asserts nothing about the books, and a count that differs
        # from them is refused without a reason (compare_with_the_books, and the service itself).
        form.fields["variance_reason"] = forms.ChoiceField(
            label=_("Reason for a variance"),
            choices=[("", _("Choose a reason…"))] + list(VARIANCE_REASONS.items()),
            required=False,
            help_text=_(
                "Only a count that differs from the books needs one: once the count is in, the books "
                "show beside it, and a variance is refused without a reason."
            ),
        )

    def from_form(self, form, data):
        kwargs = {"cash": data.get("cash_cents")}
        if data.get("variance_reason_code"):
            kwargs["variance_reason"] = data["variance_reason_code"]
        if data.get("cash_lines"):
            kwargs["cash_lines"] = data["cash_lines"]
        return kwargs

    def from_record(self, reader, kind, record, common):
        cash = reader.cents(record["cash"]) if record.get("cash") is not None else None
        return {"cash": cash, **reader.count_details(record, cash)}

    def to_record(self, slip, details, cash_moved, refs):
        record = {}
        if details.get("cash") is not None:
            record["cash"] = cents_str(details["cash"])
        if details.get("variance_reason"):
            record["variance_reason"] = details["variance_reason"]
        if details.get("cash_lines"):
            record["cash_lines"] = [
                {"unit": cents_str(line["cents"]), "count": line["count"]} for line in details["cash_lines"]
            ]
        return record

    def on_paper(self, kind):
        return [PaperLine("amount", _("Cash counted")), PaperLine("box", _("Reason for a variance"))]


class Tender(SlipField):
    name = "tender"

    def add_to(self, form):
        # Only Canadian cash is offered: the page says so and sends it. Another tender sent anyway
        # reaches the service, which refuses it with its rule (T&C 3.6, 3.7).
        form.fields["tender"] = forms.ChoiceField(
            label=_("Paid with"),
            choices=[(k, v[2]) for k, v in TENDERS.items()],
            initial="cad_cash",
            required=False,  # none sent is Canadian cash (from_form)
            widget=forms.HiddenInput,
        )
        form.tender_note = _("Paid with Canadian cash only: no card, cheque or other currency (%(rule)s).") % {
            "rule": cite("T&C 3.6, 3.7")
        }

    def from_form(self, form, data):
        currency, tender, _label = TENDERS[data.get("tender") or "cad_cash"]
        return {"currency": currency, "tender": tender}

    def on_paper(self, kind):
        return [
            PaperLine(
                "note",
                _("Paid with Canadian cash only: no card, cheque or other currency (%(rule)s).")
                % {"rule": cite("T&C 3.6, 3.7")},
            )
        ]

    def from_record(self, reader, kind, record, common):
        return {"currency": record.get("currency", "CAD"), "tender": record.get("tender", "cash")}


class Hours(SlipField):
    """A tip payout's hours worked, one per dealer (T&C 2.6), and on its slip each dealer's share."""

    name = "hours"

    def add_to(self, form):
        from cage.forms import people_with, recounts_after_payout
        from cage.selectors.counts import blind_places, counts_places
        from cage.services.ledger import balance
        from events.roster import rostered

        day, event = form.day, form.event
        # What the payout shares out: the whole pool (T&C 2.6). Read, never created, on a GET; not
        # shown while the pool is counted blind, to a cashier on an open day too (blind_places).
        pool = Account.objects.filter(event=event, kind=Account.Kind.TIP_POOL).first()
        counter = form.signer is None or counts_places(form.signer.role_codes())
        form.tip_pool_blind = Account.Kind.TIP_POOL in blind_places(day, counter=counter)
        form.tip_pool = sum(balance(pool).values()) if pool and not form.tip_pool_blind else 0
        form.recounts = recounts_after_payout(day)
        # In the order of the event's people, as a records file lists them: the order of the shares
        # and of ties in the split (T&C 2.6). Only dealers share the tips, never a designated
        # person (T&C 2.5, 2.6).
        form.dealers = list(people_with(event, [Role.DEALER]).exclude(assignments__role__in=DESIGNATED).order_by("pk"))
        # The hours are the roster's: each dealer's shifts of the day, filled in.
        on_roster = rostered(day, Role.DEALER)
        for p in form.dealers:
            shifts = on_roster.get(p.pk)
            form.fields[f"hours_{p.code}"] = forms.DecimalField(
                # The name alone: the fieldset's legend says these are hours worked.
                label=p.name,
                min_value=Decimal("0"),
                max_digits=5,
                decimal_places=2,
                required=False,
                initial=shifts.hours_shown if shifts else None,
                help_text=(
                    _("On the roster as a dealer %(spans)s: %(hours)s hours at most.")
                    % {"spans": shifts.spans_shown, "hours": shifts.hours_shown}
                    if shifts
                    else _("Not on this day's roster as a dealer: shares no tips (T&C 2.6).")
                ),
            )

    def from_record(self, reader, kind, record, common):
        return {"hours": reader.hours(record.get("hours"))}

    def to_record(self, slip, details, cash_moved, refs):
        return {"hours": {share["person"]: _hours(Decimal(share["hours"])) for share in details["shares"]}}

    def facts(self, slip, kind, details):
        shares = details.get("shares", [])
        names = {p.code: p.name for p in slip.event.people.all()} if shares else {}
        return [
            (
                names.get(share["person"], share["person"]),
                _("%(hours)s h: %(amount)s")
                % {"hours": hours_text(share["hours"]), "amount": dollars(share["amount"])},
            )
            for share in shares
        ]

    def on_paper(self, kind):
        return [PaperLine("rows", _("Hours worked"), columns=(_("Dealer"), _("Hours"), _("Share")))]


def _hours(hours: Decimal):
    """Hours as a JSON number where one says it exactly (4, 2.5), else as text."""
    if hours == hours.to_integral_value():
        return int(hours)
    as_float = float(hours)
    return as_float if Decimal(repr(as_float)) == hours else str(hours)


class Target(SlipField):
    """The slip a void names."""

    name = "target"

    def add_to(self, form):
        from cage.forms import SlipChoice
        from cage.models import Slip
        from cage.selectors.amounts import cash_moved_subquery
        from cage.selectors.counts import books_blind
        from cage.slip_types import VOIDABLE

        day = form.day
        voidable = Slip.objects.filter(day=day, slip_type__in=VOIDABLE).select_related("table", "runner")
        form.fields["target"] = SlipChoice(
            label=_("Slip to void"),
            among=voidable,
            queryset=voidable.free_of_voids().annotate(cash_moved=cash_moved_subquery()).order_by("-id"),
            empty_label=_("Choose the slip"),
            values={d.key: d.value_cents for d in form.denominations},
            blind=bool(books_blind(day)),
        )
        # The slip chosen, as the cashier last saw it in full (confirm_void_target).
        form.fields["confirm_target"] = forms.CharField(widget=forms.HiddenInput, required=False, max_length=20)

    def from_record(self, reader, kind, record, common):
        ref = record.get("void")
        target = reader.refs.get(ref) if isinstance(ref, str) else None
        if target is None:
            raise RuleViolation(
                Words(N_("void: no earlier record has ref %(ref)s"), ref=shown(ref)), FORMAT, code="import.unknown_ref"
            )
        return {"target": target}

    def to_record(self, slip, details, cash_moved, refs):
        return {"void": refs[slip.voids_id]}


class Expense(SlipField):
    name = "expense"

    def add_to(self, form):
        form.fields["category"] = forms.ChoiceField(
            label=_("Category"),
            choices=list(EXPENSE_LABELS.items()),
            help_text=EXPENSE_HELP % {"rule": cite("T&C 2.4")},
        )
        form.fields["description"] = forms.CharField(label=_("Description"), max_length=200)
        form.fields["invoice"] = forms.CharField(label=_("Invoice"), max_length=60, required=False)

    def from_form(self, form, data):
        return {
            "category": data.get("category"),
            "description": data.get("description"),
            "invoice": data.get("invoice") or "",
        }

    def from_record(self, reader, kind, record, common):
        if record.get("account") is not None:
            # A file that says the cage's cash paid it (bank cash, a runner): never so (T&C 2.7).
            raise RuleViolation(
                Words(
                    N_(
                        "an expense is paid from the licensee's trust account by cheque, never with cash from the "
                        "cage: %(account)s is not where an expense is paid from"
                    ),
                    account=shown(record["account"]),
                ),
                "T&C 2.7",
                code="expense.paid_from_the_cage",
            )
        return {name: reader.text(record, name) for name in ("category", "description", "invoice")}

    def to_record(self, slip, details, cash_moved, refs):
        return {name: details[name] for name in ("category", "description", "invoice")}

    def facts(self, slip, kind, details):
        if not kind.takes(self.name):
            return []
        category = details.get("category", "")
        facts = [
            (_("Category"), str(EXPENSE_LABELS.get(category, category))),
            (_("Description"), details.get("description", "")),
        ]
        if details.get("invoice"):
            facts.append((_("Invoice"), details["invoice"]))
        return facts

    def on_paper(self, kind):
        return [PaperLine("box", _("Category")), PaperLine("box", _("Description")), PaperLine("box", _("Invoice"))]


class MissingChipsBill(SlipField):
    """An expense that is the supplier's bill for chips missing from its count when it takes its
    chips back: what the supplier bills for chips not returned is an expense (cage-records/1), and
    the report shows the missing chips as pending until such a bill is entered. Kept in the slip's
    details; an extension of the records file's expense (docs/cage-records-extensions.md)."""

    name = "missing_chips"

    def add_to(self, form):
        form.fields[self.name] = forms.BooleanField(
            label=_("The supplier's bill for chips missing from its count"),
            required=False,
            help_text=_("Tick it when this expense pays for chips not returned to the supplier."),
        )

    def from_form(self, form, data):
        return {self.name: bool(data.get(self.name))}

    def from_record(self, reader, kind, record, common):
        value = record.get(self.name, False)
        if not isinstance(value, bool):
            raise RuleViolation(
                Words(N_("missing_chips: true or false, when present")), FORMAT, code="import.bad_missing_chips"
            )
        return {self.name: value}

    def to_record(self, slip, details, cash_moved, refs):
        return {self.name: True} if details.get(self.name) else {}

    def facts(self, slip, kind, details):
        return [(_("Bill for"), _("chips missing from the supplier's count"))] if details.get(self.name) else []


class Reason(SlipField):
    """Words of the cashier's own: why (a void, a variance), or a count's details."""

    name = "reason"

    def __init__(self, label=None, help_text=None):
        self.label = label or gettext_lazy("Reason")
        self.help_text = help_text or gettext_lazy("Required for a void and for any variance.")

    def add_to(self, form):
        form.fields["reason"] = forms.CharField(
            label=self.label,
            required=form.kind.reason_required,
            max_length=500,
            widget=forms.Textarea(attrs={"rows": 2}),
            help_text=self.help_text,
        )

    def from_form(self, form, data):
        return {"reason": data.get("reason") or ""}

    def from_record(self, reader, kind, record, common):
        return {"reason": reader.text(record, "reason")}

    def to_record(self, slip, details, cash_moved, refs):
        from cage.variances import reason_in_records

        # The format's reason is words: the counter's, or the chosen reason's English label.
        reason = reason_in_records(details, slip.reason)
        return {"reason": reason} if reason else {}

    def on_paper(self, kind):
        return [PaperLine("box", str(self.label))]


# A note is a line for the table and the runner ("two racks of $5, please"), not a report: short
# enough to print on an 80 mm receipt. The same limit at the window, in a records file and for a
# dealer's fill request (cage.services.fill_requests).
NOTE_LONGEST = 200
NOTE_RULE = gettext_lazy("the length of a note")


def check_note(
    note,
    *,
    field: str = "note",
    too_long: str = N_("the note is %(length)s characters long; a note takes at most %(most)s"),
    code: str = "note.too_long",
) -> str:
    """A note as kept: its words without spaces around them, refused when too long or not text.
    The one check of a line the table reads: a slip's note, a dealer's fill request's, and the
    reason the Chip Cashier declines a request with, each refused in its own words (`too_long`,
    with %(length)s and %(most)s; `code`) beside its own `field`."""
    if note is None:
        return ""
    if not isinstance(note, str):
        raise RuleViolation(
            Words(N_("note: %(value)s must be text"), value=shown(note)), FORMAT, field=field, code="note.not_text"
        )
    note = note.strip()
    if len(note) > NOTE_LONGEST:
        raise RuleViolation(Words(too_long, length=len(note), most=NOTE_LONGEST), NOTE_RULE, field=field, code=code)
    return note


class Note(SlipField):
    """An optional line of free text on a fill or a credit: what the dealer asked for, what the
    runner should know. Kept in the slip's details; an extension of the records file's fill and
    credit records (docs/cage-records-extensions.md)."""

    name = "note"

    def add_to(self, form):
        form.fields[self.name] = forms.CharField(
            label=_("Note"),
            required=False,
            # One more than the limit, so the service's refusal (which names the rule) is the one shown.
            max_length=NOTE_LONGEST + 1,
            help_text=_("Optional, at most %(most)s characters: printed on the slip.") % {"most": NOTE_LONGEST},
        )

    def from_form(self, form, data):
        return {self.name: data.get(self.name) or ""}

    def from_record(self, reader, kind, record, common):
        return {self.name: check_note(record.get(self.name))}

    def to_record(self, slip, details, cash_moved, refs):
        return {self.name: details[self.name]} if details.get(self.name) else {}

    def facts(self, slip, kind, details):
        return [(_("Note"), details[self.name])] if details.get(self.name) else []

    def on_paper(self, kind):
        return [PaperLine("box", _("Note"))]


class HandedPlace(SlipField):
    """The place a shift handover passes from one cashier to the next: bank cash (the General
    Cashier's) or the chip bank (the Chip Cashier's). Not a count's `account`: a handover counts the
    place but settles nothing, so the close never takes it for the place's count."""

    name = "place"
    # The places handed over, and the role of the cashier who holds each (DESIGN: custody).
    PLACES = {Account.Kind.BANK_CASH: Role.GENERAL_CASHIER, Account.Kind.CHIP_BANK: Role.CHIP_CASHIER}

    def add_to(self, form):
        form.fields["place"] = forms.ChoiceField(
            label=_("Handed over"),
            choices=[(Account.Kind.BANK_CASH, _("bank cash")), (Account.Kind.CHIP_BANK, _("chip bank"))],
            help_text=_(
                "Bank cash passes between General Cashiers, counted by bill and coin; the chip bank between "
                "Chip Cashiers, counted by chip."
            ),
        )

    def from_form(self, form, data):
        return {"place": data.get("place")}

    def from_record(self, reader, kind, record, common):
        return {"place": record.get("place")}

    def to_record(self, slip, details, cash_moved, refs):
        return {"place": details["place"]}

    def facts(self, slip, kind, details):
        """Beside the count (CountedPlace names the place): what the books expected, and the
        difference, noted at the handover; the books may be seen once the count is recorded."""
        if "differences" not in details or not slip.account_id:
            return []
        values = chip_values(slip.event)
        chips = sum(values.get(k, 0) * n for k, n in (details.get("chips") or {}).items())
        counted = chips + (details.get("cash") or 0)
        difference = sum(d["amount"] for d in details["differences"])
        return [(_("Expected"), dollars(counted - difference)), (_("Difference"), dollars(difference))]

    def on_paper(self, kind):
        places = (Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK)
        return [PaperLine("choices", _("Handed over"), choices=tuple(str(Account.Kind(p).label) for p in places))]


class HandedCash(SlipField):
    """The cash counted at a handover of bank cash, by bill and coin; none for the chip bank."""

    name = "cash"

    def add_to(self, form):
        form.bill_fields = BillsAndCoins.add_fields(form, prefix="cash_")

    def from_form(self, form, data):
        cash, lines = BillsAndCoins.total(data, prefix="cash_")
        if data.get("place") != Account.Kind.BANK_CASH:
            return {"cash": cash or None}  # the service refuses cash in the chip bank
        return {"cash": cash, "cash_lines": lines}

    def from_record(self, reader, kind, record, common):
        cash = reader.cents(record["cash"]) if record.get("cash") is not None else None
        lines = reader.count_details({"cash_lines": record["cash_lines"]}, cash) if "cash_lines" in record else {}
        return {"cash": cash, **lines}

    def to_record(self, slip, details, cash_moved, refs):
        return CountedCash().to_record(slip, details, cash_moved, refs)

    def on_paper(self, kind):
        return [PaperLine("amount", _("Cash counted"))]


# The order fields come in, on the form and on the printed slip.
ORDER = (
    "table",
    "to_table",
    "runner",
    "account",
    "place",
    "chips",
    "cash",
    "tender",
    "hours",
    "target",
    "expense",
    "missing_chips",
    "reason",
    "note",
)
# The order of a record's keys in an export, as docs/examples writes them.
RECORD_KEYS = (
    "table",
    "to_table",
    "runner",
    "account",
    "place",
    "chips",
    "cash",
    "hours",
    "void",
    "category",
    "description",
    "invoice",
    "missing_chips",
    "reason",
    "variance_reason",
    "cash_lines",
    "note",
)
# Each field's lines on a slip's page, read from the slip itself (a void names its slip's table).
PRINTED = (Table(), ToTable(), Runner(), CountedPlace(), HandedPlace(), Hours(), Expense(), MissingChipsBill(), Note())
