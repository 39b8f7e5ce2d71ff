"""The host's join links (``GET /api/join``: each player's link with its QR code, the host
only), the set-up measured from the table's edges (``GET /api/setup``), the printable sheet
(``GET /setup-sheet.png``) — for a served game and for a campaign's mission while it is set up —
and the campaign page's title, its mission said once."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from solo_ops.cli.campaign_serve import mission_title
from solo_ops.web.app import create_app
from tests.support.api import ApiClient, make_table
from tests.support.campaign_desk import do, key, lan, new_campaign, open_desk


def test_the_host_gets_every_player_s_link_and_code_a_player_gets_none(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    table.ensure_links()
    links = table.game.links
    assert links is not None
    base = "http://192.168.1.20:8765/"
    app = create_app(table, local_only=False, hosts=["192.168.1.20"], base=base)
    with ApiClient(app, "http://192.168.1.20:8765") as c:
        host = c.get("/api/join", headers={"x-solo-ops-token": links["host"]})
        ana = c.get("/api/join", headers={"x-solo-ops-token": links["players"]["Ana"]})
        nobody = c.get("/api/join")
    assert host.status_code == 200
    doc = host.json()
    assert [p["player"] for p in doc["players"]] == ["Ana", "Ben"]
    for p in doc["players"]:
        # the link serve prints for that player (cli.serve.link_lines)
        assert p["url"] == f"{base}?player={p['player']}&token={links['players'][p['player']]}"
        assert p["qr"].startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert (ana.status_code, ana.json()["message"]) == (
        403, "only the host's page shows the players' links")
    assert nobody.status_code == 403


def test_the_set_up_and_its_sheet_for_a_served_game(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    with ApiClient(create_app(table), "http://127.0.0.1:8765") as c:
        doc = c.get("/api/setup", params={"player": "Ana"}).json()
        sheet = c.get("/setup-sheet.png", params={"download": 1})
    keys = [s["key"] for s in doc["sections"]]
    assert keys[:3] == ["enemies", "counters", "roster"] and "zones" in keys
    assert doc["title"] == "Supplement example: the stronghold — set-up"
    assert sheet.headers["content-type"] == "image/png"
    assert sheet.headers["content-disposition"] == 'attachment; filename="setup-sheet.png"'
    with Image.open(io.BytesIO(sheet.content)) as page:
        assert page.size == (1240, 1754)


def test_a_campaign_mission_s_set_up_before_anyone_is_ready(tmp_path: Path) -> None:
    desk = open_desk(new_campaign(tmp_path, "Duo"), "Duo")
    try:
        with lan(desk) as c:
            assert c.get("/api/setup", headers=key(desk, "Ana")).status_code == 409
            made = do(c, desk, "host", {"do": "next"}).json()
            assert made["phase"] == "setup" and made["title"] == "Duo — mission 1"
            doc = c.get("/api/setup", headers=key(desk, "Ben")).json()
            counters = next(s for s in doc["sections"] if s["key"] == "counters")["items"]
            assert desk.mission is not None
            assert [c["name"] for c in counters] == sorted(desk.mission.state.counters)
            assert all(" from the " in c["where"] for c in counters)
            phone = c.get("/api/campaign/picture.svg", params={"what": "setup",
                                                                "layout": "phone"},
                          headers=key(desk, "Ana")).text
            assert 'class="label base-label"' in phone and "legend-text" not in phone
            codes = c.get("/api/join", headers=key(desk, "host")).json()
            assert [p["player"] for p in codes["players"]] == ["Ana", "Ben"]
    finally:
        desk.close()


def test_the_campaign_title_says_the_mission_once() -> None:
    assert mission_title("Duo", 1, "Duo: mission 1") == "Duo — mission 1"
    assert mission_title("Duo", 2, "Duo: the refinery") == "Duo: the refinery"
    assert mission_title("Duo", 3, "Night raid") == "Duo — mission 3: Night raid"

