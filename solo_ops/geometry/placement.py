"""The one placement rule: where a base may stand on the table (issue #27).

A base -- a standing or downed operative, an enemy model, a hidden counter -- may stand at a
point when

* it lies wholly on the board,
* it is not inside terrain a base cannot stand in (walls, closed doors and hatches, pitfalls,
  solid footprints that are not accessible: :meth:`Routes.fits_many` without other bases; a
  hidden counter, ``floor=True``, also keeps off every solid footprint, as the fog of war has
  always placed it: :meth:`Terrain.off_solids`), and
* it overlaps no other base: the exact circles, centre to centre at least the sum of the radii
  (less :data:`TOUCH`, so bases in contact touch and never overlap).

Everything that puts a base on the table asks this module (the enemy's moves, charges and fall
backs through their candidate points, reveals and ambushes, counters, the players' answers and
taps, set-up and deployment): :func:`legal` for many points at once, :func:`why_not` for the
reason one point is refused, :func:`nearest` for the nearest legal point to a wanted one,
:func:`along` for the farthest legal point along a walk (a move shortened, with what stopped
it), and :func:`overlaps` for the audit of a whole table. It knows no units: bases are
:class:`Base` discs with a label for the reasons.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import shapely

if TYPE_CHECKING:
    from solo_ops.geometry.routes import Walk
    from solo_ops.geometry.terrain import Terrain


TOUCH = 1e-6
"""Inches two bases may share at most and still count as touching, not overlapping."""
OVERLAP_TOLERANCE = 0.01
"""The audit's tolerance (inches): two bases closer than their radii by more overlap."""
PLACES = 2
"""Points are chosen on the record's 0.01" grid (``rules.reach.round_point``), so a point
stays legal once it is written down."""
STEP = 0.05
"""The spacing (inches) of the points :func:`nearest` tries and of :func:`along`'s back-off."""
WINDOWS = (1.0, 3.0)
""":func:`nearest` looks within these distances first (a fine grid), then within its limit."""


class Base(NamedTuple):
    """A base on the table: centre, radius and what it is called in a reason. As a tuple its
    first three fields are the ``(x, y, r)`` disc the routes take as a blocker."""

    x: float
    y: float
    r: float
    label: str = ""
    ident: str = ""  # the id of the model or counter (for the callers' own use)


def discs(bases: Sequence[Any]) -> list[tuple[float, float, float]]:
    """``[(x, y, r), ...]`` of bases (a :class:`Base` or any ``(x, y, r, ...)``)."""
    return [(float(b[0]), float(b[1]), float(b[2])) for b in bases]


def _points(points: Any) -> np.ndarray:
    return np.asarray(points, dtype=float).reshape(-1, 2)


CLEAR_ROWS = 256
"""Points tested at once by :func:`clear_of_bases` (bounds its arrays to a few megabytes: the
largest legal game's floor points against all its bases would be 150 MB in one table)."""


def clear_of_bases(points: Any, radius: float, others: Sequence[Any], *,
                   touch: float = TOUCH) -> np.ndarray:
    """(n,) whether a base of ``radius`` at each point overlaps none of ``others`` (exact
    circles: centre to centre at least the two radii less ``touch``). Worked through in blocks
    of :data:`CLEAR_ROWS` points; each pair is the same arithmetic as in one table."""
    pts = _points(points)
    if not len(others) or not len(pts):
        return np.ones(len(pts), dtype=bool)
    every = np.asarray(discs(others), dtype=float)
    # a base farther than the two radii and an inch (and the touch) from a block's box along
    # x or y is clear of every point of it (its gap exceeds that inch): only the others are
    # measured, by the same arithmetic (a non-finite box measures them all)
    far = radius + every[:, 2] + 1.0 + abs(touch)
    keep = np.empty(len(pts), dtype=bool)
    for start in range(0, len(pts), CLEAR_ROWS):
        block = pts[start:start + CLEAR_ROWS]
        lo, hi = block.min(axis=0).tolist(), block.max(axis=0).tolist()
        if math.isfinite(lo[0] + lo[1] + hi[0] + hi[1]):
            b = every[(every[:, 0] >= lo[0] - far) & (every[:, 0] <= hi[0] + far)
                      & (every[:, 1] >= lo[1] - far) & (every[:, 1] <= hi[1] + far)]
        else:
            b = every
        gap = (np.hypot(block[:, None, 0] - b[None, :, 0], block[:, None, 1] - b[None, :, 1])
               - radius - b[None, :, 2])
        keep[start:start + len(block)] = (gap >= -touch).all(axis=1)
    return keep


