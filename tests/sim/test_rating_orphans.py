"""A rating's worker processes end with the command: after a ``kill -9`` of ``rate`` (or of
``campaign play`` while it rates a threat), no worker plays on alone, and none prints a broken
pipe's traceback into the terminal when it would report its mission (a play-tester saw
"Process ForkPoolWorker-1: Traceback ... BrokenPipeError" after the shell prompt came back).
Linux only: the workers are forked and their parents read from ``/proc``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.players import small_scenario

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc")


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait(what: Callable[[], bool], until: float) -> None:
    """Poll ``what`` until it holds or the monotonic clock passes ``until``."""
    while not what() and time.monotonic() < until:
        time.sleep(0.1)


def test_the_workers_end_when_the_command_is_killed(tmp_path: Path) -> None:
    scenario = small_scenario(tmp_path, turns=2)
    err = tmp_path / "err.txt"
    with err.open("w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "solo_ops", "rate", str(scenario), "--missions", "5000",
             "--jobs", "2", "--width", "0"], cwd=tmp_path, stdout=subprocess.DEVNULL,
            stderr=stderr, env={**os.environ, "PYTHONPATH": str(ROOT)})
        workers: list[int] = []

        def started() -> bool:
            workers[:] = _children(proc.pid)
            return len(workers) >= 2

        _wait(started, time.monotonic() + 120)
        assert len(workers) >= 2, "the pool never started"
        time.sleep(2)  # missions under way: results are coming back through the pipe
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        _wait(lambda: not any(_alive(w) for w in workers), time.monotonic() + 60)
    assert not any(_alive(w) for w in workers)
    assert "Traceback" not in err.read_text()
