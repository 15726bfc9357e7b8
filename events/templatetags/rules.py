"""{{ "T&C 2.3"|cite }}: a section of the terms and conditions as the reader's language cites it
("M&C 2.4" in French, whose text numbers section 2 its own way; core.rules.cite)."""

from django import template

from core import rules

register = template.Library()


@register.filter
def cite(rule) -> str:
    return rules.cite(rule)


@register.filter
def section(rule) -> str:
    """A section a game module cites ("Wheel of Fortune rule 4", "s. 37") in the reader's language."""
    from events.game_text import section_text

    return section_text(rule)


@register.filter
def wheel_symbol(symbol) -> str:
    """A wheel's symbol as the reader writes it ("$5" is "5 $" in French; events.game_rules.symbol_text)."""
    from events.game_rules import symbol_text

    return symbol_text(str(symbol))