def legal(terrain: Terrain, points: Any, radius: float, others: Sequence[Any] = (), *,
          floor: bool = False) -> np.ndarray:
    """(n,) whether a base of ``radius`` may stand at each point (the module's rule)."""
    pts = _points(points)
    if len(pts) == 0:
        return np.zeros(0, dtype=bool)
    ok = np.asarray(terrain.routes.fits_many(pts, radius), dtype=bool)
    ok &= clear_of_bases(pts, radius, others)
    if floor and ok.any():
        ok[ok] = terrain.solid_free(pts[ok], radius)
    return ok


def is_legal(terrain: Terrain, point: Sequence[float], radius: float,
             others: Sequence[Any] = (), *, floor: bool = False) -> bool:
    """:func:`legal` of one point."""
    return bool(legal(terrain, [point], radius, others, floor=floor)[0])


def why_not(terrain: Terrain, point: Sequence[float], radius: float,
            others: Sequence[Any] = (), *, floor: bool = False) -> str | None:
    """Why a base of ``radius`` may not stand at ``point`` (one short clause: "it would be off
    the board", "kell's base is there", "wall-3 is there"), or None when it may."""
    x, y = float(point[0]), float(point[1])
    board = terrain.board
    if not board.on_board(x, y, radius):
        return "the base would go off the board"
    for b in others:
        if math.hypot(x - float(b[0]), y - float(b[1])) - radius - float(b[2]) < -TOUCH:
            label = b[3] if len(b) > 3 and b[3] else "another model"
            return f"{label} is there" if label.endswith("control range") \
                else f"{label}'s base is there"
    if not terrain.routes.fits((x, y), radius) or (
            floor and not terrain.solid_free(np.array([(x, y)]), radius)[0]):
        return f"{_feature_at(terrain, (x, y), radius, floor)} is there"
    return None


def _feature_at(terrain: Terrain, at: tuple[float, float], radius: float, floor: bool) -> str:
    """The terrain feature a base at ``at`` would stand in (its id), for a reason."""
    from shapely.geometry import Point

    here = Point(at)
    best: tuple[float, str] | None = None
    for f in terrain.board.features:
        t = f.effective_traits
        solid = f.blocks_movement or ("hazardous" in t) or (
            bool(t & {"heavy", "blocking"}) and not t & {"accessible", "vantage"}) or (
            floor and not f.is_line and bool(t & {"heavy", "light", "blocking", "pitfall"}))
        if not solid:
            continue
        gap = float(f.shape.distance(here))
        if gap < radius and (best is None or gap < best[0]):
            best = (gap, f.id)
    return best[1] if best is not None else "terrain no base can stand in"


def refusal(terrain: Terrain, point: Sequence[float], radius: float,
            others: Sequence[Any], name: str, *, floor: bool = False) -> str | None:
    """The one refusal of a point a base may not stand at: ``"NAME's base does not fit at
    X,Y: WHY; the nearest point where it fits is X',Y'"`` (None when it may stand there)."""
    why = why_not(terrain, point, radius, others, floor=floor)
    if why is None:
        return None
    spot = nearest(terrain, point, radius, others, floor=floor)
    alt = "" if spot is None else (f"; the nearest point where it fits is "
                                   f"{spot.at[0]:g},{spot.at[1]:g}")
    return f"{name}'s base does not fit at {float(point[0]):g},{float(point[1]):g}: {why}{alt}"


@dataclass(frozen=True)
class Spot:
    """A legal point found for a wanted one: where, and how far it is from what was wanted."""

    at: tuple[float, float]
    moved: float  # straight-line distance from the wanted point (0: the wanted point itself)


