"""A model up on terrain (a ``vantage`` feature with a height) is not hidden by the terrain it
stands on: it sees out over its edges and is seen over them, while the same terrain still
hides models on the floor from each other. Exact cases worked by hand, the shipped
Bheta-Decima refinery's condensers, and the fast sight against the slow oracle with models
drawn on and off a perch."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solo_ops.game.shots import vantage_height
from solo_ops.geometry import shapes
from solo_ops.geometry.board import Board, parse_board
from solo_ops.geometry.sight import Sight
from solo_ops.geometry.sight.perches import is_perch
from tests.support.budget import examples
from tests.support.geometry_oracle import OracleSight
from tests.support.shipped_terrains import BOARDS_LOADED

R = 0.5  # a 1" base


def board(*features: dict[str, Any]) -> Board:
    feats = [{"id": f"f{i}", **f} for i, f in enumerate(features)]
    return parse_board({"name": "perch", "width": 20, "depth": 20, "features": feats}, "test")


def block(traits: list[str], height: float | None = 4.0) -> dict[str, Any]:
    """A 4" x 4" footprint from (8, 8) to (12, 12)."""
    out: dict[str, Any] = {"traits": traits, "polygon": [[8, 8], [12, 8], [12, 12], [8, 12]]}
    if height is not None:
        out["height"] = height
    return out


TOWER = ["heavy", "blocking", "accessible", "vantage"]
TOP, WEST, EAST, FAR_NORTH = (10.0, 10.0), (2.0, 10.0), (18.0, 10.0), (10.0, 18.0)


def test_a_perch_hides_the_floor_from_the_floor_but_not_the_model_on_it() -> None:
    s = Sight(board(block(TOWER)))
    assert not s.visible(WEST, EAST, R, R)  # through the solid block, floor to floor
    assert s.visible(TOP, WEST, R, R) and s.visible(WEST, TOP, R, R)
    assert s.visible(TOP, (11.0, 11.0), R, R)  # two models up on it
    assert s.visibility_matrix([TOP, WEST], R, [EAST, FAR_NORTH], R).tolist() == [
        [True, True], [False, True]]


def test_a_model_on_a_perch_is_not_obscured_or_in_cover_by_it() -> None:
    # The tower reaches 2" from its centre: a 1" base there leaves 1.5" of Heavy footprint
    # more than 1" from the target's base on the line from the west, so the same block
    # without vantage (terrain beside, not under, the target) obscures; with it, nothing.
    perched = Sight(board(block(["heavy", "accessible", "vantage"])))
    beside = Sight(board(block(["heavy"])))
    assert (perched.cover(WEST, TOP, R, R).obscured, beside.cover(WEST, TOP, R, R).obscured) \
        == (False, True)
    assert (perched.cover(TOP, WEST, R, R).obscured, beside.cover(TOP, WEST, R, R).obscured) \
        == (False, True)
    # (2" high: its top is not "over 2"" above the floor, so Vantage gives no cover either)
    light = Sight(board(block(["light", "accessible", "vantage"], height=2.0)))
    plain_light = Sight(board(block(["light"])))
    assert (light.cover(WEST, TOP, R, R).in_cover, plain_light.cover(WEST, TOP, R, R).in_cover) \
        == (False, True)


DECK = ["accessible", "vantage"]  # a gantry's deck: hides nothing, models stand up on it


@pytest.mark.parametrize(("height", "shooter", "seek", "in_cover"), [
    (4.0, WEST, False, True),  # 4" up, 7" away: "Provides Cover from shooters over 2" below"
    (3.0, WEST, False, True),
    (2.0, WEST, False, False),  # 2" up is not over 2"
    (4.0, (7.0, 10.0), False, False),  # 2.0" apart, base to base: no cover within 2"
    (4.0, (6.9, 10.0), False, True),  # 2.1" apart
    (4.0, (11.0, 10.0), False, False),  # the shooter up on the same deck
    (4.0, WEST, True, False),  # Seek: "VISIBLE Operatives cannot use terrain for Cover"
])
def test_vantage_gives_cover_from_shooters_over_2_inches_below(
        height: float, shooter: tuple[float, float], seek: bool, in_cover: bool) -> None:
    s = Sight(board(block(DECK, height=height)))
    seen = s.cover(shooter, TOP, R, R, seek=seek)
    assert seen.visible and seen.in_cover is in_cover and not seen.obscured
    cm = s.cover_matrix([shooter, FAR_NORTH], R, [TOP, EAST], R, seek=seek)
    assert cm.in_cover[0, 0] == in_cover and not cm.in_cover[:, 1].any()  # the floor: none
    assert not s.cover(TOP, shooter, R, R).in_cover  # shooting down: no cover from it
    assert not s.cover(shooter, TOP, R, R, edition="kt2018").in_cover  # 2024's rule only


def test_only_the_perch_under_a_model_is_left_out() -> None:
    # A second block north of the tower still hides a floor model behind it from the top.
    other = {"traits": ["blocking"], "polygon": [[8, 14], [12, 14], [12, 15], [8, 15]]}
    s = Sight(board(block(TOWER), other))
    assert not s.visible(TOP, FAR_NORTH, R, R)
    assert s.visible(TOP, (10.0, 13.0), R, R)


def test_a_model_on_the_outline_stands_on_the_floor_beside_it() -> None:
    """A centre on the outline paid no climb to get there (tests/geometry/
    test_movement_costs.py): it is on the floor, so the block still hides the far side from
    it, and Vantage gives it no height."""
    b = board(block(TOWER))
    s = Sight(b)
    edge = (8.0, 10.0)
    assert not s.visible(edge, EAST, R, R) and s.visible((8.5, 10.0), EAST, R, R)
    assert vantage_height(b, edge) == 0.0 and vantage_height(b, (8.5, 10.0)) == 4.0


def test_a_vantage_without_a_height_is_no_perch() -> None:
    s = Sight(board(block(TOWER, height=None)))
    assert not is_perch(s.board.features[0])
    assert not s.visible(TOP, WEST, R, R)


def test_kt2018_obscured_leaves_out_the_perch_too() -> None:
    perched = Sight(board(block(["heavy", "accessible", "vantage"])))
    beside = Sight(board(block(["heavy"])))
    assert perched.cover(WEST, TOP, R, R, edition="kt2018").obscured is False
    assert beside.cover(WEST, TOP, R, R, edition="kt2018").obscured is True
    cm = perched.cover_matrix([WEST], R, [TOP], R, edition="kt2018")
    assert cm.visible.tolist() == [[True]] and cm.obscured.tolist() == [[False]]


REFINERY = "bheta-decima-refinery"


def test_the_refinery_condensers_are_perches_and_their_tops_see_out() -> None:
    b = BOARDS_LOADED[REFINERY]
    s = Sight(b)
    perches = sorted(f.id for f in b.features if is_perch(f))
    assert perches == ["condenser-1", "condenser-2"]
    top_1, top_2 = (15.0, 6.0), (15.0, 16.0)
    assert s.visible(top_1, (15.0, 5.5), R, R)  # two models on one condenser
    assert s.visible(top_1, (15.0, 11.0), R, R)  # down to the floor
    assert s.visible(top_1, top_2, R, R)  # condenser to condenser
    # floor models either side of a condenser still cannot see through it
    assert not s.visible((15.0, 1.0), (15.0, 11.0), R, R)


# -- against the oracle ----------------------------------------------------------------------
coord = st.floats(min_value=0.5, max_value=19.5, allow_nan=False)
point = st.tuples(coord, coord)
on_top = st.tuples(st.floats(8.2, 11.8), st.floats(8.2, 11.8))


@st.composite
def perch_board(draw: Any) -> Board:
    """The 4" tower with hiding traits drawn, a few walls and maybe a Heavy box."""
    hiding = draw(st.lists(st.sampled_from(["blocking", "heavy", "light"]), min_size=1,
                           max_size=3, unique=True))
    feats: list[dict[str, Any]] = [block([*hiding, "vantage", "accessible"],
                                         height=draw(st.sampled_from([2.0, 4.0])))]
    for _ in range(draw(st.integers(0, 3))):
        a, c = draw(point), draw(point)
        assume(math.dist(a, c) > 0.5)
        feats.append({"traits": ["wall"], "line": [list(a), list(c)]})
    if draw(st.booleans()):
        x, y = draw(point)
        feats.append({"traits": ["heavy"], "polygon": [[x, y], [min(x + 2, 20), y],
                                                        [min(x + 2, 20), min(y + 1, 20)],
                                                        [x, min(y + 1, 20)]]})
    return board(*feats)


