"""``solo-ops squad import`` and ``solo-ops roster import``: bring your own kill team.

Both read a BattleScribe / New Recruit ``.ros`` / ``.rosz`` or a KTDash JSON file
(:mod:`solo_ops.io.importers`), print a summary table of what was read and every value that had
to be guessed, check the result with the project's own loaders and write it atomically. The
``squad`` and ``roster`` groups live here so more sub-commands can join them.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from solo_ops.campaign import parse_squad
from solo_ops.cli.common import SoloOpsGroup, emit_json
from solo_ops.cli.library import list_command
from solo_ops.core.documents import parse_yaml_text
from solo_ops.core.errors import InputError
from solo_ops.io.importers import LeadershipPolicy, Team, read_team
from solo_ops.io.importers.common import parse_keyword_leadership
from solo_ops.io.importers.output import (
    roster_document,
    squad_document,
    summary_json,
    summary_lines,
    table_spec,
    write_yaml,
    yaml_text,
)
from solo_ops.io.roster import DEFAULT_LEADERSHIP, parse_roster


def _common_options(f: Any) -> Any:
    options = [
        click.argument("file", type=click.Path(path_type=Path)),
        click.option("--out", "out", type=click.Path(path_type=Path), default=None,
                     help="The file to write (default: <file name>-squad.yaml / -roster.yaml)."),
        click.option("--name", default=None, help="Name the squad or roster (default: the "
                     "file's roster name)."),
        click.option("--leadership", type=click.IntRange(1, 12), default=DEFAULT_LEADERSHIP,
                     show_default=True,
                     help="Leadership of Kill Team 2024/2021 operatives (their profiles have "
                     "none)."),
        click.option("--keyword-leadership", "keyword_leadership", multiple=True,
                     metavar="KEYWORD=N",
                     help="Leadership for operatives with a keyword (repeat; default "
                     "LEADER=8)."),
        click.option("--team", default=None,
                     help="The kill team to take from a killteamjson file holding several."),
        click.option("--force", is_flag=True, help="Replace the --out file if it exists."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON document."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _policy(leadership: int, keyword_leadership: tuple[str, ...]) -> LeadershipPolicy:
    return LeadershipPolicy(leadership, parse_keyword_leadership(keyword_leadership,
                                                                 "--keyword-leadership"))


@contextlib.contextmanager
def _named_in(file: Path, team: Team, document: dict[str, Any]) -> Iterator[None]:
    """A value the project's loader refuses (a Wounds of 999, a Move of 600") is reported
    against the file read and its operative, not the file about to be written."""
    try:
        yield
    except InputError as exc:
        field = exc.field or ""
        match = re.match(r"models\[(\d+)\]\.profile\.?(.*)$|profiles\.([^.]+)\.?(.*)$",
                         field)
        if not match:
            raise
        if match.group(1) is not None:
            operative = team.operatives[int(match.group(1))].name
            rest = match.group(2)
        else:
            name = document["profiles"][match.group(3)]["name"]
            operative = next((op.name for op in team.operatives if op.type_name == name), name)
            rest = match.group(4)
        where = f'operative "{operative}"' + (f": {rest}" if rest else "")
        raise InputError(exc.message, source=str(file), field=where) from None


def _default_out(file: Path, kind: str) -> Path:
    return Path(f"{file.stem}-{kind}.yaml")


@click.group("squad", cls=SoloOpsGroup)
def squad_group() -> None:
    """Your kill team as a squad file (for new, play and campaigns)."""


@squad_group.command("import")
@click.option("--player", default="Player", show_default=True,
              help="The player the squad belongs to.")
@_common_options
def squad_import(file: Path, player: str, out: Path | None, name: str | None, leadership: int,
                 keyword_leadership: tuple[str, ...], team: str | None, force: bool,
                 as_json: bool) -> None:
    """Read a BattleScribe / New Recruit .ros/.rosz or KTDash JSON file into a squad."""
    policy = _policy(leadership, keyword_leadership)
    imported = read_team(file, policy, team)
    out = out or _default_out(file, "squad")
    document = squad_document(imported, player, name)
    text = yaml_text(document, [f"Squad imported from {file.name} by `solo-ops squad import`.",
                                f"Use it with:  solo-ops new --squad {out}"])
    with _named_in(file, imported, document):  # the campaign loader must take it
        parse_squad(parse_yaml_text(text, str(out)), str(out))
    write_yaml(out, text, force=force)
    if as_json:
        emit_json({**summary_json(imported), "out": str(out),
                   "models": [m["id"] for m in document["models"]]})
        return
    for line in summary_lines(imported):
        click.echo(line)
    click.echo(f"Squad \"{document['name']}\" for {document['player']} written to {out} "
               f"({len(document['models'])} models). Play it with:  solo-ops new --squad {out}")


@click.group("roster", cls=SoloOpsGroup)
def roster_group() -> None:
    """Enemy rosters: the models the fog of war reveals, and their d6 table."""


@roster_group.command("import")
@click.option("--table", "table", default=None, metavar="SPEC",
              help='The d6 table, e.g. "1-3:cultist,4:gunner,5-6:leader" (default: from the '
              "roster's own counts).")
@_common_options
def roster_import(file: Path, table: str | None, out: Path | None, name: str | None,
                  leadership: int, keyword_leadership: tuple[str, ...], team: str | None,
                  force: bool, as_json: bool) -> None:
    """Read a BattleScribe / New Recruit .ros/.rosz or KTDash JSON file into an enemy roster."""
    policy = _policy(leadership, keyword_leadership)
    imported = read_team(file, policy, team)
    out = out or _default_out(file, "roster")
    document, counts = roster_document(imported, table, name)
    spec = table_spec(document["table"])
    text = yaml_text(document, [f"Roster imported from {file.name} by `solo-ops roster import`.",
                                f'd6 table: {spec}  (change it here or with --table "{spec}")',
                                f"Use it with:  solo-ops new --roster {out}"])
    with _named_in(file, imported, document):  # the roster loader must take it
        parse_roster(parse_yaml_text(text, str(out)), str(out))
    write_yaml(out, text, force=force)
    if as_json:
        emit_json({**summary_json(imported), "out": str(out), "counts": counts,
                   "table": {str(k): v for k, v in document["table"].items()}})
        return
    for line in summary_lines(imported):
        click.echo(line)
    click.echo("Profiles: " + ", ".join(f"{k} ×{n}" for k, n in counts.items()))
    source = "--table" if table is not None else "from the roster's counts"
    click.echo(f"d6 table ({source}): {spec}")
    if table is None:
        click.echo(f'  change it with --table "{spec}" (or edit the file)')
    click.echo(f"Roster \"{document['name']}\" written to {out}. Play against it with:  "
               f"solo-ops new --roster {out}")


squad_group.add_command(list_command("squad"))
roster_group.add_command(list_command("roster"))

commands = [squad_group, roster_group]
