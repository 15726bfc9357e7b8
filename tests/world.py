"""An event in the middle of its first gaming day, a user of every kind, and what the pages'
forms are sent: shared by the permission matrix and the form fuzz tests."""

import hashlib
import uuid
from dataclasses import dataclass

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from cage import services
from cage.models import BankSlip, PaperBookPrint, Signature, Slip
from cage.services import fill_requests, paper
from cage.services.bank_slips import bank_slip_enter
from cage.services.cheques import disbursement_enter
from events import services as event_services
from events.models import Event, Role
from events.permissions import ANONYMOUS, OUTSIDER, STAFF
from events.proceeds import purpose_add
from tests.cage.helpers import open_table, stock
from tests.conftest import DAY, PASSWORD, PIN, add_person, make_cast, make_event

# A person on the event whose registration is suspended holds no role there: an outsider.
SUSPENDED = "suspended"


@dataclass
class World:
    cast: object
    users: dict  # column → user (None: anonymous)
    involved: Slip  # a fill carried by the runner, waiting for the dealer
    uninvolved: Slip  # a float in: no runner, no dealer
    paper_book: PaperBookPrint  # a book of paper slips, as first printed
    paper_signature: Signature  # on a slip entered from paper, not yet confirmed
    deposit: Slip  # a deposit to the trust account, made
    bank_slip: BankSlip  # its bank deposit slip, entered by the General Cashier, not checked yet
    expense: Slip  # an expense approved, paid from the trust account, its cheque not entered yet
    disbursement: object  # a cheque from the trust account for an approved purpose


def make_world() -> World:
    cast = make_cast()
    stock(cast)
    # What the trust account held before the float left it: the expense's cheque is checked against it.
    Event.objects.filter(pk=cast.event.pk).update(trust_opening_balance=1_000_000)
    open_table(cast)
    involved = services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"5": 10},
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner"),
        allow_pending=True,
    )
    uninvolved = Slip.objects.filter(event=cast.event, slip_type="float_in").get()
    deposit = services.deposit(
        day=cast.day, cash=5_000, signed=cast.signed(deposited_by="general_cashier", witnessed_by="dric")
    )
    bank_slip = bank_slip_enter(deposit=deposit, number="BS-1", stamped_on=DAY, person=cast.general_cashier)
    expense = services.expense(
        day=cast.day,
        category="licence_fee",
        description="Licence fee",
        cash=2_500,
        invoice="LIC-1",
        signed=cast.signed(prepared_by="general_cashier", approved_by="dric"),
    )
    food = purpose_add(event=cast.event, name="Lakeside Food Bank")
    disbursement = disbursement_enter(
        purpose=food,
        number="2001",
        written_on=DAY,
        payee="Lakeside Food Bank",
        amount=1_000,
        person=cast.general_cashier,
    )
    # A dealer's fill request, open: withdrawn by her, declined by the Chip Cashier (cage.views_fill_requests).
    fill_requests.ask(day=cast.day, table=cast.bj, chips={"5": 4}, person=cast.dealer)
    suspended = add_person(cast.event, "sam", Role.GENERAL_CASHIER)
    event_services.registration_change(person=suspended, registration="suspended")
    User = get_user_model()
    users = {
        ANONYMOUS: None,
        OUTSIDER: User.objects.create_user("outsider", password=PASSWORD),
        STAFF: User.objects.create_user("admin", password=PASSWORD, is_staff=True),
        SUSPENDED: suspended.user,
        **{role: getattr(cast, role).user for role in Role.values},
    }
    # Someone the DRIC added, waiting for the administrator to give them a login.
    add_person(cast.event, "walkin", Role.RUNNER, login=False)
    # A General Cashier the administrator designated during the day: the role stands out until a
    # second designated person acknowledges it, and the login's code waits for one's confirmation.
    appointee = add_person(cast.event, "newcashier", None, login=False)
    event_services.role_assign(person=appointee, role=Role.GENERAL_CASHIER, by=users[STAFF])
    event_services.login_create(person=appointee, username="newcashier", by=users[STAFF])
    # The outsider is somebody: the DRIC of another event.
    other = add_person(make_event("other-fair"), "olga", Role.DRIC, login=False)
    other.user = users[OUTSIDER]
    other.save()
    paper_book = paper.book_print(
        event=cast.event, slip_type="fill", count=2, user=cast.chip_cashier.user, language="en"
    )
    # A sale entered from a paper slip, its seller still to confirm it.
    sales = paper.book_print(event=cast.event, slip_type="sale", count=1, user=None, language="en").book
    on_paper = paper.enter(
        day=cast.day,
        book=sales,
        number=1,
        written_at=timezone.now(),
        signed={"sold_by": cast.chip_cashier},
        confirmed={},
        entered_by=cast.dric,
        chips={"1": 2},
        cash=200,
    )
    signature = on_paper.signatures.get()
    return World(cast, users, involved, uninvolved, paper_book, signature, deposit, bank_slip, expense, disbursement)


