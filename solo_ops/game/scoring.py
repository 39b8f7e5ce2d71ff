"""Victory points, morale and the end of the battle (see :mod:`solo_ops.game.missions`).

Kill Team 2024: at the end of each turning point from the second, the Crit Op (objective
markers controlled: an operative controls a marker within 1" of it, the side with more total
APL there controls it), the player's Tac Op and the Kill Op score, each capped at 6 VP; at the
end the player's primary op scores half again (rounded up). Kill Team 2018 Pariah Nexus:
Supremacy points each battle round, objectives controlled by the total Wounds of unshaken
models within 2"; the morale phase's Nerve tests.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from solo_ops.game import markers
from solo_ops.game.missions import CONTROL_RANGE, OP_CAP, PN_CONTROL_RANGE, primary_bonus
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.rules import reach

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


SUPREMACY_CAP = 9
"""Kill Team 2018 Pariah Nexus: at most 9 VP from Supremacy (004)."""

SUPREMACY_A_ROUND = 3
"""The most Supremacy points a side scores in a battle round: an objective held, more held
than the opponent, a model of theirs taken out of action (:func:`score_turn`)."""

MOST_A_TURN: dict[str, int] = {"seize-ground": 2, "hold-the-line": 2, "recon-sweep": 1,
                               "hold-the-centre": 1, "break-the-enemy": 1}
"""The most VP each Crit Op and Tac Op scores in a turning point (:func:`score_turn`), for
:func:`most_still_scored`; an op not listed counts as its whole cap a turn."""


def _within(game: Game, state: State, op: Operative, point: tuple[float, float],
            distance: float) -> bool:
    """Whether ``op``'s base is within ``distance`` of ``point``, measured as every distance is:
    around the walls (RULES-NOTES; Gallowdark "Distances not measured through walls")."""
    assert op.at is not None
    if math.hypot(op.at[0] - point[0], op.at[1] - point[1]) - op.radius > distance + 1e-9:
        return False  # a route is never shorter than the straight line
    return reach.route_gap(game.terrain(state), op.at, op.radius, point, 0.0) <= distance + 1e-9


def _controls(game: Game, state: State, op: Operative, point: tuple[float, float],
              distance: float) -> bool:
    """Whether ``op`` is close enough to an objective marker to count towards controlling it.

    Kill Team 2024: in control range, within ``distance`` of the 40 mm marker's edge around
    the walls and visible (:func:`solo_ops.rules.reach.within`; issue 14 item 10). Kill Team
    2018: within ``distance`` of the marker's centre, measured around the walls and nothing
    more (004 "totals the Wounds characteristic of models from their kill team within 2" of
    that objective marker": seeing it is not asked)."""
    assert op.at is not None
    if state.edition == "kt2018":
        return _within(game, state, op, point, distance)
    return reach.within(game.terrain(state), op.at, op.radius, point, reach.MARKER_RADIUS,
                        distance)


def objective_control(game: Game, state: State) -> dict[str, str | None]:
    """``{objective id: "player" | "enemy" | None}`` by the edition's control rule. A marker
    being carried (Kill Team 2024 Pick Up) is controlled by its carrier's side (001: the
    carrier is "carrying, contesting, and controlling" it); one placed down elsewhere is
    measured where it lies (:mod:`solo_ops.game.markers`)."""
    board = game.scenario.board
    out: dict[str, str | None] = {}
    for obj in board.objectives:
        held = markers.carrier(state, obj.id)
        if held is not None and held.on_table:
            out[obj.id] = held.side
            continue
        at = markers.position(state, obj)
        totals = {PLAYER: 0, ENEMY: 0}
        for op in state.operatives.values():
            if not op.on_table:
                continue
            if state.edition == "kt2024":
                if _controls(game, state, op, at, CONTROL_RANGE):
                    totals[op.side] += max(1, op.profile.apl - op.apl_penalty)
            elif not op.shaken and _controls(game, state, op, at, PN_CONTROL_RANGE):
                totals[op.side] += op.profile.wounds  # 004: "totals the Wounds characteristic"
        if totals[PLAYER] > totals[ENEMY]:
            out[obj.id] = PLAYER
        elif totals[ENEMY] > totals[PLAYER]:
            out[obj.id] = ENEMY
        else:
            out[obj.id] = None
    return out


def _add(state: State, side: str, op: str, points: int, why: str,
         events: list[dict[str, Any]], cap: int | None = OP_CAP) -> int:
    """Score ``points`` (capped) for ``side``'s ``op``; every source that scores says so with
    a ``vp`` event (``why``: what scored), end-of-battle ones included."""
    key = f"{side}:{op}"
    have = state.op_vp.get(key, 0)
    if cap is not None:
        points = max(0, min(points, cap - have))
    state.op_vp[key] = have + points
    state.vp[side] = state.vp.get(side, 0) + points
    if points:
        events.append({"type": "vp", "side": side, "source": op, "points": points,
                       "why": why, "turn": state.turn, "vp": dict(state.vp)})
    return points


def score_turn(game: Game, state: State) -> list[dict[str, Any]]:
    """Score the turn that is ending."""
    mission = game.scenario.mission
    control = objective_control(game, state)
    held = {side: sum(1 for v in control.values() if v == side) for side in (PLAYER, ENEMY)}
    events: list[dict[str, Any]] = []
    gained = {PLAYER: 0, ENEMY: 0}
    lines: list[str] = []
    if state.edition == "kt2018" or mission.pariah:
        for side, other in ((PLAYER, ENEMY), (ENEMY, PLAYER)):
            pts = 0
            if held[side] >= 1:
                pts += 1
            if held[side] > held[other]:
                pts += 1
            # every Pariah Nexus matched play mission: "one or more of their opponent's
            # models were taken out of action during the battle round, or all of their
            # opponent's models are out of action"; at most 9 VP from Supremacy (004)
            wiped_out = not any(o.on_table for o in state.side(other)) and not (
                other == ENEMY and state.active_counters())
            if state.incapacitated_this_turn.get(other, 0) > 0 or wiped_out:
                pts += 1
            gained[side] += _add(state, side, "supremacy", pts,
                                 f"Supremacy, battle round {state.turn}", events,
                                 SUPREMACY_CAP)
        lines.append(f"Supremacy: objectives held {held[PLAYER]} to {held[ENEMY]}.")
    elif state.turn >= 2:
        for side, other in ((PLAYER, ENEMY), (ENEMY, PLAYER)):
            crit = f"Crit Op {mission.crit_op}, turning point {state.turn}"
            if mission.crit_op == "seize-ground":
                gained[side] += _add(state, side, "crit", min(2, held[side]), crit, events)
            elif mission.crit_op == "hold-the-line":
                pts = (1 if held[side] > held[other] else 0) + (
                    1 if held[side] == len(control) and control else 0)
                gained[side] += _add(state, side, "crit", pts, crit, events)
            if mission.kill_op and state.incapacitated_this_turn.get(other, 0) > 0:
                gained[side] += _add(state, side, "kill", 1,
                                     f"Kill Op, turning point {state.turn}", events)
        tac = _tac_points(game, state, mission.tac_op)
        gained[PLAYER] += _add(state, PLAYER, "tac", tac,
                               f"Tac Op {mission.tac_op}, turning point {state.turn}", events)
        lines.append(f"Objectives held: you {held[PLAYER]}, the enemy {held[ENEMY]}.")
    events.append({"type": "score", "turn": state.turn, "gained": gained, "vp": dict(state.vp),
                   "control": control, "lines": lines})
    return events


def _tac_points(game: Game, state: State, tac: str | None) -> int:
    board = game.scenario.board
    players = state.living(PLAYER)
    enemies = state.living(ENEMY)
    if tac == "recon-sweep":
        zone = board.zones.get("enemy")
        if zone is None:
            return 0
        from shapely.geometry import Point

        return int(any(o.at is not None and zone.contains(Point(o.at).buffer(o.radius))
                       for o in players))
    if tac == "hold-the-centre":
        centre = (board.width / 2, board.depth / 2)
        mine = any(_within(game, state, o, centre, 3.0) for o in players)
        theirs = any(_within(game, state, o, centre, 3.0) for o in enemies)
        return int(mine and not theirs)
    if tac == "break-the-enemy":
        return int(state.incapacitated_this_turn.get(ENEMY, 0) >= 2)
    return 0


KILL_GRADES = 5
"""Kill grades 1-5 (the grade table is not in the sources: docs/rules.md, "Kill Op")."""


def kill_grade(kills: int, opponents: int) -> int:
    """A side's kill grade: how many of the thresholds k = 1..5 its ``kills`` reach, threshold
    k being ``round(k * N / 5)`` kills with N = ``opponents`` (the opposing side's operatives),
    at least 5. k*N/5 never ends in .5 for a whole N, so the rounding has no tie. (001 "KILL
    OP: Score VP as per the card, +1VP to player with highest Kill Grade (NOT kill count)";
    the card's table is not in the sources: this is the published proportional reading.)"""
    n = max(KILL_GRADES, opponents)
    return sum(1 for k in range(1, KILL_GRADES + 1)
               if kills >= (2 * k * n + KILL_GRADES) // (2 * KILL_GRADES))


def counted_note(n: int) -> str:
    """The words the end-of-battle report adds after a side's operative count: ``, counted
    as 5`` when its kill grade counts more operatives than the side had (the floor of 5),
    else nothing."""
    return "" if n >= KILL_GRADES else f", counted as {KILL_GRADES}"


def kill_grades(state: State) -> dict[str, tuple[int, int, int]]:
    """``{side: (kill grade, kills, N)}``: the players' grade over every enemy model placed or
    revealed so far, the enemy's over the players' starting operatives."""
    out = {}
    for side, other in ((PLAYER, ENEMY), (ENEMY, PLAYER)):
        kills = state.incapacitated_total.get(other, 0)
        n = len(state.side(other))
        out[side] = (kill_grade(kills, n), kills, n)
    return out


def end_battle(game: Game, state: State) -> list[dict[str, Any]]:
    """Final scoring and the result."""
    mission = game.scenario.mission
    events: list[dict[str, Any]] = []
    if state.edition == "kt2024" and not mission.pariah:
        if mission.kill_op:
            grades = kill_grades(state)
            (mine, kills, n_enemy), (theirs, losses, n_squad) = grades[PLAYER], grades[ENEMY]
            why = (f"Kill Op at the end of the battle: kill grade {mine} ({kills} of "
                   f"{n_enemy} enemy operatives incapacitated{counted_note(n_enemy)}) against "
                   f"{theirs} ({losses} of {n_squad} of yours{counted_note(n_squad)}); the grades "
                   "are a reading from outside the sources")
            if mine > theirs:
                _add(state, PLAYER, "kill", 1, why, events)
            elif theirs > mine:
                _add(state, ENEMY, "kill", 1, why, events)
        bonus = primary_bonus(state.op_vp.get(f"{PLAYER}:{mission.primary}", 0))
        _add(state, PLAYER, "primary", bonus,
             f"primary op ({mission.primary} op): half its VP again, rounded up", events,
             cap=None)
    enemies_left = [o for o in state.living(ENEMY)]
    counters_left = [c for c in state.active_counters()]
    players_left = [o for o in state.living(PLAYER)]
    for op in state.side(PLAYER):
        if op.carried_by is not None and not op.carried_to_safety:
            op.carried_to_safety = True  # still carried at the end: carried to safety
    all_destroyed = not enemies_left and not counters_left
    tie_break = None
    if state.vp[PLAYER] > state.vp[ENEMY]:
        outcome = "win"
    elif state.vp[PLAYER] < state.vp[ENEMY]:
        outcome = "loss"
    else:
        outcome, tie_break = _tie_broken(game, state)
    # A wiped-out kill team still scores what it scored: the battle ends and VP decide
    # (docs/rules.md, "Playing a mission").
    wiped_out = not players_left and not any(o.carried_to_safety for o in state.side(PLAYER))
    state.result = {
        "outcome": outcome, "vp": dict(state.vp), "turns": state.turn,
        "all_enemies_destroyed": all_destroyed,
        "enemies_destroyed": state.incapacitated_total[ENEMY],
        "squad_lost": state.incapacitated_total[PLAYER],
        "unresolved_counters": len(counters_left),
        "squad_wiped_out": wiped_out,
    }
    if tie_break is not None:
        state.result["tie_break"] = tie_break
    events.append({"type": "battle_end", **state.result})
    return events


def _tie_broken(game: Game, state: State) -> tuple[str, str | None]:
    """The outcome of a battle tied on VP, and how the tie was broken (None: a draw). Kill
    Team 2018, every matched play mission (004): "If there is a tie, whichever player controls
    the most objective markers at the end of the battle is the winner. If there is still a
    tie, the game is a draw." Kill Team 2024 missions have no tie-break: a draw."""
    if state.edition != "kt2018":
        return "draw", None
    control = objective_control(game, state)
    mine = sum(1 for v in control.values() if v == PLAYER)
    theirs = sum(1 for v in control.values() if v == ENEMY)
    if mine == theirs:
        return "draw", None
    return ("win" if mine > theirs else "loss"), f"objective markers held {mine} to {theirs}"


def most_still_scored(game: Game, state: State, side: str) -> int:
    """An upper bound on the VP ``side`` can still score from now to the end of the battle:
    the turns not yet scored (the current one included) at each op's most a turn, within
    what its cap leaves, and the end of the battle's bonuses (the Kill Op's kill grade, the
    player's primary op half again on the most it can reach). What the battle actually gives
    is never more, whatever happens (models lost, objectives, dice)."""
    mission = game.scenario.mission
    left = max(0, game.settings.turns - state.turn + 1)
    have = state.op_vp
    if state.edition == "kt2018" or mission.pariah:
        return min(SUPREMACY_A_ROUND * left, max(0, SUPREMACY_CAP - have.get(
            f"{side}:supremacy", 0)))
    scored = sum(1 for t in range(state.turn, game.settings.turns + 1) if t >= 2)
    most: dict[str, int] = {}
    if mission.crit_op:
        most["crit"] = MOST_A_TURN.get(mission.crit_op, OP_CAP) * scored
    if mission.kill_op:
        most["kill"] = scored + 1  # 1 a turn, and the kill grade's 1 at the end
    if side == PLAYER and mission.tac_op:
        most["tac"] = MOST_A_TURN.get(mission.tac_op, OP_CAP) * scored
    most = {op: max(0, min(n, OP_CAP - have.get(f"{side}:{op}", 0))) for op, n in most.items()}
    total = sum(most.values())
    if side == PLAYER:  # the primary op's bonus grows with its VP: at most on the most it gets
        primary = have.get(f"{PLAYER}:{mission.primary}", 0)
        total += primary_bonus(primary + most.get(mission.primary, 0)) - primary_bonus(primary)
    return total


def decided(game: Game, state: State) -> str | None:
    """The players' outcome ("win" or "loss") when no play left in the battle can change it:
    one side already has more VP than the other can reach with everything it can still score
    (:func:`most_still_scored`; the player's primary op bonus on the VP it has is certain).
    None while either could still happen (or a draw). What a simulated mission needs when only
    its outcome is counted (a rating's win rate): the rest of the battle is not played."""
    if state.result:
        return str(state.result["outcome"]) if state.result.get("outcome") in (
            "win", "loss") else None
    mission = game.scenario.mission
    player, enemy = state.vp.get(PLAYER, 0), state.vp.get(ENEMY, 0)
    if state.edition == "kt2024" and not mission.pariah:
        player += primary_bonus(state.op_vp.get(f"{PLAYER}:{mission.primary}", 0))
    if player > enemy + most_still_scored(game, state, ENEMY):
        return "win"
    if enemy > player + most_still_scored(game, state, PLAYER):
        return "loss"
    return None


def morale_2018(game: Game, state: State) -> list[dict[str, Any]]:
    """Kill Team 2018 morale phase: Nerve tests for models with flesh wounds, and for every
    model of a broken kill team (more than half its models out of action or shaken)."""
    from solo_ops.game import attacks, pariah

    events: list[dict[str, Any]] = [{"type": "phase", "phase": "morale", "turn": state.turn}]
    for side in (PLAYER, ENEMY):
        models = state.side(side)
        if not models:
            continue
        gone = sum(1 for o in models if o.down or o.shaken)
        broken = gone * 2 > len(models)
        if broken:
            events.append({"type": "broken", "side": side})
        for op in models:
            op.shaken = False if not op.down else op.shaken
        for op in models:
            if not op.on_table or not (op.flesh_wounds or broken):
                continue
            assert state.dice is not None
            passed, entry = attacks.nerve_test_2018(state.dice, state, op,
                                                    pariah.nerve_modifiers(game, state, op),
                                                    terrain=game.terrain(state))
            if not passed:
                op.shaken = True
            events.append({"type": "nerve_test", "operative": op.id, "roll": entry.value,
                           "face": entry.face,
                           "modifiers": [[r, a] for r, a in entry.modifiers],
                           "leadership": int(op.profile.leadership), "passed": passed,
                           "why": "flesh wounds" if op.flesh_wounds else "kill team broken"})
    return events
