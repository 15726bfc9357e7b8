"""The DRIC copies the first day's shifts to the next day's empty roster in the browser, then opens
the day through its confirm step; in English and in French, at the cage's and a tablet's width."""

import datetime

import pytest
from django.utils import timezone

from events import services
from events.models import GamingDay, Role
from tests.browser.conftest import at_both_widths, follow, person_page
from tests.cage.helpers import roster_the_designated
from tests.conftest import DAY, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEXT = DAY + datetime.timedelta(days=1)


def at(date, hour):
    return timezone.make_aware(datetime.datetime.combine(date, datetime.time(hour)))


@pytest.fixture
def cast():
    cast = make_cast()
    roster_the_designated(cast)
    services.shift_add(day=cast.day, person=cast.dealer, role=Role.DEALER, starts_at=at(DAY, 18), ends_at=at(DAY, 23))
    services.day_add(event=cast.event, date=NEXT)
    # The first day must be closed before the next opens; it had no postings.
    GamingDay.objects.filter(pk=cast.day.pk).update(status=GamingDay.Status.CLOSED)
    return cast


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_dric_copies_a_day_of_shifts_then_opens_the_day_after_confirming(browser, live_server, cast, language):
    page = person_page(browser, live_server, cast.dric)
    if language == "fr":
        follow(page, "#language-fr-ca")
    page.goto(f"/events/{cast.event.slug}/days/{NEXT.isoformat()}/")
    # An empty roster: the copy is offered.
    assert page.locator("#copy-shifts").is_visible()
    at_both_widths(page, f"roster-copy-offered-{language}")
    page.select_option("#copy_source", str(cast.day.pk))
    follow(page, "#copy-shifts button[name=copy]")
    assert page.locator("#roster tr").count() == 1 + 4  # the heading, then the four shifts copied
    assert GamingDay.objects.get(event=cast.event, date=NEXT).shifts.count() == 4
    assert page.locator("#copy-shifts").count() == 0
    # Opening the day comes after the shifts and asks first, listing what opens.
    assert page.evaluate(
        "document.querySelector('#add-shift').compareDocumentPosition(document.querySelector('#open-day'))"
        " & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    assert not page.locator("#open-day-confirm").is_visible()
    page.click("#open-day summary")
    assert page.locator("#what-opens li").count() == 2 and page.locator("#open-day-confirm").is_visible()
    at_both_widths(page, f"roster-copy-confirm-{language}")
    follow(page, "#open-day-confirm")
    assert GamingDay.objects.get(date=NEXT, event=cast.event).status == GamingDay.Status.OPEN
    page.context.close()
