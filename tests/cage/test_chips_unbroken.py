"""A count of chips ("4 × $25") is never broken across two lines on the pages where slips wait (a
tablet showed "4 ×" above "$25"); the list wraps between counts, and its text is the text."""

import pytest
from django.urls import reverse

from cage.templatetags.cage_i18n import each_unbroken
from tests.cage.helpers import fill_in_transit, open_table, stock
from tests.conftest import login_person

pytestmark = pytest.mark.django_db


def test_each_count_is_kept_whole_and_escaped():
    assert each_unbroken("40 × $5, 4 × $25") == (
        '<span class="unbroken">40 × $5</span>, <span class="unbroken">4 × $25</span>'
    )
    assert each_unbroken("") == "" and each_unbroken(None) == ""
    assert each_unbroken("<b>1 × $1</b>") == '<span class="unbroken">&lt;b&gt;1 × $1&lt;/b&gt;</span>'


def test_the_queue_keeps_each_count_of_a_fill_whole(client, cast):
    stock(cast)
    open_table(cast)
    fill_in_transit(cast, chips={"5": 20, "25": 4})
    login_person(client, cast.dric)
    page = client.get(reverse("cage:queue", args=[cast.event.slug])).content.decode()
    assert '<span class="unbroken">20 × $5</span>, <span class="unbroken">4 × $25</span>' in page
