"""What every form of the product refuses before it reads a value: input no person types.

A person at the cage types names, counts, amounts and dates; a forged or damaged request can carry
anything. Each form of the product mixes in CheckedInput, which looks at what was sent for every
field before the form's own rules use it, and puts a message that names the rule on the field:

- a value longer than the field can take (1,000 characters where the field sets no length);
- bytes that were not UTF-8 text (the request's decoding turns them into U+FFFD, "�");
- NUL and other control characters (a tab or a new line in a text box is fine);
- in a number, a date, a time or a choice of the list: any character but the ASCII digits and
  the punctuation they are written with, so "１２３" (full-width), "٣" or "²" are refused rather
  than read as numbers; a decimal number is digits with at most one point (no sign, exponent,
  underscore, NaN or Infinity); a choice from a list is its exact value ("+5" is not "5").

Surrounding spaces are trimmed, as the fields themselves do. Nothing is echoed back at length.
"""

import re
import unicodedata

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

INPUT_RULE = _("what the forms accept")
LONGEST_UNBOUNDED = 1000
# What a number, a date or a time is written with.
NUMBER_CHARACTERS = re.compile(r"[0-9 .,:T\-]*")
# A time of day as people write it, in French too: "23:45", "23 h 45".
TIME_CHARACTERS = re.compile(r"[0-9 .:hH]*")
PLAIN_DECIMAL = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")
CANONICAL_ID = re.compile(r"0|[1-9][0-9]{0,18}")
ALLOWED_CONTROLS = {"\t", "\n", "\r"}

NUMERIC_FIELDS = (forms.DecimalField, forms.IntegerField, forms.FloatField, forms.DateField, forms.TimeField)
NUMERIC_FIELDS += (forms.DateTimeField,)


def _first(characters, test) -> str | None:
    return next((c for c in characters if test(c)), None)


def _named(character: str) -> str:
    """A character as a message can show it, in any language: "a"; "１" (U+FF11) where it may look
    like a plain one; U+0000 for the invisible. (Unicode's own names are English only.)"""
    if unicodedata.category(character)[0] in "CZ" and character != " ":
        return f"U+{ord(character):04X}"
    return f"“{character}”" + ("" if character.isascii() else f" (U+{ord(character):04X})")


def raw_input_problem(field: forms.Field, value) -> str | None:
    """Why what was sent for this field is refused before it is read, or None."""
    values = value if isinstance(value, list | tuple) else [value]
    for item in values:
        if not isinstance(item, str):
            continue
        problem = _text_problem(field, item) or _number_problem(field, item.strip())
        if problem:
            return problem
    return None


def _text_problem(field, text: str) -> str | None:
    longest = getattr(field, "max_length", None) or LONGEST_UNBOUNDED
    if len(text) > longest:
        return _("This is %(length)s characters long; at most %(max)s are taken here (%(rule)s).") % {
            "length": f"{len(text):,}",
            "max": f"{longest:,}",
            "rule": INPUT_RULE,
        }
    if "\ufffd" in text:
        # The character as a placeholder: xgettext keeps a "\u" escape as it is written, so a
        # msgid holding one would never match the text looked up.
        return _("This contains bytes that are not UTF-8 text (shown as “%(char)s”); type it again (%(rule)s).") % {
            "char": "\ufffd",
            "rule": INPUT_RULE,
        }
    control = _first(text, lambda c: unicodedata.category(c) == "Cc" and c not in ALLOWED_CONTROLS)
    if control is not None:
        return _("This contains the control character %(char)s, which no one types (%(rule)s).") % {
            "char": _named(control),
            "rule": INPUT_RULE,
        }
    unpaired = _first(text, lambda c: unicodedata.category(c) == "Cs")
    if unpaired is not None:
        return _("This contains %(char)s, which is not a character (%(rule)s).") % {
            "char": _named(unpaired),
            "rule": INPUT_RULE,
        }
    return None


def _number_problem(field, text: str) -> str | None:
    if isinstance(field, forms.ModelChoiceField):
        if text and not CANONICAL_ID.fullmatch(text):
            return _("“%(text)s” is not one of the list's choices; choose from the list (%(rule)s).") % {
                "text": text[:20],
                "rule": INPUT_RULE,
            }
        return None
    if not isinstance(field, NUMERIC_FIELDS) or not text:
        return None
    allowed = TIME_CHARACTERS if isinstance(field, forms.TimeField) else NUMBER_CHARACTERS
    odd = _first(text, lambda c: not allowed.fullmatch(c))
    if odd is not None:
        return _(
            "“%(text)s” contains %(char)s: numbers, dates and times are written with the digits 0 to 9 (%(rule)s)."
        ) % {"text": text[:20], "char": _named(odd), "rule": INPUT_RULE}
    if isinstance(field, forms.DecimalField | forms.IntegerField | forms.FloatField) and not PLAIN_DECIMAL.fullmatch(
        text
    ):
        return _(
            "“%(text)s”: write a number with the digits 0 to 9 and at most one decimal point, as in 4.5; "
            "no sign, exponent or separators (%(rule)s)."
        ) % {"text": text[:20], "rule": INPUT_RULE}
    return None


class CheckedInput:
    """Mixin for a Form: the raw checks above, made before the form's own clean() uses a value.

    It runs at the start of clean(): a form whose clean() calls super().clean() first (as every
    form of the product does) never sees a refused value, so a malformed signing PIN, for one, is
    refused without being tried.
    """

    def clean(self):
        for name, field in self.fields.items():
            if field.disabled:
                continue
            # What was sent, as sent: a checkbox's widget reads any text as "ticked", and a
            # field sent twice is read once; every value sent is looked at.
            key = self.add_prefix(name)
            sent = self.data.getlist(key) if hasattr(self.data, "getlist") else self.data.get(key)
            problem = raw_input_problem(field, sent)
            if problem:
                # The rule's own message replaces the field's (which may repeat the whole value).
                self.errors.pop(name, None)
                self.add_error(name, problem)
        return super().clean()

    @property
    def hidden_errors(self) -> list[str]:
        """The errors of hidden fields (the slip form's one-time key), for a page that lays its
        fields out itself: what the person sees when the form was sent damaged."""
        return [
            _("The form was sent damaged (%(field)s): %(error)s Open it again and fill it in.")
            % {"field": name, "error": error}
            for name in self.fields
            if self[name].is_hidden
            for error in self.errors.get(name, [])
        ]


class Utf8FormMiddleware:
    """A form body in bytes that are not UTF-8 is read with those bytes as "\ufffd", so that the
    form refuses them as above. (Django falls back to reading such a body as Latin-1, which would
    turn them into letters nobody typed.) Browsers percent-encode what they send, so only a broken
    or forged request is concerned."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method == "POST" and request.content_type == "application/x-www-form-urlencoded":
            try:
                request.body.decode(request.encoding or "utf-8")
            except UnicodeDecodeError:
                request.POST = QueryDict(request.body.decode("utf-8", "replace"), encoding=request.encoding)
        return None
