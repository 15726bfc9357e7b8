"""A dealer asks for a fill from her tablet; the Chip Cashier, in her own browser, sees the request
at the cage home, makes it into the fill (the form opens with the table, the chips and the note,
and says at its top which request it answers), and the dealer's page then names the fill. A request
declined at the cage shows so on the dealer's tablet by itself, without a reload. The Chip Cashier also signs a credit in transit from the
cage home's panel, where she is the one to sign. At a laptop's width and a tablet's, in English and
in French (for French, the page's structure: the words are the translators')."""

import pytest
from playwright.sync_api import expect

from cage import services
from cage.models import FillRequest, Signature, Slip
from tests.browser.conftest import at_both_widths, follow, person_page
from tests.browser.test_cage_french import in_french
from tests.cage.helpers import open_table, stock
from tests.conftest import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ACCENT = "rgb(11, 83, 148)"  # static/site.css --accent: a notice's border, where an error's is --bad


@pytest.fixture
def cast():
    """The bank stocked, BJ-1 open with the dealer's opener, and a credit from it in transit."""
    cast = make_cast()
    stock(cast)
    open_table(cast)
    services.credit(
        day=cast.day,
        table=cast.bj,
        chips={"5": 4},
        signed=cast.signed(released_by="dealer", carried_by="runner"),
        allow_pending=True,
    )
    return cast


