"""Dealers' fill requests as people read them: those still open at the cage home, a dealer's own on
My slips, and the tables a dealer asks for."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop as N_

from cage.models import FillRequest, FillRequestOutcome, Signature
from cage.selectors.amounts import chip_counts
from cage.slip_types import OPENERS
from core.compiled import Compiled
from core.money import dollars
from core.rules import Clock, Words
from events.models import GameTable, GamingDay, Person
from events.selectors import chip_values

STATE_LABELS = {
    "open": _("Waiting for the cage"),
    FillRequestOutcome.Outcome.MADE: _("Made into a fill"),
    FillRequestOutcome.Outcome.WITHDRAWN: _("Withdrawn"),
    FillRequestOutcome.Outcome.DECLINED: _("Declined"),
}


# What became of a request already answered, as a whole sentence: what a stale Withdraw, Decline
# or "Make the fill" is told (cage.services.fill_requests), and what the fill form opened from it says.
Outcome = FillRequestOutcome.Outcome
ANSWERED = {
    Outcome.MADE: N_("This fill request was already answered: %(name)s made it into %(slip)s at %(time)s"),
    Outcome.DECLINED: N_("This fill request was already answered: %(name)s declined it at %(time)s"),
    Outcome.WITHDRAWN: N_("This fill request was already answered: %(name)s withdrew it at %(time)s"),
}


def already_answered(outcome: FillRequestOutcome | None) -> Words:
    """The sentence that says who answered a request, how and when; `outcome` None when it is not
    found (answered at the same moment from another terminal, and not yet readable here)."""
    if outcome is None:
        return Words(N_("This fill request was already answered from another terminal"))
    values = {"name": outcome.person.name, "time": Clock(outcome.at)}
    if outcome.slip_id:
        values["slip"] = outcome.slip.number
    return Words(ANSWERED[outcome.outcome], **values)


def dealer_tables(day: GamingDay, person: Person) -> set[int]:
    """The tables a dealer is at today: those whose opener she counted on this gaming day, as the
    slips waiting for her signature know her table (cage.selectors.slips.to_sign_at_my_table)."""
    return set(
        Signature.objects.filter(
            person=person, capacity="counted_by", slip__slip_type__in=OPENERS, slip__day=day
        ).values_list("slip__table_id", flat=True)
    )


def tables_to_ask_for(day: GamingDay | None, person: Person | None) -> list[GameTable]:
    """The open tables a dealer may ask a fill for today."""
    if day is None or person is None or day.status != GamingDay.Status.OPEN:
        return []
    return list(GameTable.objects.filter(pk__in=dealer_tables(day, person), state=GameTable.State.OPEN))


@dataclass
class Asked:
    request: FillRequest

    @property
    def state(self) -> str:
        outcome = getattr(self.request, "outcome", None)
        return "open" if outcome is None else outcome.outcome

    @property
    def state_label(self):
        return STATE_LABELS[self.state]

    @property
    def outcome(self) -> FillRequestOutcome | None:
        return getattr(self.request, "outcome", None)

    @property
    def answered(self) -> str:
        """Who answered it, how and when, as a sentence; "" while it waits."""
        return "" if self.outcome is None else str(already_answered(self.outcome))

    @property
    def chips(self) -> str:
        return ", ".join(chip_counts(self.request.chips))

    @property
    def dollars(self) -> str:
        values = chip_values(self.request.event)
        return dollars(sum(values.get(k, 0) * n for k, n in self.request.chips.items()))


def _requests(day: GamingDay):
    return (
        FillRequest.objects.filter(day=day)
        .select_related("table", "asked_by", "event", "outcome__slip", "outcome__person")
        .prefetch_related("event__denominations")
    )


def open_requests(day: GamingDay | None, *, latest: int) -> tuple[list[Asked], int]:
    """The day's requests no one has answered yet, the latest `latest` first, and how many more."""
    if day is None:
        return [], 0
    # Counted first, by a query compiled once: most refreshes of the cage home find none open, and
    # ask nothing more.
    total = _OPEN.count(day.pk)
    if not total:
        return [], 0
    rows = [Asked(r) for r in _requests(day).filter(outcome__isnull=True).order_by("-at", "-id")[:latest]]
    return rows, max(0, total - len(rows))


_OPEN = Compiled(lambda day_id: FillRequest.objects.filter(day_id=day_id, outcome__isnull=True).values_list("pk"))


def requests_of(day: GamingDay | None, person: Person | None, *, latest: int = 25) -> list[Asked]:
    """A dealer's own requests of the day, the latest first, whatever became of them."""
    if day is None or person is None:
        return []
    return [Asked(r) for r in _requests(day).filter(asked_by=person).order_by("-at", "-id")[:latest]]


def request_of(event, pk: int | None) -> FillRequest | None:
    """One request of the event by its id, with its outcome if it has one, or None."""
    if pk is None:
        return None
    found = FillRequest.objects.filter(event=event, pk=pk).select_related(
        "table", "asked_by", "day", "event", "outcome__slip", "outcome__person"
    )
    return found.first()
