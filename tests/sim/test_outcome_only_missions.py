"""A rating that counts only wins (a campaign's proposal, ``new --difficulty``) stops each
simulated mission once its outcome is certain (:func:`solo_ops.game.scoring.decided`): the same
outcome as the whole mission, fewer steps where the battle was decided before its end, the same
results whatever the number of workers. ``solo-ops rate`` plays whole missions (its VP, losses
and turns are read). The three missions are played once for the module in this process, whole
and outcome-only (the fixture ``played``), and compared with a pool's."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from solo_ops.io.scenario import load_scenario
from solo_ops.sim import difficulty, proposal, rating
from tests.support.paths import SCENARIOS

TRANSLOCUM = SCENARIOS / "translocum-secure-the-facility.yaml"
DECIDED_EARLY = (0, 2)  # seeds whose battle is decided before its last round (2018 Supremacy)


SEEDS = (0, 1, 2)
JOBS: list[rating.Job] = [(None, k, seed, "objective") for k, seed in enumerate(SEEDS)]


@pytest.fixture(scope="module")
def played() -> dict[str, list[rating.MissionResult]]:
    """Translocum's missions of :data:`SEEDS`, each played once for the module in this
    process: ``whole`` by :func:`~solo_ops.sim.rating.play_one`, ``alone`` with
    ``outcome_only`` by a one-worker :class:`~solo_ops.sim.rating.Runner` (which plays each
    with ``play_one``: mission ``k`` is seed ``k``)."""
    scenario = load_scenario(TRANSLOCUM)
    whole = [rating.play_one(scenario, seed, "objective", index=k)
             for k, seed in enumerate(SEEDS)]
    with rating.Runner(scenario, jobs=1, outcome_only=True) as one:
        alone = one.play(JOBS)
    return {"whole": whole, "alone": alone}


@pytest.mark.parametrize("seed", SEEDS)
def test_the_same_outcome_as_the_whole_mission(
        played: dict[str, list[rating.MissionResult]], seed: int) -> None:
    whole, quick = played["whole"][seed], played["alone"][seed]
    assert (quick.index, quick.seed) == (whole.index, whole.seed) == (seed, seed)
    assert quick.outcome == whole.outcome
    if seed in DECIDED_EARLY:
        assert quick.steps < whole.steps and quick.turns <= whole.turns
        # the VP of the moment it was decided: already out of the other side's reach
        if quick.outcome == "loss":
            assert quick.vp_enemy > quick.vp_player
    else:
        assert quick == whole  # never decided early: played to the end, every figure the same


def test_outcome_only_results_do_not_depend_on_the_workers(
        played: dict[str, list[rating.MissionResult]]) -> None:
    """Two workers give the one worker's results (``played``); told to play whole missions,
    the pool's workers play them whole, as this process did."""
    scenario = load_scenario(TRANSLOCUM)
    a = played["alone"]
    with rating.Runner(scenario, jobs=2, outcome_only=True) as two:
        b = two.play(JOBS)
    assert a == b
    # the work each mission counted (a proposal's budget) too: the same in any worker
    assert all(r.plans > 0 and r.steps > 0 for r in a)
    with rating.Runner(scenario, jobs=2) as whole:  # the pool's workers were told: they stopped
        c = whole.play(JOBS)
    assert [r.outcome for r in c] == [r.outcome for r in a]
    assert all(b[k].steps < c[k].steps for k in (0, 2)) and b[1] == c[1]
    assert c == played["whole"]


class _Spy:
    """A Runner that records how it was made and plays nothing."""

    made: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, scenario: Any, **kwargs: Any) -> None:
        _Spy.made.append(kwargs)

    def __enter__(self) -> _Spy:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def play(self, todo: Any, progress: Any = None, finished: Any = None) -> list[Any]:
        return [rating.MissionResult(k, job[2], 1, "win", 1, 0, 0, 1, 1)
                for k, job in enumerate(todo)]


def test_the_proposal_and_the_difficulty_count_outcomes_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rating, "Runner", _Spy)
    _Spy.made.clear()
    scenario = load_scenario(TRANSLOCUM)
    proposal.propose({"a": scenario}, ["a"], 0.5, seed=1, budget=16)
    difficulty.choose_level(scenario, "normal", missions=16, seed=1)
    assert [m.get("outcome_only") for m in _Spy.made] == [True, True]
