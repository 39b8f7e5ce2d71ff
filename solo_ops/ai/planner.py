"""Turning a unit's order into actions on the board, with the reasons a player can read.

:func:`plan_activation` is pure: it reads the game and the state, asks geometry every
question (sight, cover, distances around walls, walking routes) and returns a :class:`Plan`
— moves with routes and end points, shots and charges with targets, the stance, the state
machine triggers, and an explanation. It never changes the state and never rolls dice;
:mod:`solo_ops.game.engine` applies the plan (rolling advance, charge and attack dice).

How each order field is carried out follows ``shared/RULES-NOTES.md`` ("Orders"); the choices
it leaves open are in ``docs/rules.md``. In short, per model of the unit (nearest to the enemy
first, so the rest keep coherency with it):

* Allies first: a lower-command unit of the same type inside a rallying unit's command radius
  answers the rally; a unit ordered to group with leaders that is inside a leader's radius
  moves into coherency with it. Reaching coherency merges it (it takes the leader's order).
* Models already in an enemy's control range fight (Melee troops, or any unit whose charge
  order is "Yes"), otherwise fall back towards where their move order wants them.
* Shoot "Fire at will": shoot the closest valid enemy in range first, and never make a move
  that would forbid the shot (Heavy); "Unhindered move/charge": move or charge first, then
  shoot if still allowed.
* Charge "Within 6"" / "If within 12"" / "Yes": charge the closest visible enemy if it is
  within that distance around the walls and the charge move reaches it.
* Move: the candidate end points reachable this activation are scored by the move order
  (distance to the closest enemy with line of sight; |distance - 12"| or |distance - range|;
  nearest cover from the closest enemy, or from the most enemies; the most unobscured targets
  for a firing line); "Use cover if possible" takes a protected point whose score is at most
  ``settings.cover_detour`` worse than the best.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from solo_ops.ai import fsm
from solo_ops.core.model import Profile, Weapon
from solo_ops.core.tables import Order, TroopType, order_table
from solo_ops.game.state import ENEMY, PLAYER, Operative, State, Unit
from solo_ops.rules import killzones, portals, reach
from solo_ops.rules.orders import command_radius

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


CONTROL_RANGE = reach.CONTROL_RANGE
CHARGE_END_MARGIN = 0.05  # a charge ends this far inside control range (rounding of points)
HOLD_TOLERANCE = 0.1
MIN_GAIN = 0.05  # a move must improve its order's score by this much to be made
GALLOWDARK = "gallowdark"  # the killzone whose actions include Guard (card 002)
KT2018_CHARGE_REACH = reach.KT2018_CHARGE_MAX  # the most a 2D6 charge roll can cover
CHARGE_LIMIT = {"within_6": 6.0, "within_12": 12.0, "yes": math.inf}
PORTAL_SHORTCUT = 6.0  # a closed door/hatch is opened when it saves at least this much route
PORTAL_TOUCH = 0.1  # a base within this of a door or hatch touches it
PORTAL_FIGHT_REACH = 2.0  # Door / Hatchway Fight: an enemy within 2" of the other side


@dataclass
class Action:
    """One action of one model: a move (with its route), a shot, a charge or a fight."""

    kind: str  # reposition, dash, charge, fall_back, normal, advance, shoot, fight,
    #            operate_hatch (open a door or hatch), guard (go On Guard)
    model: str
    start: tuple[float, float] | None = None
    to: tuple[float, float] | None = None
    route: tuple[tuple[float, float], ...] = ()
    cost: float = 0.0
    target: str | None = None
    weapon: str | None = None
    expected: float | None = None  # expected damage, when the odds are known
    note: str = ""
    portal: str | None = None  # operate_hatch: the door/hatch; fight: fought across it
    open: bool | None = None  # operate_hatch: opened (True) or closed (False)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "model": self.model}
        if self.start is not None:
            data["from"] = _pt(self.start)
        if self.to is not None:
            data["to"] = _pt(self.to)
        if self.route:
            data["route"] = [_pt(p) for p in self.route]
        if self.target:
            data["target"] = self.target
        if self.weapon:
            data["weapon"] = self.weapon
        if self.expected is not None:
            data["expected_damage"] = round(self.expected, 3)
        if self.portal is not None:
            data["portal"] = self.portal
        if self.open is not None:
            data["open"] = self.open
        return data


@dataclass
class Plan:
    """What a unit does in one activation (or one 2018 phase), and why."""

    unit: str
    command: int
    troop: str
    order: Order
    state_before: str
    triggers: list[str] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    stance: str = "engage"
    merge_into: str | None = None
    explain: list[str] = field(default_factory=list)

    @property
    def state_after(self) -> str:
        state = self.state_before
        for trigger in self.triggers:
            state = fsm.fire(state, trigger)
        return state

    def moves(self) -> list[Action]:
        return [a for a in self.actions if a.to is not None and a.kind != "shoot"]

    @property
    def opened(self) -> list[str]:
        """The doors and hatches this plan opens, in order."""
        return [a.portal for a in self.actions
                if a.kind == "operate_hatch" and a.open and a.portal is not None]

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``solo-ops ai plan``: unit, command, order, state, moves, shoot, charge,
        explain (plus stance, actions and merge)."""
        return {
            "unit": self.unit,
            "command": self.command,
            "type": self.troop,
            "order": self.order.codes(),
            "order_text": self.order.texts(),
            "state": self.state_after,
            "state_before": self.state_before,
            "stance": self.stance,
            "moves": [{"model": a.model, "from": _pt(a.start), "to": _pt(a.to),
                       "route": [_pt(p) for p in a.route], "kind": a.kind}
                      for a in self.moves() if a.start is not None and a.to is not None],
            "shoot": [{"model": a.model, "target": a.target, "weapon": a.weapon,
                       **({"expected_damage": round(a.expected, 3)}
                          if a.expected is not None else {})}
                      for a in self.actions if a.kind == "shoot"],
            "charge": [{"model": a.model, "target": a.target}
                       for a in self.actions if a.kind == "charge"],
            "fight": [{"model": a.model, "target": a.target,
                       **({"across": a.portal} if a.portal else {})}
                      for a in self.actions if a.kind == "fight"],
            "operate": [{"model": a.model, "portal": a.portal, "open": a.open}
                        for a in self.actions if a.kind == "operate_hatch"],
            "guard": [a.model for a in self.actions if a.kind == "guard"],
            "merge_into": self.merge_into,
            "actions": [a.to_dict() for a in self.actions],
            "explain": list(self.explain),
        }


def _pt(p: tuple[float, float] | None) -> list[float] | None:
    return reach.round_point(p)


def fmt_pt(p: Sequence[float]) -> str:
    return f"({p[0]:.1f}, {p[1]:.1f})"


def inches(d: float | None) -> str:
    if d is None or not math.isfinite(d):
        return "no route"
    return f'{d:.1f}"'


# -- context: what the planner needs from the engine -----------------------------------------------
@dataclass
class Context:
    """The game facts the planner reads (terrain for the current doors, settings, odds)."""

    terrain: Terrain  # solo_ops.geometry.terrain.Terrain
    settings: Any  # solo_ops.core.settings.Settings
    edition: str
    odds: Any = None  # callable(weapon, attacker_profile, target_operative, cover) -> expected
    # callable(doors: {portal id: open?}) -> Terrain for that door state (the game's
    # TerrainCache); without it the planner never plans opening a door or hatch
    terrain_for: Any = None

    def with_open(self, portal: str) -> Context:
        """This context after ``portal`` is opened (the terrain of the new door state)."""
        doors = {f.id: f.open for f in self.terrain.board.portals()}
        doors[portal] = True
        return replace(self, terrain=self.terrain_for(doors))

    def all_open(self) -> Context:
        """This context with every door and hatch open (to see where a route would go)."""
        return replace(self, terrain=self.terrain_for(
            {f.id: True for f in self.terrain.board.portals()}))


def _weapon_range(w: Weapon) -> float:
    r = w.effective_range
    return math.inf if r is None else float(r)


def _ranged(profile: Profile) -> list[Weapon]:
    return [w for w in profile.ranged_weapons]


def _is_heavy(w: Weapon) -> bool:
    return w.has("heavy") or w.type.value == "heavy"


move_allowance = reach.move_allowance  # the one move allowance, for both sides


class _Board:
    """The planner's working copy of positions (models it has already moved stay moved)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.pos: dict[str, tuple[float, float]] = {
            o.id: o.at for o in state.operatives.values() if o.on_table and o.at is not None
        }

    def enemies_of_ai(self) -> list[Operative]:
        return [o for o in self.state.living(PLAYER) if o.id in self.pos]

    def others(self, exclude: str) -> list[tuple[float, float, float]]:
        return [(p[0], p[1], self.state.operatives[i].radius)
                for i, p in self.pos.items() if i != exclude]


# Answers to the planner's repeated point questions, per terrain object (a terrain is one
# board in one door state and never changes, so its answers stay valid): the planner asks the
# same "how far / can it see" of the same positions many times in one turn.
_MEMO_LIMIT = 20_000


def _memo(ctx: Context) -> dict[tuple[Any, ...], Any]:
    """The answer cache of ``ctx.terrain``, kept on it (``Terrain.planner_answers``; replaced
    by an empty one when it grows past a bound). A stand-in terrain without that attribute
    gets a fresh dict each time: no caching."""
    terrain = ctx.terrain
    memo: dict[tuple[Any, ...], Any] | None = getattr(terrain, "planner_answers", None)
    if memo is None:
        return {}
    if len(memo) > _MEMO_LIMIT:
        memo = terrain.planner_answers = {}
    return memo


def _key_pt(p: Sequence[float]) -> tuple[float, float]:
    return (float(p[0]), float(p[1]))


def _distances(ctx: Context, point: tuple[float, float], radius: float,
               arr: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """``routes.distances`` through the terrain's answer cache."""
    key = ("d", _key_pt(point), float(radius), arr.tobytes(), radii.tobytes())
    memo = _memo(ctx)
    out = memo.get(key)
    if out is None:
        out = np.asarray(ctx.terrain.routes.distances(point, radius, arr, radii), dtype=float)
        memo[key] = out
    return out


def _visible(ctx: Context, a: Sequence[float], b: Sequence[float], ra: float, rb: float
             ) -> bool:
    """``sight.visible`` through the terrain's answer cache."""
    key = ("v", _key_pt(a), _key_pt(b), float(ra), float(rb))
    memo = _memo(ctx)
    out = memo.get(key)
    if out is None:
        out = bool(ctx.terrain.sight.visible(a, b, ra, rb))
        memo[key] = out
    return out


def _route_distance(ctx: Context, a: Sequence[float], b: Sequence[float], ra: float,
                    rb: float) -> float | None:
    """``routes.distance(...).distance`` through the terrain's answer cache."""
    key = ("r", _key_pt(a), _key_pt(b), float(ra), float(rb))
    memo = _memo(ctx)
    if key not in memo:
        memo[key] = ctx.terrain.routes.distance(a, b, ra, rb).distance
    return memo[key]  # type: ignore[no-any-return]


def _cover(ctx: Context, a: Sequence[float], b: Sequence[float], ra: float, rb: float, *,
           seek: bool, seek_light: bool) -> Any:
    """``sight.cover`` through the terrain's answer cache (results are read, never changed)."""
    key = ("c", _key_pt(a), _key_pt(b), float(ra), float(rb), seek, seek_light, ctx.edition)
    memo = _memo(ctx)
    out = memo.get(key)
    if out is None:
        out = ctx.terrain.sight.cover(a, b, ra, rb, seek=seek, seek_light=seek_light,
                                      edition=ctx.edition)
        memo[key] = out
    return out


def _prefetch_covers(ctx: Context, shooter: Operative, point: Sequence[float], weapon: Weapon,
                     targets: list[Operative], pos: dict[str, tuple[float, float]]) -> None:
    """Put into the answer cache, in one ``cover_matrix`` batch, the cover :func:`_valid_shot`
    will ask of every target in ``weapon``'s range from ``point`` (a batch of pairs costs far
    less than the pairs one by one; each pair's answer is the same in any batch). Each answer
    is the one ``sight.cover`` gives for the pair: visible, in cover, obscured, and a valid
    target when visible."""
    from solo_ops.geometry.sight import CoverResult

    memo = _memo(ctx)
    seek, light = weapon.has("seek"), weapon.has("seek_light")
    here, ra = _key_pt(point), float(shooter.radius)
    reach_in = _weapon_range(weapon)
    todo: list[tuple[tuple[Any, ...], tuple[float, float], float]] = []
    for target in targets:
        tp = _key_pt(pos[target.id])
        route_d = _route_distance(ctx, here, tp, shooter.radius, target.radius)
        if (math.inf if route_d is None else route_d) > reach_in + 1e-9:
            continue
        key = ("c", here, tp, ra, float(target.radius), seek, light, ctx.edition)
        if key not in memo:
            todo.append((key, tp, float(target.radius)))
    if len(todo) < 2:
        return
    cm = ctx.terrain.sight.cover_matrix(np.array([here]), ra, np.array([t[1] for t in todo]),
                                        np.array([t[2] for t in todo]), seek=seek,
                                        seek_light=light, edition=ctx.edition)
    for k, (key, _, _) in enumerate(todo):
        vis = bool(cm.visible[0, k])
        memo[key] = CoverResult(vis, bool(cm.in_cover[0, k]), bool(cm.obscured[0, k]), vis)


