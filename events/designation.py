"""Who may hold what at an event, and who may sign: one hat per designated person, and none for the
licensee's administrator. Read by the services that give roles, logins and shifts (events.services),
by the cage's signatures (cage.services.ledger.check_signer) and by the report's (reports.services).

T&C 2: the DRIC supervises and witnesses, the General and Chip Cashiers run the bank (2.1); the
dealers and the chip and table runners work the floor under them, and only a dealer takes a share of
the tips (2.5, 2.6). A designated person who also dealt or ran chips would supervise and witness
their own work, and take tips the rules keep for dealers: so a designated person holds no floor role
in the same event. The licensee's administrator sets events up and gives logins; holding no role,
they sign nothing, so no slip, close or report is ever completed by whoever controls the logins.
"""

from django.utils.translation import gettext_noop as N_

from core.rules import Lower, RuleViolation, Words

from .models import DESIGNATED, Person, Role

FLOOR = (Role.RUNNER, Role.DEALER)
ONE_HAT = "T&C 2, 2.5, 2.6"
ADMINISTRATOR = "T&C 2"


def is_administrator(user) -> bool:
    return user is not None and bool(getattr(user, "is_staff", False))


def check_not_administrator(person: Person, user=None, *, field: str | None = None) -> None:
    """A person of an event is never the licensee's administrator's login (`user`: the login about
    to be theirs; else their own)."""
    user = user if user is not None else (person.user if person.user_id else None)
    if is_administrator(user):
        raise RuleViolation(
            Words(
                N_(
                    "the login %(username)s is the licensee's administrator's: the administrator sets events up and "
                    "signs nothing, so %(name)s cannot hold a role or sign with it"
                ),
                username=user.get_username(),
                name=person.name,
            ),
            ADMINISTRATOR,
            field=field,
            code="role.administrator_login",
        )


def check_one_hat(person: Person, role: str, held: set[str], *, field: str | None = "role") -> None:
    """Giving `role` to a person who holds `held`: a designated person holds no floor role, and a
    dealer or runner holds no designated position, in the same event."""
    if role in DESIGNATED:
        floor = [r for r in FLOOR if r in held]
        if floor:
            raise RuleViolation(
                Words(
                    N_(
                        "%(name)s works on the floor as %(floor)s and cannot also be %(position)s: a designated "
                        "person holds no floor role (dealer, runner) in the same event"
                    ),
                    name=person.name,
                    floor=Role(floor[0]).label,
                    position=Role(role).label,
                ),
                ONE_HAT,
                field=field,
                code="role.floor_then_designated",
            )
    elif role in FLOOR:
        designated = [r for r in DESIGNATED if r in held]
        if designated:
            raise RuleViolation(
                Words(
                    N_(
                        "%(name)s is %(position)s and cannot also be %(floor)s: a designated person holds no floor "
                        "role (dealer, runner) in the same event, and only dealers share the tips"
                    ),
                    name=person.name,
                    position=Role(designated[0]).label,
                    floor=Role(role).label,
                ),
                ONE_HAT,
                field=field,
                code="role.designated_then_floor",
            )


def check_takes_part(person: Person) -> None:
    """T&C 2.3: nobody whose registration was refused, revoked or suspended takes any part: they
    sign nothing and confirm nothing."""
    if person.registration != Person.Registration.GOOD:
        raise RuleViolation(
            Words(
                N_("%(name)s's registration is %(registration)s; they may not take part"),
                name=person.name,
                registration=Lower(Person.Registration(person.registration).label),
            ),
            "T&C 2.3",
            code="person.may_not_take_part",
        )


def designated(person: Person) -> bool:
    return bool(person.role_codes() & set(DESIGNATED))


def designated_role(person: Person | None) -> str | None:
    """The designated position a person holds on their event (T&C 2: at most one), or None."""
    if person is None or person.registration != Person.Registration.GOOD:
        return None
    held = person.role_codes()
    return next((role for role in DESIGNATED if role in held), None)
