"""One table for every screen: a save that fails mid-session takes the step back, ``--units``.

The disk is "full" from a chosen answer on: every ``os.write`` and ``os.fsync`` of the process
raises ENOSPC (as a real full disk does to solo-ops' atomic writer and its log appends). The
game in memory must then not run ahead of its save: the answer is taken back, the player hears
in one line that it was not recorded (the terminal prints it; the web page gets 507 with it),
the save and log on disk are byte for byte what they were, and once there is room again the
same answer is taken exactly as it would have been — the finished files equal those of a game
where the disk never filled.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.cli.play import Session
from solo_ops.core.errors import InputError, SaveError
from solo_ops.game.engine import new_game
from solo_ops.io import opening
from solo_ops.io.scenario import load_scenario
from solo_ops.session.table import GameTable
from solo_ops.web.app import create_app
from tests.support.api import ANSWERS, SCENARIO, ApiClient, make_table, post, scenario_path
from tests.support.saves import reseal

ENOSPC_TEXT = os.strerror(errno.ENOSPC)


class Disk:
    """``os.write``/``os.fsync`` that raise ENOSPC while :attr:`full`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        real_write, real_fsync = os.write, os.fsync

        def write(fd: int, data: bytes) -> int:
            if self.full:
                raise OSError(errno.ENOSPC, ENOSPC_TEXT)
            return real_write(fd, data)

        def fsync(fd: int) -> None:
            if self.full:
                raise OSError(errno.ENOSPC, ENOSPC_TEXT)
            real_fsync(fd)

        monkeypatch.setattr(os, "write", write)
        monkeypatch.setattr(os, "fsync", fsync)


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Disk:
    return Disk(monkeypatch)


def files(table: GameTable) -> tuple[bytes, bytes]:
    return table.save.read_bytes(), table.log.read_bytes()


# -- the table itself ------------------------------------------------------------------------------
def test_a_failed_save_takes_the_answer_back(tmp_path: Path, disk: Disk) -> None:
    table = make_table(tmp_path / "full")
    assert table.answer("Ana", "kell").ok
    before, steps = files(table), len(table.state.log)
    disk.full = True
    outcome = table.answer("Ana", "move 10.59,4.98")
    assert not outcome.ok and outcome.refusal == "save" and outcome.errno == errno.ENOSPC
    assert "\n" not in outcome.message
    assert outcome.message.startswith(f"Not saved: {table.save} cannot be saved ({ENOSPC_TEXT})")
    assert outcome.message.endswith("Your answer was not recorded; the game is as it was at "
                                    "the last save.")
    assert files(table) == before and len(table.state.log) == steps
    assert table.state.operatives["kell"].at == opening.load_save(table.save)[1] \
        .operatives["kell"].at  # memory is the save, not the move
    disk.full = False
    for player, answer in ANSWERS[1:]:
        assert table.answer(player, answer).ok
    clean = make_table(tmp_path / "clean")
    for player, answer in ANSWERS:
        assert clean.answer(player, answer).ok
    assert files(table) == files(clean)  # the same game, byte for byte


def test_a_failed_log_append_puts_the_save_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    """The save was written, then the log line could not be: the save is put back (its .bak)
    and the game taken back, so save and log still agree."""
    table = make_table(tmp_path)
    before, steps = files(table), len(table.state.log)
    from solo_ops.io import persistence

    def append(self: persistence.EventLog, record: object) -> None:
        raise SaveError(f"{self.path} cannot be appended to ({ENOSPC_TEXT})")

    monkeypatch.setattr(persistence.EventLog, "append", append)
    outcome = table.answer("Ana", "kell")
    assert outcome.refusal == "save" and "was not recorded" in outcome.message
    assert files(table) == before and len(table.state.log) == steps
    monkeypatch.undo()
    doc, _game, state = opening.load_save_doc(table.save)
    assert opening.catch_up_log(table.log, table.game, state, doc) is None  # they agree


