"""What an event lacks before its first gaming day opens (events.readiness): one list of checks,
which the day's opening refuses by and the checklist page shows. An empty event lacks everything,
in the order of the pages; each piece set up ticks its line; the day's opening is refused with the
checklist's first missing line, in its words; and the page, for the administrator and the DRIC,
links each line to the page that fixes it."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import override

from audit.models import AuditEntry
from events import readiness, services
from events.models import Role
from tests.conftest import (
    DAY,
    QUEBEC_BACCARAT,
    QUEBEC_CRAPS,
    add_person,
    give_login,
    login,
    login_person,
    make_cast,
    make_event,
)
from tests.refusals import refuses

pytestmark = pytest.mark.django_db

# The checklist's lines, in the order an administrator sets an event up, page by page.
ORDER = [
    "day.supplier_unregistered",
    "day.tables_licensed_missing",
    "day.game_settings_missing",
    "day.designated_missing",
    "person.declarations_incomplete",
    "day.logins_missing",
    "day.chips_missing",
    "day.tables_missing",
    "day.gaming_day_missing",
    "day.roster_gaps",
]
DESIGNATED = (Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER)
UNDECLARED = {"identification": "", "other_activities": None, "terms_acknowledged": False}


def empty_event(slug="spring"):
    """A new event as the administrator's form leaves it: a Québec licence (its games have settings
    to enter), no supplier's registration number, nothing else."""
    event = make_event(slug, games=("baccarat", "craps"), tables_licensed={})
    event.supplier_registration_number = ""
    event.save()
    return event


def at(hour: int) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(DAY, datetime.time(hour)))


def the_steps(event):
    """Each piece of the setup, in the checklist's order: (the line it ticks, what sets it up)."""
    people = {}

    def designate():
        for role in DESIGNATED:
            people[role] = add_person(event, role, role, login=False, **UNDECLARED)

    def declare():
        for person in people.values():
            services.person_declarations_set(
                person=person, identification="Driver's licence", other_activities=True, terms_acknowledged=True
            )

    def roster():
        day = event.days.get()
        for role, person in people.items():
            services.shift_add(day=day, person=person, role=role, starts_at=at(11), ends_at=at(23))

    return [
        ("day.supplier_unregistered", lambda: services.supplier_registration_set(event=event, number="GS-9")),
        (
            "day.tables_licensed_missing",
            lambda: [services.tables_licensed_set(event=event, game=g, count=2) for g in ("baccarat", "craps")],
        ),
        (
            "day.game_settings_missing",
            lambda: (
                services.game_settings_set(event=event, game="baccarat", entered=QUEBEC_BACCARAT),
                services.game_settings_set(event=event, game="craps", entered=QUEBEC_CRAPS),
            ),
        ),
        ("day.designated_missing", designate),
        ("person.declarations_incomplete", declare),
        ("day.logins_missing", lambda: [give_login(p, f"spring-{p.code}") for p in people.values()]),
        ("day.chips_missing", lambda: services.denomination_add(event=event, value="5")),
        ("day.tables_missing", lambda: services.table_create(event=event, code="BAC-1", game="baccarat")),
        (
            "day.gaming_day_missing",
            lambda: services.day_add(event=event, date=DAY, opens_at=datetime.time(12), closes_at=datetime.time(22)),
        ),
        ("day.roster_gaps", roster),
    ]


def codes(event, *, done: bool):
    return [line.code for line in readiness.checklist(event).lines if line.done is done]


# --- the selector ---------------------------------------------------------------------------


def test_an_empty_event_lacks_everything_in_the_order_of_the_pages():
    event = empty_event()
    found = readiness.checklist(event)
    assert [line.code for line in found.lines] == ORDER == [check.code for check in readiness.CHECKS]
    assert [line.done for line in found.lines] == [False] * len(ORDER)
    assert found.left == len(ORDER) and not found.ready and found.day is None and found.opened is None
    pages = [line.url.removeprefix(f"/events/{event.slug}/") for line in found.lines]
    assert pages == [
        "supplier/",
        "games/",
        "games/",
        "people/",
        "people/",
        "people/",
        "chips/",
        "tables/",
        "days/",
        "days/",  # no day to roster yet: the page that adds one
    ]
    # Every line cites its section, as the refusals do.
    assert [line.rule for line in found.lines][:3] == ["T&C 4.1", "T&C 1.3", "T&C 1.3, 3.5"]


def test_each_piece_set_up_ticks_its_line_and_the_next_one_is_what_the_first_day_waits_for():
    event = empty_event()
    for number, (code, set_up) in enumerate(the_steps(event)):
        assert services.first_day_refusal(event)[2] == code
        set_up()
        assert codes(event, done=True) == ORDER[: number + 1], code
        refusal = services.first_day_refusal(event)
        assert (refusal and refusal[2]) == (ORDER[number + 1] if number + 1 < len(ORDER) else None)
    found = readiness.checklist(event)
    assert found.ready and found.left == 0 and found.day.date == DAY
    assert services.day_open(day=found.day).status == "open"
    opened = readiness.checklist(event)
    assert opened.opened.date == DAY and opened.lines == [] and not opened.ready


