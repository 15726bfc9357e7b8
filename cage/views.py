"""The cage window: the day's balances and slips, one form per slip type, the nightly close."""

import re
import uuid

from django import forms
from django.conf import settings
from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.utils.translation import gettext_noop as N_
from django.views.decorators.cache import never_cache

from cage import day_sheets, services, terminal
from cage.forms import SignForm, SlipForm
from cage.models import Account, PaperDraft, Signature, Slip, SlipPrint
from cage.selectors import people
from cage.selectors.amounts import amount_of
from cage.selectors.cage_state import cage_state
from cage.selectors.close import CLOSABLE, close_checklist, close_progress
from cage.selectors.counts import blind_places, counts_places, nothing_to_count
from cage.selectors.fill_requests import Asked, open_requests, request_of
from cage.selectors.four_eyes import given_to_acknowledge, is_designated, logins_to_confirm, waiting_count
from cage.selectors.offered import kinds_offered, tables_for
from cage.selectors.openers import check_text, closer_check_of, waiting_sign_off
from cage.selectors.paper import unconfirmed_signatures
from cage.selectors.paper import waiting_count as paper_waiting
from cage.selectors.people import current_day
from cage.selectors.queue_batch import confirmation
from cage.selectors.slip_rows import slips_read
from cage.selectors.slip_sheet import slip_sheet
from cage.selectors.slips import (
    State,
    can_sign,
    overdue_after,
    pending_count,
    pending_slips,
    search_amount,
    search_text,
    slip_search,
    slip_state,
    slip_subject,
    slips_of_amount,
    states_of,
    still_to_sign,
)
from cage.services.batch import chosen as batch_chosen
from cage.services.ledger import DuplicateRequest
from cage.services.signing import REFUSE_RULE
from cage.slip_types import (
    CLOSERS,
    DAY_CLOSE_KIND,
    ISSUES,
    SLIP_KINDS,
    TABLE_COUNTS,
    VOID_KIND,
    VOIDABLE,
    day_states,
)
from core import local
from core.addresses import RowAddress, row_addresses
from core.compiled import Compiled
from core.money import dollars
from core.rules import RuleViolation, Words, listed
from events import services as event_services
from events.access import READ_ALL, RoleRefused, event_access
from events.form_input import CheckedInput
from events.models import Appointment, GameTable, GamingDay
from events.not_found import NotThere
from events.selectors import chip_values


class QueueVoidForm(CheckedInput, forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500)
    request_key = forms.CharField(widget=forms.HiddenInput, max_length=40, initial=lambda: uuid.uuid4().hex)


# The home lists the latest slips of the day, not all of them: a busy gaming day holds thousands
# (5,000 in the season-sized bench, a 1.1 MB page), and what the cashier at the window looks for is
# what was just written. 50 is more than a busy table section writes in an hour and still one short
# page; every slip of the day is one link away (the register, filtered to the day) and "Find a slip"
# searches them all on the server.
HOME_SLIPS = 50


# How many slips the day has, and how many closers: compiled once (core.compiled), as the cage home
# asks on every page.
_TALLY = Compiled(
    lambda day_id: (
        Slip.objects.filter(day_id=day_id)
        .values("day_id")
        .annotate(total=Count("id"), closers=Count("id", filter=Q(slip_type__in=CLOSERS)))
        .values_list("total", "closers")
    )
)


def home(request, slug):
    access = event_access(request, slug)
    event = access.event
    day = current_day(event)
    # "Find a slip": a GET query; empty, or nothing but spaces and invisible characters, is no search.
    query = search_text(request.GET.get("q", ""))
    day_slips = Slip.objects.filter(day=day) if day else Slip.objects.none()
    # One query for what the page says of the whole day: how many slips, and whether any table has
    # closed (the floor closes only after that); counted in the database, never fetched.
    total, closers = next(iter(_TALLY.rows(day.pk)), (0, 0)) if day else (0, 0)
    panels = _live_panels(access, day)
    values = chip_values(event)
    search = slip_search(query)
    # A sum finds the slips of that amount too, as the Amount column shows it; not while the bank
    # is counted blind, when that column is empty (each slip's own page still shows its amount).
    cents = None if panels["books_hidden"] or not day else search_amount(query)
    if cents:
        search |= Q(pk__in=slips_of_amount(day_slips, cents, values))
    listed = day_slips.filter(search) if query else day_slips
    matches = listed.count() if query else total
    # Which slips the list shows is the ORM's question (the search); their rows are read as SQL of
    # their own (cage.selectors.slip_rows).
    chosen = listed.order_by("-id").values_list("pk")[:HOME_SLIPS]
    # Most of the slips waiting (the panel's latest) are among the latest of the day: read once.
    waiting = {item.slip.pk: item.slip for item in panels["pending"]}
    slips = slips_read(chosen, order=lambda s: s.pk, reverse=True, known=waiting) if day else []
    states = states_of(slips, day=day)
    to_slip = RowAddress("cage:slip", event.slug)  # reversed once for every row (core.addresses)
    for slip in slips:
        slip.address = to_slip(slip.pk)
        slip.state, slip.state_label = states[slip.pk], State.LABELS[states[slip.pk]]
        slip.subject = slip_subject(slip)
        # Who signed it, for the quick filter as the server's search finds them (slip_search).
        slip.signers = " · ".join(sig.person.name for sig in slip.signatures.all())
        amount = amount_of(slip, values, slip.cash_moved)
        # While the bank is counted blind the day's amounts, added up, would give its books away:
        # each slip's own page still shows its amount, as it must to be signed or voided.
        slip.dollars = "" if amount is None or panels["books_hidden"] else dollars(amount)
    problems = _close_problems(day, panels)
    return render(
        request,
        "cage/home.html",
        {
            "access": access,
            "event": event,
            "day": day,
            "slips": slips,
            "day_total": total,
            "query": query,
            "matches": matches,
            # Only what the day's state and the tables allow: no opener, fill or sale once the
            # floor has closed (the services refuse them; no link offers them).
            "entry_kinds": kinds_offered(day),
            "closable": day is not None and day.status in CLOSABLE and not problems and total > 0,
            # The floor closes once it has opened and every table has closed again.
            "floor_can_close": day is not None
            and day.status == GamingDay.Status.OPEN
            and closers > 0
            and not any(state.is_open for state in panels["table_states"]),
            "problems": problems,
            # A close prepared and waiting for the Chip Cashier's or the DRIC's signature.
            "close_progress": close_waiting(day),
            # The places still counted blind (their figures and the inventory's total hidden): while
            # any is left the page says their counts are awaited, never that the day is ready.
            "awaited": [str(r.label) for r in panels["inventory"].rows if r.hidden],
            # "the tip pool counted" only where there was something in it to count
            "tip_pool_counted": day is not None and not nothing_to_count(day, Account.Kind.TIP_POOL),
            "refresh_seconds": getattr(settings, "CAGE_REFRESH_SECONDS", 20),
            # Four eyes (T&C 2): what waits for a second designated person, for those who give it.
            "four_eyes_waiting": waiting_count(event) if access.may("cage:queue") else 0,
            **_paper_notices(day),
            **panels,
        },
    )


