"""``solo-ops campaign serve NAME``: a whole campaign at the table, as the table view's page.

The page (:mod:`solo_ops.web.campaign`) shows the next mission's set-up picture and briefing
with a ready button per player, then the mission itself, then the survival tests rolled and the
after-action report with its map, the squads and a recruit in place of each fallen model, then
the next mission. :class:`Desk` keeps the campaign's part: it works on the very files
``campaign play`` keeps (:mod:`solo_ops.cli.campaign_files`), so the page and the terminal take
turns on one campaign — stop the server and go on with ``campaign play`` at any point, or the
other way round. The mission being played is locked while the server runs (the terminal on it is
refused at once); the campaign save is changed only under its own lock.

Links: one per player and the host's, made the first time the campaign is served and kept in
the campaign save, so they stay the same for every mission (``--new-link NAME`` re-issues one).
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any

import click

from solo_ops.campaign import FALLEN, SquadModel, calibration, replace_model
from solo_ops.campaign.model import Campaign
from solo_ops.cli.campaign_files import (
    _record_played_mission,
    campaign_path,
    change_campaign,
    check_own_mission,
    finish_last_mission,
    generate_mission,
    load_campaign,
    mission_begun,
    rate_missions_option,
    saves_option,
)
from solo_ops.cli.campaign_rename import check_nameable
from solo_ops.cli.common import resolve_seed, seed_option
from solo_ops.core.errors import InputError
from solo_ops.io.locks import game_lock
from solo_ops.io.opening import mission_paths
from solo_ops.session import links as table_links
from solo_ops.session.table import GameTable

SETUP, MISSION, ENDED, REPORT = "setup", "mission", "ended", "report"


class Desk:
    """A served campaign's part of the page (the :class:`~solo_ops.web.campaign.CampaignDesk`
    of :mod:`solo_ops.web.campaign`): the campaign, the mission at the table and its phase
    (``setup``, ``mission``, ``ended``, ``report``), who is ready. One lock: one change at a
    time."""

    def __init__(self, path: Path, name: str, options: dict[str, Any]) -> None:
        self.path, self.name, self.options = path, name, options
        self.lock = threading.RLock()
        self.campaign: Campaign = load_campaign(path, name)
        self.number = self.campaign.missions_played + 1
        self.files = mission_paths(path, self.number)
        self.mission: GameTable | None = None  # the mission's table (set up, played or ended)
        self._phase = REPORT
        self.ready: set[str] = set()
        self.last: GameTable | None = None  # the last mission recorded here, for its map
        self.notes: list[str] = finish_last_mission(path, self.campaign)
        self.rating: dict[str, Any] | None = None  # the threat's rating under way, for pages
        self._locks = contextlib.ExitStack()

    # -- the protocol ---------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """Where the campaign is: ``setup``, ``mission``, ``ended`` (the mission is over, not
        recorded yet) or ``report`` (between missions)."""
        if self._phase == MISSION and self.mission is not None and self.mission.state.ended:
            return ENDED
        return self._phase

    @property
    def table(self) -> GameTable | None:
        """The mission being played or just ended (None while it is set up, between missions)."""
        return self.mission if self._phase in (MISSION, ENDED) else None

    def setup_table(self) -> GameTable | None:
        """The mission set up, being played or just ended (None between missions)."""
        return self.mission if self._phase in (SETUP, MISSION, ENDED) else None

    @property
    def links(self) -> dict[str, Any] | None:
        return self.campaign.links

    @property
    def players(self) -> list[str]:
        return [s.player for s in self.campaign.squads]

    # -- opening --------------------------------------------------------------------------------
    def ensure_links(self, reissue: tuple[str, ...] = ()) -> None:
        """Make the campaign's links once (kept in its save), re-issue ``reissue``'s."""
        def apply(c: Campaign) -> None:
            made, _ = table_links.ensure(c.links, [s.player for s in c.squads])
            for who in reissue:
                try:
                    made = table_links.reissue(made, who)
                except KeyError:
                    raise InputError(f"no player {who!r} in campaign {c.name!r} (players: "
                                     f"{', '.join(s.player for s in c.squads)}, or host)",
                                     source="--new-link") from None
            c.links = made

        made, _ = table_links.ensure(self.campaign.links, self.players)
        if made != self.campaign.links or reissue:
            self.campaign = change_campaign(self.path, self.name, apply)

    def open(self) -> None:
        """Open the mission in progress (set up, being played or ended), or, when there is
        none, wait between missions (the last report, the squads, recruits)."""
        with self.lock:
            self.number = self.campaign.missions_played + 1
            self.files = mission_paths(self.path, self.number)
            self._locks.close()
            self._locks = contextlib.ExitStack()
            self._locks.enter_context(game_lock(self.files["save"]))
            self.ready = set()
            check_nameable(self.campaign, self.path)
            if not self.files["save"].exists():
                self.mission, self._phase = None, REPORT
                if self.last is None and self.number > 1:  # (a server started between
                    self.last = _ended_table(mission_paths(self.path, self.number - 1))
                return
            from solo_ops.io.opening import LogDisagrees
            from solo_ops.session.opening import open_save, sync_log

            table, doc = open_save(self.files["save"], self.files["log"], units=self.units)
            check_own_mission(self.campaign, self.number, self.files["save"], doc)
            state = table.state
            if not state.ended:
                try:
                    note = sync_log(table, doc)
                except LogDisagrees as exc:
                    raise InputError(f"{exc.message}. The save is the truth: run `solo-ops "
                                     f"campaign play {self.name} --rebuild-log` once to rebuild "
                                     "the log", source=str(self.files["save"])) from None
                if note:
                    self.notes.append(note)
            self.mission = table
            started = mission_begun(doc, state)
            self._phase = ENDED if state.ended else MISSION if started else SETUP
            if self._phase == MISSION:
                table.advance()

    @property
    def units(self) -> str | None:
        return self.options.get("units") or self.campaign.settings.units

    def close(self) -> None:
        self._locks.close()

    # -- what the players do --------------------------------------------------------------------
    def act(self, who: str, player: str | None, do: str, body: dict[str, Any],
            progress: Any = None) -> str:
        """Ready, record, next (or, while a mission is set up, ``next`` with ``enemy`` and/or
        ``level``: the group's choice of threat) or recruit (see :mod:`solo_ops.web.campaign`);
        ``progress(done, most, text)`` hears how the rating of a proposal goes."""
        from solo_ops.web.guard import Refused

        def rated(done: int, most: int, text: str) -> None:
            self.rating = {"done": done, "most": most, "text": text}
            if progress is not None:
                progress(done, most, text)

        with self.lock:
            try:
                if do == "ready":
                    return self._ready(player)
                if do == "record":
                    return self._record()
                if do == "next" and self._phase == SETUP and \
                        ("enemy" in body or "level" in body):
                    return self._choose(body, rated)
                if do == "next" and ("enemy" in body or "level" in body):
                    raise Refused(409, "another threat (enemy, level) is chosen once the next "
                                  "mission is set up and proposed: set it up first")
                if do == "next":
                    return self._next(rated)
                return self._recruit(player, body)
            except InputError as exc:
                raise Refused(400, exc.message) from None
            finally:
                self.rating = None

    def _refuse(self, phase: str, what: str) -> None:
        from solo_ops.web.guard import Refused

        if self.phase != phase:
            raise Refused(409, f"{what} only when the campaign is at '{phase}'; it is at "
                          f"'{self.phase}' now")

    def _ready(self, player: str | None) -> str:
        self._refuse(SETUP, "ready")
        assert self.mission is not None
        needed = set(self.mission.players)
        self.ready |= needed if player is None else {player}
        if not needed <= self.ready:
            waiting = ", ".join(p for p in self.mission.players if p not in self.ready)
            return f"Ready. Waiting for {waiting}."
        self._phase = MISSION
        self.mission.advance()
        return f"Everyone is ready: mission {self.number} begins."

    def _record(self) -> str:
        self._refuse(ENDED, "record the mission")
        assert self.mission is not None
        table = self.mission
        _record_played_mission(self.path, self.name, self.number, self.files, table.game,
                               table.state)
        self.campaign = load_campaign(self.path, self.name)
        self.last = table
        self.open()
        return f"Mission {self.number - 1} is recorded: the survival tests are rolled."

    def _next(self, progress: Any = None, choice: dict[str, Any] | None = None,
              seed: int | None = None) -> str:
        self._refuse(SETUP if choice is not None else REPORT, "set up the next mission")
        from solo_ops.cli.campaign_files import keep_threat
        from solo_ops.cli.maps import draw_view
        from solo_ops.io.scenario import load_scenario
        from solo_ops.session.opening import start_table

        o = {**self.options, **((self.campaign.threat or {}).get("asked") or {})} \
            if choice is not None else self.options
        seed = resolve_seed(o.get("seed") if seed is None else seed)
        _doc, notes, threat = generate_mission(
            self.campaign, self.files, self.number, seed, o.get("board"), o.get("roster"),
            o.get("edition"), o.get("engagement"), progress=progress, choice=choice,
            budget=self.options.get("budget"), path=self.path)
        self.campaign = keep_threat(self.path, self.name, threat)
        scenario = load_scenario(self.files["scenario"])
        table, _moved = start_table(scenario, seed, self.files["save"], self.files["log"],
                                    units=self.units, move_old=False)
        draw_view(table.game, table.state, self.files["setup"])
        self.notes = list(notes)
        self.mission, self._phase, self.ready = table, SETUP, set()
        return f"Mission {self.number} is set up: {scenario.name}."

    def _choose(self, body: dict[str, Any], progress: Any) -> str:
        """The group's choice of threat for the mission set up: the same mission set up again
        with ``enemy`` and/or ``level`` (rated now if the proposal did not rate it)."""
        from solo_ops.cli.campaign_files import discard_unstarted
        from solo_ops.web.guard import Refused

        threat = self.campaign.threat
        if threat is None or threat.get("mission") != self.number:
            raise Refused(409, "this mission's threat was not proposed (the campaign has no "
                          "target win chance): set it up with campaign serve --engagement")
        choice: dict[str, Any] = {"previous": threat}
        if body.get("enemy"):
            choice["enemy"] = str(body["enemy"])
        if body.get("level") is not None:
            choice["level"] = int(body["level"])
        assert self.mission is not None
        seed = self.mission.game.seed
        discard_unstarted(self.files)
        message = self._next(progress, choice, seed)
        assert self.campaign.threat is not None
        from solo_ops.campaign import prediction_line

        return f"{message} {prediction_line(self.campaign.threat)}."

    def _recruit(self, player: str | None, body: dict[str, Any]) -> str:
        self._refuse(REPORT, "recruit")
        from solo_ops.web.guard import Refused

        fallen_id, new_id = body.get("fallen"), body.get("id")
        if not isinstance(fallen_id, str) or not isinstance(new_id, str) or not new_id.strip():
            raise Refused(400, "a recruit needs the fallen model (fallen) and a new id (id)")
        squad = next((s for s in self.campaign.squads if any(m.id == fallen_id
                                                               for m in s.models)), None)
        if squad is None:
            raise Refused(400, f"no model {fallen_id!r} in the campaign")
        if player is not None and squad.player != player:
            raise Refused(403, f"{fallen_id} is in {squad.player}'s squad: only {squad.player} "
                          "(or the host) recruits for it")
        fallen = squad.model(fallen_id)
        name = str(body.get("name") or new_id).strip()
        newcomer = SquadModel(id=new_id.strip(), name=name, profile=dict(fallen.profile))
        self.campaign = change_campaign(self.path, self.name, lambda c: replace_model(
            c, squad.player, fallen_id, newcomer, source="recruit"))
        return f"{name} ({newcomer.id}) joins {squad.name} in place of {fallen.name}."

    # -- what the page shows --------------------------------------------------------------------
    def document(self, who: str) -> dict[str, Any]:
        """The campaign page's document (see :mod:`solo_ops.web.campaign`); while the next
        mission's threat is rated (the desk busy), only that: ``{"phase": "rating", "rating":
        {done, most, text}}``, so that a page opened meanwhile shows the progress at once."""
        while not self.lock.acquire(timeout=0.25):
            rating = self.rating
            if rating is not None:
                return {"campaign": self.name, "phase": "rating", "you": who,
                        "players": self.players, "rating": rating}
        self.lock.release()
        with self.lock:
            c = self.campaign
            mission = self.mission
            doc: dict[str, Any] = {
                "campaign": c.name, "phase": self.phase, "number": self.number,
                "played": c.missions_played, "you": who, "players": self.players,
                "notes": list(self.notes), "squads": squads_doc(c),
                "recruits": [{"player": s.player, "fallen": m.id, "name": m.name}
                             for s in c.squads for m in s.models
                             if m.state == FALLEN and not m.replaced_by],
                "report": last_report(c),
                "calibration": calibration(c.history).to_dict(),
                "chronicle": "chronicle.html" if c.history else None,
            }
            if c.threat is not None and c.threat.get("mission") == self.number:
                doc["threat"] = threat_doc(c.threat)
            if self._phase == REPORT and self.last is not None:
                from solo_ops.web.board import geometry

                # the map of the end's inches: a phone draws it at its own size, scrolled
                doc["end_board"] = geometry(self.last.game, self.last.state)
            if mission is not None and self._phase in (SETUP, MISSION, ENDED):
                game = mission.game
                doc["title"] = mission_title(c.name, self.number, game.scenario.name)
                from solo_ops.web.board import geometry

                doc["board"] = geometry(game, mission.state)  # the set-up picture's inches
                doc["mission"] = {"name": game.scenario.name, "edition": game.edition,
                                  "players": mission.players,
                                  "briefing": mission.briefing(),
                                  "ready": {p: p in self.ready for p in mission.players},
                                  "result": mission.state.result}
            return doc

    def chronicle(self) -> str:
        """The campaign's chronicle as one HTML page (``campaign chronicle``'s)."""
        from solo_ops.cli.campaign_chronicle import chronicle_html

        with self.lock:
            return chronicle_html(self.path, self.campaign)

    def picture(self, what: str, phone: bool = False) -> str | None:
        """The set-up picture of the mission being set up, or the map of the last one's end;
        ``phone``: with the phone's label set, every model and door labelled."""
        from solo_ops.view import board_view, drawing
        from solo_ops.view.player import player_record, player_view

        with self.lock:
            table = self.mission if what == "setup" and self._phase == SETUP else \
                self.last if what == "end" else None
            if table is None:
                return None
            game, state = table.game, table.state
            view = player_view(game, state)
            records = [player_record(r) for r in state.log]
            focus = None
            if phone:
                ids = [o["id"] for ops in view["squads"].values() for o in ops]
                focus = board_view.Focus(frozenset(ids + [o["id"] for o in view["enemies"]]),
                                         None)
            return drawing.svg_text(board_view.board_scene(game, state, view, records,
                                                           phone=focus))


