"""Ctrl-C in the middle of a rating: ``rate`` and ``new --difficulty`` stop at once, end every
worker process and report what they had (the real ``solo-ops`` command, a real SIGINT)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.support.paths import ROOT

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(),
                                reason="reads a process's children from /proc (Linux)")


def _children(pid: int) -> set[int]:
    """The child processes of ``pid`` (Linux's /proc/PID/task/*/children)."""
    out: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
            out |= {int(x) for x in f.read().split()}
    return out


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _cpu(pid: int) -> float:
    """CPU seconds ``pid`` has used (user + system), from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Run:
    """``solo-ops ARGS`` with two workers, its stderr lines timed as they come."""

    def __init__(self, *args: str, cwd: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
        # its own process group, as a terminal's foreground job (Ctrl-C goes to every process
        # of it), with Ctrl-C's default disposition: a process that ignores SIGINT (a
        # pytest-xdist worker, a background job) passes that on to its children
        self.proc = subprocess.Popen([sys.executable, "-m", "solo_ops", *args], cwd=cwd,
                                     env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     start_new_session=True, preexec_fn=_default_sigint)
        self.lines: list[tuple[float, str]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append((time.monotonic(), line))

    def workers(self, timeout: float = 120.0) -> set[int]:
        """Wait until the two worker processes run, and a moment more (mid-mission)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            kids = _children(self.proc.pid)
            if len(kids) >= 2:
                time.sleep(1.0)
                return kids | _children(self.proc.pid)
            assert self.proc.poll() is None, self.proc.communicate()
            time.sleep(0.05)
        raise AssertionError("the workers never started")

    def interrupt(self) -> tuple[float, float]:
        """Ctrl-C: SIGINT to the whole process group, as a terminal sends it; the moment it was
        sent and the CPU the command had used by then."""
        cpu = _cpu(self.proc.pid)
        sent = time.monotonic()
        os.killpg(self.proc.pid, signal.SIGINT)
        return sent, cpu

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc: object) -> None:
        """Whatever the test found, nothing of the command is left running."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=30)


def test_ctrl_c_stops_a_rating_within_two_seconds_and_reports_it(tmp_path: Path) -> None:
    with Run("rate", "gallowdark-night-raid", "--missions", "5000", "--jobs", "2",
             cwd=tmp_path) as run:
        _rate_stops(run)


def _ended(run: Run, timeout: float = 120.0) -> float:
    """Wait for the command to end (not yet reaped, so its figures can be read): the CPU it
    had used by then. The wait's bound only catches a hang; how fast it stops is measured in
    CPU, which a busy machine does not stretch."""
    end = time.monotonic() + timeout
    while _alive(run.proc.pid) and time.monotonic() < end:
        time.sleep(0.02)
    assert not _alive(run.proc.pid), f"still running {timeout:.0f} s after Ctrl-C"
    return _cpu(run.proc.pid)  # a zombie's own CPU, children not counted


def _rate_stops(run: Run) -> None:
    workers = run.workers()
    _sent, cpu_before = run.interrupt()
    cpu_after = _ended(run)
    out, _ = run.proc.communicate(timeout=60)
    assert run.proc.returncode == 130
    assert cpu_after - cpu_before <= 2.0, f"{cpu_after - cpu_before:.2f} s of CPU after Ctrl-C"
    assert not [pid for pid in workers if _alive(pid)]
    assert out.startswith("Stopped by Ctrl-C: what ")
    assert "Traceback" not in out + "".join(line for _, line in run.lines)


def test_ctrl_c_stops_new_difficulty_and_makes_the_encounter_at_the_best_level(
        tmp_path: Path) -> None:
    """The rating stops at once (its line on stderr, every worker ended); the encounter is
    then made at the best level so far, as without a rating: its own work, so the test allows
    it 2 s of CPU after Ctrl-C rather than a wall time, which a busy machine stretches."""
    out = tmp_path / "enc.yaml"
    with Run("new", "--seed", "5", "--difficulty", "hard", "--rate-missions", "1000",
             "--out", str(out), "--picture", str(tmp_path / "enc.svg"), cwd=tmp_path) as run:
        _new_stops(run, out)


def _new_stops(run: Run, out: Path) -> None:
    workers = run.workers()
    _sent, cpu_before = run.interrupt()
    cpu_after = _ended(run)
    run.reader.join(timeout=10)  # its last stderr lines
    assert any("Rating stopped by Ctrl-C" in line for _, line in run.lines), run.lines
    assert not [pid for pid in workers if _alive(pid)]
    assert run.proc.wait(timeout=10) == 0
    assert cpu_after - cpu_before <= 2.0, f"{cpu_after - cpu_before:.2f} s of CPU after Ctrl-C"
    text = out.read_text(encoding="utf-8")
    line = next(line for _, line in run.lines if "Rating stopped by Ctrl-C" in line)
    level = int(line.split("made at level ")[1].split(",")[0])
    assert f"\nengagement: {level}\n" in text
