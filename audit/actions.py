"""What the audit trail records: one code per kind of action, with the name people read.

A refused attempt carries the code of what was attempted (a refused slip is a "slip" entry whose
outcome is "refused"), so the page filters by action and by outcome independently. A failed login
is a "login" entry, refused. Asking to see a page (GET or HEAD) attempts nothing but that: a
refused one is a "page" entry naming the page ("Page refused: People"), never the page's form.
"""

from django.utils.translation import gettext_lazy as _

DONE = "done"
REFUSED = "refused"
OUTCOMES = {DONE: _("Done"), REFUSED: _("Refused")}

# code: label. The order is the order of the page's action filter.
ACTIONS = {
    "login": _("Log in"),
    "logout": _("Log out"),
    "session_unlocked": _("Session unlocked"),
    "pin_set": _("Signing PIN"),
    "event_created": _("New event"),
    "supplier_registered": _("Registered supplier"),
    "person_added": _("Person added"),
    "person_declared": _("Declarations recorded"),
    "role_assigned": _("Role assigned"),
    "registration_changed": _("Registration"),
    "login_created": _("Login made"),
    "login_linked": _("Login given"),
    "setup_code_reissued": _("New setup code"),
    "login_set_up": _("Login set up"),
    "login_confirmed": _("Setup code confirmed"),
    "appointment_acknowledged": _("Role or login acknowledged"),
    "password_changed": _("Password changed"),
    "table_added": _("Table"),
    "wheel_layout_set": _("Wheel layout"),
    "game_settings_set": _("Game settings"),
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
    "slip_refused": _("Refused by the DRIC"),
    "slip_signed": _("Signature"),
    "fill_requested": _("Fill requested"),
    "fill_request_withdrawn": _("Fill request withdrawn"),
    "fill_request_declined": _("Fill request declined"),
    "slip_approved": _("Approval"),
    "batch_approved": _("Approvals confirmed together"),
    "slip_printed": _("Slip printed"),
    "slip_printed_for_reading": _("Slip printed for reading"),
    "paper_book_printed": _("Paper slips printed"),
    "paper_book_reprinted": _("Paper slips printed again"),
    "paper_written": _("Paper slips written during an outage"),
    "paper_slip_entered": _("Paper slip entered"),
    "paper_slip_void": _("Paper slip entered as void"),
    "paper_signature_confirmed": _("Signature on a paper slip confirmed"),
    "paper_slips_unused": _("Paper slips returned unused"),
    "paper_slips_missing": _("Paper slips missing"),
    "opener_signed_off": _("Opener signed off"),
    "close_prepared": _("Close prepared"),
    "close_signed": _("Close signed"),
    "close_withdrawn": _("Close prepared again"),
    "report_signed": _("Report signed"),
    "trust_account_set": _("Trust account named"),
    "bank_slip_entered": _("Bank deposit slip entered"),
    "bank_slip_checked": _("Bank deposit slip checked"),
    "cheque_entered": _("Cheque entered"),
    "purpose_added": _("Approved purpose added"),
    "purpose_corrected": _("Approved purpose corrected"),
    "disbursement_entered": _("Cheque for an approved purpose entered"),
    "report_due_set": _("Report's due date"),
    "report_filed": _("Report filed"),
    "exported": _("Export"),
    "page": _("Page view"),
    "csrf_refused": _("Form refused (CSRF check)"),
}

# A refusal names what was attempted by the page it came from: {URL name: action code}.
# A page not listed here is recorded as "page" (asking to see it).
VIEW_ACTIONS = {
    "login": "login",
    "logout": "logout",
    "events:unlock": "session_unlocked",
    "events:my_pin": "pin_set",
    "events:password_change": "password_changed",
    "events:login_setup": "login_set_up",
    "events:setup_code_new": "setup_code_reissued",
    "events:login_give": "login_created",
    "cage:opener_sign_off": "opener_signed_off",
    "events:create": "event_created",
    "events:supplier": "supplier_registered",
    "events:people": "person_added",
    "events:role_add": "role_assigned",
    "events:person_declarations": "person_declared",
    "events:registration_change": "registration_changed",
    "events:tables": "table_added",
    "events:wheel_layout": "wheel_layout_set",
    "events:games": "game_settings_set",
    "events:chips": "chip_added",
    "events:days": "day_added",
    "events:roster": "shift_added",
    "events:day_open": "day_opened",
    "cage:slip_new": "slip_recorded",
    "cage:slip_sign": "slip_signed",
    "cage:fill_request_ask": "fill_requested",
    "cage:fill_request_withdraw": "fill_request_withdrawn",
    "cage:fill_request_decline": "fill_request_declined",
    "cage:slip_print": "slip_printed",
    "cage:slip_print_printer": "slip_printed",
    "cage:paper_print": "paper_book_printed",
    "cage:paper_reprint": "paper_book_reprinted",
    "cage:paper_written": "paper_written",
    "cage:paper_enter": "paper_slip_entered",
    "cage:paper_void": "paper_slip_void",
    "cage:paper_close": "paper_slips_unused",
    "cage:paper_confirm": "paper_signature_confirmed",
    "cage:queue_approve": "slip_approved",
    "cage:queue_batch": "slip_approved",
    "cage:queue_void": "slip_voided",
    "cage:queue_refuse": "slip_refused",
    "cage:login_confirm": "login_confirmed",
    "cage:appointment_acknowledge": "appointment_acknowledged",
    "cage:day_reconcile": "day_reconciling",
    "cage:day_close": "day_closed",
    "cage:day_close_sign": "close_signed",
    "reports:event_sign": "report_signed",
    "reports:trust_account": "trust_account_set",
    "reports:bank_slip": "bank_slip_entered",
    "reports:bank_slip_check": "bank_slip_checked",
    "reports:cheque": "cheque_entered",
    "reports:purpose": "purpose_added",
    "reports:purpose_correct": "purpose_corrected",
    "reports:disbursement": "disbursement_entered",
    "reports:disbursement_correct": "disbursement_entered",
    "reports:report_due": "report_due_set",
    "reports:report_file": "report_filed",
}


