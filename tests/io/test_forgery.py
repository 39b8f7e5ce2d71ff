"""A log that cannot be forged past ``replay``, a save that cannot be hand-edited into play
(issue #31, items 2 to 4).

A small game is played through the real command, with an undo in it; then its files are edited
as a cheat (or a damaged disk) would: a die roll, a base line appended to make ``replay`` start
after the forgery, a roll inside a step that was later undone, the header's scenario, the set-up,
an answer; a checkpoint given 99 wounds or a point off the board. ``replay`` names the first
forged line (exit 1) or refuses the log in one line (exit 2); ``play --resume`` refuses a forged
checkpoint in one line naming the field and leaves the files as they were. Hundreds of random
edits later, never an internal error, and with the save beside it never a forged log that
replays as identical.

The fuzzing is in two parts. By default (the README's test command) every field of a checkpoint
is forged once, sealed again so that the checks must refuse it, and every kind of log edit is
made once at each kind of line (the header, the set-up, a step with dice, a step an undo voided,
the undo line, the last step): the same properties on chosen cases, each a command run
in-process. The checkpoints are forged in a save a few answers into the game (resuming it
replays eight steps, not thirty-four), which holds every part a checkpoint has. A handful of
random edits follow; ``SOLO_OPS_TEST_BUDGET=full`` (CI's slow run) makes them the three hundred
checkpoints and two hundred logs of the longer game, as before. By default the played game
itself is shorter (its undo from the sixth answer on rather than the fifteenth:
:data:`UNDONE_FROM`), so that each of the logs forged from it replays in half the time.
"""

from __future__ import annotations

import json
import random
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.io.savegame import checkpoint_hash
from tests.support.budget import FULL, examples
from tests.support.players import bot_answers, cli_here, small_scenario, write_answers
from tests.support.saves import default_files, seal_save

STEM = "small-kt2024-5"
SECONDS = 10.0
"""No forged file may take longer than this to be answered (issue #31's fuzz bound)."""


UNDONE_FROM = 14 if FULL else 5
"""Where the played game's undone answer is looked for (its index): from the fifteenth answer
with the full budget, as the fuzzers always had it; from the sixth by default, which makes a
game about half as long for every forged log to replay, with every kind of line in it all
the same (the header, the set-up, steps with dice, an undone step that rolled, the undo)."""


AFTER_THE_UNDO = 4 if FULL else 2
"""Answers played after the undone one is answered again: four with the full budget, as the
fuzzers always had it; two by default (the last step is still a step after the undo, and every
forged log of the played game has two answers fewer to replay)."""


@pytest.fixture(scope="module")
def bot_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[Any]]:
    """The scripted player's whole small game, played once in-process for both games below
    (the played one and the short one take their answers from it): its typed answers and its
    log's records."""
    keep: dict[str, Any] = {}
    lines, _final = bot_answers(small_scenario(tmp_path_factory.mktemp("bot")), 5, keep=keep)
    return lines, keep["state"].log


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory,
           bot_game: tuple[list[str], list[Any]]) -> dict[str, Any]:
    """A small game through the real command: the answers up to the first from
    :data:`UNDONE_FROM` on whose steps rolled dice (a re-roll: undone with it), an undo of it,
    the answer again, and :data:`AFTER_THE_UNDO` more. (Which answer that is depends on the
    rules: the players' fight and re-roll choices of issue #28 moved it from the fifteenth to
    the seventeenth.)"""
    folder = tmp_path_factory.mktemp("forgery")
    scenario = small_scenario(folder, settings="undo: any")  # an undo after dice were shown
    lines, records = bot_game
    answered = [i for i, r in enumerate(records) if r["action"]["type"] not in ("engine",
                                                                               "setup")]
    assert len(answered) == len(lines)
    ends = [*answered[1:], len(records)]
    k = next(k for k in range(UNDONE_FROM, len(lines) - 4)  # its step or the engine's after
             if any(r.get("rolls") for r in records[answered[k]:ends[k]]))
    answers = [*lines[:k + 1], "undo", lines[k], *lines[k + 1:k + 1 + AFTER_THE_UNDO]]
    run = cli_here("play", str(scenario), "--answers", str(write_answers(folder, answers)),
                   cwd=folder)
    assert run.returncode == 0, run.stderr
    save, log = default_files(folder, scenario)
    return {"save": save.read_bytes(), "log": log.read_bytes()}


