"""Issue #11 "Done when": no enemy in a shipped scenario played to the end with the scripted player
ever attacks a model it cannot see or that is not on the table, checked from the log
(:mod:`tests.support.log_audit`). Seeds 1-4 here; ``bench/audit_games.py`` runs seeds 1-20 (4.3
to 9 minutes on the project's shared 2-core machine, too long for the unit suite).

Issue #27 "A table audit that fails loudly": after every step no two bases overlap, no base
stands in terrain or off the board, every enemy move costs what its route costs and every
``behind`` answer ends out of sight or in cover. Here seed 1 of every shipped scenario with
one policy per edition; ``bench/audit_games.py --only table`` runs seeds 1-20 x 3 policies x
both editions (docs/performance.md).

The checkers themselves are tested first on hand-made states and logs, so a clean audit means
something.

Both audits are ``slow`` tests on the budget (tests/conftest.py, tests/support/budget.py): the
README's test command plays every shipped scenario once, for one of the two audits (chosen by
what each audit reads: :data:`ATTACKS_BY_DEFAULT`), the attacks with seed 1 or 2 and the table with
one of the two policies (alternating down the list), so that each audit plays both editions,
the attacks both seeds and the table both policies; ``SOLO_OPS_TEST_BUDGET=full`` (CI's slow
pass) plays every scenario for both audits, seeds 1-4 and both policies of each, as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.budget import FULL
from tests.support.log_audit import (
    Audit,
    TableAudit,
    _check_record,
    audit_game,
    check_move_costs,
    check_table,
    shipped_scenarios,
    table_audit,
)
from tests.support.reach_games import END, THIN, game_with


def check(features: tuple[dict[str, Any], ...], events: list[dict[str, Any]],
          player_at: tuple[float, float] = (14.4, 10), enemy_at: tuple[float, float] = (15.6, 10)
          ) -> list[str]:
    game, state = game_with(features, player_at, enemy_at)
    pos = {o.id: o.at for o in state.operatives.values() if o.on_table}
    audit = Audit("t", 1)
    _check_record(game, state, {"n": 7, "events": events}, pos, dict(state.doors), audit)
    return audit.problems


def test_the_checker_finds_a_shot_and_a_fight_through_a_wall() -> None:
    shot = {"type": "attack", "attacker": "e1", "target": "p1"}
    fight = {"type": "fight", "attacker": "e1", "target": "p1", "note": "e1 fights p1."}
    assert check((THIN,), [shot]) == [
        "t seed 1 step 7: e1 at (15.6, 10.0) shoots p1 at (14.4, 10.0) out of sight"]
    assert check((THIN,), [fight]) == [
        "t seed 1 step 7: e1 at (15.6, 10.0) fights p1 at (14.4, 10.0) out of its control range"]
    assert check((), [shot, fight]) == []  # on open ground both are fine


def test_the_checker_follows_moves_and_downs_from_the_log() -> None:
    # e1 first moves round the wall's end into sight, then shoots: fine; then p1 goes down and
    # a later fight on it is caught
    move = {"type": "moved", "operative": "e1", "to": [15.6, 9.4]}
    shot = {"type": "attack", "attacker": "e1", "target": "p1"}
    down = {"type": "down", "operative": "p1"}
    fight = {"type": "fight", "attacker": "e1", "target": "p1", "note": ""}
    assert check((END,), [shot], (14.4, 11), (15.6, 11)) != []
    assert check((END,), [move, shot], (14.4, 9.4), (15.6, 11)) == []
    assert check((END,), [move, shot, down, fight], (14.4, 9.4), (15.6, 11)) == [
        "t seed 1 step 7: e1 fights p1, who is not on the table"]


def test_the_checker_finds_a_charge_ending_across_a_wall() -> None:
    charge = {"type": "charged", "operative": "e1", "target": "p1", "to": [15.6, 10.5]}
    assert check((END,), [charge], (14.4, 11.8), (16.1, 7.5)) == [
        "t seed 1 step 7: e1 charges p1 to [15.6, 10.5], out of its control range"]


SEEDS = (1, 2, 3, 4)
"""The seeds of each shipped scenario the attack audit plays with the full budget; by default
one of the first two, alternating down the list (see the module docstring)."""


ATTACKS_BY_DEFAULT = frozenset({
    "crypt-auto-reactive-foundations", "gallowdark-night-raid", "translocum-secure-the-facility",
    "volkus-stronghold-supplement-example"})
"""The shipped scenarios the README's command plays for the attack audit; every other one
(a new one too) it plays for the table audit. Chosen by what each audit reads: the attacks
both editions (the Crypt's Kill Team 2018) and the stronghold's ruins and strongpoint; the
table both editions and Bheta-Decima's hazardous ground, the one board where the walker and
the placement treat a floor trait as solid."""


def _audited_by_default(k: int, audit: int) -> bool:
    """Whether the README's command plays shipped scenario ``k`` (in name order) for audit
    ``audit`` (0: the attacks, 1: the table): each scenario for one of the two
    (:data:`ATTACKS_BY_DEFAULT`), so that every scenario is played once and each audit still
    plays both editions (the attacks both seeds, the table both policies, alternating down the
    list); with the full budget both audits play them all."""
    attacks = shipped_scenarios()[k].stem in ATTACKS_BY_DEFAULT
    return FULL or attacks == (audit == 0)


@pytest.mark.parametrize(("path", "seed"), [
    (p, seed) for k, p in enumerate(shipped_scenarios()) if _audited_by_default(k, 0)
    for seed in (SEEDS if FULL else SEEDS[k % 2:k % 2 + 1])],
    ids=lambda v: v.stem if isinstance(v, Path) else str(v))
def test_no_enemy_attacks_what_it_cannot_see_or_what_is_gone(path: Path, seed: int) -> None:
    """Each shipped scenario played to the end by the scripted player, every enemy attack
    checked from the log. By default one game of half the scenarios (seed 1 or 2, alternating
    down the list: both editions, both seeds; the table audit plays the other half), the four
    seeds of every scenario with the full budget (CI's slow pass): the checks are the same at
    every step of every game, and the attacks a game makes are what differ from seed to seed."""
    audit = audit_game(path, seed)
    assert audit.steps > 10  # the game was played
    assert audit.problems == []


# -- the table audit (issue #27) -------------------------------------------------------------
def test_the_table_checker_finds_an_overlap_a_base_in_a_wall_and_a_counter_on_a_model() -> None:
    from solo_ops.game.state import Counter

    game, state = game_with((THIN,), (14.4, 10), (17.0, 10))
    audit = TableAudit("t", 1, "objective", "kt2024")
    check_table(game, state, audit, 3)
    assert audit.problems == [] and audit.bases == 2
    state.operatives["p1"].at = (15.0, 10.0)  # on the wall
    state.counters["c9"] = Counter("c9", (17.5, 10.0), 2, 1)  # 0.5" from e1's centre
    check_table(game, state, audit, 4)
    assert audit.in_terrain == ["t/1/objective/kt2024 step 4: p1 at (15.00, 10.00) is in "
                                "terrain"]
    # e1 (r 0.5) and c9 (r 0.63) 0.5" apart: 0.63" deep
    assert len(audit.overlaps) == 1 and audit.overlaps[0].startswith(
        "t/1/objective/kt2024 step 4: e1 at (17.00, 10.00) and c9 at (17.50, 10.00) overlap by "
        "0.63")


def test_the_table_checker_finds_a_move_whose_cost_is_not_its_routes() -> None:
    game, state = game_with((), (14.4, 10), (17.0, 10))
    audit = TableAudit("t", 1, "objective", "kt2024")
    good = {"type": "moved", "operative": "e1", "from": [17.0, 10.0], "to": [20.0, 14.0],
            "route": [[17.0, 10.0], [20.0, 14.0]], "cost": 5.0}
    check_move_costs(game, state, {"n": 5, "events": [good]}, audit, dict(state.doors))
    assert audit.problems == [] and audit.moves == 1  # 3-4-5
    bad = dict(good, cost=4.0)
    check_move_costs(game, state, {"n": 6, "events": [bad]}, audit, dict(state.doors))
    assert audit.costs == ['t/1/objective/kt2024 step 6: e1 reports 4.00" for a route that '
                           'costs 5.00"']


POLICIES = (("objective", None), ("aggressive", "other"))
"""The table audit's policies, each with the edition it plays (``other``: the scenario's
other edition)."""


@pytest.mark.parametrize(("path", "policy", "edition"), [
    (p, policy, edition) for k, p in enumerate(shipped_scenarios()) if _audited_by_default(k, 1)
    for policy, edition in (POLICIES if FULL else POLICIES[k % 2:k % 2 + 1])],
    ids=lambda v: v.stem if isinstance(v, Path) else str(v))
def test_no_base_on_another_in_terrain_or_off_the_board_and_every_cost_its_routes(
        path: Path, policy: str, edition: str | None) -> None:
    from solo_ops.io.scenario import load_scenario

    if edition == "other":
        edition = "kt2018" if load_scenario(path).edition == "kt2024" else "kt2024"
    audit = table_audit(path, 1, policy, edition)
    assert audit.steps > 10 and audit.moves > 0  # the game was played
    assert audit.problems == []
