"""Who may use each page of the product, and with which HTTP methods: the one declaration.

Every URL name of the product has one entry in MATRIX, one line each. The product reads it:

- `PagePermissionMiddleware` answers a method a page does not take with 405, and refuses a site
  page (no event in its URL) to a user the entry does not name (403);
- `events.access.event_access` takes from it the people who may read (GET, HEAD) and write (POST)
  an event's page, and refuses the others (403, with the refusal page that explains why);
- the navigation (`events.access.EVENT_PAGES`) and the buttons a page offers read the same sets.

tests/test_permission_matrix.py walks the URL resolver, fails on any page without an entry, then
requests every page with every method as anonymous, an outsider, the licensee's administrator and
each role, and checks every answer against this declaration.

Who is named: ANONYMOUS (not logged in), OUTSIDER (logged in, but no role on this event: another
event's people, or a person whose registration is not in good standing), STAFF (the licensee's
administrator, user.is_staff) and each Role on the event. What the others get:
- anonymous: the login page (a redirect), from Django's LoginRequiredMiddleware;
- a method the page does not take: 405, whoever asks;
- anyone the entry does not name for that method: 403.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import HttpResponseNotAllowed
from django.utils.translation import gettext_lazy as _

from core import trail

from .models import Role

ANONYMOUS, OUTSIDER, STAFF = "anonymous", "outsider", "staff"
WHO = (ANONYMOUS, OUTSIDER, STAFF, *Role.values)

# The roles, in the sets the rules give them.
SETUP = frozenset({Role.DRIC})
CAGE_WRITE = frozenset({Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER})
READ_ALL = CAGE_WRITE | {Role.AUDITOR}  # the auditor reads everything and changes nothing
ANY_ROLE = frozenset(Role.values)
SIGNERS = ANY_ROLE - {Role.AUDITOR}
FLOOR = frozenset({Role.RUNNER, Role.DEALER})

# The same with the licensee's administrator, who sets events up and reads them, but holds no
# custody and signs nothing: the cage's slips are written and signed by the event's people.
ON_EVENT = ANY_ROLE | {STAFF}
READERS = READ_ALL | {STAFF}
SETUP_BY = SETUP | {STAFF}
LOGGED_IN = ANY_ROLE | {OUTSIDER, STAFF}
EVERYONE = LOGGED_IN | {ANONYMOUS}
NOBODY = frozenset()
# The event's audit trail: the DRIC, who supervises the cage, and the auditor. Not the cashiers,
# runners or dealers: the trail watches them, their failed logins and refused attempts included.
AUDIT_READ = frozenset({Role.DRIC, Role.AUDITOR})

EVENT, SITE = "event", "site"
SAFE_METHODS = frozenset({"GET", "HEAD"})
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


@dataclass(frozen=True)
class Entry:
    methods: frozenset[str]  # what the page answers; HEAD goes with GET; any other method gets 405
    read: frozenset[str]  # who may GET and HEAD it
    write: frozenset[str]  # who may POST to it
    # EVENT: the user's standing on the URL's event decides; SITE: no event, so the user's login
    # does.
    scope: str = EVENT
    # Roles that reach only the slips that name them, that they signed or that wait for them.
    own_slips: frozenset[str] = NOBODY
    refusal: str = ""  # a site page's reason, on the refusal page

    def allowed(self, method: str) -> frozenset[str]:
        return self.read if method in SAFE_METHODS else self.write

    @property
    def allow_header(self) -> list[str]:
        return [m for m in METHODS if m in self.methods]


def page(methods: str, *, read=NOBODY, write=NOBODY, scope=EVENT, own_slips=NOBODY, refusal="") -> Entry:
    taken = set(methods.split())
    if "GET" in taken:
        taken.add("HEAD")
    unknown = taken - set(METHODS)
    if unknown:
        raise ValueError(f"unknown HTTP methods {sorted(unknown)}")
    if scope == SITE:
        # Outside an event nobody holds a role: a site page is for everyone logged in, or not.
        for people in (read, write):
            if set(people) & (ANY_ROLE | {OUTSIDER}) not in (set(), ANY_ROLE | {OUTSIDER}):
                raise ValueError("a site page names no roles: use EVERYONE, LOGGED_IN or {STAFF}")
    return Entry(frozenset(taken), frozenset(read), frozenset(write), scope, frozenset(own_slips), refusal)


# One line per URL name (a page with a variant per path value: "name[kwarg=value]").
MATRIX: dict[str, Entry] = {
    # --- the site, outside any event -------------------------------------------------------
    "login": page("GET POST", read=EVERYONE, write=EVERYONE, scope=SITE),
    "logout": page("POST", write=LOGGED_IN, scope=SITE),
    "events:home": page("GET", read=LOGGED_IN, scope=SITE),
    # Where a login lands: a redirect to the page the person's role works from (events.access.landing_url).
    "events:landing": page("GET", read=LOGGED_IN, scope=SITE),
    "events:my_pin": page("GET POST", read=LOGGED_IN, write=LOGGED_IN, scope=SITE),
    "events:password_change": page("GET POST", read=LOGGED_IN, write=LOGGED_IN, scope=SITE),
    # An idle session's lock page: its owner's signing PIN unlocks it (events.idle).
    "events:unlock": page("GET POST", read=LOGGED_IN, write=LOGGED_IN, scope=SITE),
    # A new login's owner sets it up with the code on their paper, before they can log in.
    "events:login_setup": page("GET POST", read=EVERYONE, write=EVERYONE, scope=SITE),
    # The English/French switch in every page's header, the login page's too.
    "events:set_language": page("POST", write=EVERYONE, scope=SITE),
    # The server's health, for monitoring, and the certificate authority a tablet must trust before
    # it can log in: both public, and neither says anything private.
    "events:health": page("GET", read=EVERYONE, scope=SITE),
    "events:trust_ca": page("GET", read=EVERYONE, scope=SITE),
    "events:trust_ca_pem": page("GET", read=EVERYONE, scope=SITE),
    "events:trust": page(
        "GET",
        read={STAFF},
        scope=SITE,
        refusal=_("Only the licensee's administrators set up the tablets' trust in the cage's certificate."),
    ),
    # Logins and failed logins tied to no event.
    "audit:logins": page(
        "GET",
        read={STAFF},
        scope=SITE,
        refusal=_("Only the licensee's administrators read the logins tied to no event."),
    ),
    "events:create": page(
        "GET POST",
        read={STAFF},
        write={STAFF},
        scope=SITE,
        refusal=_("Only the licensee's administrators create events."),
    ),
    # No Django admin site: every change goes through the product's pages and services, under
    # the lockout and on the audit trail (the admin's password forms and model edits went round both).
    # --- an event's setup (events/urls.py) -------------------------------------------------
    "events:detail": page("GET", read=ON_EVENT),
    # What the event still lacks before its first gaming day opens (events.readiness), for those who
    # set it up. Reads only: each line links to the page that fixes it.
    "events:checklist": page("GET", read=SETUP_BY),
    # The registered supplier's registration number (T&C 4.1): entered by the licensee's
    # administrator from the supplier's papers, as the licence's figures are.
    "events:supplier": page("GET POST", read=ON_EVENT, write={STAFF}),
    "events:tables": page("GET POST", read=ON_EVENT, write=SETUP_BY),
    "events:chips": page("GET POST", read=ON_EVENT, write=SETUP_BY),
    # The licence's figures no seed states (limits of baccarat and craps, a tie's payout): entered
    # by the licensee's administrator, who holds the licence; read by everyone on the event.
    "events:games": page("GET POST", read=ON_EVENT, write={STAFF}),
    # A wheel's segments and odds, set where its table is set up (Wheel of Fortune rules 2 to 5).
    "events:wheel_layout": page("GET POST", read=ON_EVENT, write=SETUP_BY),
    # The posted rules, limits and odds of a table (T&C 1.4.2, 1.4.3, 3.5): anyone on the event
    # may print one.
    "events:poster": page("GET", read=ON_EVENT),
    # The DRIC settles a dispute on the spot by the rules of play (T&C 1.7); the auditor and the
    # administrator may check how. Reads only: nothing is written.
    "events:calculators": page("GET", read={Role.DRIC, Role.AUDITOR, STAFF}),
    "events:people": page("GET POST", read=READERS, write=SETUP_BY),
    "events:role_add": page("POST", write=SETUP_BY),
    # Logins and their one-time setup codes: the licensee's administrator alone (events.services:
    # whoever holds a code could sign as its owner). POST makes a new code; GET shows it, once.
    "events:setup_code_new": page("GET POST", read={STAFF}, write={STAFF}),
    "events:login_give": page("POST", write={STAFF}),
    "events:registration_change": page("POST", write=SETUP_BY),
    "events:person_declarations": page("GET POST", read=SETUP_BY, write=SETUP_BY),
    "events:days": page("GET POST", read=ON_EVENT, write=SETUP_BY),
    "events:roster": page("GET POST", read=ON_EVENT, write=SETUP_BY),
    "events:day_open": page("POST", write=SETUP_BY),
    "events:compliance": page("GET", read=READERS),
    # --- the cage (cage/urls.py) -----------------------------------------------------------
    "cage:home": page("GET", read=READERS),
    "cage:home_panels": page("GET", read=READERS),
    "cage:slip_new": page("GET POST", read=CAGE_WRITE, write=CAGE_WRITE),
    # Runners record their own sales on the floor (T&C 3.4.2).
    "cage:slip_new[slip_type=sale]": page(
        "GET POST", read=CAGE_WRITE | {Role.RUNNER}, write=CAGE_WRITE | {Role.RUNNER}
    ),
    "cage:slip": page("GET", read=READERS | FLOOR, own_slips=FLOOR),
    "cage:slip_pdf": page("GET", read=READERS | FLOOR, own_slips=FLOOR),
    "cage:slip_print": page("POST", write=ON_EVENT, own_slips=FLOOR),
    # The terminal's paper and receipt printer (kept in its browser), and a slip sent to that
    # printer: whoever may print the slip (cage.views_print).
    "cage:slip_print_terminal": page("POST", write=ON_EVENT, own_slips=FLOOR),
    "cage:slip_print_printer": page("POST", write=ON_EVENT, own_slips=FLOOR),
    "cage:slip_sign": page("POST", write=SIGNERS, own_slips=FLOOR),
    "cage:queue": page("GET", read=READERS),
    "cage:queue_approve": page("POST", write={Role.DRIC}),
    # Several at once: the confirmation page (a GET, writing nothing) and her confirmation.
    "cage:queue_batch": page("GET POST", read={Role.DRIC}, write={Role.DRIC}),
    "cage:queue_void": page("POST", write={Role.DRIC}),
    "cage:queue_refuse": page("POST", write={Role.DRIC}),
    # Four eyes: a second designated person confirms a login's setup code, or acknowledges a role or
    # login given during the day (events.services.login_confirm, appointment_acknowledge).
    "cage:login_confirm": page("POST", write=CAGE_WRITE),
    "cage:appointment_acknowledge": page("POST", write=CAGE_WRITE),
    # An opener that differs from its table's last closer (DESIGN: gaming day; T&C 2).
    "cage:opener_sign_off": page("POST", write={Role.DRIC}),
    "cage:day_close": page("GET POST", read=READERS, write=CAGE_WRITE),
    # The close's later signatures, each from its signer's own session (DESIGN: slips and signatures).
    "cage:day_close_sign": page("POST", write=CAGE_WRITE),
    "cage:day_reconcile": page("POST", write=CAGE_WRITE),
    "cage:mine": page("GET", read=ON_EVENT),
    # A dealer asks for a fill of her table from her tablet, or withdraws her request; the Chip
    # Cashier declines one at the cage home (making it into a fill is the fill form's, cage:slip_new).
    "cage:fill_request_ask": page("POST", write={Role.DEALER}),
    "cage:fill_request_withdraw": page("POST", write={Role.DEALER}),
    "cage:fill_request_decline": page("POST", write={Role.CHIP_CASHIER}),
    # Books of blank paper slips for when the system is down (cage.services.paper): printed by the
    # Chip Cashier, who holds them, the DRIC or the licensee's administrator; read by the readers.
    # A book's PDF is a GET of a printing already recorded: opening it writes nothing.
    "cage:paper": page("GET", read=READERS),
    "cage:paper_print": page("POST", write={Role.CHIP_CASHIER, Role.DRIC, STAFF}),
    "cage:paper_reprint": page("POST", write={Role.CHIP_CASHIER, Role.DRIC, STAFF}),
    "cage:paper_pdf": page("GET", read=READERS),
    # Where every chip and dollar is, on paper, at this moment: for the team's sheet when the screen
    # goes dark (printed at each shift change, README).
    "cage:inventory_pdf": page("GET", read=READERS),
    # After an outage the Chip Cashier, who holds the books, and the DRIC say what was written and
    # return the blank slips (the DRIC alone records one missing); the cage's three designated
    # persons enter the paper slips, or enter them as void (cage.services.paper). Finding a serial
    # writes nothing.
    "cage:paper_find": page("GET", read=CAGE_WRITE),
    "cage:paper_written": page("POST", write={Role.CHIP_CASHIER, Role.DRIC}),
    "cage:paper_enter": page("GET POST", read=CAGE_WRITE, write=CAGE_WRITE),
    "cage:paper_void": page("POST", write=CAGE_WRITE),
    "cage:paper_close": page("POST", write={Role.CHIP_CASHIER, Role.DRIC}),
    # A signer's word that the paper bears their signature, from their session or by PIN at the window.
    "cage:paper_confirm": page("POST", write=SIGNERS),
    "cage:register": page("GET", read=READERS),
    "cage:voids": page("GET", read=READERS),
    # --- the event's figures (reports/urls.py) ---------------------------------------------
    "reports:event": page("GET", read=READERS),
    "reports:event_json": page("GET", read=READERS),
    "reports:event_csv": page("GET", read=READERS),
    "reports:event_xlsx": page("GET", read=READERS),  # the CSV's twin, as a workbook
    "reports:event_pdf": page("GET", read=READERS),
    "reports:event_sign": page("POST", write=CAGE_WRITE),  # the three designated persons (T&C 2.7)
    # The trust account and the bank's deposit slips (cage.services.bank_slips): the General Cashier enters a
    # deposit's bank slip, the DRIC checks it; the DRIC or the administrator names the account.
    "reports:trust": page("GET", read=READERS),
    "reports:trust_account": page("POST", write=SETUP_BY),
    "reports:bank_slip": page("POST", write={Role.GENERAL_CASHIER}),
    "reports:bank_slip_check": page("POST", write={Role.DRIC}),
    "reports:cheque": page("POST", write={Role.GENERAL_CASHIER}),  # the cheque that pays an expense
    "reports:purpose": page("POST", write=SETUP_BY),  # a charitable purpose the licence approved
    "reports:purpose_correct": page("POST", write=SETUP_BY),  # to the licence's words
    "reports:disbursement": page("POST", write={Role.GENERAL_CASHIER}),  # a cheque for an approved purpose
    "reports:disbursement_correct": page("POST", write={Role.GENERAL_CASHIER}),
    # The report's filing (reports.filing): its due date set by the DRIC or the administrator; its
    # filing recorded by one of the three designated persons.
    "reports:report_due": page("POST", write=SETUP_BY),
    "reports:report_file": page("POST", write=CAGE_WRITE),
    "reports:day": page("GET", read=READERS),
    # --- the audit trail (reports/audit_trail/urls.py) -----------------------------------------------------
    "audit:event": page("GET", read=AUDIT_READ | {STAFF}),
}


def entry_for(view_name: str | None, kwargs: dict | None = None) -> Entry | None:
    """The declaration of a resolved page: its variant for a path value, its own, its namespace's."""
    if not view_name:
        return None
    for key, value in (kwargs or {}).items():
        variant = MATRIX.get(f"{view_name}[{key}={value}]")
        if variant is not None:
            return variant
    if view_name in MATRIX:
        return MATRIX[view_name]
    namespace = view_name.rpartition(":")[0]
    return MATRIX.get(f"{namespace}:*") if namespace else None


def declared(request) -> Entry | None:
    match = getattr(request, "resolver_match", None)
    return entry_for(match.view_name, match.kwargs) if match is not None else None


def site_standing(user) -> set[str]:
    """Who a user is on a page outside any event."""
    if not user.is_authenticated:
        return {ANONYMOUS}
    return {STAFF, OUTSIDER} if user.is_staff else {OUTSIDER}


class PagePermissionMiddleware:
    """Holds every declared page to its entry's methods (405), and a site page to its
    people (403).

    It comes after LoginRequiredMiddleware, so that anyone not logged in is sent to the login page
    first, whatever the method. An event's page is refused by events.access.event_access, which
    knows the user's roles on the event the page shows.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        entry = declared(request)
        if entry is None:
            return None
        if request.method not in entry.methods:
            return HttpResponseNotAllowed(entry.allow_header)
        if entry.scope == SITE and not site_standing(request.user) & entry.allowed(request.method):
            refusal = PermissionDenied(str(entry.refusal or _("You may not open this page.")))
            # Raised here, not in a view, so the audit middleware's process_exception never sees it:
            # written on the trail through its port (core.trail), as the audit app registered it.
            trail.permission_refused(request, refusal)
            raise refusal
        return None
