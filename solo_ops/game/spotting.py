"""Spotting the fog's counters: which player model sees each hidden counter (the nearest that
sees it, ties by id; the moment one does, the counter is resolved). One batched visibility
question for every counter at once (:func:`spotters`), remembered per exact inputs on the
terrain because the engine asks after every move; :func:`spotted_by` for one counter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from solo_ops.game.state import COUNTER_RADIUS, ENEMY, Counter, Operative, State

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


def spotters(terrain: Terrain, state: State, counters: Sequence[Counter] | None = None
             ) -> dict[str, Operative]:
    """For every counter (default: every active one) that a player model can see, the nearest
    player model that sees it (ties by id). One batched visibility question."""
    todo = list(state.active_counters() if counters is None else counters)
    players = [o for o in state.operatives.values()
               if o.side != ENEMY and o.on_table and o.at is not None]
    if not todo or not players:
        return {}
    # The engine asks after every move, mostly with nobody moved since: the answer (pairs of
    # counter and player places in these lists) is remembered per exact inputs on the terrain.
    key = (tuple([(o.id, o.at[0], o.at[1], o.radius) for o in players]),  # type: ignore[index]
           tuple([(c.at[0], c.at[1]) for c in todo]))
    memo = terrain.spotting
    found = memo.get(key)
    if found is None:
        if len(memo) >= SPOTTING_MEMO:
            memo.clear()
        found = memo[key] = _spotters(terrain, players, todo)
    return {todo[j].id: players[i] for j, i in found}


SPOTTING_MEMO = 4096
"""How many :func:`spotters` answers a terrain keeps before it forgets them all."""


def _spotters(terrain: Terrain, players: list[Operative], todo: list[Counter]
              ) -> tuple[tuple[int, int], ...]:
    """:func:`spotters` measured: ``(counter place, player place)`` for each counter seen, in
    counter order."""
    obs = np.array([o.at for o in players], dtype=float)
    obs_r = np.array([o.radius for o in players], dtype=float)
    pts = np.array([c.at for c in todo], dtype=float)
    seen = np.asarray(terrain.sight.visibility_matrix(obs, obs_r, pts, COUNTER_RADIUS),
                      dtype=bool)
    out: list[tuple[int, int]] = []
    for j in range(len(todo)):
        rows = np.flatnonzero(seen[:, j])
        if len(rows) == 0:
            continue
        best = min(rows, key=lambda i: (math.hypot(obs[i, 0] - pts[j, 0], obs[i, 1] - pts[j, 1]),
                                        players[i].id))
        out.append((j, int(best)))
    return tuple(out)


def spotted_by(terrain: Terrain, state: State, counter: Counter) -> Operative | None:
    """The player model that can see ``counter`` (the nearest one), or None."""
    return spotters(terrain, state, [counter]).get(counter.id)
