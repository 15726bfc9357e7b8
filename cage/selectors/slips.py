"""Slips as people see them: their state, what is still to sign, and the DRIC's queue."""

import datetime
import functools
import re
import unicodedata
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import override, pgettext_lazy

from cage.models import Refusal, Signature, Slip
from cage.selectors.amounts import amount_of, cash_moved_subquery, chip_counts
from cage.selectors.slip_rows import slips_read
from cage.slip_types import OPENERS, SLIP_KINDS, VOID_KIND, Capacity
from core.compiled import Compiled
from core.money import dollars
from events.models import GamingDay, Person, Role
from events.selectors import chip_values, days_not_closed


class State:
    COMPLETE = "complete"
    IN_TRANSIT = "in_transit"
    WAITING = "waiting"
    VOIDED = "voided"
    REFUSED = "refused"  # a void the DRIC refused: on file, it moved nothing

    LABELS = {
        COMPLETE: _("Complete"),
        IN_TRANSIT: _("In transit"),
        WAITING: _("Waiting for signature"),
        VOIDED: _("Voided"),
        REFUSED: pgettext_lazy("slip state", "Refused"),
    }
    CHOICES = list(LABELS.items())


def slip_state(slip: Slip, signed: set[str], *, voided: bool, refused: bool = False) -> str:
    """A slip's state from its signatures; `voided`: a done void reverses it; `refused`: it is a
    void the DRIC refused."""
    if voided:
        return State.VOIDED
    if refused:
        return State.REFUSED
    kind = SLIP_KINDS[slip.slip_type]
    if kind.signed_in_full(signed, slip.details):
        return State.COMPLETE
    if kind.two_step and kind.steps_done(signed) == 1:
        return State.IN_TRANSIT
    return State.WAITING


def signed_in_full(slips):
    """The slips every signature they wait for is on: an expense the DRIC has approved, a void done
    (their record of it, cage.models.SignedInFull)."""
    return slips.filter(signed_in_full__isnull=False)


def unsigned(slips):
    """The slips still waiting for someone: not signed in full, nor refused voids (on file, waiting
    for nobody), nor slips a void names (the void is what waits: they take no signature meanwhile).
    An anti-join on indexes: the slips without their record of being signed in full (the window
    asks it of the slips not signed in full, _waiting_of_day, and check_ledger proves the two
    agree)."""
    waiting = slips.filter(signed_in_full__isnull=True, refusal__isnull=True)
    return waiting.free_of_voids()


