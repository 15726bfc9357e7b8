"""The hash chains checked against the rows they describe (core.chain, audit.chain): a change made
below the application, where the append-only triggers were dropped or bypassed, shows here.

Three things are checked for each event's ledger chain. The chain itself: links 1, 2, 3… with no
gap, each digest following from its content and the link before it. The rows against the chain:
every slip, its postings, signatures, refusal and sign-off are what the links wrote, no slip is
missing from them and none was added without one. The seals: each locked day's seal names a link
whose digest is still the one sealed. The audit trail's chain likewise, and every slip has its
entry on the trail (a trail cut short loses them).

Each break names the slip or entry, its gaming day, and whether that day's seal still matches the
chain: a seal that matches means the chain, the export and the signed paper still hold the day as
written, whatever the rows now say.
"""

import json
from collections import Counter

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.chain import COLUMNS, content
from audit.models import AuditEntry, AuditLink
from cage.ledger_check import slip_number
from cage.models import DaySeal, LedgerLink, OpenerSignOff, Posting, Refusal, Signature, Slip
from core import chain
from events.models import Event, GamingDay


def chain_breaks(events: list[Event]) -> list[str]:
    breaks = []
    for event in events:
        breaks += _event_breaks(event)
    return breaks


class _Chain:
    """One event's links as written, and what they say of each slip."""

    def __init__(self, event: Event):
        self.event = event
        self.days = {d.pk: d for d in GamingDay.objects.filter(event=event)}
        self.seals = {s.day_id: s for s in DaySeal.objects.filter(day__event=event)}
        self.problems: list[tuple[int, str]] = []  # (seq for ordering, sentence)
        self.first_bad_seq: int | None = None  # the first link whose digest does not follow
        self.digests: dict[int, str] = {}
        self.slips: dict[tuple[str, int], dict] = {}
        self._read()

    def _read(self) -> None:
        follower = chain.Follower()
        links = LedgerLink.objects.filter(event=self.event).order_by("seq")
        for seq, day_id, text, digest in links.values_list("seq", "day_id", "content", "digest"):
            gap, follows = follower.step(seq, digest, text)
            if gap:
                self._chain_broken(
                    seq,
                    _("links %(first)s to %(last)s of the chain are missing: removed from its middle")
                    % {"first": gap[0], "last": gap[1]},
                )
            if not follows:
                self._chain_broken(
                    seq,
                    _("link %(seq)s's digest does not follow from its content and the link before it") % {"seq": seq},
                )
            self.digests[seq] = digest
            try:
                said = json.loads(text)
                key = (said["slip"]["type"], said["slip"]["serial"])
            except (ValueError, KeyError, TypeError):
                self._chain_broken(seq, _("link %(seq)s cannot be read") % {"seq": seq})
                continue
            slip = self.slips.setdefault(
                key,
                {"seq": seq, "day": said.get("day"), "day_id": day_id, "postings": Counter(), "signatures": set()},
            )
            if "written" in said:
                slip["written"] = said["written"]
            slip["postings"].update(tuple(p) for p in said.get("postings", []))
            slip["signatures"].update(tuple(s) for s in said.get("signatures", []))
            for part in ("refusal", "sign_off"):
                if part in said:
                    slip[part] = said[part]

    def _chain_broken(self, seq: int, text: str) -> None:
        if self.first_bad_seq is None or seq < self.first_bad_seq:
            self.first_bad_seq = seq
        self.problems.append((seq, text))

    def seal_holds(self, day_id: int) -> bool | None:
        """None: the day has no seal (not locked yet)."""
        seal = self.seals.get(day_id)
        if seal is None:
            return None
        intact = self.first_bad_seq is None or self.first_bad_seq > seal.seq
        return intact and self.digests.get(seal.seq) == seal.digest

    def seal_said(self, day_id: int | None) -> str:
        holds = self.seal_holds(day_id) if day_id is not None else None
        if holds is None:
            return _("the day is not sealed")
        if holds:
            return _("the day's seal still matches the chain, which holds the day as it was written")
        return _("the day's seal no longer matches the chain")


def _event_breaks(event: Event) -> list[str]:
    """The event's breaks, the first link they concern first (the chain's own breaks, then each
    slip against its links, then the days' seals)."""
    known = _Chain(event)
    live = _live_slips(event)
    problems = known.problems + _slip_problems(event, known, live) + _seal_problems(event, known)
    # The chain's own breaks name the event; the rest already do.
    named = []
    for _seq, text in sorted(problems, key=lambda problem: problem[0]):
        named.append(text if text.startswith(f"{event.slug}:") else f"{event.slug}: {text}")
    return named


