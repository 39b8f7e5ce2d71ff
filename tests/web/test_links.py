"""The table view's links and answers (issue #30): a link per player that outlives the server,
one answer per step (a double tap changes nothing), each player answering only as themself,
and a tap preview that asks the engine the question the answer will."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.opening import load_save_doc
from solo_ops.io.scenario import load_scenario, parse_scenario, scenario_document
from solo_ops.session.opening import sync_log
from solo_ops.session.table import GameTable
from solo_ops.web.app import create_app
from tests.support.api import SAVE_NAME, ApiClient, make_table, post
from tests.support.browser import api_get
from tests.support.paths import FIXTURES, SCENARIOS
from tests.support.players import cli_here
from tests.support.small_table import TROOPER

LAN = "http://192.168.1.20:8765"
REROLL_SEED = 51
"""The shipped co-op example's seed whose first question is Ana's CP re-roll of a defence die
(die 1 failed), then another shot's (by the keyed dice, the Volkus doors as terrain)."""


def lan_app(table: GameTable) -> ApiClient:
    """The table served beyond this computer (every request needs a link's token)."""
    table.ensure_links()
    return ApiClient(create_app(table, local_only=False, hosts=["192.168.1.20"]), LAN)


def token(table: GameTable, name: str) -> dict[str, str]:
    links = table.game.links
    assert links is not None
    value = links["host"] if name == "host" else links["players"][name]
    return {"x-solo-ops-token": value}


@pytest.fixture
def table(tmp_path: Path) -> GameTable:
    return make_table(tmp_path)


# -- a link per player ------------------------------------------------------------------------
def test_a_players_link_answers_as_that_player_only_and_the_hosts_for_anyone(
        table: GameTable) -> None:
    with lan_app(table) as c:
        before = table.save.read_bytes()
        # Ben's link cannot answer (or look) as Ana, even on Ana's turn
        as_ana = post(c, "Ana", "kell", headers=token(table, "Ben"))
        assert as_ana.status_code == 403
        assert as_ana.json()["message"] == ("this link is Ben's: it shows the game and answers "
                                            "as Ben only")
        assert c.get("/api/view", params={"player": "Ana"},
                     headers=token(table, "Ben")).status_code == 403
        assert table.save.read_bytes() == before and len(table.state.log) == 3
        # as himself, Ben is told whose turn it is; Ana's own link answers
        assert post(c, "Ben", "kell", headers=token(table, "Ben")).status_code == 409
        assert post(c, "Ana", "kell", headers=token(table, "Ana")).json()["ok"]
        # the host's link answers for whoever is asked (no player named: one device)
        host = post(c, None, "done", headers=token(table, "host"))
        assert host.status_code == 200 and host.json()["ok"], host.json()
        assert pending(table.game, table.state).player == "Ben"
        assert post(c, None, "corvin", headers=token(table, "host")).json()["ok"]
        who = c.get("/api/players", headers=token(table, "Ana")).json()
        assert who == {"players": ["Ana", "Ben"], "you": "Ana", "campaign": False,
                       "playing": True}
        view = c.get("/api/view", headers=token(table, "host")).json()
        assert view["your_turn"] is True and view["player"] is None
        assert view["game"] == table.game.links["id"]  # type: ignore[index]


