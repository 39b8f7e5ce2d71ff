"""``solo-ops campaign``: start, show and keep a campaign of the players' squads.

Saves and a mission's files are :mod:`solo_ops.cli.campaign_files`' (shared with ``campaign
serve``, the page: :mod:`solo_ops.cli.campaign_serve`): every change re-reads the save under
its lock, so two co-op screens never overwrite each other, and a killed command leaves the old
or the new save, never half of one. ``campaign play`` (the next mission through the game loop)
records the mission with :func:`solo_ops.campaign.missions.record_mission`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.table import Table

from solo_ops.campaign import (
    DIFFICULTIES,
    DOWN_FAILURES,
    INJURED_FAILURES,
    WOUNDED_FAILURES,
    Campaign,
    CampaignSettings,
    MissionReport,
    calibration,
    check_wounds_lost,
    downed_lost_all,
    new_campaign,
    parse_mission_result,
    parse_squad,
    parse_squad_model,
    pending_tests,
    prediction_line,
    record_mission,
    replace_model,
    result_key,
    result_words,
    run_survival_tests,
)
from solo_ops.campaign.chronicle import state_words
from solo_ops.campaign.threat import percent
from solo_ops.cli import campaign_threat
from solo_ops.cli.campaign_chronicle import campaign_chronicle
from solo_ops.cli.campaign_files import (
    _check_not_recorded,
    _record_played_mission,
    campaign_path,
    change_campaign,
    check_own_mission,
    discard_unstarted,
    finish_last_mission,
    generate_mission,
    ignored,
    keep_threat,
    load_campaign,
    mission_begun,
    mission_facts,
    move_mission_aside,
    rate_missions_option,
    save_campaign,
    saves_option,
    shown_name,
    without_secrets,
)
from solo_ops.cli.campaign_rename import campaign_rename, check_nameable
from solo_ops.cli.campaign_serve import campaign_serve
from solo_ops.cli.common import (
    SoloOpsGroup,
    campaign_command,
    console,
    emit_json,
    json_option,
    resolve_seed,
    seed_option,
)
from solo_ops.core.dice import CURRENT, dice_for
from solo_ops.core.errors import InputError
from solo_ops.io import library
from solo_ops.io.locks import campaign_lock, game_lock
from solo_ops.io.opening import mission_paths
from solo_ops.io.yamlio import read_document
from solo_ops.rules.editions import turn_name
from solo_ops.sim.autopilot import POLICIES as AUTOPILOT_POLICIES

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.game.state import State


class ChanceType(click.ParamType):
    """A win chance: ``40%``, ``0.4`` or ``40`` (a number above 1 is a percentage), strictly
    between 0 and 100%; ``off`` (or ``none``): no target."""

    name = "chance"

    def convert(self, value: Any, param: Any, ctx: Any) -> float | None:
        if value is None or isinstance(value, float):
            return value
        text = str(value).strip().lower()
        if text in ("off", "none"):
            return None
        try:
            number = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        except ValueError:
            self.fail(f"{value!r} is not a chance (40% or 0.4, or off)", param, ctx)
        if not text.endswith("%") and number > 1:
            number /= 100
        if not 0 < number < 1:
            self.fail(f"{value!r} is not between 0% and 100% (both left out)", param, ctx)
        return round(number, 4)


@click.group("campaign", cls=SoloOpsGroup)
def campaign() -> None:
    """Keep a campaign: your squads, their wounds and losses, mission after mission."""


@campaign.command("new")
@click.argument("name")
@click.option("--squad", "squads", multiple=True, required=True,
              type=click.Path(path_type=Path),
              help="A squad file (YAML or JSON); repeat for each co-op player.")
@click.option("--down-failure", type=click.Choice(DOWN_FAILURES), default="fallen",
              show_default=True,
              help="A model that went down and fails its survival test is lost (fallen) or "
                   "hurt as a wounded one is, every wound lost (injured; see --wounded-failure).")
@click.option("--wounded-failure", type=click.Choice(WOUNDED_FAILURES), default="carry",
              show_default=True,
              help="A model only wounded that fails its survival test: its wound is not healed "
                   "and it starts the next mission without the wounds it lost, at least 1 left "
                   "(carry), it keeps a lasting injury with no effect on play (injury), or "
                   "nothing happens (none).")
@click.option("--injured-failure", type=click.Choice(INJURED_FAILURES), default="rest",
              show_default=True,
              help="A model already injured that fails again: it misses the next mission to "
                   "recover (rest), plays on hurt (play) or is lost (fallen).")
@click.option("--target-win", "target_win", type=ChanceType(), default="50%",
              show_default=True,
              help="The win chance each next mission's enemy and engagement level are "
                   "proposed for (40% or 0.4), rated by simulated missions of the squads as "
                   "they stand; off: rolled as `solo-ops new` rolls them.")
@click.option("--default-toughness", type=click.IntRange(1, 12), default=3, show_default=True,
              help="Toughness for survival tests of profiles without one (Kill Team 2024).")
@click.option("--units", "units", type=click.Choice(["in", "cm"]), default=None,
              help="Show and read the missions' distances in inches or centimetres (default: "
                   "each mission's own setting, inches).")
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), default=None,
              help="The target win chance as `new --difficulty`'s word: easy 80%, normal 60%, "
                   "hard 40%, brutal 20% (instead of --target-win).")
@saves_option
@json_option
def campaign_new(name: str, squads: tuple[Path, ...], down_failure: str, wounded_failure: str,
                 injured_failure: str, target_win: float | None, default_toughness: int,
                 units: str | None, difficulty: str | None, saves: Path | None,
                 as_json: bool) -> None:
    """Start campaign NAME with the players' squad files."""
    path = campaign_path(name, saves)
    if difficulty is not None:
        source = click.get_current_context().get_parameter_source("target_win")
        if source is not None and source.name != "DEFAULT":
            raise InputError("give --target-win or --difficulty, not both",
                             source="--difficulty")
    parsed = []
    for given in squads:
        file = library.resolve("squad", given, source="--squad")
        squad = parse_squad(read_document(file), str(file))
        parsed.append((squad, str(file)))
    settings = CampaignSettings(down_failure=down_failure, wounded_failure=wounded_failure,
                                injured_failure=injured_failure,
                                default_toughness=default_toughness, units=units,
                                difficulty=difficulty,
                                target_win=None if difficulty is not None else target_win)
    created = new_campaign(name, [sq for sq, _ in parsed], settings,
                           sources=[src for _, src in parsed])
    with campaign_lock(path):
        if path.exists():
            raise InputError(f"campaign {name!r} already exists ({path}); choose another name "
                             "or use `solo-ops campaign show`", source="NAME")
        save_campaign(path, created)
    if as_json:
        emit_json({"campaign": name, "path": str(path),
                   "squads": [_squad_summary(s) for s in created.squads],
                   "settings": created.settings.to_dict()})
        return
    out = console()
    out.print(f"Campaign [bold]{name}[/bold] started: {path}")
    for s in created.squads:
        out.print(f"  {s.player}: {s.name} — {len(s.models)} models")