# The pages one can ask to see, by URL name, as a "page" entry names them. tests/audit checks that
# every page that answers GET in events.permissions.MATRIX has its name here.
PAGE_NAMES = {
    "login": _("Log in"),
    "events:home": _("Events"),
    "events:landing": _("Start"),
    "events:my_pin": _("Signing PIN"),
    "events:unlock": _("Locked session"),
    "events:password_change": _("Password"),
    "events:login_setup": _("Set up your login"),
    "audit:logins": _("Logins and signing PINs"),
    "events:health": _("Health"),
    "events:trust": _("Trusting the cage's certificate"),
    "events:trust_ca": _("The cage's certificate authority"),
    "events:trust_ca_pem": _("The cage's certificate authority"),
    "events:create": _("New event"),
    "events:detail": _("Event"),
    "events:checklist": _("Before the first gaming day"),
    "events:supplier": _("Registered supplier"),
    "events:tables": _("Tables"),
    "events:chips": _("Chip set"),
    "events:games": _("Games and limits"),
    "events:wheel_layout": _("Wheel layout"),
    "events:poster": _("Table poster (PDF)"),
    "events:calculators": _("Dispute calculators"),
    "events:people": _("People"),
    "events:setup_code_new": _("Setup code"),
    "events:person_declarations": _("Declarations"),
    "events:days": _("Gaming days"),
    "events:roster": _("Roster"),
    "events:compliance": _("Compliance"),
    "cage:home": _("Cage"),
    "cage:home_panels": _("Cage (live panels)"),
    "cage:slip_new": _("New slip"),
    "cage:slip": _("Slip"),
    "cage:slip_pdf": _("Slip (PDF)"),
    "cage:queue": _("DRIC's queue"),
    "cage:queue_batch": _("Approve several slips"),
    "cage:day_close": _("Nightly close"),
    "cage:mine": _("My slips"),
    "cage:paper": _("Paper slips"),
    "cage:paper_pdf": _("Paper slips (PDF)"),
    "cage:paper_find": _("Paper slip to enter"),
    "cage:paper_enter": _("Paper slip entered"),
    "cage:inventory_pdf": _("Inventory (PDF)"),
    "cage:register": _("Register"),
    "cage:voids": _("Voids"),
    "reports:event": _("Report"),
    "reports:event_json": _("Report (JSON)"),
    "reports:event_csv": _("Report (CSV)"),
    "reports:event_xlsx": _("Report (XLSX)"),
    "reports:event_pdf": _("Report (PDF)"),
    "reports:day": _("Day's control sheets"),
    "reports:trust": _("Trust account and bank deposit slips"),
    "audit:event": _("Audit trail"),
}
SAFE_METHODS = ("GET", "HEAD")


def attempted(view_name: str | None, kwargs: dict, method: str = "POST") -> str:
    """The action a request attempted, from the page it was sent to and its method: asking to see
    a page is a page view, whatever the page's form does."""
    if method in SAFE_METHODS:
        return "page"
    if view_name == "cage:slip_new":
        kind = kwargs.get("slip_type")
        if kind == "count":
            return "count_recorded"
        if kind == "void":
            return "slip_voided"
    return VIEW_ACTIONS.get(view_name or "", "page")


def label(code: str) -> str:
    return str(ACTIONS.get(code, code))


def entry_label(code: str, outcome: str, params: dict | None) -> str:
    """An entry's action as the trail shows it, in the reader's language: a page view names its page."""
    if code == "page":
        page = PAGE_NAMES.get((params or {}).get("view") or "")
        if page is not None:
            if outcome == REFUSED:
                return str(_("Page refused: %(page)s") % {"page": page})
            return str(_("Page: %(page)s") % {"page": page})
    return label(code)
