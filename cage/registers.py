"""The register of slips as a django-tables2 table, its filter form, and its CSV and XLSX exports."""

import datetime
import inspect
import re

import django_tables2 as tables
from django import forms
from django.forms.utils import flatatt
from django.urls import reverse
from django.utils.encoding import force_str
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableData
from django_tables2.utils import Accessor, OrderBy

from cage.selectors.slips import State
from cage.slip_types import SLIP_KINDS
from core import local, xlsx
from core.local import clock
from core.money import dollars, parse_cash
from core.rules import RuleViolation
from core.xlsx import Cents, Clock, days_words
from events.form_input import CheckedInput
from events.form_input import _text_problem as text_problem
from events.models import GameTable, GamingDay, Person

PER_PAGE = 50


class ListSelect(forms.Select):
    """A filter's list written out in one pass, not through an option template each: the HTML is
    Django's own, but a long event's list of gaming days (two hundred of them) through the templates
    cost the voids page more than its voids did, and made a day's page slower the longer the event."""

    def render(self, name, value, attrs=None, renderer=None):
        chosen = set(self.format_value(value))
        options = format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            ((key, " selected" if str(key) in chosen else "", label) for key, label in self.choices),
        )
        return format_html(
            '<select name="{}"{}>{}</select>', name, flatatt(self.build_attrs(self.attrs, attrs)), options
        )


class _Days(forms.models.ModelChoiceIterator):
    """The days' choices read as (id, date) pairs, not as a model instance each."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        for pk, date in self.queryset.values_list("pk", "date"):
            # A gaming day as the pages name one ("11 Sep 2026"); the table's columns keep ISO.
            yield (pk, local.day(date))


class DayChoice(forms.ModelChoiceField):
    widget = ListSelect
    iterator = _Days

    def label_from_instance(self, obj):
        return local.day(obj.date)


class PersonChoice(forms.ModelChoiceField):
    widget = ListSelect

    def label_from_instance(self, obj):
        return obj.name


class ListFilter(CheckedInput, forms.Form):
    """A register's GET filter: every field a choice from a list, every one optional. A choice that
    is not in its list (a changed or mistyped address: ?day=abc, ?type=bogus) is said beside its
    field in plain words, and the page lists nothing (refused), rather than every row."""

    TYPED: tuple[str, ...] = ()  # fields typed rather than chosen: their own messages stand

    # Every register's filter has a gaming day, of the event's days.
    day = DayChoice(
        queryset=GamingDay.objects.none(), required=False, label=_("Gaming day"), empty_label=_("Every day")
    )

    def __init__(self, data, *, event):
        super().__init__(self._day_by_date(data, event))
        self.fields["day"].queryset = event.days.order_by("date")

    @staticmethod
    def _day_by_date(data, event):
        """The filter's data with a gaming day named by its date (?day=2026-09-11, as people write
        an address) turned into the list's own value, so that the day is chosen in the list too. A
        date that is not one of the event's stays as sent, and is refused as any choice not in
        the list is."""
        text = data.get("day", "") if data else ""
        if not re.fullmatch(r"\d{4}-\d\d-\d\d", text):
            return data
        try:
            date = datetime.date.fromisoformat(text)
        except ValueError:
            return data
        pk = event.days.filter(date=date).values_list("pk", flat=True).first()
        if pk is None:
            return data
        data = data.copy()
        data["day"] = str(pk)
        return data

    def clean(self):
        data = super().clean()
        for name in list(self.errors):
            sent = self.data.get(self.add_prefix(name), "")
            # What CheckedInput says of damaged text (control characters, bytes that are not
            # UTF-8, a value too long) stands; a value merely not in the list reads plainly.
            if name not in self.fields or name in self.TYPED or text_problem(self.fields[name], sent):
                continue
            self.errors.pop(name)
            self.add_error(name, _("“%(value)s” is not in this list; pick one of its choices.") % {"value": sent[:20]})
        return data

    @property
    def refused(self) -> bool:
        """Sent with a choice not in its list: the page lists nothing and says why."""
        return self.is_bound and not self.is_valid()


class DayFilter(ListFilter):
    """The voids page's filter: a gaming day."""

    def criteria(self) -> dict:
        return {"day": self.cleaned_data.get("day") if self.is_valid() else None}


