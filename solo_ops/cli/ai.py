"""``solo-ops ai plan``: what one enemy unit would do now, and why."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from solo_ops.ai.planner import plan_activation
from solo_ops.cli.common import console, emit_json, json_option, resolve_seed, seed_option
from solo_ops.core.errors import InputError, clip, excerpt
from solo_ops.game.engine import new_game
from solo_ops.game.state import ENEMY
from solo_ops.io.scenario import load_scenario
from solo_ops.view import narrate

if TYPE_CHECKING:
    from solo_ops.game.state import State


@click.group("ai")
def ai_group() -> None:
    """The enemy's decisions."""


@ai_group.command("plan")
@click.argument("scenario", type=click.Path(path_type=Path))
@click.option("--unit", "unit_id", required=True, help="The enemy unit's id.")
@click.option("--phase", type=click.Choice(["firefight", "movement", "shooting", "fight"]),
              default=None, help="Kill Team 2018 phase (default: the edition's first).")
@seed_option
@json_option
def ai_plan(scenario: Path, unit_id: str, phase: str | None, seed: int | None,
            as_json: bool) -> None:
    """Plan one activation of enemy unit UNIT in SCENARIO as set up (seeded)."""
    loaded = load_scenario(scenario)
    seed = resolve_seed(seed if seed is not None else loaded.seed)
    game, state = new_game(loaded, seed)
    visible_units = [u for u in state.units.values() if u.fsm != "hidden"]
    if unit_id not in state.units or state.units[unit_id].fsm == "hidden":
        split = [u.id for u in visible_units if u.id.startswith(f"{unit_id}-")]
        hint = f" (it split into {', '.join(split)})" if split else ""
        known = ", ".join(u.id for u in visible_units) or "none"
        raise InputError(f"no enemy unit {excerpt(unit_id)}{hint}; units: {clip(known)}",
                         source="--unit")
    phase = phase or ("firefight" if loaded.edition == "kt2024" else "movement")
    plan = plan_activation(game.context(state), state, unit_id, phase)
    roll_line = _order_roll_line(state, unit_id)
    if roll_line:
        plan.explain.insert(1, roll_line)
    data = plan.to_dict()
    if as_json:
        emit_json(data)
        return
    out = console()
    table = narrate.Table(edition=state.edition, units=game.settings.units,
                          portals={f.id: f.shape for f in loaded.board.portals()},
                          enemies={o.id: (o.name, o.at, o.owner)
                                   for o in state.operatives.values() if o.side == ENEMY})
    for line in narrate.explain_lines(plan.explain, table):
        out.print(line, markup=False)
    for action in plan.actions:
        if action.to is not None:
            where = narrate.move_words(action.start, action.to, action.route, table,
                                       action.cost or None)
            out.print(f"  → {action.model}: {action.kind.replace('_', ' ')} {where}",
                      markup=False)
        elif action.target:
            out.print(f"  → {action.model}: {action.kind} {action.target}", markup=False)
    out.print(f"State: {data['state_before']} → {data['state']}", markup=False)


def _order_roll_line(state: State, unit_id: str) -> str | None:
    """The order roll behind the unit's command, as the set-up or its counter's reveal logged
    it (split parts keep the roll of the unit they came from: ``cult-squad-melee`` that of
    ``cult-squad``); "capped at 6" only when the roll and its modifier passed 6. A unit of
    the scenario with a command given: fixed."""
    unit = state.units[unit_id]
    suffix = f"-{unit.troop}"
    whole = unit_id[:-len(suffix)] if unit_id.endswith(suffix) else unit_id
    purposes = {f"order roll for {unit_id}", f"order roll for {whole}"}
    if unit.origin is not None:
        purposes.add(f"order roll for counter {unit.origin}")
    for record in state.log:
        for roll in record.get("rolls", []):
            if roll.get("purpose") in purposes:
                mods = roll.get("modifiers") or []
                mod_text = "".join(f" {amount:+d} ({why})" for why, amount in mods)
                total = int(roll["faces"][0]) + sum(int(amount) for _, amount in mods)
                capped = " (capped at 6)" if total > 6 else ""
                return (f"Order roll: d6 = {roll['faces'][0]}{mod_text}, command "
                        f"{roll['value']}{capped}.")
    return f"Command {unit.command}: fixed by the scenario (no order roll)."


commands = [ai_group]
