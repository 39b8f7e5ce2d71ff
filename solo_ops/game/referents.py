"""What a relative answer can name on the table (``move toward obj-1``, ``contact kell``,
``behind crate-2``, ``to edge``): objectives where they are now, models on the table (downed
operatives lying there included), terrain features (thin walls only to get behind), hidden
counters, and the killzone's edges (:data:`EDGES`), each a :class:`Referent` by id
(:func:`referents`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solo_ops.game import markers
from solo_ops.game.state import COUNTER_RADIUS, State

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


@dataclass(frozen=True)
class Referent:
    """A thing on the table a player can name: what it is, where, and its shape."""

    id: str
    kind: str  # objective | model | feature | wall | counter | edge
    at: tuple[float, float]
    radius: float = 0.0
    shape: Any = None  # features and edges: their shapely geometry
    side: str | None = None  # models


EDGES = ("edge", "north-edge", "east-edge", "south-edge", "west-edge")
"""The killzone's edges a relative answer can name (``edge``: whichever is cheapest to reach;
+y is north)."""


def _edge_lines(board: Any) -> dict[str, Any]:
    from shapely.geometry import LineString, MultiLineString

    w, d = float(board.width), float(board.depth)
    lines = {"north-edge": LineString([(0, d), (w, d)]), "east-edge": LineString([(w, 0), (w, d)]),
             "south-edge": LineString([(0, 0), (w, 0)]), "west-edge": LineString([(0, 0), (0, d)])}
    return {"edge": MultiLineString(list(lines.values())), **lines}


def referents(game: Game, state: State) -> dict[str, Referent]:
    """Everything a relative move can name: objectives, models on the table (downed operatives
    lying there included), terrain features (doors and hatches, pillars, crates; the thin walls
    as ``wall``, only to get behind), hidden counters, and the killzone's edges
    (:data:`EDGES`), by id."""
    board = game.terrain(state).board
    out: dict[str, Referent] = {}
    for o in board.objectives:
        at = markers.position(state, o)  # where it is now (a carried marker: at its carrier)
        out[o.id] = Referent(o.id, "objective", (float(at[0]), float(at[1])))
    for f in board.features:
        mid = f.shape.centroid
        # a thin wall is only something to get behind (the route lines name it), not to go to
        kind = "wall" if f.is_line and "wall" in f.traits else "feature"
        out[f.id] = Referent(f.id, kind, (float(mid.x), float(mid.y)), shape=f.shape)
    for c in state.counters.values():
        if c.active:
            out[c.id] = Referent(c.id, "counter", (float(c.at[0]), float(c.at[1])), COUNTER_RADIUS)
    for op in state.operatives.values():
        if op.has_base and op.at is not None:
            out[op.id] = Referent(op.id, "model", (float(op.at[0]), float(op.at[1])), op.radius,
                              side=op.side)
    for name, line in _edge_lines(board).items():
        mid = line.centroid
        out.setdefault(name, Referent(name, "edge", (float(mid.x), float(mid.y)), shape=line))
    return out
