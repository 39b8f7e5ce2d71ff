"""A slow, obviously-correct geometry used as an independent oracle in tests.

It answers the same questions as :class:`solo_ops.geometry.sight.Sight` and
:class:`solo_ops.geometry.routes.Routes` with the plainest possible method — shapely
predicates one segment at a time, a visibility graph of the obstacles' corners (built once
per set of obstacles) with each query's ends joined to it afresh, dense sampling
of bases — so the fast engine can be checked against it, and so the game loop can be tested
on boards small enough for it.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from typing import Any

import networkx as nx
import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from solo_ops.geometry import shapes
from solo_ops.geometry.board import Board

EPS = 1e-7
SAMPLES = 24


def _eroded(geom: Any) -> Any:
    return geom.buffer(-EPS) if not geom.is_empty else geom


def _disc_points(c: tuple[float, float], r: float, n: int = SAMPLES) -> list[tuple[float, float]]:
    if r <= 0:
        return [tuple(c)]  # type: ignore[list-item]
    pts = [tuple(c)]
    for k in range(n):
        a = 2 * math.pi * k / n
        pts.append((c[0] + r * math.cos(a) * (1 - 1e-6), c[1] + r * math.sin(a) * (1 - 1e-6)))
    return pts  # type: ignore[return-value]


@dataclass
class CoverResult:
    visible: bool
    in_cover: bool
    obscured: bool
    valid_target: bool = True


@dataclass
class CoverMatrix:
    visible: np.ndarray
    in_cover: np.ndarray
    obscured: np.ndarray


class OracleSight:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.block = _eroded(shapes.sight_blockers(board))
        self.cover_feats = [f for f in board.features if f.gives_cover]
        self.heavy = [f for f in board.features if f.obscures]
        # each feature's area shrunk by EPS, the same shape at every question
        self._solid = {id(f): _eroded(f.shape if not f.is_line else shapes.feature_area(f))
                       for f in board.features}

    def clear(self, p: Any, q: Any) -> np.ndarray:
        p, q = np.atleast_2d(p), np.atleast_2d(q)
        return np.array([not self.block.intersects(LineString([a, b])) if tuple(a) != tuple(b)
                         else not self.block.contains(Point(a)) for a, b in zip(p, q,
                                                                                 strict=True)])

    def stood_on(self, a: Any, b: Any) -> OracleSight:
        """The oracle for the pair at ``a`` and ``b``: without the features either centre is up
        on (inside, not on the outline, of a footprint with ``vantage`` and a height that
        blocks, obscures or gives cover: the terrain a model stands on does not hide it), else
        this one."""
        under = [f for f in self.board.features
                 if not f.is_line and f.height and "vantage" in f.effective_traits
                 and f.effective_traits & {"blocking", "heavy", "light"}
                 and (f.shape.buffer(-1e-7).contains(Point(a))
                      or f.shape.buffer(-1e-7).contains(Point(b)))]
        if not under:
            return self
        gone = [id(f) for f in under]
        return OracleSight(replace(self.board, features=tuple(
            f for f in self.board.features if id(f) not in gone)))

    def visible(self, a: Any, b: Any, ra: float = 0.0, rb: float = 0.0) -> bool:
        pair = self.stood_on(a, b)
        if pair is not self:
            return pair.visible(a, b, ra, rb)
        for p in _disc_points(a, ra):
            for q in _disc_points(b, rb):
                if self.clear(np.array([p]), np.array([q]))[0]:
                    return True
        return False

    def visibility_matrix(self, A: Any, ra: Any, B: Any, rb: Any) -> np.ndarray:
        A, B = np.atleast_2d(A), np.atleast_2d(B)
        ra = np.broadcast_to(np.asarray(ra, float), (len(A),))
        rb = np.broadcast_to(np.asarray(rb, float), (len(B),))
        return np.array([[self.visible(a, b, x, y) for b, y in zip(B, rb, strict=True)]
                         for a, x in zip(A, ra, strict=True)], dtype=bool)

    def cover(self, attacker: Any, target: Any, ra: float = 0.0, rb: float = 0.0, *,
              seek: bool = False, seek_light: bool = False, edition: str = "kt2024") -> Any:
        """The terrain's cover (:meth:`_terrain_cover`), and Kill Team 2024 Vantage's: a target
        standing more than 2" higher than the shooter, more than 2" away, is in cover (no
        Seek)."""
        found = self._terrain_cover(attacker, target, ra, rb, seek=seek, seek_light=seek_light,
                                    edition=edition)
        if (edition == "kt2024" and not seek and found.visible and not found.in_cover
                and math.dist(attacker, target) - ra - rb > 2.0
                and self.height(target) - self.height(attacker) > 2.0):
            return CoverResult(True, True, found.obscured, True)
        return found

    def height(self, at: Any) -> float:
        """How high a centre at ``at`` stands: the highest polygon ``vantage`` feature with a
        height whose footprint holds it by more than 1e-7" (0 on the floor)."""
        return max((float(f.height) for f in self.board.features
                    if not f.is_line and f.height and "vantage" in f.effective_traits
                    and f.shape.buffer(-1e-7).contains(Point(at))), default=0.0)

    def _terrain_cover(self, attacker: Any, target: Any, ra: float = 0.0, rb: float = 0.0, *,
                       seek: bool = False, seek_light: bool = False,
                       edition: str = "kt2024") -> Any:
        pair = self.stood_on(attacker, target)
        if pair is not self:
            return pair._terrain_cover(attacker, target, ra, rb, seek=seek,
                                       seek_light=seek_light, edition=edition)
        if not self.visible(attacker, target, ra, rb):
            return CoverResult(False, False, False, False)
        tdisc = Point(target).buffer(max(rb, 1e-6), 32)
        near_t = Point(target).buffer(rb + 1.0, 32)
        near_a = Point(attacker).buffer(ra + 1.0, 32)
        gap = math.dist(attacker, target) - ra - rb
        best = None
        for p in _disc_points(attacker, ra, 16):
            hull = unary_union([Point(p), tdisc]).convex_hull
            obscured = any(
                not (self._solid[id(f)]
                     .intersection(hull).difference(near_t).difference(near_a)).is_empty
                for f in self.heavy)
            in_cover = gap > 2.0 and not seek and any(
                not (self._solid[id(f)]
                     .intersection(hull).intersection(near_t).difference(tdisc)).is_empty
                for f in self.cover_feats if not (seek_light and f.is_light_only))
            key = (obscured, in_cover)
            if best is None or key < best:
                best = key
        assert best is not None
        return CoverResult(True, best[1], best[0], True)

    def cover_matrix(self, A: Any, ra: Any, B: Any, rb: Any, *, edition: str = "kt2024") -> Any:
        A, B = np.atleast_2d(A), np.atleast_2d(B)
        ra = np.broadcast_to(np.asarray(ra, float), (len(A),))
        rb = np.broadcast_to(np.asarray(rb, float), (len(B),))
        vis = np.zeros((len(A), len(B)), bool)
        cov = np.zeros_like(vis)
        obs = np.zeros_like(vis)
        for i, (a, x) in enumerate(zip(A, ra, strict=True)):
            for j, (b, y) in enumerate(zip(B, rb, strict=True)):
                r = self.cover(tuple(a), tuple(b), x, y, edition=edition)
                vis[i, j], cov[i, j], obs[i, j] = r.visible, r.in_cover, r.obscured
        return CoverMatrix(vis, cov, obs)


