"""Shared test set-up: paths to the shipped data, a click runner for the CLI, the hypothesis
profiles (derandomized under CI) and the ``slow`` marker on the oracle-heavy tests."""

from __future__ import annotations

import copy
import gc
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

from solo_ops.io import compiled

# Compiled bytecode is kept for the whole run, even where the machine says not to write it
# (PYTHONDONTWRITEBYTECODE=1, as on the CI machines): without it, every process the suite
# starts (each xdist worker, and every ``solo-ops`` command a test runs as a process of its own)
# compiles solo-ops's sources and the test modules again from the text -- about 0.8 s of CPU a
# command and 10 s a worker on the 2-core machine, some 3 minutes of CI's CPU in all. The
# bytecode goes to a folder of solo-ops's cache (``<cache_dir>/pycache``, Python's own
# ``pycache_prefix``), never into the source tree, and only for this run and the processes it
# starts (set here, before the workers start and before the test modules are imported). What
# a test checks does not change: the same sources run either way.
if sys.dont_write_bytecode:
    _PYCACHE = os.environ.get("PYTHONPYCACHEPREFIX") or str(compiled.cache_dir() / "pycache")
    sys.pycache_prefix = _PYCACHE
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = _PYCACHE
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from solo_ops.geometry import jit
from solo_ops.sim.rating import POOL_GC_THRESHOLD
from tests.support.budget import FULL
from tests.support.paths import ROOT

# The geometry's compiled loops (numba, where installed) are on in the tests' own process, as in
# the simulator's workers, so every oracle test of the geometry checks them (SOLO_OPS_JIT=0
# checks the numpy code instead): compiled on the spot where not yet compiled, as with
# SOLO_OPS_JIT=1, so that a command run in this process (click's runner) never starts a
# compile in the background. tests/test_jit*.py compare both paths directly. The commands run
# as subprocesses get SOLO_OPS_JIT=0 unless it is set: the numpy code, the same answers, with
# no numba to load or compile in every one of them (tests/geometry/test_jit_switch.py and
# tests/cli/test_compile.py set the switch themselves where they test it).
# numba keeps what it compiles where solo-ops's commands keep it (solo_ops.io.compiled), so the
# tests and the commands they start compile each kernel once between them.
compiled.configure()
if jit.MODE != "0":
    jit.MODE = "1"
jit.use_in_simulation()
os.environ.setdefault("SOLO_OPS_JIT", "0")

# The tests' processes collect garbage as the simulator's workers do (rating.POOL_GC_THRESHOLD):
# the tests make and drop millions of small objects, few in cycles, and collecting the youngest
# every 700 allocations cost a few percent of the suite's CPU. Only when collections run
# changes, never what a test checks (tests/sim/test_collections_in_process.py pins that a game
# plays the same either way).
gc.set_threshold(*POOL_GC_THRESHOLD)

# A process forked from a test's process (a rating's pool of workers, a campaign's forked
# players) does not scan the test process's objects: they are moved out of the collector's
# reach just before the fork (``gc.freeze``) and back just after it in the test's process
# (``gc.unfreeze``), as Python's documentation advises for a fork without exec. An xdist
# worker holds the objects of hundreds of tests by the time it forks, and each forked worker's
# first full collection (a pool worker's ``gc.collect`` before its ``gc.freeze``) walked them
# all and copied every page it touched: 2-3 times the forked workers' CPU of the same test run
# alone (19.5 s against 6.6 s for tests/sim/test_outcome_only_missions.py's pools, 2026-12-01).
# What the forked process plays and says is the same (tests/sim/test_collections_in_process.py
# pins that collections never change a game); only what its collections walk changes.
_FROZEN_FOR_FORK: list[bool] = []


def _freeze_before_fork() -> None:
    """Before a fork: freeze this process's objects unless something froze them already."""
    mine = gc.get_freeze_count() == 0
    if mine:
        gc.freeze()
    _FROZEN_FOR_FORK.append(mine)


def _unfreeze_after_fork() -> None:
    """After the fork, in this process: undo :func:`_freeze_before_fork`."""
    if _FROZEN_FOR_FORK.pop():
        gc.unfreeze()


os.register_at_fork(before=_freeze_before_fork, after_in_parent=_unfreeze_after_fork,
                    after_in_child=_FROZEN_FOR_FORK.clear)

