"""The DRIC's dispute calculators (T&C 1.7: a dispute is settled on the spot by the rules of play).

Each calculator reads what the DRIC typed (a GET query: it writes nothing), hands it to its game
module (events.games) and returns the answer as the page shows it, every line with the section it
applied, in the reader's language. What cannot be read, or what the rules refuse, comes back as a
refusal sentence citing its rule; nothing here raises to the page.
"""

import re
from dataclasses import dataclass, field

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.utils.translation import gettext_noop as N_

from core.money import dollars
from core.rules import Money, RuleViolation, Words, cite

from . import game_rules, wheel_layouts
from .game_text import refusal_message, refusal_sentence, section_lazy, section_text
from .games import baccarat, blackjack, craps, get_game, wheel_of_fortune
from .games.base import Refused, winnings
from .services import parse_dollars

CALCULATOR = gettext_lazy("dispute calculator")
MOST_INPUT = 200  # characters of one field: a coup, a round or a shooter's rolls fit easily
MOST_ROLLS = 60
HANDS = 3  # hands of the blackjack calculator: a player who split twice has three

RESULTS = {
    "win": gettext_lazy("wins"),
    "lose": gettext_lazy("loses"),
    "push": gettext_lazy("push: the stake is returned"),
    "open": gettext_lazy("waits"),
    "no_spin": gettext_lazy("no spin: the bet stays on the layout, not settled"),
}
WINNERS = {"player": gettext_lazy("Player"), "banker": gettext_lazy("Banker"), "tie": gettext_lazy("Tie")}
CRAPS_BETS = {
    "pass": gettext_lazy("Pass"),
    "dont_pass": gettext_lazy("Don't pass"),
    "come": gettext_lazy("Come"),
    "dont_come": gettext_lazy("Don't come"),
    "field": gettext_lazy("Field"),
}


@dataclass
class Outcome:
    """One line of what was decided, printed large at the top of the answer: who won, what is
    paid. `kind` ("win", "lose", "push", "decided") marks it for the reader, never by colour alone:
    the words say it too."""

    text: str
    kind: str = "decided"
    head: bool = False  # the line that decides the rest (the coup's winner, the wheel's spin): largest


@dataclass
class Answer:
    """A calculator's answer: the outcome said large, then the rows and lines that show how it
    was reached; or the refusal that stopped it."""

    refusal: str = ""
    rows: list = field(default_factory=list)
    lines: list = field(default_factory=list)
    outcome: list = field(default_factory=list)


def _kind(result: str) -> str:
    return {"win": "win", "lose": "lose", "push": "push", "no_spin": "push"}.get(result, "decided")


def _text(query, name: str) -> str:
    value = query.get(name, "")
    if len(value) > MOST_INPUT:
        raise RuleViolation(
            Words(N_("At most %(most)s characters in one field."), most=MOST_INPUT),
            CALCULATOR,
            field=name,
            code="calculator.too_long",
        )
    return value.strip()


def _words(text: str) -> list[str]:
    return [word for word in re.split(r"[\s,;]+", text) if word]


# The French names of the faces (seed 000: "les rois, dames et valets") by their initials, typed
# in either language: V, D, R for J, Q, K. A rank the module does not know is left for it to refuse.
FRENCH_FACES = {"V": "J", "D": "Q", "R": "K"}


def _cards(query, name: str) -> list[str]:
    return [FRENCH_FACES.get(word.upper(), word.upper()) for word in _words(_text(query, name))]


def card_labels(cards) -> str:
    """The cards as the reader's language writes them: J, Q, K in English, V, D, R in French."""
    faces = {
        "J": pgettext("card rank: jack", "J"),
        "Q": pgettext("card rank: queen", "Q"),
        "K": pgettext("card rank: king", "K"),
    }
    return " ".join(faces.get(card, card) for card in cards)


def _refused(exc) -> str:
    if isinstance(exc, Refused):
        return refusal_sentence(exc.refusal)
    return exc.text


