"""The cage home's keyboard shortcuts (cage.shortcuts): one key per action in each language, each a
letter of that action's name in the language, none shared; the help prints the keys of the reader's
language and carries the same keys for the script (static/shortcuts.js)."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from cage.shortcuts import FIND, KEYS, keys_for, shortcuts
from cage.slip_types import SLIP_KINDS
from tests.cage.helpers import open_table, stock
from tests.conftest import login, make_cast

pytestmark = pytest.mark.django_db


def name_of(action) -> str:
    return str(SLIP_KINDS[action].label) if action != FIND else "Find a slip of the day"


@pytest.mark.parametrize("language", ["en", "fr-ca"])
def test_each_key_is_its_own_and_a_letter_of_its_name(language):
    keys = keys_for(language)
    assert len(set(keys.values())) == len(keys)  # no two actions share a key
    assert set(keys) == set(KEYS["en"])  # every language has a key for every action
    with translation.override(language):
        for action, key in keys.items():
            if key.isalpha():
                assert key == key.lower() and key in translation.gettext(name_of(action)).lower(), (action, key)


def test_french_keys_follow_the_french_words_and_any_other_language_english():
    assert keys_for("fr-ca") == {"sale": "v", "redemption": "r", "fill": "p", "credit": "c", FIND: "t"}
    assert (
        keys_for("en-ca") == keys_for("de") == {"sale": "s", "redemption": "r", "fill": "f", "credit": "c", FIND: "/"}
    )


def test_only_the_types_offered_have_a_shortcut_and_the_search_comes_last():
    cast = make_cast()
    kinds = [SLIP_KINDS["sale"], SLIP_KINDS["count"], SLIP_KINDS["redemption"]]
    with translation.override("fr-ca"):
        found = shortcuts(cast.event, kinds)
    assert [s.key for s in found] == ["v", "r", "t"]  # a count has no key
    assert found[0].href == reverse("cage:slip_new", args=[cast.event.slug, "sale"]) and found[0].shown == "V"
    assert found[-1].focus == "slip-filter" and not found[-1].href


@pytest.mark.parametrize(("language", "printed"), [("en", "SRFC/"), ("fr", "VRPCT")])
def test_the_help_prints_the_keys_the_script_reads(client, language, printed):
    cast = make_cast()
    stock(cast)
    open_table(cast)  # a fill and a credit are offered once a table is open
    login(client, cast, "general_cashier")
    if language == "fr":
        client.cookies["django_language"] = "fr-ca"
    page = client.get(reverse("cage:home", args=[cast.event.slug])).content.decode()
    help_ = page[page.index('id="keyboard-help"') :].split("</details>")[0]
    pairs = re.findall(r'<dt><kbd>(.)</kbd></dt><dd data-key="(.)"', help_)
    assert all(shown == key.upper() for shown, key in pairs), pairs
    assert sorted(shown for shown, _key in pairs) == sorted(printed)
