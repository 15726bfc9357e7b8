"""An inspector's check of a records file exported by this product, from the file alone (no
database of the event): its ledger chain recomputed link by link (core.chain), each locked day's
seal found in it and compared with the seal typed from the signed paper, and every record held
against what the chain wrote of its slip.

A file whose chain holds and whose seals match the paper holds the days as the designated persons
signed them; a record that differs from the chain was changed in the file, or in the database
before it was exported.
"""

import datetime
import re
from collections import Counter
from decimal import Decimal, InvalidOperation
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils.translation import gettext as _

from core import chain

HEX = re.compile(r"^[0-9a-f]+$")
# A seal typed from paper may stop short: this many of its 64 hex digits at least.
SHORTEST_TYPED = 16


class Verdict:
    def __init__(self):
        self.problems: list[str] = []
        self.facts: list[str] = []


def add_seal_argument(parser, help_text) -> None:
    """--seal DATE=SEAL, as check_ledger and verify_records take it (once per day)."""
    parser.add_argument("--seal", action="append", default=[], metavar="DATE=SEAL", help=help_text)


def parse_seals(pairs: list[str]) -> tuple[dict[str, str], list[str]]:
    """DATE=DIGEST pairs as typed: ({date: digest}, problems)."""
    seals, problems = {}, []
    for pair in pairs or []:
        date, _sep, digest = str(pair).partition("=")
        digest = chain.typed(digest)
        try:
            datetime.date.fromisoformat(date.strip())
        except ValueError:
            problems.append(_("--seal %(pair)s: give the day as YYYY-MM-DD=SEAL") % {"pair": pair})
            continue
        if not HEX.match(digest) or not SHORTEST_TYPED <= len(digest) <= 64:
            problems.append(
                _("--seal %(pair)s: a seal is 64 hexadecimal digits (0-9, a-f); type at least %(least)s of them")
                % {"pair": pair, "least": SHORTEST_TYPED}
            )
            continue
        seals[date.strip()] = digest
    return seals, problems


def verify(data, typed_seals: dict[str, str]) -> Verdict:
    verdict = Verdict()
    links = data.get("ledger_chain") if isinstance(data, dict) else None
    event = data.get("event") if isinstance(data, dict) else None
    slug = event.get("slug") if isinstance(event, dict) else None
    if not isinstance(links, list) or not links:
        verdict.problems.append(
            _("the file carries no ledger chain: export the event with python manage.py export_records")
        )
        return verdict
    walked = _walk(links, slug, verdict)
    _check_seals(data, walked, typed_seals, verdict)
    _check_records(data, walked, verdict)
    return verdict


class _Walked:
    def __init__(self):
        self.by_digest: dict[str, dict] = {}  # digest -> the link's content
        self.first_bad: int | None = None  # the first link whose digest does not follow
        self.slips: dict[tuple[str, int], dict] = {}
        self.days_last: dict[str, int] = {}  # date -> the seq of the day's last link


def _walk(links: list, slug, verdict: Verdict) -> _Walked:
    walked = _Walked()
    follower = chain.Follower()
    for link in links:
        try:
            seq, digest, content = int(link["seq"]), str(link["digest"]), link["content"]
            text = chain.canonical(content)
        except (KeyError, TypeError, ValueError):
            verdict.problems.append(_("link %(number)s of the chain cannot be read") % {"number": follower.expected})
            walked.first_bad = walked.first_bad or follower.expected
            follower.skip()
            continue
        gap, follows = follower.step(seq, digest, text)
        if gap:
            verdict.problems.append(
                _("links %(first)s to %(last)s of the chain are missing") % {"first": gap[0], "last": gap[1]}
            )
            walked.first_bad = walked.first_bad or gap[0]
        if not follows or content.get("seq") != seq or content.get("event") != slug:
            verdict.problems.append(
                _(
                    "link %(seq)s of the chain (gaming day %(date)s) does not follow from its content and the link "
                    "before it: the chain was changed"
                )
                % {"seq": seq, "date": content.get("day", "?")}
            )
            walked.first_bad = walked.first_bad or seq
        walked.by_digest[digest] = {**content, "_seq": seq}
        date = str(content.get("day"))
        walked.days_last[date] = seq
        slip = content.get("slip") or {}
        said = walked.slips.setdefault(
            (slip.get("type"), slip.get("serial")), {"signed": {}, "day": date, "postings": []}
        )
        if "written" in content:
            said["written"] = content["written"]
        said["postings"] += content.get("postings", [])
        for capacity, person, _at in content.get("signatures", []):
            said["signed"][capacity] = person
        if "refusal" in content:
            said["refusal"] = content["refusal"]
    if walked.first_bad is None:
        verdict.facts.append(
            _("The chain of %(event)s: %(count)s links, each digest following from its content and the one before.")
            % {"event": slug, "count": len(links)}
        )
    return walked


