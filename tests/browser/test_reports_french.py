"""The report page and the daily sheets page in a browser set to Canadian French (issue 9): French
words, French money, nothing sticking out sideways at the cage's screen and a tablet's width."""

import copy

import pytest

from cage.importer import import_records
from tests.browser.conftest import WIDTHS, at_both_widths, log_in
from tests.conftest import PASSWORD, give_login
from tests.reports.test_figures import EXAMPLE

SLUG, DATE = "lakeside-fair-2026", "2026-09-11"
NBSP = "\u00a0"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_report_and_the_day_sheets_in_french_at_both_widths(browser, live_server):
    event = import_records(copy.deepcopy(EXAMPLE))
    give_login(event.people.get(code="ann"), "ann")
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": WIDTHS[0], "height": 900}, locale="fr-CA"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, "ann", PASSWORD)

    page.goto(f"/reports/{SLUG}/")
    assert page.locator("html").get_attribute("lang") == "fr-ca"
    assert page.get_by_role("heading", name="Chiffres de l’activité").is_visible()
    assert page.get_by_role("img", name=f"Gain par table{NBSP}: BJ-1 120,00{NBSP}${NBSP}; BJ-2 150,00{NBSP}${NBSP}; "
                            f"WOF-1 -120,00{NBSP}$").is_visible()  # fmt: skip
    signatures = page.locator("#report-signatures").inner_text()
    assert "Représentant désigné responsable" in signatures and "Responsable des jetons" in signatures
    assert f"95,00{NBSP}$" in page.locator("#totals").inner_text()
    at_both_widths(page, "report-fr")

    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    page.goto(f"/reports/{SLUG}/days/{DATE}/")
    assert page.get_by_role("heading", name="Rapport principal des jeux").is_visible()
    master = page.locator("#sheet-master_game_report").inner_text()
    assert "Roue de la fortune" in master and f"1{NBSP}350,00{NBSP}$" in master
    at_both_widths(page, "day-sheets-fr")
    context.close()
