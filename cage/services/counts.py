"""A blind count set beside the books before it is recorded (nightly reconciliation: counts are
blind). The count form shows a count's figures next to the expected balance when they differ and
no reason is given yet; from then on the place's count must carry those figures."""

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_noop as N_

from audit import services as audit
from cage.models import CountShown, Slip


def keep_count_shown(*, day, where: str, figures: dict, person) -> CountShown:
    """Keep the figures first typed for the place `where` ("bank_cash", "runner:rita"), by whoever's
    session showed them beside the books, with the audit entry saying so; both or neither."""
    last = Slip.objects.filter(day=day).aggregate(last=Max("id"))["last"] or 0
    with transaction.atomic():
        shown = CountShown.objects.create(
            day=day, account_code=where, figures=figures, after_slip_id=last, person=person
        )
        audit.record(
            "count_shown",
            N_("Count of %(place)s set beside the books, before its variance's reason"),
            {"place": where},
            event=day.event_id,
            new=figures,
        )
    return shown