def _money(query, name: str, *, required: bool = True) -> int | None:
    text = _text(query, name).replace("$", "").strip()
    if re.fullmatch(r"[0-9]+,[0-9]{1,2}", text):
        text = text.replace(",", ".")  # "7,50": a decimal comma, as French writes it (and the slips take)
    if not text and not required:
        return None
    if not text:
        raise RuleViolation(
            Words(N_("Enter the wager in dollars, such as 5 or 0.50.")),
            CALCULATOR,
            field=name,
            code="calculator.bad_wager",
        )
    return parse_dollars(text, rule=CALCULATOR, field=name, reader_decimals=True)


# --- baccarat (S-13.1, r. 3, s. 37) -----------------------------------------------------------


# What a tie does to the player and banker bets: s. 37 is silent; the reading taken (events.games.baccarat).
TIE_READING = gettext_lazy(
    "On a tie, the player and banker bets are returned (a push): section 37 does not say what a tie does to "
    "them, and this is the reading the calculator takes."
)
BACCARAT_PAYOUTS = ("limits", "player_pays", "banker_pays", "tie_pays", "banker_commission")
BACCARAT_WAGERS = {
    "player": gettext_lazy("Bet on the player"),
    "banker": gettext_lazy("Bet on the banker"),
    "tie": gettext_lazy("Bet on a tie"),
}


def baccarat_coup(query, *, figures: dict | None = None) -> Answer:
    """The coup from the cards; with wagers, what each pays at `figures`, the licence's settings
    of baccarat (game_rules.figures): limits, payouts and the banker's commission."""
    figures = figures or {}
    try:
        cards = _cards(query, "cards")
        coup = baccarat.explain(cards)
        wagers = {bet: _money(query, f"{bet}_wager", required=False) for bet in baccarat.BETS}
        wagers = {bet: cents for bet, cents in wagers.items() if cents is not None}
        if wagers:
            _check_baccarat_wagers(wagers, figures)
    except (Refused, RuleViolation) as exc:
        return Answer(refusal=_refused(exc))
    section = section_text(coup["section"])
    lines = _coup_lines(coup, cards, section)
    outcome = [
        Outcome(
            {
                # "against", never "to": "8 to 7" reads as odds.
                "player": _("The player wins: %(player)s against %(banker)s."),
                "banker": _("The banker wins: %(banker)s against %(player)s."),
                "tie": _("A tie: both hands total %(player)s."),
            }[coup["winner"]]
            % {"player": coup["player_total"], "banker": coup["banker_total"]},
            head=True,
        )
    ]
    rows = []
    for bet, cents in wagers.items():
        row, text, result = _settle_baccarat(bet, cents, coup, figures)
        rows.append(row)
        outcome.append(Outcome(text, _kind(result)))
    if wagers:
        lines.append(
            _("Payouts: %(source)s (%(rule)s).") % {"source": game_rules.LICENCE_FIGURES, "rule": cite("T&C 3.5")}
        )
    if coup["winner"] == "tie" and ({"player", "banker"} & set(wagers)):
        lines.append(str(TIE_READING))
    lines.append(_("Section applied: %(section)s.") % {"section": section})
    return Answer(lines=lines, rows=rows, outcome=outcome)


def _check_baccarat_wagers(wagers: dict, figures: dict) -> None:
    """Wagers are settled only at the licence's payouts (T&C 3.5), each within the table's limits."""
    missing = [
        _(setting.label)
        for setting in baccarat.GAME.settings
        if setting.name in BACCARAT_PAYOUTS and setting.name not in figures
    ]
    if missing:
        raise RuleViolation(
            Words(
                N_(
                    "The wagers cannot be settled yet: the administrator has not entered %(figures)s for "
                    "baccarat on the games page."
                ),
                figures=game_rules.in_a_sentence(missing),
            ),
            "T&C 3.5",
            code="calculator.figures_missing",
        )
    for bet, cents in wagers.items():
        refusal = baccarat.GAME.check_bet(cents, limits=figures["limits"])
        if refusal is not None:
            raise RuleViolation(
                Words(N_("%(bet)s: %(refusal)s"), bet=BACCARAT_WAGERS[bet], refusal=refusal_message(refusal)),
                section_lazy(refusal.section),
                field=f"{bet}_wager",
                code="calculator.wager_refused",
            )


