"""The slip form at the cage window: the slip's own fields, then one signature per capacity.

A signature is an act of the person who signs: on the shared terminal each signer other than
the logged-in user types their own password on the same screen (DESIGN: slips and signatures).
"""

import uuid
from decimal import Decimal

from django import forms
from django.contrib.auth.hashers import check_password

from cage.models import Account, Slip, SlipType
from cage.services import CAPACITIES, EXPENSE_CATEGORIES, account_get
from cage.services.slips import VOIDABLE
from events.models import GamingDay, Person, Role

CHIP_TYPES = {
    SlipType.CHIPS_RECEIVED,
    SlipType.CHIPS_RETURNED,
    SlipType.TABLE_ISSUE,
    SlipType.TABLE_RETURN,
    SlipType.TABLE_OPEN,
    SlipType.FILL,
    SlipType.CREDIT,
    SlipType.TIPS,
    SlipType.TABLE_CLOSE,
    SlipType.SALE,
    SlipType.REDEMPTION,
    SlipType.RUNNER_ISSUE,
    SlipType.RUNNER_RETURN,
    SlipType.COUNT,
}
CASH_TYPES = {
    SlipType.FLOAT_IN,
    SlipType.DEPOSIT,
    SlipType.SALE,
    SlipType.REDEMPTION,
    SlipType.RUNNER_RETURN,
    SlipType.COUNT,
    SlipType.EXPENSE,
}
TABLE_TYPES = {
    SlipType.TABLE_ISSUE,
    SlipType.TABLE_RETURN,
    SlipType.TABLE_OPEN,
    SlipType.FILL,
    SlipType.CREDIT,
    SlipType.TIPS,
    SlipType.TABLE_CLOSE,
}
RUNNER_TYPES = {SlipType.SALE, SlipType.RUNNER_ISSUE, SlipType.RUNNER_RETURN}
REASON_TYPES = {SlipType.TABLE_OPEN, SlipType.COUNT, SlipType.VOID}

# How the patron pays: only Canadian cash is accepted (T&C 3.6, 3.7); the others are listed so
# that a cashier who is offered them sees the rule that refuses them.
TENDERS = {
    "cad_cash": ("CAD", "cash", "Canadian cash"),
    "usd_cash": ("USD", "cash", "US cash"),
    "debit": ("CAD", "debit card", "Debit card"),
    "credit": ("CAD", "credit card", "Credit card"),
    "cheque": ("CAD", "cheque", "Cheque"),
}


def _people_with(event, roles):
    return Person.objects.filter(
        event=event, assignments__role__in=roles, registration=Person.Registration.GOOD
    ).distinct()


