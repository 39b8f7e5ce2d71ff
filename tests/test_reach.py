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

R = 0.5  # base radius of a 25.4 mm base


def terrain(*features: dict[str, Any]) -> Terrain:
    return Terrain(parse_board({"name": "T", "width": 30, "depth": 22,
                                "features": list(features)}, "t"))


# A thin wall along x = 15 from y = 4 to y = 16.
THIN = {"id": "w1", "traits": ["wall"], "line": [[15, 4], [15, 16]]}
# A wall along x = 15 that ends at y = 10 and runs north to the board edge.
END = {"id": "w1", "traits": ["wall"], "line": [[15, 10], [15, 22]]}


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
    # beside a wall's end, both 1" north of it: bases touch (gap 0) but every line between
    # them crosses the wall at y >= 10.5, and the route round the end at (15, 10) is
    # 2 * sqrt(0.5^2 + 1^2) - 1 = 1.236" (> 1")
    ("north of a wall's end", (END,), (14.5, 11), (15.5, 11), 0.0, False),
    # 0.5" south of the end: the straight line is clear, gap 0
    ("south of a wall's end", (END,), (14.5, 9.5), (15.5, 9.5), 0.0, True),
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
    d = reach.route_gap(t, (14.5, 11), R, (15.5, 11), R)
    assert d == pytest.approx(2 * math.hypot(0.5, 1.0) - 1.0, abs=0.03)


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
