"""Openers checked against the last closers, as people read them: flagged openers waiting for the
DRIC's sign-off, and the words for what an opener was checked against (cage.services.openers)."""

import datetime

from django.utils.translation import gettext as _

from cage.models import Slip
from cage.selectors.slip_rows import among, slips_read
from cage.slip_types import CLOSERS, OPENERS, SLIP_KINDS
from core import local
from core.compiled import Compiled
from core.reading import read_once
from events.models import GamingDay
from events.selectors import days_not_closed


def closer_check_of(slip: Slip) -> dict | None:
    return (slip.details or {}).get("closer_check") if slip.slip_type in OPENERS else None


# The day's openers, compiled once (core.compiled): the cage home and its refresh ask on every refresh.
_OPENERS_OF_DAY = Compiled(
    lambda day_id: (
        Slip.objects.filter(day_id=day_id, slip_type__in=OPENERS).order_by("id").values_list("table_id", "details")
    )
)


@read_once
def openers_of_day(day_id: int) -> dict[int, dict]:
    """{table id: its opener's details} of a day's openers (a table opens at most once a day), once
    per page (core.reading): the tables panel, the slip types offered and the trays awaiting their
    opener all ask it."""
    return {table_id: details or {} for table_id, details in _OPENERS_OF_DAY.rows(day_id)}


def is_flagged(slip: Slip) -> bool:
    """The opener differs from what its table's last closer left."""
    check = closer_check_of(slip)
    return bool(check and check.get("differences"))


def closer_name(check: dict) -> str:
    """ "Closer 2 of 11 Sep 2026": the date in words, as the sentences around it write theirs (the
    check keeps it ISO)."""
    closer = f"{SLIP_KINDS[CLOSERS[0]].label} {check['closer_serial']}"
    date = local.day(datetime.date.fromisoformat(check["date"]))
    return _("%(closer)s of %(date)s") % {"closer": closer, "date": date}


def differences_text(differences: dict[str, int]) -> str:
    """ "$5 chips: 1 short, $1 chips: 2 over": opener − what the closer left, per denomination."""
    # Imported here: cage.services imports this module, so importing cage.services at the top made
    # `manage.py day_report` (which reaches this module first) fail on a circular import.
    from cage.services.ledger import chips_label

    return ", ".join(
        (_("%(chips)s: %(count)s over") if n > 0 else _("%(chips)s: %(count)s short"))
        % {"chips": chips_label(key), "count": abs(n)}
        for key, n in differences.items()
    )


def check_text(check: dict) -> str:
    """What the opener was checked against and how it came out, in a sentence's words."""
    if check.get("differences"):
        return _("differs from what %(closer)s left: %(differences)s") % {
            "closer": closer_name(check),
            "differences": differences_text(check["differences"]),
        }
    return _("matches what %(closer)s left") % {"closer": closer_name(check)}


def _not_signed_off(slips):
    return slips.filter(slip_type__in=OPENERS, sign_off__isnull=True).values_list("pk", "slip_type", "details")


# The openers not signed off, a day's (by the day alone: cage.selectors.slips._waiting_of_day says
# why) or the event's days not closed, compiled once (core.compiled): the DRIC's queue asks on every
# refresh, and flagged ones are few or none.
_NOT_SIGNED_OFF = {
    True: Compiled(lambda day_id: _not_signed_off(Slip.objects.filter(day_id=day_id))),
    False: Compiled(lambda event_id: _not_signed_off(Slip.objects.filter(day__in=days_not_closed(event_id)))),
}


def waiting_sign_off(event, *, day: GamingDay | None = None) -> list[Slip]:
    """Flagged openers the DRIC has not signed off yet, oldest first (closed days have none: a day
    cannot close while one waits). One query, and two more for the flagged ones and their signers
    when there are any; openers are few (one per table per day), and flagged ones fewer."""
    rows = _NOT_SIGNED_OFF[day is not None].rows(day.pk if day else event.pk)
    # Read in full, with their signers, for the flagged alone: every table's opener of every day
    # not closed was read with its signatures and their people, for the few (or none) the DRIC signs off.
    flagged = [pk for pk, slip_type, details in rows if is_flagged(Slip(slip_type=slip_type, details=details))]
    if not flagged:
        return []
    # As SQL of its own (cage.selectors.slip_rows): an import closes every day with its flagged
    # openers, and the ORM's compiling of the two queries cost more than their reading.
    return slips_read(among(flagged), order=lambda slip: (slip.at, slip.pk))
