"""Form fields for the cage window: cash amounts, counts of chips, bills and coins, large amounts.

What a cashier types is read by core.money.parse_cash; every field's value is integer cents (or a
whole count), and every refusal is a RuleViolation whose message names the rule it applies.
"""

import re
from dataclasses import dataclass

from django import forms
from django.conf import settings
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from core.money import (
    AMOUNT_LIMITS_RULE,
    GROUP_SPACES,
    MAX_AMOUNT_CENTS,
    MAX_CHIP_COUNT,
    cents_str,
    count_text,
    dollars,
    parse_cash,
    refusal,
)
from core.rules import Money, Words

# --- cash ------------------------------------------------------------------------------------


class CashField(forms.Field):
    """An amount of cash typed as dollars ("12,50", "12.50", "$1,234.56"); cleaned to int cents.

    `min_cents` (default 0: "0" is allowed) and `max_cents` (at most, and by default, the records
    format's bound) bound the amount. An int given as initial or data is already cents.
    """

    widget = forms.TextInput

    def __init__(self, *, min_cents: int = 0, max_cents: int = MAX_AMOUNT_CENTS, matching=None, **kwargs):
        if not 0 <= min_cents <= max_cents <= MAX_AMOUNT_CENTS:
            raise ValueError(f"CashField needs 0 <= min_cents <= max_cents <= {MAX_AMOUNT_CENTS}")
        self.min_cents = min_cents
        self.max_cents = max_cents
        # What the amount is expected to be, asked as it is read (a sale's chips, cleaned before
        # its cash): "1,500" is then read as $1,500.00 when that is it (core.money.parse_cash).
        self.matching = matching
        super().__init__(**kwargs)

    def widget_attrs(self, widget):
        attrs = super().widget_attrs(widget)
        if not widget.is_hidden:
            attrs.update({"inputmode": "decimal", "autocomplete": "off"})
        return attrs

    def to_python(self, value) -> int | None:
        if isinstance(value, str):
            value = value.strip()
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        matching = self.matching() if self.matching is not None else None
        return parse_cash(value if isinstance(value, str) else str(value), matching=matching)

    def validate(self, value):
        super().validate(value)
        if value is None:
            return
        if value < self.min_cents:
            raise refusal(
                Words(
                    N_("%(amount)s is below %(min)s, the least this amount may be."),
                    amount=Money(value),
                    min=Money(self.min_cents),
                ),
                "amount.below_field_min",
            )
        if value > self.max_cents:
            raise refusal(
                Words(
                    N_("%(amount)s is above %(max)s, the most this amount may be."),
                    amount=Money(value),
                    max=Money(self.max_cents),
                ),
                "amount.above_field_max",
            )

    def prepare_value(self, value):
        # Cents (initial, or a cleaned value) show as "12.50"; what a person typed shows as typed.
        if isinstance(value, int) and not isinstance(value, bool):
            return cents_str(value)
        return value


# --- counts ----------------------------------------------------------------------------------

_GROUPED = re.compile("[0-9]{1,3}([,." + GROUP_SPACES + "][0-9]{3})+")