SHORT_ANSWERS = 6
"""How many answers into the game the checkpoints are forged (eight steps: the set-up, the
answers and the engine's steps between them; the enemy has activated and the fog has moved)."""


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory,
          bot_game: tuple[list[str], list[Any]]) -> dict[str, Any]:
    """The same small game through the real command, stopped after :data:`SHORT_ANSWERS`
    answers: its save and log."""
    folder = tmp_path_factory.mktemp("forgery-short")
    scenario = small_scenario(folder)
    lines = bot_game[0]
    run = cli_here("play", str(scenario), "--answers",
                   str(write_answers(folder, lines[:SHORT_ANSWERS])), cwd=folder)
    assert run.returncode == 0, run.stderr
    save, log = default_files(folder, scenario)
    return {"save": save.read_bytes(), "log": log.read_bytes()}


def lay_out(played: dict[str, Any], folder: Path, log: bytes | None = None,
            save: bytes | None = None) -> tuple[Path, Path]:
    saves = folder / "saves"
    saves.mkdir(exist_ok=True)
    save_path, log_path = saves / f"{STEM}.json", saves / f"{STEM}.log.jsonl"
    save_path.write_bytes(played["save"] if save is None else save)
    log_path.write_bytes(played["log"] if log is None else log)
    return save_path, log_path


def entries(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.decode().splitlines()]


def written(items: list[dict[str, Any]]) -> bytes:
    """Log lines as solo-ops writes them (compact JSON, one a line)."""
    return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for e in items).encode()


def undone_lines(items: list[dict[str, Any]]) -> list[int]:
    """The indexes of the step lines an undo line voids."""
    in_force: list[int] = []
    voided: list[int] = []
    for index, item in enumerate(items):
        if "action" in item:
            in_force.append(index)
        elif item.get("undo"):
            voided += in_force[item["keep"]:]
            del in_force[item["keep"]:]
    return voided


def forge_roll(items: list[dict[str, Any]], index: int) -> tuple[list[int], list[int]]:
    """Change the first die of line ``index``'s first roll by one pip (in place)."""
    roll = items[index]["rolls"][0]
    before = list(roll["faces"])
    roll["faces"] = [before[0] % 6 + 1, *before[1:]]
    return before, roll["faces"]


def replay(log: Path, *extra: str) -> tuple[int, str, str]:
    """``solo-ops replay LOG EXTRA...`` through click's runner (the command line in this
    process): its exit status, stdout and stderr."""
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        runner = CliRunner()
    run = runner.invoke(main, ["replay", str(log), *extra])
    return run.exit_code, run.stdout, run.stderr


# -- the forgery: a roll, and a base line after it ----------------------------------------
def test_a_forged_roll_with_a_base_line_appended_is_named(played: dict[str, Any],
                                                          tmp_path: Path) -> None:
    """The attack of issue #31: edit a die roll, then append ``{"base": {"checkpoint": <the
    save's checkpoint>, "steps": <n>}}`` so that replay would start after it. ``replay LOG
    --save SAVE`` names the forged record, its roll and both dice."""
    items = entries(played["log"])
    doc = json.loads(played["save"])
    index = next(i for i, e in enumerate(items) if i > 1 and e.get("rolls")
                 and i not in undone_lines(items))
    before, after = forge_roll(items, index)
    items.append({"base": {"checkpoint": doc["checkpoint"], "steps": len(doc["steps"])}})
    save, log = lay_out(played, tmp_path, written(items))
    code, out, err = replay(log, "--save", str(save))
    assert code == 1, err
    n = items[index]["n"]
    assert f"Step {n} (line {index + 1}) differs from the log: roll 1 (" in out
    assert f"is {after} in the log, the dice give {before}" in out
    assert "it is not the line the save recorded" in out
    assert "identical" not in out
    code, out, _err = replay(log, "--save", str(save), "--json")
    found = json.loads(out)
    assert code == 1 and found["identical"] is False and found["proven"] is False
    assert found["first_difference"] == n and found["line"] == index + 1


