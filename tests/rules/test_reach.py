"""The one copy of control range, 2018 engagement and the move allowance
(:mod:`solo_ops.rules.reach`), and every query that decides control range asking it.

Boards are 30" x 22"; bases are 25.4 mm (radius 0.5"), so two bases whose centres are D apart
in a straight line have a gap of D - 1". Walls are ``line:`` features 0.02" thick.

The card (001): "Control Range Visible and within 1" of model base." Gallowdark (002): "Wall:
... No visibility over. Distances not measured through walls – shortest route instead."
Pariah Nexus (004): "Models cannot attack through walls." and "Distances cannot be measured
through these walls. Instead, players must measure around walls, using the shortest possible
path."
"""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from solo_ops.geometry.board import parse_board
from solo_ops.geometry.terrain import Terrain
from solo_ops.rules import reach
from tests.support.reach_games import END, THIN, game_with

R = 0.5  # base radius of a 25.4 mm base


def terrain(*features: dict[str, Any]) -> Terrain:
    return Terrain(parse_board({"name": "T", "width": 30, "depth": 22,
                                "features": list(features)}, "t"))




def doorway(is_open: bool) -> tuple[dict[str, Any], ...]:
    """A wall along x = 15 across the whole board with a 2" door at y 10-12."""
    return ({"id": "w1", "traits": ["wall"], "line": [[15, 0], [15, 10]]},
            {"id": "door-1", "traits": ["door"], "line": [[15, 10], [15, 12]], "open": is_open},
            {"id": "w2", "traits": ["wall"], "line": [[15, 12], [15, 22]]})


# (case, features, a, b, straight gap by hand, in control range?)
CASES = [
    # 1.2" apart centre to centre across the thin wall: a 0.2" straight gap, but the wall hides
    # them and the route goes round its end at y 16 (about 12" long)
    ("thin wall", (THIN,), (14.4, 10), (15.6, 10), 0.2, False),
    # the same pair on open ground
    ("open ground", (), (14.4, 10), (15.6, 10), 0.2, True),
    # beside a wall's end, both 1" north of it: a 0.2" gap, but every line between the bases
    # crosses the wall at y >= 10.5, and the route round the end at (15, 10) is
    # 2 * sqrt(0.6^2 + 1^2) - 1 = 1.332" (> 1")
    ("north of a wall's end", (END,), (14.4, 11), (15.6, 11), 0.2, False),
    # 0.6" south of the end: the straight line is clear (the bases reach y 9.9)
    ("south of a wall's end", (END,), (14.4, 9.4), (15.6, 9.4), 0.2, True),
    ("open doorway", doorway(True), (14.4, 11), (15.6, 11), 0.2, True),
    ("closed doorway", doorway(False), (14.4, 11), (15.6, 11), 0.2, False),
]


