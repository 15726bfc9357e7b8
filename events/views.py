"""Event setup pages. Thin: a form cleans the input, a service applies the rule, the page shows
the rule's message when it refuses. Who may do what is declared in events.permissions."""

import datetime

from django.contrib import messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from . import services
from .access import event_access, visible_events
from .compliance import describe_gap, event_compliance, moment, roster_gaps
from .forms import (
    DayForm,
    DenominationForm,
    EventForm,
    PersonForm,
    PinForm,
    RegistrationForm,
    RoleForm,
    ShiftForm,
    TableForm,
)
from .models import GamingDay, Person, SigningPin
from .rules import RuleViolation
from .tables import GameTableTable, PersonTable


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


def my_pin(request):
    """The logged-in user sets or changes their own signing PIN (never anyone else's)."""
    current = SigningPin.objects.filter(user=request.user).first()
    form = PinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        if applied_counting_tries(
            form, lambda: services.pin_set(request=request, user=request.user, password=d["password"], pin=d["pin"])
        ):
            if current is None:
                messages.success(request, _("Your signing PIN is set. Keep it to yourself."))
            else:
                messages.success(request, _("Your signing PIN is changed. Keep it to yourself."))
            return redirect("events:my_pin")
    return render(request, "events/my_pin.html", {"form": form, "current": current})


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
            )

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
        },
    )


def tables(request, slug):
    access = event_access(request, slug)
    form = TableForm(request.POST or None)
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
    form = PersonForm(request.POST or None, can_link=request.user.is_staff)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        made = {}

        def add():
            person = services.person_add(
                event=event,
                code=d["code"],
                name=d["name"],
                born_on=d["born_on"],
                identification=d["identification"],
                supplier_associated=d["supplier_associated"],
                registration=d["registration"],
                gaming_assistant_number=d["gaming_assistant_number"],
            )
            if d["role"]:
                services.role_assign(person=person, role=d["role"], by=request.user)
            if d["username"] and d.get("link_existing"):
                services.login_link(person=person, username=d["username"], by=request.user)
            elif d["username"]:
                made["setup"] = services.login_create(person=person, username=d["username"], by=request.user)
            made["person"] = person

        if applied(form, add):
            if "setup" in made:
                return setup_code_page(request, access, made["person"], made["setup"], new=True)
            messages.success(request, _("%(name)s added.") % {"name": d["name"]})
            return redirect("events:people", slug)
    people = event.people.prefetch_related("assignments").select_related("user", "user__login_setup")
    table = PersonTable(people)
    return render(
        request,
        "events/people.html",
        {
            "access": access,
            "event": event,
            "table": table,
            "form": form,
            "role_form": RoleForm(event=event),
            "registration_form": RegistrationForm(event=event),
            "waiting": [p for p in people if services.login_pending(p.user)],
            "now": timezone.now(),
        },
    )


def setup_code_page(request, access, person, setup, *, new: bool):
    """The setup code, shown this once to whoever made it, to hand over on paper. The answer to
    the POST itself (nothing to reload, nothing kept), and never stored by the browser."""
    response = render(
        request,
        "events/setup_code.html",
        {"access": access, "event": access.event, "person": person, "setup": setup, "new": new},
    )
    add_never_cache_headers(response)
    response["Cache-Control"] += ", no-store"
    return response


def setup_code_new(request, slug, code):
    """A new setup code for a person's login (the first was lost or expired)."""
    access = event_access(request, slug)
    person = get_object_or_404(Person, event=access.event, code=code)
    try:
        setup = services.login_setup_reissue(person=person, by=request.user)
    except RuleViolation as exc:
        messages.error(request, exc.text)
        return redirect("events:people", slug)
    return setup_code_page(request, access, person, setup, new=False)


def role_add(request, slug):
    access = event_access(request, slug)
    form = RoleForm(request.POST, event=access.event)
    if form.is_valid() and applied(form, lambda: services.role_assign(**form.cleaned_data, by=request.user)):
        messages.success(request, _("Role assigned."))
    else:
        for error in form.errors.values():
            messages.error(request, " ".join(error))
    return redirect("events:people", slug)


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
    return render(
        request,
        "events/days.html",
        {"access": access, "event": access.event, "days": access.event.days.all(), "form": form},
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
    form = ShiftForm(request.POST or None, day=day)
    if request.method == "POST" and form.is_valid():
        if applied(form, lambda: services.shift_add(day=day, **form.cleaned_data)):
            messages.success(request, _("Shift added to the roster."))
            return redirect("events:roster", slug, date)
    gaps = [describe_gap(role, s, e) for role, spans in roster_gaps(day).items() for s, e in spans]
    return render(
        request,
        "events/roster.html",
        {
            "access": access,
            "event": access.event,
            "day": day,
            "form": form,
            "gaps": gaps,
            "shifts": day.shifts.select_related("person"),
        },
    )


def day_open(request, slug, date):
    access = event_access(request, slug)
    day = _day(access, date)
    try:
        services.day_open(day=day)
        messages.success(request, _("Gaming day %(date)s is open.") % {"date": moment(day.date)})
    except RuleViolation as exc:
        messages.error(request, exc.text)
    return redirect("events:roster", slug, date)


def compliance(request, slug):
    access = event_access(request, slug)
    checks = event_compliance(access.event)
    return render(request, "events/compliance.html", {"access": access, "event": access.event, "checks": checks})
