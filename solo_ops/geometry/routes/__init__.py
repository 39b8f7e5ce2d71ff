"""Distances around walls and walking paths: :class:`Routes`.

Two questions, one technique. *Measuring* (ranges, control range, "closest enemy") takes the
shortest route between two points around the walls and closed doors and hatches
(``shapes.measuring_blockers``); *walking* (moves, charges, hidden counters) takes the cheapest
path for a base of radius ``r`` around everything it cannot cross, grown by ``r``, plus the bases
of other models, staying ``r`` inside the board edge.

Both use a *reduced visibility graph*: a shortest path around polygons bends only at convex
obstacle corners, and only where it wraps around them (the path is tangent to the obstacle
there). The corners are collected once, nudged outward by :data:`NUDGE` so that tests are never
ambiguous, and joined by the tangent, unobstructed segments (vectorised segment-vs-edge tests in
numpy). For measuring, the all-pairs shortest distances among the corners are computed once per
board (a numpy Floyd-Warshall with a successor matrix), so a query only has to find which corners
each end sees and take ``min(|a-vi| + D[i, j] + |vj-b|)``. For walking, the corner graph of the
static obstacles is cached per base radius (with its adjacency lists and each corner's
neighbour directions). ``walk`` runs an A* search (straight-line lower bound) on it, ignoring
the other models' bases; bases only make routes dearer, so a route that enters none of them is
the answer, and otherwise the bases it entered are added as an overlay (their corners, the
static pairs they cut) and the search repeats until the route is clear of every base.
``reachable`` adds the bases near the move circle at once and runs a Dijkstra search from the
start restricted to that circle.

Movement costs (a reading of the 2024 rules, see ``docs/``): a walk's *cost* is its length plus
1" each time the centre of the base enters an ``accessible`` feature (crossing an open hatchway,
climbing through a window) and 2" each time the base's edge comes within 1" of an
``obstructing`` one (razor wire: its footprint grown by 1" plus the base's radius,
:data:`OBSTRUCTING_REACH`); a feature with both traits costs both. Entering means crossing the
footprint's edge from outside (thin ``line:`` features are strips ``shapes.WALL_THICKNESS``
wide); a walk that starts inside an accessible feature does not pay for leaving it, one that
starts within reach of razor wire pays its 2" at once (001 "Any move within 1" of this terrain
costs additional 2""). Paths minimise cost, so a walk may go round a feature when
that is cheaper. ``vantage`` features without ``accessible`` cost nothing extra. With no such
terrain, cost equals length and the results are those of ``tests/geometry_oracle.py``.

The modules, lowest first: :mod:`~solo_ops.geometry.routes.common` (tolerances, the memo
bound, the compiled loops' handles, vector helpers), :mod:`~solo_ops.geometry.routes.results`
(:class:`Route`, :class:`Walk`, :class:`Reach`), :mod:`~solo_ops.geometry.routes.rings`
(obstacle rings and the crossing, blocked, sees and tangent tests),
:mod:`~solo_ops.geometry.routes.paths` (Floyd-Warshall, Dijkstra, A*),
:mod:`~solo_ops.geometry.routes.costs` (movement surcharges, climbing and dropping),
:mod:`~solo_ops.geometry.routes.discs` (other models' bases),
:mod:`~solo_ops.geometry.routes.graph` (the visibility graph),
:mod:`~solo_ops.geometry.routes.walker` (the walking graph per base radius and its searches),
:mod:`~solo_ops.geometry.routes.pairs` (single distances on the measuring graph) and
:mod:`~solo_ops.geometry.routes.query` (:class:`Routes`). This package re-exports the names
other rooms use (``from solo_ops.geometry.routes import Routes``: the queries, their results,
the tolerances and the movement costs); the units it is built of (``rings.Rings``,
``graph.Graph``, ``walker.Walker``, ``discs.Discs``, ``pairs.PairQuery``, the wall tests) are
public in their own modules, where their tests find them, as are the tunable sizes and bounds
(``common.MEMO_LIMIT``, ``rings.DENSE``, ``discs.FAST_DISCS``, ...): those are read from the
one module that holds them at every use, so a change must be made there.
"""

import shapely
from shapely.geometry import Polygon

from solo_ops.geometry import jit, shapes
from solo_ops.geometry.routes import (
    common,
    costs,
    discs,
    graph,
    pairs,
    paths,
    query,
    results,
    rings,
    walker,
)
from solo_ops.geometry.routes.common import DISC_SEGMENTS, END, EPS, NUDGE, TOL, Point2
from solo_ops.geometry.routes.costs import (
    ACCESSIBLE_COST,
    DROP_IGNORED,
    MIN_CLIMB,
    OBSTRUCTING_COST,
    OBSTRUCTING_REACH,
    climb_cost,
    drop_cost,
)
from solo_ops.geometry.routes.discs import in_discs
from solo_ops.geometry.routes.query import Routes
from solo_ops.geometry.routes.results import Reach, Route, Walk
from solo_ops.geometry.routes.walker import walk_obstacle_features

__all__ = [
    "ACCESSIBLE_COST", "DISC_SEGMENTS", "DROP_IGNORED", "END", "EPS", "MIN_CLIMB", "NUDGE",
    "OBSTRUCTING_COST", "OBSTRUCTING_REACH", "TOL", "Point2", "Polygon", "Reach", "Route",
    "Routes", "Walk", "climb_cost", "common", "costs", "discs", "drop_cost", "graph",
    "in_discs", "jit", "pairs", "paths", "query", "results", "rings", "shapely", "shapes",
    "walk_obstacle_features", "walker",
]
