"""Carrying objective markers: 001 Pick Up "1AP Remove a marker that the active Operative
controls. That Operative is "carrying, contesting, and controlling" that marker."; Place Down
"Cannot be performed in the same activation as a Pick Up action."

Which markers may be carried (a board's ``portable: true``), the refusals, a carrier going down,
the map, checkpoints, and the whole through ``solo-ops play`` and a shipped board's briefing.
Readings: docs/rules.md, "Objective markers and the Kill Op".
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from solo_ops.core.errors import InputError, RuleError
from solo_ops.game import checkpoint, markers, scoring
from solo_ops.game.downed import apply_damage
from solo_ops.game.engine import Game, new_game, pending, step
from solo_ops.game.state import PLAYER, State
from solo_ops.geometry.board import board_to_data, parse_board
from tests.support.ops_table import (
    CORNER,
    board,
    players_first_seed,
    refused,
    scenario_doc,
    start,
    write_scenario,
)
from tests.support.players import cli_here, write_answers

OBJ = {"id": "obj-1", "at": [10, 11], "portable": True}


FIXED = {"id": "obj-2", "at": [10, 3]}


def marker_game(**kw: Any) -> tuple[Game, State]:
    game, state = start({"a1": (10, 13)}, objectives=[copy.deepcopy(OBJ), copy.deepcopy(FIXED)],
                        **kw)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    return game, state


def test_pick_up_carries_contests_and_controls_the_marker() -> None:
    """001 Pick Up: "1AP Remove a marker that the active Operative controls. That Operative is
    "carrying, contesting, and controlling" that marker." a1 picks obj-1 up (2" from it) and
    walks 6" away: the players still control obj-1, now at a1."""
    game, state = marker_game()
    refused(game, state, {"type": "pickup", "marker": "obj-2"},
            "obj-2 cannot be picked up")
    record = step(game, state, {"type": "pickup", "marker": "obj-1"})
    assert record["events"][0] == {"type": "pick_up", "operative": "a1", "marker": "obj-1",
                                   "note": "a1 picks up obj-1: it carries, contests and "
                                           "controls it."}
    a1 = state.operatives["a1"]
    assert a1.marker == "obj-1" and a1.ap_used == 1 and a1.carrying is None
    step(game, state, {"type": "move", "to": [10, 19]})
    assert scoring.objective_control(game, state)["obj-1"] == PLAYER
    assert a1.to_dict()["marker"] == "obj-1"
    # an enemy standing on the marker's old spot controls nothing there
    state.operatives["e1"].at = (10, 11)
    assert scoring.objective_control(game, state)["obj-1"] == PLAYER


def test_pick_up_refusals() -> None:
    """001 Pick Up: "Cannot be performed while in Control Range of an enemy or while already
    carrying." Nor is a marker the side does not control picked up."""
    game, state = marker_game()
    e1 = state.operatives["e1"]
    e1.at = (11.5, 13)  # 0.52" from a1: in its control range
    refused(game, state, {"type": "pickup", "marker": "obj-1"}, "in control range of e1")
    e1.at = (8, 11)  # on the marker's other side: 1 APL... 2 against a1's 2: contested
    refused(game, state, {"type": "pickup", "marker": "obj-1"}, "does not control obj-1")
    e1.at = CORNER[0]
    state.operatives["a1"].at = (10, 16)  # 5" away
    refused(game, state, {"type": "pickup", "marker": "obj-1"}, "not in a1's control range")
    state.operatives["a1"].at = (10, 13)
    step(game, state, {"type": "pickup", "marker": "obj-1"})
    refused(game, state, {"type": "pickup", "marker": "obj-1"}, "already done pickup")
    a1, control = state.operatives["a1"], scoring.objective_control(game, state)
    with pytest.raises(RuleError, match="a1 is already carrying obj-1"):
        markers.pick_up_check(game, state, a1, "obj-1", control)
    a1.marker, a1.carrying = None, "a9"  # carrying a downed friend instead
    with pytest.raises(RuleError, match="it cannot carry a marker too"):
        markers.pick_up_check(game, state, a1, "obj-1", control)
    state.operatives["e1"].marker, a1.carrying = "obj-1", None
    with pytest.raises(RuleError, match="obj-1 is carried by e1"):
        markers.pick_up_check(game, state, a1, "obj-1", control)


