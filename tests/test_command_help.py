"""Every command of the product answers --help, in English and in French (its help is marked for
translation, and argparse wants text: events.commands)."""

import contextlib
import io

import pytest
from django.core.management import ManagementUtility, get_commands
from django.utils import translation

PRODUCT_APPS = ("cage", "events", "reports", "audit")
COMMANDS = sorted(name for name, app in get_commands().items() if app in PRODUCT_APPS)


@pytest.mark.parametrize("language", ["en-ca", "fr-ca"])
@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_answers_help(name, language):
    out = io.StringIO()
    with translation.override(language), contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        ManagementUtility(["manage.py", name, "--help"]).execute()
    assert done.value.code == 0
    assert f"manage.py {name}" in out.getvalue()


def test_the_product_has_its_commands():
    assert {"check_ledger", "verify_records", "export_records", "import_records", "backup", "restore"} <= set(COMMANDS)
