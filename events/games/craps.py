"""Craps even-money bets ("chances simples"), by the Québec By-law respecting casino games,
s. 95.14 (seed 004, French only; quoted in French where its wording decides).

s. 95.14 states the five bets and their payouts: every bet pays even money ("se paient à égalité")
unless stated otherwise, and the field pays 2 to 1 on 2 or 12 (5°). It states no betting limits:
they are a setting of the licence's game, entered by the administrator and posted (T&C 3.5).
"""

from fractions import Fraction
from itertools import product

from .base import N_, QUEBEC_SECTION_NAMES, Bet, Game, Payoff, Refusal, Refused, Setting, rules_text_of

SECTION = "S-13.1, r. 3, s. 95.14"

# The paragraph of s. 95.14 stating each bet.
BET_SECTIONS = {
    "pass": f"{SECTION} (1°)",
    "dont_pass": f"{SECTION} (2°)",
    "come": f"{SECTION} (3°)",
    "dont_come": f"{SECTION} (4°)",
    "field": f"{SECTION} (5°)",
}
BETS = tuple(BET_SECTIONS)
WITHDRAW_SECTION = f"{SECTION} (4°)"  # the paragraph closing 4°, on withdrawing and raising


class Craps(Game):
    def house_advantages(self, figures: dict, layout: dict | None = None) -> dict:
        return house_advantage()  # the dice's alone: the licence sets no payout


GAME = Craps(
    code="craps",
    name_en="Craps",
    name_fr="Craps",
    limits=None,
    # s. 95.14 5°: the field pays 2 to 1 on 2 or 12, every other bet even money.
    max_payout_odds=(2, 1),
    max_payout_cents=None,
    rules=tuple(BET_SECTIONS.values()),
    rules_of="quebec",
    payout_section=BET_SECTIONS["field"],
    settings=(Setting("limits", N_("Betting limits"), "limits", (100, 500)),),
    bets=(
        Bet("pass", N_("Pass")),
        Bet("dont_pass", N_("Don't pass")),
        Bet("come", N_("Come")),
        Bet("dont_come", N_("Don't come")),
        Bet("field", N_("Field")),
    ),
    fixed_payoffs=(
        Payoff(N_("Pass, don't pass, come, don't come"), (1, 1), SECTION),
        Payoff(N_("Field, on 3, 4, 9, 10 or 11"), (1, 1), BET_SECTIONS["field"]),
        Payoff(N_("Field, on 2 or 12"), (2, 1), BET_SECTIONS["field"]),
    ),
    calculator="rolls",
    # Seed 004 is French only: the English poster's rules are the product's translation of it.
    translation_note=N_(
        "This English text is a translation of section 95.14 of the Québec By-law respecting casino "
        "games; the French text rules."
    ),
    rules_text=rules_text_of("craps"),
    section_names=QUEBEC_SECTION_NAMES,
)

# The totals each bet's first roll decides (1° to 4°); any other total becomes the bet's point.
_FIRST_ROLL = {
    # pass and come: 7 or 11 wins, 2, 3 or 12 loses (1°, 3°).
    "pass": {7: "win", 11: "win", 2: "lose", 3: "lose", 12: "lose"},
    # don't pass and don't come: 2 or 3 wins, 7 or 11 loses, 12 is "nulle": a push (2°, 4°).
    "dont_pass": {2: "win", 3: "win", 7: "lose", 11: "lose", 12: "push"},
}
_FIRST_ROLL["come"] = _FIRST_ROLL["pass"]
_FIRST_ROLL["dont_come"] = _FIRST_ROLL["dont_pass"]

# 5°: the field wins on 2, 3, 4, 9, 10, 11 or 12 and loses on any other total; 2 to 1 on 2 or 12.
_FIELD_PAYS = {2: "2:1", 12: "2:1", 3: "1:1", 4: "1:1", 9: "1:1", 10: "1:1", 11: "1:1"}


def _check_bet_name(bet: str) -> str:
    if bet not in BET_SECTIONS:
        raise Refused(
            Refusal(
                N_("%(bet)s is not one of the bets of s. 95.14: pass, don't pass, come, don't come or field."),
                {"bet": repr(bet)},
                SECTION,
            )
        )
    return bet


def _check_total(total) -> int:
    if not isinstance(total, int) or isinstance(total, bool) or not 2 <= total <= 12:
        raise Refused(
            Refusal(
                N_("%(total)s is not a total of two dice: totals run from 2 to 12."), {"total": repr(total)}, SECTION
            )
        )
    return total


def come_out(total: int, dont: bool = False) -> str:
    """s. 95.14 1° and 2°: a pass (or don't pass) bet on the first roll: "win", "lose", "push" or
    "point". A total outside 2 to 12 is refused."""
    return _FIRST_ROLL["dont_pass" if dont else "pass"].get(_check_total(total), "point")


