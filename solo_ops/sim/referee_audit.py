"""The referee audit: whole games in which every enemy action is checked as a player's would be.

A game is played to its end by the autopilot (:mod:`solo_ops.sim.autopilot`, one of its
policies) with a watcher on the game (``Game.referee_watch``) that the engine tells of every
enemy plan as it starts to be carried out and of every enemy action just before the referee
judges it. On the state as it is at that moment:

* **actions**: the action is put through the players' own checks --
  :func:`solo_ops.game.player_moves.check_move` (the 2018 phase, AP and the sequence table,
  Heavy, where the base may stand, control range, a route around walls and bases with enemy
  control ranges blocking, the allowance, where a charge or fall back ends),
  :func:`solo_ops.game.actions.check_shot` (AP, Heavy, Conceal, control range, a valid target,
  range, Limited) and :func:`solo_ops.game.actions.check_fight` -- with the model's activation
  (its AP and actions so far, a Heavy weapon it shot, a counteract) set as a player's would be.
  A refusal is a flagged action; so is an ``enemy_refused`` event (the referee stopping an
  enemy action as it is carried out: the planner proposed something illegal).
* **orders** (each enemy plan against its order's priority text, 003): "Fire at will" -- "Firing
  will take priority over movement and charging": a model out of control range with a shot the
  players' checks accept from where it stands shoots first (Kill Team 2024; its unit not
  answering allies); "Unhindered move/charge" -- "Moving and/or charging will take priority
  over firing": no move after its shot; a charge never beyond its order's range ("Within 6"",
  "If within 12"", measured around the walls as the activation starts); "Remain stationary":
  no Reposition, Dash or normal move (a Charge, a Fall Back and an ally's call aside).

:func:`audit_game` plays one game; ``bench/audit_games.py --only referee`` sweeps every shipped
scenario x both editions x the three policies x seeds 1-20, and the suite runs a sample.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solo_ops.core.errors import RuleError
from solo_ops.core.tables import order_table
from solo_ops.game.state import PLAYER, Operative, State

if TYPE_CHECKING:
    from solo_ops.ai.context import Action, Plan
    from solo_ops.game.definition import Game

CHARGE_LIMIT = {"within_6": 6.0, "within_12": 12.0}
SLACK = 0.05  # inches: a charge this far past its order's range is the end-point grid's


@dataclass
class RefereeAudit:
    """What one game's referee audit found (``problems``: one line each)."""

    scenario: str
    seed: int
    policy: str
    edition: str
    steps: int = 0
    actions: int = 0  # enemy actions put through the players' checks
    plans: int = 0  # enemy plans checked against their orders
    problems: list[str] = field(default_factory=list)

    def flag(self, state: State, text: str) -> None:
        self.problems.append(f"{self.scenario} {self.edition} {self.policy} seed {self.seed} "
                             f"turn {state.turn} {state.phase}: {text}")


class _Watch:
    """The watcher the engine tells of enemy plans and actions (``Game.referee_watch``)."""

    def __init__(self, audit: RefereeAudit) -> None:
        self.audit = audit
        self._mark = (0, 0, 0)

    def begin(self) -> None:
        """A step starts (the engine tells): what was counted so far is marked."""
        self._mark = (self.audit.plans, self.audit.actions, len(self.audit.problems))

    def undone(self) -> None:
        """The step was undone (it paused for a question, or was refused): what it counted
        goes, since the step runs again with the answer and tells everything again."""
        self.audit.plans, self.audit.actions, kept = self._mark
        del self.audit.problems[kept:]

    def plan(self, game: Game, state: State, plan: Plan) -> None:
        self.audit.plans += 1
        for why in order_problems(game, state, plan):
            self.audit.flag(state, f"{plan.unit}: {why}")

    def action(self, game: Game, state: State, op: Operative, action: Action,
               spent: Sequence[Action], counteracting: bool) -> None:
        self.audit.actions += 1
        why = players_refusal(game, state, op, action, spent, counteracting)
        if why is not None:
            self.audit.flag(state, f"{op.id} {action.kind}"
                            f"{' at ' + action.target if action.target else ''}: {why}")


def players_refusal(game: Game, state: State, op: Operative, action: Action,
                    spent: Sequence[Action], counteracting: bool = False) -> str | None:
    """What the players' checks say of ``op``'s ``action`` now, its activation so far being
    ``spent`` (None: a player would be let do it). The operative's activation fields are set
    for the checks and put back after them."""
    saved = (op.ap_used, list(op.actions_taken), op.heavy_shot, op.moved_how,
             state.counteracting, state.active_operative, list(op.portals_operated))
    try:
        _as_player_would_be(state, op, spent, counteracting)
        _check(game, state, op, action)
    except RuleError as exc:
        return str(exc)
    finally:
        (op.ap_used, op.actions_taken, op.heavy_shot, op.moved_how, state.counteracting,
         state.active_operative, op.portals_operated) = saved
    return None


