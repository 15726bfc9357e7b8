"""Load the demo event: one full gaming day of records through import_records, a login for each
role, and the next gaming day scheduled with a full roster, ready for the DRIC to open. On that day
a second General Cashier and a second Chip Cashier take over at a change of shift, so that a shift
handover can be tried (cage.services.slips.handover).

Each demo login is made as any login is (events.services.login_create, with a one-time setup
code) and then set up with the demo password and PIN as its owner would on the setup page. Known
passwords are for the local demo only. Loading it twice changes nothing: an existing demo event is
left as it is, with any password or PIN its people changed.
"""

import datetime
import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.importer import ImportFailed, import_records
from events import services
from events.commands import Command as TranslatedHelpCommand
from events.models import DESIGNATED, Event, Role

DEMO_FILE = Path(__file__).resolve().parents[2] / "demo" / "lakeside-demo.json"
SLUG = "lakeside-fair-2026"
PASSWORD = "demo-pass-2026"
PIN = "2468"  # each demo person's signing PIN, set at the login's setup as its owner would
# Who is on the roster of each demo day: (people, role, from hour, until hour; 24 is midnight). The
# designated persons are there from the chips' delivery at 10:00 until 1 a.m., after the day's close:
# they sign only while on duty (T&C 2).
FLOOR = [
    (("dana", "dev", "del"), Role.DEALER, 12, 23),
    (("rita", "ron"), Role.RUNNER, 12, 22),
]
ROSTER = [
    (("ann",), Role.DRIC, 10, 25),
    (("gus",), Role.GENERAL_CASHIER, 10, 25),
    (("cora",), Role.CHIP_CASHIER, 10, 25),
    *FLOOR,
]
# The second day's cashiers change at 18:00: Gwen takes bank cash over from Gus, Cal the chip bank
# from Cora. Both of each pair are on duty from 18:00 to 19:00, to count the place together and sign
# the handover; each position stays present continuously (T&C 2).
SHIFT_CHANGE_ROSTER = [
    (("ann",), Role.DRIC, 10, 25),
    (("gus",), Role.GENERAL_CASHIER, 10, 19),
    (("gwen",), Role.GENERAL_CASHIER, 18, 25),
    (("cora",), Role.CHIP_CASHIER, 10, 19),
    (("cal",), Role.CHIP_CASHIER, 18, 25),
    *FLOOR,
]
# The incoming cashiers, who are not in the records file: its day ran on one of each.
RELIEF = [  # (person id, name, born on, role)
    ("gwen", "Gwen Lavoie", datetime.date(1984, 10, 5), Role.GENERAL_CASHIER),
    ("cal", "Cal Nguyen", datetime.date(1979, 1, 22), Role.CHIP_CASHIER),
]
LOGINS = [  # (person id, role shown)
    ("ann", Role.DRIC),
    ("gus", Role.GENERAL_CASHIER),
    ("gwen", Role.GENERAL_CASHIER),
    ("cora", Role.CHIP_CASHIER),
    ("cal", Role.CHIP_CASHIER),
    ("rita", Role.RUNNER),
    ("ron", Role.RUNNER),
    ("dana", Role.DEALER),
    ("dev", Role.DEALER),
    ("del", Role.DEALER),
    ("audrey", Role.AUDITOR),
]


class Command(TranslatedHelpCommand):
    help = gettext_lazy("Load the demo event with a login for each role (idempotent).")

    def handle(self, *args, **options):
        if Event.objects.filter(slug=SLUG).exists():
            self.stdout.write(_("The demo event %(slug)s is already loaded.") % {"slug": SLUG})
        else:
            # The imported day came from paper: it comes with the hours it ran and its roster (the
            # records format's extensions), as a day closed and locked cannot be given them later.
            data = json.loads(DEMO_FILE.read_text())
            first = data["days"][0]
            first.update(opens_at="12:00", closes_at="23:00", shifts=self.shifts(first["date"]))
            try:
                event = import_records(data)
            except ImportFailed as failed:
                raise CommandError("\n".join(failed.problems)) from None
            self.stdout.write(f"Imported {event.slug}: {event.days.count()} day(s), {event.slips.count()} slip(s).")
            self.extend(event)
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
        # The licence's number of tables of each game (T&C 1.3): the demo's, as on its licence.
        for game in event.games:
            services.tables_licensed_set(event=event, game=game, count=event.tables.filter(game=game).count())
        auditor = services.person_add(
            event=event,
            code="audrey",
            name="Audrey Fortin",
            born_on=datetime.date(1972, 5, 9),
            identification="AGCO inspector card",
        )
        services.role_assign(person=auditor, role=Role.AUDITOR, by=None)
        # What the designated persons showed and declared before the first day (T&C 1.4.4, 1.4.6,
        # 2), which the records file's format does not carry.
        for person in event.people.filter(assignments__role__in=DESIGNATED).distinct():
            services.person_declarations_set(
                person=person,
                identification=person.identification or "Ontario driver's licence",
                other_activities=True,
                terms_acknowledged=True,
            )
        self.add_relief(event)
        for person in event.people.all():
            setup = services.login_create(person=person, username=person.code, by=None)
            services.login_setup_complete(
                request=None, username=person.code, code=setup.code, password=PASSWORD, pin=PIN
            )

        # The next day, scheduled with its change of shift, ready for the DRIC to open.
        second = services.day_add(
            event=event, date=datetime.date(2026, 9, 12), opens_at=datetime.time(12, 0), closes_at=datetime.time(23, 0)
        )
        self.roster(event, second, SHIFT_CHANGE_ROSTER)

    @staticmethod
    def add_relief(event: Event):
        """The second General Cashier and Chip Cashier, their declarations made before they are
        designated (T&C 1.4.4, 1.4.6, 2), as the administrator would on the People page."""
        for code, name, born_on, role in RELIEF:
            person = services.person_add(
                event=event,
                code=code,
                name=name,
                born_on=born_on,
                identification="Ontario driver's licence",
                other_activities=True,
                terms_acknowledged=True,
            )
            services.role_assign(person=person, role=role, by=None)

    @staticmethod
    def shifts(date: str) -> list[dict]:
        """The demo's roster of one day, as a records file writes it: the designated persons from
        10:00 to 1:00, the dealers 12:00 to 23:00, the runners 12:00 to 22:00."""
        day = datetime.date.fromisoformat(date)
        rows = []
        for codes, role, start, end in ROSTER:
            for code in codes:
                ends = datetime.datetime.combine(day, datetime.time()) + datetime.timedelta(hours=end)
                rows.append(
                    {
                        "person": code,
                        "role": role,
                        "starts_at": f"{date}T{start:02d}:00",
                        "ends_at": ends.strftime("%Y-%m-%dT%H:%M"),
                    }
                )
        return rows

    def roster(self, event, day, roster):
        def at(hours):
            midnight = timezone.make_aware(datetime.datetime.combine(day.date, datetime.time()))
            return midnight + datetime.timedelta(hours=hours)

        people = {p.code: p for p in event.people.all()}
        for codes, role, start, end in roster:
            for code in codes:
                services.shift_add(day=day, person=people[code], role=role, starts_at=at(start), ends_at=at(end))

    def print_logins(self):
        self.stdout.write(
            _("Logins (password for all: %(password)s; signing PIN for each person: %(pin)s):")
            % {"password": PASSWORD, "pin": PIN}
        )
        admin = _("Event administrator (staff)")
        self.stdout.write(f"  {'admin':<8} {admin}")
        for code, role in LOGINS:
            self.stdout.write(f"  {code:<8} {Role(role).label}")
