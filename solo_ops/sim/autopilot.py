"""The player autopilot: a documented policy that plays the players' side.

It answers whatever :func:`solo_ops.game.engine.pending` asks the players with the same action
dicts a typed answer becomes (:mod:`solo_ops.view.answers` → :func:`~solo_ops.game.engine.step`),
so a game it plays is an ordinary game: its log replays, its save resumes. It reads only what
the players may see (operatives on the table, counters as "?" markers, objectives), asks the
enemy planner's own geometry helpers (:mod:`solo_ops.ai.candidates`, ``context``, ``cover``,
``combat``, ``shooting``: reachable end points with the enemy's control ranges kept clear,
cover from threats, valid shots; looked up through their modules at every call) and the exact
expected damage of :mod:`solo_ops.game.attacks`; it never rolls a die (attacks are rolled by
the engine through the game's dice, ``shoot ... roll`` / ``fight ... roll``) and never prints.

:func:`answers` gives the actions it would take now, best first; the driver
(:func:`play`) steps the first the rules accept (a refused action leaves the game exactly as
it was). The last candidate is always one the rules accept (``done``, an activation, an
``engine`` step), so a game always moves on. A Kill Team 2024 move the rules refuse to start now
whatever its end (:func:`~solo_ops.game.player_moves.open_moves`: AP, the sequence table, a Heavy
weapon shot, the order) is not offered, nor its end point looked for.

The policy, per activation (Kill Team 2024; 2018 by phase, see below):

1. **Activate** the ready operative with the best shot available from where it stands
   (expected damage), then the one nearest a downed friend, then the nearest to an enemy or a
   counter. Stance Engage, except ``cautious`` (and ``objective`` when it has no shot now),
   which take Conceal: a concealed operative in cover cannot be targeted, and it moves on.
2. **Carry the wounded**: a carrier heads for the nearest table edge and evacuates there; an
   operative in control range of a downed friend picks it up; one that can reach a downed
   friend (not in the enemy's control range) moves next to it first.
3. **Fight** when in an enemy's control range: the best expected damage dealt minus taken
   (``aggressive`` fights whatever the odds); otherwise fall back if it can, else fight.
4. **Shoot** the target with the best expected damage (valid target, in range, the exact
   expectation with its cover); ``cautious`` shoots after moving to cover if it can still see
   a target from there.
5. **Charge** (``aggressive`` always; the others only when the expected melee damage beats the
   best shot): the planner's charge on the nearest visible enemy when the move reaches it.
6. **Move** to the best reachable end point by the policy's score: ``aggressive`` — the most
   unobscured targets in range, then nearest the closest enemy; ``cautious`` — protected
   (hidden, in cover or obscured) from the most visible enemies, then a firing line, then
   progress; ``objective`` — nearest an objective marker the players do not control (or an
   unresolved counter, to reveal it), in cover when that costs at most 2".
   With no enemy and no counter in sight every policy heads for the objectives, then the
   counters.
7. **Done**.

An enemy attack handed to the players (``enemy_attacks: player``) is answered with its expected
damage, rounded; a Kill Team 2018 charge reaction with ``none`` (no Overwatch, no Retreat).
A fight's die (``fight_choices: ask``, :mod:`solo_ops.game.fight_choices`) is answered ``auto
all``: the engine's policy for the rest of the fight, the same moves ``fight_choices: auto``
makes without asking (which is how :func:`simulated` scenarios play, one step a fight).
A CP re-roll question (``cp_rerolls: ask``, :mod:`solo_ops.game.cp`) is answered by re-rolling
the failed die with the lowest face (the first such die on a tie) whenever it is asked: the
autopilot has no other use for CP (no ploys), and the question only comes while it has one.
A Counteract offer (Kill Team 2024) is taken by the candidate with the best shot from where it
stands (not in an enemy's control range; ties to the lower id), which shoots; with no shot it
passes. It never picks up an objective marker.

Kill Team 2018: movement phase — carry/evacuate, charge (only when the target is within 3":
solo-ops rolls the charge after it is declared, so the autopilot charges only where any roll
of 2D6 arrives; a roll the effects cut short leaves its charge failed), or a normal move scored
as above (never Advance: the roll would decide its end after it chose it); shooting phase — the
best shot; fight phase — fight the best expected target.
"""

