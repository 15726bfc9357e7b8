"""The game modules' words in the reader's language: their refusals and the sections they cite.

A game module is pure Python and knows no language: it refuses with an events.games.base.Refusal,
an English sentence marked N_ (so the catalogue holds it) with its figures apart, and the section
of the seed it applies. Here the sentence is translated, amounts in cents are written as money
(core.money.dollars), and the section is named as the reader's language names it: the module's
names for the seeds' rules ("Blackjack rule 8.2", "S-13.1, r. 3, s. 37"), and the terms and
conditions renumbered as core.rules.cite does.
"""

from django.utils.functional import lazy
from django.utils.translation import get_language, gettext

from core.money import NBSP, dollars
from core.rules import Money, Words, cite

from .games.base import cite_section


def section_text(section: str) -> str:
    """One section (or several, joined with "; ") a game module cites, in the reader's language:
    French sets a no-break space before the semicolon that joins them."""
    named = [cite(cite_section(part, gettext)) for part in str(section).split("; ")]
    joiner = f"{NBSP}; " if (get_language() or "").startswith("fr") else "; "
    return joiner.join(named)


# For a RuleViolation's rule: the section, said in whichever language it is read in.
section_lazy = lazy(section_text, str)


def refusal_message(refusal) -> str:
    """The refusal's sentence in the reader's language, without its section."""
    return refusal.text(gettext, dollars)


def refusal_words(refusal) -> Words:
    """The refusal's sentence, to be put in words when it is read (the audit trail's reader's)."""
    return Words(
        refusal.message, **{name: Money(v) if name in refusal.money else v for name, v in refusal.params.items()}
    )


def refusal_sentence(refusal) -> str:
    """The refusal's sentence followed by the section it applies, as a refusal reads."""
    return gettext("%(message)s (%(rule)s)") % {
        "message": refusal_message(refusal),
        "rule": section_text(refusal.section),
    }
