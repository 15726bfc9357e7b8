"""The licence's game settings (limits of baccarat and craps, a tie's payout, the banker's
commission) and each wheel's layout: entered, refused with their rule, audited, shown."""

import re

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from core.rules import RuleViolation
from events import game_rules, services, wheel_layouts
from events.games import get_game
from events.models import GameSettings, GameTable
from tests.conftest import PASSWORD, make_event
from tests.refusals import refuses

pytestmark = pytest.mark.django_db
BACCARAT = {
    "limits": ("2", "25"),
    "player_pays": "1:1",
    "banker_pays": "1:1",
    "banker_commission": "5",
    "tie_pays": "8:1",
    "decks": "8",
}


def test_baccarat_and_craps_limits_are_the_licences_until_entered(quebec_unset):
    event = quebec_unset.event
    assert game_rules.limits(quebec_unset.ontario, "blackjack").min_cents == 100
    assert game_rules.limits(event, "baccarat") is None
    assert "A winning tie bet pays" in game_rules.missing_settings(event, "baccarat")
    services.game_settings_set(event=event, game="baccarat", entered=BACCARAT)
    found = game_rules.limits(event, "baccarat")
    assert (found.min_cents, found.max_cents) == (200, 2500)
    assert game_rules.missing_settings(event, "baccarat") == []
    assert AuditEntry.objects.filter(action="game_settings_set", event=event).exists()


