"""The variance reason chosen from the list is kept as its code, whatever the language of the
screen it was chosen on, and every place that shows it names it in its reader's language: the
count slip's page and PDF, the day's variance sheet (page, CSV, PDF) and the report (page, PDF).
The public formats write what they always wrote: the counter's words, or the English label.
A slip written before the code was kept (the label in French as its words) reads the same."""

import csv
import io
import json
import subprocess

import pytest
from django.urls import reverse

from cage import services
from cage.exporter import export_event
from cage.models import Slip
from cage.variances import chosen, reason_in_records, variance_reason
from core.rules import RuleViolation
from tests.cage.helpers import COUNT_SIGNED, stock
from tests.cage.test_views import COUNT_FORM, form, new_slip
from tests.conftest import PASSWORD, Client
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

FRENCH = "Manque d’argent"


def person_client(person, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert client.login(username=person.user.username, password=PASSWORD)
    return client


def counted_short_in_french(cast) -> Slip:
    """Bank cash $10.00 short, "cash short" chosen on a French screen, no words of the counter's."""
    stock(cast)  # $1,000.00 in bank cash
    client = person_client(cast.general_cashier, "fr-CA,fr;q=0.9")
    data = form(account="bank_cash", cash_10000="9", cash_5000="1", cash_2000="2", **COUNT_FORM(cast))
    client.post(new_slip(cast.event.slug, "count"), data)  # the books shown, nothing written yet
    response = client.post(
        new_slip(cast.event.slug, "count"), {**data, "variance_reason": "cash_short", "request_key": "k2"}
    )
    assert response.status_code == 302
    return Slip.objects.get(slip_type="count")


def pdf_text(content: bytes, tmp_path) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(content)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return " ".join(text.replace("\u00a0", " ").split())


def test_the_code_is_kept_not_the_french_label(cast):
    slip = counted_short_in_french(cast)
    assert slip.details["variance_reason"] == "cash_short"
    assert slip.reason == ""  # no "Manque d’argent", no "Cash short"


def test_the_count_slip_names_the_reason_in_each_reader_s_language(cast, poppler, tmp_path):  # noqa: F811
    slip = counted_short_in_french(cast)
    url = reverse("cage:slip", args=[cast.event.slug, slip.pk])
    pdf = reverse("cage:slip_pdf", args=[cast.event.slug, slip.pk])
    english = person_client(cast.dric, "en")
    french = person_client(cast.dric, "fr-CA,fr;q=0.9")
    assert "Cash short" in english.get(url).content.decode()
    assert FRENCH in french.get(url).content.decode()
    assert "Cash short" in pdf_text(english.get(pdf).content, tmp_path)
    assert FRENCH.replace("’", "'") in pdf_text(french.get(pdf).content, tmp_path).replace("’", "'")
    assert "cash_short" not in english.get(url).content.decode().split("<main")[1]


def test_the_day_s_variance_sheet_and_the_report_name_it_in_each_language(cast, poppler, tmp_path):  # noqa: F811
    slip = counted_short_in_french(cast)
    slug, day = cast.event.slug, slip.day.date.isoformat()
    for language, label in (("en", "Cash short"), ("fr-CA,fr;q=0.9", FRENCH)):
        client = person_client(cast.dric, language)
        sheets = reverse("reports:day", args=[slug, day])
        assert label in client.get(sheets).content.decode()
        rows = list(csv.reader(io.StringIO(client.get(sheets + "?format=csv").content.decode("utf-8-sig"))))
        assert any(label in row for row in rows), rows
        assert label in client.get(reverse("reports:event", args=[slug])).content.decode()
        flat = pdf_text(client.get(reverse("reports:event_pdf", args=[slug])).content, tmp_path)
        assert label.replace("’", "'") in flat.replace("’", "'")


def test_the_public_formats_write_what_they_always_wrote(cast, client):
    """cage-records and cage-report: the English label as the reason, the code beside it."""
    counted_short_in_french(cast)
    record = next(r for d in export_event(cast.event)["days"] for r in d["records"] if r["type"] == "count")
    assert record["reason"] == "Cash short" and record["variance_reason"] == "cash_short"
    client.force_login(cast.auditor.user)
    report = json.loads(client.get(reverse("reports:event_json", args=[cast.event.slug])).content)
    assert [v["reason"] for v in report["variances"]] == ["Cash short"]


def test_a_count_written_before_the_code_was_kept_reads_as_its_code(cast):
    """An older count kept the French label as its words and no code: it reads as "cash short"."""
    stock(cast)
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=99_000,
        reason=FRENCH,
        signed=cast.signed(**COUNT_SIGNED),
    )
    slip = Slip.objects.get(slip_type="count")
    assert variance_reason(slip.details, slip.reason) == ("Cash short", "")
    assert chosen({}, "Missing chips") == ("missing_chips", "")
    assert chosen({"variance_reason": "other"}, "the dog ate it") == ("other", "the dog ate it")
    # Words that say more are the counter's own, kept and written as they are.
    assert reason_in_records({"variance_reason": "cash_short"}, "a $10 bill torn") == "a $10 bill torn"


def test_a_reason_from_the_list_needs_no_words_but_other_does(cast):
    stock(cast)
    with pytest.raises(RuleViolation):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, "bank_cash"),
            cash=99_000,
            variance_reason="other",
            signed=cast.signed(**COUNT_SIGNED),
        )
    assert not Slip.objects.filter(slip_type="count").exists()
