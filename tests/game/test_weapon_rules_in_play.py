"""Weapon rules in play: Blast, Torrent, Devastating splash, Stun, Hot, Limited and the Kill
Team 2018 hit modifiers, through the engine (``new_game`` / ``step``) with scripted dice.

The table is open (30" x 22", no terrain) unless a test adds some. The enemy e1 (Fire Teams,
command 1: remain stationary, fire at will, unless a test says otherwise) faces the players'
operatives a1, a2 and a3. Every profile has 10 wounds, Save 5+, three defence dice and 1"
bases; every die is scripted, so each outcome below is exact.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import Game, new_game, pending, step
from solo_ops.game.state import State
from solo_ops.io.scenario import parse_scenario
from solo_ops.view.narrate import lines_for
from solo_ops.view.player import player_record

GUN = {"name": "autogun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
       "damage": [3, 4], "strength": 3, "shots": 1}


def weapon(name: str, *rules: str, **changes: Any) -> dict[str, Any]:
    """A ranged weapon like the autogun with ``rules`` and other ``changes``."""
    return {**copy.deepcopy(GUN), "name": name, "rules": list(rules), **changes}


def profile(name: str, weapons: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"name": name, "movement": 6, "leadership": 7, "toughness": 3, "wounds": 10,
            "save": 5, "base_mm": 25.4, "apl": 2, "ws": 4, "bs": 4, "strength": 3,
            "attacks": 1, "weapons": weapons, **extra}


PLAYERS = {"a1": (10, 11), "a2": (7.5, 11), "a3": (10, 15)}
"""a2's base is 1.5" from a1's, a3's 3" away; e1 at (20, 11) is nearest to a1."""


