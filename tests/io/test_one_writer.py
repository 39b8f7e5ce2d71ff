"""One writer per game: a real holder process on one game, a second terminal refused at once.

A holder process plays a game (or a campaign mission) and waits at its first prompt with its
stdin open; a second `solo-ops` on the same game (run in the test's own process: another
process than the holder's) must then end with exit status 2 and the line
"<save>: in use by another terminal (pid N)" naming the holder — while the holder still holds
the game, so it did not wait for it. Killing the holder (kill -9) frees the game: the operating
system's lock goes with the process.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from solo_ops.core.errors import SaveError
from solo_ops.io.locks import game_lock, lock_owner, lock_path, owner_path
from tests.support.paths import ROOT, SCENARIOS
from tests.support.players import cli_here
from tests.support.saves import default_save

SCENARIO = SCENARIOS / "gallowdark-night-raid.yaml"
SQUAD = SCENARIOS / "squads" / "vesper.yaml"


def solo_ops(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The second terminal: ``solo-ops ARGS`` in this process (click's runner, its errors one
    stderr line and exit status 2 as at the terminal). The lock is the operating system's, held
    by the holder's process, so this process is as much "another terminal" as a new one would
    be, without a fresh interpreter for each attempt."""
    return cli_here(*args, cwd=cwd)


def holder(*args: str, cwd: Path, until: str) -> subprocess.Popen[str]:
    """`solo-ops ARGS` left waiting for an answer on an open pipe, once it printed ``until``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    proc = subprocess.Popen([sys.executable, "-m", "solo_ops", *args], cwd=cwd, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    for line in proc.stdout:
        if until in line:
            return proc
    raise AssertionError(f"the holder ended first: {proc.wait()} {proc.stderr.read()}")


def kill(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.communicate()


def test_a_second_terminal_on_a_game_is_refused_at_once(tmp_path: Path) -> None:
    first = holder("play", str(SCENARIO), "--seed", "11", cwd=tmp_path,
                   until="which operative do you activate")
    save = default_save(Path(), SCENARIO, 11)  # relative, as the messages name it
    try:
        for args in (["play", str(SCENARIO), "--seed", "11"],
                     ["play", "--resume", str(save)],
                     ["play", str(SCENARIO), "--seed", "11", "--new"]):
            second = solo_ops(*args, "--answer", "quit", cwd=tmp_path)
            assert second.returncode == 2, second.stdout
            assert second.stderr == (f"solo-ops: error: {save}: in use by another terminal "
                                     f"(pid {first.pid}); try again when it has finished\n")
            assert first.poll() is None  # the holder still holds the game: no waiting
        # --new did not move the game being played aside
        assert sorted(p.name for p in (tmp_path / "saves").iterdir()
                      if "old" in p.name) == []
    finally:
        kill(first)
    # killed with -9, the holder's lock went with it: the game goes on in another terminal
    after = solo_ops("play", "--resume", str(save), "--answer", "quit", cwd=tmp_path)
    assert after.returncode == 0, after.stderr
    assert "Resuming" in after.stdout


def test_a_second_terminal_on_a_campaign_mission_is_refused_at_once(tmp_path: Path) -> None:
    made = solo_ops("campaign", "new", "Duo", "--squad", str(SQUAD), "--target-win", "off",
                    cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    first = holder("campaign", "play", "Duo", "--seed", "3", "--board", "gallowdark-corridors",
                   "--engagement", "1", cwd=tmp_path, until="type ready")
    save = Path("campaign_saves") / "Duo-missions" / "mission-1.save.json"
    try:
        second = solo_ops("campaign", "play", "Duo", "--answer", "ready", cwd=tmp_path)
        assert second.returncode == 2, second.stdout
        assert second.stderr == (f"solo-ops: error: {save}: in use by another terminal "
                                 f"(pid {first.pid}); try again when it has finished\n")
        also = solo_ops("play", "--resume", str(save), cwd=tmp_path)
        assert also.returncode == 2 and "in use by another terminal" in also.stderr
        assert first.poll() is None
    finally:
        kill(first)
    after = solo_ops("campaign", "play", "Duo", "--answer", "quit", cwd=tmp_path)
    assert after.returncode == 0, after.stderr
    assert "set up and waiting" in after.stdout


def test_the_lock_names_its_holder_and_is_reentrant(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    with game_lock(save), game_lock(save):
        assert lock_owner(save) == os.getpid()
    with game_lock(save):  # released: free again
        pass


def test_a_linked_lock_file_is_refused_and_creates_nothing_outside(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    games = tmp_path / "campaign_saves"
    games.mkdir()
    save = games / "c.json"
    lock_path(save).symlink_to(outside / "planted.lock")
    with pytest.raises(SaveError, match=r"c\.json\.lock is a symbolic link"), game_lock(save):
        pass
    owner_path(save).unlink(missing_ok=True)
    lock_path(save).unlink()
    owner_path(save).symlink_to(outside / "planted.pid")
    with pytest.raises(SaveError, match=r"c\.json\.lock\.pid is a symbolic link"), \
            game_lock(save):
        pass
    assert list(outside.iterdir()) == []


def test_the_pid_note_is_json_free_text(tmp_path: Path) -> None:
    """The sidecar holds the pid on one line (what the message quotes)."""
    save = tmp_path / "g.json"
    with game_lock(save):
        assert owner_path(save).read_text() == f"{os.getpid()}\n"
        assert json.loads(owner_path(save).read_text()) == os.getpid()
    assert not owner_path(save).exists()  # a clean exit leaves nothing (issue 28 item 8)


def test_the_package_runs_without_fcntl_or_pread(tmp_path: Path) -> None:
    """Windows has neither ``fcntl`` nor ``os.pread``: with both taken away, every command
    imports and saving, appending, cutting a torn log line and locking still work."""
    code = f"""
import os, sys
sys.modules["fcntl"] = None  # import fcntl now raises ImportError, as on Windows
del os.pread
import solo_ops.cli
from pathlib import Path
from solo_ops.io.locks import game_lock
from solo_ops.io.event_log import EventLog
from solo_ops.io.persistence import save_json, load_json
folder = Path({str(tmp_path)!r})
with game_lock(folder / "g.json"):
    save_json(folder / "g.json", {{"schema_version": 1, "kind": "k", "n": 1}})
    log = EventLog(folder / "g.log.jsonl")
    log.append({{"n": 0}})
    with open(log.path, "ab") as fh:
        fh.write(b'{{"torn')
    log.append({{"n": 1}})
print(load_json(folder / "g.json", kind="k", current_version=1, migrations={{}})["n"],
      log.read(strict=True))
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert run.returncode == 0, run.stderr
    assert run.stdout == "1 [{'n': 0}, {'n': 1}]\n"


@pytest.mark.skipif(not Path("/proc/sys").is_dir(), reason="needs Linux's /proc/sys")
def test_a_lock_that_cannot_be_made_is_not_called_in_use() -> None:
    """A folder where no lock file can be created is reported as such, not as "in use by
    another terminal (pid unknown)" (filelock reads an unopenable lock file as held)."""
    with pytest.raises(SaveError) as err, game_lock(Path("/proc/sys/solo-ops-test.json")):
        pass
    assert "cannot be opened to lock" in str(err.value)
    assert "in use" not in str(err.value)
