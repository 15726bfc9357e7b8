"""{{ at|zone_name }}: the time zone's abbreviation in the reader's language ("EST", "HNE"), as
core.local writes it."""

from django import template

from core import local

register = template.Library()


@register.filter
def zone_name(at) -> str:
    return local.zone_name(at) if at else ""