def _live_panels(access, day) -> dict:
    """What the home's live panels show (cage_state), bounded whatever the number of slips waiting
    (CAGE_HOME_PANEL_ROWS: the latest, and how many more), with the Sign buttons and the dealers'
    fill requests; the home page and its refresh alike."""
    panels = cage_state(access.event, day, counter=counts_places(access.roles), latest=settings.CAGE_HOME_PANEL_ROWS)
    _sign_buttons(access, panels["pending"])
    return {**panels, "access": access, **_fill_requests(access, day)}


def _close_problems(day, panels: dict) -> list[str]:
    """What stands in the way of the close, naming the waiting slips the pending panel lists (the
    latest CAGE_HOME_PANEL_ROWS) and how many more."""
    if day is None or day.status not in CLOSABLE:
        return []
    waiting = (panels["pending"], panels["pending_more"])
    still_open = [state.table.code for state in panels["table_states"] if state.is_open]
    if day.status == GamingDay.Status.OPEN and still_open:
        return services.floor_problems(day, still_open, waiting)
    return services.close_problems(day, waiting=waiting)


def _sign_buttons(access, pending) -> None:
    """Each waiting slip of the home's panel with the capacities the reader may sign now
    (`item.caps`): the same as the Sign buttons of their own page and of the DRIC's queue; and its
    addresses (core.addresses), its own and its signing's, and the home's to come back to."""
    to = row_addresses(access.event.slug, slip="cage:slip", sign="cage:slip_sign")
    home = reverse("cage:home", args=[access.event.slug])
    for item in pending:
        item.caps = can_sign(access.person, item, access.roles)
        item.addresses = {"slip": to["slip"](item.slip.pk), "sign": to["sign"](item.slip.pk), "home": home}


def _fill_requests(access, day) -> dict:
    """The dealers' fill requests still open, the latest first, for the Chip Cashier to make into
    fills (cage.services.fill_requests); bounded as the other panels are."""
    rows, more = open_requests(day, latest=settings.CAGE_HOME_PANEL_ROWS)
    return {"fill_requests": rows, "fill_requests_more": more}


def _paper_notices(day) -> dict:
    """The paper slips of an outage still to enter (they come first), and those refused when their
    turn came; no query beyond one on a day that used no paper."""
    waiting = paper_waiting(day)
    refused = PaperDraft.objects.filter(day=day).exclude(refusal="").count() if waiting else 0
    return {"paper_waiting": waiting, "paper_refused": refused}


@never_cache
def home_panels(request, slug):
    """The home page's inventory and tables panels alone, for the page to swap in every few
    seconds; the same readers as the home page."""
    access = event_access(request, slug)
    context = _live_panels(access, current_day(access.event))
    html = "".join(
        render_to_string(f"cage/{name}.html", context, request)
        for name in ("_pending", "_fill_requests", "_inventory", "_tables")
    )
    return HttpResponse(html)


def query_id(request, name: str) -> int | None:
    """A row id from the query string ("?table=4"), or None for anything else: "²" and "٣" are
    digits to Python's isdigit() but not to int(), and an id longer than a database's integer
    fails the query rather than finding nothing."""
    value = request.GET.get(name, "")
    return int(value) if re.fullmatch(r"[0-9]{1,18}", value) else None


def _slip_response(request, slug, slip, message):
    messages.success(request, message)
    return redirect("cage:slip", slug, slip.pk)