def test_a_failed_undo_leaves_the_answer_in_place(tmp_path: Path, disk: Disk) -> None:
    table = make_table(tmp_path)
    assert table.answer("Ana", "kell").ok
    before, steps = files(table), len(table.state.log)
    disk.full = True
    outcome = table.answer("Ana", "undo")
    assert outcome.refusal == "save" and "The undo was not recorded" in outcome.message
    assert files(table) == before and len(table.state.log) == steps
    assert table.state.active_operative == "kell"


# -- the web page ----------------------------------------------------------------------------------
def test_the_web_answers_507_with_the_line_and_the_game_unchanged(tmp_path: Path,
                                                                  disk: Disk) -> None:
    table = make_table(tmp_path)
    with ApiClient(create_app(table), base_url="http://127.0.0.1:8765") as client:
        assert post(client, "Ana", "kell").json()["ok"]
        before, steps = files(table), len(table.state.log)
        disk.full = True
        reply = post(client, "Ana", "move 10.59,4.98")
        disk.full = False
        assert reply.status_code == 507
        body = reply.json()
        assert body["ok"] is False and "records" not in body
        assert body["message"].endswith("Your answer was not recorded; the game is as it was "
                                        "at the last save.")
        assert body["prompt"]["operative"] == "kell"  # asked again, same question
        assert files(table) == before and len(table.state.log) == steps
        view = client.get("/api/view", params={"player": "Ana"}).json()
        assert view["steps"] == steps
        again = post(client, "Ana", "move 10.59,4.98")
        assert again.status_code == 200 and again.json()["ok"]


# -- the terminal ----------------------------------------------------------------------------------
def feed_filling_the_disk(disk: Disk, answers: list[str], full_at: int,
                          free_at: int) -> Iterator[str]:
    """The answers, the disk full while answers ``full_at`` .. ``free_at - 1`` are saved."""
    for index, answer in enumerate(answers):
        disk.full = full_at <= index < free_at
        yield answer
    disk.full = False


