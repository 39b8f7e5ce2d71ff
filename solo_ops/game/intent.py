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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from solo_ops.core.errors import RuleError
from solo_ops.core.names import join_names
from solo_ops.game import move_goals, placing, turns
from solo_ops.game.action_checks import _enemies_in_control, move_limit
from solo_ops.game.referents import Referent, referents
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.game.weapon_choice import weapon_refusals
from solo_ops.geometry import placement, search
from solo_ops.geometry.placement import Base
from solo_ops.rules import kt2018, reach, referee

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.geometry.terrain import Terrain


NEAR_FEATURE = 1.0
"""``behind FEATURE``: the base ends within this of the feature (inches)."""


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
            why = turns.why_not_ready(game, state, state.operatives[named])
            raise RuleError(f"{named} cannot act now" + (f": {why}" if why else "")
                            + f" (ready: {', '.join(ready)})") from None
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
        if named == active.carrying and kind in ("move", "evacuate"):
            named = active.id  # "move rask toward edge": the one carrying him moves
        if named != active.id:
            raise RuleError(f"{named} is not the active operative ({active.id} is)")
        a["operative"] = named
    enemies = [o.id for o in _enemies_on_table(state, active.side)]
    if (kind == "move" and state.edition == "kt2018" and a.get("how") == "charge"
            and a.get("relation") == "contact" and active.charge_roll is None):
        # Kill Team 2018 "charge X": the charge is declared and rolled first (004 Charge
        # Move); where it ends is the next answer, within the roll
        a = {"type": "move", "how": "charge", "operative": a.get("operative"),
             "target": a.get("ref")}
    if kind in ("shoot", "fight") or (kind == "move" and a.get("how") == "charge"
                                      and a.get("target") is not None):
        a["target"] = match(a.get("target"), enemies, "enemy on the table")
    if kind == "carry":
        downed = [o.id for o in _friends(state, active) if o.lying]  # (not one carried)
        a["target"] = match(a.get("target"), downed, "downed friend")
    if kind == "shoot":
        a.update(_weapon_for_shot(game, state, active, a))
    if kind == "fight" and a.get("weapon"):
        a["weapon"] = match(a["weapon"],
                            [w.name for w in kt2018.melee_weapons(active.profile, state.edition)],
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
    refusals = weapon_refusals(game, state, op, state.operatives[a["target"]])
    fit = [w for w, why in refusals if why is None]
    if len(fit) == 1:
        return {"weapon": fit[0].name}
    if a.get("roll"):
        if not fit:
            raise RuleError(f"none of {op.id}'s weapons can shoot {a['target']} now: "
                            + "; ".join(str(why) for _, why in refusals))
        raise RuleError(f"which weapon? 'with {fit[0].name}' ({_choices([w.name for w in fit])})")
    return {}


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
    blocked_by: str | None = None  # what stopped it short: a base in the way, a climb unpaid
    then: tuple[dict[str, Any], ...] = ()  # actions made after the move (``evacuate``)


def _named(refs: dict[str, Referent], op: Operative, name: Any, relation: str, how: str
           ) -> Referent:
    """What a relative answer names, among what it may name: a terrain feature or a thin wall
    to get behind; an enemy model to charge; anything else but the mover (and the friend it
    carries) to go to. A wall named to go to is refused in words: it is only to get behind."""
    choices = [k for k, v in refs.items() if k not in (op.id, op.carrying) and not (
        relation == "behind" and v.kind not in ("feature", "wall")) and not (
        relation != "behind" and v.kind == "wall") and not (
        how == "charge" and (v.kind != "model" or v.side == op.side))]
    named = refs.get(str(name))
    if named is not None and named.kind == "wall" and relation != "behind":
        raise RuleError(f"{named.id} is a wall: it is named to get behind it ('move behind "
                        f"{named.id}'), not to go to")
    what = {"behind": "terrain feature"}.get(relation, "enemy on the table" if how == "charge"
                                             else "thing on the table")
    return refs[match(name, choices, what)]


def _how_and_target(state: State, op: Operative, how: str, relation: str, ref: Referent
                    ) -> tuple[str, str | None]:
    """The move a relative answer makes and its charge target: base contact with an enemy is
    a charge; a Kill Team 2018 Advance or charge already rolled makes the next move its own
    (:func:`solo_ops.game.player_moves.declared_move`), at the declared target."""
    if relation == "contact" and ref.kind == "model" and ref.side != op.side:
        how = "charge"
    if state.edition == "kt2018":
        from solo_ops.game.player_moves import declared_move

        how = declared_move(op, how, {})[0]
    if how == "charge" and op.charge_target is not None:
        return how, op.charge_target
    if how == "charge" and (ref.kind != "model" or ref.side == op.side):
        raise RuleError(f"a charge needs an enemy model as its target, not {ref.id}")
    return how, ref.id if how == "charge" else None


def _check_free(terrain: Terrain, state: State, op: Operative, how: str) -> None:
    """The referee's refusals a relative move meets before anything is measured, in the words
    of the same move to a point: Kill Team 2018's timing (moves in the movement phase, once) and
    a model that began the movement phase within 1" of an enemy; a plain move (not a charge or
    a fall back) from where an enemy holds the model."""
    from solo_ops.game.action_checks import activation

    act = activation(state, op)
    why = referee.timing_refusal_2018(act, how) or referee.started_within_refusal(act, how)
    if why is None and how in referee.FREE_MOVES:
        held = reach.within_reach(terrain, op, _enemies_on_table(state, op.side))
        why = referee.control_refusal(act, how, held[0].label) if held else None
    if why is not None:
        raise RuleError(why)


def propose(game: Game, state: State, action: dict[str, Any]) -> Proposal:
    """The concrete move for a relative one (``relation`` in ``toward``, ``to``, ``contact``,
    ``behind``; ``ref`` the thing named; ``amount`` inches for ``toward``), for the active
    operative. Raises :class:`RuleError` with the reason when it cannot be done."""
    if state.active_operative is None:
        raise RuleError("activate an operative first")
    op = state.operatives[state.active_operative]
    assert op.at is not None
    how = _declared(state, op, str(action.get("how") or "reposition"))
    relation = str(action["relation"])
    ref = _named(referents(game, state), op, action.get("ref"), relation, how)
    how, target = _how_and_target(state, op, how, relation, ref)
    try:
        allowance = move_limit(state, op, how)  # 2" for a counteract, ...
    except ValueError as exc:
        raise RuleError(str(exc)) from None
    terrain = game.terrain(state)  # where the base may stand and what holds it
    walking = game.moving_terrain(state, how)  # the routes this move takes (an effect in force)
    start = (float(op.at[0]), float(op.at[1]))
    blockers = move_goals.move_blockers(state, op, how, target,
                                        move_goals.engaged_foes(game, state, op, how))
    word = reach.move_verb(how)
    _check_free(terrain, state, op, how)
    blocked = None
    if relation == "behind":
        end, walk = _behind(game, state, op, ref, allowance, blockers, how)
    else:
        groups = move_goals.goal_groups(ref, op, how)
        if how == "charge" and target is not None:
            if relation != "contact":  # within 1" will do where base contact cannot be had
                groups = [*groups, *move_goals.charge_rings(ref, op)]
            groups = _charge_ends(game, state, op, target, groups)
        walk = move_goals.cheapest(walking, start, groups, op.radius, blockers)
        if walk is None and state.edition == "kt2018" and how == "charge" \
                and relation == "toward":
            walk = move_goals.failed_charge_walk(walking, start, op.radius, ref, blockers,
                                                 float(action.get("amount") or allowance))
        hint = (f" (a charge need only end within 1\" of {ref.id}: 'move to {ref.id}' "
                "goes as near as it can)" if how == "charge" and relation == "contact" else "")
        if walk is None:
            raise RuleError(f"{op.id} has no way {'into base contact with' if hint else 'to'} "
                            f"{ref.id}: " + (
                                "walls, closed doors or hatches, other models or enemies' "
                                "control range" if state.edition == "kt2024" else
                                "walls, closed doors, other models or the inch around "
                                "enemies") + " are in the way" + hint)
        if relation == "contact" and walk.cost > allowance + 1e-6:
            way = reach.way_words(float(walk.length), math.dist(walk.points[0], walk.points[-1]))
            raise RuleError(f"base contact with {ref.id} is {walk.cost:.1f}\" {way}; {op.id} "
                            f"can {word} {allowance:.1f}\"{hint}")
        budget = _budget(op, action, relation, allowance, word)
        short = _short_charge(game, state, op, ref, walk, (budget, allowance), blockers,
                              relation, groups) if how == "charge" else None
        if short is not None:
            walk, end = short, (float(short.points[-1][0]), float(short.points[-1][1]))
        else:
            end, walk, blocked = _along(game, state, op, ref, walk, budget, blockers, how)
        if relation in ("to", "toward") and how != "charge":
            nearer = _nearer_end(walking, terrain, start, end, op.radius, ref, budget,
                                 blockers)
            if nearer is not None:
                end, walk = nearer
                blocked = None
    if math.dist(start, end) < 1e-6:
        raise RuleError(f"{op.id} is already there: no move needed")
    concrete = {"type": "move", "how": how, "to": [end[0], end[1]]}
    if target is not None:
        concrete["target"] = target
    if action.get("operative"):
        concrete["operative"] = action["operative"]
    return Proposal(concrete, start, end, float(walk.cost),
                    tuple((float(x), float(y)) for x, y in walk.points), ref.id, relation,
                    _gap(ref, end, op.radius), allowance, blocked)


def _short_charge(game: Game, state: State, op: Operative, ref: Referent, walk: Any,
                  moves: tuple[float, float], blockers: list[Base], relation: str,
                  groups: list[Any]) -> Any:
    """``move to X`` / ``move N toward X`` of a charge whose move cannot reach along ``walk``
    (the way to the nearest group of ends, ``groups``): the cheapest walk to the first group
    of ends the move does reach (a charge ends within 1" of its target, not necessarily in
    base contact), else, in Kill Team 2018, 004 "as long as that move takes it as close as
    possible to at least one of the targets of its charge" -- the nearest point around the
    walls within the roll (:func:`move_goals.failed_charge_walk`), which the roll's length
    along the way in (a way that bends round the inch about other enemies) need not be. None
    when ``walk`` is within the move, or it is not one of those answers. ``moves``: the move
    asked for and the charge's allowance. Kill Team 2024: :func:`_charge_2024_short` (the
    move along the way when it ends within 1" after all, else a refusal in words rather than
    a point the game would then refuse: a Charge must end in its target's control range)."""
    budget = moves[0]
    if relation not in ("to", "toward") or walk.cost <= budget + 1e-6:
        return None
    assert op.at is not None
    walking = game.moving_terrain(state, "charge")
    start = (float(op.at[0]), float(op.at[1]))
    within = move_goals.cheapest(walking, start, groups, op.radius, blockers, most=budget)
    if within is None and state.edition == "kt2024":
        return _charge_2024_short(game, state, op, ref, walk, moves, blockers)
    if within is not None or state.edition != "kt2018":
        return within
    along, reaches = _charge_along(game, state, op, ref, walk, budget, blockers)
    if reaches:
        return along
    short = move_goals.failed_charge_walk(walking, start, op.radius, ref, blockers, budget)
    if short is None or along is None:
        return short or along
    terrain = game.terrain(state)  # the nearer of the two ends, as the engine measures
    gaps = [reach.route_gap(terrain, w.points[-1], op.radius, ref.at, ref.radius)
            for w in (short, along)]
    return short if gaps[0] <= gaps[1] else along


def _charge_along(game: Game, state: State, op: Operative, ref: Referent, walk: Any,
                  budget: float, blockers: list[Base]) -> tuple[Any, bool]:
    """A charge's move ``budget`` long along the way in (None when it cannot move at all) and
    whether it ends within 1" of the target (in its control range) after all."""
    try:
        end, along, _ = _along(game, state, op, ref, walk, budget, blockers, "charge")
    except RuleError:
        return None, False
    target = state.operatives.get(ref.id)
    return along, target in _enemies_in_control(state, op, game, at=end)


def _charge_2024_short(game: Game, state: State, op: Operative, ref: Referent, walk: Any,
                       moves: tuple[float, float], blockers: list[Base]) -> Any:
    """A Kill Team 2024 charge by words whose move reaches none of the proposed ends (to just
    inside the inch, :func:`move_goals.charge_rings`): the move's length along the way in when
    that ends within 1" of the target after all (between the last ring and the inch), else a
    refusal in words, with how far a point 0.9" from the target is (to a hundredth where its
    tenth would read as within the move it is beyond)."""
    budget, allowance = moves
    along, reaches = _charge_along(game, state, op, ref, walk, budget, blockers)
    if reaches:
        return along
    assert op.at is not None
    widest = move_goals.charge_rings(ref, op)[-1:]
    ring = move_goals.cheapest(game.moving_terrain(state, "charge"),
                               (float(op.at[0]), float(op.at[1])), widest, op.radius, blockers)
    far = float((ring or walk).cost)  # (to a hundredth where a tenth would read as in reach)
    shown = f"{far:.1f}" if round(far, 1) > round(budget, 1) else f"{far:.2f}"
    inside = reach.CONTROL_RANGE - 2 * move_goals.CONTROL_MARGIN
    asked = (f"the {budget:.1f}\" asked (it can charge {allowance:.1f}\")"
             if budget < allowance - 1e-6 else f"its Charge of {allowance:.1f}\"")
    raise RuleError(f"a charge must end within 1\" of {ref.id}: even {inside:.1f}\" from it is a "
                    f"{shown}\" move away, beyond {asked}")


def _along(game: Game, state: State, op: Operative, ref: Referent, walk: Any, budget: float,
           blockers: list[Base], how: str) -> tuple[tuple[float, float], Any, str | None]:
    """As far along ``walk`` as ``budget`` allows and the base may stand (the placement rule):
    the end, the walk to it and what stopped it: a base in the way, or a climb (a crossing,
    razor wire) the movement left cannot pay."""
    terrain, walking = game.terrain(state), game.moving_terrain(state, how)
    assert op.at is not None
    stop = placement.along(walking, walk, budget, op.radius, blockers, stand=terrain)
    if stop is None:
        raise RuleError(f"{op.id} cannot get any closer to {ref.id} with this move"
                        + _blocked_words(terrain, walk, op.radius, blockers))
    walk = walking.routes.walk(op.at, stop.at, op.radius, blockers=blockers)
    if walk is None:  # pragma: no cover - the end point lies on a found route
        raise RuleError(f"{op.id} has no route to that point")
    return stop.at, walk, stop.blocked_by or stop.unpaid


def _budget(op: Operative, action: dict[str, Any], relation: str, allowance: float,
            word: str) -> float:
    """How far a relative move goes: ``move N toward REF``'s N (within the allowance), else
    the move's whole allowance."""
    if relation != "toward" or action.get("amount") is None:
        return allowance
    amount = float(action.get("amount") or 0.0)
    if amount <= 0:
        raise RuleError("how far? e.g. 'move 3 toward obj-1'")
    if amount > allowance + 1e-6:
        raise RuleError(f"{op.id} can {word} at most {allowance:.1f}\", not {amount:g}\"")
    return amount


NEARER_BY = 0.05
"""Inches: how much nearer its target a reachable point must be than the end along the walk
for :func:`_nearer_end` to propose it instead (less is lost in the tenth the players read)."""


def _nearer_end(walking: Terrain, terrain: Terrain, start: tuple[float, float],
                end: tuple[float, float], radius: float, ref: Referent, budget: float,
                blockers: list[Any]) -> tuple[tuple[float, float], Any] | None:
    """When the walk towards ``ref`` gets no nearer it (``end``, the farthest point along it
    the move reaches, is not :data:`NEARER_BY` nearer than the start, as the move's terrain
    measures), the point this move reaches (``budget`` inches; where the base may stand)
    nearest ``ref``, with its walk; None when the walk is the way or nothing is nearer. When
    friends close the way, the cheapest walk can wind far round through another room, its
    first inches leading away: "move to obj-4" must end as near obj-4 as the move gets,
    never farther than where it started. The nearest point of the reachable grid (the
    cheapest walk among equals)."""
    if ref.kind in ("feature", "edge"):
        return None
    got = walking.routes.reachable(start, radius, budget, blockers=placement.discs(blockers))
    if len(got.points) < 2:
        return None
    pts = np.asarray(got.points, dtype=float)  # the start first
    # how far each is from the referent as the move's terrain measures (around the walls it
    # goes round, not round the other bases: they are what closed the way)
    ref_radius = 0.0 if ref.kind == "objective" else float(ref.radius)
    gaps = np.asarray(walking.routes.distances(ref.at, ref_radius, np.vstack([pts, [end]]),
                                               radius), dtype=float)
    if gaps[-1] < gaps[0] - NEARER_BY:  # the walk gets nearer: it is the way
        return None
    ok = placement.legal(terrain, pts, radius, blockers) & np.isfinite(gaps[:-1])
    ok[0] = False  # the start: no move
    if not ok.any():
        return None
    order = np.lexsort((np.asarray(got.cost, dtype=float), np.where(ok, gaps[:-1], np.inf)))
    best = int(order[0])
    if gaps[best] > min(gaps[0], gaps[-1]) - NEARER_BY:
        return None
    return (float(pts[best, 0]), float(pts[best, 1])), got.path(best)


def _charge_ends(game: Game, state: State, op: Operative, target: str,
                 groups: list[Any]) -> list[Any]:
    """The goals of a charge from which its target is in control range, by the engine's own
    test of where a charge ends (visible and within 1": a wall's corner or a solid block can
    hide the target from every point in base contact); refused in one line when there is
    none."""
    foe = state.operatives[target]
    kept = [g[np.array([foe in _enemies_in_control(state, op, game, at=(float(x), float(y)))
                        for x, y in g], dtype=bool)] if len(g) else g for g in groups]
    if not any(len(g) for g in kept):
        raise RuleError(f"no point within 1\" of {target} has it in sight (a charge "
                        "ends within 1\" of its target and in its sight; a wall or solid "
                        "terrain hides it from there)")
    return kept


def proposal_for(game: Game, state: State, action: dict[str, Any]) -> Proposal | None:
    """The move to show and ask a yes for before ``action`` is made, or None when the action
    is made as it is: a relative move (:func:`propose`); ``evacuate`` away from the table edge
    (:func:`propose_evacuation`); a move to a point where the base may not stand (a base or
    terrain is there: :func:`propose_nearest`)."""
    if action.get("relation"):
        return propose(game, state, action)
    if action.get("type") == "evacuate":
        return propose_evacuation(game, state, action)
    if action.get("type") == "move" and action.get("to") is not None:
        return propose_nearest(game, state, action)
    return None


def propose_nearest(game: Game, state: State, action: dict[str, Any]) -> Proposal | None:
    """A move to X,Y where the active operative's base may not stand: the same move to the
    nearest point where it may (the placement rule, :func:`solo_ops.geometry.placement.nearest`;
    within the move's reach of the asked point), said with what stands at X,Y. None when X,Y is
    free (the engine checks the move as it is), or when it is not a point (the engine says)."""
    if state.active_operative is None:
        return None
    op = state.operatives[state.active_operative]
    try:
        want = (float(action["to"][0]), float(action["to"][1]))
    except (TypeError, ValueError, IndexError, KeyError):
        return None
    if op.at is None or not (math.isfinite(want[0]) and math.isfinite(want[1])):
        return None
    terrain = game.terrain(state)
    others = state.bases(exclude=(op.id, op.carrying))
    why = placement.why_not(terrain, want, op.radius, others)
    if why is None:
        return None
    spot = placement.nearest(terrain, want, op.radius, others, limit=3.0)
    if spot is None:
        raise RuleError(f"{op.name}'s base fits nowhere within 3\" of {want[0]:g},{want[1]:g}: "
                        f"{why}")
    how = _declared(state, op, str(action.get("how") or "reposition"))
    blockers = move_goals.move_blockers(state, op, how, action.get("target"),
                                        move_goals.engaged_foes(game, state, op, how))
    walk = game.moving_terrain(state, how).routes.walk(op.at, spot.at, op.radius,
                                                       blockers=placement.discs(blockers))
    route = walk.points if walk is not None else (op.at, spot.at)
    concrete = {**{k: v for k, v in action.items() if k != "operative"}, "how": how,
                "to": [spot.at[0], spot.at[1]]}
    try:
        allowance = move_limit(state, op, how)  # 2" for a counteract, ...
    except ValueError as exc:
        raise RuleError(str(exc)) from None
    return Proposal(concrete, (float(op.at[0]), float(op.at[1])), spot.at,
                    float(walk.cost) if walk is not None else math.dist(op.at, spot.at),
                    tuple((float(x), float(y)) for x, y in route), f"{want[0]:g},{want[1]:g}",
                    "nearest", spot.moved, allowance, why)


def propose_evacuation(game: Game, state: State, action: dict[str, Any]) -> Proposal | None:
    """``evacuate`` answered away from the table edge: the move to the cheapest reachable point
    within 1" of an edge (around the walls and the other bases), with the evacuation after it
    (:attr:`Proposal.then`); None when the active operative is at an edge already (the answer
    is the action itself). Refused with the reason, and how far the nearest edge is, when no
    edge point is within this move."""
    if state.active_operative is None:
        raise RuleError("activate an operative first")
    op = state.operatives[state.active_operative]
    if op.carrying is None:
        raise RuleError(f"{op.name} is not carrying anyone: 'carry FRIEND' first")
    assert op.at is not None
    board = game.terrain(state).board
    if reach.at_edge(board, op.at, op.radius):
        return None
    move = {"type": "move", "how": "reposition", "relation": "to", "ref": "edge"}
    try:
        found = propose(game, state, move)
    except RuleError as exc:
        raise RuleError(f"{op.name} cannot get to a table edge this move ({exc})") from None
    if not reach.at_edge(board, found.to, op.radius):
        edge = reach.edge_gap(board, op.at, op.radius)
        raise RuleError(
            f"no table edge is within {op.name}'s move of {found.allowance:.1f}\" (carrying "
            f"{op.carrying}): the nearest is {edge:.1f}\" away in a straight line; 'move toward "
            f"edge' takes it to ({found.to[0]:.1f}, {found.to[1]:.1f}), then evacuate next turn")
    evacuate = {"type": "evacuate", "operative": op.id}
    return replace(found, relation="evacuate", then=(evacuate,))


def detour_words(game: Game, state: State, found: Proposal) -> str | None:
    """Why a proposed move costs more than the straight line (``around crate-2``), or None."""
    mover = state.active_operative or ""
    op = state.operatives.get(mover)
    radius = op.radius if op is not None else 0.0
    how = str(found.action.get("how") or "reposition")
    return placing.move_facts(game.moving_terrain(state, how), state, mover, radius,
                              found.route).get("detour")


def _blocked_words(terrain: Terrain, walk: Any, radius: float, blockers: list[Base]) -> str:
    """``": downed Rask's base is there"``: what stands at the walk's first step, if anything."""
    if len(walk.points) < 2:
        return ""
    first, _ = terrain.routes.advance(walk, placement.STEP)
    why = placement.why_not(terrain, first, radius, blockers)
    return f": {why}" if why else ""


def _gap(ref: Referent, end: Sequence[float], radius: float) -> float:
    """How far the base at ``end`` is from what was named: a feature's, a wall's or an edge's
    nearest point, a marker's centre, another model's base."""
    if ref.kind in ("feature", "wall", "edge"):
        from shapely.geometry import Point

        return max(0.0, float(ref.shape.distance(Point(end[0], end[1]))) - radius)
    if ref.kind == "objective":
        return max(0.0, math.dist(ref.at, end) - radius)
    return max(0.0, math.dist(ref.at, end) - radius - ref.radius)


def _declared(state: State, op: Operative, how: str) -> str:
    """The edition's word for the move ``how`` names ("move" is a 2024 Reposition and a 2018
    normal move); Kill Team 2018: once the model has declared and rolled an Advance or a
    charge, its next move is that one (004 "You can then move that model"), as the engine
    reads it (:func:`solo_ops.game.player_moves.declared_move`)."""
    if state.edition == "kt2018":
        if op.charge_target is not None:
            return "charge"
        if op.advance_roll is not None:
            return "advance"
        return "normal" if how == "reposition" else how
    return "reposition" if how == "normal" else how


def _behind(game: Game, state: State, op: Operative, ref: Referent, allowance: float,
            blockers: list[Any], how: str) -> tuple[tuple[float, float], Any]:
    """The cheapest reachable point within :data:`NEAR_FEATURE` of the feature where no enemy
    model on the table can see the base, or where it is in cover from each one that can
    (:func:`behind_ok`; obscured alone is not enough: issue #27). With no enemy on the table:
    the cheapest point next to it. Ties: lower x, then lower y. When there is none, the
    refusal names the enemy that still sees the best point and from where. The routes are
    those of the move ``how`` (:meth:`~solo_ops.game.definition.Game.moving_terrain`)."""
    from shapely.geometry import Point

    terrain = game.terrain(state)
    walking = game.moving_terrain(state, how)
    assert op.at is not None
    reachable = walking.routes.reachable((float(op.at[0]), float(op.at[1])), op.radius,
                                         allowance, blockers=placement.discs(blockers),
                                         spacing=0.25)
    pts = np.round(np.asarray(reachable.points, dtype=float).reshape(-1, 2), 2)
    cost = np.asarray(reachable.cost, dtype=float)
    near = np.array([float(ref.shape.distance(Point(x, y))) - op.radius <= NEAR_FEATURE + 1e-9
                     for x, y in pts], dtype=bool)
    near &= placement.legal(terrain, pts, op.radius, blockers)
    if not near.any():
        raise RuleError(f"{ref.id} is out of reach: no point within {NEAR_FEATURE:g}\" of it "
                        f"where {op.id}'s base fits is within its {allowance:.1f}\" move")
    threats = [e for e in _enemies_on_table(state, op.side) if e.at is not None]
    idx = np.flatnonzero(near)
    order = idx[np.lexsort((pts[idx, 1], pts[idx, 0], np.round(cost[idx], 9)))]
    ok = behind_ok(terrain, pts[order], op.radius, threats)
    if not ok.any():
        first = pts[order[0]]
        seen = _seen_by(terrain, first, op.radius, threats)
        seers = join_names(seen) if seen else "an enemy"
        raise RuleError(
            f"no point next to {ref.id} within {op.id}'s {allowance:.1f}\" move is hidden from "
            f"or in cover from every enemy on the table: {seers} still "
            f"{'see' if len(seen) > 1 else 'sees'} the nearest one, "
            f"({first[0]:.1f}, {first[1]:.1f}), in the open")
    best = int(order[int(np.argmax(ok))])
    end = (float(pts[best, 0]), float(pts[best, 1]))
    walk = walking.routes.walk((float(op.at[0]), float(op.at[1])), end, op.radius,
                               blockers=placement.discs(blockers))
    if walk is None:  # pragma: no cover - a reachable grid point has a walk
        raise RuleError(f"{op.id} has no route behind {ref.id}")
    return end, walk


def behind_ok(terrain: Terrain, points: Any, radius: float, threats: Sequence[Operative]
              ) -> np.ndarray:
    """(n,) whether a base at each point is out of sight of every enemy model in ``threats``,
    or in cover from each one that can see it: what ``behind`` promises (obscured alone is
    not cover)."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    discs = [(float(e.at[0]), float(e.at[1]), e.radius) for e in threats if e.at is not None]
    if not discs:
        return np.ones(len(pts), dtype=bool)
    return np.asarray(search.protected_from(terrain, pts, radius, discs, obscured=False)
                      .all(axis=0))


def _seen_by(terrain: Terrain, point: Any, radius: float, threats: Sequence[Operative]
             ) -> list[str]:
    """``["immortal-2 at (21.0, 6.5)"]``: the enemies that see ``point`` without cover."""
    out = []
    for e in threats:
        assert e.at is not None
        if not behind_ok(terrain, [point], radius, [e])[0]:
            out.append(f"{e.label} at ({e.at[0]:.1f}, {e.at[1]:.1f})")
    return out