def _squad_summary(squad: Any) -> dict[str, Any]:
    return {"player": squad.player, "name": squad.name,
            "models": [{"id": m.id, "name": m.name, "state": m.state} for m in squad.models]}


@campaign.command("show")
@click.argument("name")
@saves_option
@json_option
def campaign_show(name: str, saves: Path | None, as_json: bool) -> None:
    """Show campaign NAME: squads, every model's state, the missions played and history."""
    path = campaign_path(name, saves)
    current = load_campaign(path, name)
    judged = calibration(current.history)
    if as_json:
        data = without_secrets(current.to_dict())
        data["path"] = str(path)
        data["pending_survival_tests"] = [m.id for _, m in pending_tests(current)]
        data["calibration"] = judged.to_dict()
        data["conditions"] = {m.id: state_words(m) for sq in current.squads
                              for m in sq.models}
        emit_json(data)
        return
    out = console()
    s = current.settings
    out.print(f"[bold]{current.name}[/bold] — {current.missions_played} mission(s) played "
              f"({path})")
    target = "off (rolled)" if s.target_win is None and s.difficulty is None else \
        percent(campaign_threat.target_of(s) or 0)
    out.print(f"[dim]failed survival test: down → {s.down_failure}, wounded → "
              f"{s.wounded_failure}, injured again → {s.injured_failure}; default Toughness "
              f"{s.default_toughness}; target win chance {target}[/dim]")
    for squad in current.squads:
        table = Table(title=f"{squad.player} — {squad.name}", header_style="bold",
                      title_justify="left")
        for column in ("ID", "Name", "Profile", "State", "Missions", "Injuries"):
            table.add_column(column, overflow="fold")
        for m in squad.models:
            table.add_row(m.id, m.name, _profile_text(m, current.settings), state_words(m),
                          str(m.missions), "; ".join(_injury_text(i) for i in m.injuries)
                          or "—")
        out.print(table)
    if current.history:
        out.print("[bold]History[/bold]")
        for entry in current.history:
            report = entry.get("report", [])
            for line in report[:1] if "mission" in entry else report:
                out.print(f"  {line}", markup=False)
            if entry.get("threat"):
                out.print(f"    threat: {prediction_line(entry['threat'])} — result: "
                          f"{entry.get('outcome') or 'not recorded'}", markup=False)
            for test in entry.get("survival_tests", []):
                out.print(f"    survival: {test['name']} rolled {test['roll']} needing "
                          f"{test['target']} or less — {result_words(test)}", markup=False)
        out.print(judged.line(), markup=False)
    if current.threat is not None:
        out.print(f"Next mission ({current.threat['mission']}), set up: "
                  f"{prediction_line(current.threat)}", markup=False)
    waiting = pending_tests(current)
    if waiting:
        out.print(f"Survival tests to roll: {', '.join(m.id for _, m in waiting)} — "
                  f"`solo-ops campaign survival {name}`")