def _nearest(ctx: Context, point: tuple[float, float], radius: float,
             targets: list[Operative], pos: dict[str, tuple[float, float]]
             ) -> list[tuple[float, Operative]]:
    """Targets sorted by distance around the walls (inf when there is no route)."""
    if not targets:
        return []
    arr = np.array([pos[t.id] for t in targets], dtype=float)
    radii = np.array([t.radius for t in targets], dtype=float)
    dists = _distances(ctx, point, radius, arr, radii)
    order = sorted(range(len(targets)), key=lambda i: (float(dists[i]), targets[i].id))
    return [(float(dists[i]), targets[i]) for i in order]


def _visible_targets(ctx: Context, point: tuple[float, float], radius: float,
                     targets: list[Operative], pos: dict[str, tuple[float, float]]
                     ) -> list[Operative]:
    """The targets visible from a base at ``point``: :func:`_visible` of each, the pairs not
    yet in the answer cache asked in one ``visibility_matrix`` batch (each pair's answer is
    the same in any batch)."""
    memo = _memo(ctx)
    here = _key_pt(point)
    keys = [("v", here, _key_pt(pos[t.id]), float(radius), float(t.radius)) for t in targets]
    known = [memo.get(k) for k in keys]
    todo = [i for i, v in enumerate(known) if v is None]
    if len(todo) > 1:
        vis = ctx.terrain.sight.visibility_matrix(
            np.array([here]), float(radius), np.array([keys[i][2] for i in todo]),
            np.array([keys[i][4] for i in todo]))[0]
        for i, v in zip(todo, vis.tolist(), strict=True):
            known[i] = memo[keys[i]] = bool(v)
    elif todo:
        t = targets[todo[0]]
        known[todo[0]] = _visible(ctx, point, pos[t.id], radius, t.radius)
    return [t for t, v in zip(targets, known, strict=True) if v]


def _in_control_range(ctx: Context, point: tuple[float, float], radius: float,
                      targets: list[Operative], pos: dict[str, tuple[float, float]]
                      ) -> list[Operative]:
    """Enemies in control range of a base at ``point`` (:func:`reach.in_control_range`: within
    1" around the walls and visible), by the planner's working positions ``pos``."""
    return [t for t in targets
            if reach.in_control_range(ctx.terrain, point, radius, pos[t.id], t.radius)]


def _valid_shot(ctx: Context, shooter: Operative, point: tuple[float, float],
                weapon: Weapon, target: Operative, pos: dict[str, tuple[float, float]]
                ) -> tuple[bool, Any, float]:
    """Whether ``target`` is a valid target for ``weapon`` from ``point``; the cover result and
    the distance. Kill Team 2024: visible, in range, and a concealed target only if not in
    cover."""
    tp = pos[target.id]
    route_d = _route_distance(ctx, point, tp, shooter.radius, target.radius)
    dist = math.inf if route_d is None else route_d
    if dist > _weapon_range(weapon) + 1e-9:
        return False, None, dist
    cover = _cover(ctx, point, tp, shooter.radius, target.radius,
                   seek=weapon.has("seek"), seek_light=weapon.has("seek_light"))
    if not cover.visible or not getattr(cover, "valid_target", True):
        return False, cover, dist
    if killzones.target_refusal(ctx.terrain.board, point, tp) is not None:
        return False, cover, dist  # Bheta-Decima: the players' rule too (rules/killzones.py)
    if ctx.edition == "kt2024" and target.stance == "conceal" and cover.in_cover:
        return False, cover, dist
    return True, cover, dist


def _used_up(ctx: Context, shooter: Operative, weapon: Weapon) -> bool:
    """Limited x (Kill Team 2024): the weapon has been used x times this battle."""
    rule = weapon.rule("limited")
    if ctx.edition != "kt2024" or rule is None:
        return False
    return getattr(shooter, "limited_uses", {}).get(weapon.name, 0) >= int(rule.value)


def choose_shot(ctx: Context, shooter: Operative, point: tuple[float, float],
                targets: list[Operative], pos: dict[str, tuple[float, float]],
                *, moved: bool, moved_how: str | None
                ) -> tuple[Action | None, list[str]]:
    """The shot the supplement asks for: the closest valid enemy in range (ties broken by the
    expected damage), with the best weapon for it. Heavy weapons are not fired after a move
    (``heavy=dash`` allows a Dash); a Limited weapon used up is not fired."""
    best: tuple[float, float, str, Weapon, Operative, Any] | None = None
    notes: list[str] = []
    weapons: list[Weapon] = []
    for weapon in _ranged(shooter.profile):
        if _used_up(ctx, shooter, weapon):
            notes.append(f"{shooter.label}'s {weapon.name} is used up (Limited).")
            continue
        if _is_heavy(weapon) and moved:
            allowed = weapon.rule("heavy")
            if not (allowed is not None and allowed.value == "dash" and moved_how == "dash"):
                continue
        weapons.append(weapon)
    # The closest valid target wins (the expected damage only breaks ties of distance), so the
    # targets are tried a distance at a time, nearest first, and the search stops at the first
    # distance with a valid shot: the same choice without the cover of the farther targets.
    # Within one distance the order of the questions is the full search's (weapons, targets).
    if weapons and targets:
        gap = {}
        for target in targets:
            route_d = _route_distance(ctx, point, pos[target.id], shooter.radius, target.radius)
            gap[target.id] = round(math.inf if route_d is None else route_d, 6)
        for level in sorted(set(gap.values())):
            for weapon in weapons:
                for target in targets:
                    if gap[target.id] != level:
                        continue
                    ok, cover, dist = _valid_shot(ctx, shooter, point, weapon, target, pos)
                    if not ok:
                        continue
                    expected = 0.0
                    if ctx.odds is not None:
                        expected = float(ctx.odds(weapon, shooter, target, cover))
                    key = (round(dist, 6), -expected, target.id, weapon, target, cover)
                    if best is None or key[:3] < best[:3]:
                        best = key
            if best is not None:
                break
    if best is None:
        return None, notes
    dist, neg_exp, _, weapon, target, cover = best
    action = Action("shoot", shooter.id, target=target.id, weapon=weapon.name,
                    expected=-neg_exp if ctx.odds is not None else None)
    state = []
    if cover is not None:
        if cover.obscured:
            state.append("obscured")
        if cover.in_cover:
            state.append("in cover")
    cond = f" ({', '.join(state)})" if state else ""
    odds = f", expected damage {-neg_exp:.2f}" if ctx.odds is not None else ""
    action.note = (f"{shooter.label} shoots {target.label} with {weapon.name}: the closest valid "
                   f"enemy in range, {inches(dist)} away{cond}{odds}.")
    return action, notes


# -- candidate evaluation --------------------------------------------------------------------------
@dataclass
class _Candidates:
    points: np.ndarray  # (k, 2)
    cost: np.ndarray  # (k,)
    reach: Any
    whole: bool = True  # every end point (False: only those in the discs asked for)


class _Subset:
    """Some of a ``Reach``'s points, renumbered: ``path(i)`` is the walk to the i-th kept."""

    def __init__(self, base: Any, keep: np.ndarray) -> None:
        self.base, self.keep = base, keep

    def path(self, i: int) -> Any:
        return self.base.path(int(self.keep[int(i)]))


def _candidates(ctx: Context, op: Operative, start: tuple[float, float], allowance: float,
                board: _Board, *, avoid_enemies: bool = True, spacing: float = 0.5,
                near: Sequence[tuple[float, float, float]] | None = None) -> _Candidates:
    """Where ``op`` can end a move (the start first). With ``avoid_enemies`` the walk keeps out
    of the enemies' control ranges (001 Reposition: "Cannot move within Control Range of an
    enemy"): an enemy's 1" is a blocker, except for an enemy within 1" in a straight line that
    has no hold on ``op`` (behind a wall: not in control range); the points in its control
    range are then left out instead.

    ``near`` ``[(x, y, r), ...]``: only the end points within those discs (and the start), by
    ``Routes.reachable(..., near=)``: exactly the full answer's points there, with the same
    costs and walks, in the same order. When a loose enemy's control range has to be left out
    the full set is found instead (its control test measures the points near that enemy in
    one batch, which must be the batch of the full set): a caller gets either the points of
    its discs or all of them, and must work with both (``_Candidates.whole`` says which)."""
    blockers = []
    loose: list[tuple[tuple[float, float], float]] = []
    for oid, p in board.pos.items():
        if oid == op.id:
            continue
        other = board.state.operatives[oid]
        extra = 0.0
        if avoid_enemies and other.side != op.side:
            if (reach.straight_gap(start, op.radius, p, other.radius)
                    <= CONTROL_RANGE + reach.TOLERANCE
                    and not reach.in_control_range(ctx.terrain, start, op.radius, p,
                                                   other.radius)):
                loose.append((p, other.radius))
            else:
                extra = CONTROL_RANGE
        blockers.append((p[0], p[1], other.radius + extra))
    if loose:
        near = None
    found = _reachable(ctx, start, op.radius, allowance, blockers, spacing, near)
    pts = np.asarray(found.points, dtype=float)
    cost = np.asarray(found.cost, dtype=float)
    whole = near is None
    if loose and len(pts) > 1:
        held = np.zeros(len(pts), dtype=bool)
        for p, r in loose:
            held |= reach.control_mask(ctx.terrain, pts, op.radius, p, r)
        held[0] = False  # the start stays first
        keep = np.flatnonzero(~held)
        return _Candidates(pts[keep], cost[keep], _Subset(found, keep), whole)
    return _Candidates(pts, cost, found, whole)


REACH_MEMO_LIMIT = 16  # walking answers kept per terrain (each holds its grid and walks)


def _reachable(ctx: Context, start: tuple[float, float], radius: float, allowance: float,
               blockers: list[tuple[float, float, float]], spacing: float,
               near: Sequence[tuple[float, float, float]] | None) -> Any:
    """``routes.reachable`` remembered in the terrain's answer cache by its exact inputs (the
    autopilot asks the same move again after each of an activation's actions; a ``Reach``
    is only read). At most :data:`REACH_MEMO_LIMIT` are kept per terrain."""
    key = ("reach", _key_pt(start), float(radius), float(allowance),
           tuple((float(x), float(y), float(r)) for x, y, r in blockers), float(spacing),
           None if near is None else tuple((float(x), float(y), float(r)) for x, y, r in near))
    memo = _memo(ctx)
    found = memo.get(key)
    if found is None:
        found = ctx.terrain.routes.reachable(start, radius, allowance, blockers=blockers,
                                             spacing=spacing, near=near)
        for arr in (found.points, found.cost):
            if isinstance(arr, np.ndarray):
                arr.setflags(write=False)  # shared by every asker: never changed
        kept = memo.setdefault(("reach-keys",), [])
        kept.append(key)
        if len(kept) > REACH_MEMO_LIMIT:
            memo.pop(kept.pop(0), None)
        memo[key] = found
    return found


def _protected(ctx: Context, points: np.ndarray, radius: float,
               threats: list[Operative], pos: dict[str, tuple[float, float]]) -> np.ndarray:
    """(t, k) True where candidate k is hidden from, in cover from or obscured to threat t.

    Answers are kept in the terrain's answer cache per (threat, point): the same end points
    are asked about again (the chosen end, the unit's models after the move); only the pairs
    not yet known go to ``cover_matrix``, in one batch per threat."""
    if not threats or len(points) == 0:
        return np.zeros((len(threats), len(points)), dtype=bool)
    points = np.asarray(points, dtype=float)
    out = np.zeros((len(threats), len(points)), dtype=bool)
    if len(threats) > 1:
        _prefetch_cover_answers(ctx, threats, points, radius, pos)
    for row, t in enumerate(threats):
        out[row] = _cover_answers(ctx, "p", t, points, radius, pos, _judge_protected)
    return out