def test_links_are_kept_in_the_save_and_outlive_a_restart_and_the_terminal(
        table: GameTable, tmp_path: Path) -> None:
    assert table.ensure_links() is True and table.ensure_links() is False
    links = table.game.links
    assert links is not None and set(links["players"]) == {"Ana", "Ben"}
    assert len({links["host"], *links["players"].values()}) == 3  # three different tokens
    saved = json.loads(table.save.read_text())
    assert saved["schema_version"] == 6 and saved["links"] == links
    assert "links" not in json.loads(table.log.read_text().splitlines()[0])  # never in the log
    # the terminal plays a step and an undo on the save: the links stay
    folder = table.save.parent.parent
    run = cli_here("play", "--resume", str(table.save), "--answer", "kell", "--answer", "done",
                   "--answer", "undo", cwd=folder)  # in this process: the save is under test
    assert run.returncode == 0, run.stderr
    doc, game, _state = load_save_doc(table.save)
    assert doc["links"] == links and game.links == links
    # a restarted server (a new app over the reopened save) takes the old links
    again = GameTable(game, _state, table.save, table.log)
    with lan_app(again) as c:
        assert post(c, "Ana", "kell", headers=token(table, "Ana")).json()["ok"] is False  # done
        assert c.get("/api/view", params={"player": "Ana"},
                     headers={"x-solo-ops-token": links["players"]["Ana"]}).status_code == 200
    # re-issuing Ben's link changes Ben's token only, and the old one stops working
    again.reissue_link("Ben")
    new = again.game.links
    assert new is not None and new["players"]["Ben"] != links["players"]["Ben"]
    assert new["players"]["Ana"] == links["players"]["Ana"] and new["host"] == links["host"]
    assert json.loads(again.save.read_text())["links"] == new
    with lan_app(again) as c:
        old = c.get("/api/view", params={"player": "Ben"},
                    headers={"x-solo-ops-token": links["players"]["Ben"]})
        assert old.status_code == 403 and "no longer" in old.json()["message"]


