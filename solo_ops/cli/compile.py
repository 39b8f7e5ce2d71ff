"""``solo-ops compile``: compile the geometry's loops once, and the decision every command that
plays missions (or a game at the table) takes about them (:func:`prepare`).

The kernels (:mod:`solo_ops.geometry.jit`) give the numpy code's answers bit for bit, faster;
compiling them costs some 35-45 s of CPU once per install (:mod:`solo_ops.io.compiled` says
where they are kept). :func:`prepare`:

- ``SOLO_OPS_JIT=0`` or no numba: the numpy code;
- ``SOLO_OPS_JIT=1``: the kernels, compiled on the spot if need be (as before issue #32);
- otherwise, once ``solo-ops compile`` has compiled them: the kernels, loaded once in this
  process (a rating's worker processes are forked from it and start with them loaded); not
  yet: the numpy code this time, and ``solo-ops compile --background`` is started (detached,
  at the lowest priority, one at a time), so that the next command has them. No command
  waits for a compiler. A batch of missions (``rate``, ``new --difficulty``) keeps every core
  busy: its compile waits until that command has ended (``--after PID``), so that it takes
  nothing from it; a game at the table (``play``, ``serve``), mostly waiting for its players,
  and a campaign's threat (its command goes on to the table, or its server runs on) have
  their compile at once. One background compile at most is started by a process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import click
import numpy as np

from solo_ops.cli.common import emit_json, json_option
from solo_ops.geometry import jit

WARM_SCENARIOS = ("volkus-stronghold-supplement-example", "crypt-objective-ultima")
"""The missions whose play compiles every kernel a game or a rating calls (a Kill Team 2024
and a 2018 board; the co-op stronghold asks every question the geometry has)."""


def prepare(*, start_compiling: bool = True, after_this_command: bool = True) -> bool:
    """Whether this command's missions (or game) use the kernels; loads them when they are
    compiled, else starts compiling them in the background (see the module docstring): once
    this command has ended when ``after_this_command`` (a batch of missions), else at once."""
    from solo_ops.io import compiled

    if not jit.AVAILABLE or jit.MODE == "0":
        return False
    compiled.configure()
    if compiled.ready():  # loaded now, before the first answer, in either mode
        jit.preload(compiled.recorded())
        return True
    if jit.MODE == "1":  # always on: each kernel compiled (or loaded) at its first call
        return True
    if start_compiling:
        start_in_background(after_this_command=after_this_command)
    return False


def use_at_table() -> None:
    """A game at the table (``play``, ``serve``): the kernels when compiled (loaded now, before
    the first answer: about half a second of CPU once, for distances two to three times
    faster all game), else the numpy code while they compile in the background."""
    jit.use_in_simulation(prepare(after_this_command=False))


_STARTED: list[subprocess.Popen[bytes]] = []
"""The background compile this process started, if any (one at most: a command that rates
several scenarios or levels asks :func:`prepare` again for each)."""


def start_in_background(*, after_this_command: bool = False) -> subprocess.Popen[bytes] | None:
    """Start ``solo-ops compile --background`` detached from this command (its own session:
    Ctrl-C here does not reach it; nothing printed), waiting until this command has ended
    first when ``after_this_command``; it exits at once if another holds the lock or the
    kernels are compiled by then. Windows has no ``nice``: the process is started in the idle
    priority class there. The process (the one already started, on a second call), or None
    where none could be started."""
    if _STARTED:
        return _STARTED[0]
    flags = {"start_new_session": True} if os.name == "posix" else {
        "creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        | getattr(subprocess, "DETACHED_PROCESS", 0)
        | getattr(subprocess, "IDLE_PRIORITY_CLASS", 0)}
    command = [sys.executable, "-m", "solo_ops", "compile", "--background"]
    if after_this_command:
        command += ["--after", str(os.getpid())]
    try:
        _STARTED.append(subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         close_fds=True, **flags))
    except OSError:  # no compiler this time: the numpy code gives the same answers
        return None
    return _STARTED[0]


def wait_for_parent(parent: int, *, poll: float = 0.25,
                    parent_now: Callable[[], int] = os.getppid,
                    sleep: Callable[[float], None] = time.sleep) -> None:
    """Wait until the process that started this one (pid ``parent``) has ended: where a
    process that loses its parent gets another (POSIX: init or a subreaper), until
    ``parent_now()`` is another pid (at once if it already is: the command ended first).
    Elsewhere (Windows keeps the old pid) it returns at once: the compile then runs beside
    the command, in the idle priority class (:func:`start_in_background`)."""
    if os.name != "posix":
        return
    while parent_now() == parent:
        sleep(poll)


def yield_the_cpu() -> None:
    """Make this process (a background compile) take only CPU the commands leave, so that it
    slows neither the command that started it nor the next one: the lowest priority
    (``nice 19``) and, where Linux groups processes by session (``/proc/self/autogroup``), its
    session's group at the lowest priority too. The compile runs in a session of its own (so
    that Ctrl-C at the command does not stop it), and between groups ``nice`` counts for
    nothing: without this, a command using both cores of a two-core machine gave a core to
    the compile (measured: a process at ``nice 19`` in its own session took 2x the CPU of each
    of two ordinary ones, 0.01x once its group was at 19 too). Each where the system allows;
    neither is needed for the same answers."""
    if hasattr(os, "nice"):
        try:
            os.nice(19)
        except OSError:
            pass
    try:
        with open("/proc/self/autogroup", "w", encoding="ascii") as group:
            group.write("19")
    except OSError:  # not Linux, or no autogroups: nice and the idle class are all there is
        pass


def compile_kernels() -> tuple[int, float]:
    """Play one short mission of each :data:`WARM_SCENARIOS` with the kernels on, which
    compiles (or loads) every kernel they call; returns how many and the CPU seconds."""
    from solo_ops.geometry.terrain import TerrainCache
    from solo_ops.io import library
    from solo_ops.io.scenario import load_scenario
    from solo_ops.rules import killzones
    from solo_ops.sim import rating

    jit.use_in_simulation()
    start = time.process_time()
    for name in WARM_SCENARIOS:
        scenario = load_scenario(library.resolve("scenario", name, source="solo-ops compile"))
        terrains = TerrainCache(killzones.board_in_play(scenario.board, scenario.edition))
        rating.play_one(scenario, 1, "objective", terrains=terrains)
        warm_sight_stages(terrains.get().sight,
                          scenario.board.width, scenario.board.depth)
    return len(jit.compiled_signatures()), time.process_time() - start


def warm_sight_stages(sight: Any, width: float, depth: float) -> None:
    """Ask ``sight`` the visibility of a fixed spread of base pairs by its stage-by-stage
    search (``numpy_visible_pairs``, with the kernels on), which a game reaches only for a pair
    too close to call, and the witness of a Heavy feature in a cover triangle
    (``obscure_witness``), which it reaches only after shapely has found them to meet: so that
    those kernels (the cut-offs, the blocker pieces' test, the witness) are compiled here too,
    with the types the game gives them, and no game waits for them at its first such
    question."""
    k = np.arange(48, dtype=float)
    a = np.column_stack([(k * 7.3) % width, (k * 3.1) % depth])
    b = np.column_stack([(k * 5.7 + 3.0) % width, (k * 4.3 + 2.0) % depth])
    sight.numpy_visible_pairs(a, np.full(48, 0.5), b, np.full(48, 0.6))
    if sight.heavy_ragged is not None:  # a Heavy triangle's witness, after shapely met it
        triangle = np.array([[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]])  # (n, 3, 2), as the cover
        zone = np.array([[-9.0, -9.0, 1.0]])  # (n, 3): x, y, r of a 1" zone
        jit.kernels("sight").obscure_witness(triangle, np.zeros(1, dtype=np.int64), zone,
                                             zone.copy(), *sight.heavy_ragged)


@click.command("compile")
@click.option("--background", is_flag=True,
              help="As started by a command that found the kernels not compiled: the lowest "
                   "priority, silent, and nothing to do if another compile runs or has run.")
@click.option("--after", "after", type=int, default=None, hidden=True, metavar="PID",
              help="With --background: start once the command that started this one (process "
                   "PID) has ended (a batch of missions, which uses every core).")
@json_option
def compile_command(background: bool, after: int | None, as_json: bool) -> None:
    """Compile the geometry's loops now (once per install; rate and new do it by themselves,
    in the background, when they find them missing)."""
    from solo_ops.core.errors import SaveError
    from solo_ops.io import compiled
    from solo_ops.io.locks import game_lock

    if after is not None and not background:
        raise click.UsageError("--after goes with --background (a compile a command started)")
    if not jit.AVAILABLE:
        if not background:
            click.echo(f"{jit.why_unavailable()}: nothing to compile (the numpy code gives "
                       "the same answers)")
        return
    if background:
        yield_the_cpu()
        if after is not None:
            wait_for_parent(after)
    compiled.configure()
    try:
        with game_lock(compiled.lock_target()):
            if background and compiled.ready():  # compiled meanwhile (another command's)
                return
            kernels, seconds = compile_kernels()
            path = compiled.record(jit.compiled_signatures(), seconds)
    except SaveError:
        if background:
            return
        raise
    if as_json:
        emit_json({"kernels": kernels, "cpu_seconds": round(seconds, 2), "marker": str(path),
                   "numba_cache": str(compiled.numba_dir())})
    elif not background:
        click.echo(f"{kernels} kernels compiled or loaded in {seconds:.1f} s of CPU; numba's "
                   f"cache: {compiled.numba_dir()}")


commands = [compile_command]
