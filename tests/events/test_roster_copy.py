"""The DRIC copies an earlier day's shifts to a new day's empty roster: each shift through the
service that adds a shift, so every rule of a shift holds; one refused shift refuses the copy whole.
And the roster page asks before it opens the day, listing what opens."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from events import services
from events.models import Assignment, GamingDay, Role, Shift
from tests.cage.helpers import roster_the_designated
from tests.conftest import DAY, login, make_cast
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

NEXT = DAY + datetime.timedelta(days=1)


def at(date, hour, minute=0):
    return timezone.make_aware(datetime.datetime.combine(date, datetime.time(hour, minute)))


@pytest.fixture
def cast(db):
    """The first day's roster: the designated all day, a dealer from 18:00 to 02:00 the next
    morning (across midnight); the next day added, in setup, its roster empty."""
    cast = make_cast()
    roster_the_designated(cast)
    services.shift_add(day=cast.day, person=cast.dealer, role=Role.DEALER, starts_at=at(DAY, 18), ends_at=at(NEXT, 2))
    services.day_add(event=cast.event, date=NEXT)
    return cast


def shifts_of(day):
    return sorted(
        (s.person.code, s.role, timezone.localtime(s.starts_at), timezone.localtime(s.ends_at))
        for s in day.shifts.all()
    )


def roster_url(cast, date):
    return reverse("events:roster", args=[cast.event.slug, date.isoformat()])


def test_the_dric_copies_the_shifts_of_an_earlier_day_at_the_same_times(client, cast):
    login(client, cast, "dric")
    page = client.get(roster_url(cast, NEXT)).content.decode()
    assert 'id="copy-shifts"' in page and f'<option value="{cast.day.pk}">' in page
    added_before = AuditEntry.objects.filter(action="shift_added").count()
    response = client.post(roster_url(cast, NEXT), {"copy": "1", "source": cast.day.pk})
    assert response.status_code == 302 and response.url == roster_url(cast, NEXT)
    next_day = cast.event.days.get(date=NEXT)
    one_day = datetime.timedelta(days=1)
    assert shifts_of(next_day) == [(c, r, s + one_day, e + one_day) for c, r, s, e in shifts_of(cast.day)]
    assert ("dealer", Role.DEALER, at(NEXT, 18), at(NEXT + one_day, 2)) in shifts_of(next_day)
    # Each copied shift is on the audit trail as a shift added, as one added by hand is.
    assert AuditEntry.objects.filter(action="shift_added").count() == added_before + next_day.shifts.count()
    page = client.get(roster_url(cast, NEXT)).content.decode()
    assert "are copied to this day" in page
    # Its roster no longer empty, the day is not offered a copy again.
    assert 'id="copy-shifts"' not in page


def test_a_copy_to_a_roster_already_begun_is_refused_and_changes_nothing(client, cast):
    next_day = cast.event.days.get(date=NEXT)
    services.shift_add(day=next_day, person=cast.dealer, role=Role.DEALER, starts_at=at(NEXT, 12), ends_at=at(NEXT, 14))
    login(client, cast, "dric")
    assert 'id="copy-shifts"' not in client.get(roster_url(cast, NEXT)).content.decode()
    response = client.post(roster_url(cast, NEXT), {"copy": "1", "source": cast.day.pk})
    assert response.status_code == 200
    assert "already has shifts: a copy fills an empty roster only (roster)" in response.content.decode()
    assert next_day.shifts.count() == 1
    with refuses("roster.copy_day_has_shifts"):
        services.roster_copy(day=next_day, source=cast.day)


def test_an_opened_or_closed_day_is_not_copied_to(cast):
    next_day = cast.event.days.get(date=NEXT)
    GamingDay.objects.filter(pk=next_day.pk).update(status=GamingDay.Status.OPEN)
    with refuses("roster.copy_day_opened"):
        services.roster_copy(day=next_day, source=cast.day)
    GamingDay.objects.filter(pk=next_day.pk).update(status=GamingDay.Status.CLOSED)
    with refuses("roster.day_locked"):
        services.roster_copy(day=next_day, source=cast.day)
    assert not next_day.shifts.exists()


def test_only_an_earlier_day_of_the_same_event_is_copied_from(cast):
    later = services.day_add(event=cast.event, date=NEXT + datetime.timedelta(days=1))
    with refuses("roster.copy_source_not_earlier"):
        services.roster_copy(day=cast.event.days.get(date=NEXT), source=later)
    other = make_cast("elsewhere", open_day=False)
    with refuses("roster.copy_source_not_earlier"):
        services.roster_copy(day=cast.event.days.get(date=NEXT), source=other.day)


def test_one_shift_refused_refuses_the_copy_whole_naming_the_shift_and_its_rule(client, cast):
    # The dealer no longer holds the role of dealer (a role taken back in the database, as a
    # correction would): her shift of the first day would break the roster's rule.
    Assignment.objects.filter(person=cast.dealer, role=Role.DEALER).delete()
    next_day = cast.event.days.get(date=NEXT)
    with refuses("roster.copy_shift_refused", name="Dealer") as refused:
        services.roster_copy(day=next_day, source=cast.day)
    assert "does not hold the role of Dealer" in str(refused.value)
    assert str(refused.value).endswith("(roster)")
    assert not next_day.shifts.exists()  # the designated shifts copied before it are undone
    login(client, cast, "dric")
    response = client.post(roster_url(cast, NEXT), {"copy": "1", "source": cast.day.pk})
    page = response.content.decode()
    assert response.status_code == 200 and "The shift of Dealer as Dealer from" in page
    assert not next_day.shifts.exists()


def test_a_day_not_in_the_list_is_refused_by_the_form(client, cast):
    login(client, cast, "dric")
    later = services.day_add(event=cast.event, date=NEXT + datetime.timedelta(days=1))
    for source in (later.pk, "abc", ""):
        response = client.post(roster_url(cast, NEXT), {"copy": "1", "source": source})
        assert response.status_code == 200
    assert not Shift.objects.filter(day__date=NEXT).exists()


def test_opening_the_day_comes_after_the_shifts_and_asks_first(client, cast):
    login(client, cast, "dric")
    client.post(roster_url(cast, NEXT), {"copy": "1", "source": cast.day.pk})
    cast.day.status = GamingDay.Status.CLOSED  # the day before must be closed for this one to open
    cast.day.save()
    page = client.get(roster_url(cast, NEXT)).content.decode()
    assert page.index('id="add-shift"') < page.index('id="open-day"')
    confirm = page[page.index('id="open-day"') :]
    assert "<summary" in confirm and "What opens" in confirm and "4 shifts on the roster" in confirm
    assert "Chip Cashier" in confirm[: confirm.index("</ul>")]


def test_the_people_page_links_to_its_add_form_from_the_top(client, cast):
    login(client, cast, "dric")
    page = client.get(reverse("events:people", args=[cast.event.slug])).content.decode()
    assert page.index('href="#add-person"') < page.index("<table")
    assert 'id="add-person"' in page
