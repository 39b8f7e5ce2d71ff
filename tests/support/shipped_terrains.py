"""The shipped boards loaded once for the tests, with their terrains in every door state a test
asks about: as shipped and, where a board has doors or hatches, with every one flipped."""

from __future__ import annotations

from pathlib import Path

from solo_ops.geometry.board import Board, parse_board
from solo_ops.geometry.terrain import Terrain, TerrainCache
from solo_ops.io.yamlio import read_document
from tests.support.budget import FULL
from tests.support.paths import BOARDS, SCENARIOS

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


SAMPLED = ("bheta-decima-refinery", "crypt-of-cynosure", "gallowdark-corridors",
           "volkus-stronghold")
"""The shipped boards the README's test command checks the per-board oracle tests on (the
``slow`` ones of tests/conftest.py that take :data:`CHECKED` or a board list's ``CHECKED``):
between them every trait the shipped boards use -- open ground with hazardous, accessible,
vantage, blocking, heavy and light terrain and no doors (Bheta-Decima); walls, doors,
insignificant terrain and pitfalls (the Crypt); hatches (Gallowdark); doors, a stronghold and
ruins (Volkus) -- and each board with doors in both door states. The other three repeat those
traits on other layouts: they are checked with the full budget (CI's slow pass)."""

CHECKED = ALL if FULL else [(name, k) for name, k in ALL if name in SAMPLED]
""":data:`ALL` with the full budget, else the :data:`SAMPLED` boards' pairs."""


def is_sampled(board: Board) -> bool:
    """Whether ``board`` is one of the :data:`SAMPLED` shipped boards (by its file's name)."""
    return board.source is not None and Path(board.source).stem in SAMPLED


SCENARIO_FILES = sorted(SCENARIOS.glob("*.yaml"))
"""The shipped scenarios, in name order."""

CHECKED_SCENARIOS = SCENARIO_FILES if FULL else [
    p for p in SCENARIO_FILES if Path(str(read_document(p)["board"])).stem in SAMPLED]
"""The scenarios the per-scenario ``slow`` oracle tests play: all with the full budget, else
those on the :data:`SAMPLED` boards (Bheta-Decima's, both Crypt scenarios (Kill Team 2018),
Gallowdark's night raid and the Volkus supplement's example)."""