# Compiled once (core.compiled): asked after every slip recorded at the window, and of every form
# posted (its one-time key).
_CAPACITIES_SIGNED = Compiled(lambda slip_id: Signature.objects.filter(slip_id=slip_id).values_list("capacity"))
_RECORDED_BY = Compiled(
    lambda event_id, key, user_id: Slip.objects.filter(
        event_id=event_id, request_key=key, created_by_id=user_id
    ).order_by("id"),
    texts=("key",),
)


def _recorded_message(slip) -> str:
    """What the cashier is told once a slip is written: its number, and who still signs."""
    kind = SLIP_KINDS[slip.slip_type]
    signed = {capacity for (capacity,) in _CAPACITIES_SIGNED.rows(slip.pk)}
    state = slip_state(slip, signed, voided=False)
    if state == State.IN_TRANSIT:
        waiting = [c for c in kind.capacities if c.code not in signed and not c.witness]
        said = {
            "slip": slip.number,
            "who": " / ".join(c.roles_in_a_sentence() for c in waiting),
            "capacity": ", ".join(str(c.label).lower() for c in waiting),
        }
        witnesses = [c for c in kind.capacities if c.code not in signed and c.witness]
        if not witnesses:
            return (
                _("%(slip)s recorded. In transit: when the chips arrive, the %(who)s signs it as “%(capacity)s”.")
                % said
            )
        # The DRIC's witness may come before the chips arrive or after: said too, so that the
        # cashier does not take the table's signature for the last one.
        return _(
            "%(slip)s recorded. In transit: when the chips arrive, the %(who)s signs it as “%(capacity)s”; the "
            "%(witness)s signs it as “%(witness_capacity)s” from the queue."
        ) % {
            **said,
            "witness": " / ".join(c.roles_in_a_sentence() for c in witnesses),
            "witness_capacity": ", ".join(str(c.label).lower() for c in witnesses),
        }
    if state == State.WAITING and slip.slip_type == VOID_KIND.type:
        waiting = [c for c in kind.capacities if c.code not in signed]
        return _(
            "%(void)s recorded: a void of %(slip)s is asked for. Nothing moves before it is signed; still to sign: %(who)s."
        ) % {
            "void": slip.number,
            "slip": slip.voids.number,
            "who": ", ".join(f"{str(c.label).lower()} ({c.roles_label()})" for c in waiting),
        }
    if state == State.WAITING:
        waiting = [c for c in kind.capacities if c.code not in signed]
        # Each signature still missing by its capacity and who may give it: “authorized by” (DRIC).
        return _("%(slip)s recorded. Still to sign: %(who)s.") % {
            "slip": slip.number,
            "who": ", ".join(
                _("“%(capacity)s” (%(roles)s)") % {"capacity": str(c.label).lower(), "roles": c.roles_label()}
                for c in waiting
            ),
        }
    return _("%(slip)s recorded.") % {"slip": slip.number}


def _last_count(day, table_id) -> dict:
    """The chips of the table's last opener or closer: what its closer starts from."""
    last = Slip.objects.filter(event=day.event, table_id=table_id, slip_type__in=TABLE_COUNTS).order_by("-id").first()
    if last is None:
        # A table never counted: its tray holds what was issued to it.
        last = Slip.objects.filter(event=day.event, table_id=table_id, slip_type__in=ISSUES).last()
    return (last.details or {}).get("chips", {}) if last else {}


def _window_closed(request, access, day, kind):
    """Why no slip of `kind` is written now, said before anything is typed as the services would
    say it after, and the page to go to instead; None when the window is open for it."""
    slug = access.event.slug
    if day is None or day.status in (GamingDay.Status.SETUP, GamingDay.Status.CLOSED):
        messages.error(request, _("No gaming day is open; slips are written in an open gaming day."))
        return redirect("cage:home", slug)
    if day.status not in day_states(kind.type):
        messages.error(
            request,
            _("The floor is closed for %(date)s: a %(slip)s is written only while the gaming day is open.")
            % {"date": local.day(day.date), "slip": str(kind.label).lower()},
        )
        return redirect("cage:home", slug)
    waiting = paper_waiting(day)
    if waiting:
        # The paper slips of an outage come first (cage.services.paper).
        messages.error(
            request,
            ngettext(
                "%(n)s paper slip written during the outage is still to be entered first: the window records no new slip until then.",
                "%(n)s paper slips written during the outage are still to be entered first: the window records no new slip until then.",
                waiting,
            )
            % {"n": waiting},
        )
        return redirect("cage:paper" if access.may("cage:paper") else "cage:mine", slug)
    return None


