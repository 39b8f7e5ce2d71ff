"""``cover.protected_all`` asks the threats' cover answers in growing batches (8, 16, ...),
each about the candidates still protected: a large game's many enemies rule most candidates
out with the first few, and the rest are never asked about them. Only the time may change:
a candidate is protected from every threat exactly when it is protected from each one asked
alone (:func:`solo_ops.ai.cover.protected`, one threat at a time, on a fresh terrain so that
no answer is shared)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from solo_ops.ai import cover
from solo_ops.game.engine import new_game
from solo_ops.io import library
from solo_ops.io.scenario import load_scenario


def _table(name: str):  # type: ignore[no-untyped-def]
    path = next(s.path for s in library.shipped("scenario") if s.name == name)
    game, state = new_game(load_scenario(path), 3)
    ctx = game.context(state)
    # twenty threats spread over the board: copies of a model on the table (only where a
    # threat stands and its base matter to cover), each standing where no wall is
    model = next(o for o in state.operatives.values() if o.on_table)
    board = game.scenario.board
    terrain = game.terrain(state)
    spots = [(x, y) for y in np.linspace(2.0, board.depth - 2.0, 6).tolist()
             for x in np.linspace(2.0, board.width - 2.0, 7).tolist()
             if terrain.routes.fits((x, y), model.radius)]
    threats = [replace(model, id=f"threat-{k}") for k in range(min(20, len(spots)))]
    pos = {t.id: spots[k] for k, t in enumerate(threats)}
    return game, state, ctx, threats, pos


@pytest.mark.parametrize("name", ["volkus-stronghold-supplement-example",
                                  "crypt-objective-ultima"])
def test_batches_give_each_threats_own_answer(name: str) -> None:
    game, _state, ctx, threats, pos = _table(name)
    # more threats than one batch, so the later batches are asked of the survivors only
    assert len(threats) > cover.PROTECTED_BATCH
    board = game.scenario.board
    xs = np.linspace(1.0, board.width - 1.0, 9)
    ys = np.linspace(1.0, board.depth - 1.0, 7)
    points = np.array([(x, y) for x in xs for y in ys])
    radius = 0.5
    got = cover.protected_all(ctx, points, radius, threats, pos)(np.arange(len(points)))

    _, _, fresh, _, _ = _table(name)
    alone = np.ones(len(points), dtype=bool)
    for t in threats:
        alone &= cover.protected(fresh, points, radius, [t], pos)[0]
    assert got.tolist() == alone.tolist()
    assert 0 < int(alone.sum()) < len(points)  # some candidates protected, some not
