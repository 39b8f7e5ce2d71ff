"""``solo-ops fog seed`` and the players' side of the fog of war through the real command
line: the text of ``fog seed`` and ``play``, ``play --json`` and the map SVG hold none of the
unresolved counters' hidden facts (hidden orders, hidden plans), which the save keeps."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.geometry.board import parse_board
from solo_ops.geometry.terrain import Terrain

R = 32 / 25.4 / 2
SCENARIO: dict[str, Any] = {
    "name": "Fog leak test", "edition": "kt2024", "engagement": 2, "seed": 3,
    "board": {"name": "split", "width": 24, "depth": 12, "features": [
        {"id": "w", "traits": ["wall"], "line": [[16, 0], [16, 12]]},
        {"id": "w2", "traits": ["wall"], "line": [[8, 0], [8, 12]]}]},
    "roster": {"name": "Cult", "profiles": {"grunt": {
        "movement": 6, "wounds": 7, "save": 5, "base_mm": 32,
        "weapons": [{"name": "autogun", "type": "rapid", "range": 24}]}},
        "table": {i: "grunt" for i in range(1, 7)}},
    "squads": [{"player": "Ana", "models": [{"id": "sgt", "at": [2, 2], "profile": {
        "movement": 6, "wounds": 12, "save": 3, "base_mm": 32,
        "weapons": [{"name": "boltgun", "type": "rapid", "range": 24}]}}]}],
    "counters": [{"id": "c1", "at": [20, 3], "hidden_order": 5},
                 {"id": "c2", "at": [12, 9], "hidden_order": 2}],
    # the players chose to keep hidden orders secret (issue #27's default tells the row of a
    # counter's move: test_a_counters_move_names_its_row_unless_the_players_keep_it_hidden)
    "settings": {"counter_rows": "hidden"},
}
PLAN_WORDS = ("remains stationary", "moves towards", "answers the rally", "moves to cover",
              "heads for distant cover", "no cover to reach", "no friend with a higher",
              "as close as it can get", "hidden order", "hidden_order", "secret")


@pytest.fixture()
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "fog.yaml"
    path.write_text(yaml.safe_dump(SCENARIO), encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout


def test_fog_seed_json_follows_the_interface(scenario: Path) -> None:
    code, out = run("fog", "seed", str(scenario), "--engagement", "3", "--seed", "8", "--json")
    assert code == 0
    data = json.loads(out)
    counters = data["counters"]
    assert len(counters) == 2 + 6  # the scenario's two, then 2 x 3 seeded
    assert [c["id"] for c in counters] == [f"c{i}" for i in range(1, 9)]
    terrain = Terrain(parse_board(SCENARIO["board"], "b"))
    for c in counters:
        assert set(c) == {"id", "sector", "at", "hidden_order", "resolve_first_turn"}
        assert 1 <= c["sector"] <= 6 and 1 <= c["hidden_order"] <= 6
        if not c["resolve_first_turn"]:
            assert terrain.board.sector_of(*c["at"]) == c["sector"]
            assert not terrain.sight.visible((2, 2), c["at"], R, R)
        else:  # only sectors 1 and 4 (open ground by the player) have no hidden point
            assert c["sector"] in (1, 4) and terrain.board.sector_of(*c["at"]) == c["sector"]
            assert terrain.sight.visible((2, 2), c["at"], R, R)  # the sergeant sees it
    assert counters[0]["hidden_order"] == 5 and counters[1]["hidden_order"] == 2
    _code2, again = run("fog", "seed", str(scenario), "--engagement", "3", "--seed", "8",
                       "--json")
    assert json.loads(again) == data  # same seed, same counters


def test_fog_seed_text_hides_the_orders_unless_debugging(scenario: Path) -> None:
    code, out = run("fog", "seed", str(scenario), "--seed", "8")
    assert code == 0
    rows = [[cell.strip() for cell in line.split("│")[1:-1]]
            for line in out.splitlines() if line.startswith("│")]
    assert len(rows) == 6 and all(len(r) == 4 for r in rows)  # id, sector, place, note
    assert "Hidden" not in out and "order" not in out
    code, debug = run("fog", "seed", str(scenario), "--seed", "8", "--reveal-hidden")
    assert "Hidden order (DEBUG)" in debug
    drows = [[cell.strip() for cell in line.split("│")[1:-1]]
             for line in debug.splitlines() if line.startswith("│")]
    assert [r[-1] for r in drows[:2]] == ["5", "2"]


def _walk(value: Any, path: str = "") -> list[tuple[str, Any]]:
    out = [(path, value)]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _walk(v, f"{path}[{i}]")
    return out


ANSWERS = ["--answer", "sgt conceal", "--answer", "done"] * 3
COUNTER = re.compile(r"\bc\d+\b")
"""A hidden counter's id in a line of text."""


