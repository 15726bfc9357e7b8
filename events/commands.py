"""The base of the product's management commands: its help in the reader's language.

A command's `help` is marked for translation (gettext_lazy) and argparse wants text: the help is
made text, in the active language, as the parser is made, so `--help` answers instead of failing.
"""

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    def create_parser(self, prog_name, subcommand, **kwargs):
        self.help = str(self.help)
        return super().create_parser(prog_name, subcommand, **kwargs)