def _judge_protected(vis: np.ndarray, cov: np.ndarray, obs: np.ndarray) -> np.ndarray:
    """:func:`_protected`'s answer: hidden from, in cover from or obscured to the threat."""
    return ~vis | cov | obs  # type: ignore[no-any-return]


def _judge_level(vis: np.ndarray, cov: np.ndarray, obs: np.ndarray) -> np.ndarray:
    """:func:`_cover_levels`' answer: how well protected (``HIDDEN`` ... ``NOT_IN_COVER``)."""
    return np.where(~vis, HIDDEN, np.where(cov & obs, COVER_AND_OBSCURED,
                                           np.where(cov, IN_COVER, NOT_IN_COVER)))


def _cover_keys(ctx: Context, tag: str, threat: Operative, points: np.ndarray, radius: float,
                pos: dict[str, tuple[float, float]]) -> list[tuple[Any, ...]]:
    """The answer cache's keys of ``threat``'s cover answers about ``points``."""
    tp = _key_pt(pos[threat.id])
    return [(tag, tp, float(threat.radius), x, y, float(radius), ctx.edition)
            for x, y in points.tolist()]


def _prefetch_cover_answers(ctx: Context, threats: list[Operative], points: np.ndarray,
                            radius: float, pos: dict[str, tuple[float, float]]) -> None:
    """Put into the answer cache :func:`_protected`'s and :func:`_cover_levels`' answers of
    every (threat, point) pair not known yet, in one ``cover_matrix`` batch (threats x
    points) instead of one per threat: each pair's answer is the one it gets in any batch
    (``Sight`` answers a pair by its own centres and radii), so only the time changes."""
    memo = _memo(ctx)
    keys = [_cover_keys(ctx, "p", t, points, radius, pos) for t in threats]
    rows = [r for r, ks in enumerate(keys) if any(k not in memo for k in ks)]
    cols = sorted({c for r in rows for c, k in enumerate(keys[r]) if k not in memo})
    if len(rows) < 2 or not cols:
        return
    tp = np.array([pos[threats[r].id] for r in rows], dtype=float)
    tr = np.array([float(threats[r].radius) for r in rows])
    cm = ctx.terrain.sight.cover_matrix(tp, tr, points[cols], radius, edition=ctx.edition)
    vis, cov, obs = (np.asarray(cm.visible), np.asarray(cm.in_cover), np.asarray(cm.obscured))
    prot = _judge_protected(vis, cov, obs).tolist()
    level = _judge_level(vis, cov, obs).tolist()
    for a, r in enumerate(rows):
        lkeys = _cover_keys(ctx, "L", threats[r], points[cols], radius, pos)
        for b, c in enumerate(cols):
            memo[keys[r][c]] = prot[a][b]
            memo[lkeys[b]] = level[a][b]


def _cover_answers(ctx: Context, tag: str, threat: Operative, points: np.ndarray,
                   radius: float, pos: dict[str, tuple[float, float]],
                   judge: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
                   ) -> list[Any]:
    """``judge(visible, in_cover, obscured)`` of each candidate point seen from ``threat``,
    kept in the terrain's answer cache under ``tag`` per (threat, point): only the points not
    yet known go to ``cover_matrix``, in one batch."""
    memo = _memo(ctx)
    tp = _key_pt(pos[threat.id])
    keys = _cover_keys(ctx, tag, threat, points, radius, pos)
    known = [memo.get(k) for k in keys]
    todo = [k for k, v in enumerate(known) if v is None]
    if todo:
        cm = ctx.terrain.sight.cover_matrix(np.array([tp]), np.array([float(threat.radius)]),
                                            points[todo], radius, edition=ctx.edition)
        got = judge(np.asarray(cm.visible)[0], np.asarray(cm.in_cover)[0],
                    np.asarray(cm.obscured)[0])
        for k, v in zip(todo, got.tolist(), strict=True):
            known[k] = v
            memo[keys[k]] = v
    return known


HIDDEN, COVER_AND_OBSCURED, IN_COVER, NOT_IN_COVER = 3, 2, 1, 0


def _cover_levels(ctx: Context, points: np.ndarray, radius: float, threat: Operative,
                  pos: dict[str, tuple[float, float]]) -> np.ndarray:
    """(k,) how well candidate k is protected from ``threat`` for a "To cover" order:
    ``HIDDEN`` (out of its sight), ``COVER_AND_OBSCURED``, ``IN_COVER`` (terrain within 1" on
    the cover lines, as ``solo-ops geom cover`` says ``in_cover``) or ``NOT_IN_COVER``
    (obscured alone is not cover: issue #14). Cached per (threat, point) like
    :func:`_protected`."""
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    if len(points) == 0:
        return np.zeros(0, dtype=int)
    return np.array(_cover_answers(ctx, "L", threat, points, radius, pos, _judge_level),
                    dtype=int)


def _cover_words(level: int, threat: Operative) -> str:
    """The explanation's words for where a "To cover" move ends."""
    return {HIDDEN: f" It is hidden from {threat.label} there (out of its sight).",
            COVER_AND_OBSCURED: f" It is in cover from {threat.label} and obscured there.",
            IN_COVER: f" It is in cover from {threat.label} there (not obscured).",
            }.get(level, f" It is not in cover from {threat.label} there.")


def _first_in_cover(ctx: Context, pts: np.ndarray, cost: np.ndarray, radius: float,
                    threat: Operative, pos: dict[str, tuple[float, float]],
                    mask: np.ndarray | None, chunk: int = 8) -> int | None:
    """The "To cover" end point: the cheapest candidate in cover from (or hidden from)
    ``threat`` (``mask`` limiting them); but a candidate that is both in cover and obscured
    (or hidden) is preferred when it costs at most ``settings.cover_detour`` more. None when
    no candidate in the mask is in cover."""
    idx = np.arange(len(pts)) if mask is None else np.flatnonzero(mask)
    order = idx[np.lexsort((pts[idx, 1], pts[idx, 0], np.round(cost[idx], 6)))]
    first = None
    k = 0
    while k < len(order):  # cheapest first, a growing chunk at a time
        part = order[k:k + chunk]
        hit = part[_cover_levels(ctx, pts[part], radius, threat, pos) >= IN_COVER]
        if len(hit):
            first = int(hit[0])
            break
        k += len(part)
        chunk *= 2
    if first is None:
        return None
    near = order[cost[order] <= cost[first] + ctx.settings.cover_detour + 1e-9]
    both = near[_cover_levels(ctx, pts[near], radius, threat, pos) >= COVER_AND_OBSCURED]
    return int(both[0]) if len(both) else first


def _firing_lines(ctx: Context, points: np.ndarray, radius: float, reach: float,
                  targets: list[Operative], pos: dict[str, tuple[float, float]]) -> np.ndarray:
    """(k,) how many enemies are visible, unobscured and in range from each candidate."""
    if not targets or len(points) == 0:
        return np.zeros(len(points), dtype=int)
    tp = np.array([pos[t.id] for t in targets], dtype=float)
    tr = np.array([t.radius for t in targets], dtype=float)
    cm = ctx.terrain.sight.cover_matrix(points, radius, tp, tr, edition=ctx.edition)
    good = np.asarray(cm.visible) & ~np.asarray(cm.obscured)
    if math.isfinite(reach):
        # the range only of the points with a line to some target (never a batch of one)
        rows = np.flatnonzero(good.any(axis=1))
        if len(rows):
            ask = rows if len(rows) > 1 else np.r_[rows, rows]
            d = ctx.terrain.routes.distance_matrix(tp, tr, points[ask], radius).T
            good[rows] &= d[:len(rows)] <= reach + 1e-9
    return good.sum(axis=1)


def _coherent(points: np.ndarray, mates: list[tuple[float, float, float]], radius: float,
              coherency: float) -> np.ndarray:
    if not mates or len(points) == 0:
        return np.ones(len(points), dtype=bool)
    m = np.array([(x, y) for x, y, _ in mates], dtype=float)
    mr = np.array([r for _, _, r in mates], dtype=float)
    d = np.linalg.norm(points[:, None, :] - m[None, :, :], axis=2) - radius - mr[None, :]
    return (d <= coherency + 1e-9).any(axis=1)


def _pick(scores: np.ndarray, cost: np.ndarray, points: np.ndarray,
          mask: np.ndarray | None = None) -> int | None:
    """Index of the best candidate: lowest score, then lowest cost, then position (stable)."""
    idx = np.arange(len(scores))
    if mask is not None:
        idx = idx[mask]
    if len(idx) == 0:
        return None
    keys = np.lexsort((points[idx, 1], points[idx, 0], np.round(cost[idx], 6),
                       np.round(scores[idx], 6)))
    return int(idx[keys[0]])


def _pick_order(scores: np.ndarray, cost: np.ndarray, points: np.ndarray,
                mask: np.ndarray | None = None) -> np.ndarray:
    """The candidates of ``mask`` in :func:`_pick`'s order of preference (its first is
    ``_pick``'s answer)."""
    idx = np.arange(len(scores)) if mask is None else np.flatnonzero(mask)
    keys = np.lexsort((points[idx, 1], points[idx, 0], np.round(cost[idx], 6),
                       np.round(scores[idx], 6)))
    return idx[keys]


def _pick_where(scores: np.ndarray, cost: np.ndarray, points: np.ndarray,
                mask: np.ndarray | None, test: Any, chunk: int = 1) -> int | None:
    """``_pick(scores, cost, points, mask & test(all))`` asking ``test`` (indices -> bool
    array, each answer independent of the others asked with it) only of candidates in the
    order of preference, a growing chunk at a time (1, 2, 4...), until one passes: the same
    choice for a fraction of the questions when a good candidate passes early. (The best
    candidate itself passes in about two moves of three, and a cover question about a visible
    pair costs far more than the call: the chunks start at one.)"""
    order = _pick_order(scores, cost, points, mask)
    at = 0
    while at < len(order):
        part = order[at:at + chunk]
        hit = part[np.asarray(test(part), dtype=bool)]
        if len(hit):
            return int(hit[0])
        at += len(part)
        chunk *= 2
    return None


def _protected_all(ctx: Context, points: np.ndarray, radius: float, threats: list[Operative],
                   pos: dict[str, tuple[float, float]]) -> Any:
    """A ``test`` for :func:`_pick_where`: candidate k is protected (:func:`_protected`) from
    every threat; each threat is asked only about the candidates all earlier ones passed."""

    def test(idx: np.ndarray) -> np.ndarray:
        ok = np.ones(len(idx), dtype=bool)
        if len(threats) > 1:
            _prefetch_cover_answers(ctx, threats, points[idx], radius, pos)
        for t in threats:
            live = np.flatnonzero(ok)
            if len(live) == 0:
                break
            ok[live] = _protected(ctx, points[idx[live]], radius, [t], pos)[0]
        return ok

    return test


LAZY_FIRST = 32  # candidates scored exactly first by :func:`_lazy_scores`
LAZY_MARGIN = 1e-5  # a lower bound must beat the threshold by this much to skip a candidate


def _lazy_scores(bound: np.ndarray, exact: Any, mask: np.ndarray | None, slack: float
                 ) -> np.ndarray:
    """The exact scores a choice needs, without scoring every candidate: ``exact(idx)`` gives
    the scores of candidates ``idx``; ``bound`` is a lower bound of every score (a straight
    line is never longer than the way around the walls). Candidate 0 (the start) and every
    candidate whose bound is within ``slack`` of the best score of ``mask`` get their exact
    score; the rest get +inf: they can neither be the lowest score in ``mask`` nor within
    ``slack`` of it (ties and rounding to 6 decimals included, by :data:`LAZY_MARGIN`).
    ``exact`` is always asked about at least two candidates at once (when there are two)."""
    n = len(bound)
    scores = np.full(n, np.inf)
    done = np.zeros(n, dtype=bool)
    pool = np.arange(n) if mask is None else np.flatnonzero(mask)

    def run(idx: np.ndarray) -> None:
        idx = idx[~done[idx]]
        if len(idx) == 0:
            return
        if len(idx) == 1 and n > 1:  # never a batch of one (the geometry's single path)
            other = np.flatnonzero(done)
            idx = np.r_[idx, other[:1]] if len(other) else np.r_[idx, (idx[0] + 1) % n]
        scores[idx] = exact(idx)
        done[idx] = True

    first = pool[np.argsort(bound[pool], kind="stable")[:LAZY_FIRST]]
    run(np.r_[[0], first].astype(int))
    while True:
        if len(pool) == 0:
            return scores
        best = float(scores[pool].min())
        limit = best + slack + LAZY_MARGIN
        todo = pool[~done[pool] & ~(bound[pool] > limit)]  # (a NaN bound is scored)
        if len(todo) == 0:
            return scores
        run(todo)


