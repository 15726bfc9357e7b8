"""The cage window: the day's balances and slips, one form per slip type, the nightly close."""

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cage import services
from cage.forms import TENDERS, SlipForm
from cage.models import Account, Posting, Slip, SlipType
from cage.money import dollars
from cage.selectors.inventory import inventory, table_states
from cage.services.ledger import DuplicateRequest, account_label, balances, instrument_label
from events.access import CAGE_WRITE, READ_ALL, event_access
from events.models import GamingDay
from events.rules import RuleViolation

ENTRY_TYPES = [t for t in SlipType if t != SlipType.CLOSE_DAY]


def current_day(event) -> GamingDay | None:
    """The day the cage works in: the open or reconciling one, else the latest."""
    return (
        event.days.filter(status__in=[GamingDay.Status.OPEN, GamingDay.Status.RECONCILING]).first()
        or event.days.order_by("-date").first()
    )


def custody_rows(event):
    accounts = list(
        Account.objects.filter(
            event=event, kind__in=Account.CUSTODY | {Account.Kind.PATRONS, Account.Kind.OVER_SHORT}
        ).select_related("person", "table")
    )
    held = balances(accounts)
    denominations = {d.pk: d for d in event.denominations.all()}
    rows = []
    for account in accounts:
        for key, cents in sorted(held.get(account.id, {}).items(), key=lambda kv: (kv[0] is not None, kv[0] or 0)):
            rows.append(
                {
                    "account": account_label(account),
                    "code": account.code,
                    "instrument": instrument_label(denominations.get(key)),
                    "amount": dollars(cents),
                }
            )
    return rows


def home(request, slug):
    access = event_access(request, slug, read=READ_ALL)
    event = access.event
    day = current_day(event)
    slips = Slip.objects.filter(day=day).select_related("table", "runner", "voided_by").order_by("-id") if day else []
    return render(
        request,
        "cage/home.html",
        {
            "access": access,
            "event": event,
            "day": day,
            "slips": slips,
            "entry_types": ENTRY_TYPES,
            "problems": services.close_problems(day) if day else [],
            "refresh_seconds": getattr(settings, "CAGE_REFRESH_SECONDS", 20),
            **_panels(event, day),
        },
    )


def _panels(event, day) -> dict:
    """What the inventory and tables panels show; the home page and its refresh share it."""
    return {"event": event, "day": day, "inventory": inventory(event), "table_states": table_states(day, event)}


@require_GET
@never_cache
def home_panels(request, slug):
    """The home page's inventory and tables panels alone, for the page to swap in every few
    seconds; the same readers as the home page."""
    access = event_access(request, slug, read=READ_ALL)
    context = _panels(access.event, current_day(access.event))
    html = render_to_string("cage/_inventory.html", context, request) + render_to_string(
        "cage/_tables.html", context, request
    )
    return HttpResponse(html)


def _service_call(slip_type, d, common):
    """Map the form's cleaned data to the record type's service (the importer does the same from JSON)."""
    currency, tender, _ = TENDERS.get(d.get("tender", "cad_cash"))
    chips, cash = d.get("chips"), d.get("cash_cents")
    table, runner, reason = d.get("table"), d.get("runner"), d.get("reason") or ""
    calls = {
        SlipType.CHIPS_RECEIVED: lambda: services.chips_received(chips=chips, **common),
        SlipType.CHIPS_RETURNED: lambda: services.chips_returned(chips=chips, **common),
        SlipType.FLOAT_IN: lambda: services.float_in(cash=cash, **common),
        SlipType.DEPOSIT: lambda: services.deposit(cash=cash, **common),
        SlipType.TABLE_ISSUE: lambda: services.table_issue(table=table, chips=chips, **common),
        SlipType.TABLE_RETURN: lambda: services.table_return(table=table, chips=chips, **common),
        SlipType.TABLE_OPEN: lambda: services.table_open(table=table, chips=chips, reason=reason, **common),
        SlipType.FILL: lambda: services.fill(table=table, chips=chips, **common),
        SlipType.CREDIT: lambda: services.credit(table=table, chips=chips, **common),
        SlipType.TIPS: lambda: services.tips(table=table, chips=chips, **common),
        SlipType.TABLE_CLOSE: lambda: services.table_close(table=table, chips=chips, **common),
        SlipType.SALE: lambda: services.sale(
            chips=chips, cash=cash, runner=runner, currency=currency, tender=tender, **common
        ),
        SlipType.REDEMPTION: lambda: services.redemption(
            chips=chips, cash=cash, currency=currency, tender=tender, **common
        ),
        SlipType.RUNNER_ISSUE: lambda: services.runner_issue(runner=runner, chips=chips, **common),
        SlipType.RUNNER_RETURN: lambda: services.runner_return(runner=runner, chips=chips, cash=cash or 0, **common),
        SlipType.TIP_PAYOUT: lambda: services.tip_payout(hours=d.get("hours"), **common),
        SlipType.COUNT: lambda: services.count(
            account=d.get("account"), cash=cash, chips=chips, reason=reason, **common
        ),
        SlipType.VOID: lambda: services.void(target=d.get("target"), reason=reason, **common),
        SlipType.EXPENSE: lambda: services.expense(
            category=d.get("category"),
            description=d.get("description"),
            cash=cash,
            invoice=d.get("invoice") or "",
            **common,
        ),
    }
    return calls[slip_type]()


