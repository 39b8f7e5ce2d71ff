"""The switch for the geometry's compiled loops (``solo_ops.geometry.jit``): numba's kernels are
used when numba is installed, unless ``SOLO_OPS_JIT=0``; without a writable cache directory
they still compile. Whole games played with and without them are the same games, byte for
byte (``bench/log_digests.py --check`` does the same over every shipped scenario)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("numba")

from solo_ops.game.engine import new_game
from solo_ops.geometry import jit
from solo_ops.geometry.terrain import TerrainCache
from solo_ops.io import library
from solo_ops.io.scenario import load_scenario
from solo_ops.sim import autopilot
from tests.support.budget import FULL
from tests.support.paths import ROOT


def _run(code: str, setting: str) -> str:
    env = {**os.environ, "SOLO_OPS_JIT": setting, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()


def test_the_environment_switch_and_the_simulator() -> None:
    """Unset: off until the simulator turns them on; ``SOLO_OPS_JIT=1``: on; ``0``: never."""
    code = ("from solo_ops.geometry import jit; a = jit.ENABLED; jit.use_in_simulation(); "
            "print(jit.AVAILABLE, a, jit.ENABLED)")
    for setting, want in (("", "True False True"), ("auto", "True False True"),
                          ("1", "True True True"), ("0", "True False False")):
        assert _run(code, setting) == want, setting


def test_a_one_off_answer_never_loads_numba_and_a_rating_does() -> None:
    """A distance asked once (as ``geom distance`` or a game at the table does) keeps the
    numpy code and never imports numba; a rating's missions turn the kernels on."""
    code = """
import sys
from solo_ops.geometry.routes import Routes
from solo_ops.io import library
from solo_ops.io.scenario import load_scenario
from solo_ops.sim import rating
from solo_ops.geometry import jit
scenario = load_scenario(library.folder("scenario") / "gallowdark-night-raid.yaml")
Routes(scenario.board).distance((2.0, 2.0), (20.0, 15.0))
print("numba" in sys.modules, jit.ENABLED, end=" ")
rating.run(scenario, 1, 3)
print("numba" in sys.modules, jit.ENABLED)
"""
    assert _run(code, "") == "False False True True"
    assert _run(code, "0") == "False False False False"


def test_no_cache_directory_still_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where numba finds nowhere to keep compiled code, the kernel compiles in the process."""
    from numba.core import caching

    monkeypatch.setattr(caching.CacheImpl, "_locator_classes", [])

    def add_one(x: float) -> float:
        return x + 1.0

    compiled = jit.njit(add_one)
    assert compiled(1.5) == 2.5
    assert compiled is not add_one


SCENARIOS = sorted(p.stem for p in library.folder("scenario").glob("*.yaml"))
PLAYED = SCENARIOS if FULL else ["gallowdark-cloister-purge", "translocum-secure-the-facility",
                                 "volkus-manufactorum-sweep"]
"""The shipped scenarios whose whole game is played both ways: every one with the full budget
(CI's slow pass, ``SOLO_OPS_TEST_BUDGET=full``), else three that ask the kernels every kind of
question: a Gallowdark board's doors and hatches (Kill Team 2024), the Kill Team 2018 chamber's
doors and pitfalls, and a Volkus board of ruins (each on the seed it has in the full list)."""


def _played(name: str, seed: int, on: bool) -> str:
    """The whole log of a game of the shipped scenario played by the autopilot, with the
    compiled loops on or off (a TerrainCache of its own, so nothing remembered is shared)."""
    was = jit.ENABLED
    jit.ENABLED = on
    try:
        scenario = load_scenario(library.folder("scenario") / f"{name}.yaml")
        game, state = new_game(scenario, seed, terrains=TerrainCache(scenario.board))
        autopilot.play(game, state, "objective")
    finally:
        jit.ENABLED = was
    return json.dumps(state.log, sort_keys=True)


@pytest.mark.parametrize("name", PLAYED)
def test_a_whole_game_is_the_same_with_and_without_the_kernels(name: str) -> None:
    seed = 5 + SCENARIOS.index(name)
    with_kernels, without = _played(name, seed, True), _played(name, seed, False)
    assert len(json.loads(without)) > 20  # a real game, played to its end
    assert with_kernels == without
