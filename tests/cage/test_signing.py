"""Signatures that follow a slip: fills and credits in transit through the runner, the DRIC's
witness from her queue, voids she asks for, and a day that cannot close while any slip waits."""

import pytest

from cage import services
from cage.models import Account, Posting, Signature, Slip
from cage.selectors.slips import State, can_sign, pending_slips, states_of, to_sign_for
from events.models import GameTable
from tests.cage.helpers import CREDIT_SIGNED, FILL_SIGNED, SALE_SIGNED, fill_issued, open_table, stock
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def held(cast, kind, person=None, table=None):
    account = services.account_get(cast.event, kind, person=person, table=table)
    return {d.key: v for d, v in _by_denomination(account).items()}


def _by_denomination(account):
    denominations = {d.pk: d for d in account.event.denominations.all()}
    return {denominations[k]: v for k, v in services.balance(account).items() if k is not None}


def fill_at_cage(cast, chips=None, **extra):
    """The Chip Cashier issues a fill and the runner takes it: the first custody step only."""
    return services.fill(
        day=cast.day,
        table=cast.bj,
        chips=chips or {"5": 40},
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner"),
        allow_pending=True,
        **extra,
    )


def test_a_fill_moves_to_the_runner_at_the_cage_and_into_the_tray_when_the_dealer_signs(cast):
    stock(cast)
    open_table(cast)
    slip = fill_at_cage(cast)
    assert held(cast, Account.Kind.RUNNER, person=cast.runner) == {"5": 20000}
    assert held(cast, Account.Kind.TABLE, table=cast.bj) == {"1": 10000, "5": 40000}
    assert [p.state for p in pending_slips(cast.event)] == [State.IN_TRANSIT]

    services.sign(slip=slip, capacity="received_by", person=cast.dealer)
    assert held(cast, Account.Kind.RUNNER, person=cast.runner) == {}
    assert held(cast, Account.Kind.TABLE, table=cast.bj) == {"1": 10000, "5": 60000}
    assert [p.state for p in pending_slips(cast.event)] == [State.WAITING]  # the DRIC has yet to authorize

    services.approve(slip=slip, person=cast.dric)
    assert pending_slips(cast.event) == []
    assert states_of([Slip.objects.prefetch_related("signatures").get(pk=slip.pk)]) == {slip.pk: State.COMPLETE}
    # Each step balanced on its own; the runner's side nets to nothing.
    assert sum(Posting.objects.filter(slip=slip).values_list("amount", flat=True)) == 0


def test_the_dealer_cannot_receive_a_fill_before_the_chips_leave_the_cage(cast):
    stock(cast)
    open_table(cast)
    slip = services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"5": 4},
        runner=cast.runner,
        signed=cast.signed(issued_by="chip_cashier"),
        allow_pending=True,
    )
    assert not Posting.objects.filter(slip=slip).exists()
    with refuses("signing.waits_for_earlier_step"):
        services.sign(slip=slip, capacity="received_by", person=cast.dealer)
    assert not Signature.objects.filter(slip=slip, capacity="received_by").exists()
    services.sign(slip=slip, capacity="carried_by", person=cast.runner)
    assert held(cast, Account.Kind.RUNNER, person=cast.runner) == {"5": 2000}


def test_only_the_runner_named_on_the_fill_carries_it_and_a_dealer_receives_it(cast):
    stock(cast)
    open_table(cast)
    slip = services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"5": 4},
        runner=cast.runner,
        signed=cast.signed(issued_by="chip_cashier"),
        allow_pending=True,
    )
    with refuses("signing.not_the_runner", runner="Runner"):
        services.sign(slip=slip, capacity="carried_by", person=cast.runner2)
    services.sign(slip=slip, capacity="carried_by", person=cast.runner)
    with refuses("signing.role_not_held"):
        services.sign(slip=slip, capacity="received_by", person=cast.general_cashier)
    with refuses("signing.already_signed", name="Runner"):
        services.sign(slip=slip, capacity="carried_by", person=cast.runner)
    with refuses("signing.same_person"):
        services.sign(slip=slip, capacity="received_by", person=cast.chip_cashier)


def test_a_credit_is_written_at_the_cage_released_at_the_table_and_received_back(cast):
    stock(cast)
    open_table(cast)
    slip = services.credit(
        day=cast.day, table=cast.bj, chips={"5": 20}, runner=cast.runner, signed={}, allow_pending=True
    )
    assert held(cast, Account.Kind.TABLE, table=cast.bj) == {"1": 10000, "5": 40000}
    services.sign(slip=slip, capacity="released_by", person=cast.dealer)
    assert held(cast, Account.Kind.TABLE, table=cast.bj) == {"1": 10000, "5": 40000}  # the runner has not signed
    services.sign(slip=slip, capacity="carried_by", person=cast.runner)
    assert held(cast, Account.Kind.TABLE, table=cast.bj) == {"1": 10000, "5": 30000}
    assert held(cast, Account.Kind.RUNNER, person=cast.runner) == {"5": 10000}
    services.sign(slip=slip, capacity="received_by", person=cast.chip_cashier)
    assert held(cast, Account.Kind.RUNNER, person=cast.runner) == {}
    assert held(cast, Account.Kind.CHIP_BANK) == {"1": 90000, "5": 170000, "25": 100000}


