"""The order-coverage audit of issue #29: every troop type x command 1-6 x distance band x
edition, played on a small board and checked against the order's words (003).

A cell is one enemy model of the troop type with a fixed command, a player trooper at the
band's distance (edge to edge) on an open 30" x 22" board with one light crate near the enemy
(a "To cover" order always has cover within a move). Kill Team 2024 plans one activation;
Kill Team 2018 plans the movement phase, moves the model as planned, then plans the shooting
phase. :func:`check` reads the actions against the order independently of the planner's code
(its own distances, sight and weapon ranges from the geometry):

* legal: the 2024 sequence table (``rules/sequences.py``), the AP, Heavy before and after a
  shot, no shot after a charge;
* Shoot "Fire at will" ("Firing will take priority over movement and charging"): with a valid
  target from where it stands, the shot comes first (2018: no charge in the movement phase,
  the shot in the shooting phase);
* Shoot "Unhindered move/charge" ("Moving and/or charging will take priority over firing"):
  a charge the order allows and a Charge (or a Dash and a Charge) reaches is made; a shot
  comes after the moves;
* Charge: never beyond the order's range;
* Move: Remain stationary makes no move; To cover ends in cover (or hidden) from the enemy;
  Towards closest enemy ends nearer; Hold 12" ends nearer to 12" (or was within 0.1");
* a model with AP left and a valid shot where it ends takes it.

``bench/audit_orders.py`` runs every cell and prints the report; ``tests/ai/test_order_audit.py``
runs a sample.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from solo_ops.ai.planner import Plan, plan_activation
from solo_ops.core.tables import TroopType, order_table
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import parse_scenario
from solo_ops.rules import kt2024, sequences

BANDS = (4.7, 10.0, 13.0)
EDITIONS = ("kt2024", "kt2018")
TROOPS = (TroopType.MELEE.value, TroopType.FIRE_TEAMS.value, TroopType.SUPPORT.value)
LIMIT = {"within_6": 6.0, "within_12": 12.0, "yes": math.inf}
REACH = 12.0  # a Dash and a Charge (3" + 8" + 1"), or a 2D6 charge (2018)
MARGIN = 0.3  # a charge this much inside its reach must be made (the end-point grid's slack)
START = (5.0, 11.0)

PISTOL = {"name": "pistol", "type": "pistol", "range": 8, "attacks": 4, "hit": 4,
          "damage": [2, 3], "strength": 3, "ap": 0, "damage_2018": 1, "shots": 1}
WEAPONS = {
    "melee": [{"name": "axe", "type": "melee", "attacks": 4, "hit": 3, "damage": [4, 5],
               "strength": 4, "ap": -1, "damage_2018": 1}, PISTOL],
    "fire-teams": [{"name": "gun", "type": "rapid", "range_2018": 24, "attacks": 4, "hit": 4,
                    "damage": [3, 4], "strength": 3, "ap": 0, "damage_2018": 1, "shots": 1},
                   {"name": "knife", "type": "melee", "attacks": 3, "hit": 4,
                    "damage": [2, 3], "strength": 3, "ap": 0, "damage_2018": 1}],
    "support": [{"name": "stubber", "type": "heavy", "range_2018": 36, "attacks": 5, "hit": 4,
                 "damage": [3, 4], "rules": ["heavy=dash"], "strength": 4, "ap": 0,
                 "damage_2018": 1, "shots": 3}],
}
CRATE = {"id": "crate", "traits": ["light"],
         "polygon": [[8.6, 12.5], [9.0, 12.5], [9.0, 14.0], [8.6, 14.0]]}


def profile(troop: str) -> dict[str, Any]:
    return {"movement": 6, "wounds": 8, "save": 5, "leadership": 6, "toughness": 3,
            "base_mm": 25.4, "apl": 2, "ws": 4, "bs": 4, "strength": 3, "attacks": 1,
            "weapons": WEAPONS[troop], "kt2018": {"wounds": 1}}


@dataclass
class Cell:
    edition: str
    troop: str
    command: int
    band: float
    actions: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.edition} {self.troop} {self.command} {self.band:g}\""


def cells(sample: bool = False) -> list[Cell]:
    """Every cell (108), or a sample of 18: each troop type and edition at each band, the
    commands 1, 3 and 5 (fire at will and unhindered rows of every table)."""
    out = []
    for edition in EDITIONS:
        for troop in TROOPS:
            for command in range(1, 7):
                for band in BANDS:
                    if sample and (command, band) not in ((1, 4.7), (3, 10.0), (5, 13.0)):
                        continue
                    out.append(Cell(edition, troop, command, band))
    return out


def setup(cell: Cell) -> tuple[Any, Any]:
    player_at = [START[0] + cell.band + 1.0, START[1]]  # 25.4 mm bases: centres 1" apart more
    doc = {"name": "order audit", "edition": cell.edition, "seed": 1, "engagement": 0,
           "board": {"name": "small", "width": 30, "depth": 22, "features": [CRATE]},
           "squads": [{"player": "Ana", "models": [
               {"id": "kell", "profile": profile("fire-teams"), "at": player_at}]}],
           "enemies": [{"id": "u1", "command": cell.command, "models": [
               {"id": "e1", "profile": profile(cell.troop), "at": list(START)}]}]}
    return new_game(parse_scenario(doc, "audit.yaml"), 1)


def play(cell: Cell) -> Cell:
    """Plan the cell's activation (2018: movement, then shooting) and check it."""
    game, state = setup(cell)
    unit = state.units["u1"]
    assert unit.troop == cell.troop, (cell.label, unit.troop)
    before = _facts(game, state)
    if cell.edition == "kt2024":
        plans = [plan_activation(game.context(state), state, "u1", "firefight")]
    else:
        moving = plan_activation(game.context(state), state, "u1", "movement")
        _carry_out(state, moving)
        plans = [moving, plan_activation(game.context(state), state, "u1", "shooting")]
    actions = [a for p in plans for a in p.actions if a.model == "e1"]
    cell.actions = [_words(a) for a in actions]
    cell.problems = check(game, state, cell, before, actions)
    return cell