# What a POST carries: a form an allowed user's POST would apply, so that a refusal is a real one.
def payload(world: World, case: str, which) -> dict:
    c = world.cast
    name, _bracket, variant = case.partition("[")
    if name == "cage:slip_new":
        return slip_form(world, variant.rstrip("]"))
    if name == "cage:slip_sign":
        slip = getattr(world, which)
        signer = {"capacity": "received_by", "person": c.dealer.pk, "pin": PIN}
        if which == "uninvolved":
            signer = {"capacity": "witnessed_by", "person": c.dric.pk, "pin": PIN}
        return {**signer, "next": reverse("cage:slip", args=[c.event.slug, slip.pk])}
    forms = {
        # A username of its own each time: the lockout counts wrong tries per username and address.
        "login": {"username": f"nobody-{uuid.uuid4().hex[:8]}", "password": "not-the-password"},
        "events:my_pin": {"password": PASSWORD, "pin": "8642", "pin_again": "8642"},
        "events:create": {
            "licensee": "Lakeside Agricultural Society",
            "slug": "spring-fair",
            "name": "Spring Fair Casino",
            "licence_number": "F-2027-0001",
            "authority": "agco",
            "licensing_authority": "Alcohol and Gaming Commission of Ontario",
            "venue": "Hall A",
            "first_day": "2027-05-01",
            "last_day": "2027-05-02",
            "supplier": "Northern Gaming Supply Ltd.",
            "games": ["blackjack"],
        },
        "events:tables": {"code": "BJ-9", "game": "blackjack"},
        "events:chips": {"value": "100", "colour": "black"},
        "events:wheel_layout": {
            "layout": "1 1:1\n2 2:1\n1 1:1\n5 5:1\n1 1:1\n2 2:1\n1 1:1\nStar 8:1\n2 2:1\nJoker 8:1"
        },
        "events:people": {"code": "newbie", "name": "New Person", "born_on": "1990-01-01", "registration": "good"},
        "events:role_add": {"person": c.runner2.pk, "role": Role.DEALER},
        "events:login_give": {"person": c.event.people.get(code="walkin").pk, "username": "walkin-login"},
        "events:registration_change": {"person": c.dealer2.pk, "registration": "suspended"},
        "events:days": {"date": "2026-09-12", "opens_at": "12:00", "closes_at": "23:00"},
        "events:roster": {
            "person": c.dealer2.pk,
            "role": Role.DEALER,
            "starts_at": f"{DAY}T12:00",
            "ends_at": f"{DAY}T18:00",
        },
        "cage:queue_void": {"reason": "written in error", "request_key": uuid.uuid4().hex},
        # The DRIC approves several at once: here the one fill waiting for her witness.
        "cage:queue_batch": {"slip": [str(world.involved.pk)]},
        "events:password_change": {
            "old_password": PASSWORD,
            "new_password": "a-new-pass-2027",
            "new_password_again": "a-new-pass-2027",
        },
        "events:login_setup": {"username": "nobody", "code": "AAAA-BBBB-CCCC", "password": "x", "pin": "1"},
        "events:set_language": {"language": "fr-ca", "next": "/"},
        "cage:paper_print": {"slip_type": "sale", "count": "2", "language": "en"},
        "reports:report_due": {"report_due_on": "2026-10-11"},
        "reports:report_file": {"filed_on": DAY.isoformat()},
        "reports:trust_account": {
            "trust_bank": "TD",
            "trust_branch": "Main St",
            "trust_account_last_four": "4821",
            "trust_opening_balance": "10000.00",
        },
        "reports:cheque": {
            f"cheque-{world.expense.pk}-number": "1001",
            f"cheque-{world.expense.pk}-written_on": DAY.isoformat(),
            f"cheque-{world.expense.pk}-payee": "AGCO",
        },
        "reports:purpose": {"name": "Youth hockey equipment"},
        "reports:purpose_correct": {f"purpose-{world.disbursement.purpose_id}-name": "Lakeside Food Bank Inc."},
        "reports:disbursement": {
            "disbursement-purpose": str(world.disbursement.purpose_id),
            "disbursement-number": "2002",
            "disbursement-written_on": DAY.isoformat(),
            "disbursement-payee": "Lakeside Food Bank",
            "disbursement-amount": "5.00",
        },
        "reports:disbursement_correct": {
            f"disbursement-{world.disbursement.pk}-purpose": str(world.disbursement.purpose_id),
            f"disbursement-{world.disbursement.pk}-number": "2001",
            f"disbursement-{world.disbursement.pk}-written_on": DAY.isoformat(),
            f"disbursement-{world.disbursement.pk}-payee": "Lakeside Food Bank Inc.",
            f"disbursement-{world.disbursement.pk}-amount": "10.00",
        },
        "reports:bank_slip": {
            f"bank-{world.deposit.pk}-number": "BS-2",
            f"bank-{world.deposit.pk}-stamped_on": DAY.isoformat(),
        },
    }
    return forms.get(name, {})


