"""Load the demo event: one full gaming day of records through import_records, a login for each
role, and the next gaming day scheduled with a full roster, ready for the DRIC to open.

Each demo login is made as any login is (events.services.login_create, with a one-time setup
code) and then set up with the demo password and PIN as its owner would on the setup page. Known
passwords are for the local demo only. Loading it twice changes nothing: an existing demo event is
left as it is, with any password or PIN its people changed.
"""

import datetime
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from events import services
from events.models import Event, Role

DEMO_FILE = Path(__file__).resolve().parents[2] / "demo" / "lakeside-demo.json"
SLUG = "lakeside-fair-2026"
PASSWORD = "demo-pass-2026"
PIN = "2468"  # each demo person's signing PIN, set at the login's setup as its owner would
LOGINS = [  # (person id, role shown)
    ("ann", Role.DRIC),
    ("gus", Role.GENERAL_CASHIER),
    ("cora", Role.CHIP_CASHIER),
    ("rita", Role.RUNNER),
    ("ron", Role.RUNNER),
    ("dana", Role.DEALER),
    ("dev", Role.DEALER),
    ("del", Role.DEALER),
    ("audrey", Role.AUDITOR),
]


class Command(BaseCommand):
    help = gettext_lazy("Load the demo event with a login for each role (idempotent).")

    def handle(self, *args, **options):
        if Event.objects.filter(slug=SLUG).exists():
            self.stdout.write(_("The demo event %(slug)s is already loaded.") % {"slug": SLUG})
        else:
            call_command("import_records", str(DEMO_FILE), stdout=self.stdout)
            self.extend(Event.objects.get(slug=SLUG))
        self.print_logins()

    @transaction.atomic
    def extend(self, event: Event):
        User = get_user_model()
        if not User.objects.filter(username="admin").exists():
            User.objects.create_user("admin", password=PASSWORD, first_name="Event administrator", is_staff=True)
        licensee = event.licensee
        licensee.address = "12 Fairground Road, Lakeside, ON"
        licensee.charitable_registration_number = "10747 1234 RR0001"
        licensee.save()
        event.supplier_registration_number = "GS-44120"
        event.status = Event.Status.RUNNING
        event.save(update_fields=["supplier_registration_number", "status"])
        auditor = services.person_add(
            event=event,
            code="audrey",
            name="Audrey Fortin",
            born_on=datetime.date(1972, 5, 9),
            identification="AGCO inspector card",
        )
        services.role_assign(person=auditor, role=Role.AUDITOR, by=None)
        for person in event.people.all():
            setup = services.login_create(person=person, username=person.code, by=None)
            services.login_setup_complete(
                request=None, username=person.code, code=setup.code, password=PASSWORD, pin=PIN
            )

        # The imported day came from paper; give it the hours it ran and the next day a roster.
        first = event.days.get(date=datetime.date(2026, 9, 11))
        first.opens_at, first.closes_at = datetime.time(12, 0), datetime.time(23, 0)
        first.save(update_fields=["opens_at", "closes_at"])
        second = services.day_add(
            event=event, date=datetime.date(2026, 9, 12), opens_at=datetime.time(12, 0), closes_at=datetime.time(23, 0)
        )
        for day in (first, second):
            self.roster(event, day)

    def roster(self, event, day):
        def at(hour):
            return timezone.make_aware(datetime.datetime.combine(day.date, datetime.time(hour)))

        people = {p.code: p for p in event.people.all()}
        for code, role in (("ann", Role.DRIC), ("gus", Role.GENERAL_CASHIER), ("cora", Role.CHIP_CASHIER)):
            services.shift_add(
                day=day, person=people[code], role=role, starts_at=at(11), ends_at=at(23) + (at(1) - at(0))
            )
        for code in ("dana", "dev", "del"):
            services.shift_add(day=day, person=people[code], role=Role.DEALER, starts_at=at(12), ends_at=at(23))
        for code in ("rita", "ron"):
            services.shift_add(day=day, person=people[code], role=Role.RUNNER, starts_at=at(12), ends_at=at(22))

    def print_logins(self):
        self.stdout.write(
            _("Logins (password for all: %(password)s; signing PIN for each person: %(pin)s):")
            % {"password": PASSWORD, "pin": PIN}
        )
        admin = _("Event administrator (staff)")
        self.stdout.write(f"  {'admin':<8} {admin}")
        for code, role in LOGINS:
            self.stdout.write(f"  {code:<8} {Role(role).label}")