def window_grid(centre: tuple[float, float], reach: float, step: float) -> np.ndarray:
    """Points of a ``step`` grid through ``centre`` within ``reach`` of it, rounded to the
    record's grid, nearest first (ties: lower x, then lower y)."""
    n = math.ceil(reach / step)
    offs = np.arange(-n, n + 1) * step
    dx, dy = np.meshgrid(offs, offs, indexing="ij")
    dx, dy = dx.ravel(), dy.ravel()
    keep = np.hypot(dx, dy) <= reach + 1e-9
    pts = np.round(np.stack([centre[0] + dx[keep], centre[1] + dy[keep]], axis=1), PLACES)
    d = np.hypot(pts[:, 0] - centre[0], pts[:, 1] - centre[1])
    return pts[np.lexsort((pts[:, 1], pts[:, 0], np.round(d, 9)))]


def nearest(terrain: Terrain, want: Sequence[float], radius: float,
            others: Sequence[Any] = (), *, floor: bool = False, limit: float = 6.0,
            keep: Any = None) -> Spot | None:
    """The legal point nearest ``want`` in a straight line, on the record's 0.01" grid (the
    rounded point itself when it is legal; else the nearest of a :data:`STEP` grid through it,
    ties to lower x, then lower y), within ``limit`` inches; None when there is none.
    ``keep(points) -> bool array``: a further test the point must pass (reachable, in a
    zone), asked of legal points only."""
    first = (round(float(want[0]), PLACES), round(float(want[1]), PLACES))
    if is_legal(terrain, first, radius, others, floor=floor) and (
            keep is None or bool(np.asarray(keep(np.array([first])))[0])):
        return Spot(first, math.dist(first, (float(want[0]), float(want[1]))))
    bases = np.asarray(discs(others), dtype=float).reshape(-1, 3)
    inner = 0.0
    for reach in (*[w for w in WINDOWS if w < limit], limit):
        if not window_covered(first, reach, radius, bases):
            pts = window_grid(first, reach, STEP)
            d = np.hypot(pts[:, 0] - first[0], pts[:, 1] - first[1])
            p = _first_legal(terrain, pts[d > inner - 1e-9], radius, others, floor, keep)
            if p is not None:
                at = (float(p[0]), float(p[1]))
                return Spot(at, math.dist(at, (float(want[0]), float(want[1]))))
        inner = reach
    return None


def window_covered(centre: tuple[float, float], reach: float, radius: float,
                   bases: np.ndarray) -> bool:
    """Whether one of ``bases`` ``(n, 3)`` overlaps a base of ``radius`` at every point within
    ``reach`` of ``centre`` (and a hundredth more, for the rounding to the record's grid): no
    point of :func:`nearest`'s window there can be legal (a carrier's base over the friend it
    dropped), so the window is passed over, as it would have been after trying it all."""
    if not len(bases):
        return False
    near = np.hypot(bases[:, 0] - centre[0], bases[:, 1] - centre[1]) + reach + 0.01
    return bool((near < radius + bases[:, 2] - TOUCH).any())


NEAREST_ROWS = 256
"""Points :func:`nearest` first tests at once, nearest first (then twice as many at a time):
a legal point is usually among the first of a window."""


def _first_legal(terrain: Terrain, pts: np.ndarray, radius: float, others: Sequence[Any],
                 floor: bool, keep: Any) -> np.ndarray | None:
    """The first of ``pts`` that is :func:`legal` and passes ``keep``, or None: tried in
    blocks in order, stopping at the first block that holds one. Whether a point is legal
    (and kept) is its own answer, whatever else is asked with it, so this is the first of
    those the whole array would give."""
    start, size = 0, NEAREST_ROWS
    while start < len(pts):
        block = pts[start:start + size]
        idx = np.flatnonzero(legal(terrain, block, radius, others, floor=floor))
        if len(idx) and keep is not None:
            idx = idx[np.asarray(keep(block[idx]), dtype=bool)]
        if len(idx):
            return block[int(idx[0])]
        start, size = start + size, size * 2
    return None


@dataclass(frozen=True)
class Stop:
    """Where a walk ends when its end may be taken: the point, the walk to it and what stopped
    it going further (None when the whole wanted move was made)."""

    at: tuple[float, float]
    walk: Walk
    blocked_by: str | None
    unpaid: str | None = None  # the movement left could not pay the next surcharge (a climb)


