"""The trust account's page: the account the event names, and each deposit from the cage with the
bank's deposit slip for it (cage.services.bank_slips; T&C 2.7)."""

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.fields import CashField
from cage.models import BankSlip, Cheque
from cage.selectors.bank_slips import deposits_to_the_bank, expenses_by_cheque, trust_reconciliation
from cage.services.bank_slips import bank_slip_check as check_service
from cage.services.bank_slips import bank_slip_enter
from cage.services.cheques import cheque_enter
from core.money import dollars
from core.rules import RuleViolation, cite
from events.access import event_access
from events.form_input import CheckedInput
from events.forms import DateInput
from events.trust_account import trust_account_set

from .filing import filed
from .names import day_shown
from .proceeds_page import proceeds_context
from .services import RULE, bank_reconciliation_lines


class TrustAccountForm(CheckedInput, forms.Form):
    trust_bank = forms.CharField(label=gettext_lazy("Bank"), max_length=200, required=False)
    trust_branch = forms.CharField(label=gettext_lazy("Branch"), max_length=200, required=False)
    trust_account_last_four = forms.CharField(
        label=gettext_lazy("Last four digits of the account's number"), max_length=40, required=False
    )
    trust_opening_balance = CashField(
        label=gettext_lazy("Opening balance"),
        required=False,
        help_text=gettext_lazy("What the account's statement showed before the event's first float left it."),
    )


class BankSlipForm(CheckedInput, forms.Form):
    number = forms.CharField(label=gettext_lazy("Bank slip number"), max_length=40)
    stamped_on = forms.DateField(label=gettext_lazy("Stamped on"), widget=DateInput)


class ChequeForm(CheckedInput, forms.Form):
    # One more than the register keeps, so the service's refusal, which names the rule, is the one shown.
    number = forms.CharField(label=gettext_lazy("Cheque number"), max_length=21, required=False)
    written_on = forms.DateField(label=gettext_lazy("Dated"), widget=DateInput)
    # Not required: an empty payee meets the register's own refusal, which names the rule.
    payee = forms.CharField(label=gettext_lazy("Payee"), max_length=201, required=False)


def _cheque_lines(access, refused_slip=None, refused_form=None, *, closed=False):
    """The expenses with their cheques, each with its form for whoever enters them (none once the
    report is filed)."""
    if not isinstance(refused_form, ChequeForm):
        refused_slip = None
    lines = expenses_by_cheque(access.event)
    may_enter = access.may("reports:cheque", "POST") and not closed
    for line in lines:
        c = line.cheque
        line.day_shown, line.amount = day_shown(line.slip.day.date), dollars(line.cents)
        line.written = day_shown(c.written_on) if c else ""
        line.what_for = " · ".join(
            v for v in (line.slip.details.get("description"), line.slip.details.get("invoice")) if v
        )
        line.form = None
        if may_enter:
            initial = {"number": c.number, "written_on": c.written_on, "payee": c.payee} if c else {}
            line.form = (
                refused_form
                if refused_slip == line.slip.pk
                else ChequeForm(prefix=f"cheque-{line.slip.pk}", initial=initial)
            )
    return lines


def _page(request, access, *, account_form=None, refused_slip=None, refused_form=None, proceeds=None, status=200):
    event = access.event
    # Once the report is filed its records stand as filed (events.report_filed): no form is offered.
    done = filed(event)
    lines = deposits_to_the_bank(event)
    may_enter = access.may("reports:bank_slip", "POST") and done is None
    for line in lines:
        b = line.bank_slip
        checked = b is not None and b.checked_by_id is not None
        # As every report writes them: dates in one style, amounts as the reader's language does.
        line.day_shown, line.amount = day_shown(line.slip.day.date), dollars(line.cents)
        line.stamped = day_shown(b.stamped_on) if b else ""
        line.checked_on = day_shown(timezone.localtime(b.checked_at).date()) if checked else ""
        line.form = None
        if may_enter and not checked:
            if refused_slip == line.slip.pk and isinstance(refused_form, BankSlipForm):
                line.form = refused_form
            else:
                initial = (
                    {"number": line.bank_slip.number, "stamped_on": line.bank_slip.stamped_on} if line.bank_slip else {}
                )
                line.form = BankSlipForm(prefix=f"bank-{line.slip.pk}", initial=initial)
    waiting = [line for line in lines if not line.confirmed]
    if account_form is None and access.may("reports:trust_account", "POST") and done is None:
        account_form = TrustAccountForm(
            initial={name: getattr(event, name) for name in TrustAccountForm.base_fields},
        )
    return render(
        request,
        "reports/trust.html",
        {
            "access": access,
            "event": event,
            "lines": lines,
            "waiting": waiting,
            "cheques": _cheque_lines(access, refused_slip, refused_form, closed=done is not None),
            "filed": done,
            "account_form": account_form,
            "reconciliation": [
                (label, None if cents is None else dollars(cents))
                for label, cents in bank_reconciliation_lines(trust_reconciliation(event))
            ],
            "may_check": access.may("reports:bank_slip_check", "POST") and done is None,
            **proceeds_context(access, closed=done is not None, **(proceeds or {})),
            "rule": cite(RULE),
        },
        status=status,
    )