def test_place_down_within_control_range_not_in_the_pick_up_activation() -> None:
    """001 Place Down: "1AP Place a marker the active Operative is carrying within it's Control
    Range. ... Cannot be performed in the same activation as a Pick Up action." Next
    activation: 3" away is refused, 2" away taken (the marker's edge 0.72" from a1's base)."""
    game, state = marker_game()
    step(game, state, {"type": "pickup", "marker": "obj-1"})
    refused(game, state, {"type": "placedown"},
            "cannot Place Down after a Pick Up in the same activation .sequence rule "
            "'place-down-after-pick-up'")
    step(game, state, {"type": "done"})
    while state.turn < 2 or pending(game, state).kind != "activate":
        prompt = pending(game, state)
        if prompt.kind == "counteract":
            step(game, state, {"type": "counteract", "pass": True})
        else:
            step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "placedown", "to": [10, 16]}, "not in a1's control range")
    refused(game, state, {"type": "placedown", "to": [29.5, 13]}, "wholly on the table")
    record = step(game, state, {"type": "placedown", "to": [10, 15]})
    assert record["events"][0]["type"] == "place_down"
    assert record["events"][0]["at"] == [10, 15] and not record["events"][0]["forced"]
    assert state.operatives["a1"].marker is None
    assert state.markers_at == {"obj-1": [10.0, 15.0]}
    state.operatives["a1"].at = (20, 19)
    assert scoring.objective_control(game, state)["obj-1"] is None  # nobody near it now
    state.operatives["a1"].at = (10, 16.5)  # 1.5" - 0.492 - 0.787 = 0.22" from its edge
    assert scoring.objective_control(game, state)["obj-1"] == PLAYER


def test_an_incapacitated_carrier_places_the_marker_down_for_0ap() -> None:
    """001 Place Down: "When incapacitated, a "carrying" Operative MUST perform this action for
    OAP." The marker goes down where the carrier fell."""
    game, state = marker_game()
    step(game, state, {"type": "pickup", "marker": "obj-1"})
    step(game, state, {"type": "move", "to": [10, 17]})
    a1 = state.operatives["a1"]
    events = apply_damage(game, state, a1, 99, "test")
    kinds = [e["type"] for e in events]
    assert kinds == ["damage", "down", "place_down"]
    assert events[2]["forced"] is True and events[2]["at"] == [10, 17]
    assert a1.marker is None and state.markers_at["obj-1"] == [10.0, 17.0]
    assert scoring.objective_control(game, state)["obj-1"] is None


def test_the_map_shows_a_carried_marker_with_its_carrier() -> None:
    """The picture (``map``): a carried marker is drawn by its carrier's label (⚑ obj-1), not
    at its old spot; one placed down is drawn where it lies."""
    from solo_ops.cli.maps import view_scene
    from solo_ops.view import drawing

    game, state = marker_game()
    step(game, state, {"type": "pickup", "marker": "obj-1"})
    board_now = markers.board_now(game, state, game.scenario.board)
    assert [o.id for o in board_now.objectives] == ["obj-2"]
    svg = drawing.svg_text(view_scene(game, state))
    assert "a1 ⚑obj-1" in svg
    state.operatives["a1"].marker = None
    state.markers_at["obj-1"] = [10.0, 15.0]
    board_now = markers.board_now(game, state, game.scenario.board)
    assert [(o.id, o.at) for o in board_now.objectives] == [("obj-1", (10.0, 15.0)),
                                                            ("obj-2", (10.0, 3.0))]


