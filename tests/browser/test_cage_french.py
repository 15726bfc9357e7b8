"""The cage in French, in a real browser: a cashier switches to Français, writes a slip, reads it
in French on its page and on paper (the printable PDF read back with pdftotext), and meets a
refusal in French that cites the French text's own numbering of the terms and conditions. The
main cage pages are photographed in French at a laptop's and a tablet's width."""

import subprocess

import pytest
from playwright.sync_api import expect

from cage import services
from cage.models import Slip, SlipType
from tests.browser.conftest import ARTIFACTS, WIDTHS, log_in, screenshot
from tests.cage.helpers import open_table, roster_dealers, stock
from tests.conftest import PASSWORD, PIN, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NBSP, NNBSP = "\u00a0", "\u202f"


def plain(text: str) -> str:
    """Text as a person reads it: no-break spaces (French money and punctuation) as plain spaces."""
    return text.replace(NBSP, " ").replace(NNBSP, " ")


def in_french(page):
    """The switch in the page's header, as the cashier uses it; the page comes back in French."""
    page.click("#language-fr-ca")
    page.wait_for_selector('html[lang="fr-ca"]')
    expect(page.locator("#language-en-ca")).to_be_visible()


def pdf_text(page, url: str, tmp_path) -> str:
    """The PDF as the browser's session fetches it, read back by poppler's pdftotext."""
    response = page.context.request.get(url)
    assert response.ok and response.headers["content-type"] == "application/pdf"
    pdf = tmp_path / "slip.pdf"
    pdf.write_bytes(response.body())
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "french-slip.pdf").write_bytes(response.body())  # to look at: pdftoppm -png -r 60
    return plain(
        subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    )


def test_a_chip_sale_in_french_from_the_form_to_the_printed_slip(page, tmp_path):
    cast = make_cast()
    stock(cast)
    log_in(page, cast.chip_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/")
    in_french(page)
    assert page.inner_text("h1").startswith("Caisse")

    page.click("#slip-types >> text=Vente de jetons")
    page.wait_for_selector("#slip-form")
    form = plain(page.inner_text("#slip-form"))
    assert "Vente de jetons" in plain(page.inner_text("h1"))
    for label in ("Jetons, comptés par valeur nominale", "jetons de 5 $", "Argent", "Signatures"):
        assert label in form, label
    assert page.inner_text("button[type=submit]") == "Enregistrer"
    # The totals count in French as the cashier types; the cash follows the chips at face value.
    page.fill("input[name=chips_5]", "30")
    expect(page.locator("#chips-total")).to_have_text(f"150,00{NBSP}$")
    assert page.input_value("input[name=cash]") == "150,00"
    # Only Canadian cash is offered: said, not chosen.
    assert "Payé en argent canadien seulement" in plain(page.inner_text("#tender-note"))
    page.click("button[type=submit]")

    page.wait_for_url("**/slips/*/")
    slip = Slip.objects.get(slip_type=SlipType.SALE)
    assert slip.details["chips"] == {"5": 30}
    assert (
        plain(page.inner_text(".messages"))
        == "Fiche Vente de jetons 1 enregistrée. Reste à signer : « autorisé par » (RDR)."
    )
    shown = plain(page.inner_text("main"))
    assert "Vente de jetons 1" in shown and "En attente de signature" in shown
    assert "Journée de jeu" in shown and "2026-09-11" in shown
    assert "Total : 150,00 $" in shown
    screenshot(page, "french-slip-page")

    text = pdf_text(page, f"/cage/{cast.event.slug}/slips/{slip.pk}/slip.pdf", tmp_path)
    for words in (
        "Vente de jetons 1",
        "Licence F-2026-0117",
        "Journée de jeu du vendredi 2026-09-11",
        "Valeur nominale",
        "jetons de 5 $",
        "150,00 $",
        "Argent : 150,00 $",
        "Total de la fiche",
        "Signé à titre de",
        "Vendu par",
        "Reste à signer",
        "Autorisé par (RDR)",
        "page 1 de 1",
    ):
        assert words in text, words
    assert "$150.00" not in text and "Slip total" not in text


def test_a_refusal_in_french_cites_the_french_numbering(page):
    """The tip pool is empty: paying it out is refused under English T&C 2.6, which the French
    text numbers 2.7 (seed 000 numbers the designated persons' block 2.1)."""
    cast = make_cast()
    stock(cast)
    roster_dealers(cast)
    log_in(page, cast.general_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/slips/new/tip_payout/")
    in_french(page)
    assert "Versement des pourboires" in page.inner_text("h1")
    page.fill("input[name=hours_dealer]", "3.5")
    page.select_option("select[name=sign_verified_by]", label="Chip Cashier")
    page.fill("input[name=pin_verified_by]", PIN)
    page.click("button[type=submit]")

    error = plain(page.inner_text("#slip-form .errors"))
    assert error == "la cagnotte des pourboires est vide ; il n’y a rien à verser (M&C 2.7)"
    assert "T&C" not in page.inner_text("main")
    assert not Slip.objects.filter(slip_type=SlipType.TIP_PAYOUT).exists()
    screenshot(page, "french-refusal")


def test_the_main_cage_pages_in_french_fit_a_laptop_and_a_tablet(page):
    cast = make_cast()
    stock(cast)
    open_table(cast)
    # A fill in transit and a sale waiting for the DRIC: the queue and the panels have rows.
    services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"25": 10},
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner"),
        allow_pending=True,
    )
    services.sale(
        day=cast.day, chips={"5": 30}, cash=15000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    # A runner issue written in error and voided: the voids page has a row.
    issue = services.runner_issue(
        day=cast.day,
        runner=cast.runner2,
        chips={"1": 20},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner2"),
    )
    services.void(
        day=cast.day,
        target=issue,
        reason="mauvais messager",
        signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
    )
    log_in(page, cast.dric.user.username, PASSWORD)
    slug = cast.event.slug
    page.goto(f"/cage/{slug}/")
    in_french(page)
    fill = Slip.objects.get(slip_type=SlipType.FILL)
    pages = {
        "cage-home": f"/cage/{slug}/",
        "slip-form-fill": f"/cage/{slug}/slips/new/fill/",
        "slip-form-count": f"/cage/{slug}/slips/new/count/?account=bank_cash",
        "slip-page": f"/cage/{slug}/slips/{fill.pk}/",
        "day-close": f"/cage/{slug}/close/",
        "dric-queue": f"/cage/{slug}/queue/",
        "register": f"/cage/{slug}/register/",
        "voids": f"/cage/{slug}/register/voids/",
        "my-slips": f"/cage/{slug}/me/",
    }
    for name, url in pages.items():
        page.goto(url)
        assert page.locator("html").get_attribute("lang") == "fr-ca", name
        text = page.inner_text("main")
        assert "T&C" not in text and "$" not in text.replace(f"{NBSP}$", ""), name
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, width)
            screenshot(page, f"french-{name}-{width}")