def slip_form(world: World, slip_type: str) -> dict:
    """A slip form as the cage fills it in, one the service accepts in this world (where there is
    one: a table closed with an empty tray neither opens nor returns chips). Every signer types
    their PIN; none of them is the DRIC, who posts these forms (the expense's is the General
    Cashier). Witnesses sign later."""
    c = world.cast
    fields = {
        "chips_received": {"chips_5": "10", "received_by": c.chip_cashier},
        "chips_returned": {"chips_1": "10", "returned_by": c.chip_cashier},
        "float_in": {"cash": "100", "received_by": c.general_cashier},
        "deposit": {"cash": "100", "deposited_by": c.general_cashier},
        "table_issue": {"table": c.wheel.pk, "chips_1": "10", "issued_by": c.chip_cashier, "received_by": c.dealer},
        "fill": {
            "table": c.bj.pk,
            "runner": c.runner.pk,
            "chips_5": "4",
            "issued_by": c.chip_cashier,
            "carried_by": c.runner,
        },
        "credit": {"table": c.bj.pk, "runner": c.runner.pk, "chips_1": "5"},
        "tips": {"table": c.bj.pk, "chips_1": "2", "counted_by": c.dealer, "verified_by": c.chip_cashier},
        "sale": {"chips_5": "2", "cash": "10", "tender": "cad_cash", "sold_by": c.chip_cashier},
        "redemption": {"chips_1": "5", "cash": "5", "tender": "cad_cash", "paid_by": c.general_cashier},
        "runner_issue": {
            "runner": c.runner2.pk,
            "chips_1": "10",
            "issued_by": c.chip_cashier,
            "received_by": c.runner2,
        },
        "count": {
            "account": "bank_cash",
            "cash_10000": "10",
            "counted_by": c.general_cashier,
            "verified_by": c.chip_cashier,
        },
        "void": {"target": world.involved.pk, "reason": "written in error", "confirm_target": str(world.involved.pk)},
        "expense": {"category": "other", "description": "Tables hired", "cash": "10", "approved_by": c.dric},
    }.get(slip_type, {})
    data = {"request_key": uuid.uuid4().hex}
    for field, value in fields.items():
        if hasattr(value, "pk"):
            data[f"sign_{field}"], data[f"pin_{field}"] = value.pk, PIN
        else:
            data[field] = value
    return data


# The slip types slip_form has an accepted form for.
ACCEPTED_SLIP_FORMS = (
    "chips_received",
    "chips_returned",
    "float_in",
    "deposit",
    "table_issue",
    "fill",
    "credit",
    "tips",
    "sale",
    "redemption",
    "runner_issue",
    "count",
    "void",
    "expense",
)


# What "changes nothing" looks at: every row of the setup and ledger tables, and the logins.
SNAPSHOT_APPS = ("events", "cage", "reports")


def snapshot() -> str:
    """A digest of every row of those tables, read with plain SQL: it runs after most requests."""
    digest = hashlib.sha256()
    models = [m for label in SNAPSHOT_APPS for m in apps.get_app_config(label).get_models()]
    with connection.cursor() as cursor:
        for model in [*models, get_user_model()]:
            meta = model._meta
            columns = ", ".join(
                connection.ops.quote_name(f.column) for f in meta.concrete_fields if f.attname != "last_login"
            )
            cursor.execute(f"SELECT {columns} FROM {connection.ops.quote_name(meta.db_table)} ORDER BY 1")
            digest.update(repr((meta.db_table, cursor.fetchall())).encode())
    return digest.hexdigest()
