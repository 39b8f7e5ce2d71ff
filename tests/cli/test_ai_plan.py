"""`solo-ops ai plan` through click's runner: the documented JSON keys, determinism, the
explanation a player reads, and one-line errors."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from tests.support.paths import SCENARIOS

VOLKUS = SCENARIOS / "volkus-stronghold-supplement-example.yaml"
SHIPPED = sorted(SCENARIOS.glob("*.yaml"))


def _plan(runner: CliRunner, *args: str) -> dict:
    result = runner.invoke(main, ["ai", "plan", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_has_the_documented_keys(runner: CliRunner) -> None:
    data = _plan(runner, str(VOLKUS), "--unit", "u2", "--seed", "1")
    assert {"unit", "command", "order", "state", "moves", "shoot", "charge", "explain"} <= set(data)
    assert data["unit"] == "u2"
    assert set(data["order"]) == {"move", "cover", "shoot", "charge", "allies"}
    assert isinstance(data["shoot"], list) and isinstance(data["charge"], list)
    for move in data["moves"]:
        assert {"model", "from", "to", "route"} <= set(move)
        assert move["route"][0] == move["from"] and move["route"][-1] == move["to"]
    for shot in data["shoot"]:
        assert {"model", "target"} <= set(shot)
    assert all(isinstance(line, str) for line in data["explain"])


def test_explanation_names_roll_order_state_and_distances(runner: CliRunner) -> None:
    data = _plan(runner, str(VOLKUS), "--unit", "u2", "--seed", "2")  # its order roll: a 6
    text = "\n".join(data["explain"])
    assert text.startswith('u2 (Fire Teams, command 6): Move: Hold 12" from enemy')
    assert "Order roll: d6 = 6" in text
    assert "State: idle." in text
    # each model's closest enemy with its distance, base to base ("around the walls" only
    # where the way bends: tests/ai/test_closest_enemy_words.py)
    assert re.search(r'closest enemy with line of sight is Sgt Kell, 8\.3" away\.', text)
    assert data["state"] == "holding_range"


def test_same_scenario_and_seed_give_the_same_plan(runner: CliRunner) -> None:
    args = ["ai", "plan", str(VOLKUS), "--unit", "u2", "--seed", "1", "--json"]
    first = runner.invoke(main, args).stdout
    assert first == runner.invoke(main, args).stdout
    text = ["ai", "plan", str(VOLKUS), "--unit", "u2", "--seed", "1"]
    assert runner.invoke(main, text).stdout == runner.invoke(main, text).stdout


def test_bad_unit_is_one_line_exit_2(runner: CliRunner) -> None:
    result = runner.invoke(main, ["ai", "plan", str(VOLKUS), "--unit", "nope", "--seed", "1"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "nope" in lines[0] and "u2" in lines[0]
    assert "Traceback" not in result.output


def test_split_unit_hint(runner: CliRunner) -> None:
    result = runner.invoke(main, ["ai", "plan", str(VOLKUS), "--unit", "u1", "--seed", "1"])
    assert result.exit_code == 2
    assert "split into u1-fire-teams, u1-melee" in result.stderr


def test_missing_scenario_is_one_line(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["ai", "plan", str(tmp_path / "none.yaml"), "--unit", "u1"])
    assert result.exit_code != 0
    assert len(result.stderr.strip().splitlines()) == 1


def test_fixed_command_is_reported(runner: CliRunner, tmp_path: Path) -> None:
    shutil.copytree(SCENARIOS, tmp_path / "s")
    path = tmp_path / "s" / VOLKUS.name
    doc = yaml.safe_load(path.read_text())
    doc["enemies"][-1]["command"] = 4
    path.write_text(yaml.safe_dump(doc))
    uid = doc["enemies"][-1]["id"]
    data = _plan(runner, str(path), "--unit", uid, "--seed", "1")
    assert data["command"] == 4
    assert any("fixed by the scenario" in line for line in data["explain"])


@pytest.mark.parametrize("scenario", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_scenario_plans_every_unit(runner: CliRunner, scenario: Path) -> None:
    loaded = load_scenario(scenario)
    _, state = new_game(loaded, 3)
    units = [u.id for u in state.units.values() if u.fsm != "hidden"]
    for uid in units:
        data = _plan(runner, str(scenario), "--unit", uid, "--seed", "3")
        assert data["unit"] == uid
        assert data["explain"]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_split_parts_order_roll_is_its_units_and_capped_only_past_6(
        runner: CliRunner, tmp_path: Path, seed: int) -> None:
    """The example's u1, named ``cult-squad`` here and its command left to the dice, splits
    into cult-squad-fire-teams and cult-squad-melee: each part names the order roll logged for
    cult-squad (never "fixed by the scenario"), and "capped at 6" only when the d6 and the
    Leadership modifier passed 6."""
    shutil.copytree(SCENARIOS, tmp_path / "s")
    path = tmp_path / "s" / VOLKUS.name
    doc = yaml.safe_load(path.read_text())
    u1 = next(u for u in doc["enemies"] if u["id"] == "u1")
    u1.pop("command", None)
    u1["id"] = "cult-squad"
    path.write_text(yaml.safe_dump(doc))
    _, state = new_game(load_scenario(path), seed)
    roll = next(r for record in state.log for r in record["rolls"]
                if r["purpose"] == "order roll for cult-squad")
    total = roll["faces"][0] + sum(amount for _, amount in roll["modifiers"] or [])
    mods = "".join(f" {amount:+d} ({why})" for why, amount in roll["modifiers"] or [])
    expected = (f"Order roll: d6 = {roll['faces'][0]}{mods}, command {min(6, total)}"
                + (" (capped at 6)." if total > 6 else "."))
    for part in ("cult-squad-fire-teams", "cult-squad-melee"):
        data = _plan(runner, str(path), "--unit", part, "--seed", str(seed))
        assert data["explain"][1] == expected
