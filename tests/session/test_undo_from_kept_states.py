"""Undo at the table starts from the state kept just before the answer it takes back.

A save is the scenario, the seed and the actions, and an undo is those actions less the last
player answer: the game it gives must be the game a replay of them from set-up gives, byte for
byte (its records, its state with the secrets, its dice). The table keeps a copy of the state
before each player answer (``game.undo_points``), as does a save rebuilt for the table, so an
undo replays nothing, even back to a step paused for a CP re-roll (whose plans the game holds
outside its state: the kept point holds them too). These tests check the game against
an independent replay from set-up (``new_game`` and ``step``), and count the steps an undo
replays (the engine's own ``step``, as ``restore`` calls it) rather than timing it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from solo_ops.game import cp
from solo_ops.game.engine import new_game, step
from solo_ops.game.state import State
from solo_ops.game.undo_points import LIMIT, UndoPoints
from solo_ops.io import savegame
from solo_ops.io.opening import plan
from solo_ops.io.savegame import actions_of
from solo_ops.io.scenario import parse_scenario
from solo_ops.session.opening import open_table, start_table, sync_log
from solo_ops.session.table import GameTable
from tests.support.cp_games import document


def small_table(folder: Path) -> GameTable:
    """One trooper against one gunner on an open board, four turning points, both tough
    enough to last them, CP re-rolls asked (the game pauses mid-step for them): some thirty
    steps. Any answer may be undone (``undo: any``): these tests are about how an undo goes
    back, not which answers it may take back."""
    doc = document(settings={"turns": 4, "undo": "any"})
    for profile in (doc["squads"][0]["models"][0]["profile"],
                    doc["enemies"][0]["models"][0]["profile"], doc["roster"]["profiles"]["gunner"]):
        profile["wounds"] = 60
    scenario = parse_scenario(doc, str(folder / "cp.yaml"))
    table, _notes = start_table(scenario, 1, folder / "g.json", folder / "g.jsonl")
    table.advance()
    return table


def typed(table: GameTable, shoot: bool) -> str:
    """What a player types at the current prompt: engage, shoot the gunner once an activation
    (when ``shoot``), re-roll the first failed die, let a fight's dice go by the advice."""
    prompt = table.prompt()
    if prompt.kind == "activate":
        return f"activate {prompt.options[0]} engage"
    if prompt.kind == "act":
        me = table.state.operatives[str(prompt.operative)]
        return "shoot e1 roll" if shoot and not me.shot and table.state.operatives["e1"].alive \
            else "done"
    if prompt.kind == "reroll":
        return prompt.options[0] if prompt.options[0] == "keep" \
            else f"reroll {prompt.options[0].split()[-1]}"
    return "auto" if prompt.kind == "fight" else prompt.options[0]


def replayed(table: GameTable) -> State:
    """The table's actions replayed from set-up, independently of the table."""
    game, state = new_game(table.game.scenario, table.game.seed)
    for action in actions_of(table.state):
        step(game, state, action)
    return state


def whole(state: State) -> str:
    assert state.dice is not None
    return json.dumps([state.log, state.to_dict(secrets=True), state.dice.state()],
                      sort_keys=True)


