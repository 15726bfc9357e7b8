"""The one exception every refusal raises: a clear message that names the rule it applies.

A refusal is a whole sentence, translated whole (`_("… %(amount)s …") % {...}`), and the rule it
cites is data beside it, cited in the reader's language. The Ontario terms and conditions are
numbered differently in French: seed 000 numbers the designated persons' block 2.1, which the
English text leaves unnumbered (cited here as "T&C 2"), so English 2.1–2.7 are French 2.2–2.8.
"""

import re

from django.core.exceptions import ValidationError
from django.utils.translation import get_language, override
from django.utils.translation import gettext as _

# Told of each refusal as it is made, with the RuleViolation: the audit trail records the refusals
# of a request once it has been answered (audit.context.note_refusal, registered by audit.apps).
refusal_listeners: list = []

# "T&C 2.6", "T&C 2, 2.1", "T&C 2.6: pro rata", "count; T&C 2.6".
_SECTIONS = re.compile(r"T&C (\d+(?:\.\d+)*(?:, \d+(?:\.\d+)*)*)")


def french_section(section: str) -> str:
    """An English section number as the French text numbers it: "2" → "2.1", "2.6" → "2.7",
    "2.1.2" → "2.2.2"; sections 1, 3 and 4 are numbered alike in both."""
    parts = section.split(".")
    if parts[0] != "2":
        return section
    if len(parts) == 1:
        return "2.1"
    return ".".join(["2", str(int(parts[1]) + 1), *parts[2:]])


def cite(rule) -> str:
    """The rule as the reader's language cites it. `rule` is either a section of the terms and
    conditions, plain and untranslated ("T&C 2.6", "T&C 2, 2.1"), cited with the French numbering
    when the active language is French; or one of the product's own rules, named lazily
    translated (`gettext_lazy("nightly reconciliation")`) and holding no section number."""
    text = str(rule)
    if (get_language() or "").startswith("fr"):

        def renumber(match):
            sections = ", ".join(french_section(s) for s in match.group(1).split(", "))
            return _("T&C %(sections)s") % {"sections": sections}

        text = _SECTIONS.sub(renumber, text)
    return text


class RuleViolation(ValidationError):
    """Bad input refused by a rule. Nothing was changed.

    `message` is a whole sentence in the active language; `rule` is the reference to cite (for
    example "T&C 3.7", or a translatable one). The text ends with the rule, cited in the active
    language, so that a cashier, an importer log line and a test all read the same sentence.
    `rule_reference` keeps the rule in English, for the audit trail and for machines.
    """

    def __init__(self, message, rule, *, field: str | None = None):
        self.message_text = str(message)
        with override("en"):
            self.rule_reference = str(rule)
        self.rule = self.rule_reference
        self.citation = cite(rule)
        self.field = field
        self.text = _("%(message)s (%(rule)s)") % {"message": self.message_text, "rule": self.citation}
        super().__init__(self.text)
        for listener in refusal_listeners:
            listener(self)

    def __str__(self):
        return self.text
