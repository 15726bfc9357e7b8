"""Event setup pages: happy paths, refusals shown with their rule, wrong methods, and who may do what."""

import datetime
import re

import pytest
from django.urls import reverse

from events.models import Event, GameTable, GamingDay, Person
from tests.cage.helpers import roster_the_designated
from tests.conftest import event_form, login, make_cast
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


@pytest.fixture
def cast(db):
    return make_cast()


def test_every_page_requires_login(client, cast):
    for url in (
        reverse("events:home"),
        reverse("events:detail", args=[cast.event.slug]),
        reverse("cage:home", args=[cast.event.slug]),
    ):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_home_lists_only_the_events_a_user_takes_part_in(client, cast, outsider):
    make_cast("other-fair")
    login(client, cast, "dealer")
    page = client.get(reverse("events:home")).content.decode()
    assert page.count("Lakeside Fall Fair Casino") == 1
    client.force_login(outsider)
    assert "Lakeside" not in client.get(reverse("events:home")).content.decode()


def test_the_dric_creates_a_table(client, cast):
    login(client, cast, "dric")
    response = client.post(reverse("events:tables", args=[cast.event.slug]), {"code": "BJ-2", "game": "blackjack"})
    assert response.status_code == 302
    assert GameTable.objects.filter(event=cast.event, code="BJ-2", game="blackjack").exists()


def test_a_table_for_an_unauthorized_game_shows_the_rule_and_creates_nothing(client, cast):
    login(client, cast, "dric")
    response = client.post(reverse("events:tables", args=[cast.event.slug]), {"code": "CR-1", "game": "craps"})
    assert response.status_code == 200
    assert "T&amp;C 1.5.1" in response.content.decode()
    assert not GameTable.objects.filter(code="CR-1").exists()


def test_the_table_form_offers_only_the_licensed_games(client, cast):
    login(client, cast, "dric")
    page = client.get(reverse("events:tables", args=[cast.event.slug])).content.decode()
    select = re.search(r'<select name="game".*?</select>', page, re.S).group(0)
    offered = re.findall(r'<option value="([a-z_]+)"', select)
    assert offered == ["blackjack", "wheel_of_fortune"]  # the licence's games (T&C 1.5.1): no craps, no baccarat


@pytest.mark.parametrize("persona", ["general_cashier", "chip_cashier", "runner", "dealer", "auditor"])
def test_only_the_dric_sets_up_tables(client, cast, persona):
    login(client, cast, persona)
    response = client.post(reverse("events:tables", args=[cast.event.slug]), {"code": "BJ-9", "game": "blackjack"})
    assert response.status_code == 403
    assert not GameTable.objects.filter(code="BJ-9").exists()


def test_an_outsider_sees_nothing_of_the_event(client, cast, outsider):
    client.force_login(outsider)
    for name in ("events:detail", "events:tables", "events:people", "events:compliance"):
        assert client.get(reverse(name, args=[cast.event.slug])).status_code == 403


@pytest.mark.parametrize(
    "persona,status",
    [
        ("dric", 200),
        ("general_cashier", 200),
        ("chip_cashier", 200),
        ("auditor", 200),
        ("runner", 403),
        ("dealer", 403),
    ],
)
def test_personal_data_is_for_the_designated_persons_and_the_auditor(client, cast, persona, status):
    login(client, cast, persona)
    assert client.get(reverse("events:people", args=[cast.event.slug])).status_code == status


def test_the_auditor_reads_everything_and_changes_nothing(client, cast):
    login(client, cast, "auditor")
    slug = cast.event.slug
    for name in (
        "events:detail",
        "events:tables",
        "events:chips",
        "events:people",
        "events:days",
        "events:compliance",
        "cage:home",
        "reports:event",
    ):
        assert client.get(reverse(name, args=[slug])).status_code == 200, name
    for name, data in (
        ("events:tables", {"code": "X", "game": "blackjack"}),
        ("events:chips", {"value": "100"}),
        ("events:days", {"date": "2026-09-12", "opens_at": "12:00", "closes_at": "23:00"}),
    ):
        assert client.post(reverse(name, args=[slug]), data).status_code == 403
    assert cast.event.denominations.count() == 3 and cast.event.days.count() == 1


