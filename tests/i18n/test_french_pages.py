"""The events and audit pages in French: seed 000's names for the roles, the games' French names,
dates in the French way, no English word left on the page, and refusals citing the French text's
own numbering (M&C 2.1 for the designated persons' block, English 2.3 as M&C 2.4)."""

import datetime
import html
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from events import services
from events.models import LanguagePreference, Person, Role
from tests.conftest import PASSWORD, Client, add_person

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 9, 11)
SEED_000_ROLES = ("Représentant désigné responsable", "Responsable de la caisse", "Responsable des jetons")

# What the product itself writes in English: none of these may be left on a French page. The
# event's own data is French here, so any English word on the page is the product's.
ENGLISH = [
    "Born on",
    "State",
    "Wheel of Fortune",
    "Gaming day",
    "Licensee",
    "Licence number",
    "Venue",
    "Registered supplier",
    "Authorized games",
    "Your roles",
    "Designated Representative",
    "General Cashier",
    "Chip Cashier",
    "Runner",
    "Dealer",
    "Auditor",
    "DRIC",
    "None yet",
    "Roster",
    "Person",
    "People",
    "Role",
    "Roles",
    "Status",
    "Add",
    "Log out",
    "Log in",
    "Signing PIN",
    "Password",
    "Compliance",
    "Section",
    "Rule",
    "Holds",
    "Details",
    "Yes",
    "No",
    "Not checked",
    "Audit trail",
    "Every",
    "Done",
    "Refused",
    "Outcome",
    "Show",
    "entries",
    "Download",
    "Sort by",
    "When",
    "Who",
    "What",
    "command line",
    "set up",
    "given",
    "added",
    "logged in",
    "opened",
    "Wheel of Fortune",
    "T&C",
    "Good standing",
    "Open",
    "Closed",
    "Setup",
    "Planned",
    "Chip set",
    "My slips",
    "Report",
    "Register",
    "Username",
    "Save",
    "Assign",
    "Record",
    "Hours",
    "Opening hours",
    "Name",
    "Value",
    "Colour",
    "Login",
    "Events",
    "Cage",
    "nobody",
    "the",
    "and",
    "of",
    "to",
    "is",
    "your",
    "with",
    "New",
]


def visible_text(page: str) -> str:
    page = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page)
    page = re.sub(r"<[^>]+>", " ", page)
    # Runs of ASCII white space only: French typography's no-break spaces stay as they are.
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(page))


def english_left(page: str) -> list[str]:
    text = visible_text(page)
    # The switch names the other language in its own words: "English" is meant to be there.
    return [word for word in ENGLISH if re.search(rf"(?<![\w&]){re.escape(word)}(?!\w)", text)]


def french_event():
    """An event whose own data is in French, with the three designated persons and the others."""
    licensee = services.licensee_get_or_create(
        name="Société d'agriculture du Lac", charitable_number="10747 1234 RR0001"
    )
    event = services.event_create(
        licensee=licensee,
        slug="foire-du-lac",
        name="Casino de la foire du Lac",
        licence_number="F-2026-0117",
        venue="Parc des expositions, salle B",
        first_day=DAY,
        last_day=DAY + datetime.timedelta(days=2),
        supplier="Fournitures de jeu du Nord",
        supplier_registration_number="GS-44120",
        games_authorized=["blackjack", "wheel_of_fortune"],
        licensing_authority="Commission des alcools et des jeux de l'Ontario",
        tables_licensed={"blackjack": 2, "wheel_of_fortune": 1},
    )
    services.denomination_add(event=event, value="1", colour="blanc")
    services.denomination_add(event=event, value="0.50")
    people = {
        "annie": add_person(event, "annie", Role.DRIC),
        "gaston": add_person(event, "gaston", Role.GENERAL_CASHIER),
        "carole": add_person(event, "carole", Role.CHIP_CASHIER),
        "remi": add_person(event, "remi", Role.RUNNER),
        "denise": add_person(event, "denise", Role.DEALER),
        "odile": add_person(event, "odile", Role.AUDITOR),
    }
    day = services.day_add(event=event, date=DAY, opens_at=datetime.time(12), closes_at=datetime.time(23))

    def at(hour):
        return timezone.make_aware(datetime.datetime.combine(DAY, datetime.time(hour)))

    # The chip cashier leaves at 18:00: a gap the roster and the compliance page show.
    for code, role, end in (
        ("annie", Role.DRIC, 23),
        ("gaston", Role.GENERAL_CASHIER, 23),
        ("carole", Role.CHIP_CASHIER, 18),
    ):
        services.shift_add(day=day, person=people[code], role=role, starts_at=at(11), ends_at=at(end))
    services.table_create(event=event, code="BJ-1", game="blackjack")
    services.table_create(event=event, code="RF-1", game="wheel_of_fortune")
    return event, people


