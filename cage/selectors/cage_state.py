"""Where everything stands in the cage at this moment: the home page's live panels, and the same on
paper (cage.inventory_pdf) for when the screen goes dark."""

from cage.selectors.counts import awaiting_opener, blind_places, books_blind
from cage.selectors.inventory import inventory, table_states
from cage.selectors.slips import pending_count, pending_slips


def cage_state(event, day, *, latest: int | None = None, counter: bool = False) -> dict:
    """What the pending, inventory and tables panels show; the home page, its refresh and the
    printed inventory share it. `latest`: the pending panel lists only that many slips, the latest
    (the home page: bounded whatever the number waiting), and `pending_more` says how many more.
    `counter`: read by one of those who count the places (counts.counts_places): the places the
    close counts stay blind to them on an open day too (counts.blind_places)."""
    pending = pending_slips(event, day=day, latest=latest) if day else []
    # Counted in the database only when the bounded panel is full: fewer than `latest` is all.
    more = pending_count(event, day=day) - len(pending) if latest is not None and len(pending) >= latest else 0
    # While the day reconciles, a place is counted blind: no figure of it until its count is in;
    # nor, until bank cash, the chip bank and the tip pool are counted, the trays, fills, credits
    # and patrons' chips that would give their books away (cage.selectors.counts.books_blind).
    books_hidden = bool(books_blind(day))
    return {
        "event": event,
        "day": day,
        # A closed table still to open today: its opener is counted blind, so its tray shows once
        # the opener is in (counts.awaiting_opener).
        "inventory": inventory(
            event, hidden=blind_places(day, counter=counter), books_hidden=books_hidden, at_opener=awaiting_opener(day)
        ),
        "table_states": table_states(day, event),
        "books_hidden": books_hidden,
        "pending": pending,
        "pending_more": more,
    }
