"""Writes to an event's setup. Views and the records importer both call these; neither saves
an event model itself, so each rule below is met whichever way the data comes in."""

import datetime
import itertools
import re
import reprlib
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.db.models import Case, DateTimeField, F, Value, When
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import games
from .compliance import ADULT_AGE, describe_gap, roster_gaps, underage
from .models import (
    DESIGNATED,
    Assignment,
    ChipDenomination,
    Event,
    GameTable,
    GamingDay,
    Licensee,
    Person,
    Role,
    Shift,
    SigningPin,
)
from .rules import RuleViolation


def licensee_get_or_create(*, name: str, address: str = "", charitable_number: str = "") -> Licensee:
    licensee = Licensee.objects.filter(name=name).first()
    if licensee is None:
        # Checked like every other setup row: a name too long for its column is refused here,
        # not by the database (PostgreSQL would fail the whole transaction).
        licensee = Licensee(name=name, address=address, charitable_registration_number=charitable_number)
        licensee.full_clean()
        licensee.save()
    return licensee


def event_create(
    *,
    licensee: Licensee,
    slug: str,
    name: str,
    licence_number: str,
    venue: str,
    first_day: datetime.date,
    last_day: datetime.date,
    supplier: str,
    games_authorized: list[str],
    supplier_registration_number: str = "",
    licensing_authority: str = "",
) -> Event:
    if Event.objects.filter(slug=slug).exists():
        raise RuleViolation(f"An event {slug!r} already exists", "one event per slug", field="slug")
    unknown = [code for code in games_authorized if code not in games.REGISTRY]
    if unknown:
        raise RuleViolation(
            f"No game module for {', '.join(unknown)}; known: {', '.join(games.REGISTRY)}",
            "T&C 1.5.1",
            field="games",
        )
    event = Event(
        licensee=licensee,
        slug=slug,
        name=name,
        licence_number=licence_number,
        venue=venue,
        first_day=first_day,
        last_day=last_day,
        supplier=supplier,
        supplier_registration_number=supplier_registration_number,
        games=list(dict.fromkeys(games_authorized)),
    )
    if licensing_authority:
        event.licensing_authority = licensing_authority
    event.full_clean()
    event.save()
    return event


def table_create(*, event: Event, code: str, game: str) -> GameTable:
    if not isinstance(game, str) or game not in event.games:
        name = games.REGISTRY[game].name_en if isinstance(game, str) and game in games.REGISTRY else repr(game)
        raise RuleViolation(
            f"The licence does not authorize {name}; a table can only be set up for "
            f"{', '.join(event.game_names()) or 'no game'}",
            "T&C 1.5.1",
            field="game",
        )
    if event.tables.filter(code=code).exists():
        raise RuleViolation(f"Table {code} already exists", "one table per id", field="code")
    table = GameTable(event=event, code=code, game=game)
    table.full_clean()
    table.save()
    return table


# A chip's value, as the records format writes it: plain ASCII digits, at most two decimals, at
# most the amount one record may carry (cage-records/1: amounts).
DOLLARS = re.compile(r"([0-9]{1,8})(?:\.([0-9]{1,2}))?")
MOST_DOLLARS_CENTS = 10_000_000_00


def parse_dollars(text: str, *, rule: str = "cents", field: str | None = None) -> int:
    """Dollars as a string of digits with at most two decimals ("5", "0.50"), to integer cents."""
    match = DOLLARS.fullmatch(text) if isinstance(text, str) else None
    shown = reprlib.repr(text)
    if match is None and isinstance(text, str) and re.fullmatch(r"[0-9]+\.[0-9]{3,}", text):
        raise RuleViolation(_("%(value)s has more than two decimals") % {"value": shown}, rule, field=field)
    if match is None:
        raise RuleViolation(
            _(
                "%(value)s is not an amount of dollars written with the digits 0 to 9 and at most two "
                'decimals, such as "5" or "0.50" (no sign, exponent or separators)'
            )
            % {"value": shown},
            rule,
            field=field,
        )
    cents = int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))
    if cents > MOST_DOLLARS_CENTS:
        raise RuleViolation(
            _("%(value)s is more than 10000000.00, the most one amount may be") % {"value": shown}, rule, field=field
        )
    return cents


