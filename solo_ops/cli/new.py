"""``solo-ops new``: generate tonight's encounter, print the briefing, draw the set-up.

Writes a scenario file that ``solo-ops play`` accepts (``--seed`` reproduces it exactly),
and a picture of the set-up: the board, your deployed squads and the hidden counters as "?".
The scenario holds the game's seed (the set-up drawn is the one its game starts from), so it
decides what the hidden counters hold: its name and the briefing never tell it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import yaml

from solo_ops.cli.common import SEED, console, emit_json, resolve_seed
from solo_ops.core.dice import CURRENT, derived_seed, dice_for, short_id
from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.tables import simple_table
from solo_ops.game.engine import new_game
from solo_ops.game.generator import Candidate, Options, generate
from solo_ops.geometry.board import parse_board
from solo_ops.io import library, pictures
from solo_ops.io.opening import refuse_replacing
from solo_ops.io.roster import parse_roster
from solo_ops.io.scenario import check_squad, parse_scenario
from solo_ops.io.writing import write_text_atomic
from solo_ops.io.yamlio import read_document
from solo_ops.sim.sequential import DEFAULT_WIDTH
from solo_ops.view import measure

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.game.scenario import Scenario
    from solo_ops.game.state import State


RATE_MISSIONS = 96
"""``new --difficulty``: the most missions a level is rated (fewer once the answer is known)."""


def _shipped(kind: str) -> list[Candidate]:
    """The shipped files of ``kind``, referred to by name in the scenario written."""
    return [Candidate(s.name, s.name, read_document(s.path)) for s in library.shipped(kind)]


def _pick(value: str | None, kind: str, out_dir: Path) -> Candidate | None:
    """The board or roster the player named: a file (referred to by its path relative to the
    scenario written) or a shipped one (referred to by name)."""
    if value is None:
        return None
    path = library.resolve(kind, value, source=f"--{kind}")
    data = read_document(path)
    # checked before use, so a mistake in it names this file (not the scenario written)
    (parse_board if kind == "board" else parse_roster)(data, str(path))
    name = library.reference(path)
    if name is not None:
        return Candidate(name, name, data)
    return Candidate(path.stem, os.path.relpath(path.resolve(), out_dir), data)


def _scenario_path(out: Path | None, seed: int, force: bool) -> Path:
    """The scenario file to write (default ``encounter-<id>.yaml``, ``<id>`` six hex digits
    of a hash of the seed: :func:`~solo_ops.core.dice.short_id`), its folder made; an
    existing file is refused unless ``force`` (nothing is replaced by accident)."""
    given = out is not None
    out = out or Path(f"encounter-{short_id(seed, 'encounter')}.yaml")
    if out.suffix.lower() not in (".yaml", ".yml", ".json"):
        raise InputError("the scenario file must end in .yaml, .yml or .json", source="--out")
    refuse_replacing(out, "--out" if given else "new", force=force)
    out.parent.mkdir(parents=True, exist_ok=True)
    return out


def _check_mission_options(crit_op: str | None, tac_op: str | None,
                           pariah: str | None) -> None:
    """Refuse an unknown ``--crit-op``, ``--tac-op`` or ``--mission``, listing the known ones."""
    from solo_ops.game.missions import CRIT_OPS, TAC_OPS

    if crit_op is not None and crit_op not in CRIT_OPS:
        raise InputError(f"unknown crit op {excerpt(crit_op)} ({', '.join(CRIT_OPS)})",
                         source="--crit-op")
    if tac_op is not None and tac_op not in TAC_OPS:
        raise InputError(f"unknown tac op {excerpt(tac_op)} ({', '.join(TAC_OPS)})",
                         source="--tac-op")
    codes = [r.code for r in simple_table("pn-missions").rows.values()]
    if pariah is not None and pariah not in codes:
        raise InputError(f"unknown mission {excerpt(pariah)} ({', '.join(codes)})",
                         source="--mission")


def _squad_candidates(squads: tuple[str, ...]) -> list[Candidate]:
    """The ``--squad`` files, each checked first (a mistake in it names the squad file)."""
    squad_cands = []
    for s in squads:
        path = library.resolve("squad", s, source="--squad")
        data = read_document(path)
        check_squad(data, str(path))  # a mistake in it names the squad file
        squad_cands.append(Candidate(path.stem, "", data))
    return squad_cands


def _deploy(doc: dict[str, Any], out: Path, out_dir: Path,
            seed: int) -> tuple[Scenario, Game, State]:
    """Check the generated document is playable and deploy the squads: the positions go into
    ``doc``."""
    # Check it is playable and deploy the squads: the positions go into the file.
    inline = dict(doc)
    for key in ("board", "roster"):
        if isinstance(inline[key], str):
            inline[key] = read_document(library.resolve(key, inline[key], base=out_dir,
                                                        source=str(out), field=key))
    scenario = parse_scenario(inline, str(out))
    game, state = new_game(scenario, seed)
    for squad, parsed in zip(doc["squads"], scenario.squads, strict=True):
        for model, read in zip(squad["models"], parsed.models, strict=True):
            at = state.operatives[read.id].at  # the id as read (a number written is text)
            assert at is not None  # new_game deploys every squad model
            model["at"] = [round(at[0], 2), round(at[1], 2)]
    return scenario, game, state


def _scenario_text(doc: dict[str, Any], out: Path, seed: int) -> str:
    """The scenario file's text: YAML under a header saying how to play it, or plain JSON."""
    if out.suffix.lower() == ".json":  # JSON has no comments: the same document, no header
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    return ("# Generated by `solo-ops new`; its seed decides what the hidden counters hold.\n"
            f"# Play it with:\n#   solo-ops play {out}\n"
            + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))


