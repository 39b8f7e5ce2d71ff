"""``solo-ops geom los | distance | cover``: ask the geometry engine about two points on a board.

Players use these to check the digital board against their table ("can my sniper see that
cultist?", "how far is it around the bulkhead?"). Points are model centres; both models are
bases of ``--base-mm`` (32 mm by default, 0 for points). A point off the board or inside a wall,
closed door or pitfall is refused with one line naming the option and the feature.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click

from solo_ops.cli.board import load_board
from solo_ops.cli.common import emit_json, json_option
from solo_ops.core.errors import InputError
from solo_ops.core.fields import parse_point_text
from solo_ops.core.limits import LIMITS
from solo_ops.core.model import MM_PER_INCH
from solo_ops.geometry.board import Board
from solo_ops.geometry.shapes import terrain_at, terrain_words
from solo_ops.geometry.terrain import Terrain
from solo_ops.rules import killzones


def _radius(base_mm: float) -> float:
    """The base radius in inches; ``--base-mm`` must be a finite number within the shared
    limit (NaN would answer every question with nonsense)."""
    allowed = LIMITS["base_mm"]
    if not math.isfinite(base_mm) or not allowed.allows(base_mm):
        raise InputError(f"must be a number from {allowed.low:g} to {allowed.high:g}, got "
                         f"{base_mm:g}", source="--base-mm")
    return base_mm / 2.0 / MM_PER_INCH


def check_point(board: Board, text: str, option: str) -> tuple[float, float]:
    """Parse ``X,Y`` and refuse a point off the board or inside terrain no model can stand in."""
    x, y = parse_point_text(text, option)
    if not board.on_board(x, y):
        raise InputError(f"point {x:g},{y:g} is off the {board.width:g} x {board.depth:g} "
                         "board", source=option)
    solid = terrain_at(board.features, x, y)
    if solid is not None:
        raise InputError(f"point {x:g},{y:g} is inside {terrain_words(solid)}", source=option)
    return (x, y)


def _load(board_path: Path, edition: str = "kt2024") -> tuple[Board, Terrain]:
    """The board as its killzone makes it in ``edition`` (a Volkus door is Accessible and
    Heavy terrain in Kill Team 2024: :func:`solo_ops.rules.killzones.board_in_play`)."""
    board = killzones.board_in_play(load_board(board_path), edition)
    return board, Terrain(board)


def _r(p: Any) -> list[float]:
    return [round(float(p[0]), 4), round(float(p[1]), 4)]


@click.group("geom")
def geom_group() -> None:
    """Sight, distance around walls and cover between two points of a board."""


_board_arg = click.argument("board", type=click.Path(path_type=Path))
_edition_opt = click.option("--edition", type=click.Choice(["kt2024", "kt2018"]),
                            default="kt2024", show_default=True,
                            help="The edition whose killzone rules read the board (Volkus "
                                 "doors are Accessible and Heavy terrain in Kill Team 2024).")
_base_opt = click.option("--base-mm", type=float, default=32.0, show_default=True,
                         help="Base diameter of both models in mm (0 treats them as points).")


@geom_group.command("los")
@_board_arg
@click.option("--from", "from_", required=True, help="Observer's centre X,Y (inches).")
@click.option("--to", "to", required=True, help="Target's centre X,Y (inches).")
@_base_opt
@_edition_opt
@json_option
def geom_los(board: Path, from_: str, to: str, base_mm: float, edition: str,
             as_json: bool) -> None:
    """Can a model at --from see a model at --to?"""
    b, terrain = _load(board, edition)
    r = _radius(base_mm)
    a, t = check_point(b, from_, "--from"), check_point(b, to, "--to")
    visible = bool(terrain.sight.visible(a, t, r, r))
    if as_json:
        emit_json({"visible": visible, "from": list(a), "to": list(t), "base_mm": base_mm})
        return
    click.echo(f"{'Visible' if visible else 'Not visible'}: from {a[0]:g},{a[1]:g} to "
               f"{t[0]:g},{t[1]:g} ({base_mm:g} mm bases) on {b.name}.")


@geom_group.command("distance")
@_board_arg
@click.option("--from", "from_", required=True, help="First model's centre X,Y (inches).")
@click.option("--to", "to", required=True, help="Second model's centre X,Y (inches).")
@_base_opt
@_edition_opt
@json_option
def geom_distance(board: Path, from_: str, to: str, base_mm: float, edition: str,
                  as_json: bool) -> None:
    """Distance between the two bases' edges, around walls and closed doors."""
    b, terrain = _load(board, edition)
    r = _radius(base_mm)
    a, t = check_point(b, from_, "--from"), check_point(b, to, "--to")
    route = terrain.routes.distance(a, t, r, r)
    dist = None if route.distance is None else round(float(route.distance), 6)
    points = [_r(p) for p in route.points] if route.distance is not None else []
    if as_json:
        emit_json({"distance": dist, "route": points, "from": list(a), "to": list(t),
                   "base_mm": base_mm})
        return
    if dist is None:
        click.echo(f"No route: walls and closed doors close {t[0]:g},{t[1]:g} off from "
                   f"{a[0]:g},{a[1]:g} on {b.name}.")
        return
    bends = len(points) - 2
    via = "" if bends <= 0 else " via " + " → ".join(f"{p[0]:g},{p[1]:g}" for p in points[1:-1])
    click.echo(f'{dist:.2f}" between the bases\' edges ({base_mm:g} mm bases){via}.')


