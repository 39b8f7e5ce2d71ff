"""Benchmark of the fast sight engine (:class:`solo_ops.geometry.sight.query.Sight`).

Run it from the repository root with the project's virtual environment active::

    python bench/bench_sight.py            # the inline Gallowdark-style board
    python bench/bench_sight.py --boards   # ... and every shipped board that loads
    python bench/bench_sight.py --checks 200000 --runs 5   # a quicker pass
    python bench/bench_sight.py --boards --edition kt2018  # Kill Team 2018's cover matrix

For each board it prints one table row: the board's size (features, convex blocker pieces),
batched point-to-point ``clear`` checks per second (uniformly random points, ``--checks`` of
them, default 1,000,000), the mean time of a 20 x 20 ``visibility_matrix`` and of a 20 x 20
``cover_matrix`` (random positions off the blockers, 32 mm bases, mean over ``--runs``
different layouts, and the slowest), and the mean time of a single ``visible`` call between
two bases (fresh pairs: a Sight remembers the pairs it has answered). The checks/s, matrix
and single-pair figures are also given in CPU time of this process (``time.process_time``),
which stays steady when other jobs share the machine.
Targets: at least 500,000 checks/s; ``cover_matrix`` well under 100 ms.

``--game-questions SEED`` instead plays one mission of each shipped scenario (``objective``
autopilot) recording every question asked of the sight engine, then asks them again of fresh
``Sight`` objects and prints the CPU time per method (and checks the answers are the game's):
the sight cost of real missions, where the same pairs come back again and again.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solo_ops.geometry import shapes  # noqa: E402
from solo_ops.geometry.board import Board, parse_board  # noqa: E402
from solo_ops.geometry.sight import Sight  # noqa: E402

BASE_RADIUS = 32 / 25.4 / 2  # a 32 mm base, in inches


def gallowdark_board() -> Board:
    """A 30" x 22" corridor board in the Gallowdark style, built inline: a grid of rooms whose
    bulkhead walls are ``line:`` panels meeting at corners and T-junctions, with hatchways
    (some closed), a few doors, pillars (``blocking``) and some heavy and light terrain."""
    feats: list[dict[str, Any]] = []

    def add(traits: list[str], **shape: Any) -> None:
        feats.append({"id": f"f{len(feats) + 1}", "traits": traits, **shape})

    xs = [5.0, 10.0, 15.0, 20.0, 25.0]
    ys = [5.5, 11.0, 16.5]
    for i, x in enumerate(xs):  # north-south bulkheads, one hatchway per room
        edges = [0.0, *ys, 22.0]
        for j, (y0, y1) in enumerate(itertools.pairwise(edges)):
            if (i + j) % 4 == 3:
                continue  # an open bay
            gap = y0 + (y1 - y0) * (0.3 + 0.1 * ((i * 3 + j) % 4))
            add(["wall"], line=[[x, y0], [x, gap - 0.75]])
            add(["wall"], line=[[x, gap + 0.75], [x, y1]])
            if (i + 2 * j) % 3 == 0:
                add(["hatch"], line=[[x, gap - 0.75], [x, gap + 0.75]], open=(i + j) % 2 == 0)
    for j, y in enumerate(ys):  # east-west bulkheads
        edges = [0.0, *xs, 30.0]
        for i, (x0, x1) in enumerate(itertools.pairwise(edges)):
            if (i + j) % 3 == 2:
                continue
            gap = x0 + (x1 - x0) * (0.35 + 0.1 * ((i + j) % 3))
            add(["wall"], line=[[x0, y], [gap - 0.75, y]])
            add(["wall"], line=[[gap + 0.75, y], [x1, y]])
            if (i + j) % 4 == 1:
                add(["door"], line=[[gap - 0.75, y], [gap + 0.75, y]])
    for x, y in [(7.5, 8.25), (17.5, 13.75), (22.5, 2.75), (12.5, 19.25)]:  # pillars
        add(["blocking"], polygon=[[x - 0.4, y - 0.4], [x + 0.4, y - 0.4], [x + 0.4, y + 0.4],
                                   [x - 0.4, y + 0.4]])
    for k, (x, y) in enumerate([(2.0, 3.0), (12.0, 7.0), (27.0, 14.0), (7.0, 19.0),
                                (17.0, 2.0), (22.0, 19.5)]):  # barricades and crates
        add(["heavy"] if k % 2 else ["light"],
            polygon=[[x, y], [x + 1.5, y], [x + 1.5, y + 0.6], [x, y + 0.6]])
    return parse_board({"name": "inline Gallowdark-style corridors", "width": 30, "depth": 22,
                        "features": feats}, "bench")


def yaml_boards() -> list[Board]:
    """Every shipped board that loads (others are skipped with a note)."""
    from solo_ops.io.yamlio import read_document

    boards = []
    for path in sorted((ROOT / "scenarios" / "boards").glob("*.yaml")):
        try:
            boards.append(parse_board(read_document(path), str(path)))
        except Exception as exc:  # a board another helper is still writing
            print(f"  (skipped {path.name}: {exc})")
    return boards


def free_positions(board: Board, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` random base centres whose 32 mm bases stay off the sight blockers."""
    import shapely

    block = shapes.sight_blockers(board)
    grown = block.buffer(BASE_RADIUS) if not block.is_empty else block
    out: list[np.ndarray] = []
    while len(out) < n:
        p = rng.uniform([BASE_RADIUS, BASE_RADIUS],
                        [board.width - BASE_RADIUS, board.depth - BASE_RADIUS])
        if grown.is_empty or not shapely.contains_xy(grown, p[0], p[1]):
            out.append(p)
    return np.array(out)


