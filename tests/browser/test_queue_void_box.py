"""The DRIC's queue on a tablet: an opened "Void…" reason box fits the screen at 768 px, its
reason field and its button in view (the queue's table scrolls sideways inside its box)."""

import pytest

from cage import services
from cage.models import Slip
from tests.browser.conftest import person_page, screenshot
from tests.cage.helpers import stock
from tests.conftest import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [768, 1366])
def test_an_opened_void_box_fits_the_screen(browser, live_server, width):
    cast = make_cast()
    stock(cast)
    sale = services.sale(
        day=cast.day, chips={"5": 10}, cash=5_000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    ann = person_page(browser, live_server, cast.dric, width=width, height=900)
    try:
        ann.goto(f"/cage/{cast.event.slug}/queue/")
        row = f'#queue tr[data-slip="{sale.pk}"]'
        ann.click(f"{row} details.void summary")
        form = ann.locator(f"{row} details.void form")
        form.wait_for()
        # Where it shows as it opens, nothing scrolled sideways: the table's box would clip it.
        for part in ("form", "input[name=reason]", "button[type=submit]"):
            target = form if part == "form" else form.locator(part)
            box = target.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (part, box, width)
            # Nor clipped by the box the queue's table scrolls in.
            clip = ann.eval_on_selector("#queue", "t => t.closest('.scroll-x').getBoundingClientRect().right")
            assert box["x"] + box["width"] <= clip, (part, box, clip)
        assert ann.evaluate("document.documentElement.scrollWidth") <= width
        assert ann.eval_on_selector(
            "#queue", "t => { const s = t.closest('.scroll-x'); return s.scrollWidth <= s.clientWidth; }"
        )
        screenshot(ann, f"queue-void-open-{width}")
        ann.fill(f"#reason-{sale.pk}", "keyed $50 for $5")
        ann.click(f"{row} details.void button[type=submit]")
        ann.wait_for_selector("text=Void 1")
        assert Slip.objects.get(slip_type="void").voids == sale
    finally:
        ann.context.close()