def denomination_add(*, event: Event, value: str, colour: str = "", key: str | None = None) -> ChipDenomination:
    cents = parse_dollars(value, rule="chip set", field="value")
    if cents <= 0:
        raise RuleViolation(f"A chip's value must be positive, not {value}", "chip set", field="value")
    if event.denominations.filter(value_cents=cents).exists():
        raise RuleViolation(f"The chip set already has a ${value} chip", "chip set", field="value")
    denomination = ChipDenomination(
        event=event,
        value_cents=cents,
        key=key or ChipDenomination.key_for(Decimal(cents) / 100),
        colour=colour,
    )
    denomination.full_clean()
    denomination.save()
    return denomination


def person_add(
    *,
    event: Event,
    code: str,
    name: str,
    born_on: datetime.date,
    identification: str = "",
    supplier_associated: bool = False,
    registration: str = Person.Registration.GOOD,
    gaming_assistant_number: str = "",
    user=None,
) -> Person:
    person = Person(
        event=event,
        code=code,
        name=name,
        born_on=born_on,
        identification=identification,
        supplier_associated=supplier_associated,
        registration=registration,
        gaming_assistant_number=gaming_assistant_number,
        user=user,
    )
    if underage(person, event):
        raise RuleViolation(
            f"{name} is {person.age_on(event.first_day)} on the event's first day; nobody under "
            f"{ADULT_AGE} may operate or supervise a game",
            "T&C 1.5.2",
            field="born_on",
        )
    if registration != Person.Registration.GOOD:
        raise RuleViolation(
            f"{name}'s registration was {registration}; such a person may not take part",
            "T&C 2.3",
            field="registration",
        )
    if event.people.filter(code=code).exists():
        raise RuleViolation(f"Person id {code!r} is taken", "one id per person", field="code")
    person.full_clean()
    person.save()
    return person


def registration_change(*, person: Person, registration: str) -> Person:
    """Record a change in a person's registration. A refused, revoked or suspended person takes
    no further part (T&C 2.3): they can no longer sign a slip, and the compliance page flags them."""
    if registration not in Person.Registration.values:
        raise RuleViolation(f"unknown registration status {registration!r}", "T&C 2.3", field="registration")
    person.registration = registration
    person.save(update_fields=["registration"])
    return person


def role_assign(*, person: Person, role: str) -> Assignment:
    if role not in Role.values:
        raise RuleViolation(f"Unknown role {role!r}", "roles", field="role")
    held = person.role_codes()
    if role in held:
        raise RuleViolation(f"{person.name} already holds that role", "roles", field="role")
    if role in DESIGNATED:
        if person.supplier_associated:
            raise RuleViolation(
                f"{person.name} is associated with the registered supplier and cannot be {Role(role).label}",
                "T&C 2",
                field="role",
            )
        other = held & set(DESIGNATED)
        if other:
            raise RuleViolation(
                f"{person.name} already holds the position of {Role(other.pop()).label}; "
                "each designated person holds one position",
                "T&C 2",
                field="role",
            )
    if role == Role.DEALER and person.supplier_associated and not person.gaming_assistant_number:
        raise RuleViolation(
            f"{person.name} works for the supplier and must be a registered Gaming Assistant "
            "(no registration number given)",
            "T&C 4.2",
            field="role",
        )
    return Assignment.objects.create(person=person, role=role)


def login_create(*, person: Person, username: str, password: str):
    """A login for a person who signs slips; the password is theirs alone (their signature)."""
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        user = User.objects.create_user(username=username, password=password, first_name=person.name)
    person.user = user
    person.save(update_fields=["user"])
    return user