def _print_briefing(doc: dict[str, Any], notes: list[str], scenario: Scenario,
                    counters: list[dict[str, Any]], out: Path, picture: Path,
                    seed: int) -> None:
    """The briefing, where to set up the squads and the hidden counters, and what to type
    (never the seed: it decides what the counters hold)."""
    con = console()
    con.print(f"[bold]{doc['name']}[/bold]  ({doc['edition']})")
    for line in notes:
        con.print(f"• {line}", markup=False)
    for line in scenario.mission.briefing(scenario.edition)[1:]:
        con.print(f"  {line}", markup=False)
    con.print("Set up your squad:", markup=False)
    units = scenario.settings.units  # one point format: view.measure, as play and the maps
    for squad in doc["squads"]:
        for model in squad["models"]:
            con.print(f"  {squad['player']}: {model['id']} at "
                      f"{measure.point(model['at'], units)}", markup=False)
    con.print(f"Place {len(counters)} hidden counters (what they hold stays secret):",
              markup=False)
    for c in counters:
        con.print(f"  {c['id']} at {measure.point(c['at'], units)}", markup=False)
    con.print(f"Scenario written to {out}; set-up picture {picture}.", markup=False)
    con.print(f"Start with:  solo-ops play {out}", markup=False)


@click.command("new")
@click.option("--board", default=None, help="A shipped board name or a board file.")
@click.option("--roster", default=None, help="A shipped roster name or a roster file.")
@click.option("--squad", "squads", multiple=True,
              help="A squad file (repeat for co-op); default: a shipped squad.")
@click.option("--edition", type=click.Choice(["kt2024", "kt2018"]), default=None)
@click.option("--engagement", type=click.IntRange(1, 6), default=None,
              help="Engagement level 1-6 (default: D3+1).")
@click.option("--difficulty", type=click.Choice(["easy", "normal", "hard", "brutal"]),
              default=None,
              help="Pick the engagement level by simulated missions: the level whose rated "
                   "win rate is nearest 80/60/40/20%.")
@click.option("--rate-missions", type=click.IntRange(4, 1000), default=RATE_MISSIONS,
              show_default=True,
              help="With --difficulty: the most simulated missions per level rated (fewer "
                   "once the answer is known).")
@click.option("--rate-width", type=click.FloatRange(0, 50), default=100 * DEFAULT_WIDTH,
              show_default=True,
              help="With --difficulty: the answer is known once the nearest level is certain "
                   "or every interval compared is within ± this many points (0: rate every "
                   "mission).")
@click.option("--crit-op", default=None, help="Kill Team 2024 crit op.")
@click.option("--tac-op", default=None, help="Kill Team 2024 tac op.")
@click.option("--mission", "pariah", default=None,
              help="Kill Team 2018: a Pariah Nexus mission (objective-ultima, purge, ...).")
@click.option("--name", default=None, help="The encounter's name.")
@click.option("--seed", type=SEED, default=None,
              help="Reproduce an encounter exactly (a seed you choose is for reproducing a "
                   "game, not for secrecy; by default a new secret one).")
@click.option("--out", "out", type=click.Path(path_type=Path), default=None,
              help="The scenario file to write (default encounter-<id>.yaml).")
@click.option("--picture", type=click.Path(path_type=Path), default=None,
              help="The set-up picture (.png or .svg; default next to the scenario).")
