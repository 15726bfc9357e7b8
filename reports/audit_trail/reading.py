"""An audit entry as a person reads it, in the reader's language: its summary, and the values it
recorded with their names. An entry keeps what happened as it happened (codes, ISO dates, cents,
English names); everything here is done at reading time, so an entry written in one language
reads in the other, and nothing stored is ever changed.

The names come from the product's own lookups (capacities, places, chips, expense categories,
variance reasons, roles, games, statuses), never from copies of them here.
"""

import datetime
import re

from django.conf import settings
from django.utils import translation
from django.utils.dateparse import parse_datetime, parse_time
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from audit.models import TRANSLATED
from audit.services import ADMIN
from cage.services.ledger import PLACE_NAMES
from cage.slip_fields import EXPENSE_LABELS
from cage.slip_types import CAPACITY_LABELS
from cage.variances import VARIANCE_REASONS
from core import local
from core.money import count_text, dollars, hours_text
from core.rules import Sentence, listed
from events import games
from events.access import ROLE_NAMES
from events.models import Appointment, Authority, GamingDay, Person, game_name
from reports.names import instrument_name, place_names

_GAMES_BY_ENGLISH_NAME = {game.name_en: code for code, game in games.REGISTRY.items()}


def in_reader_language(name: str) -> str:
    """A name kept in English on an entry (a role, a registration status, a game), in the
    reader's language."""
    code = _GAMES_BY_ENGLISH_NAME.get(name)
    return game_name(code) if code else gettext(name)


def in_words(value):
    """A value kept as a sentence's template and values (core.rules.Words), in the reader's words."""
    if isinstance(value, dict) and ("words" in value or "several" in value):
        return str(Sentence.from_stored(value))
    return value


ROLE_LABELS = {**ROLE_NAMES, ADMIN: _("Administrator")}
CHANNELS = {"web": _("web"), "command": _("command line")}

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
    "slips": _("slips"),
    "request": _("fill request"),
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
    "chips": _("chips"),
    "cash": _("cash"),
    "total": _("total"),
    "variances": _("variances"),
    "instrument": _("chips or cash"),
    "amount": _("amount"),
    "variance_reason": _("variance reason"),
    "category": _("category"),
    "description": _("description"),
    "invoice": _("invoice"),
    "shares": _("shares"),
    "person": _("person"),
    "hours": _("hours"),
    "cash_lines": _("bills and coins"),
    "cents": _("unit"),
    "count": _("count"),
    "authority": _("licensing authority"),
    "tables_licensed": _("tables the licence allows"),
    "supplier_related": _("related to the supplier"),
    "other_activities": _("other activities in the organization"),
    "terms_acknowledged": _("terms and conditions brought to their attention"),
    "given": _("given"),
    "confirmed_by": _("confirmed by"),
    "acknowledged_by": _("acknowledged by"),
    "refused_by": _("refused by"),
    "layout": _("layout"),
    "for_reading": _("copy for reading"),
    "figures_digest": _("figures' fingerprint"),
}

# What can leave the system (audit.services.EXPORTS), as the trail names it.
EXPORTED = {
    "event_report": _("the event's report"),
    "day_sheets": _("the day's control sheets"),
    "register": _("the register of slips"),
    "audit_trail": _("the audit trail"),
}

DATES = {"date", "day", "first_day", "last_day", "born_on"}
MOMENTS = {"starts_at", "ends_at", "at", "signed_at"}
CLOCKS = {"opens_at", "closes_at"}
CENTS = {"cash", "amount", "total", "cents"}
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _in_every_language(labels: dict) -> dict[str, str]:
    """{label as any of the product's languages writes it, lower case: code}: a name an older
    entry kept in the words of the language it was written in, found again."""
    found = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            found.update({str(label).lower(): code for code, label in labels.items()})
    with translation.override(None):
        found.update({str(label).lower(): code for code, label in labels.items()})
    return found


def capacity_name(kept: str) -> str:
    """A capacity kept as its code ("prepared_by") or as its label in some language ("Prepared
    by", "prepared by"), named in the reader's language."""
    if kept in CAPACITY_LABELS:
        return str(CAPACITY_LABELS[kept])
    code = _in_every_language(CAPACITY_LABELS).get(str(kept).lower())
    return str(CAPACITY_LABELS[code]) if code else str(kept)