def test_the_terminal_says_it_in_one_line_and_plays_on(tmp_path: Path, disk: Disk,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    answers = ["kell", "move 10.59,4.98", "move 10.59,4.98", "done"]
    runs = {}
    for name, full_at in (("full", 1), ("clean", 99)):
        game, state = new_game(load_scenario(scenario_path()), 3)
        save = tmp_path / name / "game.json"
        table = GameTable(game, state, save, opening.log_for(save))
        table.start()
        session = Session(table, as_json=False)
        answers_here = answers if name == "full" else answers[:1] + answers[2:]
        session.run(feed_filling_the_disk(disk, answers_here, full_at, full_at + 1),
                    interactive=False)
        runs[name] = (capsys.readouterr().out, files(table))
    out = runs["full"][0]
    failed = [line for line in out.splitlines() if line.startswith("✗ Not saved:")]
    assert failed == [f"✗ Not saved: {tmp_path / 'full' / 'game.json'} cannot be saved "
                      f"({ENOSPC_TEXT}); the previous version is untouched. Your answer was "
                      "not recorded; the game is as it was at the last save."]
    # after the line, the same question again; then the game goes on as if nothing happened
    assert out.split(failed[0], 1)[1].startswith("\n\n? Ana: what did Sgt Kell do?\n")
    assert runs["full"][1] == runs["clean"][1]


@pytest.mark.parametrize("full", [(1,), (1, 2, 3)])
def test_play_answers_exits_non_zero_when_an_answer_was_not_saved(
        tmp_path: Path, disk: Disk, monkeypatch: pytest.MonkeyPatch,
        full: tuple[int, ...]) -> None:
    """Issue #31 item 4: through the command, with answers from a file, an answer refused as
    "Not saved" (the disk full while it was saved) makes the command end with one error line
    and exit status 2 — every answer refused, or one among others — never 0."""
    from solo_ops.session import table as table_module

    real = table_module.GameTable.answer
    calls = {"n": 0}

    def answer(self: GameTable, player: str | None, text: str, **kw: object) -> object:
        disk.full = calls["n"] in full
        calls["n"] += 1
        try:
            return real(self, player, text, **kw)  # type: ignore[arg-type]
        finally:
            disk.full = False

    monkeypatch.setattr(table_module.GameTable, "answer", answer)
    answers = tmp_path / "a.txt"
    answers.write_text("kell\nmove 10.59,4.98\nmove 10.59,4.98\ndone\n", encoding="utf-8")
    save = tmp_path / "game.json"
    run = CliRunner().invoke(main, ["play", str(scenario_path()), "--seed", "3", "--save",
                                    str(save), "--answers", str(answers)])
    assert run.exit_code == 2, run.output
    count = len(full)
    assert f"solo-ops: error: {count} answer{'s' if count > 1 else ''} could not be saved " \
        f"(the last: Not saved: {save} cannot be saved ({ENOSPC_TEXT})" in run.output
    assert "✗ Not saved:" in run.output


def test_an_engine_step_that_cannot_be_saved_stops_the_command_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the real command: the disk fills while the enemy's step after an answer is
    saved; one error line, exit status non-zero, and the game resumes from the last good step
    exactly as an uninterrupted one."""
    runner = CliRunner()
    from solo_ops.session import table as table_module

    real = table_module.GameTable.engine_step
    calls = {"n": 0}

    def engine_step(self: GameTable) -> dict[str, object]:
        calls["n"] += 1
        if calls["n"] == 3:
            raise SaveError(f"{self.save} cannot be saved ({ENOSPC_TEXT}); the previous "
                            "version is untouched")
        return real(self)

    save = tmp_path / "game.json"
    monkeypatch.setattr(table_module.GameTable, "engine_step", engine_step)
    run = runner.invoke(main, ["play", str(scenario_path()), "--seed", "3", "--save", str(save),
                               "--answer", "kell", "--answer", "done", "--answer", "corvin"])
    monkeypatch.undo()
    assert run.exit_code != 0
    assert "The game's next step was not recorded" in run.output
    assert "Traceback" not in run.output
    resumed = runner.invoke(main, ["play", "--resume", str(save), "--answer", "status"])
    assert resumed.exit_code == 0, resumed.output
    doc, _game, state = opening.load_save_doc(save)
    assert opening.catch_up_log(opening.log_for(save), _game, state, doc) is None


# -- --units ---------------------------------------------------------------------------------------
def test_units_cm_shows_and_reads_centimetres_and_saves_the_same_game(tmp_path: Path) -> None:
    """``--units cm``: status and answers in centimetres (2.54 to the inch), the save the same
    as the game played in inches."""
    runner = CliRunner()
    inches = ["kell", "move 10.59,4.98", "status", "quit"]
    cm = ["kell", f"move {10.59 * 2.54:.4f},{4.98 * 2.54:.4f}", "status", "quit"]
    outs = {}
    for units, answers in (("in", inches), ("cm", cm)):
        folder = tmp_path / units
        folder.mkdir()
        args = ["play", str(scenario_path()), "--seed", "3", "--save", str(folder / "g.json"),
                "--units", units]
        for a in answers:
            args += ["--answer", a]
        run = runner.invoke(main, args)
        assert run.exit_code == 0, run.output
        outs[units] = run.output
    assert "  Ana: kell (10.6, 5.0) 8/8W" in outs["in"]
    assert "  Ana: kell (26.9, 12.6) 8/8W" in outs["cm"]  # 10.59*2.54, 4.98*2.54
    saved_in = (tmp_path / "in" / "g.json").read_bytes()
    saved_cm = (tmp_path / "cm" / "g.json").read_bytes()
    assert saved_in == saved_cm


def test_opening_refuses_scenario_and_resume_together() -> None:
    with pytest.raises(InputError, match="give a SCENARIO file, or --resume SAVE"):
        opening.plan(SCENARIO, Path("x.json"), None, None, False, command="play")
    with pytest.raises(InputError, match="cannot go with --resume"):
        opening.plan(None, Path("x.json"), None, None, True, command="serve")
    p = opening.plan(SCENARIO, None, 7, None, False, command="play")
    assert (p.save, p.log, p.seed) == (Path("saves/volkus-stronghold-supplement-example-7.json"),
                                       Path("saves/volkus-stronghold-supplement-example-7.log"
                                            ".jsonl"), 7)


def test_the_table_in_centimetres_shows_and_reads_cm(tmp_path: Path) -> None:
    """``serve --units cm``: the table's status and the moves typed at it are centimetres;
    the game saved is the inches game."""
    game, state = new_game(load_scenario(scenario_path()), 3)
    save = tmp_path / "cm.json"
    table = GameTable(game, state, save, opening.log_for(save), units="cm")
    table.start()
    table.advance()
    assert table.answer("Ana", "kell").ok
    assert table.answer("Ana", "move 26.8986,12.6492").ok  # (10.59, 4.98) in inches
    assert "  Ana: kell (26.9, 12.6) 8/8W conceal" in table.answer("Ben", "status").message
    inches = make_table(tmp_path / "in")
    for player, answer in ANSWERS[:3]:
        assert inches.answer(player, answer).ok
    assert table.answer("Ana", "done").ok
    assert files(table)[0] == files(inches)[0]  # the scenario in the save still says inches


def test_a_campaign_in_centimetres(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``campaign new --units cm`` is written to the campaign's settings and its missions are
    shown in centimetres; ``campaign play --units in`` overrides it for a session."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    squad = SCENARIO.parent / "squads" / "vesper.yaml"
    made = runner.invoke(main, ["campaign", "new", "Solo", "--squad", str(squad), "--units",
                                "cm", "--json"])
    assert made.exit_code == 0, made.output
    assert '"units": "cm"' in made.output
    args = ["campaign", "play", "Solo", "--seed", "3", "--board", "gallowdark-corridors",
            "--engagement", "1", "--answer", "ready", "--answer", "status"]
    cm = runner.invoke(main, args)
    assert cm.exit_code == 0, cm.output
    inches = runner.invoke(main, ["campaign", "play", "Solo", "--units", "in", "--answer",
                                  "ready", "--answer", "status"])
    assert inches.exit_code == 0, inches.output

    def kell(out: str) -> tuple[float, float]:
        line = next(x for x in out.splitlines() if x.strip().startswith("Ana: kell ("))
        x, y = line.split("(", 1)[1].split(")", 1)[0].split(", ")
        return float(x), float(y)

    (xc, yc), (xi, yi) = kell(cm.output), kell(inches.output)
    assert abs(xc - xi * 2.54) <= 0.2 and abs(yc - yi * 2.54) <= 0.2  # both rounded to 0.1


def test_quit_on_a_full_disk_still_quits_and_says_the_steps_are_saved(
        tmp_path: Path, disk: Disk, capsys: pytest.CaptureFixture[str]) -> None:
    table = make_table(tmp_path)
    before = files(table)
    session = Session(table, as_json=False)
    assert session.run(feed_filling_the_disk(disk, ["quit"], 0, 1), interactive=False) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(f"✗ Not saved: {table.save} cannot be saved ({ENOSPC_TEXT})")
    assert last.endswith(f"Every step so far is in {table.save}. Continue with `solo-ops play "
                         f"--resume {table.save}`.")
    assert files(table) == before


def test_resuming_a_save_that_goes_on_from_its_checkpoint_says_so(tmp_path: Path) -> None:
    """A save whose history now plays differently goes on from its checkpoint
    (``io.opening.load_save_doc``); ``play --resume`` tells the players in its first lines."""
    import json

    from solo_ops.io.persistence import save_json

    table = make_table(tmp_path)
    for player, answer in ANSWERS:
        assert table.answer(player, answer).ok
    doc = json.loads(table.save.read_text(encoding="utf-8"))
    doc["steps"][3] = "000000000000"  # as if step 3 came out otherwise when it was played
    reseal(doc)
    save_json(table.save, doc)
    run = CliRunner().invoke(main, ["play", "--resume", str(table.save), "--rebuild-log",
                                    "--answer", "quit"])
    assert run.exit_code == 0, run.output
    assert "This save's history plays differently now (" in run.output
