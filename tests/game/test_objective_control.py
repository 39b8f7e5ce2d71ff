"""Who controls an objective: 001 "Control Range Visible and within 1" of model base",
measured to the edge of a 40 mm objective marker (:func:`solo_ops.game.scoring.objective_control`,
``rules.reach.MARKER_RADIUS``). Reading: docs/rules.md, "Objective markers and the Kill
Op".
"""

from __future__ import annotations

import pytest


def test_objective_control_is_to_the_markers_edge() -> None:
    """001 "Control Range Visible and within 1" of model base", to a 40 mm objective marker
    (docs/rules.md): an operative whose base edge is 1.5" from the marker's centre is 0.71"
    from its edge, so it controls it; at 1.9" (1.11" from the edge) it does not."""
    import copy

    from solo_ops.game import scoring
    from solo_ops.game.engine import new_game
    from solo_ops.io.scenario import parse_scenario
    from solo_ops.rules import reach
    from tests.support.portal_board import RADIUS, TROOPER, board

    assert reach.MARKER_RADIUS == pytest.approx(40 / 25.4 / 2)
    for gap, held in ((1.5, "player"), (1.9, None)):
        b = board("door", False)
        b["objectives"] = [{"id": "obj-1", "at": [8, 11]}]
        doc = {"name": "t", "edition": "kt2024", "board": b,
               "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                          "table": {i: "trooper" for i in range(1, 7)}},
               "engagement": 0, "seed": 1,
               "squads": [{"player": "Ana", "models": [
                   {"id": "a1", "profile": copy.deepcopy(TROOPER),
                    "at": [8 - gap - RADIUS, 11]}]}],
               "enemies": [{"id": "u1", "command": 1, "models": [
                   {"id": "e1", "profile": "trooper", "at": [28, 2]}]}]}
        game, state = new_game(parse_scenario(doc, "t.yaml"), 1)
        assert scoring.objective_control(game, state) == {"obj-1": held}


def test_kill_team_2018_control_asks_no_sight_of_the_marker(monkeypatch) -> None:
    """004: "each player totals the Wounds characteristic of models from their kill team within
    2" of that objective marker" -- within 2" around the walls, with no word of seeing it (that
    is Kill Team 2024's control range). obj-2 at (15.3, 7.0) lies past the end of the closed
    door (x 15, y 6-8) of the Pariah table: a1 at (14.3, 8.4) cannot see it, but the route
    round the door's end is 1.36" from its base, so a1 controls it; at (12.5, 8.6), 3.12" by the
    route, not."""
    from solo_ops.game import scoring
    from solo_ops.rules import reach
    from tests.support import pariah_table

    b = pariah_table.board()
    b["objectives"].append({"id": "obj-2", "at": [15.3, 7.0]})
    monkeypatch.setattr(pariah_table, "board", lambda killzone="translocum-chamber": b)
    for a1, held in (((14.3, 8.4), "player"), ((12.5, 8.6), None)):
        game, state = pariah_table.start({}, a1=a1)
        terrain, op = game.terrain(state), state.operatives["a1"]
        assert not terrain.sight.visible(op.at, (15.3, 7.0), op.radius, 0.0)
        gap = reach.route_gap(terrain, op.at, op.radius, (15.3, 7.0), 0.0)
        assert (gap <= 2.0) == (held is not None)
        assert scoring.objective_control(game, state)["obj-2"] == held
