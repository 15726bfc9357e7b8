"""The DRIC's dispute calculators (T&C 1.7): each game's answer with the section it applied and the
house advantage beside it; bad input answered with a clear message, never a 500; a GET that
writes nothing; only the DRIC (with the auditor and the administrator) reaches the page."""

import re

import pytest
from django.urls import reverse

from events import services
from tests.conftest import PASSWORD, QUEBEC_BACCARAT
from tests.world import snapshot

pytestmark = pytest.mark.django_db


def ask(client, event, person, lang="en-ca", **query):
    assert client.login(username=person.user.username, password=PASSWORD)
    response = client.get(reverse("events:calculators", args=[event.slug]), query, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


def at(quebec, calc):
    """The event whose licence authorizes the game: blackjack and the wheel under the Ontario rules,
    baccarat and craps under the Québec ones (T&C 1.3, 3.3)."""
    if calc in ("blackjack", "wheel_of_fortune"):
        return quebec.ontario, quebec.ontario_people
    return quebec.event, quebec.people


def test_baccarat_both_hands_the_draws_and_the_winner(client, quebec):
    event, people = quebec.event, quebec.people
    page = ask(client, event, people["dric"], calc="baccarat", cards="2 3 4 K 5 9")
    assert "Player: 2 4, total 6." in page and "Banker: 3 K 5, total 8." in page
    assert "the player stands" in page
    assert "The banker, with 3, draws: the player took no third card, and the banker then draws on 0 to 5" in page
    assert "Winner: Banker." in page and "S-13.1, r. 3, s. 37" in page
    assert "The coup used the first 5 cards" in page
    page = ask(client, event, people["dric"], calc="baccarat", cards="2 3 K K 5 9")
    assert "Player: 2 K 5, total 7." in page and "Banker: 3 K 9, total 2." in page
    assert "the player draws" in page and "Winner: Player." in page
    assert "The player wins: 7 against 2." in page  # totals, never "7 to 2", which reads as odds
    # The house advantage under the licence's settings, exact: the banker's 1.06%.
    assert "1.06%" in page and "Exact enumeration." in page


@pytest.mark.parametrize(
    "cards, says",
    [
        ("2 2 3 2 6 5", "The banker, with 4, draws because the player's third card is 6 (S-13.1, r. 3, s. 37)."),
        ("2 2 3 3 K", "The banker, with 5, stands because the player's third card is K, which counts 0 (S-13.1"),
        ("2 K 3 2 4 9", "The banker, with 2, draws: with 0, 1 or 2 the banker draws, whatever the player's third"),
        ("2 K 3 7 4", "The banker, with 7, stands: with 7 the banker stands, whatever the player's third card"),
        ("7 3 K 3", "The banker, with 6, stands: the player took no third card, and the banker then stands on 6"),
    ],
)
def test_baccarat_says_why_the_banker_draws_or_stands(client, quebec, cards, says):
    page = ask(client, quebec.event, quebec.people["dric"], calc="baccarat", cards=cards)
    assert says.replace("'", "&#x27;") in page, page[page.find("workings") :][:800]


def test_baccarat_natural_stops_the_coup(client, quebec):
    event, people = quebec.event, quebec.people
    page = ask(client, event, people["dric"], calc="baccarat", cards="8 3 K 4 9 9")
    assert "A natural: no further card is dealt." in page and "Winner: Player." in page


def test_baccarat_wagers_paid_at_the_licences_settings(client, quebec):
    event, people = quebec.event, quebec.people
    # Banker 8 beats player 6; the licence: banker pays 1 to 1 less 5%, bets from $2 to $25.
    page = ask(client, event, people["dric"], calc="baccarat", cards="2 3 4 K 5 9", banker_wager="10", player_wager="5")
    assert '<p class="outcome-decided head">The banker wins: 8 against 6.</p>' in page
    assert '<p class="outcome-win">Bet on the banker, $10.00: wins; pay $9.50 after a commission of $0.50.</p>' in page
    assert '<p class="outcome-lose">Bet on the player, $5.00: loses.</p>' in page
    assert '<td class="num">$19.50</td>' in page  # back to the player: the stake and the net winnings
    assert "Payouts: the licence&#x27;s game settings (T&amp;C 3.5)." in page


def test_a_tie_pays_the_tie_bet_and_returns_the_player_and_banker_bets(client, quebec):
    event, people = quebec.event, quebec.people
    page = ask(
        client,
        event,
        people["dric"],
        calc="baccarat",
        cards="9 9 K K",
        player_wager="5",
        banker_wager="5",
        tie_wager="2",
    )
    assert "A tie: both hands total 9." in page
    assert "Bet on a tie, $2.00: wins; pay $16.00." in page  # the licence's 8 to 1
    assert "Bet on the player, $5.00: a push; the stake is returned." in page
    assert "Bet on the banker, $5.00: a push; the stake is returned." in page
    # s. 37 is silent on it: the reading is said with the answer, and under the form.
    assert page.count("section 37 does not say what a tie does to them") == 2


def test_a_baccarat_wager_outside_the_licences_limits_or_before_its_settings_is_refused(client, quebec_unset):
    event, people = quebec_unset.event, quebec_unset.people
    page = ask(client, event, people["dric"], calc="baccarat", cards="9 9 K K", tie_wager="2")
    assert 'class="refusal"' in page and "The wagers cannot be settled yet" in page and "(T&amp;C 3.5)" in page
    page = ask(client, event, people["dric"], calc="baccarat", cards="9 9 K K")  # the coup alone needs no figure
    assert "A tie: both hands total 9." in page and 'class="refusal"' not in page
    services.game_settings_set(event=event, game="baccarat", entered=QUEBEC_BACCARAT)
    page = ask(client, event, people["dric"], calc="baccarat", cards="9 9 K K", tie_wager="1")
    assert "Bet on a tie: Bets run from $2.00 to $25.00. (T&amp;C 3.5)" in page


def test_craps_each_bets_state_after_each_roll(client, quebec):
    event, people = quebec.event, quebec.people
    page = ask(
        client, event, people["dric"], calc="craps", rolls="6 8 6", pass_wager="5", dont_pass_wager="5", field_wager="5"
    )
    assert "waits: the point is 6" in page
    assert "wins, pays 1 to 1: $5.00" in page  # pass, on the point
    assert '<p class="outcome-win">Pass, $5.00: wins, pays 1 to 1: pay $5.00.</p>' in page
    assert '<p class="outcome-lose">Don&#x27;t pass, $5.00: loses.</p>' in page
    assert "cannot be withdrawn" in page and "cannot be raised" in page
    assert "1.41%" in page  # pass: 7/495, exact
    # A come bet's number is its come point, not the shooter's point.
    page = ask(client, event, people["dric"], calc="craps", rolls="6 8", come_wager="1", dont_come_wager="1")
    assert "waits: the come point is 6" in page and "the point is" not in page


def test_craps_each_bet_settled_at_its_own_wager(client, quebec):
    # The walk's table: a $5 pass and a $2 field, a 7 then nothing more: both decided on the roll.
    page = ask(client, quebec.event, quebec.people["dric"], calc="craps", rolls="11", pass_wager="5", field_wager="2")
    assert '<p class="outcome-win">Pass, $5.00: wins, pays 1 to 1: pay $5.00.</p>' in page
    assert '<p class="outcome-win">Field, $2.00: wins, pays 1 to 1: pay $2.00.</p>' in page
    assert '<th class="num">Total</th><th>Pass</th><th>Field</th></tr>' in page  # the bets made, no others
    # The wagers typed stay in their fields.
    assert 'name="pass_wager" value="5"' in page and 'name="come_wager" value=""' in page


def test_blackjack_each_hand_scored_and_settled(client, quebec):
    event, people = quebec.ontario, quebec.ontario_people
    page = ask(
        client,
        event,
        people["dric"],
        calc="blackjack",
        dealer="6 10 5",
        h1_cards="A K",
        h1_wager="2",
        h2_cards="9 2 10",
        h2_wager="5",
        h2_action="double",
    )
    assert "Dealer: 6 10 5, 21." in page
    assert "blackjack" in page and "pays 3 to 2" in page and "$3.00" in page
    assert "push: the stake is returned" in page and "$10.00" in page  # the doubled 21 ties the dealer's 21
    # The outcome, said large above the workings: each hand, what is paid or taken.
    assert '<p class="outcome-win">Hand 1 wins, pays 3 to 2: pay $3.00.</p>' in page
    assert '<p class="outcome-push">Hand 2: a push; the stake is returned.</p>' in page
    page = ask(client, event, people["dric"], calc="blackjack", dealer="6 10 5", h1_cards="10 9", h1_wager="5")
    assert '<p class="outcome-lose">Hand 1 loses $5.00.</p>' in page
    # An estimate and its margin, never a bound below zero that reads as the player's edge.
    assert "give or take" in page and "95% confidence" in page
    # Precise enough to say something: 0.70%, give or take 0.09%, from six million rounds.
    assert "about 0.70%, give or take 0.09%" in page and re.search(
        r"6\W000\W000 rounds dealt from six-deck shoes", page
    )


@pytest.mark.parametrize(
    "dealer, second, action, staked, net",
    [
        ("10 8", "8 2 9", "split_double", "$10.00", "$10.00"),  # 19 doubled after the split beats 18
        ("10 9 ", "8 2 7", "split_double", "$10.00", "-$10.00"),  # 17 doubled loses to 19
        ("7 10", "8 2 9", "split", "$5.00", "$5.00"),  # drawn, not doubled: the stake as it was
    ],
)
def test_blackjack_a_hand_doubled_after_a_split_is_settled_at_its_doubled_stake(
    client, quebec, dealer, second, action, staked, net
):
    # Blackjack rule 8.1: "the first two (2) cards of any split pair" may be doubled.
    event, people = quebec.ontario, quebec.ontario_people
    query = dict(calc="blackjack", dealer=dealer, h1_cards="8 10", h1_wager="5", h1_action="split")
    query.update(h2_cards=second, h2_wager="5", h2_action=action)
    page = ask(client, event, people["dric"], **query)
    assert 'class="refusal"' not in page
    rows = page.split("<th>Sections applied</th></tr>")[1]
    second_row = rows.split("<tr>")[2]
    assert f'<td class="num">{staked}</td><td class="num">{net}</td>' in second_row
    assert ("Blackjack rule 8.1" in second_row) == (action == "split_double") and "Blackjack rule 9.1" in second_row
    assert (f'<option value="{action}" selected>') in page  # the form shows what was chosen


@pytest.mark.parametrize(
    "hands",
    [
        # The walk's round: hand 1 marked split, hand 2 (its pair's other 8) marked only doubled.
        {"h1_action": "split", "h2_action": "double"},
        # One hand alone marked from a split.
        {"h1_action": "split", "h2_action": ""},
    ],
)
def test_blackjack_a_split_with_one_hand_marked_names_what_is_missing(client, quebec, hands):
    event, people = quebec.ontario, quebec.ontario_people
    page = ask(
        client,
        event,
        people["dric"],
        calc="blackjack",
        dealer="10 8",
        h1_cards="8 10",
        h1_wager="5",
        h2_cards="8 2 9",
        h2_wager="5",
        **hands,
    )
    assert "only one hand from a split" in page and "Blackjack rules 9.1, 9.2" in page
    assert "at most twice" not in page


def test_blackjack_insurance_is_in_the_headline_with_the_net(client, quebec):
    event, people = quebec.ontario, quebec.ontario_people
    query = dict(calc="blackjack", dealer="A K", h1_cards="10 9", h1_wager="5", h1_insurance="2.50")
    page = ask(client, event, people["dric"], **query)
    assert '<p class="outcome-lose">Hand 1 loses $5.00.</p>' in page
    assert '<p class="outcome-win">Insurance of hand 1 ($2.50) wins: pay $5.00.</p>' in page
    assert '<p class="outcome-push">Hand 1 with its insurance: the player neither wins nor loses.</p>' in page
    # The dealer's ace without a ten: the insurance is lost, and the hand's result counted with it.
    query.update(dealer="A 7", h1_cards="10 10")
    page = ask(client, event, people["dric"], **query)
    assert '<p class="outcome-win">Hand 1 wins, pays 1 to 1: pay $5.00.</p>' in page
    assert '<p class="outcome-lose">Insurance of hand 1 ($2.50) loses $2.50.</p>' in page
    assert '<p class="outcome-win">Hand 1 with its insurance: the player wins $2.50 in all.</p>' in page
    query.update(dealer="A 7", h1_cards="10 7")
    page = ask(client, event, people["dric"], **query)
    assert '<p class="outcome-lose">Hand 1 with its insurance: the player loses $7.50 in all.</p>' in page


def test_blackjack_a_split_is_insured_once_and_the_player_s_total_is_said(client, quebec):
    event, people = quebec.ontario, quebec.ontario_people
    split = dict(
        calc="blackjack", dealer="A K", h1_cards="8 10", h1_wager="4", h1_action="split", h2_cards="8 9", h2_wager="4"
    )
    split["h2_action"] = "split"
    page = ask(client, event, people["dric"], **split, h1_insurance="2", h2_insurance="2")
    assert "An insurance is taken once, on the initial wager, before any pair is split" in page
    assert "Blackjack rule 7.2" in page and "outcome-" not in page
    page = ask(client, event, people["dric"], **split, h1_insurance="4")
    assert "An insurance is half the initial wager of $4.00: $4.00 is not." in page
    page = ask(client, event, people["dric"], **split, h1_insurance="2")
    # Both hands lose $4 to the dealer's blackjack (9.5); the insurance wins $4 once: -$4 in all.
    assert '<p class="outcome-win">Insurance of hand 1 ($2.00) wins: pay $4.00.</p>' in page
    assert '<p class="outcome-lose head">The player who split, all hands together: loses $4.00 in all.</p>' in page
    assert "with its insurance" not in page
    # Without insurance: two pushes, nothing in all; a win and a push, $4 in all.
    page = ask(client, event, people["dric"], **{**split, "dealer": "10 8", "h2_cards": "8 10"})
    assert '<p class="outcome-push head">The player who split, all hands together: neither wins nor loses.</p>' in page
    page = ask(client, event, people["dric"], **{**split, "dealer": "10 8", "h1_cards": "8 2 9", "h2_cards": "8 10"})
    assert '<p class="outcome-win head">The player who split, all hands together: wins $4.00 in all.</p>' in page


def test_french_pages_name_the_bets_and_the_faces_as_the_french_seeds_do(client, quebec):
    event, people = quebec.event, quebec.people
    # Seed 004, French: la mise «pass», «don’t pass», «come», «don’t come», «field».
    page = ask(client, event, people["dric"], lang="fr-ca", calc="craps", rolls="6 8", pass_wager="1", come_wager="1")
    assert "Mise «\u00a0pass\u00a0»" in page and "Mise «\u00a0come\u00a0»" in page
    assert "la mise «\u00a0come\u00a0» est placée sur le 8" in page
    assert ">Pass<" not in page and "Don&#x27;t pass" not in page
    # Seed 000: "les rois, dames et valets": R, D, V typed and shown; J, Q, K still read.
    page = ask(client, event, people["dric"], lang="fr-ca", calc="baccarat", cards="2 3 4 R 5 9")
    assert "Banque\u00a0: 3 R 5, total 8." in page
    page = ask(client, event, people["dric"], lang="fr-ca", calc="baccarat", cards="2 3 4 K 5 9")
    assert "Banque\u00a0: 3 R 5, total 8." in page
    page = ask(
        client,
        quebec.ontario,
        quebec.ontario_people["dric"],
        lang="fr-ca",
        calc="blackjack",
        dealer="6 V 5",
        h1_cards="D 9",
        h1_wager="5",
    )
    assert "6 V 5" in page and "<td>D 9</td>" in page and 'class="refusal"' not in page
    # English keeps J, Q, K, and reads the French letters too.
    page = ask(
        client,
        quebec.ontario,
        quebec.ontario_people["dric"],
        calc="blackjack",
        dealer="6 V 5",
        h1_cards="D 9",
        h1_wager="5",
    )
    assert "Dealer: 6 J 5, 21." in page and "<td>Q 9</td>" in page


@pytest.mark.parametrize("bet_symbol, landed", [("5 $", "$5"), ("5$", "5 $"), (" $5 ", "5 $")])
def test_wheel_symbols_are_read_in_either_spelling(client, quebec, bet_symbol, landed):
    page = ask(
        client,
        quebec.ontario,
        quebec.ontario_people["dric"],
        lang="fr-ca",
        calc="wheel_of_fortune",
        wheel="WOF-1",
        bet_symbol=bet_symbol,
        bet="5",
        landed=landed,
        revolutions="3",
    )
    assert "La mise gagne" in page and "25,00 $" in page, page[-3000:]
    assert "Paiement\u00a0: 25,00\u00a0$" in page and "Rentrée" not in page  # the pay-off, not the seed's cap


def test_wheel_symbols_are_offered_in_the_reader_s_spelling_and_any_case(client, quebec):
    from events.models import GameTable
    from events.wheel_layouts import parse

    table = GameTable.objects.get(event=quebec.ontario, code="WOF-1")
    table.wheel_layout = parse("\n".join(["$1 1:1"] * 20 + ["$5 5:1", "Joker 8:1"]))
    table.save()
    query = dict(calc="wheel_of_fortune", wheel="WOF-1", bet="5", revolutions="3")
    page = ask(
        client, quebec.ontario, quebec.ontario_people["dric"], lang="fr-ca", **query, bet_symbol="joker", landed="JOKER"
    )
    assert "La mise gagne" in page and "40,00 $" in page
    # A choice list, labelled as the reader writes the symbols; the one chosen kept selected.
    assert '<option value="$5">5 $</option>' in page and '<option value="Joker" selected>Joker</option>' in page
    page = ask(
        client, quebec.ontario, quebec.ontario_people["dric"], lang="fr-ca", **query, bet_symbol="7 $", landed="5 $"
    )
    assert "&#x27;7 $&#x27; n’est pas sur cette roue\u00a0: ses symboles sont 1 $, 5 $, Joker." in page


def test_wheel_payout_from_the_tables_layout(client, quebec):
    event, people = quebec.ontario, quebec.ontario_people
    page = ask(
        client,
        event,
        people["dric"],
        calc="wheel_of_fortune",
        wheel="WOF-1",
        bet_symbol="$5",
        bet="5",
        landed="$5",
        revolutions="3",
    )
    assert "The bet wins, pays 5 to 1." in page and "Pay-off: $25.00" in page
    assert '<p class="outcome-win head">The bet wins, pays 5 to 1.</p>' in page
    assert '<p class="outcome-win">Pay $25.00.</p>' in page
    page = ask(
        client,
        event,
        people["dric"],
        calc="wheel_of_fortune",
        wheel="WOF-1",
        bet_symbol="$5",
        bet="5",
        landed="$5",
        revolutions="2.5",
    )
    assert "No spin: the wheel made fewer than three full revolutions" in page and "Wheel of Fortune rule 8" in page
    # Not settled: the bet stays on the layout; nothing is said returned to the player.
    assert "The bet is not settled: it stays on the layout for the spin that counts." in page
    assert "Nothing is paid, taken or handed back." in page and "returned to the player" not in page


@pytest.mark.parametrize(
    "query, says",
    [
        ({"calc": "baccarat", "cards": "2 3 Z 4"}, "is not a card"),
        ({"calc": "baccarat", "cards": "2 3"}, "needs at least 4 cards"),
        ({"calc": "craps", "rolls": "6 13"}, "not a total of two dice"),
        ({"calc": "craps", "rolls": "six"}, "is not a total of the dice"),
        # The licence's craps limits in the fixture: $1 to $5.
        ({"calc": "craps", "rolls": "7", "field_wager": "500"}, "Field: Bets run from $1.00 to $5.00"),
        ({"calc": "craps", "rolls": "7"}, "no bet has a wager, so there is nothing to settle"),
        ({"calc": "blackjack", "dealer": "6 10", "h1_cards": "10 9", "h1_wager": "9"}, "Bets run from $1.00 to $5.00"),
        ({"calc": "blackjack", "dealer": "A 10", "h1_cards": "10 9", "h1_wager": "4", "h1_insurance": "1"}, "half"),
        ({"calc": "blackjack", "dealer": "6", "h1_cards": "10 9", "h1_wager": "five"}, "five"),
        (
            {
                "calc": "wheel_of_fortune",
                "wheel": "WOF-1",
                "bet_symbol": "$9",
                "bet": "1",
                "landed": "$1",
                "revolutions": "3",
            },
            "is not on this wheel",
        ),
        (
            {"calc": "wheel_of_fortune", "wheel": "NOPE", "bet": "1", "revolutions": "3"},
            "Choose one of the event's wheels.",
        ),
        (
            {
                "calc": "wheel_of_fortune",
                "wheel": "WOF-1",
                "bet_symbol": "$1",
                "bet": "1",
                "landed": "$1",
                "revolutions": "x",
            },
            "revolutions are a number",
        ),
        ({"calc": "craps", "rolls": "6" * 300}, "At most 200 characters"),
        ({"calc": "craps", "rolls": "６"}, "is not a total of the dice"),
        ({"calc": "baccarat"}, "needs at least 4 cards; 0 were given"),
        ({"calc": "blackjack", "dealer": "6 10 5"}, "At least one hand is settled."),
        (
            {"calc": "wheel_of_fortune", "wheel": "WOF-1", "bet_symbol": "$1", "landed": "$1", "revolutions": "3"},
            "Enter the wager",
        ),
    ],
)
def test_bad_input_is_a_clear_message_and_writes_nothing(client, quebec, query, says):
    event, people = at(quebec, query.get("calc"))
    before = snapshot()
    page = ask(client, event, people["dric"], **query)
    assert 'class="refusal"' in page and says in page.replace("&#x27;", "'")
    assert snapshot() == before


def test_answers_in_french(client, quebec):
    event, people = quebec.event, quebec.people
    page = ask(client, event, people["dric"], lang="fr-ca", calc="baccarat", cards="2 3 4 K 5 9")
    assert "Gagnant" in page and "art. 37" in page
    page = ask(client, event, people["dric"], lang="fr-ca", calc="craps", rolls="6 13")
    assert "art. 95.14" in page


def test_only_the_dric_the_auditor_and_the_administrator_reach_it(client, quebec, admin_user):
    event, people = quebec.event, quebec.people
    url = reverse("events:calculators", args=[event.slug])
    for role in ("dealer", "chip_cashier"):
        assert client.login(username=people[role].user.username, password=PASSWORD)
        assert client.get(url).status_code == 403
    assert client.login(username=people["auditor"].user.username, password=PASSWORD)
    assert client.get(url).status_code == 200
    client.force_login(admin_user)
    assert client.get(url).status_code == 200
    assert client.post(url).status_code == 405


def test_the_dric_finds_it_in_the_navigation(client, quebec):
    event, people = quebec.event, quebec.people
    assert client.login(username=people["dric"].user.username, password=PASSWORD)
    page = client.get(reverse("events:detail", args=[event.slug])).content.decode()
    assert reverse("events:calculators", args=[event.slug]) in page
    assert client.login(username=people["dealer"].user.username, password=PASSWORD)
    page = client.get(reverse("events:detail", args=[event.slug])).content.decode()
    assert reverse("events:calculators", args=[event.slug]) not in page


def test_a_bad_total_after_the_field_is_decided_is_still_refused(client, quebec):
    event, people = quebec.event, quebec.people
    page = ask(client, event, people["dric"], calc="craps", rolls="4 13", field_wager="1")
    assert "13 is not a total of two dice" in page


def test_a_wager_with_a_decimal_comma_is_read_as_french_writes_it(client, quebec):
    event, people = quebec.event, quebec.people
    page = ask(client, event, people["dric"], lang="fr-ca", calc="craps", rolls="7", pass_wager="2,50")
    assert "2,50" in page and "n’est pas" not in page


def test_craps_come_bet_with_pass_starts_once_a_point_is_on(client, quebec):
    # The walk's case: rolls 6 4 8 4 with pass, come and field (its $10, $15 and $5 scaled into the
    # fixture's $1 to $5 limits: $5, $3 and $1). The 6 is the come-out and sets
    # the point, so the come bet is made after it: it goes on 4 and wins on the last roll (s. 95.14, 3°).
    event, people = quebec.event, quebec.people
    rolls = "6 4 8 4"
    page = ask(
        client, event, people["dric"], calc="craps", rolls=rolls, pass_wager="5", come_wager="3", field_wager="1"
    )
    assert "A come bet is made once a point is on: it starts at roll 2." in page
    assert "not yet made" in page and "waits: the come point is 6" not in page
    assert "waits: the come point is 4" in page
    assert '<p class="outcome-win">Come, $3.00: wins, pays 1 to 1: pay $3.00.</p>' in page
    assert "Pass, $5.00: waits: the point is 6." in page
    # A don't come made after the 6 goes on 4 and loses when the 4 is rolled again.
    page = ask(client, event, people["dric"], calc="craps", rolls=rolls, dont_pass_wager="5", dont_come_wager="5")
    assert "A come bet is made once a point is on: it starts at roll 2." in page
    assert '<p class="outcome-lose">Don&#x27;t come, $5.00: loses.</p>' in page
    # Rolls that set no point before the last leave the come bet no roll to meet: refused, citing s. 95.14.
    for rolls in ("7 11 2", "7 6"):
        page = ask(client, event, people["dric"], calc="craps", rolls=rolls, pass_wager="5", come_wager="5")
        assert "is made only once a point is on" in page and "s. 95.14 (3°)" in page
        assert "pay $" not in page
    page = ask(client, event, people["dric"], calc="craps", rolls="3", dont_pass_wager="5", dont_come_wager="5")
    assert "is made only once a point is on" in page and "s. 95.14 (4°)" in page


def test_a_doubled_hand_s_wager_is_the_stake_before_doubling(client, quebec):
    # The walk typed the doubled amount, $10, as a doubled hand's wager: the refusal says why.
    event, people = quebec.ontario, quebec.ontario_people
    query = dict(calc="blackjack", dealer="6 10 5", h1_cards="6 5 10", h1_wager="10", h1_action="double")
    page = ask(client, event, people["dric"], **query)
    assert "Wager before doubling ($)" in page and "Wager of hand 1, before doubling" in page
    assert (
        "Hand 1: Bets run from $1.00 to $5.00. The wager of a doubled hand is the stake before doubling: "
        "for a hand doubled from $5.00 to $10.00, enter $5.00." in page
    )
    # The same amount on a hand not doubled is refused by the limits alone.
    page = ask(client, event, people["dric"], **{**query, "h1_action": ""})
    assert "Bets run from $1.00 to $5.00" in page and "before doubling:" not in page
    # The stake before doubling is settled: the doubled $10 wins.
    page = ask(client, event, people["dric"], **{**query, "h1_wager": "5"})
    assert "Bets run from" not in page and "$10.00" in page


def test_french_reads_the_wheel_s_symbols_amounts_and_sections_the_french_way(client, quebec):
    from django.utils import translation

    from events.game_text import section_text

    event, people = quebec.ontario, quebec.ontario_people
    query = dict(calc="wheel_of_fortune", wheel="WOF-1", bet_symbol="1 $", landed="1 $", revolutions="3")
    page = ask(client, event, people["dric"], lang="fr-ca", bet="abc", **query)
    # The example amount in the reader's format: the calculator reads "2,50".
    assert "«\u00a00,50\u00a0»" in page and "0.50" not in page
    # One spelling of a symbol everywhere it is shown: the lists, the house advantage, the layout.
    assert "<li>Symbole 1 $\u00a0:" in page and ">$1<" not in page and "Symbole $1" not in page
    layout = client.get(reverse("events:wheel_layout", args=[event.slug, "WOF-1"]), HTTP_ACCEPT_LANGUAGE="fr-ca")
    assert "<tr><td>1 $</td>" in layout.content.decode()
    # Sections joined in French take a no-break space before the semicolon; English does not.
    with translation.override("fr-ca"):
        joined = section_text("Blackjack rule 8.1; Blackjack rule 9.2")
    assert joined.count("\u00a0; ") == 1 and "8.1" in joined and "9.2" in joined
    with translation.override("en"):
        assert section_text("Blackjack rule 8.1; Blackjack rule 9.2") == "Blackjack rule 8.1; Blackjack rule 9.2"