def start(enemy_weapons: list[dict[str, Any]], *, faces: list[int],
          player_weapons: list[dict[str, Any]] | None = None, command: int = 1,
          enemy_at: tuple[float, float] = (20, 11),
          players: dict[str, tuple[float, float]] | None = None, edition: str = "kt2024",
          features: list[dict[str, Any]] | None = None, turns: int = 2,
          **extra: Any) -> tuple[Game, State]:
    """A game without hidden counters, its later dice scripted with ``faces``."""
    squad = [{"id": k, "profile": profile("Trooper", player_weapons or [copy.deepcopy(GUN)]),
              "at": list(v)} for k, v in (players or PLAYERS).items()]
    doc = {"name": "weapon rules", "edition": edition,
           "board": {"name": "open", "width": 30, "depth": 22, "killzone": "gallowdark",
                     "features": features or []},
           "roster": {"name": "r", "profiles": {"gunner": profile("Gunner", [GUN])},
                      "table": {i: "gunner" for i in range(1, 7)}},
           "engagement": 1, "seed": 1, "squads": [{"player": "Ana", "models": squad}],
           "enemies": [{"id": "u1", "command": command, "models": [
               {"id": "e1", "profile": profile("Gunner", enemy_weapons),
                "at": list(enemy_at)}]}],
           # the scripted dice have no CP re-roll questions (tests/game/test_cp_rerolls.py does)
           "settings": {"turns": turns, "cp_rerolls": "never"}, **extra}
    game, state = new_game(parse_scenario(doc, "weapon-rules.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=faces)
    return game, state


def enemy_first(game: Game, state: State) -> dict[str, Any]:
    """Turning point 1 (initiative 1 v 6: the enemy) and the enemy's activation."""
    step(game, state, {"type": "engine"})
    assert state.initiative == "enemy"
    return step(game, state, {"type": "engine"})


def players_first(game: Game, state: State) -> None:
    """Turning point 1 with initiative 6 v 1: the players act first."""
    step(game, state, {"type": "engine"})
    assert state.initiative == "player"


def events(record: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in record["events"] if e["type"] == kind]


def wounds(state: State) -> dict[str, int]:
    return {k: o.wounds for k, o in state.operatives.items()}


def all_dice_used(state: State) -> bool:
    """Every scripted face was rolled: no roll more, no roll fewer than the test says."""
    dice = state.dice
    assert isinstance(dice, ScriptedDice)
    return dice.position == len(dice.faces)


def purposes(record: dict[str, Any]) -> list[str]:
    return [r["purpose"] for r in record["rolls"]]


# -- Blast and Torrent ----------------------------------------------------------------------------


def test_blast_hits_an_enemy_within_x_of_the_target_and_not_one_beyond() -> None:
    # initiative 1 v 6; a1: attack dice 5 5 1 1 (two normal hits), defence 1 1 1: 6 damage;
    # a2 (Blast): attack dice 5 1 1 1, defence 1 1 1: 3 damage. a3 is 3" away: untouched.
    game, state = start([weapon("frag", "blast=2")], faces=[1, 6, 5, 5, 1, 1, 1, 1, 1,
                                                              5, 1, 1, 1, 1, 1, 1])
    record = enemy_first(game, state)
    assert wounds(state) == {"a1": 4, "a2": 7, "a3": 10, "e1": 10}
    attack = events(record, "attack")[0]
    assert attack["target"] == "a1" and attack["damage"] == 6
    assert attack["splash"] == [{"operative": "a2", "damage": 3}]
    hit = events(record, "secondary_hit")
    assert [(h["operative"], h["damage"]) for h in hit] == [("a2", 3)]
    assert "blast" in hit[0]["why"]
    damage = events(record, "damage")
    assert [(d["operative"], d["amount"]) for d in damage] == [("a1", 6), ("a2", 3)]
    # every roll is logged with its purpose, the Blast target's too
    assert purposes(record) == [
        "e1 shoots a1 (frag): attack dice, hit 4+", "e1 shoots a1 (frag): defence dice, save 5+",
        "e1 shoots a2 (frag, blast): attack dice, hit 4+",
        "e1 shoots a2 (frag, blast): defence dice, save 5+"]
    text = "\n".join(lines_for(player_record(record)))
    assert "a2 is hit too: frag blast (shot by e1), 3 damage." in text
    assert "a2 loses 3 wound(s) (7 left)" in text
    assert all_dice_used(state)


def test_blast_takes_the_primary_targets_cover() -> None:
    # a light barricade in front of a1 puts it in cover; a2 behind it shares that cover even
    # though nothing stands between e1 and a2 ... a2 also keeps one cover save unrolled.
    barricade = {"id": "crate", "traits": ["light"],
                 "polygon": [[11.2, 9], [11.6, 9], [11.6, 13], [11.2, 13]]}
    game, state = start([weapon("frag", "blast=2")], features=[barricade],
                        players={"a1": (10, 11), "a2": (10, 13.5)},
                        faces=[1, 6, 5, 5, 1, 1, 1, 1, 5, 5, 1, 1, 1, 1])
    state.operatives["a1"].stance = state.operatives["a2"].stance = "engage"
    record = enemy_first(game, state)
    cover = game.terrain(state).sight.cover((20, 11), (10, 11), 0.5, 0.5)
    assert cover.in_cover
    # each target: two normal hits, one cover save retained, two defence dice rolled (1 1)
    assert [len(r["faces"]) for r in record["rolls"]] == [4, 2, 4, 2]
    assert wounds(state)["a1"] == 7 and wounds(state)["a2"] == 7
    assert all_dice_used(state)


def test_torrent_hits_other_valid_targets_within_x_and_not_one_beyond() -> None:
    # a1: attack 5 1 1 1, defence 1 1 1: 3 damage; a2 (Torrent): 5 5 1 1, defence 1 1 1: 6
    game, state = start([weapon("flamer", "torrent=2")], faces=[1, 6, 5, 1, 1, 1, 1, 1, 1,
                                                                  5, 5, 1, 1, 1, 1, 1])
    record = enemy_first(game, state)
    assert wounds(state) == {"a1": 7, "a2": 4, "a3": 10, "e1": 10}
    hit = events(record, "secondary_hit")
    assert [(h["operative"], h["damage"], "torrent" in h["why"]) for h in hit] == [
        ("a2", 6, True)]
    assert purposes(record)[2] == "e1 shoots a2 (flamer, torrent): attack dice, hit 4+"
    assert all_dice_used(state)


def test_torrent_skips_a_concealed_operative_in_cover() -> None:
    # a2 is Concealed behind a light crate (in cover from e1): not a valid target, so not a
    # Torrent target either; only a1 is shot (attack dice all fail: no defence roll).
    crate = {"id": "crate", "traits": ["light"],
             "polygon": [[8.6, 10], [9.0, 10], [9.0, 12], [8.6, 12]]}
    game, state = start([weapon("flamer", "torrent=2")], features=[crate],
                        faces=[1, 6, 1, 1, 1, 1])
    assert game.terrain(state).sight.cover((20, 11), (7.5, 11), 0.5, 0.5).in_cover
    assert state.operatives["a2"].stance == "conceal"
    record = enemy_first(game, state)
    assert not events(record, "secondary_hit")
    assert len(record["rolls"]) == 1
    assert all_dice_used(state)


def test_a_players_rolled_blast_shot_hits_a_second_enemy() -> None:
    # players first (6 v 1); a1 shoots e1: 5 5 1 1 / 1 1 1 = 6; e2 (1.5" from e1): 5 1 1 1 /
    # 1 1 1 = 3; e3, 4" away, is untouched.
    game, state = start([copy.deepcopy(GUN)], player_weapons=[weapon("frag", "blast=2")],
                        players={"a1": (5, 11)},
                        faces=[6, 1, 5, 5, 1, 1, 1, 1, 1, 5, 1, 1, 1, 1, 1, 1])
    _add_enemy(game, state, "e2", (22.5, 11))
    _add_enemy(game, state, "e3", (20, 16))
    players_first(game, state)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    record = step(game, state, {"type": "shoot", "target": "e1", "weapon": "frag",
                                "roll": True})
    assert wounds(state)["e1"] == 4 and wounds(state)["e2"] == 7 and wounds(state)["e3"] == 10
    assert [h["operative"] for h in events(record, "secondary_hit")] == ["e2"]
    assert purposes(record)[2] == "a1 shoots e2 (frag, blast): attack dice, hit 4+"
    assert all_dice_used(state)


def _add_enemy(game: Game, state: State, ident: str, at: tuple[float, float]) -> None:
    """Another enemy operative in e1's unit (same profile)."""
    e1 = state.operatives["e1"]
    state.operatives[ident] = replace(e1, id=ident, name=ident, at=at, actions_taken=[],
                                      limited_uses={})
    state.units[e1.owner].models.append(ident)


# -- Devastating (distance form) ------------------------------------------------------------------


def test_devastating_distance_form_splashes_operatives_within_x_of_the_target() -> None:
    # "2" Devastating 3": attack 6 1 1 1 (one crit), defence 1 1 1: 3 (Devastating) + 4 (the
    # crit) = 7 to a1; a2 (within 2") takes 3; a3 (3" away) nothing.
    game, state = start([weapon("melta", "devastating=2:3")],
                        faces=[1, 6, 6, 1, 1, 1, 1, 1, 1])
    record = enemy_first(game, state)
    assert wounds(state) == {"a1": 3, "a2": 7, "a3": 10, "e1": 10}
    hit = events(record, "secondary_hit")
    assert [(h["operative"], h["damage"]) for h in hit] == [("a2", 3)]
    assert "Devastating" in hit[0]["why"]
    assert len(record["rolls"]) == 2  # the splash rolls no dice
    assert all_dice_used(state)


# -- Stun -----------------------------------------------------------------------------------------


def test_a_player_operative_stunned_by_the_enemy_gets_one_action_fewer() -> None:
    # e1's stunner: 6 1 1 1 (a crit retained), defence 1 1 1: 4 damage and Stun
    game, state = start([weapon("stunner", "stun")], faces=[1, 6, 6, 1, 1, 1, 1, 1, 1])
    record = enemy_first(game, state)
    a1 = state.operatives["a1"]
    assert a1.wounds == 6 and a1.apl_penalty == 1
    stunned = events(record, "stunned")
    assert stunned == [{"type": "stunned", "operative": "a1", "why": "stunner (Stun)",
                        "apl": 1}]
    assert a1.to_dict()["stunned"] is True
    assert "a1 is stunned (stunner (Stun)): APL 1" in "\n".join(
        lines_for(player_record(record)))
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "move", "to": [8, 15]})
    with pytest.raises(RuleError, match="0 AP left"):
        step(game, state, {"type": "move", "how": "dash", "to": [8, 17]})
    step(game, state, {"type": "done"})
    assert a1.apl_penalty == 0 and "stunned" not in a1.to_dict()  # over with its activation
    assert all_dice_used(state)