@dataclass(frozen=True)
class Route:
    distance: float | None
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Walk:
    points: tuple[tuple[float, float], ...]
    length: float
    cost: float


@dataclass
class Reach:
    points: np.ndarray
    cost: np.ndarray
    walks: list[Walk]

    def path(self, i: int) -> Walk:
        return self.walks[i]


_STATIC_KEPT = 32
"""How many obstacle sets' visibility graphs :func:`_static_graph` keeps."""

_static: dict[tuple[bytes, bytes], tuple[Any, Any, list[tuple[float, float]], nx.Graph]] = {}


def _static_graph(obstacle: Any, free: Polygon
                  ) -> tuple[Any, Any, list[tuple[float, float]], nx.Graph]:
    """The obstacles' part of the visibility graph, which every query on them shares: (the
    eroded obstacles, the free area grown by EPS, the corners, the graph among the corners,
    nodes numbered from 2 as in :func:`_shortest`), built once per set of obstacles."""
    key = (obstacle.wkb, free.wkb)
    got = _static.get(key)
    if got is not None:
        return got
    block = _eroded(obstacle) if not obstacle.is_empty else obstacle
    inner = free.buffer(EPS)
    nodes: list[tuple[float, float]] = []
    polys = shapes.polygons_of(obstacle) if not obstacle.is_empty else []
    for poly in polys:
        for ring in [poly.exterior, *poly.interiors]:
            for x, y in list(ring.coords)[:-1]:
                nodes.append((x, y))
    for x, y in list(free.exterior.coords)[:-1]:
        nodes.append((x, y))
    g = nx.Graph()
    g.add_nodes_from(range(2, len(nodes) + 2))
    for i, p in enumerate(nodes):
        for j in range(i + 1, len(nodes)):
            _link(g, block, inner, i + 2, p, j + 2, nodes[j])
    if len(_static) >= _STATIC_KEPT:
        _static.clear()
    got = _static[key] = (block, inner, nodes, g)
    return got