def along(terrain: Terrain, walk: Walk, budget: float, radius: float,
          others: Sequence[Any] = (), *, floor: bool = False,
          stand: Terrain | None = None) -> Stop | None:
    """The farthest legal point along ``walk`` that ``budget`` inches of movement reach (the
    walk's end when it is legal and within the budget), backing off :data:`STEP` at a time, on
    the record's grid; None when no legal point but the start is left. ``blocked_by`` says what
    stands at the first point given up (a base, a feature) when the move was shortened.
    ``stand``: the terrain where the base must stand when it differs from the one the walk
    crosses (a Kill Team 2018 Advance through walls "cannot end the move within the wall")."""
    routes = terrain.routes
    terrain = terrain if stand is None else stand
    start = (float(walk.points[0][0]), float(walk.points[0][1]))
    top = min(float(budget), float(walk.cost))
    n = math.floor(top / STEP + 1e-9)
    moves = [top] + [top - k * STEP for k in range(1, n + 1) if top - k * STEP > 1e-9]
    if not moves or top <= 1e-9:
        return None
    advanced = routes.advance_many(walk, moves)
    ends = [(round(float(p[0]), PLACES), round(float(p[1]), PLACES)) for p, _ in advanced]
    ok = legal(terrain, ends, radius, others, floor=floor)
    hits = np.flatnonzero(ok)
    for i in hits:
        end = ends[int(i)]
        if math.dist(end, start) < 1e-9:
            return None
        part = routes.walk_to(walk, end)
        blocked = None
        if int(i) > 0 or (top < float(walk.cost) - 1e-9 and not ok[0]):
            blocked = why_not(terrain, ends[int(i) - 1] if int(i) > 0 else ends[0], radius,
                              others, floor=floor)
        elif advanced[0][1] < top - 1e-6 and top < float(walk.cost) - 1e-9:
            # it stopped before a surcharge: said, but nothing stands in its way
            return Stop(end, part, None, _unpaid(terrain, walk, end, radius))
        return Stop(end, part, blocked)
    return None


def _unpaid(terrain: Terrain, walk: Walk, end: tuple[float, float], radius: float) -> str:
    """Why a walk stopped at ``end`` with movement left (:meth:`Routes.advance`: the next
    surcharge costs more than is left): the climb, crossing or razor wire just ahead."""
    from shapely.geometry import LineString, Point

    line = LineString(walk.points)
    ahead = line.interpolate(min(line.length, line.project(Point(end)) + 0.25))
    found = _surcharged_near(terrain, ahead, radius)
    what = found[0] if found else "the terrain ahead"
    return f"{what} costs more than the movement left"


GRAZE = 0.01
"""Inches a walk may graze another base without walking through it (:func:`first_contact`):
a walk round a base follows its many-sided disc, a hair inside the circle."""


def first_contact(terrain: Terrain, walk: Walk, budget: float, radius: float,
                  others: Sequence[Any]) -> float | None:
    """How far along ``walk`` (within ``budget`` inches, tried every :data:`STEP`) a base of
    ``radius`` first runs into one of ``others`` by more than :data:`GRAZE`, or None when it
    passes them all: a base is never walked through, however free the end is."""
    top = min(float(budget), float(walk.cost))
    if not others or top <= 0:
        return None
    arr = np.asarray(discs(list(others)), dtype=float)
    if math.isfinite(top) and not may_touch(walk, top, radius, arr):
        return None
    steps = [k * STEP for k in range(1, math.floor(top / STEP + 1e-9) + 1)] or [top]
    pts = np.array([p for p, _ in terrain.routes.advance_many(walk, steps)], dtype=float)
    gap = (np.hypot(pts[:, None, 0] - arr[None, :, 0], pts[:, None, 1] - arr[None, :, 1])
           - radius - arr[None, :, 2])
    hit = np.flatnonzero((gap < -GRAZE).any(axis=1))
    return None if not len(hit) else steps[int(hit[0])]