def test_an_enemy_stunned_by_a_players_rolled_shot_gets_one_action_fewer() -> None:
    # command 4 (hold 12" from the enemy, unhindered move): from (27, 11) e1 would reposition
    # and then shoot; stunned, it only repositions.
    players = {"a1": (3, 10), "a2": (3, 14), "a3": (3, 6)}
    game, state = start([copy.deepcopy(GUN)], command=4, enemy_at=(27, 11), players=players,
                        player_weapons=[weapon("stunner", "stun", range=30)],
                        faces=[6, 1, 6, 1, 1, 1, 1, 1, 1])
    players_first(game, state)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    record = step(game, state, {"type": "shoot", "target": "e1", "weapon": "stunner",
                                "roll": True})
    e1 = state.operatives["e1"]
    assert e1.wounds == 6 and e1.apl_penalty == 1
    assert [s["operative"] for s in events(record, "stunned")] == ["e1"]
    step(game, state, {"type": "done"})
    record = step(game, state, {"type": "engine"})
    plan = events(record, "enemy_activation")[0]["plan"]
    assert [a["kind"] for a in plan["actions"]] == ["reposition"]
    assert e1.apl_penalty == 0  # the Stun ended with its activation
    assert all_dice_used(state)


def test_an_unstunned_enemy_with_the_same_order_moves_and_shoots() -> None:
    # the control for the test above: a1's shot misses (1 1 1 1), e1 keeps its 2 APL
    players = {"a1": (3, 10), "a2": (3, 14), "a3": (3, 6)}
    game, state = start([copy.deepcopy(GUN)], command=4, enemy_at=(27, 11), players=players,
                        player_weapons=[weapon("stunner", "stun", range=30)],
                        faces=[6, 1, 1, 1, 1, 1, *[1] * 4])
    players_first(game, state)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "shoot", "target": "e1", "weapon": "stunner", "roll": True})
    step(game, state, {"type": "done"})
    record = step(game, state, {"type": "engine"})
    plan = events(record, "enemy_activation")[0]["plan"]
    assert [a["kind"] for a in plan["actions"]] == ["reposition", "shoot"]
    assert all_dice_used(state)


