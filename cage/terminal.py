"""What a terminal prints slips on: letter paper or an 80 mm receipt, and the receipt printer on the
cage's network it may send a slip to.

A terminal is a browser (the cage's laptop, a runner's tablet), not a login: whoever works at it
prints on the paper it has. Its choice is kept in two cookies of that browser, for as long as a
browser keeps a cookie (400 days in Chromium; every print renews them), and read by every print
from it. A printer is chosen among those the site declares (settings.RECEIPT_PRINTERS), by name:
the cookie holds a name, never an address, and a name the site no longer declares is no choice.
"""

import datetime

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from events.form_input import CheckedInput

LETTER, RECEIPT = "letter", "receipt"
LAYOUTS = {LETTER: _("Letter"), RECEIPT: _("Receipt (80 mm)")}
# What the slip's page says once the choice is made, a sentence each so that each translates whole.
LAYOUT_CHOSEN = {
    LETTER: _("This terminal prints slips on letter paper."),
    RECEIPT: _("This terminal prints slips on 80 mm receipts."),
}
LAYOUT_COOKIE = "cage_slip_layout"
PRINTER_COOKIE = "cage_receipt_printer"
# The longest a browser keeps a cookie (Chromium caps any longer one at 400 days).
KEPT = datetime.timedelta(days=400)


def printers() -> dict[str, tuple[str, int]]:
    """The receipt printers the site declares: {name: (host, port)}."""
    return settings.RECEIPT_PRINTERS


def layout_of(request) -> str:
    """The terminal's layout: letter unless it chose the receipt."""
    chosen = request.COOKIES.get(LAYOUT_COOKIE)
    return chosen if chosen in LAYOUTS else LETTER


def printer_of(request) -> str:
    """The name of the terminal's receipt printer, or "" for none (or one the site no longer declares)."""
    chosen = request.COOKIES.get(PRINTER_COOKIE, "")
    return chosen if chosen in printers() else ""


def remember(response, *, layout: str, printer: str) -> None:
    """Keep the terminal's choice in its browser (and renew it): a printer of "" forgets the printer."""
    kept = {"max_age": KEPT, "secure": settings.SESSION_COOKIE_SECURE, "httponly": True, "samesite": "Lax"}
    response.set_cookie(LAYOUT_COOKIE, layout, **kept)
    if printer:
        response.set_cookie(PRINTER_COOKIE, printer, **kept)
    else:
        response.delete_cookie(PRINTER_COOKIE, samesite="Lax")


def renew(request, response) -> None:
    """A print renews the terminal's choice, so that a terminal in use never loses it."""
    if LAYOUT_COOKIE in request.COOKIES or printer_of(request):
        remember(response, layout=layout_of(request), printer=printer_of(request))


class TerminalForm(CheckedInput, forms.Form):
    """The terminal's choice, on the slip's page (templates/cage/_slip_print.html)."""

    layout = forms.ChoiceField(label=_("Print slips on"), choices=list(LAYOUTS.items()), widget=forms.RadioSelect)
    printer = forms.ChoiceField(label=_("Receipt printer"), required=False, choices=())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["printer"].choices = [("", _("None: print from the browser")), *((n, n) for n in printers())]


def form_for(request) -> TerminalForm:
    return TerminalForm(initial={"layout": layout_of(request), "printer": printer_of(request)})