def _profile_text(model: Any, settings: CampaignSettings) -> str:
    p = model.parsed_profile()
    return (f"{p.name}: M{p.movement:g}\" W{p.wounds} Sv{p.save}+ "
            f"T{model.toughness(settings)}")


def _injury_text(injury: dict[str, Any]) -> str:
    where = f"mission {injury['mission']}: " if injury.get("mission") else ""
    healed = f" (healed in mission {injury['healed']})" if injury.get("healed") else ""
    return where + str(injury.get("note", "")) + healed


@campaign.command("survival")
@click.argument("name")
@click.option("--mission-result", "result_file", type=click.Path(path_type=Path), default=None,
              help="A mission result file (docs/campaign-notes.md); without it, roll the "
                   "tests still pending.")
@click.option("--again", is_flag=True,
              help="Record a result file even though an earlier mission has exactly the same "
                   "result (without it, that is refused as the same mission recorded twice).")
@seed_option
@saves_option
@json_option
def campaign_survival(name: str, result_file: Path | None, again: bool, seed: int | None,
                      saves: Path | None, as_json: bool) -> None:
    """Record a mission result and roll the squad's survival tests."""
    path = campaign_path(name, saves)
    result, key = None, None
    if result_file is not None:
        result = parse_mission_result(read_document(result_file), str(result_file))
        key = result_key(result)  # of the file as written (a result recorded before keeps it)
    seed = resolve_seed(seed)
    dice = dice_for(CURRENT, seed)
    reports: list[MissionReport] = []

    def apply(current: Campaign) -> None:
        dice.log.clear()
        if result is not None:
            _check_no_mission_set_up(path, name, current.missions_played + 1)
            check_wounds_lost(current, result, str(result_file))
            reports.append(record_mission(current, downed_lost_all(current, result), dice,
                                          source=str(result_file), key=key, again=again))
        else:
            reports.append(run_survival_tests(current, dice))

    change_campaign(path, name, apply)
    report = reports[-1]
    if as_json:
        emit_json({"campaign": name, "path": str(path), "mission": report.mission,
                   "tests": [t.to_dict() for t in report.tests], "report": list(report.lines),
                   "seed": seed, "dice": [e.to_dict() for e in dice.log]})
        return
    out = console()
    for line in report.lines:
        out.print(line, markup=False)
    out.print(f"[dim]seed {seed}; saved to {path}[/dim]")


def _set_up_save(path: Path, number: int) -> Path | None:
    """The save of mission ``number`` when ``campaign play`` has it set up (or in play)."""
    save = mission_paths(path, number)["save"]
    return save if save.exists() else None


def _check_no_mission_set_up(path: Path, name: str, number: int) -> None:
    """Refuse a result file for mission ``number`` while ``campaign play`` has that mission set
    up (or in play): recording over it would throw its game away when it ends. A result file
    is for a mission played without solo-ops."""
    save = _set_up_save(path, number)
    if save is not None:
        raise InputError(
            f"mission {number} of campaign {shown_name(name)} is set up to be played with "
            f"solo-ops ({save}): go on with `solo-ops campaign play {shown_name(name)}`; a "
            "result file records a mission played without solo-ops (to record one instead, "
            "move that mission's files aside first)", source="--mission-result")