def _link(g: nx.Graph, block: Any, inner: Any, i: int, p: tuple[float, float], j: int,
          q: tuple[float, float]) -> None:
    """Join nodes ``i`` at ``p`` and ``j`` at ``q`` when the segment between them keeps out of
    the obstacles and inside the free area (the same point: joined at no cost)."""
    if p == q:
        g.add_edge(i, j, weight=0.0)
        return
    seg = LineString([p, q])
    if (block.is_empty or not block.intersects(seg)) and inner.covers(seg):
        g.add_edge(i, j, weight=math.dist(p, q))


def _shortest(obstacle: Any, free: Polygon, a: tuple[float, float], b: tuple[float, float]
              ) -> tuple[float, list[tuple[float, float]]] | None:
    """Shortest path from a to b inside ``free`` avoiding ``obstacle`` (visibility graph: the
    obstacles' corners joined once, a and b joined to them and to each other, segment by
    segment, at every query)."""
    block, inner, corners, static = _static_graph(obstacle, free)
    nodes = [tuple(a), tuple(b), *corners]
    g = static.copy()
    for i in (0, 1):
        for j in range(i + 1, len(nodes)):
            _link(g, block, inner, i, nodes[i], j, nodes[j])
    try:
        length, path = nx.single_source_dijkstra(g, 0, 1, weight="weight")
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None
    return float(length), [nodes[k] for k in path]


class OracleRoutes:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.frame = box(0, 0, board.width, board.depth)

    def distance(self, a: Any, b: Any, ra: float = 0.0, rb: float = 0.0) -> Route:
        res = _shortest(shapes.measuring_blockers(self.board), self.frame, tuple(a), tuple(b))
        if res is None:
            return Route(None, ())
        return Route(max(0.0, res[0] - ra - rb), tuple(res[1]))

    def distances(self, a: Any, ra: float, B: Any, rb: Any) -> np.ndarray:
        B = np.atleast_2d(B)
        rb = np.broadcast_to(np.asarray(rb, float), (len(B),))
        out = []
        for b, r in zip(B, rb, strict=True):
            d = self.distance(tuple(a), tuple(b), ra, r).distance
            out.append(math.inf if d is None else d)
        return np.array(out)

    def distance_matrix(self, A: Any, ra: Any, B: Any, rb: Any) -> np.ndarray:
        A = np.atleast_2d(A)
        ra = np.broadcast_to(np.asarray(ra, float), (len(A),))
        return np.array([self.distances(tuple(a), x, B, rb) for a, x in zip(A, ra, strict=True)])

    def _walk_obstacle(self, radius: float, blockers: Any) -> Any:
        """What a base of ``radius`` cannot walk into, the bases ``blockers`` included (the
        same shapes for the same arguments: kept per instance)."""
        key = (float(radius), tuple(tuple(float(v) for v in b) for b in blockers))
        memo = self.__dict__.setdefault("_obstacles", {})
        if key not in memo:
            memo[key] = self._walk_obstacle_afresh(radius, blockers)
        return memo[key]

    def _walk_obstacle_afresh(self, radius: float, blockers: Any) -> Any:
        parts = [shapes.movement_blockers(self.board)]
        haz = [f.shape for f in self.board.features if "hazardous" in f.effective_traits]
        solid = [shapes.feature_area(f) for f in self.board.features
                 if (f.effective_traits & {"heavy", "blocking"}) and not (
                     f.effective_traits & {"accessible", "vantage", "wall"}) and not f.is_line]
        parts += haz + solid
        geom = unary_union([p for p in parts if not p.is_empty]) if any(
            not p.is_empty for p in parts) else shapely.GeometryCollection()
        grown = geom.buffer(radius, 8) if not geom.is_empty else geom
        discs = [Point(x, y).buffer(r + radius, 8) for x, y, r in blockers]
        if discs:
            grown = unary_union([grown, *discs]) if not grown.is_empty else unary_union(discs)
        return grown

    def fits(self, point: Any, radius: float, *, blockers: Any = ()) -> bool:
        x, y = point
        if not self.board.on_board(x, y, radius):
            return False
        obst = self._walk_obstacle(radius, blockers)
        return obst.is_empty or not _eroded(obst).contains(Point(x, y))

    def fits_many(self, points: Any, radius: float, *, blockers: Any = ()) -> np.ndarray:
        return np.array([self.fits(tuple(p), radius, blockers=blockers)
                         for p in np.atleast_2d(points)])

    def free_points(self, region: Any, radius: float, spacing: float = 1.0) -> np.ndarray:
        area = self.frame if region is None else region
        minx, miny, maxx, maxy = area.bounds
        xs = np.arange(math.floor(minx / spacing) * spacing + spacing / 2, maxx, spacing)
        ys = np.arange(math.floor(miny / spacing) * spacing + spacing / 2, maxy, spacing)
        pts = [(x, y) for x in xs for y in ys if area.contains(Point(x, y))]
        return np.array([p for p in pts if self.fits(p, radius)] or np.zeros((0, 2)))

    def walk(self, start: Any, goal: Any, radius: float, *, blockers: Any = ()) -> Walk | None:
        obst = self._walk_obstacle(radius, blockers)
        free = box(radius, radius, self.board.width - radius, self.board.depth - radius)
        res = _shortest(obst, free, tuple(start), tuple(goal))
        if res is None:
            return None
        return Walk(tuple(res[1]), res[0], res[0])

    def advance(self, walk: Walk, move: float) -> tuple[tuple[float, float], float]:
        left = move
        pts = walk.points
        for a, b in itertools.pairwise(pts):
            d = math.dist(a, b)
            if d >= left:
                t = left / d if d else 0.0
                return ((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t), move)
            left -= d
        return (pts[-1], move - left)

    def reachable(self, start: Any, radius: float, move: float, *, blockers: Any = (),
                  spacing: float = 0.5) -> Reach:
        spacing = max(spacing, 1.0)
        pts = [tuple(start)]
        costs = [0.0]
        walks = [Walk((tuple(start),), 0.0, 0.0)]
        for dx in np.arange(-move, move + 1e-9, spacing):
            for dy in np.arange(-move, move + 1e-9, spacing):
                if (dx, dy) == (0, 0) or math.hypot(dx, dy) > move:
                    continue
                p = (start[0] + dx, start[1] + dy)
                if not self.fits(p, radius, blockers=blockers):
                    continue
                w = self.walk(start, p, radius, blockers=blockers)
                if w is None or w.cost > move + 1e-9:
                    continue
                pts.append(p)
                costs.append(w.cost)
                walks.append(w)
        return Reach(np.array(pts, float), np.array(costs, float), walks)


