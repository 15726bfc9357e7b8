"""Whole-ledger checks, for every event: conservation and custody; each slip against its postings
and signatures; gapless serials; closed days that stayed closed; the hash chains and the seals
(cage.chain_check).

The database refuses most of these faults as they are written (cage/migrations/0006_ledger_guards.py);
this finds them in data written before the guards, with the guards lifted, or by a path they
do not cover.
"""

from collections import defaultdict

from django.db.models import BooleanField, ExpressionWrapper, F, Max, Min, Q, Sum
from django.utils.translation import gettext as _

from cage.models import Account, DayTotal, Posting, RunningTotal, Signature, Slip
from cage.selectors.registers import runs, runs_text, serial_checks
from cage.services.ledger import account_label, instrument_name
from cage.slip_types import DAY_CLOSE_KIND, SLIP_KINDS
from core.rules import cite
from events.models import ChipDenomination, Event, GameTable, GamingDay


def ledger_breaks(events=None, *, chains: bool = True) -> list[str]:
    """Each break as a sentence; empty when the ledger holds.

    Conservation and custody below; then each slip (slip_breaks), the serials (serial_breaks),
    the closed days (closed_day_breaks), the sealed days' totals (day_total_breaks) and the places'
    running totals (running_total_breaks). For every
    event and instrument the postings sum to zero over all accounts (nothing is made or lost, only
    moved), no custody account holds less than nothing, and once every table is closed patrons
    hold no fewer than zero chips of any denomination.
    """
    events = list(events if events is not None else Event.objects.all())
    denominations = {d.pk: d for d in ChipDenomination.objects.filter(event__in=events)}
    accounts = {a.pk: a for a in Account.objects.filter(event__in=events).select_related("person", "table")}
    breaks = []
    sums = (
        Posting.objects.filter(account__event__in=events)
        .values("account__event__slug", "denomination_id")
        .annotate(total=Sum("amount"))
        .order_by("account__event__slug", "denomination_id")
    )
    for row in sums:
        if row["total"]:
            denomination = denominations.get(row["denomination_id"])
            breaks.append(
                _("%(event)s: %(instrument)s sums to %(total)s cents over all accounts, not 0")
                % {
                    "event": row["account__event__slug"],
                    "instrument": instrument_name(denomination),
                    "total": row["total"],
                }
            )
    breaks += _custody_breaks(accounts, denominations)
    breaks += _patron_breaks(events, denominations)
    from cage.chain_check import audit_breaks, chain_breaks  # they name slips as this module does

    breaks += slip_breaks(events) + serial_breaks(events) + closed_day_breaks(events) + day_total_breaks(events)
    breaks += running_total_breaks(events)
    # `chains`: the hash chains too (a test of the other checks, on rows written below the
    # application, leaves them out: the chains name every such row as well).
    return breaks + chain_breaks(events) + audit_breaks(events) if chains else breaks


def _custody_breaks(accounts: dict, denominations: dict) -> list[str]:
    """A custody account that holds less than nothing."""
    breaks = []
    per_account = (
        Posting.objects.filter(account__in=[a for a in accounts.values() if a.is_custody])
        .values("account_id", "denomination_id")
        .annotate(total=Sum("amount"))
        .order_by("account_id", "denomination_id")
    )
    for row in per_account:
        if row["total"] < 0:
            account = accounts[row["account_id"]]
            denomination = denominations.get(row["denomination_id"])
            breaks.append(
                _("%(event)s: %(place)s (%(code)s) holds %(total)s cents of %(instrument)s; custody cannot go negative")
                % {
                    "event": account.event.slug,
                    "place": account_label(account),
                    "code": account.code,
                    "total": row["total"],
                    "instrument": instrument_name(denomination),
                }
            )
    return breaks


