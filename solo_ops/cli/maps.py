"""``solo-ops map SAVE --out FILE.svg|.png``: the player's view of a game, as a picture.

``--sheet`` draws the printable set-up sheet instead (one A4 page, PNG:
:func:`solo_ops.view.setup.sheet_png`) — the table laid out with a tape measure, for a group
without phones: the enemy to put out, every hidden counter, drop zone, door and objective
measured from two table edges, the roster's table of what a counter may become.

Drawn from :func:`solo_ops.view.player.player_view` only — the table view's picture
(:mod:`solo_ops.view.board_view`): the board, the players' models, revealed enemies, the
activation being played (or the last one) numbered from where each action happened, and
unresolved counters as bare "?" markers — never a hidden fact (unless the debug
``--reveal-hidden`` flag is given).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from solo_ops.cli.common import emit_json
from solo_ops.core.errors import InputError
from solo_ops.game.definition import Game
from solo_ops.game.state import State
from solo_ops.io import pictures
from solo_ops.io.opening import load_save
from solo_ops.rules.editions import turn_name
from solo_ops.view import board_view, drawing
from solo_ops.view.player import player_record, player_view


def view_scene(game: Game, state: State, *, reveal: bool = False,
               title: str | None = None, title_tail: str = "") -> Any:
    """The scene of the player's view (:func:`solo_ops.view.board_view.board_scene`, the
    table view's own picture); ``title`` and ``title_tail`` (the part never cut) replace its
    title, the game's turn and score."""
    view = player_view(game, state, reveal=reveal)
    records = [player_record(r, reveal=reveal) for r in state.log]
    scene = board_view.board_scene(game, state, view, records, reveal=reveal)
    if title is not None:
        scene.title, scene.title_tail = title, title_tail
    return scene


def save_picture(scene: Any, out: Path) -> Path:
    """Write ``scene`` to ``out`` (``.svg`` or ``.png``): drawn by
    :func:`solo_ops.view.drawing.render_bytes`, saved by :func:`solo_ops.io.pictures.save_picture`
    through the one atomic writer. A bad suffix or a missing folder is an :class:`InputError`,
    a full disk or a read-only folder a :class:`SaveError`; an old picture there stays intact."""
    return pictures.save_picture(out, lambda suffix: drawing.render_bytes(scene, suffix))


def draw_view(game: Game, state: State, out: Path, *, reveal: bool = False) -> None:
    """Draw the player's view of the game to ``out`` (see :func:`save_picture`)."""
    save_picture(view_scene(game, state, reveal=reveal), out)


@click.command("map")
@click.argument("save", type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(path_type=Path),
              help="The picture to write: FILE.svg or FILE.png.")
@click.option("--reveal-hidden", is_flag=True,
              help="DEBUG: show hidden counters' orders on the map. Spoils the game.")
@click.option("--sheet", is_flag=True,
              help="Draw the printable set-up sheet instead (one A4 page, FILE.png): the enemy "
                   "to put out, every counter and drop zone measured from two table edges.")
@click.option("--json", "as_json", is_flag=True, help="Print what was drawn as JSON.")
def map_command(save: Path, out: Path, reveal_hidden: bool, sheet: bool, as_json: bool) -> None:
    """Draw the player's view of a saved game to a picture (or its set-up sheet)."""
    if sheet and out.suffix.lower() != ".png":
        raise InputError("the set-up sheet is a PNG picture: name it FILE.png",
                         source=str(out))
    if sheet and reveal_hidden:
        raise InputError("the set-up sheet never shows a hidden fact: drop --reveal-hidden",
                         source="--sheet")
    game, state = load_save(save)
    if sheet:
        from solo_ops.view.setup import sheet_png

        pictures.save_picture(out, lambda _suffix: sheet_png(game, state,
                                                             player_view(game, state)))
    else:
        draw_view(game, state, out, reveal=reveal_hidden)
    view = player_view(game, state, reveal=reveal_hidden)
    if as_json:
        emit_json({"save": str(save), "out": str(out), "turn": view["turn"],
                   "counters": view["counters"], "enemies": len(view["enemies"])})
    else:
        click.echo(f"Drew {save} ({turn_name(view['edition'])} {view['turn']}) to {out}.")


commands = [map_command]
