"""Writes to an event's setup. Views and the records importer both call these; neither saves
an event model itself, so each rule below is met whichever way the data comes in."""

import datetime
import itertools
import re
import reprlib
import secrets
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.conf import settings
from django.contrib.auth import get_user_model, update_session_auth_hash
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import gettext_noop as N_
from django.utils.translation import pgettext_lazy

from core.compiled import Compiled
from core.local import moment, zone_name
from core.money import face
from core.rules import ClockZone, Lower, N_plural, RuleViolation, Several, When, Words, cite
from core.trail import record

from . import game_rules, games, lockout, readiness, wheel_layouts
from .compliance import ADULT_AGE, underage
from .designation import check_not_administrator, check_one_hat, check_takes_part
from .game_text import refusal_words, section_lazy
from .games import wheel_of_fortune
from .models import (
    AUTHORITY_NAMES,
    DESIGNATED,
    Appointment,
    Assignment,
    Authority,
    ChipDenomination,
    Event,
    GameSettings,
    GameTable,
    GamingDay,
    Licensee,
    LoginSetup,
    Person,
    Role,
    Shift,
    SigningPin,
    game_name,
    games_of,
)
from .report_due import check_report_due
from .trust_account import check_opening_balance, check_trust_account

# The product's own rules, named in refusals beside the terms and conditions' sections.
ONE_EVENT_PER_SLUG = _lazy("one event per slug")
ONE_TABLE_PER_ID = _lazy("each table code used once")
TABLE_CODE = _lazy("table codes")
# ASCII letters, digits and hyphens: a code is printed on posters and in file names ("BAC 2" once
# became the poster file BAC-2, another table's), and read aloud at the cage.
TABLE_CODE_CHARACTERS = re.compile(r"[A-Za-z0-9-]+")
CHIP_SET = _lazy("chip set")
CENTS = _lazy("cents")
ONE_ID_PER_PERSON = _lazy("one id per person")
ROLES = _lazy("roles")
ROSTER = _lazy("roster")
ONE_DAY_PER_DATE = _lazy("one gaming day per date")
GAMING_DAY = _lazy("gaming day")
# The signing PIN's own hasher (events/hashers.py), named as PASSWORD_HASHERS lists it.
PIN_HASHER = "argon2pin"


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
    authority: str = Authority.AGCO,
    tables_licensed: dict | None = None,
    trust_account: tuple[str, str, str] = ("", "", ""),
    trust_opening_balance: int | None = None,
    report_due_on: datetime.date | None = None,
) -> Event:
    """A new event; `trust_account`: its trust account's bank, branch and last four digits, or
    none yet (events.trust_account), and its opening balance in cents; `report_due_on`: the financial report's due date, as the
    licence sets it (events.report_due)."""
    _check_new_event(slug, games_authorized, authority)
    trust_bank, trust_branch, trust_last_four = check_trust_account(*trust_account)
    check_report_due(report_due_on, last_day)
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
        authority=authority,
        licensing_authority=licensing_authority or AUTHORITY_NAMES[authority],
        trust_bank=trust_bank,
        trust_branch=trust_branch,
        trust_account_last_four=trust_last_four,
        trust_opening_balance=check_opening_balance(trust_opening_balance),
        report_due_on=report_due_on,
    )
    event.full_clean()
    event.save()
    record(
        "event_created",
        N_("Event %(slug)s set up: %(name)s"),
        {"slug": slug, "name": name},
        event=event,
        new={
            "slug": slug,
            "name": name,
            "licensee": licensee.name,
            "licence_number": licence_number,
            "venue": venue,
            "first_day": first_day,
            "last_day": last_day,
            "supplier": supplier,
            "games": event.games,
            "authority": authority,
            **({"trust_account": [trust_bank, trust_branch, trust_last_four]} if trust_bank else {}),
        },
    )
    for game, count in (tables_licensed or {}).items():
        tables_licensed_set(event=event, game=game, count=count)
    return event


def _check_new_event(slug: str, games_authorized: list[str], authority: str) -> None:
    """A new event's slug is its own, and its licence names known games of its own authority."""
    if Event.objects.filter(slug=slug).exists():
        raise RuleViolation(
            Words(N_("An event %(slug)s already exists"), slug=repr(slug)),
            ONE_EVENT_PER_SLUG,
            field="slug",
            code="event.slug_taken",
        )
    unknown = [code for code in games_authorized if code not in games.REGISTRY]
    if unknown:
        raise RuleViolation(
            Words(
                N_("No game module for %(unknown)s; known: %(known)s"),
                unknown=", ".join(unknown),
                known=", ".join(games.REGISTRY),
            ),
            "T&C 1.5.1",
            field="games",
            code="event.game_unknown",
        )
    if authority not in Authority.values:
        raise RuleViolation(
            Words(
                N_("unknown licensing authority %(authority)s; one of %(known)s"),
                authority=repr(authority),
                known=", ".join(Authority.values),
            ),
            "T&C 1.3",
            field="authority",
            code="event.authority_unknown",
        )
    for code in games_authorized:
        check_game_of_authority(authority, code, field="games")


def supplier_registration_set(*, event: Event, number: str) -> Event:
    """The registered supplier's registration number, as the licensee's administrator enters it
    from the supplier's papers (T&C 4.1); the new event's form leaves it to later, and the first
    gaming day does not open without it (events.readiness)."""
    number = (number or "").strip()
    if not number:
        raise RuleViolation(
            Words(
                N_(
                    "enter the registered supplier's registration number: equipment is rented only from a "
                    "supplier registered under the Gaming Control Act, 1992"
                )
            ),
            "T&C 4.1",
            field="supplier_registration_number",
            code="event.supplier_number_blank",
        )
    longest = Event._meta.get_field("supplier_registration_number").max_length
    if len(number) > longest:
        raise RuleViolation(
            Words(N_("a registration number is at most %(longest)s characters"), longest=longest),
            "T&C 4.1",
            field="supplier_registration_number",
            code="event.supplier_number_too_long",
        )
    before = event.supplier_registration_number
    if number == before:
        return event
    event.supplier_registration_number = number
    event.save(update_fields=["supplier_registration_number"])
    record(
        "supplier_registered",
        N_("Registered supplier %(supplier)s: registration number %(number)s"),
        {"supplier": event.supplier, "number": number},
        event=event,
        old={"supplier_registration_number": before},
        new={"supplier_registration_number": number},
    )
    return event


def check_game_of_authority(authority: str, game: str, *, field: str | None = None) -> None:
    """T&C 1.3, 1.5.1, 3.3: a licence authorizes only games played under its own authority's rules."""
    if game in games_of(authority):
        return
    raise RuleViolation(
        Words(
            N_(
                "%(game)s is not played under the rules of play a licence of %(authority)s supplies; it authorizes "
                "%(games)s only"
            ),
            game=game_name(game),
            authority=Authority(authority).label,
            games=", ".join(game_name(code) for code in games_of(authority)),
        ),
        "T&C 1.3, 1.5.1, 3.3",
        field=field,
        code="event.game_not_of_authority",
    )


def check_licensed_game(event: Event, game: str, *, field: str) -> None:
    """The licence authorizes this game (T&C 1.5.1): what its tables and figures are set for."""
    if game not in event.games:
        raise RuleViolation(
            Words(
                N_("The licence does not authorize %(game)s"),
                game=game_name(game) if game in games.REGISTRY else repr(game),
            ),
            "T&C 1.5.1",
            field=field,
            code="event.game_not_licensed",
        )


def tables_licensed_set(*, event: Event, game: str, count) -> Event:
    """The number of tables of a game the licence approves (T&C 1.3), as the administrator enters it
    from the licence; never fewer than the event already has."""
    check_licensed_game(event, game, field="count")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 200:
        raise RuleViolation(
            Words(
                N_("the number of %(game)s tables the licence allows is a whole number from 1 to 200"),
                game=game_name(game),
            ),
            "T&C 1.3",
            field="count",
            code="event.tables_licensed_out_of_range",
        )
    have = event.tables.filter(game=game).count()
    if count < have:
        raise RuleViolation(
            Words(
                N_("the event already has %(have)s %(game)s tables; the licence's number cannot be fewer"),
                have=have,
                game=game_name(game),
            ),
            "T&C 1.3",
            field="count",
            code="event.tables_licensed_below_tables",
        )
    before = dict(event.tables_licensed)
    event.tables_licensed = {**before, game: count}
    event.save(update_fields=["tables_licensed"])
    record(
        "game_settings_set",
        N_("Tables of %(game)s the licence allows: %(count)s"),
        {"count": count, "game": lazy(game_name, str)(game)},
        event=event,
        old={"tables_licensed": before.get(game)},
        new={"tables_licensed": count},
    )
    return event


