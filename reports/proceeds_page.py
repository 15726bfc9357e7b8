"""The use of proceeds on the trust account's page: the purposes the licence approved, the cheques
that used the net proceeds for them, and the forms that enter both (events.proceeds,
cage.services.cheques.disbursement_enter; reports.views_proceeds posts them)."""

from django import forms
from django.utils.translation import gettext_lazy

from cage.fields import CashField
from cage.selectors.bank_slips import disbursed_by_purpose, disbursements
from core.money import dollars
from events.form_input import CheckedInput
from events.forms import DateInput
from events.models import ApprovedPurpose

from .names import day_shown


class PurposeForm(CheckedInput, forms.Form):
    # Not required and longer than kept: an empty or too long a name meets the rule's own refusal.
    name = forms.CharField(
        label=gettext_lazy("Approved purpose, as the licence words it"), max_length=400, required=False
    )


class DisbursementForm(CheckedInput, forms.Form):
    purpose = forms.ModelChoiceField(label=gettext_lazy("Approved purpose"), queryset=ApprovedPurpose.objects.none())
    # Number and payee not required: empty, they meet the register's own refusal, which names the rule.
    number = forms.CharField(label=gettext_lazy("Cheque number"), max_length=21, required=False)
    written_on = forms.DateField(label=gettext_lazy("Dated"), widget=DateInput)
    payee = forms.CharField(label=gettext_lazy("Payee"), max_length=201, required=False)
    amount = CashField(label=gettext_lazy("Amount"), min_cents=1)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["purpose"].queryset = ApprovedPurpose.objects.filter(event=event)


def purpose_form(purpose=None, data=None) -> PurposeForm:
    """The form of a new approved purpose, or of one to correct (`purpose`)."""
    if purpose is None:
        return PurposeForm(data)
    return PurposeForm(data, prefix=f"purpose-{purpose.pk}", initial={"name": purpose.name})


def disbursement_form(event, cheque=None, data=None) -> DisbursementForm:
    """The form of a new cheque for an approved purpose, or of one to correct (`cheque`)."""
    prefix = f"disbursement-{cheque.pk}" if cheque else "disbursement"
    initial = (
        {
            "purpose": cheque.purpose_id,
            "number": cheque.number,
            "written_on": cheque.written_on,
            "payee": cheque.payee,
            "amount": cheque.amount,
        }
        if cheque
        else {}
    )
    return DisbursementForm(data, event=event, prefix=prefix, initial=initial)


def proceeds_context(
    access,
    *,
    refused_purpose_form=None,
    refused_purpose=None,
    refused_form=None,
    refused_cheque=None,
    closed=False,
) -> dict:
    """The page's use of proceeds: each purpose with what was disbursed for it, the cheques, and
    the forms for whoever may post them (a refused one as it was typed, with the purpose or cheque
    it corrects; none once `closed`, the report filed)."""
    event = access.event
    cheques = disbursements(event)
    purposes = [(purpose, dollars(cents)) for purpose, cents in disbursed_by_purpose(event)]
    may_name = access.may("reports:purpose", "POST") and not closed
    for purpose, _disbursed in purposes:
        purpose.form, purpose.form_id = None, f"purpose-form-{purpose.pk}"
        if may_name:
            refused_here = refused_purpose_form is not None and refused_purpose == purpose.pk
            purpose.form = refused_purpose_form if refused_here else purpose_form(purpose)
    purpose_new = None
    if may_name:
        refused_new = refused_purpose_form is not None and refused_purpose is None
        purpose_new = refused_purpose_form if refused_new else purpose_form()
    may_enter = access.may("reports:disbursement", "POST") and not closed
    for cheque in cheques:
        cheque.written, cheque.amount_shown = day_shown(cheque.written_on), dollars(cheque.amount)
        cheque.form, cheque.form_id = None, f"disbursement-form-{cheque.pk}"
        if may_enter:
            cheque.form = refused_form if refused_cheque == cheque.pk else disbursement_form(event, cheque)
    new_form = None
    if may_enter and purposes:
        new_form = refused_form if refused_form is not None and refused_cheque is None else disbursement_form(event)
    return {
        "purposes": purposes,
        "disbursements": cheques,
        "disbursed_total": dollars(sum(c.amount for c in cheques)),
        "purpose_form": purpose_new,
        "disbursement_form": new_form,
    }