def french_client(person) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    assert client.login(username=person.user.username, password=PASSWORD)
    return client


@pytest.fixture
def lac(db):
    return french_event()


def pages(slug):
    return {
        "event": reverse("events:detail", args=[slug]),
        "people": reverse("events:people", args=[slug]),
        "roster": reverse("events:roster", args=[slug, DAY.isoformat()]),
        "tables": reverse("events:tables", args=[slug]),
        "games": reverse("events:games", args=[slug]),
        "wheel layout": reverse("events:wheel_layout", args=[slug, "RF-1"]),
        "disputes": reverse("events:calculators", args=[slug]),
        "disputes, wheel": reverse("events:calculators", args=[slug])
        + "?calc=wheel_of_fortune&wheel=RF-1&bet_symbol=%242&bet=2&landed=%242&revolutions=3",
        "disputes, blackjack refused": reverse("events:calculators", args=[slug])
        + "?calc=blackjack&dealer=6+10&h1_cards=10+9&h1_wager=9",
        "chips": reverse("events:chips", args=[slug]),
        "days": reverse("events:days", args=[slug]),
        "compliance": reverse("events:compliance", args=[slug]),
        "audit trail": reverse("audit:event", args=[slug]),
        "events": reverse("events:home"),
        "PIN": reverse("events:my_pin"),
        "password": reverse("events:password_change"),
    }


def test_the_main_event_pages_are_in_french_with_no_english_word_left(lac):
    event, people = lac
    client = french_client(people["annie"])
    for name, url in pages(event.slug).items():
        response = client.get(url)
        page = response.content.decode()
        assert response.status_code == 200, name
        assert '<html lang="fr-ca">' in page, name
        assert english_left(page) == [], name
        assert 'id="language-en-ca"' in page and ">English</button>" in page, name


def test_the_login_and_setup_pages_are_in_french():
    for url in (reverse("login"), reverse("events:login_setup")):
        page = Client(HTTP_ACCEPT_LANGUAGE="fr-CA").get(url).content.decode()
        assert english_left(page) == [], url
    login = visible_text(Client(HTTP_ACCEPT_LANGUAGE="fr-CA").get(reverse("login")).content.decode())
    assert "Ouvrir une session" in login and "Activez votre compte" in login


def test_the_roles_carry_seed_000s_names(lac):
    event, people = lac
    client = french_client(people["annie"])
    urls = pages(event.slug)
    for name in ("people", "roster", "audit trail"):
        text = visible_text(client.get(urls[name]).content.decode())
        for role in SEED_000_ROLES:
            assert role in text, (name, role)
    people_page = visible_text(client.get(urls["people"]).content.decode())
    assert "Messager (chargé des tables ou des jetons)" in people_page and "Donneur" in people_page
    assert "Vérificateur" in people_page
    detail = visible_text(client.get(urls["event"]).content.decode())
    assert "Vos rôles Représentant désigné responsable" in detail
    # Seed 000 names the wheel "roue de la fortune"; the licensing authority stays as written.
    assert "Jeux autorisés Blackjack, Roue de la fortune" in detail
    assert "RF-1 (Roue de la fortune, fermée)" in detail
    assert "Commission des alcools et des jeux de l'Ontario" in detail


def test_dates_times_and_chips_are_written_the_french_way(lac):
    event, people = lac
    client = french_client(people["annie"])
    urls = pages(event.slug)
    detail = visible_text(client.get(urls["event"]).content.decode())
    assert "2026-09-11 – 2026-09-13" in detail
    assert "12\u00a0h\u00a000 – 23\u00a0h\u00a000" in detail
    assert "0,50\u00a0$ · 1\u00a0$ (blanc)" in detail
    roster = visible_text(client.get(urls["roster"]).content.decode())
    assert "Journée de jeu du 2026-09-11 (En préparation)" in roster
    assert "2026-09-11 11\u00a0h\u00a000" in roster
    assert (
        "Responsable des jetons\u00a0: personne de 2026-09-11 18\u00a0h\u00a000 à 2026-09-11 23\u00a0h\u00a000"
        in roster
    )
    compliance = visible_text(client.get(urls["compliance"]).content.decode())
    assert "M&C 2.1 2026-09-11\u00a0: chaque poste occupé en tout temps Non" in compliance
    assert "M&C 2.4 Aucune personne dont l’inscription a été refusée" in compliance
    # The same pages in English keep the cage's 24-hour clock.
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.login(username=people["annie"].user.username, password=PASSWORD)
    roster = visible_text(english.get(urls["roster"]).content.decode())
    assert "Chip Cashier: nobody from 2026-09-11 18:00 to 2026-09-11 23:00" in roster
    assert "Opening hours: 12:00 – 23:00" in roster


