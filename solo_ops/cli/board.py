"""``solo-ops board``: check a board file and draw it, to compare with the table in front of you.

``board check BOARD`` validates a board file (``shared/INTERFACES.md``) and summarises it;
``board show BOARD --out FILE.svg|.png`` also draws it (terrain by trait, the six fog-of-war
sectors, drop zones, objectives, firing points and markers). Both take ``--json``. A broken file
is one stderr line naming the file and the field, exit status 2.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from solo_ops.cli.common import SoloOpsGroup, console, emit_json, json_option
from solo_ops.cli.library import list_command
from solo_ops.core.errors import InputError
from solo_ops.geometry.board import Board, parse_board
from solo_ops.geometry.shapes import check_points
from solo_ops.io import library
from solo_ops.io.yamlio import read_document
from solo_ops.view import render


def load_board(path: Path) -> Board:
    """Read and check a board file (a path, or a shipped board's name); errors name the file
    and the field."""
    path = library.resolve("board", path)
    data = read_document(path)
    if not isinstance(data, dict):
        raise InputError("expected a board mapping (name, width, depth, features...)",
                         source=str(path))
    board = parse_board(data, str(path))
    check_points(board, str(path))
    return board


def trait_counts(board: Board) -> dict[str, int]:
    """How many features carry each trait (sorted by trait name)."""
    counts: Counter[str] = Counter(t for f in board.features for t in f.traits)
    return dict(sorted(counts.items()))


def portal_counts(board: Board) -> dict[str, dict[str, int]]:
    """Doors and hatches, open and closed: ``{"door": {"open": n, "closed": m}, ...}``."""
    out: dict[str, dict[str, int]] = {}
    for f in board.portals():
        kind = "hatch" if f.has("hatch") else "door"
        entry = out.setdefault(kind, {"open": 0, "closed": 0})
        entry["open" if f.open else "closed"] += 1
    return out


def board_summary(board: Board, path: Path) -> dict[str, Any]:
    """The board in brief, as plain data (the ``--json`` document without ``out``)."""
    return {
        "board": str(path),
        "name": board.name,
        "killzone": board.killzone,
        "width": board.width,
        "depth": board.depth,
        "features": trait_counts(board),
        "feature_count": len(board.features),
        "portals": portal_counts(board),
        "zones": sorted(board.zones),
        "objectives": [{"id": o.id, "at": list(o.at), "sector": board.sector_of(*o.at),
                        **({"command_node": True} if o.command_node else {})}
                       for o in board.objectives],
        "firing_points": [fp.id for fp in board.firing_points],
        "markers": dict(sorted(Counter(m.kind for m in board.markers).items())),
        "sectors": [{"sector": n, "box": [round(v, 4) for v in board.sector_box(n).bounds]}
                    for n in range(1, 7)],
    }


def _print_summary(summary: dict[str, Any]) -> None:
    out = console()
    kz = f" ({summary['killzone']})" if summary["killzone"] else ""
    out.print(f"[bold]{escape(summary['name'])}[/bold]{escape(kz)}: {summary['width']:g}\" x "
              f"{summary['depth']:g}\", {summary['feature_count']} features")
    if summary["features"]:
        out.print("  by trait: " + ", ".join(f"{t} {n}" for t, n in summary["features"].items()))
    for kind, states in summary["portals"].items():
        out.print(f"  {kind}es: " if kind == "hatch" else f"  {kind}s: ", end="")
        out.print(f"{states['open']} open, {states['closed']} closed")
    out.print("  drop zones: " + (", ".join(summary["zones"]) or "none"))
    objs = summary["objectives"]
    out.print(f"  objectives: {len(objs) or 'none'}")
    for o in objs:
        node = ", command node" if o.get("command_node") else ""
        out.print(f"    {escape(o['id'])} at {o['at'][0]:g},{o['at'][1]:g} "
                  f"(sector {o['sector']}{node})")
    if summary["firing_points"]:
        out.print(f"  firing points: {len(summary['firing_points'])}")
    if summary["markers"]:
        out.print("  markers: " + ", ".join(f"{k} {n}" for k, n in summary["markers"].items()))


@click.group("board", cls=SoloOpsGroup)
def board() -> None:
    """Check and draw board files (scenarios/boards/*.yaml)."""


@board.command("check")
@click.argument("board_path", metavar="BOARD", type=click.Path(path_type=Path))
@json_option
def board_check(board_path: Path, as_json: bool) -> None:
    """Validate BOARD and summarise it: features by trait, doors, zones, objectives."""
    loaded = load_board(board_path)
    summary = board_summary(loaded, board_path)
    if as_json:
        emit_json({"valid": True, **summary})
        return
    click.echo(f"{board_path}: valid board.")
    _print_summary(summary)


@board.command("show")
@click.argument("board_path", metavar="BOARD", type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(path_type=Path),
              help="The picture to write: FILE.svg or FILE.png.")
@json_option
def board_show(board_path: Path, out: Path, as_json: bool) -> None:
    """Draw BOARD to a picture (terrain by trait, sectors, drop zones, objectives)."""
    if out.suffix.lower() not in (".svg", ".png"):
        raise InputError(f"cannot draw to a {out.suffix or 'suffix-less'} file: use .svg or "
                         ".png", source="--out")
    from solo_ops.cli.maps import save_picture

    loaded = load_board(board_path)
    save_picture(render.board_scene(loaded), out)
    summary = board_summary(loaded, board_path)
    if as_json:
        emit_json({"board": summary["board"], "out": str(out), "features": summary["features"],
                   "sectors": summary["sectors"], "name": summary["name"],
                   "killzone": summary["killzone"], "portals": summary["portals"],
                   "objectives": summary["objectives"]})
        return
    click.echo(f"Drew {board_path} to {out}: the board, its six sectors, "
               f"{len(summary['zones'])} drop zones, {len(summary['objectives'])} objectives"
               + (f", {len(summary['firing_points'])} firing points"
                  if summary["firing_points"] else "")
               + (f", {sum(summary['markers'].values())} markers" if summary["markers"] else "")
               + ".")
    _print_summary(summary)


board.add_command(list_command("board"))

commands = [board]
