"""The audit trail as a django-tables2 table, its filter form, and its CSV export (the same
pattern as the register of slips: cage.registers). Every column people read speaks the reader's
language (reports.audit_trail.reading); the CSV keeps beside them the columns a machine reads: the action's
code, the exact time (ISO 8601, to the microsecond), the old and new values as JSON."""

import json

import django_tables2 as tables
from django import forms
from django.core.serializers.json import DjangoJSONEncoder
from django.urls import reverse
from django.utils import timezone
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from audit.actions import ACTIONS, OUTCOMES, entry_label
from cage.registers import PersonChoice, column
from core import local
from core.rules import cite, listed
from events.models import Person

from .reading import CHANNELS, Reader, change_text, roles, summary

PER_PAGE = 50


class DateInput(forms.DateInput):
    input_type = "date"


class AuditFilter(forms.Form):
    """What the trail shows: a GET form, every field optional. On an event's page, a person of the
    event; on the page of entries tied to no event, a login name."""

    person = PersonChoice(
        queryset=Person.objects.none(),
        required=False,
        label=_("Person"),
        empty_label=_("Anyone"),
        help_text=_("who acted, or whom it concerns"),
    )
    login = forms.CharField(
        required=False,
        max_length=150,
        label=_("Login"),
        help_text=_("the login name as it was typed, also one that is nobody's"),
    )
    action = forms.ChoiceField(required=False, label=_("Action"))
    since = forms.DateField(required=False, label=_("From"), widget=DateInput)
    until = forms.DateField(required=False, label=_("To"), widget=DateInput)
    outcome = forms.ChoiceField(required=False, label=_("Outcome"))

    def __init__(self, data, *, event=None):
        super().__init__(data)
        if event is not None:
            self.fields["person"].queryset = event.people.order_by("name")
            del self.fields["login"]
        else:
            del self.fields["person"]
        self.fields["action"].choices = [("", _("Every action"))] + list(ACTIONS.items())
        self.fields["outcome"].choices = [("", _("Done or refused"))] + list(OUTCOMES.items())

    def criteria(self) -> dict:
        """The valid choices as the selector's keyword arguments; an invalid one narrows nothing."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        criteria = {
            "action": data.get("action") or None,
            "since": data.get("since"),
            "until": data.get("until"),
            "outcome": data.get("outcome") or None,
        }
        if "person" in self.fields:
            criteria["person"] = data.get("person")
        else:
            criteria["login"] = data.get("login") or ""
        return criteria


def _json(value) -> str:
    return "" if value is None else json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False, sort_keys=True)


# Stands for the slip's number in a summary while the page makes it a link.
_SLIP = "\x00slip\x00"


class AuditTable(tables.Table):
    """One row per entry; newest first unless sorted otherwise."""

    at = column(_("When"), order_by=("at", "id"))
    who = column(_("Who"), accessor="username", order_by=("person__name", "username", "at"))
    action = column(_("Action"), order_by=("action", "at"))
    outcome = column(_("Outcome"), order_by=("outcome", "at"))
    summary = column(_("What"))
    rule = column(_("Rule"))
    changed = column(_("Old and new"), accessor="new")
    address = column(_("From"))
    # In the CSV only: the parts the page shows together, and the raw values a machine reads.
    # The exact time, ISO 8601 with its UTC offset and fractions of a second: the order of two
    # entries in the same minute, and the time as another system would compare it.
    exact = tables.Column(verbose_name=_("When (ISO 8601)"), accessor="at", visible=False)
    # The action's code, for a machine reading the CSV (the Action column is its name, translated).
    action_code = tables.Column(verbose_name=_("Action code"), accessor="action", visible=False)
    login = tables.Column(verbose_name=_("Login"), accessor="username", visible=False)
    person = tables.Column(verbose_name=_("Person"), accessor="person", visible=False, empty_values=())
    roles = tables.Column(verbose_name=_("Roles"), visible=False, empty_values=())
    slip = tables.Column(verbose_name=_("Slip"), visible=False, empty_values=())
    old = tables.Column(verbose_name=_("Old"), visible=False, empty_values=())
    new = tables.Column(verbose_name=_("New"), visible=False, empty_values=())
    via = tables.Column(verbose_name=_("Via"), accessor="channel", visible=False)
    request = tables.Column(verbose_name=_("Request"), visible=False)

    class Meta:
        orderable = False
        per_page = PER_PAGE
        order_by = ("-at",)
        empty_text = _("No entry matches these choices.")
        attrs = {"class": "grid audit", "id": "audit"}
        row_attrs = {"class": lambda record: f"outcome-{record.outcome}"}

    def __init__(self, data, *, event=None, **kwargs):
        self.event = event
        self.reader = Reader(event)
        # A login entry belongs to no event; on an event's page it names the event's person who
        # signs in with that login. One query, whatever the number of entries.
        self.people = dict(event.people.filter(user__isnull=False).values_list("user_id", "name")) if event else {}
        super().__init__(data, **kwargs)

    def name_of(self, record) -> str:
        if record.person_id:
            return record.person.name
        return self.people.get(record.user_id) or record.username

    def get_column_class_names(self, classes_set, bound_column):
        return super().get_column_class_names(classes_set, bound_column) | {f"col-{bound_column.name}"}

    def changes(self, record):
        return self.reader.changes(record)

    # --- the page -------------------------------------------------------------------------

    def render_at(self, value):
        # To the minute, as people read times; the exact time (to the second and beyond) is the
        # cell's tooltip and the CSV's ISO column.
        return format_html(
            '<time datetime="{}" title="{}"><span class="line">{}</span><span class="line">{}</span></time>',
            value.isoformat(),
            timezone.localtime(value).isoformat(timespec="seconds"),
            local.day(timezone.localtime(value).date()),
            local.clock(value),
        )

    def render_who(self, record):
        lines = [(self.name_of(record) or _("unknown"),)]
        held = roles(record)
        if held:
            lines.append((", ".join(held),))
        if record.channel == "command":
            lines.append((CHANNELS["command"],))
        elif record.username and self.name_of(record) != record.username:
            lines.append((record.username,))
        return format_html_join("", '<span class="line">{}</span>', lines)

    def render_action(self, record):
        return entry_label(record.action, record.outcome, record.params)

    def render_outcome(self, record):
        return format_html('<span class="outcome {}">{}</span>', record.outcome, OUTCOMES[record.outcome])

    def render_summary(self, record):
        if not (record.slip_id and self.event is not None):
            return summary(record, self.reader)
        # The slip's number, where the summary names it, is the link to the slip.
        link = format_html(
            '<a href="{}">{}</a>', reverse("cage:slip", args=[self.event.slug, record.slip_id]), record.slip.number
        )
        text = summary(record, self.reader, slip=_SLIP)
        if _SLIP in text:
            before, after = text.split(_SLIP, 1)
            return format_html("{}{}{}", before, link, after)
        return format_html("{} ({})", text, link)

    def render_changed(self, record):
        pattern = conditional_escape(pgettext("a value after its name", "%(name)s: %(value)s"))
        return format_html_join(
            "",
            '<span class="line">{}</span>',
            (
                (
                    mark_safe(
                        pattern
                        % {
                            "name": format_html('<span class="key">{}</span>', what),
                            "value": conditional_escape(change_text(old, new)),
                        }
                    ),
                )
                for what, old, new in self.changes(record)
            ),
        )

    def render_rule(self, value):
        """The rule as the reader's language names it: a section of the terms and conditions in
        its own numbering, or one of the product's own rules (kept in English on the entry)."""
        cited = cite(gettext(value))
        if cited.startswith(("T&C", "M&C")):
            return format_html('<span class="citation">{}</span>', cited)
        return cited

    def render_address(self, record):
        return record.address or ("" if record.channel == "web" else CHANNELS["command"])

    # --- the CSV: every column people read in their language; the machine columns as kept ---------

    def value_at(self, value):
        return local.moment(value)

    def value_exact(self, value):
        return timezone.localtime(value).isoformat()

    def value_who(self, record):
        return self.name_of(record)

    def value_action(self, record):
        return entry_label(record.action, record.outcome, record.params)

    def value_action_code(self, record):
        return record.action

    def value_outcome(self, record):
        return str(OUTCOMES[record.outcome])

    def value_summary(self, record):
        return summary(record, self.reader)

    def value_changed(self, record):
        return listed(
            pgettext("a value after its name", "%(name)s: %(value)s") % {"name": what, "value": change_text(old, new)}
            for what, old, new in self.changes(record)
        )

    def value_person(self, record):
        return record.person.name if record.person_id else ""

    def value_roles(self, record):
        return ", ".join(roles(record))

    def value_slip(self, record):
        return record.slip.number if record.slip_id else ""

    def value_old(self, record):
        return _json(record.old)

    def value_new(self, record):
        return _json(record.new)

    def value_rule(self, value):
        return cite(gettext(value)) if value else ""

    def value_address(self, record):
        return record.address or ""

    def value_via(self, value):
        return str(CHANNELS.get(value, value))
