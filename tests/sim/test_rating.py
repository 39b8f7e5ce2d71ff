"""The rating core (solo_ops.sim.rating): intervals, seeds, summaries, and the same numbers
whatever the number of workers."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from solo_ops.io.scenario import load_scenario
from solo_ops.sim import rating
from solo_ops.sim.rating import MissionResult
from tests.support.players import small_scenario


def test_wilson_interval_by_hand() -> None:
    # 5 of 10, z = 1.96: centre 0.5, half = 1.96*sqrt(.025 + .0096040)/1.38416 = 0.26340...
    lo, hi = rating.wilson(5, 10)
    z = rating.Z95
    half = z * math.sqrt(0.25 / 10 + z * z / 400) / (1 + z * z / 10)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half), abs=1e-12)
    assert (lo, hi) == pytest.approx((0.2366, 0.7634), abs=5e-5)
    # 0 of 4: the lower end is 0 and the upper z²/(n+z²)
    lo, hi = rating.wilson(0, 4)
    assert lo == pytest.approx(0.0, abs=1e-12)
    assert hi == pytest.approx(z * z / (4 + z * z), abs=1e-12)
    assert rating.wilson(0, 0) == (0.0, 1.0)


def test_mission_seeds_are_fixed_and_distinct() -> None:
    seeds = [rating.mission_seed(1, i) for i in range(1000)]
    assert len(set(seeds)) == 1000
    assert seeds[:3] == [rating.mission_seed(1, 0), rating.mission_seed(1, 1),
                         rating.mission_seed(1, 2)]
    assert rating.mission_seed(2, 0) != seeds[0]
    assert all(0 <= s < 2**31 for s in seeds)


def test_summary_of_known_results() -> None:
    rows = [MissionResult(0, 1, 2, "win", 4, 1, 0, 4, 50),
            MissionResult(1, 2, 2, "loss", 1, 5, 3, 4, 60),
            MissionResult(2, 3, 2, "draw", 2, 2, 1, 3, 40),
            MissionResult(3, 4, 2, "win", 6, 0, 0, 4, 70)]
    doc = rating.summarise(rows, seconds=30.0)
    assert doc["missions"] == 4 and (doc["wins"], doc["draws"], doc["losses"]) == (2, 1, 1)
    assert doc["win_rate"] == 0.5
    assert doc["mean_vp"] == {"player": 3.25, "enemy": 2.0}
    assert doc["mean_player_losses"] == 1.0
    assert doc["mean_turns"] == 3.75
    assert doc["missions_per_minute"] == 8.0
    assert doc["win_rate_ci95"] == [round(v, 4) for v in rating.wilson(2, 4)]


def test_same_seed_same_numbers_whatever_the_jobs(tmp_path: Path) -> None:
    scenario = load_scenario(small_scenario(tmp_path, turns=1, engagement=2))
    # two missions a level: the two workers each get work, in either order
    one = rating.run(scenario, 2, 7, policy="aggressive", engagements=[1, 3], jobs=1)
    two = rating.run(scenario, 2, 7, policy="aggressive", engagements=[1, 3], jobs=2)
    assert one == two
    assert [r.engagement for r in one] == [1] * 2 + [3] * 2
    assert [r.index for r in one] == [0, 1] * 2
    assert one[0].seed != one[1].seed
    # common random numbers: the same mission seeds at every level
    assert [r.seed for r in one[:2]] == [r.seed for r in one[2:]]
    # a mission of the run is the game played alone with its seed
    alone = rating.play_one(rating.with_engagement(scenario, 3), one[3].seed, "aggressive",
                            index=1)
    assert alone == one[3]


def test_pool_worker_freezes_its_objects_once_after_the_first_mission(tmp_path: Path) -> None:
    """A pool worker collects its garbage less often, takes its long-lived objects out of the
    collector's scans after its first mission, once, and plays the same missions as an
    unfrozen run with the default thresholds."""
    import gc

    scenario = load_scenario(small_scenario(tmp_path, turns=1, engagement=2))
    jobs = rating.jobs_for(scenario, 2, 7, "aggressive", None)
    before = gc.get_freeze_count()
    thresholds = gc.get_threshold()
    try:
        rating.init_pool_worker(scenario)
        assert gc.get_threshold() == rating.POOL_GC_THRESHOLD
        first = rating.worker_job(jobs[0])
        frozen = gc.get_freeze_count()
        second = rating.worker_job(jobs[1])
        # once only: the second mission froze nothing more (frozen objects may still be freed)
        assert frozen > before and gc.get_freeze_count() <= frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        rating.init_worker(scenario)
    assert [first, second] == rating.run(scenario, 2, 7, policy="aggressive", jobs=1)


def test_with_engagement_changes_the_document_too(tmp_path: Path) -> None:
    scenario = load_scenario(small_scenario(tmp_path, engagement=2))
    five = rating.with_engagement(scenario, 5)
    assert five.engagement == 5 and five.document["engagement"] == 5
    assert scenario.engagement == 2 and scenario.document["engagement"] == 2
    assert rating.with_engagement(scenario, None) is scenario


def test_dask_local_cluster_gives_the_same_numbers(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    scenario = load_scenario(small_scenario(tmp_path, turns=1, engagement=2))
    local = rating.run(scenario, 2, 9, policy="objective", engagements=[2], jobs=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = rating.run(scenario, 2, 9, policy="objective", engagements=[2],
                            executor=client)
    assert remote == local
