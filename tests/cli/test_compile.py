"""The geometry's compiled loops without a compile wait (issue #32): ``solo-ops compile``, the
note that they are compiled, and what ``rate``, ``new --difficulty``, ``play`` and ``serve``
decide from it (``solo_ops.cli.compile.prepare``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

from solo_ops.cli import compile as cli_compile
from solo_ops.geometry import jit
from solo_ops.io import compiled
from tests.support.jit_switch import compiled as kernels_on
from tests.support.paths import ROOT
from tests.support.players import small_scenario


def _env(cache: Path, setting: str = "") -> dict[str, str]:
    """A command's environment: its own solo-ops cache folder (the note), numba's cache shared
    with the tests' (so nothing is compiled twice), the switch as given."""
    return {**os.environ, "SOLO_OPS_CACHE": str(cache), "SOLO_OPS_JIT": setting,
            "PYTHONPATH": str(ROOT)}


def test_the_cache_folder_follows_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    monkeypatch.delenv("SOLO_OPS_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert compiled.cache_dir() == tmp_path / "xdg" / "solo-ops"
    monkeypatch.setenv("SOLO_OPS_CACHE", str(tmp_path / "mine"))
    assert compiled.cache_dir() == tmp_path / "mine"
    assert compiled.marker().parent == tmp_path / "mine"
    assert compiled.marker().name == f"compiled-{compiled.build_key()}.json"
    assert not compiled.ready() and compiled.recorded() == []


def test_the_build_key_changes_with_the_kernels_source(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    """A changed kernel is another build: compiled afresh, never taken for compiled."""
    sources = compiled.kernel_sources()
    assert {p.name for p in sources} >= {"distance.py", "movement.py", "sight.py"}
    before = compiled.build_key()
    changed = tmp_path / "sight.py"
    changed.write_bytes(sources[-1].read_bytes() + b"\n# changed\n")
    monkeypatch.setattr(compiled, "kernel_sources", lambda: [*sources[:-1], changed])
    assert compiled.build_key() != before


def test_each_build_keeps_numba_s_files_apart_and_the_newest_note_clears_the_others(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """numba checks a cached kernel only against its own file, not the kernels of another
    module it calls (``jit.walls`` calls ``jit.movement``'s): each build compiles into a folder
    of its own, and the note of a new build removes the other builds' folders (and the files
    of an older solo-ops straight under ``numba/``); a folder the user chose is left alone."""
    monkeypatch.setenv("SOLO_OPS_CACHE", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    key = compiled.build_key()
    assert compiled.numba_dir() == tmp_path / "numba" / key == compiled.numba_root() / key
    sources = compiled.kernel_sources()
    changed = tmp_path / "movement.py"
    changed.write_bytes(sources[0].read_bytes() + b"\n# changed\n")
    with monkeypatch.context() as m:
        m.setattr(compiled, "kernel_sources", lambda: [changed, *sources[1:]])
        other = compiled.numba_dir()
    assert other.parent == tmp_path / "numba" and other.name != key
    (other / "sub").mkdir(parents=True)
    (other / "sub" / "k.nbi").write_text("x")
    (tmp_path / "numba" / "old.nbi").write_text("x")  # an older solo-ops's flat layout
    (tmp_path / "numba" / key).mkdir()
    (tmp_path / "numba" / key / "mine.nbi").write_text("x")
    compiled.record([], 1.0)
    assert sorted(p.name for p in (tmp_path / "numba").iterdir()) == [key]
    assert (tmp_path / "numba" / key / "mine.nbi").is_file() and compiled.ready()
    chosen = tmp_path / "chosen"
    (chosen / "x").mkdir(parents=True)
    (tmp_path / "numba" / "stale").mkdir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(chosen))
    assert compiled.numba_dir() == chosen
    compiled.record([], 1.0)
    assert (tmp_path / "numba" / "stale").is_dir() and (chosen / "x").is_dir()


def test_prepare_decides_and_never_waits_for_a_compiler(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    started: list[bool] = []  # each compile started: whether it waits for the command's end
    loaded: list[Any] = []
    monkeypatch.setattr(cli_compile, "start_in_background",
                        lambda **how: started.append(how["after_this_command"]))
    monkeypatch.setattr(jit, "preload", lambda entries: loaded.append(entries) or 0)
    monkeypatch.setenv("SOLO_OPS_CACHE", str(tmp_path))
    monkeypatch.setattr(jit, "MODE", "0")
    assert cli_compile.prepare() is False and not started and not loaded
    monkeypatch.setattr(jit, "MODE", "auto")
    # not compiled yet: a batch's compile waits for the batch's end, a table's starts at once
    assert cli_compile.prepare() is False and started == [True] and not loaded
    monkeypatch.setattr(jit, "ENABLED", jit.ENABLED)  # put back after the table's switch
    cli_compile.use_at_table()
    assert started == [True, False] and not jit.ENABLED and not loaded
    entries = [{"module": "distance", "name": "inside", "args": []}]
    monkeypatch.setattr(compiled, "ready", lambda: True)
    monkeypatch.setattr(compiled, "recorded", lambda: entries)
    assert cli_compile.prepare() is True and loaded == [entries] and len(started) == 2
    monkeypatch.setattr(jit, "MODE", "1")  # always on: the recorded kernels loaded first too
    assert cli_compile.prepare() is True and loaded == [entries, entries] and len(started) == 2
    monkeypatch.setattr(compiled, "ready", lambda: False)  # none recorded: compiled on the spot
    assert cli_compile.prepare() is True and len(loaded) == 2 and len(started) == 2


def test_a_compile_after_a_command_waits_while_that_command_is_its_parent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``wait_for_parent``: it polls until the process that started it is no longer its
    parent (the command ended: the compile was handed to init), and not at all when it already
    is not."""
    if os.name != "posix":
        pytest.skip("only where an orphan gets another parent")
    parents = iter([41, 41, 41, 1])
    naps: list[float] = []
    cli_compile.wait_for_parent(41, poll=0.5, parent_now=lambda: next(parents),
                                sleep=naps.append)
    assert naps == [0.5, 0.5, 0.5]
    naps.clear()
    cli_compile.wait_for_parent(41, parent_now=lambda: 1, sleep=naps.append)
    assert naps == []


def _cpu_ticks(pid: int) -> tuple[str, int] | None:
    """A process's state (``S`` sleeping, ``R`` running or runnable, ...) and its user and
    system CPU so far in clock ticks (Linux ``/proc``), or None once it has ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[11]) + int(fields[12])


def _settled(pid: int, limit: float) -> tuple[str, int] | None:
    """Wait until process ``pid`` sleeps with its CPU unchanged for a second (within ``limit``
    seconds): its state and CPU then, or None once it has ended. A process starved of CPU is
    runnable (``R``), not asleep, so a starved compile is never taken for a waiting one."""
    end, last = time.monotonic() + limit, _cpu_ticks(pid)
    while time.monotonic() < end and last is not None:
        time.sleep(1.0)
        now = _cpu_ticks(pid)
        if now is None or (now == last and now[0] == "S"):
            return now
        last = now
    return last


def test_a_batch_s_compile_idles_until_the_batch_has_ended(tmp_path: Path) -> None:
    """The compile a batch of missions starts (``after_this_command``; once a process, however
    often asked) is told the command's pid and takes neither the lock nor the CPU while that
    command runs: once it has settled (asleep, its CPU unchanged for a second) it has written
    nothing; the command ends, and the compile takes the lock."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs Linux's /proc to watch the compile")
    parent = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom solo_ops.cli.compile import start_in_background"
         "\nfirst = start_in_background(after_this_command=True)"
         "\nagain = start_in_background(after_this_command=True)"
         "\nprint(first.pid, again.pid, flush=True)\nsys.stdin.read()"],
        env=_env(tmp_path), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None and parent.stdin is not None
    child = -1
    try:
        child, again = (int(pid) for pid in parent.stdout.readline().split())
        assert again == child  # one background compile a process
        command = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        assert command[-4:-1] == [b"--background", b"--after", str(parent.pid).encode()]
        settled = _settled(child, 120)
        assert settled is not None and settled[0] == "S"  # still there, asleep: waiting
        assert not list(tmp_path.glob("compile*")) and not list(tmp_path.glob("compiled-*"))
        parent.stdin.close()
        assert parent.wait(timeout=60) == 0
        end = time.monotonic() + 120  # the command ended: the compile takes the lock and starts
        while not list(tmp_path.glob("compile.lock")) and time.monotonic() < end:
            time.sleep(0.1)
        assert list(tmp_path.glob("compile.lock"))
    finally:  # what it then compiles is under test above (a first rating's compile)
        parent.kill()
        if child > 0:
            try:
                os.kill(child, 9)
            except ProcessLookupError:
                pass


def test_after_goes_with_background_only() -> None:
    """``--after PID`` names the command a background compile waits for: alone, a usage
    error in one line, nothing compiled."""
    done = subprocess.run([sys.executable, "-m", "solo_ops", "compile", "--after", "1"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and "--after goes with --background" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_recorded_kernels_load_back_with_the_same_types() -> None:
    """What the note records of a kernel the geometry called decodes to the very signatures
    numba compiled, and loads back."""
    from solo_ops.geometry.routes import Routes
    from solo_ops.io import library
    from solo_ops.io.scenario import load_scenario

    scenario = load_scenario(library.folder("scenario") / "gallowdark-night-raid.yaml")
    routes = Routes(scenario.board)
    with kernels_on(True):  # points no other test asks: the kernels are called here
        for k in range(5):
            routes.distance((2.0 + 0.0137 * k, 2.0 + 0.0291 * k), (20.0 - 0.013 * k, 15.0))
    entries = jit.compiled_signatures()
    names = {(e["module"], e["name"]) for e in entries}
    assert ("distance", "direct") in names or ("distance", "seen") in names
    assert not any(name.startswith("_") for _, name in names)  # helpers are inside kernels
    json.dumps(entries)  # plain data
    import importlib

    for entry in entries:
        kernel = getattr(importlib.import_module(f"solo_ops.geometry.jit.{entry['module']}"),
                         entry["name"])
        assert [jit.decode_signature(args) for args in entry["args"]] == list(kernel.signatures)
    assert jit.preload(entries) == sum(len(e["args"]) for e in entries)
    assert jit.preload([{"module": "distance", "name": "no_such_kernel", "args": [[]]}]) == 0


def test_compile_writes_the_note_and_a_first_rating_compiles_in_the_background(
        tmp_path: Path) -> None:
    """``solo-ops compile`` records the kernels (and removes another build's note); a rating
    that finds no note plays with the numpy code (the same numbers) and leaves ``solo-ops
    compile --background`` behind, which writes the note and ends; the next rating loads the
    kernels."""
    (tmp_path / "a").mkdir()
    stale = tmp_path / "a" / "compiled-0000000000000000.json"
    stale.write_text("{}", encoding="utf-8")  # another build's note: gone once this one is written
    done = subprocess.run([sys.executable, "-m", "solo_ops", "compile", "--json"],
                          env=_env(tmp_path / "a"), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    note = json.loads(Path(doc["marker"]).read_text(encoding="utf-8"))
    assert note["key"] == Path(doc["marker"]).stem.removeprefix("compiled-")
    assert doc["kernels"] == len(note["kernels"]) >= 20
    # the sight stages a game reaches only for a pair too close to call are compiled too
    # (cli.compile.warm_sight_stages): no game waits for them at its first such pair
    names = {(k["module"], k["name"]) for k in note["kernels"]}
    assert {("sight", "points_cut_off"), ("sight", "pieces_hits"),
            ("sight", "obscure_witness")} <= names
    assert Path(doc["marker"]).parent == tmp_path / "a" and not stale.exists()
    assert [p.name for p in (tmp_path / "a").glob("compiled-*.json")] == [Path(doc["marker"]).name]
    # a small one-turning-point game: the note and the background compile are under test here
    # (the kernels' numbers against the numpy code's, whole games: tests/geometry/test_jit_switch)
    small = small_scenario(tmp_path, turns=1)
    rate = [sys.executable, "-m", "solo_ops", "rate", str(small), "--missions", "2", "--jobs",
            "1", "--json"]
    fresh = tmp_path / "b"
    first = subprocess.run(rate, env=_env(fresh), capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    end = time.monotonic() + 300
    while not list(fresh.glob("compiled-*.json")) and time.monotonic() < end:
        time.sleep(0.2)
    assert [p.name for p in fresh.glob("compiled-*.json")] == [Path(doc["marker"]).name]
    second = subprocess.run(rate, env=_env(fresh), capture_output=True, text=True, timeout=600)
    assert second.returncode == 0, second.stderr
    one, two = json.loads(first.stdout), json.loads(second.stdout)
    one.pop("missions_per_minute")
    two.pop("missions_per_minute")
    assert one == two