def table_create(*, event: Event, code: str, game: str, records_file: bool = False) -> GameTable:
    """A table of a licensed game (T&C 1.5.1). `records_file`: a table of a records file, whose
    format names a table by any id: the window's rule on a code's characters is not the format's,
    so no file the format accepts is refused for it."""
    _check_table_game(event, game)
    if not isinstance(code, str) or (not records_file and not TABLE_CODE_CHARACTERS.fullmatch(code)):
        raise RuleViolation(
            Words(
                N_(
                    "Table code %(table)s: a table code holds only letters, digits and hyphens, without spaces, such "
                    "as BAC-2."
                ),
                table=repr(code)[:30],
            ),
            TABLE_CODE,
            field="code",
            code="table.code_invalid",
        )
    existing = event.tables.filter(code__iexact=code).first()
    if existing is not None and existing.code == code:
        raise RuleViolation(
            Words(N_("Table %(table)s already exists"), table=code),
            ONE_TABLE_PER_ID,
            field="code",
            code="table.code_taken",
        )
    if existing is not None:
        raise RuleViolation(
            Words(
                N_(
                    "Table %(table)s would be confused with table %(existing)s: table codes that differ only in capital "
                    "and small letters are the same table. Choose another code."
                ),
                table=code,
                existing=existing.code,
            ),
            ONE_TABLE_PER_ID,
            field="code",
            code="table.code_confusable",
        )
    table = GameTable(event=event, code=code, game=game)
    if games.get_game(game).has_wheel_layout:
        # A new wheel starts with the default layout; the DRIC changes it to the wheel's own.
        table.wheel_layout = wheel_layouts.default_layout()
    table.full_clean()
    table.save()
    record(
        "table_added",
        N_("Table %(table)s set up for %(game)s"),
        {"table": code, "game": lazy(game_name, str)(game)},
        event=event,
        new={"table": code, "game": game},
    )
    return table


def _check_table_game(event: Event, game) -> None:
    """A new table's game is one the licence authorizes, of its authority, with a table to spare."""
    if not isinstance(game, str) or game not in event.games:
        name = game_name(game) if isinstance(game, str) and game in games.REGISTRY else repr(game)
        authorized = event.game_names()
        if authorized:
            refusal, message = (
                "table.game_not_licensed",
                Words(
                    N_("The licence does not authorize %(game)s; a table can only be set up for %(games)s"),
                    game=name,
                    games=", ".join(authorized),
                ),
            )
        else:
            refusal, message = (
                "table.no_game_licensed",
                Words(N_("The licence does not authorize %(game)s; a table can only be set up for no game"), game=name),
            )
        raise RuleViolation(message, "T&C 1.5.1", code=refusal, field="game")
    check_game_of_authority(event.authority, game, field="game")
    allowed = event.tables_licensed.get(game)
    if allowed is not None and event.tables.filter(game=game).count() >= allowed:
        raise RuleViolation(
            Words(
                N_plural(
                    "The licence allows %(n)s table of %(game)s, and the event has it already",
                    "The licence allows %(n)s tables of %(game)s, and the event has them all already",
                ),
                plural_by="n",
                n=allowed,
                game=game_name(game),
            ),
            "T&C 1.3",
            field="game",
            code="table.licence_full",
        )


def wheel_layout_set(*, table: GameTable, layout_text: str) -> GameTable:
    """A wheel table's layout, typed one segment a line, checked against the Wheel of Fortune
    rules (seed 001, rules 2 to 5) before anything is stored; all its refusals are given at once."""
    if not table.game_module.has_wheel_layout:
        raise RuleViolation(
            Words(N_("Table %(table)s is not a wheel of fortune: it has no wheel layout."), table=table.code),
            wheel_layouts.WHEEL_LAYOUT,
            field="layout",
            code="wheel.not_a_wheel",
        )
    layout = wheel_layouts.parse(layout_text, limits_from=table.wheel_layout)
    refused = wheel_of_fortune.check_layout(layout)
    if refused:
        # Every broken rule at once, each sentence once; the refusal cites the sections it applies.
        sections = sorted(
            {r.section for r in refused}, key=lambda section: [int(n) for n in re.findall(r"\d+", section)]
        )
        raise RuleViolation(
            Several(*(refusal_words(r) for r in refused)),
            section_lazy("; ".join(sections)),
            code="wheel.layout_rules_broken",
            field="layout",
        )
    house_keeps(
        {
            _("the symbol %(symbol)s") % {"symbol": game_rules.symbol_text(symbol)}: edge
            for symbol, edge in wheel_of_fortune.house_advantages(layout).items()
        },
        remedy=Words(N_("Put fewer segments of those symbols on the wheel, or pay them less.")),
        field="layout",
    )
    old = table.wheel_layout
    table.wheel_layout = layout
    table.save(update_fields=["wheel_layout"])
    record(
        "wheel_layout_set",
        N_("Wheel layout of table %(table)s set: %(segments)s segments"),
        {"table": table.code, "segments": len(layout["segments"])},
        event=table.event,
        old={"layout": old},
        new={"layout": layout},
    )
    return table


def house_keeps(advantages: dict, *, remedy: str, field: str) -> None:
    """The product's rule HOUSE_KEEPS, for every game it applies to: refused when a bet (keyed by
    its name as the reader says it) leaves the house no advantage. `remedy` is a whole sentence
    saying what to change."""
    losing = [name for name, edge in advantages.items() if edge <= 0]
    if losing:
        raise RuleViolation(
            Several(
                Words(
                    N_(
                        "These bets would pay back on average all they take in, or more, leaving the house no "
                        "advantage: %(bets)s."
                    ),
                    bets=", ".join(str(name) for name in losing),
                ),
                remedy,
            ),
            game_rules.HOUSE_KEEPS,
            field=field,
            code="game_settings.no_house_advantage",
        )


# Bounds on what the administrator may enter: no seed gives any, these only keep out typing slips.
MOST_ODDS_NUMBER = 1000
MOST_COMMISSION = Decimal("25")
ODDS = re.compile(r"([0-9]{1,4}) *(?::| to | à ) *([0-9]{1,4})")


@transaction.atomic
def game_settings_set(*, event: Event, game: str, entered: dict) -> GameSettings:
    """The licence's figures for a game whose seed states none, as its module declares them
    (events.games.base.Setting), entered by the licensee's administrator and posted at every
    table of the game (T&C 3.5). `entered` holds what was typed, by setting name: limits as a
    (minimum, maximum) pair of dollar strings, odds as "8:1", a fraction as a percentage string.
    Every figure is checked before any is kept; a refusal names the field it comes from."""
    rule = game_rules.LICENCE_FIGURES
    check_licensed_game(event, game, field="game")
    declared = games.get_game(game).settings
    if not declared:
        raise RuleViolation(
            Words(
                N_("The rules of play of %(game)s state its limits and odds: there is nothing to enter."),
                game=game_name(game),
            ),
            "T&C 3.3",
            field="game",
            code="game_settings.nothing_to_enter",
        )
    figures = {}
    for setting in declared:
        read = _SETTING_READERS[setting.kind]
        figures[setting.name] = read(setting, entered.get(setting.name), _(setting.label), rule)
    _check_house_keeps(games.get_game(game), figures)
    row, _created = GameSettings.objects.select_for_update().get_or_create(event=event, game=game)
    old = dict(row.figures)
    row.figures = figures
    row.full_clean()
    row.save()
    record(
        "game_settings_set",
        N_("Settings of %(game)s set from the licence"),
        {"game": lazy(game_name, str)(game)},
        event=event,
        old=old,
        new=figures,
    )
    return row


def _read_limits(setting, value, label, rule):
    """A table's limits: a (minimum, maximum) pair of dollar strings, as cents."""
    low, high = value if isinstance(value, (list, tuple)) and len(value) == 2 else ("", "")
    low = parse_dollars(str(low).strip(), rule=rule, field="min_bet")
    high = parse_dollars(str(high).strip(), rule=rule, field="max_bet")
    if low <= 0:
        raise RuleViolation(
            Words(N_("The minimum bet must be more than nothing.")),
            rule,
            field="min_bet",
            code="game_settings.min_bet_zero",
        )
    if high < low:
        raise RuleViolation(
            Words(N_("The maximum bet cannot be less than the minimum bet.")),
            rule,
            field="max_bet",
            code="game_settings.max_below_min",
        )
    return [low, high]


def _read_odds(setting, value, label, rule):
    """Odds as typed, "8:1", as [to, per]."""
    match = ODDS.fullmatch(str(value or "").strip())
    example = "{}:{}".format(*setting.typical)  # the bet's own usual odds: 1:1 for the player
    to, per = (int(match[1]), int(match[2])) if match else (-1, -1)
    if match and to == 0:
        # No seed sets a lowest payout for these bets; a bet that wins nothing is no bet.
        raise RuleViolation(
            Words(
                N_(
                    "%(setting)s: odds of 0 to %(per)s pay nothing; the odds must pay more than nothing, such as "
                    "%(example)s."
                ),
                setting=label,
                per=per,
                example=example,
            ),
            rule,
            field=setting.name,
            code="game_settings.odds_pay_nothing",
        )
    if match and per == 0:
        raise RuleViolation(
            Words(
                N_(
                    "%(setting)s: odds of %(to)s to 0 are not odds; the second number is at least 1, such as "
                    "%(example)s."
                ),
                setting=label,
                to=to,
                example=example,
            ),
            rule,
            field=setting.name,
            code="game_settings.odds_over_zero",
        )
    if not (0 < to <= MOST_ODDS_NUMBER and 0 < per <= MOST_ODDS_NUMBER):
        raise RuleViolation(
            Words(
                N_("%(setting)s: write the odds as two whole numbers, such as %(example)s."),
                setting=label,
                example=example,
            ),
            rule,
            field=setting.name,
            code="game_settings.odds_unreadable",
        )
    return [to, per]


