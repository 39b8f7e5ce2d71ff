"""``solo-ops combat`` through click's runner on a local group (not yet registered in main)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solo_ops.cli import combat as combat_module
from solo_ops.rules import odds
from solo_ops.rules.kt2024 import AttackSpec, DefenceSpec

SHOOT = ["shoot", "--attacks", "4", "--hit", "3", "--damage", "3/4", "--defence-dice", "3",
         "--save", "3"]


def test_shoot_json_is_one_document_with_the_exact_distribution(runner: CliRunner) -> None:
    result = runner.invoke(combat_module.combat, [*SHOOT, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"distribution", "mean"} <= set(data)
    exact = odds.shoot_2024(AttackSpec(4, 3, 3, 4), DefenceSpec(3, 3))
    assert data["distribution"] == {str(k): float(v) for k, v in exact.distribution.items()}
    assert data["mean"] == pytest.approx(float(exact.mean), abs=1e-12)
    assert sum(data["distribution"].values()) == pytest.approx(1.0, abs=1e-12)


def test_shoot_rules_wounds_cover_obscured(runner: CliRunner) -> None:
    result = runner.invoke(combat_module.combat, [
        *SHOOT, "--rule", "lethal=5", "--rule", "piercing_crits=1", "--rule", "devastating=1:2",
        "--wounds", "7", "--cover", "--obscured", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert max(int(k) for k in data["distribution"]) <= 7
    assert "p_incapacitated" in data
    assert data["defence"] == {"dice": 3, "save": 3, "wounds": 7, "cover": True,
                               "obscured": True}


def test_shoot_text_is_a_table(runner: CliRunner) -> None:
    result = runner.invoke(combat_module.combat, [*SHOOT, "--wounds", "7"])
    assert result.exit_code == 0
    assert "Mean damage" in result.stdout and "incapacitated" in result.stdout


@pytest.mark.parametrize(("args", "where"), [
    (["--rule", "nonsense"], "--rule"),
    (["--hit", "7"], "--hit"),
    (["--damage", "x/y"], "--damage"),
    (["--save", "9"], "--save"),
    (["--attacks", "many"], "--attacks"),
    (["--rule", "lethal"], "--rule"),
])
def test_bad_input_is_one_stderr_line_exit_2(runner: CliRunner, args: list[str],
                                            where: str) -> None:
    result = runner.invoke(combat_module.combat, [*SHOOT, *args])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and where in lines[0]
    assert "Traceback" not in result.output


def test_fight_json_has_dealt_and_taken(runner: CliRunner) -> None:
    result = runner.invoke(combat_module.combat, [
        "fight", "--attacks", "4", "--hit", "3", "--damage", "4/5", "--wounds", "10",
        "--rule", "shock", "--defender-attacks", "3", "--defender-hit", "4",
        "--defender-damage", "3/4", "--defender-wounds", "8", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"distribution", "mean", "dealt", "taken", "joint"} <= set(data)
    assert sum(data["taken"]["distribution"].values()) == pytest.approx(1.0)
    assert data["dealt"]["mean"] == data["mean"]


def test_fight_text_and_bad_defender_input(runner: CliRunner) -> None:
    base = ["fight", "--attacks", "4", "--hit", "3", "--damage", "4/5",
            "--defender-attacks", "3", "--defender-hit", "4", "--defender-damage", "3/4"]
    assert runner.invoke(combat_module.combat, base).exit_code == 0
    bad = runner.invoke(combat_module.combat, [*base, "--defender-rule", "nope"])
    assert bad.exit_code == 2 and "--defender-rule" in bad.stderr


def test_module_exports_the_group() -> None:
    assert combat_module.commands == [combat_module.combat]
