"""Django's makemessages, which also reads the product's short names for lazy and deferred
translation: `gettext_lazy as _lazy` (labels, rule names) and `gettext_noop as N_` (audit
entries, translated when shown). Without them xgettext never sees those strings, so they would
stay in English in French and the catalogue check could not notice."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=_lazy", "--keyword=N_"]