def may_touch(walk: Walk, top: float, radius: float, arr: np.ndarray) -> bool:
    """Whether a base of ``radius`` walking the first ``top`` inches of movement of ``walk``
    could come within :data:`GRAZE` of overlapping one of the discs ``arr`` ``(n, 3)``:
    :func:`first_contact`'s prefilter, False only when none can (then every point it would try
    is clear of them all, and its answer is None).

    Every point :meth:`Routes.advance` gives for a move of at most ``top`` lies on a leg of the
    walk that starts less than ``top`` along it (the start; a point at most the move along the
    walk, every surcharge being positive; the end, when the walk is no longer than the move,
    and then every leg is taken). A disc farther from all those legs than the two radii and
    :data:`GRAZE` is clear of each such point by far more than any rounding (a hit needs less
    than the radii *less* GRAZE): the discs outside the legs' box grown by that much are
    passed over at once, the others measured to each leg. Anything not finite proves
    nothing (True)."""
    upto = top + 1e-6 if float(walk.length) > top else math.inf
    legs: list[tuple[float, float, float, float]] = []
    gone = 0.0
    prev: tuple[float, float] | None = None
    for q in walk.points:
        x, y = float(q[0]), float(q[1])
        if prev is not None:
            if gone > upto:
                break
            legs.append((prev[0], prev[1], x, y))
            gone += math.hypot(x - prev[0], y - prev[1])
        if not math.isfinite(x + y + gone):
            return True
        prev = (x, y)
    if prev is None:
        return True
    if not legs:
        legs.append((prev[0], prev[1], prev[0], prev[1]))
    lox = min(min(g[0], g[2]) for g in legs)
    hix = max(max(g[0], g[2]) for g in legs)
    loy = min(min(g[1], g[3]) for g in legs)
    hiy = max(max(g[1], g[3]) for g in legs)
    grown = radius + arr[:, 2] + GRAZE
    far = ((arr[:, 0] < lox - grown) | (arr[:, 0] > hix + grown)
           | (arr[:, 1] < loy - grown) | (arr[:, 1] > hiy + grown))
    for k in np.flatnonzero(~far).tolist():
        cx, cy, reach = float(arr[k, 0]), float(arr[k, 1]), float(grown[k])
        for ax, ay, bx, by in legs:
            if not _leg_gap(cx, cy, ax, ay, bx, by) > reach:
                return True
    return False


def _leg_gap(cx: float, cy: float, ax: float, ay: float, bx: float, by: float) -> float:
    """The distance from ``(cx, cy)`` to the segment from ``(ax, ay)`` to ``(bx, by)``."""
    dx, dy = bx - ax, by - ay
    len2 = dx * dx + dy * dy
    t = 0.0 if len2 == 0 else min(1.0, max(0.0, ((cx - ax) * dx + (cy - ay) * dy) / len2))
    return math.hypot(cx - ax - t * dx, cy - ay - t * dy)


def first_in_the_way(terrain: Terrain, walk: Walk, budget: float, radius: float,
                     others: Sequence[Any]) -> Base | None:
    """The first of ``others`` (labelled bases) that a base walking ``walk`` would run into
    within ``budget`` inches of it (tried every :data:`STEP`), or None: what blocks a model
    whose way, around the walls alone, runs through other models."""
    top = min(float(budget), float(walk.cost))
    b = [x for x in others]
    if not b or top <= 0:
        return None
    steps = [k * STEP for k in range(1, math.floor(top / STEP + 1e-9) + 1)] or [top]
    pts = np.array([p for p, _ in terrain.routes.advance_many(walk, steps)], dtype=float)
    arr = np.asarray(discs(b), dtype=float)
    gap = (np.hypot(pts[:, None, 0] - arr[None, :, 0], pts[:, None, 1] - arr[None, :, 1])
           - radius - arr[None, :, 2])
    hit = np.flatnonzero((gap < -TOUCH).any(axis=1))
    if not len(hit):
        return None
    k = int(np.argmin(gap[int(hit[0])]))
    x = b[k]
    return Base(float(x[0]), float(x[1]), float(x[2]), str(x[3]) if len(x) > 3 else "",
                str(x[4]) if len(x) > 4 else "")


DETOUR_SHOWN = 0.05
"""A move's cost must exceed the straight line by this much (inches) for :func:`detour` to
say why: less is lost in the tenth the players read."""


