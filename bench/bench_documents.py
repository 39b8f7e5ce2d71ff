"""Benchmark of reading YAML: every shipped file parsed by ``parse_yaml_text`` with libyaml's
parser first (as commands read them) and with the pure-Python loader alone.

Run it from the repository root with the project's virtual environment active::

    python bench/bench_documents.py            # 5 rounds, the two ways alternated
    python bench/bench_documents.py --rounds 9

Each round reads every YAML file under ``scenarios/`` and ``solo_ops/`` once each way; a line
is added to each text to make it new, so the parse memo (which hands out copies of a text read
before) never answers. It prints the CPU time (``time.process_time``) of a round each way and
their medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solo_ops.core import documents  # noqa: E402

FILES = sorted([*ROOT.glob("scenarios/**/*.yaml"), *ROOT.glob("solo_ops/**/*.yaml")])


def one_round(texts: list[str], tag: str) -> float:
    """CPU seconds to parse every text once (each made new by a comment line)."""
    start = time.process_time()
    for i, text in enumerate(texts):
        documents.parse_yaml_text(f"{text}\n# {tag} {i}\n", f"text {i}")
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    texts = [p.read_text(encoding="utf-8") for p in FILES]
    both = list(documents.LOADERS)
    ways = {"libyaml first": both, "pure Python": both[-1:]}
    if len(both) < 2:
        print("PyYAML was built without libyaml: only the pure loader is there")
        ways = {"pure Python": both}
    print(f"{len(texts)} files, {sum(map(len, texts)) / 1024:.0f} KiB")
    times: dict[str, list[float]] = {name: [] for name in ways}
    for r in range(args.rounds):
        for name, loaders in ways.items():
            documents.LOADERS[:] = loaders
            times[name].append(one_round(texts, f"{name} {r}"))
    documents.LOADERS[:] = both
    for name, got in times.items():
        print(f"{name:>14}: median {statistics.median(got) * 1000:7.1f} ms a round "
              f"({' '.join(f'{t * 1000:.0f}' for t in got)})")


if __name__ == "__main__":
    main()