def _patron_breaks(events: list, denominations: dict) -> list[str]:
    """Patrons holding fewer than no chips of a kind once every table is closed (T&C 3.4.3)."""
    breaks = []
    open_events = set(
        GameTable.objects.filter(event__in=events, state=GameTable.State.OPEN).values_list("event_id", flat=True)
    )
    patrons = (
        Posting.objects.filter(
            account__event__in=events, account__kind=Account.Kind.PATRONS, denomination__isnull=False
        )
        .values("account__event_id", "account__event__slug", "denomination_id")
        .annotate(total=Sum("amount"))
        .order_by("account__event__slug", "denomination_id")
    )
    for row in patrons:
        # T&C 3.4.3: once every table is closed, patrons hold no fewer than zero chips of any kind.
        if row["total"] < 0 and row["account__event_id"] not in open_events:
            denomination = denominations[row["denomination_id"]]
            breaks.append(
                _(
                    "%(event)s: every table is closed and patrons hold %(count)s %(instrument)s: chips nobody "
                    "bought from the licensee (%(rule)s)"
                )
                % {
                    "event": row["account__event__slug"],
                    "count": row["total"] // denomination.value_cents,
                    "instrument": instrument_name(denomination),
                    "rule": cite("T&C 3.4.3"),
                }
            )
    return breaks


def slip_breaks(events: list[Event]) -> list[str]:
    """Each slip against its own postings and signatures.

    Every slip balances on its own, per instrument (not only the event as a whole); each
    signature is a capacity its slip type has, made by someone on the slip's event; chips and
    cash move only once a slip's first custody step is signed; a fill or credit in transit has
    its chips with the runner, and a finished one leaves none there; and a closed day has no slip
    still waiting for a signature (DESIGN: slips, serial numbers and signatures).
    """
    slips = {
        s["id"]: s
        for s in Slip.objects.filter(event__in=events)
        .annotate(
            waived=ExpressionWrapper(Q(details__has_key="waived"), output_field=BooleanField()),
            waived_codes=F("details__waived"),
            completed_at=F("signed_in_full__signed_at"),
            waiting_day=F("not_signed_in_full__day_id"),
        )
        .values(
            "id",
            "slip_type",
            "serial",
            "event_id",
            "event__slug",
            "day__status",
            "day__date",
            "at",
            "waived",
            "waived_codes",
            "completed_at",
            "day_id",
            "waiting_day",
        )
    }
    if not slips:
        return []
    breaks = _unbalanced(events, slips)
    signed, last, wrong = _signed(events, slips)
    breaks += wrong
    breaks += _steps_broken(events, slips, signed)
    breaks += _signed_in_full_breaks(slips, signed, last)
    return breaks


def _signed_in_full_breaks(slips: dict, signed: dict[int, set[str]], last: dict) -> list[str]:
    """Each slip's record of being signed in full (cage.models.SignedInFull) against its signatures:
    there exactly when every signature it waits for is on (SlipKind.signed_in_full), at the time of
    the last of them (its own time where it waits for none); and its row among the slips not signed
    in full (cage.models.NotSignedInFull), of its own day, there exactly while it is not. The DRIC's
    queue and the cage home read which slips wait from these alone."""
    breaks = []
    for slip_id, slip in slips.items():
        kind = SLIP_KINDS[slip["slip_type"]]
        details = {"waived": slip["waived_codes"]} if slip["waived_codes"] else None
        where = {"event": slip["event__slug"], "slip": slip_number(slip)}
        recorded = slip["completed_at"]
        complete = kind.signed_in_full(signed[slip_id], details)
        breaks += _not_signed_in_full_breaks(slip, complete, where)
        if not complete:
            if recorded is not None:
                breaks.append(_("%(event)s: %(slip)s is recorded as signed in full, but is not") % where)
            continue
        expected = last.get(slip_id, slip["at"])
        if recorded is None:
            breaks.append(_("%(event)s: %(slip)s is signed in full, but has no record of it") % where)
        elif recorded != expected:
            breaks.append(
                _(
                    "%(event)s: %(slip)s is recorded as signed in full at %(recorded)s, not at its last signature, %(last)s"
                )
                % {**where, "recorded": recorded.isoformat(), "last": expected.isoformat()}
            )
    return breaks


def _not_signed_in_full_breaks(slip: dict, complete: bool, where: dict) -> list[str]:
    """A slip is listed among those not signed in full exactly while it is not (by its signatures),
    on its own day: the cage home and the DRIC's queue find the slips that wait there alone."""
    listed = slip["waiting_day"]
    if not complete and listed is None:
        return [
            _(
                "%(event)s: %(slip)s is not signed in full, but is not listed among the slips not signed in full "
                "(the cage home and the DRIC's queue would not show it waiting)"
            )
            % where
        ]
    if complete and listed is not None:
        return [
            _("%(event)s: %(slip)s is signed in full, but is still listed among the slips not signed in full") % where
        ]
    if listed is not None and listed != slip["day_id"]:
        return [_("%(event)s: %(slip)s is listed as not signed in full on another day than its own") % where]
    return []


