"""The campaign's files, shared by ``campaign play`` (the terminal) and ``campaign serve`` (the
page): where a campaign and its missions are saved, reading and changing the campaign under its
lock, generating the next mission's scenario and recording a mission that ended.

Saves are ``campaign_saves/<name>.json`` under the current folder (or ``--saves DIR``), written
only through :mod:`solo_ops.io.persistence`: every change re-reads the save under its lock, so two
co-op screens never overwrite each other, and a killed command leaves the old or the new save,
never half of one. A mission's files live in ``<saves>/<name>-missions/``.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from solo_ops.campaign import (
    CAMPAIGN_KIND,
    MIGRATIONS,
    RECOVERING,
    SCHEMA_VERSION,
    Campaign,
    MissionReport,
)
from solo_ops.campaign.storage import SEAL_DEPTH, SEALED_SINCE
from solo_ops.cli.common import CAMPAIGN_SAVES
from solo_ops.core.dice import CURRENT, derived_seed, dice_for
from solo_ops.core.errors import InputError, SaveError, excerpt
from solo_ops.core.seal import SEAL_KEY
from solo_ops.io.opening import mission_paths
from solo_ops.io.persistence import load_json, restore_hint, save_json, update_json
from solo_ops.io.writing import write_text_atomic

if TYPE_CHECKING:
    from solo_ops.cli.campaign_threat import ProgressFn
    from solo_ops.game.definition import Game
    from solo_ops.game.state import State


DEFAULT_SAVES = CAMPAIGN_SAVES
_BAD_NAME_CHARS = set('/\\:*?"<>|')


def saves_option(f: Any) -> Any:
    return click.option("--saves", "saves", type=click.Path(path_type=Path), default=None,
                        help="The folder of campaign saves (default ./campaign_saves).")(f)


def rate_missions_option(f: Any) -> Any:
    return click.option("--rate-missions", "rate_missions", type=click.IntRange(16, 2000),
                        default=None,
                        help="The most simulated missions a proposal of the next mission's "
                             "threat plays, and its work in proportion (default 64: about "
                             "15-25 s of CPU on 2 cores, fewer missions where they cost more; "
                             "more missions are finer and slower).")(f)


def shown_name(name: str) -> str:
    """A campaign's name as a message shows it: as it is, or quoted when it holds what a
    terminal cannot print (bytes that are not UTF-8 in a file's name)."""
    return name if name.isprintable() and name.encode("utf-8", "replace").decode() == name \
        else excerpt(name)


def campaign_path(name: str, saves: Path | None) -> Path:
    """Where campaign ``name`` is saved; the name must make a plain file name."""
    clean = name.strip()
    if not clean or clean != name:
        raise InputError("a campaign name must not be empty or start or end with spaces",
                         source="NAME")
    if clean.startswith(".") or any(c in _BAD_NAME_CHARS or ord(c) < 32 for c in clean):
        raise InputError(f"{name!r} cannot be a file name (no / \\ : * ? \" < > |, control "
                         "characters or a leading dot)", source="NAME")
    if len(clean) > 100:
        raise InputError("a campaign name must be at most 100 characters", source="NAME")
    return (saves if saves is not None else DEFAULT_SAVES) / f"{clean}.json"


def _read(document: dict[str, Any], path: Path) -> Campaign:
    """The campaign a save document holds; a save that holds none (a field that no campaign
    could have: ``missions_played`` against its history, a model's state...) is refused in one
    line naming the field, with the backup to restore."""
    try:
        return Campaign.from_dict(document, str(path))
    except InputError as exc:
        raise InputError(f"{exc.message}; {restore_hint(path, 'campaign')}", source=exc.source,
                         field=exc.field) from None


def load_campaign(path: Path, name: str) -> Campaign:
    """Read a campaign save (its seal checked, migrated); a missing one lists the campaigns
    there are. A save written before seals (schema 2 and older) is sealed at once, under the
    campaign's lock (when it can be written: a read-only folder is only read)."""
    if not path.exists():
        known = sorted(p.stem for p in path.parent.glob("*.json")) if path.parent.is_dir() \
            else []
        listing = f" (campaigns there: {', '.join(map(shown_name, known))})" if known else ""
        raise InputError(f"no campaign {name!r} in {path.parent}{listing}; start one with "
                         "`solo-ops campaign new`", source="NAME")
    document = load_json(path, kind=CAMPAIGN_KIND, current_version=SCHEMA_VERSION,
                         migrations=MIGRATIONS, limit="campaign", sealed_since=SEALED_SINCE)
    campaign = _read(document, path)
    if SEAL_KEY not in document:  # migrated from before seals: sealed on first load
        with contextlib.suppress(SaveError):
            return change_campaign(path, name, lambda _c: None)
    return campaign


def save_campaign(path: Path, campaign: Campaign) -> None:
    """Write ``campaign`` to ``path``, sealed (the caller holds its lock)."""
    save_json(path, campaign.to_dict(), seal_depth=SEAL_DEPTH)


def change_campaign(path: Path, name: str, fn: Any) -> Campaign:
    """Lock, re-read the latest save, apply ``fn(campaign)`` and save it, sealed: nothing is
    lost."""
    if not path.exists():
        load_campaign(path, name)  # the clear "no campaign" error
    holder: dict[str, Campaign] = {}

    def apply(document: dict[str, Any]) -> dict[str, Any]:
        campaign = _read(document, path)
        fn(campaign)
        holder["campaign"] = campaign
        return campaign.to_dict()

    update_json(path, apply, kind=CAMPAIGN_KIND, current_version=SCHEMA_VERSION,
                migrations=MIGRATIONS, limit="campaign", sealed_since=SEALED_SINCE,
                seal_depth=SEAL_DEPTH)
    return holder["campaign"]


def generate_mission(current: Campaign, files: dict[str, Path], number: int, seed: int,
                     board: str | None, roster: str | None, edition: str | None,
                     engagement: int | None, *, show: bool = False,
                     progress: ProgressFn | None = None, choice: dict[str, Any] | None = None,
                     budget: int | None = None, path: Path | None = None
                     ) -> tuple[dict[str, Any], list[str], dict[str, Any] | None]:
    """A scenario document for the campaign's next mission (board and roster inline, so the
    mission folder is complete on its own), written to ``files["scenario"]``, with its threat
    record: the enemy and level proposed for the campaign's target win chance (or the group's
    ``--roster`` / ``--engagement`` rated), None when the campaign has no target.

    ``choice`` (``{"enemy", "level"}`` and the ``previous`` threat): the same mission set up
    again with the group's choice instead of the proposal (:func:`campaign_threat.override`).
    ``show``: a progress bar on a terminal; ``progress``: the page's callback. ``path``: the
    campaign's save, where the models recovering come back when nobody else can play
    (:func:`~solo_ops.campaign.missions.recover_when_nobody_plays`)."""
    import yaml

    from solo_ops.campaign import scenario_squads
    from solo_ops.campaign.missions import (
        fit_to_edition,
        mission_title,
        recover_when_nobody_plays,
    )
    from solo_ops.cli import campaign_threat
    from solo_ops.cli.new import _pick, _shipped
    from solo_ops.game.generator import Candidate, Options, generate

    squads = scenario_squads(current)
    if not squads and path is not None and any(
            m.state == RECOVERING for s in current.squads for m in s.models):
        current = change_campaign(path, current.name, recover_when_nobody_plays)
        squads = scenario_squads(current)
    if not squads:
        raise InputError(f"campaign {current.name!r} has no model left who can play; replace "
                         "the fallen with `solo-ops campaign replace`", source="NAME")
    out_dir = files["folder"].resolve()
    boards = [Candidate(c.name, "", c.data) for c in _shipped("board")]
    rosters = [Candidate(c.name, "", c.data) for c in _shipped("roster")]
    picked_board = _pick(board, "board", out_dir)
    picked_roster = _pick(roster, "roster", out_dir)
    options = Options(
        edition=edition,
        board=None if picked_board is None else Candidate(picked_board.name, "",
                                                          picked_board.data),
        roster=None if picked_roster is None else Candidate(picked_roster.name, "",
                                                            picked_roster.data),
        squads=[Candidate(s["player"], "", s) for s in squads],
        engagement=engagement, name=mission_title(current, number))
    target = campaign_threat.target_of(current.settings)
    how = None
    if target is not None:
        known = {c.name: c.data for c in rosters}
        if options.roster is not None:
            known[options.roster.name] = options.roster.data
        how = campaign_threat.Threatening(
            target, number, seed, known, campaign_threat.start_level(current),
            enemy=picked_roster.name if picked_roster is not None else None,
            level=engagement, budget=budget, progress=progress, show=show)
        if choice is not None:
            how.enemy, how.level = choice.get("enemy"), choice.get("level")
        options.engagement = None  # the hook below decides the level
        options.difficulty = ""  # rated; the threat's line says its target (not a word)
        options.rate = campaign_threat.hook(how, choice.get("previous") if choice else None)
    dice = dice_for(CURRENT, derived_seed(seed, "encounter"))
    doc, notes = generate(boards, rosters, [], options, dice, seed)
    fit_to_edition(current, doc["squads"], str(doc["edition"]))  # a wound in that game's Wounds
    if how is not None:
        notes = campaign_threat.enemy_note(notes, how, doc)
        how.record["asked"] = {"board": board, "roster": roster, "edition": edition,
                               "engagement": engagement}
    files["folder"].mkdir(parents=True, exist_ok=True)
    header = (f"# Mission {number} of campaign {current.name!r}, generated by `solo-ops "
              "campaign play`. Its seed decides what the hidden counters hold.\n")
    text = header + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    write_text_atomic(files["scenario"], text)
    return doc, notes, how.record if how is not None else None


def keep_threat(path: Path, name: str, threat: dict[str, Any] | None) -> Campaign:
    """Keep the next mission's threat (or none) in the campaign save, under its lock."""
    def apply(c: Campaign) -> None:
        c.threat = threat

    return change_campaign(path, name, apply)


def mission_begun(doc: dict[str, Any], state: State) -> bool:
    """Whether a campaign mission's save (``doc``, opened as ``state``) holds anything played:
    a step of either side. A turning point's first steps are the engine's (the initiative, an
    enemy that moves first), so a mission quit at its first question has begun: it goes on,
    and is never set up again (:func:`discard_unstarted` would throw the steps away)."""
    return bool(doc.get("actions")) or len(state.log) > 1 or state.turn > 0


def discard_unstarted(files: dict[str, Path]) -> None:
    """Remove a mission's files before it is set up again (its threat chosen again): the
    mission was only set up — nothing of the players' is in them, and the same scenario and
    seed make them again."""
    from solo_ops.io.writing import backup_path

    for path in (files["save"], backup_path(files["save"]), files["log"], files["setup"]):
        path.unlink(missing_ok=True)


def mission_facts(game: Game) -> dict[str, Any]:
    """What the chronicle tells of a mission, kept in its history record: its board, enemy,
    engagement level, edition, title (the mission and its board) and briefing."""
    scenario = game.scenario
    roster = scenario.roster
    return {"board": scenario.board.name, "enemy": roster.name if roster is not None else None,
            "engagement": scenario.engagement, "edition": game.edition,
            "title": f"{scenario.mission.name} on {scenario.board.name}",
            "briefing": list(scenario.mission.briefing(game.edition)[1:])}


def check_own_mission(campaign: Campaign, number: int, save: Path,
                      doc: dict[str, Any]) -> None:
    """Refuse a mission save (``doc``: as read from ``save``, or a game's ``scenario`` and
    ``seed``) that is not mission ``number`` of ``campaign`` — one copied in from another
    campaign's folder (:func:`~solo_ops.campaign.missions.mission_mismatch`): one line naming
    the save; nothing is played on, recorded or written."""
    from solo_ops.campaign.missions import mission_mismatch

    found = doc.get("scenario")
    scenario: dict[str, Any] = found if isinstance(found, dict) else {}
    problem = mission_mismatch(campaign, number, scenario.get("name"),
                               scenario.get("squads"), doc.get("seed"))
    if problem is not None:
        raise InputError(
            f"is not mission {number} of campaign {shown_name(campaign.name)}: {problem}; "
            "nothing was recorded — put it back in its own campaign's folder, or move it "
            f"aside to set mission {number} up anew", source=str(save))


def _check_not_recorded(path: Path, name: str, number: int) -> None:
    """Refuse a mission another terminal has just recorded (read again under the lock)."""
    if load_campaign(path, name).missions_played + 1 != number:
        raise InputError(f"mission {number} was just recorded by another terminal; run "
                         f"`solo-ops campaign play {name}` again for the next one",
                         source="NAME")


def _record_played_mission(path: Path, name: str, number: int, files: dict[str, Path],
                           game: Game, state: State) -> list[MissionReport]:
    """Record the ended mission in the campaign and draw the map of the end: the reports
    (none when another terminal recorded it already)."""
    from solo_ops.campaign import record_mission, result_from_state
    from solo_ops.cli.maps import draw_view
    from solo_ops.core.dice import dice_from_state

    # The mission is over: record it (survival dice continue the game's own dice stream).
    assert state.dice is not None
    dice = dice_from_state(state.dice.state())
    result = result_from_state(state, mission=mission_facts(game)["title"])
    reports: list[MissionReport] = []

    def apply(latest: Campaign) -> None:
        if latest.missions_played >= number:  # another terminal recorded it already
            return
        check_own_mission(latest, number, files["save"],
                          {"scenario": game.scenario.document, "seed": game.seed})
        dice.log.clear()
        reports.append(record_mission(latest, result, dice, source=str(files["save"])))
        record = next(e for e in reversed(latest.history) if e.get("mission") == number
                      and not e.get("event"))
        record["files"] = {k: str(v) for k, v in files.items() if k not in ("folder", "setup")}
        record.update(mission_facts(game))

    change_campaign(path, name, apply)
    draw_view(game, state, files["map"])
    return reports


def finish_last_mission(path: Path, campaign: Campaign) -> list[str]:
    """Complete the end of the last mission recorded when the command that recorded it was
    cut short before drawing its map (a kill, a power cut): the map is drawn now from the
    mission's save. Returns what the players should hear (nothing when it was complete): that,
    and the after-action report they never saw (the command stopped before printing it)."""
    number = campaign.missions_played
    if number < 1:
        return []
    files = mission_paths(path, number)
    if files["map"].exists() or not files["save"].is_file():
        return []
    from solo_ops.cli.maps import draw_view
    from solo_ops.io.opening import load_save

    game, state = load_save(files["save"])
    if not state.ended:
        return []
    draw_view(game, state, files["map"])
    record = next((e for e in reversed(campaign.history) if e.get("mission") == number
                   and not e.get("event")), None)
    report = [str(line) for line in (record or {}).get("report", [])]
    return [f"The map of mission {number}'s end was never drawn (the command that recorded it "
            f"was stopped first); it is drawn now: {files['map']}.",
            *([f"The after-action report of mission {number}, recorded then but not shown:",
               *(f"  {line}" for line in report)] if report else [])]


def without_secrets(doc: dict[str, Any]) -> dict[str, Any]:
    """A campaign's save document as ``campaign show --json`` gives it: without the seed of the
    mission set up next (it would place every hidden counter) and without the page's link
    tokens (each answers for a player, the host's for everyone): ``links`` says only whether
    the host has one and which players do."""
    data = dict(doc)
    if data.get("threat"):
        data["threat"] = {k: v for k, v in data["threat"].items() if k != "seed"}
    if data.get("links"):
        links = data["links"]
        data["links"] = {"id": links.get("id"), "host": bool(links.get("host")),
                         "players": sorted(links.get("players") or {})}
    return data


def ignored(out: Any, number: int, given: dict[str, Any]) -> None:
    """Say that the set-up options ``given`` (option -> value, None when not given) do not
    change mission ``number``, which is in progress: it goes on as it was set up."""
    named = [option for option, value in given.items() if value is not None]
    if named:
        out.print(f"Mission {number} is in progress and goes on as it was set up: "
                  f"{', '.join(named)} {'is' if len(named) == 1 else 'are'} for a new mission "
                  "(ignored; --new starts it afresh while nobody is hurt).", markup=False)


def move_mission_aside(files: dict[str, Path], name: str, number: int, out: Any) -> None:
    """``--new``: move the mission in progress aside (time-stamped, not deleted), unless
    :func:`check_not_ended` refuses."""
    from solo_ops.io.opening import move_aside

    check_not_ended(files["save"], name, number)
    moved = move_aside(files["save"], files["log"], files["scenario"], files["setup"])
    out.print("The mission in progress was moved aside: "
              + ", ".join(str(p) for p in moved) + ".", markup=False)


def check_not_ended(save: Path, name: str, number: int) -> None:
    """``--new`` never throws away a mission that has ended but is not recorded yet, nor one
    in progress that has already hurt a player's model: its result (who went down, the
    survival tests it calls for) would be lost, and a group could start a mission again until
    it went their way. A mission nobody was hurt in may start afresh."""
    from solo_ops.io.persistence import read_json_document

    try:  # a damaged save is moved aside as before: nothing can be recorded from it
        doc = read_json_document(save)
    except InputError:
        return
    snapshot = doc.get("snapshot")
    if isinstance(snapshot, dict) and snapshot.get("ended") is True:
        raise InputError(
            f"mission {number} of campaign {shown_name(name)} has ended but is not recorded "
            f"yet: run `solo-ops campaign play {shown_name(name)}` without --new to record it "
            "(--new would throw its result away)", source="--new")
    hurt = hurt_so_far(doc)
    if hurt:
        raise InputError(
            f"mission {number} of campaign {shown_name(name)} has already cost the squads "
            f"wounds ({', '.join(hurt)}): 003 asks a survival test of each of them, so --new "
            f"would throw that away; play it on with `solo-ops campaign play {shown_name(name)}`",
            source="--new")


def hurt_so_far(doc: dict[str, Any]) -> list[str]:
    """The players' models a mission save shows hurt since it began, in words ("Medic Oro
    down"): by its checkpoint (every model's wounds lost and going down over the mission, a
    Kill Team 2018 flesh wound included, which leaves a model its 1 wound); by its snapshot
    (down, or fewer wounds than the mission gave them) for a save without one; empty for a
    save it cannot read that far (a damaged save is moved aside as before)."""
    checkpoint = doc.get("checkpoint")
    if isinstance(checkpoint, dict) and isinstance(checkpoint.get("operatives"), list):
        out = []
        for op in checkpoint["operatives"]:
            if not isinstance(op, dict) or op.get("side") != "player":
                continue
            name = str(op.get("name") or op.get("id"))
            lost = op.get("wounds_lost")
            if op.get("went_down") is True or op.get("down") is True:
                out.append(f"{name} down")
            elif isinstance(lost, int) and lost > 0:
                out.append(f"{name} lost {lost} wound(s)")
        return out
    return _hurt_in_snapshot(doc)


def _hurt_in_snapshot(doc: dict[str, Any]) -> list[str]:
    """:func:`hurt_so_far` for a save without a checkpoint: down, or fewer wounds than the
    mission's scenario gave them."""
    snapshot, scenario = doc.get("snapshot"), doc.get("scenario")
    if not isinstance(snapshot, dict) or not isinstance(scenario, dict):
        return []
    start: dict[str, int] = {}
    for squad in scenario.get("squads") or []:
        for m in (squad.get("models") or []) if isinstance(squad, dict) else []:
            if isinstance(m, dict) and isinstance(m.get("id"), str):
                lost = m.get("wounds_lost")
                start[m["id"]] = lost if isinstance(lost, int) else 0
    out = []
    for op in snapshot.get("operatives") or []:
        if not isinstance(op, dict) or op.get("side") != "player" or op.get("id") not in start:
            continue
        wounds, most = op.get("wounds"), op.get("max_wounds")
        name = str(op.get("name") or op["id"])
        if op.get("down") is True:
            out.append(f"{name} down")
        elif isinstance(wounds, int) and isinstance(most, int) and \
                most - wounds > start[op["id"]]:
            out.append(f"{name} lost {most - wounds - start[op['id']]} wound(s)")
    return out
