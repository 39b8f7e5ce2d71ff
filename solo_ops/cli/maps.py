"""``solo-ops map SAVE --out FILE.svg|.png``: the player's view of a game, as a picture.

Drawn from :func:`solo_ops.view.player.player_view` only: the board, the players' models, revealed
enemies with their latest planned moves and targets, and unresolved counters as bare "?"
markers — never a hidden fact (unless the debug ``--reveal-hidden`` flag is given).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from solo_ops.cli.common import emit_json
from solo_ops.game import markers
from solo_ops.game.definition import Game
from solo_ops.game.state import State
from solo_ops.io import pictures
from solo_ops.io.opening import load_save
from solo_ops.view import render
from solo_ops.view.player import last_plans, player_view


def view_scene(game: Game, state: State, *, reveal: bool = False,
               title: str | None = None) -> Any:
    """The scene of the player's view (see the module docstring)."""
    terrain = game.terrain(state)
    view = player_view(game, state, reveal=reveal)
    scene = render.board_scene(markers.board_now(game, state, terrain.board), title=title or
                               f"{game.scenario.name} — turn {view['turn']}")
    players = list(view["squads"])
    for index, (_player, ops) in enumerate(view["squads"].items()):
        side = "player" if index == 0 else f"player{index + 1}"
        for o in ops:
            if o["at"] is None or o.get("carried_by"):
                continue  # (a friend carried is drawn as its carrier's "⇐" label)
            radius = state.operatives[o["id"]].radius
            label = o["id"] + (" ⇐" + o["carrying"] if o.get("carrying") else "")
            label += " ⚑" + o["marker"] if o.get("marker") else ""  # a carried marker
            label += " (down)" if o["down"] else ""  # lying there: its base takes room
            render.add_disc(scene, tuple(o["at"]), radius, side=side, label=label,
                            downed=o["down"])
    for o in view["enemies"]:
        if o["at"] is None or o["down"]:
            continue
        radius = state.operatives[o["id"]].radius
        render.add_disc(scene, tuple(o["at"]), radius, side="enemy", label=o["id"])
    for plan in last_plans(state).values():
        for move in plan.get("moves", []):
            if len(move.get("route") or []) >= 2:
                render.add_path(scene, [tuple(p) for p in move["route"]], kind="move")
        for shot in plan.get("shoot", []):
            a, b = state.operatives.get(shot["model"]), state.operatives.get(shot["target"])
            if a and b and a.at and b.at and a.on_table and b.on_table:
                render.add_path(scene, [a.at, b.at], kind="shot")
        for charge in plan.get("charge", []):
            a, b = state.operatives.get(charge["model"]), state.operatives.get(charge["target"])
            if a and b and a.at and b.at and a.on_table and b.on_table:
                render.add_path(scene, [a.at, b.at], kind="charge")
    for c in view["counters"]:
        label = c["id"] if not reveal else f"{c['id']} ({c['hidden_order']})"
        render.add_counter(scene, tuple(c["at"]), label=label)
    entries = [("player", f"{p}'s squad") for p in players[:1]]
    entries += [(f"player{i + 2}", f"{p}'s squad") for i, p in enumerate(players[1:])]
    entries += [("enemy", "revealed enemies"), ("counter", "hidden counter (unknown)")]
    if any(o["down"] and o["at"] is not None for ops in view["squads"].values() for o in ops):
        entries.append(("downed", "downed operative (base stays)"))
    render.add_legend(scene, entries)
    return scene


def save_picture(scene: Any, out: Path) -> Path:
    """Write ``scene`` to ``out`` (``.svg`` or ``.png``): drawn by
    :func:`solo_ops.view.render.render_bytes`, saved by :func:`solo_ops.io.pictures.save_picture`
    through the one atomic writer. A bad suffix or a missing folder is an :class:`InputError`,
    a full disk or a read-only folder a :class:`SaveError`; an old picture there stays intact."""
    return pictures.save_picture(out, lambda suffix: render.render_bytes(scene, suffix))


def draw_view(game: Game, state: State, out: Path, *, reveal: bool = False) -> None:
    """Draw the player's view of the game to ``out`` (see :func:`save_picture`)."""
    save_picture(view_scene(game, state, reveal=reveal), out)


@click.command("map")
@click.argument("save", type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(path_type=Path),
              help="The picture to write: FILE.svg or FILE.png.")
@click.option("--reveal-hidden", is_flag=True,
              help="DEBUG: show hidden counters' orders on the map. Spoils the game.")
@click.option("--json", "as_json", is_flag=True, help="Print what was drawn as JSON.")
def map_command(save: Path, out: Path, reveal_hidden: bool, as_json: bool) -> None:
    """Draw the player's view of a saved game to a picture."""
    game, state = load_save(save)
    draw_view(game, state, out, reveal=reveal_hidden)
    view = player_view(game, state, reveal=reveal_hidden)
    if as_json:
        emit_json({"save": str(save), "out": str(out), "turn": view["turn"],
                   "counters": view["counters"], "enemies": len(view["enemies"])})
    else:
        click.echo(f"Drew {save} (turn {view['turn']}) to {out}.")


commands = [map_command]