def day_add(
    *,
    event: Event,
    date: datetime.date,
    opens_at: datetime.time | None = None,
    closes_at: datetime.time | None = None,
) -> GamingDay:
    if not event.first_day <= date <= event.last_day:
        raise RuleViolation(
            f"{date} is outside the licensed dates {event.first_day} to {event.last_day}",
            "T&C 1.3",
            field="date",
        )
    if event.days.filter(date=date).exists():
        raise RuleViolation(f"{date} is already a gaming day", "one gaming day per date", field="date")
    return GamingDay.objects.create(event=event, date=date, opens_at=opens_at, closes_at=closes_at)


def shift_add(
    *, day: GamingDay, person: Person, role: str, starts_at: datetime.datetime, ends_at: datetime.datetime
) -> Shift:
    if person.event_id != day.event_id:
        raise RuleViolation(f"{person.name} is not on this event", "roster", field="person")
    if role not in person.role_codes():
        raise RuleViolation(f"{person.name} does not hold the role of {Role(role).label}", "roster", field="role")
    if ends_at <= starts_at:
        raise RuleViolation("A shift must end after it starts", "roster", field="ends_at")
    shift = Shift(day=day, person=person, role=role, starts_at=starts_at, ends_at=ends_at)
    shift.full_clean()
    shift.save()
    return shift


def day_open(*, day: GamingDay) -> GamingDay:
    """Open a gaming day for postings. Refused while the staffing rules that must hold do not."""
    with transaction.atomic():
        day = GamingDay.objects.select_for_update().get(pk=day.pk)
        if day.status != GamingDay.Status.SETUP:
            raise RuleViolation(f"The gaming day {day.date} is {day.status}, not in setup", "gaming day")
        earlier = day.event.days.filter(date__lt=day.date).exclude(status=GamingDay.Status.CLOSED)
        if earlier.exists():
            raise RuleViolation(f"The gaming day {earlier.first().date} was never closed", "gaming day")
        people = day.event.people.filter(registration=Person.Registration.GOOD)
        for role in DESIGNATED:
            if not people.filter(assignments__role=role).exists():
                raise RuleViolation(
                    f"The event has no {Role(role).label}; three designated persons are required",
                    "T&C 2",
                )
        gaps = roster_gaps(day)
        if gaps:
            listed = "; ".join(describe_gap(role, s, e) for role, spans in gaps.items() for s, e in spans)
            raise RuleViolation(
                f"The roster leaves designated positions empty: {listed}; each must be present continuously",
                "T&C 2",
            )
        day.status = GamingDay.Status.OPEN
        day.save(update_fields=["status"])
        return day


# Signing PINs. On the cage's screen a second signer (the runner taking a fill, the DRIC
# authorizing) signs by typing their own PIN; nobody ever types someone else's password. The PIN
# is its owner's alone: they set it (pin_set), it is stored hashed, and wrong tries lock it.

PIN_RULE = "signing PINs"


def _pin_refusal(pin: str) -> str | None:
    """Why a PIN is too weak to sign with, or None when it will do."""
    if not re.fullmatch(r"[0-9]{4,8}", pin):
        return _("a signing PIN is 4 to 8 digits, and digits only")
    if len(set(pin)) == 1:
        return _("a signing PIN of one digit repeated is too easy to guess")
    steps = {(int(b) - int(a)) % 10 for a, b in itertools.pairwise(pin)}
    if steps in ({1}, {9}):
        return _("a signing PIN of digits in a row, like 1234 or 4321, is too easy to guess")
    return None


def pin_set(*, user, password: str, pin: str) -> SigningPin:
    """The owner sets or changes their signing PIN, giving their current login password (so a
    session left open at the cage cannot set one). A new PIN clears the count of wrong tries and
    any lock."""
    if not user.check_password(password):
        raise RuleViolation(
            _("your current password is wrong; the signing PIN was not changed"), PIN_RULE, field="password"
        )
    refusal = _pin_refusal(pin)
    if refusal:
        raise RuleViolation(refusal, PIN_RULE, field="pin")
    signing_pin, _created = SigningPin.objects.update_or_create(
        user=user,
        defaults={"pin_hash": make_password(pin), "failures": 0, "locked_until": None, "set_at": timezone.now()},
    )
    return signing_pin