def _read_count(setting, value, label, rule):
    """A whole number from 1 to 99."""
    text = str(value or "").strip()
    if not re.fullmatch(r"[0-9]{1,2}", text) or int(text) < 1:
        raise RuleViolation(
            Words(N_("%(setting)s: a whole number from 1 to 99."), setting=label),
            rule,
            field=setting.name,
            code="game_settings.count_out_of_range",
        )
    return int(text)


def _read_fraction(setting, value, label, rule):
    """A percentage, kept as the exact fraction it stands for."""
    try:
        percent = Decimal(str(value).strip())
    except (ArithmeticError, ValueError):
        percent = None
    if percent is None or not percent.is_finite() or not Decimal(0) <= percent <= MOST_COMMISSION:
        raise RuleViolation(
            Words(N_("%(setting)s: a percentage from 0 to %(most)s."), setting=label, most=MOST_COMMISSION),
            rule,
            field=setting.name,
            code="game_settings.percentage_out_of_range",
        )
    return str(Fraction(percent) / 100)


_SETTING_READERS = {"limits": _read_limits, "odds": _read_odds, "count": _read_count, "fraction": _read_fraction}


def _check_house_keeps(game, figures: dict) -> None:
    """The house keeps an edge on every bet, as the figures entered set its payouts: for a game
    whose payouts are the licence's, its declaration says what to change (Game.house_remedy)."""
    remedy = game.house_remedy
    if remedy is None:
        return
    found = game.house_advantages(figures)
    names = {bet.code: _lazy(bet.in_a_sentence) for bet in game.bets}
    losing = [setting for bet, setting in remedy.settings if found.get(bet, 1) <= 0]
    house_keeps(
        {names[bet]: edge for bet, edge in found.items()},
        remedy=Words(remedy.sentence),
        field=losing[0] if losing else None,
    )


# A chip's value, as the records format writes it: plain ASCII digits, at most two decimals, at
# most the amount one record may carry (cage-records/1: amounts).
DOLLARS = re.compile(r"([0-9]{1,8})(?:\.([0-9]{1,2}))?")
MOST_DOLLARS_CENTS = 10_000_000_00


def parse_dollars(text: str, *, rule=CENTS, field: str | None = None, reader_decimals: bool = False) -> int:
    """Dollars as a string of digits with at most two decimals ("5", "0.50"), to integer cents.
    `reader_decimals`: the caller also reads the reader's decimal comma ("0,50"), so the example
    the refusal gives is written the reader's way."""
    match = DOLLARS.fullmatch(text) if isinstance(text, str) else None
    shown = reprlib.repr(text)
    if match is None and isinstance(text, str) and re.fullmatch(r"[0-9]+\.[0-9]{3,}", text):
        raise RuleViolation(
            Words(N_("%(value)s has more than two decimals"), value=shown),
            rule,
            field=field,
            code="dollars.too_many_decimals",
        )
    if match is None:
        raise RuleViolation(
            Words(
                N_(
                    "%(value)s is not an amount of dollars written with the digits 0 to 9 and at most two "
                    'decimals, such as "5" or "%(cents)s" (no sign, exponent or separators)'
                ),
                value=shown,
                cents=face("0.50") if reader_decimals else "0.50",
            ),
            rule,
            field=field,
            code="dollars.unreadable",
        )
    cents = int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))
    if cents > MOST_DOLLARS_CENTS:
        raise RuleViolation(
            Words(N_("%(value)s is more than 10000000.00, the most one amount may be"), value=shown),
            rule,
            field=field,
            code="dollars.too_large",
        )
    return cents


def denomination_add(*, event: Event, value: str, colour: str = "", key: str | None = None) -> ChipDenomination:
    cents = parse_dollars(value, rule=CHIP_SET, field="value")
    if cents <= 0:
        raise RuleViolation(
            Words(N_("A chip's value must be positive, not %(value)s"), value=value),
            CHIP_SET,
            field="value",
            code="chip_set.value_not_positive",
        )
    existing = event.denominations.filter(value_cents=cents).first()
    if existing is not None:
        raise RuleViolation(
            Words(N_("The chip set already has a %(value)s chip"), value=existing.value_label),
            CHIP_SET,
            field="value",
            code="chip_set.value_taken",
        )
    denomination = ChipDenomination(
        event=event,
        value_cents=cents,
        key=key or ChipDenomination.key_for(Decimal(cents) / 100),
        colour=colour,
    )
    denomination.full_clean()
    denomination.save()
    record(
        "chip_added",
        N_("$%(value)s chip added to the chip set"),
        {"value": denomination.key},
        event=event,
        new={"value": denomination.key, "colour": colour},
    )
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
    supplier_related: bool = False,
    other_activities: bool | None = None,
    terms_acknowledged: bool = False,
) -> Person:
    person = Person(
        event=event,
        code=code,
        name=name,
        born_on=born_on,
        identification=identification,
        supplier_associated=supplier_associated,
        supplier_related=supplier_related,
        other_activities=other_activities,
        terms_acknowledged_at=timezone.now() if terms_acknowledged else None,
        registration=registration,
        gaming_assistant_number=gaming_assistant_number,
        user=user,
    )
    _check_may_take_part(person, event)
    if event.people.filter(code=code).exists():
        raise RuleViolation(
            Words(N_("Person id %(code)s is taken"), code=repr(code)),
            ONE_ID_PER_PERSON,
            field="code",
            code="person.id_taken",
        )
    if user is not None:
        check_not_administrator(person, user)
    person.full_clean()
    person.save()
    record(
        "person_added",
        N_("%(name)s added to the event as %(code)s"),
        {"name": name, "code": code},
        event=event,
        about=person,
        new={
            "code": code,
            "name": name,
            "born_on": born_on,
            "identification": identification,
            "supplier_associated": supplier_associated,
            "supplier_related": supplier_related,
            "other_activities": other_activities,
            "terms_acknowledged": terms_acknowledged,
            "registration": registration,
            "gaming_assistant_number": gaming_assistant_number,
        },
    )
    return person


def _check_may_take_part(person: Person, event: Event) -> None:
    """Of age on the event's first day (T&C 1.5.2), and a registration in good standing (T&C 2.3)."""
    if underage(person, event):
        raise RuleViolation(
            Words(
                N_(
                    "%(name)s is %(age)s on the event's first day; nobody under %(adult)s may operate or supervise a game"
                ),
                name=person.name,
                age=person.age_on(event.first_day),
                adult=ADULT_AGE,
            ),
            "T&C 1.5.2",
            field="born_on",
            code="person.under_age",
        )
    if person.registration != Person.Registration.GOOD:
        shown = (
            Person.Registration(person.registration).label.lower()
            if person.registration in Person.Registration.values
            else repr(person.registration)
        )
        raise RuleViolation(
            Words(
                N_("%(name)s's registration was %(registration)s; such a person may not take part"),
                name=person.name,
                registration=shown,
            ),
            "T&C 2.3",
            field="registration",
            code="person.registration_barred",
        )


DECLARED = ("identification", "supplier_related", "supplier_associated", "other_activities", "gaming_assistant_number")