def _as_player_would_be(state: State, op: Operative, spent: Sequence[Action],
                        counteracting: bool) -> None:
    """Set ``op``'s activation as a player's operative's would stand after ``spent``."""
    from solo_ops.rules import referee

    state.counteracting = counteracting
    state.active_operative = op.id
    if state.edition != "kt2024":  # its move and a door opened on its way (the rest follows)
        op.actions_taken = ["portal" if a.kind == "operate_hatch" else a.kind for a in spent
                            if a.kind == "operate_hatch" or a.kind in referee.MOVES_2018]
        return
    op.ap_used, op.actions_taken, op.heavy_shot, op.moved_how = 0, [], None, None
    op.portals_operated = [a.portal for a in spent if a.kind == "operate_hatch" and a.portal]
    for done in spent:
        kind = "portal" if done.kind == "operate_hatch" else done.kind
        if kind in ("guard",):
            kind = "shoot"
        if not counteracting:
            op.ap_used += referee.ap_cost(kind)
        op.actions_taken.append(kind)
        weapon = next((w for w in op.profile.weapons if w.name == done.weapon), None)
        if kind == "shoot" and weapon is not None and weapon.has("heavy"):
            op.heavy_shot = weapon.name
        if kind in referee.MOVES_2024:
            op.moved_how = kind


def _check(game: Game, state: State, op: Operative, action: Action) -> None:
    """The players' check of ``action`` (raises ``RuleError`` when a player is refused)."""
    from solo_ops.game import attack_checks, player_moves
    from solo_ops.game.action_checks import activation
    from solo_ops.rules import referee

    target = state.operatives.get(action.target) if action.target else None
    why = None
    if action.kind in ("reposition", "dash", "normal", "advance", "fall_back") or (
            action.kind == "charge" and action.to is not None):
        # the move as the engine will carry it out (a base now in the way shortens it); a
        # charge is judged as declared: one it cannot finish fails, it is never shortened
        to = action.to if action.kind == "charge" else _placed(game, state, op, action)
        if to is not None:
            player_moves.check_move(game, state, op, action.kind, to, target)
    elif action.kind == "charge":  # 2018: rolled by the engine; its phase and its one move
        why = referee.timing_refusal_2018(activation(state, op), "charge")
    elif action.kind == "shoot" and target is not None:
        weapon = next((w for w in op.profile.weapons if w.name == action.weapon), None)
        attack_checks.check_shot(game, state, op, target, weapon)
    elif action.kind == "fight" and target is not None:  # across a door: Door Fight
        attack_checks.check_fight(game, state, op, target, portal=action.portal)
    elif action.kind in ("fight", "operate_hatch", "guard"):
        kind = {"fight": "fight", "operate_hatch": "portal"}.get(action.kind, "guard")
        why = referee.spend_refusal(activation(state, op), kind)
        if why is None and action.kind == "operate_hatch" and action.portal is not None:
            why = referee.portal_again_refusal(activation(state, op), action.portal)
    if why is not None:
        raise RuleError(why)


def _placed(game: Game, state: State, op: Operative, action: Action
            ) -> tuple[float, float] | None:
    """Where the engine will put ``op`` at the end of the planned move ``action`` (the
    placement rule shortens a move onto a base that stands there now), or None when it will
    not move at all: the move carried out is the one judged."""
    from solo_ops.game import enemy_checks, placing
    from solo_ops.rules import reach

    assert action.to is not None and op.at is not None
    route: Any = action.route if len(action.route) >= 2 else (op.at, action.to)
    if math.dist(route[0], op.at) > 0.005 or enemy_checks.route_blocked(game, state, op, route):
        # as the engine goes on
        route = placing.way_from_here(game, state, op, action.to, action.kind)
        if route is None:
            return None
    try:
        limit: float | None = reach.move_allowance(op, action.kind, state.edition)
    except ValueError:
        limit = None
    to, _, _ = placing.placed(game, state, op, route, limit, how=action.kind)
    return to