def _unbalanced(events: list[Event], slips: dict) -> list[str]:
    """Slips whose postings do not sum to zero per instrument."""
    breaks = []
    names = {d.pk: d for d in ChipDenomination.objects.filter(event__in=events)}
    unbalanced = (
        Posting.objects.filter(slip__event__in=events)
        .values("slip_id", "denomination_id")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
        .order_by("slip_id", "denomination_id")
    )
    for row in unbalanced:
        slip = slips[row["slip_id"]]
        breaks.append(
            _("%(event)s: %(slip)s: its postings of %(instrument)s sum to %(total)s cents, not 0")
            % {
                "event": slip["event__slug"],
                "slip": slip_number(slip),
                "instrument": instrument_name(names.get(row["denomination_id"])),
                "total": row["total"],
            }
        )
    return breaks


def _signed(events: list[Event], slips: dict) -> tuple[dict[int, set[str]], dict, list[str]]:
    """The capacities each slip is signed in, the time of its last signature in a capacity its type
    has, and the signatures its slip type does not have or made by someone off its event."""
    breaks = []
    signed: dict[int, set[str]] = defaultdict(set)
    last: dict = {}
    signatures = Signature.objects.filter(slip__event__in=events).values_list(
        "slip_id", "capacity", "person__name", "person__event_id", "signed_at"
    )
    for slip_id, capacity, name, person_event, signed_at in signatures.order_by("id"):
        slip = slips[slip_id]
        kind = SLIP_KINDS[slip["slip_type"]]
        signed[slip_id].add(capacity)
        if kind.capacity(capacity) is None:
            breaks.append(
                _("%(event)s: %(slip)s is signed as %(capacity)s, which a %(type)s slip does not have")
                % {
                    "event": slip["event__slug"],
                    "slip": slip_number(slip),
                    "capacity": capacity,
                    "type": str(kind.label).lower(),
                }
            )
        else:
            last[slip_id] = max(last.get(slip_id, signed_at), signed_at)
        if person_event != slip["event_id"]:
            breaks.append(
                _("%(event)s: %(slip)s is signed by %(name)s, who is not on this event")
                % {"event": slip["event__slug"], "slip": slip_number(slip), "name": name}
            )
    return signed, last, breaks


def _steps_broken(events: list[Event], slips: dict, signed: dict[int, set[str]]) -> list[str]:
    """Chips and cash moved before a slip's first custody step was signed; a fill or credit whose
    runner's chips do not match its steps; a closed day's slip still waiting for a signature."""
    breaks = []
    posted = set(Posting.objects.filter(slip__event__in=events).values_list("slip_id", flat=True).distinct())
    with_runner = set(
        Posting.objects.filter(
            slip__event__in=events,
            slip__slip_type__in=[t for t, k in SLIP_KINDS.items() if k.two_step],
            account__kind=Account.Kind.RUNNER,
        )
        .values("slip_id", "denomination_id")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
        .values_list("slip_id", flat=True)
    )
    voided = set(Slip.objects.voids_done().filter(event__in=events).values_list("voids_id", flat=True))
    # A void the DRIC refused waits for nobody: it stays on file as refused, unsigned.
    voided |= set(Slip.objects.filter(event__in=events, refusal__isnull=False).values_list("pk", flat=True))
    for slip_id, slip in slips.items():
        kind = SLIP_KINDS[slip["slip_type"]]
        waived = set(kind.file_optional) if slip["waived"] else set()
        done = kind.steps_done(signed[slip_id] | waived)
        where = {"event": slip["event__slug"], "slip": slip_number(slip)}
        if kind.steps and done == 0 and slip_id in posted:
            breaks.append(
                _("%(event)s: %(slip)s has postings, but its custody signers (%(capacities)s) have not signed")
                % {**where, "capacities": ", ".join(str(c.label).lower() for c in kind.step_capacities(1))}
            )
        if kind.two_step and done == 1 and slip_id not in with_runner:
            breaks.append(_("%(event)s: %(slip)s is in transit, but its runner holds none of its chips") % where)
        if kind.two_step and done == kind.steps and slip_id in with_runner:
            breaks.append(_("%(event)s: %(slip)s is complete, but leaves chips with its runner") % where)
        missing = [c for c in kind.capacities if c.code not in signed[slip_id] | waived]
        if slip["day__status"] == GamingDay.Status.CLOSED and missing and slip_id not in voided:
            breaks.append(
                _("%(event)s: %(slip)s of the closed day %(date)s still lacks %(capacities)s")
                % {
                    **where,
                    "date": slip["day__date"].isoformat(),
                    "capacities": ", ".join(str(c.label).lower() for c in missing),
                }
            )
    return breaks