@dataclass
class Pending:
    slip: Slip
    state: str
    missing: list[Capacity]
    age: datetime.timedelta
    overdue: bool
    amount: int | None = None

    @property
    def dollars(self) -> str:
        return "" if self.amount is None else dollars(self.amount)

    @property
    def what(self) -> str:
        return slip_subject(self.slip)

    @functools.cached_property
    def chips(self) -> str:
        # Asked twice per row of the queue (whether, then what): counted once.
        return chips_text(self.slip)

    @property
    def state_label(self):
        return State.LABELS[self.state]

    @property
    def minutes(self) -> int:
        return int(self.age.total_seconds() // 60)


def still_to_sign(slip: Slip) -> str:
    """The capacities the slip still waits for, as people say them ("received by (Dealer)"), or
    "" when every one is signed."""
    signed = set(slip.signatures.values_list("capacity", flat=True))
    kind = SLIP_KINDS[slip.slip_type]
    required = kind.required(slip.details)
    return ", ".join(
        str(_("%(capacity)s (%(roles)s)") % {"capacity": str(c.label).lower(), "roles": c.roles_label()})
        for c in kind.capacities
        if c.code not in signed and c.code in required
    )


def overdue_after() -> datetime.timedelta:
    return datetime.timedelta(minutes=getattr(settings, "CAGE_QUEUE_OVERDUE_MINUTES", 15))


def _waiting_of_day(day_id: int):
    # Among the day's slips not signed in full (cage.models.NotSignedInFull), by the day alone: the
    # day's slips were each visited for the few that wait, and asked for the event as well, SQLite
    # read the whole event's slips by its index on the event.
    return unsigned(Slip.objects.filter(not_signed_in_full__day_id=day_id))


def _waiting_of_event(event_id: int):
    return unsigned(Slip.objects.filter(not_signed_in_full__day__in=days_not_closed(event_id)))


def _waiting(event, day: GamingDay | None):
    return _waiting_of_day(day.pk) if day else _waiting_of_event(event.pk)


def _compiled_waiting(of, order: tuple[str, str]) -> Compiled:
    return Compiled(lambda key: of(key).order_by(*order).values_list("pk"))


# The order the slips that wait are listed in: the oldest first (the queue), or the latest first.
_WAITING_ORDER = {False: ("at", "id"), True: ("-at", "-id")}

# Which slips wait, compiled once (core.compiled): the cage home and the DRIC's queue ask it on every
# refresh. By (a day's or the event's, the latest first).
_WAITING = {
    (by_day, latest): _compiled_waiting(_waiting_of_day if by_day else _waiting_of_event, _WAITING_ORDER[latest])
    for by_day in (True, False)
    for latest in (True, False)
}


def _waiting_chosen(event, day, *, latest: int | None, rows: slice | None, slip: Slip | None):
    """The query of the ids of the slips that wait, as pending_slips bounds them (a queryset, or its
    SQL and parameters compiled once, for slips_read)."""
    if slip is not None or (latest is not None and rows is not None) or (rows is not None and rows.stop is None):
        waiting = _waiting(event, day)
        if slip is not None:
            waiting = waiting.filter(pk=slip.pk)
        waiting = waiting.order_by(*_WAITING_ORDER[latest is not None])
        if latest is not None:
            waiting = waiting[:latest]
        return (waiting if rows is None else waiting[rows]).values_list("pk")
    compiled = _WAITING[(day is not None, latest is not None)]
    key = day.pk if day else event.pk
    if latest is not None:
        return compiled.sql(key, limit=latest)
    if rows is not None:
        start = rows.start or 0
        return compiled.sql(key, limit=max(0, rows.stop - start), offset=start)
    return compiled.sql(key)


def pending_count(event, *, day: GamingDay | None = None) -> int:
    """How many slips wait, counted in the database (one query, never fetched)."""
    return _WAITING[(day is not None, False)].count(day.pk if day else event.pk)


def pending_slips(
    event,
    *,
    day: GamingDay | None = None,
    now=None,
    latest: int | None = None,
    rows: slice | None = None,
    slip: Slip | None = None,
) -> list[Pending]:
    """Every slip still in transit or waiting for a signature, oldest first, with its age. Days
    that are closed have none (a day cannot close while any slip waits). `latest`: only that many,
    the latest written, newest first (the cage home, bounded whatever the number waiting). `rows`:
    only those of the oldest first (a page of the DRIC's queue, bounded the same way). `slip`: that
    one alone, if it waits (a slip's own page: the same answer, whatever else waits)."""
    now = now or timezone.now()
    # Which slips wait is the ORM's question (unsigned); their rows are read as SQL of their own.
    chosen = _waiting_chosen(event, day, latest=latest, rows=rows, slip=slip)
    slips = slips_read(chosen, order=lambda s: (s.at, s.pk), reverse=latest is not None)
    limit = overdue_after()
    values = chip_values(event)
    result = []
    for slip in slips:
        signed = {s.capacity for s in slip.signatures.all()}
        kind = SLIP_KINDS[slip.slip_type]
        age = now - slip.at
        result.append(
            Pending(
                slip=slip,
                state=slip_state(slip, signed, voided=False),
                missing=[c for c in kind.capacities if c.code not in signed],
                age=age,
                overdue=age >= limit,
                amount=amount_of(slip, values, slip.cash_moved),
            )
        )
    return result


def can_sign(person: Person | None, item: Pending, roles: set[str]) -> list[Capacity]:
    """The capacities of a waiting slip that `person` may sign now: their role, the runner named
    on the slip for the runner's side, never a second capacity of the same slip, and a later
    custody step only once the one before it is signed."""
    if person is None:
        return []
    slip = item.slip
    kind = SLIP_KINDS[slip.slip_type]
    signers = {s.person_id for s in slip.signatures.all()}
    if person.pk in signers:
        return []
    signed = {s.capacity for s in slip.signatures.all()}
    done = kind.steps_done(signed)
    result = []
    for cap in item.missing:
        if not roles & set(cap.roles):
            continue
        if cap.code == kind.runner_capacity and slip.runner_id and slip.runner_id != person.pk:
            continue
        if cap.step is not None and cap.step > done + 1:
            continue
        result.append(cap)
    return result


def to_sign_for(
    event, person: Person | None, roles: set[str], *, now=None, items: list[Pending] | None = None
) -> list[tuple[Pending, list[Capacity]]]:
    """The waiting slips that this person may sign, with the capacities they may sign; `items`:
    pending_slips(event), when the caller has them already."""
    if person is None:
        return []
    waiting = pending_slips(event, now=now) if items is None else items
    items = []
    for item in waiting:
        caps = can_sign(person, item, roles)
        if caps:
            items.append((item, caps))
    return items


def dealer_tables(event, person: Person) -> set[int]:
    """A dealer's tables: those whose opener they counted on a day not yet closed."""
    return set(
        Signature.objects.filter(
            person=person, capacity="counted_by", slip__slip_type__in=OPENERS, slip__day__event=event
        )
        .exclude(slip__day__status=GamingDay.Status.CLOSED)
        .values_list("slip__table_id", flat=True)
    )


def to_sign_at_my_table(event, person: Person | None, roles: set[str], *, now=None, items=None):
    """(the slips to sign at this person's own tables or not at a table, those of other tables).

    A dealer's tables are those whose opener they counted that day: a dealer receiving a fill
    sees their own table's first, so that a tap at 1 a.m. does not sign another table's fill.
    """
    items = to_sign_for(event, person, roles, now=now, items=items)
    if person is None or Role.DEALER not in roles:
        return items, []
    mine = dealer_tables(event, person)
    here = [(i, c) for i, c in items if i.slip.table_id is None or i.slip.table_id in mine]
    elsewhere = [(i, c) for i, c in items if not (i.slip.table_id is None or i.slip.table_id in mine)]
    return here, elsewhere


def on_the_way(
    event, person: Person | None, roles: set[str], *, now=None, items: list[Pending] | None = None
) -> list[tuple[Pending, list[Capacity]]]:
    """The fills and credits on their way that concern this person on the floor: those they carry
    (the runner named on them) and, for a dealer, those of their own tables (dealer_tables); each
    with the capacities they may sign now. What a dealer's or runner's tablet shows at the top of
    their page, so a fill is not missed."""
    if person is None:
        return []
    items = pending_slips(event, now=now) if items is None else items
    tables = dealer_tables(event, person) if Role.DEALER in roles else set()
    return [
        (item, can_sign(person, item, roles))
        for item in items
        # On its way only once the runner has signed that she carries it (in transit): a slip the
        # cage has only written is still at the cage, and waits in "Waiting for your signature".
        # Received once the last custody step is signed; the DRIC's witness is no part of the trip.
        if item.state == State.IN_TRANSIT
        and (item.slip.runner_id == person.pk or (item.slip.table_id is not None and item.slip.table_id in tables))
    ]


def _voids_with_outcome(voids):
    """Each void's id, the slip it names, whether it is done and whether it was refused."""
    return voids.annotate(
        done=Exists(Slip.objects.voids_done().filter(pk=OuterRef("pk"))),
        refused=Exists(Refusal.objects.filter(slip=OuterRef("pk"))),
    ).values_list("pk", "voids_id", "done", "refused")


# A day's voids, compiled once (core.compiled): the cage home asks on every refresh. A void is of
# its slip's own day (cage.services.slips.void), so a day's voids are all that name its slips.
_VOIDS_OF_DAY = Compiled(
    lambda day_id: _voids_with_outcome(Slip.objects.filter(day_id=day_id, slip_type=VOID_KIND.type))
)


def states_of(slips: list[Slip], *, day: GamingDay | None = None) -> dict[int, str]:
    """{slip id: state} for slips fetched with their signatures prefetched; `day`: they are all of
    that day."""
    if not slips:
        return {}
    ids = [s.pk for s in slips]
    # The voids among these slips or naming them, in one query: which are done, which refused.
    if day is not None:
        voids = _VOIDS_OF_DAY.rows(day.pk)
    else:
        voids = _voids_with_outcome(
            Slip.objects.filter(slip_type=VOID_KIND.type).filter(Q(pk__in=ids) | Q(voids_id__in=ids))
        )
    voided, refused = set(), set()
    for pk, target, done, was_refused in voids:
        if done:
            voided.add(target)
        if was_refused:
            refused.add(pk)
    return {
        s.pk: slip_state(s, {x.capacity for x in s.signatures.all()}, voided=s.pk in voided, refused=s.pk in refused)
        for s in slips
    }


def slip_subject(slip: Slip) -> str:
    """What a slip is about, beside its number, for lists: the table and runner, the place counted,
    the slip voided, an expense's description."""
    from cage.services.ledger import account_label

    parts = []
    if slip.table_id:
        parts.append(_("table %(table)s") % {"table": slip.table.code})
    if slip.runner_id:
        parts.append(slip.runner.name)
    if slip.account_id:
        parts.append(account_label(slip.account))
    if slip.voids_id:
        parts.append(_("voids %(slip)s") % {"slip": slip.voids.number})
    if slip.details.get("description"):
        parts.append(slip.details["description"])
    if not parts:
        # A sale at the cage names no runner or table: say who wrote it up.
        first = next(iter(slip.signatures.all()), None)
        if first is not None:
            parts.append(_("by %(name)s") % {"name": first.person.name})
    # Joined as words are in a sentence, by a comma: where a narrow cell wraps, the comma ends its
    # line as punctuation does; a "·" began the next one ("· Runner"). Nothing empty is joined.
    return ", ".join(str(p) for p in parts if str(p).strip())


def chips_text(slip: Slip) -> str:
    """ "40 × $5, 2 × $25": the chips a slip names, to check before signing; a void's are those of
    the slip it voids (fetched with it)."""
    chips = (slip.details or {}).get("chips")
    if not chips and slip.slip_type == VOID_KIND.type and slip.voids_id:
        chips = (slip.voids.details or {}).get("chips")
    return ", ".join(chip_counts(chips))


# What "Find a slip" reads of a query: a slip number, a table code or a name is far shorter.
SEARCH_LONGEST = 60
SLIP_NUMBER = re.compile(r"(.*?)\s*#?\s*([0-9]{1,9})")


def search_text(raw: str) -> str:
    """A "Find a slip" query as searched: control and other invisible characters dropped (a NUL
    would fail PostgreSQL's query), runs of spaces made one, cut to SEARCH_LONGEST characters."""
    visible = "".join(c if unicodedata.category(c)[0] not in "CZ" else " " for c in raw[: SEARCH_LONGEST * 4])
    return " ".join(visible.split())[:SEARCH_LONGEST]


# A sum as a cashier types it, in English or in French: "$200", "200.00", "$1,200.50", "200,00 $",
# "1 200,50 $". A separator before three digits groups thousands; before one or two, it starts the
# cents. ASCII digits only: "١٢" is no amount. Not money.parse_cash, the slip forms' reader: every
# query that is no amount (a name, a table) would be one of its refusals, and refusals are audited.
MONEY = re.compile(r"\$?\s*([0-9]{1,3}(?:[ ,.][0-9]{3})+|[0-9]{1,7})(?:[.,]([0-9]{1,2}))?\s*\$?")


def search_amount(text: str) -> int | None:
    """The amount in cents a "Find a slip" query names ("200" is $200.00 as well as slip 200), or
    None when the query is no sum of money."""
    found = MONEY.fullmatch(text)
    if found is None:
        return None
    cents = int(re.sub("[ ,.]", "", found[1])) * 100 + int((found[2] or "0").ljust(2, "0"))
    return cents or None


def slips_of_amount(slips, cents: int, values: dict[str, int]) -> list[int]:
    """The ids of the slips among `slips` whose amount is `cents`, as the home's Amount column
    shows it. A slip's amount is worked out from its details (its chips at the event's values), not
    stored: the day's slips are read in one query and each is worked out as the page works it out."""
    rows = slips.annotate(cash_moved=cash_moved_subquery()).select_related("voids")
    return [slip.pk for slip in rows.iterator(chunk_size=2000) if amount_of(slip, values, slip.cash_moved) == cents]


def _folded(text: str) -> str:
    """Text as a search compares it: any case, accents dropped ("Crédit" and "credit" alike)."""
    return "".join(c for c in unicodedata.normalize("NFKD", str(text)) if not unicodedata.combining(c)).casefold()


def _type_names() -> dict[str, set[str]]:
    """{slip type: its name as each of the site's languages prints it, folded}: a number is found
    as printed in French or in English, whatever the reader's language."""
    names = {t: set() for t in SLIP_KINDS}
    for code, _name in settings.LANGUAGES:
        with override(code):
            for t, kind in SLIP_KINDS.items():
                names[t].add(_folded(kind.label))
    return names


def slip_search(text: str) -> Q:
    """The slips a "Find a slip" query names: by their number as printed in French or English
    ("Fill 12", "fill 12", "Remplissage 12", "12": the serial exactly, any type whose name in
    either language contains the words, accents or none), by their type's name alone ("fill"), by a
    table code, a runner's name or the name of anyone who signed it ("Cora") containing it. One
    condition on the slips (the signers an EXISTS subquery): the caller keeps it to the day, and
    the page's queries do not grow with the slips. Nothing matches an empty query."""
    if not text:
        return Q(pk__in=[])
    signed = Signature.objects.filter(slip=OuterRef("pk"), person__name__icontains=text)
    found = Q(table__code__icontains=text) | Q(runner__name__icontains=text) | Q(Exists(signed))
    number = SLIP_NUMBER.fullmatch(text)
    words, serial = (number[1], int(number[2])) if number else (text, None)
    wanted = _folded(words)
    types = [t for t, names in _type_names().items() if any(wanted in name for name in names)]
    if types and serial is not None:
        found |= Q(slip_type__in=types, serial=serial)
    elif types:
        found |= Q(slip_type__in=types)
    return found
