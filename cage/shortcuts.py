"""The cage home's keyboard shortcuts: one key per action, in each language, declared once (a slip
kind's in its declaration, SlipKind.keys; "Find a slip" here).

The "Keyboard" help (templates/cage/_keyboard.html) prints each key and carries it as data-key; the
script (static/shortcuts.js) acts only on those data-key attributes. So the help a cashier reads
and the keys that work are the same list and cannot differ, in English or in French.
"""

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cage.slip_types import SLIP_KINDS

FIND = "find"  # the action that puts the cursor in "Find a slip" (the box's id: FIND_BOX)
FIND_BOX = "slip-filter"

# Each slip kind's key is in its declaration (SlipKind.keys): a letter of its name in that
# language. "Find a slip" is the page's own: English keeps "/" for the search, as the web does;
# French takes T (trouver), "/" being awkward on a French-Canadian keyboard.
FIND_KEYS = {"en": "/", "fr": "t"}
KEYS = {
    language: {**{kind.type: dict(kind.keys)[language] for kind in SLIP_KINDS.values() if kind.keys}, FIND: find}
    for language, find in FIND_KEYS.items()
}


@dataclass(frozen=True)
class Shortcut:
    key: str  # as the script compares it: KeyboardEvent.key, lower case
    label: str  # what it does, as the help says it
    href: str = ""  # where it goes, or
    focus: str = ""  # the id of the box it puts the cursor in

    @property
    def shown(self) -> str:
        """The key as printed on the keyboard: "V", "/"."""
        return self.key.upper()


def keys_for(language: str | None = None) -> dict[str, str]:
    """The keys of the reader's language ("fr-ca" reads "fr"), English for any other."""
    return KEYS.get((language or get_language() or "en").split("-")[0], KEYS["en"])


def shortcuts(event, kinds) -> list[Shortcut]:
    """The shortcuts of the cage home: a new slip of each type the window offers now (kinds: the
    home's entry_kinds) that has a key, in the order the page lists them, then "Find a slip"."""
    keys = keys_for()
    found = [
        Shortcut(
            key=keys[kind.type],
            label=_("New slip: %(slip)s") % {"slip": kind.label},
            href=reverse("cage:slip_new", args=[event.slug, kind.type.value]),
        )
        for kind in kinds
        if kind.type in keys
    ]
    return [*found, Shortcut(key=keys[FIND], label=_("Find a slip of the day"), focus=FIND_BOX)]