def _carry_out(state: Any, plan: Plan) -> None:
    """The 2018 movement phase as planned: moves made, a declared charge taken to succeed."""
    op = state.operatives["e1"]
    for a in plan.actions:
        if a.kind in ("normal", "advance", "fall_back") and a.to is not None:
            op.at, op.moved, op.moved_how = a.to, True, a.kind
        elif a.kind == "charge":
            op.at = a.route[-1] if a.route else op.at
            op.moved, op.moved_how, op.charged = True, "charge", True


def _words(a: Any) -> str:
    if a.kind == "shoot":
        return f"shoot {a.target} ({a.weapon})"
    if a.kind in ("fight", "charge") and a.target:
        return f"{a.kind} {a.target}" + (f" {a.cost:.1f}\"" if a.to is not None else "")
    if a.to is not None:
        return f"{a.kind} {a.cost:.1f}\""
    return a.kind


@dataclass
class _Facts:
    dist: float
    visible: bool
    shot: bool  # a valid target for some ranged weapon from where it stands


def _facts(game: Any, state: Any, at: tuple[float, float] | None = None) -> _Facts:
    e, p = state.operatives["e1"], state.operatives["kell"]
    here = at or e.at
    terrain = game.terrain(state)
    d = terrain.routes.distance(here, p.at, e.radius, p.radius).distance
    d = math.inf if d is None else d
    visible = terrain.sight.visible(here, p.at, e.radius, p.radius)
    shot = visible and any(w.effective_range is None or d <= w.effective_range + 1e-9
                           for w in e.profile.ranged_weapons) and d > 1.0 + 1e-9
    return _Facts(d, visible, shot)


def check(game: Any, state: Any, cell: Cell, before: _Facts, actions: list[Any]) -> list[str]:
    """What in ``actions`` disagrees with the order's words (see the module docstring)."""
    codes = order_table(cell.troop)[cell.command].codes()
    kinds = [a.kind for a in actions]
    problems = _legal(state, cell, actions) if cell.edition == "kt2024" else []
    problems += _shooting_order(cell, codes, before, kinds, actions)
    problems += _charge_order(state, codes, before, actions)
    problems += _move_order(game, state, codes, before, actions)
    problems += _shot_left(game, state, cell, actions)
    return problems


def _legal(state: Any, cell: Cell, actions: list[Any]) -> list[str]:
    op = state.operatives["e1"]
    done: list[str] = []
    out = []
    heavy_moves: tuple[str, ...] | None = None
    for a in actions:
        if a.kind == "operate_hatch":
            continue
        rule = sequences.refusal(a.kind, done)
        if rule is not None:
            out.append(f"{a.kind} after {done}: sequence rule {rule.name}")
        if a.kind == "shoot":
            weapon = next(w for w in op.profile.weapons if w.name == a.weapon)
            if "charge" in done:
                out.append("a shot after a charge (in control range)")
            for moved in [k for k in done if k in ("reposition", "dash")]:
                if not kt2024.may_shoot_after_move(weapon, moved):
                    out.append(f"a Heavy shot after a {moved}")
            heavy_moves = kt2024.heavy_allowed_moves(weapon)
        elif a.kind in ("reposition", "dash", "charge") and heavy_moves is not None \
                and a.kind not in heavy_moves:
            out.append(f"a {a.kind} after a Heavy shot")
        done.append(a.kind)
    cost = sum(2 if k == "fall_back" else 1 for k in done)
    if cost > op.profile.apl:
        out.append(f"{cost} AP spent of {op.profile.apl}")
    return out