def test_play_text_json_and_map_show_no_hidden_fact(scenario: Path, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, text = run("play", str(scenario), "--seed", "4", "--save", str(save), *ANSWERS)
    assert code == 0
    # the game did run hidden movement (the engine's own log has the secret plans)
    log = [json.loads(line) for line in save.with_suffix(".log.jsonl").read_text().splitlines()]
    secrets = [e for r in log if "events" in r for e in r["events"] if e.get("secret")]
    assert any(e["type"] == "hidden_plan" for e in secrets)
    assert any(e["type"] == "hidden_order" for e in secrets)
    # no line about a counter says what its hidden plan is (an enemy revealed from one acts
    # in plain sight: "grunt-1 remains stationary (its move order)" is its order, not a secret)
    told = [line.lower() for line in text.splitlines() if COUNTER.search(line)]
    assert told
    for word in PLAN_WORDS:
        assert not any(word in line for line in told), word
    # --json: every document printed, searched all the way down
    save2 = tmp_path / "g2.json"
    code, out = run("play", str(scenario), "--seed", "4", "--save", str(save2), "--json",
                    *ANSWERS)
    assert code == 0
    docs = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert docs
    for doc in docs:
        for where, value in _walk(doc):
            assert not where.endswith(".hidden_order"), where
            assert not where.endswith(".secret"), where
            if isinstance(value, dict):
                assert value.get("type") not in ("hidden_plan", "hidden_order",
                                                 "counter_command"), where
            if isinstance(value, str) and COUNTER.search(value):
                assert not any(w in value.lower() for w in PLAN_WORDS), (where, value)
    # the map: counters are bare "?" markers with their ids
    svg = tmp_path / "m.svg"
    code, _ = run("map", str(save), "--out", str(svg))
    assert code == 0
    drawn = svg.read_text(encoding="utf-8")
    labels = re.findall(r'class="label counter-label"[^>]*>([^<]*)<', drawn)
    assert labels and all(re.fullmatch(r"c\d+", label) for label in labels)
    marks = {m.strip() for m in re.findall(r'class="counter"[^>]*>([^<]*)<', drawn)}
    assert marks - {""} == {"?"}
    code, _ = run("map", str(save), "--out", str(tmp_path / "d.svg"), "--reveal-hidden")
    debug = (tmp_path / "d.svg").read_text(encoding="utf-8")
    assert re.findall(r'class="label counter-label"[^>]*>(c\d+ \(\d\))<', debug)


def test_a_counters_move_names_its_row_unless_the_players_keep_it_hidden(tmp_path: Path
                                                                          ) -> None:
    """Issue #27: a hidden counter's end-of-turn move says which row of the hidden-enemy table
    moved it and where it went (the default ``counter_rows: shown``): each move line names
    the row the save's secret log gave that counter; a counter that did not move says
    nothing. With ``counter_rows: hidden`` no row is told (the test above)."""
    from solo_ops.core.tables import hidden_enemy_table

    doc = {k: v for k, v in SCENARIO.items() if k != "settings"}
    path = tmp_path / "rows.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    save = tmp_path / "r.json"
    code, text = run("play", str(path), "--seed", "4", "--save", str(save), *ANSWERS)
    assert code == 0
    log = [json.loads(line) for line in save.with_suffix(".log.jsonl").read_text().splitlines()]
    orders = {}
    moved = []
    for record in log:
        for e in record.get("events", []):
            if e["type"] in ("hidden_order", "counter_command"):
                orders[e["counter"]] = e["hidden_order"]
            if e["type"] == "counter_moved" and not e.get("ambush"):
                moved.append((e["counter"], orders[e["counter"]]))
    assert moved  # (seed 4: c5 and c6 move, by row 3, to join higher commands)
    lines = [line for line in text.splitlines() if " moves from " in line
             and line.startswith("Counter ")]
    assert len(lines) == len(moved)
    for line, (cid, row) in zip(lines, moved, strict=True):
        first = hidden_enemy_table()[row].shown.split(". ")[0].rstrip(".")  # typos mended
        assert line.startswith(f"Counter {cid} moves from ")
        assert f'hidden-enemy table row {row} ("{first}")' in line, line
