"""A variance's reason, as the nightly reconciliation gives it and as every sheet shows it.

The counter chooses a reason from a list, kept on the count slip as its code (`variance_reason`
in its details), and may add words of their own (the slip's `reason`; for "other" they are
required). The slip keeps the code, never the list's label in the language of the screen it was
chosen on: pages, sheets and PDFs show the label in the reader's language. A slip without a code
(an opener's variance, a count from a records file without the extension) has its words only.

Slips written before the code was kept hold the label as their words, in the language of the
screen (English or French): they are read as the code they stand for. Slips are append-only
(cage.migrations.0006), so they are read so rather than rewritten.

The public formats (cage-records `reason`, cage-report `variances[].reason`) write the counter's
words, or, where there are none, the list's label in English, as they always have.
"""

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy

VARIANCE_REASONS = {
    "miscount": gettext_lazy("Miscount"),
    "missing_chips": gettext_lazy("Missing chips"),
    "foreign_chips": gettext_lazy("Foreign chips"),
    "cash_short": gettext_lazy("Cash short"),
    "cash_over": gettext_lazy("Cash over"),
    "other": gettext_lazy("Other"),
}


def _labels_as_written() -> dict[str, str]:
    """{a label as any of the product's languages writes it, lower case: its code}."""
    found = {}
    for language in [None] + [code for code, _name in settings.LANGUAGES]:
        with translation.override(language):
            found.update({str(label).strip().lower(): code for code, label in VARIANCE_REASONS.items()})
    return found


def chosen(details: dict | None, words: str) -> tuple[str | None, str]:
    """(code, the counter's own words) of a slip: the words are empty where they only repeat the
    chosen label (in any language), and an older slip's label alone is read as its code."""
    code = (details or {}).get("variance_reason")
    words = (words or "").strip()
    as_code = _labels_as_written().get(words.lower()) if words else None
    if code in VARIANCE_REASONS:
        return code, "" if as_code == code else words
    if as_code is not None:
        return as_code, ""
    return None, words


def own_words(code: str, words: str) -> str:
    """What a count keeps as its words beside the chosen code: nothing where they only repeat the
    label (the cage form of old wrote the label there; a records file may too)."""
    words = (words or "").strip()
    return "" if _labels_as_written().get(words.lower()) == code else words


def variance_reason(details: dict | None, words: str) -> tuple[str, str]:
    """(reason, details) of a slip's variances, as people read them.

    With a code from the list: its label, and the counter's words when they say more than the
    label. Without one: the slip's words as its reason, and no details.
    """
    code, words = chosen(details, words)
    if code is None:
        return words, ""
    return str(VARIANCE_REASONS[code]), words


def reason_in_records(details: dict | None, words: str) -> str:
    """The reason as the public formats write it: the counter's words, or the chosen label in
    English where the slip has no words of its own."""
    if (words or "").strip():
        return words
    code = (details or {}).get("variance_reason")
    if code not in VARIANCE_REASONS:
        return words or ""
    with translation.override(None):
        return str(VARIANCE_REASONS[code])