class OracleTerrain:
    """Drop-in for :class:`solo_ops.geometry.terrain.Terrain` built on the oracle."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.sight = OracleSight(board)
        self.routes = OracleRoutes(board)


def obscured_2018(board: Board, a: tuple[float, float], ra: float, b: tuple[float, float],
                  rb: float, others: tuple[tuple[float, float, float], ...] = (),
                  samples: int = 200, sides: int = 64) -> bool:
    """Kill Team 2018's obscured the plain way (004 "even partially obscured from the best
    point of view of the firing model"): ``samples`` points spread over the firer's base (its
    centre, rings out to its edge) are each tried as the point of view, and one sees all of
    the target's base when the hull of the point and the target's base (a 256-gon about it)
    meets none of the obscuring shapes (every feature that gives cover, each shrunk by
    :data:`EPS`, and the ``others`` bases). Obscured when none does. Sampling can miss a clear
    region thinner than its spacing: compare only where the answer is robust."""
    shapes_ = [_eroded(shapes.feature_area(f)) for f in board.features if f.gives_cover]
    shapes_ += [Point(x, y).buffer(max(0.0, r - EPS), 64) for x, y, r in others]
    blocker = unary_union([s for s in shapes_ if not s.is_empty])
    if blocker.is_empty:
        return False
    shapely.prepare(blocker)
    k = np.arange(sides) * (2 * math.pi / sides)
    scale = rb / math.cos(math.pi / sides)
    ring = np.stack([b[0] + scale * np.cos(k), b[1] + scale * np.sin(k)], axis=1)
    pts = [(a[0], a[1])]
    rings = max(1, int(math.sqrt(samples / 3)))
    for i in range(1, rings + 1):
        rr = ra * (1 - 1e-6) * i / rings
        n = max(6, int(2 * math.pi * i * 3))
        for j in range(n):
            t = 2 * math.pi * j / n
            pts.append((a[0] + rr * math.cos(t), a[1] + rr * math.sin(t)))
    hulls = shapely.convex_hull(shapely.multipoints(
        [np.vstack([[p], ring]) for p in pts]))
    return not bool((~shapely.intersects(hulls, blocker)).any())
