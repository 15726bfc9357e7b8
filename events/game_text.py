"""The game modules' words in the reader's language: their refusals and the sections they cite.

A game module is pure Python and knows no language: it refuses with an English template marked
N_ (so the catalogue holds it), its values, and the section it applies. Here the template is
translated, amounts in cents are written as money, and the section is cited as the reader's
language cites it ("Wheel of Fortune rule 4" / "règle 4 de la roue de la fortune", "s. 37" /
"art. 37", T&C sections renumbered as events.rules.cite does).
"""

import re
from dataclasses import dataclass, field

from django.utils.functional import lazy
from django.utils.translation import gettext as _

from cage.money import dollars

from .rules import cite


@dataclass(frozen=True)
class Refusal:
    """The shape of a game module's refusal (events.games.base.Refusal)."""

    message: str
    params: dict = field(default_factory=dict)
    section: str = ""


_WHEEL = re.compile(r"^Wheel of Fortune rule (?P<number>[0-9.]+)$")
_WHEEL_RANGE = re.compile(r"^Wheel of Fortune rules (?P<first>[0-9.]+) (?P<how>to|and) (?P<last>[0-9.]+)$")
_BLACKJACK = re.compile(r"^Blackjack rule (?P<number>[0-9.]+)$")
_BLACKJACK_RANGE = re.compile(r"^Blackjack rules (?P<first>[0-9.]+) (?P<how>to|and) (?P<last>[0-9.]+)$")
_QUEBEC = re.compile(r"^(?:S-13\.1, r\. 3, )?s\. (?P<number>[0-9.]+(?: [0-9]+°)?)$")


def section_text(section: str) -> str:
    """One section a game module cites, as the reader's language cites it."""
    parts = [part.strip() for part in re.split(r";\s*", str(section)) if part.strip()]
    return "; ".join(_one_section(part) for part in parts)


def _one_section(section: str) -> str:
    if match := _WHEEL.match(section):
        return _("Wheel of Fortune rule %(number)s") % {"number": match["number"]}
    if match := _WHEEL_RANGE.match(section):
        if match["how"] == "to":
            return _("Wheel of Fortune rules %(first)s to %(last)s") % match.groupdict()
        return _("Wheel of Fortune rules %(first)s and %(last)s") % match.groupdict()
    if match := _BLACKJACK.match(section):
        return _("Blackjack rule %(number)s") % {"number": match["number"]}
    if match := _BLACKJACK_RANGE.match(section):
        if match["how"] == "to":
            return _("Blackjack rules %(first)s to %(last)s") % match.groupdict()
        return _("Blackjack rules %(first)s and %(last)s") % match.groupdict()
    if match := _QUEBEC.match(section):
        return _("S-13.1, r. 3, s. %(number)s") % {"number": match["number"]}
    return cite(section)


# For a RuleViolation's rule: the section, said in whichever language it is read in.
section_lazy = lazy(section_text, str)


def _value(name: str, value):
    if name.endswith("cents") and isinstance(value, int):
        return dollars(value)
    return value


def refusal_message(refusal) -> str:
    """The refusal's sentence in the reader's language, without its section."""
    params = {name: _value(name, value) for name, value in (refusal.params or {}).items()}
    return _(refusal.message) % params if params else _(refusal.message)


def refusal_sentence(refusal) -> str:
    """The refusal's sentence followed by the section it applies, as a refusal reads."""
    return _("%(message)s (%(rule)s)") % {
        "message": refusal_message(refusal),
        "rule": section_text(refusal.section),
    }
