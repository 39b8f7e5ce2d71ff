"""What a player means, turned into what the engine needs: ids, weapons and points.

Players at a table do not measure X,Y to a tenth of an inch, and they do not spell ids exactly.
This module takes an action dict as :mod:`solo_ops.view.answers` parses it and

* finds every id the player typed among the things that can be meant there — case-insensitive,
  an unambiguous prefix is enough (``kel`` is ``kell``), and a refusal lists only the valid
  choices of the right side (:func:`match`);
* picks the weapon when the player named none and only one fits (in range, not used up, not
  Heavy after a move; the Silent one under a Conceal order);
* computes the point of a relative move (:func:`propose`): ``toward REF`` (a distance along the
  shortest route), ``to REF`` (as far as the move allows), ``contact REF`` (base contact) and
  ``behind FEATURE`` (the nearest reachable point next to it hidden from, in cover from or
  obscured to every enemy on the table).

Everything here is pure: it reads the game and the state and changes neither. The computed
point is a proposal; the caller shows it, asks for a yes and then hands the concrete action (a
plain ``to`` point) to the engine, which checks it like any other answer. The save records that
concrete point, so replaying a game never depends on this module.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from solo_ops.core.errors import RuleError
from solo_ops.game import markers
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.geometry import search
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
NEAR_FEATURE = 1.0
"""``behind FEATURE``: the base ends within this of the feature (inches)."""
BACK_OFF_STEP = 0.05
BACK_OFF_MAX = 4.0


# -- ids --------------------------------------------------------------------------------------
def match(text: Any, choices: Iterable[str], what: str) -> str:
    """The one of ``choices`` that ``text`` names: equal ignoring case, or else the only one it
    is a prefix of (ignoring case). Otherwise a :class:`RuleError` that says why and lists the
    choices (only these: the caller passes the valid ones of the right side)."""
    options = list(dict.fromkeys(choices))
    word = str(text or "").strip()
    if not word:
        raise RuleError(f"which {what}? ({_choices(options)})")
    low = word.lower()
    exact = [c for c in options if c.lower() == low]
    if exact:
        return exact[0]
    starts = [c for c in options if c.lower().startswith(low)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise RuleError(f"{word!r} could be {_or(starts)}: type more of it")
    raise RuleError(f"no {what} called {word!r} ({_choices(options)})")


def _or(items: Sequence[str]) -> str:
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else items[0]


def _choices(options: Sequence[str]) -> str:
    return "choose from: " + ", ".join(options) if options else "there is none to choose"


def _friends(state: State, op: Operative) -> list[Operative]:
    return [o for o in state.operatives.values() if o.side == op.side and o.id != op.id]


def _enemies_on_table(state: State, side: str) -> list[Operative]:
    other = ENEMY if side == PLAYER else PLAYER
    return [o for o in state.operatives.values() if o.side == other and o.on_table]


def resolve_ids(game: Game, state: State, action: dict[str, Any], prompt: Any) -> dict[str, Any]:
    """A copy of ``action`` with every id it names spelled exactly as the game spells it, and
    the weapon filled in when only one fits (see the module docstring)."""
    a = dict(action)
    kind = a.get("type")
    players = [o.id for o in state.side(PLAYER)]
    if kind == "activate":
        ready = list(prompt.options) or players
        try:
            a["operative"] = match(a.get("operative"), ready, "operative")
        except RuleError as not_ready:
            try:  # one of yours, but not ready: say so rather than "no operative called"
                named = match(a.get("operative"), players, "operative")
            except RuleError:
                raise not_ready from None
            raise RuleError(f"{named} cannot act now (ready: {', '.join(ready)})") from None
        return a
    if kind in ("damage", "down"):
        a["operative"] = match(a.get("operative"), players, "operative of yours")
        return a
    if kind == "counteract" and a.get("operative") is not None:  # Counteract (issue 14)
        able = list(getattr(prompt, "data", {}).get("operatives", [])) or players
        a["operative"] = match(a["operative"], able, "operative that can counteract")
        return a
    if kind == "pickup":
        marker_ids = [o.id for o in game.scenario.board.objectives]
        a["marker"] = match(a.get("marker"), marker_ids, "objective marker")
        return a
    if kind == "portal":
        portals = [f.id for f in game.terrain(state).board.portals()]
        a["feature"] = match(a.get("feature"), portals, "door or hatch")
        return a
    if prompt.kind != "act" or state.active_operative is None:
        return a
    active = state.operatives[state.active_operative]
    if a.get("operative") is not None:
        mine = [o.id for o in state.side(active.side)]
        named = match(a["operative"], mine, "operative")
        if named != active.id:
            raise RuleError(f"{named} is not the active operative ({active.id} is)")
        a["operative"] = named
    enemies = [o.id for o in _enemies_on_table(state, active.side)]
    if kind in ("shoot", "fight") or (kind == "move" and a.get("how") == "charge"
                                      and a.get("target") is not None):
        a["target"] = match(a.get("target"), enemies, "enemy on the table")
    if kind == "carry":
        downed = [o.id for o in _friends(state, active) if o.down and o.at is not None]
        a["target"] = match(a.get("target"), downed, "downed friend")
    if kind == "shoot":
        a.update(_weapon_for_shot(game, state, active, a))
    if kind == "fight" and a.get("weapon"):
        a["weapon"] = match(a["weapon"], [w.name for w in active.profile.melee_weapons],
                            f"melee weapon of {active.id}")
    return a


def _weapon_for_shot(game: Game, state: State, op: Operative, a: dict[str, Any]
                     ) -> dict[str, Any]:
    ranged = list(op.profile.ranged_weapons)
    if a.get("weapon"):
        return {"weapon": match(a["weapon"], [w.name for w in ranged],
                                f"ranged weapon of {op.id}")}
    if not ranged:
        return {}
    if state.edition == "kt2024" and op.stance == "conceal":
        silent = [w for w in ranged if w.has("silent")]
        if len(silent) == 1:
            return {"weapon": silent[0].name}
    fit = usable_weapons(game, state, op, state.operatives[a["target"]])
    if len(fit) == 1:
        return {"weapon": fit[0].name}
    if a.get("roll"):
        if not fit:
            raise RuleError(f"none of {op.id}'s weapons can shoot {a['target']} now "
                            f"({', '.join(w.name for w in ranged)}: out of range, used up or "
                            "Heavy after a move)")
        raise RuleError(f"which weapon? 'with {fit[0].name}' ({_choices([w.name for w in fit])})")
    return {}


def usable_weapons(game: Game, state: State, op: Operative, target: Operative) -> list[Any]:
    """``op``'s ranged weapons that could shoot ``target`` now: within range around the walls,
    not used up (Limited), not Heavy after a move (2024), Silent under Conceal (2024)."""
    from solo_ops.game.enemy import limited_used_up
    from solo_ops.rules import kt2024

    terrain = game.terrain(state)
    out = []
    distance = None
    for w in op.profile.ranged_weapons:
        if limited_used_up(state, op, w):
            continue
        if state.edition == "kt2024":
            moved_how = op.moved_how or ("carrying" if op.carrying is not None else None)
            if not kt2024.may_shoot_after_move(w, moved_how):
                continue
            if op.stance == "conceal" and not w.has("silent"):
                continue
        if w.effective_range is not None and op.at is not None and target.at is not None:
            if distance is None:
                d = terrain.routes.distance(op.at, target.at, op.radius, target.radius).distance
                distance = math.inf if d is None else float(d)
            if distance > w.effective_range + 1e-6:
                continue
        out.append(w)
    return out


# -- relative moves ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Proposal:
    """A computed move: the concrete action for the engine, where it starts and ends, the walk
    (points and movement cost around the walls), and how the end relates to what was named."""

    action: dict[str, Any]
    start: tuple[float, float]
    to: tuple[float, float]
    cost: float
    route: tuple[tuple[float, float], ...]
    ref: str
    relation: str
    gap: float | None  # base (or centre, for a marker) to the thing named, straight, inches
    allowance: float


@dataclass(frozen=True)
class _Ref:
    """A thing on the table a player can name: what it is, where, and its shape."""

    id: str
    kind: str  # objective | model | feature | counter
    at: tuple[float, float]
    radius: float = 0.0
    shape: Any = None  # features: their shapely geometry
    side: str | None = None  # models


def referents(game: Game, state: State) -> dict[str, _Ref]:
    """Everything a relative move can name: objectives, models on the table, terrain features
    (doors and hatches, pillars, crates — not the thin walls), and hidden counters, by id."""
    board = game.terrain(state).board
    out: dict[str, _Ref] = {}
    for o in board.objectives:
        at = markers.position(state, o)  # where it is now (a carried marker: at its carrier)
        out[o.id] = _Ref(o.id, "objective", (float(at[0]), float(at[1])))
    for f in board.features:
        if f.is_line and "wall" in f.traits:
            continue  # thin walls are many and nothing to go to (pillars and crates are)
        mid = f.shape.centroid
        out[f.id] = _Ref(f.id, "feature", (float(mid.x), float(mid.y)), shape=f.shape)
    for c in state.counters.values():
        if c.active:
            out[c.id] = _Ref(c.id, "counter", (float(c.at[0]), float(c.at[1])), 0.5)
    for op in state.operatives.values():
        if op.on_table and op.at is not None:
            out[op.id] = _Ref(op.id, "model", (float(op.at[0]), float(op.at[1])), op.radius,
                              side=op.side)
    return out


def _blockers(state: State, op: Operative, how: str, target: str | None
              ) -> list[tuple[float, float, float]]:
    """The other bases as the engine checks the move: enemies' control range blocks every move
    but a charge (towards its target) and a fall back."""
    out = []
    for o in state.operatives.values():
        if not o.on_table or o.at is None or o.id in (op.id, op.carrying):
            continue
        extra = 0.0
        if o.side != op.side and how in ("reposition", "dash", "normal", "advance"):
            extra = reach.CONTROL_RANGE + CONTROL_MARGIN
        if o.id == target:
            extra = 0.0
        out.append((float(o.at[0]), float(o.at[1]), o.radius + extra))
    return out


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


def _goals(ref: _Ref, op: Operative, how: str) -> list[np.ndarray]:
    """Where ``op``'s base could stand "at" ``ref``, best group first: on a marker (or on rings
    ever further from it, as near as a base fits); in base contact with a friend (or with the
    target of a charge); just outside an enemy's control range otherwise; next to a feature;
    beside a counter."""
    r = op.radius
    if ref.kind == "objective":
        return [np.array([ref.at]), *(_ring(ref.at, k * RING_STEP) for k in range(1, 9))]
    if ref.kind == "feature":
        return [_around(ref.shape, r + CONTACT_GAP)]
    if ref.kind == "model" and ref.side != op.side and how != "charge":
        # outside the blocking disc (control range + margin) even after rounding to 0.01"
        return [_ring(ref.at, r + ref.radius + reach.CONTROL_RANGE + 2 * CONTROL_MARGIN)]
    return [_ring(ref.at, r + ref.radius + CONTACT_GAP)]


def _fits(terrain: Terrain, p: Sequence[float], radius: float, blockers: list[Any]) -> bool:
    return bool(terrain.routes.fits((float(p[0]), float(p[1])), radius, blockers=blockers))


def _rounded(p: Sequence[float]) -> tuple[float, float]:
    q = reach.round_point(p)
    assert q is not None
    return (float(q[0]), float(q[1]))


def _cheapest(terrain: Terrain, start: tuple[float, float], groups: list[np.ndarray],
              radius: float, blockers: list[Any]) -> Any:
    """The cheapest walk from ``start`` to a goal of the first group that has one the base can
    reach (see :func:`_cheapest_of`), or None."""
    for goals in groups:
        walk = _cheapest_of(terrain, start, goals, radius, blockers)
        if walk is not None:
            return walk
    return None


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


def _along(terrain: Terrain, walk: Any, budget: float, radius: float,
           blockers: list[Any]) -> tuple[float, float] | None:
    """The farthest point along ``walk`` within ``budget`` of movement where the base fits
    (rounded to 0.01"), backing off in small steps; None when there is none but the start."""
    for k in range(int(BACK_OFF_MAX / BACK_OFF_STEP) + 1):
        move = budget - k * BACK_OFF_STEP
        if move <= 0:
            return None
        end, _spent = terrain.routes.advance(walk, move)
        p = _rounded(end)
        if _fits(terrain, p, radius, blockers):
            return p
    return None


def propose(game: Game, state: State, action: dict[str, Any]) -> Proposal:
    """The concrete move for a relative one (``relation`` in ``toward``, ``to``, ``contact``,
    ``behind``; ``ref`` the thing named; ``amount`` inches for ``toward``), for the active
    operative. Raises :class:`RuleError` with the reason when it cannot be done."""
    if state.active_operative is None:
        raise RuleError("activate an operative first")
    op = state.operatives[state.active_operative]
    assert op.at is not None
    how = str(action.get("how") or "reposition")
    if state.edition == "kt2018" and how == "reposition":
        how = "normal"
    elif state.edition == "kt2024" and how == "normal":
        how = "reposition"
    relation = str(action["relation"])
    refs = referents(game, state)
    choices = [k for k, v in refs.items() if k != op.id and not (
        relation == "behind" and v.kind != "feature")]
    ref = refs[match(action.get("ref"), choices,
                     "terrain feature" if relation == "behind" else "thing on the table")]
    if relation == "contact" and ref.kind == "model" and ref.side != op.side:
        how = "charge"
    target = ref.id if how == "charge" else None
    if how == "charge" and (ref.kind != "model" or ref.side == op.side):
        raise RuleError(f"a charge needs an enemy model as its target, not {ref.id}")
    try:
        allowance = reach.move_allowance(op, how, state.edition)
    except ValueError as exc:
        raise RuleError(str(exc)) from None
    terrain = game.terrain(state)
    start = (float(op.at[0]), float(op.at[1]))
    blockers = _blockers(state, op, how, target)
    word = how.replace("_", " ")
    if how in ("reposition", "dash", "normal", "advance"):
        held = reach.within_reach(terrain, op, _enemies_on_table(state, op.side))
        if held:
            raise RuleError(f"{op.id} is in control range of {held[0].id}: it can only fall "
                            "back or fight")
    if relation == "behind":
        end, walk = _behind(game, state, op, ref, allowance, blockers)
    else:
        walk = _cheapest(terrain, start, _goals(ref, op, how), op.radius, blockers)
        if walk is None:
            raise RuleError(f"{op.id} has no way to {ref.id}: walls, closed doors or hatches, "
                            "other models or enemies' control range are in the way")
        if relation == "contact" and walk.cost > allowance + 1e-6:
            raise RuleError(f"base contact with {ref.id} is {walk.cost:.1f}\" away around the "
                            f"walls; {op.id} can {word} {allowance:.1f}\"")
        budget = allowance
        if relation == "toward":
            amount = float(action.get("amount") or 0.0)
            if amount <= 0:
                raise RuleError("how far? e.g. 'move 3 toward obj-1'")
            if amount > allowance + 1e-6:
                raise RuleError(f"{op.id} can {word} at most {allowance:.1f}\", not "
                                f"{amount:g}\"")
            budget = amount
        if walk.cost <= budget + 1e-9:
            end = walk.points[-1]
        else:
            got = _along(terrain, walk, budget, op.radius, blockers)
            if got is None:
                raise RuleError(f"{op.id} cannot get any closer to {ref.id} with this move")
            end = got
        end = _rounded(end)
        walk = terrain.routes.walk(start, end, op.radius, blockers=blockers)
        if walk is None:  # pragma: no cover - the end point lies on a found route
            raise RuleError(f"{op.id} has no route to that point")
    if math.dist(start, end) < 1e-6:
        raise RuleError(f"{op.id} is already there: no move needed")
    concrete = {"type": "move", "how": how, "to": [end[0], end[1]]}
    if target is not None:
        concrete["target"] = target
    if action.get("operative"):
        concrete["operative"] = action["operative"]
    return Proposal(concrete, start, end, float(walk.cost),
                    tuple((float(x), float(y)) for x, y in walk.points), ref.id, relation,
                    _gap(ref, end, op.radius), allowance)


def _gap(ref: _Ref, end: Sequence[float], radius: float) -> float:
    if ref.kind == "feature":
        from shapely.geometry import Point

        return max(0.0, float(ref.shape.distance(Point(end[0], end[1]))) - radius)
    if ref.kind == "objective":
        return max(0.0, math.dist(ref.at, end) - radius)
    return max(0.0, math.dist(ref.at, end) - radius - ref.radius)


def _behind(game: Game, state: State, op: Operative, ref: _Ref, allowance: float,
            blockers: list[Any]) -> tuple[tuple[float, float], Any]:
    """The cheapest reachable point within :data:`NEAR_FEATURE` of the feature where the base
    is hidden from, in cover from or obscured to every enemy on the table (with none on the
    table: the cheapest point next to it). Ties: lower x, then lower y."""
    from shapely.geometry import Point

    terrain = game.terrain(state)
    assert op.at is not None
    reachable = terrain.routes.reachable((float(op.at[0]), float(op.at[1])), op.radius,
                                         allowance, blockers=blockers, spacing=0.25)
    pts = np.asarray(reachable.points, dtype=float).reshape(-1, 2)
    cost = np.asarray(reachable.cost, dtype=float)
    near = np.array([float(ref.shape.distance(Point(x, y))) - op.radius <= NEAR_FEATURE + 1e-9
                     for x, y in pts], dtype=bool)
    if not near.any():
        raise RuleError(f"{ref.id} is out of reach: no point within {NEAR_FEATURE:g}\" of it "
                        f"is within {op.id}'s {allowance:.1f}\" move")
    threats = [(float(e.at[0]), float(e.at[1]), e.radius)
               for e in _enemies_on_table(state, op.side) if e.at is not None]
    idx = np.flatnonzero(near)
    ok = search.protected_from(terrain, pts[idx], op.radius, threats).all(axis=0) \
        if threats else np.ones(len(idx), dtype=bool)
    idx = idx[ok]
    if len(idx) == 0:
        raise RuleError(f"no point next to {ref.id} within {op.id}'s {allowance:.1f}\" move is "
                        "hidden from or in cover from every enemy on the table")
    order = np.lexsort((pts[idx, 1], pts[idx, 0], np.round(cost[idx], 9)))
    best = int(idx[order[0]])
    end = _rounded(pts[best])
    walk = terrain.routes.walk(tuple(pts[0]), end, op.radius, blockers=blockers)
    if walk is None:  # pragma: no cover - a reachable grid point has a walk
        raise RuleError(f"{op.id} has no route behind {ref.id}")
    return end, walk
