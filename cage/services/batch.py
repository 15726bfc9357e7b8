"""The DRIC approves several slips from her queue at once (issue 25): the slips she ticked, or all
the queue shows, each through the one approve (cage.services.signing.approve), in one transaction:
a refusal of any one of them signs none, so what she confirmed is either all signed or all as it was.
"""

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from cage.models import Slip
from core.rules import N_plural, RuleViolation, Words
from events.models import Event, Person

from . import trail
from .signing import approve

# Approving several at once is her witness and authorization of each (T&C 2), given only to slips
# she has seen listed: she ticks them, or takes all the queue shows, and confirms that list.
BATCH_RULE = gettext_lazy("approving several slips: each one seen before it is signed")


def most_at_once() -> int:
    """As many as one page of the queue shows: "approve all shown" never takes more than she saw."""
    return settings.CAGE_QUEUE_ROWS


def chosen(event: Event, ids) -> list[Slip]:
    """The slips of `event` named by `ids` (as a form sends them: text), oldest first; refused when
    none is chosen, when more are chosen than one page shows, or when one is not a slip of the event.
    Reads only: the confirmation page asks it too, and writes nothing."""
    ids = list(dict.fromkeys(str(i).strip() for i in ids if str(i).strip()))
    if not ids:
        raise RuleViolation(
            Words(N_("no slip is chosen: tick the slips to approve, or choose Approve all shown")),
            BATCH_RULE,
            code="approve.nothing_chosen",
        )
    if len(ids) > most_at_once():
        raise RuleViolation(
            Words(
                N_plural(
                    "%(count)d slips are chosen: at most %(most)d is approved at once, as many as the queue shows",
                    "%(count)d slips are chosen: at most %(most)d are approved at once, as many as the queue shows",
                ),
                plural_by="most",
                count=len(ids),
                most=most_at_once(),
            ),
            BATCH_RULE,
            code="approve.too_many",
        )
    found = {
        str(s.pk): s
        for s in Slip.objects.filter(event=event, pk__in=[int(i) for i in ids if i.isdigit() and len(i) < 19])
        .select_related("event", "table", "runner", "voids", "day", "account__person")
        .order_by("at", "id")
    }
    unknown = next((i for i in ids if i not in found), None)
    if unknown is not None:
        raise RuleViolation(
            Words(N_("%(slip)s is not a slip of this event: nothing is approved"), slip=unknown[:20]),
            BATCH_RULE,
            code="approve.not_a_slip",
        )
    return list(found.values())


@transaction.atomic
def approve_batch(*, event: Event, ids, person: Person) -> list[Slip]:
    """Approve each chosen slip as the queue's Approve button does, oldest first, all or none: the
    first refusal undoes those already signed and is raised with `.slip`, the slip it refused, for
    the page to name. Each approval is on the audit trail as a single one is (its own entry), and
    the batch as one entry naming them all (trail.batch_approved)."""
    done = []
    for slip in chosen(event, ids):
        try:
            done.append(approve(slip=slip, person=person))
        except RuleViolation as refused:
            refused.slip = slip
            raise
    trail.batch_approved(event, done, person)
    return done
