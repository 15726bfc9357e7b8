"""Import an event's records (cage-records/1) through the same services as the web forms.

All or nothing: every problem found is collected as one line, `record N (DATE, TYPE): what is
wrong (rule)` or `FIELD: what is wrong (rule)` for setup, and if there is any, nothing is written.

The whole file is checked first, every record through its service, in a scratch database
(cage.staging); only a file that passes is written to the real database, in one short transaction
of bulk inserts. A cashier's slip posted meanwhile waits a moment at most, never the whole import.
"""

import datetime
import functools
import inspect
import re
from contextlib import nullcontext
from decimal import Decimal
from pathlib import Path
from reprlib import repr as shown

from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from audit import chain as audit_chain
from audit import services as audit
from audit.models import AuditEntry
from cage import records_file, services, staging
from cage.fields import BillsAndCoins
from cage.models import Account, Slip
from cage.progress import QUIET, Meter, Progress
from cage.records_file import FORMAT_RULE as FORMAT
from cage.records_file import cited as _cited
from cage.records_file import problem_at as _at
from cage.services import bank_slips, cheques
from cage.services import memo as remembered
from cage.slip_types import (
    DEPOSITS,
    EXPENSES,
    SLIP_KINDS,
)
from cage.variances import VARIANCE_REASONS
from core.collecting import few_collections
from core.money import AMOUNT_LIMITS_RULE, AMOUNTS_RULE, MAX_AMOUNT_CENTS, MAX_CHIP_COUNT
from core.rules import RuleViolation, Words
from events import services as event_services
from events.models import Authority, Event, GamingDay, Licensee, Person, Role
from events.proceeds import purpose_add

# The auditor reads everything and signs nothing; listed so that an exported event comes back whole.
RECORD_ROLES = {Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER, Role.RUNNER, Role.DEALER, Role.AUDITOR}
DAY_STATUSES = {"setup", "reconciling"}  # the others follow from the records (a close_day closes)
COUNT = gettext_lazy("count")


class ImportFailed(Exception):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def import_file(path: str | Path, progress: Progress = QUIET) -> Event:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ImportFailed(
            [_at("file", _("cannot read %(path)s: %(reason)s") % {"path": path, "reason": exc.strerror})]
        ) from None
    return import_bytes(raw, progress)


def import_bytes(raw: bytes, progress: Progress = QUIET) -> Event:
    """A records file's bytes, as read from a disk or an upload."""
    with few_collections():
        try:
            data = records_file.load(raw)
        except ValueError as exc:
            raise ImportFailed([str(exc)]) from None
        return import_records(data, progress)


def import_records(data, progress: Progress = QUIET) -> Event:
    """Check every record of the file in a scratch database, then write the event in one short
    transaction. Raises ImportFailed, with every problem found, and writes nothing, if any.
    `progress` is told how many records are checked, then how far the writing is."""
    with few_collections():
        return _import_records(data, progress)


def _import_records(data, progress: Progress) -> Event:
    # What no records file holds (NUL bytes, unpaired surrogates, very long text, NaN, deep
    # nesting, numbers beyond any amount) is refused before anything reads it, the database's
    # check for an event of the same slug included: PostgreSQL cannot even be asked about a slug
    # holding half a character.
    problems = records_file.document_problems(data)
    if problems:
        raise ImportFailed(problems)
    slug = _slug_of(data)
    _refuse_existing(slug)
    importer = _Importer()
    # Into SQLite the scratch database is attached to the real one and copied by SQLite itself,
    # which SQLite allows only outside a transaction; inside the caller's, or into PostgreSQL, its
    # rows are read and written in bulk, as SQLite stores them where the copy goes to SQLite.
    sqlite = connection.vendor == "sqlite"
    attach = sqlite and not connection.in_atomic_block
    with staging.scratch(attachable=attach) as scratch:
        # Every record goes on the audit trail as the web pages' would: the entries are held in
        # memory and copied with the event's own rows, all of it or none.
        checking = progress.stage(_("Checking"), unit=_("records"), total=_record_total(data))
        with audit.batch() as entries, checking as importer.checked:
            event = importer.run(data)
        if importer.problems:
            raise ImportFailed(importer.problems)
        # The trail goes from memory straight to the real database, its keys mapped as the copy
        # mapped the rows they name: never through the scratch database.
        trail = staging.held_rows(AuditEntry, entries)
        rows = None if attach else staging.read_rows(as_stored=sqlite)
        # Three steps: the event's rows, its audit trail, the trail's chain.
        with scratch.real_database(), progress.stage(_("Writing"), unit=_("steps"), total=3) as written:
            try:
                with scratch.attached() if attach else nullcontext(), transaction.atomic():
                    _refuse_existing(slug)  # another import of the same event may have finished meanwhile
                    if attach:
                        new_pk = staging.copy_attached()
                    else:
                        new_pk = staging.copy_rows(rows, as_stored=sqlite)
                    written.advance()
                    copied = staging.copy_rows([trail], new_pk=new_pk)
                    written.advance()
                    audit_chain.link_written(staging.copied_rows(trail, copied))
                    written.advance()
            except DatabaseError as exc:
                # What the scratch database let through and this one does not (a limit only
                # PostgreSQL enforces, an import of the same event finishing first): refused, and
                # nothing written.
                _refuse_existing(slug)
                raise ImportFailed(
                    [_at("file", _cited(_("the database refused the event as written: %(error)s") % {"error": exc}))]
                ) from None
            return Event.objects.get(pk=new_pk[Event][event.pk])


