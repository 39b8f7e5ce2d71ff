"""Digests of whole simulated games: proof that a speed-up changed no game.

Run it from the repository root with the project's virtual environment active::

    python bench/log_digests.py --out /tmp/before.json            # record
    python bench/log_digests.py --check /tmp/before.json          # compare (exit 1 on change)
    python bench/log_digests.py --seeds 1 3 --policy cautious --check /tmp/before.json
    python bench/log_digests.py --seeds 1 6 --scenario volkus-stronghold-supplement-example
    python bench/log_digests.py --seeds 1 6 --warm   # time missions after an untimed one each
    python bench/log_digests.py --game-only --out /tmp/before-game.json  # not the words
    python bench/log_digests.py --game-only --quiet --check /tmp/before-game.json  # as rate

Every shipped scenario is played to the end by the autopilot for each seed, and the game's
whole log (every action, event and die roll, as JSON with sorted keys) is hashed with SHA-256.
An optimisation that keeps the engine's answers exactly gives the same digests; one that moves
a single enemy by a hundredth of an inch, or rolls one die more or less, does not. It prints
one line per game and, with ``--check``, the games whose logs differ. ``--game-only`` hashes
the game without its words (every step's answer and dice faces, and the final state: every
model's place, wounds and order, every counter, the score), for a change that rewords events
and must change nothing else.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solo_ops.game.engine import new_game  # noqa: E402
from solo_ops.game.state import State  # noqa: E402
from solo_ops.geometry import jit  # noqa: E402
from solo_ops.geometry.terrain import TerrainCache  # noqa: E402
from solo_ops.io import library  # noqa: E402
from solo_ops.io.scenario import load_scenario  # noqa: E402
from solo_ops.rules import killzones  # noqa: E402
from solo_ops.sim import autopilot  # noqa: E402


def digest_of(log: list[dict]) -> str:
    """SHA-256 of a game's log as canonical JSON."""
    text = json.dumps(log, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


def game_digest_of(state: State) -> str:
    """SHA-256 of a game without its words: each step's number, answer and dice faces, and the
    final state with its secrets (places, wounds, orders, counters, score)."""
    steps = [[r.get("n"), r.get("action"), [x.get("faces") for x in r.get("rolls", [])]]
             for r in state.log]
    text = json.dumps([steps, state.to_dict(secrets=True)], sort_keys=True,
                      separators=(",", ":"), allow_nan=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def shipped(only: Sequence[str] = ()) -> list[Path]:
    """The shipped scenario files, or those named in ``only`` (ValueError naming an unknown
    one)."""
    paths = sorted(library.folder("scenario").glob("*.yaml"))
    unknown = sorted(set(only) - {p.stem for p in paths})
    if unknown:
        raise ValueError(f"no shipped scenario {unknown[0]!r}")
    return [p for p in paths if not only or p.stem in only]


def play_shipped(first: int, last: int, policy: str, paths: Sequence[Path] | None = None,
                 warm: bool = False, quiet: bool = False) -> Iterator[tuple[str, State, float]]:
    """Play the scenarios ``paths`` (default: every shipped one) to the end with the
    autopilot, seeds ``first``..``last``, one TerrainCache per scenario as in ``rate``:
    ``("scenario/seed/policy", final state, CPU seconds of set-up and play)``. The geometry's
    compiled loops are on, as in ``rate`` (``SOLO_OPS_JIT=0``: the numpy code). ``warm``: first
    play seed 0 of each scenario untimed (the kernels loaded, the terrain's caches filled), as a
    long ``rate`` run's missions find them. ``quiet``: without the words only players read, as
    the simulator's missions (``Game.words`` off)."""
    jit.use_in_simulation()
    for path in shipped() if paths is None else paths:
        scenario = load_scenario(path)
        terrains = TerrainCache(killzones.board_in_play(scenario.board, scenario.edition))
        if warm:
            game, state = new_game(scenario, 0, terrains=terrains)
            autopilot.play(game, state, policy)
        for seed in range(first, last + 1):
            t0 = time.process_time()
            game, state = new_game(scenario, seed, terrains=terrains)
            game.words = not quiet
            autopilot.play(game, state, policy)
            yield f"{path.stem}/{seed}/{policy}", state, time.process_time() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", nargs=2, type=int, default=(1, 2), metavar=("FIRST", "LAST"))
    parser.add_argument("--policy", default="objective")
    parser.add_argument("--out", type=Path, help="write the digests to this JSON file")
    parser.add_argument("--check", type=Path, help="compare with digests written by --out")
    parser.add_argument("--scenario", action="append", default=[], metavar="NAME",
                        help="only this shipped scenario (repeat for several; default: all)")
    parser.add_argument("--warm", action="store_true",
                        help="play seed 0 of each scenario first, untimed (kernels loaded, "
                             "caches filled)")
    parser.add_argument("--game-only", action="store_true",
                        help="hash the answers, dice and final state, not the events' words")
    parser.add_argument("--quiet", action="store_true",
                        help="play as the simulator's missions are played: without the words "
                             "only players read (Game.words off; check with --game-only)")
    args = parser.parse_args()
    first, last = args.seeds
    digests: dict[str, str] = {}
    cpu = 0.0
    try:
        paths = shipped(args.scenario)
    except ValueError as exc:
        parser.error(str(exc))
    for key, state, spent in play_shipped(first, last, args.policy, paths, args.warm,
                                          args.quiet):
        cpu += spent
        digests[key] = game_digest_of(state) if args.game_only else digest_of(state.log)
        print(f"{key:50s} {len(state.log):5d} steps {spent:6.2f} s CPU  "
              f"{digests[key][:12]}", flush=True)
    print(f"{len(digests)} games, {cpu:.1f} s CPU (compiled loops "
          f"{'on' if jit.ENABLED else 'off'})")
    if args.out:
        args.out.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    if args.check:
        before = json.loads(args.check.read_text())
        changed = [k for k in digests if k in before and before[k] != digests[k]]
        for key in changed:
            print(f"CHANGED: {key}")
        print(f"{len(changed)} of {sum(k in before for k in digests)} games differ")
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