def slip_new(request, slug, slip_type):
    kind = SLIP_KINDS.get(slip_type)
    if kind is None or kind is DAY_CLOSE_KIND:
        raise NotThere(_("No such slip type"))
    # Who writes which slip type: events.permissions (runners record their own sales, T&C 3.4.2).
    access = event_access(request, slug)
    day = current_day(access.event)
    closed = _window_closed(request, access, day, kind) or _recorded_from_this_form(request, access, kind)
    if closed is not None:
        return closed
    initial, initial_chips = {}, None
    table_id = query_id(request, "table")
    if table_id is not None:
        initial["table"] = table_id
        # The opener is counted blind (T&C 2.1.2, DESIGN: the next day's openers must match the
        # last closers): nothing of the tray's books is shown or filled in, so the dealer counts
        # what is there rather than signing what the form says. The service sets the count beside
        # the books and the last closer on submit.
        if kind.table_figure == "closer":
            initial_chips = _last_count(day, table_id)
    for name in ("runner", "account"):
        if request.GET.get(name):
            initial[name] = request.GET[name]
    runner_id = query_id(request, "runner")
    if kind.runner_figure == "returned" and runner_id is not None:
        # A runner hands back all they hold: the form starts from it, to be checked as counted;
        # not while the runner is counted blind (cage.selectors.counts).
        runner = access.event.people.filter(pk=runner_id).first()
        if runner is not None and f"{Account.Kind.RUNNER}:{runner.code}" not in blind_places(day):
            held = people.holdings(access.event, runner)
            initial_chips = {row["denomination"].key: row["count"] for row in held["chips"]}
            if held["cash_cents"]:
                initial["cash"] = held["cash_cents"]
    asked, initial_chips = _fill_request_form(request, access, day, kind, initial, initial_chips)
    form = SlipForm(
        request.POST or None,
        kind=kind,
        day=day,
        signer=access.person,
        request=request,
        initial=initial,
        initial_chips=initial_chips,
    )
    if request.method == "POST" and form.is_valid():
        try:
            service = getattr(services, kind.service)
            slip = service(
                day=day,
                signed=form.cleaned_data["signed"],
                created_by=request.user,
                request_key=form.cleaned_data["request_key"],
                allow_pending=True,
                **form.service_kwargs(),
                **({"fill_request": asked} if asked is not None else {}),
            )
        except DuplicateRequest as duplicate:
            messages.info(request, _("This slip was already recorded as %(slip)s.") % {"slip": duplicate.slip.number})
            return redirect("cage:slip", slug, duplicate.slip.pk)
        except RuleViolation as exc:
            # A refusal about one field (a dealer's hours) is shown beside it.
            form.add_error(exc.field if exc.field in form.fields else None, exc.text)
            if kind.table_figure == "opener" and exc.field == "reason":
                form.lock_opener(form.cleaned_data)  # set beside the tray's books: it stands as typed
        else:
            return _slip_response(request, slug, slip, _recorded_message(slip))
    page = {"access": access, "event": access.event, "day": day, "form": form, "kind": kind}
    # Said at the form's top: the request this fill answers, or what became of it.
    page["fill_request"] = Asked(asked) if asked is not None else None
    return render(request, "cage/slip_form.html", page, status=200)


# A form's one-time key, as SlipForm makes it (uuid4().hex) or a test writes one.
FORM_KEY = re.compile(r"[0-9A-Za-z-]{1,40}")


def _recorded_from_this_form(request, access, kind):
    """A form whose one-time key has already recorded a slip: sent again, it goes to that slip and
    records nothing (before anything else is checked: its table may have closed since); come back
    to with the browser's Back (the page asks ?key=, static/slip_form.js), it says so and shows no
    form to send again. Only the reader's own slips are found by their key. None otherwise."""
    key = request.POST.get("request_key") if request.method == "POST" else request.GET.get("key")
    if not isinstance(key, str) or not FORM_KEY.fullmatch(key):
        return None
    slip = _RECORDED_BY.first(access.event.pk, key, request.user.pk)
    if slip is None:
        return None
    if request.method == "POST":
        messages.info(request, _("This slip was already recorded as %(slip)s.") % {"slip": slip.number})
        return redirect("cage:slip", access.event.slug, slip.pk)
    return render(
        request,
        "cage/slip_recorded.html",
        {
            "access": access,
            "event": access.event,
            "kind": kind,
            "slip": slip,
            "record_another": record_another_url(request, access, slip),
        },
    )


def record_another_url(request, access, slip) -> str | None:
    """The form for another slip of the same type, for whoever just wrote this one while the window
    still offers its type: fresh but for its table, kept where another slip of the type is often
    written for the same table while it stays open (fills, credits, chip transfers). None when
    there is none to offer."""
    if slip.created_by_id != request.user.id or not request.user.is_authenticated:
        return None
    kind = SLIP_KINDS[slip.slip_type]
    day = current_day(access.event)
    if day is None or slip.day_id != day.pk or not access.may("cage:slip_new", "POST", slip_type=kind.type):
        return None
    if kind not in kinds_offered(day):
        return None
    url = reverse("cage:slip_new", args=[access.event.slug, kind.type])
    keeps_table = kind.table_state == GameTable.State.OPEN and kind.table_figure != "closer"
    if keeps_table and slip.table_id and tables_for(day, kind.type).filter(pk=slip.table_id).exists():
        url += f"?table={slip.table_id}"
    return url


def _fill_request_form(request, access, day, kind, initial: dict, chips):
    """A fill made from a dealer's request (?request=N, on the GET that opens the form and on its
    POST alike): the form starts from her table, chips and note, and the fill recorded answers the
    request (cage.services.fill_requests.made_into). One answered meanwhile (withdrawn, declined, or
    made into a fill at another window) fills in nothing: the page says what became of it, and a
    form sent for it is refused by the service, never recorded as a fill no one asked for anymore.
    (the request or None, the chips)."""
    if not kind.asked_for:
        return None, chips
    asked = request_of(access.event, query_id(request, "request"))
    if asked is None or Asked(asked).outcome is not None:
        _the_one_open_table(request, day, kind, initial)
        return asked, chips
    initial.update(table=asked.table_id, note=asked.note)
    return asked, asked.chips


