"""Auditing a played game's event log: no enemy attack at a model it cannot see, or that is
not on the table (issue #11, "Done when").

:func:`audit_game` plays a scenario to the end with the e2e tests' scripted player
(:func:`tests.test_play_e2e.bot_answers`, unchanged) and checks every step's events in order.
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

Used by ``tests/test_log_audit.py`` (a few seeds) and ``bench/audit_games.py`` (seeds 1-20).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solo_ops.game.state import ENEMY
from solo_ops.rules import reach

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


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
    import tests.test_play_e2e as e2e

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
