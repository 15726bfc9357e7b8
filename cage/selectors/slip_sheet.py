"""One slip as people read it, on its page and on paper: the same sheet for both."""

import datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from cage import day_sheets
from cage.fields import BillsAndCoins
from cage.models import Account, OpenerSignOff, Posting, Refusal, Slip
from cage.selectors.openers import check_text, closer_check_of
from cage.selectors.seals import seal_of
from cage.selectors.slips import State, slip_state
from cage.services.ledger import account_label, chips_label, instrument_label
from cage.slip_fields import PRINTED
from cage.slip_types import ACCOUNT, DAY_CLOSE_KIND, SLIP_KINDS
from cage.variances import variance_reason
from core.local import moment
from core.money import dollars
from events.access import ROLE_NAMES

PIECE_LABELS = {piece.cents: piece.label for piece in BillsAndCoins.DENOMINATIONS}


def chip_rows(event, chips: dict, denominations=None) -> list[dict]:
    values = {d.key: d.value_cents for d in (event.denominations.all() if denominations is None else denominations)}
    return [
        {
            "label": chips_label(key),
            "count": count,
            "cents": count * values[key],
            "dollars": dollars(count * values[key]),
        }
        for key, count in chips.items()
        if count and key in values
    ]


def slip_sheet(slip: Slip, *, reprint: bool = False, for_reading: bool = False) -> dict:
    """Everything a slip says, in the reader's language, for cage/slip_detail.html and
    cage.slip_pdf.render_slip_pdf."""
    kind = SLIP_KINDS[slip.slip_type]
    event = slip.event
    signatures = list(slip.signatures.select_related("person").prefetch_related("person__assignments"))
    signed = {s.capacity for s in signatures}
    voids = list(slip.void_requests.select_related("refusal__person").with_signers().order_by("id"))
    done = set(Slip.objects.voids_done().filter(voids=slip).values_list("pk", flat=True)) if voids else set()
    voided_by = next((v for v in voids if v.pk in done), None)
    refusal = Refusal.objects.select_related("person").filter(slip=slip).first()
    state = slip_state(slip, signed, voided=voided_by is not None, refused=refusal is not None)
    details = slip.details or {}
    facts, check, sign_off = _facts(slip, kind, details)
    denominations = list(event.denominations.all())
    waiting = next((v for v in voids if v.pk not in done and not hasattr(v, "refusal")), None)
    asked = _void_line(waiting) if waiting else None
    refused_voids = [_void_line(v) for v in voids if hasattr(v, "refusal")]
    reason, reason_details = variance_reason(details, slip.reason)
    return {
        "slip": slip,
        **_amounts(slip, kind, details, denominations),
        "title": slip.number,
        "kind": kind,
        "event": event.name,
        "licensee": event.licensee.name,
        "licence_number": event.licence_number,
        "gaming_day": slip.day.date,
        "at": slip.at,
        "facts": facts,
        # A count's reason is the one chosen from the reconciliation's list, in the reader's
        # language; the counter's own words beside it are its details.
        "reason": reason,
        "reason_details": reason_details,
        "count_lines": count_lines(slip, denominations) if kind.takes(ACCOUNT) else [],
        "state": str(State.LABELS[state]),
        "state_code": state,
        "signatures": _signatures(kind, signatures),
        "to_sign": [
            {"capacity": str(c.label), "code": c.code, "role": c.roles_label(), "witness": c.witness}
            for c in kind.capacities
            # a voided slip and a refused one take no signature (one whose void waits takes none
            # until the void is decided: its page says so, and offers none)
            if c.code not in signed and c.code in kind.required(slip.details) and voided_by is None and refusal is None
        ],
        "voided": (
            _("%(void)s: %(reason)s") % {"void": voided_by.number, "reason": voided_by.reason} if voided_by else None
        ),
        "voided_by": voided_by,
        # A void asked for and waiting (nothing has moved), and the voids the DRIC refused.
        "void_asked": asked,
        "voids_refused": refused_voids,
        # This slip is one the DRIC refused (a void, a deposit, an expense, a float).
        "refusal": refusal,
        "refused": (
            _("Refused by %(name)s: %(reason)s") % {"name": refusal.person.name, "reason": refusal.reason}
            if refusal
            else None
        ),
        # What moves it: the people whose signatures move the chips or cash (the custody capacities).
        "moved_by": ", ".join(
            f"{c.roles_label()} ({str(c.label).lower()})" for c in _still_to_move(kind, slip, signed)
        ),
        # What the page and the paper say of the slip's voids, or of this void's refusal.
        "void_notes": _void_notes(slip, asked, refused_voids, refusal),
        "reprint": reprint,
        "for_reading": for_reading,
        "printed_at": timezone.now(),
        "movements": movements(slip),
        # An opener that differs from its table's last closer, and its sign-off (None: not flagged).
        "flagged": bool(check and check.get("differences")),
        "sign_off": sign_off,
        # The day close: the day's figures as the three designated persons approve them, and once
        # the day is locked its seal (core.chain), printed beside their signatures.
        "day_sheets": close_day_sheets(slip) if kind is DAY_CLOSE_KIND else [],
        "seal": seal_of(slip.day) if kind is DAY_CLOSE_KIND else None,
    }


