"""Run inside a product process (manage.py shell) on the database under test: set an event up
through the services, and read back what the ledger holds, slip by slip, as JSON."""

import io
import json
from collections import defaultdict

from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db.models import Sum
from django.test import override_settings

from cage.ledger_check import ledger_breaks
from cage.models import Account, Posting, Signature, Slip, SlipType
from cage.slip_types import SLIP_KINDS
from events import services
from events.models import Event
from tests.cage.helpers import open_table, stock
from tests.conftest import PASSWORD, PIN, make_cast

# Slip types whose first custody step, once signed, moves value: such a slip without postings
# was written half-way. (An opener that matches its tray moves nothing, and is not among them.)
MOVES_VALUE = {
    SlipType.CHIPS_RECEIVED,
    SlipType.FLOAT_IN,
    SlipType.TABLE_ISSUE,
    SlipType.SALE,
    SlipType.REDEMPTION,
    SlipType.FILL,
    SlipType.CREDIT,
}


def set_up(slug: str, *, chips: dict, cash: int, trays: dict, logins=(), stocks: int = 1) -> None:
    """An open gaming day with the standard cast, a stocked bank and both tables open; prints
    the ids a client needs. `stocks`: the bank stocked that many times with `chips` (a slip carries
    at most a million chips of a kind).

    The cast is made with a fast password hasher, as the test suite makes it (tests/conftest.py).
    The people in `logins` then set their login up again with the product's own hashers, as on
    the pages: the licensee's administrator gives them a new setup code and they choose their
    password and signing PIN, so that the server checks both as in production.
    """
    with override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher", "events.hashers.SigningPinHasher"]
    ):
        cast = make_cast(slug)
    administrator = get_user_model().objects.create_user(f"{slug}-administrator", is_staff=True)
    for persona in logins:
        person = getattr(cast, persona)
        setup = services.login_setup_reissue(person=person, by=administrator)
        if services.confirm_needed(person):
            # Four eyes: the day is open, so a designated person's new code waits for another's confirmation.
            services.login_confirm(person=person, by=cast.dric)
        services.login_setup_complete(
            request=None, username=person.user.username, code=setup.code, password=PASSWORD, pin=PIN
        )
    for _ in range(stocks):
        stock(cast, chips=chips, cash=cash)
    for table in (cast.bj, cast.wheel):
        open_table(cast, table, chips=trays)
    personas = ("dric", "general_cashier", "chip_cashier", "runner", "runner2", "dealer", "dealer2")
    print(
        json.dumps(
            {
                "people": {p: getattr(cast, p).pk for p in personas},
                "usernames": {p: getattr(cast, p).user.username for p in personas},
                "tables": {"bj": cast.bj.pk, "wheel": cast.wheel.pk},
                "slips": list(Slip.objects.filter(event=cast.event).values_list("pk", flat=True)),
            }
        )
    )


def state(slug: str) -> None:
    """Every slip of the event with what the checks found wrong, and what `manage.py check_ledger`
    says of the whole database, as one JSON line."""
    event = Event.objects.get(slug=slug)
    slips = list(Slip.objects.filter(event=event).order_by("pk"))
    sums = defaultdict(int)
    for row in (
        Posting.objects.filter(slip__event=event).values("slip_id", "denomination_id").annotate(total=Sum("amount"))
    ):
        sums[row["slip_id"], row["denomination_id"]] += row["total"]
    posted = {slip_id for slip_id, _denomination in sums}
    signed = defaultdict(set)
    for slip_id, capacity in Signature.objects.filter(slip__event=event).values_list("slip_id", "capacity"):
        signed[slip_id].add(capacity)
    problems = []
    for (slip_id, denomination), total in sorted(sums.items(), key=str):
        if total:
            problems.append(f"slip {slip_id}: instrument {denomination} sums to {total}, not 0")
    for slip in slips:
        kind = SLIP_KINDS[slip.slip_type]
        if not signed[slip.pk]:
            problems.append(f"{slip.number} (slip {slip.pk}) has no signature")
        if slip.slip_type in MOVES_VALUE and bool(kind.steps_done(signed[slip.pk])) != (slip.pk in posted):
            # Postings are made with the custody signatures of their step, in one transaction.
            problems.append(
                f"{slip.number} (slip {slip.pk}): custody signatures {sorted(signed[slip.pk])} "
                f"{'with' if slip.pk in posted else 'without'} postings"
            )
    serials = defaultdict(list)
    for slip in slips:
        serials[slip.slip_type].append(slip.serial)
    for slip_type, numbers in serials.items():
        if sorted(numbers) != list(range(1, len(numbers) + 1)):
            problems.append(f"{slip_type} serials are not 1 to {len(numbers)} without gaps: {sorted(numbers)}")
    custody = (
        Posting.objects.filter(account__event=event, account__kind__in=Account.CUSTODY)
        .values("account__code", "denomination_id")
        .annotate(total=Sum("amount"))
    )
    for row in custody:
        if row["total"] < 0:
            problems.append(f"{row['account__code']} holds {row['total']} of instrument {row['denomination_id']}")
    said = io.StringIO()
    try:
        call_command("check_ledger", stdout=said, stderr=said)
    except CommandError as exc:
        said.write(str(exc))
        problems.append(f"check_ledger failed: {said.getvalue()}")
    print(
        json.dumps(
            {
                "slips": [[s.pk, s.slip_type, s.serial, s.request_key] for s in slips],
                "problems": problems,
                "ledger_breaks": ledger_breaks([event]),
                "check_ledger": said.getvalue().strip(),
            }
        )
    )
