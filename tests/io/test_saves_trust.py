"""Saves and logs you can trust (issue 17 item 5, issue 15 item 4, issue 11 items 1 and 8).

A save knows what wrote it (seed, game id, the versions of solo-ops, numpy, shapely and GEOS)
and carries the checksum of its event log; loading replays it and refuses, naming the first
step, a save that now replays into a different game; `play --resume` checks the log against the
save and rebuilds a disagreeing log from the save on request, moving the old one aside;
`replay` refuses torn and truncated logs and names an edited die roll. Saves written by older
versions (tests/support/fixtures/saves/) still load. `campaign play` resumes a mission in progress,
moves it aside with --new, and waits for "ready" before the first turning point.

The commands run in this process, through click's runner (``cli_here``): what they do with the
files is under test here, not their processes (tests/e2e/test_play.py and
tests/io/test_one_writer.py start real ones).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from solo_ops.cli.common import SoloOpsGroup
from solo_ops.core.errors import InputError
from solo_ops.game import checkpoint
from solo_ops.io.event_log import EventLog, file_digest
from solo_ops.io.log_chain import chain_difference
from solo_ops.io.opening import load_save_doc
from solo_ops.io.persistence import save_json
from solo_ops.io.savegame import (
    SCHEMA_VERSION,
    compare_log,
    effective_records,
    game_id,
    record_difference,
    versions,
)
from tests.support.paths import FIXTURES, SCENARIOS
from tests.support.players import bot_answers, cli_here, small_scenario, write_answers
from tests.support.saves import default_files, reseal, seal_save

SAVES = FIXTURES / "saves"
SQUAD = SCENARIOS / "squads" / "vesper.yaml"


def copy_fixture(folder: Path, stem: str) -> tuple[Path, Path]:
    save, log = folder / f"{stem}.json", folder / f"{stem}.log.jsonl"
    shutil.copyfile(SAVES / f"{stem}.json", save)
    shutil.copyfile(SAVES / f"{stem}.log.jsonl", log)
    return save, log


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A small game, eight answers in, through the real command: its files' bytes."""
    folder = tmp_path_factory.mktemp("played")
    scenario = small_scenario(folder)
    lines, _final = bot_answers(scenario, 5)
    run = cli_here("play", str(scenario), "--answers", str(write_answers(folder, lines[:8])),
              cwd=folder)
    assert run.returncode == 0, run.stderr
    save, log = default_files(folder, scenario)
    return {"scenario": scenario, "lines": lines, "save": save.read_bytes(),
            "log": log.read_bytes()}


def lay_out(played: dict[str, Any], folder: Path, log: bytes | None = None) -> tuple[Path, Path]:
    saves = folder / "saves"
    saves.mkdir()
    save, log_path = saves / "small-kt2024-5.json", saves / "small-kt2024-5.log.jsonl"
    save.write_bytes(played["save"])
    log_path.write_bytes(played["log"] if log is None else log)
    return save, log_path


def log_lines(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.decode().splitlines()]


def with_edited_roll(data: bytes) -> tuple[bytes, int, list[int], list[int]]:
    """The log with the first die of the first step after set-up that rolls changed by one
    pip; returns the step's number and its faces before and after."""
    entries = log_lines(data)
    for entry in entries[2:]:
        if entry.get("rolls"):
            faces = entry["rolls"][0]["faces"]
            edited = [faces[0] % 6 + 1, *faces[1:]]
            entry["rolls"][0]["faces"] = edited
            text = "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n"
                           for e in entries)
            return text.encode(), entry["n"], faces, edited
    raise AssertionError("no rolls after set-up")


# -- saves written by older versions still load ------------------------------------------------
def test_the_schema_1_fixture_is_refused_clearly_and_left_untouched(tmp_path: Path) -> None:
    """The rules audit (issue #14) changed how this 0.1.0 game plays from its 7th answer on,
    and a schema 1 save carries no checkpoint to go on from: loading names the step and the
    reason in one sentence, and changes nothing."""
    save, _log = copy_fixture(tmp_path, "v1-night-raid-11")
    raw = json.loads(save.read_text())
    assert raw["schema_version"] == 1
    with pytest.raises(InputError) as info:
        load_save_doc(save)
    line = str(info.value)
    assert line.startswith(f"{save}: replaying this save gives a different game: ")
    assert "replaying action 7 failed" in line
    assert "written before saves carried a checkpoint" in line
    assert save.read_bytes() == (SAVES / "v1-night-raid-11.json").read_bytes()