def _coup_lines(coup: dict, cards: list, section: str) -> list[str]:
    """The coup in words: each hand, why each drew or stood, the winner, the cards not read."""
    used = len(coup["player"]) + len(coup["banker"])
    lines = [
        _("Player: %(cards)s, total %(total)s.")
        % {"cards": card_labels(coup["player"]), "total": coup["player_total"]},
        _("Banker: %(cards)s, total %(total)s.")
        % {"cards": card_labels(coup["banker"]), "total": coup["banker_total"]},
    ]
    first_player = baccarat.total(coup["player"][:2])
    first_banker = baccarat.total(coup["banker"][:2])
    if coup["natural"]:
        lines.append(_("A natural: no further card is dealt."))
    else:
        if coup["player_drew"]:
            lines.append(_("The player's first two cards total %(total)s: the player draws.") % {"total": first_player})
        else:
            lines.append(
                _("The player's first two cards total %(total)s: the player stands.") % {"total": first_player}
            )
        lines.append(_banker_reason(coup, first_banker, section))
    lines.append(_("Winner: %(winner)s.") % {"winner": WINNERS[coup["winner"]]})
    if used < len(cards):
        lines.append(_("The coup used the first %(used)s cards; the others are not read.") % {"used": used})
    return lines


def _settle_baccarat(bet: str, cents: int, coup: dict, figures: dict) -> tuple[dict, str, str]:
    """One wager settled at the licence's figures: its row, its sentence and its result."""
    settled = baccarat.settle_bet(
        bet,
        coup["winner"],
        cents,
        player_pays=figures["player_pays"],
        banker_pays=figures["banker_pays"],
        tie_pays=figures["tie_pays"],
        banker_commission=figures["banker_commission"],
    )
    result = str(RESULTS[settled["result"]])
    if settled["pays"]:
        result = _("%(result)s, pays %(odds)s") % {"result": result, "odds": game_rules.odds_words(settled["pays"])}
    row = {
        "bet": BACCARAT_WAGERS[bet],
        "staked": dollars(cents),
        "result": result,
        "commission": dollars(settled["commission_cents"]) if settled["commission_cents"] else "—",
        "returned": dollars(settled["returned_cents"]),
        "net": dollars(settled["net_cents"]),
    }
    said = {"bet": BACCARAT_WAGERS[bet], "stake": dollars(cents), "paid": dollars(settled["net_cents"])}
    if settled["result"] == "win" and settled["commission_cents"]:
        text = _("%(bet)s, %(stake)s: wins; pay %(paid)s after a commission of %(commission)s.") % {
            **said,
            "commission": dollars(settled["commission_cents"]),
        }
    elif settled["result"] == "win":
        text = _("%(bet)s, %(stake)s: wins; pay %(paid)s.") % said
    elif settled["result"] == "push":
        text = _("%(bet)s, %(stake)s: a push; the stake is returned.") % said
    else:
        text = _("%(bet)s, %(stake)s: loses.") % said
    return row, text, settled["result"]


def _banker_reason(coup: dict, banker_total: int, section: str) -> str:
    """Why the banker drew or stood, as section 37's table decides it: by the banker's total
    alone, or by it and the player's third card."""
    said = {"total": banker_total, "section": section}
    drew = coup["banker_drew"]
    if not coup["player_drew"]:
        if drew:
            return (
                _(
                    "The banker, with %(total)s, draws: the player took no third card, and the banker then draws on 0 "
                    "to 5 (%(section)s)."
                )
                % said
            )
        return (
            _(
                "The banker, with %(total)s, stands: the player took no third card, and the banker then stands on 6 "
                "or 7 (%(section)s)."
            )
            % said
        )
    if banker_total <= 2:
        return (
            _(
                "The banker, with %(total)s, draws: with 0, 1 or 2 the banker draws, whatever the player's third card "
                "(%(section)s)."
            )
            % said
        )
    if banker_total == 7:
        return (
            _("The banker, with 7, stands: with 7 the banker stands, whatever the player's third card (%(section)s).")
            % said
        )
    third = coup["player"][2]
    said.update(card=card_labels([third]), value=baccarat.value(third))
    if str(said["value"]) == third:
        if drew:
            return (
                _("The banker, with %(total)s, draws because the player's third card is %(card)s (%(section)s).") % said
            )
        return _("The banker, with %(total)s, stands because the player's third card is %(card)s (%(section)s).") % said
    if drew:
        return (
            _(
                "The banker, with %(total)s, draws because the player's third card is %(card)s, which counts %(value)s "
                "(%(section)s)."
            )
            % said
        )
    return (
        _(
            "The banker, with %(total)s, stands because the player's third card is %(card)s, which counts %(value)s "
            "(%(section)s)."
        )
        % said
    )