def test_the_day_is_refused_with_the_checklists_first_missing_line_in_its_words():
    """A day added first: at each step its opening is refused with the line the page shows first."""
    event = empty_event()
    day = services.day_add(event=event, date=DAY)
    for code, set_up in the_steps(event):
        if code == "day.gaming_day_missing":
            continue  # added first
        first = next(line for line in readiness.checklist(event).lines if not line.done)
        assert first.code == code
        with refuses(code) as refused:
            services.day_open(day=day)
        assert refused.value.text == f"{first.missing} ({first.citation})"
        day.refresh_from_db()
        assert day.status == "setup"
        set_up()
    assert services.day_open(day=day).status == "open"


def test_a_designated_persons_login_counts_once_its_owner_has_set_it_up():
    cast = make_cast("logins", open_day=False)
    add_person(cast.event, "walkin", Role.RUNNER, login=False)  # not a designated person: not asked for
    newcomer = add_person(cast.event, "nadia", Role.GENERAL_CASHIER, login=False)
    with refuses("day.logins_missing", names="Nadia"):
        services.day_open(day=cast.day)
    setup = services.login_create(person=newcomer, username="nadia", by=None)
    with refuses("day.logins_missing", names="Nadia"):  # a code handed over is not a login yet
        services.day_open(day=cast.day)
    services.login_setup_complete(request=None, username="nadia", code=setup.code, password="a-pass-2026!", pin="60917")
    assert "day.logins_missing" in codes(cast.event, done=True)
    assert codes(cast.event, done=False) == ["day.roster_gaps"]


def test_the_first_days_roster_lists_each_position_even_without_opening_hours():
    cast = make_cast("roster", open_day=False)
    with refuses("day.roster_gaps") as refused:
        services.day_open(day=cast.day)
    assert refused.value.arguments["gaps"] == (
        "Designated Representative in Charge: nobody on the roster; General Cashier: nobody on the roster; "
        "Chip Cashier: nobody on the roster"
    )
    for persona in ("dric", "general_cashier"):
        person = getattr(cast, persona)
        services.shift_add(day=cast.day, person=person, role=persona, starts_at=at(12), ends_at=at(13))
    relief = add_person(cast.event, "relief", Role.CHIP_CASHIER)
    services.shift_add(day=cast.day, person=relief, role=Role.CHIP_CASHIER, starts_at=at(12), ends_at=at(13))
    services.registration_change(person=relief, registration="suspended")  # a barred person's shift counts for nothing
    with refuses("day.roster_gaps", gaps="Chip Cashier: nobody on the roster"):
        services.day_open(day=cast.day)
    services.shift_add(day=cast.day, person=cast.chip_cashier, role=Role.CHIP_CASHIER, starts_at=at(12), ends_at=at(13))
    assert services.day_open(day=cast.day).status == "open"


def test_a_later_day_is_held_to_the_checks_of_every_day_only():
    cast = make_cast("later")  # its first day is open
    cast.day.status = "closed"
    cast.day.save()
    later = services.day_add(event=cast.event, date=DAY + datetime.timedelta(days=1))
    assert services.opening_refusal(later) is None  # no roster: a day from paper, as before
    assert readiness.checklist(cast.event).opened == cast.day
    cast.dric.assignments.all().delete()
    with refuses("day.designated_missing", position=Role.DRIC.label):
        services.day_open(day=later)


def test_lines_cite_their_sections_in_the_french_numbering():
    event = empty_event()
    with override("fr-ca"):
        citations = [line.citation for line in readiness.checklist(event).lines]
    assert citations == [
        "M&C 4.1",
        "M&C 1.3",
        "M&C 1.3, 3.5",
        "M&C 2.1",
        "M&C 1.4.4, 1.4.6, 2.1",
        "M&C 2.1",
        "M&C 3.4.1",
        "M&C 1.3",
        "M&C 1.3",
        "M&C 2.1",
    ]


# --- the pages ------------------------------------------------------------------------------


def test_the_administrator_finds_the_checklist_on_the_events_page_and_each_line_links_to_its_page(client, admin_user):
    event = empty_event()
    client.force_login(admin_user)
    checklist_url = reverse("events:checklist", args=[event.slug])
    detail = client.get(reverse("events:detail", args=[event.slug])).content.decode()
    assert 'id="checklist-summary"' in detail and f'href="{checklist_url}"' in detail
    assert "10 lines of its checklist are still missing" in detail
    page = client.get(checklist_url).content.decode()
    assert "10 lines are still missing." in page and 'id="checklist-ready"' not in page
    for line in readiness.checklist(event).lines:
        item = page[page.index(f'id="{line.anchor}"') :]
        item = item[: item.index("</li>")]
        assert f'href="{line.url}"' in item and "Missing:" in item and f"({escape(line.citation)})" in item
    assert "The registered supplier&#x27;s registration number is not entered" in page


