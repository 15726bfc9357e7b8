"""The one exception every refusal raises: a clear message that names the rule it applies.

A refusal is a whole sentence, translated whole (`_("… %(amount)s …") % {...}`), and the rule it
cites is data beside it, cited in the reader's language. The Ontario terms and conditions are
numbered differently in French: seed 000 numbers the designated persons' block 2.1, which the
English text leaves unnumbered (cited here as "T&C 2"), so English 2.1–2.7 are French 2.2–2.8.
"""

import datetime
import re

from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy, ngettext, override, pgettext, pgettext_lazy
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


# --- a sentence put in words when it is read ------------------------------------------------------


class Sentence:
    """Something said that is put in words as it is read (Words, Several)."""

    def stored(self) -> dict:
        raise NotImplementedError

    @staticmethod
    def from_stored(data: dict) -> "Sentence":
        if "several" in data:
            return Several(*(_restored(part) for part in data["several"]), sep=data.get("sep", " "))
        return Words.from_stored(data)


def listed(parts) -> str:
    """Parts of a sentence one after another, between semicolons as the reader's language writes
    them (French puts a no-break space before one)."""
    return pgettext("between the parts of a list", "; ").join(str(part) for part in parts)


def N_plural(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - a mark, as N_ is
    """A sentence with a plural, marked for the catalogue (makemessages: --keyword=N_plural:1,2)
    and translated when read: Words(N_plural(...), plural_by="n", n=3)."""
    return (singular, plural)


class Words(Sentence):
    """A sentence kept as its English template and its values, and put in words when it is read: in
    the reader's language and number format, whatever language it was said in. A refusal is one
    (RuleViolation): the cashier reads it in theirs as it is made, and the audit trail keeps it as
    `stored()` and shows it to each reader in theirs (audit.models.AuditEntry.summary_with).

    Its values are kept as what they are, not as the words of one language: an amount in cents
    (Money), a moment, a day or a time of day (When, Day, Clock), a name the product
    translates (a lazily translated label), a rule to cite (Cited), a value in small letters
    (Lower), another sentence; names and numbers as they are."""

    __slots__ = ("msgid", "plural", "plural_by", "params")

    def __init__(self, msgid, /, *, plural_by: str | None = None, **params):
        if isinstance(msgid, tuple):  # N_plural: (singular, plural), chosen by the value `plural_by`
            self.msgid, self.plural = (str(m) for m in msgid)
        else:
            self.msgid, self.plural = str(msgid), None
        self.plural_by = plural_by
        self.params = params

    def __str__(self) -> str:
        if self.plural is not None:
            text = ngettext(self.msgid, self.plural, self.params[self.plural_by])
        else:
            text = _(self.msgid)
        if not self.params:
            return text
        return text % {key: _said(value) for key, value in self.params.items()}

    def __repr__(self):
        return f"Words({self.msgid!r}, **{self.params!r})"

    def stored(self) -> dict:
        stored = {"words": self.msgid, "with": {key: _stored(value) for key, value in self.params.items()}}
        if self.plural is not None:
            stored.update(plural=self.plural, plural_by=self.plural_by)
        return stored

    @classmethod
    def from_stored(cls, data: dict) -> "Words":
        msgid = (data["words"], data["plural"]) if data.get("plural") else data["words"]
        params = {key: _restored(value) for key, value in (data.get("with") or {}).items()}
        return cls(msgid, plural_by=data.get("plural_by"), **params)


class Several(Sentence):
    """Sentences, or parts of one, said one after another (every rule a wheel layout breaks; the
    differences of a count, joined with ", ")."""

    def __init__(self, *parts, sep: str = " "):
        self.parts = parts
        self.sep = sep

    def __str__(self) -> str:
        if self.sep == "; ":
            return listed(_said(part) for part in self.parts)
        return self.sep.join(str(_said(part)) for part in self.parts)

    def stored(self) -> dict:
        return {"several": [_stored(part) for part in self.parts], "sep": self.sep}


class _Value:
    """A value of a sentence that is put in words as it is read."""

    kind = ""

    def __init__(self, value):
        self.value = value

    def stored(self):
        return {self.kind: self.value}

    def __str__(self) -> str:
        return self.words()

    def __eq__(self, other):
        return type(other) is type(self) and other.value == self.value

    __hash__ = None


class Money(_Value):
    """An amount in cents: "$1,234.56", "1 234,56 $"."""

    kind = "cents"

    def words(self) -> str:
        from core.money import dollars  # the product's one writer of amounts

        return dollars(self.value)


class _Moment(_Value):
    writer = ""

    def __init__(self, value):
        super().__init__(value)

    def stored(self):
        return {self.kind: self.value.isoformat()}

    def words(self) -> str:
        from core import local

        return getattr(local, self.writer)(self.value)


class When(_Moment):
    """A moment or a date, as core.local.moment writes it."""

    kind, writer = "moment", "moment"


class Day(_Moment):
    kind, writer = "day", "day"


class LongDay(_Moment):
    """A date a sentence once wrote in words: read back from what was kept before dates took one
    style, and written now as every date is."""

    kind, writer = "long_day", "day"


class Clock(_Moment):
    kind, writer = "clock", "clock"


class ClockZone(_Moment):
    """A time of day with its zone, to be tried again at: "18:30 EDT", "18 h 30 HAE"."""

    kind = "clock_zone"

    def words(self) -> str:
        from core import local

        return f"{local.clock(self.value)} {local.zone_name(self.value)}"


class Face(_Value):
    """A chip's face value from its key ("5", "0.50"): "$5", "0,50 $"."""

    kind = "face"

    def words(self) -> str:
        from core.money import face

        return face(self.value)


class Lower(_Value):
    """A value in small letters, as a sentence says a name in its middle ("a fill")."""

    kind = "lower"

    def stored(self):
        return {self.kind: _stored(self.value)}

    def words(self) -> str:
        return said(self.value).lower()


class Cited(_Value):
    """A rule cited in the reader's numbering ("T&C 2.6" is M&C 2.7 in French)."""

    kind = "cite"

    def words(self) -> str:
        return cite(self.value)


_MOMENTS = {cls.kind: cls for cls in (When, Day, LongDay, Clock, ClockZone)}


def _said(value):
    """A value of a sentence in the reader's words; a number or a name as it is."""
    return str(value) if isinstance(value, (Sentence, _Value, Promise)) else value


def said(value) -> str:
    return str(value)


def _stored(value):
    if isinstance(value, Sentence):
        return value.stored()
    if isinstance(value, _Value):
        return value.stored()
    if isinstance(value, Promise):
        # A lazily translated name: kept as its English (and its context), translated when read.
        # The call a lazy string stands for, as pickling reads it: (function, its arguments, ...).
        func, args = value.__reduce__()[1][:2]
        name = getattr(func, "__name__", "")
        if name == "pgettext" and len(args) == 2:
            return {"name": args[1], "context": args[0]}
        if name == "gettext" and len(args) == 1:
            return {"name": args[0]}
        with override("en"):
            return {"name": str(value)}
    if isinstance(value, datetime.datetime | datetime.date):
        return When(value).stored()
    if isinstance(value, (int, float, str)) or value is None:
        return value
    return str(value)


def _restored(value):
    if not isinstance(value, dict):
        return value
    if "words" in value or "several" in value:
        return Sentence.from_stored(value)
    if "cents" in value:
        return Money(value["cents"])
    if "name" in value:
        name = value["name"]
        return pgettext_lazy(value["context"], name) if value.get("context") else gettext_lazy(name)
    if "lower" in value:
        return Lower(_restored(value["lower"]))
    if "cite" in value:
        return Cited(value["cite"])
    if "face" in value:
        return Face(value["face"])
    for kind, cls in _MOMENTS.items():
        if kind in value:
            text = value[kind]
            parsed = datetime.datetime.fromisoformat(text) if "T" in text else datetime.date.fromisoformat(text)
            if kind == "clock" and ":" in text and "T" not in text and "-" not in text:
                parsed = datetime.time.fromisoformat(text)
            return cls(parsed)
    return str(value)


class Rule:
    """One of the product's own rules: named in the reader's language when cited, and known to a
    program by its code, which never changes with the language (a refusal's `rule_code`)."""

    def __init__(self, code: str, name):
        self.code = code
        self.name = name  # lazily translated: gettext_lazy("amount limits of a slip or count")

    def __str__(self):
        return str(self.name)

    def __repr__(self):
        return f"Rule({self.code!r})"


class RuleViolation(ValidationError):
    """Bad input refused by a rule. Nothing was changed.

    `message` is a whole sentence in the active language; `rule` is the reference to cite (for
    example "T&C 3.7", or a translatable one). The text ends with the rule, cited in the active
    language, so that a cashier, an importer log line and a test all read the same sentence.
    `rule_reference` keeps the rule in English, for the audit trail; `rule_code` names it for a
    program: a Rule's code, or the section itself ("T&C 3.7"), never words of a language.

    `code` names the refusal itself, stable whatever its wording or language ("fill.chips_short",
    "import.bad_amount"): a program (the importer, a test, the audit trail's reader) tells one
    refusal from another by it, and `arguments` are its values, as the sentence holds them.
    """

    def __init__(self, message, rule, *, code: str | None = None, field: str | None = None):
        # The sentence as its values, for the audit trail to put in its reader's words (Words).
        self.words = message if isinstance(message, Sentence) else None
        self.message_text = str(message)
        with override("en"):
            self.rule_reference = str(rule)
        self.rule_code = rule.code if isinstance(rule, Rule) else self.rule_reference
        self.rule = self.rule_reference
        self.citation = cite(rule)
        self.field = field
        self.text = _("%(message)s (%(rule)s)") % {"message": self.message_text, "rule": self.citation}
        super().__init__(self.text)
        # Set after ValidationError's own code and params: its params would be put into the text
        # again by %-formatting, so the sentence's arguments are kept under another name.
        self.code = code
        self.arguments = dict(message.params) if isinstance(message, Words) else {}
        for listener in refusal_listeners:
            listener(self)

    def __str__(self):
        return self.text
