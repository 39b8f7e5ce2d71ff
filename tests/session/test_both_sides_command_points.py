"""The enemy's command points are shown wherever the players' are: the turn header, the
terminal's ``status`` and the map's title. Kill Team 2018: 004 Command Nodes "Starting from
the second battle round, a player gains one Command Point if they control the Command Node
objective marker" -- here solo-ops holds it, so it has 1 CP and the players none. Nothing
secret: a side's CP lie open at a table (and its command is not among them)."""

from __future__ import annotations

from solo_ops.game.engine import pending, step
from solo_ops.session.words import status_lines
from solo_ops.view import narrate
from solo_ops.view.board_view import title
from solo_ops.view.player import player_view
from tests.support.pariah_table import start


def test_the_enemy_holding_the_command_node_shows_its_cp() -> None:
    # e1 stands on the Command Node (obj-1, at (5, 11)); a1 and a2 far from it; a Remain
    # Stationary order (command 1) keeps e1 there
    game, state = start({}, a1=(25, 3), a2=(25, 19), e1=(5, 11), command=1)
    headers: list[str] = []
    for _ in range(80):
        prompt = pending(game, state)
        if state.turn == 2 and prompt.kind == "activate":
            break
        if prompt.kind == "activate":
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
            record = step(game, state, {"type": "done"})
        else:
            record = step(game, state, {"type": "engine"})
        headers += [line for line in narrate.lines_for(record, edition="kt2018")
                    if line.startswith("Command points")]
    assert state.turn == 2 and state.cp == {"enemy": 1}
    assert headers == ["Command points: you 0, solo-ops 1."]
    view = player_view(game, state)
    head = status_lines(game, state, view)[0]
    assert head.startswith("Battle round 2 (movement phase); VP you 0 / solo-ops ")
    assert head.endswith("; CP you 0 / solo-ops 1")
    assert title(game, view).endswith(" · CP you 0 / solo-ops 1")