def test_a_base_line_alone_is_named_where_it_was_added(played: dict[str, Any],
                                                       tmp_path: Path) -> None:
    items = entries(played["log"])
    doc = json.loads(played["save"])
    items.append({"base": {"checkpoint": doc["checkpoint"], "steps": len(doc["steps"])}})
    _save, log = lay_out(played, tmp_path, written(items))
    code, out, _err = replay(log)
    assert code == 1
    assert f"Line {len(items)} differs from the log: " in out


@pytest.mark.parametrize("base", [{"steps": "x"}, {"steps": 3}, {"checkpoint": 1, "steps": 2},
                                  "x", {"steps": -1, "checkpoint": {}}])
def test_a_damaged_base_line_is_a_clean_answer(played: dict[str, Any], tmp_path: Path,
                                               base: Any) -> None:
    """``{"base": {"steps": "x"}}`` was an internal error (exit 70): with its save it is the
    line named (exit 1), without one a line saying the save is needed (exit 2)."""
    items = [*entries(played["log"]), {"base": base}]
    _save, log = lay_out(played, tmp_path, written(items))
    code, out, err = replay(log)
    assert code == 1 and f"Line {len(items)} differs from the log: " in out, out + err
    alone = tmp_path / "alone.log.jsonl"
    shutil.copyfile(log, alone)
    code, out, err = replay(alone)
    assert code == 2 and err.count("\n") == 1, out + err
    assert f"alone.log.jsonl: line {len(items)}: " in err and "internal error" not in err


# -- every line is checked -------------------------------------------------------------------------
def test_a_roll_edited_inside_an_undone_step_is_named(played: dict[str, Any],
                                                      tmp_path: Path) -> None:
    items = entries(played["log"])
    voided = [i for i in undone_lines(items) if items[i].get("rolls")]
    assert voided, "the undo took back steps that rolled dice"
    before, after = forge_roll(items, voided[0])
    _save, log = lay_out(played, tmp_path, written(items))
    code, out, _err = replay(log)
    n = items[voided[0]]["n"]
    assert code == 1
    assert f"Step {n} (undone; line {voided[0] + 1}) differs from the log: roll 1 (" in out
    assert f"is {after} in the log, the dice give {before}" in out
    alone = tmp_path / "alone.log.jsonl"  # without the save: the dice alone catch it
    shutil.copyfile(log, alone)
    code, out, _err = replay(alone)
    assert code == 1 and f"Step {n} (undone; line {voided[0] + 1}) differs" in out


def test_the_set_up_is_checked(played: dict[str, Any], tmp_path: Path) -> None:
    items = entries(played["log"])
    assert items[1]["n"] == 0 and items[1]["rolls"]
    before, after = forge_roll(items, 1)
    _save, log = lay_out(played, tmp_path, written(items))
    code, out, _err = replay(log)
    assert code == 1
    assert "Step 0 (line 2) differs from the log: roll 1 (" in out
    assert f"is {after} in the log, the dice give {before}" in out


def test_the_header_scenario_is_checked(played: dict[str, Any], tmp_path: Path) -> None:
    """A wall moved in the header's board: the header no longer names its game (with or
    without the save), and the save's game is another."""
    items = entries(played["log"])
    features = items[0]["scenario"]["board"]["features"]
    wall = next(f for f in features if "line" in f or "polygon" in f)
    key = "line" if "line" in wall else "polygon"
    wall[key][0] = [wall[key][0][0] + 0.5, wall[key][0][1]]
    _save, log = lay_out(played, tmp_path, written(items))
    code, out, _err = replay(log)
    assert code == 1 and "Line 1 (the header) differs from the log: " in out
    alone = tmp_path / "alone.log.jsonl"
    shutil.copyfile(log, alone)
    code, out, _err = replay(alone)
    assert code == 1 and "Line 1 (the header) differs from the log: the header's scenario " \
        "or seed is not the game its id names" in out