# -- Hot ------------------------------------------------------------------------------------------


def test_hot_damages_the_shooter_on_a_low_roll() -> None:
    # attack dice all fail; Hot rolls 2, below the Hit stat 4+: 4 damage to e1
    game, state = start([weapon("plasma", "hot")], faces=[1, 6, 1, 1, 1, 1, 2])
    record = enemy_first(game, state)
    assert wounds(state)["e1"] == 6
    assert purposes(record)[-1] == "e1 shoots a1 (plasma): Hot"
    hot = events(record, "damage")[-1]
    assert hot["operative"] == "e1" and hot["amount"] == 4 and "Hot" in hot["why"]
    assert all_dice_used(state)


def test_hot_rolls_once_after_every_blast_target() -> None:
    game, state = start([weapon("plasma", "hot", "blast=2")],
                        faces=[1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 5])
    record = enemy_first(game, state)
    assert purposes(record)[-1] == "e1 shoots a1 (plasma): Hot"
    assert purposes(record).count("e1 shoots a1 (plasma): Hot") == 1
    assert wounds(state)["e1"] == 10  # 5 is not below 4+
    assert all_dice_used(state)


# -- Limited --------------------------------------------------------------------------------------


def test_limited_is_refused_the_second_time_and_the_ai_switches_weapon() -> None:
    launcher = weapon("launcher", "limited=1", attacks=6, damage=[5, 6])
    faces = [6, 1,  # TP1 initiative: the players
             1, 1, 1, 1,  # a1's launcher misses
             1, 1, 1, 1, 1, 1,  # e1's launcher (6 dice) misses
             6, 1,  # TP2 initiative: the players
             1, 1, 1, 1]  # e1's autogun misses
    game, state = start([launcher, copy.deepcopy(GUN)], faces=faces,
                        player_weapons=[copy.deepcopy(launcher) | {"attacks": 4},
                                        copy.deepcopy(GUN)],
                        players={"a1": (10, 11)})
    players_first(game, state)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    record = step(game, state, {"type": "shoot", "target": "e1", "weapon": "launcher",
                                "roll": True})
    assert events(record, "limited_use") == [{"type": "limited_use", "operative": "a1",
                                              "weapon": "launcher", "used": 1, "left": 0}]
    step(game, state, {"type": "done"})
    record = step(game, state, {"type": "engine"})  # e1: the launcher, its best weapon
    plan = events(record, "enemy_activation")[0]["plan"]
    assert [a.get("weapon") for a in plan["actions"]] == ["launcher"]
    assert state.operatives["e1"].limited_uses == {"launcher": 1}
    step(game, state, {"type": "engine"})  # end of TP1, TP2 starts: the players first
    assert state.turn == 2
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    with pytest.raises(RuleError, match="Limited 1"):
        step(game, state, {"type": "shoot", "target": "e1", "weapon": "launcher",
                           "roll": True})
    assert state.operatives["a1"].ap_used == 0  # refused before anything changed
    step(game, state, {"type": "done"})
    record = step(game, state, {"type": "engine"})
    activation = events(record, "enemy_activation")[0]
    assert [a.get("weapon") for a in activation["plan"]["actions"]] == ["autogun"]
    assert purposes(record) == ["e1 shoots a1 (autogun): attack dice, hit 4+"]
    assert pending(game, state).kind in ("engine", "activate")


