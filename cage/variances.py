"""A variance's reason, as the nightly reconciliation gives it and as every sheet shows it.

The counter chooses a reason from a list (kept on the count slip as its code, `variance_reason`)
and may add words of their own (the slip's `reason`; for "other" they are required). A slip
without a code (an opener's variance, a count from a records file without the extension) has its
words only. Pages, sheets and PDFs show the list's label in the reader's language, never the code.
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


def _label_as_written(code: str) -> set[str]:
    """The label as a count could have written it as its words (the form writes the label when the
    counter adds none): in the reader's language, the site's, and the source's."""
    label = VARIANCE_REASONS[code]
    texts = {str(label)}
    with translation.override(settings.LANGUAGE_CODE):
        texts.add(str(label))
    with translation.override(None):
        texts.add(str(label))
    return texts


def variance_reason(details: dict | None, words: str) -> tuple[str, str]:
    """(reason, details) of a slip's variances, as people read them.

    With a code from the list: its label, and the counter's words when they say more than the
    label. Without one: the slip's words as its reason, and no details.
    """
    code = (details or {}).get("variance_reason")
    words = (words or "").strip()
    if code not in VARIANCE_REASONS:
        return words, ""
    return str(VARIANCE_REASONS[code]), "" if words in _label_as_written(code) else words
