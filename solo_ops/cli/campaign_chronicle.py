"""``solo-ops campaign chronicle NAME``: the campaign's story as a page to read, share or print.

The story is :mod:`solo_ops.campaign.chronicle`'s; this command reads the campaign save and,
for each mission, the picture of its end (``<saves>/<name>-missions/mission-N.png``) and, for a
mission recorded before its history kept the briefing, the briefing from its scenario file, then
writes one HTML file (pictures embedded) or a Markdown file with the pictures beside it. The
campaign page (``campaign serve``) shows the same HTML (:func:`chronicle_html`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from solo_ops.campaign import Campaign
from solo_ops.campaign.chronicle import Extras, html, markdown, story
from solo_ops.cli.campaign_files import campaign_path, load_campaign, saves_option
from solo_ops.cli.common import console, emit_json, json_option
from solo_ops.core.errors import InputError
from solo_ops.io.opening import mission_paths
from solo_ops.io.reading import read_bytes
from solo_ops.io.writing import write_atomic, write_text_atomic

SUFFIXES = (".html", ".htm", ".md")


def mission_extras(path: Path, campaign: Campaign) -> dict[int, Extras]:
    """Each recorded mission's picture of its end and (for an older record) its briefing,
    read from the mission's files where they are; a file missing or unreadable is left out."""
    out: dict[int, Extras] = {}
    for entry in campaign.history:
        number = entry.get("mission") if isinstance(entry, dict) else None
        if not isinstance(number, int) or entry.get("event") or number in out:
            continue
        files = mission_paths(path, number)
        picture = None
        if files["map"].is_file():
            try:
                picture = read_bytes(files["map"], "picture")
            except InputError:
                picture = None
        briefing: tuple[str, ...] = ()
        if not entry.get("briefing") and files["scenario"].is_file():
            briefing = _briefing(files["scenario"])
        out[number] = Extras(briefing=briefing, picture=picture)
    return out


def _briefing(scenario_file: Path) -> tuple[str, ...]:
    """The briefing of a mission's scenario file (nothing if it no longer reads)."""
    from solo_ops.io.scenario import load_scenario

    try:
        scenario = load_scenario(scenario_file)
    except InputError:
        return ()
    return tuple(scenario.mission.briefing(scenario.edition)[1:])


def chronicle_html(path: Path, campaign: Campaign) -> str:
    """The chronicle of ``campaign`` (saved at ``path``) as one HTML page."""
    return html(story(campaign, mission_extras(path, campaign)))


def default_out(path: Path, name: str) -> Path:
    """Where the chronicle goes when ``--out`` is not given: beside the campaign save."""
    return path.parent / f"{name}-chronicle.html"


@click.command("chronicle")
@click.argument("name")
@click.option("--out", "out", type=click.Path(path_type=Path), default=None,
              help="The file to write: .html (one page, pictures inside) or .md (pictures "
                   "beside it); default <saves>/<name>-chronicle.html.")
@saves_option
@json_option
def campaign_chronicle(name: str, out: Path | None, saves: Path | None, as_json: bool) -> None:
    """Write campaign NAME's chronicle: mission by mission, the briefing, the map of the end,
    who fought, fell and was carried out, the survival rolls, and each model's record."""
    path = campaign_path(name, saves)
    campaign = load_campaign(path, name)
    target = out or default_out(path, name)
    suffix = target.suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(f"a chronicle is written as .html or .md, not {suffix or 'no suffix'}",
                         source="--out")
    if not (target.parent if str(target.parent) else Path(".")).is_dir():
        raise InputError(f"the folder {str(target.parent)!r} does not exist", source="--out")
    extras = mission_extras(path, campaign)
    told = story(campaign, extras)
    written: list[Path] = []
    if suffix == ".md":
        names: dict[int, str] = {}
        for number, extra in extras.items():
            if extra.picture:
                picture = target.with_name(f"{target.stem}-mission-{number}.png")
                write_atomic(picture, extra.picture)
                names[number] = picture.name
                written.append(picture)
        write_text_atomic(target, markdown(told, names))
    else:
        write_text_atomic(target, html(told))
    _report(as_json, name, target, told, written)


def _report(as_json: bool, name: str, target: Path, told: Any, pictures: list[Path]) -> None:
    if as_json:
        emit_json({"campaign": name, "chronicle": str(target),
                   "missions": len(told.missions), "pictures": [str(p) for p in pictures]})
        return
    out = console()
    out.print(f"The chronicle of {name}: {len(told.missions)} mission(s), written to {target}"
              + (f" (and {len(pictures)} picture(s) beside it)" if pictures else "") + ".",
              markup=False)