@transaction.atomic
def person_declarations_set(*, person: Person, terms_acknowledged: bool = False, by=None, **declared) -> Person:
    """What a person declares and shows, recorded for the event (T&C 1.4.4 identification, 1.4.6 the
    terms and conditions brought to their attention, 2 related to or associated with the supplier
    and other activities in the organization, 4.2 a gaming-assistant registration). A declaration
    that a role they hold no longer allows is refused (role_assign's rules), and nothing changes."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    before = {name: getattr(person, name) for name in DECLARED} | {
        "terms_acknowledged": person.terms_acknowledged_at is not None
    }
    for name, value in declared.items():
        if name not in DECLARED:
            raise TypeError(name)
        setattr(person, name, value)
    if terms_acknowledged and person.terms_acknowledged_at is None:
        person.terms_acknowledged_at = timezone.now()
    for role in person.role_codes():
        check_may_hold(person, role)
    person.full_clean()
    person.save()
    after = {name: getattr(person, name) for name in DECLARED} | {
        "terms_acknowledged": person.terms_acknowledged_at is not None
    }
    changed = {k for k in after if after[k] != before[k]}
    if changed:
        record(
            "person_declared",
            N_("%(name)s's declarations recorded"),
            {"name": person.name},
            event=person.event_id,
            about=person,
            old={k: before[k] for k in sorted(changed)},
            new={k: after[k] for k in sorted(changed)},
        )
    return person


def check_may_hold(person: Person, role: str) -> None:
    """What a role asks of the person who holds it, from their declarations: a designated person is
    neither related to nor associated with the supplier and has other activities in the organization
    (T&C 2); everyone the supplier employs on the floor is a registered gaming assistant (T&C 4.2)."""
    if role in DESIGNATED:
        if person.supplier_associated:
            raise RuleViolation(
                Words(
                    N_("%(name)s is associated with the registered supplier and cannot be %(position)s"),
                    name=person.name,
                    position=Role(role).label,
                ),
                "T&C 2",
                field="role",
                code="role.supplier_associated",
            )
        if person.supplier_related:
            raise RuleViolation(
                Words(
                    N_(
                        "%(name)s is related to the registered supplier or one of its employees and cannot be %(position)s"
                    ),
                    name=person.name,
                    position=Role(role).label,
                ),
                "T&C 2",
                field="role",
                code="role.supplier_related",
            )
        if person.other_activities is False:
            raise RuleViolation(
                Words(
                    N_(
                        "%(name)s has no other activities in the organization beyond its lotteries and cannot be "
                        "%(position)s: the licensee designates persons who do"
                    ),
                    name=person.name,
                    position=Role(role).label,
                ),
                "T&C 2",
                field="role",
                code="role.no_other_activities",
            )
    if role in (Role.DEALER, Role.RUNNER) and person.supplier_associated and not person.gaming_assistant_number:
        raise RuleViolation(
            Words(
                N_(
                    "%(name)s works for the supplier and must be a registered Gaming Assistant "
                    "(no registration number given)"
                ),
                name=person.name,
            ),
            "T&C 4.2",
            field="role",
            code="role.supplier_staff_unregistered",
        )


def registration_change(*, person: Person, registration: str) -> Person:
    """Record a change in a person's registration. A refused, revoked or suspended person takes
    no further part (T&C 2.3): they can no longer sign a slip, and the compliance page flags them."""
    if registration not in Person.Registration.values:
        raise RuleViolation(
            Words(N_("unknown registration status %(registration)s"), registration=repr(registration)),
            "T&C 2.3",
            field="registration",
            code="person.registration_unknown",
        )
    before = person.registration
    person.registration = registration
    person.save(update_fields=["registration"])
    record(
        "registration_changed",
        N_("%(name)s's registration: %(old)s to %(new)s"),
        {
            "name": person.name,
            "old": Person.Registration(before).label,
            "new": Person.Registration(registration).label,
        },
        event=person.event_id,
        about=person,
        old={"registration": before},
        new={"registration": registration},
    )
    return person


def event_has_opened(event: Event) -> bool:
    """True once any gaming day of the event has been opened (whatever it is now)."""
    return event.days.exclude(status=GamingDay.Status.SETUP).exists()


def role_assign(*, person: Person, role: str, by) -> Assignment:
    """Give a person a role. `by` is the user doing it; None is the command line (import_records,
    load_demo), whose operator stands for the licensee's administrator.

    Once the event's first gaming day has opened, only the licensee's administrator (a staff user)
    may make someone a designated person: the licensee designates who represents it (T&C 2) and
    who runs its bank as General and Chip Cashier (T&C 2.1). Otherwise one DRIC could make a
    person of her own a cashier in the middle of a day and sign slips with them.
    """
    if role not in Role.values:
        raise RuleViolation(
            Words(N_("Unknown role %(role)s"), role=repr(role)), ROLES, field="role", code="role.unknown"
        )
    held = person.role_codes()
    if role in held:
        raise RuleViolation(
            Words(N_("%(name)s already holds that role"), name=person.name),
            ROLES,
            field="role",
            code="role.already_held",
        )
    if role in DESIGNATED and by is not None and not by.is_staff and event_has_opened(person.event):
        raise RuleViolation(
            Words(
                N_(
                    "only the licensee's administrator may make %(name)s %(position)s once the event's first "
                    "gaming day has opened; the licensee designates its representatives and its cashiers"
                ),
                name=person.name,
                position=Role(role).label,
            ),
            "T&C 2, 2.1",
            field="role",
            code="role.designation_after_opening",
        )
    check_not_administrator(person, field="role")
    check_one_hat(person, role, held)
    check_may_hold(person, role)
    if role in DESIGNATED and by is not None and event_has_opened(person.event):
        # Before the first day, first_day_refusal waits for these; after it, the role itself does.
        refusal = declarations_refusal(person)
        if refusal is not None:
            message, rule, code = refusal
            raise RuleViolation(message, rule, code=code, field="role")
    if role in DESIGNATED:
        other = held & set(DESIGNATED)
        if other:
            raise RuleViolation(
                Words(
                    N_(
                        "%(name)s already holds the position of %(position)s; each designated person holds one position"
                    ),
                    name=person.name,
                    position=Role(other.pop()).label,
                ),
                "T&C 2",
                field="role",
                code="role.one_position",
            )
    assignment = Assignment.objects.create(person=person, role=role)
    record(
        "role_assigned",
        N_("%(name)s given the role of %(role)s"),
        {"name": person.name, "role": Role(role).label},
        event=person.event_id,
        about=person,
        old={"roles": sorted(held)},
        new={"roles": sorted(held | {role})},
    )
    if role in DESIGNATED and person.user_id and by is not None and confirm_needed(person):
        _login_for_confirmation(person)
    _appointed(person, Appointment.Given.ROLE, by, role=role)
    return assignment


def _login_for_confirmation(person: Person) -> None:
    """A person made a designated person once the event has opened, who has a login already: its
    code (or whoever held it) may have set it up, so its setup code waits for another designated
    person's confirmation, and a login already set up is set up afresh with a new code."""
    user = person.user
    if not user.has_usable_password():
        LoginSetup.objects.filter(user=user, used_at__isnull=True).update(person=person, confirm_needed=True)
        return
    user.set_unusable_password()
    user.save(update_fields=["password"])
    SigningPin.objects.filter(user=user).delete()
    LoginSetup.objects.filter(user=user).delete()
    record(
        "setup_code_reissued",
        N_("%(name)s's login %(username)s cleared: a designated person's login is set up afresh"),
        {"name": person.name, "username": user.get_username()},
        event=person.event_id,
        about=person,
        old={"password_set": True},
        new={"password_set": False, "signing_pin_set": False},
    )


def current_open_day(event: Event) -> GamingDay | None:
    """The gaming day under way (open, or reconciling after the floor closed), if any."""
    return event.days.filter(status__in=(GamingDay.Status.OPEN, GamingDay.Status.RECONCILING)).first()


def _appointed(person: Person, given: str, by, *, role: str = "") -> Appointment | None:
    """A role given, or a login set up, while a gaming day is under way, from a page: flagged for a
    second designated person. Not from the command line (`by` None: the role's giver or the
    setup code's maker), whose operator holds the database."""
    if by is None:
        return None
    day = current_open_day(person.event)
    if day is None:
        return None
    return Appointment.objects.create(
        day=day,
        person=person,
        given=given,
        role=role,
        made_by=by if by.is_authenticated else None,
        made_at=timezone.now(),
    )


def _second_designated_person(by: Person, person: Person, *, what: str) -> None:
    """`by` is a designated person of `person`'s event in good standing, and not `person`."""
    if by is None or by.event_id != person.event_id or not by.role_codes() & set(DESIGNATED):
        raise RuleViolation(
            Words(
                N_("only a designated person of the event (DRIC, General Cashier, Chip Cashier) %(what)s"), what=what
            ),
            "T&C 2",
            code="designation.not_designated",
        )
    check_takes_part(by)
    if by.pk == person.pk:
        raise RuleViolation(
            Words(
                N_("%(name)s cannot confirm or acknowledge their own login or role: a second designated person does"),
                name=by.name,
            ),
            "T&C 2",
            code="designation.own_confirmation",
        )


def appointment_acknowledge(*, appointment: Appointment, by: Person) -> Appointment:
    """A second designated person acknowledges a role or login given during the day, and the slips
    its holder signed: the flag on the queue and the close page is lifted."""
    with transaction.atomic():
        appointment = Appointment.objects.select_for_update().select_related("person", "day").get(pk=appointment.pk)
        _second_designated_person(by, appointment.person, what=_("acknowledges a role or login given during the day"))
        if appointment.acknowledged_by_id is not None:
            raise RuleViolation(
                Words(N_("this is already acknowledged by %(name)s"), name=appointment.acknowledged_by.name),
                "T&C 2",
                code="designation.already_acknowledged",
            )
        appointment.acknowledged_by = by
        appointment.acknowledged_at = timezone.now()
        appointment.save(update_fields=["acknowledged_by", "acknowledged_at"])
        record(
            "appointment_acknowledged",
            N_("%(by)s acknowledged what %(name)s was given during the day (%(given)s)"),
            {"by": by.name, "name": appointment.person.name, "given": appointment_text(appointment)},
            event=appointment.person.event_id,
            about=appointment.person,
            new={"given": appointment.given, "acknowledged_by": by.name}
            | ({"role": appointment.role} if appointment.role else {}),
        )
        return appointment


def appointment_text(appointment: Appointment) -> Words:
    """What was given, as a sentence says it: in the reader's words wherever it is kept."""
    if appointment.given == Appointment.Given.ROLE:
        return Words(N_("the role of %(role)s"), role=Role(appointment.role).label)
    return Words(N_("a login"))