# -- Kill Team 2018 -------------------------------------------------------------------------------


def _shooting_2018(game: Game, state: State) -> dict[str, Any]:
    """Battle round 1 (the players first): nobody moves; returns the enemy's shooting."""
    step(game, state, {"type": "engine"})
    while state.phase != "shooting" or pending(game, state).kind != "engine":
        prompt = pending(game, state)
        if prompt.kind == "activate":
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
            step(game, state, {"type": "done"})
        else:
            step(game, state, {"type": "engine"})
    return step(game, state, {"type": "engine"})
    assert all_dice_used(state)


def test_kt2018_long_range_is_minus_one_in_the_logged_hit_roll() -> None:
    # not a Pariah Nexus game (a mission of its own, an open table): no Close Quarters.
    # a1 is 23" away, beyond half the autogun's 24": long range, so a 4 to hit is a 3 and
    # misses (BS 4+).
    game, state = start([copy.deepcopy(GUN)], edition="kt2018", enemy_at=(27, 11),
                        players={"a1": (3, 10)}, mission={"name": "Skirmish"},
                        faces=[6, 1, 4])
    record = _shooting_2018(game, state)
    hit = next(r for r in record["rolls"] if "hit roll" in r["purpose"])
    assert hit["purpose"] == "e1 shoots a1 (autogun): hit roll 1"
    assert hit["modifiers"] == [["long range", -1]] and hit["value"] == 3
    assert events(record, "attack")[0]["damage"] == 0
    assert all_dice_used(state)


