"""Template filters for the cage's pages in either language."""

from django import template
from django.utils.html import escape, format_html_join

from core import money
from core.rules import cite as cite_rule

register = template.Library()


@register.filter
def cite(rule) -> str:
    """{{ "T&C 2.6"|cite }}: a section of the terms and conditions as the reader's language cites
    it ("T&C 2.6" in English, "M&C 2.7" in French: core.rules.cite). For a sentence that names
    its rule: {% blocktranslate with rule="T&C 2"|cite %}… ({{ rule }}).{% endblocktranslate %}

    Escaped here, for HTML: a template's string literal is "safe", and so was its English citation.
    """
    return escape(cite_rule(rule))


@register.filter
def face(key) -> str:
    """{{ d.key|face }}: a chip denomination's key as the reader's language writes the number
    ("0.50", "0,50"); the dollar sign belongs to the translated sentence around it."""
    return money.face(key)


@register.filter
def whole(n) -> str:
    """{{ total|whole }}: a count grouped as the reader's language groups it ("1,204", "1 204")."""
    return money.count_text(n)


@register.filter
def each_unbroken(chips: str):
    """ "40 × $5, 2 × $25" with each count kept on one line ("4 ×" above "$25" on a tablet read as
    two things); the list still wraps between counts. The text stays the text (the files and the
    sheets are not HTML)."""
    if not chips:
        return ""
    return format_html_join(", ", '<span class="unbroken">{}</span>', ((part,) for part in str(chips).split(", ")))
