"""Read-only queries for the cage's pages. Nothing here writes; the services are the only writers."""

from django.db.models import TextField
from django.db.models.functions import Cast


def json_text(column: str) -> Cast:
    """A JSON column read as its text, for json.loads: the JSON field's own conversion of each
    value costs about twice as much over a season's slips (the field has no decoder of its own)."""
    return Cast(column, TextField())
