"""Kill Team 2018: a model with no melee weapon on its profile fights with the close combat
weapon of the Kill Team 2018 Core Manual ("Range Melee, Type Melee, S User, AP 0, D 1"; 004 is
silent), so it charges and fights like any other, on either side (docs/rules.md "Kill Team
2018"). The shipped Chaos Marine (boltgun, bolt pistol) is the case the Translocum game met."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import yaml

from solo_ops.core.model import DiceExpr, Profile
from solo_ops.game import attacks
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.roster import load_roster
from solo_ops.io.scenario import parse_scenario
from solo_ops.rules import kt2018, odds_2018, orders
from solo_ops.view.answers import parse
from tests.support.pariah_table import TROOPER, board
from tests.support.paths import ROSTERS

CULT = ROSTERS / "traitor-cult.yaml"


def _chaos_marine() -> Profile:
    return load_roster(CULT).profiles["chaos-marine"].for_edition("kt2018")


def test_a_model_without_a_melee_weapon_fights_with_the_close_combat_weapon() -> None:
    """Close combat weapon: "Range Melee, Type Melee, S User, AP 0, D 1"."""
    marine = _chaos_marine()
    assert marine.melee_weapons == ()  # boltgun and bolt pistol only
    [weapon] = kt2018.melee_weapons(marine)
    assert weapon is kt2018.CLOSE_COMBAT_WEAPON
    assert (weapon.is_melee, weapon.strength, weapon.ap, weapon.damage_2018) == (
        True, None, 0, DiceExpr(0, 0, 1))
    assert kt2018.melee_weapons(marine, "kt2024") == ()  # 2024 has no such default
    assert attacks.melee_weapons(marine, "kt2018") == [kt2018.CLOSE_COMBAT_WEAPON]
    berserker = load_roster(CULT).profiles["berserker"].for_edition("kt2018")
    assert [w.name for w in kt2018.melee_weapons(berserker)] == ["chainaxe"]


def test_the_close_combat_weapon_is_not_counted_for_the_troop_type() -> None:
    """The supplement counts the weapons a unit carries; the default is not one of them: a
    Chaos Marine is a Fire Team under either reading of ``troop_count``."""
    marine = _chaos_marine()
    for count in ("main_weapon", "every_weapon"):
        assert orders.troop_type([marine], count) is orders.TroopType.FIRE_TEAMS


def test_its_attack_has_the_bearers_strength_and_hand_computed_odds() -> None:
    """A Chaos Marine (WS 3+, S 4, A 1) with the close combat weapon against a trooper (T 3,
    Sv 5+, 1 wound): hit 3+ (4/6), wound S 4 > T 3 on 3+ (4/6), save 5+ fails on 1-4 (4/6):
    8/27 to take the wound; then the Injury roll, 4+ out of action (1/2)."""
    shooter = type("Op", (), {"profile": _chaos_marine(), "flesh_wounds": 0})()
    trooper = parse_scenario(_doc(), "t.yaml").squads[0].models[0].profile
    target = type("Op", (), {"profile": trooper.for_edition("kt2018"), "wounds": 1,
                             "flesh_wounds": 0})()
    attack = attacks.attack_2018(kt2018.CLOSE_COMBAT_WEAPON, shooter, target)
    assert attack is not None
    assert (attack.skill, attack.strength, attack.ap, attack.melee) == (3, 4, 0, True)
    result = odds_2018.attack_2018(attack, attacks.target_2018(target))
    assert result.mean == Fraction(8, 27)
    assert result.extras["p_out_of_action"] == Fraction(4, 27)


def _doc() -> dict[str, Any]:
    """A Chaos Marine (a Fire Team, command 2: "Charge: Within 6'") 5" from trooper a1."""
    return {"name": "cm", "edition": "kt2018", "board": board(),
            "roster": yaml.safe_load(CULT.read_text(encoding="utf-8")),
            "engagement": 1, "seed": 3,
            "mission": {"name": "Objective Ultima", "pariah": "objective-ultima"},
            "squads": [{"player": "Ana", "models": [
                {"id": "a1", "profile": copy.deepcopy(TROOPER), "at": [3, 10]},
                {"id": "a2", "profile": copy.deepcopy(TROOPER), "at": [1, 20]}]}],
            "enemies": [{"id": "u1", "command": 2, "models": [
                {"id": "cm", "profile": "chaos-marine", "at": [8, 10]}]}],
            "settings": {"turns": 1}}


def test_the_enemy_chaos_marine_charges_and_fights_with_it() -> None:
    """Its order charges "Within 6'": it declares the charge (it used to stop at "it has no
    melee weapon"), reaches a1 and fights it in the fight phase with the close combat weapon:
    the wound roll of 3 wounds a Toughness 3 model only at the bearer's Strength 4."""
    game, state = new_game(parse_scenario(_doc(), "cm.yaml"), 3)
    state.counters.clear()
    for _ in range(40):
        prompt = pending(game, state)
        if prompt.kind == "ended" or any(e["type"] == "fight" for r in state.log
                                         for e in r["events"]):
            break
        if prompt.kind == "activate":
            action = {"type": "activate", "operative": prompt.options[0]}
        elif prompt.kind == "engine":
            action = {"type": "engine"}
        else:  # no Reaction to the charge; the players' models do nothing
            action = parse("no" if prompt.kind == "reaction" else "done", prompt.kind)
        step(game, state, action)
    events = [e for r in state.log for e in r["events"]]
    assert {"type": "charge_declared", "operative": "cm", "target": "a1",
            "note": "cm declares a charge at a1."} in events
    assert state.operatives["cm"].charged
    [fight] = [e for e in events if e["type"] == "fight"]
    assert (fight["attacker"], fight["note"]) == ("cm", "cm fights a1 with close combat weapon.")
    rolls = {r["purpose"]: r["value"] for r in state.log[-1]["rolls"]}
    assert rolls["cm fights a1 (close combat weapon): hit roll 1"] == 3  # WS 3+: a hit
    assert rolls["cm fights a1 (close combat weapon): wound roll 1"] == 3  # S 4 > T 3: 3+
    assert fight["lines"][0].startswith("Attack 1: hit roll 3 hits, wound roll 3 wounds")
