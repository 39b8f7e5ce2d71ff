"""Who may act in each Kill Team 2018 phase (004), as the engine offers it
(:mod:`solo_ops.game.turns`):

* "A model cannot Fall Back if an enemy model finished a charge move within 1" of it in the same
  phase."
* "Models that charged in this battle round fight before all other models ... A player cannot
  choose to pass if they have a model that charged that can fight."
* "Ready, Fire!": "Readied models shoot before all other models."
* Fight-phase readiness is measured around walls: "Distances cannot be measured through these
  walls"; "Models cannot attack through walls".

Reading: docs/rules.md, "Kill Team 2018 (Pariah Nexus): phases and reactions".
"""

from __future__ import annotations

from solo_ops.game.engine import step
from tests.support.phases import to_phase
from tests.support.portal_board import refused, start


def test_no_fall_back_after_being_charged_that_phase() -> None:
    """004 "A model cannot Fall Back if an enemy model finished a charge move within 1" of it
    in the same phase." e1 stands 0.5" from a1; having charged, it pins a1."""
    game, state = start({"a1": (10, 11)}, edition="kt2018", enemy_at=(10 + 2 * 0.492 + 0.5, 11))
    state.operatives["e1"].charged = True
    step(game, state, {"type": "activate", "operative": "a1"})
    refused(game, state, {"type": "move", "how": "fall_back", "to": [6, 11]},
            "cannot fall back: e1 charged it this phase")
    state.operatives["e1"].charged = False  # not charged: it may fall back
    step(game, state, {"type": "move", "how": "fall_back", "to": [6, 11]})
    assert state.operatives["a1"].at == (6.0, 11.0)


def test_models_that_charged_fight_first() -> None:
    """004 "Models that charged in this battle round fight before all other models ... A
    player cannot choose to pass if they have a model that charged that can fight." a1 and a2
    are both within 1" of e1; a1 charged, so only a1 may be picked, and the enemy (which did
    not charge) waits; after a1 fights, a2 and the enemy may act."""
    from solo_ops.game import turns

    gap = 2 * 0.492 + 0.5
    game, state = start({"a1": (10 - gap, 11), "a2": (10, 11 + gap)}, edition="kt2018",
                        enemy_at=(10, 11))
    state.phase = "fight"
    state.operatives["a1"].charged = True
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a1"]
    assert turns.enemy_ready(game, state) == []
    state.operatives["a1"].activated = True  # a1 has fought
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a2"]
    assert [u.id for u in turns.enemy_ready(game, state)] == ["u1"]
    # an enemy charger fights first too: the players wait for it
    state.operatives["a1"].activated = False
    state.operatives["a1"].charged = False
    state.operatives["e1"].charged = True
    assert turns.player_ready(game, state, "Ana") == []
    assert [u.id for u in turns.enemy_ready(game, state)] == ["u1"]


def test_readied_models_shoot_first() -> None:
    """004 "Ready, Fire!": "Readied models shoot before all other models." a1 Readied in the
    movement phase: in the shooting phase only a1 may be picked and the enemy waits."""
    from solo_ops.game import turns

    game, state = start({"a1": (3, 11), "a2": (3, 14)}, edition="kt2018")
    step(game, state, {"type": "activate", "operative": "a1"})
    record = step(game, state, {"type": "ready"})  # instead of its move: its part ends
    assert state.active_operative is None
    assert [e["type"] for e in record["events"]][:2] == ["readied", "activation_end"]
    to_phase(game, state, "shooting")
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a1"]
    assert turns.enemy_ready(game, state) == []
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "done"})
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a2"]


def test_fight_phase_readiness_is_measured_around_walls() -> None:
    """004 "Distances cannot be measured through these walls" and "Models cannot attack
    through walls": a1 and e1 stand 0.22" apart straight across the wall at x = 15 (y 12-22),
    but the route round its end is far longer than 1": neither is engaged, so neither may
    fight. Through the open doorway (y 10-12) at the same gap they are."""
    from solo_ops.game import turns

    gap = 0.216
    game, state = start({"a1": (15 - 0.492 - gap / 2, 17)}, edition="kt2018",
                        enemy_at=(15 + 0.492 + gap / 2, 17))
    state.phase = "fight"
    assert not turns.engaged_2018(game, state, state.operatives["a1"])
    assert turns.player_ready(game, state, "Ana") == []
    assert turns.enemy_ready(game, state) == []
    game, state = start({"a1": (15 - 0.492 - gap / 2, 11)}, edition="kt2018",
                        portal_open=True, enemy_at=(15 + 0.492 + gap / 2, 11))
    state.phase = "fight"
    assert turns.engaged_2018(game, state, state.operatives["a1"])
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a1"]
