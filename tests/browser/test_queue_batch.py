"""The DRIC approves several slips at once from her queue, in a real browser (issue 25): she ticks two
of the sales waiting for her witness, her ticks stay while the queue refreshes itself (a new sale
comes in meanwhile), the confirmation page lists the two, and one tap signs both. In English and in
French (asserted on the page's structure: the French of the new words comes later), at a laptop's
and a tablet's width, each page photographed."""

import pytest

from cage import services
from cage.models import Slip
from tests.browser.conftest import follow, person_page, screenshot
from tests.browser.test_cage_french import in_french
from tests.cage.helpers import stock
from tests.conftest import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sale(cast, fives: int) -> Slip:
    return services.sale(
        day=cast.day,
        chips={"5": fives},
        cash=fives * 500,
        signed=cast.signed(sold_by="chip_cashier"),
        allow_pending=True,
    )


def fits(page, width: int) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("width", [1366, 768])
def test_the_dric_ticks_two_slips_confirms_and_both_are_signed(browser, live_server, settings, width, language):
    settings.CAGE_REFRESH_SECONDS = 1  # the queue refreshes itself while she ticks
    cast = make_cast()
    stock(cast)
    first, second, third = sale(cast, 2), sale(cast, 4), sale(cast, 6)
    ann = person_page(browser, live_server, cast.dric, width=width, height=900)
    try:
        ann.goto(f"/cage/{cast.event.slug}/queue/")
        if language == "fr":
            in_french(ann)
        ann.check(f"#pick-{first.pk}")
        ann.check(f"#pick-{third.pk}")
        ann.click("h1")  # she looks away from the boxes: the queue refreshes again
        # A sale comes in while she reads: the refreshed rows show it, and her ticks are still there.
        later = sale(cast, 8)
        ann.wait_for_selector(f"#pick-{later.pk}", timeout=10_000)
        assert ann.is_checked(f"#pick-{first.pk}") and ann.is_checked(f"#pick-{third.pk}")
        assert not ann.is_checked(f"#pick-{second.pk}") and not ann.is_checked(f"#pick-{later.pk}")
        assert fits(ann, width)
        # The boxes take no column of their own: the table still fits a tablet, in French too.
        assert ann.eval_on_selector(
            "#queue", "t => { const s = t.closest('.scroll-x'); return s.scrollWidth <= s.clientWidth; }"
        )
        screenshot(ann, f"queue-batch-ticked-{language}-{width}")

        follow(ann, "#approve-selected")
        assert "/queue/approve/" in ann.url
        listed = ann.eval_on_selector_all("#batch tbody tr", "rows => rows.map(r => Number(r.dataset.slip))")
        assert listed == [first.pk, third.pk]
        # Each row shows its amount, who signed it, and what her signature does.
        for row in ann.locator("#batch tbody tr").all():
            assert row.locator("td.num").inner_text().strip() not in ("", "—")
            assert cast.chip_cashier.name in row.locator("td.signed").inner_text()
            # One sentence of what her signature does, naming its capacity in quotes (« » in French).
            hers = row.locator("td.hers").inner_text()
            assert hers.count("“") + hers.count("«") == 1, hers
        assert ann.locator("#batch-confirm-form input[name=slip]").count() == 2
        assert fits(ann, width)
        screenshot(ann, f"queue-batch-confirm-{language}-{width}")
        assert not first.signatures.filter(capacity="authorized_by").exists()  # nothing before she confirms

        follow(ann, "#batch-confirm")
        assert ann.url.endswith(f"/cage/{cast.event.slug}/queue/")
        assert ann.locator(".messages li.success").count() >= 1
        for slip, signed in ((first, True), (second, False), (third, True), (later, False)):
            assert slip.signatures.filter(capacity="authorized_by", person=cast.dric).exists() is signed, slip
        # The two signed leave the queue; the two left wait, each with its box.
        ann.wait_for_selector(f"#pick-{second.pk}")
        assert ann.locator(f'#queue tr[data-slip="{first.pk}"]').count() == 0
        assert ann.locator(f"#pick-{later.pk}").count() == 1
        if language == "fr":
            assert ann.locator("html").get_attribute("lang") == "fr-ca"
        screenshot(ann, f"queue-batch-done-{language}-{width}")
    finally:
        ann.context.close()


def test_approving_with_nothing_ticked_says_so_and_signs_nothing(browser, live_server):
    cast = make_cast()
    stock(cast)
    waiting = sale(cast, 2)
    ann = person_page(browser, live_server, cast.dric, width=768, height=900)
    try:
        ann.goto(f"/cage/{cast.event.slug}/queue/")
        follow(ann, "#approve-selected")
        assert ann.url.endswith(f"/cage/{cast.event.slug}/queue/")
        assert "no slip is chosen" in ann.locator(".messages li.error").inner_text()
        assert not waiting.signatures.filter(capacity="authorized_by").exists()
        screenshot(ann, "queue-batch-nothing-chosen-768")
    finally:
        ann.context.close()