def ask_for_a_fill(dealer, slug, *, french):
    dealer.goto(f"/cage/{slug}/me/")
    if french:
        in_french(dealer)
    form = dealer.locator("#fill-request-form")
    expect(form).to_be_visible()
    # Her one table is chosen already.
    assert dealer.input_value("#fill-request-form select[name=table]") != ""
    dealer.fill("#fill-request-form input[name=chips_5]", "20")
    dealer.fill("#fill-request-form input[name=chips_25]", "4")
    dealer.fill("#fill-request-form input[name=note]", "two racks, please")
    at_both_widths(dealer, f"fill-request-asking-{'fr' if french else 'en'}")
    follow(dealer, "#fill-request-form button[type=submit]")
    expect(dealer.locator(".messages li.success")).to_have_count(1)
    row = dealer.locator("#my-fill-requests tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("form button")).to_have_count(1)  # she may withdraw it while it waits


def cashier_pk(asked) -> int:
    return asked.event.people.get(code="chip_cashier").pk


def make_the_fill(cashier, slug, asked, *, french):
    cashier.goto(f"/cage/{slug}/")
    if french:
        in_french(cashier)
    row = cashier.locator(f'#fill-request-rows tr[data-request="{asked.pk}"]')
    expect(row).to_be_visible()
    assert "BJ-1" in row.inner_text() and "two racks, please" in row.inner_text()
    at_both_widths(cashier, f"fill-request-at-the-cage-{'fr' if french else 'en'}")
    cashier.set_viewport_size({"width": 1366, "height": 900})
    follow(cashier, f'#fill-request-rows tr[data-request="{asked.pk}"] a.button')
    # Which request this fill answers, at the form's top, in the site's notice style (not an error's).
    top = cashier.locator("#fill-request-answered")
    expect(top).to_be_visible()
    said = top.inner_text()
    assert "Dealer" in said and "BJ-1" in said and "two racks, please" in said
    assert top.evaluate("e => e.getBoundingClientRect().bottom") <= cashier.locator("#slip-form").evaluate(
        "e => e.getBoundingClientRect().top"
    )
    assert top.evaluate("e => getComputedStyle(e).borderLeftColor") == ACCENT
    assert cashier.input_value("select[name=table]") == str(asked.table_id)
    assert cashier.input_value("input[name=chips_5]") == "20"
    assert cashier.input_value("input[name=chips_25]") == "4"
    assert cashier.input_value("input[name=note]") == "two racks, please"
    cashier.select_option("select[name=runner]", index=1)
    at_both_widths(cashier, f"fill-request-form-{'fr' if french else 'en'}")
    cashier.set_viewport_size({"width": 1366, "height": 900})
    assert cashier.input_value("select[name=sign_issued_by]") == str(cashier_pk(asked))
    follow(cashier, "#slip-form button[type=submit]")
    expect(cashier.locator(".messages li.success")).to_have_count(1)
    fill = Slip.objects.get(slip_type="fill")
    assert FillRequest.objects.get(pk=asked.pk).outcome.slip == fill
    assert "two racks, please" in cashier.inner_text("table.facts")
    return fill


def sign_the_credit_from_the_panel(cashier, slug, credit):
    cashier.goto(f"/cage/{slug}/")
    button = cashier.locator(f'#pending-slips form[action$="/slips/{credit.pk}/sign/"] button')
    expect(button).to_have_count(1)
    at_both_widths(cashier, f"transit-panel-sign-{'fr' if cashier.locator('html[lang=fr-ca]').count() else 'en'}")
    cashier.set_viewport_size({"width": 1366, "height": 900})
    follow(cashier, f'#pending-slips form[action$="/slips/{credit.pk}/sign/"] button')
    expect(cashier.locator(".messages li.success")).to_have_count(1)
    assert cashier.url.endswith(f"/cage/{slug}/")
    assert Signature.objects.filter(slip=credit, capacity="received_by", person__code="chip_cashier").exists()
    expect(cashier.locator(f'#pending-slips form[action$="/slips/{credit.pk}/sign/"]')).to_have_count(0)


@pytest.mark.parametrize("french", [False, True], ids=["en", "fr"])
def test_a_dealer_asks_the_cashier_makes_the_fill_and_signs_in_transit(browser, live_server, cast, french):
    slug = cast.event.slug
    dealer = person_page(browser, live_server, cast.dealer, width=768, height=1024)
    cashier = person_page(browser, live_server, cast.chip_cashier)
    ask_for_a_fill(dealer, slug, french=french)
    asked = FillRequest.objects.get()
    fill = make_the_fill(cashier, slug, asked, french=french)

    # The dealer reads the request made into that fill, naming it.
    dealer.goto(f"/cage/{slug}/me/")
    row = dealer.locator(f'#my-fill-requests tr[data-request="{asked.pk}"]')
    link = row.locator("a.slipno")
    expect(link).to_have_attribute("href", f"/cage/{slug}/slips/{fill.pk}/")
    if not french:  # in French the slip's name is the translators' ("… 1"): its number is the same
        expect(link).to_have_text(fill.number)
    assert link.inner_text().endswith(f" {fill.serial}")
    expect(row.locator("form")).to_have_count(0)  # answered: nothing left to withdraw
    at_both_widths(dealer, f"fill-request-made-{'fr' if french else 'en'}")

    credit = Slip.objects.get(slip_type="credit")
    sign_the_credit_from_the_panel(cashier, slug, credit)


def test_a_declined_request_shows_on_the_dealers_tablet_by_itself(browser, live_server, cast, settings):
    settings.CAGE_REFRESH_SECONDS = 1
    slug = cast.event.slug
    dealer = person_page(browser, live_server, cast.dealer, width=768, height=1024)
    cashier = person_page(browser, live_server, cast.chip_cashier)
    try:
        ask_for_a_fill(dealer, slug, french=False)
        asked = FillRequest.objects.get()
        dealer.evaluate("window.notReloaded = true")
        row = dealer.locator(f'#my-fill-requests tr[data-request="{asked.pk}"]')
        expect(row).to_contain_text("Waiting for the cage")

        cashier.goto(f"/cage/{slug}/")
        cashier.click(f'#fill-request-rows tr[data-request="{asked.pk}"] details.decline summary')
        cashier.fill(f"#decline-{asked.pk}", "No runner free for ten minutes")
        follow(cashier, f'#fill-request-rows tr[data-request="{asked.pk}"] details.decline button')
        expect(cashier.locator(".messages li.success")).to_have_count(1)

        # On her tablet, by the next refresh: declined, with the reason, and nothing left to withdraw.
        expect(row).to_contain_text("Declined", timeout=10_000)
        expect(row).to_contain_text("No runner free for ten minutes")
        expect(row.locator("form")).to_have_count(0)
        assert dealer.evaluate("window.notReloaded === true")  # it came in by itself, the page kept
        assert dealer.locator("#refresh-status").inner_text() == ""
        at_both_widths(dealer, "fill-request-declined-by-itself")
    finally:
        dealer.context.close()
        cashier.context.close()