def test_kt2018_pariah_nexus_close_quarters_drops_long_range() -> None:
    # the default 2018 mission is a Pariah Nexus one: Close Quarters, so a 4 hits; wound 4
    # (S3 v T3), save 1 fails: 1 damage
    game, state = start([copy.deepcopy(GUN)], edition="kt2018", enemy_at=(27, 11),
                        players={"a1": (3, 10)}, faces=[6, 1, 4, 4, 1])
    record = _shooting_2018(game, state)
    hit = next(r for r in record["rolls"] if "hit roll" in r["purpose"])
    assert hit["modifiers"] == [] and hit["value"] == 4
    assert any("wound roll" in p for p in purposes(record))
    assert state.operatives["a1"].wounds == 9
    assert all_dice_used(state)


def test_kt2018_broken_kill_team_is_minus_one_to_hit() -> None:
    game, state = start([copy.deepcopy(GUN)], edition="kt2018", enemy_at=(20, 11),
                        players={"a1": (10, 10)}, faces=[6, 1, 4, 4])
    # (the autogun is Rapid Fire and a1 is within half its range: two hit rolls, both 4 - 1)
    _add_enemy(game, state, "e2", (25, 5))
    _add_enemy(game, state, "e3", (25, 17))
    state.operatives["e2"].down = state.operatives["e3"].down = True
    record = _shooting_2018(game, state)
    hits = [r for r in record["rolls"] if "hit roll" in r["purpose"]]
    assert len(hits) == 2
    assert all(hit["modifiers"] == [["kill team broken", -1]] for hit in hits)
    assert all_dice_used(state)


# -- Vantage --------------------------------------------------------------------------------------


GANTRY = {"id": "gantry", "traits": ["vantage"], "height": 4,
          "polygon": [[18, 9], [22, 9], [22, 13], [18, 13]]}


def test_vantage_4_inches_above_an_engaged_target_is_accurate_2() -> None:
    # e1 stands on a 4" gantry: two attack dice are retained as normal hits unrolled, two
    # rolled (1 1); defence 1 1 1: 6 damage
    game, state = start([copy.deepcopy(GUN)], features=[GANTRY], players={"a1": (10, 11)},
                        faces=[1, 6, 1, 1, 1, 1, 1])
    state.operatives["a1"].stance = "engage"
    record = enemy_first(game, state)
    assert [len(r["faces"]) for r in record["rolls"]] == [2, 3]
    assert any("Accurate 2" in line for line in events(record, "attack")[0]["lines"])
    assert wounds(state)["a1"] == 4
    assert all_dice_used(state)


def test_no_vantage_against_a_concealed_target() -> None:
    game, state = start([copy.deepcopy(GUN)], features=[GANTRY], players={"a1": (10, 11)},
                        faces=[1, 6, 1, 1, 1, 1])
    record = enemy_first(game, state)
    assert [len(r["faces"]) for r in record["rolls"]] == [4]
    assert all_dice_used(state)


# -- narration ------------------------------------------------------------------------------------


def test_a_long_route_is_shown_with_a_few_bend_points() -> None:
    route = [[0.0, 0.0]] + [[1 + i * 0.05, 0.01 * (i % 2)] for i in range(40)] + \
        [[3.0, 0.0], [3.0, 5.0], [6.0, 5.0], [6.0, 9.0], [9.0, 9.0], [9.0, 12.0]]
    record = {"events": [{"type": "moved", "operative": "e1", "how": "reposition",
                          "from": route[0], "to": route[-1], "route": route, "cost": 20.0,
                          "note": "moves"}]}
    line = lines_for(record)[0]
    # one distance per move (issue #27): the cost, then the straight line in brackets
    assert line.startswith("  → e1: from (0.0, 0.0) 20.0\" north-east (15.0\" straight, 20.0\" "
                           "by the route) to (9.0, 12.0), via ")
    assert line.count("(") - 3 <= 4
    assert "(3.0, 0.0)" in line
    record["events"][0]["route"] = [[0.0, 0.0], [9.0, 12.0]]
    assert lines_for(record)[0] == ("  → e1: from (0.0, 0.0) 20.0\" north-east (15.0\" straight, "
                                    "20.0\" by the route) to (9.0, 12.0).")


