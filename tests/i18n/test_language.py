"""English or French: the browser's language on a first visit, the switch on every page, the
login's choice remembered; money and the rules cited in each language's own way."""

import html
import re

import pytest
from django.urls import reverse
from django.utils.translation import override

from core.money import dollars, parse_cash
from core.rules import RuleViolation, cite, french_section
from events.models import LanguagePreference
from tests.conftest import PASSWORD, Client, make_cast

pytestmark = pytest.mark.django_db


def test_a_first_visit_gets_the_browser_language():
    french = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9,en;q=0.5").get(reverse("login"))
    assert '<html lang="fr-ca">' in french.text
    assert "Ouvrir une session" in french.text
    english = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").get(reverse("login"))
    assert '<html lang="en-ca">' in english.text
    assert "Log in" in english.text and "Ouvrir une session" not in english.text
    # French from France, or plain "fr", is Canadian French here.
    assert '<html lang="fr-ca">' in Client(HTTP_ACCEPT_LANGUAGE="fr-FR").get(reverse("login")).text


def test_every_page_offers_the_other_language():
    page = Client().get(reverse("login")).text
    assert 'id="language-fr-ca"' in page and 'id="language-en-ca"' not in page
    page = Client(HTTP_ACCEPT_LANGUAGE="fr").get(reverse("login")).text
    assert 'id="language-en-ca"' in page and 'id="language-fr-ca"' not in page


def test_the_switch_changes_the_language_and_the_browser_keeps_it():
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    answer = browser.post(reverse("events:set_language"), {"language": "fr-ca", "next": reverse("login")})
    assert answer.status_code == 302 and answer["Location"] == reverse("login")
    assert "Ouvrir une session" in browser.get(reverse("login")).text


def test_a_login_remembers_its_language_on_any_screen():
    cast = make_cast()
    at_the_cage = Client(HTTP_ACCEPT_LANGUAGE="en")
    at_the_cage.login(username=cast.general_cashier.user.username, password=PASSWORD)
    at_the_cage.post(reverse("events:set_language"), {"language": "fr-ca", "next": "/"})
    assert LanguagePreference.objects.get(user=cast.general_cashier.user).language == "fr-ca"
    # Another terminal, a browser set to English, no cookie: the login's choice wins once logged in.
    elsewhere = Client(HTTP_ACCEPT_LANGUAGE="en")
    elsewhere.login(username=cast.general_cashier.user.username, password=PASSWORD)
    assert '<html lang="fr-ca">' in elsewhere.get(reverse("events:home")).text
    # Someone else at that browser still gets the browser's language.
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    other.login(username=cast.chip_cashier.user.username, password=PASSWORD)
    assert '<html lang="en-ca">' in other.get(reverse("events:home")).text


def switch_to(page: str) -> str:
    """Where the page's language switch sends the browser back to."""
    form = re.search(r'class="language-switch">.*?name="next" value="([^"]*)"', page, re.S)
    return html.unescape(form.group(1))


def test_a_page_answering_a_refused_form_switches_back_to_the_page_the_form_was_on():
    # A refused login answers its POST with the page; the switch must not send the browser to an
    # address that answers POST only (the trust account's forms, say): it goes to the form's page.
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    login = "http://testserver" + reverse("login") + "?next=/cage/"
    refused = browser.post(reverse("login"), {"username": "nobody", "password": "wrong"}, HTTP_REFERER=login)
    assert switch_to(refused.text) == login
    assert switch_to(browser.post(reverse("login"), {"username": "nobody", "password": "x"}).text) == "/"
    assert switch_to(browser.get(reverse("login") + "?next=/cage/").text) == "/login/?next=/cage/"
    answer = browser.post(reverse("events:set_language"), {"language": "fr-ca", "next": login})
    assert answer["Location"] == login


def test_an_unknown_language_changes_nothing():
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    answer = browser.post(reverse("events:set_language"), {"language": "xx", "next": reverse("login")})
    assert answer.status_code == 302
    assert "Log in" in browser.get(reverse("login")).text


def test_the_switch_never_sends_a_person_off_the_site():
    answer = Client().post(reverse("events:set_language"), {"language": "fr-ca", "next": "https://evil.example/"})
    assert answer["Location"] == "/"


def test_money_in_each_language():
    assert dollars(123456) == "$1,234.56" and dollars(-200) == "-$2.00"
    with override("fr-ca"):
        assert dollars(123456) == "1\u00a0234,56\u00a0$"
        assert dollars(15000) == "150,00\u00a0$"
        assert dollars(-200) == "-2,00\u00a0$"
        # What the French page shows, a cashier can type back.
        assert parse_cash(dollars(123456)) == 123456


def test_the_french_text_numbers_section_2_its_own_way():
    assert [french_section(s) for s in ("2", "2.1", "2.6", "2.7", "2.1.2", "1.5.1", "3.4.3")] == [
        "2.1",
        "2.2",
        "2.7",
        "2.8",
        "2.2.2",
        "1.5.1",
        "3.4.3",
    ]
    assert cite("T&C 2.6") == "T&C 2.6"
    with override("fr-ca"):
        assert cite("T&C 2.6") == "M&C 2.7"
        assert cite("T&C 2, 2.1") == "M&C 2.1, 2.2"


def test_a_refusal_cites_its_rule_in_the_reader_language():
    english = RuleViolation("Tips are shared among dealers only.", "T&C 2.6")
    assert str(english) == "Tips are shared among dealers only. (T&C 2.6)"
    with override("fr-ca"):
        french = RuleViolation("Les pourboires sont partagés entre les donneurs seulement.", "T&C 2.6")
    assert str(french) == "Les pourboires sont partagés entre les donneurs seulement. (M&C 2.7)"
    # The audit trail and machines keep the English reference.
    assert french.rule_reference == "T&C 2.6"
