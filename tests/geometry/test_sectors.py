"""The table's six sectors (003): "the game table is divided into six sectors, with
imaginary lines by dividing it into thirds along a long table edge, and then in half along a
short table edge" -- whichever way the board lies (:meth:`solo_ops.geometry.board.Board.sector_of`,
``sector_box``, ``sector_centre``). Reading: docs/rules.md, "Fog of war".
"""

from __future__ import annotations

from solo_ops.geometry.board import parse_board


def test_sectors_are_thirds_along_the_long_edge_whatever_the_orientation() -> None:
    """003: "the game table is divided into six sectors, with imaginary lines by dividing it
    into thirds along a long table edge, and then in half along a short table edge"."""
    wide = parse_board({"name": "wide", "width": 30, "depth": 22}, "b.yaml")
    tall = parse_board({"name": "tall", "width": 22, "depth": 30}, "b.yaml")
    assert [wide.sector_of(x, 5) for x in (5, 15, 25)] == [1, 2, 3]
    assert [wide.sector_of(x, 15) for x in (5, 15, 25)] == [4, 5, 6]
    assert [tall.sector_of(5, y) for y in (5, 15, 25)] == [1, 2, 3]
    assert [tall.sector_of(15, y) for y in (5, 15, 25)] == [4, 5, 6]
    assert tall.sector_box(2).bounds == (0.0, 10.0, 11.0, 20.0)
    assert tall.sector_centre(6) == (16.5, 25.0)
