"""The one object the rest of solo-ops asks geometry questions: :class:`Terrain`.

It bundles the compiled sight queries (:class:`~solo_ops.geometry.sight.query.Sight`), the distance
and walking queries (:class:`~solo_ops.geometry.routes.query.Routes`) and the searches that combine
them (:mod:`solo_ops.geometry.search`) for one board in one door state. Building one compiles
prepared geometry and graphs, so callers keep it: :class:`TerrainCache` hands out one per door
state of a board.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from solo_ops.geometry.board import Board

if TYPE_CHECKING:
    from solo_ops.geometry.sight import Sight

SOLID_TRAITS = frozenset({"heavy", "light", "blocking", "wall", "pitfall"})
"""Traits that make a polygon feature ground no base may stand on (:attr:`Terrain.solids`)."""


def library_facts() -> tuple[bool, bool]:
    """Find now (once per process) what the geometry needs to know about the GEOS library in
    use: whether a base's polygon (:func:`~solo_ops.geometry.routes.discs.fast_discs`) and a
    circle's ring (:func:`~solo_ops.geometry.sight.circles.fast_rings`) may come from the
    table of cosines instead of being buffered. Each is a check on a few hundred discs, with
    shapely's first buffering in the process, about 15 ms of CPU together; a game asks it when
    it is made (:func:`solo_ops.game.engine.new_game`), so that the enemy's first turn at the
    table does not pause for it. The answers are the same whenever they are found."""
    from solo_ops.geometry.routes.discs import fast_discs
    from solo_ops.geometry.sight.circles import fast_rings

    return fast_discs(), fast_rings()


class Terrain:
    """Sight and routes for one board (one state of its doors and hatches)."""

    def __init__(self, board: Board) -> None:
        from solo_ops.geometry.routes import Routes

        self.board = board
        self.routes = Routes(board)
        self._floor: dict[tuple[float, float], np.ndarray] = {}
        self.spotting: dict[Any, tuple[tuple[int, int], ...]] = {}
        """Answers of :func:`solo_ops.game.spotting.spotters` on this terrain, keyed by their exact
        inputs (the player models' ids, positions and radii, the counters' positions): who
        spots what depends on nothing else. Bounded (cleared when full)."""
        self.planner_answers: dict[tuple[Any, ...], Any] = {}
        """The enemy planner's answers to its repeated point questions on this terrain
        (:func:`solo_ops.ai.context.answer_memo`). Bounded (replaced when full)."""
        self.hidden_answers: dict[tuple[Any, ...], np.ndarray] = {}
        """Answers of :func:`solo_ops.game.fog.hidden_points` on this terrain before the bases
        and counters are taken out (the points of a region no observer sees), keyed by their
        exact inputs. Bounded (cleared when full)."""
        self.walk_answers: dict[tuple[Any, ...], Any] = {}
        """Answers of :func:`solo_ops.game.placing.walk_along` and
        :func:`solo_ops.game.placing.first_contact` on this terrain (a planned move's walk and
        where a base first runs into another on it), keyed by their exact inputs. Bounded
        (cleared when full)."""
        self.place_answers: dict[tuple[Any, ...], tuple[str, ...]] = {}
        """Answers of :func:`solo_ops.game.pariah.near_ids` on this terrain (which places a
        base stands within or over), keyed by their exact inputs: the base's centre and
        radius, the place and the ids it is limited to. Bounded (cleared when full)."""

    @cached_property
    def sight(self) -> Sight:
        """The compiled sight queries of this door state, built at the first question: a
        terrain asked only for routes (the planner's open-doors terrain, which asks where a
        route would go with every door open) never builds them."""
        from solo_ops.geometry.sight import Sight

        return Sight(self.board)

    @cached_property
    def solids(self) -> BaseGeometry | None:
        """The union of the footprints of the solid polygon features as they stand in this
        door state (heavy, light, blocking, wall or pitfall: where no base may stand), or
        None when there are none. Built once per terrain (the fog of war asks it often)."""
        solid = [f.shape for f in self.board.features
                 if not f.is_line and f.effective_traits & SOLID_TRAITS]
        return shapely.union_all(solid) if solid else None

    @cached_property
    def obstacle_features(self) -> tuple[list[str], np.ndarray]:
        """The ids and shapes of the features a route goes round in this door state (walls,
        closed doors and hatches, pitfalls, heavy, blocking and hazardous terrain), for saying
        what a move's bends go round (:func:`solo_ops.geometry.placement.detour`)."""
        keep = [f for f in self.board.features
                if f.blocks_movement or f.effective_traits & {"heavy", "blocking", "hazardous"}]
        return [f.id for f in keep], np.array([f.shape for f in keep], dtype=object)

    @cached_property
    def _sight_and_measure(self) -> BaseGeometry:
        """The walls, closed doors and hatches and ``blocking`` features as they stand in this
        door state (what stops sight, and with it what distances go round), prepared."""
        from solo_ops.geometry import shapes

        geom = shapes.sight_blockers(self.board)
        shapely.prepare(geom)
        return geom

    def open_around(self, at: tuple[float, float], distance: float) -> bool:
        """Whether nothing that stops sight or measuring (walls, closed doors and hatches,
        ``blocking`` features) comes within ``distance`` of ``at``: then every point that near
        is seen from ``at`` and measured to it in a straight line (a disc around a model that
        no wall cuts)."""
        geom = self._sight_and_measure
        if geom.is_empty:
            return True
        return not bool(shapely.dwithin(shapely.Point(float(at[0]), float(at[1])), geom,
                                        float(distance)))

    @cached_property
    def solid_boxes(self) -> np.ndarray:
        """(n, 4) the bounding boxes (minx, miny, maxx, maxy) of the parts of :attr:`solids`."""
        if self.solids is None:
            return np.zeros((0, 4))
        return cast(np.ndarray, shapely.bounds(shapely.get_parts(self.solids)).reshape(-1, 4))

    def off_solids(self, pts: np.ndarray, radius: float) -> np.ndarray:
        """The points of ``pts`` where a base of ``radius`` overlaps no part of
        :attr:`solids` (its distance from them is at least ``radius``, less 1e-9)."""
        pts = np.asarray(pts, dtype=float).reshape(-1, 2)
        return pts[self.solid_free(pts, radius)]

    def solid_free(self, pts: np.ndarray, radius: float) -> np.ndarray:
        """(n,) whether a base of ``radius`` at each point overlaps no part of :attr:`solids`
        (the mask :meth:`off_solids` keeps)."""
        pts = np.asarray(pts, dtype=float).reshape(-1, 2)
        solids = self.solids
        if solids is None or len(pts) == 0:
            return np.ones(len(pts), dtype=bool)
        # A point whose distance from every part's box is at least the radius is that far
        # from the parts themselves: only the others need the exact distance.
        box = self.solid_boxes
        gx = np.maximum(np.maximum(box[:, 0] - pts[:, 0:1], pts[:, 0:1] - box[:, 2]), 0.0)
        gy = np.maximum(np.maximum(box[:, 1] - pts[:, 1:2], pts[:, 1:2] - box[:, 3]), 0.0)
        ask = np.flatnonzero((np.hypot(gx, gy) < radius).any(axis=1))
        keep = np.ones(len(pts), dtype=bool)
        if len(ask):
            gap = shapely.distance(shapely.points(pts[ask]), solids)
            keep[ask] = np.asarray(gap) >= radius - 1e-9
        return keep

    def floor_points(self, radius: float, spacing: float) -> np.ndarray:
        """The points of a ``spacing`` grid over the whole board where a base of ``radius``
        fits (:meth:`Routes.free_points`) and overlaps no solid feature (:meth:`off_solids`),
        remembered per ``(radius, spacing)`` (a few per game) and read-only."""
        key = (float(radius), float(spacing))
        found = self._floor.get(key)
        if found is None:
            found = self.off_solids(self.routes.free_points(None, radius, spacing), radius)
            found.setflags(write=False)
            self._floor[key] = found
        return found


