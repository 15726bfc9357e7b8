"""Cash and count fields at the cage window: what a cashier types, what is refused, and why."""

import pytest
from django import forms
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.utils.functional import Promise

from cage.fields import (
    BillsAndCoins,
    CashField,
    ChipCountField,
    ConfirmLargeAmounts,
    add_bill_fields,
    bills_total,
)
from config.settings import env_cents
from core.money import MAX_AMOUNT_CENTS, parse_cash
from tests.refusals import refuses

# At the window a refusal cites the limit as a cashier knows it, not the records format.
RULE = "(amount limits of a slip or count)"

# --- parse_cash --------------------------------------------------------------------------------

ACCEPTED = [
    ("12,50", 1250),
    ("12.50", 1250),
    ("12", 1200),
    ("12.5", 1250),
    ("12,5", 1250),
    ("$12.50", 1250),
    ("$ 12.50", 1250),
    ("12,50 $", 1250),
    (" 1 234,56 ", 123456),
    ("1\u202f234,56", 123456),  # narrow no-break space
    ("1\u00a0234,56", 123456),  # no-break space
    ("1 234.56", 123456),
    ("1,234.56", 123456),
    ("1.234,56", 123456),
    ("1.234.567,89", 123456789),
    ("1,234,567.8", 123456780),
    ("1234,5", 123450),
    ("1234.05", 123405),
    ("0", 0),
    ("0,00", 0),
    (".50", 50),
    (",5", 50),
    ("007", 700),
    ("10000000", MAX_AMOUNT_CENTS),
    ("10 000 000,00", MAX_AMOUNT_CENTS),
    ("$10,000,000.00", MAX_AMOUNT_CENTS),
]


@pytest.mark.parametrize("text,cents", ACCEPTED)
def test_parse_cash_reads_what_cashiers_type(text, cents):
    assert parse_cash(text) == cents


REFUSED = [
    # (typed, code, words the message must contain)
    ("1,250", "amount.ambiguous", ["ambiguous", "1250", "1,250.00", "$1,250.00", "two digits"]),
    ("1.250", "amount.ambiguous", ["ambiguous", "1250", "1.250,00", "$1,250.00"]),
    ("12.345", "amount.ambiguous", ["ambiguous", "12345"]),
    ("12.3456", "amount.too_many_decimals", ["more than two decimals"]),
    ("1,2345", "amount.too_many_decimals", ["more than two decimals"]),
    ("1,234,567", "amount.no_cents", ["no cents", "1234567", "1,234,567.00"]),
    ("1.234.567", "amount.no_cents", ["no cents", "1234567", "1.234.567,00"]),
    ("1 234", "amount.no_cents", ["no cents", "1234", "1 234,00"]),
    ("1,234,56", "amount.separator_twice", ['uses ","', "1,234.56"]),
    ("1.234.56", "amount.separator_twice", ['uses "."']),
    ("1,234 567.89", "amount.mixed_separators", ["mixes thousands separators"]),
    ("12 50", "amount.bad_grouping", ["exactly three digits"]),
    ("1,2345.00", "amount.bad_grouping", ["exactly three digits"]),
    ("12345,678.00", "amount.bad_grouping", ["exactly three digits"]),
    ("12.", "amount.stray_separator", ["between digits"]),
    ("12..5", "amount.stray_separator", ["between digits"]),
    (",,5", "amount.stray_separator", ["between digits"]),
    ("-12.50", "amount.signed", ["sign", "without + or -"]),
    ("+12.50", "amount.signed", ["sign"]),
    ("$-5", "amount.signed", ["sign"]),
    ("\u22125", "amount.signed", ["sign"]),
    ("1e3", "amount.letters", ["letters", "no exponents"]),
    ("12.50 CAD", "amount.letters", ["letters"]),
    ("ten", "amount.letters", ["letters"]),
    ("(12.50)", "amount.bad_character", ['contains "("']),
    ("$$12", "amount.bad_character", ['contains "$"']),
    ("12'50", "amount.bad_character", ['contains "\'"']),
    ("", "amount.missing", ["Enter an amount"]),
    ("  $ ", "amount.missing", ["Enter an amount"]),
    ("10000000.01", "amount.above_max", ["above $10,000,000.00"]),
    ("10 000 000,05", "amount.above_max", ["above $10,000,000.00"]),
    ("9" * 40, "amount.too_long", ["too long", "$10,000,000.00"]),
]


