"""Fuzzing: hundreds of mutated boards, rosters, squads, scenarios, saves and logs.

Each shipped file (and a save and log of a real game) is mutated with a fixed seed: keys
deleted, values swapped for other types, huge / NaN / infinite / negative / 5,000-digit
numbers, deep nesting, aliases ("billion laughs"), truncation and random bytes. Every mutant
is fed to the commands that read it, in-process through click's runner (fast), and a handful
through a real ``solo-ops`` subprocess with its memory capped. How many: tests/support/budget.py.

Whatever the file, the answer is either a result (exit 0 or 1) or one clear input error
(exit 2): never "internal error", never a traceback, never more than 10 s of CPU.
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.io import library
from tests.support.budget import examples
from tests.support.paths import BOARDS, ROSTERS, SCENARIOS

SQUADS = SCENARIOS / "squads"
PER_KIND = {kind: examples(n) for kind, n in {
    "board": 160, "roster": 120, "squad": 120, "scenario": 100, "save": 70, "campaign": 70,
    "log": 50}.items()}
"""Mutants per kind: the full numbers with SOLO_OPS_TEST_BUDGET=full, a quarter by default
(tests/support/budget.py)."""
CASE_SECONDS = 10.0
"""The most CPU seconds one case may take (a hang or a blow-up, not a slow machine: CPU time,
which the machine's other work does not stretch)."""
HANG_SECONDS = 120.0
"""A subprocess case still running after this long (wall) is stuck."""

# Markers written into a dumped document and then replaced by text no dumper would write.
SPECIAL = {
    "@@NAN@@": (".nan", "NaN"),
    "@@INF@@": (".inf", "Infinity"),
    "@@NINF@@": ("-.inf", "-Infinity"),
    "@@HUGE@@": ("1e999", "1e999"),
    "@@DIGITS@@": ("9" * 5000, "9" * 5000),
    "@@BIGINT@@": ("9" * 400, "9" * 400),
    "@@DEEP@@": ("[" * 3000 + "]" * 3000, "[" * 3000 + "]" * 3000),
}
SWAPS: list[Any] = [None, True, 0, -1, -10**9, 10**12, 2.5, -0.0, "", "x" * 10_000, [], {},
                    [[1, 2]], {"a": 1}, "@@NAN@@", "@@INF@@", "@@NINF@@", "@@HUGE@@",
                    "@@DIGITS@@", "@@BIGINT@@", "@@DEEP@@", 999_999, 31, 13, 7, "D6",
                    "1000D6", "99999999999999999999D6", "lethal=5", [0, 0], [1e6, 1e6]]


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value in a tree of dicts and lists."""
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out.extend(_paths(value, (*prefix, i)))
    return out


def _parent(data: Any, path: tuple[Any, ...]) -> tuple[Any, Any]:
    node = data
    for key in path[:-1]:
        node = node[key]
    return node, path[-1]


def _mutate_tree(data: Any, rng: random.Random) -> Any:
    """One to three structural mutations of a parsed document."""
    data = json.loads(json.dumps(data))
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(data) if p]
        if not paths:
            return rng.choice(SWAPS)
        path = rng.choice(paths)
        parent, key = _parent(data, path)
        op = rng.random()
        if op < 0.3 and isinstance(parent, dict):
            del parent[key]
        elif op < 0.4 and isinstance(parent, list):
            parent.append(json.loads(json.dumps(parent[key])))  # a duplicate (ids twice)
        elif op < 0.5 and isinstance(parent[key], (int, float)) \
                and not isinstance(parent[key], bool):
            parent[key] = rng.choice([-parent[key], parent[key] * 1000, 10**6, -1, 0,
                                      parent[key] + 0.5])
        else:
            parent[key] = json.loads(json.dumps(rng.choice(SWAPS)))
    return data


def _as_text(data: Any, json_format: bool) -> str:
    if json_format:
        text = json.dumps(data, indent=1)
        index = 1
    else:
        text = yaml.safe_dump(data, sort_keys=False, width=10**9)
        index = 0
    for marker, forms in SPECIAL.items():
        text = text.replace(f'"{marker}"', forms[index]).replace(f"'{marker}'", forms[index])
        text = text.replace(marker, forms[index])
    return text


BILLION_LAUGHS = (
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
)


def mutants(text: str, json_format: bool, count: int, seed: int) -> list[str]:
    """``count`` mutated versions of a document: structural and textual."""
    rng = random.Random(seed)
    data = json.loads(text) if json_format else yaml.safe_load(text)
    out = []
    for i in range(count):
        kind = i % 10
        if kind < 6:
            out.append(_as_text(_mutate_tree(data, rng), json_format))
        elif kind == 6:  # truncated
            out.append(text[: rng.randrange(len(text))])
        elif kind == 7:  # random bytes
            chars = list(text)
            for _ in range(rng.randint(1, 8)):
                chars[rng.randrange(len(chars))] = chr(rng.choice([0, 1, 0x7F, 0xFFFD,
                                                                    rng.randrange(32, 127)]))
            out.append("".join(chars))
        elif kind == 8:  # aliases and nesting grafted onto a real document
            graft = rng.choice([BILLION_LAUGHS, "x: &x [*x]\n", "y: " + "[" * 400 + "]" * 400,
                                "z: " + "{a: " * 200 + "1" + "}" * 200])
            out.append(graft + text if not json_format else "[" * 100_000)
        else:  # a key's value replaced by a special number, textually
            out.append(_as_text(_mutate_tree(data, rng), json_format)
                       .replace(": 1\n", ": " + rng.choice(["1e999", ".nan", "-.inf", "9" * 5000,
                                                            "0x" + "f" * 50]) + "\n", 1))
    return out


def _check(result: Any, label: str, seconds: float) -> None:
    output = (result.output or "") + (getattr(result, "stderr", "") or "")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{label}: {type(result.exception).__name__}: "
                             f"{str(result.exception)[:300]}")
    assert "internal error" not in output, f"{label}: {output[-400:]}"
    assert "Traceback" not in output, f"{label}: {output[-400:]}"
    assert result.exit_code in (0, 1, 2), f"{label}: exit {result.exit_code}: {output[-300:]}"
    assert seconds < CASE_SECONDS, f"{label}: took {seconds:.1f} s of CPU"


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        return CliRunner()


def _run_all(tmp_path: Path, kind: str, sources: list[Path], suffix: str,
             args: Callable[[Path], list[str]], json_format: bool = False,
             base_seed: int = 17) -> None:
    runner = _runner()
    per_source = max(1, PER_KIND[kind] // len(sources))
    case = 0
    for s_index, source in enumerate(sources):
        text = source.read_text(encoding="utf-8")
        for text_m in mutants(text, json_format, per_source, base_seed * 1000 + s_index):
            path = tmp_path / f"{kind}-{case}{suffix}"
            path.write_text(text_m, encoding="utf-8", errors="surrogatepass")
            start = time.process_time()
            result = runner.invoke(main, args(path), catch_exceptions=True)
            _check(result, f"{kind} case {case} ({source.name}, {path})",
                   time.process_time() - start)
            case += 1
    assert case >= PER_KIND[kind] * 0.9


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A real save and log: a shipped scenario played a few answers in, then quit."""
    where = tmp_path_factory.mktemp("played")
    save = where / "game.json"
    result = _runner().invoke(main, ["play", str(SCENARIOS / "gallowdark-night-raid.yaml"),
                                     "--seed", "3", "--save", str(save), "--answer", "quit"])
    assert result.exit_code == 0, result.output
    logs = list(where.glob("*.jsonl"))
    assert save.exists() and len(logs) == 1
    return save, logs[0]


def test_fuzz_boards(tmp_path: Path) -> None:
    _run_all(tmp_path, "board", sorted(BOARDS.glob("*.yaml"))[:4], ".yaml",
             lambda p: ["board", "check", str(p)])


def test_fuzz_rosters(tmp_path: Path) -> None:
    _run_all(tmp_path, "roster", sorted(ROSTERS.glob("*.yaml")), ".yaml",
             lambda p: ["orders", "unit", "--roster", str(p), "--seed", "5"])


def test_fuzz_squads(tmp_path: Path) -> None:
    counter = iter(range(10**6))

    def args(path: Path) -> list[str]:
        n = next(counter)
        if n % 15 == 0:  # an encounter built from the squad (slower: a few only)
            return ["new", "--squad", str(path), "--seed", "3", "--out",
                    str(path.with_suffix(".encounter.yaml"))]
        return ["campaign", "new", f"c{n}", "--squad", str(path), "--saves",
                str(tmp_path / "campaigns")]

    _run_all(tmp_path, "squad", sorted(SQUADS.glob("*.yaml")), ".yaml", args)


def _inline_scenario(tmp_path: Path) -> Path:
    """A shipped scenario with its board and roster written inline (so mutations reach them)."""
    doc = yaml.safe_load((SCENARIOS / "gallowdark-night-raid.yaml").read_text())
    for key in ("board", "roster"):
        if isinstance(doc.get(key), str):
            found = library.resolve(key, doc[key], base=SCENARIOS)
            doc[key] = yaml.safe_load(found.read_text(encoding="utf-8"))
    path = tmp_path / "inline.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def test_fuzz_scenarios(tmp_path: Path) -> None:
    sources = [_inline_scenario(tmp_path), SCENARIOS / "volkus-stronghold-supplement-example.yaml"]
    # mutated scenarios name boards and rosters by shipped name or by path next to the file
    for folder in (BOARDS, ROSTERS, SQUADS):
        for item in folder.glob("*.yaml"):
            (tmp_path / folder.name).mkdir(exist_ok=True)
            shutil.copy(item, tmp_path / folder.name / item.name)
    commands = [lambda p: ["fog", "seed", str(p), "--seed", "2", "--json"],
                lambda p: ["ai", "plan", str(p), "--unit", "u1", "--seed", "2"],
                lambda p: ["play", str(p), "--seed", "2", "--answer", "quit", "--save",
                           str(p.with_suffix(".json"))]]
    counter = iter(range(10**6))
    _run_all(tmp_path, "scenario", sources, ".yaml",
             lambda p: commands[next(counter) % 3](p))


def test_fuzz_saves(tmp_path: Path, played: tuple[Path, Path]) -> None:
    save, log = played
    counter = iter(range(10**6))

    def args(path: Path) -> list[str]:
        # each mutant is its own game: a save with the real log beside it
        folder = tmp_path / f"g{next(counter)}"
        folder.mkdir()
        target = folder / save.name
        path.replace(target)
        shutil.copy(log, folder / log.name)
        return ["play", "--resume", str(target), "--answer", "quit"]

    _run_all(tmp_path, "save", [save], ".json", args, json_format=True)


def test_fuzz_campaign_saves(tmp_path: Path) -> None:
    """A campaign save with a mission in its history (survival tests rolled), mutated, then
    shown and played on: an edited history entry is an input error naming the field."""
    runner = _runner()
    saves = tmp_path / "campaign_saves"
    result = runner.invoke(main, ["campaign", "new", "c", "--squad", str(SQUADS / "vesper.yaml"),
                                  "--saves", str(saves), "--target-win", "off"])
    assert result.exit_code == 0, result.output
    outcome = tmp_path / "result.yaml"
    outcome.write_text("mission: Night raid\noutcome: win\nmodels:\n  - {id: kell, "
                       "wounds_lost: 3}\n  - {id: rask, down: true, carried: true}\n")
    result = runner.invoke(main, ["campaign", "survival", "c", "--mission-result",
                                  str(outcome), "--seed", "3", "--saves", str(saves)])
    assert result.exit_code == 0, result.output
    original = saves / "c.json"
    assert json.loads(original.read_text())["history"][0]["survival_tests"]
    counter = iter(range(10**6))

    def args(path: Path) -> list[str]:
        folder = tmp_path / f"s{next(counter)}"
        folder.mkdir()
        path.replace(folder / "c.json")
        return ["campaign", "show", "c", "--saves", str(folder)]

    _run_all(tmp_path, "campaign", [original], ".json", args, json_format=True)


def test_fuzz_logs(tmp_path: Path, played: tuple[Path, Path]) -> None:
    _save, log = played
    lines = log.read_text(encoding="utf-8").splitlines()
    runner = _runner()
    rng = random.Random(23)
    for case in range(PER_KIND["log"]):
        index = rng.randrange(len(lines))
        mutated = list(lines)
        mutated[index] = mutants(lines[index], True, 1, case)[0].replace("\n", " ")
        if case % 5 == 0:
            mutated = mutated[: rng.randrange(1, len(lines) + 1)]
        path = tmp_path / f"log-{case}.jsonl"
        path.write_text("\n".join(mutated) + ("\n" if case % 3 else ""), encoding="utf-8",
                        errors="surrogatepass")
        start = time.process_time()  # CPU of this process: the run is in it (click's runner)
        result = runner.invoke(main, ["replay", str(path)], catch_exceptions=True)
        _check(result, f"log case {case} (line {index}, {path})", time.process_time() - start)


# -- a handful through a real process, memory capped ---------------------------------------------

MEMORY_CAP = 1536 * 1024 * 1024


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _solo_ops(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    start = _children_cpu()
    try:
        done = subprocess.run([sys.executable, "-m", "solo_ops", *args], cwd=cwd,
                              capture_output=True, text=True, timeout=HANG_SECONDS,
                              preexec_fn=_cap_memory, stdin=subprocess.DEVNULL,
                              env={**os.environ, "SOLO_OPS_DEBUG": ""})
    except subprocess.TimeoutExpired:
        raise AssertionError(f"solo-ops {' '.join(args)[:200]}: stuck for {HANG_SECONDS} s") \
            from None
    assert _children_cpu() - start < CASE_SECONDS
    output = done.stdout + done.stderr
    assert "internal error" not in output and "Traceback" not in output, output[-500:]
    assert done.returncode in (0, 1, 2), (done.returncode, output[-500:])
    return done


def test_subprocess_hostile_files(tmp_path: Path) -> None:
    """The files that used to take gigabytes, block or read forever: one line, exit 2, at once,
    in a process whose memory is capped."""
    laughs = tmp_path / "laughs.yaml"
    laughs.write_text(BILLION_LAUGHS)
    assert len(BILLION_LAUGHS.encode()) < 1000
    deep_json = tmp_path / "deep.json"
    deep_json.write_text("[" * 100_000 + "]" * 100_000)
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    roster = tmp_path / "huge-roster.yaml"
    roster.write_text(
        (ROSTERS / "ork-mob.yaml").read_text().replace("attacks: 4", "attacks: 100000000", 1))
    cases = [(["board", "check", str(laughs)], "aliases are expanded"),
             (["board", "check", str(deep_json)], "levels deep"),
             (["board", "check", str(pipe)], "not a regular file"),
             (["board", "check", "/dev/zero"], "not a regular file"),
             (["orders", "unit", "--roster", str(roster), "--seed", "1"], ".attacks: must be")]
    for args, expected in cases:
        done = _solo_ops(*args, cwd=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1, (args, done.stderr)
        assert expected in done.stderr and args[-1 if "--seed" not in args else -3] \
            in done.stderr, done.stderr


def test_subprocess_largest_legal_fight_is_quick(tmp_path: Path) -> None:
    done = _solo_ops("combat", "fight", "--attacks", "12", "--hit", "3", "--damage", "3/4",
                     "--defender-attacks", "12", "--defender-hit", "3", "--defender-damage",
                     "3/4", "--wounds", "999", "--defender-wounds", "999", "--json",
                     cwd=tmp_path)
    assert done.returncode == 0
    data = json.loads(done.stdout)
    assert abs(sum(data["dealt"]["distribution"].values()) - 1) < 1e-9
