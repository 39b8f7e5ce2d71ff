"""Issue #13, fourth pass: the fog's and the CP snapshot's fast paths give exactly the answers
of the code they replaced.

Each test keeps a frozen copy of the replaced function (as it stood at f842457) and runs it
side by side with the new one: on every shipped board (both door states where it has doors)
with random inputs, and inside whole autopilot games of three shipped scenarios (every one with
``SOLO_OPS_TEST_BUDGET=full``), where every call the engine makes is checked as it happens.

* ``clusters.cluster_pick`` and ``deploy.deploy`` scan Python floats instead of numpy rows: the
  same doubles, so the same hypots and comparisons, so the same spots (or the same refusal).
* ``spotting.spotters`` remembers its answer per exact inputs on the terrain.
* ``cp.copy_value`` builds the state's own dataclasses directly and shares tuples of plain values
  (as :func:`copy.deepcopy` does); ``cp.put_back`` puts plain values back without a call.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from shapely.geometry import Point

from solo_ops.core.errors import InputError
from solo_ops.core.model import Profile
from solo_ops.game import clusters, cp, deploy, fog, spotting
from solo_ops.game.engine import new_game
from solo_ops.game.state import ENEMY, PLAYER, Counter, Operative, State
from solo_ops.geometry.terrain import Terrain, TerrainCache
from solo_ops.io import library
from solo_ops.io.scenario import load_scenario
from solo_ops.sim import autopilot
from tests.support.budget import FULL
from tests.support.shipped_terrains import ALL, CHECKED, door_states

R = fog.COUNTER_RADIUS


SCENARIO_FILES = sorted(library.folder("scenario").glob("*.yaml"))
PLAYED = SCENARIO_FILES if FULL else [
    library.folder("scenario") / f"{name}.yaml"
    for name in ("bheta-decima-refinery-strike", "crypt-objective-ultima", "gallowdark-night-raid")]
"""The shipped scenarios whose whole game is checked call by call: every one with the full
budget (CI's slow pass, ``SOLO_OPS_TEST_BUDGET=full``), else three: a Bheta-Decima board and the
Gallowdark night raid's doors and hatches (Kill Team 2024, the raid at engagement 3) and the Kill
Team 2018 crypt, each still with spotting checks that see a counter."""


# -- frozen copies of the replaced code (f842457) ------------------------------------------------
def old_cluster_pick(terrain: Terrain, at: tuple[float, float], radii: list[float],
                     pts: np.ndarray, placed: list[tuple[float, float, float]], limit: float
                     ) -> list[tuple[float, float]] | None:
    out: list[tuple[float, float]] = []
    d = np.asarray(terrain.routes.distances(at, 0.0, pts, 0.0), dtype=float)
    keep = np.isfinite(d)
    pts, d = pts[keep], d[keep]
    order = np.lexsort((pts[:, 1], pts[:, 0], np.round(d, 9)))
    pts, d = pts[order], d[order]
    for r in radii:
        chosen = None
        for p, dp in zip(pts, d, strict=True):
            if all(math.hypot(p[0] - x, p[1] - y) >= r + rr + clusters.MODEL_GAP - 1e-9
                   for x, y, rr in placed):
                chosen = (float(p[0]), float(p[1]))
                if dp >= limit:
                    return None
                break
        if chosen is None:
            if limit < math.inf:
                return None
            chosen = (float(at[0]), float(at[1]))
        placed.append((chosen[0], chosen[1], r))
        out.append(chosen)
    return out


def old_deploy(terrain: Terrain, zone: Any, radii: list[float],
               taken: list[tuple[float, float, float]]) -> list[tuple[float, float]]:
    if not radii:
        return []
    rmax = max(radii)
    inner = zone.buffer(-rmax)
    if inner.is_empty:
        raise InputError("the drop zone is too small for the squad's bases", field="zones")
    pts = np.asarray(terrain.routes.free_points(inner, rmax, 0.5), dtype=float)
    if len(pts) == 0:
        raise InputError("no free floor in the drop zone to deploy the squad", field="zones")
    c = zone.centroid
    d = np.hypot(pts[:, 0] - c.x, pts[:, 1] - c.y)
    pts = pts[np.lexsort((pts[:, 1], pts[:, 0], np.round(d, 9)))]
    placed = list(taken)
    out: list[tuple[float, float]] = []
    for r in radii:
        for p in pts:
            if all(math.hypot(p[0] - x, p[1] - y) >= r + rr + deploy.GAP - 1e-9
                   for x, y, rr in placed):
                out.append((float(p[0]), float(p[1])))
                placed.append((float(p[0]), float(p[1]), r))
                break
        else:
            raise InputError(f"the drop zone has no room for {len(radii)} models",
                             field="zones")
    return out


def old_spotters(terrain: Terrain, state: State, counters: Any = None) -> dict[str, Operative]:
    todo = list(state.active_counters() if counters is None else counters)
    players = [o for o in state.operatives.values()
               if o.side != ENEMY and o.on_table and o.at is not None]
    if not todo or not players:
        return {}
    obs = np.array([o.at for o in players], dtype=float)
    obs_r = np.array([o.radius for o in players], dtype=float)
    pts = np.array([c.at for c in todo], dtype=float)
    seen = np.asarray(terrain.sight.visibility_matrix(obs, obs_r, pts, fog.COUNTER_RADIUS),
                      dtype=bool)
    out: dict[str, Operative] = {}
    for j, counter in enumerate(todo):
        rows = np.flatnonzero(seen[:, j])
        if len(rows) == 0:
            continue
        best = min(rows, key=lambda i: (math.hypot(obs[i, 0] - pts[j, 0], obs[i, 1] - pts[j, 1]),
                                        players[i].id))
        out[counter.id] = players[int(best)]
    return out


_OLD_PLAIN = frozenset({str, int, float, bool, type(None), Profile})


def old_copy(value: Any) -> Any:
    kind = type(value)
    if kind in _OLD_PLAIN:
        return value
    if kind is list:
        return [v if type(v) in _OLD_PLAIN else old_copy(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _OLD_PLAIN else old_copy(v) for k, v in value.items()}
    if kind is tuple:
        return tuple(v if type(v) in _OLD_PLAIN else old_copy(v) for v in value)
    if dataclasses.is_dataclass(value) and hasattr(value, "__dict__"):
        new = copy.copy(value)
        fields: dict[str, Any] = vars(new)
        for key, v in fields.items():
            if type(v) not in _OLD_PLAIN:
                fields[key] = old_copy(v)
        return new
    return copy.deepcopy(value)


def old_into(current: Any, saved: Any) -> Any:
    kind = type(saved)
    if type(current) is not kind or kind in _OLD_PLAIN:
        return saved
    if kind is dict:
        for key in [k for k in current if k not in saved]:
            del current[key]
        for key, value in saved.items():
            current[key] = old_into(current.get(key), value)
        return current
    if kind is list:
        current[:] = saved
        return current
    if dataclasses.is_dataclass(saved) and hasattr(saved, "__dict__"):
        fields = current.__dict__
        for key, value in saved.__dict__.items():
            fields[key] = old_into(fields.get(key), value)
        return current
    return saved


# -- helpers -------------------------------------------------------------------------------------
def same(a: Any, b: Any, where: str = "") -> None:
    """``a`` and ``b`` are the same data: same types all the way down, equal values, dicts and
    dataclass fields in the same order."""
    assert type(a) is type(b), f"{where}: {type(a)} != {type(b)}"
    if isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{k}]")
    elif dataclasses.is_dataclass(a) and not isinstance(a, Profile) and hasattr(a, "__dict__"):
        assert list(vars(a)) == list(vars(b)), where
        for k in vars(a):
            same(vars(a)[k], vars(b)[k], f"{where}.{k}")
    else:
        assert a == b or (a != a and b != b), f"{where}: {a!r} != {b!r}"


def independent(copied: Any, original: Any, where: str = "") -> None:
    """No list, dict or state dataclass of ``copied`` is the very object in ``original``."""
    if isinstance(original, list | dict) or (dataclasses.is_dataclass(original)
                                             and not isinstance(original, Profile)
                                             and hasattr(original, "__dict__")):
        assert copied is not original, f"{where} shared"
    if isinstance(original, dict):
        for k in original:
            independent(copied[k], original[k], f"{where}[{k!r}]")
    elif isinstance(original, list | tuple):
        for k, (x, y) in enumerate(zip(copied, original, strict=True)):
            independent(x, y, f"{where}[{k}]")
    elif dataclasses.is_dataclass(original) and not isinstance(original, Profile) \
            and hasattr(original, "__dict__"):
        for k in vars(original):
            independent(vars(copied)[k], vars(original)[k], f"{where}.{k}")


def _disturb(state: State, rng: np.random.Generator) -> None:
    """Change a state the ways a refused or paused step can: moves, wounds, flags, lists and
    dicts grown and shrunk, a counter added, a unit dropped."""
    for op in state.operatives.values():
        if rng.random() < 0.5 and op.at is not None:
            op.at = (op.at[0] + 0.25, op.at[1] - 0.5)
        if rng.random() < 0.3:
            op.wounds -= 1
            op.actions_taken.append("shoot")
            op.limited_uses["x"] = 1
        if rng.random() < 0.2:
            op.activated = not op.activated
    for c in state.counters.values():
        if rng.random() < 0.5:
            c.resolved = True
    state.counters["c99"] = Counter("c99", (1.0, 1.0), 3, 1)
    if state.units and rng.random() < 0.5:
        state.units.pop(next(iter(state.units)))
    state.pending_attacks.append({"kind": "x", "faces": [1, 2]})
    state.vp[PLAYER] = state.vp.get(PLAYER, 0) + 2
    state.turn += 1
    state.doors["zz"] = True


# -- whole games of every shipped scenario, every call checked ------------------------------------
@pytest.mark.parametrize("path", PLAYED, ids=[p.stem for p in PLAYED])
def test_games_snapshot_restore_and_spotting_equal_the_old_code(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = load_scenario(path)
    counts = {"snap": 0, "restore": 0, "spot": 0, "seen": 0}
    new_snapshot, new_spotters = cp.snapshot, spotting.spotters

    def spy_snapshot(state: State) -> cp.Snapshot:
        snap = new_snapshot(state)
        for f in dataclasses.fields(state):
            if f.name in ("log", "dice"):
                continue
            value = getattr(state, f.name)
            same(snap.fields[f.name], old_copy(value), f.name)
            independent(snap.fields[f.name], value, f.name)
        counts["snap"] += 1
        if counts["snap"] % 3 == 1:  # restore a disturbed copy both ways
            a, b = copy.deepcopy(state), copy.deepcopy(state)
            for s in (a, b):
                _disturb(s, np.random.default_rng(counts["snap"]))
            held = {name: getattr(a, name) for name in ("operatives", "units", "counters")}
            ops = dict(a.operatives)
            saved_new, saved_old = new_snapshot(state), new_snapshot(state)
            for name, value in saved_new.fields.items():
                setattr(a, name, cp.put_back(getattr(a, name), value))
            for name, value in saved_old.fields.items():
                setattr(b, name, old_into(getattr(b, name), value))
            for f in dataclasses.fields(state):
                if f.name not in ("log", "dice"):
                    same(getattr(a, f.name), getattr(b, f.name), f.name)
                    # back to the state's values (a dropped key comes back last: old and new)
                    assert getattr(a, f.name) == getattr(state, f.name), f.name
            for name, obj in held.items():  # restored in place: the same containers
                assert getattr(a, name) is obj
            for oid, op in ops.items():
                if oid in a.operatives:
                    assert a.operatives[oid] is op
            counts["restore"] += 1
        return snap

    def spy_spotters(terrain: Terrain, state: State, counters: Any = None
                     ) -> dict[str, Operative]:
        got = new_spotters(terrain, state, counters)
        want = old_spotters(terrain, state, counters)
        assert list(got) == list(want)
        assert all(got[k] is want[k] for k in want)
        counts["spot"] += 1
        counts["seen"] += bool(want)
        return got

    monkeypatch.setattr(cp, "snapshot", spy_snapshot)
    monkeypatch.setattr(spotting, "spotters", spy_spotters)
    game, state = new_game(scenario, 1)
    autopilot.play(game, state, "objective")
    assert state.ended
    assert counts["spot"] > 10 and counts["seen"] >= 1
    # the final state too: every field copied the same and independent of the original
    for f in dataclasses.fields(state):
        if f.name not in ("log", "dice"):
            value = getattr(state, f.name)
            same(cp.copy_value(value), old_copy(value), f.name)
            independent(cp.copy_value(value), value, f.name)


def test_copy_shares_only_immutable_values() -> None:
    """A position is shared (a tuple of floats, as deepcopy shares it); a tuple holding a list
    is copied, and the list inside is a new one."""
    at = (1.5, 2.5)
    assert cp.copy_value(at) is at and copy.deepcopy(at) is at
    mixed = (1.0, [2.0, 3.0])
    got = cp.copy_value(mixed)
    assert got == mixed and got is not mixed and got[1] is not mixed[1]
    c = Counter("c1", (3.0, 4.0), 2, 1)
    d = cp.copy_value(c)
    assert type(d) is Counter and d == c and d is not c
    d.at = (0.0, 0.0)
    assert c.at == (3.0, 4.0)


# -- random inputs on every shipped board ----------------------------------------------------------
def _floor(terrain: Terrain) -> np.ndarray:
    return np.asarray(terrain.floor_points(R, 0.5))


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_cluster_pick_equals_the_old_scan(name: str, k: int) -> None:
    terrain = door_states(name)[k]
    floor = _floor(terrain)
    rng = np.random.default_rng(1300 + k)
    checked = 0
    for trial in range(12):
        at = tuple(float(v) for v in floor[rng.integers(len(floor))])
        radii = [float(v) for v in rng.choice([R, 0.5, 0.8, 40 / 25.4 / 2],
                                              size=int(rng.integers(1, 6)))]
        rmax = max(radii)
        pts = np.asarray(terrain.routes.free_points(Point(at).buffer(3.0 + rmax * 4), rmax,
                                                    0.5), dtype=float).reshape(-1, 2)
        if trial % 3 == 0:  # the counter's own spot first, as cluster_spots does
            pts = np.concatenate([np.array([at]), pts])
        if len(pts) == 0:
            continue
        placed = [(float(x), float(y), float(r)) for (x, y), r in zip(
            pts[rng.integers(len(pts), size=int(rng.integers(0, 4)))] + rng.normal(0, 0.7, 2),
            rng.choice([R, 0.5], size=4), strict=False)]
        if trial % 4 == 1 and len(pts) > 2:  # a disc exactly touching a candidate's base
            p = pts[1]
            placed.append((float(p[0]) + radii[0] + R + clusters.MODEL_GAP - 1e-9, float(p[1]), R))
        for limit in (math.inf, clusters.CLUSTER_FIRST - 1e-7, 0.4):
            a, b = list(placed), list(placed)
            assert clusters.cluster_pick(terrain, at, radii, pts, a, limit) == \
                old_cluster_pick(terrain, at, radii, pts, b, limit)
            assert a == b
            checked += 1
    assert checked >= 12


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_deploy_equals_the_old_scan(name: str, k: int) -> None:
    terrain = door_states(name)[k]
    board = terrain.board
    rng = np.random.default_rng(1313 + k)
    outcomes = set()
    for index in range(3):
        zone = deploy.zone_for(board, index)
        for trial in range(6):
            radii = [float(v) for v in rng.choice([R, 0.5, 0.8, 40 / 25.4 / 2],
                                                  size=int(rng.integers(1, 14)))]
            minx, miny, maxx, maxy = zone.bounds
            taken = [(float(rng.uniform(minx, maxx)), float(rng.uniform(miny, maxy)), R)
                     for _ in range(int(rng.integers(0, 4)))]
            if trial == 5:  # far more models than the zone holds
                radii = radii * 12
            try:
                want: Any = old_deploy(terrain, zone, radii, list(taken))
            except InputError as exc:
                want = ("refused", str(exc))
            try:
                got: Any = deploy.deploy(terrain, zone, radii, list(taken))
            except InputError as exc:
                got = ("refused", str(exc))
            assert got == want
            if isinstance(got, list):
                assert all(type(v) is float for p in got for v in p)
            outcomes.add(type(got))
    assert list in outcomes


def _state_with(terrain: Terrain, rng: np.random.Generator, floor: np.ndarray) -> State:
    state = State(edition="kt2024")
    profile = Profile("trooper", 6, 7, 3, 10, 3, float(rng.choice([25.0, 32.0, 40.0])))
    for n in range(int(rng.integers(1, 7))):
        x, y = floor[rng.integers(len(floor))]
        side = PLAYER if n == 0 or rng.random() < 0.7 else ENEMY
        op = Operative(f"p{n}", f"P{n}", side, "x", profile, (float(x), float(y)), 10)
        op.down = bool(rng.random() < 0.1)
        state.operatives[op.id] = op
    for n in range(int(rng.integers(1, 9))):
        x, y = floor[rng.integers(len(floor))]
        c = Counter(f"c{n + 1}", (float(x), float(y)), 3, 1)
        c.resolved = bool(rng.random() < 0.15)
        state.counters[c.id] = c
    return state


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_spotters_equal_the_old_code_on_random_layouts(name: str, k: int) -> None:
    """Cold and remembered answers both equal the old computation, also after the state moved
    away and back (a remembered answer met again) and for a counter list given explicitly."""
    terrain = door_states(name)[k]
    floor = _floor(terrain)
    rng = np.random.default_rng(131 + k)
    seen = 0
    for _ in range(15):
        state = _state_with(terrain, rng, floor)
        want = old_spotters(terrain, state)
        for _again in range(2):
            got = spotting.spotters(terrain, state)
            assert list(got) == list(want) and all(got[c] is want[c] for c in want)
        seen += len(want)
        op = next(iter(state.operatives.values()))
        home = op.at
        op.at = tuple(float(v) for v in floor[rng.integers(len(floor))])  # type: ignore
        moved = old_spotters(terrain, state)
        got = spotting.spotters(terrain, state)
        assert list(got) == list(moved) and all(got[c] is moved[c] for c in moved)
        op.at = home
        got = spotting.spotters(terrain, state)
        assert list(got) == list(want) and all(got[c] is want[c] for c in want)
        some = list(state.counters.values())[::2]
        want_some = old_spotters(terrain, state, some)
        got_some = spotting.spotters(terrain, state, some)
        assert list(got_some) == list(want_some)
        assert all(got_some[c] is want_some[c] for c in want_some)
    assert seen > 0


def test_spotting_memo_is_bounded_and_per_terrain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spotting, "SPOTTING_MEMO", 8)
    name, k = ALL[0]
    terrain = door_states(name)[k]
    floor = _floor(terrain)
    rng = np.random.default_rng(7)
    state = _state_with(terrain, rng, floor)
    terrain.spotting.clear()
    spotting.spotters(terrain, state)
    assert len(terrain.spotting) == 1
    other = TerrainCache(terrain.board).get()
    assert other.spotting == {} and other is not terrain
    for n in range(spotting.SPOTTING_MEMO + 5):
        state.counters["c1"].at = (float(n) * 1e-6, 0.0)
        state.counters["c1"].resolved = False
        spotting.spotters(terrain, state)
    assert len(terrain.spotting) <= spotting.SPOTTING_MEMO