def bench(board: Board, checks: int, runs: int, seed: int, edition: str = "kt2024"
          ) -> dict[str, float]:
    """Time the queries on one board (the cover matrix of ``edition``: Kill Team 2018's is
    004's "obscured", every base point's shadow); returns the figures for the table."""
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    sight = Sight(board)
    build_ms = (time.perf_counter() - t0) * 1e3
    lo, hi = [0.0, 0.0], [board.width, board.depth]
    p = rng.uniform(lo, hi, (checks, 2))
    q = rng.uniform(lo, hi, (checks, 2))
    sight.clear(p[:1000], q[:1000])  # warm up
    t0, c0 = time.perf_counter(), time.process_time()
    clear = sight.clear(p, q)
    rate = checks / (time.perf_counter() - t0)
    cpu_rate = checks / max(time.process_time() - c0, 1e-9)
    vis_ms, vis_cpu, cover_ms, cover_cpu, single_us, single_cpu = [], [], [], [], [], []
    for _ in range(runs):
        a = free_positions(board, 20, rng)
        b = free_positions(board, 20, rng)
        t0, c0 = time.perf_counter(), time.process_time()
        sight.visibility_matrix(a, BASE_RADIUS, b, BASE_RADIUS)
        vis_ms.append((time.perf_counter() - t0) * 1e3)
        vis_cpu.append((time.process_time() - c0) * 1e3)
        # fresh positions, so the cover matrix does not reuse the visibility answers above
        a = free_positions(board, 20, rng)
        b = free_positions(board, 20, rng)
        t0, c0 = time.perf_counter(), time.process_time()
        sight.cover_matrix(a, BASE_RADIUS, b, BASE_RADIUS, edition=edition)
        cover_ms.append((time.perf_counter() - t0) * 1e3)
        cover_cpu.append((time.process_time() - c0) * 1e3)
        # fresh pairs (not those of the matrices above, which a Sight remembers)
        c = free_positions(board, 20, rng)
        d = free_positions(board, 20, rng)
        t0, c0 = time.perf_counter(), time.process_time()
        for i in range(20):
            sight.visible(c[i], d[i], BASE_RADIUS, BASE_RADIUS)
        single_us.append((time.perf_counter() - t0) / 20 * 1e6)
        single_cpu.append((time.process_time() - c0) / 20 * 1e6)
    return {
        "features": len(board.features),
        "pieces": sight.pieces.count,
        "build_ms": build_ms,
        "clear_frac": float(clear.mean()),
        "rate": rate,
        "cpu_rate": cpu_rate,
        "cover_cpu": float(np.mean(cover_cpu)),
        "vis_ms": float(np.mean(vis_ms)),
        "vis_cpu": float(np.mean(vis_cpu)),
        "cover_ms": float(np.mean(cover_ms)),
        "cover_max": float(np.max(cover_ms)),
        "single_us": float(np.mean(single_us)),
        "single_cpu": float(np.mean(single_cpu)),
    }


SIGHT_METHODS = ("visibility_matrix", "cover_matrix", "visible", "cover", "clear")


def game_questions(seed: int) -> tuple[dict[int, Board], list[tuple[Any, ...]]]:
    """Every sight question the engine, the planner and the autopilot ask in one mission of each
    shipped scenario (``objective`` autopilot, ``seed``), with its answer: the boards (one per
    door state met) and ``(board key, method, args, kwargs, answer)`` in the order asked."""
    import copy

    from solo_ops.game.engine import new_game
    from solo_ops.geometry.terrain import TerrainCache
    from solo_ops.io import library
    from solo_ops.io.scenario import load_scenario
    from solo_ops.sim import autopilot

    boards: dict[int, Board] = {}
    asked: list[tuple[Any, ...]] = []
    depth = [0]
    originals = {name: getattr(Sight, name) for name in SIGHT_METHODS}

    def recorder(name: str) -> Any:
        method = originals[name]

        def record(self: Sight, *args: Any, **kwargs: Any) -> Any:
            depth[0] += 1
            try:
                answer = method(self, *args, **kwargs)
            finally:
                depth[0] -= 1
            if depth[0] == 0:  # the callers' questions, not Sight's own inner calls
                boards.setdefault(id(self), self.board)
                asked.append((id(self), name, copy.deepcopy(args), dict(kwargs),
                              copy.deepcopy(answer)))
            return answer
        return record

    try:
        for name in SIGHT_METHODS:
            setattr(Sight, name, recorder(name))
        for path in sorted(library.folder("scenario").glob("*.yaml")):
            scenario = load_scenario(path)
            game, state = new_game(scenario, seed, terrains=TerrainCache(scenario.board))
            autopilot.play(game, state, "objective")
    finally:
        for name, method in originals.items():
            setattr(Sight, name, method)
    return boards, asked


