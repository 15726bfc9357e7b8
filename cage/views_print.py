"""Printing a slip at the cage: the terminal's paper (letter or an 80 mm receipt) and its receipt
printer (cage.terminal), the slip's PDF in either layout, and a slip sent straight to a receipt
printer on the cage's network (cage.receipt_printer).

A print is on the audit trail the same way whichever way it is printed (services.slip_printed):
the cage's first copy is the original, every later one says REPRINT, and a reader's is a copy for
reading. Nothing else changes.
"""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from cage import services, terminal
from cage.models import SlipPrint
from cage.selectors.slip_sheet import slip_sheet
from cage.views import _form_refused, _slip_for, query_id
from events.access import event_access


def slip_url(request, slug: str, slip) -> str:
    """The slip's page, as an address a tablet's camera can open from the QR code on its paper."""
    return request.build_absolute_uri(reverse("cage:slip", args=[slug, slip.pk]))


def render_pdf(sheet: dict, layout: str) -> bytes:
    """The slip's PDF in the terminal's layout."""
    # ReportLab is imported here, not at start-up: every manage.py command would pay for it.
    if layout == terminal.RECEIPT:
        from cage.receipt import render_receipt_pdf

        return render_receipt_pdf(sheet)
    from cage.slip_pdf import render_slip_pdf

    return render_slip_pdf(sheet)


def slip_pdf(request, slug, pk):
    """The printable slip. A copy the cage prints after its first is stamped REPRINT; printing is a
    POST (slip_print), so that opening the PDF to look at it writes nothing. Whoever only reads the
    slip (Access.prints_original) gets a copy for reading, stamped so on every page, whether they
    printed it or only opened it: nothing they hold can pass for the original.

    Laid out on the terminal's paper, letter or an 80 mm receipt (cage.terminal), with a QR code of the
    slip's page on either."""
    access = event_access(request, slug)
    slip = _slip_for(access, pk)
    copy = query_id(request, "copy")
    for_reading = not access.prints_original
    earlier = SlipPrint.objects.filter(slip=slip, for_reading=False)
    if copy is not None:
        for_reading = for_reading or SlipPrint.objects.filter(slip=slip, pk=copy, for_reading=True).exists()
        earlier = earlier.filter(pk__lt=copy)
    sheet = slip_sheet(slip, reprint=not for_reading and earlier.exists(), for_reading=for_reading)
    layout = terminal.layout_of(request)
    pdf = render_pdf(sheet | {"url": slip_url(request, slug, slip)}, layout)
    response = HttpResponse(pdf, content_type="application/pdf")
    name = slugify(slip.number) + ("-receipt" if layout == terminal.RECEIPT else "")
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


def print_terminal(request, slug, pk):
    """The terminal's choice of paper and receipt printer, kept in its browser; back to the slip."""
    access = event_access(request, slug)
    slip = _slip_for(access, pk)
    back = redirect("cage:slip", slug, slip.pk)
    form = terminal.TerminalForm(request.POST)
    if not form.is_valid():
        _form_refused(request, form)
        return back
    layout, printer = form.cleaned_data["layout"], form.cleaned_data["printer"]
    terminal.remember(back, layout=layout, printer=printer)
    said = str(terminal.LAYOUT_CHOSEN[layout])
    if printer:
        said += " " + _("Its receipt printer is %(printer)s.") % {"printer": printer}
    messages.success(request, said)
    return back


def print_on_printer(request, slug, pk):
    """The slip sent to the terminal's receipt printer. A printer that does not answer is said so,
    and nothing is recorded: nothing was printed."""
    # python-escpos (and ReportLab, for the receipt's words) only when a slip is sent to a printer.
    from cage.receipt_printer import PrinterDidNotAnswer, receipt_bytes, send

    access = event_access(request, slug)
    slip = _slip_for(access, pk)
    back = redirect("cage:slip", slug, slip.pk)
    name = request.POST.get("printer", "")
    if name not in terminal.printers():
        messages.error(
            request,
            _(
                "No receipt printer of that name is declared for this site: choose one for this terminal "
                "under “Print slips on”, or print the slip from the browser."
            ),
        )
        return back
    # The same stamps as the browser's print: a reader's copy is for reading; the cage's is REPRINT
    # once any copy of the cage's was printed before it.
    for_reading = not access.prints_original
    reprint = not for_reading and SlipPrint.objects.filter(slip=slip, for_reading=False).exists()
    sheet = slip_sheet(slip, reprint=reprint, for_reading=for_reading) | {"url": slip_url(request, slug, slip)}
    try:
        send(name, receipt_bytes(sheet))
    except PrinterDidNotAnswer as exc:
        messages.error(
            request,
            _("The printer %(name)s did not answer at %(address)s; print the slip from the browser instead.")
            % {"name": exc.name, "address": exc.address},
        )
        return back
    services.slip_printed(slip=slip, user=request.user, for_reading=for_reading, printer=name)
    messages.success(request, _("%(slip)s printed on %(printer)s.") % {"slip": slip.number, "printer": name})
    terminal.renew(request, back)
    return back
