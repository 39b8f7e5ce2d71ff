"""What the planner works with: its plan (actions), the game context, and its cached questions.

:class:`Action` (one action of one model) and :class:`Plan` (a unit's activation, with its
explanation) are what :func:`solo_ops.ai.planner.plan_activation` returns; :class:`Context` is
the game facts it reads (terrain of the current doors, settings, odds); ``WorkingBoard`` its working
copy of positions. The geometry questions the planner asks over and over (route distances,
sight, cover, control range, the nearest and the visible enemies) go through the terrain's
answer cache (``answer_memo``): the same answers, asked once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from solo_ops.ai import fsm
from solo_ops.core.tables import Order
from solo_ops.game.state import PLAYER, Operative, State
from solo_ops.geometry.placement import Base
from solo_ops.rules import reach

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


CONTROL_RANGE = reach.CONTROL_RANGE


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
    rest: bool = False  # a move's rest after a door or hatch it opened on its way (no AP)
    told: tuple[str, str, str] | None = None
    """A Kill Team 2018 Advance's words in parts, for the engine to tell the move again once
    its roll is known (:func:`solo_ops.game.play2018.retell_advance`): the order's reason
    ("towards kell (the closest enemy with line of sight)"), what the planned end finds ("
    It ends 5.7\" from kell.") and why it Advances. Words only: not in :meth:`to_dict`."""

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
        if self.rest:
            data["rest"] = True
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
    allies: str | None = None
    """The ally unit this one answers (a rally or grouping with leaders: allies override
    movement, 003), or None."""

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


# -- context: what the planner needs from the engine -----------------------------------------------
@dataclass
class Tally:
    """The work a game has computed so far, counted where it is spent: ``plans``, the models
    whose actions the enemy's planner chose among its sequences
    (:func:`~solo_ops.ai.sequences.choose_sequence`, for an activation, a hidden counter's
    plan or a re-plan alike). With the steps played, what a simulated mission cost, counted
    the same on every machine (a campaign's proposal budgets by it:
    :func:`solo_ops.sim.proposal.mission_cost`)."""

    plans: int = 0


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
    # the side of each model id (Kill Team 2018 shooting from and into combat:
    # rules.kt2018.combat_shot_refusal); empty: the rule is not asked
    sides: Mapping[str, str] = field(default_factory=dict)
    radii: Mapping[str, float] = field(default_factory=dict)  # each model's base radius
    tally: Tally | None = None
    """Where the planner counts the models it plans (the game's :class:`Tally`); None: not
    counted."""
    words: bool = True
    """Whether a plan's notes say what costs geometry to find out and only a reader needs (what
    blocks a way): off in the simulator (``Game.words``)."""
    moving: Any = None
    """callable(kind) -> the Terrain a move of that kind walks on when an effect in force
    changes it (Kill Team 2018: an Advance through walls under Dimensional Destabilisation,
    never over a starslave conduit under Hazardous Conduit Flares:
    ``Game.moving_terrain``); None: every move walks on :attr:`terrain`."""

    def for_move(self, kind: str | None) -> Context:
        """This context with the terrain a move of ``kind`` walks on (itself when no effect in
        force changes it): its routes and reach; where a base may end is still asked of
        :attr:`terrain` (004 "but cannot end the move within the wall")."""
        if self.moving is None or kind is None:
            return self
        walking = self.moving(kind)
        return self if walking is self.terrain else replace(self, terrain=walking, moving=None)

    def with_open(self, portal: str) -> Context:
        """This context after ``portal`` is opened (the terrain of the new door state)."""
        doors = {f.id: f.open for f in self.terrain.board.portals()}
        doors[portal] = True
        return replace(self, terrain=self.terrain_for(doors))

    def all_open(self) -> Context:
        """This context with every door and hatch open (to see where a route would go)."""
        return replace(self, terrain=self.terrain_for(
            {f.id: True for f in self.terrain.board.portals()}))


move_allowance = reach.move_allowance  # the one move allowance, for both sides


class WorkingBoard:
    """The planner's working copy of positions (models it has already moved stay moved)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.pos: dict[str, tuple[float, float]] = {
            o.id: o.at for o in state.operatives.values() if o.on_table and o.at is not None
        }
        # the bases that stay put while the planner works: downed operatives lying on the
        # table and hidden counters (the placement rule, geometry.placement): no end point
        # may overlap them, and walks go round them
        self.fixed: list[tuple[float, float, float]] = [
            (b.x, b.y, b.r) for b in state.bases(exclude=self.pos)]
        # Kill Team 2018: where the charges declared this activation are planned to end (the
        # engine rolls them later, in turn): a later charger plans another spot
        self.reserved: list[tuple[float, float, float]] = []

    def enemies_of_ai(self) -> list[Operative]:
        return [o for o in self.state.living(PLAYER) if o.id in self.pos]

    def others(self, exclude: str) -> list[tuple[float, float, float]]:
        return [(p[0], p[1], self.state.operatives[i].radius)
                for i, p in self.pos.items() if i != exclude]

    def labelled(self, exclude: str) -> list[Base]:
        """Every other base with its label (for saying what blocks a move): the models where
        the planner has them, then the downed and the counters."""
        out = [Base(p[0], p[1], self.state.operatives[i].radius, self.state.operatives[i].label,
                    i) for i, p in self.pos.items() if i != exclude]
        return out + self.state.bases(exclude=[*self.pos, exclude])

    def bases(self, exclude: str | tuple[str, ...] = ()) -> list[tuple[float, float, float]]:
        """Every base on the planner's table as a disc but those of ``exclude``: the models
        where the planner has them, the downed and the counters (:attr:`fixed`)."""
        skip = {exclude} if isinstance(exclude, str) else set(exclude)
        return [(p[0], p[1], self.state.operatives[i].radius)
                for i, p in self.pos.items() if i not in skip] + self.fixed


