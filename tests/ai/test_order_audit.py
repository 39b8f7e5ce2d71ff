"""The order-coverage audit (issue #29): a sample of its cells plays with no cell flagged
(``bench/audit_orders.py`` runs all 108), and each of its checks flags the plan it exists to
catch, so a clean report means something.

003: "Fire at Will: ... Firing will take priority over movement and charging." "Unhindered
Move/charge: ... Moving and/or charging will take priority over firing." "Remain Stationary:
Unit will not move unless forced to". "To Cover: Unit will move to the nearest cover".
"""

from __future__ import annotations

from typing import Any

import pytest

from solo_ops.ai.context import Action
from tests.support.order_audit import Cell, _facts, cells, check, play, setup


@pytest.mark.parametrize("cell", cells(sample=True), ids=lambda c: c.label)
def test_a_sample_of_cells_follows_its_order(cell: Cell) -> None:
    done = play(cell)
    assert done.problems == [], (done.label, done.actions)
    assert done.actions or cell.command == 1  # every sampled row but a stationary one acts


def test_the_whole_report_has_108_cells() -> None:
    assert len(cells()) == 2 * 3 * 6 * 3
    assert len(cells(sample=True)) == 2 * 3 * 3


def _check(edition: str, troop: str, command: int, band: float,
           actions: list[Action]) -> list[str]:
    cell = Cell(edition, troop, command, band)
    game, state = setup(cell)
    return check(game, state, cell, _facts(game, state), actions)


SHOT = Action("shoot", "e1", target="kell", weapon="gun")


def move(kind: str, to: tuple[float, float]) -> Action:
    return Action(kind, "e1", start=(5.0, 11.0), to=to, cost=abs(to[0] - 5.0))


@pytest.mark.parametrize(("args", "actions", "flag"), [
    # fire at will with a target in range: a move before the shot
    (("kt2024", "fire-teams", 1, 10.0), [move("reposition", (8, 11)), SHOT], "not first"),
    # 2018 fire at will: a charge in the movement phase instead of the shot
    (("kt2018", "fire-teams", 1, 4.7), [Action("charge", "e1", target="kell")], "charged"),
    # unhindered move/charge: the charge in reach not made
    (("kt2024", "melee", 3, 10.0), [move("reposition", (11, 11))], "no charge"),
    # a Reposition then a Charge: the sequence table
    (("kt2024", "melee", 3, 10.0), [move("reposition", (9, 11)),
                                    Action("charge", "e1", target="kell", to=(14.5, 11))],
     "charge-after-reposition"),
    # remain stationary, but it moved
    (("kt2024", "support", 1, 13.0), [move("reposition", (6, 11)), ], "remain stationary"),
    # to cover, ending in the open
    (("kt2024", "fire-teams", 2, 13.0), [move("reposition", (7, 8))], "out of cover"),
    # hold 12": further from 12" than it started
    (("kt2024", "fire-teams", 4, 13.0), [move("reposition", (3, 11)), SHOT], "hold 12"),
    # a charge beyond the order's 6"
    (("kt2024", "fire-teams", 2, 10.0), [Action("charge", "e1", target="kell", to=(14.5, 11))],
     "beyond its order"),
    # a valid shot left untaken
    (("kt2024", "fire-teams", 6, 13.0), [move("reposition", (9, 11))], "could still shoot"),
    # a Heavy (Dash only) shot after a Reposition
    (("kt2024", "support", 2, 13.0), [move("reposition", (7.5, 12.5)),
                                      Action("shoot", "e1", target="kell", weapon="stubber")],
     "Heavy shot after a reposition"),
])
def test_each_check_flags_what_it_exists_to_catch(args: tuple[Any, ...], actions: list[Action],
                                                  flag: str) -> None:
    problems = _check(*args, actions)
    assert any(flag in p for p in problems), problems
