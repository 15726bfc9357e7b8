"""{% cage_shortcuts event entry_kinds as shortcuts %}: the cage home's keyboard shortcuts in the
reader's language (cage.shortcuts), for its "Keyboard" help and the script that reads it."""

from django import template

from cage import shortcuts

register = template.Library()


@register.simple_tag
def cage_shortcuts(event, kinds):
    return shortcuts.shortcuts(event, kinds)
