"""After logging in, each person lands on the page their role works from: the DRIC on her queue, a
cashier or the auditor on the cage, a runner or a dealer on their own slips; the licensee's
administrator, and someone on several events, on the events list to choose."""

import datetime

import pytest
from django.urls import reverse

from events.access import landing_url
from events.models import Event, Role
from tests.conftest import PASSWORD, add_person, login, make_cast

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def landed(client, username: str) -> str:
    response = client.post(reverse("login"), {"username": username, "password": PASSWORD}, follow=True)
    assert response.status_code == 200
    return response.redirect_chain[-1][0]


ROLE_PAGES = [
    ("dric", "cage:queue"),
    ("general_cashier", "cage:home"),
    ("chip_cashier", "cage:home"),
    ("auditor", "cage:home"),
    ("runner", "cage:mine"),
    ("dealer", "cage:mine"),
]


@pytest.mark.parametrize("persona, page", ROLE_PAGES)
def test_each_role_lands_where_its_work_starts(client, cast, persona, page):
    assert landed(client, getattr(cast, persona).user.username) == reverse(page, args=[cast.event.slug])


@pytest.mark.parametrize("persona, page", ROLE_PAGES)
@pytest.mark.parametrize("root", ["/", "", "/?from=logout"])
def test_a_next_of_the_site_root_lands_by_role_not_on_the_events_list(client, cast, persona, page, root):
    """The login page reached from the root (after a logout, a lock, or typing the address) asks for
    `next=/`: that names no page of its own, so each role lands where its work starts, as with no
    `next` at all; the field the login form sends back carries nothing either."""
    shown = client.get(reverse("login"), {"next": root}).content.decode()
    assert '<input type="hidden" name="next" value="">' in shown
    response = client.post(
        reverse("login") + f"?next={root}", {"username": getattr(cast, persona).user.username, "password": PASSWORD}
    )
    assert response.status_code == 302 and response.url == reverse("events:landing")
    assert client.get(response.url).url == reverse(page, args=[cast.event.slug])
    # Sent back in the form's own field, as the login page does.
    client.logout()
    response = client.post(
        reverse("login"), {"username": getattr(cast, persona).user.username, "password": PASSWORD, "next": root}
    )
    assert response.url == reverse("events:landing")


def test_the_administrator_with_a_next_of_the_root_still_chooses_an_event(client, admin_user):
    response = client.post(reverse("login") + "?next=/", {"username": admin_user.username, "password": PASSWORD})
    assert client.get(response.url).url == reverse("events:home")


def test_the_administrator_lands_on_the_events_list(client, admin_user):
    assert landed(client, admin_user.username) == reverse("events:home")


def test_a_page_asked_for_before_the_login_comes_first(client, cast):
    wanted = reverse("cage:register", args=[cast.event.slug])
    response = client.post(
        reverse("login") + f"?next={wanted}",
        {"username": cast.general_cashier.user.username, "password": PASSWORD},
    )
    assert response.url == wanted


def test_someone_on_two_events_lands_on_the_one_running_today_or_chooses(cast):
    other = make_cast("riverside")
    user = cast.dealer.user
    second = add_person(other.event, "dealer-two", Role.DEALER, login=False)
    second.user = user
    second.save(update_fields=["user"])
    # Neither runs on a day between their dates: the events list, to choose.
    outside = max(cast.event.last_day, other.event.last_day) + datetime.timedelta(days=30)
    assert landing_url(user, outside) == reverse("events:home")
    # On a day of the first event only: its page for a dealer.
    Event.objects.filter(pk=other.event.pk).update(first_day=outside, last_day=outside + datetime.timedelta(days=2))
    assert landing_url(user, cast.event.first_day) == reverse("cage:mine", args=[cast.event.slug])


def test_logging_out_says_so_on_the_login_page(client, cast):
    """At a shared terminal the next person sees that the last one's session is over."""
    login(client, cast, "chip_cashier")
    page = client.post(reverse("logout"), follow=True)
    assert page.request["PATH_INFO"] == reverse("login")
    assert "You are logged out." in page.content.decode()
    assert not page.wsgi_request.user.is_authenticated
    # Said once, and only to someone who was logged in.
    assert "You are logged out." not in client.get(reverse("login")).content.decode()
    assert "You are logged out." not in client.post(reverse("logout"), follow=True).content.decode()


def test_the_sites_name_in_the_header_leads_each_person_to_their_own_page(client, cast):
    """The product's name at the top of every page is the way back to where one's work starts: a
    dealer's own slips, not the list of one event."""
    client.force_login(cast.dealer.user)
    page = client.get(reverse("cage:mine", args=[cast.event.slug])).content.decode()
    assert f'<a href="{reverse("events:landing")}"><strong>Fair gaming cage</strong></a>' in page
    assert client.get(reverse("events:landing")).url == reverse("cage:mine", args=[cast.event.slug])
