"""A downed operative lies where it fell: its base stays on the table, a move onto it is
refused with the nearest free point, and the map draws it crossed with a legend line. Reading:
docs/rules.md, "Bases on the table: the one placement rule" (001 puts models on the killzone and
no rule lets two stand in one place).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game.engine import step


def test_a_downed_operative_keeps_its_base_blocks_moves_and_is_drawn(tmp_path: Path) -> None:
    from tests.support.small_table import active

    game, state = active()
    state.operatives["a2"].at = (6.0, 10.0)
    step(game, state, {"type": "down", "operative": "a2"})
    a2 = state.operatives["a2"]
    assert a2.down and a2.lying and a2.at == (6.0, 10.0)
    # a move onto him is refused with the reason and the nearest free point: 2r = 0.984"
    # from his centre, on the 0.05" grid through 6.2: 7.0 east (0.8" away; west, 5.0, is 1.2")
    with pytest.raises(RuleError, match=re.escape(
            "a1's base does not fit at 6.2,10: downed a2's base is there; the nearest point "
            "where it fits is 7,10")):
        step(game, state, {"type": "move", "how": "reposition", "to": [6.2, 10]})
    # the map draws him crossed and says so in the legend
    from solo_ops.cli.maps import view_scene
    from solo_ops.view import drawing

    svg = drawing.svg_text(view_scene(game, state))
    assert 'class="base player down"' in svg and "a2 (down)" in svg
    assert "downed: its base stays" in svg
