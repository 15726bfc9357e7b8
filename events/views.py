"""Event setup pages. Thin: a form cleans the input, a service applies the rule, the page shows
the rule's message when it refuses. Who may do what is declared in events.permissions."""

import datetime

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from core import local
from core.rules import RuleViolation

from . import readiness, services
from .access import event_access, landing_url, visible_events
from .compliance import describe_gap, event_compliance, roster_gaps
from .designation import is_administrator
from .forms import (
    DayForm,
    DeclarationsForm,
    DenominationForm,
    EventForm,
    LoginGiveForm,
    PersonForm,
    PinForm,
    RegistrationForm,
    RoleForm,
    RosterCopyForm,
    ShiftForm,
    TableForm,
)
from .models import GamingDay, LoginSetup, Person, SigningPin
from .proceeds import purpose_add


def applied(form, action) -> bool:
    """Run a service; on a refusal, put the rule's message on the form. True when it went through."""
    try:
        with transaction.atomic():
            action()
        return True
    except RuleViolation as exc:
        form.add_error(exc.field if exc.field in form.fields else None, exc.text)
        return False


def applied_counting_tries(form, action) -> bool:
    """Like applied(), but outside a transaction: a service that counts a wrong password or PIN
    (events.lockout) must keep that count even though it refuses; it writes nothing else before
    it has checked everything."""
    try:
        action()
        return True
    except RuleViolation as exc:
        form.add_error(exc.field if exc.field in form.fields else None, exc.text)
        return False


def home(request):
    return render(request, "events/home.html", {"events": visible_events(request.user)})


def landing(request):
    """Where a login lands (LOGIN_REDIRECT_URL): the page the person's role works from."""
    return redirect(landing_url(request.user, timezone.localdate()))


def my_pin(request):
    """The logged-in user sets or changes their own signing PIN (never anyone else's). The
    licensee's administrator signs nothing (events.designation), so is offered no PIN."""
    administrator = is_administrator(request.user)
    current = SigningPin.objects.filter(user=request.user).first()
    form = None if administrator else PinForm(request.POST or None)
    if request.method == "POST" and form is not None and form.is_valid():
        d = form.cleaned_data
        if applied_counting_tries(
            form, lambda: services.pin_set(request=request, user=request.user, password=d["password"], pin=d["pin"])
        ):
            if current is None:
                messages.success(request, _("Your signing PIN is set. Keep it to yourself."))
            else:
                messages.success(request, _("Your signing PIN is changed. Keep it to yourself."))
            return redirect("events:my_pin")
    return render(
        request,
        "events/my_pin.html",
        {
            "form": form,
            "current": current,
            "administrator": administrator,
            "max_failures": settings.LOGIN_MAX_FAILURES,
            "lock_minutes": settings.LOGIN_LOCK_MINUTES,
        },
    )


def event_create(request):
    # Only the licensee's administrators reach this page (events.permissions: events:create).
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        created = {}

        def create():
            licensee = services.licensee_get_or_create(
                name=d["licensee"], address=d["licensee_address"], charitable_number=d["charitable_registration_number"]
            )
            created["event"] = services.event_create(
                licensee=licensee,
                slug=d["slug"],
                name=d["name"],
                licence_number=d["licence_number"],
                venue=d["venue"],
                first_day=d["first_day"],
                last_day=d["last_day"],
                supplier=d["supplier"],
                supplier_registration_number=d["supplier_registration_number"],
                games_authorized=d["games"],
                licensing_authority=d["licensing_authority"],
                authority=d["authority"],
                trust_account=(d["trust_bank"], d["trust_branch"], d["trust_account_last_four"]),
                report_due_on=d["report_due_on"],
            )
            for name in d["approved_purposes"]:
                purpose_add(event=created["event"], name=name, field="approved_purposes")

        if applied(form, create):
            messages.success(request, _("Event created."))
            return redirect(created["event"])
    return render(request, "events/event_form.html", {"form": form})


def event_detail(request, slug):
    access = event_access(request, slug)
    event = access.event
    return render(
        request,
        "events/event_detail.html",
        {
            "access": access,
            "event": event,
            "days": event.days.all(),
            "denominations": event.denominations.all(),
            "tables": event.tables.all(),
            # What is left before the first gaming day, where the administrator looks first.
            "checklist": readiness.checklist(event) if access.may("events:checklist") else None,
        },
    )


