"""The enemy's charges in play: a planned charge carried out (:func:`enemy_charge`: the 2024
Charge move, or the Kill Team 2018 charge roll and the move along the planned route as far as
it allows; one that falls short as close to its target as it can), and in Kill Team 2018 the
charge declared first (:func:`declare_charge`) when its target may React
(:func:`reaction_due`; why it may not, :func:`no_reaction`), then rolled once the players have
answered (:func:`charge_after_reaction`).
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any

from solo_ops.ai.combat import charge_option
from solo_ops.ai.context import WorkingBoard
from solo_ops.ai.planner import Action
from solo_ops.game import pariah, placing
from solo_ops.game.mines import check_mines
from solo_ops.game.play2018 import after_move as _after_move
from solo_ops.game.play2018 import may_not_react, overwatch_hits_on
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.geometry import placement
from solo_ops.rules import kt2018_reactions, reach
from solo_ops.rules.reach import round_point as _r

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


def reaction_due(game: Game, state: State, op: Operative, action: Action) -> bool:
    """Kill Team 2018: a charge rolled by the engine (``action.to`` None) at a player model
    that may React (:func:`may_not_react`): the target may React first (004 "After you have
    declared a charge, any opponents take it in turn to make Reactions")."""
    if state.edition != "kt2018" or action.to is not None or action.target is None:
        return False
    target = state.operatives.get(action.target)
    if target is None or not target.on_table or target.side != PLAYER or target.at is None:
        return False
    return not may_not_react(game, state, target)


def declare_charge(game: Game, state: State, op: Operative, action: Action
                   ) -> list[dict[str, Any]]:
    """Declare a 2018 charge at a target that may React (Overwatch, Retreat or none) and
    leave the question waiting in ``state.pending_attacks``, with no step to run again: the
    charge is rolled when the player has answered (``actions._reaction`` calls
    :func:`charge_after_reaction`). A question saves made before the Reaction was asked in
    its step hold; the engine's steps ask it there and then
    (:func:`solo_ops.game.reactions.asked_in_step`)."""
    state.pending_attacks.append(reaction_entry(game, state, op, action))
    return [declared(state, op, action)]


def declared(state: State, op: Operative, action: Action) -> dict[str, Any]:
    """The ``charge_declared`` event of ``op``'s charge ``action``."""
    target = state.operatives[action.target]  # type: ignore[index]
    return {"type": "charge_declared", "operative": op.id, "target": target.id,
            "note": f"{op.label} declares a charge at {target.name}."}


def reaction_entry(game: Game, state: State, op: Operative, action: Action) -> dict[str, Any]:
    """The question a declared charge asks its target's player: the ``reaction`` entry of
    ``state.pending_attacks`` (charger, target, the words, whether a Retreat is offered, the
    planned route and the charge's note). A Retreat is offered unless the target has moved
    this phase (:func:`solo_ops.rules.kt2018_reactions.may_retreat`), as far as the effects
    allow."""
    target = state.operatives[action.target]  # type: ignore[index]
    may_retreat = kt2018_reactions.may_retreat(target.moved_how) is None
    far, _ = pariah.retreat_distance(game, state, target)
    hits_on = overwatch_hits_on(game, state, target, op)
    text = (f"{op.label} declares a charge at {target.name}: react with Overwatch "
            f"('overwatch [with WEAPON] roll' or 'overwatch damage N'; hits on {hits_on})"
            + (f", Retreat ('retreat X,Y', up to {far:g}\" away from it)" if may_retreat
               else "")
            + " or 'no'?")
    return {"kind": "reaction", "attacker": op.id, "target": target.id, "text": text,
            "retreat": may_retreat, "route": [list(p) for p in action.route],
            "note": action.note}


def no_reaction(game: Game, state: State, action: Action) -> list[dict[str, Any]]:
    """A 2018 charge rolled at once at a player model that cannot React: the charge declared
    (told as every declared charge is) and why its target cannot React."""
    target = state.operatives.get(action.target or "")
    if (state.edition != "kt2018" or action.to is not None or target is None
            or target.side != PLAYER or not target.on_table):
        return []
    told = [declared(state, state.operatives[action.model], action)]
    why = may_not_react(game, state, target)
    return told if why is None else [*told, {"type": "cannot_react", "operative": target.id,
                                             "why": why}]


def charge_after_reaction(game: Game, state: State, entry: dict[str, Any],
                          retreated: bool) -> list[dict[str, Any]]:
    """The declared charge, after the target's Reaction: rolled along the planned route, or
    (the target retreated) along a new route to within 1" of it; none if the charger is
    gone."""
    op = state.operatives[entry["attacker"]]
    target = state.operatives[entry["target"]]
    if not op.on_table or not target.on_table or op.at is None or target.at is None:
        return []
    route = tuple(tuple(p) for p in entry.get("route") or ())
    if retreated or len(route) < 2:  # the way it would be planned now (clear of 1" of the
        route = _way_now(game, state, op, target) or ()  # other enemy models), else:
    if len(route) < 2:
        terrain = game.terrain(state)
        others = placement.discs(state.bases(exclude=(op.id, target.id)))
        walk = terrain.routes.walk(op.at, target.at, op.radius, blockers=others)
        if walk is None:
            return [{"type": "charge_failed", "operative": op.id, "target": target.id,
                     "note": f"{op.label} has no way to {target.label} any more."}]
        # stop short of the target's base: within 1" of it (0.5" from it)
        route = _cut(walk.points, max(0.0, walk.length - (op.radius + target.radius + 0.5)))
    action = Action("charge", op.id, start=op.at, route=route,  # type: ignore[arg-type]
                    target=target.id, note=str(entry.get("note", "")))
    return enemy_charge(game, state, op, action)


def _cut(points: Any, length: float) -> tuple[tuple[float, float], ...]:
    """The first ``length`` inches of a polyline."""
    out = [tuple(points[0])]
    left = length
    for a, b in itertools.pairwise(points):
        d = math.dist(a, b)
        if d >= left:
            f = left / d if d else 0.0
            out.append((a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f))
            return tuple(out)  # type: ignore[return-value]
        out.append(tuple(b))
        left -= d
    return tuple(out)  # type: ignore[return-value]


def enemy_charge(game: Game, state: State, op: Operative, action: Action
                 ) -> list[dict[str, Any]]:
    """Carry out an enemy's planned charge at ``action.target`` (see the module docstring)."""
    target = state.operatives[action.target]  # type: ignore[index]
    events: list[dict[str, Any]] = []
    if state.edition == "kt2018" and pariah.frozen(state, op):
        return [{"type": "charge_failed", "operative": op.id, "target": target.id,
                 "note": f"{op.label} stood on a petrific divisor when it activated: it cannot "
                         "move, nor charge, this battle round (Power Flux)."}]
    if action.to is None:
        return _rolled_charge(game, state, op, target, action)
    old = op.at
    assert old is not None and action.to is not None
    to, walk, blocked = placing.placed(game, state, op,
                                       action.route if len(action.route) >= 2
                                       else (old, action.to),
                                       placing.allowance(state, op, "charge"))
    moved_short = to is not None and (blocked is not None or math.dist(to, action.to) > 0.005)
    if to is None or (moved_short and target.at is not None and not reach.in_control_range(
            game.terrain(state), to, op.radius, target.at, target.radius)):
        return [{"type": "charge_failed", "operative": op.id, "target": target.id,
                 "from": _r(old), "to": _r(old), "blocked_by": blocked,
                 "note": f"{op.label} cannot end its charge in {target.label}'s control range: "
                         f"{blocked or 'its route costs more than its charge move'}."}]
    op.at = to
    op.moved = True
    op.charged = True
    op.moved_how = "charge"
    cost = float(walk.cost)
    events.append({"type": "charged", "operative": op.id, "target": target.id, "from": _r(old),
                   "to": _r(to), "route": [_r(p) for p in walk.points],
                   "cost": round(cost, 2), "note": action.note,
                   **({"blocked_by": blocked} if blocked else {}),
                   **placing.move_facts(game.terrain(state), state, op.id, op.radius,
                                        walk.points, game.words)})
    return events + check_mines(game, state, op, walk.points)


def _rolled_charge(game: Game, state: State, op: Operative, target: Operative, action: Action
                   ) -> list[dict[str, Any]]:
    """A Kill Team 2018 charge: roll 2D6 (with the Pariah Nexus effects on the charge roll)
    and move along the planned route as far as the roll allows; when a base now stands on
    that way (a unit-mate's charge, rolled first, ended there) and the roll does not reach
    along it, along the way the charge would be planned now, if that one reaches (004 "the
    model must finish its move within 1\" of at least one of the target models": the way
    is the player's choice as the model moves)."""
    events: list[dict[str, Any]] = []
    rolled, dice_words = pariah.charge_roll(game, state, op, [target])
    terrain = game.terrain(state)
    # the planned route ends within 1" of the target and keeps out of 1" of every other
    # enemy; the model goes along it as far as the roll allows
    start = op.at
    assert start is not None
    route = tuple(action.route) if len(action.route) >= 2 else (start, start)
    # as far along it as the roll allows and its base may stand (the placement rule)
    end, walk, blocked = placing.placed(game, state, op, route, float(rolled))
    if end is None:
        end, walk = start, terrain.routes.walk_through((start, start), op.radius)

    def reaches(at: Any) -> bool:
        return target.on_table and reach.engaged_2018(
            terrain, at, op.radius, target.at, target.radius)  # type: ignore[arg-type]

    success = reaches(end)
    rerouted = None
    if blocked is not None and not success:  # a base on the planned way: the way now
        around = _way_now(game, state, op, target)
        if around is not None:
            there, walk_there, _ = placing.placed(game, state, op, around, float(rolled))
            if there is not None and reaches(there):
                rerouted, end, walk, success = blocked, there, walk_there, True
                blocked = None
    if not success:  # 004: "as close as possible" to its target, not within 1" of an enemy
        end, walk = _as_close_as_possible(game, state, op, target, float(rolled), end, walk)
    old = op.at
    op.at = (float(end[0]), float(end[1]))
    op.charged = success
    op.moved = True
    op.moved_how = "charge"
    short = f" ({blocked})" if blocked and not success else ""
    events.append({"type": "charged" if success else "charge_failed", "operative": op.id,
                   "target": target.id, "roll": rolled, "dice": dice_words,
                   "from": _r(old),
                   "to": _r(op.at), "route": [_r(p) for p in walk.points],
                   "cost": round(float(walk.cost), 2),
                   **({"blocked_by": blocked} if blocked else {}),
                   **placing.move_facts(terrain, state, op.id, op.radius, walk.points,
                                       game.words),
                   **({"rerouted": rerouted} if rerouted else {}),
                   "note": f"{op.label} rolls {rolled} for the charge ({dice_words}) "
                   f"and {'reaches' if success else 'falls short of'} {target.label}"
                   f"{short}"
                   + (f" by another way (the planned one: {rerouted})" if rerouted else "")
                   + "."})
    return (events + check_mines(game, state, op, walk.points)
            + _after_move(game, state, op, "charge", walk.points))


FAILED_CHARGE_GRID = 0.25
"""Inches: the spacing of the points a failed 2018 charge may end on, besides the end of its
planned route (:func:`_as_close_as_possible`)."""


def _as_close_as_possible(game: Game, state: State, op: Operative, target: Operative,
                          rolled: float, end: Any, walk: Any) -> tuple[Any, Any]:
    """Where a Kill Team 2018 charge that falls short ends, and the walk there. 004 Charge
    Move: "If the charge roll is insufficient ... the model can move up to its charge
    distance, as long as that move takes it as close as possible to at least one of the
    targets of its charge, and not within 1" of any enemy models" -- the players' check
    (:mod:`solo_ops.game.player_moves`) holds their models to "closer", measured around the
    walls. Of the points the roll's movement reaches around every base without coming
    within 1" of an enemy model (the target included: the charge failed), on a
    :data:`FAILED_CHARGE_GRID` grid, and the end of the planned route (``end``, ``walk``),
    the one nearest the target around the walls (the cheaper of two as near); where it
    stands when none is nearer (it does not move)."""
    terrain = game.terrain(state)
    assert op.at is not None and target.at is not None
    start = (float(op.at[0]), float(op.at[1]))
    enemies = [o for o in state.living(PLAYER if op.side != PLAYER else ENEMY)
               if o.at is not None]
    keep_out = [(x, y, float(o.radius) + reach.CONTROL_RANGE)
                for o in enemies for x, y in [o.at or (0.0, 0.0)]]
    others = [b[:3] for b in state.bases(exclude=(op.id, *(o.id for o in enemies)))]
    got = terrain.routes.reachable(start, op.radius, rolled, blockers=others + keep_out,
                                   spacing=FAILED_CHARGE_GRID)
    points = [tuple(map(float, p)) for p in got.points[1:]]
    costs = [float(c) for c in got.cost[1:]]
    walks: list[Any] = [lambda i=i: got.walk_of(i + 1) for i in range(len(points))]
    if math.dist(end, start) > 1e-9 and not reach.within_reach(terrain, op, enemies, at=end):
        points.append((float(end[0]), float(end[1])))
        costs.append(float(walk.cost))
        walks.append(lambda: walk)
    before = reach.route_gap(terrain, start, op.radius, target.at, target.radius)
    if not points:
        return start, terrain.routes.walk_through((start, start), op.radius)
    gaps = terrain.routes.distances(target.at, target.radius, points, op.radius)
    best = min(range(len(points)), key=lambda i: (round(float(gaps[i]), 6), costs[i], i))
    if not float(gaps[best]) < before - 1e-6:
        return start, terrain.routes.walk_through((start, start), op.radius)
    return points[best], walks[best]()


def _way_now(game: Game, state: State, op: Operative, target: Operative
             ) -> tuple[tuple[float, float], ...] | None:
    """The way a 2018 charge of ``op`` at ``target`` would be planned now (the AI's, as it
    plans every charge: to the cheapest spot within 1\" of the target that keeps out of 1\"
    of every other enemy model, around every base as they stand), or None."""
    if op.at is None or target.at is None:
        return None
    terrain = game.terrain(state)
    gap = terrain.routes.distance(op.at, target.at, op.radius, target.radius).distance
    if gap is None or not math.isfinite(gap):
        return None
    planned = charge_option(game.context(state), op, op.at, WorkingBoard(state),
                            [(float(gap), target)], {"charge": "yes"}, "kt2018")
    return None if planned is None else tuple(planned.route)