def _slip_problems(event: Event, known: "_Chain", live: dict) -> list[tuple[int, str]]:
    """Each slip as its rows now say it against what the chain's links wrote of it: (seq, text)."""
    problems = []
    for key, slip in live.items():
        said = known.slips.get(key)
        day = known.days.get(slip["day_id"])
        where = {
            "event": event.slug,
            "slip": slip_number({"slip_type": key[0], "serial": key[1]}),
            "date": day.date.isoformat() if day else "?",
        }
        if said is None:
            text = _(
                "%(event)s: %(slip)s of the gaming day %(date)s is in no link of the chain: written below the "
                "application; %(seal)s"
            ) % {**where, "seal": known.seal_said(slip["day_id"])}
            problems.append((10**12 + slip["id"], text))  # after every link: it has none
            continue
        differs = [label for part, label in _PARTS if _part(said, part) != _part(slip, part)]
        if differs:
            text = _(
                "%(event)s: %(slip)s of the gaming day %(date)s differs from link %(seq)s of the chain (%(parts)s): "
                "changed below the application; %(seal)s"
            ) % {
                **where,
                "seq": said["seq"],
                "parts": ", ".join(str(label) for label in differs),
                "seal": known.seal_said(said["day_id"]),
            }
            problems.append((said["seq"], text))
    for key, said in known.slips.items():
        if key not in live:
            text = _(
                "%(event)s: %(slip)s of the gaming day %(date)s, in link %(seq)s of the chain, is no longer in the "
                "ledger: removed below the application; %(seal)s"
            ) % {
                "event": event.slug,
                "slip": slip_number({"slip_type": key[0], "serial": key[1]}),
                "date": said["day"],
                "seq": said["seq"],
                "seal": known.seal_said(said["day_id"]),
            }
            problems.append((said["seq"], text))
    return problems


def _seal_problems(event: Event, known: "_Chain") -> list[tuple[int, str]]:
    """Each day's seal: a closed day has one, a sealed day stays closed, and the chain still holds
    the link the seal names."""
    problems = []
    for day in known.days.values():
        where = {"event": event.slug, "date": day.date.isoformat()}
        seal = known.seals.get(day.pk)
        if day.status == GamingDay.Status.CLOSED and seal is None:
            problems.append((0, _("%(event)s: the gaming day %(date)s is closed without a seal") % where))
        elif seal is not None and day.status != GamingDay.Status.CLOSED:
            text = (
                _("%(event)s: the gaming day %(date)s is sealed but no longer closed: reopened below the application")
                % where
            )
            problems.append((seal.seq, text))
        elif seal is not None and not known.seal_holds(day.pk):
            text = _(
                "%(event)s: the seal of the gaming day %(date)s names link %(seq)s as %(digest)s; the chain no "
                "longer holds it"
            ) % {**where, "seq": seal.seq, "digest": chain.grouped(seal.digest)}
            problems.append((seal.seq, text))
    return problems


_PARTS = (
    ("day", gettext_lazy("its gaming day")),
    ("written", gettext_lazy("its own fields")),
    ("postings", gettext_lazy("its postings")),
    ("signatures", gettext_lazy("its signatures")),
    ("refusal", gettext_lazy("its refusal")),
    ("sign_off", gettext_lazy("its sign-off")),
)


def _part(slip: dict, part: str):
    return slip.get(part) or None


def _live_slips(event: Event) -> dict:
    """Each slip of the event as its rows now say it, in the terms of the chain's links."""
    keys = {}
    slips = {}
    rows = Slip.objects.filter(event=event).values(
        "id",
        "slip_type",
        "serial",
        "day_id",
        "day__date",
        "at",
        "table__code",
        "runner__code",
        "account__code",
        "voids__slip_type",
        "voids__serial",
        "reason",
        "details",
    )
    for row in rows:
        key = (row["slip_type"], row["serial"])
        keys[row["id"]] = key
        slips[key] = {
            "id": row["id"],
            "day_id": row["day_id"],
            "day": row["day__date"].isoformat(),
            "written": {
                "at": chain.moment(row["at"]),
                "table": row["table__code"],
                "runner": row["runner__code"],
                "account": row["account__code"],
                "voids": {"type": row["voids__slip_type"], "serial": row["voids__serial"]}
                if row["voids__slip_type"]
                else None,
                "reason": row["reason"],
                "details": row["details"],
            },
            "postings": Counter(),
            "signatures": set(),
        }
    postings = Posting.objects.filter(slip__event=event).values_list(
        "slip_id", "account__code", "denomination__key", "amount"
    )
    for slip_id, account, chips, amount in postings:
        slips[keys[slip_id]]["postings"][(account, "cash" if chips is None else f"chips:{chips}", amount)] += 1
    signatures = Signature.objects.filter(slip__event=event).values_list(
        "slip_id", "capacity", "person__code", "signed_at"
    )
    for slip_id, capacity, person, at in signatures:
        slips[keys[slip_id]]["signatures"].add((capacity, person, chain.moment(at)))
    for slip_id, person, reason, at in Refusal.objects.filter(slip__event=event).values_list(
        "slip_id", "person__code", "reason", "refused_at"
    ):
        slips[keys[slip_id]]["refusal"] = {"person": person, "reason": reason, "at": chain.moment(at)}
    for slip_id, person, at, via in OpenerSignOff.objects.filter(slip__event=event).values_list(
        "slip_id", "person__code", "signed_at", "via"
    ):
        slips[keys[slip_id]]["sign_off"] = {"person": person, "at": chain.moment(at), "via": via}
    return slips


