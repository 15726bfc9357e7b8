"""Runs in the peer's environment: posts the product's postings through django-hordak.

Reads a JSON list of slips, each a list of [account, denomination, amount] legs, from the file named
on the command line. Every (account, denomination) of the product is one hordak account; every slip
is one hordak transaction, with hordak's deferred balance triggers on. The second argument says how
they are committed: "per-slip" (each slip in its own atomic block, as an application's window
would) or "batched" (every slip in one atomic block, as the product's import writes them). Prints JSON: the seconds of the posting alone, the legs
and transactions written, and the trial balance (hordak's own sum, which must be zero).
"""

import json
import os
import sys
import time
from decimal import Decimal

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.db.models import Sum  # noqa: E402
from djmoney.money import Money  # noqa: E402
from hordak.models import Account, AccountType, Leg, Transaction  # noqa: E402


def post(slips: list, accounts: dict) -> None:
    for legs in slips:
        posted = Transaction.objects.create(description="slip")
        Leg.objects.bulk_create(
            Leg(
                transaction=posted,
                account=accounts[(account, denomination)],
                credit=Money(Decimal(amount), "CAD") if amount > 0 else None,
                debit=Money(Decimal(-amount), "CAD") if amount < 0 else None,
            )
            for account, denomination, amount in legs
            if amount
        )


def main() -> None:
    slips = json.loads(open(sys.argv[1]).read())
    call_command("migrate", verbosity=0)
    keys = sorted({(account, denomination) for legs in slips for account, denomination, _ in legs}, key=str)
    accounts = {}
    for number, key in enumerate(keys):
        accounts[tuple(key)] = Account.objects.create(
            name=f"custody {key[0]} / {key[1]}", code=str(number), type=AccountType.asset, currencies=["CAD"]
        )
    mode = sys.argv[2] if len(sys.argv) > 2 else "per-slip"
    started = time.perf_counter()
    if mode == "batched":
        with transaction.atomic():
            post(slips, accounts)
    else:
        for legs in slips:
            with transaction.atomic():
                post([legs], accounts)
    seconds = time.perf_counter() - started
    credit = Leg.objects.aggregate(total=Sum("credit"))["total"] or 0
    debit = Leg.objects.aggregate(total=Sum("debit"))["total"] or 0
    print(
        json.dumps(
            {
                "mode": mode,
                "seconds": seconds,
                "legs": Leg.objects.count(),
                "transactions": Transaction.objects.count(),
                "trial_balance": str(credit - debit),
            }
        )
    )


if __name__ == "__main__":
    main()
