"""``solo-ops squad import`` / ``solo-ops roster import`` through click, and end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo_ops.campaign import parse_squad
from solo_ops.cli import main
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.roster import load_roster
from solo_ops.io.scenario import load_scenario
from solo_ops.io.yamlio import read_document
from tests.support.paths import FIXTURES
from tests.support.players import cli_here

IMPORTS = FIXTURES / "import"
ROSZ = IMPORTS / "vesper-2024.rosz"
KTDASH = IMPORTS / "ashen-choir-ktdash.json"


def _err(result) -> str:
    return result.stderr if hasattr(result, "stderr") else result.output


def test_squad_import_prints_the_summary_and_writes_a_squad(runner: CliRunner,
                                                            tmp_path: Path) -> None:
    out = tmp_path / "vesper.yaml"
    result = runner.invoke(main, ["squad", "import", str(ROSZ), "--player", "Ana",
                                  "--out", str(out)])
    assert result.exit_code == 0, _err(result)
    lines = result.stdout.splitlines()
    assert lines[0] == ('Kill Team 2024 BattleScribe file vesper-2024.rosz [roster export.ros]: '
                        '"Vesper Lancers", 4 operatives')
    assert lines[2].split() == ["operative", "profile", "M", "APL", "SV", "W", "DF", "Ld"]
    assert lines[3].split() == ["Sgt", "Kéll", "Vøss", "Lancer", "Sergeant", '6"', "3", "4+",
                                "10", "3", "8"]
    assert lines[4].split() == ["⌖", "Arc", "pistol", "(standard)", "ATK", "4", "HIT", "3+",
                                "DMG", "3/5", "pistol", "range=8", "piercing=1"]
    text = result.stdout
    assert "Guessed (not in the file; change them in the file written):\n" \
           "  leadership 8 (keyword LEADER) — Sgt Kéll Vøss\n" \
           "  toughness 3 (default) — every operative\n" \
           "  base 32 mm (default) — every operative\n" \
           "  leadership 7 (default) — Ada Quill, Lancer Trooper, Brûnhilde\n" \
           "  Tripwire Spike: no ⌖/⚔ marker and no Range rule, read as melee, check it — " \
           "Ada Quill\n" in text
    assert "Rules kept as text (solo-ops does not play them; they are in the weapons' notes):\n" \
           "  Tripwire Spike: Toxin Coat*" in text
    squad = parse_squad(read_document(out), str(out))
    assert squad.player == "Ana"
    assert [m.id for m in squad.models] == ["sgt-kell-voss", "ada-quill", "lancer-trooper",
                                            "brunhilde"]
    # the campaign takes it as it is
    result = runner.invoke(main, ["campaign", "new", "Vesper", "--squad", str(out),
                                  "--saves", str(tmp_path / "saves"), "--json"])
    assert result.exit_code == 0, _err(result)


def test_roster_import_default_table_and_table_option(runner: CliRunner,
                                                      tmp_path: Path) -> None:
    out = tmp_path / "ash.yaml"
    result = runner.invoke(main, ["roster", "import", str(KTDASH), "--out", str(out)])
    assert result.exit_code == 0, _err(result)
    assert "Profiles: ash-preacher ×1, ash-zealot ×3, ash-gunner ×1" in result.stdout
    assert "d6 table (from the roster's counts): 1-4:ash-zealot,5:ash-gunner,6:ash-preacher" \
        in result.stdout
    roster = load_roster(out)
    assert roster.table == {1: "ash-zealot", 2: "ash-zealot", 3: "ash-zealot", 4: "ash-zealot",
                            5: "ash-gunner", 6: "ash-preacher"}
    result = runner.invoke(main, ["roster", "import", str(KTDASH), "--out", str(out), "--force",
                                  "--table", "1-3:ash-zealot,4:Ash Gunner,5-6:ash-preacher"])
    assert result.exit_code == 0, _err(result)
    assert load_roster(out).table == {1: "ash-zealot", 2: "ash-zealot", 3: "ash-zealot",
                                      4: "ash-gunner", 5: "ash-preacher", 6: "ash-preacher"}


def test_json_output(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "r.yaml"
    result = runner.invoke(main, ["roster", "import", str(KTDASH), "--out", str(out), "--json",
                                  "--leadership", "6", "--keyword-leadership", "LEADER=9",
                                  "--keyword-leadership", "GUNNER=7"])
    assert result.exit_code == 0, _err(result)
    data = json.loads(result.stdout)
    assert (data["edition"], data["format"], data["out"]) == ("kt2024", "KTDash", str(out))
    assert [op["profile"]["leadership"] for op in data["operatives"]] == [9, 6, 6, 6, 7]
    assert data["table"] == {"1": "ash-zealot", "2": "ash-zealot", "3": "ash-zealot",
                             "4": "ash-zealot", "5": "ash-gunner", "6": "ash-preacher"}
    assert data["operatives"][0]["unknown_rules"] == ["Penitent maul: Indirect"]


@pytest.mark.parametrize(("args", "message"), [
    (["roster", "import", str(KTDASH), "--table", "1-3:ash-zealot,4:nobody"],
     "--table: 'nobody' is not a profile of this roster"),
    (["roster", "import", str(KTDASH), "--table", "1-3:ash-zealot"],
     "--table: missing faces 4, 5, 6"),
    (["roster", "import", str(KTDASH), "--table", "1-3:ash-zealot,3-6:ash-gunner"],
     "--table: face 3 is given twice"),
    (["roster", "import", str(KTDASH), "--table", "seven:ash-zealot"],
     "--table: expected FACES:PROFILE like 1-3:cultist, got 'seven:ash-zealot'"),
    (["squad", "import", str(ROSZ), "--keyword-leadership", "LEADER"],
     "--keyword-leadership: expected KEYWORD=N"),
    (["squad", "import", str(IMPORTS / "missing.ros")], "missing.ros: file not found"),
    (["squad", "import", str(ROSZ), "--out", "x.txt"], "--out: the file written must end in"),
])
def test_bad_options_are_one_line(runner: CliRunner, tmp_path: Path, args: list[str],
                                  message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, args)
    assert result.exit_code == 2
    err = _err(result)
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_an_existing_file_is_kept(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "squad.yaml"
    out.write_text("player: Ben\nmodels: []\n", encoding="utf-8")
    result = runner.invoke(main, ["squad", "import", str(ROSZ), "--out", str(out)])
    assert result.exit_code == 2
    assert "already exists; give another --out or add --force" in _err(result)
    assert out.read_text(encoding="utf-8") == "player: Ben\nmodels: []\n"
    bad = tmp_path / "bad.ros"
    bad.write_text("<roster", encoding="utf-8")
    result = runner.invoke(main, ["squad", "import", str(bad), "--out", str(out), "--force"])
    assert result.exit_code == 2
    assert out.read_text(encoding="utf-8") == "player: Ben\nmodels: []\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.ros", "squad.yaml"]


def _solo_ops(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "solo_ops", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_end_to_end_import_then_play(tmp_path: Path) -> None:
    """A player imports a 2024 .rosz and a KTDash JSON and plays a generated encounter (the
    commands run in this process: the bad files below go through real processes)."""
    squad = cli_here("squad", "import", str(ROSZ), "--player", "Ana", "--out", "vesper.yaml",
                     cwd=tmp_path)
    assert squad.returncode == 0, squad.stderr
    roster = cli_here("roster", "import", str(KTDASH), "--out", "ashen.yaml", cwd=tmp_path)
    assert roster.returncode == 0, roster.stderr
    new = cli_here("new", "--squad", "vesper.yaml", "--roster", "ashen.yaml", "--seed", "3",
                   "--out", "encounter.yaml", cwd=tmp_path)
    assert new.returncode == 0, new.stderr
    assert "Enemy: Ashen Choir (test roster)." in new.stdout
    scenario = load_scenario(tmp_path / "encounter.yaml")
    assert [m.id for m in scenario.squads[0].models] == \
        ["sgt-kell-voss", "ada-quill", "lancer-trooper", "brunhilde"]
    assert scenario.roster.profiles["ash-zealot"].weapons[0].name == "Autogun"
    assert scenario.seed is not None
    game, state = new_game(scenario, scenario.seed)  # CP re-roll questions first: keep
    keeps: list[str] = []
    while (prompt := pending(game, state)).kind in ("engine", "reroll"):
        step(game, state, {"type": "reroll", "keep": True} if prompt.kind == "reroll"
             else {"type": "engine"})
        keeps += ["--answer", "keep"] if prompt.kind == "reroll" else []
    play = cli_here("play", "encounter.yaml", *keeps, "--answer", "quit", cwd=tmp_path)
    assert play.returncode == 0, play.stderr
    assert "ready: sgt-kell-voss, ada-quill, lancer-trooper, brunhilde" in play.stdout
    assert "Traceback" not in play.stderr


@pytest.mark.parametrize("content", [b"hello", b"<roster", b"PK\x05\x06" + b"\0" * 18])
def test_bad_input_through_the_real_command(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "bad.rosz").write_bytes(content)
    result = _solo_ops("squad", "import", "bad.rosz", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("solo-ops: error: bad.rosz")
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_link_at_out_is_not_followed(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.yaml"
    target.write_text("keep: me\n", encoding="utf-8")
    link = tmp_path / "squad.yaml"
    link.symlink_to(target)
    result = runner.invoke(main, ["squad", "import", str(ROSZ), "--out", str(link), "--force"])
    assert result.exit_code == 2
    assert "is a symbolic link" in _err(result)
    assert target.read_text(encoding="utf-8") == "keep: me\n"


@pytest.mark.parametrize("kind", ["squad", "roster"])
def test_a_value_the_loader_refuses_names_the_file_read(runner: CliRunner, tmp_path: Path,
                                                        kind: str) -> None:
    text = (IMPORTS / "vesper-2024.ros").read_text(encoding="utf-8")
    bad = tmp_path / "fast.ros"
    bad.write_text(text.replace(">6&quot;<", ">600&quot;<", 1), encoding="utf-8")
    out = tmp_path / "out.yaml"
    result = runner.invoke(main, [kind, "import", str(bad), "--out", str(out)])
    assert result.exit_code == 2
    line = _err(result).strip()
    assert line.startswith(f'solo-ops: error: {bad}: operative "Sgt Kéll Vøss": movement: ')
    assert line.endswith("got 600") and "\n" not in line
    assert not out.exists()