def mission_title(campaign: str, number: int, name: str) -> str:
    """The campaign page's title for mission ``number`` called ``name``, each said once: a
    mission named after the campaign (``Duo: mission 1``, as ``campaign play`` names them) is
    ``Duo — mission 1``."""
    if name.casefold() in (f"{campaign}: mission {number}".casefold(), campaign.casefold()):
        return f"{campaign} — mission {number}"
    if name.casefold().startswith(campaign.casefold()):
        return name
    return f"{campaign} — mission {number}: {name}"


def squads_doc(c: Campaign) -> list[dict[str, Any]]:
    """The squads page: every model's state (and what it means for the next mission: the
    wounds it starts with, a mission it misses), wounds, injuries and missions played."""
    from solo_ops.campaign.chronicle import model_record, state_words

    return [{"player": s.player, "name": s.name, "models": [
        {"id": m.id, "name": m.name, "state": m.state, "missions": m.missions,
         "wounds": m.profile.get("wounds"), "injuries": [i["note"] for i in m.injuries],
         "starts_with": starts_with(m),
         "unhealed": m.unhealed_wounds, "condition": state_words(m),
         "record": model_record(c, m),
         "replaces": m.replaces, "replaced_by": m.replaced_by} for m in s.models]}
        for s in c.squads]