class Reader:
    """Reads the entries of one page or one CSV: the event's places and people are looked up once,
    on first need, whatever the number of entries."""

    def __init__(self, event=None):
        self.event = event
        self._places = None
        self._people = None
        self._slip_numbers: dict[tuple, str] = {}  # asked by an entry's summary and its changes alike

    # --- names of codes ---------------------------------------------------------------------

    def place(self, code: str) -> str:
        if self._places is None:
            self._places = place_names(self.event) if self.event is not None else {}
        # A place with no account yet (nothing ever moved there), or read without its event:
        # the bank's places are still named by their kind, never by their code ("tip_pool").
        return self._places.get(code) or str(PLACE_NAMES.get(code, code))

    def person(self, code: str) -> str:
        if self._people is None:
            self._people = dict(self.event.people.values_list("code", "name")) if self.event is not None else {}
        return self._people.get(code) or code

    def slip_numbers(self, ids: list[int]) -> str:
        """Slips kept by their keys ("slips" of a batch approval), named in the reader's language:
        "Vente de jetons 4, Vente de jetons 5"."""
        from cage.models import Slip

        key = tuple(ids)
        if key not in self._slip_numbers:
            found = Slip.objects.only("slip_type", "serial").in_bulk(ids)
            self._slip_numbers[key] = ", ".join(found[pk].number for pk in ids if pk in found)
        return self._slip_numbers[key]

    def code_names(self, key: str) -> dict:
        """For a key whose values are codes (a role, a status, a game): {code: name people read}."""
        if key in ("role", "roles"):
            return ROLE_LABELS
        if key == "registration":
            return dict(Person.Registration.choices)
        if key == "status":
            return dict(GamingDay.Status.choices)
        if key in ("games", "game"):
            return {code: game_name(code) for code in games.REGISTRY}
        if key == "category":
            return EXPENSE_LABELS
        if key == "variance_reason":
            return VARIANCE_REASONS
        if key == "what":
            return EXPORTED
        if key == "given":
            return dict(Appointment.Given.choices)
        if key == "authority":
            return dict(Authority.choices)
        return {}

    # --- values -----------------------------------------------------------------------------

    def key(self, key: str, parent: str = "") -> str:
        if parent == "signed":
            return capacity_name(key)
        if parent == "chips":
            return str(instrument_name(f"chips:{key}"))
        return str(KEYS[key]) if key in KEYS else key.replace("_", " ")

    def value(self, key: str, value, parent: str = "") -> str:
        """A recorded value as a person reads it."""
        if value is None:
            return "—"
        if isinstance(value, bool):
            return str(_("yes") if value else _("no"))
        if isinstance(value, dict):
            if not value:
                return "—"
            return listed(named(self.key(k, key), self.value(k, value[k], key)) for k in in_order(value))
        if key == "slips" and _slip_keys(value):
            return self.slip_numbers(value)
        if isinstance(value, list):
            return ", ".join(self.value(key, v, parent) for v in value) or "—"
        if parent == "chips" and isinstance(value, int):
            return count_text(value)
        if key in CENTS and isinstance(value, int):
            return dollars(value)
        if isinstance(value, str):
            return self.text(key, value)
        if isinstance(value, int) and key in ("rows", "copy"):
            return count_text(value)
        return str(value)

    def text(self, key: str, value: str) -> str:
        names = self.code_names(key)
        if value in names:
            return str(names[value])
        if key == "capacity":
            return capacity_name(value)
        if key == "account":
            return self.place(value)
        if key == "instrument":
            return str(instrument_name(value))
        if key == "person":
            return self.person(value)
        if key in DATES and ISO_DATE.match(value):
            return local.day(datetime.date.fromisoformat(value))
        if key in MOMENTS and (at := parse_datetime(value)) is not None:
            return local.moment(at)
        if key in CLOCKS and (at := parse_time(value)) is not None:
            return local.clock(at)
        if key == "hours":
            return hours_text(value)
        return value

    def changes(self, entry) -> list[tuple[str, str | None, str | None]]:
        """[(what, old, new)]: every value the entry recorded; old is None where the entry recorded
        no old value, new is None where it recorded no new one. A slip is named by its number in
        the reader's language, not as the entry kept it."""
        old, new = dict(entry.old or {}), dict(entry.new or {})
        if entry.slip_id is not None:
            for values in (old, new):
                if "slip" in values:
                    values["slip"] = entry.slip.number
                if "voids" in values and entry.slip.voids_id is not None:
                    values["voids"] = entry.slip.voids.number
        keys = in_order({**old, **new})
        return [
            (
                self.key(k),
                self.value(k, old[k]) if k in old else None,
                self.value(k, new[k]) if k in new else None,
            )
            for k in keys
        ]

    # --- the summary --------------------------------------------------------------------------

    def summary_values(self, entry, values: dict) -> dict:
        """The summary's values in the reader's language: the slips by their number, dates as every
        date is written, a capacity by its name, a place by its name, an export by what it was."""
        values = dict(values)
        if entry.slip_id is not None:
            if "slip" in values:
                values["slip"] = entry.slip.number
            if values.get("voids") and entry.slip.voids_id is not None:
                values["voids"] = entry.slip.voids.number
        # A batch approval keeps its slips by their keys (cage.services.trail.batch_approved): named
        # in the reader's language, not in the language the DRIC approved them in.
        kept = (entry.new or {}).get("slips")
        if "slips" in values and _slip_keys(kept):
            values["slips"] = self.slip_numbers(kept)
        for key in ("day", "date"):
            if isinstance(values.get(key), str) and ISO_DATE.match(values[key]):
                values[key] = local.day(datetime.date.fromisoformat(values[key]))
        if isinstance(values.get("capacity"), str):
            values["capacity"] = capacity_name(values["capacity"]).lower()
        if isinstance(values.get("place"), str):
            values["place"] = self.place(values["place"])
        return values


