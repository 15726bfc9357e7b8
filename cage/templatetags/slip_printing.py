"""{% print_terminal as terminal %}: what the terminal (this browser) prints slips on, for the print
controls of a slip's page (templates/cage/_slip_print.html; cage.terminal keeps the choice)."""

from django import template

from cage import terminal as terminals

register = template.Library()


@register.simple_tag(takes_context=True)
def print_terminal(context) -> dict:
    request = context["request"]
    return {
        "layout": terminals.layout_of(request),
        "printer": terminals.printer_of(request),
        "printers": bool(terminals.printers()),
        "form": terminals.form_for(request),
    }
