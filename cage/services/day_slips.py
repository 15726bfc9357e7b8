"""What a table's opening and closing, and the day's close, ask of the day's slips: whether the
table has opened today, which of its fills, credits and voids have not finished changing hands, and
whether any slip may still wait for a signature.

At the window each is a query or two. An import asks them at every table's opening and closing, and
each such query, reading the slips' table, first wrote out every row the import held for its bulk
write (cage.services.memo): on a small fair that was most of the import's time, a cost per table
and day instead of per record. So within an import the day's answers are kept in its memory: read
once a day (or known empty for a day the import has just added), then kept up to date by every slip
the import writes (`remember_written`, called by cage.services.ledger as it holds a slip and its
signatures). A write that does not go through there (a signature added to a slip later, a refusal)
drops them (cage.services.memo.Memo.before_query), and so does any refusal, with the rest of the
memory: they are read again from the database, which stays the truth.

The rule of what is unfinished is `unfinished_ids`, whichever way the facts were read. Whether a
slip waits for a signature stays the database's to say (cage.selectors.slips.unsigned): the memory
only knows when no slip of the day can, which is what the close of an imported day finds.
"""

from cage.models import Signature, Slip
from cage.selectors.slips import unsigned
from cage.slip_types import OPENERS, SLIP_KINDS, VOID_KIND, types_that

from . import memo as remembered
from .memo import DaySlips

# The slips whose chips change hands in steps (fills and credits), and the voids of a table's slips,
# which put chips back on a table only once carried out.
CUSTODY_TYPES = (*types_that(lambda k: k.two_step), VOID_KIND.type)


def _custody_read(day, table=None) -> dict:
    slips = Slip.objects.filter(day=day, slip_type__in=CUSTODY_TYPES, refusal__isnull=True)
    slips = slips.exclude(slip_type=VOID_KIND.type, table__isnull=True)
    if table is not None:
        slips = slips.filter(table=table)
    # A fill named by a void asked for is the void's to finish: the void is listed, not the fill.
    custody = {
        pk: (t, table_id, set()) for pk, t, table_id in slips.free_of_voids().values_list("pk", "slip_type", "table_id")
    }
    # The capacities signed as plain pairs: a Signature instance for each was most of an imported
    # close's time.
    for slip_id, capacity in Signature.objects.filter(slip_id__in=list(custody)).values_list("slip_id", "capacity"):
        custody[slip_id][2].add(capacity)
    return custody


def _read(day) -> DaySlips:
    opened = set(Slip.objects.filter(day=day, slip_type__in=OPENERS).values_list("table_id", "slip_type"))
    waiting = set(unsigned(Slip.objects.filter(day=day)).values_list("pk", flat=True))
    return DaySlips(opened=opened, custody=_custody_read(day), unsigned=waiting)


def _remembered(day) -> DaySlips | None:
    """The import's facts of the day, read once; None outside an import."""
    memo = remembered.current()
    if memo is None:
        return None
    facts = memo.day_slips.get(day.pk)
    if facts is None:
        facts = memo.day_slips[day.pk] = _read(day)
    return facts


def opened_today(day, table, slip_type: str) -> bool:
    facts = _remembered(day)
    if facts is not None:
        return (table.pk, slip_type) in facts.opened
    return Slip.objects.filter(day=day, table=table, slip_type=slip_type).exists()


def unfinished_ids(custody: dict, table_id: int | None = None) -> list[int]:
    """The slips of `custody` (a table's, or all) not signed through their last custody step."""
    return [
        pk
        for pk, (slip_type, slip_table, signed) in custody.items()
        if (table_id is None or slip_table == table_id)
        and SLIP_KINDS[slip_type].steps_done(signed) < SLIP_KINDS[slip_type].steps
    ]


def unfinished_custody(day, *, table=None) -> list[Slip]:
    """Fills and credits of the day whose chips have not finished changing hands (not voided), and
    voids of a table's slips that have not yet been carried out: the table's count would miss them."""
    facts = _remembered(day)
    custody = facts.custody if facts is not None else _custody_read(day, table)
    unfinished = unfinished_ids(custody, table.pk if table is not None else None)
    return list(Slip.objects.filter(pk__in=unfinished)) if unfinished else []


def remember_written(memo, slip: Slip, signed) -> None:
    """An import wrote `slip` with the capacities `signed`: its day's facts follow it, if read."""
    facts = memo.day_slips.get(slip.day_id)
    if facts is None:
        return
    if slip.slip_type in OPENERS:
        facts.opened.add((slip.table_id, slip.slip_type))
    if slip.slip_type in CUSTODY_TYPES and not (slip.slip_type == VOID_KIND.type and slip.table_id is None):
        facts.custody[slip.pk] = (slip.slip_type, slip.table_id, set(signed))
    if slip.voids_id is not None:
        facts.custody.pop(slip.voids_id, None)
    if not SLIP_KINDS[slip.slip_type].signed_in_full(signed, slip.details):
        facts.unsigned.add(slip.pk)


def nothing_waits(day) -> bool:
    """Within an import, whether no slip of the day can be waiting for a signature: every slip it
    wrote was signed in full (a records file's record is). False outside an import, or when one
    was not: the database is asked (cage.selectors.slips.pending_slips)."""
    facts = _remembered(day)
    return facts is not None and not facts.unsigned