from __future__ import annotations

import contextlib
import gc
import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from solo_ops.ai import candidates as ai_candidates
from solo_ops.ai import combat as ai_combat
from solo_ops.ai import context as ai_context
from solo_ops.ai import cover as ai_cover
from solo_ops.ai import shooting as ai_shooting
from solo_ops.game import attacks, markers, player_moves
from solo_ops.game.definition import Game, Prompt
from solo_ops.game.scenario import Scenario
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.rules import reach, sequences

POLICIES = ("cautious", "aggressive", "objective")
"""The named variants of the policy (see the module docstring)."""

COVER_DETOUR = 2.0  # objective: a protected end point may cost this much progress
SPACING = 1.0
"""Grid spacing (inches) of the end points a move considers: the enemy planner's half inch
would cost four times the geometry for at most half an inch of position."""
KT2018_SURE_CHARGE = 3.0  # 2018: a charge no 2D6 roll can fail (2" + 1" control range)


@dataclass(frozen=True)
class Shot:
    """A shot the active operative could take: target, weapon and its expected damage."""

    target: str
    weapon: str
    expected: float


def answers(game: Game, state: State, prompt: Prompt, policy: str = "objective"
            ) -> Iterator[dict[str, Any]]:
    """The actions the autopilot would answer ``prompt`` with, best first (see the module
    docstring). The last one is always accepted by the rules."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} ({', '.join(POLICIES)})")
    if prompt.kind == "engine":
        yield {"type": "engine"}
    elif prompt.kind == "attack":
        yield {"type": "attack_damage", "damage": _expected_pending(game, state, prompt)}
    elif prompt.kind == "reaction":  # a Kill Team 2018 charge: no Overwatch, no Retreat
        yield {"type": "reaction", "react": "none"}
    elif prompt.kind == "fight":  # its next die in a fight: the policy to the fight's end
        yield {"type": "fight_choice", "move": "auto", "all": True}
    elif prompt.kind == "guard":  # never On Guard itself; a game handed over: no interrupt
        yield {"type": "guard_choice", "how": "no"}
    elif prompt.kind == "cover":  # a useless cover save: roll the die (the enemy's rule)
        yield {"type": "cover_choice", "keep": False}
    elif prompt.kind == "effect":  # a Pariah Nexus effect asks: the offered point, else no
        suggested = prompt.data.get("suggested")
        if prompt.data.get("what") == "set_up" and suggested is not None:
            yield {"type": "effect", "choice": "place", "to": list(suggested)}
        yield {"type": "effect", "choice": "roll" if prompt.data.get("what") == "lacerators"
               else "no"}
    elif prompt.kind == "reroll":  # a CP re-roll of its dice: the lowest failed die
        failed = [n for n in prompt.data.get("failed", [])
                  if n not in prompt.data.get("rerolled", [])]
        faces = prompt.data.get("faces", [])
        if failed:
            yield {"type": "reroll", "die": min(failed, key=lambda n: (faces[n - 1], n))}
        yield {"type": "reroll", "keep": True}
    elif prompt.kind == "activate":
        yield from _activations(game, state, prompt, policy)
    elif prompt.kind == "counteract":  # Kill Team 2024: counteract with a shot, else pass
        yield from _counteract(game, state, prompt)
        yield {"type": "counteract", "pass": True}
    elif prompt.kind == "act":
        op = state.operatives[str(prompt.operative)]
        shot = _counteract_shot(game, state, op) if state.counteracting else None
        if state.counteracting:  # its one free action: the shot it counteracted for
            if shot is not None:
                yield {"type": "shoot", "operative": op.id, "target": shot.target,
                       "weapon": shot.weapon, "roll": True}
        elif state.edition == "kt2018":
            yield from _act_2018(game, state, op, policy)
        else:
            yield from _act_2024(game, state, op, policy)
        yield {"type": "done", "operative": op.id}


def _counteract(game: Game, state: State, prompt: Prompt) -> Iterator[dict[str, Any]]:
    """Counteract (Kill Team 2024): the candidate with the best shot from where it stands (not
    in an enemy's control range), ties to the lower id; none with a shot: pass."""
    best: tuple[float, str] | None = None
    for ident in prompt.data.get("operatives", []):
        shot = _counteract_shot(game, state, state.operatives[ident])
        if shot is not None and (best is None or (-shot.expected, ident) < best):
            best = (-shot.expected, ident)
    if best is not None:
        yield {"type": "counteract", "operative": best[1]}


def _counteract_shot(game: Game, state: State, op: Operative) -> Shot | None:
    """A counteracting operative's one action: its best shot (none in control range)."""
    return None if _in_control(game, state, op) else best_shot(game, state, op)


# -- what the table looks like to the players ---------------------------------------------------
def _ctx(game: Game, state: State) -> ai_context.Context:
    return game.context(state)


def _enemies(state: State) -> list[Operative]:
    return [o for o in state.living(ENEMY) if o.on_table and o.at is not None]


def _pos(state: State) -> dict[str, tuple[float, float]]:
    return {o.id: o.at for o in state.operatives.values() if o.on_table and o.at is not None}


def _downed_friends(state: State, op: Operative) -> list[Operative]:
    return [o for o in state.side(PLAYER) if o.down and o.at is not None
            and o.carried_by is None and not o.carried_to_safety and o.id != op.id]


def _expected_pending(game: Game, state: State, prompt: Prompt) -> int:
    """An enemy attack handed to the players (``enemy_attacks: player``): the expected damage,
    rounded (the autopilot has no dice of its own)."""
    data = prompt.data
    attacker = state.operatives.get(str(data.get("attacker")))
    target = state.operatives.get(str(data.get("target")))
    if attacker is None or target is None or attacker.at is None or target.at is None:
        return 0
    if data.get("kind") == "shoot":
        weapon = next((w for w in attacker.profile.weapons if w.name == data.get("weapon")),
                      None)
        if weapon is None:
            return 0
        cover = game.terrain(state).sight.cover(attacker.at, target.at, attacker.radius,
                                                target.radius, edition=state.edition)
        odds = attacks.expected_for(state.edition, game.settings.rapid_fire)
        return round(odds(weapon, attacker, target, cover)) if odds else 0
    return round(_fight_balance(state, attacker, target)[0])


def best_shot(game: Game, state: State, op: Operative, at: tuple[float, float] | None = None,
              pos: dict[str, tuple[float, float]] | None = None) -> Shot | None:
    """The valid shot with the best expected damage from ``at`` (default: where ``op``
    stands): visible, in range, a concealed target only out of cover (the planner's
    :func:`~solo_ops.ai.shooting.valid_shot`), Limited weapons not used up."""
    ctx = _ctx(game, state)
    point = at if at is not None else op.at
    assert point is not None
    pos = pos if pos is not None else _pos(state)
    best: Shot | None = None
    enemies = _enemies(state)
    for weapon in op.profile.ranged_weapons:
        if ai_shooting.used_up(ctx, op, weapon):
            continue
        ai_shooting.prefetch_covers(ctx, op, point, weapon, enemies, pos)  # one batch
        for target in enemies:
            ok, cover, _ = ai_shooting.valid_shot(ctx, op, point, weapon, target, pos)
            if not ok:
                continue
            expected = float(ctx.odds(weapon, op, target, cover)) if ctx.odds else 0.0
            if best is None or (expected, target.id) > (best.expected, best.target):
                best = Shot(target.id, weapon.name, expected)
    return best


def _fight_balance(state: State, op: Operative, target: Operative) -> tuple[float, float]:
    """(expected damage dealt, expected damage taken) in a fight of ``op`` on ``target``."""
    if state.edition != "kt2024":
        weapons = attacks.melee_weapons(op.profile, state.edition)
        return (1.0 if weapons else 0.0), 0.5
    mine, theirs = attacks._pick_2024(op, target, 0)
    if mine is None:
        return 0.0, 1.0
    fo = attacks._fight_odds(mine, theirs, op, target, 0)
    return float(fo.dealt.mean), float(fo.taken.mean)


def _in_control(game: Game, state: State, op: Operative) -> list[Operative]:
    return reach.within_reach(game.terrain(state), op, _enemies(state))


# -- activation ------------------------------------------------------------------------------------
def _activations(game: Game, state: State, prompt: Prompt, policy: str
                 ) -> Iterator[dict[str, Any]]:
    ready = [state.operatives[i] for i in prompt.options]
    enemies = _enemies(state)
    goals: list[tuple[float, float]] = [e.at for e in enemies if e.at is not None]
    goals += [c.at for c in state.active_counters()]

    shots: dict[str, Shot | None] = {}

    def key(op: Operative) -> tuple[float, float, float, str]:
        assert op.at is not None
        shot = shots[op.id] = best_shot(game, state, op) if enemies else None
        downed = 0.0 if op.carrying or any(
            math.dist(op.at, d.at) <= 6.0 for d in _downed_friends(state, op)  # type: ignore
        ) else 1.0
        near = min((math.dist(op.at, g) for g in goals if g is not None), default=0.0)
        return (-(shot.expected if shot else 0.0), downed, near, op.id)

    def shot_of(op: Operative) -> Shot | None:
        # the first offer is made on the state the ordering saw: its shot as found there
        # (an offer the rules refuse is followed by one asked afresh)
        return shots.pop(op.id) if first else best_shot(game, state, op)

    first = True
    for op in sorted(ready, key=key):
        stance = "engage"
        if state.edition == "kt2024" and (policy == "cautious" or (
                policy == "objective" and shot_of(op) is None)):
            stance = "conceal"
        first = False
        yield {"type": "activate", "operative": op.id, "stance": stance}


def _act_2024(game: Game, state: State, op: Operative, policy: str
              ) -> Iterator[dict[str, Any]]:
    assert op.at is not None
    taken = set(op.actions_taken)
    moved = bool(taken & set(reach.MOVES_2024))
    if op.carrying is not None:
        yield from _carry_home(game, state, op, ("reposition", "dash"))
        return
    # the moves the rules refuse to start now (AP, the sequence table, a Heavy weapon shot, the
    # order) are not worked out: their end points would only be refused
    may = {how: why is None for how, why in player_moves.open_moves(game, state).items()}
    friend_move = "reposition" if not moved else "dash"
    yield from _carry_friend(game, state, op, friend_move, may_move=may[friend_move])
    held = _in_control(game, state, op)
    if held:
        yield from _fight_or_flee(game, state, op, held, policy,
                                  can_flee="fall_back" not in taken)
        return
    shot = best_shot(game, state, op) if op.stance == "engage" or _silent(op) else None
    if policy == "cautious" and not moved and shot is not None and may["reposition"]:
        # cover first, then the shot if still there
        yield from _moves(game, state, op, policy, "reposition", want_shot=True)
    if shot is not None and "shoot" not in taken:
        yield {"type": "shoot", "operative": op.id, "target": shot.target,
               "weapon": shot.weapon, "roll": True}
    # the sequence table and the order the rules check (a Charge needs an Engage order)
    if sequences.allowed("charge", taken) and op.stance == "engage" and may["charge"]:
        charge = _charge(game, state, op, policy, shot)
        if charge is not None:
            yield charge
    if not moved:
        if may["reposition"]:
            yield from _moves(game, state, op, policy, "reposition")
    elif "dash" not in taken and policy in ("objective", "aggressive") and shot is None \
            and may["dash"]:
        yield from _moves(game, state, op, policy, "dash")


def _silent(op: Operative) -> bool:
    return any(w.has("silent") for w in op.profile.ranged_weapons)


def _act_2018(game: Game, state: State, op: Operative, policy: str
              ) -> Iterator[dict[str, Any]]:
    assert op.at is not None
    if state.phase == "movement":
        if op.carrying is not None:
            yield from _carry_home(game, state, op, ("normal",))
            return
        if op.moved_how is not None:
            return
        yield from _carry_friend(game, state, op, "normal")
        held = _in_control(game, state, op)
        if held:
            if policy != "aggressive":
                yield from _flee(game, state, op, held)
            return
        charge = _charge(game, state, op, policy, best_shot(game, state, op))
        if charge is not None:
            yield charge
        yield from _moves(game, state, op, policy, "normal")
    elif state.phase == "shooting":
        shot = best_shot(game, state, op)
        if shot is not None and not op.shot:
            yield {"type": "shoot", "operative": op.id, "target": shot.target,
                   "weapon": shot.weapon, "roll": True}
    elif state.phase == "fight" and not op.fought:
        held = _in_control(game, state, op)
        for target in sorted(held, key=lambda t: (-_fight_balance(state, op, t)[0], t.id)):
            yield {"type": "fight", "operative": op.id, "target": target.id, "roll": True}


# -- the wounded -----------------------------------------------------------------------------------
def _carry_home(game: Game, state: State, op: Operative, hows: tuple[str, ...]
                ) -> Iterator[dict[str, Any]]:
    """A carrier evacuates at a table edge, or walks towards the nearest one."""
    yield {"type": "evacuate", "operative": op.id}
    assert op.at is not None
    board = game.terrain(state).board
    for how in hows:
        if how in op.actions_taken:
            continue
        allowance = reach.move_allowance(op, how, state.edition)
        if allowance <= 0.05:
            continue
        ctx = _ctx(game, state)
        cand = ai_candidates.candidate_points(ctx, op, op.at, allowance,
                                              ai_context.WorkingBoard(state), spacing=SPACING)
        pts = cand.points
        if len(pts) < 2:
            continue
        edge = np.minimum.reduce([pts[:, 0], pts[:, 1], board.width - pts[:, 0],
                                  board.depth - pts[:, 1]])
        k = ai_candidates.pick(edge, cand.cost, pts)
        if k is not None and k != 0:
            yield _move(op, how, pts[k])


def _carry_friend(game: Game, state: State, op: Operative, how: str, *, may_move: bool = True
                  ) -> Iterator[dict[str, Any]]:
    """Pick up a downed friend within control range, or move next to one within reach
    (``may_move`` False: the rules refuse the move now, so only a pick-up is offered)."""
    if op.carrying is not None or (state.edition == "kt2018" and state.phase != "movement"):
        return
    friends = _downed_friends(state, op)
    if not friends or _in_control(game, state, op):
        return
    terrain = game.terrain(state)
    assert op.at is not None
    for friend in friends:
        assert friend.at is not None
        if reach.in_control_range(terrain, op.at, op.radius, friend.at, friend.radius):
            yield {"type": "carry", "operative": op.id, "target": friend.id}
    if not may_move or how in op.actions_taken or (op.moved and state.edition == "kt2018"):
        return
    allowance = reach.move_allowance(op, how, state.edition)
    ctx = _ctx(game, state)
    # only the end points next to a friend can be chosen: ask for those alone (the discs of
    # control_mask's straight-line test, as a charge does; the same points, costs and walks)
    discs = [ai_combat.charge_disc(op, f.at, f) for f in friends]  # type: ignore[arg-type]
    cand = ai_candidates.candidate_points(ctx, op, op.at, allowance, ai_context.WorkingBoard(state),
                                          spacing=SPACING, near=carry_discs(discs))
    for friend in sorted(friends, key=lambda f: (math.dist(op.at, f.at), f.id)):  # type: ignore
        assert friend.at is not None
        ok = reach.control_mask(terrain, cand.points, op.radius, friend.at, friend.radius,
                                margin=ai_combat.CHARGE_END_MARGIN)
        k = ai_candidates.pick(cand.cost, cand.cost, cand.points, ok)
        if k is not None:
            yield _move(op, how, cand.points[k])
            return


def carry_discs(discs: list[tuple[float, float, float]]
                ) -> list[tuple[float, float, float]] | None:
    """The discs :func:`_carry_friend` asks the end points of (None: all end points). Each
    holds every point :func:`~solo_ops.rules.reach.control_mask` can find in a friend's
    control range (its straight-line test, with a hair to spare), so the mask of each friend
    is measured on the same points, in the same order, as in the set of all end points."""
    return discs


# -- fights ----------------------------------------------------------------------------------------
def _fight_or_flee(game: Game, state: State, op: Operative, held: list[Operative],
                   policy: str, can_flee: bool) -> Iterator[dict[str, Any]]:
    balance = {t.id: _fight_balance(state, op, t) for t in held}  # (exact odds: once each)
    scored = sorted(held, key=lambda t: (-(balance[t.id][0] - balance[t.id][1]), t.id))
    best = scored[0]
    dealt, taken = balance[best.id]
    fights = [{"type": "fight", "operative": op.id, "target": t.id, "roll": True}
              for t in scored if "fight" not in op.actions_taken]
    if policy == "aggressive" or dealt >= taken or not can_flee:
        yield from fights
    else:
        # flee first; if the rules refuse (no room, no AP), fight after all
        yield from _flee(game, state, op, held)
        yield from fights


def _flee(game: Game, state: State, op: Operative, held: list[Operative]
          ) -> Iterator[dict[str, Any]]:
    """Fall back: out of every enemy's control range, as far from the nearest as it can."""
    assert op.at is not None
    terrain = game.terrain(state)
    allowance = reach.move_allowance(op, "fall_back", state.edition)
    blockers = [(o.at[0], o.at[1], o.radius) for o in state.operatives.values()
                if o.on_table and o.at is not None and o.id not in (op.id, op.carrying)]
    cand = terrain.routes.reachable(op.at, op.radius, allowance, blockers=blockers,
                                    spacing=0.5)
    pts = np.asarray(cand.points, dtype=float)
    enemies = _enemies(state)
    if len(pts) < 2 or not enemies:
        return
    clear = np.ones(len(pts), dtype=bool)
    for e in enemies:
        assert e.at is not None
        clear &= ~reach.control_mask(terrain, pts, op.radius, e.at, e.radius)
    ep = np.array([e.at for e in enemies], dtype=float)
    gaps = np.linalg.norm(pts[:, None, :] - ep[None], axis=2).min(axis=1)
    k = ai_candidates.pick(-gaps, np.asarray(cand.cost, dtype=float), pts, clear)
    if k is not None:
        yield _move(op, "fall_back", pts[k])


def _charge(game: Game, state: State, op: Operative, policy: str, shot: Shot | None
            ) -> dict[str, Any] | None:
    """A charge on the nearest visible enemy when the policy wants it and the move reaches."""
    enemies = _enemies(state)
    if not enemies or not attacks.melee_weapons(op.profile, state.edition):
        return None
    assert op.at is not None
    ctx = _ctx(game, state)
    pos = _pos(state)
    ranked = [(d, t) for d, t in ai_context.nearest_targets(ctx, op.at, op.radius, enemies, pos)
              if math.isfinite(d)]
    seen = {t.id for t in ai_context.visible_targets(ctx, op.at, op.radius,
                                                  [t for _, t in ranked], pos)}
    near = [(d, t) for d, t in ranked if t.id in seen]
    if not near:
        return None
    dist, target = near[0]
    if policy != "aggressive":
        dealt, taken = _fight_balance(state, op, target)
        if dealt - taken <= (shot.expected if shot else 0.0):
            return None
    if state.edition == "kt2018":
        if dist > KT2018_SURE_CHARGE - 1.0 + 1e-9:
            return None
        act = ai_combat.charge_option(ctx, op, op.at, ai_context.WorkingBoard(state), near,
                                      {"charge": "yes"}, "kt2024")
    else:
        act = ai_combat.charge_option(ctx, op, op.at, ai_context.WorkingBoard(state), near,
                                      {"charge": "yes"}, state.edition)
    if act is None or act.to is None:
        return None
    return {**_move(op, "charge", act.to), "target": target.id}


# -- moves -----------------------------------------------------------------------------------------
def _move(op: Operative, how: str, to: Any) -> dict[str, Any]:
    return {"type": "move", "operative": op.id, "how": how,
            "to": [round(float(to[0]), 2), round(float(to[1]), 2)]}


def _goals(game: Game, state: State) -> list[tuple[float, float]]:
    """Where the players want to be: objective markers they do not control, else the
    unresolved counters (to reveal them)."""
    from solo_ops.game.scoring import objective_control

    board = game.scenario.board
    held = objective_control(game, state) if board.objectives else {}
    where = markers.positions(game, state)  # a marker carried or placed down is elsewhere
    goals = [where[o.id] for o in board.objectives if held.get(o.id) != PLAYER]
    goals += [c.at for c in state.active_counters()]
    return goals or [where[o.id] for o in board.objectives]


def _moves(game: Game, state: State, op: Operative, policy: str, how: str, *,
           want_shot: bool = False) -> Iterator[dict[str, Any]]:
    """The best end point of a ``how`` move by the policy's score (module docstring)."""
    assert op.at is not None
    allowance = reach.move_allowance(op, how, state.edition)
    if allowance <= 0.05:
        return
    ctx = _ctx(game, state)
    board = ai_context.WorkingBoard(state)
    cand = ai_candidates.candidate_points(ctx, op, op.at, allowance, board, spacing=SPACING)
    pts, cost = cand.points, cand.cost
    if len(pts) < 2:
        return
    enemies = _enemies(state)
    pos = board.pos
    radius = op.radius
    goals = _goals(game, state)
    progress = np.zeros(len(pts))
    targets = [pos[e.id] for e in enemies] if policy != "objective" or not goals else goals
    if not targets:
        targets = goals
    visible = ai_context.visible_targets(ctx, op.at, radius, enemies, pos) or enemies
    if targets:
        arr = np.asarray(targets, dtype=float)
        radii = np.zeros(len(arr))

        def progress_at(idx: np.ndarray) -> np.ndarray:
            d = np.asarray(ctx.terrain.routes.distance_matrix(arr, radii, pts[idx], radius),
                           dtype=float)
            return np.where(np.isfinite(d), d, 1e6).min(axis=0)

        if policy == "objective":
            # only the points that could be chosen (the best, or within the cover detour of
            # it) are measured around the walls; a straight line bounds the rest
            straight = np.hypot(pts[:, None, 0] - arr[None, :, 0],
                                pts[:, None, 1] - arr[None, :, 1]).min(axis=1) - radius
            progress = ai_candidates.lazy_scores(np.maximum(0.0, straight), progress_at, None,
                                                 COVER_DETOUR if visible else 0.0)
        else:
            progress = progress_at(np.arange(len(pts)))
    reach_in = max((ai_shooting.weapon_range(w) for w in op.profile.ranged_weapons),
                   default=0.0)
    if policy == "aggressive":
        def aggressive(idx: np.ndarray) -> np.ndarray:
            lines = ai_cover.firing_lines(ctx, pts[idx], radius, reach_in, enemies, pos) \
                if enemies else np.zeros(len(idx))
            return -10.0 * lines + progress[idx]

        # firing lines are asked only of the points that could still win (none scores below
        # -10 an enemy plus its progress)
        score = ai_candidates.lazy_scores(-10.0 * len(enemies) + progress, aggressive, None, 0.0)
        k = ai_candidates.pick(score, cost, pts)
    elif policy == "cautious":
        def cautious(idx: np.ndarray) -> np.ndarray:
            prot = ai_cover.protected(ctx, pts[idx], radius, visible, pos).sum(axis=0) \
                if visible else np.zeros(len(idx))
            lines = ai_cover.firing_lines(ctx, pts[idx], radius, reach_in, enemies, pos) \
                if enemies else np.zeros(len(idx))
            return -20.0 * prot - (5.0 * (lines > 0) if want_shot or enemies else 0.0) \
                + 0.5 * progress[idx]

        # cover and firing lines are asked only of the points that could still win: none
        # scores below -20 a visible enemy, -5 for a line, plus half its progress
        best_case = -20.0 * len(visible) - (5.0 if want_shot or enemies else 0.0)
        score = ai_candidates.lazy_scores(best_case + 0.5 * progress, cautious, None, 0.0)
        k = ai_candidates.pick(score, cost, pts)
    else:
        k = ai_candidates.pick(progress, cost, pts)
        if k is not None and visible:
            near = progress <= progress[k] + COVER_DETOUR
            # the best point protected from every visible enemy, asking the best first
            j = ai_candidates.pick_where(progress, cost, pts, near,
                                         ai_cover.protected_all(ctx, pts, radius, visible, pos))
            k = j if j is not None else k
    if k is None or k == 0:
        return
    yield _move(op, how, pts[k])


# -- the driver ------------------------------------------------------------------------------------
def simulated(scenario: Scenario) -> Scenario:
    """``scenario`` as the simulator plays it: the players' fights resolved by the engine's
    policy without asking (``fight_choices: auto``), the very moves the autopilot's ``auto
    all`` answer makes, and a useless cover save rolled (``cover_saves: auto``, its ``roll``
    answer), without pausing and running a step again for each."""
    if scenario.settings.fight_choices == "auto" and scenario.settings.cover_saves == "auto":
        return scenario
    auto = {"fight_choices": "auto", "cover_saves": "auto"}
    settings = {**(scenario.document.get("settings") or {}), **auto}
    return replace(scenario, settings=replace(scenario.settings, fight_choices="auto",
                                              cover_saves="auto"),
                   document={**scenario.document, "settings": settings})


def answer(game: Game, state: State, prompt: Prompt, policy: str = "objective"
           ) -> dict[str, Any]:
    """Answer ``prompt`` with the first of the autopilot's answers (:func:`answers`) that
    :func:`~solo_ops.game.engine.step` accepts; the step's record."""
    from solo_ops.core.errors import RuleError
    from solo_ops.game.engine import step

    for action in answers(game, state, prompt, policy):
        try:
            return step(game, state, action)
        except RuleError:
            continue
    # pragma: no cover - the last answer is always one the rules accept
    raise RuntimeError(f"the autopilot has no accepted answer to {prompt.text!r}")


GC_THRESHOLD = (10_000, 50, 1_000)
"""The garbage collector's thresholds while a game is played to its end (Python's default is
(700, 10, 10)): a mission makes and drops hundreds of thousands of small objects, few of them in
cycles; collecting the youngest every 700 took 4.0-4.2% of a stronghold mission's CPU, 0.9-1.0%
this way (``docs/performance.md``). Only when collections run changes, never what a game does."""


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect garbage by :data:`GC_THRESHOLD` inside the block; the process's own thresholds
    come back after it (a server, a test or a campaign goes on as it was)."""
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def play(game: Game, state: State, policy: str = "objective", limit: int = 20_000, *,
         until_decided: bool = False) -> State:
    """Play the game to its end: every prompt answered by the autopilot (or the engine),
    through :func:`answer`, with fewer garbage collections (:func:`fewer_collections`).
    Returns ``state`` (ended). ``until_decided``: stop as soon as the outcome is certain
    (:func:`solo_ops.game.scoring.decided`), the battle not ended (what a rating that counts
    only the outcome needs)."""
    from solo_ops.game.engine import pending
    from solo_ops.game.scoring import decided

    with fewer_collections():
        for _ in range(limit):
            prompt = pending(game, state)
            if prompt.kind == "ended" or (until_decided and decided(game, state)):
                return state
            answer(game, state, prompt, policy)
    raise RuntimeError(f"the game did not end within {limit} steps")
