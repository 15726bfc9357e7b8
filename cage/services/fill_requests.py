"""A dealer's fill request, from her tablet at the table: the chips she wants. It moves nothing, so
it is no slip and takes no signature; the Chip Cashier makes it into a fill (the slip that moves the
chips, T&C 2.1.2), or declines it with a reason, or the dealer withdraws it. The request and its
outcome are written once and never changed (cage.models.FillRequest, FillRequestOutcome); each is
on the audit trail."""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from audit.services import record
from cage.models import FillRequest, FillRequestOutcome, Slip
from cage.selectors.fill_requests import already_answered, dealer_tables
from cage.slip_fields import check_note
from cage.slip_types import SLIP_KINDS
from core.rules import Day, RuleViolation, Words
from events.models import GameTable, GamingDay, Person, Role

from .ledger import chips_legs_value, denominations, lock_table

# The Chip Cashier controls fills, and a fill goes to an open table (T&C 2.1.2): what the fill
# form and its service cite.
FILL_RULE = "T&C 2.1.2"


def _check_day(day: GamingDay | None) -> GamingDay:
    if day is None or day.status != GamingDay.Status.OPEN:
        raise RuleViolation(
            Words(N_("no gaming day is open: a fill is asked for only while the floor is open")),
            FILL_RULE,
            code="fill_request.day_not_open",
        )
    return day


def ask(*, day: GamingDay | None, table: GameTable, chips: dict, note: str = "", person: Person) -> FillRequest:
    """A dealer at `table` today asks for `chips`."""
    day = _check_day(day)
    note = check_note(note)
    with transaction.atomic():
        if table.event_id != day.event_id:
            raise RuleViolation(
                Words(N_("table %(table)s is not on this event"), table=table.code),
                FILL_RULE,
                code="table.not_on_event",
            )
        table = lock_table(table)
        if table.state != GameTable.State.OPEN:
            raise RuleViolation(
                Words(N_("table %(table)s is closed; a fill is asked for an open table"), table=table.code),
                FILL_RULE,
                field="table",
                code="fill_request.table_not_open",
            )
        if Role.DEALER not in person.role_codes() or table.pk not in dealer_tables(day, person):
            raise RuleViolation(
                Words(
                    N_(
                        "%(name)s is not the dealer at table %(table)s on %(date)s: a fill is asked for by the "
                        "dealer who counted the table's opener today"
                    ),
                    name=person.name,
                    table=table.code,
                    date=Day(day.date),
                ),
                FILL_RULE,
                field="table",
                code="fill_request.not_the_dealer",
            )
        chips_legs_value(day.event, chips)  # refuses no chips, an unknown chip, a bad count
        order = [d.key for d in denominations(day.event)]
        asked = FillRequest.objects.create(
            event=day.event,
            day=day,
            table=table,
            chips={key: chips[key] for key in order if chips.get(key)},
            note=note,
            asked_by=person,
            at=timezone.now(),
        )
        _trail("fill_requested", N_("%(name)s asked for a fill of table %(table)s"), asked, person)
    return asked


def _trail(action: str, message: str, asked: FillRequest, person: Person, **new) -> None:
    record(
        action,
        message,
        {"name": person.name, "table": asked.table.code, "request": asked.pk},
        event=asked.event,
        about=person,
        new={"request": asked.pk, "table": asked.table.code, "chips": asked.chips, "note": asked.note, **new},
    )


def _outcome_of(asked: FillRequest) -> FillRequestOutcome | None:
    return FillRequestOutcome.objects.filter(request=asked).select_related("slip", "person").first()


def _answered(done: FillRequestOutcome | None) -> RuleViolation:
    """The refusal of a request someone has answered already, saying who answered it, how and when
    (a dealer's stale Withdraw reads it on her tablet); without who or how when `done` is not yet
    readable here (answered at the same moment from another terminal)."""
    return RuleViolation(already_answered(done), FILL_RULE, code="fill_request.answered")


def _answer(asked: FillRequest, outcome: str, person: Person, **fields) -> FillRequestOutcome:
    """The request's one outcome; a request already answered is refused, whoever answered it."""
    asked = FillRequest.objects.select_for_update().get(pk=asked.pk)
    done = _outcome_of(asked)
    if done is not None:
        raise _answered(done)
    try:
        with transaction.atomic():
            return FillRequestOutcome.objects.create(
                request=asked, outcome=outcome, person=person, at=timezone.now(), **fields
            )
    except IntegrityError:  # answered at the same moment from another terminal
        raise _answered(_outcome_of(asked)) from None


@transaction.atomic
def withdraw(*, asked: FillRequest, person: Person) -> FillRequestOutcome:
    """The dealer who asked takes her request back."""
    if asked.asked_by_id != person.pk:
        raise RuleViolation(
            Words(N_("only %(name)s, who asked for it, withdraws this fill request"), name=asked.asked_by.name),
            FILL_RULE,
            code="fill_request.not_yours",
        )
    done = _answer(asked, FillRequestOutcome.Outcome.WITHDRAWN, person)
    _trail("fill_request_withdrawn", N_("%(name)s withdrew the fill request for table %(table)s"), asked, person)
    return done


@transaction.atomic
def decline(*, asked: FillRequest, person: Person, reason: str) -> FillRequestOutcome:
    """The Chip Cashier declines a request, with a reason the dealer reads on her tablet."""
    # The dealer reads the reason on her tablet as she reads a request's note: held to the same line.
    reason = check_note(
        reason,
        field="reason",
        too_long=N_("the reason is %(length)s characters long; it takes at most %(most)s"),
        code="fill_request.reason_too_long",
    )
    if not reason:
        raise RuleViolation(
            Words(N_("declining a fill request needs a reason")),
            FILL_RULE,
            field="reason",
            code="fill_request.reason_missing",
        )
    if Role.CHIP_CASHIER not in person.role_codes():
        raise RuleViolation(
            Words(
                N_("a fill request is declined by the Chip Cashier; %(name)s does not hold that role"), name=person.name
            ),
            FILL_RULE,
            code="fill_request.not_chip_cashier",
        )
    done = _answer(asked, FillRequestOutcome.Outcome.DECLINED, person, reason=reason)
    _trail(
        "fill_request_declined",
        N_("%(name)s declined the fill request for table %(table)s"),
        asked,
        person,
        reason=reason,
    )
    return done


def made_into(asked: FillRequest, slip: Slip, *, signed: dict, created_by=None) -> FillRequestOutcome:
    """The fill `slip`, written from the request, answers it: called inside the fill's own
    transaction (cage.services.slips.fill), so the fill and its link stand or fall together. Who
    answered: the Chip Cashier who issued it, else the person whose login wrote it."""
    if not SLIP_KINDS[slip.slip_type].asked_for or asked.event_id != slip.event_id or asked.table_id != slip.table_id:
        raise RuleViolation(
            Words(N_("a fill request is made into a fill of its own table")),
            FILL_RULE,
            code="fill_request.other_table",
        )
    person = signed.get("issued_by")
    if person is None and created_by is not None:
        person = Person.objects.filter(event_id=slip.event_id, user=created_by).first()
    if person is None:
        raise RuleViolation(
            Words(N_("a fill request is made into a fill by the Chip Cashier who issues it")),
            FILL_RULE,
            code="fill_request.no_issuer",
        )
    return _answer(asked, FillRequestOutcome.Outcome.MADE, person, slip=slip)
