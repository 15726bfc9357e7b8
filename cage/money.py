"""Money is integer cents everywhere; these are the only places it turns into text or is split."""

from decimal import Decimal


def cents_str(cents: int) -> str:
    """Cents as dollars with exactly two decimals: 12000 → "120.00", -200 → "-2.00"."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}{whole}.{part:02d}"


def dollars(cents: int) -> str:
    """For people: "$1,234.50", "-$2.00"."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{part:02d}"


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