def test_an_edited_answer_is_named_at_its_own_step(played: dict[str, Any],
                                                   tmp_path: Path) -> None:
    items = entries(played["log"])
    index = next(i for i, e in enumerate(items) if e.get("action", {}).get("type") == "activate"
                 and i not in undone_lines(items))
    action = items[index]["action"]
    action["stance"] = "conceal" if action.get("stance") == "engage" else "engage"
    _save, log = lay_out(played, tmp_path, written(items))
    code, out, _err = replay(log)
    assert code == 1 and f"Step {items[index]['n']} (line {index + 1}) differs" in out


def test_the_untouched_log_is_proven_line_by_line(played: dict[str, Any],
                                                  tmp_path: Path) -> None:
    save, log = lay_out(played, tmp_path)
    code, out, err = replay(log)
    assert code == 0, err
    assert "Every step came out identical" in out
    assert f"Every line is the one its save {save} recorded." in out
    code, out, _err = replay(log, "--json")
    assert json.loads(out)["proven"] is True


# -- checkpoints that cannot be hand-edited into play ----------------------------------------------
def _resume(save: Path) -> tuple[int, str]:
    run = CliRunner().invoke(main, ["play", "--resume", str(save), "--answer", "quit"])
    return run.exit_code, run.output


def _forced_rebase(doc: dict[str, Any]) -> None:
    """Edit a step's fingerprint: the history no longer replays into the saved game, so the
    game would have to go on from the checkpoint."""
    doc["steps"][2] = "000000000000"


def test_a_checkpoint_edited_with_its_steps_is_refused_and_nothing_changes(
        played: dict[str, Any], tmp_path: Path) -> None:
    """The issue's forgery: one entry of ``steps`` changed and ``operatives[0].wounds = 99``:
    refused in one line naming the checkpoint (the first field the save's seal finds edited,
    with the backup to restore); the save and log are untouched."""
    doc = json.loads(played["save"])
    _forced_rebase(doc)
    doc["checkpoint"]["operatives"][0]["wounds"] = 99
    forged = json.dumps(doc).encode()
    save, log = lay_out(played, tmp_path, save=forged)
    code, output = _resume(save)
    assert code == 2, output
    assert f"{save}: checkpoint: was edited after it was saved" in output
    # no 99 wounds shown (the save's own path may hold "99/": a temporary folder pytest-499)
    assert output.count("\n") == 1 and "99/" not in output.replace(str(save), "")
    assert save.read_bytes() == forged and log.read_bytes() == played["log"]


@pytest.mark.parametrize(("where", "value", "expected"), [
    (("operatives", 0, "wounds"), 99, "checkpoint.operatives[0].wounds: 99 is not 0-8"),
    (("operatives", 0, "at"), 999, "checkpoint.operatives[0].at: 999 is not a point x, y or "
                                   "none"),
    (("operatives", 0, "at"), [999, 1], "checkpoint.operatives[0].at: point 999,1 is off the "
                                        "board"),
    (("operatives", 0, "id"), "ghost", "checkpoint.operatives[0].id: 'ghost' is not one of the "
                                       "players' operatives"),
    (("units", 0, "fsm"), "flying", "checkpoint.units[0].fsm: 'flying' is not a state"),
    (("counters", 0, "hidden_order"), 9, "checkpoint.counters[0].hidden_order: 9 is not an "
                                         "order 1-6"),
    (("turn",), "x", "checkpoint.turn: 'x' is not a whole number"),
    (("dice",), {"kind": "loaded"}, "checkpoint.dice: "),
])
def test_a_sealed_checkpoint_that_no_game_could_reach_is_refused(
        played: dict[str, Any], tmp_path: Path, where: tuple[Any, ...], value: Any,
        expected: str) -> None:
    """Even with its hash made to match (a forger with the source code), a checkpoint passes
    the checks a scenario passes before play goes on from it: one line naming the field."""
    doc = json.loads(played["save"])
    _forced_rebase(doc)
    node = doc["checkpoint"]
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    doc["checkpoint"]["hash"] = checkpoint_hash(doc["checkpoint"], doc["steps"])
    seal_save(doc)  # the forger seals the whole save again too
    forged = json.dumps(doc).encode()
    save, log = lay_out(played, tmp_path, save=forged)
    code, output = _resume(save)
    assert code == 2, output
    assert output.count("\n") == 1 and f"{save}: {expected}" in output, output
    assert save.read_bytes() == forged and log.read_bytes() == played["log"]