@pytest.mark.parametrize(("case", "features", "a", "b", "gap", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_control_range_across_walls_and_doors(case: str, features: tuple[dict[str, Any], ...],
                                              a: tuple[float, float], b: tuple[float, float],
                                              gap: float, expected: bool) -> None:
    t = terrain(*features)
    assert reach.straight_gap(a, R, b, R) == pytest.approx(gap)
    assert reach.in_control_range(t, a, R, b, R) is expected
    assert reach.in_control_range(t, b, R, a, R) is expected  # symmetric
    assert reach.engaged_2018(t, a, R, b, R) is expected
    mask = reach.control_mask(t, [a, (a[0] - 5, a[1])], R, b, R)
    assert mask.tolist() == [expected, False]


def test_route_round_a_wall_end_is_measured_by_hand() -> None:
    t = terrain(END)
    d = reach.route_gap(t, (14.4, 11), R, (15.6, 11), R)
    assert d == pytest.approx(2 * math.hypot(0.6, 1.0) - 1.0, abs=0.03)


def test_within_reach_skips_itself_the_downed_and_the_far() -> None:
    t = terrain(THIN)
    me = SimpleNamespace(at=(10, 10), radius=R)
    near = SimpleNamespace(at=(11.5, 10), radius=R, down=False)  # gap 0.5
    downed = SimpleNamespace(at=(11, 11), radius=R, down=True)
    far = SimpleNamespace(at=(12.1, 10), radius=R, down=False)  # gap 1.1
    behind = SimpleNamespace(at=(15.6, 10), radius=R, down=False)  # across the wall
    assert reach.within_reach(t, me, [me, near, downed, far, behind]) == [near]
    # standing elsewhere (at=...): at (15.6 - 1.6, 10) = (14, 10) the thin wall hides behind
    assert reach.within_reach(t, me, [behind], at=(14.0, 10)) == []
    assert reach.within_reach(t, me, [far], at=(12.1, 11.5)) == [far]  # gap 0.5


def test_control_mask_margin_shrinks_the_inch() -> None:
    t = terrain()
    pts = np.array([(11.95, 10), (11.9, 10)])  # gaps 0.95 and 0.9 from a base at (10, 10)
    assert reach.control_mask(t, pts, R, (10, 10), R).tolist() == [True, True]
    assert reach.control_mask(t, pts, R, (10, 10), R, margin=0.07).tolist() == [False, True]


def _op(movement: float = 6, wounds: int = 10, max_wounds: int = 10, **kw: Any) -> Any:
    op = SimpleNamespace(profile=SimpleNamespace(movement=movement, wounds=max_wounds),
                         wounds=wounds, carrying=None, turn_move=0.0, **kw)
    op.injured = op.wounds * 2 < max_wounds
    return op


def test_move_allowance_2024() -> None:
    op = _op()
    assert [reach.move_allowance(op, k, "kt2024") for k in reach.MOVES_2024] == [6, 3, 8, 6]
    hurt = _op(wounds=4)  # 4 of 10: injured, -2"
    assert [reach.move_allowance(hurt, k, "kt2024") for k in reach.MOVES_2024] == [4, 3, 6, 4]


def test_move_allowance_2018_with_and_without_rolls() -> None:
    op = _op(movement=5, wounds=1)  # injury means nothing in 2018
    assert [reach.move_allowance(op, k, "kt2018") for k in reach.MOVES_2018] == [5, 11, 12, 5]
    assert reach.move_allowance(op, "advance", "kt2018", roll=3) == 8
    assert reach.move_allowance(op, "charge", "kt2018", roll=7) == 7


def test_a_carrier_moves_at_most_4_inches_a_turn() -> None:
    op = _op()
    op.carrying, op.turn_move = "a2", 1.5
    assert reach.move_allowance(op, "reposition", "kt2024") == 2.5
    assert reach.move_allowance(op, "dash", "kt2024") == 2.5
    op.turn_move = 5.0
    assert reach.move_allowance(op, "dash", "kt2024") == 0.0


def test_a_move_the_edition_lacks_is_refused() -> None:
    with pytest.raises(ValueError, match="no 'advance' move in kt2024"):
        reach.move_allowance(_op(), "advance", "kt2024")
    with pytest.raises(ValueError, match="no 'dash' move in kt2018"):
        reach.move_allowance(_op(), "dash", "kt2018")


def test_round_point() -> None:
    assert reach.round_point((1.23456, 2.0449)) == [1.23, 2.04]
    assert reach.round_point((3.14159, 7.0)) == [3.14, 7.0]
    assert reach.round_point(None) is None






@pytest.mark.parametrize(("case", "features", "a", "b", "gap", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_the_planner_fights_only_in_control_range(case: str, features: Any, a: Any, b: Any,
                                                  gap: float, expected: bool) -> None:
    """AI: a model in control range fights; across a wall it does not fight from where it
    stands (a Door Fight across the closed door is its own action, 002 Volkus "Door Fight
    1AP: When TOUCHING a door, fight enemy within 2" of the OTHER side of the door")."""
    from solo_ops.ai.context import in_control_range
    from solo_ops.ai.planner import plan_activation

    game, state = game_with(features, a, b)
    ctx = game.context(state)
    p1 = state.operatives["p1"]
    assert bool(in_control_range(ctx, b, R, [p1], {"p1": a})) is expected
    plan = plan_activation(ctx, state, "u1")
    first = plan.actions[0]
    fights_here = first.kind == "fight" and first.portal is None
    assert fights_here is expected
    for i, act in enumerate(plan.actions):  # every fight is in control range where it is
        if act.kind == "fight" and act.portal is None:
            at = next((m.to for m in reversed(plan.actions[:i]) if m.to is not None), b)
            assert reach.in_control_range(game.terrain(state), at, R, a, R)


@pytest.mark.parametrize(("case", "features", "a", "b", "gap", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_a_planned_fight_is_made_only_in_control_range(case: str, features: Any, a: Any,
                                                       b: Any, gap: float,
                                                       expected: bool) -> None:
    """Applying an enemy fight: across a wall it is never rolled; the model is re-planned."""
    from solo_ops.ai.planner import Action, Plan
    from solo_ops.core.dice import ScriptedDice
    from solo_ops.core.tables import order_table
    from solo_ops.game.enemy import apply_plan

    game, state = game_with(features, a, b)
    state.dice = ScriptedDice(faces=[6, 1] * 40)
    plan = Plan("u1", 3, "melee", order_table("melee")[3], "idle",
                actions=[Action("fight", "e1", target="p1", weapon="blade")])
    events = apply_plan(game, state, plan)
    rolled = [e for e in events if e["type"] == "fight" and e["target"] == "p1"
              and "across" not in e.get("note", "")]
    if expected:
        assert len(rolled) == 1
        assert not [e for e in events if e["type"] == "replanned"]
    else:
        assert rolled == []
        replanned = [e for e in events if e["type"] == "replanned"]
        assert replanned[0]["why"] == "p1 is not in e1's control range"


@pytest.mark.parametrize(("case", "features", "a", "b", "gap", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_guard_ends_only_in_control_range(case: str, features: Any, a: Any, b: Any,
                                          gap: float, expected: bool) -> None:
    """002 "Operative is ON GUARD until it: ... an enemy ends an action in Control Range"."""
    from solo_ops.game import enemy_guard

    game, state = game_with(features, a, b)
    e1, p1 = state.operatives["e1"], state.operatives["p1"]
    e1.on_guard = True
    events = enemy_guard.guards_engaged(game, state, p1)
    assert (events != []) is expected
    assert e1.on_guard is not expected


@pytest.mark.parametrize(("case", "features", "a", "b", "gap", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_the_players_fight_action_needs_control_range(case: str, features: Any, a: Any, b: Any,
                                                      gap: float, expected: bool) -> None:
    """001 "Fight - 1AP Must be within Control Range."."""
    from solo_ops.core.errors import RuleError
    from solo_ops.game import actions

    game, state = game_with(features, a, b)
    state.phase, state.active_operative = "firefight", "p1"
    prompt = SimpleNamespace(kind="act")
    fight = {"type": "fight", "target": "e1", "dealt": 1, "taken": 0}
    if expected:
        events = actions.apply(game, state, fight, prompt)
        assert events[0] == {"type": "fight", "operative": "p1", "target": "e1"}
    elif case == "closed doorway":  # not in control range, but touching the door: Door Fight
        events = actions.apply(game, state, fight, prompt)  # (002 Volkus, both sides)
        assert events[0]["across"] == "door-1" and events[0]["note"] == "across door-1 (Door " \
            "Fight)"
    else:
        with pytest.raises(RuleError, match='e1 is not within 1" of p1'):
            actions.apply(game, state, fight, prompt)


@pytest.mark.parametrize(("case", "features", "a", "b", "gap", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_objective_control_needs_control_range(case: str, features: Any, a: Any, b: Any,
                                               gap: float, expected: bool) -> None:
    """An operative controls a marker in its control range. The marker (radius 0) at b and
    the operative at a: the straight gap is 1.2 - 0.5 = 0.7"."""
    from solo_ops.game.scoring import objective_control

    game, state = game_with(features, a, (3, 3), objective=b)
    assert objective_control(game, state) == {"obj-1": "player" if expected else None}


@pytest.mark.parametrize(("case", "features", "a", "b", "gap", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_kt2018_engagement_never_through_a_wall(case: str, features: Any, a: Any, b: Any,
                                                gap: float, expected: bool) -> None:
    """004 "Models cannot attack through walls.": who may fight in the 2018 fight phase."""
    from solo_ops.game import turns

    game, state = game_with(features, a, b, edition="kt2018")
    assert turns.engaged_2018(game, state, state.operatives["p1"]) is expected
    assert turns.engaged_2018(game, state, state.operatives["e1"]) is expected
    state.phase = "fight"
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == (
        ["p1"] if expected else [])


# -- the berserker -------------------------------------------------------------------------
def test_the_berserker_no_longer_charges_or_fights_through_the_wall() -> None:
    """Issue #11: a berserker east of a wall charged to a point on the east side of it, 0.8"
    from a trooper in a straight line, and fought it although the two could not see each
    other there. Here: the wall runs along x = 15 from its end at y = 10 northwards, the
    trooper p1 stands west of it at (14.4, 11.8), the berserker e1 south-east at (16.1, 7.5),
    from where it sees p1 round the wall's end. The cheapest point within 0.95" of p1 in a
    straight line is (15.6, 10.5), east of the wall: gap sqrt(1.2^2 + 1.3^2) - 1 = 0.769",
    which the old straight-line test took. It is out of sight and 1.7" round the end."""
    from solo_ops.ai.planner import plan_activation
    from solo_ops.core.dice import ScriptedDice
    from solo_ops.game.enemy import apply_plan

    game, state = game_with((END,), (14.4, 11.8), (16.1, 7.5))
    t = game.terrain(state)
    trooper = (14.4, 11.8)
    across = (15.6, 10.5)
    assert reach.straight_gap(across, R, trooper, R) == pytest.approx(math.hypot(1.2, 1.3) - 1)
    assert not t.sight.visible(across, trooper, R, R)
    assert not reach.in_control_range(t, across, R, trooper, R)
    assert t.sight.visible((16.1, 7.5), trooper, R, R)  # it may declare the charge

    plan = plan_activation(game.context(state), state, "u1")
    charge = next(a for a in plan.actions if a.kind == "charge")
    assert charge.target == "p1"
    assert charge.to is not None and charge.to[0] < 15  # round the end, on p1's side
    assert reach.in_control_range(t, charge.to, R, trooper, R)
    assert [a.kind for a in plan.actions] == ["charge", "fight"]

    state.dice = ScriptedDice(faces=[4] * 60)
    events = apply_plan(game, state, plan)
    fights = [e for e in events if e["type"] == "fight"]
    assert len(fights) == 1 and fights[0]["target"] == "p1"
    e1 = state.operatives["e1"]
    assert reach.in_control_range(t, e1.at, R, trooper, R)