def order_problems(game: Game, state: State, plan: Plan) -> list[str]:
    """Where ``plan`` disagrees with its order's priority text (see the module docstring)."""
    codes = order_table(plan.troop)[plan.command].codes()
    if plan.allies is not None:
        return []  # allies override movement (003 "Allies")
    out: list[str] = []
    by_model: dict[str, list[Action]] = {}
    for a in plan.actions:
        by_model.setdefault(a.model, []).append(a)
    for model, acts in by_model.items():
        op = state.operatives.get(model)
        if op is None or not op.on_table or op.at is None:
            continue
        kinds = [a.kind for a in acts if a.kind not in ("operate_hatch", "guard")]
        out += [f"{model} {why}" for why in _priority(game, state, op, codes, kinds)]
        out += [f"{model} {why}" for why in _charge_range(game, state, op, codes, acts)]
        if codes["move"] == "remain_stationary" and any(
                k in ("reposition", "dash", "normal", "advance") for k in kinds):
            out.append(f"{model} moves on a Remain Stationary order")
    return out


def _priority(game: Game, state: State, op: Operative, codes: dict[str, str],
              kinds: list[str]) -> list[str]:
    """The shooting order's priority (Kill Team 2024)."""
    if state.edition != "kt2024" or not kinds:
        return []
    if codes["shoot"].startswith("unhindered") and "shoot" in kinds:
        after = kinds[kinds.index("shoot"):]
        if any(k in ("reposition", "dash", "charge") for k in after):
            return ["moves after its shot on an Unhindered move/charge order"]
    if codes["shoot"] == "fire_at_will" and kinds[0] not in ("shoot", "fight", "fall_back"):
        shot = _shot_from_here(game, state, op)
        if shot is not None:
            return [f"does not fire first on a Fire at will order with {shot} valid from "
                    "where it stands"]
    return []


def _shot_from_here(game: Game, state: State, op: Operative) -> str | None:
    """A target and weapon the players' Shoot checks accept for ``op`` as its activation
    starts (Engage order), as words, or None."""
    from solo_ops.game import attack_checks

    saved = (op.ap_used, list(op.actions_taken), op.heavy_shot, op.moved_how, op.stance,
             state.active_operative, state.counteracting)
    try:
        op.ap_used, op.actions_taken, op.heavy_shot, op.moved_how = 0, [], None, None
        op.stance, state.active_operative, state.counteracting = "engage", op.id, False
        for target in state.living(PLAYER):
            for weapon in op.profile.ranged_weapons:
                try:
                    attack_checks.check_shot(game, state, op, target, weapon)
                except RuleError:
                    continue
                return f"{weapon.name} at {target.id}"
    finally:
        (op.ap_used, op.actions_taken, op.heavy_shot, op.moved_how, op.stance,
         state.active_operative, state.counteracting) = saved
    return None


def _charge_range(game: Game, state: State, op: Operative, codes: dict[str, str],
                  acts: list[Action]) -> list[str]:
    """No charge beyond the order's range (measured around the walls as it starts)."""
    limit = CHARGE_LIMIT.get(codes["charge"])
    out = []
    for a in acts:
        if a.kind != "charge" or limit is None or a.target is None:
            continue
        target = state.operatives.get(a.target)
        if target is None or target.at is None or op.at is None:
            continue
        d = game.terrain(state).routes.distance(op.at, target.at, op.radius,
                                                target.radius).distance
        if d is not None and d > limit + SLACK:
            out.append(f"charges {target.id} {d:.1f}\" away on a 'Within {limit:g}\"' order")
    return out


def audit_game(path: Path, seed: int, policy: str = "objective", edition: str | None = None,
               *, max_steps: int = 20_000) -> RefereeAudit:
    """Play ``path`` with ``seed`` to its end by the autopilot's ``policy`` in ``edition``
    (default: the scenario's own) with the referee watching every enemy plan and action."""
    from solo_ops.game.engine import new_game, pending
    from solo_ops.io.scenario import load_scenario
    from solo_ops.sim import autopilot

    scenario = load_scenario(path)
    if edition is not None and edition != scenario.edition:
        scenario = dataclasses.replace(scenario, edition=edition)
    game, state = new_game(scenario, seed)
    audit = RefereeAudit(path.stem, seed, policy, scenario.edition)
    game.referee_watch = _Watch(audit)
    for _ in range(max_steps):
        prompt = pending(game, state)
        if prompt.kind == "ended":
            return audit
        record = autopilot.answer(game, state, prompt, policy)
        audit.steps += 1
        for e in record["events"]:
            if e.get("type") == "enemy_refused":
                audit.flag(state, f"the referee refused {e['operative']}'s {e['action']} as "
                           f"it was carried out: {e['why']}")
    raise RuntimeError("the game did not end")