class RegisterFilter(ListFilter):
    """What the register shows: a GET form, every field optional."""

    type = forms.ChoiceField(required=False, label=_("Slip type"), widget=ListSelect)
    table = forms.ModelChoiceField(
        queryset=GameTable.objects.none(),
        required=False,
        label=_("Table"),
        empty_label=_("Every table"),
        widget=ListSelect,
    )
    person = PersonChoice(
        queryset=Person.objects.none(),
        required=False,
        label=_("Person"),
        empty_label=_("Anyone"),
        help_text=_("who signed the slip, or the runner named on it"),
    )
    state = forms.ChoiceField(required=False, label=_("State"), widget=ListSelect)
    # To find a slip across the event's days, as the DRIC or the auditor is told of it.
    serial = forms.CharField(
        required=False, max_length=20, label=_("Serial"), help_text=_("the slip's number: 4 for “Fill 4”")
    )
    amount = forms.CharField(
        required=False, max_length=20, label=_("Amount"), help_text=_("in dollars: 1500 or 1,500.00")
    )
    who = forms.CharField(
        required=False,
        max_length=200,
        label=_("Name or code"),
        help_text=_("part of a person's name, or their whole code"),
    )

    TYPED = ("serial", "amount", "who")

    def __init__(self, data, *, event):
        super().__init__(data, event=event)
        self.fields["type"].choices = [("", _("Every type"))] + [(t, k.label) for t, k in SLIP_KINDS.items()]
        self.fields["table"].queryset = event.tables.order_by("code")
        self.fields["person"].queryset = event.people.order_by("name")
        self.fields["state"].choices = [("", _("Any state"))] + State.CHOICES
        for name in ("serial", "amount"):
            self.fields[name].widget.attrs.update(inputmode="decimal" if name == "amount" else "numeric", size=10)

    def clean_serial(self) -> int | None:
        text = self.cleaned_data["serial"].strip()
        if not text:
            return None
        # "4", "#4" or "Fill 4": the number at its end is the serial.
        found = re.fullmatch(r"\D{0,40}?(\d{1,9})", text)
        if found is None:
            raise forms.ValidationError(_("A serial is the slip's number, as 4 in “Fill 4”."))
        return int(found.group(1))

    def clean_amount(self) -> int | None:
        text = self.cleaned_data["amount"].strip()
        if not text:
            return None
        try:
            return parse_cash(text)
        except RuleViolation as exc:
            raise forms.ValidationError(exc.text) from exc

    @property
    def refused_typed(self) -> bool:
        """Refused for what was typed (a serial, an amount), not for a choice out of its list."""
        return self.refused and all(name in self.TYPED for name in self.errors)

    def criteria(self) -> dict:
        """The valid choices as the selector's keyword arguments; an invalid one narrows nothing."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return {
            "day": data.get("day"),
            "slip_type": data.get("type") or None,
            "table": data.get("table"),
            "person": data.get("person"),
            "state": data.get("state") or None,
            "serial": data.get("serial"),
            "amount": data.get("amount"),
            "who": (data.get("who") or "").strip(),
        }


class RegisterData(TableData):
    """A RegisterSlips sequence as the table's data: django-tables2 takes its length and slices a
    page of it (only that page's rows are built), and ordering orders the slips' ids by the sort
    keys the columns name (their order_by), in SQL where it can, rather than sorting built rows."""

    def __len__(self):
        return len(self.data)

    def order_by(self, aliases):
        keys = []
        for alias in aliases:
            bound_column = self.table.columns[OrderBy(alias).bare]
            # As django-tables2's own TableListData: the column's order_by reflects the order
            # already applied, so an alias of the other direction takes its opposite.
            if alias[0] != bound_column.order_by_alias[0]:
                accessors = bound_column.order_by.opposite
            else:
                accessors = bound_column.order_by
            keys += [(accessor.bare, accessor.is_descending) for accessor in accessors]
        self.data.order_by(keys)


def column(label, *, order_by=None, number=False, **kwargs) -> tables.Column:
    """A column whose cells carry their heading (data-label), for the narrow layout that shows
    each slip as a card; sortable where it names what it sorts by."""
    classes = {"class": "num"} if number else {}
    return tables.Column(
        verbose_name=label,
        order_by=order_by,
        orderable=order_by is not None,
        empty_values=(),
        attrs={"th": dict(classes), "td": {**classes, "data-label": label}},
        **kwargs,
    )


# What a slip's chips and amount read while its day is counted blind.
BLIND = _("Hidden until the counts are in (blind count)")


class RegisterTable(tables.Table):
    """One row per slip (cage.selectors.registers.RegisterRow), from a RegisterSlips sequence."""

    slip = column(_("Slip"), accessor="number", order_by=("slip_key",))
    day = column(_("Gaming day"), order_by=("day_key",))
    time = column(_("Time"), accessor="at", order_by=("time_key",))
    table = column(_("Table"))
    runner = column(_("Runner"))
    chips = column(_("Chips"))
    amount = column(_("Amount"), order_by=("amount_key",), number=True)
    state = column(_("State"))
    signed_by = column(_("Signed by"), accessor="signers")
    note = column(_("Note"))

    class Meta:
        orderable = False
        per_page = PER_PAGE
        empty_text = _("No slip matches these choices.")
        attrs = {"class": "grid register", "id": "register"}
        row_attrs = {"class": lambda record: f"state-{record.state}"}

    def __init__(self, data, *, event, hidden_days=frozenset(), **kwargs):
        self.event = event
        self.hidden_days = hidden_days  # days counted blind tonight: no chips or amounts shown
        super().__init__(RegisterData(data), **kwargs)

    def get_column_class_names(self, classes_set, bound_column):
        return super().get_column_class_names(classes_set, bound_column) | {f"col-{bound_column.name}"}

    # --- the page -------------------------------------------------------------------------

    def render_slip(self, value, record):
        return format_html('<a href="{}">{}</a>', reverse("cage:slip", args=[self.event.slug, record.slip.pk]), value)

    def render_day(self, value):
        return value.isoformat()

    def render_time(self, value):
        return clock(value)

    def render_chips(self, value, record):
        if record.day in self.hidden_days:
            return format_html('<span class="blind-note">{}</span>', BLIND)
        return format_html_join("", '<span class="line">{}</span>', ((line,) for line in value))

    def render_amount(self, value, record):
        if record.day in self.hidden_days:
            return format_html('<span class="blind-note">{}</span>', BLIND)
        return "" if value is None else dollars(value)

    def render_state(self, record):
        return format_html('<span class="state {}">{}</span>', record.state, record.state_label)

    def render_signed_by(self, value):
        return format_html_join(
            "", '<span class="line"><span class="cap">{}</span> {}</span>', ((s.capacity, s.name) for s in value)
        )

    def render_note(self, value, record):
        return note_text(record)

    # --- the CSV and the XLSX: the same columns, from the same typed rows ---------------------

    def typed_values(self, exclude_columns=None):
        """The heading, then each row's cells from the value_ methods, as typed cells (core.xlsx):
        the XLSX writes them as numbers, dates and times, the CSV as their text. Each column's way
        to its cell is worked out once, not once a cell: django-tables2's own Table.as_values
        inspected each method's signature for each cell, a third of a season's export. Every
        column reads a plain attribute of the row (empty_values=(): no default stands in)."""
        exclude = exclude_columns or ()
        columns = [c for c in self.columns.iterall() if not (c.column.exclude_from_export or c.name in exclude)]
        yield [force_str(c.header, strings_only=True) for c in columns]
        cells = [self._cell_value(c) for c in columns]
        for row in self.rows:
            yield [cell(row.record) for cell in cells]

    def as_values(self, exclude_columns=None):
        """As django-tables2's own Table.as_values: the typed rows as text, for the CSV."""
        for row in self.typed_values(exclude_columns):
            yield [force_str(cell, strings_only=True) for cell in row]

    def _cell_value(self, bound_column):
        accessor = Accessor(bound_column.accessor)
        method = getattr(self, f"value_{bound_column.name}", None)
        if method is None:  # the column's own value: what it renders, the value itself
            return accessor.resolve
        wants = inspect.signature(method).parameters
        if "value" in wants and "record" in wants:
            return lambda record: method(value=accessor.resolve(record), record=record)
        if "record" in wants:
            return lambda record: method(record=record)
        return lambda record: method(value=accessor.resolve(record))

    def value_slip(self, value):
        return value

    def value_day(self, value):
        return value  # a date: its text is ISO, 2026-09-11

    def value_time(self, value):
        # To the minute, as the CSV has always written it ("19:05"): the workbook holds no more.
        return Clock(value.time().replace(second=0, microsecond=0))

    def value_chips(self, value, record):
        return str(BLIND) if record.day in self.hidden_days else "; ".join(value)

    def value_amount(self, value, record):
        if record.day in self.hidden_days:
            return str(BLIND)
        return "" if value is None else Cents(value)

    def value_state(self, record):
        return record.state_label

    def value_signed_by(self, value):
        return "; ".join(f"{s.capacity}: {s.name}" for s in value)

    def value_note(self, record):
        return note_text(record)


def note_text(record) -> str:
    """The slip's reason or description; a void also names the slip it voids (and, refused, who
    refused it and why), and a voided slip the void that stands against it and why."""
    if record.voided_slip and record.note:
        own = _("Voids %(slip)s: %(reason)s") % {"slip": record.voided_slip, "reason": record.note}
    elif record.voided_slip:
        own = _("Voids %(slip)s") % {"slip": record.voided_slip}
    else:
        own = record.note
    if getattr(record, "refused_by", ""):
        refused = _("Refused by %(name)s: %(reason)s") % {"name": record.refused_by, "reason": record.refused_reason}
        return f"{own} · {refused}" if own else refused
    if not record.voided_by:
        return own
    voided = _("Voided by %(slip)s: %(reason)s") % {"slip": record.voided_by, "reason": record.voided_reason}
    return f"{own} · {voided}" if own else voided


# --- the register as a workbook (core.xlsx): the CSV's rows and columns ----------------------------


def register_title(event, form) -> str:
    """What the register's download holds: the event, its days (the day chosen, else all of them),
    and the other choices of its filter, so that a filtered file never passes for the whole list."""
    data = form.criteria()
    if data["day"] is not None:
        dates = [data["day"].date]
    else:
        dates = list(event.days.order_by("date").values_list("date", flat=True)) or [None]
    title = _("%(event)s: register of slips, %(days)s") % {
        "event": event.name,
        "days": days_words(dates[0], dates[-1]),
    }
    chosen = {
        "type": SLIP_KINDS[data["slip_type"]].label if data["slip_type"] else None,
        "table": data["table"].code if data["table"] else None,
        "person": data["person"].name if data["person"] else None,
        "state": State.LABELS[data["state"]] if data["state"] else None,
        "serial": data["serial"],
        "amount": dollars(data["amount"]) if data["amount"] is not None else None,
        "who": data["who"] or None,
    }
    words = [
        _("%(label)s: %(value)s") % {"label": form.fields[name].label, "value": value}
        for name, value in chosen.items()
        if value is not None
    ]
    return f"{title} ({'; '.join(words)})" if words else title


def register_workbook(table: RegisterTable, *, title: str, made) -> tuple[bytes, int]:
    """Every row of the (filtered, sorted) table, unpaged, as one worksheet, with the number of
    rows under the heading: the same typed rows the CSV is written from."""
    header, *rows = table.typed_values()
    sheet = xlsx.Sheet(str(_("Register of slips")), title, header, rows)
    return xlsx.workbook([sheet], made), len(rows)