@geom_group.command("cover")
@_board_arg
@click.option("--attacker", required=True, help="Attacker's centre X,Y (inches).")
@click.option("--target", required=True, help="Target's centre X,Y (inches).")
@_base_opt
@click.option("--edition", type=click.Choice(["kt2024", "kt2018"]), default=None,
              help="Whose cover and obscured rules: Kill Team 2024 (in cover: terrain within "
                   "1\" across the cover lines; obscured: Heavy terrain more than 1\" from "
                   "both) or Kill Team 2018 (obscured: even partly hidden from the best point "
                   "of the attacker's base). Default: the board's killzone's edition (the "
                   "Pariah Nexus boards are 2018), else kt2024. The board is read as that "
                   "edition's killzone rules make it.")
@json_option
def geom_cover(board: Path, attacker: str, target: str, base_mm: float, edition: str | None,
               as_json: bool) -> None:
    """Is the target visible, in cover, obscured (by the edition's definitions)?"""
    edition = edition or board_edition(load_board(board))
    b, terrain = _load(board, edition)
    r = _radius(base_mm)
    a = check_point(b, attacker, "--attacker")
    t = check_point(b, target, "--target")
    res = terrain.sight.cover(a, t, r, r, edition=edition)
    data = {"visible": bool(res.visible), "in_cover": bool(res.in_cover),
            "obscured": bool(res.obscured)}
    if as_json:
        emit_json({**data, "attacker": list(a), "target": list(t), "base_mm": base_mm})
        return
    if not data["visible"]:
        click.echo("Not visible: no line from the attacker's base reaches the target's base.")
        return
    if edition == "kt2018":
        click.echo("Visible, obscured (Kill Team 2018: partly hidden even from the best point "
                   "of the attacker's base): -1 to hit." if data["obscured"] else
                   "Visible, not obscured (Kill Team 2018): some point of the attacker's base "
                   "sees all of the target's base.")
        return
    words = [w for w, on in (("in cover", data["in_cover"]), ("obscured", data["obscured"]))
             if on]
    click.echo("Visible, " + (" and ".join(words) if words else "neither in cover nor "
                              "obscured: a clear shot") + ".")


def board_edition(board: Board) -> str:
    """The edition a board is played in by default: Kill Team 2018 for the Pariah Nexus
    killzones (Crypt of Cynosure, Translocum Chamber), else Kill Team 2024."""
    from solo_ops.game.missions import KILLZONE_TABLES

    return "kt2018" if board.killzone in KILLZONE_TABLES else "kt2024"


commands = [geom_group]