# --- craps (S-13.1, r. 3, s. 95.14) -------------------------------------------------------------


def craps_rolls(query, *, limits=None) -> Answer:
    """`limits`: the licence's betting limits of craps (game_rules.limits), checked against the wager."""
    try:
        words = _words(_text(query, "rolls"))
        if not words:
            raise RuleViolation(
                Words(N_("Enter the totals of the dice, roll by roll.")),
                CALCULATOR,
                field="rolls",
                code="calculator.rolls_missing",
            )
        if len(words) > MOST_ROLLS:
            raise RuleViolation(
                Words(N_("At most %(most)s rolls."), most=MOST_ROLLS),
                CALCULATOR,
                field="rolls",
                code="calculator.too_many_rolls",
            )
        rolls = _rolls(words)
        # Each bet its own wager: a $10 pass and a $5 field are settled together; a bet left
        # empty is not bet.
        wagers = {bet: _money(query, f"{bet}_wager", required=False) for bet in CRAPS_BETS}
        wagers = {bet: cents for bet, cents in wagers.items() if cents is not None}
        bets = list(wagers)
        for bet in bets or list(CRAPS_BETS):
            craps.settle(bet, rolls)  # every total is checked, even after the bet is decided
        if not wagers:
            raise RuleViolation(
                Words(
                    N_("Enter the wager of each bet on the table: no bet has a wager, so there is nothing to settle.")
                ),
                CALCULATOR,
                field="pass_wager",
                code="calculator.no_wager",
            )
        if limits is not None:
            _check_craps_limits(wagers, limits)
        starts = _come_starts(bets, rolls)
        states = {bet: craps.settle_each_roll(bet, rolls[starts.get(bet, 0) :]) for bet in bets}
    except (Refused, RuleViolation) as exc:
        return Answer(refusal=_refused(exc))
    return Answer(
        rows=_craps_rows(rolls, bets, starts, states, wagers),
        lines=_craps_lines(bets, starts, states),
        outcome=_craps_outcome(bets, states, wagers),
    )


def _rolls(words: list[str]) -> list[int]:
    """The totals of the dice as typed, each a whole number of one or two digits."""
    rolls = []
    for word in words:
        if not re.fullmatch(r"[0-9]{1,2}", word):
            raise RuleViolation(
                Words(N_("%(roll)s is not a total of the dice."), roll=repr(word)[:20]),
                CALCULATOR,
                field="rolls",
                code="calculator.bad_roll",
            )
        rolls.append(int(word))
    return rolls


def _check_craps_limits(wagers: dict, limits) -> None:
    """Each wager within the licence's betting limits of craps."""
    for bet, cents in wagers.items():
        refusal = craps.GAME.check_bet(cents, limits=(limits.min_cents, limits.max_cents))
        if refusal is not None:
            raise RuleViolation(
                Words(N_("%(bet)s: %(refusal)s"), bet=CRAPS_BETS[bet], refusal=refusal_message(refusal)),
                section_lazy(refusal.section),
                field=f"{bet}_wager",
                code="calculator.wager_refused",
            )