def _the_one_open_table(request, day, kind, initial: dict) -> None:
    """A fill written while one table alone is open can only be for it: chosen already on the form
    that opens, as a dealer's request is for her one table. A table named by the link (?table=)
    stands; a paper slip is entered as written, from its own form (cage.views_paper)."""
    if request.method != "GET" or day is None or initial.get("table") is not None:
        return
    open_tables = list(tables_for(day, kind.type).values_list("pk", flat=True)[:2])
    if len(open_tables) == 1:
        initial["table"] = open_tables[0]


def _slip_for(access, pk) -> Slip:
    slip = (
        Slip.objects.select_related("event__licensee", "table", "runner", "voids", "day", "account__person")
        .filter(event=access.event, pk=pk)
        .first()
    )
    if slip is None:
        raise NotThere(_("This event has no such slip: its address names none of the event's slips."))
    if access.reads_slips:
        return slip
    # Runners and dealers read the slips that name them, that they signed, or that wait for them.
    person = access.person
    involved = person is not None and (
        slip.runner_id == person.pk
        or slip.signatures.filter(person=person).exists()
        or any(can_sign(person, item, access.roles) for item in pending_slips(access.event, slip=slip))
    )
    if not involved:
        raise RoleRefused(access, READ_ALL, write=False)
    return slip


def slip_detail(request, slug, pk):
    access = event_access(request, slug)
    slip = _slip_for(access, pk)
    sheet = slip_sheet(slip)
    mine = []
    if access.person is not None and sheet["state_code"] in (State.WAITING, State.IN_TRANSIT):
        for item in pending_slips(access.event, day=slip.day, slip=slip):
            mine = can_sign(access.person, item, access.roles)
    return render(
        request,
        "cage/slip_detail.html",
        {
            "access": access,
            "event": access.event,
            "slip": slip,
            "sheet": sheet,
            "mine": mine,
            "sign_form": SignForm(event=access.event, signer=access.person, request=request),
            # Entered from paper: the reader's own signatures on it that they have not yet confirmed.
            "paper_to_confirm": [
                s
                for s in unconfirmed_signatures(access.event, slip=slip)
                if s.person_id == getattr(access.person, "pk", None)
            ],
            # The cage's copies only: a copy for reading is never the original nor a reprint.
            "prints": SlipPrint.objects.filter(slip=slip, for_reading=False).count(),
            "record_another": record_another_url(request, access, slip),
        },
    )


def slip_print(request, slug, pk):
    access = event_access(request, slug)
    slip = _slip_for(access, pk)
    printed = services.slip_printed(slip=slip, user=request.user, for_reading=not access.prints_original)
    response = redirect(reverse("cage:slip_pdf", args=[slug, slip.pk]) + f"?copy={printed.pk}")
    terminal.renew(request, response)  # the terminal in use keeps its paper
    return response


def slip_sign(request, slug, pk):
    """A signature that follows the slip: the logged-in person's own, or the person beside them
    typing their signing PIN. Nobody signs for someone else."""
    access = event_access(request, slug)
    slip = _slip_for(access, pk)
    form = SignForm(request.POST, event=access.event, signer=access.person, request=request)
    if not form.is_valid():
        _form_refused(request, form)
        return redirect(_back_to(request, reverse("cage:slip", args=[slug, slip.pk])))
    person = form.cleaned_data["person"]
    try:
        signed = services.sign(slip=slip, capacity=form.cleaned_data["capacity"], person=person)
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        kind = SLIP_KINDS[signed.slip_type]
        messages.success(
            request,
            _("%(name)s signed %(slip)s as “%(capacity)s”.")
            % {
                "name": person.name,
                "slip": signed.number,
                "capacity": str(kind.capacity(form.cleaned_data["capacity"]).label).lower(),
            },
        )
    return redirect(_back_to(request, reverse("cage:slip", args=[slug, slip.pk])))


def _form_refused(request, form) -> None:
    """Every error of a form that a page answers with a redirect, as messages on the next page."""
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        for error in errors:
            if field is None or field.widget.is_hidden:
                messages.error(request, error)
            else:
                messages.error(request, _("%(field)s: %(error)s") % {"field": field.label, "error": error})


def _back_to(request, default: str) -> str:
    """Where a signer goes back to: the page they signed from, if it is one of ours (a `next`
    pointing at another site is ignored), else `default`."""
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return back
    return default


def close_waiting(day):
    """The day's close once prepared and until done (standing or not): what the queue and the
    cage home show; None otherwise."""
    progress = close_progress(day)
    return progress if progress is not None and progress.prepared is not None and progress.missing else None