@functools.cache
def _takes_records_file(service) -> bool:
    """Whether a slip type's service takes `records_file` (asked once per service, not per record:
    reading a function's signature cost an import about a twentieth of its time)."""
    return "records_file" in inspect.signature(service).parameters


def _record_total(data) -> int:
    """How many records the file's days hold, as far as its shape can be read (what is not a list
    is refused later, with its problem)."""
    days = data.get("days") if isinstance(data, dict) else None
    if not isinstance(days, list):
        return 0
    return sum(len(day["records"]) for day in days if isinstance(day, dict) and isinstance(day.get("records"), list))


def _slug_of(data):
    spec = data.get("event") if isinstance(data, dict) and data.get("format") == FORMAT else None
    slug = spec.get("slug") if isinstance(spec, dict) else None
    return slug if isinstance(slug, str) else None


def _refuse_existing(slug) -> None:
    if slug and Event.objects.filter(slug=slug).exists():
        raise ImportFailed(
            [
                _at(
                    "event.slug",
                    _cited(_("an event %(slug)s already exists; importing it again is refused") % {"slug": repr(slug)}),
                )
            ]
        )


def _text(value, field, problems, *, required=True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        problems.append(_at(field, _cited(_("a non-empty string is required"))))
        return ""
    return value


def _messages(exc: ValidationError) -> str:
    if hasattr(exc, "message_dict"):
        return "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())
    return "; ".join(exc.messages)


def _optional_text(record: dict, name: str) -> str:
    value = record.get(name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RuleViolation(
            Words(N_("%(field)s: %(value)s must be text"), field=name, value=shown(value)),
            FORMAT,
            code="import.not_text",
        )
    return value


def _cents(value, what="cash") -> int:
    """A records file's cash: plain digits with an optional point and one or two decimals
    ("180", "12.5", "1780.00"), at most "10000000.00" (cage-records/1: amounts)."""
    if not isinstance(value, str) or not RECORD_CASH.fullmatch(value):
        raise RuleViolation(
            Words(
                N_(
                    "%(field)s: %(value)s is not written as plain digits with an optional point and one or two "
                    'decimals, such as "180", "12.5" or "1780.00" (no sign, exponent or thousands separator)'
                ),
                field=what,
                value=shown(value),
            ),
            AMOUNTS_RULE,
            code="import.bad_amount",
        )
    whole, _point, part = value.partition(".")
    cents = int(whole) * 100 + int(part.ljust(2, "0") or 0) if len(whole) <= 8 else None
    if cents is None or cents > MAX_AMOUNT_CENTS:
        raise RuleViolation(
            Words(
                N_("%(field)s: %(value)s is more than the 10000000.00 one record may carry"), field=what, value=value
            ),
            AMOUNTS_RULE,
            code="import.amount_too_large",
        )
    return cents


RECORD_CASH = re.compile(r"[0-9]+(\.[0-9]{1,2})?")
RECORD_HOURS = re.compile(r"[0-9]{1,2}(\.[0-9]{1,2})?")


def _hours(person_id, worked) -> Decimal:
    """A dealer's hours: a number, or digits with at most two decimals as text ("4", "3.5")."""
    if isinstance(worked, int | float) and not isinstance(worked, bool):
        text = repr(worked)  # finite and bounded: records_file refused the rest
        text = text[:-2] if text.endswith(".0") else text
    else:
        text = worked if isinstance(worked, str) else ""
    if not RECORD_HOURS.fullmatch(text):
        raise RuleViolation(
            Words(
                N_('hours for %(person)s: %(value)s is not a number of hours, such as 4 or "3.5"'),
                person=shown(person_id),
                value=shown(worked),
            ),
            "T&C 2.6",
            code="import.bad_hours",
        )
    return Decimal(text)


def _when(value, what: str) -> datetime.datetime:
    """An ISO local date-time ("2026-09-11T12:10", seconds and fractions allowed); one that gives
    its UTC offset is taken as it says (an exported file writes one only in the hour repeated when
    clocks go back)."""
    try:
        moment = datetime.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise RuleViolation(
            Words(N_("%(field)s: %(value)s is not an ISO local date-time"), field=what, value=shown(value)),
            FORMAT,
            code="import.bad_date_time",
        ) from None
    return moment if moment.tzinfo else timezone.make_aware(moment)


def _date(value, what: str) -> datetime.date:
    """An ISO date ("2026-09-12")."""
    try:
        return datetime.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise RuleViolation(
            Words(N_("%(field)s: %(value)s is not an ISO date"), field=what, value=shown(value)),
            FORMAT,
            code="import.bad_date",
        ) from None


def _time_of_day(value, what: str, problems: list[str]) -> datetime.time | None:
    if value is None:
        return None
    try:
        return datetime.time.fromisoformat(value)
    except (TypeError, ValueError):
        problems.append(_at(what, _cited(_("%(value)s is not a time of day such as 12:00") % {"value": repr(value)})))
        return None


class _Importer:
    def __init__(self):
        self.problems: list[str] = []
        self.people: dict[str, Person] = {}
        self.tables = {}
        self.refs: dict[str, Slip] = {}
        # Registrations changed after the records (an exported event): applied once they are in.
        self.later_registrations: list[tuple[str, Person, str]] = []
        # The expenses' cheques, entered once every deposit is in: a cheque is never for more than
        # the trust account holds, and a cheque may well be written days after its expense.
        self.later_cheques: list[dict] = []
        self.checked = Meter()  # counts the records checked (cage.progress)

    # --- setup ---------------------------------------------------------------------------

    def run(self, data) -> Event | None:
        if not isinstance(data, dict):
            self.problems.append(_at("file", _cited(_("the top level must be an object"))))
            return None
        if data.get("format") != FORMAT:
            self.problems.append(
                _at(
                    "format",
                    _cited(
                        _("must be %(format)s, not %(value)s")
                        % {"format": repr(FORMAT), "value": shown(data.get("format"))}
                    ),
                )
            )
            return None
        event = self.event(data.get("event"), data.get("days"))
        if event is None:
            return None
        self.chip_set(event, data["event"].get("chip_denominations"), data["event"].get("chip_colours"))
        self.staff(event, data.get("people"))
        self.table_list(event, data.get("tables"))
        self.game_settings(event, data["event"].get("game_settings"))
        if self.problems:
            return event  # the records need a sound setup; report what is wrong with it first
        # Who holds which role, read once: no record changes a role (cage.services.memo).
        self.people = {p.code: p for p in event.people.prefetch_related("assignments")}
        self.proceeds(event, data["event"])
        with remembered.remembering():
            self.day_list(event, data.get("days"))
        self.cheques_entered()
        for where, person, registration in self.later_registrations:
            try:
                event_services.registration_change(person=person, registration=registration)
            except RuleViolation as exc:
                self.problems.append(_at(f"{where}.registration_changed_to", exc))
        return event

    def event(self, spec, days) -> Event | None:
        if not isinstance(spec, dict):
            self.problems.append(_at("event", _cited(_("an object is required"))))
            return None
        problems_before = len(self.problems)
        slug = _text(spec.get("slug"), "event.slug", self.problems)
        fields = {
            k: _text(spec.get(k), f"event.{k}", self.problems)
            for k in ("name", "licence_number", "licensee", "supplier", "venue")
        }
        # Extensions an exported event carries; a file from paper may leave them out.
        extra = {
            k: _text(spec.get(k), f"event.{k}", self.problems, required=False)
            for k in (
                "licensing_authority",
                "supplier_registration_number",
                "licensee_address",
                "licensee_charitable_number",
            )
        }
        game_codes = spec.get("games")
        if not isinstance(game_codes, list) or not all(isinstance(g, str) for g in game_codes):
            self.problems.append(_at("event.games", _cited(_("a list of game codes is required"), "T&C 1.5.1")))
        authority, tables_licensed = self.licence_extensions(spec)
        first_day, last_day = self.event_days(spec, days)
        if len(self.problems) > problems_before:
            return None
        try:
            # Checked as the model would (lengths): the licensee is matched by name, never cleaned.
            Licensee(
                name=fields["licensee"],
                address=extra["licensee_address"],
                charitable_registration_number=extra["licensee_charitable_number"],
            ).full_clean(validate_unique=False)
        except ValidationError as exc:
            self.problems.append(_at("event.licensee", _cited(_messages(exc))))
            return None
        try:
            licensee = event_services.licensee_get_or_create(
                name=fields["licensee"],
                address=extra["licensee_address"],
                charitable_number=extra["licensee_charitable_number"],
            )
            return event_services.event_create(
                licensee=licensee,
                slug=slug,
                name=fields["name"],
                licence_number=fields["licence_number"],
                venue=fields["venue"],
                first_day=first_day,
                last_day=last_day,
                supplier=fields["supplier"],
                games_authorized=game_codes,
                licensing_authority=extra["licensing_authority"],
                supplier_registration_number=extra["supplier_registration_number"],
                authority=authority,
                tables_licensed=tables_licensed,
                trust_account=self.trust_account(spec.get("trust_account")),
                trust_opening_balance=self.opening_balance(spec.get("trust_account")),
            )
        except RuleViolation as exc:
            self.problems.append(_at(f"event.{exc.field or 'slug'}", exc))
        except ValidationError as exc:  # a model's own validation (e.g. a bad slug)
            self.problems.append(_at("event", _cited(_messages(exc))))
        return None

    @staticmethod
    def trust_account(spec) -> tuple[str, str, str]:
        """The licensee's trust account (an extension): {"bank", "branch", "last_four"}, and
        optionally its "opening_balance" (read by opening_balance)."""
        if spec is None:
            return "", "", ""
        if (
            not isinstance(spec, dict)
            or not {"bank", "branch", "last_four"} <= set(spec) <= {"bank", "branch", "last_four", "opening_balance"}
            or not all(isinstance(v, str) for v in spec.values())
        ):
            raise RuleViolation(
                Words(
                    N_(
                        'trust_account: {"bank", "branch", "last_four"}, each a string, is required, and '
                        '"opening_balance" may follow'
                    )
                ),
                FORMAT,
                field="trust_account",
                code="import.bad_trust_account",
            )
        return spec["bank"], spec["branch"], spec["last_four"]

    @staticmethod
    def opening_balance(spec) -> int | None:
        if spec is None or "opening_balance" not in spec:
            return None
        return _cents(spec["opening_balance"], "event.trust_account.opening_balance")

    def licence_extensions(self, spec: dict) -> tuple:
        """Extensions: who licensed the event (an Ontario licence unless told), and the licence's
        number of tables of each game."""
        authority = spec.get("authority", Authority.AGCO)
        if not isinstance(authority, str):
            self.problems.append(
                _at("event.authority", _cited(_("one of %(known)s") % {"known": ", ".join(Authority.values)}))
            )
        tables_licensed = spec.get("tables_licensed", {})
        if not isinstance(tables_licensed, dict):
            self.problems.append(
                _at(
                    "event.tables_licensed",
                    _cited(_("an object of game code: number of tables is required"), "T&C 1.3"),
                )
            )
        return authority, tables_licensed

    def event_days(self, spec: dict, days) -> tuple:
        """The event's first and last days: as given, or those of its gaming days."""
        first_day = last_day = None
        dates = []
        if isinstance(days, list):
            for day in days:
                try:
                    dates.append(datetime.date.fromisoformat(day["date"]))
                except (TypeError, KeyError, ValueError):
                    pass
        first = spec.get("first_day") or (min(dates).isoformat() if dates else None)
        last = spec.get("last_day") or (max(dates).isoformat() if dates else None)
        try:
            first_day = datetime.date.fromisoformat(first)
            last_day = datetime.date.fromisoformat(last)
        except (TypeError, ValueError):
            self.problems.append(
                _at("event", _cited(_("the event's days are unknown: give days, or first_day and last_day")))
            )
        return first_day, last_day

    def chip_set(self, event, keys, colours) -> None:
        if not isinstance(keys, list) or not keys:
            self.problems.append(_at("event.chip_denominations", _cited(_("a list of dollar values is required"))))
            return
        if colours is None:
            colours = {}
        if not isinstance(colours, dict) or not all(isinstance(c, str) for c in colours.values()):
            self.problems.append(_at("event.chip_colours", _("an object of denomination: colour is required")))
            colours = {}
        for i, key in enumerate(keys):
            if not isinstance(key, str):
                self.problems.append(
                    _at(
                        f"event.chip_denominations[{i}]",
                        _cited(_('%(value)s must be a string such as "5"') % {"value": shown(key)}),
                    )
                )
                continue
            try:
                event_services.denomination_add(event=event, value=key, key=key, colour=colours.get(key, ""))
            except RuleViolation as exc:
                self.problems.append(_at(f"event.chip_denominations[{i}]", exc))
            except ValidationError as exc:  # e.g. a key or a colour too long
                self.problems.append(_at(f"event.chip_denominations[{i}]", _messages(exc)))

    def staff(self, event, people) -> None:
        if not isinstance(people, list):
            self.problems.append(_at("people", _cited(_("a list is required"))))
            return
        for i, spec in enumerate(people):
            where = f"people[{i}]"
            if not isinstance(spec, dict):
                self.problems.append(_at(where, _cited(_("an object is required"))))
                continue
            code = _text(spec.get("id"), f"{where}.id", self.problems)
            name = _text(spec.get("name"), f"{where}.name", self.problems)
            try:
                born_on = datetime.date.fromisoformat(spec.get("born_on"))
            except (TypeError, ValueError):
                self.problems.append(_at(f"{where}.born_on", _cited(_("a date (YYYY-MM-DD) is required"))))
                continue
            associated = spec.get("supplier_associated", False)
            if not isinstance(associated, bool):
                self.problems.append(
                    _at(
                        f"{where}.supplier_associated",
                        _cited(_("true or false is required, not %(value)s") % {"value": shown(associated)}),
                    )
                )
                continue
            registration = _text(spec.get("registration", "good"), f"{where}.registration", self.problems)
            assistant = _text(
                spec.get("gaming_assistant_number"), f"{where}.gaming_assistant_number", self.problems, required=False
            )
            roles = spec.get("roles", [])
            if not isinstance(roles, list) or not all(isinstance(r, str) and r in RECORD_ROLES for r in roles):
                self.problems.append(
                    _at(
                        f"{where}.roles",
                        _cited(_("each role is one of %(roles)s") % {"roles": ", ".join(sorted(RECORD_ROLES))}),
                    )
                )
                continue
            identification = _text(spec.get("identification"), f"{where}.identification", self.problems, required=False)
            declared = self.declarations(spec, where)
            later = spec.get("registration_changed_to")
            if not code or not name or not registration:
                continue
            try:
                person = event_services.person_add(
                    event=event,
                    code=code,
                    name=name,
                    born_on=born_on,
                    supplier_associated=associated,
                    registration=registration,
                    gaming_assistant_number=assistant,
                    identification=identification,
                    **declared,
                )
                # by=None: the command line, whose operator stands for the licensee's administrator.
                for role in roles:
                    event_services.role_assign(person=person, role=role, by=None)
            except RuleViolation as exc:
                self.problems.append(_at(f"{where}.{exc.field or 'id'}", exc))
                continue
            except ValidationError as exc:  # a field the model itself refuses (e.g. an id with spaces)
                self.problems.append(_at(where, _cited(_messages(exc))))
                continue
            self.people[code] = person
            if later is not None:
                self.later_registrations.append((where, person, later))
        for role in (Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER):
            if not any(role in p.role_codes() for p in self.people.values()):
                self.problems.append(
                    _at(
                        "people",
                        _cited(_("nobody holds the position of %(role)s") % {"role": Role(role).label}, "T&C 2"),
                    )
                )

    def declarations(self, spec: dict, where: str) -> dict:
        """Extensions: what a person declared (T&C 2) and was told (T&C 1.4.6), as the window records it."""
        declared = {}
        for flag in ("supplier_related", "other_activities", "terms_acknowledged"):
            value = spec.get(flag)
            if value is not None and not isinstance(value, bool):
                self.problems.append(
                    _at(
                        f"{where}.{flag}",
                        _cited(_("true or false is required, not %(value)s") % {"value": shown(value)}),
                    )
                )
                value = None
            if value is not None:
                declared[flag] = value
        return declared

    def table_list(self, event, tables) -> None:
        if not isinstance(tables, list):
            self.problems.append(_at("tables", _cited(_("a list is required"))))
            return
        for i, spec in enumerate(tables):
            if not isinstance(spec, dict):
                self.problems.append(_at(f"tables[{i}]", _cited(_("an object is required"))))
                continue
            try:
                code = _text(spec.get("id"), f"tables[{i}].id", self.problems)
                if code:
                    self.tables[code] = event_services.table_create(
                        event=event, code=code, game=spec.get("game"), records_file=True
                    )
                    layout = spec.get("layout")
                    if layout is not None:
                        # An extension: a wheel's segments as typed, checked by its rules (seed 001).
                        if not isinstance(layout, list) or not all(isinstance(line, str) for line in layout):
                            raise RuleViolation(
                                Words(
                                    N_('layout: a list of segments, each written as a symbol and its odds ("$5 5:1")')
                                ),
                                FORMAT,
                                field="layout",
                                code="import.bad_layout",
                            )
                        event_services.wheel_layout_set(table=self.tables[code], layout_text="\n".join(layout))
            except RuleViolation as exc:
                self.problems.append(_at(f"tables[{i}].{exc.field or 'game'}", exc))
            except ValidationError as exc:
                self.problems.append(_at(f"tables[{i}]", _cited(_messages(exc))))

    def game_settings(self, event, settings) -> None:
        """An extension: the licence's figures of the games whose seeds state none, as typed."""
        if settings is None:
            return
        if not isinstance(settings, dict) or not all(isinstance(v, dict) for v in settings.values()):
            self.problems.append(_at("event.game_settings", _cited(_("an object of game: its figures is required"))))
            return
        for game, entered in settings.items():
            try:
                event_services.game_settings_set(event=event, game=game, entered=entered)
            except RuleViolation as exc:
                self.problems.append(_at(f"event.game_settings.{game}.{exc.field or 'game'}", exc))

    # --- days and records --------------------------------------------------------------------

    def day_list(self, event, days) -> None:
        if not isinstance(days, list):
            self.problems.append(_at("days", _cited(_("a list is required"))))
            return
        previous = None
        for i, spec in enumerate(days):
            where = f"days[{i}]"
            try:
                date = datetime.date.fromisoformat(spec["date"])
            except (TypeError, KeyError, ValueError):
                self.problems.append(_at(f"{where}.date", _cited(_("a date (YYYY-MM-DD) is required"))))
                return
            if previous and date <= previous:
                self.problems.append(
                    _at(
                        f"{where}.date",
                        _cited(
                            _("days must be in date order, %(date)s comes after %(previous)s")
                            % {"date": date.isoformat(), "previous": previous.isoformat()}
                        ),
                    )
                )
                return
            previous = date
            day = self.day(event, spec, where, date)
            if day is None:
                return
            records = spec.get("records", [])
            if not isinstance(records, list):
                self.problems.append(_at(f"{where}.records", _cited(_("a list is required"))))
                return
            if day.status == GamingDay.Status.SETUP and records:
                self.problems.append(
                    _at(
                        f"{where}.records", _cited(_("a day still in setup has no records"), gettext_lazy("gaming day"))
                    )
                )
                return
            for n, record in enumerate(records, start=1):
                self.checked.advance()
                kind = record.get("type") if isinstance(record, dict) else None
                try:
                    if not isinstance(record, dict):
                        raise RuleViolation(Words(N_("a record is an object")), FORMAT, code="import.record_not_object")
                    self.apply(day, record)
                except RuleViolation as exc:
                    named = kind[:40] if isinstance(kind, str) else shown(kind)
                    self.problems.append(
                        _("record %(n)s (%(date)s, %(type)s): %(problem)s")
                        % {"n": n, "date": date.isoformat(), "type": named, "problem": exc}
                    )
            if spec.get("status") == "reconciling":
                try:
                    services.day_reconcile(day=day)
                except RuleViolation as exc:
                    self.problems.append(_at(f"{where}.status", exc))

    def day(self, event, spec: dict, where: str, date: datetime.date) -> GamingDay | None:
        """Add the gaming day with its opening hours and roster (extensions), then open it unless the
        file says it is still in setup: opening checks the roster as the window does (T&C 2, every
        designated position present continuously while the day's hours run)."""
        problems_before = len(self.problems)
        opens_at = _time_of_day(spec.get("opens_at"), f"{where}.opens_at", self.problems)
        closes_at = _time_of_day(spec.get("closes_at"), f"{where}.closes_at", self.problems)
        status = spec.get("status")
        # A status that is no word at all ([], {}) is refused as one that is not a status.
        if status is not None and (not isinstance(status, str) or status not in DAY_STATUSES):
            self.problems.append(
                _at(
                    f"{where}.status",
                    _("%(value)s is not one of %(statuses)s")
                    % {"value": shown(status), "statuses": ", ".join(sorted(DAY_STATUSES))},
                )
            )
        shifts = spec.get("shifts", [])
        if not isinstance(shifts, list):
            self.problems.append(_at(f"{where}.shifts", _("a list is required")))
        if len(self.problems) > problems_before:
            return None
        try:
            day = event_services.day_add(event=event, date=date, opens_at=opens_at, closes_at=closes_at)
        except RuleViolation as exc:
            self.problems.append(_at(f"{where}.date", exc))
            return None
        for j, shift in enumerate(shifts):
            try:
                if not isinstance(shift, dict):
                    raise RuleViolation(Words(N_("a shift is an object")), FORMAT, code="import.shift_not_object")
                if shift.get("role") not in Role.values:
                    raise RuleViolation(
                        Words(N_("role: %(value)s is not a role"), value=repr(shift.get("role"))),
                        gettext_lazy("roster"),
                        code="import.unknown_role",
                    )
                event_services.shift_add(
                    day=day,
                    person=self.person(shift.get("person")),
                    role=shift.get("role"),
                    starts_at=_when(shift.get("starts_at"), "starts_at"),
                    ends_at=_when(shift.get("ends_at"), "ends_at"),
                )
            except RuleViolation as exc:
                self.problems.append(_at(f"{where}.shifts[{j}]", exc))
            except ValidationError as exc:
                self.problems.append(_at(f"{where}.shifts[{j}]", _messages(exc)))
        if len(self.problems) > problems_before:
            return None
        if status != "setup":
            try:
                day = event_services.day_open(day=day, records_file=True)
            except RuleViolation as exc:
                self.problems.append(_at(f"{where}.date", exc))
                return None
        # What the import remembers of the day (cage.services.memo): its row is read afresh, and it
        # holds no slip yet. The accounts, their balances, the serials and the tables are kept.
        remembered.day_added(day)
        return day

    def person(self, person_id) -> Person:
        person = self.people.get(person_id) if isinstance(person_id, str) else None
        if person is None:
            raise RuleViolation(
                Words(N_("no person with id %(id)s in people"), id=shown(person_id)),
                FORMAT,
                code="import.unknown_person",
            )
        return person

    def table(self, table_id):
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise RuleViolation(
                Words(N_("no table %(id)s"), id=shown(table_id)),
                gettext_lazy("cage-records/1: tables"),
                code="import.unknown_table",
            )
        return table

    def apply(self, day: GamingDay, record: dict) -> None:
        kind = record.get("type")
        slip_kind = SLIP_KINDS.get(kind) if isinstance(kind, str) else None
        if slip_kind is None:
            raise RuleViolation(
                Words(N_("unknown record type %(type)s"), type=shown(kind)),
                gettext_lazy("cage-records/1: record types"),
                code="import.unknown_record_type",
            )
        currency, tender = record.get("currency", "CAD"), record.get("tender", "cash")
        if not isinstance(currency, str) or not isinstance(tender, str):
            raise RuleViolation(
                Words(
                    N_("currency and tender are text, not %(currency)s and %(tender)s"),
                    currency=shown(currency),
                    tender=shown(tender),
                ),
                FORMAT,
                code="import.tender_not_text",
            )
        if currency != "CAD" or tender != "cash":
            services.ledger.check_tender(currency, tender)
        at = _when(record.get("at"), "at")
        signed = record.get("signed")
        if not isinstance(signed, dict):
            raise RuleViolation(
                Words(N_("signed: an object of capacity: person id is required")), FORMAT, code="import.bad_signed"
            )
        ref = record.get("ref")
        if ref is not None and (not isinstance(ref, str) or ref in self.refs):
            raise RuleViolation(
                Words(N_("ref %(ref)s must be a string unique in the file"), ref=shown(ref)),
                FORMAT,
                code="import.bad_ref",
            )
        common = {"day": day, "at": at, "signed": {c: self.person(p) for c, p in signed.items()}, "ref": ref or ""}
        # Extensions an exported event carries: signatures made after the slip was written, and a
        # slip still waiting for some (as at the window, where they follow from the DRIC's queue).
        if record.get("signed_at") is not None:
            common["signed_at"] = self.signed_at(record["signed_at"], signed)
        pending = record.get("pending", False)
        if not isinstance(pending, bool):
            raise RuleViolation(
                Words(N_("pending: %(value)s must be true or false"), value=repr(pending)),
                FORMAT,
                code="import.bad_pending",
            )
        if pending:
            common["allow_pending"] = True
        if record.get("paper") is not None:
            common["paper"] = self.paper(record["paper"])
        service = getattr(services, slip_kind.service)
        fields = self.fields(slip_kind, record, common)
        if _takes_records_file(service):
            # The format's close_day, with what the format says it needs (cage.services.day); its
            # tip_payout, with the hours it gives and no roster to hold them to; its redemption,
            # without the window's bound while a table is open (ledger.check_redeemable).
            fields["records_file"] = True
        try:
            slip = service(**fields, **common)
        except RuleViolation as exc:
            # The window's services cite the limits as a cashier knows them; a file's amounts
            # are the format's, and its problem lines cite the format's section: the same refusal
            # (its code), citing another rule.
            if exc.rule_code != AMOUNT_LIMITS_RULE.code:
                raise
            raise RuleViolation(exc.words or exc.message_text, AMOUNTS_RULE, code=exc.code, field=exc.field) from exc
        if ref:
            self.refs[ref] = slip
        if record.get("refused") is not None:
            self.refused(slip, record)
        if record.get("bank_slip") is not None:
            self.bank_slip(slip, record["bank_slip"])
        if record.get("cheque") is not None:
            self.later_cheques.append((cheques.cheque_enter, self.cheque(slip, record["cheque"]), slip.number))

    def paper(self, paper) -> dict:
        """A slip entered from a paper slip (an extension): {"serial": "P-0012", "entered_by": person
        id, "entered_at": date-time}, kept on the slip as the window keeps it."""
        if (
            not isinstance(paper, dict)
            or set(paper) != {"serial", "entered_by", "entered_at"}
            or not isinstance(paper["serial"], str)
            or not re.fullmatch(r"P-[0-9]{4,9}", paper["serial"])
        ):
            raise RuleViolation(
                Words(N_('paper: {"serial": "P-0012", "entered_by": person id, "entered_at": date-time} is required')),
                FORMAT,
                code="import.bad_paper",
            )
        by = self.person(paper["entered_by"])
        at = _when(paper["entered_at"], "paper.entered_at")
        return {"serial": paper["serial"], "entered_by": by.code, "entered_at": at.astimezone(datetime.UTC).isoformat()}

    BANK_SLIP_KEYS = {"number", "stamped_on", "entered_by", "entered_at"}
    CHECKED_KEYS = {"checked_by", "checked_at"}

    def bank_slip(self, slip, spec) -> None:
        """A deposit's bank deposit slip (an extension): {"number", "stamped_on", "entered_by",
        "entered_at"}, and "checked_by" and "checked_at" once the DRIC checked it; entered and
        checked by the services of the trust account's page, held to their rules."""
        keys = set(spec) if isinstance(spec, dict) else set()
        if (
            slip.slip_type not in DEPOSITS
            or not self.BANK_SLIP_KEYS <= keys <= self.BANK_SLIP_KEYS | self.CHECKED_KEYS
            or len(keys & self.CHECKED_KEYS) == 1
            or not isinstance(spec["number"], str)
        ):
            raise RuleViolation(
                Words(
                    N_(
                        'bank_slip: a deposit\'s {"number", "stamped_on", "entered_by", "entered_at"} is required, '
                        'with "checked_by" and "checked_at" once checked'
                    )
                ),
                FORMAT,
                code="import.bad_bank_slip",
            )
        entered = bank_slips.bank_slip_enter(
            deposit=slip,
            number=spec["number"],
            stamped_on=_date(spec["stamped_on"], "bank_slip.stamped_on"),
            person=self.person(spec["entered_by"]),
            at=_when(spec["entered_at"], "bank_slip.entered_at"),
        )
        if "checked_by" in spec:
            bank_slips.bank_slip_check(
                bank_slip=entered,
                person=self.person(spec["checked_by"]),
                at=_when(spec["checked_at"], "bank_slip.checked_at"),
            )

    CHEQUE_KEYS = {"number", "written_on", "payee", "entered_by", "entered_at"}

    def cheque(self, slip, spec) -> dict:
        """The trust account's cheque that pays an expense (an extension): {"number", "written_on",
        "payee", "entered_by", "entered_at"}, read as the service of the trust account's page takes
        it (cheques_entered enters it, held to that service's rules)."""
        if (
            slip.slip_type not in EXPENSES
            or not isinstance(spec, dict)
            or set(spec) != self.CHEQUE_KEYS
            or not all(isinstance(spec[k], str) for k in ("number", "payee"))
        ):
            raise RuleViolation(
                Words(
                    N_(
                        'cheque: an expense\'s {"number", "written_on", "payee", "entered_by", "entered_at"} is required'
                    )
                ),
                FORMAT,
                code="import.bad_cheque",
            )
        return {
            "expense": slip,
            "number": spec["number"],
            "written_on": _date(spec["written_on"], "cheque.written_on"),
            "payee": spec["payee"],
            "person": self.person(spec["entered_by"]),
            "at": _when(spec["entered_at"], "cheque.entered_at"),
        }

    def cheques_entered(self) -> None:
        """The cheques read with their expenses and for the approved purposes, entered in the order
        they were (entered_at)."""
        for enter, cheque, paying in sorted(self.later_cheques, key=lambda c: c[1]["at"]):
            try:
                enter(**cheque)
            except RuleViolation as exc:
                self.problems.append(
                    _("cheque %(number)s for %(paying)s: %(problem)s")
                    % {"number": cheque["number"], "paying": paying, "problem": exc}
                )

    DISBURSEMENT_KEYS = {"purpose", "number", "written_on", "payee", "amount", "entered_by", "entered_at"}

    def proceeds(self, event, spec: dict) -> None:
        """The charitable purposes the licence approved (an extension: `approved_purposes`, their
        names), added through the trust page's service, and the cheques that used the proceeds for
        them (`disbursements`), entered with the other cheques once every deposit is in."""
        names, spent = spec.get("approved_purposes", []), spec.get("disbursements", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            self.problems.append(_at("event.approved_purposes", _cited(_("a list of names is required"))))
            return
        purposes = {}
        for i, name in enumerate(names):
            try:
                purpose = purpose_add(event=event, name=name)
            except RuleViolation as exc:
                self.problems.append(_at(f"event.approved_purposes[{i}]", exc))
            else:
                purposes[purpose.name] = purpose
        for i, d in enumerate(spent if isinstance(spent, list) else [None]):
            if not isinstance(d, dict) or set(d) != self.DISBURSEMENT_KEYS or d["purpose"] not in purposes:
                self.problems.append(
                    _at(
                        f"event.disbursements[{i}]",
                        _cited(
                            _("an object of %(keys)s, its purpose one of approved_purposes, is required")
                            % {"keys": ", ".join(sorted(self.DISBURSEMENT_KEYS))}
                        ),
                    )
                )
                continue
            try:
                cheque = {
                    "purpose": purposes[d["purpose"]],
                    "number": d["number"],
                    "written_on": _date(d["written_on"], f"event.disbursements[{i}].written_on"),
                    "payee": d["payee"],
                    "amount": _cents(d["amount"], f"event.disbursements[{i}].amount"),
                    "person": self.person(d["entered_by"]),
                    "at": _when(d["entered_at"], f"event.disbursements[{i}].entered_at"),
                }
            except RuleViolation as exc:
                self.problems.append(_at(f"event.disbursements[{i}]", exc))
                continue
            self.later_cheques.append((cheques.disbursement_enter, cheque, d["purpose"]))

    def refused(self, slip, record: dict) -> None:
        """An exported slip the DRIC refused (an extension): {"by": person id, "at", "reason"}."""
        refused = record["refused"]
        if not SLIP_KINDS[slip.slip_type].dric_moves or not isinstance(refused, dict) or not record.get("pending"):
            raise RuleViolation(
                Words(
                    N_(
                        'refused: only a void, deposit, expense or float still waiting (pending) is refused, as {"by": '
                        'person id, "at", "reason"}'
                    )
                ),
                FORMAT,
                code="import.bad_refused",
            )
        services.refuse(
            slip=slip,
            person=self.person(refused.get("by")),
            reason=refused.get("reason") if isinstance(refused.get("reason"), str) else "",
            at=_when(refused.get("at"), "refused.at"),
        )

    def signed_at(self, times, signed: dict) -> dict:
        if not isinstance(times, dict):
            raise RuleViolation(
                Words(N_("signed_at: an object of capacity: date-time is required")),
                FORMAT,
                code="import.bad_signed_at",
            )
        for capacity in times:
            if capacity not in signed:
                raise RuleViolation(
                    Words(N_("signed_at: %(capacity)s is not signed on this record"), capacity=repr(capacity)),
                    FORMAT,
                    code="import.signed_at_unsigned_capacity",
                )
        return {capacity: _when(value, f"signed_at.{capacity}") for capacity, value in times.items()}

    def fields(self, kind, r: dict, c: dict) -> dict:
        """A record's fields as the slip type's service takes them (the cage form does the same
        from what a cashier typed): one reading per field of the declaration (cage.slip_fields)."""
        kwargs = {}
        for slip_field in kind.fields:
            kwargs.update(slip_field.from_record(self, kind, r, c))
        return kwargs

    # What the fields read a record with (cage.slip_fields).
    def cents(self, value, what="cash") -> int:
        return _cents(value, what)

    def text(self, record: dict, name: str) -> str:
        return _optional_text(record, name)

    def count_details(self, r: dict, cash: int | None) -> dict:
        """What a count at the window keeps beside its figures (extensions): the reason chosen from
        the reconciliation's list, and bank cash by bill and coin."""
        kwargs = {}
        choice = r.get("variance_reason")
        if choice is not None:
            # Anything but one of the list's words (a list, a number) is refused, never looked up.
            if not isinstance(choice, str) or choice not in VARIANCE_REASONS:
                raise RuleViolation(
                    Words(
                        N_("variance_reason: %(value)s is not one of %(reasons)s"),
                        value=repr(choice),
                        reasons=", ".join(VARIANCE_REASONS),
                    ),
                    gettext_lazy("nightly reconciliation: every variance explained"),
                    code="import.bad_variance_reason",
                )
            kwargs["variance_reason"] = choice
        lines = r.get("cash_lines")
        if lines is not None:
            pieces = {p.cents for p in BillsAndCoins.DENOMINATIONS}
            if not isinstance(lines, list) or not all(isinstance(line, dict) for line in lines):
                raise RuleViolation(
                    Words(N_('cash_lines: a list of {"unit": "20.00", "count": 5} is required')),
                    FORMAT,
                    code="import.bad_cash_lines",
                )
            read = []
            for line in lines:
                unit = _cents(line.get("unit"), "cash_lines unit")
                count = line.get("count")
                if unit not in pieces:
                    raise RuleViolation(
                        Words(N_("cash_lines: %(unit)s is not a Canadian bill or coin"), unit=line.get("unit")),
                        COUNT,
                        code="import.bad_cash_unit",
                    )
                if isinstance(count, bool) or not isinstance(count, int) or not 0 < count <= MAX_CHIP_COUNT:
                    raise RuleViolation(
                        Words(N_("cash_lines: %(count)s is not a whole number of pieces"), count=repr(count)),
                        COUNT,
                        code="import.bad_cash_count",
                    )
                read.append({"unit_cents": unit, "count": count})
            if sum(line["unit_cents"] * line["count"] for line in read) != (cash or 0):
                raise RuleViolation(
                    Words(N_("cash_lines: the bills and coins do not add up to the cash counted")),
                    COUNT,
                    code="import.cash_lines_total_differs",
                )
            kwargs["cash_lines"] = read
        return kwargs

    def hours(self, hours) -> list:
        if not isinstance(hours, dict) or not hours:
            raise RuleViolation(
                Words(N_("hours: an object of dealer id: hours is required")), "T&C 2.6", code="import.bad_hours_object"
            )
        return [(self.person(person_id), _hours(person_id, worked)) for person_id, worked in hours.items()]

    def counted(self, event, account_id) -> Account:
        if account_id in ("bank_cash", "chip_bank"):
            return services.account_get(event, account_id)
        runner = self.person(account_id)
        if Role.RUNNER not in runner.role_codes():
            raise RuleViolation(
                Words(N_("%(id)s is not a runner; counts are of bank_cash, chip_bank or a runner"), id=account_id),
                COUNT,
                code="import.count_place_not_runner",
            )
        return services.account_get(event, Account.Kind.RUNNER, person=runner)
