"""An event written back out as a cage-records/1 file: the way an event moves to another
installation (a laptop's SQLite to PostgreSQL) and the way its records are kept outside the product.

Importing the file into an empty database gives the same event: the same people, tables, chip set
and days, every slip with the same type, serial, times, figures and signatures, voids pointing at
the same slips, and so the same report (`event_report`). What the format has no place for is
written as the extensions docs/cage-records-extensions.md lists (a day's roster, a signature made after its
slip, a slip still waiting for a signature, a registration changed later, ...). Logins, passwords
and signing PINs never leave the product: after a move each person is given a login again.
"""

import datetime
import json
from collections import defaultdict

from django.utils import timezone
from django.utils.translation import gettext as _

from cage.models import DaySeal, LedgerLink, Posting, Signature, Slip
from cage.progress import QUIET, Progress
from cage.slip_fields import RECORD_KEYS
from cage.slip_types import SLIP_KINDS
from core.money import cents_str
from events import game_rules, wheel_layouts
from events.models import Event, GamingDay, Person

FORMAT = "cage-records/1"


def export_event(event: Event, progress: Progress = QUIET) -> dict:
    """The event as a cage-records/1 file (a dict, ready for `dumps`); `progress` is told how many
    of its slips are written out as records."""
    slips = list(
        Slip.objects.filter(event=event)
        .order_by("id")
        .select_related(
            "table",
            "runner",
            "account__person",
            "voids",
            "refusal__person",
            "bank_slip__entered_by",
            "bank_slip__checked_by",
        )
    )
    signatures = defaultdict(list)
    for signature in Signature.objects.filter(slip__event=event).order_by("id").select_related("person"):
        signatures[signature.slip_id].append(signature)
    cash_moved = defaultdict(int)  # cash into its new place: a sale's, a float's, a runner's return
    for row in Posting.objects.filter(slip__event=event, denomination__isnull=True, amount__gt=0).values(
        "slip_id", "amount"
    ):
        cash_moved[row["slip_id"]] += row["amount"]
    refs = _refs(slips)
    seals = dict(DaySeal.objects.filter(day__event=event).values_list("day_id", "digest"))
    by_day = defaultdict(list)
    with progress.stage(_("Reading"), unit=_("records"), total=len(slips)) as meter:
        for slip in slips:
            by_day[slip.day_id].append(_record(slip, signatures[slip.id], cash_moved[slip.id], refs))
            meter.advance()
    return {
        "format": FORMAT,
        "event": _event(event),
        "people": [_person(p) for p in event.people.order_by("pk").prefetch_related("assignments")],
        "tables": [_table(t) for t in event.tables.order_by("pk")],
        "days": [
            _day(day, by_day[day.id], seals.get(day.id))
            for day in event.days.order_by("date").prefetch_related("shifts__person")
        ],
        # The ledger's hash chain as the database holds it (core.chain): an inspector recomputes it
        # from this file alone and checks each day's seal against the signed paper (verify_records).
        # Each link's content as the JSON object it is: its canonical text is that object written
        # as core.chain.canonical writes it.
        "ledger_chain": [
            {"seq": seq, "digest": digest, "content": json.loads(content)}
            for seq, digest, content in LedgerLink.objects.filter(event=event)
            .order_by("seq")
            .values_list("seq", "digest", "content")
        ],
    }


def _event(event: Event) -> dict:
    denominations = list(event.denominations.all())
    spec = {
        "slug": event.slug,
        "name": event.name,
        "licence_number": event.licence_number,
        "licensee": event.licensee.name,
        "supplier": event.supplier,
        "venue": event.venue,
        "games": list(event.games),
        "chip_denominations": [d.key for d in denominations],
        "first_day": event.first_day.isoformat(),
        "last_day": event.last_day.isoformat(),
        "licensing_authority": event.licensing_authority,
        "authority": event.authority,
    }
    optional = {
        "supplier_registration_number": event.supplier_registration_number,
        "licensee_address": event.licensee.address,
        "licensee_charitable_number": event.licensee.charitable_registration_number,
        "chip_colours": {d.key: d.colour for d in denominations if d.colour},
        # The licence's figures of the games whose seeds state none, as the administrator typed them.
        "game_settings": {row.game: game_rules.game_settings_entered(row) for row in event.game_settings.all()},
        "tables_licensed": dict(event.tables_licensed),
        # The licensee's trust account, named by its bank, branch and last four digits, and what it
        # held before the event (its opening balance) once entered.
        "trust_account": (
            {"bank": event.trust_bank, "branch": event.trust_branch, "last_four": event.trust_account_last_four}
            | (
                {}
                if event.trust_opening_balance is None
                else {"opening_balance": cents_str(event.trust_opening_balance)}
            )
            if event.trust_bank or event.trust_opening_balance is not None
            else None
        ),
        # The charitable purposes the licence approved, and the cheques that used the proceeds for them.
        "approved_purposes": [p.name for p in event.approved_purposes.all()],
        "disbursements": [
            {
                "purpose": c.purpose.name,
                "number": c.number,
                "written_on": c.written_on.isoformat(),
                "payee": c.payee,
                "amount": cents_str(c.amount),
                "entered_by": c.entered_by.code,
                "entered_at": _local(c.entered_at),
            }
            for c in event.cheques.filter(purpose__isnull=False).select_related("purpose", "entered_by")
        ],
    }
    return spec | {k: v for k, v in optional.items() if v}


def _table(table) -> dict:
    spec = {"id": table.code, "game": table.game}
    if table.wheel_layout:
        # A wheel's segments as they are typed, one "symbol to:per" each, in wheel order.
        spec["layout"] = wheel_layouts.text(table.wheel_layout).splitlines()
    return spec


