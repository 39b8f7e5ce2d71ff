"""The placement rule in play (issue #27): the state's bases and the geometry's rule together.

:mod:`solo_ops.geometry.placement` is the rule on discs; this module applies it to a game:
:func:`placed` (where a planned move really ends when a base now stands on its route),
:func:`move_facts` (the fields every move event carries so the players read one distance and
why it is longer than the straight line), :func:`put_down` (a base put on the table at the
nearest point where it may stand: a dropped friend), :func:`counter_reach` (where a hidden
counter may end its move) and :func:`allowance` (how far an enemy move may go: the budget
:func:`placed` is given). Pure: reads the game, changes only what its caller hands it; the
walks along planned routes and where a base first runs into another on them are remembered by
their exact inputs (:func:`walk_along`, :func:`first_contact`), as a move is asked whether a
base now stands on its way and then placed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from solo_ops.game.state import COUNTER_RADIUS, Counter, Operative, State
from solo_ops.geometry import placement
from solo_ops.rules import reach

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.geometry.routes import Walk
    from solo_ops.geometry.terrain import Terrain


WALKS_KEPT = 512
"""Answers :func:`walk_along` and :func:`first_contact` keep on a terrain (cleared when
full)."""


def _memo(terrain: Terrain) -> dict[tuple[Any, ...], Any]:
    """The terrain's memory of walks and contacts (``Terrain.walk_answers``: it lives and dies
    with the terrain); a stand-in terrain without one gets a fresh dict, no memory."""
    memo: dict[tuple[Any, ...], Any] | None = getattr(terrain, "walk_answers", None)
    if memo is None:
        return {}
    if len(memo) >= WALKS_KEPT:
        memo.clear()
    return memo


def walk_along(terrain: Terrain, route: Any, radius: float) -> Walk:
    """``terrain.routes.walk_through(route, radius)``, remembered on the terrain by its exact
    inputs (the route's points, the radius): a planned move's walk is asked again as it is
    carried out -- whether a base now stands on it
    (:func:`solo_ops.game.enemy_checks.route_blocked`), then where it ends (:func:`placed`),
    and a Kill Team 2024 charge's once more when it is made. The same walk is handed back
    (it is frozen)."""
    key = ("walk", tuple((float(p[0]), float(p[1])) for p in route), float(radius))
    memo = _memo(terrain)
    walk = memo.get(key)
    if walk is None:
        walk = memo[key] = terrain.routes.walk_through(route, radius)
    return walk


def first_contact(terrain: Terrain, walk: Walk, budget: float, radius: float,
                  others: Any) -> float | None:
    """:func:`solo_ops.geometry.placement.first_contact`, remembered on the terrain by its
    exact inputs (the walk's points, length, cost and radius, the budget, the base's radius
    and the other bases' discs: it reads nothing else), asked of the same walk among the same
    bases by :func:`~solo_ops.game.enemy_checks.route_blocked` and :func:`placed`."""
    key = ("contact", walk.points, walk.length, walk.cost, walk.radius, float(budget),
           float(radius), tuple(placement.discs(others)))
    memo = _memo(terrain)
    found = memo.get(key)
    if found is None:
        found = memo[key] = (placement.first_contact(terrain, walk, budget, radius, others),)
    return found[0]


def placed(game: Game, state: State, op: Operative, route: Any, budget: float | None = None,
           how: str | None = None) -> tuple[tuple[float, float] | None, Any, str | None]:
    """Where a planned move along ``route`` (as far as ``budget`` inches of movement -- its
    allowance, or a 2018 charge roll -- the whole route when None) really ends by the
    placement rule
    (:func:`solo_ops.geometry.placement.along`): the end, the walk to it (length and cost) and,
    when it stops short, what stands in the way. The plan was made before the models ahead of
    it moved (a unit's models, a 2018 charge roll, a counter revealed on the way): a base
    there now shortens the move, and so does a base on its way: no base is walked through
    (:func:`solo_ops.geometry.placement.first_contact`; a player's move is refused a route
    through one), so the move stops before the first base it would run into, however free
    its end is. ``(None, None, why)`` when it cannot move at all. ``how``: the kind of move,
    when it changes what it may cross (a 2018 Advance under the Pariah Nexus effects:
    :meth:`~solo_ops.game.definition.Game.moving_terrain`)."""
    stand = game.terrain(state)  # where a base may end (never within a wall it went through)
    terrain = stand if how is None else game.moving_terrain(state, how)
    walk = walk_along(terrain, route, op.radius)
    want = walk.cost if budget is None else min(float(budget), walk.cost)
    others = state.bases(exclude=op.id)
    end = walk.points[-1]
    contact = first_contact(terrain, walk, want, op.radius, others)
    if contact is not None:
        want = min(want, contact)  # (along backs off from there to a point it may stand)
    elif want >= walk.cost - 1e-9 and placement.is_legal(stand, end, op.radius, others):
        return (float(end[0]), float(end[1])), walk, None
    stop = placement.along(terrain, walk, want, op.radius, others, stand=stand)
    if stop is None:
        first = walk.points[1] if len(walk.points) > 1 else end
        return None, None, placement.why_not(stand, first, op.radius, others) or "no room"
    return stop.at, stop.walk, stop.blocked_by


def way_from_here(game: Game, state: State, op: Operative, to: Any, how: str | None = None
                  ) -> list[tuple[float, float]] | None:
    """The way from where ``op`` stands to ``to`` around the walls and every other base, or
    None: for a planned move whose route starts where an earlier move of the same activation
    was to end, when that move stopped short (a base in the way). When the bases close every
    way (or stand on the end), the way around the walls alone: :func:`placed` then stops the
    move at the first base in it. ``how``: the kind of move, on the terrain it crosses
    (:meth:`~solo_ops.game.definition.Game.moving_terrain`)."""
    assert op.at is not None
    terrain = game.terrain(state) if how is None else game.moving_terrain(state, how)
    end = (float(to[0]), float(to[1]))
    walk = terrain.routes.walk(op.at, end, op.radius,
                               blockers=placement.discs(state.bases(exclude=op.id)))
    if walk is None:
        walk = terrain.routes.walk(op.at, end, op.radius)
    return None if walk is None else [(float(p[0]), float(p[1])) for p in walk.points]


def move_facts(terrain: Terrain, state: State, mover: str, radius: float, route: Any,
               words: bool = True) -> dict[str, Any]:
    """``{"detour": "around crate-2"}`` when a move along ``route`` costs more than the straight
    line between its ends (:func:`solo_ops.geometry.placement.detour`), else ``{}``: for the
    move's event, so the line the players read says why. Not ``words`` (``Game.words``: a
    simulated mission nobody reads): ``{}``."""
    pts = [p for p in route or () if p is not None]
    if len(pts) < 2 or not words:
        return {}
    why = placement.detour(terrain, pts, radius, state.bases(exclude=mover))
    return {"detour": why} if why else {}


def put_down(terrain: Terrain, state: State, op: Operative) -> tuple[float, float] | None:
    """Put ``op``'s base at the nearest point to where it is where it may stand (a friend
    dropped by a carrier who fell: it lay under him); its new place, or None (left as it is)."""
    if op.at is None:
        return None
    spot = placement.nearest(terrain, op.at, op.radius, state.bases(exclude=op.id))
    if spot is None:
        return None
    op.at = spot.at
    return spot.at


def counter_reach(terrain: Terrain, state: State, counter: Counter, move: float,
                  spacing: float) -> Any:
    """``routes.reachable`` for a hidden counter, its end points narrowed to those the
    placement rule allows (on the floor, clear of every other base; the start, where it
    stands, always first). A ``Reach`` (or the same shape: ``points``, ``cost``, ``path``)."""
    others = state.bases(exclude=counter.id)
    found = terrain.routes.reachable(counter.at, COUNTER_RADIUS, move,
                                     blockers=placement.discs(others), spacing=spacing)
    pts = np.asarray(found.points, dtype=float).reshape(-1, 2)
    ok = placement.legal(terrain, pts, COUNTER_RADIUS, others, floor=True)
    if len(ok):
        ok[0] = True
    if ok.all():
        return found
    return found.subset(np.flatnonzero(ok))


def allowance(state: State, op: Operative, kind: str) -> float | None:
    """How far an enemy move of ``kind`` may go (``reach.move_allowance``; a 2018 Advance at
    its most), or None for a kind without one: a planned route that costs more is cut there."""
    try:
        return reach.move_allowance(op, kind, state.edition)
    except ValueError:
        return None
