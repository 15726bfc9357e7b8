"""What the audit trail records: one code per kind of action, with the name people read.

A refused attempt carries the code of what was attempted (a refused slip is a "slip" entry whose
outcome is "refused"), so the page filters by action and by outcome independently. A failed login
is a "login" entry, refused.
"""

from django.utils.translation import gettext_lazy as _

DONE = "done"
REFUSED = "refused"
OUTCOMES = {DONE: _("Done"), REFUSED: _("Refused")}

# code: label. The order is the order of the page's action filter.
ACTIONS = {
    "login": _("Log in"),
    "logout": _("Log out"),
    "pin_set": _("Signing PIN"),
    "event_created": _("New event"),
    "person_added": _("Person added"),
    "role_assigned": _("Role assigned"),
    "registration_changed": _("Registration"),
    "login_created": _("Login made"),
    "login_linked": _("Login given"),
    "setup_code_reissued": _("New setup code"),
    "login_set_up": _("Login set up"),
    "password_changed": _("Password changed"),
    "table_added": _("Table"),
    "chip_added": _("Chip set"),
    "day_added": _("Gaming day added"),
    "shift_added": _("Roster"),
    "day_opened": _("Day opened"),
    "day_reconciling": _("Floor closed"),
    "day_closed": _("Day closed"),
    "slip_recorded": _("Slip"),
    "count_recorded": _("Count"),
    "count_shown": _("Count set beside the books"),
    "slip_voided": _("Void"),
    "slip_signed": _("Signature"),
    "slip_approved": _("Approval"),
    "slip_printed": _("Slip printed"),
    "opener_signed_off": _("Opener signed off"),
    "report_signed": _("Report signed"),
    "exported": _("Export"),
    "page": _("Page"),
}

# A refusal names what was attempted by the page it came from: {URL name: action code}.
# A page not listed here is recorded as "page" (asking to see it).
VIEW_ACTIONS = {
    "login": "login",
    "logout": "logout",
    "events:my_pin": "pin_set",
    "events:password_change": "password_changed",
    "events:login_setup": "login_set_up",
    "events:setup_code_new": "setup_code_reissued",
    "cage:opener_sign_off": "opener_signed_off",
    "events:create": "event_created",
    "events:people": "person_added",
    "events:role_add": "role_assigned",
    "events:registration_change": "registration_changed",
    "events:tables": "table_added",
    "events:chips": "chip_added",
    "events:days": "day_added",
    "events:roster": "shift_added",
    "events:day_open": "day_opened",
    "cage:slip_new": "slip_recorded",
    "cage:slip_sign": "slip_signed",
    "cage:slip_print": "slip_printed",
    "cage:queue_approve": "slip_approved",
    "cage:queue_void": "slip_voided",
    "cage:day_reconcile": "day_reconciling",
    "cage:day_close": "day_closed",
    "reports:event_sign": "report_signed",
}


def attempted(view_name: str | None, kwargs: dict) -> str:
    """The action a request attempted, from the page it was sent to."""
    if view_name == "cage:slip_new":
        kind = kwargs.get("slip_type")
        if kind == "count":
            return "count_recorded"
        if kind == "void":
            return "slip_voided"
    return VIEW_ACTIONS.get(view_name or "", "page")


def label(code: str) -> str:
    return str(ACTIONS.get(code, code))
