"""The shipped boards loaded once for the tests, with their terrains in every door state a test
asks about: as shipped and, where a board has doors or hatches, with every one flipped."""

from __future__ import annotations

from solo_ops.geometry.board import Board, parse_board
from solo_ops.geometry.terrain import Terrain, TerrainCache
from solo_ops.io.yamlio import read_document
from tests.support.paths import BOARDS

BOARD_FILES = sorted(BOARDS.glob("*.yaml"))
BOARDS_LOADED: dict[str, Board] = {p.stem: parse_board(read_document(p), str(p))
                                   for p in BOARD_FILES}
TERRAINS = {name: TerrainCache(b) for name, b in BOARDS_LOADED.items()}


def door_states(name: str) -> list[Terrain]:
    """The board's terrain as shipped and, where it has doors or hatches, with each flipped."""
    cache = TERRAINS[name]
    out = [cache.get()]
    portals = cache.board.portals()
    if portals:
        out.append(cache.get({f.id: not f.open for f in portals}))
    return out


ALL = [(name, k) for name in sorted(BOARDS_LOADED) for k in range(len(door_states(name)))]
"""Every (board, door state) pair: the parameters of tests run on every shipped terrain."""