def tables(request, slug):
    # django-tables2 is imported when a table is shown, not at start-up (config/tables2).
    from .tables import GameTableTable

    access = event_access(request, slug)
    form = TableForm(request.POST or None, event=access.event)
    if request.method == "POST" and form.is_valid():
        if applied(form, lambda: services.table_create(event=access.event, **form.cleaned_data)):
            messages.success(request, _("Table %(table)s set up.") % {"table": form.cleaned_data["code"]})
            return redirect("events:tables", slug)
    table = GameTableTable(access.event.tables.all())
    return render(
        request, "events/tables.html", {"access": access, "event": access.event, "table": table, "form": form}
    )


def chips(request, slug):
    access = event_access(request, slug)
    form = DenominationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        if applied(
            form, lambda: services.denomination_add(event=access.event, value=str(d["value"]), colour=d["colour"])
        ):
            messages.success(request, _("Chip added to the chip set."))
            return redirect("events:chips", slug)
    return render(
        request,
        "events/chips.html",
        {"access": access, "event": access.event, "denominations": access.event.denominations.all(), "form": form},
    )


def people(request, slug):
    access = event_access(request, slug)
    event = access.event
    admin = request.user.is_staff
    form = PersonForm(request.POST or None, admin=admin)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        made = {}

        def add():
            person = services.person_add(
                event=event,
                code=d["code"],
                name=d["name"],
                born_on=d["born_on"],
                registration=d["registration"],
                terms_acknowledged=d["terms_acknowledged"],
                **form.declarations(),
            )
            if d["role"]:
                services.role_assign(person=person, role=d["role"], by=request.user)
            # Only the administrator's form has the login fields (the services refuse anyone else too).
            if d.get("username"):
                made["setup"] = _login_give(request, person, d["username"], link=d.get("link_existing"))
            made["person"] = person

        if applied(form, add):
            if made.get("setup") is not None:
                return hold_setup_code(request, event, made["person"], made["setup"], new=True)
            messages.success(request, _("%(name)s added.") % {"name": d["name"]})
            return redirect("events:people", slug)
    return _people_page(request, access, form=form)


def _people_page(request, access, *, form, login_form=None, status: int = 200):
    """The people page, with the forms as given (one refused keeps what was typed, each refusal
    under its own field) and the others empty."""
    # django-tables2 is imported when a table is shown, not at start-up (config/tables2).
    from .tables import PersonTable

    event = access.event
    admin = request.user.is_staff
    people = list(event.people.prefetch_related("assignments").select_related("event", "user", "user__login_setup"))
    return render(
        request,
        "events/people.html",
        {
            "access": access,
            "event": event,
            "table": PersonTable(people, exclude=() if access.can_setup else ("declarations",)),
            "form": form,
            "role_form": RoleForm(event=event),
            "registration_form": RegistrationForm(event=event),
            "login_form": login_form or (LoginGiveForm(event=event) if admin else None),
            "waiting": [p for p in people if services.login_pending(p.user)],
            "in_use": [p for p in people if p.user is not None and not services.login_pending(p.user)],
            "now": timezone.now(),
        },
        status=status,
    )


def _login_give(request, person, username: str, *, link: bool):
    """Link the person to an existing login (the administrator's explicit choice) or make them a
    new one; the new login's setup code, or None for a link."""
    if link:
        services.login_link(person=person, username=username, by=request.user)
        return None
    return services.login_create(person=person, username=username, by=request.user)


def login_give(request, slug):
    """The administrator gives a person already on the event a login (a new one, with its setup
    code, or an existing one)."""
    access = event_access(request, slug)
    form = LoginGiveForm(request.POST, event=access.event)
    made = {}
    if form.is_valid():
        d = form.cleaned_data

        def give():
            made["setup"] = _login_give(request, d["person"], d["username"], link=d["link_existing"])

        if applied(form, give):
            if made["setup"] is not None:
                return hold_setup_code(request, access.event, d["person"], made["setup"], new=True)
            messages.success(
                request,
                _("%(name)s now signs in as %(username)s.") % {"name": d["person"].name, "username": d["username"]},
            )
            return redirect("events:people", slug)
    # Refused: the page again, the form as typed with each refusal under its own field; said at the
    # top too, as the form is at the foot of a long page.
    messages.error(request, _("The login was not given: see “Give a login” below."))
    return _people_page(request, access, form=PersonForm(admin=request.user.is_staff), login_form=form, status=400)


# A setup code waits in the session of whoever made it, for the one page that shows it: the answer
# to the POST that made it is a redirect to that page (POST, redirect, GET), so reloading the page
# never makes another code; the page takes the code out of the session as it shows it, so it is
# shown once. {person id: {username, code, expires_at, new}}.
PENDING_SETUP_CODES = "pending_setup_codes"