def _paper_fact(slip: Slip, paper: dict) -> tuple[str, str]:
    """A slip entered from a paper slip written during an outage: its paper serial, and who entered
    it when (DESIGN: when the network or the power fails). Its time is the one written on the paper."""
    who = slip.event.people.filter(code=paper.get("entered_by")).values_list("name", flat=True).first()
    entered = paper.get("entered_at")
    return (
        _("Entered from paper"),
        _("paper slip %(serial)s, written at %(at)s; entered by %(name)s at %(when)s")
        % {
            "serial": paper.get("serial", ""),
            "at": moment(slip.at),
            "name": who or paper.get("entered_by") or _("a records file"),
            "when": moment(datetime.datetime.fromisoformat(entered)) if entered else "—",
        },
    )


def _facts(slip: Slip, kind, details: dict) -> tuple[list, dict | None, OpenerSignOff | None]:
    """The slip's facts, each field's own lines (cage.slip_fields) and then what its state adds:
    signatures a records file waived, and an opener's check against the last closer with its
    sign-off. Also that check and sign-off, which the sheet shows apart."""
    # Each printed field as the slip's own kind declares it (its label), else as any slip has it
    # (a void names its slip's table).
    own = {f.name: f for f in kind.fields}
    facts = [fact for printed in PRINTED for fact in own.get(printed.name, printed).facts(slip, kind, details)]
    if details.get("waived"):
        # A records file's record on the format's own signatures (cage.slip_types: file_optional).
        facts.append(
            (
                _("Signatures"),
                _("as the records file gave them: %(capacities)s not signed, a capacity the format does not have")
                % {"capacities": ", ".join(str(kind.capacity(c).label).lower() for c in details["waived"])},
            )
        )
    if details.get("paper"):
        facts.append(_paper_fact(slip, details["paper"]))
    check = closer_check_of(slip)
    sign_off = OpenerSignOff.objects.filter(slip=slip).select_related("person").first() if check else None
    if check is not None:
        # The opener against what the table's last closer left (DESIGN: gaming day).
        facts.append((_("Last closer"), check_text(check)))
        if check.get("differences"):
            facts.append(
                (
                    _("Signed off"),
                    _("by %(name)s (DRIC), %(at)s") % {"name": sign_off.person.name, "at": moment(sign_off.signed_at)}
                    if sign_off
                    else _("not yet: the DRIC signs off the difference"),
                )
            )
    return facts, check, sign_off