# Logins. A login made for someone else (login_create) has no usable password: it comes with a
# one-time setup code, shown once to whoever made it, who hands it over on paper. Its owner gives
# their username and the code on the setup page and chooses their own password and signing PIN
# (login_setup_complete), so whoever makes a login never knows either.
#
# Whoever holds a setup code could set the login up before its owner does, and sign as them. So
# only the licensee's administrator makes logins and their codes (or the command line, whose
# operator stands for the administrator): the DRIC adds people and gives them roles, but is never
# handed a code, and cannot sign as a person she added without the administrator.

LOGIN_RULE = _lazy("logins")
# Letters and digits nobody misreads off paper: no 0/O, no 1/I/L.
SETUP_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
SETUP_CODE_GROUPS, SETUP_CODE_GROUP_LENGTH = 3, 4  # "K7QM-2XPD-9RTF": about 59 bits


@dataclass(frozen=True)
class SetupCode:
    """A setup code as it is shown, once, to whoever made the login. Only its hash is kept."""

    user: object
    code: str
    expires_at: datetime.datetime


def _canonical_code(code: str) -> str:
    """The code as typed, in any case, with or without its dashes and spaces."""
    return re.sub(r"[\s-]", "", str(code)).upper()


def _setup_code_make(user, by, *, person: Person | None = None) -> SetupCode:
    groups = (
        "".join(secrets.choice(SETUP_CODE_ALPHABET) for _ in range(SETUP_CODE_GROUP_LENGTH))
        for _ in range(SETUP_CODE_GROUPS)
    )
    code = "-".join(groups)
    now = timezone.now()
    expires_at = now + datetime.timedelta(hours=settings.LOGIN_SETUP_HOURS)
    LoginSetup.objects.update_or_create(
        user=user,
        defaults={
            "code_hash": make_password(_canonical_code(code)),
            "made_by": by if by is not None and by.is_authenticated else None,
            "made_at": now,
            "expires_at": expires_at,
            "used_at": None,
            "person": person,
            # The command line (by None: load_demo, an import) is not held to it: its operator holds
            # the database itself, which four eyes on a page cannot guard.
            "confirm_needed": by is not None and confirm_needed(person),
            "confirmed_by": None,
            "confirmed_at": None,
        },
    )
    return SetupCode(user=user, code=code, expires_at=expires_at)


def confirm_needed(person: Person | None) -> bool:
    """Four eyes on logins: once the event's first gaming day has opened, a setup code that lets
    someone set the password of a designated person works only after another designated person of
    the event confirms it. Before, the administrator sets the event up alone."""
    return person is not None and bool(person.role_codes() & set(DESIGNATED)) and event_has_opened(person.event)


@transaction.atomic
def login_confirm(*, person: Person, by: Person) -> LoginSetup:
    """A designated person of the event, other than its owner, confirms from their own session the
    setup code made for a designated person's login: only then does it work."""
    setup = LoginSetup.objects.select_for_update().filter(user_id=person.user_id).first()
    _second_designated_person(by, person, what=_("confirms a designated person's setup code"))
    if setup is None or setup.used_at is not None or not setup.confirm_needed:
        raise RuleViolation(
            Words(N_("%(name)s has no setup code waiting for a confirmation"), name=person.name),
            LOGIN_RULE,
            code="login.nothing_to_confirm",
        )
    if setup.confirmed_by_id is not None:
        raise RuleViolation(
            Words(
                N_("%(name)s's setup code is already confirmed by %(by)s"), name=person.name, by=setup.confirmed_by.name
            ),
            LOGIN_RULE,
            code="login.already_confirmed",
        )
    setup.confirmed_by = by
    setup.confirmed_at = timezone.now()
    setup.save(update_fields=["confirmed_by", "confirmed_at"])
    record(
        "login_confirmed",
        N_("%(by)s confirmed the setup code of %(name)s's login %(username)s"),
        {"by": by.name, "name": person.name, "username": person.user.get_username()},
        event=person.event_id,
        about=person,
        new={"confirmed_by": by.name},
    )
    return setup


def _username_refusal(username: str) -> tuple[str, Words] | None:
    """Why a username will not do, as (code, message), or None when it will."""
    User = get_user_model()
    if not username:
        return "login.username_missing", Words(N_("a login needs a username"))
    try:
        User.username_validator(username)
    except ValidationError:
        return "login.username_invalid", Words(N_("a username is letters, digits and @ . + - _ only, without spaces"))
    if len(username) > User._meta.get_field("username").max_length:
        return "login.username_too_long", Words(N_("a username is at most 150 characters"))
    return None


def _administrator_only(by, person: Person) -> None:
    """Refuse anyone but the licensee's administrator (or the command line, `by` None) a setup code."""
    if by is not None and not by.is_staff:
        raise RuleViolation(
            Words(
                N_(
                    "only the licensee's administrator gives %(name)s a login and its setup code: whoever holds "
                    "the code could set the login up and sign as %(name)s"
                ),
                name=person.name,
            ),
            LOGIN_RULE,
            field="username",
            code="login.administrator_only",
        )


def login_create(*, person: Person, username: str, by) -> SetupCode:
    """A new login for a person, with no usable password and a one-time setup code.

    A username already taken (in any letter case) is refused: adding a person never reuses an
    existing login silently. Only the licensee's administrator links a person to an existing
    login, as an explicit choice (login_link).
    """
    User = get_user_model()
    _administrator_only(by, person)
    refusal = _username_refusal(username)
    if refusal:
        code, message = refusal
        raise RuleViolation(message, LOGIN_RULE, code=code, field="username")
    if person.user_id is not None:
        raise RuleViolation(
            Words(N_("%(name)s already has a login"), name=person.name),
            LOGIN_RULE,
            field="username",
            code="login.already_has_login",
        )
    taken = User.objects.filter(username__iexact=username).first()
    if taken is not None:
        check_not_administrator(person, taken, field="username")
        raise RuleViolation(
            Words(
                N_(
                    "the username %(username)s is taken; choose another, or, if it is this person's own login "
                    "from an earlier event, tick “Link to the existing login with this username”"
                ),
                username=username,
            ),
            LOGIN_RULE,
            field="username",
            code="login.username_taken",
        )
    user = User.objects.create_user(username=username, password=None, first_name=person.name)
    person.user = user
    person.save(update_fields=["user"])
    record(
        "login_created",
        N_("%(name)s given the login %(username)s, with a one-time setup code"),
        {"name": person.name, "username": username},
        event=person.event_id,
        about=person,
        new={"login": username},
    )
    return _setup_code_make(user, by, person=person)


def login_link(*, person: Person, username: str, by):
    """Link a person to an existing login: the licensee's administrator's explicit choice, for
    someone who already has a login (the same DRIC at the licensee's next event)."""
    User = get_user_model()
    if by is None or not by.is_staff:
        raise RuleViolation(
            Words(N_("only the licensee's administrator may link a person to an existing login")),
            LOGIN_RULE,
            field="username",
            code="login.link_administrator_only",
        )
    before = (
        User.objects.filter(pk=person.user_id).values_list("username", flat=True).first() if person.user_id else None
    )
    user = User.objects.filter(username=username).first()
    existing = user is not None
    if user is None:
        raise RuleViolation(
            Words(N_("there is no login named %(username)s to link"), username=username),
            LOGIN_RULE,
            field="username",
            code="login.link_no_such_login",
        )
    if person.user_id is not None:
        raise RuleViolation(
            Words(N_("%(name)s already has a login"), name=person.name),
            LOGIN_RULE,
            field="username",
            code="login.already_has_login",
        )
    check_not_administrator(person, user, field="username")
    if by is not None and confirm_needed(person):
        raise RuleViolation(
            Words(
                N_(
                    "%(name)s is a designated person and the event has opened: their login is a new one, whose "
                    "setup code another designated person confirms, never an existing login linked"
                ),
                name=person.name,
            ),
            "T&C 2",
            field="username",
            code="login.link_designated_after_opening",
        )
    holder = Person.objects.filter(event=person.event, user=user).first()
    if holder is not None:
        raise RuleViolation(
            Words(
                N_("the login %(username)s is already %(name)s's on this event; one login is one person"),
                username=username,
                name=holder.name,
            ),
            LOGIN_RULE,
            field="username",
            code="login.link_one_login_one_person",
        )
    person.user = user
    person.save(update_fields=["user"])
    record(
        "login_linked",
        N_("%(name)s signs in as %(username)s"),
        {"name": person.name, "username": username},
        event=person.event_id,
        about=person,
        old={"login": before},
        new={"login": username, "existing_login": existing},
    )
    _appointed(person, Appointment.Given.LOGIN, by)
    return user