def _craps_rows(rolls: list[int], bets: list[str], starts: dict, states: dict, wagers: dict) -> list[dict]:
    """Roll by roll, where each bet stands."""
    rows = []
    for n, total in enumerate(rolls):
        cells = []
        for bet in bets:
            start = starts.get(bet, 0)
            if n < start:  # a come bet is not yet made while the shooter has no point
                cells.append(_("not yet made"))
                continue
            if n - start >= len(states[bet]):  # decided on an earlier roll
                cells.append("—")
                continue
            state = states[bet][n - start]
            text = str(RESULTS[state["result"]])
            if state["result"] == "open" and state["point"]:
                text = _waits(bet, state["point"])
            if state["pays"]:
                text = _("%(result)s, pays %(odds)s") % {"result": text, "odds": game_rules.odds_words(state["pays"])}
                paid = winnings(wagers[bet], tuple(int(x) for x in state["pays"].split(":")))
                text = _("%(result)s: %(amount)s") % {"result": text, "amount": dollars(paid)}
            cells.append(text)
        rows.append({"roll": n + 1, "total": total, "cells": cells})
    return rows


def _craps_outcome(bets: list[str], states: dict, wagers: dict) -> list:
    """Where each bet ends after the last roll, and what it pays."""
    outcome = []
    for bet in bets:
        last = states[bet][-1]
        text = str(RESULTS[last["result"]])
        if last["result"] == "open" and last["point"]:
            text = _waits(bet, last["point"])
        if last["pays"]:
            text = _("%(result)s, pays %(odds)s") % {"result": text, "odds": game_rules.odds_words(last["pays"])}
            paid = winnings(wagers[bet], tuple(int(x) for x in last["pays"].split(":")))
            text = _("%(result)s: pay %(amount)s") % {"result": text, "amount": dollars(paid)}
        outcome.append(
            Outcome(
                _("%(bet)s, %(stake)s: %(result)s.")
                % {"bet": CRAPS_BETS[bet], "stake": dollars(wagers[bet]), "result": text},
                _kind(last["result"]),
            )
        )
    return outcome


def _craps_lines(bets: list[str], starts: dict, states: dict) -> list[str]:
    """When each come bet starts, and each bet's section with whether it may be withdrawn or raised."""
    lines = [
        _("A come bet is made once a point is on: it starts at roll %(roll)s.") % {"roll": start + 1}
        for start in sorted(set(starts.values()))
    ]
    for bet in bets:
        notes = []
        if craps.can_withdraw(bet) is False:
            notes.append(_("cannot be withdrawn"))
        elif craps.can_withdraw(bet):
            notes.append(_("can be withdrawn at any time"))
        if craps.can_raise(bet) is False:
            notes.append(_("cannot be raised"))
        section = section_text(states[bet][-1]["section"])
        if notes:
            lines.append(
                _("%(bet)s (%(section)s): %(notes)s.")
                % {"bet": CRAPS_BETS[bet], "section": section, "notes": ", ".join(notes)}
            )
        else:
            lines.append(_("%(bet)s: %(section)s.") % {"bet": CRAPS_BETS[bet], "section": section})
    return lines


def _come_starts(bets: list[str], rolls: list[int]) -> dict[str, int]:
    """The roll (counted from 0) at which each come and don't come bet starts, when it is settled
    with the same rolls as a pass or don't pass bet: a come bet is made only once the shooter has a
    point (s. 95.14, 3°, 4°), so it starts at the roll after the first point. Alone, a come bet's
    rolls are taken to start where it was made. A come bet whose rolls set no point to follow is
    refused."""
    come_bets = [bet for bet in bets if bet in ("come", "dont_come")]
    if not come_bets or not {"pass", "dont_pass"} & set(bets):
        return {}
    # Before the first point every roll is a come-out; the first point total is the one that sets it.
    first_point = next((n for n, total in enumerate(rolls) if craps.come_out(total) == "point"), None)
    if first_point is None or first_point + 1 >= len(rolls):
        raise RuleViolation(
            Words(
                N_(
                    "A come or don't come bet is made only once a point is on: these rolls "
                    "set no point with a roll after it, so the come bet meets no roll. Enter the rolls from the "
                    "come-out, or the come bet alone with the rolls from where it was made."
                )
            ),
            craps.BET_SECTIONS[come_bets[0]],
            field=f"{come_bets[0]}_wager",
            code="calculator.come_bet_without_point",
        )
    return {bet: first_point + 1 for bet in come_bets}