# Hypothesis: under CI (CI=true, as .ci/run is run) every property test draws the same examples
# on every run (derandomize) and no example fails for being slow on a busy machine (no
# deadline), so a property test cannot flake there; on a developer's machine the default profile
# keeps exploring new examples. HYPOTHESIS_PROFILE=ci (or dev) picks one by hand. This runs
# before the test modules are imported, so their own @settings(...) inherit the profile's values
# for whatever they do not set themselves.
# Neither profile fails a test because drawing its examples was slow: on a machine busy with
# other work that says nothing about the code (the examples and the checks are the same).
_NOT_FOR_BUSY_MACHINES = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("ci", derandomize=True, deadline=None, database=None,
                          print_blob=True, suppress_health_check=_NOT_FOR_BUSY_MACHINES)
settings.register_profile("dev", suppress_health_check=_NOT_FOR_BUSY_MACHINES)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE")
                      or ("ci" if os.environ.get("CI", "").lower() == "true" else "dev"))

# The oracle-heavy property tests (each checks the fast code against a slow, obviously correct
# oracle, a brute force or many seeds) and the fuzzers, marked ``slow`` here rather than in
# their files so that the list is one place. The README's test command runs them with a quarter
# of their examples (tests/support/budget.py); CI runs them again with the full budget
# (``SOLO_OPS_TEST_BUDGET=full python -m pytest -n auto -m slow``, in .ci/run);
# ``python -m pytest -m "not slow"`` leaves them out while developing.
# (tests/project/test_architecture.py checks that every name here is a test in that file.)
SLOW: dict[str, frozenset[str]] = {
    "tests/geometry/test_routes.py": frozenset({
        "test_reachable_with_bases_equals_oracle",
        "test_reachable_start_first_costs_within_move",
        "test_walk_with_bases_equals_oracle",
        "test_walk_equals_oracle",
        "test_distance_equals_oracle",
    }),
    "tests/geometry/test_sight.py": frozenset({"test_matrices_equal_the_oracle"}),
    "tests/geometry/test_jit_switch.py": frozenset({
        "test_a_whole_game_is_the_same_with_and_without_the_kernels"}),
    "tests/ai/test_planner_remembered_answers.py": frozenset({
        "test_missions_are_the_same_without_this_rounds_fast_paths",
        "test_remembered_reach_is_the_fresh_answer",
        "test_carry_discs_choose_as_all_end_points",
        "test_prefetched_cover_answers_are_each_threats_own",
    }),
    "tests/geometry/test_obscured_kt2018.py": frozenset({
        "test_obscured_equals_the_sampling_oracle",
        "test_the_batch_is_the_pairs_one_by_one_on_every_shipped_board"}),
    "tests/geometry/test_search.py": frozenset({
        "test_nearest_cover_is_the_cheapest_protected_point",
    }),
    "tests/game/test_fog_fast_paths.py": frozenset({
        "test_games_snapshot_restore_and_spotting_equal_the_old_code",
        "test_cluster_pick_equals_the_old_scan",
        "test_deploy_equals_the_old_scan",
        "test_spotters_equal_the_old_code_on_random_layouts",
    }),
    "tests/game/test_fog.py": frozenset({
        "test_sectors_are_uniform_and_counters_are_hidden_over_many_seeds",
    }),
    "tests/game/test_outcome_decided.py": frozenset({
        "test_a_decided_outcome_is_the_one_the_battle_ends_with"}),
    "tests/cli/test_hostile_files.py": frozenset({
        "test_a_command_in_a_process_of_its_own_refuses_a_hostile_file",
    }),
    "tests/io/test_persistence.py": frozenset({
        "test_sigkill_at_random_moments_never_damages_the_save"}),
    "tests/io/test_forgery.py": frozenset({
        "test_three_hundred_forged_checkpoints_are_input_errors",
        "test_two_hundred_forged_logs_never_replay_as_identical",
    }),
    "tests/io/test_fuzz_files.py": frozenset({
        "test_fuzz_boards", "test_fuzz_rosters", "test_fuzz_squads", "test_fuzz_scenarios",
        "test_fuzz_saves", "test_fuzz_campaign_saves", "test_fuzz_logs",
    }),
    "tests/e2e/test_log_audit.py": frozenset({
        "test_no_enemy_attacks_what_it_cannot_see_or_what_is_gone",
        "test_no_base_on_another_in_terrain_or_off_the_board_and_every_cost_its_routes",
    }),
    # The per-board oracle tests of the geometry: the shipped boards of
    # tests/support/shipped_terrains.py's SAMPLED (every trait the shipped boards use, the boards
    # with doors in both door states) and one or two random boards by default, every board with
    # the full budget (the shipped terrains' CHECKED, the board lists' CHECKED_LIST / CHECKED_K).
    "tests/geometry/test_jit_distance.py": frozenset({
        "test_compiled_distances_equal_numpy_distances",
        "test_segments_through_vertices_take_the_numpy_path_and_agree",
        "test_seen_kernel_equals_numpy_seen",
        "test_best_pair_is_numpys_argmin",
        "test_hypothesis_points_agree",
    }),
    "tests/geometry/test_jit_movement.py": frozenset({
        "test_blocked_equals_numpy_on_every_board",
        "test_tangents_and_sight_lines_equal_numpy",
        "test_floyd_on_shipped_boards",
        "test_best_links_equal_numpy",
        "test_crossings_equal_numpy",
        "test_corner_touches_equal_numpy",
        "test_walking_graph_with_bases_equals_numpy",
        "test_disc_corners_equal_numpy",
        "test_dijkstra_settles_nodes_as_heapq_does",
        "test_hypothesis_segments_on_a_board",
        "test_floyd_equals_numpy",
        "test_enters_equals_wedge_enters",
    }),
    "tests/geometry/test_jit_sight.py": frozenset({
        "test_cover_answers_equal_numpy",
        "test_segments_against_pieces_equal_python",
        "test_cut_off_equals_python",
        "test_segment_masks_equal_numpy",
        "test_cut_off_arrays_equal_numpy",
        "test_triangles_meet_heavy_features_as_shapely_says",
        "test_obscuring_witnesses_are_shapely_answers",
        "test_hypothesis_segment_masks_equal_numpy",
        "test_hypothesis_triangles_equal_numpy",
        "test_hypothesis_grid_triangles_meet_as_shapely_says",
        "test_clip_one_equals_python",
        "test_hypothesis_cover_triangles_equal_numpy",
    }),
    "tests/geometry/test_jit_sight_visible_pairs.py": frozenset({
        "test_compiled_visible_pairs_equal_numpy",
        "test_heavy_candidates_with_outlines_equal_the_stages",
        "test_hypothesis_compiled_visible_pairs_equal_numpy",
    }),
    "tests/geometry/test_routes_distance_memo.py": frozenset({
        "test_distance_equals_the_old_distance",
        "test_inside_walls_and_off_the_board_are_still_none",
        "test_distance_matrix_equals_the_old_matrix",
        "test_hypothesis_points_equal_the_old_distance",
    }),
    "tests/geometry/test_routes_fast_paths.py": frozenset({
        "test_pair_query_equals_the_dense_query",
        "test_reachable_equals_testing_every_link",
        "test_remembered_links_give_the_same_distance_matrix",
    }),
    "tests/geometry/test_routes_single_distance.py": frozenset({
        "test_distance_equals_the_frozen_distance",
        "test_every_corner_against_every_corner",
        "test_hypothesis_points_equal_the_frozen_distance",
    }),
    "tests/geometry/test_routes_walk_graph_passes.py": frozenset({
        "test_pairs_new_is_its_index_and_the_costs",
        "test_start_costs_are_the_links_and_straight_walks",
    }),
    "tests/geometry/test_routes_walker_tables.py": frozenset({
        "test_disc_corners_are_the_old_rows",
        "test_blocked_with_remembered_runs_as_before",
        "test_grown_bases_as_before",
        "test_with_discs_with_one_clear_of_builds_the_same_graph",
        "test_hides_and_passing_as_before",
        "test_links_of_one_point_as_before",
        "test_reachable_and_walk_among_crowds_as_before",
        "test_grid_points_as_before",
    }),
    "tests/geometry/test_routes_wall_tests.py": frozenset({
        "test_blocked_equals_the_dense_reference",
        "test_base_polygons_block_as_before",
        "test_with_discs_builds_the_same_graph",
        "test_with_discs_builds_the_same_graph_among_crowded_bases",
        "test_blocked_on_random_polygons",
        "test_own_ring_kernels_on_random_star_polygons",
    }),
    "tests/geometry/test_sight_fast_paths.py": frozenset({
        "test_cover_region_prefilter_changes_no_answer",
        "test_remembered_zone_touches_are_shapely_answers",
        "test_remembered_cover_pairs_are_a_fresh_sights_answers",
        "test_visibility_does_not_depend_on_what_was_asked_before",
        "test_cover_does_not_depend_on_what_was_asked_before",
        "test_buffered_circles_give_the_same_answers",
    }),
    "tests/geometry/test_sight_memos.py": frozenset({
        "test_small_batches_clip_like_the_prefiltered_path",
        "test_dense_cut_off_equals_the_sparse_one",
        "test_points_cut_off_equals_cut_off_of_each_point",
        "test_visibility_and_cover_equal_the_oracle_on_every_board",
        "test_off_features_equals_the_plain_computation",
        "test_hidden_points_equal_the_plain_computation",
        "test_ambush_band_equals_the_plain_computation",
        "test_floor_points_are_the_free_points_off_the_features",
        "test_enemy_scores_measure_every_point_that_matters",
        "test_cluster_equals_the_plain_computation",
    }),
    "tests/geometry/test_sight_scalar_pairs.py": frozenset({
        "test_clip_one_equals_the_numpy_clip_for_every_piece",
        "test_scalar_segment_and_clear_one_equal_the_numpy_path",
        "test_scalar_cut_off_equals_the_dense_one",
        "test_few_pairs_equal_the_numpy_computation",
        "test_few_pairs_equal_the_oracle",
        "test_clip_one_equals_the_numpy_clip_on_any_sides",
    }),
    "tests/e2e/test_campaign_targets.py": frozenset({
        "test_observed_win_rates_follow_the_targets",
        "test_the_proposals_aim_at_each_target",
    }),
    "tests/rules/test_odds.py": frozenset({
        "test_brute_force_four_attacks_3up_3_4_against_three_dice_3up",
        "test_rolled_attacks_converge_on_the_exact_distribution",
    }),
    "tests/rules/test_odds_integer_counting.py": frozenset({
        "test_generated_shots_equal_the_fraction_arithmetic",
        "test_generated_dice_equal_the_fraction_arithmetic",
        "test_generated_fights_equal_the_fraction_arithmetic",
    }),
    # Property tests of fast code against an oracle, scaled with examples(): a quarter of their
    # examples by default, every one with the full budget.
    "tests/geometry/test_routes_near.py": frozenset({
        "test_near_equals_full_call_filtered",
    }),
    "tests/geometry/test_sight_pair_memo.py": frozenset({
        "test_visible_is_the_matrix_answer_first_and_again",
    }),
    "tests/geometry/test_placement_prefilters.py": frozenset({
        "test_nearest_matches_whole_windows",
        "test_first_contact_matches_every_step",
        "test_prefilter_only_passes_walks_clear_by_far",
        "test_first_contact_matches_on_found_walks",
    }),
    "tests/ai/test_planner_fast_paths.py": frozenset({
        "test_lazy_scores_choose_as_the_exact_scores",
        "test_pick_where_equals_pick_of_the_whole_mask",
    }),
    "tests/rules/test_fight_solver_unchanged.py": frozenset({
        "test_generated_fights_equal_the_oracle_played_by_the_old_solver",
        "test_every_state_has_the_old_solvers_value_move_and_totals",
    }),
    "tests/geometry/test_placement.py": frozenset({
        "test_random_bases_placed_by_the_rule_never_overlap_and_the_nearest_point_is_nearest",
    }),
    "tests/view/test_labels.py": frozenset({
        "test_placed_labels_never_meet_and_cover_no_other_mark",
    }),
    "tests/io/test_import_properties.py": frozenset({
        "test_battlescribe_2024_values_come_back_exactly",
        "test_ktdash_values_come_back_exactly",
    }),
    "tests/game/test_fight_choices.py": frozenset({
        "test_every_option_leads_where_it_says_and_the_advice_is_the_policy",
    }),
    # Browser checks whose default run is one representative moment of several.
    "tests/web/test_phone_rulers_in_view.py": frozenset({
        "test_no_ruler_number_is_cut_at_the_board_edge",
    }),
}


