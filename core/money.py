"""Money is integer cents everywhere; these are the only places it turns into text or is split."""

import re
from decimal import Decimal, InvalidOperation
from typing import NoReturn

from django.utils.formats import number_format
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext_noop as N_

from core.rules import Money, Rule, RuleViolation, Words

NBSP = "\u00a0"


def cents_str(cents: int) -> str:
    """Cents as dollars with exactly two decimals: 12000 → "120.00", -200 → "-2.00"."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}{whole}.{part:02d}"


def dollars(cents: int) -> str:
    """For people, in the active language: "$1,234.50", "-$2.00" in English; "1 234,50 $",
    "-2,00 $" in French, grouped and spaced with no-break spaces so an amount never splits
    across lines."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    if (get_language() or "").startswith("fr"):
        return f"{sign}{whole:,}".replace(",", NBSP) + f",{part:02d}{NBSP}$"
    return f"{sign}${whole:,}.{part:02d}"


def face(key: str) -> str:
    """A chip denomination's key ("5", "0.50") as the active language writes the number: "0.50"
    in English, "0,50" in French. The dollar sign is the sentence's: "$%(value)s chips"."""
    text = str(key)
    if (get_language() or "").startswith("fr"):
        return text.replace(".", ",")
    return text


def count_text(n: int) -> str:
    """A whole number of chips or pieces, grouped as the active language groups the dollars
    beside it: "1,000" in English, "1 000" (no-break space) in French."""
    text = f"{int(n):,}"
    if (get_language() or "").startswith("fr"):
        return text.replace(",", NBSP)
    return text


def largest_remainder_split(total: int, weights: list[Decimal]) -> list[int]:
    """Split `total` cents in proportion to `weights`; the parts add up to `total` exactly.

    Each part gets the whole cents of its exact share; the cents left over go one each to the
    largest remainders, ties to the earliest listed (T&C 2.6: tips shared pro rata).
    """
    weight_sum = sum(weights)
    if total < 0 or weight_sum <= 0 or any(w < 0 for w in weights):
        raise ValueError("split needs a non-negative total and positive weights")
    exact = [Decimal(total) * w / weight_sum for w in weights]
    parts = [int(e) for e in exact]
    left = total - sum(parts)
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - parts[i]), i))
    for i in order[:left]:
        parts[i] += 1
    assert sum(parts) == total
    return parts


def shortest_decimal(value: Decimal) -> str:
    """4 → "4", 2.50 → "2.5": the report's form for hours."""
    text = format(value.normalize(), "f")
    return text


def hours_text(value) -> str:
    """Hours worked for people, in the active language: 4 → "4", 2.50 → "2.5" in English and
    "2,5" in French. `value` is a Decimal or its text as a slip keeps it ("3.5")."""
    try:
        hours = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return str(value)
    if not hours.is_finite():
        return str(value)
    return number_format(Decimal(shortest_decimal(hours)))


# --- what a person types at the cage window ---------------------------------------------------

# The records format's bounds (cage-records/1: amounts): one amount of cash, one count of chips.
MAX_AMOUNT_CENTS = 10_000_000_00
MAX_CHIP_COUNT = 1_000_000
# The product's own rules, named in the reader's language (core.rules.RuleViolation). At the
# window (forms and the slip services) a refusal cites the limit as a cashier knows it; a records
# file's own amounts, read by the importer, cite the format's section that sets them.
AMOUNT_LIMITS_RULE = Rule("amount_limits", gettext_lazy("amount limits of a slip or count"))
AMOUNTS_RULE = gettext_lazy("cage-records/1: amounts")

# Spaces that may group thousands: the space, the no-break space and the narrow no-break space.
GROUP_SPACES = " \u00a0\u202f"
_SIGNS = "+-\u2212"
# Longer than "$10 000 000,00" with room for stray spaces: refused before it is parsed or echoed.
_LONGEST = 32


def refusal(message: Words, code: str, rule: Rule | str = AMOUNT_LIMITS_RULE) -> RuleViolation:
    """A refusal of what was typed, with its code ("amount.ambiguous"), citing the amount limits of
    a slip unless told another rule. The code is also the form error's (ValidationError.code)."""
    return RuleViolation(message, rule, code=code)


