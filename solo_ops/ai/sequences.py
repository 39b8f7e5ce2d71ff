"""The action sequences an order allows, and the one its priority text chooses.

003, Shooting Orders: "Fire at Will: Unit will fire at the closest enemy that is within range.
Firing will take priority over movement and charging." "Unhindered Move/charge: Unit will fire
at the closest enemy within range if also allowing its self to complete the other action
unhindered. Moving and/or charging will take priority over firing."

A model out of combat (and not answering allies) has these options, each a sequence of
actions a player could play (Kill Team 2024: within its AP and the sequence table of
:mod:`solo_ops.rules.sequences`; Kill Team 2018: its part of the movement phase, the shot
coming in the shooting phase):

* ``shoot_charge`` Shoot, then Charge; ``shoot_move`` Shoot, then move by the order (only the
  move a Heavy weapon fired allows);
* ``move_shoot`` move by the order, then Shoot; ``dash_shoot`` the same with a Dash alone (a
  Heavy (Dash only) weapon); ``stay_shoot`` (2018) no move, to shoot from where it stands;
* ``portal_here`` Door / Hatchway Fight from where it stands; ``charge`` Charge (then Fight);
  ``dash_charge`` Dash, then Charge; ``portal_move`` Reposition, then Door / Hatchway Fight;
* ``move`` move by the order, then Shoot if a shot is still allowed.

:data:`RANKS` puts them in the order the shooting order's words ask for; :func:`choose_sequence`
tries them in that order on a scratch copy of the turn and keeps the first that can be played,
then says which it chose and the best one it rejected, with why.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solo_ops.ai.candidates import candidate_points
from solo_ops.ai.combat import CHARGE_LIMIT, KT2018_CHARGE_REACH, charge_option
from solo_ops.ai.context import CONTROL_RANGE, Action, move_allowance
from solo_ops.ai.explain import cost_inches, inches
from solo_ops.ai.move_order import no_move_reason
from solo_ops.ai.portals import _portal_fight
from solo_ops.ai.turn import (
    MOVE_KINDS,
    _charge,
    _first_shot,
    _moves_by_order,
    _shoot,
    _shoot_after_moving,
    _shot_from,
    _Turn,
    refused,
)
from solo_ops.rules import kt2018, kt2024, referee, sequences

FIRE_AT_WILL = ("shoot_charge", "shoot_move", "move_shoot", "dash_shoot", "portal_here",
                "charge", "dash_charge", "portal_move", "move")
UNHINDERED = ("portal_here", "charge", "dash_charge", "portal_move", "move")
RANKS: dict[tuple[str, str], tuple[str, ...]] = {
    ("kt2024", "fire_at_will"): FIRE_AT_WILL,
    ("kt2024", "unhindered"): UNHINDERED,
    # 2018: a model that charges (or Advances) cannot shoot later in the battle round (004)
    ("kt2018", "fire_at_will"): ("move_shoot", "stay_shoot", "charge", "move"),
    ("kt2018", "unhindered"): ("charge", "move"),
}
"""The options in the order each shooting order puts them (fire at will: firing first;
unhindered move / move/charge: moving and charging first)."""

KINDS: dict[str, tuple[str, ...]] = {
    "shoot_charge": ("shoot", "charge"), "shoot_move": ("shoot",),
    "move_shoot": ("shoot",), "dash_shoot": ("dash", "shoot"), "stay_shoot": (),
    "portal_here": ("fight",), "charge": ("charge",), "dash_charge": ("dash", "charge"),
    "portal_move": ("reposition", "fight"), "move": (),
}
"""The actions each option needs at least (Kill Team 2024): the sequence table and the AP
decide whether it may be played at all."""

WORDS = {"shoot_charge": "Shoot, then Charge", "shoot_move": "Shoot, then move",
         "move_shoot": "move, then Shoot", "dash_shoot": "Dash, then Shoot",
         "stay_shoot": "stay put to shoot", "portal_here": "Door / Hatchway Fight",
         "charge": "Charge", "dash_charge": "Dash, then Charge",
         "portal_move": "Reposition, then Door / Hatchway Fight", "move": "move by its order"}

NA = ""
"""The reason of an option that does not apply to this model at all (no door on the board, no
Heavy (Dash only) weapon): never told as the best one rejected."""

NO_SHOT_AFTER_MOVE = "no valid target in range after its move either"

PRIORITY = {
    "fire_at_will": "fire at will: firing takes priority over moving and charging",
    "unhindered": "moving and charging take priority over firing, which follows only if the "
                  "move leaves it allowed",
}


def _shoot_key(t: _Turn) -> str:
    return "fire_at_will" if t.codes["shoot"] == "fire_at_will" else "unhindered"


def choose_sequence(t: _Turn) -> None:
    """Plan the model's actions: the first option by its shooting order's rank that can be
    played (tried on a fork of ``t``, the others left unplanned), and the words for it."""
    rank = [n for n in RANKS[(t.edition, _shoot_key(t))] if _fits(t, n)]
    tried: list[tuple[str, str]] = []
    moved: _Turn | None = None  # move_shoot's fork rejected after its move: the same as "move"
    for name in rank:
        fork = t.fork()
        if name == "move" and moved is not None:
            fork, why = moved, None
            t.board.pos[t.op.id] = fork.here
        else:
            why = REALIZE[name](fork)
        if name == "move_shoot" and (why == NO_SHOT_AFTER_MOVE
                                     or (t.edition == "kt2018" and why is not None)):
            moved = fork  # (2018: every rejection of _move_keep_shot follows its whole move)
        if why is None:  # the referee judges it as a player's (rules/referee.py)
            why = _referee(t, fork)
        if why is None:
            instead = _instead_of_dash_charge(t) if name == "dash_charge" else None
            t.commit(fork)
            _explain(t, name, rank, tried, fork, instead)
            return
        t.discard()
        tried.append((name, why))


def _referee(t: _Turn, fork: _Turn) -> str | None:
    """Why the referee refuses the sequence ``fork`` planned (an action a player would be
    refused in its place), or None when it accepts every action."""
    why = refused(t, fork)
    return None if why is None else f"the referee refuses it ({why})"


def fire_before_allies(t: _Turn) -> bool:
    """Kill Team 2024, a Fire at will model answering allies: its shot from where it stands
    comes first (003 "Fire at Will: ... Firing will take priority over movement and
    charging"; allies say where a unit moves, not whether it fires); tried on a fork, kept
    when the referee accepts it. Whether it shot."""
    if t.edition != "kt2024" or t.codes["shoot"] != "fire_at_will" or t.shot_done:
        return False
    fork = t.fork()
    if _shoot_first(fork) is not None or _referee(t, fork) is not None:
        t.discard()
        return False
    t.commit(fork)
    return True


def charge_first(t: _Turn, allies: str) -> bool:
    """A model of a unit answering allies makes the charge its own Charge order allows
    (setting ``allies_charge: charge``): tried on a fork, kept when it can be played and the
    referee accepts it (``allies``: the words of the call it answers). Whether it charged."""
    if t.ctx.settings.allies_charge != "charge":
        return False
    fork = t.fork()
    why = _charge_here(fork)
    if why is None:
        why = _referee(t, fork)
    if why is not None:
        t.discard()
        t.plan.explain.append(f"{t.op.label} does not charge before answering its allies "
                              f"(setting allies_charge: charge): {why}.")
        return False
    t.commit(fork)
    t.plan.explain.append(allies + ".")
    t.plan.explain.append(f"{t.op.label} makes the charge its order allows before answering "
                          "its allies (setting allies_charge: charge): allies decide where a "
                          "unit moves, not whether it charges.")
    return True


def _fits(t: _Turn, name: str) -> bool:
    """Whether option ``name`` may be played at all: its actions in turn within the AP left
    and the sequence table (Kill Team 2024), after what the model has done."""
    if t.edition != "kt2024":
        return True  # the 2018 phases: one move, then the shooting phase's shot
    act = t.facts()
    for kind in KINDS[name]:
        if referee.refusal(act, kind, check_control=False) is not None:
            return False
        act = act.after(kind)
    return True


# -- the options -----------------------------------------------------------------------------------
def _shoot_first(f: _Turn) -> str | None:
    """Fire at will: the shot from where it stands, first."""
    shot = _first_shot(f)
    if shot is None:
        return "no valid target in range from where it stands"
    _shoot(f, shot, "Fire at will: firing takes priority over moving. ")
    return None


def _shoot_charge(f: _Turn) -> str | None:
    return _shoot_first(f) or _charge_here(f)


def _shoot_move(f: _Turn) -> str | None:
    why = _shoot_first(f)
    if why is None:
        if f.heavy_moves == ():
            f.plan.explain.append(f"{f.op.label} fired a Heavy weapon, so it does not move.")
        else:  # (a Heavy (Dash only) weapon fired: a Dash, 001)
            _moves_by_order(f)
    return why


def _move_shoot(f: _Turn) -> str | None:
    """Move by the order, then shoot: played only when the shot is there after the move (a
    fire at will model that has nothing to shoot from where it stands). In 2018 the shot is
    the shooting phase's, and the move must keep it unhindered (no Heavy weapon's -1)."""
    if f.edition == "kt2018":
        return _move_keep_shot(f)
    _moves_by_order(f)
    _shoot_after_moving(f, "Fire at will: nothing to shoot from where it stood; it moves to "
                           "fire. ")
    return None if f.shot_done else NO_SHOT_AFTER_MOVE


def _dash_shoot(f: _Turn) -> str | None:
    """A Dash by the order, then the Heavy (Dash only) shot a Reposition would forbid."""
    if not any(kt2024.heavy_allowed_moves(w) == ("dash",) for w in f.op.profile.ranged_weapons):
        return NA
    _moves_by_order(f, ("dash",))
    _shoot_after_moving(f, "Fire at will: a Dash keeps its Heavy (Dash only) shot. ")
    return None if f.shot_done else "no valid target in range after a Dash either"


def _stay_shoot(f: _Turn) -> str | None:
    """Kill Team 2018, fire at will: no move, to shoot from here in the shooting phase."""
    shot = _first_shot(f)
    if shot is None:
        return "no valid target in range from where it stands"
    f.plan.explain.append(f"{f.op.label} holds its ground to fire in the shooting phase: "
                          f"{shot.note}")
    return None


def _move_keep_shot(f: _Turn) -> str | None:
    """Kill Team 2018, fire at will: the normal move by the order, when the shot is still
    there after it and not hindered (a Heavy weapon that moved is -1 to hit, 004)."""
    before = _first_shot(f)
    _moves_by_order(f)
    moved = f.result["moved"]
    shot = _shot_from(f, f.board.pos[f.op.id]) if moved else before
    if shot is None:
        return ("moving by its order would lose its shot" if before is not None
                else "no valid target in range, moving or not")
    weapon = next((w for w in f.op.profile.ranged_weapons if w.name == shot.weapon), None)
    if moved and weapon is not None and weapon.kt2018_type == "heavy":
        return f"moving would cost its {weapon.name} (Heavy) -1 to hit"
    if not moved:
        return NA  # no move to make: staying put to shoot is the next option
    f.plan.explain.append(f"{f.op.label} will fire in the shooting phase: {shot.note}")
    return None


def _portal_here(f: _Turn) -> str | None:
    if not _portal_minded(f) or f.shot_done:
        return NA
    across = _portal_fight(f.ctx, f.op, f.start, f.board, f.enemies, may_move=False)
    if across is None:
        return NA
    f.plan.actions.append(across[1])
    f.plan.explain.append(across[1].note)
    f.result["attacked"] = True
    f.spend("fight")
    return None


def _portal_move(f: _Turn) -> str | None:
    if not _portal_minded(f) or f.shot_done:
        return NA
    across = _portal_fight(f.ctx, f.op, f.start, f.board, f.enemies, may_move=True)
    if across is None or across[0] is None:
        return NA
    f.plan.actions.extend([across[0], across[1]])
    f.plan.explain.extend([across[0].note, across[1].note])
    f.board.pos[f.op.id] = across[0].to  # type: ignore[assignment]
    f.result["moved"] = True
    f.result["attacked"] = True
    f.spend(across[0].kind)
    f.spend("fight")
    return None


def _portal_minded(f: _Turn) -> bool:
    return (f.edition == "kt2024" and f.melee_minded and bool(f.op.profile.melee_weapons)
            and "fight" not in f.done)


def _charge_here(f: _Turn) -> str | None:
    """A Charge (then a Fight) on the closest enemy in sight, from where the model stands."""
    why = _charge_limits(f)
    if why is not None:
        return why
    here = f.board.pos[f.op.id]
    charge = charge_option(f.ctx, f.op, here, f.board, f.near_visible, f.codes, f.edition)
    if charge is None:
        return _charge_short(f)
    _charge(f, charge)
    return None


def _charge_limits(f: _Turn) -> str | None:
    """Why the order does not charge the closest enemy in sight (none in sight, beyond the
    charge order's range, no melee weapon), or None."""
    if not f.near_visible:
        return "no enemy in sight to charge"
    dist, target = f.near_visible[0]
    limit = CHARGE_LIMIT[f.codes["charge"]]
    if dist > limit + 1e-9:
        return (f"{target.label}, the closest enemy in sight, is {inches(dist)} away: its order "
                f"charges only within {inches(limit)}")
    if not kt2018.melee_weapons(f.op.profile, f.edition) and f.codes["charge"] != "yes":
        return "it has no melee weapon"
    return None


def _charge_short(f: _Turn) -> str:
    """Why a charge from where it stands does not reach the closest enemy in sight."""
    dist, target = f.near_visible[0]
    if f.edition == "kt2018" and dist > KT2018_CHARGE_REACH + 1e-9:
        return f"{target.label} is {inches(dist)} away: beyond the 12\" a 2D6 charge can roll"
    if f.edition == "kt2018":  # 004 "It cannot move within 1" of an enemy model that was not
        return (f"no end within 1\" of {target.label} within 12\" and more than 1\" from the "
                "other enemies (walls or models in the way)")  # a target of its charge"
    allowance = move_allowance(f.op, "charge", f.edition)
    if dist > allowance + CONTROL_RANGE + 1e-9:
        return (f"{target.label} is {inches(dist)} away: a Charge of {inches(allowance)} "
                f"reaches {inches(allowance + CONTROL_RANGE)}")
    return f"no end within 1\" of {target.label} that its Charge reaches (walls or models)"


def _dash_charge(f: _Turn) -> str | None:
    """A Dash that brings the closest enemy in sight within a Charge's reach, then the Charge
    (001: a Dash may come before a Charge; a Reposition may not)."""
    why = _charge_limits(f)
    if why is not None:
        return why
    dist, target = f.near_visible[0]
    dash = move_allowance(f.op, "dash", f.edition)
    reach = dash + move_allowance(f.op, "charge", f.edition) + CONTROL_RANGE
    if dist > reach + 1e-9:
        return (f"{target.label} is {inches(dist)} away: a Dash and a Charge reach "
                f"{inches(reach)}")
    cand = candidate_points(f.ctx, f.op, f.start, dash, f.board, kind="dash")
    if len(cand.points) < 2:
        return "it has no room to Dash"
    tp = f.board.pos[target.id]
    gaps = np.asarray(f.ctx.terrain.routes.distances(tp, target.radius, cand.points,
                                                     f.op.radius), dtype=float)
    order = np.lexsort((cand.points[:, 1], cand.points[:, 0], np.round(cand.cost, 6),
                        np.round(np.where(np.isfinite(gaps), gaps, 1e9), 6)))
    for k in [int(i) for i in order if i != 0][:4]:
        end = (float(cand.points[k][0]), float(cand.points[k][1]))
        charge = charge_option(f.ctx, f.op, end, f.board, [(float(gaps[k]), target)],
                               f.codes, f.edition)
        if charge is None:
            continue
        _dash_to(f, end, tuple(cand.reach.path(k).points), float(cand.cost[k]), target.label)
        charge.note = (charge.note.rstrip(".") + " after its Dash (a Dash may come before a "
                       "Charge; a Reposition may not).")
        _charge(f, charge)
        return None
    return f"no Dash ends where its Charge reaches {target.label}"


def _dash_to(f: _Turn, end: tuple[float, float], route: tuple, cost: float, who: str) -> None:
    """The Dash of a Dash, then Charge."""
    dash = Action("dash", f.op.id, start=f.start, to=end,
                  route=tuple((float(x), float(y)) for x, y in route), cost=cost,
                  note=f"{f.op.label} dashes {cost_inches(cost)} towards {who}, to bring it within "
                       "reach of a Charge.")
    f.plan.actions.append(dash)
    f.plan.explain.append(dash.note)
    f.board.pos[f.op.id] = end
    f.result["moved"] = True
    f.spend("dash")


def _move(f: _Turn) -> str | None:
    """Move by the order, then shoot if the shot is still allowed (Kill Team 2024)."""
    _moves_by_order(f)
    _shoot_after_moving(f)
    return None


REALIZE: dict[str, Callable[[_Turn], str | None]] = {
    "shoot_charge": _shoot_charge, "shoot_move": _shoot_move, "move_shoot": _move_shoot,
    "dash_shoot": _dash_shoot, "stay_shoot": _stay_shoot, "portal_here": _portal_here,
    "charge": _charge_here, "dash_charge": _dash_charge, "portal_move": _portal_move,
    "move": _move,
}


# -- the words -------------------------------------------------------------------------------------
def _explain(t: _Turn, name: str, rank: list[str], tried: list[tuple[str, str]],
             fork: _Turn, instead: str | None) -> None:
    """The sequence chosen and the best one rejected: the first option ranked above it that
    could not be played (and why), else the next one below it (and the order's priority);
    ``instead``: what moving by the order would have done instead of a Dash, then Charge."""
    mine = [a for a in fork.plan.actions if a.model == t.op.id]
    words = _words(t, mine)
    if t.edition == "kt2018" and name in ("move_shoot", "stay_shoot"):
        words = ("stay put" if words == "no action" else words) + (
            ", then Shoot in the shooting phase")
    t.plan.explain.append(f"{t.op.label}'s sequence: {words}.")
    if not mine and t.ctx.words and t.phase in ("firefight", "movement"):
        kind = "normal" if t.edition == "kt2018" else "reposition"
        still = no_move_reason(t.ctx, t.state, t.unit, t.op, t.board.pos[t.op.id], kind,
                               t.codes, t.board, t.enemies, t.mates)
        if still is not None:
            t.plan.explain.append(f"{t.op.label} does not move: {still}.")
    told = [(other, why) for other, why in tried if why != NA]
    if told:
        other, why = told[0]
        t.plan.explain.append(f"Rejected: {WORDS[other]}: {why}.")
    if instead is not None:
        t.plan.explain.append(instead)
    elif not told:
        below = [n for n in rank[rank.index(name) + 1:] if n not in _NOT_APPLYING]
        # a charge its order would not make anyway is told with that reason, not the rank
        limits = _charge_limits(t) if below and below[0] in ("charge", "dash_charge") else None
        if limits is not None:
            t.plan.explain.append(f"Rejected: {WORDS[below[0]]}: {limits}.")
        elif below:
            t.plan.explain.append(f"Rejected: {WORDS[below[0]]}: its order ranks {WORDS[name]} "
                                  f"above it ({_priority(t, below[0])}).")


_NOT_APPLYING = ("portal_here", "portal_move", "dash_shoot")


def _priority(t: _Turn, lower: str) -> str:
    """Why the order ranks an option that could be played below the one chosen."""
    if t.edition == "kt2018" and lower == "stay_shoot":  # both shoot, in the shooting phase
        return ("it shoots in the shooting phase either way, so it makes its order's move "
                "first")
    words = PRIORITY[_shoot_key(t)]
    if t.edition == "kt2018" and lower == "charge":
        words += " (004: a model that charged cannot shoot later in the battle round)"
    return words


def _instead_of_dash_charge(t: _Turn) -> str:
    """What a Reposition by the order would have done instead of Dash, then Charge (asked on
    a fork of the turn as it starts, before the chosen sequence is kept)."""
    alt = t.fork()
    t.board.pos[t.op.id] = t.start
    _moves_by_order(alt, ("reposition",))
    end = t.board.pos[t.op.id]
    t.discard()
    target = t.near_visible[0][1]
    gap = t.ctx.terrain.routes.distance(end, t.board.pos[target.id], t.op.radius,
                                        target.radius).distance
    return (f"Rejected: Reposition by its order, then Shoot: it would end {inches(gap)} from "
            f"{target.label}, and no Charge may follow a Reposition (sequence rule "
            f"'charge-after-reposition-or-fall-back').")


def _words(t: _Turn, actions: list[Action]) -> str:
    """A sequence in a few words: 'Dash 3.0", Charge 7.2", Fight'."""
    if not actions:
        return "no action"
    parts = []
    for a in actions:
        label = sequences.action_words(a.kind) if a.kind != "operate_hatch" else "Operate Hatch"
        if a.kind == "normal":
            label = "move"
        if a.kind == "advance":
            label = "Advance up to"  # its D6 is rolled as it moves (the engine retells it)
        if a.kind in MOVE_KINDS and a.to is not None:
            label += f" {cost_inches(a.cost)}"
        elif a.kind == "charge":
            label = "declare a charge"
        if a.target is not None and a.kind in ("shoot", "fight", "charge"):
            label += f" at {t.state.operatives[a.target].label}"
        parts.append(label)
    return ", then ".join(parts)