class CountField(forms.Field):
    """A whole number of pieces, 0..max_count, typed with digits only ("40", " 40 ").

    `value_cents` is the value of one piece; it is rendered as `data-cents` so that the page can
    show live totals. The input has `inputmode="numeric"`, so phones and tablets offer digits.
    """

    widget = forms.TextInput

    def __init__(self, *, value_cents: int | None = None, max_count: int = MAX_CHIP_COUNT, **kwargs):
        if not 0 <= max_count <= MAX_CHIP_COUNT:
            raise ValueError(f"a count field needs 0 <= max_count <= {MAX_CHIP_COUNT}")
        self.value_cents = value_cents
        self.max_count = max_count
        super().__init__(**kwargs)

    def widget_attrs(self, widget):
        attrs = super().widget_attrs(widget)
        if not widget.is_hidden:
            attrs.update({"inputmode": "numeric", "autocomplete": "off"})
        if self.value_cents is not None:
            attrs["data-cents"] = str(self.value_cents)
        return attrs

    def to_python(self, value) -> int | None:
        if isinstance(value, str):
            value = value.strip()
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = value if isinstance(value, str) else str(value)
        if re.fullmatch(r"[0-9]{1,12}", text):
            return int(text)
        shown = text if len(text) <= 20 else text[:20] + "…"
        if text[:1] in "+-\u2212":
            message, code = N_('"%(count)s": a count has no sign; it is a whole number of 0 or more.'), "count.signed"
        elif any(c.isalpha() for c in text):
            message = N_('"%(count)s" contains letters: write a count with digits only, as in 1000; no exponents.')
            code = "count.letters"
        elif _GROUPED.fullmatch(text):
            message = N_('"%(count)s": write a count with digits only, without thousands separators, as in 1000.')
            code = "count.grouped"
        elif re.fullmatch(r"[0-9]*[.,][0-9]+", text):
            message = N_('"%(count)s": a count is a whole number, written without a decimal part, as in 40.')
            code = "count.not_whole"
        elif re.fullmatch(r"[0-9]+", text):
            message, code = N_('"%(count)s" is too long for a count.'), "count.too_long"
        else:
            message, code = (
                N_('"%(count)s" is not a count: write a whole number with digits only, as in 40.'),
                "count.invalid",
            )
        raise refusal(Words(message, count=shown), code)

    def validate(self, value):
        super().validate(value)
        if value is None:
            return
        if value < 0:
            raise refusal(
                Words(N_('"%(count)s": a count has no sign; it is a whole number of 0 or more.'), count=value),
                "count.signed",
            )
        if value > self.max_count:
            raise refusal(
                Words(
                    N_("%(count)s is more than %(max)s, the most one count may be."),
                    count=count_text(value),
                    max=count_text(self.max_count),
                ),
                "count.above_max",
            )


class ChipCountField(CountField):
    """A whole number of chips, 0..1,000,000 (cage-records/1: amounts).

    ChipCountField(value_cents=denomination.value_cents, label=..., required=False)
    """


# --- bills and coins -------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    cents: int
    label: Promise  # translated when shown


class BillsAndCoins:
    """Canadian bills and coins in circulation (the cent is no longer issued), largest first.

    A form adds one count field per piece, named prefix + cents ("cash_2000" for $20 bills), and
    totals them back in clean():

        field_names = BillsAndCoins.add_fields(form, prefix="cash_")
        cents, breakdown = BillsAndCoins.total(form.cleaned_data, prefix="cash_")
    """

    DENOMINATIONS: tuple[Piece, ...] = (
        Piece(10000, gettext_lazy("$100 bills")),
        Piece(5000, gettext_lazy("$50 bills")),
        Piece(2000, gettext_lazy("$20 bills")),
        Piece(1000, gettext_lazy("$10 bills")),
        Piece(500, gettext_lazy("$5 bills")),
        Piece(200, gettext_lazy("$2 coins")),
        Piece(100, gettext_lazy("$1 coins")),
        Piece(25, gettext_lazy("25¢ coins")),
        Piece(10, gettext_lazy("10¢ coins")),
        Piece(5, gettext_lazy("5¢ coins")),
    )

    @classmethod
    def field_name(cls, piece: Piece, prefix: str = "cash_") -> str:
        return f"{prefix}{piece.cents}"

    @classmethod
    def add_fields(cls, form: forms.BaseForm, prefix: str = "cash_", *, required: bool = False) -> list[str]:
        """Add one CountField per bill and coin to `form` (in __init__); returns the field names."""
        names = []
        for piece in cls.DENOMINATIONS:
            name = cls.field_name(piece, prefix)
            form.fields[name] = CountField(value_cents=piece.cents, label=piece.label, required=required)
            names.append(name)
        return names

    @classmethod
    def total(cls, cleaned_data: dict, prefix: str = "cash_") -> tuple[int, list[dict]]:
        """(total cents, [{"label", "count", "cents", "unit_cents"}]) for the non-zero counts, largest first.

        `cents` is the line's amount (count × unit_cents). An empty count is 0; a refused count is
        missing from cleaned_data and counts as 0 (the form is invalid anyway). A total above the
        records format's bound is refused.
        """
        total = 0
        breakdown = []
        for piece in cls.DENOMINATIONS:
            count = cleaned_data.get(cls.field_name(piece, prefix)) or 0
            if count:
                line = count * piece.cents
                total += line
                breakdown.append({"label": str(piece.label), "count": count, "cents": line, "unit_cents": piece.cents})
        if total > MAX_AMOUNT_CENTS:
            raise refusal(
                Words(
                    N_("The bills and coins add up to %(amount)s, above %(max)s, the most one amount may be."),
                    amount=Money(total),
                    max=Money(MAX_AMOUNT_CENTS),
                ),
                "cash.bills_above_max",
            )
        return total, breakdown