def slip_number(slip: dict) -> str:
    """ "Fill 4", from a slip's values()."""
    return f"{SLIP_KINDS[slip['slip_type']].label} {slip['serial']}"


def serial_breaks(events: list[Event]) -> list[str]:
    """Serials run 1, 2, 3… per event and slip type with no gap, none past its counter."""
    breaks = []
    for event in events:
        for check in serial_checks(event):
            if check.missing:
                breaks.append(
                    _("%(event)s: %(type)s serials %(missing)s were never issued; serials run without gaps")
                    % {"event": event.slug, "type": check.label, "missing": runs_text(check.missing)}
                )
            if check.above_counter:
                breaks.append(
                    _("%(event)s: %(type)s serials %(serials)s are past the counter's last serial, %(last)s")
                    % {
                        "event": event.slug,
                        "type": check.label,
                        "serials": runs_text(runs(check.above_counter)),
                        "last": check.last,
                    }
                )
    return breaks


def closed_day_breaks(events: list[Event]) -> list[str]:
    """A closed day is locked: it has its day-close slip, and no slip, signature or posting of the
    day came after it. Ids are the order things were written in: every write of a day first
    shares the day's row lock, which the close takes for itself (cage.services.ledger.lock_day),
    so nothing of the day is written while the close is, and nothing of the day may be written
    after it."""
    breaks = []
    days = GamingDay.objects.filter(event__in=events, status=GamingDay.Status.CLOSED).select_related("event")
    for day in days.order_by("event__slug", "date"):
        where = {"event": day.event.slug, "date": day.date.isoformat()}
        close = Slip.objects.filter(day=day, slip_type=DAY_CLOSE_KIND.type).order_by("id").first()
        if close is None:
            breaks.append(_("%(event)s: the gaming day %(date)s is closed without a day-close slip") % where)
            continue
        for slip in Slip.objects.filter(day=day, id__gt=close.id):
            breaks.append(
                _("%(event)s: %(slip)s was written on the gaming day %(date)s after it closed")
                % {**where, "slip": slip.number}
            )
        last_of_close = close.signatures.aggregate(m=Max("id"))["m"] or 0
        late = Signature.objects.filter(slip__day=day, slip_id__lt=close.id, id__gt=last_of_close)
        for signature in late.select_related("slip").order_by("id"):
            breaks.append(
                _("%(event)s: %(slip)s was signed as %(capacity)s after the gaming day %(date)s closed")
                % {**where, "slip": signature.slip.number, "capacity": signature.capacity}
            )
        # Postings carry no time: those of the day's slips must come before any posting of a
        # slip written after the close.
        first_after = Posting.objects.filter(slip__event=day.event, slip_id__gt=close.id).aggregate(m=Min("id"))["m"]
        if first_after is not None:
            late_slips = Slip.objects.filter(day=day, postings__id__gt=first_after).distinct().order_by("id")
            for slip in late_slips:
                breaks.append(
                    _("%(event)s: %(slip)s has postings made after the gaming day %(date)s closed")
                    % {**where, "slip": slip.number}
                )
    return breaks


