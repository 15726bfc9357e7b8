"""The licensee's administrator walks the checklist of a new event in a real browser: from the
event's page to the list of what its first gaming day waits for, in English and in French, each
line's link to the page that fixes it, the line ticked once it is done, and the first day opened
from the checklist once nothing is left. Screenshots at the cage's width and a tablet's."""

import datetime

import pytest
from django.utils import timezone

from events import services
from events.models import GamingDay, Role
from tests.browser.conftest import at_both_widths, follow, log_in
from tests.conftest import DAY, PASSWORD, add_person, make_event
from tests.i18n.test_french_pages import english_left

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def the_rest_of_the_setup(event):
    """What the People, Chip set, Tables, Gaming days and roster pages take, done through the same
    services: three designated persons with their logins, a chip, a table, the day and its roster."""
    day = services.day_add(event=event, date=DAY, opens_at=datetime.time(12), closes_at=datetime.time(22))
    starts = timezone.make_aware(datetime.datetime.combine(DAY, datetime.time(11)))
    for role in (Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER):
        person = add_person(event, role, role)
        services.shift_add(
            day=day, person=person, role=role, starts_at=starts, ends_at=starts + datetime.timedelta(hours=12)
        )
    services.denomination_add(event=event, value="5", colour="red")
    services.table_create(event=event, code="BJ-1", game="blackjack")


def test_the_administrator_walks_the_checklist_of_a_new_event(page, django_user_model):
    event = make_event("first-fair", tables_licensed={})
    event.supplier_registration_number = ""  # left for later on the new event's form
    event.save()
    django_user_model.objects.create_user("admin", password=PASSWORD, is_staff=True)
    log_in(page, "admin", PASSWORD)

    # Where the administrator looks first: the event's page says how much is left, and links the list.
    page.goto(f"/events/{event.slug}/")
    assert "9 lines of its checklist are still missing" in page.inner_text("#checklist-summary")
    at_both_widths(page, "checklist-on-the-event-page")
    page.set_viewport_size({"width": 1366, "height": 900})
    follow(page, "#checklist-summary a")
    assert page.inner_text("h1") == "Before the first gaming day"
    assert page.locator("#checklist li.missing").count() == 9
    # Blackjack and the wheel take their limits and odds from their rules of play: nothing to enter.
    assert page.locator("#check-day-game_settings_missing.done").count() == 1
    assert "(T&C 4.1)" in page.inner_text("#check-day-supplier_unregistered")
    at_both_widths(page, "checklist-new-event")

    # The same list in French, its sections cited as the French text numbers them.
    page.set_viewport_size({"width": 1366, "height": 900})
    page.click("#language-fr-ca")
    page.wait_for_selector("html[lang=fr-ca]")
    assert page.inner_text("h1") == "Avant la première journée de jeu"
    assert "(M&C 2.1)" in page.inner_text("#check-day-designated_missing")
    assert english_left(page.content()) == []
    at_both_widths(page, "fr-checklist-new-event")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.click("#language-en-ca")
    page.wait_for_selector("html[lang=en-ca]")

    # The first line's link: the registered supplier's page, where the number is entered.
    follow(page, "#check-day-supplier_unregistered a")
    page.fill("input[name=supplier_registration_number]", "GS-44120")
    follow(page, "#supplier-form button[type=submit]")
    assert "The supplier's registration number is recorded." in page.inner_text(".messages")
    page.goto(f"/events/{event.slug}/checklist/")
    assert page.locator("#check-day-supplier_unregistered.done").count() == 1
    # The next: the licence's number of tables of each game, on the games page.
    follow(page, "#check-day-tables_licensed_missing a")
    for game in ("blackjack", "wheel_of_fortune"):
        page.fill(f"#tables-{game} input[name={game}-tables-count]", "2")
        follow(page, f"#tables-{game} button[type=submit]")
    page.goto(f"/events/{event.slug}/checklist/")
    assert page.locator("#check-day-tables_licensed_missing.done").count() == 1
    assert page.locator("#checklist li.missing").count() == 7

    the_rest_of_the_setup(event)
    page.reload()
    assert page.locator("#checklist li.missing").count() == 0
    assert "the first gaming day, 2026-09-11, can open" in page.inner_text("#checklist-ready")
    at_both_widths(page, "checklist-ready")
    page.set_viewport_size({"width": 1366, "height": 900})
    follow(page, "#checklist-open")
    assert page.url.endswith(f"/events/{event.slug}/days/")
    assert "Gaming day 2026-09-11 is open." in page.inner_text(".messages")
    assert GamingDay.objects.get(event=event).status == GamingDay.Status.OPEN
