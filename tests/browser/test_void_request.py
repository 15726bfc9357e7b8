"""A void asked for at the window and refused from the DRIC's queue, each person in a browser of
their own: the Chip Cashier sees the sale in full before the void is written, nothing moves, the
DRIC refuses it with a reason, and the sale stands; then a void she authorizes reverses it."""

import pytest

from cage import services
from cage.models import Account, Refusal, Slip
from tests.browser.conftest import at_both_widths, person_page
from tests.cage.helpers import stock
from tests.conftest import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def patrons(cast):
    return services.balance(services.account_get(cast.event, Account.Kind.PATRONS))


def ask_for_void(cora, slug, sale, reason):
    cora.goto(f"/cage/{slug}/slips/new/void/")
    option = cora.locator("select[name=target] option", has_text=f"{sale.number} at ")
    cora.select_option("select[name=target]", value=option.get_attribute("value"))
    cora.fill("textarea[name=reason]", reason)
    cora.click("#slip-form button[type=submit]")
    cora.wait_for_selector("#void-preview")


def test_a_refused_from_the_queue_leaves_the_sale_standing(browser, live_server):
    cast = make_cast()
    stock(cast)
    sale = services.sale(
        day=cast.day, chips={"5": 10}, cash=5_000, signed=cast.signed(sold_by="chip_cashier", authorized_by="dric")
    )
    before = patrons(cast)
    slug = cast.event.slug
    cora = person_page(browser, live_server, cast.chip_cashier)
    ann = person_page(browser, live_server, cast.dric)
    try:
        ask_for_void(cora, slug, sale, "keyed $50 for $5")
        preview = cora.inner_text("#void-preview")
        assert "The slip to void: Chip sale 1" in preview and "10 × $5" in preview and "$50.00" in preview
        assert not Slip.objects.filter(slip_type="void").exists()  # nothing written yet
        at_both_widths(cora, "void-preview")
        cora.click("#slip-form button[type=submit]")
        cora.wait_for_selector(".messages li.success")
        assert "Nothing moves before it is signed; still to sign: authorized by (DRIC)." in cora.inner_text(".messages")
        assert patrons(cast) == before

        ann.goto(f"/cage/{slug}/queue/")
        void = Slip.objects.get(slip_type="void")
        row = f'#queue tr[data-slip="{void.pk}"]'
        assert "Reason: keyed $50 for $5" in ann.inner_text(row)
        ann.click(f"{row} details.refuse summary")
        ann.fill(f"#refuse-{void.pk}", "the sale was right")
        at_both_widths(ann, "queue-refuse-open")
        ann.click(f"{row} details.refuse button[type=submit]")
        ann.wait_for_selector("text=Void 1 refused: nothing moved, and Chip sale 1 stands as it was.")
        assert Refusal.objects.get().reason == "the sale was right" and patrons(cast) == before

        cora.goto(f"/cage/{slug}/slips/{sale.pk}/")
        assert "was refused by Dric" in cora.inner_text(".facts")
        cora.goto(f"/cage/{slug}/slips/{void.pk}/")
        assert "Refused" in cora.inner_text("h1")
        at_both_widths(cora, "void-refused-slip")

        # A second void, this time authorized: the reversal is posted then.
        ask_for_void(cora, slug, sale, "customer left")
        cora.click("#slip-form button[type=submit]")
        cora.wait_for_selector(".messages li.success")
        ann.goto(f"/cage/{slug}/queue/")
        second = Slip.objects.filter(slip_type="void").latest("id")
        ann.click(f'#queue tr[data-slip="{second.pk}"] button:text-is("Authorize")')
        ann.wait_for_selector("text=Void 2 authorized: Chip sale 1 is voided and its reversal posted.")
        assert patrons(cast) == {}
    finally:
        cora.context.close()
        ann.context.close()
