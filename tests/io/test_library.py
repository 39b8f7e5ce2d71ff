"""Shipped data is package data, found by name from any folder (issue #11, item 7).

A player's own files are found by path; shipped boards, rosters, squads and scenarios by name,
case-insensitively, with an unambiguous prefix; the wheel carries them, so ``solo-ops new`` and
``solo-ops play`` work in an empty folder right after ``pip install``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from solo_ops.cli import main
from solo_ops.core.errors import InputError
from solo_ops.io import library
from solo_ops.io.roster import load_roster
from solo_ops.io.scenario import load_scenario
from tests.support.paths import BOARDS, ROOT, ROSTERS, SCENARIOS


def test_every_shipped_file_is_listed_by_kind() -> None:
    assert {s.name for s in library.shipped("board")} == {p.stem for p in BOARDS.glob("*.yaml")}
    assert {s.name for s in library.shipped("roster")} == {p.stem
                                                           for p in ROSTERS.glob("*.yaml")}
    assert {s.name for s in library.shipped("scenario")} == {p.stem
                                                             for p in SCENARIOS.glob("*.yaml")}
    assert {s.name for s in library.shipped("squad")} == {"vesper", "ashen-blades"}


def test_the_shipped_files_are_the_repositorys_top_level_scenarios_folder() -> None:
    """The design card's layout (issue #26): the shipped files live in ``scenarios/`` at the
    repository's top level, and the installed package finds them there (an editable install
    maps ``solo_ops.scenarios`` onto the folder itself)."""
    assert library.ROOT == (ROOT / "scenarios").resolve()
    assert not (ROOT / "solo_ops" / "data" / "scenarios").exists()


def test_pyproject_lists_every_package_folder() -> None:
    """``pyproject.toml`` lists its packages by hand (a find directive cannot map the top-level
    ``scenarios/`` folder into the package): every folder of ``solo_ops`` with an
    ``__init__.py`` must be in the list, or a wheel would install without it."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    folders = {".".join(p.parent.relative_to(ROOT).parts)
               for p in (ROOT / "solo_ops").rglob("__init__.py")}
    assert folders - listed == set(), "packages missing from pyproject.toml"
    assert listed - folders == {"solo_ops.scenarios"}
    assert config["tool"]["setuptools"]["package-dir"] == {"solo_ops.scenarios": "scenarios"}


def test_names_are_case_insensitive_and_take_a_suffix_or_a_prefix() -> None:
    want = ROSTERS / "traitor-cult.yaml"
    for typed in ("traitor-cult", "Traitor-Cult", "traitor-cult.yaml", "TRAIT", "t"):
        assert library.resolve("roster", typed).resolve() == want.resolve(), typed


def test_an_ambiguous_prefix_names_the_candidates() -> None:
    with pytest.raises(InputError) as err:
        library.resolve("board", "gallowdark", source="--board")
    line = err.value.line()
    assert line.startswith("--board: ")
    assert "gallowdark-cloister" in line and "gallowdark-corridors" in line


def test_an_unknown_name_lists_what_ships() -> None:
    with pytest.raises(InputError) as err:
        library.resolve("roster", "space-elves", source="--roster")
    line = err.value.line()
    assert "space-elves" in line and "traitor-cult" in line and "ork-mob" in line


def test_a_path_wins_over_a_shipped_name(tmp_path: Path) -> None:
    own = tmp_path / "ork-mob"
    own.write_text("name: mine\n", encoding="utf-8")
    assert library.resolve("roster", "ork-mob", base=tmp_path) == own
    # ... and a relative path is taken from the base folder, not the current one
    assert library.resolve("roster", "ork-mob").resolve() == (ROSTERS / "ork-mob.yaml").resolve()


