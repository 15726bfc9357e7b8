"""The audit trail as a django-tables2 table, its filter form, and its CSV export (the same
pattern as the register of slips: cage.registers)."""

import io
import json

import django_tables2 as tables
from django import forms
from django.core.serializers.json import DjangoJSONEncoder
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cage.registers import PersonChoice, column
from events import csv_safe, games
from events.access import ROLE_NAMES
from events.models import GamingDay, Person, game_name
from events.rules import cite

from .actions import ACTIONS, OUTCOMES, entry_label
from .services import ADMIN

PER_PAGE = 50
ROLE_LABELS = {**ROLE_NAMES, ADMIN: _("Administrator")}


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


# The names of the values entries record, as the page shows them. A key not named here is shown
# as it is kept ("closer_check" as "closer check").
KEYS = {
    "slug": _("short name"),
    "name": _("name"),
    "licensee": _("licensee"),
    "licence_number": _("licence number"),
    "venue": _("venue"),
    "first_day": _("first day"),
    "last_day": _("last day"),
    "supplier": _("registered supplier"),
    "games": _("authorized games"),
    "table": _("table"),
    "game": _("game"),
    "value": _("value"),
    "colour": _("colour"),
    "code": _("id"),
    "born_on": _("date of birth"),
    "identification": _("identification shown"),
    "supplier_associated": _("associated with the supplier"),
    "registration": _("registration"),
    "gaming_assistant_number": _("gaming-assistant registration number"),
    "roles": _("roles"),
    "role": _("role"),
    "login": _("login"),
    "existing_login": _("existing login"),
    "password_set": _("password set"),
    "signing_pin_set": _("signing PIN set"),
    "date": _("date"),
    "opens_at": _("opens at"),
    "closes_at": _("closes at"),
    "starts_at": _("starts at"),
    "ends_at": _("ends at"),
    "status": _("status"),
    "slip": _("slip"),
    "day": _("gaming day"),
    "signed": _("signed"),
    "runner": _("runner"),
    "voids": _("voids"),
    "account": _("account"),
    "reason": _("reason"),
    "details": _("details"),
    "capacity": _("capacity"),
    "signer": _("signer"),
    "what": _("what"),
    "format": _("format"),
    "rows": _("rows"),
    "copy": _("copy"),
    "reprint": _("reprint"),
    "differences": _("differences"),
    "via": _("via"),
}


def _code_names(key: str) -> dict:
    """For a key whose values are codes (a role, a status, a game): {code: name people read}."""
    if key in ("role", "roles"):
        return ROLE_LABELS
    if key == "registration":
        return dict(Person.Registration.choices)
    if key == "status":
        return dict(GamingDay.Status.choices)
    if key == "games" or key == "game":
        return {code: game_name(code) for code in games.REGISTRY}
    return {}


def _plain(value, names: dict | None = None) -> str:
    """A recorded value as a person reads it; `names` turns a code into its name."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, dict):
        return "; ".join(f"{_key(k)}: {_plain(v, _code_names(k))}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_plain(v, names) for v in value) or "—"
    if names and isinstance(value, str) and value in names:
        return str(names[value])
    return str(value)


def _key(key: str) -> str:
    return str(KEYS[key]) if key in KEYS else key.replace("_", " ")


def changes(entry) -> list[tuple[str, str | None, str | None]]:
    """[(what, old, new)]: every value the entry recorded; old is None where the entry recorded no
    old value, new is None where it recorded no new one."""
    old, new = entry.old or {}, entry.new or {}
    keys = list(new) + [k for k in old if k not in new]
    return [
        (
            _key(k),
            _plain(old[k], _code_names(k)) if k in old else None,
            _plain(new[k], _code_names(k)) if k in new else None,
        )
        for k in keys
    ]


def change_text(old: str | None, new: str | None) -> str:
    """One value's change as a person reads it: "yes → no", "was yes", "no"."""
    if old is not None and new is not None:
        return f"{old} → {new}"
    if old is not None:
        return str(_("was %(old)s") % {"old": old})
    return new or ""