def _check_no_mission_for_recruit(path: Path, name: str, number: int) -> None:
    """Refuse a recruit while ``campaign play`` has mission ``number`` set up (or in play):
    its squads were deployed without the recruit, so the mission, when recorded, would count
    a model that never stood on the table as having fought it."""
    save = _set_up_save(path, number)
    if save is not None:
        raise InputError(
            f"mission {number} of campaign {shown_name(name)} is set up with the squads as "
            f"they were ({save}): the recruit joins once it is recorded (go on with `solo-ops "
            f"campaign play {shown_name(name)}`), or move that mission's files aside to set it "
            "up again with the recruit", source="--with")


@campaign.command("replace")
@click.argument("name")
@click.option("--player", required=True, help="Whose squad.")
@click.option("--model", "model_id", required=True, help="The fallen model's id.")
@click.option("--with", "new_file", required=True, type=click.Path(path_type=Path),
              help="A file with the new model: {id, name, profile} as in a squad file.")
@saves_option
@json_option
def campaign_replace(name: str, player: str, model_id: str, new_file: Path,
                     saves: Path | None, as_json: bool) -> None:
    """Replace a fallen model with a new recruit (the fallen stays in the history)."""
    path = campaign_path(name, saves)
    newcomer = parse_squad_model(read_document(new_file), str(new_file), "")

    def apply(c: Campaign) -> None:
        _check_no_mission_for_recruit(path, name, c.missions_played + 1)
        replace_model(c, player, model_id, newcomer, source=str(new_file))

    change_campaign(path, name, apply)
    if as_json:
        emit_json({"campaign": name, "path": str(path), "player": player,
                   "fallen": model_id, "new": newcomer.to_dict()})
        return
    console().print(f"{newcomer.name} ({newcomer.id}) joins {player}'s squad in place of "
                    f"{model_id}. Saved to {path}.", markup=False)


READY_WORDS = ("ready",)
CHOICE_WORDS = ("level", "enemy")


def wait_for_ready(feed: Any, interactive: bool, out: Any, name: str, number: int, *,
                   enemies: list[str] | None = None) -> bool | dict[str, Any]:
    """Read answers until "ready" (True) or "quit" / the end of the answers (False): the
    mission waits for the table to be set up before its first turning point. With
    ``enemies`` (the mission's threat was proposed), ``level N`` or ``enemy NAME`` is the
    group's choice instead of the proposal: returned as ``{"level": N}`` / ``{"enemy": NAME}``
    for the mission to be set up again. Answers from a file count what else they say against
    their limits (:func:`solo_ops.cli.play.spend`)."""
    from solo_ops.cli.play import spend

    for raw in feed:
        if not interactive:
            out.print(f"> {raw}", markup=False)
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word = line.split()[0].lower()
        if word in READY_WORDS:
            return True
        if word in ("quit", "exit"):
            break
        if enemies is not None and word in CHOICE_WORDS:
            choice, refusal = _choice(line, enemies)
            if choice is not None:
                return choice
            spend(feed, "refused")
            out.print(f"✗ {refusal}", markup=False)
            continue
        spend(feed, "refused")
        hint = " — or level N / enemy NAME for another threat" if enemies is not None else ""
        out.print(f"✗ type ready when the table is set up (or quit to stop here){hint}",
                  markup=False)
    out.print(f"Mission {number} is set up and saved; run `solo-ops campaign play {name}` "
              "again when the table is ready.", markup=False)
    return False


def _choice(line: str, enemies: list[str]) -> tuple[dict[str, Any] | None, str]:
    """``level 3`` or ``enemy ork`` (an unambiguous prefix) as the group's choice, or why not."""
    parts = line.split()
    if len(parts) != 2:
        return None, "say level N (1-6) or enemy NAME"
    word, value = parts[0].lower(), parts[1].lower()
    if word == "level":
        if value.isdigit() and 1 <= int(value) <= 6:
            return {"level": int(value)}, ""
        return None, f"level {parts[1]}: the engagement levels are 1 to 6"
    found = [e for e in enemies if e.lower() == value] or \
        [e for e in enemies if e.lower().startswith(value)]
    if len(found) == 1:
        return {"enemy": found[0]}, ""
    return None, f"enemy {parts[1]}: choose one of {', '.join(enemies)}"