def login_setup_reissue(*, person: Person, by) -> SetupCode:
    """A new setup code for a person's login, replacing any earlier one: the first was lost or
    expired, or the person has forgotten their password or PIN.

    Only the licensee's administrator makes one, as only they make logins (login_create). For a
    login already set up, the new code clears its password and signing PIN, which its owner sets
    anew with the code.
    """
    user = person.user
    if user is None:
        raise RuleViolation(Words(N_("%(name)s has no login"), name=person.name), LOGIN_RULE, code="login.no_login")
    if by is not None and not by.is_staff:
        raise RuleViolation(
            Words(
                N_(
                    "only the licensee's administrator may give %(name)s a new setup code: whoever holds the "
                    "code could set the login up and sign as %(name)s"
                ),
                name=person.name,
            ),
            LOGIN_RULE,
            code="login.reissue_administrator_only",
        )
    had_password = user.has_usable_password()
    had_pin = SigningPin.objects.filter(user=user).exists()
    if had_password:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    SigningPin.objects.filter(user=user).delete()
    record(
        "setup_code_reissued",
        N_("%(name)s given a new setup code for the login %(username)s"),
        {"name": person.name, "username": user.get_username()},
        event=person.event_id,
        about=person,
        old={"password_set": had_password, "signing_pin_set": had_pin},
        new={"password_set": False, "signing_pin_set": False},
    )
    return _setup_code_make(user, by, person=person)


def login_pending(user) -> bool:
    """True while a login waits for its owner to set it up (no password of their own yet)."""
    return user is not None and not user.has_usable_password()


def login_setup_complete(*, request, username: str, code: str, password: str, pin: str):
    """The owner of a new login gives its username and setup code and chooses their password and
    signing PIN. The code works once and not after it expires.

    `request` is the setup page's: a wrong username or code counts as a failed login of that
    username (events.lockout), so the code cannot be guessed; None is the command line
    (load_demo), where nobody types. Call it outside a transaction, so a wrong try is kept.
    """
    User = get_user_model()
    if request is not None and lockout.is_locked(request, username):
        raise _locked(request, username, field="code")
    user = User.objects.filter(username=username).first()
    setup = LoginSetup.objects.filter(user=user).first() if user is not None else None
    if setup is None or not check_password(_canonical_code(code), setup.code_hash):
        if request is not None:
            lockout.count_failure(request, username)
            if lockout.is_locked(request, username):
                raise _locked(request, username, field="code")
        # The same words whether the username or the code is wrong: the page tells nobody which
        # usernames exist.
        raise RuleViolation(
            Words(N_("this username and setup code do not go together; check both as they are written")),
            LOGIN_RULE,
            field="code",
            code="setup_code.wrong",
        )
    _check_setup_usable(setup)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise RuleViolation(" ".join(exc.messages), LOGIN_RULE, code="password.too_weak", field="password") from None
    refusal = _pin_refusal(pin)
    if refusal:
        code, message = refusal
        raise RuleViolation(message, PIN_RULE, code=code, field="pin")
    with transaction.atomic():
        # Under a row lock, so the code works once even when sent twice at once.
        setup = LoginSetup.objects.select_for_update().get(pk=setup.pk)
        if setup.used_at is not None:
            raise RuleViolation(
                Words(N_("this setup code was used already")), LOGIN_RULE, field="code", code="setup_code.used_at_once"
            )
        user.set_password(password)
        user.save(update_fields=["password"])
        _pin_store(user, pin)
        setup.used_at = timezone.now()
        setup.save(update_fields=["used_at"])
        record(
            "login_set_up",
            N_("%(username)s set up their login with its setup code"),
            {"username": username},
            user=user,
        )
        # Flagged once it can sign, not when its code was made: a second designated person
        # acknowledges the login with the slips it signs, not before it has signed any.
        person = setup.person or Person.objects.filter(user=user).first()
        if person is not None:
            _appointed(person, Appointment.Given.LOGIN, setup.made_by)
    if request is not None:
        lockout.count_success(request, username)
    return user


def _check_setup_usable(setup: LoginSetup) -> None:
    """The right code: not used yet, confirmed by a second designated person where it must be
    (T&C 2), and not expired."""
    if setup.used_at is not None:
        raise RuleViolation(
            Words(N_("this setup code was used already; log in with your password, or ask for a new code")),
            LOGIN_RULE,
            field="code",
            code="setup_code.used",
        )
    if setup.waits_for_confirmation:
        # The right code, not yet confirmed: no failed try, and the code still works once confirmed.
        raise RuleViolation(
            Words(
                N_(
                    "this setup code works once a designated person of the event other than you confirms it: ask "
                    "the DRIC, the General Cashier or the Chip Cashier to confirm it on their queue, then try again"
                )
            ),
            "T&C 2",
            field="code",
            code="setup_code.unconfirmed",
        )
    if setup.expires_at <= timezone.now():
        raise RuleViolation(
            Words(
                N_("this setup code expired at %(time)s; ask whoever made your login for a new one"),
                time=moment(setup.expires_at) + " " + zone_name(setup.expires_at),
            ),
            LOGIN_RULE,
            field="code",
            code="setup_code.expired",
        )


def password_change(*, request, user, old_password: str, new_password: str):
    """The logged-in user changes their own password, giving the current one. The session goes on."""
    _current_password_check(
        request,
        user,
        old_password,
        Words(N_("your current password is wrong; nothing was changed")),
        code="password.current_wrong",
    )
    try:
        validate_password(new_password, user)
    except ValidationError as exc:
        raise RuleViolation(
            " ".join(exc.messages), LOGIN_RULE, code="password.too_weak", field="new_password"
        ) from None
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        record(
            "password_changed", N_("%(username)s changed their password"), {"username": user.get_username()}, user=user
        )
    update_session_auth_hash(request, user)
    return user


def _current_password_check(request, user, password: str, wrong: Words, *, code: str) -> None:
    """Where a logged-in user's password is asked again, a wrong one counts as a failed login:
    a session left open is no way to guess it."""
    username = user.get_username()
    if lockout.is_locked(request, username):
        raise _locked(request, username, field="password")
    if not user.check_password(password):
        lockout.count_failure(request, username)
        if lockout.is_locked(request, username):
            raise _locked(request, username, field="password")
        raise RuleViolation(wrong, LOGIN_RULE, code=code, field="password")
    lockout.count_success(request, username)


def _locked(request, username: str, *, field: str | None = None, name: str | None = None) -> RuleViolation:
    """The refusal while a username is locked, with the time the lock ends. With `name`, the
    lock on that person's signing PIN (events.lockout: apart from their login's)."""
    pin = name is not None
    ends = lockout.lock_ends(request, username, pin=pin)
    time = ClockZone(ends) if ends else "?"
    n = lockout.limit(request, username, pin=pin)
    if pin:
        text = Words(
            N_plural(
                "%(name)s's signing PIN is locked after %(n)s wrong try; try again at %(time)s, "
                "or sign from their own session (their login is not locked)",
                "%(name)s's signing PIN is locked after %(n)s wrong tries; try again at %(time)s, "
                "or sign from their own session (their login is not locked)",
            ),
            plural_by="n",
            name=name,
            n=n,
            time=time,
        )
        return RuleViolation(text, PIN_RULE, code="pin.locked", field=field)
    text = Words(
        N_plural(
            "%(username)s is locked after %(n)s wrong try; try again at %(time)s",
            "%(username)s is locked after %(n)s wrong tries; try again at %(time)s",
        ),
        plural_by="n",
        username=username,
        n=n,
        time=time,
    )
    return RuleViolation(text, LOGIN_RULE, code="login.locked", field=field)


def day_add(
    *,
    event: Event,
    date: datetime.date,
    opens_at: datetime.time | None = None,
    closes_at: datetime.time | None = None,
) -> GamingDay:
    if not event.first_day <= date <= event.last_day:
        raise RuleViolation(
            Words(
                N_("%(date)s is outside the licensed dates %(first)s to %(last)s"),
                date=When(date),
                first=When(event.first_day),
                last=When(event.last_day),
            ),
            "T&C 1.3",
            field="date",
            code="day.outside_licence",
        )
    if event.days.filter(date=date).exists():
        raise RuleViolation(
            Words(N_("%(date)s is already a gaming day"), date=When(date)),
            ONE_DAY_PER_DATE,
            field="date",
            code="day.date_taken",
        )
    day = GamingDay.objects.create(event=event, date=date, opens_at=opens_at, closes_at=closes_at)
    record(
        "day_added",
        N_("Gaming day %(date)s added"),
        {"date": date.isoformat()},
        event=event,
        new={"date": date, "opens_at": opens_at, "closes_at": closes_at},
    )
    return day


def roster_open(day: GamingDay) -> None:
    """Refuse any change to the roster of a closed gaming day: the day is locked, and its staffing
    sheet reads that roster as it stood."""
    if day.status == GamingDay.Status.CLOSED:
        raise RuleViolation(
            Words(
                N_("Gaming day %(date)s is closed and locked: its roster no longer changes"), date=day.date.isoformat()
            ),
            _("gaming day: a closed day is locked"),
            code="roster.day_locked",
        )