def audit_breaks(events: list[Event]) -> list[str]:
    """The audit trail's chain, its entries against it, the seals' hold on it, and every slip of
    `events` with its entry on the trail."""
    problems = []
    previous, expected, first_bad = chain.GENESIS, 1, None
    fields = [f"entry__{name}" for name in COLUMNS]
    links = AuditLink.objects.order_by("seq").values_list("seq", "entry_id", "digest", *fields)
    digests = {}
    for seq, entry_id, digest, *values in links.iterator(chunk_size=2000):
        if seq != expected:
            problems.append(
                _("the audit trail's links %(first)s to %(last)s are missing: entries removed from its middle")
                % {"first": expected, "last": seq - 1}
            )
            first_bad = first_bad or seq
        expected = seq + 1
        row = dict(zip(COLUMNS, values, strict=True))
        if chain.chained(previous, content(seq, entry_id, row)) != digest:
            problems.append(
                _(
                    "audit entry %(id)s (%(action)s, %(at)s) differs from link %(seq)s of the trail's chain: changed below the application"
                )
                % {"id": entry_id, "action": row["action"], "at": chain.moment(row["at"]), "seq": seq}
            )
            first_bad = first_bad or seq
        previous = digest
        digests[seq] = digest
    for entry_id, action, at in AuditEntry.objects.filter(link__isnull=True).values_list("id", "action", "at"):
        problems.append(
            _(
                "audit entry %(id)s (%(action)s, %(at)s) is in no link of the trail's chain: written below the application"
            )
            % {"id": entry_id, "action": action, "at": chain.moment(at)}
        )
    last = expected - 1
    seals = DaySeal.objects.filter(day__event__in=events, audit_seq__isnull=False).select_related("day__event")
    for seal in seals.order_by("day__event__slug", "day__date"):
        if digests.get(seal.audit_seq) != seal.audit_digest:
            problems.append(
                _(
                    "%(event)s: the seal of the gaming day %(date)s names the audit trail's link %(seq)s; the trail now ends at link %(last)s or differs there: cut short or changed"
                )
                % {"event": seal.day.event.slug, "date": seal.day.date.isoformat(), "seq": seal.audit_seq, "last": last}
            )
    unlogged = (
        Slip.objects.filter(event__in=events)
        .filter(~Exists(AuditEntry.objects.filter(slip=OuterRef("pk"))))
        .select_related("event", "day")
    )
    for slip in unlogged.order_by("event__slug", "id"):
        problems.append(
            _("%(event)s: the audit trail holds no entry for %(slip)s of the gaming day %(date)s: cut short")
            % {"event": slip.event.slug, "slip": slip.number, "date": slip.day.date.isoformat()}
        )
    return problems


def paper_seal_breaks(events: list[Event], typed: dict[str, str]) -> list[str]:
    """Each seal typed from the signed paper (`typed`: {date: digest or its first digits}) against
    the database: a day sealed otherwise was changed; a day not sealed here (not closed, or not there
    at all) means the database is older than the paper, as a backup taken before that close is."""
    problems = []
    for date, digest in typed.items():
        for event in events:
            day = GamingDay.objects.filter(event=event, date=date).first()
            seal = DaySeal.objects.filter(day=day).first() if day else None
            where = {"event": event.slug, "date": date}
            if seal is None:
                problems.append(
                    _(
                        "%(event)s: the gaming day %(date)s is sealed on paper but not in this database: the "
                        "database is older than that close (a backup taken before it?) and lacks what followed"
                    )
                    % where
                )
            elif not seal.digest.startswith(digest):
                problems.append(
                    _(
                        "%(event)s: the gaming day %(date)s is sealed %(seal)s in this database, not as on its "
                        "signed paper: its records, or those of a day before it, were changed"
                    )
                    % {**where, "seal": chain.grouped(seal.digest)}
                )
    return problems


def last_seals(events: list[Event]) -> list[tuple[str, str, str]]:
    """(event, date, grouped seal) of each event's last locked day."""
    found = []
    for event in events:
        seal = DaySeal.objects.filter(day__event=event).select_related("day").order_by("-day__date").first()
        if seal is not None:
            found.append((event.slug, seal.day.date.isoformat(), chain.grouped(seal.digest)))
    return found
