"""The hash chains and the seals, probed below the application as someone holding the SQLite file
or a PostgreSQL superuser's session would: every append-only trigger lifted (SQLite: dropped;
PostgreSQL: session_replication_role = replica), rows rewritten, inserted and removed with raw
SQL. Each change is caught by check_ledger, which names the slip, its gaming day and whether the
day's seal still holds. The same tests run on SQLite and on PostgreSQL.
"""

import hashlib
import io
import json
from contextlib import contextmanager

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from audit.models import AuditEntry, AuditLink
from cage import services
from cage.ledger_check import ledger_breaks
from cage.models import DaySeal, LedgerLink, Slip, SlipType
from core import chain
from tests.cage.helpers import close_clean_day, stock
from tests.conftest import as_owner

pytestmark = pytest.mark.django_db


def sql(statement: str, params=()):
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if cursor.description else None


@contextmanager
def below_the_application():
    """No trigger stands in the way (the test's transaction puts them back as it rolls back)."""
    as_owner()
    if connection.vendor == "postgresql":
        sql("SET CONSTRAINTS ALL IMMEDIATE")
        sql("SET LOCAL session_replication_role = replica")
        try:
            yield
        finally:
            sql("SET LOCAL session_replication_role = DEFAULT")
    else:
        for (name,) in sql("SELECT name FROM sqlite_master WHERE type = 'trigger'"):
            sql(f"DROP TRIGGER {name}")
        yield


@pytest.fixture
def closed(cast):
    """A closed day: chips received, a float, the bank counted, the close; then a second day open."""
    close_clean_day(cast)
    assert ledger_breaks() == []
    return cast


def slip_of(slip_type: str, serial: int = 1) -> Slip:
    return Slip.objects.get(slip_type=slip_type, serial=serial)


def only_break(fragment: str) -> str:
    breaks = ledger_breaks()
    found = [line for line in breaks if fragment in line]
    assert found, breaks
    return found[0]


def test_every_write_is_linked_and_the_close_seals_the_day(closed):
    links = list(LedgerLink.objects.order_by("seq"))
    assert [link.seq for link in links] == list(range(1, len(links) + 1))
    assert {link.slip_id for link in links} == set(Slip.objects.values_list("pk", flat=True))
    seal = DaySeal.objects.get(day=closed.day)
    close = slip_of(SlipType.CLOSE_DAY)
    assert (seal.seq, seal.digest) == (links[-1].seq, links[-1].digest)
    assert links[-1].slip_id == close.pk
    # The seal also holds the audit trail as it stood at the close.
    assert seal.audit_digest == AuditLink.objects.get(seq=seal.audit_seq).digest
    assert not AuditEntry.objects.filter(link__isnull=True).exists()


def test_anyone_can_recompute_the_chain_with_sha256_alone(closed):
    previous = "0" * 64
    for link in LedgerLink.objects.order_by("seq"):
        content = json.loads(link.content)
        # The canonical text: keys sorted, no spaces, UTF-8 as it is.
        assert link.content == json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        previous = hashlib.sha256(f"{previous}\n{link.content}".encode()).hexdigest()
        assert previous == link.digest
    assert DaySeal.objects.get(day=closed.day).digest == previous


def test_a_postings_amount_changed_with_its_balancing_leg_is_caught(closed):
    float_in = slip_of(SlipType.FLOAT_IN)
    with below_the_application():
        sql("UPDATE cage_posting SET amount = amount * 2 WHERE slip_id = %s", [float_in.pk])
    line = only_break("Float in 1")
    assert "2026-09-11" in line and "its postings" in line
    assert "the day's seal still matches the chain" in line
    with pytest.raises(CommandError, match="break"):
        call_command("check_ledger")


def test_a_signature_given_to_another_person_is_caught(closed):
    received = slip_of(SlipType.CHIPS_RECEIVED)
    with below_the_application():
        sql(
            "UPDATE cage_signature SET person_id = %s WHERE slip_id = %s AND capacity = 'witnessed_by'",
            [closed.general_cashier.pk, received.pk],
        )
    line = only_break("Chips received 1")
    assert "its signatures" in line and "2026-09-11" in line


def test_a_slips_time_moved_is_caught(closed):
    float_in = slip_of(SlipType.FLOAT_IN)
    with below_the_application():
        sql("UPDATE cage_slip SET at = %s WHERE id = %s", [float_in.at - timezone.timedelta(hours=1), float_in.pk])
    assert "its own fields" in only_break("Float in 1")


