"""Django's makemessages, also reading the product's two other marks: `N_` (gettext_noop, the
audit trail's summaries, kept in English and translated as the page is read) and `_lazy`
(gettext_lazy where `_` is gettext, such as the product's own rule names in refusals).
Without them xgettext would leave those strings out of the catalogue, untranslated and unseen
by tests/i18n.

msgmerge makes no fuzzy guesses: a new string close to a translated one ("%(slip)s printed" beside
"Slip printed") starts untranslated rather than with the other string's French, which the
catalogue check would only report as fuzzy."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=N_",
        "--keyword=_lazy",
        # core.rules.N_plural: a sentence with a plural, put in words when it is read.
        "--keyword=N_plural:1,2",
    ]
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