@transaction.atomic
def shift_add(
    *, day: GamingDay, person: Person, role: str, starts_at: datetime.datetime, ends_at: datetime.datetime
) -> Shift:
    day = GamingDay.objects.select_for_update().get(pk=day.pk)  # a day closing now waits for this
    roster_open(day)
    if person.event_id != day.event_id:
        raise RuleViolation(
            Words(N_("%(name)s is not on this event"), name=person.name),
            ROSTER,
            field="person",
            code="person.not_on_event",
        )
    if role not in person.role_codes():
        raise RuleViolation(
            Words(
                N_("%(name)s does not hold the role of %(role)s"),
                name=person.name,
                role=Role(role).label if role in Role.values else repr(role),
            ),
            ROSTER,
            field="role",
            code="roster.role_not_held",
        )
    check_one_hat(person, role, person.role_codes() - {role}, field="role")
    if ends_at <= starts_at:
        raise RuleViolation(
            Words(N_("A shift must end after it starts")),
            ROSTER,
            field="ends_at",
            code="roster.shift_ends_before_start",
        )
    shift = Shift(day=day, person=person, role=role, starts_at=starts_at, ends_at=ends_at)
    shift.full_clean()
    shift.save()
    record(
        "shift_added",
        N_("%(name)s on the roster of %(date)s as %(role)s"),
        {"name": person.name, "date": day.date.isoformat(), "role": Role(role).label},
        event=day.event_id,
        about=person,
        new={"date": day.date, "role": role, "starts_at": starts_at, "ends_at": ends_at},
    )
    return shift


def _same_clock_on(at: datetime.datetime, date: datetime.date) -> datetime.datetime:
    """The same local time of day on another date, `date` standing for `at`'s own gaming day: a
    shift from 11:30 to 02:00 keeps its hours, across midnight and across a change of the clocks."""
    local = timezone.localtime(at)
    return timezone.make_aware(datetime.datetime.combine(date, local.time().replace(tzinfo=None)))


def _roster_copy_check(day: GamingDay, source: GamingDay) -> None:
    """Refuse a copy of `source`'s shifts to `day` but to an empty roster of a day still in setup:
    added to a roster already begun, a copy would double the shifts already there."""
    if source.event_id != day.event_id or source.date >= day.date:
        raise RuleViolation(
            Words(
                N_("Shifts are copied from an earlier gaming day of the same event, not from %(date)s"),
                date=When(source.date),
            ),
            ROSTER,
            field="source",
            code="roster.copy_source_not_earlier",
        )
    if day.status != GamingDay.Status.SETUP:
        raise RuleViolation(
            Words(
                N_("Gaming day %(date)s has opened: its roster is no longer copied from another day"),
                date=When(day.date),
            ),
            ROSTER,
            code="roster.copy_day_opened",
        )
    if day.shifts.exists():
        raise RuleViolation(
            Words(N_("Gaming day %(date)s already has shifts: a copy fills an empty roster only"), date=When(day.date)),
            ROSTER,
            code="roster.copy_day_has_shifts",
        )


@transaction.atomic
def roster_copy(*, day: GamingDay, source: GamingDay) -> list[Shift]:
    """Copy every shift of an earlier day to `day`, at the same times of day, each through
    shift_add so that every rule of a shift holds for the copy (the person still holds the role,
    one hat). One refused shift refuses the copy whole, naming the shift: nothing is kept."""
    day = GamingDay.objects.select_for_update().get(pk=day.pk)
    roster_open(day)
    _roster_copy_check(day, source)
    offset = day.date - source.date
    copied = []
    for shift in source.shifts.select_related("person", "person__event").order_by("starts_at", "pk"):
        starts = _same_clock_on(shift.starts_at, timezone.localtime(shift.starts_at).date() + offset)
        ends = _same_clock_on(shift.ends_at, timezone.localtime(shift.ends_at).date() + offset)
        try:
            copied.append(shift_add(day=day, person=shift.person, role=shift.role, starts_at=starts, ends_at=ends))
        except RuleViolation as exc:
            words = Words(
                N_("The shift of %(name)s as %(role)s from %(starts)s to %(ends)s is not copied: %(reason)s"),
                name=shift.person.name,
                role=Role(shift.role).label,
                starts=When(starts),
                ends=When(ends),
                reason=exc.words or exc.message_text,
            )
            # The rule the shift broke, cited in the reader's language: its reference is the
            # catalogue's own msgid ("roster", "T&C 2").
            raise RuleViolation(words, _lazy(exc.rule_reference), code="roster.copy_shift_refused") from exc
    return copied


# The event's earliest day before a day that is not closed yet; compiled once (core.compiled): an
# import opens every gaming day of its event.
def _earlier_not_closed(day_id: int):
    day = GamingDay.objects.filter(pk=day_id)
    return (
        GamingDay.objects.filter(event_id=day.values("event_id")[:1], date__lt=day.values("date")[:1])
        .exclude(status=GamingDay.Status.CLOSED)
        .order_by("date")
    )


_EARLIER_NOT_CLOSED = Compiled(_earlier_not_closed)


def opening_refusal(day: GamingDay, *, records_file: bool = False) -> tuple[Words, object, str] | None:
    """Why the gaming day cannot open yet, as (message, rule, code): what day_open refuses it with; None
    when it may open. The pages say it beside the day rather than offer a button that is refused
    (opening_refusal_text). Reads only, and records no refusal: nothing was tried. `records_file`:
    a day a records file records, held to what its format carries (first_day_refusal is not)."""
    if day.status != GamingDay.Status.SETUP:
        return (
            Words(
                N_("The gaming day %(date)s is %(status)s, not in setup"),
                date=When(day.date),
                status=Lower(GamingDay.Status(day.status).label),
            ),
            GAMING_DAY,
            "day.not_in_setup",
        )
    earlier = _EARLIER_NOT_CLOSED.first(day.pk)
    if earlier is not None:
        return (
            Words(N_("The gaming day %(date)s is not closed yet"), date=When(earlier.date)),
            GAMING_DAY,
            "day.earlier_not_closed",
        )
    # What the day waits for in its setup is the checklist's (events.readiness), so that its page and
    # this refusal never disagree: every check for the event's first gaming day, the checks of every
    # day for a later one and for a day a records file records.
    first = not records_file and not event_has_opened(day.event)
    missing = readiness.first_missing(day.event, day, first=first)
    return None if missing is None else missing.refusal


def first_day_refusal(event: Event) -> tuple[Words, object, str] | None:
    """What the event's first gaming day still waits for, as (message, rule, code): the first line of
    its checklist still missing (events.readiness), from the supplier's registration (T&C 4.1) to the
    roster (2); None when nothing is."""
    missing = readiness.first_missing(event)
    return None if missing is None else missing.refusal


# What a designated person has recorded before they serve: (is it missing, what is missing in a
# sentence, in a word for the People page's table, its rule).
DECLARATION_GAPS = (
    (
        lambda p: not p.identification.strip(),
        N_("identification not recorded"),
        pgettext_lazy("declaration", "identification"),
        "1.4.4",
    ),
    (
        lambda p: p.terms_acknowledged_at is None,
        N_("the terms and conditions not recorded as brought to their attention"),
        pgettext_lazy("declaration", "terms and conditions"),
        "1.4.6",
    ),
    (
        lambda p: p.other_activities is not True,
        N_("no other activities in the organization beyond its lotteries declared"),
        pgettext_lazy("declaration", "other activities"),
        "2",
    ),
)


def declarations_missing(person: Person) -> list[str]:
    """What a designated person has yet to show or declare, each in a word (the People page's table)."""
    return [str(word) for missing, _sentence, word, _rule in DECLARATION_GAPS if missing(person)]


def declarations_refusal(person: Person) -> tuple[Words, str, str] | None:
    """What a designated person has yet to show or declare before they serve (first_day_refusal,
    and role_assign once the event has opened), all of it at once: identification (T&C 1.4.4), the
    terms brought to their attention (1.4.6), their other activities in the organization (2)."""
    gaps = [(sentence, rule) for missing, sentence, _word, rule in DECLARATION_GAPS if missing(person)]
    if not gaps:
        return None
    return (
        Words(
            N_("%(name)s's declarations are incomplete: %(missing)s; every designated person has them recorded"),
            name=person.name,
            missing=Several(*(Words(sentence) for sentence, _rule in gaps), sep=", "),
        ),
        "T&C " + ", ".join(rule for _sentence, rule in gaps),
        "person.declarations_incomplete",
    )


def opening_refusal_text(day: GamingDay) -> str:
    """Why the gaming day cannot open yet, in the words of its refusal; "" when it may."""
    refusal = opening_refusal(day)
    if refusal is None:
        return ""
    message, rule, _code = refusal
    return _("%(message)s (%(rule)s)") % {"message": message, "rule": cite(rule)}


# The day taken for its opening (its row alone: FOR UPDATE OF on PostgreSQL), read with its event,
# which the opening's checks read: compiled once (core.compiled), as an import opens every day.
_DAY_TO_OPEN = Compiled(
    lambda pk: GamingDay.objects.select_for_update(of=("self",)).select_related("event").filter(pk=pk)
)


def day_open(*, day: GamingDay, records_file: bool = False) -> GamingDay:
    """Open a gaming day for postings. Refused while the staffing rules that must hold do not."""
    with transaction.atomic():
        day = _DAY_TO_OPEN.get(day.pk)
        refusal = opening_refusal(day, records_file=records_file)
        if refusal is not None:
            message, rule, code = refusal
            raise RuleViolation(message, rule, code=code)
        day.status = GamingDay.Status.OPEN
        day.save(update_fields=["status"])
        record(
            "day_opened",
            N_("Gaming day %(date)s opened"),
            {"date": day.date.isoformat()},
            event=day.event_id,
            old={"status": GamingDay.Status.SETUP},
            new={"status": GamingDay.Status.OPEN},
        )
        return day


