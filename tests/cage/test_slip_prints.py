"""Who prints a slip's original: the people who work the slip, never someone who only reads it.

A new-user walk found the auditor's Print took copy 1, so that the cashier's own print came out
REPRINT. The original belongs to those who sign slips (events.access.Access.prints_original, read
from MATRIX["cage:slip_sign"]); anyone else's print is a copy for reading, stamped so on the sheet,
on the trail as such, and outside the cage's numbering.
"""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from audit.models import AuditEntry
from cage.models import SlipPrint
from reports.audit_trail.reading import summary
from tests.audit.helpers import last
from tests.cage.test_views import fill_in_transit, login, read_pdf
from tests.conftest import PASSWORD, Client
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)

READING = "Copy for reading: not the original"


def lines(text: str) -> set[str]:
    return {" ".join(line.split()) for line in text.splitlines()}


def print_slip(client, cast, slip):
    response = client.post(reverse("cage:slip_print", args=[cast.event.slug, slip.pk]))
    assert response.status_code == 302
    return response


@pytest.mark.usefixtures("poppler")
def test_the_auditor_prints_first_and_the_cashiers_print_is_still_the_original(client, cast, tmp_path):
    slip = fill_in_transit(client, cast)
    slug = cast.event.slug

    login(client, cast, "auditor")
    page = client.get(reverse("cage:slip", args=[slug, slip.pk])).content.decode()
    assert "Print a copy for reading" in page and 'id="copy-for-reading"' in page
    assert ">Print<" not in page and ">Reprint<" not in page
    # Nobody signs at a reader's terminal: the slip waits for signatures, but no PIN form is offered.
    assert 'id="sign-with-pin"' not in page
    read = print_slip(client, cast, slip)
    text = read_pdf(client.get(read.url).content, tmp_path)
    assert READING in lines(text) and "REPRINT" not in text
    assert any(line.startswith("Fill 1 · copy for reading printed ") for line in lines(text))
    auditors = SlipPrint.objects.get()
    assert auditors.for_reading and auditors.printed_by == cast.auditor.user
    # The auditor merely opening the PDF gets a copy for reading too, and records nothing.
    looked = read_pdf(client.get(reverse("cage:slip_pdf", args=[slug, slip.pk])).content, tmp_path)
    assert READING in lines(looked) and SlipPrint.objects.count() == 1

    entry = last("slip_printed_for_reading", slip=slip)
    assert entry.person == cast.auditor and entry.roles == "auditor" and entry.outcome == "done"
    assert summary(entry) == "Fill 1 printed as a copy for reading, not the original"
    assert entry.new == {"for_reading": True}
    assert not AuditEntry.objects.filter(action="slip_printed", slip=slip).exists()

    # The cashier's page still offers Print, not Reprint: nothing of the cage's is printed yet.
    login(client, cast, "chip_cashier")
    page = client.get(reverse("cage:slip", args=[slug, slip.pk])).content.decode()
    assert ">Print<" in page and "copy for reading" not in page
    assert 'id="sign-with-pin"' in page
    original = print_slip(client, cast, slip)
    text = read_pdf(client.get(original.url).content, tmp_path)
    raw = read_pdf(client.get(original.url).content, tmp_path, raw=True)
    assert "Fill 1" in text and "REPRINT" not in raw and "copy for reading" not in text.lower()
    first = last("slip_printed", slip=slip)
    assert first.person == cast.chip_cashier and first.new == {"copy": 1, "reprint": False}
    assert summary(first) == "Fill 1 printed"

    # The cage's second print is its reprint; the auditor's copy never shifted the numbering.
    page = client.get(reverse("cage:slip", args=[slug, slip.pk])).content.decode()
    assert ">Reprint<" in page
    again = print_slip(client, cast, slip)
    assert "REPRINT" in read_pdf(client.get(again.url).content, tmp_path, raw=True)
    assert last("slip_printed", slip=slip).new == {"copy": 2, "reprint": True}
    # The auditor's copy, opened again by its number, is still a copy for reading.
    assert READING in lines(read_pdf(client.get(read.url).content, tmp_path))
    assert list(SlipPrint.objects.values_list("for_reading", flat=True)) == [True, False, False]

    # The trail shows the auditor's copy under its own name, to the DRIC who reads it.
    login(client, cast, "dric")
    trail = client.get(reverse("audit:event", args=[slug]), {"action": "slip_printed_for_reading"})
    assert "Slip printed for reading" in trail.content.decode()
    assert "</a> printed as a copy for reading, not the original" in trail.content.decode()


@pytest.mark.usefixtures("poppler")
def test_the_administrator_prints_a_copy_for_reading_and_the_runner_on_the_slip_the_original(client, cast, tmp_path):
    slip = fill_in_transit(client, cast)
    get_user_model().objects.create_user("admin", password=PASSWORD, is_staff=True)
    assert client.login(username="admin", password=PASSWORD)
    read = print_slip(client, cast, slip)
    assert READING in lines(read_pdf(client.get(read.url).content, tmp_path))
    assert last("slip_printed_for_reading", slip=slip).new == {"for_reading": True}

    # The runner carrying the fill works the slip: theirs is the original.
    login(client, cast, "runner")
    original = print_slip(client, cast, slip)
    raw = read_pdf(client.get(original.url).content, tmp_path, raw=True)
    assert "REPRINT" not in raw and READING not in raw
    assert last("slip_printed", slip=slip).new == {"copy": 1, "reprint": False}


def test_a_runner_not_on_the_slip_is_refused_and_nothing_is_printed(client, cast):
    slip = fill_in_transit(client, cast)
    login(client, cast, "runner2")
    response = client.post(reverse("cage:slip_print", args=[cast.event.slug, slip.pk]))
    assert response.status_code == 403
    assert not SlipPrint.objects.exists()
    refused = last("slip_printed", outcome="refused")
    assert refused.person == cast.runner2


@pytest.mark.usefixtures("poppler")
def test_the_copy_for_reading_in_french(client, cast, tmp_path):
    slip = fill_in_transit(client, cast)
    french = Client(HTTP_ACCEPT_LANGUAGE="fr-CA")
    assert french.login(username=cast.auditor.user.username, password=PASSWORD)
    page = french.get(reverse("cage:slip", args=[cast.event.slug, slip.pk])).content.decode()
    assert "Imprimer une copie de consultation" in page
    assert "Vous consultez cette fiche\u00a0: ce que vous imprimez" in page
    read = french.post(reverse("cage:slip_print", args=[cast.event.slug, slip.pk]))
    text = read_pdf(french.get(read.url).content, tmp_path)
    assert "Copie de consultation : pas l’original" in lines(text.replace("\u00a0", " "))
