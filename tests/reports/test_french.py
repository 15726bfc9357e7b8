"""The reports in French (issue 9): the financial report and the daily sheets as PDFs read back
with poppler, the report pages, and the formats for machines, which do not change with the language.

The figures are the worked example's (docs/examples/lakeside-one-day.report.json): win $150.00,
chip sales $2,000.00, chips outstanding $30.00, net proceeds $95.00.
"""

import copy
import csv
import io
import json
import subprocess

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils.translation import override

from cage.importer import import_records
from core.rules import RuleViolation
from events import games
from events.models import game_name
from reports.daily import day_sheets
from reports.models import ReportSignature
from reports.services import report_sign
from tests.conftest import PASSWORD, Client, give_login, make_cast
from tests.reports.test_exports import poppler  # noqa: F401  (the fixture that skips without poppler-utils)
from tests.reports.test_figures import EXAMPLE

pytestmark = pytest.mark.django_db
SLUG, DATE = "lakeside-fair-2026", "2026-09-11"
# French spaces: money and times are grouped with no-break spaces ("2 000,00 $", "19 h 05").
SPACES = str.maketrans({"\u00a0": " ", "\u202f": " "})


def plain(text: str) -> str:
    return text.translate(SPACES)


def pdf_pages(path) -> list[str]:
    """The PDF's text page by page, no-break spaces made plain, each line's runs of spaces made one."""
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout
    pages = [page for page in plain(text).split("\f") if page.strip()]
    return ["\n".join(" ".join(line.split()) for line in page.splitlines()) for page in pages]


def lines_of(pages) -> set[str]:
    return {line for page in pages for line in page.splitlines()}


def example():
    event = import_records(copy.deepcopy(EXAMPLE))
    for code in ("ann", "gus", "cora", "rita"):
        give_login(event.people.get(code=code), code)
    return event


def french_client(username=None) -> Client:
    """A browser set to Canadian French, logged in as `username`."""
    browser = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    if username:
        assert browser.login(username=username, password=PASSWORD)
    return browser


def command_output(name, *args) -> str:
    out = io.StringIO()
    call_command(name, *args, stdout=out)
    return out.getvalue()


# --- the financial report ----------------------------------------------------------------------


def test_the_french_financial_report_reads_back_with_seed_000s_terms_and_french_money(tmp_path, poppler):  # noqa: F811
    example()
    pdf = tmp_path / "rapport.pdf"
    call_command("event_report", SLUG, "--format", "pdf", "--lang", "fr", "--out", str(pdf))
    pages = pdf_pages(pdf)
    text = "\n".join(pages)
    lines = lines_of(pages)
    # the sections, in order, in French
    order = [
        "A. Titulaire de la licence et activité",
        "B. Résultats",
        "C. Dépenses (payées du compte en fiducie du titulaire de la licence)",
        "D. Produit net et compte en fiducie",
        "E. Certification",
    ]
    positions = [text.index(heading) for heading in order]
    assert positions == sorted(positions)
    # the designated persons as seed 000 names them
    for line in (
        "Représentant désigné responsable Ann Leblanc",
        "Responsable de la caisse Gus Tremblay",
        "Responsable des jetons Cora Singh",
        "Titulaire de la licence Lakeside Agricultural Society",
        "Fournisseur inscrit Northern Gaming Supply Ltd.",
        "Jeux Blackjack, Roue de la fortune",
    ):
        assert line in lines, line
    # money in French: "150,00 $", grouped "2 000,00 $", negative "-120,00 $"
    assert "2026-09-11 WOF-1 Roue de la fortune 200,00 $ 100,00 $ 0,00 $ 180,00 $ -120,00 $" in lines
    assert "2026-09-11 150,00 $ 2 000,00 $ 1 780,00 $ 40,00 $ 0,00 $ -2,00 $" in lines
    assert "Activité Roue de la fortune -120,00 $" in lines
    assert "Jetons en circulation (vendus, jamais rachetés) 30,00 $" in lines
    assert "Produit net 95,00 $" in lines and "moins les dépenses -85,00 $" in lines
    assert "2026-09-11 Dana Kowalski 4 16,00 $" in lines
    assert "Les dépôts sont inférieurs de 180,00 $ au produit net" in text
    # the tips' section cited with the French numbering: English 2.6 is French 2.7
    assert "Pourboires des donneurs (M&C 2.7)" in lines
    # every day is closed: no draft, the certification with the lines to sign on
    assert "PROVISOIRE" not in text and "DRAFT" not in text
    assert any(line.startswith("Responsable des jetons Cora Singh ________________") for line in lines)
    for number, page in enumerate(pages, start=1):
        assert f"page {number} de {len(pages)}" in page and "Produit le " in page
    # no English left where it was the report's own to say
    for english in ("Financial report", "Designated Representative", "General Cashier", "Chip Cashier",
                    "Net proceeds", "Wheel of Fortune", "Win by", "Generated", "page 1 of"):  # fmt: skip
        assert english not in text, english