@pytest.mark.parametrize("text,code,words", REFUSED)
def test_parse_cash_refuses_and_says_why(text, code, words):
    with pytest.raises(ValidationError) as refused:
        parse_cash(text)
    message = str(refused.value)
    assert refused.value.code == code
    assert message.endswith(RULE)
    for word in words:
        assert word in message, (word, message)


def test_parse_cash_refuses_digits_of_other_scripts_and_non_text():
    with refuses("amount.bad_character"):
        parse_cash("١٢")  # Arabic-Indic digits are not digits at a Canadian cage
    with refuses("amount.not_text"):
        parse_cash(12.5)


# --- CashField ---------------------------------------------------------------------------------


class CashForm(forms.Form):
    amount = CashField(label="Cash")
    tip = CashField(min_cents=1, max_cents=100_00, required=False)


def test_cash_field_cleans_to_cents():
    form = CashForm(data={"amount": " 1 234,56 ", "tip": "2,5"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data == {"amount": 123456, "tip": 250}


def test_cash_field_zero_where_min_is_zero_but_not_below_min():
    form = CashForm(data={"amount": "0", "tip": "0"})
    assert not form.is_valid()
    assert "amount" not in form.errors and form.cleaned_data["amount"] == 0
    assert form.errors["tip"] == [f"$0.00 is below $0.01, the least this amount may be. {RULE}"]


def test_cash_field_bounds_and_required():
    form = CashForm(data={"amount": "", "tip": "100.01"})
    assert not form.is_valid()
    assert form.errors["amount"] == ["This field is required."]
    assert form.errors["tip"] == [f"$100.01 is above $100.00, the most this amount may be. {RULE}"]
    assert CashForm(data={"amount": "1", "tip": ""}).is_valid()
    with pytest.raises(ValueError):
        CashField(max_cents=MAX_AMOUNT_CENTS + 1)


def test_cash_field_refusal_shows_in_the_form_and_keeps_what_was_typed():
    form = CashForm(data={"amount": "1,250", "tip": ""})
    assert not form.is_valid()
    [message] = form.errors["amount"]
    assert "ambiguous" in message and message.endswith(RULE)
    html = str(form["amount"])
    assert 'value="1,250"' in html and 'inputmode="decimal"' in html


def test_cash_field_shows_cents_as_dollars_and_knows_when_unchanged():
    form = CashForm(initial={"amount": 120000})
    assert 'value="1200.00"' in str(form["amount"])
    assert not CashForm(data={"amount": "1 200,00"}, initial={"amount": 120000}).has_changed()
    assert CashForm(data={"amount": "1 200,01"}, initial={"amount": 120000}).has_changed()


# --- ChipCountField ----------------------------------------------------------------------------


class ChipsForm(forms.Form):
    fives = ChipCountField(value_cents=500, label="$5 chips", required=False)


@pytest.mark.parametrize("typed,count", [("40", 40), (" 40 ", 40), ("0", 0), ("", None), ("1000000", 1_000_000)])
def test_chip_count_accepts_whole_numbers(typed, count):
    form = ChipsForm(data={"fives": typed})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["fives"] == count


@pytest.mark.parametrize(
    "typed,code,words",
    [
        ("4.5", "count.not_whole", "whole number, written without a decimal part"),
        ("40,0", "count.not_whole", "whole number, written without a decimal part"),
        ("-1", "count.signed", "has no sign"),
        ("1e3", "count.letters", "contains letters"),
        ("1,000", "count.grouped", "without thousands separators"),
        ("1 000", "count.grouped", "without thousands separators"),
        ("1000001", "count.above_max", "more than 1,000,000"),
        ("99999999999999999999", "count.too_long", "too long"),
        ("4/5", "count.invalid", "not a count"),
    ],
)
def test_chip_count_refuses_with_clear_messages(typed, code, words):
    form = ChipsForm(data={"fives": typed})
    assert not form.is_valid()
    [message] = form.errors["fives"]
    assert words in message and message.endswith(RULE)
    [error] = form.errors.as_data()["fives"]
    assert error.code == code


def test_chip_count_renders_numeric_input_with_the_chips_value():
    html = str(ChipsForm()["fives"])
    assert 'inputmode="numeric"' in html and 'data-cents="500"' in html and 'type="text"' in html


# --- bills and coins ---------------------------------------------------------------------------


class CashCountForm(forms.Form):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.piece_fields = add_bill_fields(self, prefix="cash_")

    def clean(self):
        cleaned = super().clean()
        cleaned["total"], cleaned["breakdown"] = bills_total(cleaned, prefix="cash_")
        return cleaned


def test_one_count_field_per_bill_and_coin_in_circulation():
    form = CashCountForm()
    assert form.piece_fields == [
        "cash_10000",
        "cash_5000",
        "cash_2000",
        "cash_1000",
        "cash_500",
        "cash_200",
        "cash_100",
        "cash_25",
        "cash_10",
        "cash_5",
    ]
    assert "cash_1" not in form.fields  # the cent is no longer issued
    assert str(form.fields["cash_2000"].label) == "$20 bills"
    assert str(form.fields["cash_25"].label) == "25¢ coins"
    assert all(isinstance(p.label, Promise) for p in BillsAndCoins.DENOMINATIONS)
    assert 'data-cents="2000"' in str(form["cash_2000"]) and 'inputmode="numeric"' in str(form["cash_2000"])


def test_bills_and_coins_total_to_cents_with_a_breakdown_of_non_zero_counts():
    form = CashCountForm(data={"cash_10000": "3", "cash_2000": " 12 ", "cash_500": "0", "cash_25": "7", "cash_5": ""})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["total"] == 3 * 10000 + 12 * 2000 + 7 * 25
    assert form.cleaned_data["breakdown"] == [
        {"label": "$100 bills", "count": 3, "cents": 30000, "unit_cents": 10000},
        {"label": "$20 bills", "count": 12, "cents": 24000, "unit_cents": 2000},
        {"label": "25¢ coins", "count": 7, "cents": 175, "unit_cents": 25},
    ]


def test_an_empty_count_is_zero_and_a_bad_count_is_refused():
    assert CashCountForm(data={}).is_valid()
    form = CashCountForm(data={"cash_2000": "2.5", "cash_10": "-3"})
    assert not form.is_valid()
    assert "whole number" in form.errors["cash_2000"][0]
    assert "has no sign" in form.errors["cash_10"][0]


def test_bills_and_coins_refuse_a_total_above_the_records_bound():
    form = CashCountForm(data={"cash_10000": "100000", "cash_5": "1"})  # $10,000,000.05
    assert not form.is_valid()
    assert form.non_field_errors() == [
        f"The bills and coins add up to $10,000,000.05, above $10,000,000.00, the most one amount may be. {RULE}"
    ]
    assert CashCountForm(data={"cash_10000": "100000"}).is_valid()


def test_bills_with_another_prefix_and_required_counts():
    class TwoDrawers(forms.Form):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            BillsAndCoins.add_fields(self, prefix="in_")
            BillsAndCoins.add_fields(self, prefix="out_", required=True)

    form = TwoDrawers(data={"in_500": "2"})
    assert not form.is_valid()
    assert set(form.errors) == {f"out_{p.cents}" for p in BillsAndCoins.DENOMINATIONS}
    assert BillsAndCoins.total(form.cleaned_data, prefix="in_")[0] == 1000
    assert BillsAndCoins.total(form.cleaned_data, prefix="out_") == (0, [])


# --- confirmation of large amounts -------------------------------------------------------------


class DepositForm(ConfirmLargeAmounts, forms.Form):
    amount = CashField()

    def clean(self):
        cleaned = super().clean()
        if "amount" in cleaned:
            self.confirm_large_amount(cleaned["amount"])
        return cleaned


@pytest.fixture
def limit(settings):
    settings.CAGE_CONFIRM_ABOVE_CENTS = 5000_00
    return settings


def test_amounts_up_to_the_limit_need_no_confirmation(limit):
    form = DepositForm(data={"amount": "5000"})
    assert form.is_valid(), form.errors
    assert "confirm_large" not in form.fields and "confirm_large" not in form.cleaned_data


def test_an_amount_above_the_limit_asks_for_confirmation(limit):
    form = DepositForm(data={"amount": "12 000,00"})
    assert not form.is_valid()
    assert form.non_field_errors() == [
        "$12,000.00 is above the confirmation limit of $5,000.00: check the amount, then tick "
        "“I confirm the amount of $12,000.00” to record it. "
        "(CAGE_CONFIRM_ABOVE: amounts above $5,000.00 are confirmed)"
    ]
    assert str(form.fields["confirm_large"].label) == "I confirm the amount of $12,000.00"
    html = str(form["confirm_large"])
    assert 'type="checkbox"' in html and 'value="1200000"' in html and "checked" not in html


def test_a_ticked_confirmation_passes(limit):
    form = DepositForm(data={"amount": "12 000,00", "confirm_large": "1200000"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data == {"amount": 1200000, "confirm_large": True}
    assert "checked" in str(form["confirm_large"])


def test_a_tick_confirms_only_the_amount_it_was_given_for(limit):
    # Confirmed $12,000.00, then changed the amount to $120,000.00: asked again.
    form = DepositForm(data={"amount": "120 000,00", "confirm_large": "1200000"})
    assert not form.is_valid()
    assert "$120,000.00 is above the confirmation limit" in form.non_field_errors()[0]
    assert "checked" not in str(form["confirm_large"])
    # A plain "on" from a hand-made checkbox confirms nothing either.
    assert not DepositForm(data={"amount": "12000", "confirm_large": "on"}).is_valid()


def test_confirmation_with_a_form_prefix_and_a_limit_of_its_own(limit):
    form = DepositForm(data={"dep-amount": "12000", "dep-confirm_large": "1200000"}, prefix="dep")
    assert form.is_valid(), form.errors
    assert 'name="dep-confirm_large"' in str(form["confirm_large"])

    class Small(ConfirmLargeAmounts, forms.Form):
        amount = CashField()

        def clean(self):
            cleaned = super().clean()
            self.confirm_large_amount(cleaned.get("amount", 0), limit_cents=100_00)
            return cleaned

    assert Small(data={"amount": "100"}).is_valid()
    assert not Small(data={"amount": "100,05"}).is_valid()


def test_the_limit_comes_from_the_environment_in_dollars(monkeypatch):
    monkeypatch.delenv("CAGE_CONFIRM_ABOVE", raising=False)
    assert env_cents("CAGE_CONFIRM_ABOVE", "5000") == 5000_00
    monkeypatch.setenv("CAGE_CONFIRM_ABOVE", "2500.5")
    assert env_cents("CAGE_CONFIRM_ABOVE", "5000") == 2500_50
    for bad in ("", "-1", "1,000", "5k", "12.345"):
        monkeypatch.setenv("CAGE_CONFIRM_ABOVE", bad)
        with pytest.raises(ImproperlyConfigured, match="CAGE_CONFIRM_ABOVE must be dollars"):
            env_cents("CAGE_CONFIRM_ABOVE", "5000")