def test_a_stun_during_its_own_activation_lasts_through_the_next_one() -> None:
    # e1 (behind a wall, out of sight) goes On Guard; a1's first action brings it into sight
    # and e1 interrupts with its stunner: 6 1 1 1, defence 1 1 1 (4 damage, Stun). a1 has
    # used 1 of its now 1 AP; in the next turning point (6 v 1: the players) it has 1 AP too.
    wall = {"id": "wall-1", "traits": ["wall"], "line": [[15, 4], [15, 16]]}
    game, state = start([weapon("stunner", "stun")], features=[wall],
                        players={"a1": (12, 14.5), "a2": (3, 10)},
                        faces=[1, 6, 6, 1, 1, 1, 1, 1, 1, 6, 1])
    # e1 could counteract after a1 (a2 still ready): not this test's subject
    object.__setattr__(game.scenario, "settings",
                       replace(game.scenario.settings, counteract="players"))
    record = enemy_first(game, state)
    assert state.operatives["e1"].on_guard
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    record = step(game, state, {"type": "move", "to": [12, 20]})
    assert [s["operative"] for s in events(record, "stunned")] == ["a1"]
    a1 = state.operatives["a1"]
    with pytest.raises(RuleError, match="0 AP left"):
        step(game, state, {"type": "move", "how": "dash", "to": [10, 20]})
    step(game, state, {"type": "done"})
    assert a1.apl_penalty == 1  # stunned during this activation: it lasts through the next
    step(game, state, {"type": "activate", "operative": "a2"})
    step(game, state, {"type": "done"})
    step(game, state, {"type": "engine"})  # turning point 2
    assert state.turn == 2 and state.initiative == "player"
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "move", "to": [12, 18]})
    with pytest.raises(RuleError, match="0 AP left"):
        step(game, state, {"type": "move", "how": "dash", "to": [10, 18]})
    step(game, state, {"type": "done"})
    assert a1.apl_penalty == 0
    assert all_dice_used(state)


# -- Kill Team 2018: No Escape ---------------------------------------------------------------------


def test_no_escape_needs_a_wall_within_1_inch_behind_the_target() -> None:
    from solo_ops.game import play2018

    wall = {"id": "wall-1", "traits": ["wall"], "line": [[12, 4], [12, 18]]}
    game, state = start([copy.deepcopy(GUN)], edition="kt2018", features=[wall],
                        enemy_at=(9.5, 11), players={"a1": (11, 11)}, faces=[])
    e1, a1 = state.operatives["e1"], state.operatives["a1"]
    assert play2018.pariah_nexus(game)
    assert play2018.no_escape(game, state, e1, a1)  # the wall is 0.5" behind a1's base
    a1.at = (11, 20)
    e1.at = (9.5, 20)  # past the wall's end: the line runs free to the edge
    assert not play2018.no_escape(game, state, e1, a1)
    game2, _ = start([copy.deepcopy(GUN)], edition="kt2018", mission={"name": "Skirmish"},
                     faces=[])
    assert not play2018.pariah_nexus(game2)


def test_no_escape_adds_one_to_the_injury_roll_of_a_2018_fight() -> None:
    from solo_ops.game import attacks

    _game, state = start([copy.deepcopy(GUN)], edition="kt2018", faces=[4, 4, 1, 3])
    e1, a1 = state.operatives["e1"], state.operatives["a1"]
    a1.wounds = 1
    # hit 4 (WS 4+), wound 4 (S3 v T3), save 1: 1 damage, down to 0; Injury 3 +1 = 4: out
    result = attacks.roll_fight("kt2018", state.dice, e1, a1, 0, no_escape=True)
    assert result.outcome == "out_of_action"
    injury = state.dice.log[-1]
    assert "injury roll" in injury.purpose and injury.modifiers == (("No Escape", 1),)
    assert all_dice_used(state)


# -- the enemy's planner values a shot as the dice will roll it (found by a rules tester) --------
LIGHT_CRATE = {"id": "crate", "traits": ["light"],
               "polygon": [[11.2, 9], [11.6, 9], [11.6, 13], [11.2, 13]]}
DECK_4 = {"id": "deck", "traits": ["light", "accessible", "vantage"], "height": 4,
          "polygon": [[18, 9], [22, 9], [22, 13], [18, 13]]}