def test_a_forged_deposit_with_balanced_postings_and_a_raised_counter_is_caught(closed):
    # No trigger need be lifted to insert: the append-only guards refuse changes, not new rows.
    day = closed.day
    sql(
        "INSERT INTO cage_slip (event_id, day_id, slip_type, serial, at, reason, details, created_at) "
        "VALUES (%s, %s, 'deposit', 1, %s, '', '{\"cash\": 50000}', %s)",
        [day.event_id, day.pk, timezone.now(), timezone.now()],
    )
    forged = slip_of(SlipType.DEPOSIT)
    bank = services.account_get(closed.event, "bank_cash")
    trust = services.account_get(closed.event, "trust")
    for account, amount in ((bank, -50000), (trust, 50000)):
        sql(
            "INSERT INTO cage_posting (slip_id, day_id, account_id, denomination_id, amount) VALUES (%s, %s, %s, NULL, %s)",
            [forged.pk, forged.day_id, account.pk, amount],
        )
    for capacity, person in (("deposited_by", closed.general_cashier), ("witnessed_by", closed.dric)):
        sql(
            "INSERT INTO cage_signature (slip_id, capacity, person_id, signed_at) VALUES (%s, %s, %s, %s)",
            [forged.pk, capacity, person.pk, timezone.now()],
        )
    sql(
        "INSERT INTO cage_slipcounter (event_id, slip_type, last) VALUES (%s, 'deposit', 1)",
        [closed.event.pk],
    )
    line = only_break("in no link of the chain")
    assert "Deposit 1" in line and "2026-09-11" in line
    assert "no entry for Deposit 1" in only_break("audit trail holds no entry")


def test_a_slip_removed_from_the_middle_with_its_links_is_caught(closed):
    float_in = slip_of(SlipType.FLOAT_IN)
    seq = LedgerLink.objects.get(slip=float_in).seq
    with below_the_application():
        for table in ("cage_posting", "cage_signature", "cage_signedinfull", "cage_ledgerlink"):
            sql(f"DELETE FROM {table} WHERE slip_id = %s", [float_in.pk])
        entries = [row[0] for row in sql("SELECT id FROM audit_auditentry WHERE slip_id = %s", [float_in.pk])]
        for entry in entries:
            sql("DELETE FROM audit_auditlink WHERE entry_id = %s", [entry])
            sql("DELETE FROM audit_auditentry WHERE id = %s", [entry])
        sql("DELETE FROM cage_slip WHERE id = %s", [float_in.pk])
    assert f"links {seq} to {seq} of the chain are missing" in only_break("are missing")
    assert only_break("audit trail's links")
    assert "the seal of the gaming day 2026-09-11" in only_break("no longer holds it")


def test_the_audit_trail_truncated_is_caught(closed):
    with below_the_application():
        if connection.vendor == "postgresql":
            sql("TRUNCATE audit_auditlink, audit_auditentry")
        else:
            sql("DELETE FROM audit_auditlink")
            sql("DELETE FROM audit_auditentry")
    assert "cut short" in only_break("names the audit trail's link")
    assert "2026-09-11" in only_break("audit trail holds no entry for Float in 1")


def test_a_sealed_day_reopened_is_caught(closed):
    with below_the_application():
        sql("UPDATE events_gamingday SET status = 'open' WHERE id = %s", [closed.day.pk])
    assert "2026-09-11 is sealed but no longer closed" in only_break("reopened below the application")


def test_an_audit_entry_rewritten_is_caught(closed):
    entry = AuditEntry.objects.filter(slip__isnull=False).order_by("id").first()
    with below_the_application():
        sql("UPDATE audit_auditentry SET username = 'someone else' WHERE id = %s", [entry.pk])
    assert f"audit entry {entry.pk} " in only_break("changed below the application")


def test_a_chain_rewritten_to_match_is_still_caught_by_the_days_seal(closed):
    """Whoever recomputes every digest after a change leaves a chain that holds together, but not
    the one the seal on the signed paper names."""
    float_in = slip_of(SlipType.FLOAT_IN)
    with below_the_application():
        sql("UPDATE cage_posting SET amount = amount * 2 WHERE slip_id = %s", [float_in.pk])
        previous = chain.GENESIS
        for link in LedgerLink.objects.order_by("seq"):
            content = json.loads(link.content)
            if link.slip_id == float_in.pk:
                content["postings"] = [[code, what, amount * 2] for code, what, amount in content["postings"]]
            text = chain.canonical(content)
            previous = chain.chained(previous, text)
            sql("UPDATE cage_ledgerlink SET content = %s, digest = %s WHERE id = %s", [text, previous, link.pk])
    breaks = ledger_breaks()
    assert not [line for line in breaks if "differs from link" in line]
    assert "the seal of the gaming day 2026-09-11 names link" in only_break("no longer holds it")


def test_an_open_days_change_says_the_day_is_not_sealed(cast):
    stock(cast)
    float_in = slip_of(SlipType.FLOAT_IN)
    with below_the_application():
        sql("UPDATE cage_slip SET reason = 'edited' WHERE id = %s", [float_in.pk])
    assert "the day is not sealed" in only_break("Float in 1")


def test_a_french_reader_is_told_in_french(closed):
    from django.utils import translation

    float_in = slip_of(SlipType.FLOAT_IN)
    with below_the_application():
        sql("UPDATE cage_posting SET amount = amount * 2 WHERE slip_id = %s", [float_in.pk])
    with translation.override("fr-ca"):
        line = only_break("chaîne")
        # The sealed day's totals no longer match its postings either, and say so in French too.
        totals = only_break("selon les totaux de la journée de jeu du 2026-09-11")
    assert "lakeside" in line and "2026-09-11" in line
    assert "écritures de la journée totalisent" in totals