# Signing PINs. On the cage's screen a second signer (the runner taking a fill, the DRIC
# authorizing) signs by typing their own PIN; nobody ever types someone else's password. The PIN
# is its owner's alone: they set it (pin_set), it is stored hashed, and wrong tries lock it.

PIN_RULE = _lazy("signing PINs")


def _pin_refusal(pin: str) -> tuple[str, Words] | None:
    """Why a PIN is too weak to sign with, as (code, message), or None when it will do."""
    if not re.fullmatch(r"[0-9]{4,8}", pin):
        return "pin.bad_format", Words(N_("a signing PIN is 4 to 8 digits, and digits only"))
    if len(set(pin)) == 1:
        return "pin.one_digit_repeated", Words(N_("a signing PIN of one digit repeated is too easy to guess"))
    steps = {(int(b) - int(a)) % 10 for a, b in itertools.pairwise(pin)}
    if steps in ({1}, {9}):
        return "pin.digits_in_a_row", Words(
            N_("a signing PIN of digits in a row, like 1234 or 4321, is too easy to guess")
        )
    return None


def _pin_store(user, pin: str) -> SigningPin:
    signing_pin, created = SigningPin.objects.update_or_create(
        user=user, defaults={"pin_hash": make_password(pin, hasher=PIN_HASHER), "set_at": timezone.now()}
    )
    # The PIN itself is never recorded, only that its owner set it.
    record(
        "pin_set",
        N_("%(username)s set a signing PIN") if created else N_("%(username)s changed their signing PIN"),
        {"username": user.get_username()},
        user=user,
    )
    return signing_pin


def pin_set(*, request, user, password: str, pin: str) -> SigningPin:
    """The owner sets or changes their signing PIN, giving their current login password (so a
    session left open at the cage cannot set one; a wrong password counts as a failed login)."""
    _current_password_check(
        request,
        user,
        password,
        Words(N_("your current password is wrong; the signing PIN was not changed")),
        code="pin.current_password_wrong",
    )
    refusal = _pin_refusal(pin)
    if refusal:
        code, message = refusal
        raise RuleViolation(message, PIN_RULE, code=code, field="pin")
    return _pin_store(user, pin)


# A user's signing PIN: compiled once (core.compiled), as every co-signed slip checks one.
_SIGNING_PIN = Compiled(lambda user_id: SigningPin.objects.filter(user_id=user_id).order_by("pk"))


def pin_verify(*, request, person: Person, pin: str) -> None:
    """Check the PIN a person typed to sign; RuleViolation when they cannot sign with it.

    A wrong PIN counts as a wrong try of its owner's signing PIN from this request's address
    (events.lockout, django-axes): LOGIN_MAX_FAILURES of them lock signing by PIN for that person
    there for LOGIN_LOCK_MINUTES, not their login: they can still log in, and sign from their own
    session. While it is locked even the right PIN is refused and a try is not counted. A right
    PIN sets the count back to 0. Call it outside a transaction (as form cleaning is): the count
    is written at once and stays when the caller's work is rolled back.
    """
    name = person.name
    user = person.user
    if user is None:
        raise RuleViolation(
            Words(N_("%(name)s has no login and cannot sign"), name=name), PIN_RULE, code="pin.no_login"
        )
    if not user.is_active:
        raise RuleViolation(
            Words(N_("%(name)s's login is inactive; they cannot sign"), name=name), PIN_RULE, code="pin.login_inactive"
        )
    check_takes_part(person)
    if not isinstance(pin, str) or not re.fullmatch(r"[0-9]{4,8}", pin):
        # Not a PIN at all (letters, full-width digits, a NUL...): refused without a try counted,
        # as nobody guesses a PIN that way.
        raise RuleViolation(
            Words(N_("%(name)s's signing PIN is 4 to 8 digits 0 to 9; what was typed is not a PIN"), name=name),
            PIN_RULE,
            field="pin",
            code="pin.not_a_pin",
        )
    signing_pin = _SIGNING_PIN.first(user.pk)
    if signing_pin is None:
        raise RuleViolation(
            Words(
                N_("%(name)s has not set a signing PIN; they set it on their own page, or sign from their own session"),
                name=name,
            ),
            PIN_RULE,
            code="pin.not_set",
        )
    username = user.get_username()
    if lockout.is_locked(request, username, pin=True):
        raise _locked(request, username, field="pin", name=name)

    def upgrade(raw):  # a PIN hashed otherwise (before its own hasher) is rehashed with it
        SigningPin.objects.filter(pk=signing_pin.pk).update(pin_hash=make_password(raw, hasher=PIN_HASHER))

    if check_password(pin, signing_pin.pin_hash, setter=upgrade, preferred=PIN_HASHER):
        lockout.count_success(request, username, pin=True)
        return
    lockout.count_failure(request, username, pin=True)
    if lockout.is_locked(request, username, pin=True):
        raise _locked(request, username, field="pin", name=name)
    left = lockout.tries_left(request, username, pin=True)
    raise RuleViolation(
        Words(
            N_plural(
                "the signing PIN of %(name)s is wrong; %(left)s try left",
                "the signing PIN of %(name)s is wrong; %(left)s tries left",
            ),
            plural_by="left",
            name=name,
            left=left,
        ),
        PIN_RULE,
        field="pin",
        code="pin.wrong",
    )


# A locked session (events.idle): its owner goes on by typing their signing PIN, as a login by PIN.
UNLOCK_RULE = _lazy("locked screen")
# The refusals after which the session cannot be unlocked by PIN: it is logged out, for a full login.
UNLOCK_LOGS_OUT = frozenset({"unlock.no_pin", "unlock.locked_out", "unlock.pin_locked"})


def session_unlock(*, request, user, pin: str) -> None:
    """The owner of a locked session unlocks it with their signing PIN; RuleViolation while it
    stays locked, with a code in UNLOCK_LOGS_OUT when it must end in a full login instead.

    The lock page stands in for the login page, so a wrong PIN there counts as a failed login of
    its owner from this address (events.lockout), and a right one sets that count back to 0: once
    LOGIN_MAX_FAILURES are counted the login is locked out here for LOGIN_LOCK_MINUTES, as after
    wrong passwords, and the session is logged out. A PIN locked by wrong tries on slips does not
    unlock either. Each unlock is on the audit trail; each wrong PIN is, as a failed login and as
    this refusal. Call it outside a transaction: the count must stay when it refuses.
    """
    username = user.get_username()
    signing_pin = _SIGNING_PIN.first(user.pk)
    if signing_pin is None:
        raise RuleViolation(
            Words(N_("%(username)s has no signing PIN to unlock with; log in with your password"), username=username),
            UNLOCK_RULE,
            code="unlock.no_pin",
        )
    if lockout.is_locked(request, username):
        raise _unlock_locked_out(request, username)
    if lockout.is_locked(request, username, pin=True):
        raise RuleViolation(
            Words(N_("your signing PIN is locked after wrong tries; log in with your password")),
            UNLOCK_RULE,
            code="unlock.pin_locked",
        )
    if not isinstance(pin, str) or not re.fullmatch(r"[0-9]{4,8}", pin):
        # Not a PIN at all: refused without a try counted, as pin_verify does.
        raise RuleViolation(
            Words(N_("a signing PIN is 4 to 8 digits 0 to 9; what was typed is not a PIN")),
            UNLOCK_RULE,
            field="pin",
            code="unlock.not_a_pin",
        )
    if check_password(pin, signing_pin.pin_hash, preferred=PIN_HASHER):
        lockout.count_success(request, username)
        record(
            "session_unlocked",
            N_("%(username)s unlocked their session with their signing PIN"),
            {"username": username},
            user=user,
        )
        return
    lockout.count_failure(request, username)
    if lockout.is_locked(request, username):
        raise _unlock_locked_out(request, username)
    raise RuleViolation(
        Words(
            N_plural(
                "your signing PIN is wrong; %(left)s try left before the session is logged out",
                "your signing PIN is wrong; %(left)s tries left before the session is logged out",
            ),
            plural_by="left",
            left=lockout.tries_left(request, username),
        ),
        UNLOCK_RULE,
        field="pin",
        code="unlock.wrong_pin",
    )


def _unlock_locked_out(request, username: str) -> RuleViolation:
    ends = lockout.lock_ends(request, username)
    n = lockout.limit(request, username)
    return RuleViolation(
        Words(
            N_plural(
                "%(username)s is locked after %(n)s wrong try, so the session is logged out; "
                "log in with your password at %(time)s",
                "%(username)s is locked after %(n)s wrong tries, so the session is logged out; "
                "log in with your password at %(time)s",
            ),
            plural_by="n",
            username=username,
            n=n,
            time=ClockZone(ends) if ends else "?",
        ),
        UNLOCK_RULE,
        code="unlock.locked_out",
    )
