"""``solo-ops fog seed``: place a scenario's hidden counters (the set-up step of the fog of war).

The text form shows what a player may see (where each counter goes); the JSON form is the
documented script interface of ``shared/INTERFACES.md`` and includes each counter's
``hidden_order``, so it is for scripts and testing, not for the player's eyes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.table import Table

from solo_ops.cli.common import console, emit_json, json_option, resolve_seed, seed_option
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from solo_ops.view import measure


@click.group("fog")
def fog_group() -> None:
    """The fog of war: hidden counters."""


@fog_group.command("seed")
@click.argument("scenario", type=click.Path(path_type=Path))
@click.option("--engagement", type=click.IntRange(1, 6), default=None,
              help="Engagement level 1-6 (2 counters per level); default: the scenario's.")
@click.option("--reveal-hidden", is_flag=True,
              help="DEBUG: also print hidden orders in the text form.")
@seed_option
@json_option
def fog_seed(scenario: Path, engagement: int | None, seed: int | None, reveal_hidden: bool,
             as_json: bool) -> None:
    """Seed SCENARIO's counters: 2 x engagement, each in a d6 sector, out of sight."""
    loaded = load_scenario(scenario)
    if engagement is not None:
        from dataclasses import replace

        loaded = replace(loaded, engagement=engagement)
    seed = resolve_seed(seed if seed is not None else loaded.seed)
    _game, state = new_game(loaded, seed)
    counters: list[dict[str, Any]] = [
        {"id": c.id, "sector": c.sector, "at": [round(c.at[0], 2), round(c.at[1], 2)],
         "hidden_order": c.hidden_order, "resolve_first_turn": c.resolve_first_turn}
        for c in state.counters.values()
    ]
    if as_json:
        emit_json({"counters": counters, "engagement": loaded.engagement, "seed": seed})
        return
    table = Table(title=f"{loaded.name}: {len(counters)} counters (engagement "
                        f"{loaded.engagement})", header_style="bold")
    for col in ("Counter", "Sector", "Place at", "Note"):
        table.add_column(col)
    if reveal_hidden:
        table.add_column("Hidden order (DEBUG)")
    for c in counters:
        note = "no hidden spot: resolve in turn 1" if c["resolve_first_turn"] else ""
        row = [c["id"], str(c["sector"]), measure.point(c["at"]), note]
        if reveal_hidden:
            row.append(str(c["hidden_order"]))
        table.add_row(*row)
    out = console()
    out.print(table)
    out.print(f"[dim]seed {seed}[/dim]")


commands = [fog_group]