def test_the_dric_adds_a_person_with_a_role_and_the_administrator_a_login_that_waits_for_its_owner(
    client, cast, admin_user
):
    login(client, cast, "dric")
    response = client.post(
        reverse("events:people", args=[cast.event.slug]),
        {"code": "nia", "name": "Nia Brown", "born_on": "1990-05-05", "registration": "good", "role": "runner"},
    )
    assert response.status_code == 302
    nia = Person.objects.get(event=cast.event, code="nia")
    assert nia.role_codes() == {"runner"} and nia.user is None
    client.force_login(admin_user)
    response = client.post(
        reverse("events:people", args=[cast.event.slug]),
        {"code": "ida", "name": "Ida Brown", "born_on": "1990-05-05", "registration": "good", "username": "ida"},
        follow=True,
    )
    # The code is shown on a page of its own, this once; the login has no usable password.
    assert response.status_code == 200 and "A login for Ida Brown" in response.content.decode()
    ida = Person.objects.get(event=cast.event, code="ida")
    assert ida.user.username == "ida" and not ida.user.has_usable_password()


def test_an_underage_person_is_refused_on_the_page(client, cast):
    login(client, cast, "dric")
    response = client.post(
        reverse("events:people", args=[cast.event.slug]),
        {"code": "kid", "name": "Kid", "born_on": "2010-01-01", "registration": "good"},
    )
    assert "T&amp;C 1.5.2" in response.content.decode()
    assert not Person.objects.filter(code="kid").exists()


def test_two_positions_for_one_person_are_refused_on_the_page(client, cast, admin_user):
    # The licensee's administrator: mid-event, nobody else may designate at all (test_accounts).
    client.force_login(admin_user)
    response = client.post(
        reverse("events:role_add", args=[cast.event.slug]),
        {"person": cast.general_cashier.pk, "role": "chip_cashier"},
        follow=True,
    )
    assert "each designated person holds one position (T&amp;C 2)" in response.content.decode()
    assert cast.general_cashier.role_codes() == {"general_cashier"}


def test_role_assignment_rejects_get(client, cast):
    login(client, cast, "dric")
    assert client.get(reverse("events:role_add", args=[cast.event.slug])).status_code == 405


def test_a_day_with_a_roster_gap_is_not_opened_from_the_page(client, cast):
    login(client, cast, "dric")
    slug = cast.event.slug
    client.post(reverse("events:days", args=[slug]), {"date": "2026-09-12", "opens_at": "12:00", "closes_at": "23:00"})
    # The first day must close before the next opens; here the gap is the refusal shown.
    response = client.get(reverse("events:roster", args=[slug, "2026-09-12"]))
    assert "Chip Cashier: nobody from 2026-09-12 12:00 to 2026-09-12 23:00" in response.content.decode()


def test_the_compliance_page_lists_each_rule_with_its_section(client, cast):
    login(client, cast, "dric")
    page = client.get(reverse("events:compliance", args=[cast.event.slug])).content.decode()
    for section in ("T&amp;C 2", "T&amp;C 1.5.2", "T&amp;C 2.3", "T&amp;C 4.2"):
        assert section in page


def test_staff_create_an_event_and_others_may_not(client, cast, admin_user):
    data = event_form()
    login(client, cast, "dric")
    assert client.post(reverse("events:create"), data).status_code == 403
    client.force_login(admin_user)
    response = client.post(reverse("events:create"), data)
    assert response.status_code == 302 and response.url == reverse("events:detail", args=["riverside"])


