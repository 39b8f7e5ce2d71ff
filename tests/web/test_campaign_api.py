"""A campaign at the table (``campaign serve``, issue #30), through its API in process: set-up
and ready buttons, the mission, the survival tests, the report, recruits, the next mission —
with each player's link acting for that player only — and the terminal's ``campaign play``
taking over mid-way and handing back, on the same files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solo_ops.campaign import SCHEMA_VERSION
from solo_ops.cli.campaign_serve import Desk
from solo_ops.core.seal import problem as seal_problem
from solo_ops.web.app import create_app
from solo_ops.web.campaign import ROUTES
from tests.support.api import ApiClient
from tests.support.campaign_desk import do, key, lan, new_campaign, open_desk
from tests.support.players import cli_here


def everyone_down(c: ApiClient, desk: Desk) -> int:
    """Play the mission out from the host's link: every operative activated reports itself
    down (the quickest end: the squads wiped out, everyone tested); the answers given."""
    n = 0
    while (p := c.get("/api/view", params={"since": 10**6},
                      headers=key(desk, "host")).json()["prompt"])["kind"] != "ended":
        answer = {"activate": p["options"][0] if p["options"] else "done",
                  "act": f"down {p['operative']}", "reroll": "keep", "counteract": "pass",
                  "reaction": "no"}.get(p["kind"], "done")
        reply = c.post("/api/answer", json={"answer": answer, "step": p["step"]},
                       headers=key(desk, "host")).json()
        assert reply["ok"], (p, reply)
        n += 1
        assert n < 100
    return n


def test_a_campaign_mission_from_ready_to_the_report_and_the_next(tmp_path: Path) -> None:
    saves = new_campaign(tmp_path)
    desk = open_desk(saves)
    try:
        with lan(desk) as c:
            first = c.get("/api/campaign", headers=key(desk, "Ana")).json()
            assert first["phase"] == "report" and first["number"] == 1 and first["you"] == "Ana"
            assert c.get("/api/view", headers=key(desk, "Ana")).status_code == 409
            assert do(c, desk, "Ben", {"do": "next"}).json()["phase"] == "setup"
            setup = c.get("/api/campaign", headers=key(desk, "Ben")).json()
            assert setup["mission"]["ready"] == {"Ana": False, "Ben": False}
            assert setup["mission"]["name"] == "Vesper: mission 1" and setup["mission"]["briefing"]
            picture = c.get("/api/campaign/picture.svg", params={"what": "setup"},
                            headers=key(desk, "Ben"))
            assert picture.status_code == 200 and b'class="base player' in picture.content
            # Ben's link readies Ben only; Ana readies herself, and the mission begins
            refused = do(c, desk, "Ben", {"do": "ready", "player": "Ana"})
            assert refused.status_code == 403
            assert do(c, desk, "Ben", {"do": "ready"}).json()["message"] == \
                "Ready. Waiting for Ana."
            began = do(c, desk, "Ana", {"do": "ready"}).json()
            assert began["message"] == "Everyone is ready: mission 1 begins."
            assert began["phase"] == "mission"
            assert do(c, desk, "Ana", {"do": "record"}).status_code == 409  # not over yet
            assert everyone_down(c, desk) >= 7
            assert c.get("/api/campaign", headers=key(desk, "Ana")).json()["phase"] == "ended"
            done = do(c, desk, "Ben", {"do": "record"}).json()
            assert done["phase"] == "report" and done["played"] == 1 and done["number"] == 2
            report = done["report"]
            assert report["mission"] == 1 and report["lines"][0].startswith("Mission 1: ")
            assert {t["model"] for t in report["tests"]} == {
                "kell", "rask", "vale", "oro", "corvin", "idris", "tam"}
            assert all(t["went_down"] and 1 <= t["roll"] <= 6 for t in report["tests"])
            assert c.get("/api/campaign/picture.svg", params={"what": "end"},
                         headers=key(desk, "Ana")).status_code == 200
            # the map of the end in its inches (a phone draws it at its own size) and the
            # report's way to a recruit is the page's own form, not a terminal command
            assert set(done["end_board"]) >= {"origin", "scale", "width", "depth"}
            said = " ".join(report["lines"])
            assert "solo-ops campaign replace" not in said
            assert "replace them under Recruits below" in said or \
                "replace it under Recruits below" in said
            # the squads page: every model's state and missions played
            ana = next(s for s in done["squads"] if s["player"] == "Ana")
            assert all(m["missions"] == 1 for m in ana["models"])
            fallen = [m["id"] for s in done["squads"] for m in s["models"]
                      if m["state"] == "fallen"]
            assert [r["fallen"] for r in done["recruits"]] == fallen
            assert fallen, "seed 7: some fail their survival test"
            # a recruit in place of the first fallen, by its own player only
            owner = next(r["player"] for r in done["recruits"])
            other = "Ben" if owner == "Ana" else "Ana"
            body = {"do": "recruit", "fallen": fallen[0], "id": "rookie-1", "name": "Rookie"}
            assert do(c, desk, other, body).status_code == 403
            joined = do(c, desk, owner, body).json()
            assert joined["message"].startswith("Rookie (rookie-1) joins")
            assert joined["recruits"] == [r for r in done["recruits"]
                                          if r["fallen"] != fallen[0]]
    finally:
        desk.close()
    again = open_desk(saves)  # the server started again between missions: the report's map
    try:                      # of the end is drawn from mission 1's save
        with lan(again) as c:
            shown = c.get("/api/campaign", headers=key(again, "Ana")).json()
            assert shown["phase"] == "report" and "end_board" in shown
            assert c.get("/api/campaign/picture.svg", params={"what": "end"},
                         headers=key(again, "Ana")).status_code == 200
    finally:
        again.close()
    # the terminal goes on with the campaign the page played: mission 2, set up from scratch
    shown = cli_here("campaign", "show", "Vesper", "--saves", str(saves), "--json",
                     cwd=tmp_path)  # in this process: the campaign file is under test
    assert shown.returncode == 0 and json.loads(shown.stdout)["missions_played"] == 1


def test_the_page_and_the_terminal_take_turns_on_a_mission(tmp_path: Path) -> None:
    """Ready and two steps on the page; the server stops; the terminal plays on; the page
    opens the mission where the terminal left it, with the same links."""
    saves = new_campaign(tmp_path)
    desk = open_desk(saves)
    with ApiClient(create_app(None, desk=desk, extra=ROUTES), "http://127.0.0.1:8765") as c:
        c.post("/api/campaign", json={"do": "next"})
        assert c.post("/api/campaign", json={"do": "ready"}).json()["phase"] == "mission"
        links = desk.links
        p = c.get("/api/view").json()["prompt"]
        assert p["kind"] == "activate"
        assert c.post("/api/answer", json={"answer": p["options"][0], "step": p["step"]}
                      ).json()["ok"]
        steps = c.get("/api/view").json()["steps"]
    desk.close()
    save = saves / "Vesper-missions" / "mission-1.save.json"
    played = json.loads(save.read_text())["actions"]
    terminal = cli_here("campaign", "play", "Vesper", "--saves", str(saves), "--answer", "done",
                        "--answer", "quit", cwd=tmp_path)  # the terminal, in this process
    assert terminal.returncode == 0, terminal.stderr
    assert "going on with mission 1" in terminal.stdout
    after = json.loads(save.read_text())["actions"]
    assert after[:len(played)] == played and len(after) > len(played)
    again = open_desk(saves)
    try:
        assert again.phase == "mission" and again.links == links
        with ApiClient(create_app(None, desk=again, extra=ROUTES),
                       "http://127.0.0.1:8765") as c:
            view = c.get("/api/view").json()
            assert view["steps"] > steps
            assert [r["action"] for r in view["records"][1:]] == after
    finally:
        again.close()


def test_a_schema_1_campaign_is_migrated_and_keeps_its_links(tmp_path: Path) -> None:
    saves = new_campaign(tmp_path)
    path = saves / "Vesper.json"
    doc = json.loads(path.read_text())
    doc["schema_version"] = 1
    del doc["links"], doc["seal"]  # schema 1 had neither
    path.write_text(json.dumps(doc))
    desk = open_desk(saves)
    desk.close()
    saved = json.loads(path.read_text())
    assert saved["schema_version"] == SCHEMA_VERSION and saved["links"] == desk.links
    assert seal_problem(saved) is None  # sealed on its first load
    assert set(saved["links"]["players"]) == {"Ana", "Ben"}
    again = Desk(path, "Vesper", {})
    again.ensure_links(("Ben",))
    assert again.links is not None and again.links["players"]["Ana"] == \
        saved["links"]["players"]["Ana"]
    assert again.links["players"]["Ben"] != saved["links"]["players"]["Ben"]
    with pytest.raises(Exception, match="no player 'Zed' in campaign 'Vesper'"):
        again.ensure_links(("Zed",))