@campaign.command("play")
@click.argument("name")
@click.option("--board", default=None, help="A shipped board name or a board file "
              "(default: rolled).")
@click.option("--roster", default=None, help="A shipped roster name or a roster file "
              "(default: rolled).")
@click.option("--edition", type=click.Choice(["kt2024", "kt2018"]), default=None)
@click.option("--engagement", type=click.IntRange(1, 6), default=None,
              help="Engagement level 1-6 (default: D3+1).")
@click.option("--answers", "answers_file", type=click.Path(path_type=Path), default=None,
              help="Read the players' answers from this file instead of the keyboard (the "
                   "first answer of a new mission is `ready`).")
@click.option("--answer", "answer", multiple=True,
              help="An answer, as typed at the prompt (repeat for several).")
@click.option("--new", "new", is_flag=True,
              help="Start the next mission afresh even if one is in progress: its files are "
                   "moved aside with a time stamp (not deleted).")
@click.option("--rebuild-log", "rebuild_log", is_flag=True,
              help="If the mission's event log disagrees with its save, move the log aside "
                   "and write it anew from the save.")
@click.option("--reveal-hidden", is_flag=True,
              help="DEBUG: show hidden counters' contents and orders. Spoils the game.")
@click.option("--units", "units", type=click.Choice(["in", "cm"]), default=None,
              help="Show and read distances in inches or centimetres (default: the "
                   "campaign's units setting, else the mission's).")
@click.option("--autopilot", "autopilot", type=click.Choice(AUTOPILOT_POLICIES), default=None,
              help="Let the autopilot play the players' side by this policy (as `rate` "
                   "does): the mission is set up as proposed, played out and recorded.")
@rate_missions_option
@seed_option
@saves_option
def campaign_play(name: str, board: str | None, roster: str | None, edition: str | None,
                  engagement: int | None, answers_file: Path | None, answer: tuple[str, ...],
                  new: bool, rebuild_log: bool, reveal_hidden: bool, units: str | None,
                  autopilot: str | None, rate_missions: int | None, seed: int | None,
                  saves: Path | None) -> None:
    """Play the campaign's next mission (or go on with the one in progress).

    The mission is generated from the campaign's squads (fallen and recovering models stay
    home, the injured start hurt); its enemy and engagement level are proposed for the
    campaign's target win chance, rated by simulated missions (a progress bar while it runs);
    the set-up picture and the briefing are shown and the game waits for `ready` while you set
    up the table (or `level N` / `enemy NAME` to play another threat than the proposal). It
    is played through the same loop as `solo-ops play` (saved after every step: stop at any
    time and run this command again to go on — `--new` instead moves the mission in progress
    aside and starts another), and when it ends its result is recorded: survival
    tests for everyone hurt, an after-action report and a map of the end. The mission is
    locked while it is played: a second terminal on it is refused at once.
    """
    from solo_ops.cli.play import _feed

    path = campaign_path(name, saves)
    current = load_campaign(path, name)
    number = current.missions_played + 1
    files = mission_paths(path, number)
    out = console()
    told = finish_last_mission(path, current)
    for line in told:
        out.print(line, markup=False)
    if told:  # the last mission's end, never shown: the players read it before the next
        out.print(f"Run `solo-ops campaign play {shown_name(name)}` again for mission "
                  f"{number} (recruit first with `campaign replace` if you need to).",
                  markup=False)
        return
    units = units or current.settings.units
    if autopilot is not None:
        answers_file, answer = None, ("ready",)
    with game_lock(files["save"]):
        _check_not_recorded(path, name, number)
        feed, interactive = _feed(answers_file, answer)
        if new and (files["save"].exists() or files["log"].exists()):
            move_mission_aside(files, name, number, out)
        check_nameable(current, path)  # (a campaign saved with an id no answer can name)
        asked = {"board": board, "roster": roster, "edition": edition,
                 "engagement": engagement, "budget": rate_missions}
        choice = None
        if files["save"].exists():
            ignored(out, number, {"--board": board, "--roster": roster, "--edition": edition,
                                  "--engagement": engagement, "--seed": seed})
            opened = _resume_mission(name, number, files, out, feed, interactive, units,
                                     reveal_hidden, rebuild_log, current)
            if isinstance(opened, dict):  # the group chose another threat: set up again
                choice, seed = opened, opened.pop("seed")
                asked.update({k: v for k, v in opened.pop("asked", {}).items()
                              if k != "budget"})
        if choice is not None or not files["save"].exists():
            opened = _start_mission(current, path, name, number, files, out, feed,
                                    interactive, units, reveal_hidden, seed, asked, choice)
        if opened is None or isinstance(opened, dict):
            return
        session, game, state = opened
        if not state.ended and autopilot is not None:
            _autoplay(session.table, autopilot, out)
        elif not state.ended:
            session.run(feed, interactive)
            game, state = session.game, session.state  # an undo rebuilds them
        if not state.ended:  # the session said how to go on (its go_on)
            session.check_saved()
            return
        reports = _record_played_mission(path, name, number, files, game, state)
    _print_after_action(out, reports, number, files, path)