def _check_seals(data: dict, walked: _Walked, typed: dict[str, str], verdict: Verdict) -> None:
    filed = {}
    for day in data.get("days") or []:
        if isinstance(day, dict) and day.get("seal"):
            filed[str(day.get("date"))] = str(day["seal"])
    for date, seal in filed.items():
        content = walked.by_digest.get(seal)
        if content is None or content.get("day") != date or walked.days_last.get(date) != content["_seq"]:
            verdict.problems.append(
                _("the seal the file gives the gaming day %(date)s is not the digest of that day's last link")
                % {"date": date}
            )
        elif walked.first_bad is not None and walked.first_bad <= content["_seq"]:
            verdict.problems.append(
                _("the chain does not hold up to the gaming day %(date)s's seal: the day was changed after it closed")
                % {"date": date}
            )
    for date, digest in typed.items():
        seal = filed.get(date)
        if seal is None:
            verdict.problems.append(
                _("the file gives the gaming day %(date)s no seal: the day was not closed when it was exported")
                % {"date": date}
            )
        elif not seal.startswith(digest):
            verdict.problems.append(
                _(
                    "the seal typed for the gaming day %(date)s is not the file's (%(seal)s): the records of that "
                    "day, or of a day before it, are not those the designated persons signed"
                )
                % {"date": date, "seal": chain.grouped(seal)}
            )
        else:
            verdict.facts.append(
                _(
                    "The gaming day %(date)s: the seal typed from the paper (its first %(digits)s of 64 digits) "
                    "matches the file's chain."
                )
                % {"date": date, "digits": len(digest)}
            )


def _check_records(data: dict, walked: _Walked, verdict: Verdict) -> None:
    serials: Counter = Counter()
    seen = set()
    zone = ZoneInfo(settings.TIME_ZONE)
    for day in data.get("days") or []:
        if not isinstance(day, dict):
            continue
        for number, record in enumerate(day.get("records") or [], start=1):
            if not isinstance(record, dict):
                continue
            kind = record.get("type")
            serials[kind] += 1
            key = (kind, serials[kind])
            seen.add(key)
            where = {"date": day.get("date"), "number": number, "type": kind}
            said = walked.slips.get(key)
            if said is None:
                verdict.problems.append(
                    _("record %(number)s (%(date)s, %(type)s) is in no link of the chain: added to the file") % where
                )
                continue
            differs = _record_differs(record, said, zone)
            if differs:
                verdict.problems.append(
                    _("record %(number)s (%(date)s, %(type)s) differs from what the chain wrote: %(parts)s")
                    % {**where, "parts": ", ".join(differs)}
                )
    for key, said in walked.slips.items():
        if key not in seen:
            verdict.problems.append(
                _("%(type)s %(serial)s of the gaming day %(date)s is in the chain but not in the file's records")
                % {"type": key[0], "serial": key[1], "date": said["day"]}
            )
    if not [p for p in verdict.problems]:
        verdict.facts.append(
            _("Every one of the file's %(count)s records is what the chain wrote.") % {"count": sum(serials.values())}
        )


def _record_differs(record: dict, said: dict, zone) -> list[str]:
    """What of the record is not what the chain wrote of its slip: each part named in the reader's
    words. The record's own fields as the exporter writes them from the slip (cage.exporter)."""
    written = said.get("written") or {}
    details = written.get("details") or {}
    differs = []
    if record.get("signed", {}) != said["signed"]:
        differs.append(_("its signatures"))
    try:
        at = datetime.datetime.fromisoformat(record.get("at"))
        if at.tzinfo is None:
            at = at.replace(tzinfo=zone)
        if written.get("at") is None or at != datetime.datetime.fromisoformat(written["at"]):
            differs.append(_("its time"))
    except (TypeError, ValueError):
        differs.append(_("its time"))
    if "chips" in record and record["chips"] != details.get("chips"):
        differs.append(_("its chips"))
    if "cash" in record and _cents(record["cash"]) != _cash_of(record, said, details):
        differs.append(_("its cash"))
    for field, label in (("table", _("its table")), ("runner", _("its runner"))):
        if field in record and record[field] != written.get(field):
            differs.append(label)
    if "account" in record and written.get("account") not in (record["account"], f"runner:{record['account']}"):
        differs.append(_("its place"))
    if "hours" in record:
        shares = {s.get("person"): s.get("hours") for s in details.get("shares", [])}
        if set(shares) != set(record["hours"]) or any(
            _decimal(record["hours"][p]) != _decimal(h) for p, h in shares.items()
        ):
            differs.append(_("its hours"))
    for field, label in (
        ("category", _("its category")),
        ("description", _("its description")),
        ("invoice", _("its invoice")),
        ("variance_reason", _("its variance's reason")),
    ):
        if field in record and record[field] != details.get(field):
            differs.append(label)
    return differs


def _cash_of(record: dict, said: dict, details: dict) -> int | None:
    """The cash the exporter writes for a record: a count's and an expense's as the slip says it,
    any other's the cash its postings moved into a place."""
    if record.get("type") in ("count", "expense"):
        return details.get("cash")
    return sum(cents for _place, what, cents in said["postings"] if what == "cash" and cents > 0)


def _cents(text) -> int | None:
    amount = _decimal(text)
    return None if amount is None else int(amount * 100)


def _decimal(value):
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