def _amounts(slip: Slip, kind, details: dict, denominations: list) -> dict:
    """The slip's chips, cash (by bill and coin where counted so) and total, as figures and in
    words. A void shows the chips of the slip it voids."""
    source = details.get("chips", {})
    if slip.voids_id and not source:
        source = (slip.voids.details or {}).get("chips", {})
    chips = chip_rows(slip.event, source, denominations)
    cash = details.get("cash")
    if cash is None and kind.type != "count":
        cash = _cash_moved(slip)
    total = details.get("total")
    if total is None:
        chips_value = sum(r["cents"] for r in chips)
        # A runner hands back chips and cash, a count finds both; a sale's cash pays for its chips.
        total = chips_value + (cash or 0) if kind.type in ("runner_return", "count") else chips_value or (cash or 0)
    return {
        "chips_total": dollars(sum(r["cents"] for r in chips)),
        "chips_count": sum(r["count"] for r in chips),
        "cash_dollars": dollars(cash) if cash is not None else None,
        "total_dollars": dollars(total),
        "chips": chips,
        "cash": cash,
        "cash_lines": [
            {
                "label": str(PIECE_LABELS.get(line["cents"], dollars(line["cents"]))),
                "count": line["count"],
                "cents": line["cents"] * line["count"],
                "dollars": dollars(line["cents"] * line["count"]),
            }
            for line in details.get("cash_lines", [])
        ],
        "total": total,
    }


def _signatures(kind, signatures: list) -> list[dict]:
    """The signatures made, in the declaration's order, each with the role its signer signed in."""
    lines = []
    for s in sorted(signatures, key=lambda s: kind.codes.index(s.capacity)):
        roles = [r for r in kind.capacity(s.capacity).roles if r in s.person.role_codes()]
        lines.append(
            {
                "capacity": str(kind.capacity(s.capacity).label),
                "code": s.capacity,
                "role": " / ".join(str(ROLE_NAMES[r]) for r in roles),
                "name": s.person.name,
                "signed_at": s.signed_at,
            }
        )
    return lines


def close_day_sheets(slip: Slip) -> list:
    """What the day-close slip prints of its day: the summary (win, chip sales, redemptions, tips,
    chips outstanding, over/short, deposits), win per table and per game, the variances by place,
    the deposits, the tips and their shares, the cage's accountability, and the expenses."""
    return [*day_sheets.day_figures(slip.day, close=True)["sheets"], day_sheets.expense_sheet(slip.day)]


def _void_line(void: Slip) -> dict:
    """A void of the slip, as its page names it: who asked for it and when, why, and (refused) who
    refused it, when and why. `void` comes with its signatures' people and its refusal."""
    signatures = list(void.signatures.all())
    asked = min(signatures, key=lambda s: s.signed_at, default=None)
    kind = SLIP_KINDS[void.slip_type]
    line = {
        "void": void,
        "number": void.number,
        "reason": void.reason,
        "asked_by": asked.person.name if asked else "",
        "asked_as": str(kind.capacity(asked.capacity).label).lower() if asked else "",
        "asked_at": asked.signed_at if asked else void.at,
        "waits_for": ", ".join(
            str(_("%(capacity)s (%(roles)s)") % {"capacity": str(c.label).lower(), "roles": c.roles_label()})
            for c in kind.capacities
            if c.code not in {s.capacity for s in signatures}
        ),
    }
    refusal = getattr(void, "refusal", None)
    if refusal is not None:
        line.update(refused_by=refusal.person.name, refused_at=refusal.refused_at, refused_reason=refusal.reason)
    return line


def _sentence_part(reason: str) -> str:
    """A reason as typed, set inside a sentence that ends it: without its own full stop ("..")."""
    return reason.rstrip().rstrip(".")


def _still_to_move(kind, slip: Slip, signed: set[str]) -> list:
    """The capacities still to sign before the slip moves anything: its custody capacities not yet
    signed, or, where only witnesses are left, those."""
    pending = [c for c in kind.capacities if c.code not in signed and c.code in kind.required(slip.details)]
    return [c for c in pending if not c.witness] or pending