def test_a_save_whose_scenario_was_edited_is_refused(played: dict[str, Any],
                                                     tmp_path: Path) -> None:
    """A wall moved in the save's own scenario is refused in one line: by the save's seal
    (naming the scenario), and with the seal made again by the game id, which no longer names
    it."""
    doc = json.loads(played["save"])
    walls = doc["scenario"]["board"]["features"]
    wall = next(f for f in walls if "line" in f or "polygon" in f)
    key = "line" if "line" in wall else "polygon"
    wall[key][0] = [wall[key][0][0] + 0.5, wall[key][0][1]]
    for sealed_again, expected in (
            (False, "scenario: was edited after it was saved"),
            (True, "game_id: the scenario, the seed or the dice scheme is not the game the "
                   "save's id names")):
        if sealed_again:
            seal_save(doc)
        forged = json.dumps(doc).encode()
        folder = tmp_path / str(sealed_again)
        folder.mkdir()
        save, log = lay_out(played, folder, save=forged)
        code, output = _resume(save)
        assert code == 2 and output.count("\n") == 1, output
        assert f"{save}: {expected}" in output
        assert save.read_bytes() == forged and log.read_bytes() == played["log"]


def test_an_edited_checkpoint_with_intact_steps_is_not_needed(played: dict[str, Any],
                                                              tmp_path: Path) -> None:
    """The steps replay into the saved game: the game goes on from them, says the checkpoint
    was not trusted, and the next save writes it anew (a checkpoint edited with the save's seal
    made again, as a forger with the source could: the checkpoint's own hash finds it)."""
    doc = json.loads(played["save"])
    doc["checkpoint"]["operatives"][0]["wounds"] = 99
    seal_save(doc)
    save, _log = lay_out(played, tmp_path, save=json.dumps(doc).encode())
    run = CliRunner().invoke(main, ["play", "--resume", str(save), "--answer", "status",
                                    "--answer", "save"])
    assert run.exit_code == 0, run.output
    assert "This save's checkpoint cannot be trusted (it does not match its hash" in run.output
    assert json.loads(save.read_text())["checkpoint"] == json.loads(played["save"])["checkpoint"]


# -- hundreds of forgeries: clean answers only -----------------------------------------------------
VALUES = (None, True, -1, 0, 7, 99, 10**12, 2.5, "x", "", [], {}, [1, 2], [999, 999], [-5, 3],
          {"a": 1}, "idle", "engage", "p1")
"""What a forger writes in place of a value: every JSON type, out-of-range numbers, points off
the board, words of the game's own vocabulary."""


def _mutate(value: Any, rng: random.Random) -> Any:
    return rng.choice([*VALUES, value])


def _resumes_cleanly(played: dict[str, Any], folder: Path, doc: dict[str, Any],
                     runner: CliRunner, what: Any) -> int:
    """Resume the save ``doc`` (its checkpoint forged, its steps forcing the game onto it) in
    ``folder``: exit 0 (the forged value is a state a game can be in) or one input error line
    (exit 2), within :data:`SECONDS`, never an internal error and never 99 wounds in play.
    Returns the exit status."""
    folder.mkdir()
    save, _log = lay_out(played, folder, save=json.dumps(doc).encode())
    start = time.process_time()  # CPU: a busy machine does not stretch it (in-process run)
    run = runner.invoke(main, ["play", "--resume", str(save), "--answer", "status",
                               "--answer", "quit"])
    assert time.process_time() - start < SECONDS, what
    assert run.exit_code in (0, 2), (what, run.output[-400:])
    assert "internal error" not in run.output and "/99W" not in run.output, what
    return run.exit_code