# -- the planner -----------------------------------------------------------------------------------
def plan_activation(ctx: Context, state: State, unit_id: str, phase: str = "firefight") -> Plan:
    """Plan one activation of ``unit_id`` (Kill Team 2024) or its part of a 2018 ``phase``
    (``movement``, ``shooting`` or ``fight``)."""
    unit = state.units[unit_id]
    order = order_table(unit.troop)[unit.command]
    plan = Plan(unit.id, unit.command, unit.troop, order, unit.fsm)
    codes = order.codes()
    plan.explain.append(
        f"{unit.id} ({TroopType(unit.troop).title}, command {unit.command}): "
        f"{order.words()}.")
    plan.explain.append(f"State: {unit.fsm.replace('_', ' ')}.")
    board = _Board(state)
    models = state.unit_models(unit)
    enemies = board.enemies_of_ai()
    if not models:
        return plan
    if not enemies:
        plan.explain.append("No enemy operative is on the table: the unit holds its ground.")
        plan.stance = "conceal"
        return plan

    # Models nearest the enemy act first, so the others can keep coherency with them.
    def nearest_dist(op: Operative) -> float:
        near = _nearest(ctx, board.pos[op.id], op.radius, enemies, board.pos)
        return near[0][0] if near else math.inf

    models.sort(key=lambda o: (nearest_dist(o), o.id))

    pull = _ally_pull(ctx, state, unit, board)
    moved_any = False
    acted = False
    guards: list[Operative] = []
    for op in models:
        result = _plan_model(ctx, state, unit, op, order, codes, board, enemies, pull, phase,
                             plan)
        ctx = result["ctx"]  # the rest of the unit walks through a door it opened
        moved_any |= result["moved"]
        acted |= result["attacked"]
        if result["guard"]:
            guards.append(op)
    # stance, state machine triggers
    plan.stance = "engage"
    if ctx.edition == "kt2024" and not acted and codes["move"] in (
            "to_cover", "to_cover_firing_line", "remain_stationary") and not any(
            a.kind in ("shoot", "charge", "fight") for a in plan.actions):
        if codes["shoot"] != "fire_at_will" or not moved_any:
            plan.stance = "conceal"
        if codes["move"] == "remain_stationary" and guards:
            plan.stance = "engage"  # it stands and watches: On Guard needs Engage
    if plan.stance == "engage":
        for op in guards:
            note = (f"{op.label} goes On Guard (Guard, 1 AP): no enemy in sight and range; it "
                    "will shoot (or fight) the first enemy operative that ends an action where "
                    "it can, until it acts again or the next turning point.")
            plan.actions.append(Action("guard", op.id, note=note))
            plan.explain.append(note)
    _triggers(plan, unit, codes, pull, board, ctx, state)
    if plan.stance == "conceal" and ctx.edition == "kt2024":
        plan.explain.append("Stance: Conceal (no shot or charge this activation; it keeps to "
                            "its cover).")
    elif ctx.edition == "kt2024":
        plan.explain.append("Stance: Engage.")
    return plan


@dataclass
class _Pull:
    """An ally the unit must join this activation (rally or group with leaders)."""

    unit: Unit
    reason: str
    trigger: str  # "group" or "rally"



def _unit_gap(ctx: Context, board: _Board, state: State, mine: list[Any], radius: float,
              other: Unit, limit: float = math.inf) -> float | None:
    """The shortest route between any of ``mine`` (points of bases of ``radius``) and any model
    of ``other`` on the board (inf when walls close every way; None when it has no model).
    Only a route of at most ``limit`` matters to the caller: when every straight line between
    the bases is already longer, it is inf without asking the routes (a route is never
    shorter than the straight line)."""
    theirs = [(board.pos[m], state.operatives[m].radius) for m in other.models
              if m in board.pos]
    if not theirs:
        return None
    if math.isfinite(limit) and min(math.dist(p, q) - radius - r for p in mine
                                    for q, r in theirs) > limit + LAZY_MARGIN:
        return math.inf
    best = math.inf
    for p in mine:
        for q, r in theirs:
            d = _route_distance(ctx, p, q, radius, r)
            if d is not None and d < best:  # (a distance of 0.0 is a real distance)
                best = d
    return best

def _ally_pull(ctx: Context, state: State, unit: Unit, board: _Board) -> _Pull | None:
    """Rally first (a same-type rallying unit with higher command whose radius we are in), then
    "Group with leaders" (a unit with higher Leadership whose radius we are in)."""
    mine = [board.pos[m] for m in unit.models if m in board.pos]
    if not mine:
        return None
    radius = state.operatives[unit.models[0]].radius
    candidates: list[tuple[float, str, _Pull]] = []
    for other in state.active_units():
        if other.id == unit.id or other.fsm == "hidden":
            continue
        other_order = order_table(other.troop)[other.command].codes()
        if not (other_order["allies"] == "rally" and other.troop == unit.troop
                and other.command > unit.command):
            continue  # (the order first: the route is asked only of a unit that rallies)
        reach = command_radius(other.leadership)
        dist = _unit_gap(ctx, board, state, mine, radius, other, reach)
        if dist is None:
            continue
        if dist <= reach:
            candidates.append((0.0 + dist, other.id, _Pull(
                other, f"{other.id} rallies lower-command {TroopType(unit.troop).title} units "
                       f"within its command radius ({inches(reach)}); {unit.id} is "
                       f"{inches(dist)} away and answers", "rally")))
    if not candidates:
        own = order_table(unit.troop)[unit.command].codes()
        if own["allies"] == "group_with_leaders":
            for other in state.active_units():
                if other.id == unit.id or other.fsm == "hidden":
                    continue
                if other.leadership <= unit.leadership:
                    continue
                reach = command_radius(other.leadership)
                dist = _unit_gap(ctx, board, state, mine, radius, other, reach)
                if dist is None:
                    continue
                if dist <= reach:
                    candidates.append((100.0 + dist, other.id, _Pull(
                        other, f"{other.id} is a leader (Leadership {other.leadership} against "
                               f"{unit.leadership}) and {unit.id} is inside its command radius "
                               f"({inches(dist)} of {inches(reach)}): it groups with it",
                        "group")))
    if not candidates:
        return None
    candidates.sort(key=lambda c: (c[0], c[1]))
    return candidates[0][2]


MOVE_KINDS = ("reposition", "dash", "charge", "fall_back", "normal", "advance")


def _ap_cost(kind: str) -> int:
    """Kill Team 2024 action points of a planned action (Fall Back 2, the rest 1)."""
    return 2 if kind == "fall_back" else 1


def _plan_model(ctx: Context, state: State, unit: Unit, op: Operative, order: Order,
                codes: dict[str, str], board: _Board, enemies: list[Operative],
                pull: _Pull | None, phase: str, plan: Plan,
                spent: Sequence[Action] = ()) -> dict[str, Any]:
    """Plan one model's actions; updates ``board`` positions and ``plan``. The result says
    whether it moved and attacked, the context after it (``ctx``: a new door state when it
    opened a door or hatch) and whether it may go On Guard (``guard``). ``spent``: the actions
    it has already carried out this activation (a re-plan, :func:`replan_model`): their AP are
    gone and none of them is planned again."""
    edition = ctx.edition
    start = board.pos[op.id]
    mates = [(board.pos[m][0], board.pos[m][1], state.operatives[m].radius)
             for m in unit.models if m != op.id and m in board.pos]
    result: dict[str, Any] = {"moved": False, "attacked": False, "ctx": ctx, "guard": False}
    apl = max(1, op.profile.apl - op.apl_penalty) if edition == "kt2024" else 99
    done = {a.kind for a in spent}
    moved_before = bool(done & set(MOVE_KINDS))
    ap = apl - sum(_ap_cost(a.kind) for a in spent) if edition == "kt2024" else apl
    if ap <= 0:
        return result
    near = _nearest(ctx, start, op.radius, enemies, board.pos)
    visible = _visible_targets(ctx, start, op.radius, enemies, board.pos)
    vis_ids = {v.id for v in visible}
    near_visible = [(d, t) for d, t in near if t.id in vis_ids]
    closest = near_visible[0] if near_visible else (near[0] if near else None)
    if closest is not None:
        seen = "with line of sight" if near_visible else "(none is in sight: the nearest by route)"
        plan.explain.append(f"{op.label} at {fmt_pt(start)}: closest enemy {seen} is "
                            f"{closest[1].label}, {inches(closest[0])} around the walls.")

    engaged = _in_control_range(ctx, start, op.radius, enemies, board.pos)
    melee_minded = unit.troop == TroopType.MELEE.value or codes["charge"] == "yes"

    def fight(target: Operative) -> None:
        nonlocal ap
        weapon = op.profile.melee_weapons[0].name if op.profile.melee_weapons else None
        plan.actions.append(Action("fight", op.id, target=target.id, weapon=weapon,
                                   note=f"{op.label} fights {target.label}."))
        plan.explain.append(f"{op.label} is in control range of {target.label} and fights.")
        result["attacked"] = True
        ap -= 1

    # 1. Already locked in combat.
    if engaged and "fight" in done:
        return result  # it fought already this activation
    if engaged and phase in ("firefight", "fight"):
        if melee_minded or phase == "fight":
            fight(engaged[0])
            return result
        if phase == "firefight" and ap >= 2 and not done:
            dest = _fall_back_point(ctx, op, start, board, enemies, codes, closest)
            if dest is not None:
                plan.actions.append(dest)
                board.pos[op.id] = dest.to  # type: ignore[assignment]
                plan.explain.append(dest.note)
                result["moved"] = True
                return result
        fight(engaged[0])
        return result
    if engaged:
        return result  # 2018 shooting/movement phases: models in combat wait for the fight

    if phase == "fight":
        return result
    if phase == "shooting":
        shot, _ = choose_shot(ctx, op, start, enemies, board.pos, moved=op.moved,
                              moved_how=op.moved_how)
        if shot is not None and not (op.advanced or op.charged or op.fell_back):
            plan.actions.append(shot)
            plan.explain.append(shot.note)
            result["attacked"] = True
        return result

    # 2. Allies override movement.
    if pull is not None:
        moved = _join_ally(ctx, state, op, start, board, pull, plan, edition)
        if moved:
            result["moved"] = True
            ap -= 1
        if edition == "kt2024" and ap > 0:
            shot, _ = choose_shot(ctx, op, board.pos[op.id], enemies, board.pos,
                                  moved=moved, moved_how="reposition")
            if shot is not None:
                plan.actions.append(shot)
                plan.explain.append(shot.note)
                result["attacked"] = True
        return result

    # 3. Shoot first when the order gives firing priority (Kill Team 2024 firefight only).
    fire_first = codes["shoot"] == "fire_at_will"
    shot_done = "shoot" in done
    heavy_shot = any(a.kind == "shoot" and any(
        w.name == a.weapon and _is_heavy(w) for w in op.profile.ranged_weapons) for a in spent)
    if edition == "kt2024" and fire_first and not shot_done and not moved_before:
        shot, _ = choose_shot(ctx, op, start, enemies, board.pos, moved=False, moved_how=None)
        if shot is not None:
            plan.actions.append(shot)
            plan.explain.append("Fire at will: firing takes priority over moving. " + shot.note)
            weapon = next((w for w in op.profile.ranged_weapons if w.name == shot.weapon),
                          None)
            heavy_shot = weapon is not None and _is_heavy(weapon)
            shot_done = True
            result["attacked"] = True
            ap -= 1

    # 4. Door / Hatchway Fight from where it stands (touching the door or open hatch), then a
    #    charge, then a Reposition to touch one and fight across it.
    portal_ok = (edition == "kt2024" and melee_minded and not heavy_shot
                 and bool(op.profile.melee_weapons) and "fight" not in done)
    if portal_ok and ap > 0 and not shot_done:
        across = _portal_fight(ctx, op, start, board, enemies, may_move=False)
        if across is not None:
            plan.actions.append(across[1])
            plan.explain.append(across[1].note)
            result["attacked"] = True
            return result
    charge = None
    if ap > 0 and not heavy_shot and near_visible and not moved_before:
        charge = _charge_option(ctx, op, start, board, near_visible, codes, edition)
    if charge is None and portal_ok and ap >= 2 and not shot_done:
        across = _portal_fight(ctx, op, start, board, enemies, may_move=True)
        if across is not None and across[0] is not None:
            plan.actions.extend([across[0], across[1]])
            plan.explain.extend([across[0].note, across[1].note])
            board.pos[op.id] = across[0].to  # type: ignore[assignment]
            result["moved"] = True
            result["attacked"] = True
            return result
    if charge is not None and (not shot_done or ap >= 1):
        plan.actions.append(charge)
        if charge.to is not None:  # a 2018 charge is rolled by the engine: it stays put here
            board.pos[op.id] = charge.to
        plan.explain.append(charge.note)
        result["moved"] = True
        result["attacked"] = True
        ap -= 1
        if edition == "kt2024" and ap > 0 and "fight" not in done:
            target = state.operatives[charge.target]  # type: ignore[index]
            fight(target)
        return result

    # 5. Move by the move order.
    if heavy_shot:
        plan.explain.append(f"{op.label} fired a Heavy weapon, so it does not move.")
        return result
    if codes["move"] == "remain_stationary":
        plan.explain.append(f"{op.label} remains stationary (its move order).")
    else:
        # a closed door or hatch in the way: go and open it first (Operate Hatch)
        used: set[str] = set()
        walked = opened = False
        if ap > 0 and phase in ("firefight", "movement") and not shot_done:
            ctx, ap, used, walked, opened = _open_the_way(ctx, op, board, enemies, codes, ap,
                                                          plan)
            result["ctx"] = ctx
            result["moved"] |= walked
        # (a Heavy-only model with no shot now moves: keeping still would not make one)
        if edition == "kt2024":
            kinds = [k for k in ("reposition", "dash") if k not in used and k not in done
                     and not (k == "reposition" and done & {"charge", "fall_back"})][:max(0, ap)]
        else:
            kinds = [] if "normal" in used or "normal" in done else ["normal"]
        if walked and not opened:
            kinds = []  # still on its way to the door or hatch
        if kinds and codes["move"] == "to_cover" and unit.fsm == "in_cover":
            # "To Cover: Unit will move to the nearest cover and then remain stationary."
            kinds = []
            plan.explain.append(f"{op.label} stays where it is: the unit reached cover and "
                                "then remains stationary (To Cover).")
        for kind in kinds:
            if ap <= 0:
                break
            mv = _move_by_order(ctx, state, unit, op, board.pos[op.id], kind, codes, board,
                                enemies, mates)
            if mv is None:
                break
            plan.actions.append(mv)
            plan.explain.append(mv.note)
            board.pos[op.id] = mv.to  # type: ignore[assignment]
            result["moved"] = True
            ap -= 1
            if _order_satisfied(ctx, op, board, enemies, codes):
                break
            # a shot now beats a second move when the order wants to shoot
            if edition == "kt2024" and ap > 0:
                shot, _ = choose_shot(ctx, op, board.pos[op.id], enemies, board.pos,
                                      moved=True, moved_how=kind)
                if shot is not None:
                    break

    # 6. Shoot after moving (unhindered move, or fire at will with nothing to shoot before).
    if edition == "kt2024" and ap > 0 and not shot_done:
        last_move = next((a.kind for a in reversed([*spent, *plan.actions])
                          if a.model == op.id and a.kind in MOVE_KINDS), None)
        shot, _ = choose_shot(ctx, op, board.pos[op.id], enemies, board.pos,
                              moved=result["moved"] or moved_before, moved_how=last_move)
        if shot is not None:
            plan.actions.append(shot)
            lead = ("Unhindered move: it moved first, then fires. "
                    if codes["shoot"].startswith("unhindered") else "")
            plan.explain.append(lead + shot.note)
            result["attacked"] = True
            shot_done = True
            ap -= 1
    result["guard"] = _may_guard(ctx, op, board.pos[op.id], enemies, board, codes, ap,
                                 shot_done)
    return result


