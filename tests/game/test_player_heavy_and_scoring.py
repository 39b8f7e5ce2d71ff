"""Issue #11 item 6, the player's own rules: Heavy before and after the shot, a carrier and a
Heavy weapon, and an event for every VP source when it scores (end of battle included).

The card (001): "Heavy /(x)/ - An Operative cannot use this weapon in an activation in which
it moved, or move after using this weapon. If the rule is Heavy (x), only (x) is allowed (e.g.
Heavy (Dash only)). Has NO EFFECT on Guard."

The game is ``tests/game/test_engine.py``'s: a1 at (3, 10) with a lasgun (made Heavy here), the
enemy e1 at (10, 10) in the open, 7" away.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from solo_ops.core.model import parse_weapon_rule
from solo_ops.game import scoring
from solo_ops.game.engine import step
from solo_ops.game.state import ENEMY, PLAYER
from tests.support.small_table import active, refused

SHOT = {"type": "shoot", "target": "e1", "weapon": "lasgun", "damage": 0}


def heavy(state: Any, rule: str = "heavy") -> Any:
    """Give a1's lasgun the rule ``heavy`` or ``heavy=dash`` (Heavy (Dash only))."""
    a1 = state.operatives["a1"]
    weapons = tuple(replace(w, rules=(parse_weapon_rule(rule),)) if w.name == "lasgun" else w
                    for w in a1.profile.weapons)
    a1.profile = replace(a1.profile, weapons=weapons)
    return a1


def test_heavy_no_move_after_the_shot() -> None:
    """"... or move after using this weapon." """
    game, state = active(enemy_at=(10, 10))
    heavy(state)
    step(game, state, SHOT)
    refused(game, state, {"type": "move", "how": "reposition", "to": [4, 10]},
            "lasgun is Heavy: a1 shot it this activation and cannot move after it$")
    refused(game, state, {"type": "move", "how": "dash", "to": [4, 10]}, "cannot move after it")


def test_heavy_dash_only_allows_a_dash_after_the_shot_and_nothing_else() -> None:
    """"If the rule is Heavy (x), only (x) is allowed (e.g. Heavy (Dash only))." """
    game, state = active(enemy_at=(10, 10))
    heavy(state, "heavy=dash")
    step(game, state, SHOT)
    refused(game, state, {"type": "move", "how": "reposition", "to": [4, 10]},
            r"cannot move after it \(only a dash\)")
    step(game, state, {"type": "move", "how": "dash", "to": [5, 10]})
    assert state.operatives["a1"].at == (5, 10)


def test_heavy_dash_only_counts_every_move_before_the_shot() -> None:
    """A Dash is allowed before the shot, but not a Reposition and a Dash (the last move alone
    used to be checked)."""
    game, state = active(enemy_at=(10, 10))
    heavy(state, "heavy=dash")
    step(game, state, {"type": "move", "how": "dash", "to": [4, 10]})
    step(game, state, SHOT)  # a Dash only: allowed

    game, state = active(enemy_at=(12, 10))
    heavy(state, "heavy=dash")
    state.operatives["a1"].profile = replace(state.operatives["a1"].profile, apl=3)
    step(game, state, {"type": "move", "how": "reposition", "to": [4, 10]})
    step(game, state, {"type": "move", "how": "dash", "to": [5, 10]})
    refused(game, state, SHOT, r"cannot shoot it in an activation in which it moved "
                               r"\(reposition\)")


def test_a_carrier_cannot_shoot_a_heavy_weapon() -> None:
    """A carrier always counts as having moved (RULES-NOTES "Carrying"), so Heavy forbids the
    shot even when its only move was the Dash Heavy (Dash only) allows."""
    game, state = active(enemy_at=(10, 10))
    a1 = heavy(state, "heavy=dash")
    a1.carrying = "a2"
    state.operatives["a2"].carried_by = "a1"
    step(game, state, {"type": "move", "how": "dash", "to": [4, 10]})
    refused(game, state, SHOT, "lasgun is Heavy: a1 is carrying a2 and cannot shoot it")
    # the same weapon without the carry: the Dash allows the shot
    game, state = active(enemy_at=(10, 10))
    heavy(state, "heavy=dash")
    step(game, state, {"type": "move", "how": "dash", "to": [4, 10]})
    step(game, state, SHOT)