def _waits(bet: str, point: int) -> str:
    # A come or don't come bet's number is its own come point, not the shooter's point (s. 95.14, 3°, 4°).
    if bet in ("come", "dont_come"):
        return _("waits: the come point is %(point)s") % {"point": point}
    return _("waits: the point is %(point)s") % {"point": point}


def craps_headers(query) -> list[str]:
    """The columns of the bets that were given a wager, in the order of the form."""
    return [str(CRAPS_BETS[bet]) for bet in CRAPS_BETS if query.get(f"{bet}_wager", "").strip()]


# --- blackjack (seed 001, Blackjack rules of play) ---------------------------------------------


def blackjack_round(query) -> Answer:
    try:
        dealer = _cards(query, "dealer")
        hands = []
        for n in range(1, HANDS + 1):
            cards = _cards(query, f"h{n}_cards")
            if not cards:
                continue
            action = query.get(f"h{n}_action", "")
            split = action in ("split", "split_double")
            hands.append(
                {
                    "cards": cards,
                    "wager": _money(query, f"h{n}_wager"),
                    # A hand from a split may be doubled too (Blackjack rule 8.1): its own choice.
                    "doubled": action in ("double", "split_double"),
                    "split": split,
                    "insurance": _money(query, f"h{n}_insurance", required=False) or 0,
                    # Split hands with no seat typed are one player's split: the usual case.
                    "seat": _text(query, f"h{n}_seat") or ("" if split else str(n)),
                    "number": n,
                }
            )
        for hand in hands:
            _check_doubled_wager(hand)
        settled = blackjack.settle(dealer, [{k: v for k, v in h.items() if k != "number"} for h in hands])
        dealer_hand = blackjack.dealer_hand(dealer)
    except (Refused, RuleViolation) as exc:
        return Answer(refusal=_refused(exc))
    lines = [_score_line(_("Dealer"), dealer_hand)]
    rows, outcome = [], []
    for hand, answer in zip(hands, settled, strict=True):
        result = str(RESULTS[answer["result"]])
        if answer["pays"]:
            result = _("%(result)s, pays %(odds)s") % {"result": result, "odds": game_rules.odds_words(answer["pays"])}
        rows.append(
            {
                "hand": hand["number"],
                "cards": card_labels(hand["cards"]),
                "score": _score_text(answer),
                "result": result,
                "staked": dollars(answer["staked_cents"]),
                "net": dollars(answer["net_cents"]),
                "insurance": dollars(answer["insurance_net_cents"]) if hand["insurance"] else "—",
                "sections": section_text("; ".join(answer["sections"])),
            }
        )
        outcome += _hand_outcome(hand, answer, result)
    # What each player who split takes away in all, first: that is what the DRIC pays.
    return Answer(rows=rows, lines=lines, outcome=_player_outcomes(hands, settled) + outcome)