# Answers to the planner's repeated point questions, per terrain object (a terrain is one
# board in one door state and never changes, so its answers stay valid): the planner asks the
# same "how far / can it see" of the same positions many times in one turn.
_MEMO_LIMIT = 20_000


def answer_memo(ctx: Context) -> dict[tuple[Any, ...], Any]:
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
    memo = answer_memo(ctx)
    out = memo.get(key)
    if out is None:
        out = np.asarray(ctx.terrain.routes.distances(point, radius, arr, radii), dtype=float)
        memo[key] = out
    return out


def visible(ctx: Context, a: Sequence[float], b: Sequence[float], ra: float, rb: float
            ) -> bool:
    """``sight.visible`` through the terrain's answer cache."""
    key = ("v", _key_pt(a), _key_pt(b), float(ra), float(rb))
    memo = answer_memo(ctx)
    out = memo.get(key)
    if out is None:
        out = bool(ctx.terrain.sight.visible(a, b, ra, rb))
        memo[key] = out
    return out


def _route_distance(ctx: Context, a: Sequence[float], b: Sequence[float], ra: float,
                    rb: float) -> float | None:
    """``routes.distance(...).distance`` through the terrain's answer cache."""
    key = ("r", _key_pt(a), _key_pt(b), float(ra), float(rb))
    memo = answer_memo(ctx)
    if key not in memo:
        memo[key] = ctx.terrain.routes.distance(a, b, ra, rb).distance
    return memo[key]  # type: ignore[no-any-return]


def _cover(ctx: Context, a: Sequence[float], b: Sequence[float], ra: float, rb: float, *,
           seek: bool, seek_light: bool) -> Any:
    """``sight.cover`` through the terrain's answer cache (results are read, never changed)."""
    key = ("c", _key_pt(a), _key_pt(b), float(ra), float(rb), seek, seek_light, ctx.edition)
    memo = answer_memo(ctx)
    out = memo.get(key)
    if out is None:
        out = ctx.terrain.sight.cover(a, b, ra, rb, seek=seek, seek_light=seek_light,
                                      edition=ctx.edition)
        memo[key] = out
    return out


def nearest_targets(ctx: Context, point: tuple[float, float], radius: float,
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


def visible_targets(ctx: Context, point: tuple[float, float], radius: float,
                    targets: list[Operative], pos: dict[str, tuple[float, float]]
                    ) -> list[Operative]:
    """The targets visible from a base at ``point``: :func:`visible` of each, the pairs not
    yet in the answer cache asked in one ``visibility_matrix`` batch (each pair's answer is
    the same in any batch)."""
    memo = answer_memo(ctx)
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
        known[todo[0]] = visible(ctx, point, pos[t.id], radius, t.radius)
    return [t for t, v in zip(targets, known, strict=True) if v]


def in_control_range(ctx: Context, point: tuple[float, float], radius: float,
                     targets: list[Operative], pos: dict[str, tuple[float, float]]
                     ) -> list[Operative]:
    """Enemies in control range of a base at ``point`` (:func:`reach.in_control_range`: within
    1" around the walls and visible), by the planner's working positions ``pos``."""
    return [t for t in targets
            if reach.in_control_range(ctx.terrain, point, radius, pos[t.id], t.radius)]


def _closest_enemy(ctx: Context, op: Operative, here: tuple[float, float],
                   enemies: list[Operative], board: WorkingBoard) -> tuple[float, Operative] | None:
    """The closest enemy with line of sight from ``here`` (distance around the walls); when
    none is in sight, the closest by route (the unit hunts rather than freezes)."""
    near = nearest_targets(ctx, here, op.radius, enemies, board.pos)
    vis = {v.id for v in visible_targets(ctx, here, op.radius, enemies, board.pos)}
    seen = [(d, t) for d, t in near if t.id in vis]
    if seen:
        return seen[0]
    return near[0] if near else None


def _ids_visible(ctx: Context, op: Operative, start: tuple[float, float],
                 enemies: list[Operative], board: WorkingBoard) -> set[str]:
    return {v.id for v in visible_targets(ctx, start, op.radius, enemies, board.pos)}