def starts_with(model: SquadModel) -> int | None:
    """The wounds ``model`` starts its next mission with when it starts hurt (else None)."""
    lost, most = model.starting_wounds_lost(), model.profile.get("wounds")
    return max(1, most - lost) if lost and isinstance(most, int) else None


def threat_doc(threat: dict[str, Any]) -> dict[str, Any]:
    """The next mission's threat for the page: what is played with its prediction and
    interval, the proposal, the enemies and levels the group may choose instead (with the
    win rates rated for them)."""
    from solo_ops.campaign import prediction_line
    from solo_ops.io import library

    enemies = [s.name for s in library.shipped("roster")]
    if threat["enemy"] not in enemies:
        enemies.append(threat["enemy"])
    return {"target": threat["target"], "enemy": threat["enemy"], "level": threat["level"],
            "by": threat["by"], "predicted": threat.get("predicted"),
            "proposed": threat.get("proposed"), "line": prediction_line(threat),
            "enemies": enemies, "levels": [1, 2, 3, 4, 5, 6],
            "rated": threat.get("rated", [])}


def _ended_table(files: dict[str, Path]) -> GameTable | None:
    """The last mission's table as its save left it, for the report's map of the end; None
    when it cannot be read (the report is shown without its map)."""
    from solo_ops.session.opening import open_save

    if not files["save"].exists():
        return None
    try:
        table, _doc = open_save(files["save"], files["log"])
    except (InputError, OSError):
        return None
    return table if table.state.ended else None