def _on_a_base_edge(b: Board, targets: Any) -> bool:
    """Cover-giving terrain across a target's base edge or a centre on a perch's outline:
    degenerate draws where float noise decides (as in the plain sight tests)."""
    for x, y in targets:
        edge = shapely.Point(x, y).buffer(R, 32).exterior
        if any(shapes.feature_area(f).intersects(edge) for f in b.features if f.gives_cover):
            return True
    return False


@settings(max_examples=examples(16), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(perch_board(), st.lists(st.one_of(on_top, point), min_size=1, max_size=3),
       st.lists(st.one_of(on_top, point), min_size=1, max_size=3))
def test_matrices_equal_the_oracle_with_models_on_a_perch(b: Board, a: list[Any],
                                                          t: list[Any]) -> None:
    assume(not _on_a_base_edge(b, t))
    s, o = Sight(b), OracleSight(b)
    a_, t_ = np.array(a), np.array(t)
    assert s.visibility_matrix(a_, R, t_, R).tolist() == o.visibility_matrix(
        a_, R, t_, R).tolist()
    got, want = s.cover_matrix(a_, R, t_, R), o.cover_matrix(a_, R, t_, R)
    for key in ("visible", "in_cover", "obscured"):
        assert getattr(got, key).tolist() == getattr(want, key).tolist(), key
    for i, j in np.ndindex(len(a), len(t)):  # the single-pair questions agree with the matrix
        assert s.visible(a[i], t[j], R, R) == bool(got.visible[i, j])


@pytest.mark.parametrize("traits", [["vantage", "accessible"], ["heavy"], ["blocking"]])
def test_features_that_are_no_perch(traits: list[str]) -> None:
    """A gantry (nothing to hide behind) and plain terrain with a height are not perches."""
    assert not is_perch(board(block(traits)).features[0])
