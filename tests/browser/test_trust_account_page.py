"""The trust account's page in real browsers, each person in their own: the DRIC names the account,
the General Cashier enters a deposit's bank slip (refused first for a date still to come), the DRIC
checks it. Screenshots at the cage's width and a tablet's, in English and in French."""

import pytest

from cage import services
from tests.browser.conftest import at_both_widths, follow, person_page
from tests.cage.helpers import stock
from tests.conftest import DAY, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def deposit(cast, cash):
    signed = cast.signed(deposited_by="general_cashier", witnessed_by="dric")
    return services.deposit(day=cast.day, cash=cash, signed=signed)


def test_the_general_cashier_enters_a_bank_slip_and_the_dric_checks_it(browser, live_server):
    cast = make_cast()
    stock(cast, cash=100_000)
    first, second = deposit(cast, 20_000), deposit(cast, 15_000)
    slug = cast.event.slug
    dric = person_page(browser, live_server, cast.dric, width=1366, height=900)
    cashier = person_page(browser, live_server, cast.general_cashier, width=1366, height=900)

    dric.goto(f"/reports/{slug}/")
    waiting = dric.inner_text("#trust-link")
    assert "the trust account is not named; the trust account's opening balance is not entered" in waiting
    assert "deposits not yet confirmed by their bank slips: Deposit 1, Deposit 2" in waiting
    follow(dric, "#trust-link a")
    assert "not entered" in dric.inner_text("#reconciliation")
    dric.fill("input[name=trust_bank]", "Caisse Desjardins")
    dric.fill("input[name=trust_branch]", "Lakeside")
    dric.fill("input[name=trust_account_last_four]", "4821")
    dric.fill("input[name=trust_opening_balance]", "1,250.00")
    follow(dric, "#trust-account-form button[type=submit]")
    assert "Caisse Desjardins, Lakeside: the account ending in 4821." in dric.inner_text("#trust-account")
    # The bank reconciliation: $1,250 before the event, the $1,000 float out, $350 deposited back.
    rows = [" ".join(r.split()) for r in dric.locator("#reconciliation tr").all_inner_texts()]
    assert rows == [
        "Opening balance of the trust account $1,250.00",
        "less floats paid to the cage -$1,000.00",
        "plus deposits from the cage $350.00",
        "less cheques paying expenses $0.00",
        "less cheques for the approved purposes $0.00",
        "Balance the trust account must show $600.00",
    ]
    # The DRIC enters no bank slip: she checks them.
    assert dric.locator(f"#bank-slip-form-{first.pk}").count() == 0

    # The DRIC enters a purpose the licence approved; the General Cashier a cheque for it.
    dric.fill("#purpose-form input[name=name]", "Lakeside Food Bank")
    follow(dric, "#purpose-form button[type=submit]")
    assert "Approved purpose added: Lakeside Food Bank." in dric.inner_text("main")
    cashier.goto(f"/reports/{slug}/trust/")
    cashier.select_option("#disbursement-form select", label="Lakeside Food Bank")
    cashier.fill("#disbursement-form input[name$=number]", "2001")
    cashier.fill("#disbursement-form input[name$=written_on]", DAY.isoformat())
    cashier.fill("#disbursement-form input[name$=payee]", "Lakeside Food Bank")
    cashier.fill("#disbursement-form input[name$=amount]", "700")
    follow(cashier, "#disbursement-form button[type=submit]")
    # Refused, said at the top and beside the form, as typed: the account holds $600.00.
    assert "Not recorded: a cheque of $700.00 for Lakeside Food Bank is more than the trust account holds, $600.00" in (
        cashier.inner_text("main")
    )
    assert cashier.input_value("#disbursement-form input[name$=amount]") == "700"
    at_both_widths(cashier, "trust-disbursement-refused")
    cashier.fill("#disbursement-form input[name$=amount]", "100")
    follow(cashier, "#disbursement-form button[type=submit]")
    assert "Cheque 2001 entered for the approved purpose Lakeside Food Bank." in cashier.inner_text("main")
    assert "$100.00" in cashier.inner_text("#disbursements")

    form = f"#bank-slip-form-{first.pk}"
    cashier.fill(f"{form} input[name$=number]", "TD-558812")
    cashier.fill(f"{form} input[name$=stamped_on]", "2099-01-01")
    follow(cashier, f"{form} button[type=submit]")
    assert "2099-01-01 is still to come" in cashier.inner_text(form)
    at_both_widths(cashier, "trust-bank-slip-refused")
    cashier.fill(f"{form} input[name$=stamped_on]", DAY.isoformat())
    follow(cashier, f"{form} button[type=submit]")
    assert "Bank slip TD-558812 entered for Deposit 1" in cashier.inner_text("main")
    assert "2 deposits of 2 not yet confirmed" in cashier.inner_text("#bank-slips")

    dric.goto(f"/reports/{slug}/trust/")
    row = dric.inner_text(f"#deposit-{first.pk}")
    assert "TD-558812" in row and "not checked yet" in row
    follow(dric, f"#deposit-{first.pk} button[type=submit]")
    assert "checked: that deposit is confirmed" in dric.inner_text("main")
    assert "1 deposit of 2 not yet confirmed" in dric.inner_text("#bank-slips")
    assert dric.locator(f"#deposit-{second.pk}").inner_text().count("not yet confirmed") == 1
    at_both_widths(dric, "trust-page-dric")

    # In French: the same page, the same figures.
    dric.click("#language-fr-ca")
    dric.wait_for_selector("#language-en-ca")
    text = dric.inner_text("main")
    assert "Compte en fiducie et bordereaux de dépôt bancaires" in text
    assert "1 dépôt sur 2 n’est pas encore confirmé" in text and "TD-558812" in text
    last = " ".join(dric.locator("#reconciliation tr").last.inner_text().split())
    assert last == "Solde que le compte en fiducie doit afficher 500,00 $"
    at_both_widths(dric, "trust-page-dric-fr")