SHARED_BOARDS = 8
"""How many boards' terrain caches :meth:`TerrainCache.shared` keeps in each thread (the
least recently asked is let go first)."""
_SHARED = threading.local()
TERRAINS_KEPT = 48
"""Most terrains (door states and feature changes) one :class:`TerrainCache` keeps; then it
starts afresh. A shared cache outlives the games that filled it (a served campaign's missions on
one board), and each game reaches other door states (a Gallowdark game opens a few of its 12
portals: a dozen states, each light terrain about 165 KB)."""


class TerrainCache:
    """One :class:`Terrain` per door state of a base board, built on first use.

    :meth:`shared` gives every game made on the same board in one thread the same cache (a
    test run, a served table's replays, a campaign's missions): a terrain never changes and
    its answers never depend on what was asked before, so sharing changes no answer
    (``tests/game/test_shared_terrain.py``), only the time its compiled geometry and its
    remembered answers take to build again."""

    @classmethod
    def shared(cls, board: Board) -> TerrainCache:
        """The cache this thread keeps for boards made like ``board`` (a new one the first
        time). Per thread, so that games made in two threads at once (a test beside the page
        server it started) do not fill one terrain's memos together. A game made in one thread
        and played in another (a served table) still asks its terrain from both, as it did
        when each game had its own: the memos are single dictionary reads and writes, which
        two threads can race to do the same work twice, never to a wrong answer."""
        caches: OrderedDict[tuple[Any, ...], TerrainCache] | None = getattr(
            _SHARED, "caches", None)
        if caches is None:
            caches = _SHARED.caches = OrderedDict()
        key = board.identity
        found = caches.get(key)
        if found is None:
            found = caches[key] = cls(board)
            while len(caches) > SHARED_BOARDS:
                caches.popitem(last=False)
        caches.move_to_end(key)
        return found

    def __init__(self, board: Board) -> None:
        self.board = board
        self._cache: dict[tuple[Any, ...], Terrain] = {}
        # The terrain for each ``doors`` argument met so far (as its sorted items): the engine
        # asks with the game's whole door state thousands of times a mission. Bounded by the
        # door states a game can reach (each portal open or closed), times the few feature
        # changes of a Kill Team 2018 game's effects.
        self._asked: dict[tuple[Any, ...], Terrain] = {}

    def get(self, doors: Mapping[str, bool] | None = None,
            changes: frozenset[tuple[str, str]] = frozenset()) -> Terrain:
        """The terrain of the board with ``doors`` opened or closed and, for a while,
        ``changes`` made to its features (:meth:`Board.with_changes`)."""
        asked = (tuple(sorted(doors.items())) if doors else (), changes)
        terrain = self._asked.get(asked)
        if terrain is None:
            if len(self._cache) >= TERRAINS_KEPT:  # (a shared cache outlives its games)
                self._cache.clear()
                self._asked.clear()
            terrain = self._asked[asked] = self._build(doors, changes)
        return terrain

    def _build(self, doors: Mapping[str, bool] | None,
               changes: frozenset[tuple[str, str]] = frozenset()) -> Terrain:
        """:meth:`get` the long way: the board's door state with ``doors`` applied."""
        state = dict(self.board.door_state())
        state.update(doors or {})
        key = (tuple(sorted(state.items())), changes)
        terrain = self._cache.get(key)
        if terrain is None:
            opened = {k: v for k, v in state.items() if self.board.feature(k).open != v}
            terrain = Terrain(self.board.with_open(opened).with_changes(sorted(changes)))
            self._cache[key] = terrain
        return terrain