def _shooting_order(cell: Cell, codes: dict[str, str], before: _Facts, kinds: list[str],
                    actions: list[Any]) -> list[str]:
    out = []
    if codes["shoot"] == "fire_at_will" and before.shot:
        if cell.edition == "kt2024" and kinds[:1] != ["shoot"]:
            out.append("fire at will with a target in range, but the shot is not first")
        if cell.edition == "kt2018" and ("charge" in kinds or "shoot" not in kinds):
            out.append("fire at will with a target in range: it charged or did not shoot")
    if codes["shoot"].startswith("unhindered") and "shoot" in kinds:
        first_shot = kinds.index("shoot")
        if any(k in ("reposition", "dash", "normal", "charge") for k in kinds[first_shot:]):
            out.append("unhindered: a move after the shot")
    return out


def _charge_order(state: Any, codes: dict[str, str], before: _Facts,
                  actions: list[Any]) -> list[str]:
    """Never beyond the order's range; an unhindered move/charge order with a charge in range
    and reach makes it (reach: a Dash and a Charge, 3 + 8 + 1 = 12" in 2024; the 12" a 2D6
    charge can roll in 2018; a model without a melee weapon charges only on "Yes")."""
    out = []
    limit = LIMIT[codes["charge"]]
    charges = [a for a in actions if a.kind == "charge"]
    if charges and before.dist > limit + 1e-6:
        out.append(f"a charge at {before.dist:.1f}\" beyond its order's {limit:g}\"")
    armed = bool(state.operatives["e1"].profile.melee_weapons) or codes["charge"] == "yes"
    if (codes["shoot"].startswith("unhindered") and not charges and before.visible and armed
            and before.dist <= min(limit, REACH - MARGIN)):
        out.append(f"unhindered move/charge: no charge at {before.dist:.1f}\"")
    return out


def _move_order(game: Any, state: Any, codes: dict[str, str], before: _Facts,
                actions: list[Any]) -> list[str]:
    moves = [a for a in actions if a.kind in ("reposition", "dash", "normal")]
    if any(a.kind == "charge" for a in actions):
        return []
    if codes["move"] == "remain_stationary":
        return ["remain stationary, but it moved"] if moves else []
    if not moves:
        return _stayed(game, state, codes, before)
    end = moves[-1].to
    after = _facts(game, state, end)
    e, p = state.operatives["e1"], state.operatives["kell"]
    if codes["move"] in ("to_cover", "to_cover_firing_line"):
        c = game.terrain(state).sight.cover(p.at, end, p.radius, e.radius)
        if c.visible and not c.in_cover:
            return [f"to cover, but it ends at {end} out of cover"]
    if codes["move"] == "towards_closest_enemy" and after.dist >= before.dist:
        return ["towards the closest enemy, but it ends no nearer"]
    if codes["move"] == "hold_12" and abs(after.dist - 12) >= abs(before.dist - 12):
        return [f"hold 12\": {before.dist:.1f}\" became {after.dist:.1f}\""]
    return []


def _stayed(game: Any, state: Any, codes: dict[str, str], before: _Facts) -> list[str]:
    if codes["move"] == "hold_12" and abs(before.dist - 12) > 0.1 + 1e-6:
        return [f"hold 12\" at {before.dist:.1f}\", but it did not move"]
    if codes["move"] == "towards_closest_enemy" and before.dist > 1.0 + 1e-6:
        return ["towards the closest enemy, but it did not move"]
    return []


def _shot_left(game: Any, state: Any, cell: Cell, actions: list[Any]) -> list[str]:
    """A model that could still shoot where it ends (AP left, a valid target, no charge, no
    Heavy move) and did not."""
    kinds = [a.kind for a in actions]
    if "shoot" in kinds or "charge" in kinds or "fight" in kinds:
        return []
    moves = [a for a in actions if a.to is not None]
    end = moves[-1].to if moves else None
    after = _facts(game, state, end)
    if not after.shot:
        return []
    op = state.operatives["e1"]
    if cell.edition == "kt2024":
        if len(kinds) >= op.profile.apl:
            return []
        if moves and all(kt2024.heavy_allowed_moves(w) is not None
                         and not all(kt2024.may_shoot_after_move(w, m.kind) for m in moves)
                         for w in op.profile.ranged_weapons):
            return []
    return [f"it could still shoot from where it ends ({after.dist:.1f}\") and did not"]