# --- the chain in a records file: export_records and verify_records ------------------------------


def exported(slug: str, path) -> dict:
    call_command("export_records", slug, "--out", str(path), stderr=io.StringIO())
    return json.loads(path.read_text())


def verified(path, *seals: str) -> str:
    out = io.StringIO()
    call_command("verify_records", str(path), *[f"--seal={s}" for s in seals], stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_an_export_carries_the_chain_and_the_seals_and_verifies_against_the_paper(closed, tmp_path):
    data = exported(closed.event.slug, tmp_path / "out.json")
    seal = DaySeal.objects.get(day=closed.day).digest
    assert data["days"][0]["seal"] == seal
    assert [link["digest"] for link in data["ledger_chain"]] == list(
        LedgerLink.objects.order_by("seq").values_list("digest", flat=True)
    )
    # As typed from the signed sheet: grouped in eights, or only its first digits.
    out = verified(tmp_path / "out.json", f"2026-09-11={chain.grouped(seal)}")
    assert "the seal typed from the paper (its first 64 of 64 digits) matches" in out
    assert "records as they were written and sealed" in out
    assert "(its first 16 of 64 digits) matches" in verified(tmp_path / "out.json", f"2026-09-11={seal[:16]}")
    # Without a seal from the paper, the file is only checked against itself, and says so.
    assert "No seal was typed from the signed paper" in verified(tmp_path / "out.json")


def test_a_wrong_seal_and_an_edited_record_are_named_by_verify_records(closed, tmp_path):
    data = exported(closed.event.slug, tmp_path / "out.json")
    with pytest.raises(CommandError, match="not the records as they were signed"):
        verified(tmp_path / "out.json", "2026-09-11=" + "0" * 64)
    record = next(r for r in data["days"][0]["records"] if r["type"] == "chips_received")
    record["chips"]["1"] += 1
    float_in = next(r for r in data["days"][0]["records"] if r["type"] == "float_in")
    float_in["cash"] = "900.00"
    count = next(r for r in data["days"][0]["records"] if r["type"] == "count" and "cash" in r)
    count["cash"] = "1100.00"
    (tmp_path / "edited.json").write_text(json.dumps(data))
    err, out = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError):
        call_command(
            "verify_records", str(tmp_path / "edited.json"), "--seal", "2026-09-11=" + "0" * 16, stdout=out, stderr=err
        )
    assert "record 1 (2026-09-11, chips_received) differs from what the chain wrote: its chips" in err.getvalue()
    assert "(2026-09-11, float_in) differs from what the chain wrote: its cash" in err.getvalue()
    assert "(2026-09-11, count) differs from what the chain wrote: its cash" in err.getvalue()
    assert out.getvalue() == ""  # nothing said to hold beside the problems


def test_a_chain_edited_in_the_file_is_named_with_its_day(closed, tmp_path):
    data = exported(closed.event.slug, tmp_path / "out.json")
    data["ledger_chain"][1]["content"]["postings"][0][2] += 100
    (tmp_path / "edited.json").write_text(json.dumps(data))
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_records", str(tmp_path / "edited.json"), stderr=err)
    assert "link 2 of the chain (gaming day 2026-09-11) does not follow" in err.getvalue()
    assert "does not hold up to the gaming day 2026-09-11's seal" in err.getvalue()


def test_verify_records_refuses_a_mistyped_seal_and_a_file_without_a_chain(closed, tmp_path):
    path = tmp_path / "out.json"
    exported(closed.event.slug, path)
    with pytest.raises(CommandError, match="64 hexadecimal digits"):
        verified(path, "2026-09-11=12ab")
    with pytest.raises(CommandError, match="YYYY-MM-DD=SEAL"):
        verified(path, "11 Sep=" + "0" * 64)
    (tmp_path / "bare.json").write_text(json.dumps({"format": "cage-records/1", "days": []}))
    with pytest.raises(CommandError):
        verified(tmp_path / "bare.json")


def test_the_worked_example_imported_elsewhere_has_the_same_chain_and_seal(tmp_path):
    """Content names people, tables and places by the file's ids, never database keys: the same
    records give the same chain in any database."""
    from cage.importer import import_records
    from tests.conftest import EXAMPLES
    from tests.databases import manage, sqlite_url

    event = import_records(json.loads((EXAMPLES / "lakeside-one-day.json").read_text()))
    first = exported(event.slug, tmp_path / "first.json")
    url = sqlite_url(tmp_path)
    manage(url, "migrate", "--noinput")
    manage(url, "import_records", str(tmp_path / "first.json"))
    manage(url, "export_records", event.slug, "--out", str(tmp_path / "second.json"))
    assert "Ledger holds" in manage(url, "check_ledger")
    second = json.loads((tmp_path / "second.json").read_text())
    assert second["ledger_chain"] == first["ledger_chain"]
    assert [d.get("seal") for d in second["days"]] == [d.get("seal") for d in first["days"]] != [None]
