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
from tests.conftest import ROOT


def test_the_environment_switch_turns_the_kernels_off() -> None:
    """``SOLO_OPS_JIT=0`` (and only that) makes the geometry use the numpy code."""
    code = "from solo_ops.geometry import jit; print(jit.AVAILABLE, jit.ENABLED)"
    for value, want in (("0", "True False"), ("1", "True True"), ("", "True True")):
        env = {**os.environ, "SOLO_OPS_JIT": value, "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True).stdout.strip()
        assert out == want, value


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


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_whole_game_is_the_same_with_and_without_the_kernels(name: str) -> None:
    seed = 5 + SCENARIOS.index(name)
    with_kernels, without = _played(name, seed, True), _played(name, seed, False)
    assert len(json.loads(without)) > 20  # a real game, played to its end
    assert with_kernels == without