def _order_satisfied(ctx: Context, op: Operative, board: _Board, enemies: list[Operative],
                     codes: dict[str, str]) -> bool:
    """Whether the move order needs no further move this activation."""
    here = board.pos[op.id]
    if codes["move"] in ("to_cover", "to_cover_firing_line"):
        closest = _closest_enemy(ctx, op, here, enemies, board)
        if closest is None:
            return True
        level = _cover_levels(ctx, np.array([here]), op.radius, closest[1], board.pos)
        return bool(level[0] >= IN_COVER)
    if codes["move"] in ("hold_12", "to_firing_range"):
        target = _closest_enemy(ctx, op, here, enemies, board)
        if target is None:
            return True
        want = _hold_distance(ctx, op, codes)
        return abs(target[0] - want) <= HOLD_TOLERANCE
    return False


def _hold_measure(ctx: Context, pts: np.ndarray, radius: float, enemies: list[Operative],
                  board: _Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each candidate point: the distance (around the walls) to the closest enemy visible
    from it — or, when none is visible there, to the closest enemy by route — and that enemy's
    index in ``enemies``, and whether it is visible from there. Hold / to firing range score
    every end point by this distance."""
    ep = np.array([board.pos[e.id] for e in enemies], dtype=float)
    er = np.array([e.radius for e in enemies], dtype=float)
    # distances and visibility are symmetric: ask enemies x points (few rows, batched columns)
    dist = ctx.terrain.routes.distance_matrix(ep, er, pts, radius).T
    vis = np.asarray(ctx.terrain.sight.visibility_matrix(ep, er, pts, radius), dtype=bool).T
    seen = np.where(vis, dist, np.inf)
    any_seen = np.asarray(vis.any(axis=1))
    use = np.where(any_seen[:, None], seen, dist)
    who = np.argmin(use, axis=1)
    return use[np.arange(len(pts)), who], who, any_seen


def _hold_distance(ctx: Context, op: Operative, codes: dict[str, str]) -> float:
    if codes["move"] == "hold_12":
        return float(ctx.settings.hold_distance)
    rng = op.profile.longest_range
    if rng is None or not math.isfinite(rng):
        return float(ctx.settings.hold_distance)
    return float(rng)


def _closest_enemy(ctx: Context, op: Operative, here: tuple[float, float],
                   enemies: list[Operative], board: _Board) -> tuple[float, Operative] | None:
    """The closest enemy with line of sight from ``here`` (distance around the walls); when
    none is in sight, the closest by route (the unit hunts rather than freezes)."""
    near = _nearest(ctx, here, op.radius, enemies, board.pos)
    vis = {v.id for v in _visible_targets(ctx, here, op.radius, enemies, board.pos)}
    seen = [(d, t) for d, t in near if t.id in vis]
    if seen:
        return seen[0]
    return near[0] if near else None


def _move_by_order(ctx: Context, state: State, unit: Unit, op: Operative,
                   start: tuple[float, float], kind: str, codes: dict[str, str], board: _Board,
                   enemies: list[Operative], mates: list[tuple[float, float, float]]
                   ) -> Action | None:
    """The end point of one move (reposition, dash or 2018 normal move) by the move order."""
    allowance = move_allowance(op, kind, ctx.edition)
    if allowance <= 0:
        return None
    move_code = codes["move"]
    near = _nearest(ctx, start, op.radius, enemies, board.pos)
    if not near:
        return None
    closest = _closest_enemy(ctx, op, start, enemies, board)
    threat = closest[1] if closest is not None else near[0][1]
    if _stays_put(ctx, op, start, codes, board, enemies, mates, threat):
        return None  # (the answer below, found without the end points)
    cand = _candidates(ctx, op, start, allowance, board)
    if len(cand.points) <= 1:
        return None
    pts, cost = cand.points, cand.cost
    reason = ""
    # the end points in coherency (all of them when none is), and how much worse than the best
    # a point may score and still be chosen for its cover: only the scores of points that
    # could be chosen are worked out exactly (_lazy_scores)
    coherent = _coherent(pts, mates, op.radius, ctx.settings.coherency)
    base_mask = coherent if coherent.any() else None
    slack = (float(ctx.settings.cover_detour) if codes["cover"] == "use_if_possible"
             and move_code not in ("to_cover", "to_cover_firing_line") else 0.0)
    if move_code == "towards_closest_enemy":
        vis = _ids_visible(ctx, op, start, enemies, board)
        seen = [(d, t) for d, t in near if t.id in vis]
        target = seen[0] if seen else near[0]
        tp = board.pos[target[1].id]
        t_radius = target[1].radius

        def towards(idx: np.ndarray) -> np.ndarray:
            d = ctx.terrain.routes.distances(tp, t_radius, pts[idx], op.radius)
            d = np.where(np.isfinite(d), d, 1e9)
            # never end inside the enemy's control range without a charge
            return np.where(d < CONTROL_RANGE + 1e-6, 1e9, d)

        straight = np.hypot(pts[:, 0] - tp[0], pts[:, 1] - tp[1]) - t_radius - op.radius
        scores = _lazy_scores(np.maximum(0.0, straight), towards, base_mask, slack)
        reason = (f"towards {target[1].label} (the closest enemy"
                  f"{' with line of sight' if target[1].id in vis else ''})")
        threat = target[1]
    elif move_code in ("hold_12", "to_firing_range"):
        want = _hold_distance(ctx, op, codes)
        d_star = np.full(len(pts), np.inf)
        who = np.zeros(len(pts), dtype=int)
        seen_at = np.zeros(len(pts), dtype=bool)

        def holding(idx: np.ndarray) -> np.ndarray:
            d_star[idx], who[idx], seen_at[idx] = _hold_measure(ctx, pts[idx], op.radius,
                                                                enemies, board)
            return np.abs(np.where(np.isfinite(d_star[idx]), d_star[idx], 1e9) - want)

        # the measured enemy is one of them, so no nearer than the nearest in a straight line
        ep = np.array([board.pos[e.id] for e in enemies], dtype=float)
        er = np.array([e.radius for e in enemies], dtype=float)
        gap = (np.hypot(pts[:, None, 0] - ep[None, :, 0], pts[:, None, 1] - ep[None, :, 1])
               - er[None, :]).min(axis=1) - op.radius
        scores = _lazy_scores(np.maximum(0.0, gap - want), holding, base_mask, slack)
        if scores[0] <= HOLD_TOLERANCE:
            return None  # already holding: no move improves the order
        reason = f"to keep {inches(want)} from the closest enemy"
        threat = enemies[int(who[0])]
    elif move_code in ("to_cover", "to_cover_firing_line"):
        if move_code == "to_cover":
            # the choice is the cheapest protected point: look for it nearest first
            coherent = _coherent(pts, mates, op.radius, ctx.settings.coherency)
            first = _first_in_cover(ctx, pts, cost, op.radius, threat, board.pos,
                                    coherent if coherent.any() else None)
            if first is not None:
                prot0 = _cover_levels(ctx, pts[:1], op.radius, threat, board.pos)[0] >= IN_COVER
                score0 = cost[0] if prot0 else 1e6 + cost[0]
                if score0 - cost[first] < MIN_GAIN:
                    return None
                return _finish_move(ctx, op, start, kind, cand, first, board, threat,
                                    move_code, f"to the nearest cover from {threat.label}", "",
                                    None)
        prot = _cover_levels(ctx, pts, op.radius, threat, board.pos) >= IN_COVER
        if move_code == "to_cover_firing_line":
            best_range = op.profile.longest_range or 0.0
            # firing lines count only at protected points (the others score 1e6 + cost);
            # never a batch of one point (the geometry's single-point path)
            lines = np.zeros(len(pts), dtype=int)
            safe = np.flatnonzero(prot)
            if len(safe):
                ask = safe if len(safe) > 1 else np.r_[safe, safe]
                lines[safe] = _firing_lines(ctx, pts[ask], op.radius, best_range, enemies,
                                            board.pos)[:len(safe)]
            scores = np.where(prot, -lines.astype(float) * 100 + cost, 1e6 + cost)
            reason = "to cover with the best firing line"
        else:
            scores = np.where(prot, cost, 1e6 + cost)
            reason = f"to the nearest cover from {threat.label}"
        if not prot.any():
            # no cover within this move: head for the nearest protected point further away
            far = _candidates(ctx, op, start, max(allowance * 3, 18.0), board, spacing=1.0)
            if len(far.points):
                # the cheapest point in cover, asking cover of the cheapest first
                j = _pick_where(far.cost, far.cost, far.points, None, lambda idx: _cover_levels(
                    ctx, far.points[idx], op.radius, threat, board.pos) >= IN_COVER, chunk=16)
                if j is not None:
                    walk = far.reach.path(j)
                    end, spent = ctx.terrain.routes.advance(walk, allowance)
                    end = (float(end[0]), float(end[1]))
                    if np.hypot(end[0] - start[0], end[1] - start[1]) < 1e-6:
                        return None
                    route = _route_to(walk, end)
                    return Action(kind, op.id, start=start, to=end, route=route, cost=spent,
                                  note=f"{op.label} {_verb(kind)} {inches(spent)} to "
                                       f"{fmt_pt(end)}, heading for cover from {threat.label} "
                                       f"at {fmt_pt(far.points[j])} (out of reach this move).")
            return None
    else:  # remain_stationary
        return None
    i = _pick(scores, cost, pts, base_mask)
    if i is None or scores[0] - scores[i] < MIN_GAIN:
        return None  # no end point serves the move order better than staying put
    cover_note = ""
    if codes["cover"] == "use_if_possible" and move_code not in ("to_cover",
                                                                 "to_cover_firing_line"):
        ok = scores <= scores[i] + ctx.settings.cover_detour
        if base_mask is not None:
            ok &= base_mask
        # cover matters only where the detour is acceptable; asked best point first
        j = _pick_where(scores, cost, pts, ok,
                        _protected_all(ctx, pts, op.radius, [threat], board.pos))
        if j is not None:
            if j != i:
                cover_note = (f" It uses cover on the way (costs {scores[j] - scores[i]:.1f}\" "
                              f"of progress, within the {ctx.settings.cover_detour:g}\" it "
                              "accepts).")
            else:
                cover_note = " The best point is already in cover."
            i = j
    hold = None
    if move_code in ("hold_12", "to_firing_range"):
        hold = (float(d_star[i]), enemies[int(who[i])], bool(seen_at[i]))
    return _finish_move(ctx, op, start, kind, cand, i, board, threat, move_code, reason,
                        cover_note, hold)


def _stays_put(ctx: Context, op: Operative, start: tuple[float, float], codes: dict[str, str],
               board: _Board, enemies: list[Operative],
               mates: list[tuple[float, float, float]], threat: Operative) -> bool:
    """Whether :func:`_move_by_order` returns no move whatever the end points are, as seen from
    the start alone (which is always candidate 0), so the end points need not be found:

    * hold / to firing range when the start already holds (its score is within
      ``HOLD_TOLERANCE``);
    * to cover when the start is in cover from ``threat`` and in coherency (or no end point
      could be): it is then the cheapest protected candidate, cost 0, and no move gains.

    The start is measured as a batch of two copies of itself, as in the batch of all end
    points (the geometry answers each point of a batch alike)."""
    move_code = codes["move"]
    here = np.array([start, start], dtype=float)
    if move_code in ("hold_12", "to_firing_range"):
        d_star = _hold_measure(ctx, here, op.radius, enemies, board)[0]
        d0 = float(d_star[0]) if math.isfinite(d_star[0]) else 1e9
        return abs(d0 - _hold_distance(ctx, op, codes)) <= HOLD_TOLERANCE
    if move_code == "to_cover":
        if not _coherent(here[:1], mates, op.radius, ctx.settings.coherency)[0]:
            return False
        return bool(_cover_levels(ctx, here[:1], op.radius, threat, board.pos)[0] >= IN_COVER)
    return False


def _finish_move(ctx: Context, op: Operative, start: tuple[float, float], kind: str,
                 cand: _Candidates, i: int, board: _Board, threat: Operative, move_code: str,
                 reason: str, cover_note: str, hold: tuple[float, Operative, bool] | None
                 ) -> Action | None:
    """The move to candidate ``i`` chosen by :func:`_move_by_order`, with its explanation
    (``hold``: the distance, enemy and sight at the end for hold / to firing range)."""
    pts, cost = cand.points, cand.cost
    end = (float(pts[i][0]), float(pts[i][1]))
    if np.hypot(end[0] - start[0], end[1] - start[1]) < 0.05:
        return None
    walk = cand.reach.path(i)
    route = tuple((float(x), float(y)) for x, y in walk.points)
    spent = float(cost[i])
    extra = ""
    if move_code in ("to_cover", "to_cover_firing_line"):
        extra = _cover_words(int(_cover_levels(ctx, np.array([end]), op.radius, threat,
                                               board.pos)[0]), threat)
    elif hold is not None:
        extra = (f" It ends {inches(hold[0])} from {hold[1].label}, the "
                 + ("closest enemy it can see there." if hold[2] else
                    "closest enemy by route (none is in sight there)."))
    elif move_code == "towards_closest_enemy":
        dd = _route_distance(ctx, end, board.pos[threat.id], op.radius, threat.radius)
        extra = f" It ends {inches(dd)} from {threat.label}."
    note = (f"{op.label} {_verb(kind)} {inches(spent)} {reason}, to {fmt_pt(end)}.{extra}"
            f"{cover_note}")
    return Action(kind, op.id, start=start, to=end, route=route, cost=spent, note=note)


def _ids_visible(ctx: Context, op: Operative, start: tuple[float, float],
                 enemies: list[Operative], board: _Board) -> set[str]:
    return {v.id for v in _visible_targets(ctx, start, op.radius, enemies, board.pos)}


def _verb(kind: str) -> str:
    return {"reposition": "repositions", "dash": "dashes", "normal": "moves",
            "advance": "advances", "fall_back": "falls back", "charge": "charges"}.get(kind,
                                                                                       "moves")


def _route_to(walk: Any, end: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    """The walk's points up to ``end`` (the point where an advance stopped)."""
    pts = [tuple(map(float, p)) for p in walk.points]
    out = [pts[0]]
    for a, b in itertools.pairwise(pts):
        seg = np.subtract(b, a)
        length = float(np.hypot(*seg))
        if length <= 1e-12:
            continue
        t = float(np.dot(np.subtract(end, a), seg) / (length * length))
        off = np.hypot(*(np.add(a, seg * min(max(t, 0.0), 1.0)) - np.asarray(end)))
        if 0.0 <= t <= 1.0 + 1e-9 and off < 1e-6:
            out.append(end)
            return tuple(out)  # type: ignore[arg-type]
        out.append(b)
    return tuple(out)  # type: ignore[arg-type]


def _charge_disc(op: Operative, tp: tuple[float, float], target: Operative
                 ) -> tuple[float, float, float]:
    """The disc around ``target`` holding every centre from which ``op`` can be in its control
    range by :func:`reach.control_mask`'s first, straight-line test (with a hair to spare for
    rounding): the only end points a charge looks at, so ``reachable`` is asked for those
    alone (``near=``; the same points, costs and walks as the whole move circle has there)."""
    r = op.radius + target.radius + CONTROL_RANGE + reach.TOLERANCE + 1e-6
    return (float(tp[0]), float(tp[1]), r)


def _charge_option(ctx: Context, op: Operative, start: tuple[float, float], board: _Board,
                   near_visible: list[tuple[float, Operative]], codes: dict[str, str],
                   edition: str) -> Action | None:
    """A charge on the closest visible enemy, if the charge order allows it and it reaches."""
    limit = CHARGE_LIMIT[codes["charge"]]
    dist, target = near_visible[0]
    if dist > limit + 1e-9:
        return None
    if not op.profile.melee_weapons and codes["charge"] != "yes":
        return None
    tp = board.pos[target.id]
    allowance = move_allowance(op, "charge", edition)
    blockers = []
    for oid, p in board.pos.items():
        if oid in (op.id, target.id):
            continue
        other = board.state.operatives[oid]
        blockers.append((p[0], p[1], other.radius + (CONTROL_RANGE if other.side != op.side
                                                       else 0.0)))
    if edition == "kt2018":
        # 2018: a charge is declared against a target within 12" and rolled (2D6) by the
        # engine, which moves the charger along this route as far as the roll allows
        if dist > KT2018_CHARGE_REACH + 1e-9:
            return None
        # the route ends at the cheapest spot within 1" of the target that keeps out of 1" of
        # every other enemy (the target's own centre may be unreachable on those terms)
        near = [*blockers, (tp[0], tp[1], target.radius)]
        cand = _reachable(ctx, start, op.radius, KT2018_CHARGE_REACH, near, 0.5,
                          [_charge_disc(op, tp, target)])
        pts = np.asarray(cand.points, dtype=float)
        ends = reach.control_mask(ctx.terrain, pts, op.radius, tp, target.radius,
                                  margin=CHARGE_END_MARGIN)
        if not ends.any():
            return None
        costs = np.asarray(cand.cost, dtype=float)
        k = _pick(costs, costs, pts, ends)
        assert k is not None
        walk = cand.path(k)
        return Action("charge", op.id, start=start, to=None, route=tuple(walk.points),
                      target=target.id,
                      note=f"{op.label} declares a charge on {target.label} "
                           f"({inches(dist)} away; charge order "
                           f"'{codes['charge'].replace('_', ' ')}'): the engine rolls 2D6.")
    if dist > allowance + CONTROL_RANGE + 1e-9:
        return None  # even a straight charge could not reach its control range
    blockers.append((tp[0], tp[1], target.radius))
    cand = _reachable(ctx, start, op.radius, allowance, blockers, 0.5,
                      [_charge_disc(op, tp, target)])
    pts = np.asarray(cand.points, dtype=float)
    # the end must be in the target's control range by the one predicate: within 1" around
    # the walls and visible (never the far side of a wall however close in a straight line)
    ok = reach.control_mask(ctx.terrain, pts, op.radius, tp, target.radius,
                            margin=CHARGE_END_MARGIN)
    if not ok.any():
        return None
    costs = np.asarray(cand.cost, dtype=float)
    i = _pick(costs, costs, pts, ok)
    assert i is not None
    end = (float(pts[i][0]), float(pts[i][1]))
    route, spent = tuple(cand.path(i).points), float(costs[i])
    why = {"within_6": 'it is within 6"', "within_12": 'it is within 12"',
           "yes": "its order is to charge the closest enemy it can reach"}[codes["charge"]]
    return Action("charge", op.id, start=start, to=end, route=route, cost=spent,
                  target=target.id,
                  note=f"{op.label} charges {target.label}, {inches(dist)} away: {why}; the "
                       f"charge move of {inches(spent)} reaches it.")




def _fall_back_point(ctx: Context, op: Operative, start: tuple[float, float], board: _Board,
                     enemies: list[Operative], codes: dict[str, str],
                     closest: tuple[float, Operative] | None) -> Action | None:
    """Fall Back (2 AP): out of control range, as far from the enemy as the move allows."""
    allowance = move_allowance(op, "reposition", ctx.edition)
    blockers = [(p[0], p[1], board.state.operatives[i].radius)
                for i, p in board.pos.items() if i != op.id]
    cand = ctx.terrain.routes.reachable(start, op.radius, allowance, blockers=blockers,
                                        spacing=0.5)
    pts = np.asarray(cand.points, dtype=float)
    if len(pts) == 0:
        return None
    ep = np.array([board.pos[e.id] for e in enemies], dtype=float)
    er = np.array([e.radius for e in enemies], dtype=float)
    gaps = np.linalg.norm(pts[:, None, :] - ep[None], axis=2) - op.radius - er[None]
    held = np.zeros(len(pts), dtype=bool)
    for e in enemies:  # out of every enemy's control range (the one predicate)
        held |= reach.control_mask(ctx.terrain, pts, op.radius, board.pos[e.id], e.radius)
    clear = ~held
    if not clear.any():
        return None
    scores = -gaps.min(axis=1)
    i = _pick(scores, np.asarray(cand.cost, dtype=float), pts, clear)
    assert i is not None
    end = (float(pts[i][0]), float(pts[i][1]))
    walk = cand.path(i)
    return Action("fall_back", op.id, start=start, to=end, route=tuple(walk.points),
                  cost=float(cand.cost[i]),
                  note=f"{op.label} is not a melee fighter: it falls back (2 AP) to "
                       f"{fmt_pt(end)}, out of control range.")


def _joined_already(start_score: float) -> bool:
    """Whether :func:`_join_ally` stays where it is without finding its end points: the start
    scores 0 (in coherency with the ally) at cost 0, so no other candidate can beat it."""
    return start_score <= 0.0


def _join_ally(ctx: Context, state: State, op: Operative, start: tuple[float, float],
               board: _Board, pull: _Pull, plan: Plan, edition: str) -> bool:
    """Move into coherency with the ally unit's nearest model. Returns whether it moved."""
    theirs = [m for m in pull.unit.models if m in board.pos]
    mates = [(board.pos[m][0], board.pos[m][1], state.operatives[m].radius) for m in theirs]
    kind = "reposition" if edition == "kt2024" else "normal"
    allowance = move_allowance(op, kind, edition)
    mp = np.array([(x, y) for x, y, _ in mates], dtype=float)
    mr = np.array([r for _, _, r in mates], dtype=float)

    def score(pts: np.ndarray) -> np.ndarray:
        gap = (np.linalg.norm(pts[:, None, :] - mp[None], axis=2) - op.radius
               - mr[None]).min(axis=1)
        return np.maximum(gap - ctx.settings.coherency, 0.0)

    here = np.array([start], dtype=float)
    if _joined_already(score(here)[0]):
        # already in coherency: the start (score 0, cost 0, always candidate 0) is the choice
        pts, scores, cost = here, np.zeros(1), np.zeros(1)
        cand = None
    else:
        cand = _candidates(ctx, op, start, allowance, board)
        pts = np.asarray(cand.points, dtype=float)
        if len(pts) == 0:
            return False
        scores, cost = score(pts), np.asarray(cand.cost, dtype=float)
    i = _pick(scores, cost, pts)
    assert i is not None
    end = (float(pts[i][0]), float(pts[i][1]))
    if len(plan.explain) < 4 or pull.reason not in plan.explain:
        plan.explain.append(pull.reason + ".")
    if np.hypot(end[0] - start[0], end[1] - start[1]) < 0.05:
        return False
    assert cand is not None  # (a move away from the start: the end points were found)
    walk = cand.reach.path(i)
    plan.actions.append(Action(kind, op.id, start=start, to=end, route=tuple(walk.points),
                               cost=float(cand.cost[i]),
                               note=f"{op.label} {_verb(kind)} to {fmt_pt(end)} to join "
                                    f"{pull.unit.id}."))
    plan.explain.append(plan.actions[-1].note)
    board.pos[op.id] = end
    return True


def _triggers(plan: Plan, unit: Unit, codes: dict[str, str], pull: _Pull | None,
              board: _Board, ctx: Context, state: State) -> None:
    """The state-machine triggers this plan fires, in order (decided here, recorded by fsm)."""
    kinds = [a.kind for a in plan.actions]
    state_now = unit.fsm

    def add(trigger: str) -> None:
        nonlocal state_now
        if fsm.allowed(state_now, trigger):
            state_now = fsm.fire(state_now, trigger)
            plan.triggers.append(trigger)

    if pull is not None:
        add("group" if pull.trigger == "group" else "rally")
        # merged when every model ends in coherency with the ally
        theirs = [(board.pos[m][0], board.pos[m][1], state.operatives[m].radius)
                  for m in pull.unit.models if m in board.pos]
        ok = True
        for m in unit.models:
            if m not in board.pos:
                continue
            pts = np.array([board.pos[m]])
            if not _coherent(pts, theirs, state.operatives[m].radius, ctx.settings.coherency)[0]:
                ok = False
        if ok:
            plan.merge_into = pull.unit.id
            plan.explain.append(
                f"{unit.id} reaches coherency with {pull.unit.id} and merges into it, taking "
                f"its order (command {pull.unit.command}).")
            add("merged")
        return
    if "fight" in kinds and "charge" not in kinds:
        add("engaged")
        return
    if "charge" in kinds:
        add("charge")
        return
    if "fall_back" in kinds:
        add("fall_back")
        return
    moved = any(k in ("reposition", "dash", "normal", "advance") for k in kinds)
    if codes["move"] in ("to_cover", "to_cover_firing_line"):
        if moved:
            add("order_move")
        if _all_protected(ctx, unit, board, state):
            add("reached_cover")
        return
    if codes["move"] in ("hold_12", "to_firing_range"):
        if moved:
            add("order_move")
        add("hold_range")
        return
    if moved:
        add("order_move")
    elif unit.fsm in ("moving",):
        add("stand")


def _all_protected(ctx: Context, unit: Unit, board: _Board, state: State) -> bool:
    enemies = board.enemies_of_ai()
    for m in unit.models:
        if m not in board.pos:
            continue
        op = state.operatives[m]
        closest = _closest_enemy(ctx, op, board.pos[m], enemies, board)
        if closest is None:
            continue
        if _cover_levels(ctx, np.array([board.pos[m]]), op.radius, closest[1],
                         board.pos)[0] < IN_COVER:
            return False
    return True


# -- killzone actions: Operate Hatch / doors, Door and Hatchway Fight, Guard ----------------------
def _gap_to_feature(feature: Any, point: Sequence[float], radius: float) -> float:
    """Distance from a base's edge to a feature (straight line)."""
    from shapely.geometry import Point

    return float(feature.shape.distance(Point(float(point[0]), float(point[1])))) - radius


def _feature_gap(ctx: Context, feature: Any, point: Sequence[float], radius: float) -> float:
    """:func:`_gap_to_feature` through the terrain's answer cache (a door or hatch of one
    terrain by its id, the point by its exact coordinates): each model of an activation asks
    about every portal and every enemy, and the enemies stand still while it plans."""
    key = ("gap", feature.id, float(point[0]), float(point[1]))
    memo = _memo(ctx)
    raw = memo.get(key)
    if raw is None:
        raw = memo[key] = _gap_to_feature(feature, point, 0.0)
    return raw - radius  # type: ignore[no-any-return]


def _side_of(feature: Any, point: Sequence[float]) -> int:
    """Which side of a line door/hatch ``point`` is on (+1 / -1; 0 on the line)."""
    (x0, y0), (x1, y1) = feature.shape.coords[0], feature.shape.coords[-1]
    cross = (x1 - x0) * (point[1] - y0) - (y1 - y0) * (point[0] - x0)
    return 0 if abs(cross) < 1e-9 else (1 if cross > 0 else -1)


def _beside(feature: Any, side: int, radius: float, off: float) -> tuple[float, float] | None:
    """A base centre on ``side`` of a line door/hatch, facing its middle, its edge ``off``
    inches from it (None for a door or hatch drawn as a polygon)."""
    from shapely.geometry import LineString

    if not isinstance(feature.shape, LineString):
        return None
    (x0, y0), (x1, y1) = feature.shape.coords[0], feature.shape.coords[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1e-9:
        return None
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length  # the normal pointing to side +1
    mx, my = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    d = (radius + off) * side
    return (mx + nx * d, my + ny * d)


def _portal_word(feature: Any) -> str:
    return "hatch" if feature.has("hatch") else "door"


@dataclass
class _Way:
    """A closed door or hatch a model means to open: the portal, the enemy beyond, the
    distance to it now (None: no route at all) and with the doors open, and a point of the
    open-doors route on the model's side of the portal."""

    portal: Any
    goal: Operative
    now: float | None
    opened: float
    before: tuple[float, float]

    def why(self) -> str:
        if self.now is None:
            return f"the only way to {self.goal.label} is through it"
        return (f"it shortens the way to {self.goal.label} from {inches(self.now)} to "
                f"{inches(self.opened)}")


def _closed_way(ctx: Context, op: Operative, start: tuple[float, float], board: _Board,
                enemies: list[Operative], codes: dict[str, str]) -> _Way | None:
    """The closed door or hatch to open, when the model's goal (the closest enemy by the
    open-doors route) cannot be reached with the doors as they are, or only by a route at
    least ``PORTAL_SHORTCUT`` longer. The portal is the first closed one that the open-doors
    route to that enemy passes. To-cover and stationary orders never open the way (a sealed
    room is cover enough); hold / to firing range orders only when sealed off."""
    from shapely.geometry import LineString, Point

    if ctx.terrain_for is None or codes["move"] in (
            "remain_stationary", "to_cover", "to_cover_firing_line"):
        return None
    if not any(not f.open for f in ctx.terrain.board.portals()):
        return None
    if _no_shortcut(ctx, op, start, board, enemies, codes):
        return None  # (the answer below, without the open-doors terrain)
    octx = ctx.all_open()
    near_open = _nearest(octx, start, op.radius, enemies, board.pos)
    if not near_open or not math.isfinite(near_open[0][0]):
        return None
    opened, goal = near_open[0]
    near_now = _nearest(ctx, start, op.radius, enemies, board.pos)
    now = near_now[0][0] if near_now else math.inf
    if math.isfinite(now):
        if codes["move"] in ("hold_12", "to_firing_range"):
            return None
        if now - opened < PORTAL_SHORTCUT - 1e-9:
            return None
    route = octx.terrain.routes.distance(start, board.pos[goal.id], op.radius, goal.radius)
    if route.distance is None or len(route.points) < 2:
        return None
    line = LineString(route.points)
    best: tuple[float, Any] | None = None
    for feature in ctx.terrain.board.portals():
        if feature.open or not line.intersects(feature.shape):
            continue
        cross = line.intersection(feature.shape)
        pt = cross.representative_point()
        ends = feature.shape.boundary
        if not ends.is_empty and ends.distance(pt) < 0.02 and line.distance(
                feature.shape.centroid) > 0.5:
            continue  # only grazes an end of it (a wall corner), does not go through
        at = line.project(pt)
        if best is None or at < best[0]:
            best = (at, feature)
    if best is None:
        return None
    before = line.interpolate(max(0.0, best[0] - 0.5))
    if Point(before.x, before.y).distance(best[1].shape) < 1e-6:
        before = Point(start)
    return _Way(best[1], goal, None if not math.isfinite(now) else now, opened,
                (float(before.x), float(before.y)))


def _no_shortcut(ctx: Context, op: Operative, start: tuple[float, float], board: _Board,
                 enemies: list[Operative], codes: dict[str, str]) -> bool:
    """Whether :func:`_closed_way` returns None whatever the open-doors routes are, as seen
    from the routes as the doors stand: some enemy has a route now (``now`` finite) and either
    the order holds a distance (never opens a way it has) or no open-doors route can save
    ``PORTAL_SHORTCUT``: an open-doors route to any enemy is never shorter than the straight
    line to the nearest, so ``now - opened <= now - straight`` (1e-6 to spare for rounding)."""
    near_now = _nearest(ctx, start, op.radius, enemies, board.pos)
    now = near_now[0][0] if near_now else math.inf
    if not math.isfinite(now):
        return False
    if codes["move"] in ("hold_12", "to_firing_range"):
        return True
    straight = min(reach.straight_gap(start, op.radius, board.pos[e.id], e.radius)
                   for e in enemies)
    return now - (max(0.0, straight) - 1e-6) < PORTAL_SHORTCUT - 1e-9 - 1e-6


def _move_to_portal(ctx: Context, op: Operative, here: tuple[float, float], way: _Way,
                    kind: str, board: _Board) -> Action | None:
    """One move (``kind``) towards a point beside ``way.portal`` on the model's side, within
    its control range; as far as the move allows when it is farther."""
    allowance = move_allowance(op, kind, ctx.edition)
    if allowance <= 0:
        return None
    blockers = []
    for oid, p in board.pos.items():
        if oid == op.id:
            continue
        other = board.state.operatives[oid]
        extra = CONTROL_RANGE if other.side != op.side else 0.0
        blockers.append((p[0], p[1], other.radius + extra))
    side = _side_of(way.portal, way.before) if _beside(way.portal, 1, 0, 0) else 0
    goal = _beside(way.portal, side, op.radius, 0.3) if side else None
    walk = None
    if goal is not None and ctx.terrain.routes.fits(goal, op.radius):
        walk = ctx.terrain.routes.walk(here, goal, op.radius, blockers=blockers)
    if walk is None:  # no tidy spot beside it: the cheapest reachable point in its control range
        cand = _candidates(ctx, op, here, allowance, board)
        pts = cand.points
        if len(pts) == 0:
            return None
        gaps = np.array([_gap_to_feature(way.portal, p, op.radius) for p in pts])
        ok = gaps <= CONTROL_RANGE - 0.05
        if not ok.any():
            return None
        i = _pick(cand.cost, cand.cost, pts, ok)
        assert i is not None
        walk = cand.reach.path(i)
    end, spent = ctx.terrain.routes.advance(walk, allowance)
    end = (float(end[0]), float(end[1]))
    if math.hypot(end[0] - here[0], end[1] - here[1]) < 0.05:
        return None
    reach = "to" if _gap_to_feature(way.portal, end, op.radius) <= CONTROL_RANGE else "towards"
    return Action(kind, op.id, start=here, to=end, route=_route_to(walk, end), cost=float(spent),
                  note=f"{op.label} {_verb(kind)} {inches(float(spent))} {reach} "
                       f"{way.portal.id} to open it, to {fmt_pt(end)}.")


def _open_the_way(ctx: Context, op: Operative, board: _Board, enemies: list[Operative],
                  codes: dict[str, str], ap: int, plan: Plan
                  ) -> tuple[Context, int, set[str], bool, bool]:
    """Operate Hatch (Gallowdark) / open a door: when a closed portal stands between the model
    and its goal (:func:`_closed_way`), move to within its control range and open it, by the
    players' rule (:func:`solo_ops.rules.portals.operate`): 1 AP in Kill Team 2024 (after a
    Reposition or Dash too), none in a 2018 movement phase. Not while the model or the portal
    is within an enemy's control range.

    Returns the context after it (the new door state when opened), the AP left, the move
    kinds used, whether it moved, and whether it opened the portal."""
    here = board.pos[op.id]
    way = _closed_way(ctx, op, here, board, enemies, codes)
    if way is None:
        return ctx, ap, set(), False, False
    portal = way.portal
    word = _portal_word(portal)
    guarded = [e for e in enemies
               if _feature_gap(ctx, portal, board.pos[e.id], e.radius) <= CONTROL_RANGE + 1e-9]
    if guarded:
        plan.explain.append(
            f"{op.label} would open {portal.id} ({way.why()}), but {guarded[0].label} is within "
            f"1\" of the {word}: it cannot be operated while an enemy is in its control range.")
        return ctx, ap, set(), False, False
    kinds = ["reposition", "dash"] if ctx.edition == "kt2024" else ["normal"]
    used: set[str] = set()
    moved = False
    last: str | None = None
    while True:
        gap = _gap_to_feature(portal, here, op.radius)
        if gap <= CONTROL_RANGE + 1e-6:
            # the players' rule too (rules/portals.py): 1 AP in 2024, during a move or not
            verdict = portals.operate(
                ctx.edition, opening=True,
                phase="firefight" if ctx.edition == "kt2024" else "movement", gap=gap,
                in_enemy_control=bool(_in_control_range(ctx, here, op.radius, enemies,
                                                        board.pos)),
                portal_guarded=False, word=word)
            if not verdict.ok:
                plan.explain.append(f"{op.label} cannot open {portal.id}: {verdict.why}.")
                return ctx, ap, used, moved, False
            during = last is not None and portal.has("hatch")
            cost = verdict.cost
            if ap < cost:
                plan.explain.append(f"{op.label} reaches {portal.id} with no AP left to open it "
                                    "(it will next activation).")
                return ctx, ap, used, moved, False
            ap -= cost
            how = (f"at the end of its {(last or '').replace('_', ' ')}, 1 AP" if during and cost
                   else "1 AP" if cost else "in its move")
            action_word = "Operate Hatch" if portal.has("hatch") else "opens the door"
            note = (f"{op.label} opens {portal.id}: {way.why()} ({action_word}, {how}).")
            plan.actions.append(Action("operate_hatch", op.id, portal=portal.id, open=True,
                                       target=None, note=note))
            plan.explain.append(note)
            return ctx.with_open(portal.id), ap, used, moved, True
        kind = next((k for k in kinds if k not in used), None)
        if kind is None or ap <= 0:
            break
        mv = _move_to_portal(ctx, op, here, way, kind, board)
        if mv is None:
            break
        if not moved:
            plan.explain.append(f"{op.label} makes for {portal.id}, a closed {word}: "
                                f"{way.why()}.")
        plan.actions.append(mv)
        plan.explain.append(mv.note)
        board.pos[op.id] = mv.to  # type: ignore[assignment]
        here = mv.to  # type: ignore[assignment]
        used.add(kind)
        moved = True
        last = kind
        ap -= 1 if ctx.edition == "kt2024" else 0
        if ctx.edition != "kt2024":
            used.add("normal")
    if moved:
        plan.explain.append(f"{op.label} does not reach {portal.id} this activation.")
    return ctx, ap, used, moved, False


def _portal_fight(ctx: Context, op: Operative, here: tuple[float, float], board: _Board,
                  enemies: list[Operative], *, may_move: bool
                  ) -> tuple[Action | None, Action] | None:
    """Door Fight (Volkus) / Hatchway Fight (Gallowdark): touching a door (open or closed) or
    an open hatchway, fight an enemy within 2" of its other side. Not while an enemy on the
    model's side is within its control range (a door: any enemy). With ``may_move`` the model
    may first Reposition to touch it. The target is the enemy nearest the portal (then id);
    the portal the one the model touches now, else the cheapest to reach."""
    best: tuple[tuple[float, float, str], Action | None, Action] | None = None
    for portal in ctx.terrain.board.portals():
        if portal.has("hatch") and not portal.open:
            continue
        if _beside(portal, 1, 0, 0) is None:
            continue
        touching = _feature_gap(ctx, portal, here, op.radius) <= PORTAL_TOUCH + 1e-9
        mine = _side_of(portal, here)
        if not touching and not may_move:
            continue
        foes = []
        for e in enemies:
            ep = board.pos[e.id]
            gap = _feature_gap(ctx, portal, ep, e.radius)
            if gap <= PORTAL_FIGHT_REACH + 1e-9 and _side_of(portal, ep) not in (0, mine):
                foes.append((gap, e.id, e))
        if not foes or mine == 0:
            continue
        foes.sort(key=lambda f: (f[0], f[1]))
        gap_t, _, target = foes[0]
        move = None
        spot = here
        cost = 0.0
        if not touching:
            spot_c = _beside(portal, mine, op.radius, PORTAL_TOUCH / 2)
            if spot_c is None or not ctx.terrain.routes.fits(spot_c, op.radius):
                continue
            blockers = [(p[0], p[1], board.state.operatives[i].radius
                         + (CONTROL_RANGE if board.state.operatives[i].side != op.side else 0))
                        for i, p in board.pos.items() if i != op.id]
            walk = ctx.terrain.routes.walk(here, spot_c, op.radius, blockers=blockers)
            allowance = move_allowance(op, "reposition", ctx.edition)
            if walk is None or walk.cost > allowance + 1e-6:
                continue
            spot, cost = spot_c, float(walk.cost)
            move = Action("reposition", op.id, start=here, to=spot,
                          route=tuple(walk.points), cost=cost,
                          note=f"{op.label} repositions {inches(cost)} to {fmt_pt(spot)}, "
                               f"touching {portal.id}.")
        same_side = [e for e in _in_control_range(ctx, spot, op.radius, enemies, board.pos)
                     if portal.has("door") or _side_of(portal, board.pos[e.id]) == mine]
        if same_side:
            continue
        name = "Hatchway Fight" if portal.has("hatch") else "Door Fight"
        weapon = op.profile.melee_weapons[0].name if op.profile.melee_weapons else None
        fight = Action("fight", op.id, target=target.id, weapon=weapon, portal=portal.id,
                       note=f"{op.label} fights {target.label} across {portal.id} ({name}, 1 AP: "
                            f"it touches the {_portal_word(portal)} and {target.label} is "
                            f"{inches(gap_t)} beyond it).")
        key = (0.0 if touching else 1.0, cost, portal.id)
        if best is None or key < best[0]:
            best = (key, move, fight)
    return None if best is None else (best[1], best[2])


def _guard_target(ctx: Context, guard: Operative, at: tuple[float, float], target: Operative,
                  pos: dict[str, tuple[float, float]]) -> tuple[str, Action] | None:
    """What an On Guard model does to ``target`` when it interrupts: ``("fight", ...)`` when
    the target is in its control range and it has a melee weapon, else ``("shoot", ...)`` if
    the target is a valid target (in control range too, at -1 to hit), or None. Heavy
    weapons may fire (Heavy has no effect on Guard)."""
    engaged = _in_control_range(ctx, at, guard.radius, [target], pos)
    if engaged and guard.profile.melee_weapons:
        weapon = guard.profile.melee_weapons[0].name
        return "fight", Action("fight", guard.id, target=target.id, weapon=weapon,
                               note=f"{guard.label} is On Guard and fights {target.label}, now "
                                    "in its control range.")
    shot, _ = choose_shot(ctx, guard, at, [target], pos, moved=False, moved_how=None)
    if shot is None:
        return None
    shot.note = "On Guard: " + shot.note
    if engaged:
        shot.note += " It is in control range: -1 to hit."
    return "shoot", shot


def guard_reaction(ctx: Context, state: State, guard_id: str, target_id: str
                   ) -> tuple[str, Action] | None:
    """Pure: whether On Guard model ``guard_id`` interrupts ``target_id``'s activation now,
    and how (see :func:`_guard_target`)."""
    board = _Board(state)
    guard = state.operatives[guard_id]
    target = state.operatives[target_id]
    if guard.id not in board.pos or target.id not in board.pos:
        return None
    return _guard_target(ctx, guard, board.pos[guard.id], target, board.pos)


def _may_guard(ctx: Context, op: Operative, at: tuple[float, float],
               enemies: list[Operative], board: _Board, codes: dict[str, str],
               ap: int, shot_done: bool) -> bool:
    """Guard (Gallowdark, 1 AP, a Shoot action): the order lets it shoot (fire at will, or an
    unhindered move after its move), it has AP left and a ranged weapon, no shot this
    activation and no valid target from where it ends, and no enemy in its control range.
    Guard is one of the Gallowdark killzone's actions: on any other board it is not offered."""
    if ctx.edition != "kt2024" or ap <= 0 or shot_done:
        return False
    if ctx.terrain.board.killzone != GALLOWDARK:
        return False
    if codes["shoot"] not in ("fire_at_will", "unhindered_move"):
        return False
    if not op.profile.ranged_weapons:
        return False
    if _in_control_range(ctx, at, op.radius, enemies, board.pos):
        return False
    shot, _ = choose_shot(ctx, op, at, enemies, board.pos, moved=False, moved_how=None)
    return shot is None


def replan_model(ctx: Context, state: State, unit_id: str, model_id: str, phase: str,
                 spent: Sequence[Action]) -> Plan:
    """The rest of one model's activation when its plan has gone stale (a model it was to
    shoot, charge or fight is no longer on the table, or no longer in reach): what its order
    asks of it now, from where it stands, with the AP and actions it has left (``spent``: what
    it has carried out this activation). Allies are not answered again (they were when the
    activation was planned). Pure, like :func:`plan_activation`."""
    unit = state.units[unit_id]
    order = order_table(unit.troop)[unit.command]
    plan = Plan(unit.id, unit.command, unit.troop, order, unit.fsm)
    board = _Board(state)
    enemies = board.enemies_of_ai()
    op = state.operatives[model_id]
    if not enemies or op.id not in board.pos:
        plan.explain.append(f"{op.label} has no enemy left to act against.")
        return plan
    result = _plan_model(ctx, state, unit, op, order, order.codes(), board, enemies, None,
                         phase, plan, spent=spent)
    if result["guard"] and op.stance == "engage" and not any(
            a.kind in ("shoot", "fight", "charge") for a in plan.actions):
        note = (f"{op.label} goes On Guard (Guard, 1 AP): no enemy in sight and range.")
        plan.actions.append(Action("guard", op.id, note=note))
        plan.explain.append(note)
    return plan


def _shared_commands(ready: list[Unit]) -> set[int]:
    """The commands held by more than one of ``ready``: the distance to the enemy orders only
    units of the same command, so a unit alone with its command is placed by its command
    whatever its distance and :func:`activation_order` does not measure it."""
    commands = [u.command for u in ready]
    return {c for c in commands if commands.count(c) > 1}


def activation_order(ctx: Context, state: State, ready: list[Unit]) -> list[Unit]:
    """RULES-NOTES: highest command first; ties to the unit nearest an enemy model."""
    enemies = state.living(PLAYER)
    pos = {o.id: o.at for o in state.operatives.values() if o.on_table and o.at}
    shared = _shared_commands(ready)

    def nearest(unit: Unit) -> float:
        if unit.command not in shared:
            return 0.0
        best = math.inf
        for m in state.unit_models(unit):
            near = _nearest(ctx, m.at, m.radius, enemies, pos)  # type: ignore[arg-type]
            if near:
                best = min(best, near[0][0])
        return best

    return sorted(ready, key=lambda u: (-u.command, nearest(u), u.id))


def first_to_activate(ctx: Context, state: State, ready: list[Unit]) -> list[Unit]:
    """``activation_order(ctx, state, ready)[:1]``: the unit that activates next (none when
    nothing is ready), measuring only the units of the highest command among ``ready`` (the
    engine needs the first alone; the others' distances cannot change which it is)."""
    if not ready:
        return []
    top = max(u.command for u in ready)
    return activation_order(ctx, state, [u for u in ready if u.command == top])[:1]


__all__ = ["ENEMY", "Action", "Context", "Plan", "activation_order", "first_to_activate",
           "plan_activation"]