def test_portable_is_a_checked_board_field() -> None:
    """The card does not say which markers may be picked up: a board's objective marker says
    so with ``portable: true`` (docs/guide.md "Writing boards"), checked like every field."""
    b = parse_board(board([copy.deepcopy(OBJ), copy.deepcopy(FIXED)]), "b.yaml")
    assert [o.portable for o in b.objectives] == [True, False]
    assert board_to_data(b)["objectives"] == [
        {"id": "obj-1", "at": [10.0, 11.0], "portable": True}, {"id": "obj-2", "at": [10.0, 3.0]}]
    bad = board([{"id": "obj-1", "at": [10, 11], "portable": "yes"}])
    with pytest.raises(InputError, match=r"objectives\[0\]\.portable.*true or false"):
        parse_board(bad, "b.yaml")


def test_markers_and_counteracts_survive_a_checkpoint() -> None:
    """``Operative.marker``, ``State.markers_at``, ``counteracted`` are plain data: a
    checkpoint dumps and loads them, and play goes on the same."""
    game, state = marker_game()
    step(game, state, {"type": "pickup", "marker": "obj-1"})
    state.markers_at["obj-9"] = [1.0, 2.0]
    state.counteracted = ["a1"]
    data = json.loads(json.dumps(checkpoint.dump(state)))
    again = checkpoint.load(data, game)
    assert again.operatives["a1"].marker == "obj-1"
    assert again.markers_at == {"obj-9": [1.0, 2.0]} and again.counteracted == ["a1"]
    assert checkpoint.dump(again) == checkpoint.dump(state)


def test_pick_up_and_place_down_end_to_end(tmp_path: Path) -> None:
    """Through the real ``solo-ops play --answers``: a1 picks up obj-1 (pickup), walks, and in
    the next turning point places it down (placedown 10,18); an answer file drives it."""
    doc = scenario_doc({"a1": (10, 13)}, units=1, objectives=[copy.deepcopy(OBJ)])
    seed = players_first_seed(doc)
    scenario = write_scenario(tmp_path, doc, seed)
    lines = ["a1 engage", "pickup obj-1", "move 10,17", "pass", "pass",
             "a1 engage", "placedown 10,18", "done"]
    answers_file = write_answers(tmp_path, lines)
    run = cli_here("play", str(scenario), "--seed", str(seed), "--save", str(tmp_path / "s.json"),
              "--answers", str(answers_file), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "a1 picks up obj-1: it carries, contests and controls it." in run.stdout
    assert "a1 places obj-1 down at (10.0, 18.0)." in run.stdout
    saved = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    kinds = [a["type"] for a in saved["actions"]]
    assert "pickup" in kinds and "placedown" in kinds


def test_a_shipped_board_has_a_portable_marker_and_the_briefing_names_it(tmp_path: Path
                                                                         ) -> None:
    """001 "Pick Up - 1AP Remove a marker that the active Operative controls." -- players meet
    Pick Up in a shipped game: Volkus manufactorum's obj-3 is portable, and the briefing says
    which markers can be carried and how (a player cannot guess it from the map)."""
    from solo_ops.io.scenario import load_scenario
    from solo_ops.session.table import GameTable
    from tests.support.paths import SCENARIOS

    scenario = load_scenario(SCENARIOS / "volkus-manufactorum-sweep.yaml")
    assert [o.id for o in scenario.board.objectives if o.portable] == ["obj-3"]
    game, state = new_game(scenario, 1)
    table = GameTable(game, state, tmp_path / "g.json", tmp_path / "g.log.jsonl")
    carry = [line for line in table.briefing() if line.startswith("Markers you can carry")]
    assert carry == ["Markers you can carry: obj-3 (Pick Up, 1 AP: `pickup obj-3` while your "
                     "operative controls it; Place Down, 1 AP: `placedown` within its control "
                     "range, not in the same activation)."]