def day_total_breaks(events: list[Event]) -> list[str]:
    """A balance is a place's sealed days' totals and its postings of the days not sealed
    (cage.selectors.places.balances_read): each posting is filed under its slip's day, only a
    sealed day has totals, and each sealed day's totals are its postings summed, place by place
    and instrument by instrument."""
    breaks = []
    misfiled = (
        Posting.objects.filter(slip__event__in=events)
        .exclude(day_id=F("slip__day_id"))
        .values("slip__event__slug", "slip__slip_type", "slip__serial")
        .distinct()
        .order_by("slip__event__slug", "slip__slip_type", "slip__serial")
    )
    for row in misfiled:
        breaks.append(
            _("%(event)s: %(slip)s has postings filed under another gaming day than its own")
            % {
                "event": row["slip__event__slug"],
                "slip": slip_number({"slip_type": row["slip__slip_type"], "serial": row["slip__serial"]}),
            }
        )
    days = {d.pk: d for d in GamingDay.objects.filter(event__in=events).select_related("event", "seal")}
    accounts = {a.pk: a for a in Account.objects.filter(event__in=events).select_related("person", "table")}
    names = {d.pk: d for d in ChipDenomination.objects.filter(event__in=events)}
    place = ("account_id", "denomination_id")
    # {(day id, account id, denomination id): cents}, each side grouped by the database.
    totals = {
        (day, account, denomination): total
        for day, account, denomination, total in DayTotal.objects.filter(day__event__in=events)
        .values_list("day_id", *place)
        .annotate(total=Sum("amount"))
    }
    sealed = Posting.objects.filter(slip__event__in=events, slip__day__seal__isnull=False)
    posted = {
        (day, account, denomination): total
        for day, account, denomination, total in sealed.values_list("slip__day_id", *place).annotate(
            total=Sum("amount")
        )
    }
    unsealed = sorted({day for day, *_rest in totals if not hasattr(days[day], "seal")}, key=lambda d: days[d].date)
    for day in unsealed:
        breaks.append(
            _("%(event)s: the gaming day %(date)s has totals but no seal: its balances would count it twice")
            % {"event": days[day].event.slug, "date": days[day].date.isoformat()}
        )
    for key in sorted(set(totals) | set(posted), key=lambda k: (days[k[0]].date, k[1], k[2] or 0)):
        day, account, denomination = key
        if day in unsealed or totals.get(key, 0) == posted.get(key, 0):
            continue
        breaks.append(
            _(
                "%(event)s: the totals of the gaming day %(date)s say %(place)s moved %(total)s cents of "
                "%(instrument)s; its postings of the day sum to %(posted)s"
            )
            % {
                "event": days[day].event.slug,
                "date": days[day].date.isoformat(),
                "place": account_label(accounts[account]),
                "instrument": instrument_name(names.get(denomination)),
                "total": totals.get(key, 0),
                "posted": posted.get(key, 0),
            }
        )
    return breaks


def running_total_breaks(events: list[Event]) -> list[str]:
    """Every place's running total of a day (RunningTotal), which its balance reads while the day is
    not sealed, equals its postings of that day, instrument by instrument: a total missing, one too
    many, or one that says another sum is named."""
    # {(day id, account id, denomination id or None): cents}, each side grouped by the database, by
    # the day they are filed under (a posting filed under another day than its slip's is named too).
    kept = {
        (day, account, denomination): total
        for day, account, denomination, total in RunningTotal.objects.filter(day__event__in=events)
        .values_list("day_id", "account_id", "denomination_id")
        .annotate(total=Sum("amount"))
    }
    posted = {
        (day, account, denomination): total
        for day, account, denomination, total in Posting.objects.filter(day__event__in=events)
        .values_list("day_id", "account_id", "denomination_id")
        .annotate(total=Sum("amount"))
    }
    wrong = [key for key in set(kept) | set(posted) if kept.get(key, 0) != posted.get(key, 0)]
    if not wrong:
        return []
    # The days, places and chips of the totals that are wrong, whatever event a place is of.
    days = GamingDay.objects.select_related("event").in_bulk({day for day, _a, _d in wrong})
    accounts = Account.objects.select_related("person", "table").in_bulk({account for _day, account, _d in wrong})
    names = ChipDenomination.objects.in_bulk({d for _day, _a, d in wrong if d is not None})
    breaks = []
    for key in sorted(wrong, key=lambda k: (days[k[0]].date, k[1], k[2] or 0)):
        day, account, denomination = key
        breaks.append(
            _(
                "%(event)s: the running total of %(place)s on the gaming day %(date)s says it moved %(total)s "
                "cents of %(instrument)s; its postings of the day sum to %(posted)s"
            )
            % {
                "event": days[day].event.slug,
                "date": days[day].date.isoformat(),
                "place": account_label(accounts[account]),
                "instrument": instrument_name(names.get(denomination)),
                "total": kept.get(key, 0),
                "posted": posted.get(key, 0),
            }
        )
    return breaks
