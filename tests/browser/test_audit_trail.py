"""The General Cashier's redemption is refused at the window; the DRIC opens the audit trail from the
event's navigation, narrows it to refusals and reads who was refused, what, under which rule and
from where; at a laptop's width and a tablet's."""

import pytest

from audit.models import AuditEntry
from cage.models import Slip
from tests.browser.conftest import at_both_widths, follow, person_page
from tests.cage.helpers import count_short_and_close, stock
from tests.conftest import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_dric_sees_a_refused_redemption_on_the_audit_trail(browser, live_server):
    cast = make_cast()
    stock(cast, chips={"5": 40}, cash=10_000)  # $100.00 in the bank
    gus = person_page(browser, live_server, cast.general_cashier)
    try:
        refused_at_the_window(gus, cast)
    finally:
        gus.context.close()
    assert not Slip.objects.filter(slip_type="redemption").exists()

    ann = person_page(browser, live_server, cast.dric)
    try:
        the_dric_reads_the_trail(ann, cast)
    finally:
        ann.context.close()
    refused = AuditEntry.objects.get(outcome="refused", action="slip_recorded")
    assert refused.person == cast.general_cashier and refused.address == "127.0.0.1"


def refused_at_the_window(gus, cast):
    gus.goto(f"/cage/{cast.event.slug}/slips/new/redemption/")
    gus.fill("input[name=chips_5]", "30")
    gus.click("#slip-form button[type=submit]")
    gus.wait_for_selector("text=bank cash holds $100.00 in cash, not the $150.00 this redemption takes out")


def the_dric_reads_the_trail(ann, cast):
    ann.goto(f"/events/{cast.event.slug}/")
    ann.click("nav.event >> text=Audit trail")
    ann.wait_for_selector("#audit")
    ann.select_option("#id_outcome", label="Refused")
    ann.click("#audit-filter button[type=submit]")
    ann.wait_for_url("**outcome=refused**")
    assert ann.inner_text("#audit-count") == "1 entry"
    row = ann.inner_text("#audit tbody tr")
    assert "General Cashier" in row and "Slip" in row and "Refused" in row
    assert "bank cash holds $100.00 in cash, not the $150.00 this redemption takes out" in row
    assert "custody: no account pays out what it does not hold" in row
    assert "127.0.0.1" in row
    at_both_widths(ann, "audit-refused-redemption")

    ann.set_viewport_size({"width": 1366, "height": 900})
    follow(ann, "text=Every entry")  # #audit is on the page being left too
    assert "Log in" in ann.inner_text("#audit") and "Chips received 1 recorded" in ann.inner_text("#audit")
    at_both_widths(ann, "audit-every-entry")


def test_the_dric_reads_the_audit_trail_in_french(browser, live_server):
    """The trail of a day with a count short and the day closed, read in French at a laptop's
    width and a tablet's: French names, times to the minute, nothing sticking out sideways."""
    cast = make_cast()
    count_short_and_close(cast)
    ann = person_page(browser, live_server, cast.dric)
    try:
        ann.goto(f"/events/{cast.event.slug}/")
        ann.click("#language-fr-ca")
        ann.wait_for_selector('html[lang="fr-ca"]')
        ann.click("nav.event >> text=Piste de vérification")
        ann.wait_for_selector("#audit")
        table = ann.inner_text("#audit")
        assert "Fiche Comptage 2 enregistrée" in table and "Jetons manquants" in table
        assert "banque de jetons" in table and "Préparé par" in table
        for english in ("chip_bank", "missing_chips", "Prepared by", "Counted by", "prepared by"):
            assert english not in table
        at_both_widths(ann, "audit-french")
    finally:
        ann.context.close()