@never_cache
def queue(request, slug):
    """The DRIC's queue: every slip in transit or waiting for a signature, oldest first."""
    access = event_access(request, slug)
    # Bounded whatever the number waiting: one page of the oldest (CAGE_QUEUE_ROWS), and how many more.
    size = settings.CAGE_QUEUE_ROWS
    page, items, waiting = _queue_page(access.event, request.GET.get("page"), size)
    day = current_day(access.event)
    pages = max(1, -(-waiting // size))
    rows = [(item, can_sign(access.person, item, access.roles)) for item in items]
    to = row_addresses(
        slug, slip="cage:slip", approve="cage:queue_approve", refuse="cage:queue_refuse", void="cage:queue_void"
    )
    for item in items:
        item.addresses = {key: address(item.slip.pk) for key, address in to.items()}
    dric = access.person is not None and "dric" in access.roles
    # ?panel=1: the rows alone, for the page to swap in every few seconds.
    return render(
        request,
        "cage/_queue_table.html" if request.GET.get("panel") else "cage/queue.html",
        {
            "refresh_seconds": settings.CAGE_REFRESH_SECONDS,
            "access": access,
            "event": access.event,
            "rows": rows,
            # What she may tick and approve at once (cage:queue_batch): the rows of hers to sign.
            "approvable": [item.slip.pk for item, caps in rows if dric and caps],
            "page": page,
            "pages": pages,
            "waiting": waiting,
            "shown_from": (page - 1) * size + 1,
            "shown_to": (page - 1) * size + len(rows),
            "more": max(0, waiting - page * size),
            "size": size,
            "overdue_minutes": int(overdue_after().total_seconds() // 60),
            # The refusal's and the void's one-time key, the same in every row's form as the form's
            # own field gives it: rendered once, not twice a row, and with no id (one id twice a row
            # on the page is no id at all).
            "request_key_input": QueueVoidForm(auto_id=False)["request_key"].as_widget(),
            "voidable": sorted(VOIDABLE),
            # What the DRIC may refuse: what waits for her before it moves anything.
            "refusable": sorted(t for t, k in SLIP_KINDS.items() if k.dric_moves),
            # Openers that differ from their table's last closer, for the DRIC to sign off.
            "sign_offs": [(slip, check_text(closer_check_of(slip))) for slip in waiting_sign_off(access.event)],
            # The day's close, prepared and waiting for a signature (cage.services.close).
            "close_progress": close_waiting(day),
            # No day open yet: "Nothing waits" alone would not tell her why nothing comes.
            "day_to_open": day if day is not None and day.status == GamingDay.Status.SETUP else None,
            "may_open": access.may("events:day_open", "POST"),
            # Four eyes (T&C 2): logins to confirm, roles and logins given today to acknowledge.
            "logins_to_confirm": logins_to_confirm(access.event),
            "given": given_to_acknowledge(access.event),
            "second_person": is_designated(access.person),
            # Entered paper slips whose signers have not yet confirmed the paper bears their signature.
            "paper_unconfirmed": unconfirmed_signatures(access.event),
        },
    )


def _queue_page(event, asked, size: int) -> tuple[int, list, int]:
    """(the page of the queue shown, its slips, how many wait in all). The first page, not full,
    is every slip waiting: counted only when there may be more (the usual queue, a few slips, asks
    one query less on every refresh)."""
    if asked in (None, "", "1"):
        items = pending_slips(event, rows=slice(0, size))
        return 1, items, len(items) if len(items) < size else pending_count(event)
    waiting = pending_count(event)
    page = _page_number(asked, max(1, -(-waiting // size)))
    return page, pending_slips(event, rows=slice((page - 1) * size, page * size)), waiting


def _page_number(asked, pages: int) -> int:
    """The page asked for, within 1..pages: a page past the end (its slips signed meanwhile), or
    anything not a number, shows the nearest one rather than an error."""
    try:
        page = int(asked or 1)
    except (TypeError, ValueError):
        page = 1
    return min(max(page, 1), pages)


def queue_batch(request, slug):
    """The DRIC approves several slips at once: those she ticked, or all the queue shows. A GET is
    the confirmation page, listing each chosen slip as she will sign it, and writes nothing; her
    POST carries the exact list she saw, approved all in one transaction or none
    (cage.services.batch)."""
    access = event_access(request, slug)
    if request.method == "POST":
        return _batch_confirmed(request, access)
    ids = request.GET.getlist("shown") if request.GET.get("all") else request.GET.getlist("slip")
    try:
        slips = batch_chosen(access.event, ids)
    except RuleViolation as exc:
        messages.error(request, exc.text)
        return redirect("cage:queue", slug)
    rows = confirmation(slips, access.person)
    return render(
        request,
        "cage/queue_batch.html",
        {
            "access": access,
            "event": access.event,
            "rows": rows,
            # Slips with nothing of hers to sign now (signed meanwhile, or waiting for another
            # signature first): confirming would be refused, so the page says so and offers no button.
            "blocked": ", ".join(row.slip.number for row in rows if not row.hers),
        },
    )


def _batch_confirmed(request, access):
    try:
        done = services.approve_batch(event=access.event, ids=request.POST.getlist("slip"), person=access.person)
    except RuleViolation as exc:
        refused = getattr(exc, "slip", None)
        if refused is None:
            messages.error(request, exc.text)
        else:
            messages.error(
                request,
                _("Nothing is signed: %(slip)s is refused: %(refusal)s")
                % {"slip": refused.number, "refusal": exc.text},
            )
        return redirect("cage:queue", access.event.slug)
    messages.success(
        request,
        ngettext("%(count)d slip approved: %(slips)s.", "%(count)d slips approved: %(slips)s.", len(done))
        % {"count": len(done), "slips": ", ".join(slip.number for slip in done)},
    )
    # Her signature may not be the last: a fill in transit still waits for the table's.
    waiting = [(slip, still) for slip in done if (still := still_to_sign(slip))]
    if waiting:
        messages.success(
            request,
            _("Still waiting after your approval: %(slips)s.")
            # Each slip's line, and the list, as the reader's language writes them (French puts a
            # space before its colons and semicolons).
            % {
                "slips": listed(
                    _("%(slip)s: %(still)s") % {"slip": slip.number, "still": still} for slip, still in waiting
                )
            },
        )
    return redirect("cage:queue", access.event.slug)


def queue_approve(request, slug, pk):
    """The DRIC approves with one action: she signs every capacity of the slip that is hers (her
    witness; a void's authorization, which posts its reversal)."""
    access = event_access(request, slug)
    slip = _slip_for(access, pk)
    try:
        slip = services.approve(slip=slip, person=access.person)
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        # Her signature may not be the last: a fill in transit still waits for the table's.
        still = still_to_sign(slip)
        if still:
            messages.success(
                request,
                _("%(slip)s: your approval is signed; it still waits for %(signers)s.")
                % {"slip": slip.number, "signers": still},
            )
        elif slip.slip_type == VOID_KIND.type:
            messages.success(
                request,
                _("%(void)s authorized: %(slip)s is voided and its reversal posted.")
                % {"void": slip.number, "slip": slip.voids.number},
            )
        else:
            messages.success(request, _("%(slip)s approved.") % {"slip": slip.number})
    return redirect("cage:queue", slug)


def login_confirm(request, slug, person_id):
    """A designated person confirms, from their own session, the setup code of another designated
    person's login: only then does it work (T&C 2: no one alone)."""
    access = event_access(request, slug)
    person = get_object_or_404(access.event.people, pk=person_id)
    return _on_the_queue(
        request,
        slug,
        lambda: event_services.login_confirm(person=person, by=access.person),
        _("%(name)s's setup code is confirmed: it now works, once, for %(name)s.") % {"name": person.name},
    )


def appointment_acknowledge(request, slug, appointment_id):
    """A second designated person acknowledges a role or login given during the day, and the slips
    its holder signed that day."""
    access = event_access(request, slug)
    appointment = get_object_or_404(Appointment, person__event=access.event, pk=appointment_id)
    return _on_the_queue(
        request,
        slug,
        lambda: event_services.appointment_acknowledge(appointment=appointment, by=access.person),
        _("Acknowledged: %(name)s was given %(given)s.")
        % {"name": appointment.person.name, "given": event_services.appointment_text(appointment)},
    )


def _on_the_queue(request, slug, act, done: str):
    """Do what the queue's button asks; say it was done, or why not (the refusal's words), back on the queue."""
    try:
        act()
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        messages.success(request, done)
    return redirect("cage:queue", slug)


# The queue's reason box left empty: a refusal like any other, on the audit trail.
REFUSAL_NEEDS_A_REASON = N_("refusing a slip needs a reason")
VOID_NEEDS_A_REASON = N_("a void needs a reason")
# The codes of those refusals, as the services give them (cage.services.signing, slips.void).
NO_REASON_CODES = {REFUSAL_NEEDS_A_REASON: "refuse.reason_missing", VOID_NEEDS_A_REASON: "void.reason_missing"}


def _with_reason(request, no_reason: str) -> QueueVoidForm | None:
    """The queue's reason box, checked: the form, or None with what is wrong said on the next page."""
    form = QueueVoidForm(request.POST)
    if form.is_valid():
        return form
    if not request.POST.get("reason", "").strip():
        messages.error(
            request, RuleViolation(Words(no_reason), REFUSE_RULE, field="reason", code=NO_REASON_CODES[no_reason]).text
        )
    else:
        _form_refused(request, form)
    return None


def queue_refuse(request, slug, pk):
    """The DRIC refuses, with a reason, a slip that waits for her before it moves anything (a void
    asked for, a deposit, an expense, a float): nothing moves, it stays on file as refused, and a
    void's slip is untouched."""
    access = event_access(request, slug)
    slip = _slip_for(access, pk)
    form = _with_reason(request, REFUSAL_NEEDS_A_REASON)
    if form is None:
        return redirect("cage:queue", slug)
    try:
        services.refuse(slip=slip, person=access.person, reason=form.cleaned_data["reason"])
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        if slip.voids_id:
            said = _("%(void)s refused: nothing moved, and %(slip)s stands as it was.") % {
                "void": slip.number,
                "slip": slip.voids.number,
            }
        else:
            said = _("%(slip)s refused: nothing moved; it stays on file as refused.") % {"slip": slip.number}
        messages.success(request, said)
    return redirect("cage:queue", slug)


def opener_sign_off(request, slug, pk):
    """The DRIC signs off, from her own session, an opener that differs from its table's last
    closer (DESIGN: gaming day; T&C 2)."""
    access = event_access(request, slug)
    slip = _slip_for(access, pk)
    try:
        services.opener_sign_off(slip=slip, person=access.person)
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request, _("%(slip)s: the difference from the last closer is signed off.") % {"slip": slip.number}
        )
    return redirect(_back_to(request, reverse("cage:queue", args=[slug])))


def queue_void(request, slug, pk):
    """The DRIC voids a waiting slip with a reason; the cashier who takes the chips or cash back
    signs the void as requested by, and the reversal is made then."""
    access = event_access(request, slug)
    slip = _slip_for(access, pk)
    form = _with_reason(request, VOID_NEEDS_A_REASON)
    if form is None:
        return redirect("cage:queue", slug)
    try:
        void = services.void(
            day=slip.day,
            target=slip,
            reason=form.cleaned_data["reason"],
            signed={"authorized_by": access.person},
            created_by=request.user,
            request_key=form.cleaned_data["request_key"],
            allow_pending=True,
        )
    except DuplicateRequest:
        return redirect("cage:queue", slug)
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _(
                "%(void)s written for %(slip)s; nothing moves until the cashier who takes it back signs it as "
                "requested by."
            )
            % {"void": void.number, "slip": slip.number},
        )
    return redirect("cage:queue", slug)


def day_close(request, slug):
    """The nightly close. The General Cashier prepares it (the others sign beside her with their
    PIN, or later); the Chip Cashier verifies and the DRIC approves from their own sessions, here,
    with the day's figures in front of them. The day locks once all three have signed."""
    access = event_access(request, slug)
    day = current_day(access.event)
    if day is None:
        raise NotThere(_("No gaming day"))
    problems = services.close_problems(day) if day.status in CLOSABLE else []
    progress = close_progress(day)
    form = None
    if day.status in CLOSABLE and not problems and not progress.stands:
        form = SlipForm(request.POST or None, kind=DAY_CLOSE_KIND, day=day, signer=access.person, request=request)
    if request.method == "POST":
        answered = _close_posted(request, slug, day, form, progress)
        if answered is not None:
            return answered
    context = {
        "access": access,
        "event": access.event,
        "day": day,
        "form": form,
        "problems": problems,
        "progress": progress,
        "posted_since": services.posted_since_text(progress) if progress and progress.posted_since else "",
        "mine": progress.mine(access.person, access.roles) if progress else [],
        **close_checklist(day, problems),
        # The day's figures in front of the DRIC as she approves (a closed day's too); while the
        # bank is counted blind they wait for its counts (reports.daily).
        # To those who count the places, an uncounted place's expected figure stays blind while
        # the floor runs too (cage.selectors.counts.blind_places); the DRIC sees it as she approves.
        "figures": (
            day_sheets.day_figures(day, close=True, counter=counts_places(access.roles))
            if day.status != GamingDay.Status.SETUP
            else None
        ),
    }
    return render(request, "cage/day_close.html", context)


def _close_posted(request, slug, day, form, progress):
    """The close prepared from the page: where to go next, or None to show the page again with
    what refused it."""
    if form is None:
        messages.error(
            request,
            _("The close is already prepared; it waits for the signatures still missing.")
            if progress is not None and progress.stands
            else _("The day cannot close yet; see what stands in the way below."),
        )
        return None
    if not form.is_valid():
        return None
    try:
        slip = services.prepare_close(
            day=day,
            signed=form.cleaned_data["signed"],
            created_by=request.user,
            request_key=form.cleaned_data["request_key"],
        )
    except DuplicateRequest:
        messages.info(request, _("Gaming day %(date)s was already closed.") % {"date": local.day(day.date)})
        return redirect("cage:home", slug)
    except RuleViolation as exc:
        form.add_error(None, exc.text)
        return None
    if slip is not None:
        messages.success(request, _("Gaming day %(date)s closed and locked.") % {"date": local.day(day.date)})
        return redirect("cage:home", slug)
    messages.success(request, _("The close is prepared; it waits for the signatures still missing."))
    return redirect("cage:day_close", slug)


def day_close_sign(request, slug):
    """A signature of the prepared close from the signer's own session: the Chip Cashier verifies,
    the DRIC approves (nobody signs for someone else)."""
    access = event_access(request, slug)
    day = current_day(access.event)
    if day is None:
        raise NotThere(_("No gaming day"))
    capacity = request.POST.get("capacity", "")
    if access.person is None or DAY_CLOSE_KIND.capacity(capacity) is None:
        messages.error(request, _("Choose which capacity of the close you sign."))
        return redirect("cage:day_close", slug)
    try:
        slip = services.sign_close(day=day, capacity=capacity, person=access.person, created_by=request.user)
    except RuleViolation as exc:
        messages.error(request, exc.text)
        return redirect("cage:day_close", slug)
    label = str(DAY_CLOSE_KIND.capacity(capacity).label).lower()
    if slip is not None:
        messages.success(
            request,
            _("%(name)s signed the close as “%(capacity)s”. Gaming day %(date)s closed and locked.")
            % {"name": access.person.name, "capacity": label, "date": local.day(day.date)},
        )
    else:
        messages.success(
            request,
            _("%(name)s signed the close as “%(capacity)s”; it waits for the signatures still missing.")
            % {"name": access.person.name, "capacity": label},
        )
    return redirect("cage:day_close", slug)


def day_reconcile(request, slug):
    access = event_access(request, slug)
    day = current_day(access.event)
    try:
        services.day_reconcile(day=day)
        messages.success(request, _("The floor is closed; the nightly reconciliation has started."))
    except RuleViolation as exc:
        messages.error(request, exc.text)
    # The counts and the close come next: the close page lists them.
    return redirect("cage:day_close", slug)
