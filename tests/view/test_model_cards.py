"""Model cards (what a tap on a model shows): name, wounds, order and weapons by the edition's
characteristics, where a tap finds it; a hidden counter's card says nothing of what it holds."""

from __future__ import annotations

import json
import re

from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from solo_ops.view.cards import cards, weapon_words
from solo_ops.view.player import player_view
from tests.support.paths import SCENARIOS

EXAMPLE = SCENARIOS / "volkus-stronghold-supplement-example.yaml"
RULES_2024 = re.compile(r"\b(?:accurate|blast|devastating|lethal|limited|piercing|torrent)=|"
                        r"\b(?:brutal|balanced|ceaseless|relentless|rending|saturate|"
                        r"seek_light|punishing|severe|piercing_crits)\b|; heavy\b")
"""The Kill Team 2024 weapon rules as a card writes them (``WeaponRule.text``)."""


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
    assert weapon_words(axe_2018, "kt2018") == "chainaxe (melee): S6 AP-1 D1"


def test_a_2018_card_shows_the_2018_profile_and_abilities_never_2024_rules() -> None:
    """rosters/necron-patrol.yaml: the synaptic disintegrator {type_2018: rapid, range_2018:
    24, rules: [heavy, devastating=3, seek_light], strength: 4, ap: 0, shots: 1}; the gauss
    flayer {ap: 0, abilities_2018: [gauss], rules: [lethal=5]} (Gauss, the Kill Team 2018
    Core Manual: "each wound roll of 6+ is resolved with AP -4"). Every card and set-up line
    of the Crypt of Cynosure game is free of the Kill Team 2024 rule words."""
    from solo_ops.view.setup import setup_doc

    game = load_scenario(SCENARIOS / "crypt-auto-reactive-foundations.yaml")
    roster = game.roster
    assert roster is not None
    mark = roster.profiles["deathmark"].for_edition("kt2018")
    warrior = roster.profiles["warrior"].for_edition("kt2018")
    assert weapon_words(mark.weapons[0], "kt2018") == (
        'synaptic disintegrator (Rapid Fire 1, 24.0"): S4 AP0 D1')
    assert weapon_words(warrior.weapons[0], "kt2018") == (
        'gauss flayer (Rapid Fire 1, 24.0"): S4 AP0 D1; Gauss (a wound roll of 6+ is '
        'resolved with AP -4)')
    g, state = new_game(game, 15)
    view = player_view(g, state)
    for o in state.operatives.values():  # every model as a card would show it
        for w in o.profile.weapons:
            assert not RULES_2024.search(weapon_words(w, "kt2018")), w.name
    lines = json.dumps(setup_doc(g, state, view))
    assert not RULES_2024.search(lines)
    assert "Gauss" in lines and "synaptic disintegrator (Rapid Fire 1" in lines


def test_a_card_for_every_model_counter_and_objective_the_players_see() -> None:
    game, state = new_game(load_scenario(EXAMPLE), 3)
    shown = cards(game, state, player_view(game, state))
    marine = shown["marine-1"]
    assert {k: marine[k] for k in ("short", "name", "kind", "wounds", "state", "at", "xy")} == {
        "short": "M1", "name": "Chaos Marine", "kind": "enemy", "wounds": "14/14",
        "state": ["Conceal order, ready"], "at": "(16.0, 19.5)", "xy": [16.0, 19.5]}
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


def test_a_2018_card_counts_the_flesh_wound_boxes_marked() -> None:
    """A 2018 model's card says how many of its Flesh Wound boxes are marked (the terminal's
    status says "flesh wounds 1/3"; the card said "wounds 1/1" alone)."""
    game, state = new_game(load_scenario(SCENARIOS / "crypt-objective-ultima.yaml"), 3)
    op = next(o for o in state.operatives.values() if o.side == "player")
    op.flesh_wounds = 2
    card = cards(game, state, player_view(game, state))[op.id]
    assert "flesh wounds 2/3" in card["state"]
    op.flesh_wounds = 0
    card = cards(game, state, player_view(game, state))[op.id]
    assert not any(w.startswith("flesh wounds") for w in card["state"])
