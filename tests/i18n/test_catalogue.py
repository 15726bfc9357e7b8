"""Every string a person reads is marked for translation, and the French catalogue translates it.

- makemessages, run over the product into a temporary copy of the catalogue, must leave no entry
  untranslated and none fuzzy: a string marked but not translated, or changed since it was
  translated, fails here.
- Every template's visible text is inside {% translate %} or {% blocktranslate %}: a template
  string left unmarked fails here, where makemessages cannot see it.
"""

import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.template.base import Lexer, TokenType

from config import catalogues

ROOT = Path(catalogues.ROOT)
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
# Words that read the same in both languages: file formats and the like.
SAME_IN_BOTH = {"PDF", "CSV", "JSON", "PIN", "DRIC", "OK"}


@pytest.fixture
def gettext_tools():
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        if os.environ.get("REQUIRE_GETTEXT"):
            pytest.fail("REQUIRE_GETTEXT is set but gettext (xgettext, msgmerge) is not installed")
        pytest.skip("gettext is not installed (apt-get install gettext); the catalogue check is skipped")


def untranslated_and_fuzzy(po: Path) -> tuple[list[str], list[str]]:
    with po.open("rb") as f:
        catalog = read_po(f)
    untranslated, fuzzy = [], []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            fuzzy.append(str(message.id))
        elif not all(strings):
            untranslated.append(str(message.id))
    return untranslated, fuzzy


def test_every_marked_string_has_its_french(tmp_path, gettext_tools):
    catalogues.update(catalogues.source_copy(tmp_path / "product"))
    untranslated, fuzzy = untranslated_and_fuzzy(
        tmp_path / "product" / "locale" / "fr_CA" / "LC_MESSAGES" / "django.po"
    )
    shown = "\n".join(f"  untranslated: {m!r}" for m in untranslated[:40]) + "\n".join(
        f"  fuzzy: {m!r}" for m in fuzzy[:40]
    )
    assert not untranslated and not fuzzy, (
        f"{len(untranslated)} untranslated and {len(fuzzy)} fuzzy entries after makemessages "
        f"(run `make messages` and translate locale/fr_CA/LC_MESSAGES/django.po):\n{shown}"
    )


def test_a_signature_box_is_named_as_french_names_it():
    """A capacity is a box on the slip: "signer dans la case « reçu par »", not "à titre de
    « reçu par »", which French keeps for a role ("à titre de RDR")."""
    with (ROOT / "locale" / "fr_CA" / "LC_MESSAGES" / "django.po").open("rb") as f:
        catalog = read_po(f)
    said = [s for m in catalog if m.id for s in (m.string if isinstance(m.string, tuple) else (m.string,))]
    assert not [s for s in said if re.search(r"à titre de\s*«", s)]
    assert any("dans la case «\u00a0%(capacity)s\u00a0»" in s for s in said)
    # Inside guillemets a no-break space, as French writes them: "Signer « reçu par »…" never
    # leaves a guillemet alone at the end or the start of a line (on a tablet's narrow button).
    assert not [s for s in said if re.search(r"«[ \t]|[ \t]»", s)]


def test_the_catalogue_check_sees_a_string_left_untranslated(tmp_path, gettext_tools):
    """The check above can fail: a new marked string shows up untranslated."""
    product = catalogues.source_copy(tmp_path / "product")
    probe = product / "events" / "_i18n_probe.py"
    probe.write_text('from django.utils.translation import gettext as _\n\nPROBE = _("A string nobody translated")\n')
    catalogues.update(product)
    untranslated, _fuzzy = untranslated_and_fuzzy(product / "locale" / "fr_CA" / "LC_MESSAGES" / "django.po")
    assert "A string nobody translated" in untranslated


class _VisibleText(HTMLParser):
    """The text a person sees in a piece of a template: text between tags, and the attributes
    read aloud or shown (title, placeholder, alt, aria-label), outside <script> and <style>."""

    SHOWN_ATTRIBUTES = {"title", "placeholder", "alt", "aria-label"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        for name, value in attrs:
            if name in self.SHOWN_ATTRIBUTES and value:
                self.found.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.found.append(data)


WORD = re.compile(r"[^\W\d_]{2,}")
# Template variables and tags are replaced by this before the HTML is read: it is no word.
HOLE = "\x00"


def unmarked_text(source: str) -> list[str]:
    """Visible words of a template outside {% translate %}, {% blocktranslate %} and {% comment %}."""
    pieces, skipping = [], 0
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if name in ("blocktranslate", "blocktrans", "comment"):
                skipping += 1
            elif name in ("endblocktranslate", "endblocktrans", "endcomment"):
                skipping -= 1
            pieces.append(HOLE)
        elif token.token_type == TokenType.TEXT and not skipping:
            pieces.append(token.contents)
        else:
            pieces.append(HOLE)
    # Tags and variables inside an HTML attribute or tag: keep the markup readable for the parser.
    parser = _VisibleText()
    parser.feed("".join(pieces).replace(HOLE, " "))
    parser.close()
    words = []
    for text in parser.found:
        words += [w for w in WORD.findall(text) if w not in SAME_IN_BOTH]
    return words


def test_no_template_shows_unmarked_text():
    unmarked = {}
    for template in TEMPLATES:
        words = unmarked_text(template.read_text())
        if words:
            unmarked[str(template.relative_to(ROOT))] = words[:8]
    shown = "\n".join(f"  {name}: {' '.join(words)}" for name, words in unmarked.items())
    assert not unmarked, f"templates with text outside {{% translate %}}:\n{shown}"


def test_the_template_check_sees_unmarked_text():
    assert unmarked_text('{% load i18n %}<p title="Hover me">{% translate "Fine" %} Plain words</p>') == [
        "Hover",
        "me",
        "Plain",
        "words",
    ]
    assert (
        unmarked_text("{% blocktranslate %}All {{ n }} marked{% endblocktranslate %}<script>var x = 'code';</script>")
        == []
    )
    assert unmarked_text('<a href="{% url "x" %}">{{ name }}</a> PDF') == []
