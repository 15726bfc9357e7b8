"""Fills and credits take an optional note (cage.slip_fields.Note): typed on the form, kept in the
slip's details, shown on its page and printed slip, written to the records file as an extension
(`note` on fill and credit records) and read back from it. At most 200 characters, refused whole
beyond that, at the window and in a file alike."""

import copy

import pytest
from django.urls import reverse

from cage import services
from cage.exporter import export_event
from cage.importer import ImportFailed, import_records
from cage.models import Slip
from cage.selectors.slip_sheet import slip_sheet
from cage.slip_types import SLIP_KINDS
from core.rules import RuleViolation
from tests.cage.helpers import open_table, stock
from tests.cage.round_trip import state
from tests.cage.test_slip_pdf import read, squeezed
from tests.conftest import login
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db

NOTE = "two racks of $5, please"


@pytest.fixture
def floor(cast):
    stock(cast)
    open_table(cast)
    return cast


def fill(cast, note, **extra):
    return services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"5": 20},
        note=note,
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner", received_by="dealer", authorized_by="dric"),
        **extra,
    )


def test_fill_and_credit_declare_the_note_and_the_others_do_not():
    assert {t for t, k in SLIP_KINDS.items() if k.takes("note")} == {"fill", "credit"}


def test_the_note_is_kept_shown_and_printed(floor, tmp_path, poppler):  # noqa: F811
    slip = fill(floor, f"  {NOTE} ")
    assert slip.details["note"] == NOTE
    sheet = slip_sheet(slip)
    assert ("Note", NOTE) in [(str(label), value) for label, value in sheet["facts"]]
    text, _path = read(sheet, tmp_path)
    assert f"Note {NOTE}" in squeezed(text)
    # No note, no line.
    bare = fill(floor, "")
    assert "note" not in bare.details
    assert "Note" not in [str(label) for label, _value in slip_sheet(bare)["facts"]]


def test_a_note_too_long_is_refused_with_its_code_and_nothing_is_written(floor):
    before = Slip.objects.count()
    with pytest.raises(RuleViolation) as caught:
        fill(floor, "x" * 201)
    assert caught.value.code == "note.too_long"
    assert "201 characters long; a note takes at most 200" in caught.value.text
    assert Slip.objects.count() == before
    assert fill(floor, "x" * 200).details["note"] == "x" * 200


def test_the_form_takes_the_note_and_the_page_shows_it(floor, client):
    cast, slug = floor, floor.event.slug
    login(client, cast, "chip_cashier")
    url = reverse("cage:slip_new", args=[slug, "credit"])
    form = client.get(url).content.decode()
    assert 'name="note"' in form
    posted = {"table": cast.bj.pk, "runner": cast.runner.pk, "chips_5": "4", "note": "y" * 201, "request_key": "a"}
    page = client.post(url, posted).content.decode()
    assert "201 characters long; a note takes at most 200" in page
    assert not Slip.objects.filter(slip_type="credit").exists()
    response = client.post(url, posted | {"note": NOTE, "request_key": "b"})
    credit = Slip.objects.get(slip_type="credit")
    assert response.status_code == 302 and credit.details["note"] == NOTE
    page = client.get(reverse("cage:slip", args=[slug, credit.pk])).content.decode()
    assert "two racks of $5, please" in page


def test_an_export_and_import_keep_the_note(floor):
    noted = fill(floor, NOTE)
    data = export_event(floor.event)
    records = [r for d in data["days"] for r in d["records"] if r["type"] == "fill"]
    assert [r.get("note") for r in records] == [NOTE]
    data["event"]["slug"] = "lakeside-again"
    again = import_records(copy.deepcopy(data))
    assert again.slips.get(slip_type="fill").details["note"] == NOTE
    before, after = state(floor.event), state(again)
    assert [s["details"] for s in before["slips"]] == [s["details"] for s in after["slips"]]
    assert noted.details["note"] == NOTE


@pytest.mark.parametrize(("note", "problem"), [("z" * 201, "a note takes at most 200"), (12, "note: 12 must be text")])
def test_a_file_s_bad_note_is_refused_naming_the_rule(floor, note, problem):
    fill(floor, NOTE)
    data = export_event(floor.event)
    data["event"]["slug"] = "lakeside-again"
    record = next(r for d in data["days"] for r in d["records"] if r["type"] == "fill")
    record["note"] = note
    with pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert any(problem in p for p in failed.value.problems), failed.value.problems
