"""The address of each row of a long list, reversed once per list instead of once per row.

The window's lists (the cage home's slips and its pending panel, the DRIC's queue) give each row up
to four addresses of the same routes, the event's slug and the row's id: `{% url %}` resolved each
one afresh, some hundred a page on every refresh (issue 25). A route is reversed once here, with a
stand-in id, and each row's address is that text with its own id in place of the stand-in: what
`reverse()` gives for it, which the tests check."""

from django.urls import reverse

# A row id no event reaches; found from the right, after the slug, whatever digits the slug holds.
_STAND_IN = "7302517113"


class RowAddress:
    """`RowAddress("cage:slip", slug)(pk)` is `reverse("cage:slip", args=[slug, pk])`."""

    def __init__(self, name: str, slug: str):
        self._head, self._tail = reverse(name, args=[slug, int(_STAND_IN)]).rsplit(_STAND_IN, 1)

    def __call__(self, pk: int) -> str:
        return f"{self._head}{int(pk)}{self._tail}"


def row_addresses(slug: str, **names: str) -> dict[str, RowAddress]:
    """{key: RowAddress} of the routes `names` ({key: route name}) for the event `slug`."""
    return {key: RowAddress(name, slug) for key, name in names.items()}
