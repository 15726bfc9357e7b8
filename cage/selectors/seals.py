"""The seals of locked days (core.chain), as people read and type them."""

from cage.models import DaySeal
from core.chain import grouped


def seal_digest(day) -> str | None:
    """A locked day's seal as the chain has it (64 hex digits), or None while the day is not closed."""
    return DaySeal.objects.filter(day=day).values_list("digest", flat=True).first()


def seal_of(day) -> str | None:
    """A locked day's seal in groups of eight, or None while the day is not closed."""
    digest = seal_digest(day)
    return grouped(digest) if digest else None


def day_seals(event) -> list[tuple]:
    """(date, seal in groups of eight or None) for each gaming day of the event, in date order."""
    days = event.days.order_by("date").values_list("date", "seal__digest")
    return [(day, grouped(digest) if digest else None) for day, digest in days]
