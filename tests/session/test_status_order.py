"""``status`` lists numbered things in the order they were counted: hatch-2 before hatch-10
(a plain text sort put hatch-10 and hatch-11 between hatch-1 and hatch-2)."""

from __future__ import annotations

import re
from pathlib import Path

from solo_ops.core.names import natural_key
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from solo_ops.session.words import status_lines
from solo_ops.view.player import player_view
from tests.support.players import small_scenario


def test_the_doors_and_hatches_line_counts_in_order(tmp_path: Path) -> None:
    game, state = new_game(load_scenario(small_scenario(tmp_path)), 5)  # gallowdark corridors
    line = next(s for s in status_lines(game, state, player_view(game, state))
                if "doors and hatches:" in s)
    ids = re.findall(r"(hatch-\d+) (?:open|closed)", line)
    assert ids == [f"hatch-{n}" for n in range(1, 13)]


def test_the_key_compares_trailing_numbers_as_numbers() -> None:
    names = ["hatch-10", "c2", "hatch-2", "c10", "door", "c1"]
    assert sorted(names, key=natural_key) == ["c1", "c2", "c10", "door", "hatch-2", "hatch-10"]
