"""Exit 2 with one line for every bad file, encoding or name, never exit 70 (issue #41, items 6
and 7): a ``.ros`` declaring ``encoding="bogus"``; bytes that are not UTF-8 in a name or a path
(``campaign new $'C\\xe9t\\xff'``, ``new --out $'e\\xff.yaml'``, ``play`` of such a file); a NUL;
a piped answer that is not UTF-8. And ``map`` typed at the prompt refuses a name the system
refuses (300 characters, ``/proc/x.png``) and the game goes on, as ``map x.txt`` always did."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo_ops.cli import main
from tests.support.paths import SCENARIOS
from tests.support.players import cli, cli_here, small_scenario


def run_bytes(*args: bytes, cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """The real command with arguments given as bytes (as a shell passes them)."""
    return subprocess.run([sys.executable.encode(), b"-m", b"solo_ops", *args], cwd=cwd,
                          input=stdin, capture_output=True, timeout=120,
                          env=dict(os.environ, COLUMNS="100"))


def test_a_ros_in_an_encoding_no_reader_knows_is_one_line(tmp_path: Path) -> None:
    ros = tmp_path / "team.ros"
    ros.write_text('<?xml version="1.0" encoding="bogus"?>\n<roster name="x"/>\n')
    for kind in ("squad", "roster"):
        run = cli(kind, "import", str(ros), "--out", str(tmp_path / "out.yaml"), cwd=tmp_path)
        assert run.returncode == 2 and run.stderr == (
            f"solo-ops: error: {ros}: <?xml encoding?>: cannot be read as XML in the encoding "
            "it declares (unknown encoding: bogus)\n")
    assert not (tmp_path / "out.yaml").exists()


@pytest.mark.parametrize(("args", "shown"), [
    ([b"campaign", b"new", b"C\xe9t\xff", b"--squad", str(SCENARIOS / "squads" /
                                                            "vesper.yaml").encode()],
     "argument 3 (C\\xe9t\\xff)"),
    ([b"new", b"--seed", b"3", b"--out", b"e\xff.yaml"], "argument 5 (e\\xff.yaml)"),
    ([b"play", b"x\xff.yaml"], "argument 2 (x\\xff.yaml)"),
    ([b"serve", b"--resume", b"s\xfe.json"], "argument 3 (s\\xfe.json)"),
])
def test_bytes_that_are_not_utf8_in_an_argument_are_named(tmp_path: Path, args: list[bytes],
                                                          shown: str) -> None:
    run = run_bytes(*args, cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.decode() == (f"solo-ops: error: {shown} is not UTF-8 text; solo-ops reads "
                                   "names and paths as UTF-8 (rename the file or choose another "
                                   "name)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written


def test_a_file_named_with_such_bytes_is_refused_not_crashed_on(tmp_path: Path) -> None:
    """A scenario whose very name holds them: ``play`` names the argument."""
    name = b"sc\xe9.yaml"
    (tmp_path / os.fsdecode(name)).write_bytes((SCENARIOS / "gallowdark-night-raid.yaml")
                                               .read_bytes())
    run = run_bytes(b"play", name, b"--answer", b"quit", cwd=tmp_path)
    assert run.returncode == 2 and b"argument 2 (sc\\xe9.yaml) is not UTF-8 text" in run.stderr


def test_a_nul_in_an_argument_is_one_line() -> None:
    result = CliRunner().invoke(main, ["map", "a\x00b.json", "--out", "x.png"])
    assert result.exit_code == 2 and result.stderr == (
        "solo-ops: error: argument 2 holds a NUL character, which no name or path may\n")


def test_a_piped_answer_that_is_not_utf8_is_named_by_its_line(tmp_path: Path) -> None:
    scenario = small_scenario(tmp_path)
    run = subprocess.run([sys.executable, "-m", "solo_ops", "play", str(scenario), "--save",
                          "g.json"], cwd=tmp_path, input=b"kell\n\xff\xfe\nstatus\n",
                         capture_output=True, timeout=120,
                         env=dict(os.environ, PYTHONIOENCODING="utf-8:strict"))
    assert run.returncode == 2
    assert run.stderr == b"solo-ops: error: the answers piped in: line 2 is not UTF-8 text\n"
    assert (tmp_path / "g.json").exists()  # kell's activation is saved


BAD_MAP_NAMES = ["a" * 300 + ".png", "/proc/x.png", "/nowhere/x.png", "x.txt", "saves"]
"""Names ``map`` must refuse at the prompt: too long for the system, a place nothing can be
written, a folder that does not exist, a kind it cannot draw, no kind at all."""


def test_map_at_the_prompt_refuses_a_bad_name_and_the_game_goes_on(tmp_path: Path) -> None:
    """Each bad name typed in turn in one game (run in this process: the command, not its
    process, is under test): each refused in one line naming it, in the order typed, no
    traceback, and the game answers ``status`` after the last."""
    scenario = small_scenario(tmp_path)
    maps = [arg for name in BAD_MAP_NAMES for arg in ("--answer", f"map {name}")]
    run = cli_here("play", str(scenario), "--save", "g.json", *maps, "--answer", "status",
                   cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    refusals = [line for line in run.stdout.splitlines() if line.startswith("✗")]
    assert len(refusals) == len(BAD_MAP_NAMES) and "Traceback" not in run.stderr, refusals
    assert refusals[0] == (f"✗ {BAD_MAP_NAMES[0][:59]}…: cannot be drawn there (File name too "
                           "long); choose another file")
    for name, refusal in zip(BAD_MAP_NAMES[1:], refusals[1:], strict=True):
        assert refusal.startswith(f"✗ {name}") and len(refusal) < 120, refusal
    assert "Turn 1 (firefight)" in run.stdout.split(refusals[-1], 1)[1]  # status came after
    assert not any(tmp_path.glob("*.png")) and not (tmp_path / "x.txt").exists()
