"""The single-pair sight answers remembered by a Sight give exactly the matrix path's answers
(first asked and asked again), on a shipped board with walls, doors and cover."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from solo_ops.geometry.board import parse_board
from solo_ops.geometry.sight import Sight
from solo_ops.io.yamlio import read_document
from tests.support.budget import examples
from tests.support.paths import BOARDS

_PATH = BOARDS / "gallowdark-corridors.yaml"
BOARD = parse_board(read_document(_PATH), str(_PATH))
SIGHT = Sight(BOARD)
coord_x = st.floats(0, BOARD.width, allow_nan=False).map(lambda v: round(v, 1))
coord_y = st.floats(0, BOARD.depth, allow_nan=False).map(lambda v: round(v, 1))
point = st.tuples(coord_x, coord_y)
radius = st.sampled_from([0.0, 0.5, 0.63, 1.0])


@settings(max_examples=examples(150), deadline=None)
@given(point, point, radius, radius)
def test_visible_is_the_matrix_answer_first_and_again(a: tuple[float, float],
                                                      b: tuple[float, float], ra: float,
                                                      rb: float) -> None:
    want = bool(SIGHT.visibility_matrix([a], ra, [b], rb)[0, 0])
    assert SIGHT.visible(a, b, ra, rb) is want
    assert SIGHT.visible(a, b, ra, rb) is want  # remembered
    assert Sight(BOARD).visible(a, b, ra, rb) is want  # a fresh Sight


@settings(max_examples=80, deadline=None)
@given(point, point, radius, radius, st.booleans(), st.booleans(),
       st.sampled_from(["kt2024", "kt2018"]))
@example((16.0, 10.0), (17.0, 11.0), 0.0, 1.0, False, False, "kt2018")  # a point firer on a face
def test_cover_is_the_matrix_answer_first_and_again(a: tuple[float, float],
                                                    b: tuple[float, float], ra: float,
                                                    rb: float, seek: bool, seek_light: bool,
                                                    edition: str) -> None:
    cm = SIGHT.cover_matrix([a], ra, [b], rb, seek=seek, seek_light=seek_light,
                            edition=edition)
    want = (bool(cm.visible[0, 0]), bool(cm.in_cover[0, 0]), bool(cm.obscured[0, 0]))
    for _ in range(2):
        got = SIGHT.cover(a, b, ra, rb, seek=seek, seek_light=seek_light, edition=edition)
        assert (got.visible, got.in_cover, got.obscured, got.valid_target) == (*want, want[0])
    # a caller changing its result changes nothing remembered
    got.in_cover = not got.in_cover
    again = SIGHT.cover(a, b, ra, rb, seek=seek, seek_light=seek_light, edition=edition)
    assert again.in_cover is want[1]
