"""Auditing a played game's event log: no enemy attack at a model it cannot see, or that is
not on the table (issue #11, "Done when").

:func:`audit_game` plays a scenario to the end with the e2e tests' scripted player
(:func:`tests.e2e.test_play.bot_answers`, unchanged) and checks every step's events in order.
Positions and doors are followed from the log itself, starting from the state before each
step: ``moved`` / ``charged`` / ``charge_failed`` move a model, ``counter_revealed`` places
models, ``down`` and ``evacuated`` take them off the table, ``portal`` opens or closes a door.
At each enemy attack the check is made against those positions:

* ``attack`` (a shot): the target is on the table and visible to the shooter;
* ``charged`` / ``charge_failed``: the target is on the table; a charge that arrived ends in
  the target's control range (:func:`solo_ops.rules.reach.in_control_range`);
* ``fight`` (by an enemy): the target is on the table and in the fighter's control range, or
  it is a Door / Hatchway Fight (across a door or hatch, within 2" of its other side);
* ``attack_pending`` (an enemy attack handed to the player): the target is on the table.

Used by ``tests/e2e/test_log_audit.py`` (a few seeds) and ``bench/audit_games.py`` (seeds 1-20).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solo_ops.game.state import ENEMY
from solo_ops.rules import reach
from tests.support.paths import SCENARIOS


@dataclass
class Audit:
    """What one game's audit found."""

    scenario: str
    seed: int
    steps: int = 0
    attacks: int = 0  # enemy attacks checked
    problems: list[str] = field(default_factory=list)


def shipped_scenarios() -> list[Path]:
    return sorted(SCENARIOS.glob("*.yaml"))


def _check_record(game: Any, state: Any, record: dict[str, Any], pos: dict[str, Any],
                  doors: dict[str, bool], audit: Audit) -> None:
    """Walk one step's events in order (``pos`` and ``doors``: as before the step)."""
    ops = state.operatives

    def where(i: str) -> Any:
        return pos.get(i)

    def problem(text: str) -> None:
        audit.problems.append(f"{audit.scenario} seed {audit.seed} step {record['n']}: {text}")

    def enemy(i: Any) -> bool:
        return isinstance(i, str) and i in ops and ops[i].side == ENEMY

    for e in record["events"]:
        t = e.get("type")
        terrain = game.terrains.get(doors)
        if t == "attack" and enemy(e.get("attacker")):
            audit.attacks += 1
            a, b = where(e["attacker"]), where(e["target"])
            if b is None:
                problem(f"{e['attacker']} shoots {e['target']}, who is not on the table")
            elif a is not None and not terrain.sight.visible(
                    a, b, ops[e["attacker"]].radius, ops[e["target"]].radius):
                problem(f"{e['attacker']} at {a} shoots {e['target']} at {b} out of sight")
        elif t in ("charged", "charge_failed") and enemy(e.get("operative")):
            audit.attacks += 1
            if where(e["target"]) is None:
                problem(f"{e['operative']} charges {e['target']}, who is not on the table")
            elif t == "charged" and e.get("to") is not None:
                to, b = e["to"], where(e["target"])
                if not reach.in_control_range(terrain, to, ops[e["operative"]].radius, b,
                                              ops[e["target"]].radius):
                    problem(f"{e['operative']} charges {e['target']} to {to}, out of its "
                            "control range")
        elif t == "fight" and enemy(e.get("attacker")):
            audit.attacks += 1
            a, b = where(e["attacker"]), where(e["target"])
            across = "Door Fight" in e.get("note", "") or "Hatchway Fight" in e.get("note", "")
            if b is None:
                problem(f"{e['attacker']} fights {e['target']}, who is not on the table")
            elif a is not None and not across and not reach.in_control_range(
                    terrain, a, ops[e["attacker"]].radius, b, ops[e["target"]].radius):
                problem(f"{e['attacker']} at {a} fights {e['target']} at {b} out of its "
                        "control range")
        elif t == "attack_pending" and enemy(e.get("attacker")):
            audit.attacks += 1
            if where(e["target"]) is None:
                problem(f"{e['attacker']} attacks {e['target']}, who is not on the table")
        # what the event changes, for the events after it
        if t in ("moved", "charged", "charge_failed") and e.get("to") is not None:
            pos[e["operative"]] = tuple(e["to"])
        elif t == "counter_revealed":
            for m in e.get("models", []):
                pos[m["id"]] = tuple(m["at"])
        elif t == "down":
            pos.pop(e["operative"], None)
        elif t == "evacuated":
            pos.pop(e["operative"], None)
            pos.pop(e.get("carried"), None)
        elif t == "portal":
            doors[e["feature"]] = bool(e["open"])


