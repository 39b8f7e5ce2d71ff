"""``solo-ops list`` and the ``list`` sub-commands of ``board``, ``roster`` and ``squad``:
what ships with solo-ops, by the names every command accepts in place of a file path."""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

import click
from rich.table import Table

from solo_ops.cli.common import console, emit_json, json_option
from solo_ops.core.errors import InputError
from solo_ops.io import library
from solo_ops.io.yamlio import read_document


def _details(kind: str, doc: Any) -> tuple[str, str]:
    """A shipped file's title and a few words about it."""
    if not isinstance(doc, dict):
        return "?", ""
    title = str(doc.get("name", ""))
    if kind == "board":
        extra = f"{doc.get('width', '?')}\" × {doc.get('depth', '?')}\""
        if doc.get("killzone"):
            extra += f", {doc['killzone']}"
        return title, extra
    if kind == "roster":
        profiles = doc.get("profiles") or {}
        return title, ", ".join(profiles) if isinstance(profiles, dict) else ""
    if kind == "squad":
        models = doc.get("models") or []
        return title, f"player {doc.get('player', '?')}, {len(models)} models"
    board = doc.get("board")
    where = PurePath(board).stem if isinstance(board, str) else "inline"
    return title, f"{doc.get('edition', '?')}, board {where}"


def entries(kinds: list[str]) -> list[dict[str, str]]:
    """The shipped files of ``kinds``: kind, name (what to type), title and details."""
    rows = []
    for kind in kinds:
        for item in library.shipped(kind):
            title, extra = _details(kind, read_document(item.path))
            rows.append({"kind": kind, "name": item.name, "title": title, "details": extra})
    return rows


def show(kinds: list[str], as_json: bool) -> None:
    """Print the shipped files of ``kinds`` as a table (or one JSON document)."""
    rows = entries(kinds)
    if as_json:
        emit_json({"shipped": rows})
        return
    table = Table(title="Shipped with solo-ops (type the name where a file is asked for)")
    if len(kinds) > 1:
        table.add_column("kind")
    table.add_column("name", no_wrap=True, style="bold")
    # a word too long for a narrow terminal's column is folded, never cut: the details name
    # the board a scenario is played on, a name to type
    table.add_column("title", overflow="fold")
    table.add_column("details", overflow="fold")
    for row in rows:
        cells = [row["name"], row["title"], row["details"]]
        table.add_row(*([row["kind"], *cells] if len(kinds) > 1 else cells))
    console().print(table)


def list_command(kind: str) -> click.Command:
    """A ``list`` sub-command for the group of ``kind``."""

    @click.command("list")
    @json_option
    def _list(as_json: bool) -> None:
        show([kind], as_json)

    _list.help = f"List the shipped {kind}s, by the names commands accept."
    return _list


@click.command("list")
@click.argument("kind", required=False, metavar="[scenarios|boards|rosters|squads]",
                callback=lambda _ctx, _param, value: _kind(value))
@json_option
def list_all(kind: str | None, as_json: bool) -> None:
    """List the shipped scenarios, boards, rosters and squads (or one KIND of them)."""
    kinds = [kind] if kind else list(library.KINDS)
    if not all(k in library.KINDS for k in kinds):
        raise InputError(f"unknown kind {kind!r}", source="KIND")
    show(kinds, as_json)


def _kind(value: str | None) -> str | None:
    """The library kind a ``list`` argument names, plural or singular (``boards``, ``board``)."""
    if value is None:
        return None
    word = value.strip().lower()
    kind = word[:-1] if word.endswith("s") else word
    if kind not in library.KINDS:
        raise click.BadParameter(f"{value!r} is not one of 'scenarios', 'boards', 'rosters', "
                                 "'squads'")
    return kind


commands = [list_all]