def detour(terrain: Terrain, points: Sequence[Any], radius: float,
           others: Sequence[Any] = ()) -> str | None:
    """Why a move along ``points`` costs more than the straight line between its ends, in a
    few words for the players (``around crate-2``, ``around Sgt Kell's base``, ``climbing onto
    gantry-1``, ``crossing hatch-10`` for an open hatchway's 1", ``through the 1" of
    razor-3``), or None when it does not (by :data:`DETOUR_SHOWN`). What the bends go round
    is the feature or base nearest each bend; what a straight route pays extra for is each
    surcharged feature it enters."""
    from shapely.geometry import LineString

    pts = [(float(p[0]), float(p[1])) for p in points]
    if len(pts) < 2:
        return None
    walk = terrain.routes.walk_through(pts, radius)
    if walk.cost - math.dist(pts[0], pts[-1]) < DETOUR_SHOWN:
        return None
    words: list[str] = []
    for p in pts[1:-1]:
        name = _round_what(terrain, p, radius, others)
        if name not in words:
            words.append(name)
    out = []
    if words:
        out.append("around " + " and ".join(words[:3]))
    if walk.cost - walk.length >= DETOUR_SHOWN:
        extra = _surcharged_near(terrain, LineString(pts), radius)
        out.append(" and ".join(extra[:3]) if extra else "through terrain")
    return ", ".join(out) if out else None


def _surcharged_near(terrain: Terrain, shape: Any, radius: float) -> list[str]:
    """The surcharged features a base of ``radius`` along ``shape`` (a route, a point) pays
    for, in words: ``through the 1" of razor-3``, ``climbing onto gantry-1``, ``crossing
    hatch-10`` (an open hatchway's 1")."""
    out = []
    for f in terrain.board.features:
        t = f.effective_traits
        if not t & {"accessible", "vantage", "obstructing"}:
            continue
        reach = 1.0 + radius if "obstructing" in t else 0.0
        if shape.distance(f.shape) <= reach + 1e-9:
            verb = ("through the 1\" of " if "obstructing" in t else
                    "climbing onto " if f.height else "crossing ")
            out.append(verb + f.id)
    return out


def _round_what(terrain: Terrain, p: tuple[float, float], radius: float,
                others: Sequence[Any]) -> str:
    """The feature or base a route's bend at ``p`` goes round: the nearest of them."""
    ids, shapes = terrain.obstacle_features
    best: tuple[float, str] = (math.inf, "the walls")
    if len(ids):
        gaps = shapely.distance(shapes, shapely.points(p[0], p[1])) - radius
        k = int(np.argmin(gaps))
        best = (float(gaps[k]), ids[k])
    for b in others:
        gap = math.hypot(p[0] - float(b[0]), p[1] - float(b[1])) - radius - float(b[2])
        label = b[3] if len(b) > 3 and b[3] else "another model"
        name = label if label.endswith("control range") else f"{label}'s base"
        if gap < best[0]:
            best = (gap, name)
    return best[1] if best[0] < 0.25 else "the walls"


def overlaps(bases: Sequence[Any], tolerance: float = OVERLAP_TOLERANCE
             ) -> list[tuple[str, str, float]]:
    """Every pair of ``bases`` (:class:`Base`) that overlap by more than ``tolerance``:
    ``(label, label, depth)``, in the order given."""
    b = list(bases)
    if len(b) < 2:
        return []
    arr = np.asarray(discs(b), dtype=float)
    d = np.hypot(arr[:, None, 0] - arr[None, :, 0], arr[:, None, 1] - arr[None, :, 1])
    depth = arr[:, None, 2] + arr[None, :, 2] - d
    i, j = np.nonzero(np.triu(depth > tolerance, 1))
    return [(str(b[p][3]), str(b[q][3]), float(depth[p, q]))
            for p, q in zip(i.tolist(), j.tolist(), strict=True)]


def in_terrain(terrain: Terrain, bases: Sequence[Any], *, floor: bool = False) -> list[str]:
    """The labels of ``bases`` that stand off the board or in terrain no base can stand in."""
    out = []
    for b in bases:
        if not legal(terrain, [(b[0], b[1])], float(b[2]), (), floor=floor)[0]:
            out.append(str(b[3]))
    return out