def test_a_draft_says_provisoire_on_every_page_in_french(tmp_path, poppler):  # noqa: F811
    cast = make_cast()
    pdf = tmp_path / "provisoire.pdf"
    call_command("event_report", cast.event.slug, "--format", "pdf", "--lang", "fr", "--out", str(pdf))
    pages = pdf_pages(pdf)
    for page in pages:
        assert "PROVISOIRE" in page and "DRAFT" not in page
    text = "\n".join(pages)
    assert "journées de jeu encore ouvertes : 2026-09-11" in text
    assert "Cette version provisoire ne porte aucune certification" in text
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "p")], check=True)
    assert next(tmp_path.glob("p-*1.png")).stat().st_size > 10_000


def test_the_english_report_is_still_english_by_default(tmp_path, poppler):  # noqa: F811
    example()
    pdf = tmp_path / "report.pdf"
    call_command("event_report", SLUG, "--format", "pdf", "--lang", "en", "--out", str(pdf))
    lines = lines_of(pdf_pages(pdf))
    assert "Designated Representative in Charge Ann Leblanc" in lines
    assert "2026-09-11 WOF-1 Wheel of Fortune $200.00 $100.00 $0.00 $180.00 -$120.00" in lines
    assert "Dealers' tips (T&C 2.6)" in lines


def test_the_financial_report_downloaded_from_a_french_page_is_in_french(tmp_path, poppler):  # noqa: F811
    example()
    browser = french_client("ann")
    page = browser.get(reverse("reports:event", args=[SLUG])).text
    assert '<html lang="fr-ca">' in page
    response = browser.get(reverse("reports:event_pdf", args=[SLUG]))
    assert response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "web.pdf"
    pdf.write_bytes(response.content)
    lines = lines_of(pdf_pages(pdf))
    assert "Représentant désigné responsable Ann Leblanc" in lines and "Produit net 95,00 $" in lines


def test_a_signature_and_a_refusal_in_french(tmp_path, poppler):  # noqa: F811
    example()
    browser = french_client("ann")
    signed = browser.post(reverse("reports:event_sign", args=[SLUG]), follow=True).text
    assert "Ann Leblanc a signé le rapport financier à titre de" in signed
    again = plain(browser.post(reverse("reports:event_sign", args=[SLUG]), follow=True).text)
    # the refusal translated whole, the rule cited as the French text numbers it (T&C 2.7 is M&C 2.8)
    assert "Ann Leblanc a déjà signé le rapport financier le 20" in again and "(M&amp;C 2.8)" in again
    assert ReportSignature.objects.count() == 1
    pdf = tmp_path / "signé.pdf"
    call_command("event_report", SLUG, "--format", "pdf", "--lang", "fr", "--out", str(pdf))
    lines = lines_of(pdf_pages(pdf))
    signature = ReportSignature.objects.get()
    with override("fr-ca"):
        from core.local import moment

        when = plain(moment(signature.signed_at))
    assert " h " in when  # 24-hour time the French way: "19 h 05"
    assert any(line.startswith(f"Représentant désigné responsable Ann Leblanc {when}") for line in lines)