def _grouped(cents: int, thousands: str, decimal: str) -> str:
    """1234567 cents, " ", "," → "12 345,67": how to write an amount with the separators given."""
    whole, part = divmod(cents, 100)
    return f"{whole:,}".replace(",", thousands) + f"{decimal}{part:02d}"


def _check_groups(text: str, groups: list[str]) -> None:
    if len(groups[0]) > 3 or any(len(g) != 3 for g in groups[1:]):
        raise refusal(
            Words(
                N_(
                    '"%(amount)s": a space, comma or point between digits groups thousands, so each group after '
                    "it has exactly three digits, as in 1 234 567,89 or 1,234,567.89; the cents come after the last "
                    "comma or point."
                ),
                amount=text,
            ),
            "amount.bad_grouping",
        )


def parse_cash(text: str, *, matching: int | None = None) -> int:
    """Dollars as a cashier types them, to integer cents: "12,50", "12.50", "$12.50", "1 234,56" → cents.

    A comma or a point followed by one or two digits is the decimal separator. Alone and followed
    by exactly three digits it is ambiguous ("1,250": a thousand, or one and a quarter?) and is
    refused. Thousands may be grouped by a space, a no-break space, or the comma or point that is
    not the decimal separator, and only in an amount that shows its cents ("1,234.56",
    "1.234,56", "1 234,56"). One dollar sign may lead or follow. No sign, exponent or letters;
    at most MAX_AMOUNT_CENTS. Every refusal is a RuleViolation citing the amount limits of a slip or count.

    `matching`: the cents this amount is expected to be (a sale's cash is its chips' face value).
    An amount grouped in thousands without cents ("1,500", "1 500", "1.500", "1,234,567"), whose
    whole dollars are exactly that, is read so: what it is meant to be leaves no doubt. Any other
    reading is refused as without it.
    """
    shown, body = _typed(text)
    groups, seps = _groups(shown, body)
    if not seps:
        return _bounded(shown, int(groups[0]) * 100)
    last, tail = seps[-1], groups[-1]
    if last in ",." and len(tail) <= 2:
        return _with_cents(shown, groups, seps)
    if matching is not None and _whole_thousands(groups, seps) == matching:
        return _bounded(shown, matching)
    if last in ",." and len(seps) == 1:
        _refuse_one_separator(shown, groups, last)
    _refuse_no_cents(shown, groups, seps)


def _whole_thousands(groups: list[str], seps: list[str]) -> int | None:
    """The cents of whole dollars grouped in thousands by one kind of separator ("1,500",
    "1 234 567"), or None when the groups are not thousands."""
    if len(set(seps)) != 1 or not groups[0] or len(groups[0]) > 3 or any(len(g) != 3 for g in groups[1:]):
        return None
    return int("".join(groups)) * 100


def _typed(text) -> tuple[str, str]:
    """The amount as typed (stripped) and its digits and separators alone (no dollar sign),
    refusing what is no amount at all: not text, too long, empty, signed, letters, other signs."""
    if not isinstance(text, str):
        raise refusal(
            Words(N_("An amount of cash is typed as text, not %(type)s."), type=type(text).__name__), "amount.not_text"
        )
    shown = text.strip()
    if len(shown) > _LONGEST:
        raise refusal(
            Words(N_("This amount is too long: one amount is at most %(max)s."), max=Money(MAX_AMOUNT_CENTS)),
            "amount.too_long",
        )
    body = shown
    if body.startswith("$"):
        body = body[1:].lstrip()
    elif body.endswith("$"):
        body = body[:-1].rstrip()
    if not body:
        raise refusal(Words(N_("Enter an amount of dollars, such as 12.50 or 12,50.")), "amount.missing")
    if any(c in _SIGNS for c in body):
        raise refusal(
            Words(N_('"%(amount)s" has a sign: an amount is written without + or -, as in 12.50.'), amount=shown),
            "amount.signed",
        )
    if any(c.isalpha() for c in body):
        raise refusal(
            Words(
                N_(
                    '"%(amount)s" contains letters: an amount is digits with at most one decimal comma or point, '
                    "as in 1000.00; no words, no exponents."
                ),
                amount=shown,
            ),
            "amount.letters",
        )
    for c in body:
        if not ("0" <= c <= "9" or c in ",." or c in GROUP_SPACES):
            raise refusal(
                Words(
                    N_(
                        '"%(amount)s" contains "%(char)s": an amount is digits with one decimal comma or point, as in 12.50.'
                    ),
                    amount=shown,
                    char=c,
                ),
                "amount.bad_character",
            )
    return shown, body