def test_a_refusal_in_french_cites_the_french_numbering_and_changes_nothing(lac):
    event, people = lac
    client = french_client(people["annie"])
    # T&C 2.3 (a revoked registration takes no part) is M&C 2.4 in the French text.
    response = client.post(
        reverse("events:people", args=[event.slug]),
        {"code": "yves", "name": "Yves", "born_on": "1990-05-05", "registration": "revoked"},
    )
    text = visible_text(response.content.decode())
    assert response.status_code == 200
    assert "Yves\u00a0: l’inscription a été révoquée\u00a0; une telle personne ne peut pas participer (M&C 2.4)" in text
    assert "T&C" not in text and not Person.objects.filter(code="yves").exists()

    # The designated persons' "T&C 2" is M&C 2.1: the supplier's man cannot be a cashier.
    services.person_add(
        event=event, code="sam", name="Sam", born_on=datetime.date(1980, 1, 1), supplier_associated=True
    )
    sam = Person.objects.get(code="sam")
    response = client.post(
        reverse("events:role_add", args=[event.slug]), {"person": sam.pk, "role": Role.CHIP_CASHIER}, follow=True
    )
    text = visible_text(response.content.decode())
    assert (
        "Sam\u00a0: lien d’association avec le fournisseur inscrit\u00a0; le poste de Responsable des jetons ne peut lui "
        "être confié (M&C 2.1)" in text
    )
    assert not sam.assignments.exists()

    # Opening the day with a gap in the roster: refused, with the gap in French and M&C 2.1.
    response = client.post(reverse("events:day_open", args=[event.slug, DAY.isoformat()]), follow=True)
    text = visible_text(response.content.decode())
    assert "L’horaire laisse des postes désignés vacants\u00a0: Responsable des jetons\u00a0: personne de" in text
    assert "(M&C 2.1)" in text
    assert event.days.get().status == "setup"

    # The audit trail keeps the rule in English and shows it in the reader's language.
    trail = visible_text(client.get(reverse("audit:event", args=[event.slug]) + "?outcome=refused").content.decode())
    assert "M&C 2.4" in trail and "M&C 2.1" in trail and "T&C" not in trail
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.login(username=people["annie"].user.username, password=PASSWORD)
    trail = visible_text(english.get(reverse("audit:event", args=[event.slug]) + "?outcome=refused").content.decode())
    assert "T&C 2.3" in trail and "T&C 2" in trail


def test_the_audit_trail_names_roles_games_and_rules_in_the_readers_language(lac):
    event, people = lac
    french = visible_text(
        french_client(people["annie"]).get(reverse("audit:event", args=[event.slug])).content.decode()
    )
    assert "Attribution à Gaston du rôle de Responsable de la caisse" in french
    assert "Table RF-1 installée pour Roue de la fortune" in french
    assert "rôles \u00a0: — → Responsable de la caisse" in french
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.login(username=people["annie"].user.username, password=PASSWORD)
    text = visible_text(english.get(reverse("audit:event", args=[event.slug])).content.decode())
    assert "Gaston given the role of General Cashier" in text
    assert "Table RF-1 set up for Wheel of Fortune" in text


def test_the_english_check_sees_english():
    """The check above can fail: the English login page is full of the words it looks for."""
    left = english_left(Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("login")).content.decode())
    assert "Log in" in left and "Username" in left


def test_a_language_chosen_on_the_login_page_becomes_the_logins(lac):
    event, people = lac
    user = people["gaston"].user
    at_the_cage = Client(HTTP_ACCEPT_LANGUAGE="en")
    at_the_cage.post(reverse("events:set_language"), {"language": "fr-ca", "next": reverse("login")})
    assert not LanguagePreference.objects.filter(user=user).exists()  # nobody is logged in yet
    at_the_cage.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert LanguagePreference.objects.get(user=user).language == "fr-ca"
    # Another browser, in English and without the cookie: French once Gaston has logged in.
    elsewhere = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="en-ca">' in elsewhere.get(reverse("login")).content.decode()
    elsewhere.login(username=user.username, password=PASSWORD)
    assert '<html lang="fr-ca">' in elsewhere.get(reverse("events:home")).content.decode()
    # Someone else logging in at that first browser keeps their own choice: English here.
    annie = people["annie"].user
    LanguagePreference.objects.create(user=annie, language="en-ca")
    at_the_cage.post(reverse("logout"))
    at_the_cage.post(reverse("login"), {"username": annie.username, "password": PASSWORD})
    assert '<html lang="en-ca">' in at_the_cage.get(reverse("events:home")).content.decode()
    assert LanguagePreference.objects.get(user=annie).language == "en-ca"
