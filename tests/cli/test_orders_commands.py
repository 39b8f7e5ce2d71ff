"""The `orders` and `tables` commands, through click's runner and the real entry point."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from click.testing import CliRunner

from solo_ops.cli import main
from tests.support.paths import ROSTERS


def test_orders_roll_json_has_documented_keys(runner: CliRunner) -> None:
    result = runner.invoke(main, ["orders", "roll", "--type", "support", "--leadership", "9",
                                  "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"roll", "modified", "command", "order"} <= set(data)
    assert set(data["order"]) == {"move", "cover", "shoot", "charge", "allies"}
    assert data["modified"] == min(6, data["roll"] + 2)
    assert data["command"] == data["modified"]
    assert data["dice"][0]["faces"] == [data["roll"]]


def test_orders_roll_is_reproducible(runner: CliRunner) -> None:
    args = ["orders", "roll", "--type", "melee", "--seed", "11", "--json"]
    first = runner.invoke(main, args).stdout
    assert first == runner.invoke(main, args).stdout


def test_orders_roll_text_shows_roll_modifier_and_order(runner: CliRunner) -> None:
    result = runner.invoke(main, ["orders", "roll", "--type", "fire-teams", "--leadership", "8",
                                  "--seed", "3"])
    assert result.exit_code == 0
    data = json.loads(runner.invoke(main, ["orders", "roll", "--type", "fire-teams",
                                           "--leadership", "8", "--seed", "3",
                                           "--json"]).stdout)
    assert f"Rolled {data['roll']} +1 (Leadership 8)" in result.stdout
    assert data["order_text"]["move"] in result.stdout


def test_orders_unit_from_roster(runner: CliRunner) -> None:
    result = runner.invoke(main, ["orders", "unit", "--roster", str(ROSTERS / "traitor-cult.yaml"),
                                  "--models", "4", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["models"]) == 4
    assert sum(len(u["models"]) for u in data["units"]) == 4
    assert all(u["order"] for u in data["units"])


def test_tables_show_all_and_one(runner: CliRunner) -> None:
    one = runner.invoke(main, ["tables", "show", "hidden-enemy", "--json"])
    assert one.exit_code == 0
    assert json.loads(one.stdout)["rows"]["4"]["code"] == "towards_enemy"
    every = runner.invoke(main, ["tables", "show", "--json"])
    assert set(json.loads(every.stdout)) >= {"melee", "fire-teams", "support", "hidden-enemy",
                                             "enemy-count"}


def test_bad_input_is_one_line_without_traceback(runner: CliRunner) -> None:
    result = runner.invoke(main, ["tables", "show", "nonsense"])
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0
    assert "unknown table 'nonsense'" in result.stderr
    assert "Traceback" not in result.stderr
    missing = runner.invoke(main, ["orders", "unit", "--roster", "no/such.yaml"])
    assert missing.exit_code == 2
    assert "no/such.yaml: file not found" in missing.stderr


def test_real_entry_point_runs() -> None:
    exe = shutil.which("solo-ops")
    cmd = [exe] if exe else [sys.executable, "-m", "solo_ops"]
    done = subprocess.run([*cmd, "orders", "roll", "--type", "melee", "--seed", "1", "--json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["order"]["move"]
    bad = subprocess.run([*cmd, "orders", "unit", "--roster", "missing.yaml"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2
    assert bad.stderr.strip().startswith("solo-ops: error: missing.yaml: file not found, and "
                                         "no shipped roster is called 'missing' (shipped: ")


def test_a_bad_option_is_one_line_naming_it() -> None:
    from click.testing import CliRunner

    from solo_ops.cli import main

    result = CliRunner().invoke(main, ["orders", "roll", "--type", "melee", "--leadership",
                                       "99"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "--leadership" in result.stderr and "Usage" not in result.stderr