def test_resuming_the_schema_1_fixture_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    save, log = copy_fixture(tmp_path, "v1-night-raid-11")
    old_save, old_log = save.read_bytes(), log.read_bytes()
    run = cli_here("play", "--resume", str(save), "--answer", "quit", cwd=tmp_path)
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    assert "before saves carried a checkpoint" in run.stderr
    assert save.read_bytes() == old_save and log.read_bytes() == old_log


def as_fields_of(dumped: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """A checkpoint ``dumped`` now, with only the fields the ``old`` one has (of the state and
    of each operative, unit and counter): a field a later solo-ops added (with its default,
    e.g. issue 14's ``counteracted``, ``markers_at``, ``Operative.marker``) is left out."""
    out = {k: v for k, v in dumped.items() if k in old}
    for key in ("operatives", "units", "counters"):
        if isinstance(out.get(key), list) and len(out[key]) == len(old.get(key) or []):
            out[key] = [{k: v for k, v in item.items() if k in ref}
                        for item, ref in zip(out[key], old[key], strict=True)]
    return out


def test_the_schema_3_fixture_loads_and_goes_on(tmp_path: Path) -> None:
    """A save of this version (schema 3, with its checkpoint) loads in every later version:
    identically while the rules play its history the same, else from its checkpoint."""
    save, log = copy_fixture(tmp_path, "v3-night-raid-11")
    raw = json.loads(save.read_text())
    assert raw["schema_version"] == 3 and isinstance(raw["checkpoint"], dict)
    doc, game, state = load_save_doc(save)
    assert game.seed == 11 and state.turn == 1 and not state.ended
    if game.notice is None:  # the same game, step by step
        assert len(state.log) == 1 + len(raw["actions"])
        assert state.to_dict(secrets=True) == raw["snapshot"]
        assert compare_log(EventLog(log).read(), doc, state) is None
    else:  # a later version plays it differently: it goes on from where it stood
        assert as_fields_of(checkpoint.dump(state), raw["checkpoint"]) == raw["checkpoint"]
    run = cli_here("play", "--resume", str(save), "--answer", "status", "--answer", "quit",
              cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Resuming Night raid on the corridors" in run.stdout
    assert json.loads(save.read_text())["versions"] == versions()


def replays_alike(log: Path, save: Path, state: Any, cwd: Path) -> dict[str, Any]:
    """``replay --json`` of a fixture's log whose game this version plays the same (its
    snapshot): every logged step in force is the answer and the dice the game replays, and
    replay finds every step identical — or, where a later version words the events otherwise
    (issues #28 and #29 reworded the enemy's explanations, the fights' lines and the order
    roll after the chain fixture was written), its first difference is in the events' words
    only, never an answer or a die. Returns replay's document."""
    lines = log.read_bytes().splitlines(keepends=True)
    logged = effective_records([json.loads(line) for line in lines[1:]])
    rebuilt = json.loads(json.dumps(state.log))
    assert [(r["action"], r.get("rolls")) for r in logged] \
        == [(r["action"], r.get("rolls")) for r in rebuilt]
    run = cli_here("replay", str(log), "--save", str(save), "--json", cwd=cwd)
    doc = json.loads(run.stdout)
    if doc["identical"]:
        assert run.returncode == 0, run.stdout + run.stderr
    else:
        assert run.returncode == 1, doc["detail"]
        assert doc["detail"].startswith("its events differ from event "), doc["detail"]
    return dict(doc)


def test_the_schema_4_chain_fixture_loads_and_its_log_is_proven(tmp_path: Path) -> None:
    """A save with its log's hash chain (issue #31's schema 4: the chain and a sealed
    checkpoint, no links) loads in every later version, and while the rules play its history
    the same, ``replay`` proves every line of its log — the undone steps and the undo line
    included — against the chain. Resumed, it is written in the current schema with its chain
    going on from the one it had and no links yet (made when it is first served)."""
    save, log = copy_fixture(tmp_path, "v4-night-raid-11")
    raw = json.loads(save.read_text())
    assert raw["schema_version"] == 4 and len(raw["chain"]["lines"]) == len(
        log.read_text().splitlines())
    assert "links" not in raw and isinstance(raw["checkpoint"]["hash"], str)
    _doc, game, state = load_save_doc(save)
    assert game.seed == 11 and not state.ended and game.links is None
    lines = log.read_bytes().splitlines(keepends=True)
    assert chain_difference(raw["chain"], lines) is None  # every line the one it recorded
    if game.notice is None:  # the same game, step by step
        assert state.to_dict(secrets=True) == raw["snapshot"]
        replayed = replays_alike(log, save, state, tmp_path)
        assert replayed["proven"] == replayed["identical"]
    run = cli_here("play", "--resume", str(save), "--answer", "status", "--answer", "quit",
              cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    again = json.loads(save.read_text())
    assert again["chain"]["lines"][:len(raw["chain"]["lines"])] == raw["chain"]["lines"]
    assert again["schema_version"] == SCHEMA_VERSION and again["links"] is None


def test_the_schema_4_links_fixture_loads_keeps_its_links_and_takes_up_a_chain(
        tmp_path: Path) -> None:
    """A save of issue #30's schema 4 (the table's links, no log chain, an unhashed
    checkpoint) loads in every later version with its links, as a save from before the chain:
    while the rules play its history the same, its log agrees with it (checked by its
    checksum, as a schema 3 save's is) and ``replay`` finds every step's answer and dice the
    same (the events' words may have changed since); resumed, it
    is written in the current schema with the same links and a chain over its whole log, which
    ``replay`` then proves line by line."""
    save, log = copy_fixture(tmp_path, "v4-links-night-raid-11")
    raw = json.loads(save.read_text())
    assert raw["schema_version"] == 4 and "chain" not in raw
    assert "hash" not in raw["checkpoint"] and set(raw["links"]["players"]) == {"Ana"}
    doc, game, state = load_save_doc(save)
    assert game.seed == 11 and not state.ended and game.links == raw["links"]
    assert doc["chain"] is None and doc["checkpoint"].get("unhashed") is True
    if game.notice is None:  # the same game, step by step
        assert state.to_dict(secrets=True) == raw["snapshot"]
        # its answers and dice are the game's (replays_alike); a later version may word the
        # events otherwise (issue #27 added the moves' detours and what blocks them)
        differs = compare_log(EventLog(log).read(), doc, state)
        assert differs is None or ": its events differ from event " in differs, differs
        assert replays_alike(log, save, state, tmp_path)["proven"] is False  # no chain yet
    else:  # a later version plays it differently: it goes on from where it stood
        assert as_fields_of(checkpoint.dump(state), raw["checkpoint"]) == raw["checkpoint"]
    run = cli_here("play", "--resume", str(save), "--answer", "status", "--answer", "quit",
              cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    again = json.loads(save.read_text())
    assert again["schema_version"] == SCHEMA_VERSION and again["links"] == raw["links"]
    assert len(again["chain"]["lines"]) == len(log.read_text().splitlines())
    assert isinstance(again["checkpoint"]["hash"], str)
    assert chain_difference(again["chain"], log.read_bytes().splitlines(keepends=True)) is None
    if game.notice is None:
        replayed = replays_alike(log, save, state, tmp_path)
        assert replayed["proven"] == replayed["identical"]


# -- what a save records ---------------------------------------------------------------------------
def test_the_save_knows_its_versions_seed_game_and_log(played: dict[str, Any],
                                                       tmp_path: Path) -> None:
    import numpy
    import shapely

    import solo_ops

    _save, log = lay_out(played, tmp_path)
    doc = json.loads(played["save"])
    assert doc["seed"] == 5
    assert doc["versions"]["solo_ops"] == solo_ops.__version__
    assert doc["versions"]["numpy"] == numpy.__version__
    assert doc["versions"]["shapely"] == shapely.__version__
    assert doc["versions"]["geos"] == shapely.geos_version_string
    assert doc["log"] == file_digest(log)
    assert len(doc["steps"]) == len(log_lines(played["log"])) - 1  # one print per step
    header = log_lines(played["log"])[0]
    assert header["seed"] == 5 and header["game_id"] == doc["game_id"]
    assert doc["dice_scheme"] == header["dice_scheme"] == "blake2b"  # every new game's
    assert doc["game_id"] == game_id(doc["scenario"], 5, "blake2b")


def test_a_save_that_replays_into_another_game_goes_on_from_its_checkpoint(
        played: dict[str, Any], tmp_path: Path) -> None:
    save, _log = lay_out(played, tmp_path)
    doc = json.loads(played["save"])
    doc["steps"][4] = "000000000000"  # as if step 4 had come out otherwise when it was played
    reseal(doc)
    save_json(save, doc)
    action = doc["actions"][3]
    _doc, game, state = load_save_doc(save)
    assert game.notice is not None
    assert f"step 4 ({action['type']}" in game.notice and "comes out differently now" in (
        game.notice)
    assert {**checkpoint.dump(state), "hash": doc["checkpoint"]["hash"]} == doc["checkpoint"]
    run = cli_here("play", "--resume", str(save), "--answer", "quit", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "history plays differently now (step 4 (" in run.stdout
    assert json.loads(save.read_text())["base"]["steps"] == len(state.log)


def test_a_save_without_step_prints_compares_its_snapshot(played: dict[str, Any],
                                                          tmp_path: Path) -> None:
    save, _log = lay_out(played, tmp_path)
    doc = json.loads(played["save"])
    doc["steps"] = None  # an old save: only the snapshot to compare with
    doc["versions"] = None
    doc["checkpoint"] = None
    kell = next(o for o in doc["snapshot"]["operatives"] if o["id"] == "kell")
    real = list(kell["at"])
    kell["at"] = [real[0] + 1, real[1]]
    save_json(save, seal_save(doc))  # as the old version wrote it, sealed by what it holds
    with pytest.raises(InputError, match=(
            r"the game ends differently \(snapshot\.operatives\[kell\]\.at: saved "
            rf"\[{real[0] + 1}, {real[1]}\], now \[{real[0]}, {real[1]}\]\); it was written by "
            r"solo-ops 0\.1\.0 or older")):
        load_save_doc(save)


# -- play --resume checks the log against the save -------------------------------------------------
def test_an_edited_die_roll_in_the_log_is_found_and_the_log_rebuilt_on_request(
        played: dict[str, Any], tmp_path: Path) -> None:
    edited, n, before, after = with_edited_roll(played["log"])
    save, log = lay_out(played, tmp_path, edited)
    run = cli_here("play", "--resume", str(save.relative_to(tmp_path)), cwd=tmp_path, stdin="")
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert (f"the event log {log.relative_to(tmp_path)} disagrees with the save: line {n + 2} "
            f"(step {n}): roll 1 (" in run.stderr)
    assert "roll 1 (" in run.stderr and f"is {before} in the log" not in run.stderr
    assert f"is {after} in the log, the dice give {before}" in run.stderr
    assert "--rebuild-log" in run.stderr
    assert log.read_bytes() == edited and save.read_bytes() == played["save"]

    fixed = cli_here("play", "--resume", str(save.relative_to(tmp_path)), "--rebuild-log",
                cwd=tmp_path, stdin="")
    assert fixed.returncode == 0, fixed.stderr
    assert "moved aside to" in fixed.stdout and "rebuilt from the save" in fixed.stdout
    aside = [p for p in log.parent.iterdir() if ".old-" in p.name]
    assert len(aside) == 1 and aside[0].name.endswith(".log.jsonl")
    assert aside[0].read_bytes() == edited  # never deleted
    assert log.read_bytes() == played["log"]  # rebuilt from the save, byte for byte
    assert json.loads(save.read_text())["log"] == file_digest(log)


def test_a_log_one_step_behind_is_caught_up_silently(played: dict[str, Any],
                                                     tmp_path: Path) -> None:
    lines = played["log"].splitlines(keepends=True)
    save, log = lay_out(played, tmp_path, b"".join(lines[:-1]))  # killed before the append
    run = cli_here("play", "--resume", str(save), cwd=tmp_path, stdin="")
    assert run.returncode == 0, run.stderr
    assert log.read_bytes() == played["log"]
    assert save.read_bytes() == played["save"]


# -- replay proves the log -----------------------------------------------------------------------
def test_replay_names_an_edited_die_roll(played: dict[str, Any], tmp_path: Path) -> None:
    edited, n, before, after = with_edited_roll(played["log"])
    _save, log = lay_out(played, tmp_path, edited)
    run = cli_here("replay", str(log), cwd=tmp_path)
    assert run.returncode == 1
    assert f"Step {n} (line {n + 2}) differs from the log: roll 1 (" in run.stdout
    assert f"is {after} in the log, the dice give {before}" in run.stdout
    assert "Every step came out identical" not in run.stdout


def test_replay_of_the_untouched_log_is_identical(played: dict[str, Any], tmp_path: Path
                                                  ) -> None:
    _save, log = lay_out(played, tmp_path)
    run = cli_here("replay", str(log), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Every step came out identical" in run.stdout


@pytest.mark.parametrize("damage", ["torn", "truncated", "gap"])
def test_replay_refuses_a_torn_or_truncated_log(played: dict[str, Any], tmp_path: Path,
                                                damage: str) -> None:
    lines = played["log"].splitlines(keepends=True)
    if damage == "torn":
        data, expected = played["log"][:-7], f"line {len(lines)}: is torn"
    elif damage == "truncated":
        data, expected = b"".join(lines[:-2]), "is truncated: its save"
    else:
        data, expected = b"".join(lines[:3] + lines[4:]), "step 2 is missing"
    _save, log = lay_out(played, tmp_path, data)
    run = cli_here("replay", str(log), cwd=tmp_path)
    assert run.returncode == 2, run.stdout
    assert run.stderr.count("\n") == 1 and expected in run.stderr
    assert "identical" not in run.stdout


# -- "nothing saved was changed" only when true ----------------------------------------------------
def test_an_internal_error_after_a_write_does_not_claim_nothing_changed(tmp_path: Path
                                                                        ) -> None:
    @click.group(cls=SoloOpsGroup)
    def group() -> None:
        pass

    @group.command("boom")
    def boom() -> None:
        save_json(tmp_path / "w.json", {"schema_version": 1, "kind": "t"})
        raise RuntimeError("a bug")

    result = CliRunner().invoke(group, ["boom"])
    assert result.exit_code == 70
    assert "nothing saved was changed" not in result.output
    assert "every file written before it is complete" in result.output


# -- campaign play: resume, --new and "ready" ---------------------------------------------------
def test_campaign_play_again_resumes_and_never_shortens_the_mission(tmp_path: Path) -> None:
    made = cli_here("campaign", "new", "Solo", "--squad", str(SQUAD), "--target-win", "off",
               cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    folder = tmp_path / "campaign_saves" / "Solo-missions"
    save, log = folder / "mission-1.save.json", folder / "mission-1.log.jsonl"
    start = ("campaign", "play", "Solo", "--seed", "3", "--board", "gallowdark-corridors",
             "--engagement", "1")

    waiting = cli_here(*start, "--answer", "kell", cwd=tmp_path)  # not "ready": it keeps waiting
    assert waiting.returncode == 0, waiting.stderr
    assert f"Set-up picture: {Path('campaign_saves/Solo-missions/mission-1-setup.png')}" \
        in waiting.stdout
    assert "✗ type ready when the table is set up" in waiting.stdout
    assert (folder / "mission-1-setup.png").read_bytes()[:4] == b"\x89PNG"
    assert [a for a in json.loads(save.read_text())["actions"]] == []

    first = cli_here("campaign", "play", "Solo", "--answer", "ready", "--answer", "kell",
                "--answer", "done", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "set up and waiting" in first.stdout  # the briefing again, before the first turn
    save_1, log_1 = save.read_bytes(), log.read_bytes()
    actions_1 = json.loads(save_1)["actions"]
    assert [a["type"] for a in actions_1 if a["type"] != "engine"] == ["activate", "done"]

    again = cli_here("campaign", "play", "Solo", cwd=tmp_path, stdin="")
    assert again.returncode == 0, again.stderr
    assert "going on with mission 1" in again.stdout and "--new" in again.stdout
    assert save.read_bytes() == save_1 and log.read_bytes() == log_1

    more = cli_here("campaign", "play", "Solo", "--answer", "rask", "--answer", "done",
               cwd=tmp_path)
    assert more.returncode == 0, more.stderr
    log_2 = log.read_bytes()
    assert log_2.startswith(log_1) and len(log_2) > len(log_1)
    assert json.loads(save.read_text())["actions"][:len(actions_1)] == actions_1

    fresh = cli_here("campaign", "play", "Solo", "--new", "--seed", "4", cwd=tmp_path, stdin="")
    assert fresh.returncode == 0, fresh.stderr
    assert "moved aside" in fresh.stdout and "Set-up picture" in fresh.stdout
    aside = sorted(p.name for p in folder.iterdir() if ".old-" in p.name)
    assert len(aside) == 5  # save, backup, log, scenario and set-up picture
    moved_log = next(folder / n for n in aside if n.endswith(".log.jsonl"))
    assert moved_log.read_bytes() == log_2
    assert json.loads(save.read_text())["seed"] == 4


def test_a_link_planted_at_the_mission_file_is_refused(tmp_path: Path) -> None:
    made = cli_here("campaign", "new", "Solo", "--squad", str(SQUAD), "--target-win", "off",
               cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    outside = tmp_path / "outside.yaml"
    outside.write_text("precious: true\n")
    folder = tmp_path / "campaign_saves" / "Solo-missions"
    folder.mkdir()
    (folder / "mission-1.yaml").symlink_to(outside)
    run = cli_here("campaign", "play", "Solo", "--seed", "3", "--answer", "quit", cwd=tmp_path)
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert "mission-1.yaml is a symbolic link" in run.stderr
    assert outside.read_text() == "precious: true\n"


def test_new_out_on_a_full_disk_is_one_line_and_keeps_the_old_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runner: CliRunner) -> None:
    import errno
    import os

    from solo_ops.cli import main

    old = tmp_path / "e.yaml"
    old.write_text("# my scenario\n")
    real_write = os.write

    def full(fd: int, data: Any) -> int:
        if len(data) > 100:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "write", full)
    result = runner.invoke(main, ["new", "--seed", "7", "--out", "e.yaml", "--force"])
    monkeypatch.undo()
    assert result.exit_code == 2
    assert result.stderr == ("solo-ops: error: e.yaml cannot be saved (No space left on "
                             "device); the previous version is untouched\n")
    assert old.read_text() == "# my scenario\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.yaml"]


def test_replay_of_the_schema_1_fixture_log_names_where_it_parts(tmp_path: Path) -> None:
    """The rules audit (issue #14) placed this 0.1.0 game's hidden counters otherwise: since
    ``replay`` checks the set-up too (issue #31), it names step 0 and the first die that
    differs there, rather than the answer that no longer plays (action 7)."""
    _save, log = copy_fixture(tmp_path, "v1-night-raid-11")
    run = cli_here("replay", str(log), cwd=tmp_path)
    assert run.returncode == 1, run.stderr + run.stdout
    assert "Step 0 (line 2) differs from the log: roll 2 (placement of c1 in sector 4) is " \
        "[10] in the log, the dice give [16]" in run.stdout


def test_a_missing_log_is_rebuilt_from_the_save(played: dict[str, Any], tmp_path: Path
                                                ) -> None:
    save, log = lay_out(played, tmp_path)
    log.unlink()
    run = cli_here("play", "--resume", str(save), cwd=tmp_path, stdin="")
    assert run.returncode == 0, run.stderr
    assert f"The event log {log} was missing; it was rebuilt from the save." in run.stdout
    assert log.read_bytes() == played["log"]


@pytest.mark.parametrize("left", [b"", b'{"schema_version":5,"kind":"solo-'])
def test_an_emptied_log_is_rebuilt_with_its_header(played: dict[str, Any], tmp_path: Path,
                                                   left: bytes) -> None:
    """A log emptied (or cut inside its header line) has nothing to keep: it is written anew
    from the save, header first, and said so; it is not caught up by appending the steps to
    nothing (a log without a header, which ``replay`` cannot read)."""
    save, log = lay_out(played, tmp_path)
    log.write_bytes(left)
    run = cli_here("play", "--resume", str(save), cwd=tmp_path, stdin="")
    assert run.returncode == 0, run.stderr
    assert f"The event log {log} was empty; it was rebuilt from the save." in run.stdout
    assert log.read_bytes() == played["log"]
    assert cli_here("replay", str(log), cwd=tmp_path).returncode == 0


def test_a_step_whose_events_are_worded_otherwise_is_named_event_and_field() -> None:
    """``replay`` of a log written by an earlier version: the same answer and dice, an event
    worded otherwise -- the first event that differs is named with its type and the fields
    that differ, and the message says the answer and dice agree (they make the game)."""
    action = {"type": "engine"}
    rolls = [{"purpose": "initiative", "faces": [4]}]
    logged = {"n": 3, "action": action, "rolls": rolls,
              "events": [{"type": "turn"}, {"type": "charged", "cost": 4.0, "to": [1, 2]}]}
    rebuilt = {"n": 3, "action": action, "rolls": rolls,
               "events": [{"type": "turn"}, {"type": "charged", "cost": 5.0, "to": [1, 2],
                                             "detour": "around the ruin"}]}
    assert record_difference(logged, rebuilt) == (
        "its events differ from event 2 (charged: cost, detour); its answer and dice are "
        "the same")
    more = {**rebuilt, "events": [*rebuilt["events"], {"type": "blocked"}]}
    assert record_difference(rebuilt, more) == (
        "its events differ: the log has 2, the game makes 3; its answer and dice are the same")
    assert record_difference({**logged, "rolls": [{"faces": [2]}]}, rebuilt) == (
        "roll 1 (initiative) is [2] in the log, the dice give [4]")
    assert record_difference({**logged, "events": "x"}, rebuilt) == (
        "its events differ: they are damaged")
