"""The player autopilot (solo_ops.sim.autopilot): whole games through the real ``step``,
replayable from their saves, by every policy, in both editions."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from solo_ops.ai import shooting as ai_shooting
from solo_ops.game.engine import new_game, pending
from solo_ops.game.state import ENEMY, PLAYER
from solo_ops.io.savegame import game_document, restore, verify
from solo_ops.io.scenario import load_scenario
from solo_ops.sim import autopilot
from tests.support.players import small_scenario

PLAYER_ACTIONS = {"activate", "move", "shoot", "fight", "carry", "evacuate", "done",
                  "attack_damage", "engine", "counteract", "reroll", "fight_choice"}


@pytest.mark.parametrize("policy", autopilot.POLICIES)
def test_a_whole_game_by_each_policy_ends_and_replays_byte_for_byte(tmp_path: Path,
                                                                    policy: str) -> None:
    scenario = load_scenario(small_scenario(tmp_path, turns=2, engagement=2))
    game, state = new_game(scenario, 11)
    autopilot.play(game, state, policy)
    assert state.ended and state.result is not None
    assert state.result["outcome"] in ("win", "draw", "loss")
    kinds = {r["action"]["type"] for r in state.log[1:]}
    assert kinds <= PLAYER_ACTIONS
    # the players really played: activations and at least one move or shot
    assert "activate" in kinds and kinds & {"move", "shoot", "fight"}
    # the save of the game replays to the same game (every answer went through step)
    doc = json.loads(json.dumps(game_document(game, state)))
    _game2, state2 = restore(doc, "sim")
    assert verify(doc, state2) is None
    assert state2.to_dict(secrets=True) == state.to_dict(secrets=True)


def test_same_seed_same_game_and_different_seed_another(tmp_path: Path) -> None:
    scenario = load_scenario(small_scenario(tmp_path, turns=2, engagement=2))
    logs = []
    for seed in (3, 3, 4):
        game, state = new_game(scenario, seed)
        autopilot.play(game, state, "aggressive")
        logs.append(json.dumps(state.log, sort_keys=True))
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]


def test_kt2018_game_by_the_autopilot_ends(tmp_path: Path) -> None:
    scenario = load_scenario(small_scenario(tmp_path, "kt2018", turns=2, engagement=2))
    game, state = new_game(scenario, 5)
    autopilot.play(game, state, "objective")
    assert state.ended
    # 2018: never an Advance (its D6 is the player's) and only phase-legal actions
    for record in state.log[1:]:
        assert record["action"].get("how") != "advance"


def test_enemy_attacks_reported_by_the_player_are_answered_with_their_expected_damage(
        tmp_path: Path) -> None:
    path = small_scenario(tmp_path, turns=2, engagement=3,
                          extra="")
    scenario = load_scenario(path)
    scenario = dataclasses.replace(
        scenario, settings=dataclasses.replace(scenario.settings, enemy_attacks="player"))
    game, state = new_game(scenario, 2)
    autopilot.play(game, state, "aggressive")
    assert state.ended
    answered = [r["action"] for r in state.log if r["action"]["type"] == "attack_damage"]
    for action in answered:
        assert isinstance(action["damage"], int) and action["damage"] >= 0


def test_best_shot_is_the_highest_expected_damage_among_valid_shots(tmp_path: Path) -> None:
    """Checked against the planner's own valid-shot test and the exact expectation, for every
    player operative at the first player prompt of a game with enemies in sight."""

    scenario = load_scenario(small_scenario(tmp_path, turns=2, engagement=6))
    game, state = new_game(scenario, 8)
    checked = 0
    for _ in range(400):
        prompt = pending(game, state)
        if prompt.kind == "ended":
            break
        if prompt.kind == "activate" and state.living(ENEMY):
            ctx = game.context(state)
            pos = {o.id: o.at for o in state.operatives.values() if o.on_table}
            for op in state.living(PLAYER):
                if not op.on_table:
                    continue
                options = []
                for w in op.profile.ranged_weapons:
                    for t in state.living(ENEMY):
                        if not t.on_table:
                            continue
                        ok, cover, _ = ai_shooting.valid_shot(ctx, op, op.at, w, t, pos)
                        if ok:
                            options.append(ctx.odds(w, op, t, cover))
                shot = autopilot.best_shot(game, state, op)
                if options:
                    assert shot is not None and shot.expected == pytest.approx(max(options))
                    checked += 1
                else:
                    assert shot is None
        for action in autopilot.answers(game, state, prompt, "aggressive"):
            from solo_ops.core.errors import RuleError
            from solo_ops.game.engine import step
            try:
                step(game, state, action)
            except RuleError:
                continue
            break
    assert checked > 0


def test_an_unknown_policy_is_refused(tmp_path: Path) -> None:
    scenario = load_scenario(small_scenario(tmp_path))
    game, state = new_game(scenario, 1)
    with pytest.raises(ValueError, match="unknown policy"):
        list(autopilot.answers(game, state, pending(game, state), "reckless"))


def test_no_move_is_offered_that_the_rules_refuse_to_start() -> None:
    """After a Heavy shot, with no AP left or once the sequence table forbids it, the autopilot
    offers no move of that kind (Kill Team 2024): the rules would refuse it wherever it ended,
    so its end points are never worked out (``player_moves.open_moves`` decides)."""
    from solo_ops.game.player_moves import open_moves
    from solo_ops.io import library

    scenario = load_scenario(library.folder("scenario")
                             / "volkus-stronghold-supplement-example.yaml")
    game, state = new_game(autopilot.simulated(scenario), 1)
    game.words = False
    after_heavy = 0
    for _ in range(2000):
        prompt = pending(game, state)
        if prompt.kind == "ended":
            break
        if prompt.kind == "act" and not state.counteracting:
            opened = open_moves(game, state)
            for action in autopilot.answers(game, state, prompt, "objective"):
                if action["type"] == "move":
                    assert opened[action["how"]] is None, (action, opened[action["how"]])
            op = state.operatives[str(prompt.operative)]
            after_heavy += op.heavy_shot is not None and not op.moved
        autopilot.answer(game, state, prompt, "objective")
    assert state.ended and after_heavy > 0