@require_http_methods(["GET", "POST"])
def slip_new(request, slug, slip_type):
    access = event_access(request, slug, read=CAGE_WRITE, write=CAGE_WRITE)
    if slip_type not in [t.value for t in ENTRY_TYPES]:
        raise Http404("No such slip type")
    day = current_day(access.event)
    if day is None:
        messages.error(request, "The event has no gaming day yet.")
        return redirect("cage:home", slug)
    form = SlipForm(request.POST or None, slip_type=slip_type, day=day, signer=access.person)
    if request.method == "POST" and form.is_valid():
        common = {
            "day": day,
            "signed": form.cleaned_data["signed"],
            "created_by": request.user,
            "request_key": form.cleaned_data["request_key"],
        }
        try:
            slip = _service_call(slip_type, form.cleaned_data, common)
        except DuplicateRequest as duplicate:
            messages.info(request, f"This slip was already recorded as {duplicate.slip.number}.")
            return redirect("cage:slip", slug, duplicate.slip.pk)
        except RuleViolation as exc:
            form.add_error(None, exc.text)
        else:
            messages.success(request, f"{slip.get_slip_type_display()} {slip.number} recorded.")
            return redirect("cage:slip", slug, slip.pk)
    return render(
        request,
        "cage/slip_form.html",
        {
            "access": access,
            "event": access.event,
            "day": day,
            "form": form,
            "label": SlipType(slip_type).label,
        },
    )


def slip_detail(request, slug, pk):
    access = event_access(request, slug, read=READ_ALL)
    slip = get_object_or_404(Slip.objects.select_related("table", "runner", "voids", "day"), event=access.event, pk=pk)
    postings = Posting.objects.filter(slip=slip).select_related("account__person", "account__table", "denomination")
    return render(
        request,
        "cage/slip_detail.html",
        {
            "access": access,
            "event": access.event,
            "slip": slip,
            "postings": [
                {
                    "account": account_label(p.account),
                    "instrument": instrument_label(p.denomination),
                    "amount": dollars(p.amount),
                }
                for p in postings
            ],
            "signatures": slip.signatures.select_related("person"),
            "voided_by": Slip.objects.filter(voids=slip).first(),
        },
    )


@require_http_methods(["GET", "POST"])
def day_close(request, slug):
    access = event_access(request, slug, read=READ_ALL, write=CAGE_WRITE)
    day = current_day(access.event)
    if day is None:
        raise Http404("No gaming day")
    form = SlipForm(request.POST or None, slip_type=SlipType.CLOSE_DAY, day=day, signer=access.person)
    if request.method == "POST" and form.is_valid():
        try:
            services.close_day(
                day=day,
                signed=form.cleaned_data["signed"],
                created_by=request.user,
                request_key=form.cleaned_data["request_key"],
            )
        except DuplicateRequest:
            messages.info(request, f"Gaming day {day.date} was already closed.")
            return redirect("cage:home", slug)
        except RuleViolation as exc:
            form.add_error(None, exc.text)
        else:
            messages.success(request, f"Gaming day {day.date} closed and locked.")
            return redirect("cage:home", slug)
    return render(
        request,
        "cage/day_close.html",
        {
            "access": access,
            "event": access.event,
            "day": day,
            "form": form,
            "problems": services.close_problems(day),
        },
    )


@require_POST
def day_reconcile(request, slug):
    access = event_access(request, slug, read=set(), write=CAGE_WRITE)
    day = current_day(access.event)
    try:
        services.day_reconcile(day=day)
        messages.success(request, "The floor is closed; the nightly reconciliation has started.")
    except RuleViolation as exc:
        messages.error(request, exc.text)
    return redirect("cage:home", slug)