def checkpoint_fields(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every field of a checkpoint, as a path: each of the state's, and each of the first
    operative's, unit's and counter's (the lists of them are alike), the dice's own."""
    paths: list[tuple[Any, ...]] = [(key,) for key in data if key != "hash"]
    for group in ("operatives", "units", "counters"):
        if data.get(group):
            paths += [(group, 0, key) for key in data[group][0]]
    if isinstance(data.get("dice"), dict):
        paths += [("dice", key) for key in data["dice"]]
    return paths


def test_every_field_of_a_checkpoint_forged_is_a_state_or_an_input_error(
        short: dict[str, Any], tmp_path: Path) -> None:
    """Each field of the checkpoint in turn (:func:`checkpoint_fields`) given a value of
    another kind (:data:`VALUES`, in turn), the checkpoint sealed again (a forger with the
    source code: the checks, not the hash, must refuse it), then the first few unsealed (the
    hash refuses them): never an internal error, and most are refused."""
    base = json.loads(short["save"])
    _forced_rebase(base)
    paths = checkpoint_fields(base["checkpoint"])
    assert len(paths) > 60 and ("operatives", 0, "wounds") in paths
    runner = CliRunner()
    codes: dict[int, int] = {}
    for case, path in enumerate([*paths, *paths[:4]]):
        doc = json.loads(json.dumps(base))
        node: Any = doc["checkpoint"]
        for key in path[:-1]:
            node = node[key]
        old = node[path[-1]]
        value = VALUES[case % len(VALUES)]
        node[path[-1]] = value if value != old else [old]
        if case < len(paths):  # a forger with the source: the hash and the save's seal
            doc["checkpoint"]["hash"] = checkpoint_hash(doc["checkpoint"], doc["steps"])
            seal_save(doc)
        code = _resumes_cleanly(short, tmp_path / f"f{case}", doc, runner, path)
        codes[code] = codes.get(code, 0) + 1
    assert codes.get(2, 0) > len(paths) // 2, codes


PARTS = 7 if FULL else 1
"""The parts the full budget's forgeries are cut into (each a test of its own, so that CI's
workers share them out: one test of three minutes left a core idle for most of it). Every
part draws the same random forgeries in the same order and checks every ``PARTS``-th of
them, from its own: together they are the whole run's cases, each checked as before. Seven,
an odd number prime to the five kinds of log edit, so that each part has forgeries of every
kind, sealed and not."""


@pytest.mark.parametrize("part", range(PARTS))
def test_three_hundred_forged_checkpoints_are_input_errors(played: dict[str, Any],
                                                           short: dict[str, Any],
                                                           tmp_path: Path, part: int) -> None:
    """Each a checkpoint with one random field changed (sealed again half the time) in a save
    whose steps force the game onto it: exit 0 (the change is a state a game can be in) or
    one input error line (exit 2) — never an internal error; and never 99 wounds in play.
    Three hundred in the longer game with the full budget (in :data:`PARTS` parts); a few in
    the short one by default (the fields one by one are the test above)."""
    rng = random.Random(31)
    game = played if FULL else short
    base = json.loads(game["save"])
    _forced_rebase(base)
    runner = CliRunner()
    codes: dict[int, int] = {}
    cases = examples(300, share=20)
    for case in range(cases):
        doc = json.loads(json.dumps(base))
        node: Any = doc["checkpoint"]
        path: list[Any] = []
        while isinstance(node, (dict, list)) and node and (not path or rng.random() < 0.7):
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            path.append(key)
            parent, node = node, node[key]
        if not path:
            continue
        parent[path[-1]] = _mutate(node, rng)
        if case % PARTS != part:
            continue  # another part's (drawn all the same: the draws after it are the same)
        if case % 2:  # a forger with the source: the checkpoint's hash and the save's seal
            doc["checkpoint"]["hash"] = checkpoint_hash(doc["checkpoint"], doc["steps"])
            seal_save(doc)
        code = _resumes_cleanly(game, tmp_path / f"c{case}", doc, runner, (case, path))
        codes[code] = codes.get(code, 0) + 1
    assert codes.get(2, 0) > sum(codes.values()) // 2, codes


def _replays_as_forged(played: dict[str, Any], folder: Path, forged: list[dict[str, Any]],
                       runner: CliRunner, what: Any) -> None:
    """``replay`` of the log ``forged`` with the save beside it, in ``folder``: it names a
    line (exit 1) or refuses the log (exit 2) within :data:`SECONDS` — never "identical",
    never an internal error (an edit that leaves the log as it was is not a forgery)."""
    folder.mkdir()
    _save, log = lay_out(played, folder, written(forged))
    if log.read_bytes() == played["log"]:
        return
    start = time.process_time()  # CPU: a busy machine does not stretch it (in-process run)
    run = runner.invoke(main, ["replay", str(log)])
    assert time.process_time() - start < SECONDS, what
    assert run.exit_code in (1, 2), (what, run.output[-400:])
    assert "internal error" not in run.output and "identical" not in run.output, what


def _edit_value(line: Any, rng: random.Random) -> None:
    """Change one value inside a log line (in place), walking down from its top at random."""
    node: Any = line
    while isinstance(node, (dict, list)) and node:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        if not isinstance(node[key], (dict, list)) or rng.random() < 0.3:
            old = node[key]
            node[key] = _mutate(old, rng)
            if node[key] == old:
                node[key] = [old]
            return
        node = node[key]


def test_every_kind_of_log_edit_at_every_kind_of_line_is_named(played: dict[str, Any],
                                                              tmp_path: Path) -> None:
    """Each edit (a value changed, the line removed, the line repeated) at each kind of line
    (the header, the set-up, a step that rolled dice, a step an undo voided, the undo line,
    the last step), and a base line or an undo line appended: with the save beside it
    ``replay`` names a line (exit 1) or refuses the log (exit 2), never "identical"."""
    items = entries(played["log"])
    doc = json.loads(played["save"])
    voided = undone_lines(items)
    lines = {"header": 0, "set-up": 1,
             "a step with dice": next(i for i, e in enumerate(items) if i > 1 and e.get("rolls")
                                      and i not in voided),
             "an undone step": voided[0],
             "the undo line": next(i for i, e in enumerate(items) if e.get("undo")),
             "the last step": len(items) - 1}
    rng = random.Random(17)
    runner = CliRunner()
    case = 0
    for where, index in lines.items():
        for edit in ("value", "removed", "repeated"):
            forged = json.loads(json.dumps(items))
            if edit == "value":
                _edit_value(forged[index], rng)
            elif edit == "removed":
                del forged[index]
            else:
                forged.insert(index, json.loads(json.dumps(forged[index])))
            case += 1
            _replays_as_forged(played, tmp_path / f"e{case}", forged, runner, (where, edit))
    for steps in (len(doc["steps"]), 3, "x"):
        case += 1
        forged = [*items, {"base": {"checkpoint": doc["checkpoint"], "steps": steps}}]
        _replays_as_forged(played, tmp_path / f"e{case}", forged, runner, ("base", steps))
    for keep in (0, 2, len(doc["steps"]), -1):
        case += 1
        forged = [*items, {"undo": True, "keep": keep}]
        _replays_as_forged(played, tmp_path / f"e{case}", forged, runner, ("undo", keep))


@pytest.mark.parametrize("part", range(PARTS))
def test_two_hundred_forged_logs_never_replay_as_identical(played: dict[str, Any],
                                                           tmp_path: Path, part: int) -> None:
    """Random edits of one line (a value changed, a line added, removed or repeated, a base
    line appended): with the save beside it ``replay`` names a line (exit 1) or refuses the
    log (exit 2) — never "identical", never an internal error. Two hundred with the full
    budget (in :data:`PARTS` parts); five by default, one of each kind (every kind at every
    kind of line is the test above)."""
    rng = random.Random(17)
    items = entries(played["log"])
    doc = json.loads(played["save"])
    runner = CliRunner()
    for case in range(examples(200, share=40)):
        forged = json.loads(json.dumps(items))
        kind = case % 5
        index = rng.randrange(len(forged))
        if kind == 0:  # a value inside a line
            _edit_value(forged[index], rng)
        elif kind == 1:
            del forged[index]
        elif kind == 2:
            forged.insert(index, json.loads(json.dumps(forged[index])))
        elif kind == 3:
            forged.append({"base": {"checkpoint": doc["checkpoint"],
                                    "steps": rng.choice([len(doc["steps"]), 3, "x"])}})
        else:
            forged.append({"undo": True, "keep": rng.choice([0, 2, len(doc["steps"]), -1])})
        if case % PARTS == part:  # (every part draws every case: the same draws after it)
            _replays_as_forged(played, tmp_path / f"l{case}", forged, runner,
                               (case, kind, index))