def test_when_everything_is_done_the_page_says_the_first_day_can_open_and_opens_it(client):
    cast = make_cast("ready", open_day=False)
    for persona in ("dric", "general_cashier", "chip_cashier"):
        services.shift_add(day=cast.day, person=getattr(cast, persona), role=persona, starts_at=at(11), ends_at=at(23))
    login(client, cast, "dric")
    url = reverse("events:checklist", args=[cast.event.slug])
    page = client.get(url).content.decode()
    assert 'id="checklist-ready"' in page and "the first gaming day, 2026-09-11, can open" in page
    assert page.count('class="card done"') == len(ORDER) and 'class="card missing"' not in page
    detail = client.get(reverse("events:detail", args=[cast.event.slug])).content.decode()
    assert "Everything is done: the first gaming day can open." in detail
    open_url = reverse("events:day_open", args=[cast.event.slug, DAY.isoformat()])
    assert f'action="{open_url}"' in page
    response = client.post(open_url, {"back": "days"})
    assert response["Location"] == reverse("events:days", args=[cast.event.slug])
    cast.day.refresh_from_db()
    assert cast.day.status == "open"
    page = client.get(url).content.decode()
    assert 'id="checklist-opened"' in page and 'id="checklist"' not in page
    assert 'id="checklist-summary"' not in client.get(reverse("events:detail", args=[cast.event.slug])).content.decode()


def test_the_gaming_days_page_links_the_first_day_that_cannot_open_to_the_checklist(client, db):
    cast = make_cast("days-link", open_day=False)
    later = services.day_add(event=cast.event, date=DAY + datetime.timedelta(days=1))
    login(client, cast, "dric")
    page = client.get(reverse("events:days", args=[cast.event.slug])).content.decode()
    checklist = reverse("events:checklist", args=[cast.event.slug])
    assert page.count(f'href="{checklist}"') == 1  # beside the first day only: the next waits for it
    first = page[page.index(f"/days/{DAY.isoformat()}/") :]
    assert first.index(f'href="{checklist}"') < first.index(f"/days/{later.date.isoformat()}/")
    assert "The roster leaves designated positions empty" in first


def test_the_checklist_is_the_administrators_and_the_drics(client):
    cast = make_cast("who", open_day=False)
    url = reverse("events:checklist", args=[cast.event.slug])
    for persona, status in (("dric", 200), ("chip_cashier", 403), ("auditor", 403), ("runner", 403)):
        login(client, cast, persona)
        assert client.get(url).status_code == status, persona
        detail = client.get(reverse("events:detail", args=[cast.event.slug])).content.decode()
        assert ('id="checklist-summary"' in detail) is (status == 200), persona
    assert client.post(url).status_code == 405


# --- the registered supplier's page --------------------------------------------------------------


def test_the_administrator_enters_the_suppliers_registration_number(client, admin_user):
    event = empty_event()
    url = reverse("events:supplier", args=[event.slug])
    client.force_login(admin_user)
    response = client.post(url, {"supplier_registration_number": "   "})
    assert response.status_code == 200 and "This field is required." in response.content.decode()
    response = client.post(url, {"supplier_registration_number": "G" * 41})
    assert response.status_code == 200 and "at most 40 are taken here" in response.content.decode()
    event.refresh_from_db()
    assert event.supplier_registration_number == "" and not AuditEntry.objects.filter(action="supplier_registered")
    response = client.post(url, {"supplier_registration_number": " GS-44120 "}, follow=True)
    assert "The supplier&#x27;s registration number is recorded." in response.content.decode()
    event.refresh_from_db()
    assert event.supplier_registration_number == "GS-44120"
    entry = AuditEntry.objects.get(action="supplier_registered")
    assert (entry.old, entry.new) == (
        {"supplier_registration_number": ""},
        {"supplier_registration_number": "GS-44120"},
    )
    assert readiness.checklist(event).lines[0].done


def test_the_dric_reads_the_supplier_but_only_the_administrator_enters_its_number(client):
    cast = make_cast("supplier", open_day=False)
    url = reverse("events:supplier", args=[cast.event.slug])
    login_person(client, cast.dric)
    page = client.get(url).content.decode()
    assert "GS-44120" in page and 'id="supplier-form"' not in page
    assert client.post(url, {"supplier_registration_number": "X-1"}).status_code == 403
    cast.event.refresh_from_db()
    assert cast.event.supplier_registration_number == "GS-44120"


def test_a_blank_number_is_refused_by_the_service_too():
    event = empty_event()
    with refuses("event.supplier_number_blank"):
        services.supplier_registration_set(event=event, number=" ")
    with refuses("event.supplier_number_too_long", longest=40):
        services.supplier_registration_set(event=event, number="9" * 41)