@click.option("--force", is_flag=True,
              help="Replace the scenario file (--out) if it exists.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def new_command(board: str | None, roster: str | None, squads: tuple[str, ...],
                edition: str | None, engagement: int | None, difficulty: str | None,
                rate_missions: int, rate_width: float, crit_op: str | None,
                tac_op: str | None, pariah: str | None, name: str | None, seed: int | None,
                out: Path | None, picture: Path | None, force: bool, as_json: bool) -> None:
    """Generate an encounter: board, enemy, engagement, mission, deployment and fog."""
    from solo_ops.cli.maps import save_picture, view_scene

    chosen = seed is not None
    seed = resolve_seed(seed)
    out = _scenario_path(out, seed, force)
    picture = picture or out.with_suffix(".png")
    refuse_replacing(picture, "--picture")  # before any work: never over a save or scenario
    pictures.check_picture_path(picture, folder_made_later=picture.parent == out.parent)
    out_dir = out.resolve().parent
    boards = _shipped("board")
    rosters = _shipped("roster")
    default_squads = _shipped("squad")[:1]
    _check_mission_options(crit_op, tac_op, pariah)
    squad_cands = _squad_candidates(squads)
    if difficulty is not None and engagement is not None:
        raise InputError("give --engagement or --difficulty, not both", source="--difficulty")
    rating: dict[str, object] = {}
    options = Options(edition=edition, board=_pick(board, "board", out_dir),
                      roster=_pick(roster, "roster", out_dir), squads=squad_cands,
                      engagement=engagement, crit_op=crit_op, tac_op=tac_op, pariah=pariah,
                      name=name, difficulty=difficulty,
                      rate=None if difficulty is None else
                      lambda d: rate_levels(d, out, out_dir, str(difficulty), rate_missions,
                                            seed, not as_json, rating, rate_width / 100))
    dice = dice_for(CURRENT, derived_seed(seed, "encounter"))  # the game's own dice apart
    doc, notes = generate(boards, rosters, default_squads, options, dice, seed)
    scenario, game, state = _deploy(doc, out, out_dir, seed)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(out, _scenario_text(doc, out, seed))
    save_picture(view_scene(game, state, title=str(doc["name"]), title_tail=" — set-up"),
                 picture)
    counters = [{"id": c.id, "at": [round(c.at[0], 2), round(c.at[1], 2)]}
                for c in state.counters.values() if c.active]
    if as_json:
        emit_json({"scenario": str(out), "picture": str(picture),
                   **({"seed": seed} if chosen else {}), "edition": doc["edition"],
                   "engagement": doc["engagement"],
                   "mission": doc["mission"], "briefing": notes, "counters": counters,
                   **({"rating": rating} if rating else {})})
        return
    _print_briefing(doc, notes, scenario, counters, out, picture, seed)


def rate_levels(doc: dict[str, object], out: Path, out_dir: Path, word: str, missions: int,
                seed: int, show: bool, into: dict[str, object],
                width: float = DEFAULT_WIDTH) -> tuple[int, str]:
    """``--difficulty``: rate the encounter's levels (:func:`solo_ops.sim.difficulty.
    choose_level`, a progress bar on a terminal) and return the level and the briefing line;
    ``into`` receives the rating for ``--json``. Ctrl-C stops the rating: the encounter is
    then made at the best level found so far, and says so."""
    import sys

    from solo_ops.cli.compile import prepare
    from solo_ops.cli.rate import progress_bar
    from solo_ops.sim import difficulty, rating

    inline = dict(doc)
    for key in ("board", "roster"):
        if isinstance(inline[key], str):
            inline[key] = read_document(library.resolve(key, str(inline[key]), base=out_dir,
                                                        source=str(out), field=key))
    scenario = parse_scenario(inline, str(out))
    with progress_bar(show and sys.stderr.isatty(), f"rating '{word}'") as report:
        found = difficulty.choose_level(scenario, word, missions=missions, seed=seed,
                                        jobs=rating.default_jobs(), width=width,
                                        progress=report, kernels=prepare())
    if found.interrupted:
        click.echo(f"Rating stopped by Ctrl-C after {found.missions} missions: the encounter "
                   f"is made at level {found.level}, the best so far.", err=True)
    into.update({"difficulty": word, "target": difficulty.TARGETS[word], "level": found.level,
                 "win_rate": found.summary["win_rate"],
                 "win_rate_ci95": found.summary["win_rate_ci95"],
                 "missions": found.summary["missions"],
                 "levels": {str(k): v["win_rate"] for k, v in found.rated.items()},
                 "interrupted": found.interrupted})
    return found.level, found.line()


commands = [new_command]
