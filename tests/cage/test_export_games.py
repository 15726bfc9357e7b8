"""A records file carries the licence's game settings and each wheel's layout (extensions,
docs/cage-records-extensions.md): exported as typed, imported through the same services and rules
as the games page, and refused with their rule when they break it."""

import copy

import pytest

from cage.exporter import export_event
from cage.importer import ImportFailed, import_records
from events import services as event_services
from events import wheel_layouts
from tests.records_generator import generated_event

pytestmark = pytest.mark.django_db

BACCARAT = {
    "limits": ["2.00", "25.00"],
    "player_pays": "1:1",
    "banker_pays": "1:1",
    "banker_commission": "4.5",  # not the usual 5, so the round trip shows it (2.5 leaves the house no edge)
    "tie_pays": "9:1",
    "decks": "6",
}
WHEEL = ["$1 1:1", "$2 2:1", "$1 1:1", "$5 5:1", "$1 1:1", "$2 2:1", "$1 1:1", "Star 8:1", "$2 2:1", "Joker 8:1"]


def events_with_games():
    """A Québec event with the licence's baccarat and craps settings, an Ontario one with a wheel's
    layout: each licence authorizes the games of its own authority's rules (T&C 1.3, 3.3)."""
    data = generated_event(seed=3, days=1, records_per_day=20, authority="racj")
    data["event"]["slug"] = "games-out"
    quebec = import_records(data)
    event_services.game_settings_set(event=quebec, game="baccarat", entered=BACCARAT)
    event_services.game_settings_set(event=quebec, game="craps", entered={"limits": ("1", "10")})
    data = generated_event(seed=3, days=1, records_per_day=20)
    data["event"]["slug"] = "wheels-out"
    ontario = import_records(data)
    event_services.wheel_layout_set(table=ontario.tables.get(code="WOF-1"), layout_text="\n".join(WHEEL))
    return quebec, ontario


def test_game_settings_and_wheel_layouts_come_back_from_an_exported_event():
    event, ontario = events_with_games()
    data = export_event(event)
    assert data["event"]["authority"] == "racj"
    assert data["event"]["game_settings"]["baccarat"] == BACCARAT
    assert data["event"]["game_settings"]["craps"] == {"limits": ["1.00", "10.00"]}
    data["event"]["slug"] = "games-back"
    back = import_records(data)
    assert back.authority == "racj"
    settings = {row.game: row.figures for row in back.game_settings.all()}
    assert settings == {row.game: row.figures for row in event.game_settings.all()}
    assert export_event(back)["event"]["game_settings"] == export_event(event)["event"]["game_settings"]

    data = export_event(ontario)
    wheel = next(t for t in data["tables"] if t["id"] == "WOF-1")
    assert wheel["layout"] == WHEEL
    assert "layout" not in next(t for t in data["tables"] if t["id"] == "BJ-1")
    data["event"]["slug"] = "wheels-back"
    back = import_records(data)
    assert wheel_layouts.text(back.tables.get(code="WOF-1").wheel_layout).splitlines() == WHEEL


def test_a_file_without_them_gives_wheels_the_default_layout_and_no_settings():
    event = import_records(generated_event(seed=3, days=1, records_per_day=10))
    assert not event.game_settings.exists()
    assert event.tables.get(code="WOF-1").wheel_layout == wheel_layouts.default_layout()


@pytest.mark.parametrize(
    "damage,says",
    [
        (
            lambda d: next(t for t in d["tables"] if t["id"] == "WOF-1").update(layout=["$5 10:1", "$1 1:1"]),
            "tables[2].layout: ",
        ),
        (lambda d: next(t for t in d["tables"] if t["id"] == "WOF-1").update(layout="$5 5:1"), "tables[2].layout: "),
        (lambda d: next(t for t in d["tables"] if t["id"] == "BJ-1").update(layout=WHEEL), "tables[0].layout: "),
        (
            lambda d: d["event"].update(
                authority="racj",
                games=["baccarat", "craps"],
                game_settings={"baccarat": {**BACCARAT, "limits": ["25.00", "2.00"]}},
            ),
            "event.game_settings.baccarat.max_bet: The maximum bet cannot be less than the minimum bet.",
        ),
        (
            lambda d: d["event"].update(games=["blackjack", "wheel_of_fortune", "craps"]),
            "event.games: Craps is not played under the rules of play a licence of Alcohol and Gaming Commission",
        ),
        (
            lambda d: d["event"].update(game_settings={"blackjack": {"limits": ["1", "5"]}}),
            "event.game_settings.blackjack.game: ",
        ),
        (lambda d: d["event"].update(game_settings=["baccarat"]), "event.game_settings: "),
    ],
)
def test_settings_and_layouts_that_break_the_rules_are_refused_and_nothing_is_imported(damage, says):
    data = copy.deepcopy(generated_event(seed=3, days=1, records_per_day=10))
    data["event"]["slug"] = "games-refused"
    damage(data)
    with pytest.raises(ImportFailed) as refused:
        import_records(data)
    assert any(p.startswith(says) for p in refused.value.problems), refused.value.problems
    from events.models import Event

    assert not Event.objects.filter(slug="games-refused").exists()