def audit_game(path: Path, seed: int) -> Audit:
    """Play ``path`` with ``seed`` to the end with the scripted player, auditing every step."""
    import tests.support.players as e2e

    audit = Audit(path.stem, seed)
    real_step = e2e.step

    def checking_step(game: Any, state: Any, action: dict[str, Any]) -> dict[str, Any]:
        pos = {o.id: o.at for o in state.operatives.values() if o.on_table}
        doors = dict(state.doors)
        record = real_step(game, state, action)
        audit.steps += 1
        _check_record(game, state, record, pos, doors, audit)
        return record

    e2e.step = checking_step  # type: ignore[assignment]
    try:
        e2e.bot_answers(path, seed)
    finally:
        e2e.step = real_step  # type: ignore[assignment]
    return audit


# -- the table audit (issue #27) ---------------------------------------------------------------
POLICIES = ("objective", "cautious", "aggressive")
EDITIONS = ("kt2024", "kt2018")
COST_TOLERANCE = 0.05
"""Inches a move's reported cost may differ from its route recomputed from the recorded points
(each point is recorded to 0.01")."""


@dataclass
class TableAudit:
    """What one game's table audit found (issue #27 "A table audit that fails loudly")."""

    scenario: str
    seed: int
    policy: str
    edition: str
    steps: int = 0
    bases: int = 0  # base placements checked (bases x steps)
    moves: int = 0  # enemy moves whose cost was checked
    behind: int = 0  # ``behind`` answers checked
    overlaps: list[str] = field(default_factory=list)
    in_terrain: list[str] = field(default_factory=list)
    costs: list[str] = field(default_factory=list)
    behind_failed: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        return self.overlaps + self.in_terrain + self.costs + self.behind_failed

    def where(self, n: int) -> str:
        return f"{self.scenario}/{self.seed}/{self.policy}/{self.edition} step {n}"


def check_table(game: Any, state: Any, audit: TableAudit, n: int) -> None:
    """No two bases overlap (by more than 0.01"), no base is off the board or in terrain no
    base stands in: every base of :meth:`State.bases`, measured here from the circles and the
    board (independently of the placement module's own answers)."""
    import math

    from solo_ops.game.state import COUNTER_RADIUS

    terrain = game.terrain(state)
    bases = state.bases()
    audit.bases += len(bases)
    for i, a in enumerate(bases):
        for b in bases[i + 1:]:
            depth = a.r + b.r - math.hypot(a.x - b.x, a.y - b.y)
            if depth > 0.01:
                audit.overlaps.append(f"{audit.where(n)}: {a.ident} at ({a.x:.2f}, {a.y:.2f}) "
                                      f"and {b.ident} at ({b.x:.2f}, {b.y:.2f}) overlap by "
                                      f"{depth:.2f}\"")
        board = terrain.board
        on = (a.r - 1e-6 <= a.x <= board.width - a.r + 1e-6
              and a.r - 1e-6 <= a.y <= board.depth - a.r + 1e-6)
        fits = bool(terrain.routes.fits((a.x, a.y), a.r))
        if a.ident in state.counters and a.r == COUNTER_RADIUS:
            fits = fits and bool(terrain.solid_free([(a.x, a.y)], a.r)[0])
        if not on or not fits:
            audit.in_terrain.append(f"{audit.where(n)}: {a.ident} at ({a.x:.2f}, {a.y:.2f}) is "
                                    + ("off the board" if not on else "in terrain"))