def field_pays(total: int) -> int:
    """s. 95.14 5°: what a winning field bet pays per unit staked; 0 when it loses."""
    pays = _FIELD_PAYS.get(_check_total(total))
    return int(pays.split(":")[0]) if pays else 0


def settle(bet: str, rolls: list[int]) -> dict:
    """Where `bet` stands after `rolls`, the totals of the dice from the roll the bet first meets
    (for pass and don't pass, the come-out roll; for come and don't come, the roll after the bet is
    placed, 3° and 4°; for the field, the next roll, 5°).

    Returns {"result": "win" | "lose" | "push" | "open", "pays": "1:1" | "2:1" | None,
    "rolls_used": the rolls read until the bet was decided (all of them while it is open),
    "point": the bet's point or None, "section": the paragraph applied}. Rolls after the decision
    are not read but must still be totals of two dice. Raises Refused for an unknown bet or a
    total outside 2 to 12.
    """
    section = BET_SECTIONS[_check_bet_name(bet)]
    if not isinstance(rolls, (list, tuple)):
        raise Refused(Refusal(N_("The rolls are a list of totals of two dice."), {}, SECTION))
    rolls = [_check_total(total) for total in rolls]
    answer = {"result": "open", "pays": None, "rolls_used": len(rolls), "point": None, "section": section}
    if not rolls:
        return answer
    first = rolls[0]
    if bet == "field":
        pays = _FIELD_PAYS.get(first)
        return {**answer, "result": "win" if pays else "lose", "pays": pays, "rolls_used": 1}
    decided = _FIRST_ROLL[bet].get(first)
    if decided:
        return {**answer, "result": decided, "pays": "1:1" if decided == "win" else None, "rolls_used": 1}
    # Any other total becomes the point (1° to 4°). Pass and come then win on the point and lose on
    # 7; don't pass and don't come win on 7 and lose on the point; every other total waits.
    dont = bet in ("dont_pass", "dont_come")
    for used, total in enumerate(rolls[1:], start=2):
        if total in (7, first):
            won = (total == 7) == dont
            return {
                **answer,
                "result": "win" if won else "lose",
                "pays": "1:1" if won else None,
                "rolls_used": used,
                "point": first,
            }
    return {**answer, "point": first}


def settle_each_roll(bet: str, rolls: list[int]) -> list[dict]:
    """The bet's state after each roll, up to the roll that decides it: `settle(bet, rolls[:n])`
    for n = 1, 2, ... (the DRIC's roll-by-roll reading)."""
    answers = []
    for used in range(1, len(rolls) + 1):
        answers.append(settle(bet, rolls[:used]))
        if answers[-1]["result"] != "open":
            break
    return answers


def can_withdraw(bet: str) -> bool | None:
    """s. 95.14, after 4°: pass and come bets cannot be withdrawn and are played until they win or
    lose; don't pass and don't come bets can be withdrawn at any time. None for the field: the
    section says nothing of withdrawing it (a one-roll bet)."""
    _check_bet_name(bet)
    return {"pass": False, "come": False, "dont_pass": True, "dont_come": True}.get(bet)


def can_raise(bet: str) -> bool | None:
    """s. 95.14, after 4°: don't pass and don't come bets cannot be raised. None for pass, come and
    the field: the section says nothing of raising them."""
    _check_bet_name(bet)
    return False if bet in ("dont_pass", "dont_come") else None


# Two fair dice: the number of the 36 ways of rolling each total.
WAYS = {t: sum(1 for a, b in product(range(1, 7), repeat=2) if a + b == t) for t in range(2, 13)}


def outcome_probabilities(bet: str) -> dict[str, Fraction]:
    """The exact probabilities that `bet` wins, loses or pushes, by `settle` itself: every first
    roll, then for a point the chance it comes before 7 (the totals that wait do not count, so
    P(point first) = ways(point) / (ways(point) + ways(7)))."""
    odds = {"win": Fraction(0), "lose": Fraction(0), "push": Fraction(0)}
    for first, ways in WAYS.items():
        p_first = Fraction(ways, 36)
        answer = settle(bet, [first])
        if answer["result"] != "open":
            odds[answer["result"]] += p_first
            continue
        p_point = Fraction(WAYS[first], WAYS[first] + WAYS[7])
        for decider, p in ((first, p_point), (7, 1 - p_point)):
            odds[settle(bet, [first, decider])["result"]] += p_first * p
    return odds


def house_advantage() -> dict[str, Fraction]:
    """The house's advantage on each bet of s. 95.14, as a fraction of the stake (a push returns the
    stake), exact by enumeration of two fair dice: pass and come 7/495, don't pass and don't come
    3/220, field 1/18."""
    result = {}
    for bet in BETS:
        if bet == "field":
            expected = sum(
                Fraction(WAYS[t], 36) * (int(_FIELD_PAYS[t].split(":")[0]) if t in _FIELD_PAYS else -1) for t in WAYS
            )
        else:
            odds = outcome_probabilities(bet)
            expected = odds["win"] - odds["lose"]
        result[bet] = -expected
    return result