def test_every_vp_source_says_so_when_it_scores_end_of_battle_included() -> None:
    """The Kill Op (missions.KILL_OP): "at the end of the battle 1 VP more if your kill grade
    is higher than the enemy's" (N clamped to 5: 2 kills reach thresholds 1 and 2, grade 2; 1
    loss, grade 1); the primary op scores half again, rounded up. Here the player's primary is
    the Crit Op, with 3 VP: +2 (ceil(4.5) - 3)."""
    game, state = active(enemy_at=(10, 10))
    mission = game.scenario.mission
    assert mission.kill_op and mission.primary == "crit"
    state.op_vp[f"{PLAYER}:crit"] = 3
    state.vp = {PLAYER: 3, ENEMY: 1}
    state.incapacitated_total = {PLAYER: 1, ENEMY: 2}
    events = scoring.end_battle(game, state)
    vp = [(e["side"], e["source"], e["points"]) for e in events if e["type"] == "vp"]
    assert vp == [(PLAYER, "kill", 1), (PLAYER, "primary", 2)]
    assert events[0]["why"] == ("Kill Op at the end of the battle: kill grade 2 (2 of 1 enemy "
                                "operatives incapacitated, counted as 5) against 1 (1 of 2 of "
                                "yours, counted as 5); the grades are a reading from outside "
                                "the sources")
    assert events[0]["vp"] == {PLAYER: 4, ENEMY: 1} and events[1]["vp"] == {PLAYER: 6, ENEMY: 1}
    assert state.result is not None and state.result["vp"] == {PLAYER: 6, ENEMY: 1}


def test_turn_scoring_names_each_source() -> None:
    """End of a turning point from the second: the Crit Op (seize-ground: 1 VP a marker held)
    and the Kill Op (an enemy operative incapacitated this turning point) each say so."""
    game, state = active(enemy_at=(10, 10))
    state.turn = 2
    state.operatives["a1"].at = (4, 10.2)  # 0.3" from obj-1 at (4, 11): a1 controls it
    state.incapacitated_this_turn = {PLAYER: 0, ENEMY: 1}
    events = scoring.score_turn(game, state)
    vp = [(e["side"], e["source"], e["points"], e["why"]) for e in events if e["type"] == "vp"]
    crit = game.scenario.mission.crit_op
    assert (PLAYER, "crit", 1, f"Crit Op {crit}, turning point 2") in vp
    assert (PLAYER, "kill", 1, "Kill Op, turning point 2") in vp
    score = next(e for e in events if e["type"] == "score")
    assert score["gained"][PLAYER] == sum(p for s, _, p, _ in vp if s == PLAYER)


def test_hold_the_centre_is_measured_around_the_walls() -> None:
    """Tac Op hold-the-centre: an enemy 2" from the centre in a straight line but 17.7" by the
    way round a wall (Gallowdark "Distances not measured through walls") does not deny it:
    a1 at (13, 11), 1.5" from the centre (15, 11), scores its 1 VP."""
    import copy

    from tests.support.small_table import BOARD, start

    board = copy.deepcopy(BOARD)
    board["killzone"] = "gallowdark"
    board["features"] = [{"id": "wall-1", "traits": ["wall"], "line": [[16.5, 2], [16.5, 20]]}]
    game, state = start(board=board, enemy_at=(17.5, 11),
                        mission={"crit_op": "seize-ground", "tac_op": "hold-the-centre"})
    state.operatives["a1"].at = (13.0, 11.0)
    state.turn = 2
    tac = [e for e in scoring.score_turn(game, state)
           if e["type"] == "vp" and e["why"].startswith("Tac Op hold-the-centre")]
    assert [e["points"] for e in tac] == [1]
