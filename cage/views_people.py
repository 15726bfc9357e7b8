"""Pages for the people on the floor: each person's own page, and the refusal page that tells
anyone refused what they asked for, why, and where they can go instead."""

from django.conf import settings
from django.shortcuts import render
from django.urls import reverse
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache

from cage.models import Account
from cage.selectors import people
from cage.selectors.counts import blind_places, books_blind
from cage.selectors.fill_requests import requests_of, tables_to_ask_for
from cage.selectors.paper import unconfirmed_signatures
from cage.selectors.slips import on_the_way, pending_slips, to_sign_at_my_table
from events.access import ROLE_PHRASES, RoleRefused, event_access, in_role_order, standing
from events.idle import is_poll
from events.models import Event, Role


def _to_sign(event, person, roles) -> dict:
    # The day's waiting slips, read once for both lists.
    items = pending_slips(event) if person is not None else []
    here, elsewhere = to_sign_at_my_table(event, person, roles, items=items)
    return {
        "to_sign": here,
        "to_sign_elsewhere": elsewhere,
        "on_the_way": on_the_way(event, person, roles, items=items),
    }


CUSTODY_ROLES = {Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER, Role.RUNNER, Role.DEALER}


@never_cache
def mine(request, slug):
    """What this person holds, the slips of the day that name them, their tip shares, their roles.

    The page refreshes itself as the cage home does (static/live_panels.js): ?panel=1 answers its
    live panels alone, and is not activity for the idle lock (events.idle)."""
    return mine_page(request, slug)


def mine_page(request, slug, *, asked=None):
    """My slips; `asked`: a dealer's fill request refused (cage.views_fill_requests), shown again as
    she typed it, each refusal beside its field."""
    access = event_access(request, slug)
    event, person = access.event, access.person
    on_floor = person is not None and bool(access.roles)
    day = people.current_day(event)
    runner = on_floor and Role.RUNNER in access.roles
    return render(
        request,
        "cage/_mine_poll.html" if is_poll(request) else "cage/mine.html",
        {
            "refresh_seconds": settings.CAGE_REFRESH_SECONDS,
            # Where a Sign button returns: the page itself, never its panels' refresh (?panel=1).
            "next_url": reverse("cage:mine", args=[event.slug]),
            "access": access,
            "event": event,
            "person": person if on_floor else None,
            "day": day,
            "no_custody": not (access.roles & CUSTODY_ROLES),
            "selling": Role.RUNNER in access.roles,
            "holdings": people.holdings(event, person) if runner else None,
            # While the day reconciles, what a runner holds is counted blind: it waits for the count.
            "holdings_blind": runner and f"{Account.Kind.RUNNER}:{person.code}" in blind_places(day),
            "tips": people.tip_shares(event, person) if on_floor and Role.DEALER in access.roles else None,
            "slips": people.day_slips(day, person) if on_floor else [],
            # Added up, the day's amounts would give the counted places' books away (books_blind).
            "amounts_blind": on_floor and bool(books_blind(day)),
            # Entered from paper slips that name them: their word that the paper bears their signature.
            "paper_to_confirm": [s for s in unconfirmed_signatures(event, day=day) if s.person_id == person.pk]
            if on_floor and day
            else [],
            **_to_sign(event, person if on_floor else None, access.roles),
            **_fill_request_block(request, access, day, asked),
        },
    )


def _fill_request_block(request, access, day, asked=None) -> dict:
    """A dealer's fill requests of the day and the form to ask for one (cage.views_fill_requests);
    nothing for anyone else. The page's refresh answers her requests alone, a live panel, so what
    the cage made of them shows by itself; the form is left as it is, being typed in."""
    if access.person is None or Role.DEALER not in access.roles:
        return {}
    block = {"my_fill_requests": requests_of(day, access.person), "fill_requests_shown": True}
    if is_poll(request):
        return block
    from cage.views_fill_requests import FillRequestForm  # it imports cage.views, which is heavier

    if asked is not None:
        block["fill_request_form"] = asked
        return block
    block["fill_request_form"] = (
        FillRequestForm(event=access.event, day=day, person=access.person)
        if tables_to_ask_for(day, access.person)
        else None
    )
    return block


# What a refused page is, by the part of the site it belongs to; %(roles)s names who it is for.
AREAS = {
    "cage": gettext_lazy("The cage pages are for %(roles)s."),
    "reports": gettext_lazy("The event's report is for %(roles)s."),
    "events:people": gettext_lazy("The list of the event's people is for %(roles)s."),
    "events:compliance": gettext_lazy("The compliance checks are for %(roles)s."),
}


def _roles_phrase(roles) -> str:
    return get_text_list([str(ROLE_PHRASES[r]) for r in in_role_order(roles)], _("and"))


def _explain(request, exception: RoleRefused) -> tuple[str, str]:
    """(what was refused and why, who the page or change is for), in plain words."""
    access = exception.access
    names = ", ".join(str(n) for n in access.role_names)
    count = len(access.role_names)
    if not count:
        # The licensee's administrator with no role here: they set the event up and read it, but
        # the cage's slips are written and signed by the event's own people.
        why = _("You are the licensee's administrator and hold no role on this event.")
    elif exception.write:
        why = ngettext(
            "Your role on this event (%(roles)s) does not allow this change.",
            "Your roles on this event (%(roles)s) do not allow this change.",
            count,
        ) % {"roles": names}
    else:
        why = ngettext(
            "Your role on this event (%(roles)s) does not allow this page.",
            "Your roles on this event (%(roles)s) do not allow this page.",
            count,
        ) % {"roles": names}
    if not exception.allowed:
        return why, _("Only the licensee's administrators may do this.")
    match = request.resolver_match
    area = None
    if match is not None and not exception.write:
        area = AREAS.get(match.view_name) or AREAS.get(match.namespace)
    if area is None:
        area = (
            gettext_lazy("Changes here are made by %(roles)s.")
            if exception.write
            else gettext_lazy("This page is for %(roles)s.")
        )
    # The auditor reads what the cage does; the page is for the people who do it.
    doers = exception.allowed - {Role.AUDITOR} or exception.allowed
    who = str(area) % {"roles": _roles_phrase(doers)}
    if Role.AUDITOR in exception.allowed - doers:
        who = _("%(who)s An auditor may look, and changes nothing.") % {"who": who}
    return why, who


def refused(request, exception=None):
    """handler403: the refusal explained, with the navigation the user still has on the event."""
    access = None
    match = getattr(request, "resolver_match", None)
    slug = match.kwargs.get("slug") if match is not None else None
    if isinstance(exception, RoleRefused):
        access = exception.access
    elif slug and request.user.is_authenticated:
        event = Event.objects.filter(slug=slug).first()
        access = standing(request, event) if event is not None else None
    if access is not None and not access.on_event:
        access = None

    if isinstance(exception, RoleRefused) and access is not None:
        why, who = _explain(request, exception)
    elif isinstance(exception, RoleRefused) or (slug and access is None):
        why, who = _("You hold no role on this event, so its pages are not open to you."), ""
    else:
        # A refusal outside an event's roles (e.g. creating an event): the view's own reason.
        why = str(exception) if exception is not None and str(exception) else _("You may not open this page.")
        who = ""
    return render(
        request,
        "403.html",
        {
            "event": access.event if access else None,
            "access": access,
            "why": why,
            "who": who,
            "home_url": reverse("events:home"),
        },
        status=403,
    )
