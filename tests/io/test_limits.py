"""Bounded work on any input, and every input error an input error (issue 17, items 1 and 2).

Documents: size, nesting, aliases, numbers, regular files only. Characteristics: one table of
limits for the command line and the readers. Boards: features, corners, size. Error lines:
one line, the file and the field, a short excerpt of the value.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.cli import main
from solo_ops.cli.common import emit_json
from solo_ops.core import documents
from solo_ops.core.errors import EXCERPT_CHARS, InputError, excerpt
from solo_ops.core.limits import BOARD, LIMITS, SCENARIO
from solo_ops.io.roster import load_roster
from solo_ops.io.scenario import indented_size_bound, load_scenario, nesting
from solo_ops.io.yamlio import read_document
from solo_ops.rules.kt2024 import AttackSpec
from tests.support.budget import examples
from tests.support.paths import BOARDS, ROSTERS, SCENARIOS

BOARD_TEXT = (BOARDS / "crypt-of-cynosure.yaml").read_text(encoding="utf-8")
ROSTER_TEXT = (ROSTERS / "ork-mob.yaml").read_text(encoding="utf-8")


def _refused(path: Path) -> InputError:
    with pytest.raises(InputError) as caught:
        read_document(path)
    line = caught.value.line()
    assert str(path) in line and "\n" not in line
    return caught.value


# -- documents -------------------------------------------------------------------------------------

def test_billion_laughs_is_refused_without_expanding(tmp_path: Path) -> None:
    lol = '["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
    pairs = zip("abcdefgh", "bcdefghi", strict=True)
    text = f"a: &a {lol}\n" + "".join(f"{b}: &{b} [{', '.join(['*' + a] * 9)}]\n"
                                       for a, b in pairs)
    assert len(text.encode()) < 900
    path = tmp_path / "laughs.yaml"
    path.write_text(text)
    assert "aliases are expanded" in _refused(path).message


def test_too_many_aliases_and_an_alias_inside_itself(tmp_path: Path) -> None:
    many = tmp_path / "many.yaml"
    many.write_text("a: &a 1\nb: [" + ", ".join(["*a"] * (documents.MAX_ALIASES + 1)) + "]\n")
    assert f"more than {documents.MAX_ALIASES} aliases" in _refused(many).message
    loop = tmp_path / "loop.yaml"
    loop.write_text("a: &x [1, *x]\n")
    assert "inside itself" in _refused(loop).message
    few = tmp_path / "few.yaml"
    few.write_text("a: &a {x: 1}\nb: *a\nc: *a\n")
    assert read_document(few) == {"a": {"x": 1}, "b": {"x": 1}, "c": {"x": 1}}


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_deep_nesting_is_an_input_error_not_a_recursion_error(tmp_path: Path,
                                                              suffix: str) -> None:
    path = tmp_path / f"deep{suffix}"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert "levels deep" in _refused(path).message
    ok = tmp_path / f"ok{suffix}"
    ok.write_text("[" * (documents.MAX_DEPTH - 1) + "1" + "]" * (documents.MAX_DEPTH - 1))
    assert read_document(ok)


def test_size_is_capped(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("notes: '" + "x" * documents.MAX_FILE_BYTES + "'\n")
    assert "too large" in _refused(path).message


def test_a_named_pipe_and_a_device_are_refused_at_once(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)  # nobody writes to it: opening it for reading would block forever
    assert "not a regular file" in _refused(pipe).message
    with pytest.raises(InputError, match="not a regular file"):
        read_document("/dev/zero")
    assert "folder" in _refused(tmp_path).message


@pytest.mark.parametrize(("value", "words"), [
    (".nan", "not a finite number"), (".inf", "not a finite number"),
    ("-.inf", "not a finite number"), ("1.0e+999", "not a finite number"),
    ("9" * 400, "number too large"), ("9" * 5000, "cannot be read"),
])
def test_numbers_that_are_not_numbers_name_the_file_and_field(tmp_path: Path, value: str,
                                                              words: str) -> None:
    path = tmp_path / "board.yaml"
    path.write_text(BOARD_TEXT.replace("width: 30", f"width: {value}", 1))
    error = _refused(path)
    assert words in error.message
    assert value not in error.line()  # never the whole value: at most a short excerpt
    if "cannot be read" not in words:
        assert error.field == "width"


@pytest.mark.parametrize(("text", "words"), [
    ('{"width": NaN}', "malformed JSON"), ('{"width": -Infinity}', "malformed JSON"),
    ('{"width": 1e999}', "not a finite number"), ('{"width": ' + "9" * 5000 + "}",
                                                  "malformed JSON"),
])
def test_json_is_strict(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "board.json"
    path.write_text(text)
    assert words in _refused(path).message
    with pytest.raises(json.JSONDecodeError):
        documents.loads_json(text)


def test_dates_stay_text_and_other_types_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.yaml"
    path.write_text("notes: 2024-05-01\nname: x\n")
    assert read_document(path) == {"notes": "2024-05-01", "name": "x"}
    path.write_text("notes: !!binary aGVsbG8=\n")
    assert "binary data" in _refused(path).message


def test_excerpt_is_short_and_never_renders_a_huge_number() -> None:
    assert len(excerpt("x" * 10_000)) == EXCERPT_CHARS
    assert excerpt(10**5000) == f"a {(10**5000).bit_length()}-bit number"
    assert excerpt(list(range(10**5))) == "a list of 100000 items"
    assert excerpt("short") == "'short'"


def test_json_output_is_strict() -> None:
    with pytest.raises(ValueError):
        emit_json({"distance": float("nan")})


# -- characteristics -------------------------------------------------------------------------------

def test_one_table_for_the_command_line_and_the_files(tmp_path: Path, runner) -> None:
    most = int(LIMITS["attacks"].high)
    AttackSpec(most, 3, 3, 4)
    with pytest.raises(InputError, match=f"from 0 to {most}"):
        AttackSpec(most + 1, 3, 3, 4)
    result = runner.invoke(main, ["combat", "fight", "--attacks", str(most + 1), "--hit", "3",
                                  "--damage", "3/4", "--defender-attacks", "2",
                                  "--defender-hit", "3", "--defender-damage", "3/4"])
    assert result.exit_code == 2 and "--attacks" in result.stderr
    path = tmp_path / "roster.yaml"
    path.write_text(ROSTER_TEXT.replace("attacks: 4", f"attacks: {most + 1}", 1))
    with pytest.raises(InputError) as caught:
        load_roster(path)
    assert caught.value.source == str(path)
    assert caught.value.field.endswith("weapons[0].attacks")
    assert f"at most {most}" in caught.value.message
    path.write_text(ROSTER_TEXT.replace("attacks: 4", f"attacks: {most}", 1))
    assert load_roster(path)


@pytest.mark.parametrize(("old", "new", "field"), [
    ("attacks: 4", "attacks: 100000000", "attacks"),
    ("damage: [4, 5]", "damage: [4, 500]", "damage[1]"),
    ("wounds: ", "wounds: 100000 #", "wounds"),
    ("damage_2018: 1", "damage_2018: 1000D6", "damage_2018"),
    ("shots: 1", "shots: 100000000", "shots"),
    ("strength: 4", "strength: 1000", "strength"),
])
def test_roster_characteristics_beyond_the_limits_name_file_and_field(
        tmp_path: Path, old: str, new: str, field: str) -> None:
    assert old in ROSTER_TEXT
    path = tmp_path / "roster.yaml"
    path.write_text(ROSTER_TEXT.replace(old, new, 1))
    with pytest.raises(InputError) as caught:
        load_roster(path)
    assert caught.value.source == str(path)
    assert caught.value.field.endswith(field)


@pytest.mark.parametrize("rule", ["lethal=1000", "piercing=0", "blast=nan", "torrent=inf",
                                  "devastating=inf:3", "range=1e400", "accurate=" + "9" * 5000])
def test_weapon_rule_values_are_limited(tmp_path: Path, rule: str) -> None:
    path = tmp_path / "roster.yaml"
    path.write_text(ROSTER_TEXT.replace("attacks: 4,", f"attacks: 4, rules: ['{rule}'],", 1))
    with pytest.raises(InputError) as caught:
        load_roster(path)
    assert "rules[0]" in caught.value.field and len(caught.value.line()) < 400


def _scenario_with(tmp_path: Path, roster_text: str) -> Path:
    doc = yaml.safe_load((SCENARIOS / "gallowdark-night-raid.yaml").read_text())
    (tmp_path / "my-roster.yaml").write_text(roster_text)
    doc["roster"] = "my-roster.yaml"
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def test_a_roster_mistake_names_the_roster_file(tmp_path: Path, runner) -> None:
    bad = ROSTER_TEXT.replace("attacks: 4", "attacks: 99", 1)
    path = _scenario_with(tmp_path, bad)
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    assert caught.value.source == str(tmp_path / "my-roster.yaml")
    out = tmp_path / "encounter.yaml"
    result = runner.invoke(main, ["new", "--roster", str(tmp_path / "my-roster.yaml"),
                                  "--out", str(out), "--seed", "1"])
    assert result.exit_code == 2
    assert "my-roster.yaml" in result.stderr and str(out) not in result.stderr
    assert not out.exists()


def test_a_squad_mistake_names_the_squad_file(tmp_path: Path, runner) -> None:
    squad = tmp_path / "my-squad.yaml"
    squad.write_text("player: Ana\nmodels:\n  - {name: no id, profile: {movement: 6, wounds: 8, "
                     "save: 4}}\n")
    out = tmp_path / "encounter.yaml"
    result = runner.invoke(main, ["new", "--squad", str(squad), "--out", str(out), "--seed", "1"])
    assert result.exit_code == 2, result.stderr
    assert f"{squad}: models[0].id: is required" in result.stderr
    assert not out.exists()


@pytest.mark.parametrize(("model", "words"), [
    (5, "expected a mapping"), ({"profile": "boy"}, "id: is required"),
    ({"id": "x", "profile": 7}, "expected a mapping"),
])
def test_a_model_that_is_not_a_model_is_an_input_error(tmp_path: Path, model: object,
                                                       words: str) -> None:
    doc = yaml.safe_load((SCENARIOS / "gallowdark-night-raid.yaml").read_text())
    doc["squads"][0] = {"player": "Ana", "models": [model]}
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(InputError, match=words) as caught:
        load_scenario(path)
    assert caught.value.source == str(path) and "squads[0].models[0]" in caught.value.field


# -- boards ----------------------------------------------------------------------------------------

def _board(tmp_path: Path, features: int = 1, width: float = 30, corners: int = 4,
           name: str = "board") -> Path:
    step = 28 / max(1, features)
    feats = []
    for i in range(features):
        x = 1 + i * step
        pts = [[round(x + 0.2 * (k % 2), 3), round(1 + 19 * k / (corners - 1), 3)]
               for k in range(corners)]
        feats.append({"id": f"w{i}", "traits": ["wall"], "line": pts})
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"name": "b", "width": width, "depth": 22,
                                    "features": feats}))
    return path


def test_board_limits_are_checked_on_load(tmp_path: Path, runner) -> None:
    assert runner.invoke(main, ["board", "check", str(_board(tmp_path, BOARD.features,
                                                             corners=2))]).exit_code == 0
    for path, words in ((_board(tmp_path, BOARD.features + 1, corners=2, name="many"),
                         "at most 150"),
                        (_board(tmp_path, 1, width=BOARD.inches + 1, name="wide"), "at most 60"),
                        (_board(tmp_path, 1, corners=BOARD.corners + 1, name="round"),
                         "corners")):
        result = runner.invoke(main, ["board", "check", str(path)])
        assert result.exit_code == 2 and words in result.stderr, result.stderr
        assert str(path) in result.stderr and len(result.stderr.splitlines()) == 1


def test_shipped_boards_are_far_below_the_limits(runner) -> None:
    for path in BOARDS.glob("*.yaml"):
        result = runner.invoke(main, ["board", "check", str(path), "--json"])
        assert result.exit_code == 0, result.stderr
        data = yaml.safe_load(path.read_text())
        assert len(data.get("features", [])) <= BOARD.features // 3


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "1e999", "201"])
def test_base_mm_must_be_a_real_size(runner, value: str) -> None:
    result = runner.invoke(main, ["geom", "distance", str(BOARDS / "crypt-of-cynosure.yaml"),
                                  "--from", "1,1", "--to", "3,3", "--base-mm", value, "--json"])
    assert result.exit_code == 2 and "--base-mm" in result.stderr, result.stderr
    assert result.stdout == ""


def test_scenario_counts_are_limited(tmp_path: Path) -> None:
    doc = yaml.safe_load((SCENARIOS / "volkus-stronghold-supplement-example.yaml").read_text())
    for folder in ("boards", "rosters", "squads"):
        (tmp_path / folder).symlink_to(SCENARIOS / folder)
    unit = doc["enemies"][0]
    doc["enemies"] = [{**unit, "id": f"e{i}", "models": [{**m, "id": f"e{i}-{j}"}
                                                          for j, m in enumerate(unit["models"])]}
                      for i in range(SCENARIO.enemies + 1)]
    path = tmp_path / "crowded.yaml"
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(InputError, match=f"at most {SCENARIO.enemies}") as caught:
        load_scenario(path)
    assert caught.value.field == "enemies"
    doc["enemies"] = [{**unit, "models": [{**unit["models"][0], "id": f"m{j}"}
                                          for j in range(SCENARIO.models + 1)]}]
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(InputError, match=f"at most {SCENARIO.models}") as caught:
        load_scenario(path)
    assert caught.value.field == "enemies[0].models"
    # the enemy models in all (issue #31: a turn's cost grows with them, not with units)
    units = SCENARIO.enemy_models // SCENARIO.models + 1
    doc["enemies"] = [{**unit, "id": f"e{i}", "models": [{**unit["models"][0],
                                                          "id": f"e{i}-{j}"}
                                                         for j in range(SCENARIO.models)]}
                      for i in range(units)]
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(InputError, match=f"place {units * SCENARIO.models} models in all; a "
                                         f"scenario may place at most {SCENARIO.enemy_models}"
                       ) as caught:
        load_scenario(path)
    assert caught.value.field == "enemies" and units <= SCENARIO.enemies


def test_a_scenario_too_large_to_save_is_refused_when_read(tmp_path: Path) -> None:
    """Issue #31: a save holds its scenario whole (indented JSON) and a save is at most the
    ``save`` file limit, so a scenario whose board, roster and squads together would make a
    save too large to read back is refused at once, not after the game was saved."""
    from solo_ops.io.scenario import parse_scenario

    scenario = load_scenario(SCENARIOS / "gallowdark-night-raid.yaml")
    data = dict(scenario.document)
    parse_scenario(data, "fine.yaml")  # the shipped scenario, inlined: far below
    data["notes"] = [[["x"] * 20] * 20] * 1500  # 600,000 short values: compact but deep
    with pytest.raises(InputError, match=rf"as a save holds it; at most {SCENARIO.saved_bytes}"):
        parse_scenario(data, "big.yaml")


JSONABLE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.sampled_from(list('ab,[]{}" \\\né')), max_size=6),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=examples(400), deadline=None)
@given(data=JSONABLE)
def test_the_saved_size_bound_is_never_below_the_indented_size(data: object) -> None:
    """The scenario check's quick bound (json's compact C text and the nesting) never under
    the size the save writes: a scenario under the bound needs no indented text at all."""
    exact = len(json.dumps(data, indent=2, ensure_ascii=False))
    assert indented_size_bound(data) >= exact


def test_the_bound_and_the_nesting_by_hand() -> None:
    # {"a": [1,2]} is 12 characters compact; 1 comma, 2 brackets open, 2 levels deep:
    # 12 + (1 + 2 * 2) * (1 + 2 * 2) = 37, against 29 indented
    assert len(json.dumps({"a": [1, 2]}, indent=2)) == 29
    assert indented_size_bound({"a": [1, 2]}) == 37
    assert [nesting(v) for v in (3, [], {"a": [1, {"b": []}]}, [[[[]]]])] == [0, 1, 4, 4]
    shipped = load_scenario(SCENARIOS / "volkus-stronghold-supplement-example.yaml").document
    assert indented_size_bound(shipped) < SCENARIO.saved_bytes // 4  # far below: no exact text
