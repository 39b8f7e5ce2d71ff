"""A checkpoint is the whole state: going on from it is the same game as going on by replay.

The independent method is replay itself: a game cut at several points, checkpointed, written
as JSON, read back and played on with the same actions must give the same records (every event
and every die) and the same state as the game that was never cut: at the next cut (the same
checkpoint written there) and, from the last cut, at the end.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import pytest

from solo_ops.core.errors import InputError
from solo_ops.game import checkpoint
from solo_ops.game.engine import new_game, step
from solo_ops.io.opening import load_save_doc
from solo_ops.io.persistence import save_json
from solo_ops.io.savegame import actions_of, can_undo, game_document, undo
from solo_ops.io.scenario import load_scenario
from tests.support.paths import SCENARIOS
from tests.support.players import bot_answers, cli_here
from tests.support.saves import reseal, seal_save


@functools.cache
def _played(name: str, seed: int) -> tuple[list[str], list[dict[str, Any]]]:
    """The answers typed and the actions of a whole game of ``name`` played by the scripted
    player: played once for the module (the night raid's game serves four tests); the callers
    get copies (:func:`_actions`, :func:`_lines`)."""
    kept: dict[str, Any] = {}
    lines, _final = bot_answers(SCENARIOS / name, seed, keep=kept)
    return lines, actions_of(kept["state"])


def _actions(name: str, seed: int) -> list[dict[str, Any]]:
    """The actions of a whole game of ``name`` played by the scripted player (a copy)."""
    return copy.deepcopy(_played(name, seed)[1])


def _lines(name: str, seed: int) -> list[str]:
    """The answers the scripted player typed in that game (a copy)."""
    return list(_played(name, seed)[0])


@pytest.mark.parametrize(("name", "seed"), [("gallowdark-night-raid.yaml", 5),
                                            ("crypt-objective-ultima.yaml", 2)])
def test_going_on_from_a_checkpoint_is_the_same_game(name: str, seed: int) -> None:
    scenario = load_scenario(SCENARIOS / name)
    actions = _actions(name, seed)
    assert len(actions) > 30
    cuts = sorted({1, 7, len(actions) // 3, len(actions) // 2, len(actions) - 2})
    # the uncut game, played once: the checkpoint at each cut is written as the game passes it
    # (as a save written then would hold it), with the actions logged so far
    game, whole = new_game(scenario, seed)
    at_cut: dict[int, tuple[dict[str, Any], list[Any]]] = {}
    for index, action in enumerate(actions):
        if index in cuts:
            at_cut[index] = (json.loads(json.dumps(checkpoint.dump(whole), allow_nan=False)),
                             [copy.deepcopy(r["action"]) for r in whole.log])
        step(game, whole, action)
    assert whole.ended and sorted(at_cut) == cuts
    # each cut's checkpoint, read back, played on to the next cut (the last to the end): every
    # event and every die of the stretch the same, and the checkpoint written there the same as
    # the uncut game's, which the next stretch goes on from (so the stretches chain into the
    # whole game, each step played once more rather than once for every cut before it)
    ends = [*cuts[1:], len(actions)]
    for cut, end in zip(cuts, ends, strict=True):
        written, logged = at_cut[cut]
        game, _ = new_game(scenario, seed)
        again = checkpoint.load(copy.deepcopy(written), game)
        assert checkpoint.dump(again) == written, cut
        assert [r["action"] for r in again.log] == logged
        for action in actions[cut:end]:
            step(game, again, action)
        done = len(logged)
        if end < len(actions):
            assert checkpoint.dump(again) == at_cut[end][0], (cut, end)
            assert [r["action"] for r in again.log] == at_cut[end][1], (cut, end)
            assert again.log[done:] == whole.log[done:len(again.log)], (cut, end)
        else:
            assert again.ended and again.log[done:] == whole.log[done:], cut
            assert checkpoint.dump(again) == checkpoint.dump(whole), cut


def test_a_damaged_checkpoint_is_an_input_error() -> None:
    scenario = load_scenario(SCENARIOS / "gallowdark-night-raid.yaml")
    game, state = new_game(scenario, 3)
    data = checkpoint.dump(state)
    with pytest.raises(InputError, match="not one this solo-ops knows"):
        checkpoint.load({**data, "operatives": [{**data["operatives"][0], "jetpack": 1}]}, game)
    with pytest.raises(InputError, match="no profile 'dragon'"):
        checkpoint.load({**data, "operatives": [{**data["operatives"][0], "id": "zz",
                                                 "profile": "dragon"}]}, game)
    with pytest.raises(InputError, match="not a checkpoint"):
        checkpoint.load({**data, "version": 99}, game)


def _saved_game(tmp_path: Path, cut: int = 20) -> tuple[Path, list[dict[str, Any]], Any]:
    """A save of the night raid after ``cut`` of the scripted player's steps."""
    name, seed = "gallowdark-night-raid.yaml", 5
    actions = _actions(name, seed)
    game, state = new_game(load_scenario(SCENARIOS / name), seed)
    for action in actions[:cut]:
        step(game, state, action)
    path = tmp_path / "save.json"
    save_json(path, game_document(game, state))
    return path, actions, state


def test_a_history_that_plays_differently_goes_on_from_the_checkpoint(tmp_path: Path) -> None:
    """A newer solo-ops computing step 5 differently (its fingerprint no longer matches) must
    not refuse the game: it goes on from the checkpoint, says so, and plays on identically."""
    path, actions, saved = _saved_game(tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["steps"][5] = "000000000000"
    reseal(doc)  # as the version that played step 5 otherwise would have sealed it
    path.write_text(json.dumps(doc), encoding="utf-8")
    doc2, game, state = load_save_doc(path)
    assert game.notice is not None and "step 5" in game.notice
    assert game.base is not None and game.base["steps"] == len(saved.log)
    assert checkpoint.dump(state) == checkpoint.dump(saved)
    assert doc2["actions"] == [] and doc2["base"]["checkpoint"] == doc["checkpoint"]
    # play two more steps, save, and load again: the base is kept, nothing is re-based
    for action in actions[20:22]:
        step(game, state, action)
    save_json(path, game_document(game, state))
    _doc3, again_game, again = load_save_doc(path)
    assert again_game.notice is None and again_game.base == game.base
    assert checkpoint.dump(again) == checkpoint.dump(state)
    # undo never goes back before the checkpoint
    assert len(undo(game_document(game, state)["actions"])) < 2
    assert not can_undo([])


def test_an_action_the_rules_now_refuse_goes_on_from_the_checkpoint(tmp_path: Path) -> None:
    path, _, saved = _saved_game(tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["actions"][3] = {"type": "shoot", "operative": "kell", "target": "nobody"}
    seal_save(doc)  # as the version whose rules took that answer sealed it
    path.write_text(json.dumps(doc), encoding="utf-8")
    _doc, game, state = load_save_doc(path)
    assert game.notice is not None and "replaying action 4 failed" in game.notice
    assert checkpoint.dump(state) == checkpoint.dump(saved)


def test_a_save_without_a_checkpoint_is_refused_clearly(tmp_path: Path) -> None:
    path, _, _ = _saved_game(tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["steps"][5] = "000000000000"
    doc["checkpoint"] = None
    seal_save(doc)  # a save as written before checkpoints, sealed by what it holds
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match="before saves carried a checkpoint"):
        load_save_doc(path)


def test_replay_starts_at_the_checkpoint_a_game_went_on_from(tmp_path: Path) -> None:
    """Through the real command (run in this process): a save whose history plays differently
    goes on from its checkpoint; its log gets a base line, and ``replay`` checks every step
    after it."""
    import subprocess

    def solo(*args: str) -> subprocess.CompletedProcess[str]:
        return cli_here(*args, cwd=tmp_path)

    lines = _lines("gallowdark-night-raid.yaml", 5)
    first = [a for line in lines[:12] for a in ("--answer", line)]
    done = solo("play", "gallowdark-night-raid", "--seed", "5", "--save", "g.json", *first,
                "--answer", "quit")
    assert done.returncode == 0, done.stderr
    doc = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    doc["steps"][3] = "000000000000"  # as if this version played step 3 otherwise
    reseal(doc)
    save_json(tmp_path / "g.json", doc)
    more = [a for line in lines[12:16] for a in ("--answer", line)]
    on = solo("play", "--resume", "g.json", *more, "--answer", "quit")
    assert on.returncode == 0, on.stderr
    assert "history plays differently now (step 3" in on.stdout
    log = (tmp_path / "g.log.jsonl").read_text(encoding="utf-8").splitlines()
    bases = [json.loads(line) for line in log if '"base"' in line[:10]]
    assert len(bases) == 1 and bases[0]["base"]["steps"] == len(doc["steps"])
    replayed = solo("replay", "g.log.jsonl", "--json")
    assert replayed.returncode == 0, replayed.stderr + replayed.stdout
    assert json.loads(replayed.stdout)["identical"] is True
