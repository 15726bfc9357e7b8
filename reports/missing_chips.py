"""Chips missing from the supplier's count, and the supplier's bill for them: what the supplier bills
for chips not returned is an expense (cage-records/1), so the report shows them as pending until
that bill is entered, as an expense marked for them (cage.slip_fields.MissingChipsBill)."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from core.money import dollars


@dataclass
class MissingChips:
    """Chips missing from the supplier's count (the event's chip over/short, when short), what the
    supplier has billed for them as expenses (cage.slip_fields.MissingChipsBill), and what is
    pending until it does: the bill is an expense once it comes (cage-records/1)."""

    missing: int
    billed: int

    @property
    def pending(self) -> int:
        return max(self.missing - self.billed, 0)


def missing_chips(chip_over_short: int, expenses: list) -> MissingChips:
    """From the event's chip over/short in cents and its standing expenses (expenses_by_cheque)."""
    billed = sum(line.cents for line in expenses if line.slip.details.get("missing_chips"))
    return MissingChips(missing=max(-chip_over_short, 0), billed=billed)


def missing_chips_words(chips: MissingChips) -> str:
    return _(
        "Chips missing from the supplier's count: %(missing)s; billed by the supplier as expenses: %(billed)s; "
        "pending until it bills them: %(pending)s."
    ) % {"missing": dollars(chips.missing), "billed": dollars(chips.billed), "pending": dollars(chips.pending)}