# The order a reader meets recorded values in. PostgreSQL keeps JSON objects with their keys
# reordered (jsonb), SQLite as written: the trail reads them in this one order on both.
READING_ORDER = [
    "date", "day", "status", "slip", "voids", "table", "game", "runner", "person", "name", "role", "capacity",
    "account", "instrument", "chips", "cash", "amount", "expected", "counted", "variance", "reason", "signed",
]  # fmt: skip


def in_order(values: dict) -> list[str]:
    known = {key: n for n, key in enumerate(READING_ORDER)}
    return sorted(values, key=lambda key: (known.get(key, len(known)), key))


def named(name: str, value: str) -> str:
    """A value with its name before it: "table: BJ-1", "table\u00a0: BJ-1" in French."""
    return pgettext("a value after its name", "%(name)s: %(value)s") % {"name": name, "value": value}


def change_text(old: str | None, new: str | None) -> str:
    """One value's change as a person reads it: "yes → no", "was yes", "no"."""
    if old is not None and new is not None:
        return f"{old} → {new}"
    if old is not None:
        return str(_("was %(old)s") % {"old": old})
    return new or ""


def roles(entry) -> list[str]:
    return [str(ROLE_LABELS.get(code, code)) for code in entry.roles.split(",") if code]


def summary(entry, reader: Reader | None = None, *, slip: str | None = None) -> str:
    """An entry's summary in the reader's language, its values named by `reader` (the slips by
    their number, dates in words); `slip`, if given, stands for the slip's number (the page puts a
    link there)."""
    text = gettext(entry.message)
    values = dict(entry.params or {})
    for key in values.pop(TRANSLATED, []):
        value = values.get(key)
        if isinstance(value, list):
            values[key] = " / ".join(in_reader_language(v) for v in value)
        elif isinstance(value, str):
            values[key] = in_reader_language(value)
    values = {key: in_words(value) for key, value in values.items()}
    values = (reader or Reader()).summary_values(entry, values)
    if slip is not None and "slip" in values:
        values["slip"] = slip
    try:
        return text % values if values else text
    except (KeyError, TypeError, ValueError):
        return entry.message


def _slip_keys(value) -> bool:
    """Slips kept by their keys, as a batch approval keeps them (earlier entries kept their numbers
    as the words of the language they were approved in, and are read as they were kept)."""
    return isinstance(value, list) and bool(value) and all(type(v) is int for v in value)
