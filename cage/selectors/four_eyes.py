"""What waits for a second designated person (T&C 2: no one alone), on the DRIC's queue and the close
page: setup codes of designated persons' logins to confirm, and roles or logins given while a day was
under way, with the slips their holder signed that day (how many, and the latest), to acknowledge.
Read-only."""

from dataclasses import dataclass, field

from django.utils import timezone

from cage.models import Signature, Slip
from core.compiled import Compiled
from events.models import DESIGNATED, Appointment, GamingDay, LoginSetup, Person

# The slips shown beside each role or login given: the latest; the register lists every one (a
# login given at noon to a cashier who then signs hundreds of slips must not make the queue grow).
SLIPS_SHOWN = 10


@dataclass
class Given:
    appointment: Appointment
    slips: list[Slip] = field(default_factory=list)  # the latest its holder signed that day, oldest first
    signed: int = 0  # how many slips its holder signed that day

    @property
    def more(self) -> int:
        return self.signed - len(self.slips)


def logins_to_confirm(event) -> list[LoginSetup]:
    """Setup codes made for a designated person's login that wait for another designated person's
    confirmation, still usable (not used, not expired)."""
    now = timezone.now()
    return [setup for setup in _UNCONFIRMED_IN_FULL.objects(event.pk) if _usable(setup.expires_at, now)]


def _usable(expires_at, now) -> bool:
    """A setup code not expired yet. Compared here, not in the queries: they are compiled once
    (core.compiled), and the time is each request's own."""
    return expires_at > now


def _unconfirmed(event_id: int):
    """Setup codes of designated persons' logins, not confirmed and not used, expired or not."""
    return LoginSetup.objects.filter(
        person__event_id=event_id, confirm_needed=True, confirmed_by__isnull=True, used_at__isnull=True
    )


def _to_acknowledge(event_id: int):
    """Roles and logins given during a day not closed, not acknowledged yet."""
    return Appointment.objects.filter(person__event_id=event_id, acknowledged_by__isnull=True).exclude(
        day__status=GamingDay.Status.CLOSED
    )


# Compiled once (core.compiled): the cage home asks how many wait on every page, the queue which, and
# an import's close which of its day's. The codes' expiry is compared in Python (_usable).
_UNCONFIRMED_EXPIRY = Compiled(lambda event_id: _unconfirmed(event_id).values_list("expires_at"))
_UNCONFIRMED_IN_FULL = Compiled(
    lambda event_id: _unconfirmed(event_id).select_related("person", "user", "made_by").order_by("made_at")
)
_TO_ACKNOWLEDGE = Compiled(lambda event_id: _to_acknowledge(event_id).values_list("pk"))
_GIVEN = Compiled(lambda event_id: _to_acknowledge(event_id).select_related("person", "day", "made_by"))
_GIVEN_ON = Compiled(
    lambda event_id, day_id: _to_acknowledge(event_id).filter(day_id=day_id).select_related("person", "day", "made_by")
)


def given_to_acknowledge(event, *, day: GamingDay | None = None) -> list[Given]:
    """Roles and logins given during a day not yet closed (or `day`), not yet acknowledged, each
    with how many slips its holder signed that day and the latest SLIPS_SHOWN of them: for each
    holder, a count, and the latest read where there are any (compiled once: the queue asks on every
    refresh). Ranking every signature of the day (window functions) cost a season's day 28 ms; these
    cost well under one (issue 25)."""
    waiting = _GIVEN_ON.objects(event.pk, day.pk) if day is not None else _GIVEN.objects(event.pk)
    items = [Given(a) for a in waiting]
    signed: dict[tuple[int, int], int] = {}
    latest: dict[tuple[int, int], list[Slip]] = {}
    for item in items:
        key = (item.appointment.person_id, item.appointment.day_id)
        if key not in signed:
            signed[key] = _SIGNED_ON.count(*key)
            latest[key] = _LATEST_SIGNED.objects(*key, limit=SLIPS_SHOWN) if signed[key] else []
        item.signed = signed[key]
        item.slips = sorted(latest[key], key=lambda slip: (slip.at, slip.pk))
    return items


def _latest_signed(person_id: int, day_id: int):
    """The slips of a day that a person signed, the latest first: read from the day's end back by
    the slips' index in the order they happened (cage_slip_day_in_order) until as many as are
    shown are found; sorting every slip of the day cost a season's day 4 ms for a holder who had
    signed most of them."""
    return Slip.objects.filter(day_id=day_id, signatures__person_id=person_id).order_by("-at", "-id")


_SIGNED_ON = Compiled(lambda person_id, day_id: Signature.objects.filter(person_id=person_id, slip__day_id=day_id))
_LATEST_SIGNED = Compiled(_latest_signed)


def waiting_count(event) -> int:
    """How many logins to confirm and roles or logins to acknowledge wait, for the cage's page to
    point at the queue. Two queries."""
    now = timezone.now()
    to_confirm = sum(1 for (expires_at,) in _UNCONFIRMED_EXPIRY.rows(event.pk) if _usable(expires_at, now))
    return to_confirm + _TO_ACKNOWLEDGE.count(event.pk)


def is_designated(person: Person | None) -> bool:
    return person is not None and bool(person.role_codes() & set(DESIGNATED))