def test_serve_prints_the_saved_links_and_new_link_reissues_one(tmp_path: Path) -> None:
    """``serve`` prints one link per player and the host's, the same at every start; the
    bad name of ``--new-link`` is one line and changes nothing."""
    scenario = SCENARIOS / "volkus-stronghold-supplement-example.yaml"

    def serve(*extra: str) -> dict[str, str]:
        proc = subprocess.Popen([sys.executable, "-m", "solo_ops", "serve", str(scenario),
                                 "--port", "0", *extra], cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        found: dict[str, str] = {}
        try:
            for line in proc.stdout:
                if line.startswith("  ") and ": http" in line:
                    name, url = line.strip().split(": ", 1)
                    found[name] = url  # the port (0: any free one) changes at every start
                if line.startswith("The game is saved"):
                    break
            else:
                raise AssertionError(proc.stderr.read())  # type: ignore[union-attr]
            view = api_get(found["Ana"].replace("/?", "/api/view?"))
            assert view.status_code == 200 and view.json()["player"] == "Ana"
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        return {name: url.split("/?", 1)[1] for name, url in found.items()}

    first = serve()
    assert set(first) == {"Ana", "Ben", "host"} and "token=" in first["Ben"]
    reissued = serve("--new-link", "Ben")
    assert reissued["Ben"] != first["Ben"]  # and the others' are as they were saved
    assert {k: v for k, v in reissued.items() if k != "Ben"} == {
        k: v for k, v in first.items() if k != "Ben"}
    # the refusal, before any server starts: the command run in this process
    bad = cli_here("serve", str(scenario), "--port", "0", "--new-link", "Zed", cwd=tmp_path)
    assert bad.returncode == 2 and "no player 'Zed' in this game" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_schema_3_save_is_migrated_and_gets_its_links_when_served(tmp_path: Path) -> None:
    fixture = FIXTURES / "saves"
    for name in ("v3-night-raid-11.json", "v3-night-raid-11.log.jsonl"):
        (tmp_path / name).write_bytes((fixture / name).read_bytes())
    save = tmp_path / "v3-night-raid-11.json"
    doc, game, state = load_save_doc(save)
    assert doc["links"] is None and game.links is None
    table = GameTable(game, state, save, tmp_path / "v3-night-raid-11.log.jsonl")
    sync_log(table, doc)  # as `serve` opens a saved game: the log checked, its chain taken up
    assert table.ensure_links()
    after = json.loads(save.read_text())
    assert after["schema_version"] == 6 and after["links"] == game.links
    assert (after["actions"], after["base"]) == (doc["actions"], doc["base"])  # the same game
    log_lines = (tmp_path / "v3-night-raid-11.log.jsonl").read_bytes().splitlines()
    assert len(after["chain"]["lines"]) == len(log_lines)  # the schema 6 save proves its log


# -- one answer per step ----------------------------------------------------------------------
def _tapped_game(folder: Path, taps: int) -> tuple[GameTable, list[int]]:
    """The supplement's co-op example (:data:`REROLL_SEED`: the enemy shoots first and Ana may
    re-roll),
    played through the API by a page tapping every button ``taps`` times: the first re-roll
    offered, then "keep", Ana's "kell" and "done", "keep" again until Ben is asked, then Ana's
    "undo" (of her "done", after which the enemy rolled: ``undo: any`` lets it be taken back).
    Returns the table and the status of every reply."""
    path = SCENARIOS / "volkus-stronghold-supplement-example.yaml"
    doc = scenario_document(path)
    doc["settings"] = {**(doc.get("settings") or {}), "undo": "any"}
    game, state = new_game(parse_scenario(doc, str(path)), REROLL_SEED)
    save = folder / "saves" / SAVE_NAME
    table = GameTable(game, state, save, save.with_suffix(".log.jsonl"))
    table.start()
    table.advance()
    statuses: list[int] = []

    def tap(answer: str, player: str | None = None) -> None:
        asked = table.prompt_doc()
        body = {"player": player or asked["player"], "answer": answer, "step": asked["step"]}
        for _ in range(taps):
            statuses.append(c.post("/api/answer", json=body).status_code)

    with ApiClient(create_app(table), "http://127.0.0.1:8765") as c:
        first = table.prompt_doc()
        assert first["kind"] == "reroll", first  # the enemy shot first: Ana may re-roll
        tap(next(o for o in first["options"] if o.startswith("reroll")))
        while table.prompt_doc()["kind"] == "reroll":
            tap("keep")
        tap("kell")
        tap("done")
        while table.prompt_doc()["player"] != "Ben":
            tap("keep")
        tap("undo", "Ana")
    return table, statuses


def test_a_double_tap_answers_once(tmp_path: Path) -> None:
    """Every answer a page sends names its step: the second of two taps finds its question
    answered (409 "already answered") and changes nothing — not the next re-roll question,
    not a second Command Point, not a second undo: the game is the one single taps play."""
    once, statuses = _tapped_game(tmp_path / "once", 1)
    assert set(statuses) == {200}
    twice, doubled = _tapped_game(tmp_path / "twice", 2)
    assert doubled == [s for status in statuses for s in (status, 409)]
    assert json.loads(twice.save.read_text())["actions"] == json.loads(
        once.save.read_text())["actions"]
    assert twice.state.cp == once.state.cp
    assert [a["type"] for a in json.loads(twice.save.read_text())["actions"]].count(
        "reroll") >= 2
    with ApiClient(create_app(twice), "http://127.0.0.1:8765") as c:
        stale = c.post("/api/answer", json={"player": "Ben", "answer": "corvin", "step": 4})
        assert stale.status_code == 409 and stale.json()["message"] == (
            f"already answered: that question (step 4) has been answered; the game is at step "
            f"{len(twice.state.log)} now")
        # without a step (a script, the terminal's way) an answer is for whatever is asked
        asked = twice.prompt_doc()
        answer = "done" if asked["kind"] == "act" else asked["options"][-1]
        assert post(c, asked["player"], answer).json()["ok"]


# -- the preview asks the engine --------------------------------------------------------------
def _held_table(folder: Path) -> GameTable:
    """A small co-op table of its own (no seeded course: the initiative is scripted, no hidden
    counters): Ben's Scout Idris at (9, 10) stands 0.52" from cultist-5 at (10.5, 10) (25 mm
    bases, 1.5" apart centre to centre, nothing between), in its control range; Ana's Sgt Kell
    far off at (2, 2). The players take the initiative and Ben is asked first."""
    doc = {"name": "held", "edition": "kt2024",
           "board": {"name": "open", "width": 30, "depth": 22},
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 1, "seed": 1,
           "squads": [{"player": "Ben", "models": [{"id": "idris", "name": "Scout Idris",
                                                    "profile": copy.deepcopy(TROOPER),
                                                    "at": [9, 10]}]},
                      {"player": "Ana", "models": [{"id": "kell", "name": "Sgt Kell",
                                                    "profile": copy.deepcopy(TROOPER),
                                                    "at": [2, 2]}]}],
           "enemies": [{"id": "u1", "command": 5, "models": [
               {"id": "cultist-5", "profile": "trooper", "at": [10.5, 10]}]}],
           "settings": {"cp_rerolls": "never"}}
    game, state = new_game(parse_scenario(doc, "held.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=[6, 1] * 20)  # the players take the initiative
    step(game, state, {"type": "engine"})
    return GameTable(game, state, folder / "held.json", folder / "held.log.jsonl")


def test_in_an_enemys_control_range_only_fall_back_and_fight_are_offered(
        tmp_path: Path) -> None:
    """Idris starts within 1" of cultist-5 (0.52" between the bases): the page is told that a
    reposition, dash, charge or shot cannot start there (the engine's own refusals), and a tap
    offers only the fall back; "move" to the same point is what the engine would refuse. 001
    Reposition "cannot perform this action while in Control Range of an enemy"; Fall Back "the
    Operative can move within Control Range of an enemy Operative but cannot finish in Control
    Range"."""
    table = _held_table(tmp_path)
    with ApiClient(create_app(table), "http://127.0.0.1:8765") as c:
        assert post(c, "Ben", "idris").json()["ok"]
        view = c.get("/api/view", params={"player": "Ben"}).json()
        assert view["prompt"]["text"] == "Ben: what did Scout Idris do?"
        control = "Scout Idris is in control range of cultist-5: it can only fall back or fight"
        assert view["open"] == {
            "move": control, "dash": control, "fallback": None, "fight": None,
            "charge": "Scout Idris is in control range of cultist-5: it cannot charge (Charge "
                      "is a Reposition, which cannot start there)",
            "shoot": "Scout Idris has a Conceal order: it cannot shoot (unless Silent)",
            "carry": "no downed friend lies on the table",
            "evacuate": "Scout Idris is not carrying anyone"}
        assert c.get("/api/view", params={"player": "Ana"}).json()["open"] == {}
        # 3" straight back west, 3.5" from cultist-5 (4.5" centre to centre less the bases)
        tap = c.get("/api/place", params={"player": "Ben", "x": 6.0, "y": 10.0,
                                          "how": "move"}).json()
        assert [(ch["how"], ch["ok"]) for ch in tap["choices"]] == [
            ("move", False), ("dash", False), ("charge", False), ("fallback", True)]
        assert tap["choices"][0]["why"] == control
        assert tap["answer"] == "fallback 6,10" and tap["within"] is True
        assert tap["text"] == ('idris to (6.0, 10.0): 3.0" away; it can fall back 6.0" — '
                               'within the move')
        refused = post(c, "Ben", tap["choices"][0]["answer"]).json()
        assert refused == {"ok": False, "message": control, "prompt": table.prompt_doc()}
        made = post(c, "Ben", tap["answer"]).json()
        assert made["ok"], made
        moved = next(e for e in made["records"][0]["events"] if e["type"] == "moved")
        assert moved["how"] == "fall_back" and moved["to"] == [6.0, 10.0]
        assert moved["cost"] == 3.0 == tap["distance"]


def test_the_cp_shown_during_a_reroll_chain_is_what_is_left(tmp_path: Path) -> None:
    """A step paused for a CP re-roll runs again from its start after the answer, so the
    state's CP wait for its end; the players see what their answers so far have left."""
    game, state = new_game(load_scenario(SCENARIOS / "volkus-stronghold-supplement-example."
                                         "yaml"), REROLL_SEED)
    save = tmp_path / "saves" / SAVE_NAME
    table = GameTable(game, state, save, save.with_suffix(".log.jsonl"))
    table.start()
    table.advance()
    with ApiClient(create_app(table), "http://127.0.0.1:8765") as c:
        assert table.prompt_doc()["options"] == ["reroll 1", "keep"]  # die 1 failed
        assert c.get("/api/view").json()["score"]["cp"]["player"] == 4
        assert post(c, "Ana", "reroll 1").json()["ok"]
        assert table.prompt_doc()["kind"] == "reroll"  # the next shot's question
        assert table.state.cp["player"] == 4  # the step has not run to its end
        assert c.get("/api/view").json()["score"]["cp"]["player"] == 3
        assert "· CP you 3 / solo-ops 3</title>" in c.get("/board.svg").text  # 001: 3 with the
        # initiative, 4 without (the players had 4)
