"""Where a relative move can end and the cheapest walk there (:mod:`solo_ops.game.intent`'s
geometry): the points a base could stand "at" a thing named (:func:`goal_groups`: on a marker
or on rings ever further from it, in base contact with a friend or a charge's target, just
outside an enemy's control range, next to a feature, within 1" of an edge), the other bases as
the engine checks the move (:func:`move_blockers`: enemies' control range blocks every move
but a charge and a fall back), the cheapest walk to the first group a base can reach
(:func:`cheapest`), and a Kill Team 2018 charge that cannot reach its target
(:func:`failed_charge_walk`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from solo_ops.game.referents import Referent
from solo_ops.game.state import Operative, State
from solo_ops.geometry import placement
from solo_ops.geometry.placement import Base
from solo_ops.rules import reach

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.geometry.terrain import Terrain


CONTACT_GAP = 0.02
"""Base contact is planned this far apart (inches), so the rounded point never overlaps."""


CONTROL_MARGIN = 0.05
"""A move that must stay out of an enemy's control range stops this much further out."""


RING_STEP = 0.25
"""Candidate points around a model or a feature are this far apart along the ring (inches)."""


def move_blockers(state: State, op: Operative, how: str, target: str | None,
                  engaged: frozenset[str] = frozenset()) -> list[Base]:
    """The other bases as the engine checks the move (every base of the placement rule:
    models standing or downed, counters), labelled for the reasons; enemies' control range
    blocks every move but a charge (towards its target) and a fall back. A 2018 charge keeps
    the inch from every enemy but its target (004 "It cannot move within 1" of an enemy model
    that was not a target of its charge"). The ``engaged`` enemies (:func:`engaged_foes`)
    block with their bases only, as the engine's check of the move reads them."""
    kinds = ("reposition", "dash", "normal", "advance") + (
        ("charge",) if state.edition == "kt2018" else ())
    out = []
    for b, o in _bases_of(state, op):
        extra = 0.0
        if o is not None and o.side != op.side and o.on_table and how in kinds \
                and o.id != target and o.id not in engaged:
            extra = reach.CONTROL_RANGE + CONTROL_MARGIN
        zone = (f"{b.label}'s control range" if state.edition == "kt2024"
                else f"the inch around {b.label}")
        out.append(Base(b.x, b.y, b.r + extra, zone if extra else b.label, b.ident))
    return out


def engaged_foes(game: Game, state: State, op: Operative, how: str) -> frozenset[str]:
    """The enemies of ``op`` whose control range its move ``how`` may pass through: those a
    friendly already holds in control range, for a Kill Team 2024 Reposition, Dash or Charge
    under the ``engaged_control_range`` setting's ``pass`` (001 Reposition "unless they are
    already in Control Range of a friendly"; Charge "IF that enemy Operative is not in Control
    Range of a friendly Operative"; :func:`solo_ops.rules.reach.engaged_enemies`). The one
    answer the players' point moves (``player_moves._route``), their relative moves and the
    page's previews read; the enemy's planner asks the same rule
    (:func:`solo_ops.ai.candidates.candidate_points`)."""
    if how not in ("reposition", "dash", "charge") or not reach.passes_engaged(
            state.edition, game.settings.engaged_control_range):
        return frozenset()
    foes = [o for o in state.operatives.values() if o.side != op.side and o.on_table
            and o.at is not None and not o.down]
    friends = [(o.at[0], o.at[1], o.radius) for o in state.operatives.values()
               if o.side == op.side and o.id != op.id and o.on_table and o.at is not None
               and not o.down]
    if not foes or not friends:
        return frozenset()
    held = reach.engaged_enemies(game.terrain(state), [(o.at[0], o.at[1], o.radius)
                                                       for o in foes if o.at is not None],
                                 friends)
    return frozenset(foes[k].id for k in held)


def _bases_of(state: State, op: Operative) -> list[tuple[Base, Operative | None]]:
    """Every other base (:meth:`State.bases`, but ``op``'s and what it carries) and the model
    it is (None for a counter)."""
    return [(b, state.operatives.get(b.ident))
            for b in state.bases(exclude=(op.id, op.carrying))]


def _ring(centre: Sequence[float], radius: float) -> np.ndarray:
    n = 8 * max(2, math.ceil(2 * math.pi * radius / RING_STEP / 8))  # due N, E, S, W included
    ang = np.arange(n) * (2 * math.pi / n)
    return np.stack([centre[0] + radius * np.cos(ang), centre[1] + radius * np.sin(ang)], axis=1)


def _around(shape: Any, distance: float) -> np.ndarray:
    """Points ``distance`` out from a feature's outline, ``RING_STEP`` apart."""
    outline = shape.buffer(distance, quad_segs=8).exterior
    n = max(8, math.ceil(outline.length / RING_STEP))
    pts = [outline.interpolate(i * outline.length / n) for i in range(n)]
    return np.array([(p.x, p.y) for p in pts])