def _same(a: Any, b: Any) -> bool:
    if hasattr(a, "obscured") and isinstance(a.visible, np.ndarray):
        return all(np.array_equal(getattr(a, k), getattr(b, k))
                   for k in ("visible", "in_cover", "obscured"))
    if isinstance(a, np.ndarray):
        return bool(np.array_equal(a, b))
    if hasattr(a, "obscured"):
        return bool((a.visible, a.in_cover, a.obscured) == (b.visible, b.in_cover, b.obscured))
    return bool(a == b)


def replay_questions(seed: int, repeats: int) -> None:
    """Ask a mission's sight questions again (see :func:`game_questions`) of fresh ``Sight``s,
    ``repeats`` times, and print the CPU time per method; the answers must be the game's."""
    boards, asked = game_questions(seed)
    cpu: dict[str, float] = {}
    count: dict[str, int] = {}
    wrong = 0
    for r in range(repeats):
        sights = {key: Sight(board) for key, board in boards.items()}
        for key, name, args, kwargs, answer in asked:
            c0 = time.process_time()
            got = getattr(sights[key], name)(*args, **kwargs)
            cpu[name] = cpu.get(name, 0.0) + time.process_time() - c0
            count[name] = count.get(name, 0) + 1
            if r == 0 and not _same(answer, got):
                wrong += 1
    print(f"the sight questions of one mission of each shipped scenario (seed {seed}, "
          f"objective autopilot), asked again of fresh Sights; CPU, mean of {repeats}")
    print(f"{'method':<20} {'questions':>9} {'CPU s':>8} {'ms each':>8}")
    for name in SIGHT_METHODS:
        if name in cpu:
            n = count[name] // repeats
            print(f"{name:<20} {n:>9} {cpu[name] / repeats:>8.3f} "
                  f"{cpu[name] / count[name] * 1e3:>8.3f}")
    print(f"{'all':<20} {len(asked):>9} {sum(cpu.values()) / repeats:>8.3f}")
    print(f"answers different from the game's: {wrong}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checks", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--boards", action="store_true",
                        help="also benchmark every scenarios/boards/*.yaml")
    parser.add_argument("--game-questions", type=int, metavar="SEED",
                        help="instead: replay the sight questions of one mission of each "
                             "shipped scenario with this seed (CPU per method)")
    parser.add_argument("--edition", choices=("kt2024", "kt2018"), default="kt2024",
                        help="the cover matrix's rules (kt2018: 004's obscured)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="with --game-questions: times the questions are asked again")
    args = parser.parse_args()
    if args.game_questions is not None:
        replay_questions(args.game_questions, args.repeats)
        return
    boards = [gallowdark_board()]
    if args.boards:
        boards += yaml_boards()
    print(f"{args.checks:,} random clear() checks; 20 x 20 matrices over {args.runs} layouts "
          f"of 32 mm bases; cover matrix rules {args.edition}")
    print("wall-clock figures, and in brackets per CPU-second of this process (steadier when "
          "other jobs share the machine)")
    head = (f"{'board':<32} {'feat':>4} {'pcs':>4} {'build ms':>8} {'clear %':>7} "
            f"{'checks/s':>9} {'(cpu)':>9} {'vis20 ms':>8} {'(cpu)':>6} {'cov20 ms':>8} "
            f"{'(cpu)':>6} {'(max)':>6} {'visible us':>10} {'(cpu)':>6}")
    print(head)
    print("-" * len(head))
    for board in boards:
        r = bench(board, args.checks, args.runs, args.seed, args.edition)
        rates = (f"{r['rate']:>9,.0f} {r['cpu_rate']:>9,.0f}" if r["pieces"]
                 else f"{'(no blockers)':>19}")
        print(f"{board.name[:32]:<32} {r['features']:>4} {r['pieces']:>4} "
              f"{r['build_ms']:>8.1f} {100 * r['clear_frac']:>7.1f} {rates} "
              f"{r['vis_ms']:>8.1f} {r['vis_cpu']:>6.1f} {r['cover_ms']:>8.1f} "
              f"{r['cover_cpu']:>6.1f} {r['cover_max']:>6.1f} {r['single_us']:>10.0f} "
              f"{r['single_cpu']:>6.0f}")


if __name__ == "__main__":
    main()
