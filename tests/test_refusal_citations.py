"""Every refusal cites the section that makes the rule, as the reader's language numbers it: the
French text numbers the designated persons' block 2.1, so English T&C 2.1 to 2.7 are M&C 2.2 to
2.8. One row per rule: what is tried, and the citation it ends with in English and in French."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone
from django.utils.translation import override

from cage import services
from core.rules import RuleViolation
from events import services as event_services
from events.models import Assignment, Role
from tests.cage.helpers import open_table, roster_dealers, stock
from tests.conftest import add_person

pytestmark = pytest.mark.django_db


def sale_by(cast, persona, **extra):
    return lambda: services.sale(
        day=cast.day,
        chips={"5": 2},
        cash=extra.pop("cash", 1000),
        signed={"sold_by": getattr(cast, persona)},
        allow_pending=True,
        **extra,
    )


def tips_to_the_dric(cast):
    Assignment.objects.create(person=cast.dric, role=Role.DEALER)  # an event set up before the rule
    return lambda: services.tip_payout(
        day=cast.day,
        hours=[(cast.dric, Decimal("4"))],
        signed=cast.signed(paid_by="general_cashier", verified_by="chip_cashier", authorized_by="dric"),
        records_file=True,
    )


def off_duty(cast):
    begins = timezone.make_aware(datetime.datetime.combine(cast.day.date, datetime.time(12)))
    event_services.shift_add(
        day=cast.day,
        person=cast.chip_cashier,
        role=Role.CHIP_CASHIER,
        starts_at=begins,
        ends_at=begins + datetime.timedelta(hours=2),
    )
    return lambda: services.chips_received(
        day=cast.day,
        chips={"5": 1},
        signed=cast.signed(received_by="chip_cashier", witnessed_by="dric"),
        at=begins + datetime.timedelta(hours=5),
    )


# (what is tried, given the cast; the English citation; the French one)
CASES = {
    "a sale by neither the Chip Cashier nor a runner": (
        lambda c: sale_by(c, "general_cashier"),
        "T&C 3.4.2",
        "M&C 3.4.2",
    ),
    "chips for less cash than their value": (lambda c: sale_by(c, "chip_cashier", cash=900), "T&C 3.7", "M&C 3.7"),
    "chips for more cash than their value": (lambda c: sale_by(c, "chip_cashier", cash=1100), "T&C 3.6", "M&C 3.6"),
    "a sale in US dollars": (lambda c: sale_by(c, "chip_cashier", currency="USD"), "T&C 3.6", "M&C 3.6"),
    "a sale by cheque": (lambda c: sale_by(c, "chip_cashier", tender="cheque"), "T&C 3.7", "M&C 3.7"),
    "a person under 18": (
        lambda c: lambda: add_person(c.event, "kid", None, born_on=datetime.date(2010, 1, 1)),
        "T&C 1.5.2",
        "M&C 1.5.2",
    ),
    "one person signing two capacities": (
        lambda c: (
            lambda: services.sale(
                day=c.day, chips={"5": 2}, cash=1000, signed={"sold_by": c.dric, "authorized_by": c.dric}
            )
        ),
        "T&C 2",
        "M&C 2.1",
    ),
    "a designated person given a floor role": (
        lambda c: lambda: event_services.role_assign(person=c.general_cashier, role=Role.RUNNER, by=None),
        "T&C 2, 2.5, 2.6",
        "M&C 2.1, 2.6, 2.7",
    ),
    "tips paid to a designated person": (tips_to_the_dric, "T&C 2.5, 2.6", "M&C 2.6, 2.7"),
    "a designated person signing off duty": (off_duty, "T&C 2", "M&C 2.1"),
    "a refused registration": (
        lambda c: lambda: add_person(c.event, "rex", None, registration="revoked"),
        "T&C 2.3",
        "M&C 2.4",
    ),
    "wages of the supplier's staff as an expense": (
        lambda c: (
            lambda: services.expense(
                day=c.day,
                category="supplier_wages",
                description="Dealers",
                cash=100,
                invoice="",
                signed=c.signed(prepared_by="general_cashier", approved_by="dric"),
            )
        ),
        "T&C 2.4",
        "M&C 2.5",
    ),
    "a supplier's dealer without a gaming-assistant registration": (
        lambda c: (
            lambda: event_services.role_assign(
                person=add_person(c.event, "sid", None, supplier_associated=True), role=Role.DEALER, by=None
            )
        ),
        "T&C 4.2",
        "M&C 4.2",
    ),
    "a table of a game the licence does not authorize": (
        lambda c: lambda: event_services.table_create(event=c.event, code="CR-9", game="craps"),
        "T&C 1.5.1",
        "M&C 1.5.1",
    ),
    "a gaming day outside the licensed dates": (
        lambda c: lambda: event_services.day_add(event=c.event, date=c.event.last_day + datetime.timedelta(days=1)),
        "T&C 1.3",
        "M&C 1.3",
    ),
    "a redemption of chips nobody bought": (
        lambda c: (
            lambda: services.redemption(
                day=c.day,
                chips={"25": 4},
                cash=10_000,
                signed=c.signed(paid_by="general_cashier", authorized_by="dric"),
            )
        ),
        "T&C 3.4.3",
        "M&C 3.4.3",
    ),
    "tips paid out before the tip pool is counted": (lambda c: payout_before_the_count(c), "T&C 2.6", "M&C 2.7"),
}


def payout_before_the_count(cast):
    roster_dealers(cast)
    services.tips(
        day=cast.day, table=cast.bj, chips={"1": 4}, signed=cast.signed(counted_by="dealer", verified_by="chip_cashier")
    )
    return lambda: services.tip_payout(
        day=cast.day,
        hours=[(cast.dealer, Decimal("4"))],
        signed=cast.signed(paid_by="general_cashier", verified_by="chip_cashier", authorized_by="dric"),
    )


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_refusal_cites_its_section_in_the_readers_numbering(cast, case, language):
    stock(cast)
    open_table(cast)
    attempt, english, french = CASES[case]
    tried = attempt(cast)
    with override("fr-ca" if language == "fr" else "en-ca"), pytest.raises(RuleViolation) as refused:
        tried()
    cited = french if language == "fr" else english
    assert refused.value.text.endswith(f"({cited})"), (case, refused.value.text)
    assert refused.value.rule_reference == english  # kept in English for the trail and for machines


def test_a_product_rule_is_known_by_its_code_in_every_language():
    """A program (the importer) tells a refusal's rule by its code, never by its words."""
    from django.utils import translation

    from core.money import AMOUNT_LIMITS_RULE, parse_cash
    from core.rules import RuleViolation

    for language in ("en", "fr-ca"):
        with translation.override(language):
            try:
                parse_cash("12,345")
            except RuleViolation as refused:
                assert refused.rule_code == AMOUNT_LIMITS_RULE.code == "amount_limits"
                assert refused.rule_reference == "amount limits of a slip or count"
            else:
                raise AssertionError("an ambiguous amount was taken")
    section = RuleViolation("no", "T&C 3.7")
    assert section.rule_code == section.rule_reference == "T&C 3.7"