def _autoplay(table: Any, policy: str, out: Any) -> None:
    """The players' side played out by the autopilot (``--autopilot``): each prompt answered
    by :func:`solo_ops.sim.autopilot.answer` through the engine, each step saved and logged as
    at the table."""
    from solo_ops.game.engine import pending
    from solo_ops.sim import autopilot

    steps = 0
    while (prompt := pending(table.game, table.state)).kind != "ended":
        table.persist(autopilot.answer(table.game, table.state, prompt, policy))
        steps += 1
    result = table.state.result or {}
    out.print(f"The autopilot ({policy}) played the mission out in {steps} steps: "
              f"{result.get('outcome', 'no result')}.", markup=False)


def _resume_mission(name: str, number: int, files: dict[str, Path], out: Any, feed: Any,
                    interactive: bool, units: str | None, reveal_hidden: bool,
                    rebuild_log: bool, current: Campaign
                    ) -> tuple[Any, Game, State] | dict[str, Any] | None:
    """Open the mission in progress from its save: the session, game and state, or None
    when a mission still being set up is left waiting (no `ready`), or the group's choice of
    another threat for a mission still being set up (with its ``seed`` and what was
    ``asked``: it is set up again)."""
    from solo_ops.cli.maps import draw_view
    from solo_ops.cli.play import Session, check_log
    from solo_ops.session.opening import open_save

    table, doc = open_save(files["save"], files["log"], reveal=reveal_hidden, units=units)
    check_own_mission(current, number, files["save"], doc)  # not one from another campaign
    game, state = table.game, table.state
    title = mission_facts(game)["title"]  # the chronicle's: the mission and its board
    session = Session(table, as_json=False)
    session.go_on = campaign_command(name, files["folder"].parent)
    if state.ended:
        out.print(f"Mission {number} ({title}) ended but was not recorded "
                  "yet; recording it now.", markup=False)
    else:
        check_log(session, doc, rebuild=rebuild_log, interactive=interactive)
        if game.notice:  # it goes on from its checkpoint (io.opening.load_save_doc)
            session.say(game.notice)
    started = mission_begun(doc, state)
    if not state.ended and started:
        begun = (f"mission {number} has begun, so its threat stands; to set it up afresh "
                 f"with another, quit and add --new (its files are moved aside)")
        session.refused_words = {"level": begun, "enemy": begun}
        session.say(f"Campaign {name}: going on with mission {number} "
                    f"({title}, {turn_name(state.edition)} {state.turn}). To start it afresh "
                    "instead: add --new (its files are moved aside).")
    elif not state.ended:
        out.print(f"[bold]Campaign {name} — mission {number}: {title}"
                  f"[/bold] ({game.edition}), set up and waiting.")
        threat = current.threat if current.threat and \
            current.threat.get("mission") == number else None
        _set_up(game, state, files, out, draw_view, threat)
        answer = wait_for_ready(feed, interactive, out, name, number,
                                enemies=_enemies(threat))
        if isinstance(answer, dict):
            assert threat is not None
            return {**answer, "seed": game.seed, "asked": dict(threat.get("asked") or {})}
        if not answer:
            return None
    return session, game, state


def _enemies(threat: dict[str, Any] | None) -> list[str] | None:
    """The enemies the group may choose instead of the proposal (None: no proposal)."""
    if threat is None:
        return None
    from solo_ops.io import library

    names = [s.name for s in library.shipped("roster")]
    return names if threat["enemy"] in names else [*names, threat["enemy"]]