def _check_doubled_wager(hand: dict) -> None:
    """A doubled hand's wager over the limit is most likely the doubled amount typed: the refusal
    says the wager asked for is the stake before doubling (Blackjack rule 8.1)."""
    refusal = blackjack.GAME.check_bet(hand["wager"])
    if refusal is None or not hand["doubled"] or hand["wager"] <= blackjack.GAME.limits[1]:
        return
    raise RuleViolation(
        Words(
            N_(
                "Hand %(hand)s: %(refusal)s The wager of a doubled hand is the stake before doubling: for a "
                "hand doubled from %(half)s to %(wager)s, enter %(half)s."
            ),
            hand=hand["number"],
            refusal=refusal_message(refusal),
            half=Money(hand["wager"] // 2),
            wager=Money(hand["wager"]),
        ),
        section_lazy(refusal.section),
        field=f"h{hand['number']}_wager",
        code="calculator.doubled_wager",
    )


def _player_outcomes(hands: list[dict], settled: list[dict]) -> list[Outcome]:
    """What each player with several hands (a split) wins or loses in all, the insurance
    included: the DRIC pays the player once, not hand by hand."""
    seats: dict = {}
    for hand, answer in zip(hands, settled, strict=True):
        seats.setdefault(hand["seat"], []).append(answer["net_cents"] + answer["insurance_net_cents"])
    outcome = []
    for seat, nets in seats.items():
        if len(nets) < 2:
            continue
        net = sum(nets)
        said = {"seat": seat, "amount": dollars(abs(net))}
        if seat:
            texts = (
                _("The player at seat %(seat)s, all hands together: wins %(amount)s in all."),
                _("The player at seat %(seat)s, all hands together: loses %(amount)s in all."),
                _("The player at seat %(seat)s, all hands together: neither wins nor loses."),
            )
        else:
            texts = (
                _("The player who split, all hands together: wins %(amount)s in all."),
                _("The player who split, all hands together: loses %(amount)s in all."),
                _("The player who split, all hands together: neither wins nor loses."),
            )
        if net > 0:
            outcome.append(Outcome(texts[0] % said, "win", head=True))
        elif net < 0:
            outcome.append(Outcome(texts[1] % said, "lose", head=True))
        else:
            outcome.append(Outcome(texts[2] % said, "push", head=True))
    return outcome


def _hand_outcome(hand: dict, answer: dict, result: str) -> list[Outcome]:
    """What each of the hand's wagers does, its insurance included, and what the player nets when
    there is an insurance: a headline that left it out would have the DRIC take $5 from a player
    whose insurance paid it back."""
    said = {"hand": hand["number"], "result": result, "amount": dollars(abs(answer["net_cents"]))}
    if answer["result"] == "win":
        text = _("Hand %(hand)s %(result)s: pay %(amount)s.") % said
    elif answer["result"] == "lose":
        text = _("Hand %(hand)s loses %(amount)s.") % said
    else:
        text = _("Hand %(hand)s: a push; the stake is returned.") % said
    outcome = [Outcome(text, _kind(answer["result"]))]
    if not hand["insurance"]:
        return outcome
    insured = answer["insurance_net_cents"]
    said = {"hand": hand["number"], "amount": dollars(abs(insured)), "insurance": dollars(hand["insurance"])}
    if insured > 0:
        outcome.append(Outcome(_("Insurance of hand %(hand)s (%(insurance)s) wins: pay %(amount)s.") % said, "win"))
    else:
        outcome.append(Outcome(_("Insurance of hand %(hand)s (%(insurance)s) loses %(amount)s.") % said, "lose"))
    if hand["split"]:
        return outcome  # the insurance of a split is counted once, in the player's total
    net = answer["net_cents"] + insured
    said = {"hand": hand["number"], "amount": dollars(abs(net))}
    if net > 0:
        outcome.append(Outcome(_("Hand %(hand)s with its insurance: the player wins %(amount)s in all.") % said, "win"))
    elif net < 0:
        outcome.append(
            Outcome(_("Hand %(hand)s with its insurance: the player loses %(amount)s in all.") % said, "lose")
        )
    else:
        outcome.append(
            Outcome(_("Hand %(hand)s with its insurance: the player neither wins nor loses.") % said, "push")
        )
    return outcome


def _score_text(hand: dict) -> str:
    if hand.get("blackjack"):
        return _("blackjack")
    if hand.get("bust") or hand["score"] > 21:
        return _("%(score)s, over 21") % {"score": hand["score"]}
    if hand.get("soft"):
        return _("soft %(score)s") % {"score": hand["score"]}
    return str(hand["score"])


def _score_line(who: str, hand: dict) -> str:
    return _("%(who)s: %(cards)s, %(score)s.") % {
        "who": who,
        "cards": card_labels(hand["cards"]),
        "score": _score_text(hand),
    }


# --- wheel of fortune (seed 001, Wheel of Fortune rules) -----------------------------------------


def wheel_spin(query, wheels) -> Answer:
    try:
        code = _text(query, "wheel")
        table = next((t for t in wheels if t.code == code), None)
        if table is None or not table.wheel_layout:
            raise RuleViolation(
                Words(N_("Choose one of the event's wheels.")),
                CALCULATOR,
                field="wheel",
                code="calculator.wheel_missing",
            )
        revolutions_text = _text(query, "revolutions")
        if not re.fullmatch(r"[0-9]{1,3}(?:[.,][0-9]{1,2})?", revolutions_text):
            raise RuleViolation(
                Words(N_("The revolutions are a number, such as 3 or 4.5.")),
                CALCULATOR,
                field="revolutions",
                code="calculator.bad_revolutions",
            )
        revolutions = float(revolutions_text.replace(",", "."))
        # Either language's spelling, any case: "5 $" or "joker" for the painted "$5" or "Joker".
        bet_symbol, landed = (
            wheel_layouts.find_symbol(table.wheel_layout, _text(query, name)) for name in ("bet_symbol", "landed")
        )
        known = wheel_layouts.symbols(table.wheel_layout)
        for name, symbol in (("bet_symbol", bet_symbol), ("landed", landed)):
            if symbol not in known:
                raise RuleViolation(
                    Words(
                        N_("%(symbol)s is not on this wheel: its symbols are %(symbols)s."),
                        symbol=repr(symbol),
                        symbols=", ".join(game_rules.symbol_text(each) for each in known),
                    ),
                    section_lazy(wheel_of_fortune.SECTION_LAYOUT),
                    field=name,
                    code="calculator.unknown_symbol",
                )
        answer = wheel_of_fortune.payout(table.wheel_layout, bet_symbol, _money(query, "bet"), landed, revolutions)
    except (Refused, RuleViolation) as exc:
        return Answer(refusal=_refused(exc))
    if answer["result"] == "win":
        said = _("The bet wins, pays %(odds)s.") % {"odds": game_rules.odds_words(answer["pays"])}
    elif answer["result"] == "no_spin":
        said = _(
            "No spin: the wheel made fewer than three full revolutions. The bet is not settled: it stays on the "
            "layout for the spin that counts."
        )
    else:
        said = _("The bet loses.")
    outcome = [Outcome(said, _kind(answer["result"]), head=True)]
    if answer["result"] == "win":
        outcome.append(Outcome(_("Pay %(amount)s.") % {"amount": dollars(answer["winnings_cents"])}, "win"))
    if answer["result"] == "no_spin":
        # Nothing is paid, taken or handed back: the figures of a settled bet would say otherwise.
        money = _("Nothing is paid, taken or handed back.")
    else:
        money = _("Pay-off: %(amount)s; returned to the player: %(returned)s; the player's gain or loss: %(net)s.") % {
            "amount": dollars(answer["winnings_cents"]),
            "returned": dollars(answer["returned_cents"]),
            "net": dollars(answer["net_cents"]),
        }
    return Answer(
        outcome=outcome,
        lines=[money, _("Section applied: %(section)s.") % {"section": section_text(answer["section"])}],
    )


# --- the house advantage of each game under these exact rules ------------------------------------


def simulated_house_text(house) -> str:
    """A house advantage a game's module measured by a seeded simulation, worked out offline to a
    margin under a tenth of a point (events.games.base.SimulatedHouse): said as an estimate and
    its margin."""
    return _(house.sentence) % {
        "estimate": game_rules.house_text(house.estimate),
        "margin": game_rules.house_text((house.high - house.low) / 2),
        "rounds": formats.number_format(house.rounds, force_grouping=True),
    }


def house_section(event, code: str, table=None) -> dict:
    """What the page shows beside a calculator: each bet's house advantage and how it is worked
    out, or what is missing for it; nothing for a game whose declaration gives none."""
    game = get_game(code)
    simulated = game.simulated_house()
    if simulated is not None:
        return {"rows": [(_(simulated.bet), simulated_house_text(simulated))], "how": _("Seeded simulation.")}
    rows = game_rules.house_advantages(event, code, table)
    if rows or game.has_wheel_layout:
        return {"rows": rows, "how": _("Exact enumeration.")}
    missing = game_rules.missing_in_a_sentence(event, code)
    if missing:
        return {"rows": rows, "how": _("Waiting for the licence's settings: %(missing)s.") % {"missing": missing}}
    return {"rows": rows, "how": ""}