def hold_setup_code(request, event, person, setup, *, new: bool):
    pending = dict(request.session.get(PENDING_SETUP_CODES) or {})
    pending[str(person.pk)] = {
        "username": setup.user.get_username(),
        "code": setup.code,
        "expires_at": setup.expires_at.isoformat(),
        "new": new,
    }
    request.session[PENDING_SETUP_CODES] = pending
    return redirect("events:setup_code_new", event.slug, person.code)


def _take_setup_code(request, person) -> dict | None:
    """The code waiting to be shown for this person, taken out of the session; None when there is none."""
    pending = dict(request.session.get(PENDING_SETUP_CODES) or {})
    held = pending.pop(str(person.pk), None)
    if held is None:
        return None
    if pending:
        request.session[PENDING_SETUP_CODES] = pending
    else:
        del request.session[PENDING_SETUP_CODES]
    held["expires_at"] = datetime.datetime.fromisoformat(held["expires_at"])
    return held


def setup_code_new(request, slug, code):
    """POST: a new setup code for a person's login (the first was lost or expired, or they have
    forgotten their password or PIN), then on to the page that shows it.
    GET: that page. It shows the code this once; after that (a reload, the back button, a
    bookmark) it says the code was shown already and how to make a new one."""
    access = event_access(request, slug)
    person = get_object_or_404(Person.objects.select_related("user"), event=access.event, code=code)
    if request.method == "POST":
        try:
            with transaction.atomic():
                setup = services.login_setup_reissue(person=person, by=request.user)
        except RuleViolation as exc:
            messages.error(request, exc.text)
            return redirect("events:people", slug)
        return hold_setup_code(request, access.event, person, setup, new=False)
    held = _take_setup_code(request, person) if request.method == "GET" else None
    response = render(
        request,
        "events/setup_code.html",
        {
            "access": access,
            "event": access.event,
            "person": person,
            "setup": held,
            "set_up": person.user is not None and not services.login_pending(person.user),
            # Four eyes once the event has opened: the code works after a second designated person confirms it.
            "to_confirm": LoginSetup.objects.filter(user_id=person.user_id, confirm_needed=True, confirmed_by=None)
            .exclude(user_id=None)
            .exists(),
        },
    )
    # Never kept by the browser or a proxy: the code must not come back from a cache either.
    add_never_cache_headers(response)
    return response


def role_add(request, slug):
    access = event_access(request, slug)
    form = RoleForm(request.POST, event=access.event)
    person = form.cleaned_data["person"] if form.is_valid() else None
    had_login = person is not None and person.user is not None and person.user.has_usable_password()
    if person is not None and applied(form, lambda: services.role_assign(**form.cleaned_data, by=request.user)):
        messages.success(request, _("Role assigned."))
        if had_login:
            person.user.refresh_from_db()
        if had_login and not person.user.has_usable_password():
            # A designated person's login set up before they were one is set up afresh (four eyes).
            messages.warning(
                request,
                _(
                    "%(name)s's login was cleared: the administrator gives them a new setup code, which works once "
                    "another designated person confirms it on the DRIC's queue."
                )
                % {"name": person.name},
            )
    else:
        for error in form.errors.values():
            messages.error(request, " ".join(error))
    return redirect("events:people", slug)


def person_declarations(request, slug, code):
    """One person's declarations, shown as recorded (GET) and recorded (POST): what they show and
    declare (identification, the supplier, other activities, a gaming-assistant registration) and
    that the terms and conditions were brought to their attention (T&C 1.4.4, 1.4.6, 2, 4.2)."""
    access = event_access(request, slug)
    person = get_object_or_404(Person, event=access.event, code=code)
    form = DeclarationsForm(request.POST or None, person=person)
    if request.method == "POST" and form.is_valid():
        recorded = applied(
            form,
            lambda: services.person_declarations_set(
                person=person,
                terms_acknowledged=form.cleaned_data["terms_acknowledged"],
                by=request.user,
                **form.declarations(),
            ),
        )
        if recorded:
            messages.success(request, _("%(name)s: declarations recorded.") % {"name": person.name})
            return redirect("events:people", slug)
    return render(
        request,
        "events/declarations.html",
        {
            "access": access,
            "event": access.event,
            "person": person,
            "form": form,
            "roles": ", ".join(str(a.get_role_display()) for a in person.assignments.all()),
        },
    )