def _start_mission(current: Campaign, path: Path, name: str, number: int,
                   files: dict[str, Path], out: Any, feed: Any, interactive: bool,
                   units: str | None, reveal_hidden: bool, seed: int | None,
                   asked: dict[str, Any], choice: dict[str, Any] | None
                   ) -> tuple[Any, Game, State] | None:
    """Generate the next mission (its threat proposed, or the group's ``choice``), start its
    game and set it up: the session, game and state, or None when the table is left waiting
    (no `ready`). The group's `level N` / `enemy NAME` at the cue sets the same mission up
    again with that threat."""
    from solo_ops.cli.maps import draw_view
    from solo_ops.cli.play import Session
    from solo_ops.io.scenario import load_scenario
    from solo_ops.session.opening import start_table

    seed = resolve_seed(seed)
    if choice is not None:
        choice["previous"] = current.threat
        discard_unstarted(files)
    while True:
        _doc, notes, threat = generate_mission(
            current, files, number, seed, asked["board"], asked["roster"], asked["edition"],
            asked["engagement"], show=True, choice=choice, budget=asked.get("budget"),
            path=path)
        current = keep_threat(path, name, threat)
        scenario = load_scenario(files["scenario"])
        table, _notes = start_table(scenario, seed, files["save"], files["log"],
                                    reveal=reveal_hidden, units=units, move_old=False)
        session = Session(table, as_json=False)
        session.go_on = campaign_command(name, files["folder"].parent)
        game, state = table.game, table.state
        out.print(f"[bold]Campaign {name} — mission {number}: {mission_facts(game)['title']}"
                  f"[/bold] ({scenario.edition})")
        for line in notes:
            out.print(f"• {line}", markup=False)
        session.show(state.log[0])
        _set_up(game, state, files, out, draw_view, threat)
        answer = wait_for_ready(feed, interactive, out, name, number,
                                enemies=_enemies(threat))
        if not isinstance(answer, dict):
            return (session, game, state) if answer else None
        choice = {**answer, "previous": threat}
        discard_unstarted(files)


def _print_after_action(out: Any, reports: list[MissionReport], number: int,
                        files: dict[str, Path], path: Path) -> None:
    """The after-action report of the mission just recorded (or that it already was)."""
    if not reports:
        out.print(f"Mission {number} was already recorded.", markup=False)
        return
    out.print("[bold]After-action report[/bold]")
    for line in reports[-1].lines:
        out.print(line, markup=False)
    out.print(f"Map of the end: {files['map']}. Campaign saved to {path}.", markup=False)


def _set_up(game: Game, state: State, files: dict[str, Path], out: Any, draw_view: Any,
            threat: dict[str, Any] | None = None) -> None:
    """The briefing, who starts hurt, the set-up picture (drawn again if it is missing) and
    the threat proposed, then the cue."""
    from solo_ops.campaign import prediction_line

    for line in game.scenario.mission.briefing(game.edition)[1:]:
        out.print(f"  {line}", markup=False)
    for op in state.operatives.values():
        if op.side == "player" and op.wounds < op.profile.wounds:
            out.print(f"  {op.name} ({op.id}) starts hurt: {op.wounds} of {op.profile.wounds} "
                      "wounds (a wound not healed).", markup=False)
    if not files["setup"].exists():
        draw_view(game, state, files["setup"])
    out.print(f"Set-up picture: {files['setup']}", markup=False)
    if threat is not None:
        who = "Proposed" if threat.get("by") == "proposal" else "The group's choice"
        out.print(f"{who}: {prediction_line(threat)}.", markup=False)
        out.print("Set up the table as in the picture, then type ready (or quit to stop "
                  "here); for another threat type level N (1-6) or enemy NAME "
                  f"({', '.join(_enemies(threat) or [])}).", markup=False)
        return
    out.print("Set up the table as in the picture, then type ready (or quit to stop here).",
              markup=False)


campaign.add_command(campaign_serve)  # `campaign serve`: the campaign as the table view's page
campaign.add_command(campaign_chronicle)  # `campaign chronicle`: the story, to read or print
campaign.add_command(campaign_rename)  # `campaign rename`: a new id for a squad model

commands = [campaign]
