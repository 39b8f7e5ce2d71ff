"""Model cards (what a tap on a model shows): name, wounds, order and weapons by the edition's
characteristics, where a tap finds it; a hidden counter's card says nothing of what it holds."""

from __future__ import annotations

import json

from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from solo_ops.view.cards import cards, weapon_words
from solo_ops.view.player import player_view
from tests.support.paths import SCENARIOS

EXAMPLE = SCENARIOS / "volkus-stronghold-supplement-example.yaml"


def test_weapons_read_by_the_edition_s_characteristics() -> None:
    roster = load_scenario(EXAMPLE).roster
    assert roster is not None
    # rosters/traitor-cult.yaml: autogun {attacks: 4, hit: 4, damage: [2, 3], range_2018: 24,
    # strength: 3, ap: 0, damage_2018: 1, type: rapid}; chainaxe {attacks: 5, hit: 3,
    # damage: [4, 5], rules: [brutal], strength: 6, ap: -1}; bolt pistol {range: 8, ...}
    cultist = roster.profiles["cultist"]
    berserker = roster.profiles["berserker"]
    assert weapon_words(cultist.weapons[0], "kt2024") == (
        "autogun (ranged): 4 attacks, hits on 4+, damage 2/3")
    assert weapon_words(berserker.weapons[0], "kt2024") == (
        "chainaxe (melee): 5 attacks, hits on 3+, damage 4/5; brutal")
    assert weapon_words(berserker.weapons[1], "kt2024") == (
        'bolt pistol (ranged): 4 attacks, hits on 3+, damage 3/4, range 8.0"')
    autogun_2018 = cultist.for_edition("kt2018").weapons[0]
    assert weapon_words(autogun_2018, "kt2018") == (
        'autogun (Rapid Fire 1, 24.0"): S3 AP0 D1')
    assert weapon_words(autogun_2018, "kt2018", "cm") == (
        "autogun (Rapid Fire 1, 61.0 cm): S3 AP0 D1")
    axe_2018 = berserker.for_edition("kt2018").weapons[0]
    assert weapon_words(axe_2018, "kt2018") == "chainaxe (melee): S6 AP-1 D1; brutal"


def test_a_card_for_every_model_counter_and_objective_the_players_see() -> None:
    game, state = new_game(load_scenario(EXAMPLE), 3)
    shown = cards(game, state, player_view(game, state))
    marine = shown["marine-1"]
    assert {k: marine[k] for k in ("short", "name", "kind", "wounds", "state", "at", "xy")} == {
        "short": "M1", "name": "Chaos Marine", "kind": "enemy", "wounds": "14/14",
        "state": ["Engage order, ready"], "at": "(16.0, 19.5)", "xy": [16.0, 19.5]}
    assert marine["radius"] == state.operatives["marine-1"].radius
    kell = shown["kell"]
    assert kell["kind"] == "player" and kell["player"] == "Ana" and kell["name"] == "Sgt Kell"
    assert len(kell["weapons"]) == len(state.operatives["kell"].profile.weapons)
    assert shown["obj-1"]["kind"] == "objective" and shown["obj-1"]["weapons"] == []
    assert {k for k, v in shown.items() if v["kind"] == "counter"} == set(state.counters)
    for counter in state.counters.values():
        card = shown[counter.id]
        assert card["state"] == ["what it holds is found when one of your operatives sees it"]
        assert card["weapons"] == [] and card["name"] == "hidden counter"
    assert "hidden_order" not in json.dumps(shown)