@pytest.mark.parametrize(
    "figures, field",
    [
        ({"limits": ("5", "1")}, "max_bet"),
        ({"limits": ("0", "1")}, "min_bet"),
        ({"limits": ("1.005", "5")}, "min_bet"),
        ({"tie_pays": "0:1"}, "tie_pays"),
        ({"tie_pays": "eight"}, "tie_pays"),
        ({"banker_commission": "30"}, "banker_commission"),
        ({"banker_commission": "NaN"}, "banker_commission"),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(quebec_unset, figures, field):
    event = quebec_unset.event
    with pytest.raises(RuleViolation) as refused:
        services.game_settings_set(event=event, game="baccarat", entered={**BACCARAT, **figures})
    assert refused.value.field == field
    assert not GameSettings.objects.exists()


@pytest.mark.parametrize(
    "odds, says",
    [
        (
            "0:1",
            "A winning tie bet pays: odds of 0 to 1 pay nothing; the odds must pay more than nothing, such as 8:1.",
        ),
        ("8:0", "A winning tie bet pays: odds of 8 to 0 are not odds; the second number is at least 1, such as 8:1."),
        ("eight", "A winning tie bet pays: write the odds as two whole numbers, such as 8:1."),
    ],
)
def test_odds_that_pay_nothing_are_refused_naming_the_rule(quebec_unset, odds, says):
    event = quebec_unset.event
    with pytest.raises(RuleViolation) as refused:
        services.game_settings_set(event=event, game="baccarat", entered={**BACCARAT, "tie_pays": odds})
    assert refused.value.text == f"{says} (the licence's game settings)"
    assert not GameSettings.objects.exists()


def test_a_game_with_seed_figures_or_not_licensed_has_no_settings(quebec_unset):
    with refuses("game_settings.nothing_to_enter"):
        services.game_settings_set(event=quebec_unset.ontario, game="blackjack", entered={"limits": ("1", "5")})
    other = make_event("lakeside")
    with refuses("event.game_not_licensed"):
        services.game_settings_set(event=other, game="craps", entered={"limits": ("1", "5")})


def test_the_administrator_enters_settings_on_the_games_page(client, quebec_unset, admin_user):
    event, dric = quebec_unset.event, quebec_unset.dric
    url = reverse("events:games", args=[event.slug])
    client.force_login(admin_user)
    page = client.get(url).content.decode()
    assert "Not entered yet" in page and "settings-craps" in page
    # The labels listed one an item, as they stand on the form, not capitalised mid-sentence.
    assert "<li>Betting limits</li>" in page and "<li>A winning player bet pays</li>" in page
    assert "Not entered yet: Betting limits" not in page
    response = client.post(url, {"craps-game": "craps", "craps-min_bet": "1", "craps-max_bet": "10"})
    assert response.status_code == 302
    assert game_rules.limits(event, "craps").max_cents == 1000
    refused = client.post(url, {"craps-game": "craps", "craps-min_bet": "9", "craps-max_bet": "2"})
    assert refused.status_code == 200
    assert "The maximum bet cannot be less than the minimum bet." in refused.content.decode()
    assert game_rules.limits(event, "craps").max_cents == 1000
    # The DRIC reads the figures but enters none: the licence is the administrator's.
    assert client.login(username=dric.user.username, password=PASSWORD)
    page = client.get(url).content.decode()
    assert "Bets from $1.00 to $10.00" in page and "settings-craps" not in page
    assert client.post(url, {"craps-game": "craps"}).status_code == 403


def test_a_tie_paying_nothing_is_refused_on_the_games_page_with_its_rule(client, quebec_unset, admin_user):
    event = quebec_unset.event
    client.force_login(admin_user)
    posted = {f"baccarat-{name}": value for name, value in BACCARAT.items() if name != "limits"}
    posted.update({"baccarat-game": "baccarat", "baccarat-min_bet": "2", "baccarat-max_bet": "25"})
    response = client.post(reverse("events:games", args=[event.slug]), {**posted, "baccarat-tie_pays": "0:1"})
    page = response.content.decode().replace("&#x27;", "'")
    assert response.status_code == 200
    assert "odds of 0 to 1 pay nothing; the odds must pay more than nothing" in page
    assert not GameSettings.objects.filter(event=event).exists()


def test_the_games_page_in_french(client, quebec_unset, admin_user):
    event = quebec_unset.event
    services.game_settings_set(event=event, game="craps", entered={"limits": ("1", "10")})
    client.force_login(admin_user)
    page = client.get(reverse("events:games", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="fr-ca").content.decode()
    assert "Mises de 1,00" in page and "Baccara" in page
    ontario = quebec_unset.ontario
    page = client.get(reverse("events:games", args=[ontario.slug]), HTTP_ACCEPT_LANGUAGE="fr-ca").content.decode()
    assert "Mises de 1,00" in page and "Roue de la fortune" in page


def test_a_new_wheel_table_gets_the_default_layout_and_others_none(quebec_unset):
    event = quebec_unset.ontario
    wheel = GameTable.objects.get(event=event, code="WOF-1")
    assert wheel.wheel_layout == wheel_layouts.default_layout()
    assert wheel_layouts.refusals(wheel.wheel_layout) == []
    assert GameTable.objects.get(event=event, code="BJ-1").wheel_layout is None


def test_the_dric_sets_a_wheel_layout(client, quebec_unset):
    event, dric = quebec_unset.ontario, quebec_unset.ontario_people["dric"]
    assert client.login(username=dric.user.username, password=PASSWORD)
    url = reverse("events:wheel_layout", args=[event.slug, "WOF-1"])
    # Ten segments; the house keeps an advantage on every bet (Star: 1 in 10 at 8 to 1 keeps 10%).
    typed = ["1 1:1", "2 2:1", "1 1:1", "5 5:1", "1 1:1", "2 2:1", "1 1:1", "Star 8:1", "2 2:1", "Joker 8:1"]
    response = client.post(url, {"layout": "\n".join(typed) + "\n"})
    assert response.status_code == 302
    segments = GameTable.objects.get(code="WOF-1").wheel_layout["segments"]
    assert [f"{s['symbol']} {s['to']}:{s['per']}" for s in segments] == typed
    page = client.get(url).content.decode()
    assert "Star" in page and "8 to 1" in page and "10 segments." in page
    assert AuditEntry.objects.filter(action="wheel_layout_set", event=event).exists()


@pytest.mark.parametrize(
    "layout, says",
    [
        ("1 1:1\nStar 9:1", "Wheel of Fortune rule 4"),
        ("1 1:1\nStar 17:2", "cannot exceed 8 to 1"),
        ("1 1:1\n1 2:1", "posted at two odds"),
        ("1 1:1\nnot a segment", "is not a segment"),
        ("", "This field is required"),
        # Two segments paying 1:1 and 2:1: the $2 bet pays back one and a half times what it takes in.
        (
            "$1 1:1\n$2 2:1",
            "These bets would pay back on average all they take in, or more, leaving the house no advantage: "
            "the symbol $1, the symbol $2. Put fewer segments of those symbols on the wheel",
        ),
    ],
)
def test_a_layout_that_breaks_the_rules_is_refused_and_changes_nothing(client, quebec_unset, layout, says):
    event, dric = quebec_unset.ontario, quebec_unset.ontario_people["dric"]
    before = GameTable.objects.get(code="WOF-1").wheel_layout
    assert client.login(username=dric.user.username, password=PASSWORD)
    response = client.post(reverse("events:wheel_layout", args=[event.slug, "WOF-1"]), {"layout": layout})
    assert response.status_code == 200
    assert says in response.content.decode()
    assert GameTable.objects.get(code="WOF-1").wheel_layout == before


def test_a_refused_layout_is_told_in_french(client, quebec_unset):
    event, dric = quebec_unset.ontario, quebec_unset.ontario_people["dric"]
    assert client.login(username=dric.user.username, password=PASSWORD)
    response = client.post(
        reverse("events:wheel_layout", args=[event.slug, "WOF-1"]),
        {"layout": "Star 9:1"},
        HTTP_ACCEPT_LANGUAGE="fr-ca",
    )
    page = response.content.decode()
    assert "roue de la fortune" in page.lower() and "8" in page and "Star" in page


def test_only_a_wheel_has_a_layout_page(client, quebec_unset):
    event, dric = quebec_unset.ontario, quebec_unset.ontario_people["dric"]
    assert client.login(username=dric.user.username, password=PASSWORD)
    response = client.get(reverse("events:wheel_layout", args=[event.slug, "BJ-1"]))
    assert response.status_code == 404
    assert "is not a wheel of fortune" in response.content.decode()
    assert client.get(reverse("events:wheel_layout", args=[event.slug, "NOPE"])).status_code == 404


def test_the_baccarat_form_asks_for_every_figure_its_module_declares(client, quebec_unset, admin_user):
    event = quebec_unset.event
    url = reverse("events:games", args=[event.slug])
    client.force_login(admin_user)
    form = {
        "baccarat-game": "baccarat",
        "baccarat-min_bet": "2",
        "baccarat-max_bet": "20",
        "baccarat-player_pays": "1:1",
        "baccarat-banker_pays": "1:1",
        "baccarat-banker_commission": "5",
        "baccarat-tie_pays": "9:1",
        "baccarat-decks": "6",
    }
    assert client.post(url, form).status_code == 302
    assert game_rules.figures(event, "baccarat")["tie_pays"] == (9, 1)
    page = client.get(url).content.decode()
    assert "9 to 1" in page and "less a commission of 5%" in page and "Banker: 1.0" in page
    refused = client.post(url, {**form, "baccarat-tie_pays": "nine"}).content.decode()
    assert "write the odds as two whole numbers" in refused
    assert game_rules.figures(event, "baccarat")["tie_pays"] == (9, 1)
    # Each odds field's example is its own bet's usual odds: 8:1 is a tie's, not the player's.
    helps = re.findall(r'id="id_baccarat-(\w+)_helptext">\s*(.*?)\s*<', page)
    assert ("player_pays", "Two whole numbers, to:per, such as 1:1.") in helps, helps
    assert ("banker_pays", "Two whole numbers, to:per, such as 1:1.") in helps
    assert ("tie_pays", "Two whole numbers, to:per, such as 8:1.") in helps
    refused = client.post(url, {**form, "baccarat-player_pays": "one"}).content.decode()
    assert "A winning player bet pays: write the odds as two whole numbers, such as 1:1." in refused


def test_a_layout_breaking_two_rules_names_each_once(quebec_unset):
    event = quebec_unset.ontario
    with pytest.raises(RuleViolation) as refused:
        services.wheel_layout_set(table=event.tables.get(code="WOF-1"), layout_text="$5 10:1\n$1 1:1\n$1 1:1")
    text = str(refused.value)
    assert text.count("Wheel of Fortune rule 4") == 1 and text.count("Wheel of Fortune rule 5") == 1
    assert text.endswith("(Wheel of Fortune rule 4; Wheel of Fortune rule 5)"), text


def test_the_games_page_is_in_everyone_s_navigation(client, quebec_unset):
    event, dric = quebec_unset.event, quebec_unset.dric
    assert client.login(username=dric.user.username, password=PASSWORD)
    page = client.get(reverse("events:tables", args=[event.slug])).content.decode()
    nav = page.split('<nav class="event"', 1)[1].split("</nav>", 1)[0]
    assert f'href="{reverse("events:games", args=[event.slug])}">Games</a>' in nav


@pytest.mark.parametrize(
    "changed, bets, field",
    [
        # No commission: the banker bet wins more often than the player bet, paid the same.
        ({"banker_commission": "0"}, "the banker bet.", "banker_commission"),
        ({"player_pays": "2:1"}, "the player bet.", "player_pays"),
        ({"tie_pays": "10:1"}, "the tie bet.", "tie_pays"),
        ({"banker_commission": "0", "tie_pays": "10:1"}, "the banker bet, the tie bet.", "banker_commission"),
    ],
)
def test_baccarat_settings_that_leave_the_house_no_advantage_are_refused(quebec_unset, changed, bets, field):
    # The product's rule HOUSE_KEEPS, the one the wheel layouts keep, reused for the licence's settings.
    event = quebec_unset.event
    with pytest.raises(RuleViolation) as refused:
        services.game_settings_set(event=event, game="baccarat", entered={**BACCARAT, **changed})
    assert refused.value.text.startswith("These bets would pay back on average all they take in, or more")
    assert bets in refused.value.text and "Raise the banker's commission" in refused.value.text
    assert refused.value.rule == game_rules.HOUSE_KEEPS and refused.value.field == field
    assert not GameSettings.objects.filter(event=event, game="baccarat").exists()
    # The usual figures keep an advantage on every bet, and are kept.
    services.game_settings_set(event=event, game="baccarat", entered=BACCARAT)
    kept = get_game("baccarat").house_advantages(game_rules.figures(event, "baccarat"))
    assert kept and all(edge > 0 for edge in kept.values())


def test_a_zero_commission_is_refused_on_the_games_page(client, quebec_unset, admin_user):
    event = quebec_unset.event
    client.force_login(admin_user)
    form = {f"baccarat-{name}": value for name, value in BACCARAT.items() if name != "limits"}
    form.update({"baccarat-game": "baccarat", "baccarat-min_bet": "2", "baccarat-max_bet": "25"})
    form["baccarat-banker_commission"] = "0"
    page = client.post(reverse("events:games", args=[event.slug]), form).content.decode()
    assert "leaving the house no advantage: the banker bet." in page
    assert not GameSettings.objects.filter(event=event, game="baccarat").exists()