def pin_verify(*, person: Person, pin: str) -> None:
    """Check the PIN a person typed to sign; RuleViolation when they cannot sign with it.

    A wrong PIN is counted in the database with one UPDATE: called outside any transaction (as the
    slip form calls it) the count is committed at once and stays even when the caller's own work
    is later rolled back. Called inside transaction.atomic, the count is kept only if that
    transaction commits. SIGNING_PIN_MAX_FAILURES wrong tries in a row lock the PIN for
    SIGNING_PIN_LOCK_MINUTES; while it is locked even the right PIN is refused. A right PIN sets
    the count back to 0.
    """
    name = person.name
    user = person.user
    if user is None:
        raise RuleViolation(_("%(name)s has no login and cannot sign") % {"name": name}, PIN_RULE)
    if not user.is_active:
        raise RuleViolation(_("%(name)s's login is inactive; they cannot sign") % {"name": name}, PIN_RULE)
    if person.registration != Person.Registration.GOOD:
        raise RuleViolation(
            _("%(name)s's registration is %(registration)s; they may not take part")
            % {"name": name, "registration": person.get_registration_display().lower()},
            "T&C 2.3",
        )
    if not isinstance(pin, str) or not re.fullmatch(r"[0-9]{4,8}", pin):
        # Not a PIN at all (letters, full-width digits, a NUL...): refused without a try counted,
        # as nobody guesses a PIN that way.
        raise RuleViolation(
            _("%(name)s's signing PIN is 4 to 8 digits 0 to 9; what was typed is not a PIN") % {"name": name},
            PIN_RULE,
            field="pin",
        )
    signing_pin = SigningPin.objects.filter(user=user).first()
    if signing_pin is None:
        raise RuleViolation(
            _("%(name)s has not set a signing PIN; they set it on their own page, or sign from their own session")
            % {"name": name},
            PIN_RULE,
        )
    limit = settings.SIGNING_PIN_MAX_FAILURES
    now = timezone.now()
    if signing_pin.locked_until is not None:
        if signing_pin.locked_until > now:
            raise _pin_locked(name, limit, signing_pin.locked_until)
        # The lock has run out: the count starts again.
        SigningPin.objects.filter(pk=signing_pin.pk, locked_until__lte=now).update(failures=0, locked_until=None)
    if check_password(pin, signing_pin.pin_hash):
        SigningPin.objects.filter(pk=signing_pin.pk).exclude(failures=0).update(failures=0)
        return
    until = now + datetime.timedelta(minutes=settings.SIGNING_PIN_LOCK_MINUTES)
    # One statement, so two wrong tries at once both count; its right-hand sides read the row
    # as it was, so the try that brings the count to the limit sets the lock.
    SigningPin.objects.filter(pk=signing_pin.pk).update(
        failures=F("failures") + 1,
        locked_until=Case(
            When(failures__gte=limit - 1, then=Value(until, output_field=DateTimeField())),
            default=F("locked_until"),
        ),
    )
    signing_pin.refresh_from_db(fields=["failures", "locked_until"])
    if signing_pin.locked_until is not None and signing_pin.locked_until > now:
        raise _pin_locked(name, limit, signing_pin.locked_until)
    left = limit - signing_pin.failures
    raise RuleViolation(
        ngettext(
            "the signing PIN of %(name)s is wrong; %(left)s try left",
            "the signing PIN of %(name)s is wrong; %(left)s tries left",
            left,
        )
        % {"name": name, "left": left},
        PIN_RULE,
        field="pin",
    )


def _pin_locked(name: str, limit: int, until: datetime.datetime) -> RuleViolation:
    return RuleViolation(
        ngettext(
            "%(name)s's signing PIN is locked after %(n)s wrong try; try again at %(time)s, "
            "or sign from their own session",
            "%(name)s's signing PIN is locked after %(n)s wrong tries; try again at %(time)s, "
            "or sign from their own session",
            limit,
        )
        % {"name": name, "n": limit, "time": date_format(timezone.localtime(until), "H:i")},
        PIN_RULE,
        field="pin",
    )