def registration_change(request, slug):
    access = event_access(request, slug)
    form = RegistrationForm(request.POST, event=access.event)
    if form.is_valid() and applied(form, lambda: services.registration_change(**form.cleaned_data)):
        d = form.cleaned_data
        messages.success(
            request,
            _("%(name)s: registration now %(registration)s.")
            % {"name": d["person"].name, "registration": d["person"].get_registration_display().lower()},
        )
    else:
        for error in form.errors.values():
            messages.error(request, " ".join(error))
    return redirect("events:people", slug)


def days(request, slug):
    access = event_access(request, slug)
    form = DayForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if applied(form, lambda: services.day_add(event=access.event, **form.cleaned_data)):
            messages.success(request, _("Gaming day added."))
            return redirect("events:days", slug)
    days_shown = list(access.event.days.all())
    first_day = None if services.event_has_opened(access.event) else readiness.first_day(access.event)
    for day in days_shown:
        # Why a day in setup cannot open yet, said beside it instead of a button that is refused.
        day.cannot_open = services.opening_refusal_text(day) if day.status == GamingDay.Status.SETUP else ""
        # The first day waits for the event's checklist: its page lists everything still missing.
        day.checklist = first_day is not None and day.pk == first_day.pk and access.may("events:checklist")
    return render(
        request,
        "events/days.html",
        {"access": access, "event": access.event, "days": days_shown, "form": form},
    )


def _day(access, date: str) -> GamingDay:
    try:
        parsed = datetime.date.fromisoformat(date)
    except ValueError:
        parsed = None
    return get_object_or_404(GamingDay, event=access.event, date=parsed)


def roster(request, slug, date):
    access = event_access(request, slug)
    day = _day(access, date)
    if request.method == "POST":
        # A closed day's roster is locked: the page offers no form, and a POST changes nothing.
        try:
            services.roster_open(day)
        except RuleViolation as exc:
            messages.error(request, exc.text)
            return redirect("events:roster", slug, date)
    # Two forms post here: a shift added, or the shifts of an earlier day copied (its own button).
    copying = request.method == "POST" and "copy" in request.POST
    form = ShiftForm(None if copying else request.POST or None, day=day)
    copy_form = RosterCopyForm(request.POST if copying else None, day=day, auto_id="copy_%s")
    if copying and copy_form.is_valid():
        source = copy_form.cleaned_data["source"]
        if applied(copy_form, lambda: services.roster_copy(day=day, source=source)):
            messages.success(
                request, _("The shifts of %(date)s are copied to this day.") % {"date": local.day(source.date)}
            )
            return redirect("events:roster", slug, date)
    elif request.method == "POST" and not copying and form.is_valid():
        if applied(form, lambda: services.shift_add(day=day, **form.cleaned_data)):
            messages.success(request, _("Shift added to the roster."))
            return redirect("events:roster", slug, date)
    return render(request, "events/roster.html", _roster_context(access, day, form, copy_form))


def _roster_context(access, day, form, copy_form) -> dict:
    gaps = [describe_gap(role, s, e) for role, spans in roster_gaps(day).items() for s, e in spans]
    shifts = list(day.shifts.select_related("person"))
    in_setup = day.status == GamingDay.Status.SETUP
    return {
        "access": access,
        "event": access.event,
        "day": day,
        "form": form,
        "gaps": gaps,
        # Why it cannot open yet, said beside where the button would be (never a button refused).
        "cannot_open": services.opening_refusal_text(day) if in_setup else "",
        "shifts": shifts,
        # Offered to an empty roster of a day in setup, from a day with shifts (services.roster_copy).
        "copy_form": copy_form
        if copy_form.errors or (in_setup and not shifts and copy_form.fields["source"].queryset.exists())
        else None,
        "roles_on_roster": sorted({s.get_role_display() for s in shifts}),
    }


def day_open(request, slug, date):
    access = event_access(request, slug)
    day = _day(access, date)
    try:
        services.day_open(day=day)
        messages.success(request, _("Gaming day %(date)s is open.") % {"date": local.day(day.date)})
    except RuleViolation as exc:
        messages.error(request, exc.text)
    # Opened from the gaming days list, the DRIC stays on it; from the day's own page, on that.
    if request.POST.get("back") == "days":
        return redirect("events:days", slug)
    return redirect("events:roster", slug, date)


def compliance(request, slug):
    access = event_access(request, slug)
    checks = event_compliance(access.event)
    return render(request, "events/compliance.html", {"access": access, "event": access.event, "checks": checks})