def _void_notes(slip: Slip, asked: dict | None, refused: list[dict], refusal) -> list[tuple[str, str]]:
    """What the page and the paper say of the slip's voids, or of this slip's refusal: (what it is,
    what it says), each."""
    notes = []
    if asked:
        said = _(
            "A void is asked for: %(void)s, by %(name)s (%(capacity)s) at %(at)s, because: %(reason)s. "
            "Nothing moves before it is signed; still to sign: %(waits)s."
        ) % {
            "void": asked["number"],
            "name": asked["asked_by"],
            "capacity": asked["asked_as"],
            "at": moment(asked["asked_at"]),
            "reason": _sentence_part(asked["reason"]),
            "waits": asked["waits_for"],
        }
        notes.append((pgettext("void note", "Void asked for"), said))
    for line in refused:
        said = _(
            "%(void)s, asked for by %(name)s at %(at)s (%(reason)s), was refused by %(dric)s at %(when)s: %(why)s."
        ) % {
            "void": line["number"],
            "name": line["asked_by"],
            "at": moment(line["asked_at"]),
            "reason": _sentence_part(line["reason"]),
            "dric": line["refused_by"],
            "when": moment(line["refused_at"]),
            "why": _sentence_part(line["refused_reason"]),
        }
        notes.append((pgettext("void note", "Void refused"), said))
    if refusal is not None:
        values = {
            "name": refusal.person.name,
            "at": moment(refusal.refused_at),
            "reason": _sentence_part(refusal.reason),
        }
        if slip.voids_id:
            said = _("Refused by %(name)s (DRIC) at %(at)s: %(reason)s. Nothing moved; %(slip)s stands as it was.") % {
                **values,
                "slip": slip.voids.number,
            }
        else:
            said = _("Refused by %(name)s (DRIC) at %(at)s: %(reason)s. Nothing moved.") % values
        notes.append((pgettext("slip state", "Refused"), said))
    return notes


def count_lines(slip: Slip, denominations) -> list[dict]:
    """A count's expected (the books when it was counted), counted and variance, per chip
    denomination and for cash: what the blind count hid, printed once the count is in.
    Expected is counted − variance, both kept on the slip; nothing is read again."""
    details = slip.details or {}
    variances = {v["instrument"]: v["amount"] for v in details.get("variances", [])}
    counted_chips = details.get("chips") or {}
    lines = []
    for d in denominations:
        counted = counted_chips.get(d.key, 0) * d.value_cents
        variance = variances.get(f"chips:{d.key}", 0)
        if counted or variance:
            lines.append(_count_line(chips_label(d.key), counted - variance, counted, variance, d.value_cents))
    cash = details.get("cash")
    bank_cash = slip.account_id is not None and slip.account.kind == Account.Kind.BANK_CASH
    if cash is not None and (cash or variances.get("cash") or bank_cash):
        lines.append(_count_line(_("cash"), cash - variances.get("cash", 0), cash, variances.get("cash", 0), None))
    return lines


def _count_line(what: str, expected: int, counted: int, variance: int, unit: int | None) -> dict:
    how = ""
    if variance and unit:
        chips = abs(variance) // unit
        how = (
            ngettext("%(n)s chip over", "%(n)s chips over", chips)
            if variance > 0
            else ngettext("%(n)s chip short", "%(n)s chips short", chips)
        ) % {"n": chips}
    elif variance:
        how = _("over") if variance > 0 else _("short")
    return {
        "what": what,
        "expected": dollars(expected),
        "counted": dollars(counted),
        "expected_count": expected // unit if unit else None,
        "counted_count": counted // unit if unit else None,
        "variance": dollars(variance) if variance else "",
        "how": how,
    }


def _cash_moved(slip: Slip) -> int | None:
    """The cash a slip moved between the cage and patrons or the trust account, if any."""
    amounts = [p.amount for p in slip.postings.all() if p.denomination_id is None and p.amount > 0]
    return sum(amounts) if amounts else None


def movements(slip: Slip) -> list[dict]:
    postings = Posting.objects.filter(slip=slip).select_related("account__person", "account__table", "denomination")
    return [
        {
            "account": account_label(p.account),
            "instrument": instrument_label(p.denomination),
            "amount": dollars(p.amount),
        }
        for p in postings
    ]
