"""``solo-ops orders`` and ``solo-ops tables``: roll an order, form a unit, print a table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.table import Table

from solo_ops.cli.common import console, emit_json, json_option, resolve_seed, seed_option
from solo_ops.core.dice import CURRENT, dice_for
from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.tables import (
    ORDER_FIELDS,
    TroopType,
    order_table,
    simple_table,
    table_names,
)
from solo_ops.io.roster import load_roster
from solo_ops.rules.orders import form_units, leadership_modifier, roll_command


@click.group("orders")
def orders_group() -> None:
    """Roll the solo supplement's enemy orders."""


@orders_group.command("roll")
@click.option("--type", "troop", required=True,
              type=click.Choice([t.value for t in TroopType]),
              help="The unit's troop type: which order table to read.")
@click.option("--leadership", type=click.IntRange(1, 12), default=7, show_default=True,
              help="The unit's highest Leadership (+1 to the roll per point over 7).")
@seed_option
@json_option
def orders_roll(troop: str, leadership: int, seed: int | None, as_json: bool) -> None:
    """Roll a unit's order: d6 + Leadership modifier (capped at 6) on its troop table."""
    seed = resolve_seed(seed)
    dice = dice_for(CURRENT, seed)
    roll = roll_command(dice, leadership, purpose=f"order roll ({troop})")
    order = order_table(troop)[roll.command]
    if as_json:
        emit_json({
            "roll": roll.roll,
            "modified": roll.modified,
            "command": roll.command,
            "order": order.codes(),
            "order_text": order.texts(),
            "type": troop,
            "leadership": leadership,
            "modifier": roll.modifier,
            "seed": seed,
            "dice": [e.to_dict() for e in dice.log],
        })
        return
    out = console()
    mod = leadership_modifier(leadership)
    line = f"Rolled [bold]{roll.roll}[/bold]"
    if mod:
        line += f" +{mod} (Leadership {leadership})"
        if roll.roll is not None and roll.roll + mod > 6:
            line += ", capped at 6"
    line += f" → command [bold]{roll.command}[/bold] on the {TroopType(troop).title} table"
    out.print(line)
    out.print(_order_table_view(order, roll.command))
    out.print(f"[dim]seed {seed}[/dim]")


def _order_table_view(order: Any, command: int) -> Table:
    table = Table(show_header=True, header_style="bold", title=f"Order {command}")
    table.add_column("Field")
    table.add_column("Order")
    table.add_column("What the unit does", overflow="fold")
    for name in ORDER_FIELDS:
        cell = getattr(order, name)
        table.add_row(name.title(), cell.shown, cell.explain)
    return table


@orders_group.command("unit")
@click.option("--roster", "roster_path", required=True,
              type=click.Path(path_type=Path), help="A roster file (scenarios/rosters/*.yaml).")
@click.option("--models", type=click.IntRange(1, 4), default=3, show_default=True,
              help="How many enemies the counter turned out to be (1-4).")
@seed_option
@json_option
def orders_unit(roster_path: Path, models: int, seed: int | None, as_json: bool) -> None:
    """Draw enemies from a roster's d6 table, form them into units and roll their order."""
    seed = resolve_seed(seed)
    roster = load_roster(roster_path)
    dice = dice_for(CURRENT, seed)
    drawn = []
    for i in range(models):
        face = dice.d6(f"roster table, model {i + 1}").face
        key = roster.table[face]
        drawn.append((f"{key}-{i + 1}", roster.profiles[key], face))
    leadership = max(p.leadership for _, p, _ in drawn)
    roll = roll_command(dice, leadership)
    units = form_units([(m, p) for m, p, _ in drawn], roll.command)
    if as_json:
        emit_json({
            "roster": roster.name,
            "models": [{"id": m, "profile": p.name, "roll": f} for m, p, f in drawn],
            "roll": roll.roll,
            "modified": roll.modified,
            "command": roll.command,
            "units": [
                {"models": list(u.models), "type": u.troop.value, "leadership": u.leadership,
                 "order": u.order.codes(), "order_text": u.order.texts()}
                for u in units
            ],
            "seed": seed,
            "dice": [e.to_dict() for e in dice.log],
        })
        return
    out = console()
    out.print(f"[bold]{roster.name}[/bold]: {models} enemies")
    for m, p, f in drawn:
        out.print(f"  rolled {f} → {p.name} ({m}, Leadership {p.leadership})")
    line = f"Order roll {roll.roll}"
    if roll.modifier:
        line += f" +{roll.modifier} (highest Leadership {leadership})"
    out.print(line + f" → command [bold]{roll.command}[/bold]")
    if len(units) > 1:
        out.print("Weapon types and Leadership are both tied: the unit splits, each part keeping "
                  f"command {roll.command}.")
    for u in units:
        out.print(f"[bold]{u.troop.title}[/bold] unit: {', '.join(u.models)}")
        out.print(_order_table_view(u.order, u.command))
    out.print(f"[dim]seed {seed}[/dim]")


@click.group("tables")
def tables_group() -> None:
    """Print the solo supplement's tables."""


@tables_group.command("show")
@click.argument("name", required=False)
@click.option("--source", "as_printed", is_flag=True,
              help="The cells exactly as the supplement prints them (typos, ' for inches, "
                   "footnote marks); by default the corrected words players are shown.")
@json_option
def tables_show(name: str | None, as_printed: bool, as_json: bool) -> None:
    """Print table NAME (melee, fire-teams, support, hidden-enemy, enemy-count...), or all."""
    names = table_names()
    if name is not None and name not in names:
        raise InputError(f"unknown table {excerpt(name)} (known: {', '.join(names)})",
                         source="NAME")
    chosen = [name] if name else names
    docs = {n: _table_data(n) for n in chosen}
    if as_json:
        emit_json(docs[name] if name else docs)
        return
    out = console()
    for n in chosen:
        out.print(_table_view(n, as_printed))


def _table_data(name: str) -> dict[str, Any]:
    if name in {t.value for t in TroopType}:
        table = order_table(name)
        return {"name": name, "title": table.title, "rows": {
            str(face): {"text": row.texts(), "source": row.source_texts(), "code": row.codes()}
            for face, row in table.rows.items()
        }}
    simple = simple_table(name)
    return {"name": name, "title": simple.title, "rows": {
        str(face): {"code": cell.code, "text": cell.shown, "source": cell.text,
                    **({"enemies": cell.enemies} if name == "enemy-count" else {})}
        for face, cell in simple.rows.items()
    }}


def _table_view(name: str, as_printed: bool = False) -> Table:
    if name in {t.value for t in TroopType}:
        table = order_table(name)
        view = Table(title=f"{table.title} orders", header_style="bold")
        view.add_column("Roll", justify="right")
        for field in ORDER_FIELDS:
            view.add_column(field.title(), overflow="fold")
        for face, row in table.rows.items():
            texts = row.source_texts() if as_printed else row.texts()
            view.add_row(str(face), *texts.values())
        return view
    simple = simple_table(name)
    view = Table(title=simple.title, header_style="bold")
    view.add_column("Roll", justify="right")
    view.add_column("Result", overflow="fold")
    for face, cell in simple.rows.items():
        view.add_row(str(face), cell.text if as_printed else cell.shown)
    return view


commands = [orders_group, tables_group]