def last_report(c: Campaign) -> dict[str, Any] | None:
    """The after-action report of the last mission recorded: its lines and survival tests."""
    for entry in reversed(c.history):
        if "survival_tests" in entry or entry.get("event") in (None, "mission"):
            if "report" not in entry:
                continue
            lines = [line.replace("with `solo-ops campaign replace`", "under Recruits below")
                     for line in entry.get("report", [])]  # (the page's own recruit form)
            return {"mission": entry.get("mission"), "lines": lines,
                    "tests": list(entry.get("survival_tests", []))}
    return None


@click.command("serve")
@click.argument("name")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to serve on: 127.0.0.1 is this computer only; 0.0.0.0 the local "
                   "network (players then need the links printed at start).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port to serve on (0: any free port).")
@click.option("--board", default=None, help="Next missions' board (default: rolled).")
@click.option("--roster", default=None, help="Next missions' roster (default: rolled).")
@click.option("--edition", type=click.Choice(["kt2024", "kt2018"]), default=None)
@click.option("--engagement", type=click.IntRange(1, 6), default=None,
              help="Engagement level 1-6 (default: D3+1).")
@click.option("--units", "units", type=click.Choice(["in", "cm"]), default=None,
              help="Show and read distances in inches or centimetres.")
@click.option("--new-link", "new_links", multiple=True, metavar="NAME",
              help="Re-issue NAME's link (a player, or host): the old one stops working.")
