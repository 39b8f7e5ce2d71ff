"""``solo-ops rate``: the JSON document, the per-level rows and picture, sweeps, errors."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.cli.rate import KEYS
from tests.support.players import small_scenario


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_json_has_exactly_the_interface_keys(tmp_path: Path) -> None:
    path = small_scenario(tmp_path, turns=1, engagement=1)
    code, out, err = run("rate", str(path), "--missions", "2", "--jobs", "1", "--seed", "4",
                         "--json")
    assert code == 0, err
    doc = json.loads(out)
    # the interface's keys, in its order, then two of this project's (extended, not changed)
    assert list(doc) == [*KEYS, "stopped_early", "interrupted"]
    assert doc["stopped_early"] is False and doc["interrupted"] is False
    assert doc["missions"] == 2 and doc["wins"] + doc["draws"] + doc["losses"] == 2
    lo, hi = doc["win_rate_ci95"]
    assert 0.0 <= lo <= doc["win_rate"] <= hi <= 1.0
    assert set(doc["mean_vp"]) == {"player", "enemy"}
    # the same numbers again (the time aside)
    code, out2, _ = run("rate", str(path), "--missions", "2", "--jobs", "1", "--seed", "4",
                        "--json")
    again = json.loads(out2)
    doc.pop("missions_per_minute")
    again.pop("missions_per_minute")
    assert again == doc


def test_several_levels_give_one_row_each_and_a_picture(tmp_path: Path) -> None:
    path = small_scenario(tmp_path, turns=1, engagement=2)
    svg = tmp_path / "levels.svg"
    code, out, err = run("rate", str(path), "--missions", "1", "--jobs", "1",
                         "--engagement", "1", "--engagement", "4", "--picture", str(svg),
                         "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert [row["engagement"] for row in doc["by_engagement"]] == [1, 4]
    for row in doc["by_engagement"]:
        assert list(row) == ["engagement", *KEYS]
        assert row["missions"] == 1
    assert doc["missions"] == 2
    text = svg.read_text(encoding="utf-8")
    assert text.count('class="level"') == 2 and text.count('class="ci"') == 2
    assert 'data-level="1"' in text and 'data-level="4"' in text
    # text output and the default PNG picture, next to where it runs
    png = tmp_path / "levels.png"
    code, out, err = run("rate", str(path), "--missions", "1", "--jobs", "1",
                         "--engagement", "1", "--engagement", "2", "--picture", str(png))
    assert code == 0, err
    assert "engagement 1: win" in out and "engagement 2: win" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    code, _, err = run("rate", str(tmp_path / "nope.yaml"), "--missions", "1")
    assert code == 2 and err.count("\n") == 1 and "nope" in err
    path = small_scenario(tmp_path, turns=1)
    code, _, err = run("rate", str(path), "--missions", "1", "--engagement", "1",
                       "--engagement", "2", "--picture", str(tmp_path / "x.gif"))
    assert code == 2 and "--picture" in err
    code, _, err = run("rate", str(path), "--policy", "reckless")
    assert code == 2 and "reckless" in err
    code, _, err = run("rate")
    assert code == 2 and "scenario" in err


def test_sweep_writes_one_csv_row_per_case(tmp_path: Path) -> None:
    path = small_scenario(tmp_path, turns=1, engagement=1)
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(f"scenario: {path}\nrosters: [traitor-cult, ork-mob]\n"
                     "boards: [gallowdark-corridors]\nengagements: [1, 2]\nmissions: 1\n"
                     "out: cases.csv\n", encoding="utf-8")
    code, _out, err = run("rate", "--sweep", str(sweep), "--jobs", "1")
    assert code == 0, err
    with (tmp_path / "cases.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["roster"], r["engagement"]) for r in rows] == [
        ("Traitor cult", "1"), ("Traitor cult", "2"), ("Ork mob", "1"), ("Ork mob", "2")]
    assert {r["board"] for r in rows} == {"Gallowdark: corridors"}
    assert all(int(r["wins"]) + int(r["draws"]) + int(r["losses"]) == 1 for r in rows)
    assert all(r["missions"] == "1" for r in rows)
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"scenario: {path}\nengagements: [9]\n", encoding="utf-8")
    code, _, err = run("rate", "--sweep", str(bad))
    assert code == 2 and "engagements" in err


@pytest.mark.parametrize(("body", "expected"), [
    ("rosters: [traitor-cult, no-such-roster]\n", "rosters[1]: file not found"),
    ("boards: [gallowdark-corridors, nowhere]\n", "boards[1]: file not found"),
    ("missions: lots\n", "missions: expected a whole number, got the text 'lots'"),
    ("missions: [1]\n", "missions: expected a whole number, got a list"),
    ("engagements: [1, true]\n", "engagements: must be a list of levels 1-6"),
    ("boards: [" + ", ".join(["gallowdark-corridors"] * 11) + "]\nrosters: ["
     + ", ".join(["ork-mob"] * 10) + "]\nengagements: [1, 2]\n",
     "asks for 220 cases (boards x rosters x engagements); a sweep may have at most 200"),
    ("engagements: [1, 2, 3, 4, 5, 6]\nmissions: 20000\n",
     "missions: 6 cases of 20000 missions is 120000; a sweep plays at most 100000"),
    ("out: no-such-folder/cases.csv\n", "out: the folder"),
])
def test_a_sweep_is_checked_whole_before_the_first_mission(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, expected: str) -> None:
    """Issue #31 item 4: a mistake anywhere in a sweep (its last roster, a count that is not a
    number, too many cases, a CSV that could not be written) is one line naming the file and
    the field, before any mission is played (none is: the rating is never called)."""
    from solo_ops.cli import rate

    played: list[Any] = []
    monkeypatch.setattr(rate, "rate_scenario", lambda *a, **k: played.append(a))
    path = small_scenario(tmp_path, turns=1, engagement=1)
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(f"scenario: {path}\n{body}", encoding="utf-8")
    code, _out, err = run("rate", "--sweep", str(sweep), "--jobs", "1")
    assert code == 2 and err.count("\n") == 1, err
    assert f"{sweep}: " in err and expected in err, err
    assert played == [] and not (tmp_path / "sweep.csv").exists()


def test_the_real_command_with_two_jobs(tmp_path: Path) -> None:
    path = small_scenario(tmp_path, turns=1, engagement=1)
    out = subprocess.run([sys.executable, "-m", "solo_ops", "rate", str(path), "--missions",
                          "2", "--jobs", "2", "--json"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    two = json.loads(out.stdout)
    _code, one_out, _ = run("rate", str(path), "--missions", "2", "--jobs", "1", "--json")
    one = json.loads(one_out)
    for doc in (one, two):
        doc.pop("missions_per_minute")
    assert one == two


def test_without_numba_the_table_says_so_and_the_numbers_are_the_same(
        tmp_path: Path, monkeypatch: Any) -> None:
    """Where numba is not installed (no wheels for the machine) or its own switch
    ``NUMBA_DISABLE_JIT`` is set, ``rate`` gives the same numbers from the numpy code and
    says, after its table, which and why it is slower; with numba it says
    nothing of it, and ``--json`` prints only its document either way."""
    from solo_ops.geometry import jit

    path = small_scenario(tmp_path, turns=1, engagement=1)
    args = ("rate", str(path), "--missions", "2", "--jobs", "1", "--seed", "4")
    monkeypatch.setattr(jit, "AVAILABLE", True)
    code, with_numba, err = run(*args)
    assert code == 0, err
    assert "numba" not in with_numba
    monkeypatch.setattr(jit, "AVAILABLE", False)
    monkeypatch.setattr(jit, "ENABLED", False)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    code, without, err = run(*args)
    assert code == 0, err
    assert without.splitlines()[-1].startswith("(numba is not installed here")
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")  # numba's own switch: said as such
    code, switched, err = run(*args)
    assert code == 0, err
    assert switched.splitlines()[-1].startswith("(NUMBA_DISABLE_JIT is set here: the same")
    rows = [line for line in without.splitlines() if line.startswith("  engagement")]
    assert rows and rows == [line for line in with_numba.splitlines()
                             if line.startswith("  engagement")]
    code, out, _ = run(*args, "--json")
    assert code == 0 and "numba" not in out and json.loads(out)["missions"] == 2
