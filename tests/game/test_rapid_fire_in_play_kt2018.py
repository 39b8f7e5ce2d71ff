"""Kill Team 2018 Rapid Fire in a game, both sides (the setting ``rapid_fire``; the Core
Manual's "doubles the number of attacks it makes if its target is within half the weapon's
maximum range"): the players' rolled shot and the enemy's shot make two hit rolls with a
lasgun (Rapid Fire 1, 24") 9" away, one at 16", and one anywhere under ``as_written``."""

from __future__ import annotations

from solo_ops.game.engine import Game, step
from solo_ops.game.state import State
from tests.support.pariah_table import TROOPER, engine_until_players, events, rolls, shooting_phase


def _start(gap: float, rule: str) -> tuple[Game, State]:
    """a1 and e1 (both troopers: a lasgun, a laspistol, a knife) ``gap`` apart, base to base,
    on a clear line; e1's unit a Fire Team that stays and fires at will (command 1)."""
    return shooting_phase(TROOPER, gap, {"rapid_fire": rule})


def _hit_rolls(state: State, since: int, label: str) -> int:
    return sum(1 for r in rolls(state, since) if r["purpose"].startswith(label)
               and ": hit roll " in r["purpose"])


def test_the_players_rolled_lasgun_shot_doubles_within_half_range() -> None:
    for gap, rule, shots in ((9.0, "double", 2), (16.0, "double", 1), (9.0, "as_written", 1)):
        game, state = _start(gap, rule)
        since = len(state.log)
        step(game, state, {"type": "activate", "operative": "a1"})
        step(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun", "roll": True})
        assert _hit_rolls(state, since, "a1 shoots e1 (lasgun)") == shots, (gap, rule)


def test_the_enemys_lasgun_shot_doubles_within_half_range() -> None:
    for gap, rule, shots in ((9.0, "double", 2), (16.0, "double", 1), (9.0, "as_written", 1)):
        game, state = _start(gap, rule)
        state.next_side = "enemy"
        since = len(state.log)
        engine_until_players(game, state)
        [shot] = events(state, "attack", since)
        assert shot["note"] == "e1 shoots a1 with lasgun."
        assert _hit_rolls(state, since, "e1 shoots a1 (lasgun)") == shots, (gap, rule)
        doubled = [line for line in shot["lines"] if line.startswith("Rapid Fire")]
        assert doubled == (["Rapid Fire, the target within half range: 1 x 2 = 2 shots."]
                           if shots == 2 else [])