def test_a_table_does_not_close_while_a_fill_to_it_is_in_transit(cast):
    stock(cast)
    open_table(cast)
    slip = fill_at_cage(cast)
    with refuses("closer.transit_unfinished", table="BJ-1"):
        services.table_close(
            day=cast.day,
            table=cast.bj,
            chips={"1": 100, "5": 120},
            signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
        )
    assert GameTable.objects.get(pk=cast.bj.pk).state == GameTable.State.OPEN
    services.sign(slip=slip, capacity="received_by", person=cast.dealer)
    services.table_close(
        day=cast.day,
        table=cast.bj,
        chips={"1": 100, "5": 120},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )


def test_a_fill_in_transit_voided_brings_the_chips_back_from_the_runner(cast):
    stock(cast)
    open_table(cast)
    slip = fill_at_cage(cast)
    services.void(
        day=cast.day,
        target=slip,
        reason="wrong table",
        signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
    )
    assert held(cast, Account.Kind.RUNNER, person=cast.runner) == {}
    assert held(cast, Account.Kind.CHIP_BANK)["5"] == 200000 - 40000
    with refuses("signing.slip_voided"):
        services.sign(slip=slip, capacity="received_by", person=cast.dealer)
    assert pending_slips(cast.event) == []


def test_the_dric_voids_from_her_queue_and_the_cashier_carries_out_the_reversal(cast):
    stock(cast)
    sale = services.sale(
        day=cast.day,
        chips={"5": 10},
        cash=5000,
        signed=cast.signed(sold_by="chip_cashier"),
        allow_pending=True,
    )
    assert [(p.slip.pk, p.state) for p in pending_slips(cast.event)] == [(sale.pk, State.WAITING)]
    void = services.void(
        day=cast.day, target=sale, reason="patron changed mind", signed={"authorized_by": cast.dric}, allow_pending=True
    )
    assert not Posting.objects.filter(slip=void).exists()
    assert [p.slip.pk for p in pending_slips(cast.event)] == [void.pk]
    services.sign(slip=void, capacity="requested_by", person=cast.general_cashier)
    assert services.balance(services.account_get(cast.event, Account.Kind.PATRONS)) == {}
    assert pending_slips(cast.event) == []


def test_the_queue_lists_oldest_first_and_says_who_may_sign(cast):
    stock(cast)
    open_table(cast)
    sale = services.sale(
        day=cast.day, chips={"5": 2}, cash=1000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    fill = fill_at_cage(cast)
    items = pending_slips(cast.event)
    assert [i.slip.pk for i in items] == [sale.pk, fill.pk]
    dric_roles = cast.dric.role_codes()
    assert [c.code for c in can_sign(cast.dric, items[0], dric_roles)] == ["authorized_by"]
    assert [c.code for c in can_sign(cast.dealer, items[1], cast.dealer.role_codes())] == ["received_by"]
    assert can_sign(cast.dealer, items[0], cast.dealer.role_codes()) == []
    # The runner who carried the fill cannot also receive it or authorize it.
    assert can_sign(cast.runner, items[1], cast.runner.role_codes()) == []
    assert [i.slip.pk for i, _caps in to_sign_for(cast.event, cast.dealer, cast.dealer.role_codes())] == [fill.pk]


def test_the_day_does_not_close_while_a_slip_waits(cast):
    stock(cast)
    services.sale(
        day=cast.day, chips={"5": 2}, cash=1000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    problems = services.close_problems(cast.day)
    assert "Chip sale 1 (waiting for signature) still needs authorized by (DRIC)" in problems


def test_each_waiting_slip_is_said_with_what_it_still_needs_alike_or_not(cast):
    # Slips of a type missing the same capacities are said alike, and another type its own way.
    stock(cast)
    for _ in range(2):
        services.sale(
            day=cast.day, chips={"5": 2}, cash=1000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
        )
    fill_issued(cast)
    problems = services.close_problems(cast.day)
    assert "Chip sale 1 (waiting for signature) still needs authorized by (DRIC)" in problems
    assert "Chip sale 2 (waiting for signature) still needs authorized by (DRIC)" in problems
    (fill,) = [p for p in problems if p.startswith("Fill 1 ")]
    assert fill.startswith("Fill 1 (waiting for signature) still needs carried by (Runner)"), fill


def test_at_the_window_a_one_step_slip_needs_its_custody_signers_now(cast):
    stock(cast)
    with refuses("signing.missing"):
        services.sale(day=cast.day, chips={"5": 2}, cash=1000, signed={"authorized_by": cast.dric}, allow_pending=True)
    # A records file carries every signature: nothing waits.
    with refuses("signing.missing"):
        services.sale(day=cast.day, chips={"5": 2}, cash=1000, signed=cast.signed(sold_by="chip_cashier"))


def test_the_importer_path_posts_both_steps_at_once(cast):
    stock(cast)
    open_table(cast)
    slip = services.fill(day=cast.day, table=cast.bj, chips={"5": 4}, signed=cast.signed(**FILL_SIGNED))
    assert held(cast, Account.Kind.RUNNER, person=cast.runner) == {}
    assert not Posting.objects.filter(slip=slip, account__kind=Account.Kind.RUNNER).exists()
    services.credit(day=cast.day, table=cast.bj, chips={"5": 4}, signed=cast.signed(**CREDIT_SIGNED))
    services.sale(day=cast.day, chips={"5": 2}, cash=1000, signed=cast.signed(**SALE_SIGNED))
    assert pending_slips(cast.event) == []


def test_the_dric_approves_only_what_waits_for_her(cast):
    stock(cast)
    open_table(cast)
    slip = fill_at_cage(cast)
    services.approve(slip=slip, person=cast.dric)
    with refuses("signing.no_witness_waiting"):
        services.approve(slip=slip, person=cast.dric)
    assert [p.state for p in pending_slips(cast.event)] == [State.IN_TRANSIT]