add_bill_fields = BillsAndCoins.add_fields
bills_total = BillsAndCoins.total


# --- large amounts ---------------------------------------------------------------------------


class ConfirmAmountInput(forms.CheckboxInput):
    """A checkbox whose value is the amount it confirms, in cents.

    Ticking it confirms that amount only: if the cashier then changes the amount, the old tick
    does not match and the form asks again.
    """

    def __init__(self, cents: int, attrs=None):
        self.cents = cents
        super().__init__(attrs, check_test=lambda value: value == str(cents))

    def format_value(self, value):
        return str(self.cents)

    def value_from_datadict(self, data, files, name):
        value = data.get(name)
        return value if isinstance(value, str) else None


class ConfirmLargeAmounts:
    """Mixin for a Form: amounts above settings.CAGE_CONFIRM_ABOVE_CENTS need a ticked confirmation.

    In clean(), once the total is known:

        def clean(self):
            cleaned = super().clean()
            self.confirm_large_amount(total_cents)
            return cleaned

    Above the limit the form gains the checkbox `confirm_large` ("I confirm the amount of
    $12,000.00"); unticked (or ticked for another amount), the form gets a non-field error.
    """

    confirm_field_name = "confirm_large"

    def confirm_large_amount(self, total_cents: int, *, limit_cents: int | None = None) -> bool:
        """True when the amount may be recorded: at most the limit, or confirmed. Else adds the error."""
        limit = settings.CAGE_CONFIRM_ABOVE_CENTS if limit_cents is None else limit_cents
        name = self.confirm_field_name
        if total_cents <= limit:
            self.fields.pop(name, None)
            self.cleaned_data.pop(name, None)
            return True
        field = forms.BooleanField(
            label=_("I confirm the amount of %(amount)s") % {"amount": dollars(total_cents)},
            label_suffix="",  # a box ticked beside its words: no colon after them
            required=False,
            widget=ConfirmAmountInput(total_cents),
        )
        self.fields[name] = field
        ticked = field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name)) == str(total_cents)
        self.cleaned_data[name] = ticked
        if not ticked:
            self.add_error(
                None,
                refusal(
                    Words(
                        N_(
                            "%(amount)s is above the confirmation limit of %(limit)s: check the amount, then tick "
                            "“I confirm the amount of %(amount)s” to record it."
                        ),
                        amount=Money(total_cents),
                        limit=Money(limit),
                    ),
                    "amount.confirm_large",
                    # Named lazily: the audit trail keeps the rule in English, the cashier reads it in theirs.
                    rule=lazy(
                        lambda: (
                            _("CAGE_CONFIRM_ABOVE: amounts above %(limit)s are confirmed") % {"limit": dollars(limit)}
                        ),
                        str,
                    )(),
                ),
            )
        return ticked


__all__ = [
    "AMOUNT_LIMITS_RULE",
    "BillsAndCoins",
    "CashField",
    "ChipCountField",
    "ConfirmAmountInput",
    "ConfirmLargeAmounts",
    "CountField",
    "Piece",
    "add_bill_fields",
    "bills_total",
]
