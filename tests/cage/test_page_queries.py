"""The cage's busiest pages and the report page run the same, exact number of queries for a small event and for one with
more tables, people's slips and days (issue 11): nothing is fetched per table, per slip or per
signer. Both events are generated records files, imported, with their last day still open."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cage.importer import import_records
from tests.conftest import give_login
from tests.records_generator import generated_event

pytestmark = pytest.mark.django_db

# The exact counts; one that adds a fixed query changes the number here, on purpose and in review.
# (cage:home: +2 for the slip types the day and its tables allow, cage.selectors.offered.)
# home and queue: one more each for the signatures of a close prepared and waiting (the queue reads the day too).
# cage:home: +1 for the day's count of slips (and of its closers), now that it lists only the latest ones.
# The report page: +1 since a void moves nothing until the DRIC authorizes it, the done voids are
# read apart from the slips (one query, reports.figures).
# The cage home: +1 since the close's checks read the roles and logins given during the day, waiting
# for a second designated person (cage.selectors.four_eyes). The queue reads them too: +2 with the
# logins waiting for a confirmation.
# The report page: +1 for the seals of the gaming days (cage.selectors.seals).
# The cage home: +2 for the paper slips of an outage (cage.selectors.paper): whether the day used
# any, for the close's checks, and how many wait to be entered. The queue: +1 for the signatures on
# entered paper slips still to confirm. The queue: +1 for the number of slips waiting, now that it shows
# one page of them (CAGE_QUEUE_ROWS) and says how many more wait.
# The cage home: +4 now that it is bounded whatever the number of slips waiting (issue 25): how many
# slips wait, counted for the pending panel and for what stands in the way of the close (each lists
# only the latest), and the dealers' fill requests still open with their count. Its panels: +3 (the
# pending count, the fill requests and their count).
# Then fewer (issue 25, pages that cost little): each GET is one reading of the books
# (core.reading), so the chip set, the event's places and tables and the day's count states are read
# once however many panels ask (home -9, panels -2, queue -1); the signatures are read with their
# signers (-1 per list); the close's checklist takes the pending panel's slips instead of reading
# them again, and counts the rest only when the panel is full (home -5, panels -1). While tables are
# open the home names them and the slips waiting as what stands in the way of the close, and leaves
# the rest of the checklist to the close page (home -5); the queue's first page, not full, is every
# slip waiting, so it is not counted again (queue -1).
# One fewer on every page since a person's event is read with their person (events.access).
# The report page: +2 for the trust account's deposits with their bank slips (read once) and the
# report's filing (issue 26).
# The dealers' fill requests are counted first and read only when some are open (home -1, panels -1).
# The day's openers are read once however many panels ask (core.reading), and the trays awaiting an
# opener are not asked for once no closed table is left to open (home -2, panels -1).
# The queue: the openers not signed off are read as their details first, and in full only when one is
# flagged, as one is here (+1; none flagged, the usual queue, asks one query as before).
EXACT = {"cage:home": 24, "cage:home_panels": 14, "cage:queue": 14, "reports:event": 24}

# The register and the voids read one page of 50 (cage.selectors.registers.RegisterSlips): the
# default order and a day are SQL's; a state and the amount order take one light pass each.
# (A day: +1, the form reads the day chosen. A state: the slips' types and the capacities signed, then
# the ids in order, for the count.)
REGISTER = {"": 13, "day": 14, "state=complete": 14, "sort=-amount": 13, "state=complete&sort=-slip&page=2": 14}
# The voids: +3 for the days counted blind (their amounts hidden), the chips' values (the amount of
# each slip voided) and the gaming days of the day filter's list. A day: +1, the form reads the day chosen.
VOIDS = {"": 12, "day": 13}


def imported(slug, **shape):
    data = generated_event(seed=11, leave_last_day_open=True, **shape)
    data["event"]["slug"] = slug
    event = import_records(data)
    give_login(event.people.get(code="ann"), f"ann-{slug}")
    return event


def count(client, event, name, query="") -> int:
    client.force_login(event.people.get(code="ann").user)
    url = reverse(name, args=[event.slug]) + (f"?{query}" if query else "")
    client.get(url)  # warm: the session's first request reads more than the next
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


def test_the_cage_pages_run_an_exact_number_of_queries_whatever_the_size(client):
    small = imported("page-small", days=2, records_per_day=30)
    large = imported("page-large", days=4, records_per_day=150, tables=12)
    assert large.slips.count() > 3 * small.slips.count()
    assert large.tables.count() > 2 * small.tables.count()
    assert large.days.count() == 2 * small.days.count()
    for name, exact in EXACT.items():
        assert [count(client, small, name), count(client, large, name)] == [exact, exact], name
    # The register: a page of 50 of the slips, each filter and order.
    first_day = {event: f"day={event.days.order_by('date').first().pk}" for event in (small, large)}
    assert small.slips.count() > 50
    for query, exact in REGISTER.items():
        counts = [count(client, e, "cage:register", first_day[e] if query == "day" else query) for e in (small, large)]
        assert counts == [exact, exact], query
    assert large.slips.filter(slip_type="void").count() > small.slips.filter(slip_type="void").count() > 0
    for query, exact in VOIDS.items():
        counts = [count(client, e, "cage:voids", first_day[e] if query == "day" else query) for e in (small, large)]
        assert counts == [exact, exact], query
    # The day filter narrows the voids (the count above is of a page of them, not of every one).
    for e in (small, large):
        client.force_login(e.people.get(code="ann").user)
        day = e.days.order_by("date").first()
        html = client.get(reverse("cage:voids", args=[e.slug]), {"day": day.pk}).content.decode()
        voids = e.slips.filter(slip_type="void", day=day).count()
        assert f'<p id="voids-count">{voids} void' in html