def test_the_approved_purposes_are_entered_with_the_event(client, admin_user):
    client.force_login(admin_user)
    purposes = "Riverside Food Bank\n\n  Youth hockey equipment \n"
    response = client.post(reverse("events:create"), event_form() | {"approved_purposes": purposes})
    assert response.status_code == 302
    event = Event.objects.get(slug="riverside")
    assert list(event.approved_purposes.values_list("name", flat=True)) == [
        "Riverside Food Bank",
        "Youth hockey equipment",
    ]
    # A purpose twice: refused beside its box, and no event is created.
    twice = event_form() | {"slug": "riverside-2", "approved_purposes": "Food bank\nFood bank"}
    page = client.post(reverse("events:create"), twice).content.decode()
    assert "Food bank is already an approved purpose of this event" in page
    assert not Event.objects.filter(slug="riverside-2").exists()


def test_the_dric_records_a_suspension_and_the_person_can_no_longer_sign(client, cast):
    from cage import services as cage_services

    login(client, cast, "dric")
    response = client.post(
        reverse("events:registration_change", args=[cast.event.slug]),
        {"person": cast.runner.pk, "registration": "suspended"},
        follow=True,
    )
    assert "Runner: registration now suspended." in response.content.decode()
    cast.runner.refresh_from_db()
    with refuses("person.may_not_take_part"):
        cage_services.runner_issue(
            day=cast.day,
            runner=cast.runner,
            chips={"1": 1},
            signed={"issued_by": cast.chip_cashier, "received_by": cast.runner},
        )
    page = client.get(reverse("events:compliance", args=[cast.event.slug])).content.decode()
    assert "Runner: registration suspended" in page


def test_only_the_dric_records_registration_changes(client, cast):
    login(client, cast, "general_cashier")
    url = reverse("events:registration_change", args=[cast.event.slug])
    assert client.post(url, {"person": cast.runner.pk, "registration": "revoked"}).status_code == 403
    cast.runner.refresh_from_db()
    assert cast.runner.registration == "good"


def test_the_dric_opens_a_day_in_setup_from_the_gaming_days_list(client, db):
    cast = make_cast("opens-from-list", open_day=False)
    roster_the_designated(cast)  # the last line of the first day's checklist
    slug = cast.event.slug
    days = reverse("events:days", args=[slug])
    open_url = reverse("events:day_open", args=[slug, cast.day.date.isoformat()])
    # The cage page says where the day is opened, and the DRIC finds the button there.
    login(client, cast, "dric")
    home = client.get(reverse("cage:home", args=[slug])).content.decode()
    assert "the DRIC opens it from the gaming days page" in home and f'href="{days}"' in home
    page = client.get(days).content.decode()
    assert f'action="{open_url}"' in page and "Open the gaming day" in page
    response = client.post(open_url, {"back": "days"})
    assert response.status_code == 302 and response["Location"] == days
    cast.day.refresh_from_db()
    assert cast.day.status == GamingDay.Status.OPEN
    assert f'action="{open_url}"' not in client.get(days).content.decode()  # open now: no button


def test_the_cashiers_see_no_open_button_on_the_gaming_days_list(client, db):
    cast = make_cast("no-open-button", open_day=False)
    login(client, cast, "general_cashier")
    assert "Open the gaming day" not in client.get(reverse("events:days", args=[cast.event.slug])).content.decode()


def test_a_day_whose_roster_is_empty_is_not_offered_to_open_and_the_pages_say_why(client, db):
    cast = make_cast("empty-roster", open_day=False)
    cast.day.opens_at, cast.day.closes_at = datetime.time(12), datetime.time(18)
    cast.day.save()
    slug, date = cast.event.slug, cast.day.date.isoformat()
    open_url = reverse("events:day_open", args=[slug, date])
    login(client, cast, "dric")
    days = client.get(reverse("events:days", args=[slug])).content.decode()
    assert f'action="{open_url}"' not in days
    assert "It cannot open yet." in days and "The roster leaves designated positions empty" in days
    roster = client.get(reverse("events:roster", args=[slug, date])).content.decode()
    assert f'action="{open_url}"' not in roster and 'id="cannot-open"' in roster and "(T&amp;C 2)" in roster
    # The service still refuses a POST, in the same words.
    client.post(open_url)
    cast.day.refresh_from_db()
    assert cast.day.status == GamingDay.Status.SETUP
