"""The compiled base tests (``solo_ops.geometry.jit.bases``) answer exactly what the numpy code
answers (issue 39).

``Discs.hides`` (whether another model's base hides a corner from the start of a reach: every
``reachable`` asks it of its start's links) runs one numba kernel when
:data:`solo_ops.geometry.jit.ENABLED`. It is compared here with the numpy code (``passing``
then ``sees_rows``), boolean for boolean, for random points and the hard ones: sight lines
through a base's vertex exactly, along its edges, grazing its circle, 1e-12 off a vertex.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from solo_ops.geometry import routes as R
from tests.support.jit_switch import compiled


def table_discs(rng: np.random.Generator, n: int) -> R.discs.Discs:
    """Other models' bases on a 30" x 22" table, grown by a 32 mm base's radius."""
    blockers = [(float(x), float(y), float(r)) for x, y, r in
                zip(rng.uniform(1, 29, n), rng.uniform(1, 21, n),
                    rng.choice([0.5, 0.63, 1.0, 1.26], n), strict=True)]
    return R.discs.Discs.of(blockers, 0.63)


def test_hides_equals_numpy() -> None:
    rng = np.random.default_rng(39)
    total = hidden = 0
    for n in (1, 3, 8, 20):
        discs = table_discs(rng, n)
        v = discs.verts.reshape(-1, 2)
        nxt = np.roll(discs.verts, -1, axis=1).reshape(-1, 2)
        starts = [rng.uniform(0, 1, 2) * [30, 22] for _ in range(6)]
        starts += [v[int(rng.integers(0, len(v)))] + d for d in (0.0, 1e-12, -1e-9)]
        starts += [2 * v[k] - nxt[k] for k in rng.integers(0, len(v), 3)]  # on an edge's line
        for x in starts:
            x = np.asarray(x, dtype=float)
            T = np.concatenate([
                rng.uniform(0, 1, (200, 2)) * [30, 22], v, v + 1e-12, v - 1e-9,
                2 * v - x,  # through a vertex exactly, beyond it
                nxt + (nxt - v),  # along an edge's line
                discs.centres + (discs.radii + 1e-6)[:, None] * np.array([0.6, 0.8]),
                discs.centres])
            with compiled(True):
                got = discs.hides(x, T)
            with compiled(False):
                want = discs.hides(x, T)
            assert got.tobytes() == want.tobytes(), (n, x)
            total += len(want)
            hidden += int(want.sum())
    assert 0.02 * total < hidden < 0.9 * total


def test_hides_with_no_bases_or_points() -> None:
    rng = np.random.default_rng(1)
    discs = table_discs(rng, 4)
    x = np.array([3.0, 4.0])
    for on in (True, False):
        with compiled(on):
            assert discs.hides(x, np.zeros((0, 2))).shape == (0,)
            assert not discs.subset([]).hides(x, np.ones((3, 2))).any()
