"""{{ at|zone_name }}: the time zone's abbreviation in the reader's language ("EST", "HNE");
{{ date|long_day }}: a date in words for a title. The writers are core.local's."""

from django import template

from core import local

register = template.Library()


@register.filter
def zone_name(at) -> str:
    return local.zone_name(at) if at else ""


@register.filter
def long_day(date) -> str:
    return local.long_day(date) if date else ""