# Slow tests whose work is the same at every budget (fixed seeds and cases, no examples drawn
# from tests/support/budget.py): the README's command has run them exactly as the full budget
# would, so CI's full-budget slow pass leaves them out (``-m "slow and not
# same_at_every_budget"``, in .ci/run) rather than run them twice.
SAME_AT_EVERY_BUDGET: dict[str, frozenset[str]] = {
    "tests/geometry/test_search.py": frozenset({
        "test_nearest_cover_is_the_cheapest_protected_point"}),
    "tests/game/test_fog.py": frozenset({
        "test_sectors_are_uniform_and_counters_are_hidden_over_many_seeds"}),
    "tests/rules/test_odds.py": frozenset({
        "test_brute_force_four_attacks_3up_3_4_against_three_dice_3up",
        "test_rolled_attacks_converge_on_the_exact_distribution"}),
}


# The statistical tests whose claim needs their whole sample (a quarter of it would prove
# nothing) and whose cost does not shrink with the budget: they run once, in CI's full-budget
# slow pass, rather than twice (the README's command skips them and says where they run).
FULL_ONLY: dict[str, frozenset[str]] = {
    "tests/sim/test_levels.py": frozenset({"test_level_1_is_easier_than_level_6"}),
}
_FULL_ONLY_REASON = ("a statistical test that needs its whole sample: it runs with the full "
                     "budget (SOLO_OPS_TEST_BUDGET=full python -m pytest -m slow, as CI does)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests named in :data:`SLOW` and :data:`FULL_ONLY` as ``slow`` (and those of
    :data:`SAME_AT_EVERY_BUDGET` as ``same_at_every_budget``); skip the :data:`FULL_ONLY` ones
    unless the budget is full. (Each test file's path is resolved once, not once per test.)"""
    paths: dict[Path, str | None] = {}
    for item in items:
        if item.path not in paths:
            try:
                paths[item.path] = item.path.resolve().relative_to(ROOT).as_posix()
            except ValueError:
                paths[item.path] = None
        path = paths[item.path]
        if path is None:
            continue
        name = getattr(item, "originalname", item.name)
        if name in SLOW.get(path, ()) or name in FULL_ONLY.get(path, ()):
            item.add_marker(pytest.mark.slow)
        if name in SAME_AT_EVERY_BUDGET.get(path, ()):
            item.add_marker(pytest.mark.same_at_every_budget)
        if name in FULL_ONLY.get(path, ()) and not FULL:
            item.add_marker(pytest.mark.skip(reason=_FULL_ONLY_REASON))


@pytest.fixture
def runner() -> CliRunner:
    """A click test runner that keeps stderr apart from stdout."""
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        return CliRunner()



# -- no test changes a module's constants ---------------------------------------------------------
# A test that edits a module-level constant (e.g. a weapon dict it was meant to copy) changes
# every test that runs after it in the same worker, so a failure would depend on how xdist
# shares the tests out. Each test's public plain-data constants (UPPER_CASE dicts, lists, sets
# and tuples of text, numbers and such, including the ones it imported from other test modules)
# are compared before and after the test. Private names (``_CACHE``) and constants holding
# objects (boards, routes) are not: they are caches or too costly to copy for every test.
_ATOMS = (str, int, float, bool, type(None), Path)


def _plain(value: object, budget: list[int]) -> bool:
    """Whether ``value`` is plain data of at most ``budget[0]`` parts (the budget is spent)."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if isinstance(value, _ATOMS):
        return True
    if isinstance(value, dict):
        return all(_plain(k, budget) and _plain(v, budget) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return all(_plain(v, budget) for v in value)
    return False


def _constants(module: object) -> dict[str, object]:
    """Deep copies of ``module``'s public UPPER_CASE plain-data containers."""
    return {name: copy.deepcopy(value) for name, value in vars(module).items()
            if name.isupper() and not name.startswith("_")
            and isinstance(value, (dict, list, set, tuple)) and _plain(value, [5000])}


@pytest.fixture(autouse=True)
def _module_constants_unchanged(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test that changed a constant of its module (see above)."""
    module = getattr(request, "module", None)
    before = _constants(module) if module is not None else {}
    yield
    changed = sorted(name for name, value in before.items()
                     if vars(module).get(name, value) != value)
    assert not changed, (f"{request.node.nodeid} changed the module constant(s) "
                         f"{', '.join(changed)}: copy them before editing")


@pytest.fixture(autouse=True)
def _stop_handlers_restored() -> Iterator[None]:
    """Put back the test worker's Ctrl+C and SIGTERM handlers after each test. A command run
    in this process that gets as far as ``serve``'s :func:`~solo_ops.cli.serve.quiet_stops`
    (tests/web/test_links.py's refused ``--new-link``) installs the server's: left in place,
    a stop meant for the worker would later raise ``SystemExit`` inside whatever test or
    finalizer runs then (it did, inside hypothesis's garbage-collection hook, at the end of a
    run: "Exception ignored ... SystemExit: 0")."""
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    for s, handler in before.items():
        if handler is not None and signal.getsignal(s) is not handler:
            signal.signal(s, handler)