def check_move_costs(game: Any, state: Any, record: dict[str, Any], audit: TableAudit,
                     doors: dict[str, bool]) -> None:
    """Every enemy move's reported cost equals its route's cost recomputed from the recorded
    points (length, climbs and drops; a point recorded to 0.01" that strays less than that
    into razor wire's reach or onto a deck is beside it), and is no less than the shortest way
    between its ends measured as ``geom distance`` measures (around walls and closed doors)."""
    ops = state.operatives
    for e in record["events"]:
        if e.get("type") == "portal":  # the doors as they stand at each event
            doors[e["feature"]] = bool(e["open"])
        if e.get("type") not in ("moved", "charged", "charge_failed") or "cost" not in e:
            continue
        op = ops.get(e.get("operative"))
        if op is None or op.side != ENEMY or not e.get("route") or e.get("to") is None:
            continue
        terrain = game.terrains.get(doors)
        audit.moves += 1
        route = [tuple(p) for p in e["route"]]
        # the route as recorded, and read with the record's rounding (a point 0.01" into
        # razor wire's reach that the walk only grazed): either must give the cost reported
        walk = terrain.routes.walk_through(route, op.radius)
        grazing = terrain.routes.walk_through(route, op.radius, touching=0.01)
        shortest = terrain.routes.distance(route[0], route[-1], 0.0, 0.0).distance
        cost = float(e["cost"])
        if min(abs(walk.cost - cost), abs(grazing.cost - cost)) > COST_TOLERANCE:
            audit.costs.append(f"{audit.where(record['n'])}: {op.id} reports {cost:.2f}\" for a "
                               f"route that costs {walk.cost:.2f}\"")
        elif shortest is not None and cost < shortest - COST_TOLERANCE:
            audit.costs.append(f"{audit.where(record['n'])}: {op.id} reports {cost:.2f}\", less "
                               f"than the {shortest:.2f}\" between its ends")
        if route[0] != tuple(e["from"]) or route[-1] != tuple(e["to"]):
            audit.costs.append(f"{audit.where(record['n'])}: {op.id}'s route does not run from "
                               f"{e['from']} to {e['to']}")


def check_behind(game: Any, state: Any, audit: TableAudit, n: int) -> None:
    """Ask ``behind`` of the terrain feature nearest the active operative (as a player
    would); a proposal must end where every enemy model on the table either cannot see it or
    sees it in cover (checked pair by pair with ``Sight.cover``, not the proposal's own
    test)."""
    from shapely.geometry import Point

    from solo_ops.core.errors import RuleError
    from solo_ops.game import intent

    op = state.operatives.get(state.active_operative or "")
    if op is None or op.at is None or op.carrying is not None or state.counteracting:
        return
    terrain = game.terrain(state)
    features = [f for f in terrain.board.features
                if not (f.is_line and "wall" in f.traits) and not f.is_portal]
    if not features:
        return
    here = Point(op.at)
    feature = min(features, key=lambda f: (f.shape.distance(here), f.id))
    action = {"type": "move", "how": "reposition" if state.edition == "kt2024" else "normal",
              "relation": "behind", "ref": feature.id}
    try:
        found = intent.propose(game, state, action)
    except RuleError:
        return  # refused, with the reason: nothing to check
    audit.behind += 1
    for e in state.operatives.values():
        if e.side == op.side or not e.on_table or e.at is None:
            continue
        cover = terrain.sight.cover(e.at, found.to, e.radius, op.radius)
        if cover.visible and not cover.in_cover:
            audit.behind_failed.append(
                f"{audit.where(n)}: 'move behind {feature.id}' ends {op.id} at {found.to} in "
                f"sight of {e.id} at ({e.at[0]:.1f}, {e.at[1]:.1f}) without cover")


def table_audit(path: Path, seed: int, policy: str = "objective", edition: str | None = None,
                *, behind_every: int = 7) -> TableAudit:
    """Play ``path`` with ``seed`` to the end with the autopilot's ``policy`` in ``edition``
    (default: the scenario's own), checking the table after every step (:func:`check_table`),
    every enemy move's cost (:func:`check_move_costs`) and, at every ``behind_every``-th
    player action prompt, a ``behind`` answer (:func:`check_behind`)."""
    import dataclasses

    from solo_ops.game.engine import new_game, pending
    from solo_ops.io.scenario import load_scenario
    from solo_ops.sim import autopilot

    scenario = load_scenario(path)
    if edition is not None and edition != scenario.edition:
        scenario = dataclasses.replace(scenario, edition=edition)
    game, state = new_game(scenario, seed)
    audit = TableAudit(path.stem, seed, policy, scenario.edition)
    check_table(game, state, audit, 0)
    doors = dict(state.doors)
    asked = 0
    for _ in range(20_000):
        prompt = pending(game, state)
        if prompt.kind == "ended":
            return audit
        if prompt.kind == "act":
            asked += 1
            if asked % behind_every == 1:
                check_behind(game, state, audit, len(state.log))
        record = autopilot.answer(game, state, prompt, policy)
        audit.steps += 1
        check_move_costs(game, state, record, audit, doors)
        check_table(game, state, audit, record["n"])
    raise RuntimeError("the game did not end")