@rate_missions_option
@seed_option
@saves_option
def campaign_serve(name: str, host: str, port: int, board: str | None, roster: str | None,
                   edition: str | None, engagement: int | None, units: str | None,
                   new_links: tuple[str, ...], rate_missions: int | None, seed: int | None,
                   saves: Path | None) -> None:
    """Serve the campaign as a live web page: every mission and everything between them."""
    from solo_ops.cli.serve import (
        _bind,
        base_url,
        echo_links,
        quiet_stops,
        run_server,
        served_names,
    )
    from solo_ops.web.app import create_app, is_loopback
    from solo_ops.web.campaign import ROUTES

    path = campaign_path(name, saves)
    desk = Desk(path, name, {"board": board, "roster": roster, "edition": edition,
                             "engagement": engagement, "units": units, "seed": seed,
                             "budget": rate_missions})
    sock = _bind(host, port)  # before anything is written: a busy port changes nothing
    with contextlib.closing(sock), contextlib.closing(desk):
        quiet_stops()
        desk.ensure_links(new_links)
        desk.open()
        for note in desk.notes:
            click.echo(note)
        base = base_url(host, sock.getsockname()[1])
        app = create_app(None, local_only=is_loopback(host), hosts=served_names(host),
                         desk=desk, extra=ROUTES, base=base, port=sock.getsockname()[1])
        assert desk.links is not None
        click.echo(f"Serving {name} on {base}")
        echo_links(base, desk.players, desk.links)
        state = "not set up yet" if desk.phase == REPORT else f"at '{desk.phase}'"
        click.echo(f"Mission {desk.number} is {state}; the campaign is saved to {path} after "
                   f"every step. Stop with Ctrl+C and go on with `solo-ops campaign serve "
                   f"{name}` or `solo-ops campaign play {name}`.")
        run_server(app, sock)

