"""The translation catalogues: compiled for Django, and brought up to date after marking strings.

`python -m config.catalogues` compiles every locale/*/LC_MESSAGES/*.po to its .mo beside it.
`make run` and `make test` run it, and so does the test suite as it starts, so a compiled
catalogue is never committed and never stale. Babel compiles them, so no system package is
needed to run the product; fuzzy entries are left out, as msgfmt leaves them out.

`python -m config.catalogues --update` (`make messages`) runs Django's makemessages over the
product, for a developer who marked new strings; tests/i18n runs the same extraction into a
temporary copy and fails on any entry left untranslated or fuzzy.
"""

import os
import shutil
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = ["fr_CA"]
# What makemessages reads: the product, not its tests, benchmarks or documents.
IGNORED = [".venv", "tests", "bench", "docs", "static", "locale", "test-artifacts"]


def compile_all(locale: Path = LOCALE) -> list[Path]:
    written = []
    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name)
        with mo.open("wb") as target:
            write_mo(target, catalog, use_fuzzy=False)
        written.append(mo)
    return written


def source_copy(target: Path) -> Path:
    """The product's sources and catalogue copied to `target`, for a makemessages that must not
    touch the product's own catalogue (tests/i18n)."""
    shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(*(p for p in IGNORED if p != "locale"), ".git"))
    return target


def update(root: Path = ROOT) -> None:
    """makemessages for each language, over the sources under `root` into its locale/."""
    from django.core.management import call_command
    from django.test.utils import override_settings

    cwd = Path.cwd()
    os.chdir(root)
    try:
        with override_settings(LOCALE_PATHS=[root / "locale"]):
            call_command(
                "makemessages",
                locale=LANGUAGES,
                ignore_patterns=IGNORED,
                no_obsolete=True,
                no_location=True,
                verbosity=0,
            )
    finally:
        os.chdir(cwd)


if __name__ == "__main__":
    if "--update" in sys.argv:
        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        django.setup()
        update()
    for path in compile_all():
        print(f"compiled {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    sys.exit(0)