def _json(value) -> str:
    return "" if value is None else json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False, sort_keys=True)


def _local(at) -> str:
    return timezone.localtime(at).strftime("%Y-%m-%d %H:%M:%S")


def _roles(entry) -> list[str]:
    return [str(ROLE_LABELS.get(code, code)) for code in entry.roles.split(",") if code]


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
    # In the CSV only: the parts the page shows together, and the raw values.
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

    # --- the page -------------------------------------------------------------------------

    def render_at(self, value):
        local = timezone.localtime(value)
        # The time to the second, as a trail needs it: 18:30:05 in both languages.
        return format_html(
            '<span class="line">{}</span><span class="line">{}</span>',
            date_format(local, "SHORT_DATE_FORMAT"),
            f"{local:%H:%M:%S}",
        )

    def render_who(self, record):
        lines = [(self.name_of(record) or _("unknown"),)]
        roles = _roles(record)
        if roles:
            lines.append((", ".join(roles),))
        if record.channel == "command":
            lines.append((_("command line"),))
        elif record.username and self.name_of(record) != record.username:
            lines.append((record.username,))
        return format_html_join("", '<span class="line">{}</span>', lines)

    def render_action(self, record):
        return entry_label(record.action, record.outcome, record.params)

    def render_outcome(self, record):
        return format_html('<span class="outcome {}">{}</span>', record.outcome, OUTCOMES[record.outcome])

    def render_summary(self, record):
        if record.slip_id and self.event is not None:
            link = reverse("cage:slip", args=[self.event.slug, record.slip_id])
            return format_html('{} <a href="{}">{}</a>', record.summary, link, _("slip"))
        return record.summary

    def render_changed(self, record):
        return format_html_join(
            "",
            '<span class="line"><span class="key">{}:</span> {}</span>',
            ((what, change_text(old, new)) for what, old, new in changes(record)),
        )

    def render_rule(self, value):
        """The rule as the reader's language names it: a section of the terms and conditions in
        its own numbering, or one of the product's own rules (kept in English on the entry)."""
        cited = cite(gettext(value))
        if cited.startswith(("T&C", "M&C")):
            return format_html('<span class="citation">{}</span>', cited)
        return cited

    def render_address(self, record):
        return record.address or ("" if record.channel == "web" else _("command line"))

    # --- the CSV: every part as plain text, old and new as JSON -----------------------------------

    def value_at(self, value):
        return _local(value)

    def value_who(self, record):
        return self.name_of(record)

    def value_action(self, record):
        return entry_label(record.action, record.outcome, record.params)

    def value_action_code(self, record):
        return record.action

    def value_outcome(self, record):
        return record.outcome

    def value_summary(self, record):
        return record.summary

    def value_changed(self, record):
        return "; ".join(f"{what}: {change_text(old, new)}" for what, old, new in changes(record))

    def value_person(self, record):
        return record.person.name if record.person_id else ""

    def value_roles(self, record):
        return ",".join(code for code in record.roles.split(",") if code)

    def value_slip(self, record):
        return record.slip.number if record.slip_id else ""

    def value_old(self, record):
        return _json(record.old)

    def value_new(self, record):
        return _json(record.new)

    def value_rule(self, value):
        return value  # as kept: the English reference, as the audit trail's machines read it

    def value_address(self, record):
        return record.address or ""


# Written first, so that a spreadsheet (Excel above all) reads the file as UTF-8: without it, the
# accents of a name or of a French summary come out garbled.
UTF8_BOM = "\ufeff"


def trail_csv(table: AuditTable) -> tuple[str, int]:
    """Every row of the (filtered, sorted) table, unpaged, as CSV behind a UTF-8 byte order mark;
    no cell can run as a formula. Returns the text and the number of entries in it."""
    out = io.StringIO()
    out.write(UTF8_BOM)
    writer = csv_safe.writer(out)
    rows = -1  # the heading is not an entry
    for row in table.as_values():
        writer.writerow(row)
        rows += 1
    return out.getvalue(), rows