def test_a_scenario_may_name_its_board_and_roster(tmp_path: Path) -> None:
    text = (SCENARIOS / "volkus-manufactorum-sweep.yaml").read_text(encoding="utf-8")
    text = text.replace("boards/volkus-manufactorum.yaml", "Volkus-Manufactorum")
    text = text.replace("rosters/ork-mob.yaml", "ork-mob")
    assert "Volkus-Manufactorum" in text and "roster: ork-mob" in text
    mine = tmp_path / "mine.yaml"
    mine.write_text(text, encoding="utf-8")
    scenario = load_scenario(mine)
    assert scenario.board.name == "Volkus: manufactorum"
    assert scenario.roster is not None and "big-shoota" in scenario.roster.profiles


def test_load_by_name() -> None:
    assert load_scenario("volkus-stronghold-supplement").name.startswith("Supplement example")
    assert "cultist" in load_roster("traitor-cult").profiles


def test_list_commands(runner) -> None:
    result = runner.invoke(main, ["list", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["shipped"]
    kinds = {(r["kind"], r["name"]) for r in rows}
    assert ("board", "volkus-stronghold") in kinds
    assert ("scenario", "gallowdark-night-raid") in kinds
    assert ("squad", "vesper") in kinds
    result = runner.invoke(main, ["board", "list", "--json"])
    assert result.exit_code == 0
    assert {r["kind"] for r in json.loads(result.stdout)["shipped"]} == {"board"}


def test_list_takes_a_kind_singular_or_plural_and_names_a_wrong_one(runner) -> None:  # type: ignore[no-untyped-def]
    plural = runner.invoke(main, ["list", "boards", "--json"])
    assert plural.exit_code == 0, plural.output
    for word in ("board", "Boards"):
        again = runner.invoke(main, ["list", word, "--json"])
        assert again.exit_code == 0 and again.stdout == plural.stdout
    wrong = runner.invoke(main, ["list", "scenaros"])
    assert wrong.exit_code == 2 and wrong.stdout == ""
    assert "'scenaros' is not one of 'scenarios', 'boards', 'rosters', 'squads'" in wrong.stderr
    assert "Traceback" not in wrong.stderr and wrong.stderr.count("\n") == 1


def test_a_narrow_terminal_folds_the_table_never_cuts_a_name(runner) -> None:  # type: ignore[no-untyped-def]
    """At 60 columns a scenario's board name no longer fits its column: it is folded over
    two lines, all its letters there (it used to end in "…")."""
    result = runner.invoke(main, ["list", "scenarios"], env={"COLUMNS": "60"})
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout
    cells = "".join(line.split("│")[3].strip() for line in result.stdout.splitlines()
                    if line.count("│") == 4)
    for row in json.loads(runner.invoke(main, ["list", "scenarios", "--json"]).stdout)[
            "shipped"]:
        assert row["details"].replace(" ", "") in cells.replace(" ", "")


def test_the_wheel_carries_the_data_and_plays_from_an_empty_folder(tmp_path: Path) -> None:
    """Build the wheel as pip would, install it (without the editable checkout) into a folder,
    and from an empty folder generate an encounter and start playing it."""
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(wheels), str(ROOT)], check=True, capture_output=True)
    (wheel,) = wheels.glob("solo_ops-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for stem in ("boards/volkus-stronghold", "rosters/traitor-cult", "squads/vesper",
                 "gallowdark-night-raid"):
        assert f"solo_ops/scenarios/{stem}.yaml" in names, stem
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site), str(wheel)], check=True, capture_output=True)
    empty = tmp_path / "table"
    empty.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}

    def solo(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "solo_ops", *args], cwd=empty, env=env,
                              capture_output=True, text=True, timeout=120)

    where = subprocess.run([sys.executable, "-c", "import solo_ops; print(solo_ops.__file__)"],
                           cwd=empty, env=env, capture_output=True, text=True, check=True)
    assert where.stdout.strip().startswith(str(site)), where.stdout
    made = solo("new", "--seed", "7", "--out", "e.yaml")
    assert made.returncode == 0, made.stderr
    assert (empty / "e.png").stat().st_size > 0
    played = solo("play", "e.yaml", "--answer", "quit")
    assert played.returncode == 0, played.stderr
    assert "Saved to" in played.stdout
    listed = solo("board", "list", "--json")
    assert listed.returncode == 0 and "volkus-stronghold" in listed.stdout
