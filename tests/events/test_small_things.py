"""Small things a new user met (issue 25): the demo says so on every page while it runs, and only
then; the expense form says the trust account pays it; every page starts with a skip link; table
codes are never broken across lines."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse

from tests.conftest import Client, login, make_cast

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cast(db):
    return make_cast()


def demo_setting(name="DEMO", /, **env) -> str:
    """A setting (DEMO unless told) as config.settings works it out in a fresh process with this
    environment."""
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG", "SECRET_KEY_FILE")}
    out = subprocess.run(
        [sys.executable, "-c", f"from django.conf import settings; print(settings.{name})"],
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def test_the_demo_is_the_debug_server_on_the_laptop_key_and_nothing_else():
    assert demo_setting(DEBUG="true") == "True"  # make run
    assert demo_setting(DEBUG="true", SECRET_KEY="a-key-of-this-site-only-0123456789abcdef") == "False"
    assert demo_setting(DEBUG="false", SECRET_KEY="a-key-of-this-site-only-0123456789abcdef") == "False"


def test_every_page_says_demo_while_the_demo_runs_and_never_otherwise(client, cast):
    login(client, cast, "dric")
    pages = [
        reverse("events:home"),
        reverse("cage:home", args=[cast.event.slug]),
        reverse("events:roster", args=[cast.event.slug, "2026-09-11"]),
    ]
    for url in pages:
        assert 'id="demo-banner"' not in client.get(url).content.decode(), url
    with override_settings(DEMO=True):
        for url in pages:
            assert 'id="demo-banner"' in client.get(url).content.decode(), url
        anonymous = Client().get(reverse("login")).content.decode()
        assert 'id="demo-banner"' in anonymous and "Never use it for a real event" in anonymous
        french = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9").get(reverse("login")).content.decode()
        assert '<html lang="fr-ca">' in french and 'id="demo-banner"' in french


def test_the_demo_s_not_found_is_the_product_s_page_not_the_debug_one(cast, settings):
    """The demo runs with DEBUG on, whose "not found" is Django's debug page; the demo adds
    events.demo.NotFoundMiddleware so a person trying it reads the product's own: for an address
    that names no page, and for a view's own "not there" (a slip that is not)."""
    settings.DEBUG, settings.DEMO = True, True
    missing = ("/no-such-page/", reverse("cage:slip", args=[cast.event.slug, 999999]))
    before = Client()  # each client loads the middleware of its first request
    login(before, cast, "dric")
    assert "Django" in before.get(missing[0]).content.decode()  # DEBUG's own page, as the demo showed
    demo = [*settings.MIDDLEWARE[:-1], "events.demo.NotFoundMiddleware", settings.MIDDLEWARE[-1]]
    with override_settings(MIDDLEWARE=demo):
        client = Client()
        login(client, cast, "dric")
        for url in missing:
            response = client.get(url)
            page = response.content.decode()
            assert response.status_code == 404 and 'id="not-found"' in page and "Django" not in page, url
            assert 'id="demo-banner"' in page, url
        # A missing trailing slash still leads to the page, as Django's CommonMiddleware makes it.
        assert client.get(reverse("cage:home", args=[cast.event.slug]).rstrip("/")).status_code == 301
        french = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
        login(french, cast, "dric")
        page = french.get(missing[0]).content.decode()
        assert '<html lang="fr-ca">' in page and "<h1>Introuvable</h1>" in page
    assert "events.demo.NotFoundMiddleware" in demo_setting("MIDDLEWARE", DEBUG="true")  # make run
    assert "NotFound" not in demo_setting("MIDDLEWARE", DEBUG="false", SECRET_KEY="a-key-of-this-site-only-01234")


@pytest.mark.parametrize(
    "language,words",
    [
        ("en", ["This event has no such slip", "There is no such page.", "This event has no gaming day 2031-01-01."]),
        (
            "fr-CA,fr;q=0.9",
            [
                "Cet événement n’a aucune fiche",
                "Cette page n’existe pas.",
                "Cet événement n’a pas de journée de jeu 2031-01-01.",
            ],
        ),
    ],
)
def test_not_found_says_what_is_missing_in_the_reader_s_words_never_django_s(cast, language, words):
    """A page's own "not there" in the reader's language; Django's internal English sentence ("No
    Slip matches the given query.") never shown, in English or in French."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    login(client, cast, "dric")
    slug = cast.event.slug
    addresses = (
        reverse("cage:slip", args=[slug, 999999]),
        "/no-such-page/",
        reverse("reports:day", args=[slug, "2031-01-01"]),
    )
    for address, said in zip(addresses, words, strict=True):
        response = client.get(address)
        page = response.content.decode()
        assert response.status_code == 404 and 'id="not-found"' in page, address
        assert said in page.replace("&#x27;", "’"), (address, page[page.index('id="not-found"') :][:300])
        assert "given query" not in page and "Resolver404" not in page


def test_a_list_not_chosen_from_yet_says_what_to_choose(client, cast, admin_user):
    """The roster's and the people page's lists start at "Choose a person" / "Choose a role", not
    Django's bare "---------"."""
    client.force_login(admin_user)
    roster = client.get(reverse("events:roster", args=[cast.event.slug, "2026-09-11"])).content.decode()
    people = client.get(reverse("events:people", args=[cast.event.slug])).content.decode()
    assert '<option value="" selected>Choose a person</option>' in roster
    assert "Choose a role" in people and "Choose a person" in people
    assert "---------" not in roster and "---------" not in people


def test_the_expense_form_says_the_trust_account_pays_it_and_a_sale_does_not(client, cast):
    login(client, cast, "general_cashier")
    url = reverse("cage:slip_new", args=[cast.event.slug, "expense"])
    page = client.get(url).content.decode()
    assert 'id="kind-help"' in page and "trust account pays this expense" in page
    assert page.index('id="kind-help"') < page.index('id="slip-form"')
    sale = client.get(reverse("cage:slip_new", args=[cast.event.slug, "sale"])).content.decode()
    assert 'id="kind-help"' not in sale


def test_the_expense_help_reads_in_french(cast):
    french = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    french.force_login(cast.general_cashier.user)
    page = french.get(reverse("cage:slip_new", args=[cast.event.slug, "expense"])).content.decode()
    assert 'id="kind-help"' in page


def test_every_page_starts_with_a_skip_link_to_its_content(client, cast):
    login(client, cast, "dric")
    for url in (reverse("login"), reverse("cage:home", args=[cast.event.slug])):
        page = (client if "login" not in url else Client()).get(url).content.decode()
        body = page[page.index("<body>") :]
        assert body.index('class="skip-link"') < body.index("<header")
        assert 'href="#content"' in body and 'id="content" tabindex="-1"' in body


def test_table_codes_hold_on_one_line_where_they_print(client, cast):
    login(client, cast, "dric")
    tables = client.get(reverse("events:tables", args=[cast.event.slug])).content.decode()
    assert '<td class="code">BJ-1</td>' in tables
    css = (ROOT / "static" / "site.css").read_text()
    assert "table.grid .date, table.grid .code { white-space: nowrap; }" in css