def refused(request, form, exc: RuleViolation) -> None:
    """A refusal beside the form's field, as typed, and said at the top of the page as well: the
    page comes back at its top, where a success is said."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.text)
    messages.error(request, _("Not recorded: %(reason)s") % {"reason": exc.text})


def trust(request, slug):
    return _page(request, event_access(request, slug))


def trust_account(request, slug):
    access = event_access(request, slug)
    form = TrustAccountForm(request.POST)
    if form.is_valid():
        d = form.cleaned_data
        try:
            trust_account_set(
                event=access.event,
                bank=d["trust_bank"],
                branch=d["trust_branch"],
                last_four=d["trust_account_last_four"],
                opening_balance=d["trust_opening_balance"],
                by=access.person,
            )
        except RuleViolation as exc:
            refused(request, form, exc)
            if exc.field == "trust_account_last_four":
                # What was typed may be the whole number: never shown back.
                form.data = form.data.copy()
                form.data["trust_account_last_four"] = ""
        else:
            messages.success(request, _("The trust account is named."))
            return redirect("reports:trust", slug)
    return _page(request, access, account_form=form)


def _row_posted(request, access, slip, form, enter, done):
    """A row's form (a deposit's bank slip, an expense's cheque): `enter(cleaned data)` records it
    and `done(what was recorded)` says so; a refusal is shown beside the row's fields, as typed."""
    if form.is_valid():
        try:
            entered = enter(form.cleaned_data)
        except RuleViolation as exc:
            refused(request, form, exc)
        else:
            messages.success(request, done(entered))
            return redirect("reports:trust", access.event.slug)
    return _page(request, access, refused_slip=slip.pk, refused_form=form)


def bank_slip(request, slug, deposit):
    access = event_access(request, slug)
    deposit = get_object_or_404(access.event.slips, pk=deposit)
    return _row_posted(
        request,
        access,
        deposit,
        BankSlipForm(request.POST, prefix=f"bank-{deposit.pk}"),
        lambda data: bank_slip_enter(deposit=deposit, person=access.person, **data),
        lambda entered: (
            _("Bank slip %(number)s entered for %(slip)s; the DRIC checks it against the stamped copy.")
            % {"number": entered.number, "slip": deposit.number}
        ),
    )


def bank_slip_check(request, slug, bank_slip):
    access = event_access(request, slug)
    bank_slip = get_object_or_404(BankSlip.objects.select_related("deposit"), pk=bank_slip, event=access.event)
    try:
        check_service(bank_slip=bank_slip, person=access.person)
    except RuleViolation as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _("Bank slip %(number)s of %(slip)s checked: that deposit is confirmed.")
            % {"number": bank_slip.number, "slip": bank_slip.deposit.number},
        )
    return redirect("reports:trust", slug)


def cheque(request, slug, expense):
    access = event_access(request, slug)
    expense = get_object_or_404(access.event.slips, pk=expense)
    corrected = Cheque.objects.filter(expense=expense).exists()
    return _row_posted(
        request,
        access,
        expense,
        ChequeForm(request.POST, prefix=f"cheque-{expense.pk}"),
        lambda data: cheque_enter(expense=expense, person=access.person, **data),
        lambda entered: (
            (
                _("Cheque %(number)s of %(slip)s corrected.")
                if corrected
                else _("Cheque %(number)s entered for %(slip)s.")
            )
            % {"number": entered.number, "slip": expense.number}
        ),
    )