def test_a_refusal_is_translated_whole_with_its_rule():
    cast = make_cast()
    with override("fr-ca"), pytest.raises(RuleViolation) as refused:
        report_sign(event=cast.event, person=cast.runner)
    assert plain(refused.value.text) == (
        "seules les personnes désignées de l’activité signent le rapport financier : le représentant désigné "
        "responsable, le responsable de la caisse et le responsable des jetons (M&C 2.8)"
    )
    assert refused.value.rule_reference == "T&C 2.7"


# --- the report page ---------------------------------------------------------------------------


def test_the_report_page_in_french():
    example()
    page = plain(french_client("ann").get(reverse("reports:event", args=[SLUG])).text)
    for words in (
        "Chiffres de l’activité",
        "Rapport financier (M&amp;C 2.8)",
        "Parts des pourboires (M&amp;C 2.7)",
        "Représentant désigné responsable",
        "Responsable de la caisse",
        "Roue de la fortune",
        "Produit net",
        '<td class="num">95,00 $</td>',
        '<td class="num">2 000,00 $</td>',
        # French puts a space before a semicolon (a no-break one, which plain() shows as a space).
        "<strong>Gain par table :</strong> BJ-1 120,00 $ ; BJ-2 150,00 $ ; WOF-1 -120,00 $",
        'aria-label="Gain par table : BJ-1 120,00 $ ; BJ-2 150,00 $ ; WOF-1 -120,00 $"',
        "Signer le rapport financier",
    ):
        assert words in page, words
    main = page.split("</nav>", 1)[1]  # the page's own content; the menu is the other apps'
    for english in ("Event figures", "Net proceeds", "Wheel of Fortune", "Sign the financial report", "$95.00", "DRIC"):
        assert english not in main, english


def test_the_day_page_in_french():
    example()
    page = plain(french_client("ann").get(reverse("reports:day", args=[SLUG, DATE])).text)
    for words in (
        "Feuilles de contrôle quotidiennes : journée de jeu du 2026-09-11",
        "Rapport principal des jeux",
        "Registre des remplissages et crédits",
        "Rapport des écarts",
        "Répartition des pourboires",
        "Rapprochement des messagers",
        "Bilan de la caisse",
        "Dotation",
        "Total de la journée",
        "1 350,00 $",
        "13 h 30",
    ):
        assert words in page, words


# --- the daily sheets --------------------------------------------------------------------------

SHEET_TITLES_FR = (
    "Sommaire",
    "Rapport principal des jeux",
    "Registre des remplissages et crédits",
    "Rapport des écarts",
    "Répartition des pourboires",
    "Rapprochement des messagers",
    "Bilan de la caisse",
    "Dotation",
)


def test_the_french_day_sheets_read_back_from_the_command(tmp_path, poppler):  # noqa: F811
    example()
    pdf = tmp_path / "feuilles.pdf"
    call_command("day_report", SLUG, DATE, "--format", "pdf", "--lang", "fr", "--out", str(pdf))
    pages = pdf_pages(pdf)
    text = "\n".join(pages)
    lines = lines_of(pages)
    for title in SHEET_TITLES_FR:
        assert title in lines, title
    assert "Feuilles de contrôle quotidiennes : Lakeside Fall Fair Casino, journée de jeu du" in text
    assert "Total de la journée 1 200,00 $ 300,00 $ 300,00 $ 1 350,00 $ 150,00 $" in lines
    assert "Roue de la fortune WOF-1 200,00 $ 100,00 $ 0,00 $ 180,00 $ -120,00 $" in lines
    assert "Jetons en circulation à la fin de la journée 30,00 $" in lines
    assert "Les pourboires rassemblés sont répartis en entier au prorata des heures (M&C 2.7)." in lines
    # The example's day is closed: its approval is printed, signed in the app.
    assert any(line.startswith("Approuvé par RDR Ann Leblanc") for line in lines)
    assert "Master game report" not in text and "Day's total" not in text and "$1,350.00" not in text


def test_the_day_sheets_downloaded_from_a_french_page_are_in_french(tmp_path, poppler):  # noqa: F811
    example()
    response = french_client("ann").get(reverse("reports:day", args=[SLUG, DATE]) + "?format=pdf")
    pdf = tmp_path / "web.pdf"
    pdf.write_bytes(response.content)
    lines = lines_of(pdf_pages(pdf))
    for title in SHEET_TITLES_FR:
        assert title in lines, title