def _person(person: Person) -> dict:
    spec = {
        "id": person.code,
        "name": person.name,
        "born_on": person.born_on.isoformat(),
        "roles": [a.role for a in person.assignments.all()],
        "supplier_associated": person.supplier_associated,
        # The format takes only people in good standing; a registration refused, revoked or
        # suspended since is applied once the records are in.
        "registration": Person.Registration.GOOD,
    }
    if person.registration != Person.Registration.GOOD:
        spec["registration_changed_to"] = person.registration
    if person.identification:
        spec["identification"] = person.identification
    if person.gaming_assistant_number:
        spec["gaming_assistant_number"] = person.gaming_assistant_number
    if person.supplier_related:
        spec["supplier_related"] = True
    if person.other_activities is not None:
        spec["other_activities"] = person.other_activities
    if person.terms_acknowledged_at is not None:
        spec["terms_acknowledged"] = True
    return spec


def _day(day: GamingDay, records: list[dict], seal: str | None = None) -> dict:
    spec = {"date": day.date.isoformat()}
    if day.opens_at is not None:
        spec["opens_at"] = day.opens_at.isoformat()
    if day.closes_at is not None:
        spec["closes_at"] = day.closes_at.isoformat()
    # Open and closed follow from the records (a close_day closes); these two do not.
    if day.status in (GamingDay.Status.SETUP, GamingDay.Status.RECONCILING):
        spec["status"] = day.status
    shifts = [
        {"person": s.person.code, "role": s.role, "starts_at": _local(s.starts_at), "ends_at": _local(s.ends_at)}
        for s in day.shifts.order_by("pk")
    ]
    if shifts:
        spec["shifts"] = shifts
    spec["records"] = records
    if seal:
        spec["seal"] = seal  # the locked day's seal, as printed on its sheets (core.chain)
    return spec


def _refs(slips: list[Slip]) -> dict[int, str]:
    """The name each slip goes by in the file: the ref it was imported with, or for a slip that is
    voided (a void points at its ref), its number: "fill-4"."""
    refs = {s.id: s.details["ref"] for s in slips if s.details.get("ref")}
    taken = set(refs.values())
    for slip in slips:
        if slip.voids_id and slip.voids_id not in refs:
            target = slip.voids
            ref = f"{target.slip_type}-{target.serial}"
            while ref in taken:
                ref += "'"
            refs[target.id] = ref
            taken.add(ref)
    return refs


def _record(slip: Slip, signatures: list[Signature], cash_moved: int, refs: dict[int, str]) -> dict:
    kind = SLIP_KINDS[slip.slip_type]
    details = slip.details or {}
    record = {"type": slip.slip_type, "at": _local(slip.at)}
    if slip.id in refs:
        record["ref"] = refs[slip.id]
    written = {}
    for slip_field in kind.fields:
        written.update(slip_field.to_record(slip, details, cash_moved, refs))
    record.update(sorted(written.items(), key=lambda item: RECORD_KEYS.index(item[0])))
    record["signed"] = {s.capacity: s.person.code for s in signatures}
    later = {s.capacity: _local(s.signed_at) for s in signatures if s.signed_at != slip.at}
    if later:
        record["signed_at"] = later
    if any(code not in record["signed"] for code in kind.required(details)):
        record["pending"] = True
    paper = details.get("paper")
    if paper:
        # Entered from a paper slip written during an outage (an extension): its "at" is the time
        # written on the paper.
        record["paper"] = {
            "serial": paper["serial"],
            "entered_by": paper["entered_by"],
            "entered_at": _local(datetime.datetime.fromisoformat(paper["entered_at"])),
        }
    refusal = getattr(slip, "refusal", None)
    if refusal is not None:
        record["refused"] = {"by": refusal.person.code, "at": _local(refusal.refused_at), "reason": refusal.reason}
    bank_slip = getattr(slip, "bank_slip", None)
    if bank_slip is not None:
        record["bank_slip"] = _bank_slip(bank_slip)
    cheque = getattr(slip, "cheque", None)
    if cheque is not None:
        # The trust account's cheque that pays an expense (an extension).
        record["cheque"] = {
            "number": cheque.number,
            "written_on": cheque.written_on.isoformat(),
            "payee": cheque.payee,
            "entered_by": cheque.entered_by.code,
            "entered_at": _local(cheque.entered_at),
        }
    return record


def _bank_slip(bank_slip) -> dict:
    """A deposit's bank deposit slip (an extension), as the General Cashier entered it and, once
    checked, as the DRIC checked it."""
    written = {
        "number": bank_slip.number,
        "stamped_on": bank_slip.stamped_on.isoformat(),
        "entered_by": bank_slip.entered_by.code,
        "entered_at": _local(bank_slip.entered_at),
    }
    if bank_slip.checked_by_id is not None:
        written |= {"checked_by": bank_slip.checked_by.code, "checked_at": _local(bank_slip.checked_at)}
    return written


def _local(moment: datetime.datetime) -> str:
    """Local time as the format writes it; in the hour repeated when clocks go back, with its UTC
    offset, so that the second 1:30 stays after the first."""
    local = timezone.localtime(moment)
    return local.isoformat() if local.fold else local.replace(tzinfo=None).isoformat()


def dumps(data: dict) -> str:
    """The file laid out as docs/examples: one line per person, table, shift and record."""
    return _layout(data, 0) + "\n"


def _rows(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _layout(value, depth: int) -> str:
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict) and (depth <= 1 or any(_rows(v) for v in value.values())):
        items = [f"{inner}{json.dumps(k)}: {_layout(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if _rows(value):
        return "[\n" + ",\n".join(inner + _layout(v, depth + 1) for v in value) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)