def _planned_expectation(record: dict[str, Any]) -> str:
    [line] = [x for x in events(record, "enemy_activation")[0]["explain"] if "expected" in x]
    return line.rsplit("expected damage ", 1)[1]


@pytest.mark.parametrize("rules", [(), ("seek",)])
def test_seek_leaves_the_cover_save_in_the_planners_odds(rules: tuple[str, ...]) -> None:
    """002 Seek: "any Cover saves can still be retained": e1's planned shot at a1 behind a
    light crate is valued with a1's cover save whether or not the gun has Seek (2.75, the
    exact mean of 4 dice at 4+, 3/4 damage against 3 saves at 5+ with one retained), as the
    engine's dice keep it."""
    game, state = start([weapon("gun", *rules)], features=[LIGHT_CRATE], players={"a1": (10, 11)},
                        faces=[1, 6, 5, 5, 1, 1, 1, 1])
    state.operatives["a1"].stance = "engage"
    record = enemy_first(game, state)
    assert _planned_expectation(record) == "2.75."
    assert "Cover: one normal save retained without rolling." in events(record, "attack")[0][
        "lines"]


def test_vantage_accurate_is_in_the_planners_odds_and_the_players_roll() -> None:
    """001 Vantage: an Engaged target on the floor is shot with Accurate 2 from 4" above. e1 on
    a 4" deck plans its shot at a1 at 6.03 (the exact mean with Accurate 2; 3.93 without); when
    the players roll the enemy's dice, they are told so."""
    game, state = start([weapon("gun")], features=[DECK_4], players={"a1": (10, 11)},
                        faces=[1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    state.operatives["a1"].stance = "engage"
    assert _planned_expectation(enemy_first(game, state)) == "6.03."
    game, state = start([weapon("gun")], features=[DECK_4], players={"a1": (10, 11)},
                        faces=[1, 6], settings={"turns": 2, "cp_rerolls": "never",
                                                "enemy_attacks": "player"})
    state.operatives["a1"].stance = "engage"
    [pending] = events(enemy_first(game, state), "attack_pending")
    assert pending["note"] == ("e1 shoots a1 with gun: 4 attack dice hitting on 4+, damage 3/4; "
                               "Accurate 2 from Vantage.")


def test_the_players_roll_an_injured_enemys_shot_at_its_worse_hit() -> None:
    """001 "Wounds below 50% = -1 to hit": e1 at 3 of 10 wounds hits on 5+, as the engine's
    dice would, and the players rolling for it are told so."""
    game, state = start([weapon("gun")], players={"a1": (10, 11)}, faces=[1, 6],
                        settings={"turns": 2, "cp_rerolls": "never", "enemy_attacks": "player"})
    state.operatives["a1"].stance = "engage"
    state.operatives["e1"].wounds = 3
    [pending] = events(enemy_first(game, state), "attack_pending")
    assert pending["note"] == ("e1 shoots a1 with gun: 4 attack dice hitting on 5+ (injured: "
                               "-1), damage 3/4.")


def test_hot_is_judged_by_the_weapons_own_hit_on_guard_within_control_range() -> None:
    """002 Hot: "Rolls less than the weapon's Hit stat" -- the weapon's own 4+, not the 5+ the
    On Guard shot in control range rolls its attack dice at: a Hot roll of 4 does nothing."""
    from solo_ops.ai.planner import Action
    from solo_ops.game import shots

    game, state = start([weapon("plasma", "hot")], faces=[1, 1, 1, 1, 4])
    e1 = state.operatives["e1"]
    shot = shots.enemy_shot(game, state, e1, Action("shoot", "e1", target="a1", weapon="plasma"),
                            hit_penalty=1)
    [attack] = [e for e in shot if e["type"] == "attack"]
    assert "Attack dice (5+, crit 6+): 1 1 1 1." in attack["lines"]
    assert attack["lines"][-1] == "Hot: rolled 4, no damage."
    assert e1.wounds == e1.profile.wounds