def goal_groups(ref: Referent, op: Operative, how: str) -> list[np.ndarray]:
    """Where ``op``'s base could stand "at" ``ref``, best group first: on a marker (or on rings
    ever further from it, as near as a base fits); in base contact with a friend (or with the
    target of a charge); just outside an enemy's control range otherwise; next to a feature;
    beside a counter."""
    r = op.radius
    if ref.kind == "objective":
        return [np.array([ref.at]), *(_ring(ref.at, k * RING_STEP) for k in range(1, 9))]
    if ref.kind == "feature":
        return [_around(ref.shape, r + CONTACT_GAP)]
    if ref.kind == "edge":  # within 1" of the edge (ready to evacuate), on the board
        return [_along_edge(ref.shape, r + reach.CONTROL_RANGE - EDGE_MARGIN)]
    if ref.kind == "model" and ref.side != op.side and how != "charge":
        # outside the blocking disc (control range + margin) even after rounding to 0.01"
        return [_ring(ref.at, r + ref.radius + reach.CONTROL_RANGE + 2 * CONTROL_MARGIN)]
    return [_ring(ref.at, r + ref.radius + CONTACT_GAP)]


def charge_rings(ref: Referent, op: Operative) -> list[np.ndarray]:
    """Where a charge at ``ref`` may also end when base contact cannot be had: rings further
    out, every quarter inch, to just inside the inch (001 and 004: a charge ends within its
    target's control range, 1", not necessarily in base contact) -- nearest first."""
    r = op.radius + ref.radius
    out = [r + d for d in (0.25, 0.5, 0.75)]
    return [_ring(ref.at, d) for d in (*out, r + reach.CONTROL_RANGE - 2 * CONTROL_MARGIN)]


EDGE_MARGIN = 0.05
"""``to edge``: the base ends this much inside the 1" from the edge (rounding of points)."""


def _along_edge(shape: Any, inset: float) -> np.ndarray:
    """Points ``inset`` inches in from the edge line(s) ``shape``, :data:`RING_STEP` apart."""
    lines = getattr(shape, "geoms", [shape])
    out = []
    for line in lines:
        (x0, y0), (x1, y1) = line.coords[0], line.coords[-1]
        n = max(2, math.ceil(line.length / RING_STEP))
        t = np.linspace(0.0, 1.0, n + 1)
        xs, ys = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        if x0 == x1:  # a west or east edge: step inwards along x
            xs = xs + (inset if x0 == 0 else -inset)
        else:
            ys = ys + (inset if y0 == 0 else -inset)
        out.append(np.stack([xs, ys], axis=1))
    return np.concatenate(out) if out else np.zeros((0, 2))


def _fits(terrain: Terrain, p: Sequence[float], radius: float, blockers: list[Any]) -> bool:
    """Whether the base may stand at ``p`` (the placement rule) and its walk can end there
    (clear of the move's blockers: enemies' control ranges)."""
    return bool(terrain.routes.fits((float(p[0]), float(p[1])), radius, blockers=blockers)) \
        and placement.clear_of_bases([p], radius, [b for b in blockers])[0]


def _rounded(p: Sequence[float]) -> tuple[float, float]:
    q = reach.round_point(p)
    assert q is not None
    return (float(q[0]), float(q[1]))


def cheapest(terrain: Terrain, start: tuple[float, float], groups: list[np.ndarray],
              radius: float, blockers: list[Any], most: float = math.inf) -> Any:
    """The cheapest walk from ``start`` to a goal of the first group that has one the base can
    reach (see :func:`_cheapest_of`) at a cost of at most ``most``, or None."""
    for goals in groups:
        walk = _cheapest_of(terrain, start, goals, radius, blockers)
        if walk is not None and walk.cost <= most + 1e-6:
            return walk
    return None


def failed_charge_walk(terrain: Terrain, start: tuple[float, float], radius: float,
                        ref: Referent, blockers: list[Base], move: float) -> Any:
    """A 2018 charge that cannot reach its target (004 "the model can move up to its charge
    distance, as long as that move takes it as close as possible to at least one of the
    targets of its charge, and not within 1" of any enemy models"): the walk of at most
    ``move`` to the point (0.5" grid) nearest the target around the walls, clear of the inch
    around every enemy, the target too; None when no point is nearer than the start."""
    clear = [Base(b.x, b.y, b.r + (reach.CONTROL_RANGE + CONTROL_MARGIN
                                   if b.ident == ref.id else 0.0), b.label, b.ident)
             for b in blockers]
    got = terrain.routes.reachable(start, radius, move, blockers=placement.discs(clear))
    if len(got.points) < 2:
        return None
    gaps = terrain.routes.distances(ref.at, ref.radius, got.points, radius)
    best = int(np.argmin(gaps))
    return None if best == 0 or gaps[best] >= gaps[0] - 1e-6 else got.path(best)


def _cheapest_of(terrain: Terrain, start: tuple[float, float], goals: np.ndarray, radius: float,
                 blockers: list[Any]) -> Any:
    """The cheapest walk from ``start`` to any of ``goals`` where the base fits (tried nearest
    first by straight line; the first 48 that fit), or None."""
    order = np.argsort(np.hypot(goals[:, 0] - start[0], goals[:, 1] - start[1]), kind="stable")
    best = None
    tried = 0
    for i in order:
        g = _rounded(goals[i])
        if not _fits(terrain, g, radius, blockers):
            continue
        tried += 1
        walk = terrain.routes.walk(start, g, radius, blockers=blockers)
        if walk is not None and (best is None or walk.cost < best.cost - 1e-9):
            best = walk
        if tried >= 48:
            break
    return best
