"""Bheta-Decima's restricted targeting (002 "If 4" of more distance crosses hazardous
then target is not valid.") is one rule for both sides: the players' shot is refused and the
enemy's planner finds no shot, by :func:`solo_ops.rules.killzones.target_refusal`. Reading:
docs/rules.md, "Killzones: Bheta-Decima and the Volkus stronghold".
"""

from __future__ import annotations

from solo_ops.game.engine import step
from tests.support.killzone_boards import SLAG
from tests.support.portal_board import refused


def _game_on(board_doc: dict, players: dict, enemy_at: tuple[float, float]) -> tuple:
    import copy

    from solo_ops.core.dice import ScriptedDice
    from solo_ops.game.engine import new_game
    from solo_ops.io.scenario import parse_scenario
    from tests.support.portal_board import TROOPER

    doc = {"name": "t", "edition": "kt2024", "board": board_doc,
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 0, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": mid, "profile": copy.deepcopy(TROOPER), "at": list(at)}
               for mid, at in players.items()]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": "trooper", "at": list(enemy_at)}]}]}
    game, state = new_game(parse_scenario(doc, "t.yaml"), 1)
    state.dice = ScriptedDice(faces=[6, 1] * 4)
    step(game, state, {"type": "engine"})
    return game, state


def test_bheta_decima_targeting_is_one_rule_for_both_sides() -> None:
    """The players' shot is refused and the AI finds no shot, by the same rule."""
    from solo_ops.ai.planner import choose_shot

    board_doc = {"name": "kz", "width": 20, "depth": 12, "killzone": "bheta-decima",
                 "features": [{"id": "slag", **SLAG}]}
    game, state = _game_on(board_doc, {"a1": (10, 2)}, (10, 10))
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "shoot", "target": "e1", "damage": 3},
            "not a valid target for a1: 4.0\" of the line crosses hazardous areas")
    e1, a1 = state.operatives["e1"], state.operatives["a1"]
    pos = {"e1": e1.at, "a1": a1.at}
    action, _notes = choose_shot(game.context(state), e1, e1.at, [a1], pos, moved=False,
                                 moved_how=None)
    assert action is None
    # the same models 3" nearer each other across a narrower channel: both may shoot
    board_doc["features"] = [{"id": "slag", "traits": ["hazardous"],
                              "polygon": [[0, 4], [20, 4], [20, 7], [0, 7]]}]
    game, state = _game_on(board_doc, {"a1": (10, 2)}, (10, 10))
    e1, a1 = state.operatives["e1"], state.operatives["a1"]
    action, _notes = choose_shot(game.context(state), e1, e1.at, [a1],
                                 {"e1": e1.at, "a1": a1.at}, moved=False, moved_how=None)
    assert action is not None and action.target == "a1"