def _groups(shown: str, body: str) -> tuple[list[str], list[str]]:
    """The runs of digits and the separators between them (spaces as one " ")."""
    tokens = re.findall(r"[0-9]+|[^0-9]", body)
    groups = tokens[0::2] if tokens[0][0].isdigit() else [""] + tokens[1::2]
    seps = tokens[1::2] if tokens[0][0].isdigit() else tokens[0::2]
    seps = [" " if s in GROUP_SPACES else s for s in seps]
    if len(groups) != len(seps) + 1 or any(not g for g in groups[1:]) or (not groups[0] and len(seps) > 1):
        raise refusal(
            Words(
                N_(
                    '"%(amount)s": a separator stands between digits and is followed by digits, as in 12.50 or 1 234,56.'
                ),
                amount=shown,
            ),
            "amount.stray_separator",
        )
    return groups, seps


def _with_cents(shown: str, groups: list[str], seps: list[str]) -> int:
    """An amount that shows its cents after its last separator, its thousands grouped one way."""
    last, tail = seps[-1], groups[-1]
    thousands = set(seps[:-1])
    if last in thousands:
        raise refusal(
            Words(
                N_(
                    '"%(amount)s" uses "%(sep)s" both between thousands and before the cents: group thousands with '
                    "a space or the other separator, as in 1,234.56, 1.234,56 or 1 234,56."
                ),
                amount=shown,
                sep=last,
            ),
            "amount.separator_twice",
        )
    if len(thousands) > 1:
        raise refusal(
            Words(N_('"%(amount)s" mixes thousands separators: use one kind, as in 1 234 567,89.'), amount=shown),
            "amount.mixed_separators",
        )
    if thousands:
        _check_groups(shown, groups[:-1])
    return _bounded(shown, int("".join(groups[:-1]) or "0") * 100 + int(tail.ljust(2, "0")))


def _refuse_one_separator(shown: str, groups: list[str], last: str) -> NoReturn:
    """One comma or point followed by three digits or more: ambiguous, or too many decimals."""
    tail = groups[-1]
    whole = int(groups[0] + tail) * 100
    if len(tail) == 3:
        raise refusal(
            Words(
                N_(
                    '"%(amount)s" is ambiguous: a comma or point followed by three digits may separate thousands or '
                    "cents. For %(money)s write %(plain)s or %(grouped)s; for less, write at most two digits after the "
                    "separator, as in 1.25 or 1,25."
                ),
                amount=shown,
                money=Money(whole),
                plain=whole // 100,
                grouped=_grouped(whole, last, "," if last == "." else "."),
            ),
            "amount.ambiguous",
        )
    raise refusal(
        Words(
            N_('"%(amount)s" has more than two decimals: cents are at most two digits after the comma or point.'),
            amount=shown,
        ),
        "amount.too_many_decimals",
    )


def _refuse_no_cents(shown: str, groups: list[str], seps: list[str]) -> NoReturn:
    """Only thousands separators and no cents: "1,234,567", "1 234", "12 50"."""
    last = seps[-1]
    _check_groups(shown, groups)
    if len(set(seps)) > 1:
        raise refusal(
            Words(N_('"%(amount)s" mixes thousands separators: use one kind, as in 1 234 567,89.'), amount=shown),
            "amount.mixed_separators",
        )
    whole = int("".join(groups)) * 100
    decimal = "," if last in " ." else "."
    raise refusal(
        Words(
            N_('"%(amount)s" groups thousands but shows no cents: write %(plain)s, or %(grouped)s with the cents.'),
            amount=shown,
            plain=whole // 100,
            grouped=_grouped(whole, last, decimal),
        ),
        "amount.no_cents",
    )


def _bounded(shown: str, cents: int) -> int:
    if cents > MAX_AMOUNT_CENTS:
        raise refusal(
            Words(
                N_('"%(amount)s" is above %(max)s, the most one amount may be.'),
                amount=shown,
                max=Money(MAX_AMOUNT_CENTS),
            ),
            "amount.above_max",
        )
    return cents
