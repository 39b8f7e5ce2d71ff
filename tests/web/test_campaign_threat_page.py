"""The campaign page's part of the threat and the consequences (``campaign serve``): the next
mission proposed with its interval while every page hears the rating's progress, the group's
choice of another level or enemy (the same mission set up again), the squads' cards with a
model hurt — which the mission then starts with fewer wounds — and the chronicle it links. The
rating's missions are fixed results (tests/support/proposals.py): the page is tested, not the
simulation."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from solo_ops.campaign import MissionResult, ModelOutcome, record_mission
from solo_ops.cli import main
from solo_ops.cli.campaign_files import campaign_path, change_campaign
from solo_ops.cli.campaign_serve import Desk
from solo_ops.core.dice import ScriptedDice
from solo_ops.web.app import create_app
from solo_ops.web.campaign import ROUTES
from tests.support.api import ApiClient
from tests.support.paths import SCENARIOS
from tests.support.proposals import fake_missions

RATES = {1: 0.875, 2: 0.625, 3: 0.5, 4: 0.375, 5: 0.25, 6: 0.125}


def hurt_campaign(folder: Path) -> Path:
    """Ana's squad, target 50%, after a mission in which Sgt Kell (8 wounds) lost 3 and failed
    his survival test (a 6): he carries 3 wounds into the next mission."""
    saves = folder / "saves"
    made = CliRunner().invoke(main, ["campaign", "new", "Vesper", "--squad",
                                     str(SCENARIOS / "squads" / "vesper.yaml"), "--saves",
                                     str(saves)])
    assert made.exit_code == 0, made.output
    change_campaign(campaign_path("Vesper", saves), "Vesper", lambda c: record_mission(
        c, MissionResult(models=(ModelOutcome("kell", wounds_lost=3),), outcome="loss"),
        ScriptedDice(faces=[6])))
    return saves


def test_the_page_proposes_lets_the_group_choose_and_starts_kell_hurt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []  # what a page opened while the rating runs is sent

    def page_opened_meanwhile() -> None:
        if desk.rating is None:  # no progress heard yet: such a page waits for the desk
            return
        asked = threading.Thread(target=lambda: seen.append(desk.document("Ben")))
        asked.start()
        asked.join(timeout=30)

    batches = fake_missions(monkeypatch, lambda enemy, level: RATES[level],
                            during=page_opened_meanwhile)
    saves = hurt_campaign(tmp_path)
    desk = Desk(campaign_path("Vesper", saves), "Vesper",
                {"seed": 7, "board": "gallowdark-corridors"})
    desk.ensure_links()
    desk.open()
    app = create_app(None, desk=desk, extra=ROUTES, local_only=True, hosts=["127.0.0.1"])
    stream = app.app.state.hub.subscribe()
    try:
        with ApiClient(app, "http://127.0.0.1:8765") as c:
            before = c.get("/api/campaign").json()
            kell = before["squads"][0]["models"][0]
            assert (kell["state"], kell["starts_with"], kell["wounds"]) == ("injured", 5, 8)
            assert kell["condition"] == "injured: starts the next mission with 5 of 8 wounds"
            assert before["chronicle"] == "chronicle.html"
            # another threat is chosen once the mission is proposed, never silently dropped
            early = c.post("/api/campaign", json={"do": "next", "level": 1, "enemy": "x"})
            assert early.status_code == 409 and "set it up first" in early.json()["message"]
            # set up mission 2: proposed from level 3 (50% exactly: kept, measured to 64)
            setup = c.post("/api/campaign", json={"do": "next"}).json()
            assert setup["phase"] == "setup"
            threat = setup["threat"]
            assert (threat["level"], threat["by"], threat["target"]) == (3, "proposal", 0.5)
            assert threat["predicted"]["win_rate"] == 0.5
            lo, hi = threat["predicted"]["interval"]
            assert 0.3 < lo < 0.5 < hi < 0.7 and threat["predicted"]["missions"] == 64
            assert threat["line"].endswith(
                f"at level 3: you win 50% (95% interval {100 * lo:.0f}-{100 * hi:.0f}%, rated "
                "on 64 simulated missions); target 50%")
            rating = [json.loads(line) for _id, lines in _drain(stream) for line in lines
                      if '"rating"' in line]
            assert rating and rating[-1]["done"] == 64 and rating[-1]["most"] == 64
            # the first batch (12 missions) done, a page opened during the second is told so
            # (the intervals so far come with the next batch's missions)
            assert seen[0] == {"campaign": "Vesper", "phase": "rating", "you": "Ben",
                               "players": ["Ana"], "rating": {"done": 12, "most": 64,
                                                              "text": ""}}
            board = setup["mission"]["name"]
            # the group plays level 2 instead: the same mission (board, seed), rated now
            chosen = c.post("/api/campaign", json={"do": "next", "level": 2}).json()
            assert chosen["threat"]["level"] == 2 and chosen["threat"]["by"] == "group"
            assert chosen["threat"]["predicted"]["win_rate"] == 0.625
            assert chosen["mission"]["name"] == board
            assert [b[1:] for b in batches[-1:]] == [(2, 16)]  # its last look: 48 to 64
            # and back to the proposal: rated already, nothing played
            played = len(batches)
            back = c.post("/api/campaign", json={"do": "next", "level": 3}).json()
            assert back["threat"]["by"] == "proposal" and len(batches) == played
            bad = c.post("/api/campaign", json={"do": "next", "level": 9})
            assert bad.status_code == 400 and "1 to 6" in bad.json()["message"]
            # ready: the mission starts with Kell at 5 of his 8 wounds, on the board and in
            # the deployment's words; Rask whole
            c.post("/api/campaign", json={"do": "ready"})
            view = c.get("/api/view", params={"player": "Ana"}).json()
            told = " ".join(line for n in view["narration"] for line in n["lines"])
            assert "kell" in told and "(hurt: 5/8 wounds)" in told and "rask (" in told
            svg = c.get("/board.svg", params={"player": "Ana"}).text
            assert ">kell 5/8<" in svg and ">rask<" in svg
            page = c.get("/api/campaign/chronicle.html")
            assert page.status_code == 200 and "The chronicle of Vesper" in page.text
    finally:
        desk.close()


def _drain(stream: Any) -> list[tuple[Any, list[str]]]:
    out = []
    while not stream.empty():
        out.append(stream.get_nowait())
    return out