@pytest.fixture
def steps_replayed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many steps ``restore`` has replayed (one entry per step)."""
    counted: list[int] = []
    real = savegame.step

    def counting(*args: Any, **kw: Any) -> Any:
        counted.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(savegame, "step", counting)
    return counted


def test_an_undo_anywhere_is_the_game_a_replay_gives_and_replays_nothing(
        tmp_path: Path, steps_replayed: list[int]) -> None:
    table = small_table(tmp_path)
    undone = paused = back_to_pause = 0
    answers = 0
    while table.prompt().kind != "ended":
        shoot = answers % 5 != 3  # now and then another answer than the undone one
        outcome = table.answer(table.prompt().player, typed(table, shoot))
        assert outcome.ok, outcome.message
        answers += 1
        paused += table.prompt().kind == "reroll"
        if answers % 3 == 0:  # one undo, or two in a row, then play on (another branch)
            for _ in range(1 + answers % 2):
                steps_replayed.clear()
                assert table.undo().ok
                undone += 1
                assert whole(table.state) == whole(replayed(table))
                assert steps_replayed == []  # back to a kept state, nothing replayed
                back_to_pause += table.prompt().kind == "reroll"
    assert undone >= 6 and paused >= 1 and back_to_pause >= 1


def test_a_resumed_game_undoes_from_the_states_its_load_kept(tmp_path: Path,
                                                             steps_replayed: list[int]) -> None:
    table = small_table(tmp_path)
    for _ in range(12):
        assert table.answer(table.prompt().player, typed(table, True)).ok
    resumed, doc = open_table(plan(None, table.save, None, None, False, command="play"))
    sync_log(resumed, doc)
    assert whole(resumed.state) == whole(table.state)
    for _ in range(3):
        steps_replayed.clear()
        assert resumed.undo().ok
        assert whole(resumed.state) == whole(replayed(resumed))
        assert steps_replayed == []


def test_kept_states_of_an_undone_branch_are_never_used(tmp_path: Path) -> None:
    """After an undo and another answer, a state kept on the branch the undo took back holds
    other steps: an undo must not go back to it (the actions are compared, not the count)."""
    table = small_table(tmp_path)
    for _ in range(6):
        assert table.answer(table.prompt().player, typed(table, True)).ok
    assert table.undo().ok and table.undo().ok
    for _ in range(4):
        assert table.answer(table.prompt().player, typed(table, False)).ok
    for _ in range(3):
        assert table.undo().ok
        assert whole(table.state) == whole(replayed(table))


def test_a_copied_state_shares_nothing_play_changes(tmp_path: Path) -> None:
    table = small_table(tmp_path)
    for _ in range(4):
        assert table.answer(table.prompt().player, typed(table, True)).ok
    state = table.state
    before = whole(state)
    copy = cp.copy_state(state)
    assert whole(copy) == before
    op = copy.operatives["a1"]
    op.at, op.wounds = (1.0, 1.0), 1
    op.actions_taken.append("x")
    copy.vp["player"] += 5
    copy.units["u1"].fsm = "x"
    copy.log.append({"n": 99})
    assert copy.dice is not None
    copy.dice.d6("a roll of the copy only")
    assert whole(state) == before
    assert copy.log[0] is state.log[0]  # records are shared: written once, never changed


def test_a_state_kept_at_a_paused_step_keeps_its_plans(tmp_path: Path) -> None:
    """The plans of a step paused for a CP re-roll live on the game, not in the state (its
    re-run uses them): a point kept there holds them, and an undo back to it gives them to
    the game again, as a replay leaves them."""
    table = small_table(tmp_path)
    held = 0
    while table.prompt().kind != "ended":
        if table.game.cp_plans is not None:
            points = UndoPoints()
            points.keep(table.game, table.state)
            point = points.nearest(actions_of(table.state), 1)
            assert point is not None and point.plans is table.game.cp_plans
            held += 1
            assert table.answer(table.prompt().player, typed(table, True)).ok
            assert table.undo().ok
            assert table.game.cp_plans is not None
            assert table.game.cp_plans[:2] == point.plans[:2]
        assert table.answer(table.prompt().player, typed(table, True)).ok
    assert held >= 2


def test_a_long_game_keeps_at_most_the_limit_and_thins_out_the_oldest(tmp_path: Path) -> None:
    table = small_table(tmp_path)
    state, points = table.state, UndoPoints()
    actions = [{"type": "done", "n": n} for n in range(LIMIT + 50)]
    for action in actions:  # a state one step longer each time (its steps' actions as given)
        points.keep(table.game, state)
        state = cp.copy_state(state)
        state.log.append({"n": len(state.log), "action": action})
    assert len(points.points) <= LIMIT
    kept = sorted(points.points)
    assert kept[-LIMIT // 2:] == list(range(kept[-1] - LIMIT // 2 + 1, kept[-1] + 1))  # recent
    since = len(table.state.log)
    for end in (kept[-1] + 5, kept[-1] - 7, since + 60, since + 3):  # back and back again
        point = points.nearest(actions[: end - since], since)
        assert point is not None and point.steps == max(k for k in kept if k <= end)
        assert max(points.points) == point.steps  # the points beyond it are forgotten
    assert points.nearest([{"type": "other"}], since) is not None  # the set-up's own point
    assert points.nearest([{"type": "other"}], since).steps == since