class SlipForm(forms.Form):
    # One per form shown: a second POST of the same form is recognised and records nothing.
    request_key = forms.CharField(widget=forms.HiddenInput, max_length=40)

    def __init__(self, *args, slip_type: str, day: GamingDay, signer: Person | None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["request_key"].initial = uuid.uuid4().hex
        self.slip_type = slip_type
        self.day = day
        self.event = day.event
        self.signer = signer
        event = self.event
        if slip_type in TABLE_TYPES:
            self.fields["table"] = forms.ModelChoiceField(queryset=event.tables.all())
        if slip_type in RUNNER_TYPES:
            self.fields["runner"] = forms.ModelChoiceField(
                queryset=_people_with(event, [Role.RUNNER]),
                required=slip_type != SlipType.SALE,
                help_text="Leave empty for a sale at the cage." if slip_type == SlipType.SALE else "",
            )
        if slip_type == SlipType.COUNT:
            accounts = [account_get(event, Account.Kind.BANK_CASH), account_get(event, Account.Kind.CHIP_BANK)]
            accounts += [account_get(event, Account.Kind.RUNNER, person=p) for p in _people_with(event, [Role.RUNNER])]
            self.fields["account"] = forms.ModelChoiceField(
                queryset=Account.objects.filter(pk__in=[a.pk for a in accounts])
            )
        if slip_type in CHIP_TYPES:
            for d in event.denominations.all():
                self.fields[f"chips_{d.key}"] = forms.IntegerField(
                    label=f"${d.key} chips",
                    min_value=0,
                    required=False,
                    widget=forms.NumberInput(attrs={"class": "chip", "data-cents": d.value_cents}),
                )
        if slip_type in CASH_TYPES:
            self.fields["cash"] = forms.DecimalField(
                label="Cash ($)",
                min_value=Decimal("0"),
                max_digits=12,
                decimal_places=2,
                required=slip_type not in (SlipType.RUNNER_RETURN, SlipType.COUNT),
            )
        if slip_type in (SlipType.SALE, SlipType.REDEMPTION):
            self.fields["tender"] = forms.ChoiceField(
                choices=[(k, v[2]) for k, v in TENDERS.items()], initial="cad_cash"
            )
        if slip_type == SlipType.TIP_PAYOUT:
            for p in _people_with(event, [Role.DEALER]):
                self.fields[f"hours_{p.code}"] = forms.DecimalField(
                    label=f"Hours: {p.name}", min_value=Decimal("0"), max_digits=5, decimal_places=2, required=False
                )
        if slip_type == SlipType.VOID:
            voided = Slip.objects.filter(voids__isnull=False).values("voids_id")
            self.fields["target"] = forms.ModelChoiceField(
                label="Slip to void",
                queryset=Slip.objects.filter(day=day, slip_type__in=VOIDABLE).exclude(pk__in=voided),
            )
        if slip_type == SlipType.EXPENSE:
            self.fields["category"] = forms.ChoiceField(choices=[(c, c.replace("_", " ")) for c in EXPENSE_CATEGORIES])
            self.fields["description"] = forms.CharField(max_length=200)
            self.fields["invoice"] = forms.CharField(max_length=60, required=False)
        if slip_type in REASON_TYPES:
            self.fields["reason"] = forms.CharField(
                required=slip_type == SlipType.VOID,
                widget=forms.Textarea(attrs={"rows": 2}),
                help_text="Required for a void and for any variance.",
            )
        own = signer.role_codes() if signer else set()
        for capacity, roles in CAPACITIES[slip_type].items():
            label = capacity.replace("_", " ").capitalize()
            # The logged-in person signs their own capacity without retyping a password.
            mine = not own.isdisjoint(roles) and not any(
                f.initial == signer.pk for f in self.fields.values() if isinstance(f, forms.ModelChoiceField)
            )
            self.fields[f"sign_{capacity}"] = forms.ModelChoiceField(
                label=f"{label} ({' or '.join(Role(r).label for r in roles)})",
                queryset=_people_with(event, roles),
                initial=signer.pk if mine else None,
            )
            self.fields[f"password_{capacity}"] = forms.CharField(
                label="Their password",
                required=False,
                widget=forms.PasswordInput,
                help_text="Not needed for yourself.",
            )

    def capacities(self):
        return list(CAPACITIES[self.slip_type])

    def clean(self):
        data = super().clean()
        signed = {}
        for capacity in CAPACITIES[self.slip_type]:
            person = data.get(f"sign_{capacity}")
            if person is None:
                continue
            if self.signer is not None and person.pk == self.signer.pk:
                signed[capacity] = person
                continue
            password = data.get(f"password_{capacity}") or ""
            if person.user is None or not person.user.is_active or not check_password(password, person.user.password):
                self.add_error(f"password_{capacity}", f"{person.name} must sign with their own password.")
                continue
            signed[capacity] = person
        data["signed"] = signed
        data["chips"] = {
            d.key: data.get(f"chips_{d.key}") or 0
            for d in self.event.denominations.all()
            if f"chips_{d.key}" in self.fields
        }
        if "cash" in self.fields:
            cash = data.get("cash")
            data["cash_cents"] = None if cash is None else int(cash * 100)
        if self.slip_type == SlipType.TIP_PAYOUT:
            data["hours"] = [
                (p, data[f"hours_{p.code}"])
                for p in _people_with(self.event, [Role.DEALER])
                if data.get(f"hours_{p.code}")
            ]
        return data