def test_the_day_sheets_fit_their_columns_in_french(tmp_path, poppler):  # noqa: F811
    """A longer French heading breaks between words, never inside one, and no amount breaks."""
    example()
    pdf = tmp_path / "feuilles.pdf"
    call_command("day_report", SLUG, DATE, "--lang", "fr", "--out", str(pdf))
    text = "\n".join(pdf_pages(pdf))
    for broken in ("Messag\n", "Remplissag\n", "Rembours\n"):
        assert broken not in text
    lines = lines_of(pdf_pages(pdf))
    assert not any(line.endswith((" 0,00", " 200,00", " 300,00")) for line in lines), "an amount split from its $"


# --- what does not change with the language ------------------------------------------------------


def test_the_json_and_the_csv_are_the_same_in_both_languages():
    example()
    for args in (("--format", "json"), ("--format", "csv")):
        assert command_output("event_report", SLUG, *args, "--lang", "fr") == command_output(
            "event_report", SLUG, *args, "--lang", "en"
        )
    french = json.loads(command_output("day_report", SLUG, DATE, "--format", "json", "--lang", "fr"))
    english = json.loads(command_output("day_report", SLUG, DATE, "--format", "json"))
    assert french == english
    assert french["sheets"]["master_game_report"][-1]["game"] == "Day's total"
    # and on the web: the report's JSON and CSV downloaded from a French page
    browser = french_client("ann")
    client = Client()
    assert client.login(username="ann", password=PASSWORD)
    for name in ("reports:event_json", "reports:event_csv"):
        assert browser.get(reverse(name, args=[SLUG])).content == client.get(reverse(name, args=[SLUG])).content


def test_the_sheets_csv_keeps_its_header_of_keys_in_french():
    example()
    url = reverse("reports:day", args=[SLUG, DATE]) + "?format=csv"
    rows = list(csv.DictReader(io.StringIO(french_client("ann").get(url).content.decode())))
    assert list(rows[0]) == ["date", "sheet", "line", "row", "column", "value"]
    assert {"date": DATE, "sheet": "totals", "line": "1", "row": "line", "column": "amount", "value": "150.00"} in rows
    one = french_client("ann").get(url + "&sheet=master_game_report").content.decode()
    assert one.startswith("row,game,table,opener,fills,credits,closer,win")
    assert "Total de la journée" in one and "1350.00" in one  # people's words, machine figures


def test_the_commands_take_only_en_or_fr():
    example()
    with pytest.raises(CommandError):
        call_command("event_report", SLUG, "--format", "pdf", "--lang", "de")
    with pytest.raises(CommandError, match="aucune journée de jeu le 2026-09-12"):
        call_command("day_report", SLUG, "2026-09-12", "--lang", "fr")


def test_the_games_french_names():
    assert games.get_game("wheel_of_fortune").name("fr-ca") == "Roue de la fortune"
    assert games.get_game("wheel_of_fortune").name("en-ca") == "Wheel of Fortune"
    assert games.get_game("blackjack").name("fr-ca") == "Blackjack"
    with override("fr-ca"):
        assert game_name("baccarat") == "Baccara"
        sheets = day_sheets(example().days.get())
    master = next(s for s in sheets["sheets"] if s.key == "master_game_report")
    assert master.title == "Rapport principal des jeux"
    assert [row.cells[0] for row in master.rows][-2] == "Roue de la fortune, sous-total"


@pytest.mark.parametrize("name, out_required", [("poster", True), ("day_report", False), ("event_report", False)])
def test_the_document_commands_share_lang_and_out(name, out_required):
    """poster, day_report and event_report take --lang and --out from one place (events.file_commands)."""
    from django.core.management import load_command_class

    from events.file_commands import DocumentCommand

    command = load_command_class("events" if name == "poster" else "reports", name)
    assert isinstance(command, DocumentCommand)
    options = {a.dest: a for a in command.create_parser("manage.py", name)._actions}
    assert options["lang"].choices == ["en", "fr"] and options["out"].required is out_required
