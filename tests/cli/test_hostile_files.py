"""Every command that reads a file, fed what no file should be (issue #31, item 1).

Each command that takes a path (a scenario, board, roster, squad, save, event log, campaign save,
mission result, replacement model, import, answers file or sweep) is run as a real ``solo-ops``
process, its memory capped at 1.5 GB and its CPU time at 10 s, with that path replaced by:

* a named pipe (reading it would wait forever for a writer),
* a link to ``/dev/zero`` (a device that never ends),
* a 30 MB file (a hard link to one file: over every kind's limit),
* a file that is not UTF-8 text.

Each must answer with one line on stderr naming the file and exit 2 — never hang, never read
for long, never an internal error — and leave every file it was not asked to write untouched.

Every command meets every kind of hostile file by default, the commands of one kind run one
after another in one capped process (:mod:`tests.support.command_batch`: the same command line
through click's runner, each command's CPU measured and a hang named), which spares a fresh
interpreter and its imports for each of the 124; one command a kind also runs as a
``python -m solo_ops`` process of its own. With ``SOLO_OPS_TEST_BUDGET=full`` (CI's slow run)
every command of every kind runs in a process of its own, as before.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.budget import FULL
from tests.support.paths import ROOT, SCENARIOS
from tests.support.players import cli_here

SQUAD = SCENARIOS / "squads" / "vesper.yaml"
SCENARIO = SCENARIOS / "gallowdark-night-raid.yaml"
SECONDS = 10.0
MEMORY = 1536 * 1024 * 1024
BIG = 30 * 1000 * 1000

KINDS = ("fifo", "zero", "big", "latin1")
EXPECTED = {"fifo": "is not a regular file", "zero": "is not a regular file",
            "big": "is too large", "latin1": "UTF-8"}
"""What each hostile file's error line says (the line always names the file too)."""


@dataclass
class World:
    """The good files the commands need beside the hostile one."""

    root: Path
    save: Path
    log: Path
    campaign: Path  # a folder holding campaign "c" (after one mission's survival tests)
    big: Path


HANG = 120.0
"""Wall seconds after which a run is taken to be waiting forever (a pipe read with no writer
uses no CPU); the :data:`SECONDS` limit is CPU time, which a busy machine does not stretch."""


def _solo_ops(args: list[str], cwd: Path) -> tuple[int, str, str, float]:
    """Run ``solo-ops ARGS`` capped at :data:`MEMORY` and :data:`SECONDS` of CPU: its exit
    status, stdout, stderr and wall seconds (a run over either limit, or waiting for
    :data:`HANG` seconds, fails the test; it never blocks)."""
    start = time.perf_counter()

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        resource.setrlimit(resource.RLIMIT_CPU, (int(SECONDS), int(SECONDS) + 1))

    try:
        done = subprocess.run([sys.executable, "-m", "solo_ops", *args], cwd=cwd,
                              capture_output=True, text=True, timeout=HANG,
                              preexec_fn=cap, stdin=subprocess.DEVNULL,
                              env={**os.environ, "SOLO_OPS_DEBUG": ""})
    except subprocess.TimeoutExpired:
        raise AssertionError(f"solo-ops {' '.join(args)}: still waiting after {HANG} s"
                             ) from None
    assert done.returncode not in (-signal.SIGXCPU, -signal.SIGKILL), (
        f"solo-ops {' '.join(args)}: over {SECONDS} s of CPU")
    return done.returncode, done.stdout, done.stderr, time.perf_counter() - start


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    """The good files, made by the commands run in this process (``cli_here``): the files are
    what is needed here, the hostile ones are met by the processes under test."""
    root = tmp_path_factory.mktemp("hostile")
    save = root / "game.json"
    made = cli_here("play", str(SCENARIO), "--seed", "3", "--save", str(save), "--answer",
                    "quit", cwd=root)
    assert made.returncode == 0, made.stderr
    campaign = root / "campaign"
    made = cli_here("campaign", "new", "c", "--squad", str(SQUAD), "--saves", str(campaign),
                    "--target-win", "off", cwd=root)
    assert made.returncode == 0, made.stderr
    big = root / "big.bin"
    with big.open("wb") as handle:
        handle.truncate(BIG)  # 30 MB of zero bytes (sparse: nothing is written)
    return World(root, save, save.with_suffix(".log.jsonl"), campaign, big)


def _make(world: World, kind: str, path: Path) -> None:
    """Put a hostile file of ``kind`` at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "big":
        os.link(world.big, path)
    elif path.suffix == ".ros":  # XML declaring UTF-8 that is not
        path.write_bytes(b'<?xml version="1.0" encoding="UTF-8"?>\n<roster name="caf\xe9"/>\n')
    elif path.suffix == ".json" and path.parent.name.endswith("import"):
        path.write_bytes(b'{"name": "caf\xe9"}\n')
    else:  # Latin-1 text where UTF-8 belongs, and bytes no text has
        path.write_bytes(b"name: caf\xe9\nkell engage\n\xff\xfe\n")


Case = Callable[[World, Path], tuple[list[str], Path]]
"""A command: given the world and a fresh folder, it places the hostile file (by returning its
path) and returns the command's arguments."""


def _copy_game(world: World, folder: Path) -> tuple[Path, Path]:
    save, log = folder / "game.json", folder / "game.log.jsonl"
    shutil.copyfile(world.save, save)
    shutil.copyfile(world.log, log)
    return save, log


def _campaign(world: World, folder: Path) -> Path:
    saves = folder / "saves"
    shutil.copytree(world.campaign, saves)
    return saves


def _served_campaign(world: World, folder: Path) -> Path:
    """The campaign as once served: its links made already (serving it again writes
    nothing before it opens its mission)."""
    import json

    from solo_ops.campaign.storage import SEAL_DEPTH
    from solo_ops.core.seal import sealed
    from solo_ops.session.links import new_links

    saves = _campaign(world, folder)
    path = saves / "c.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["links"] = new_links(squad["player"] for squad in doc["squads"])
    sealed(doc, SEAL_DEPTH)  # as serving it sealed it
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return saves


CASES: dict[str, Case] = {
    "board check": lambda w, f: (["board", "check", str(f / "b.yaml")], f / "b.yaml"),
    "board show": lambda w, f: (["board", "show", str(f / "b.yaml"), "--out",
                                 str(f / "b.png")], f / "b.yaml"),
    "geom los": lambda w, f: (["geom", "los", str(f / "b.yaml"), "--from", "1,1", "--to",
                               "5,5"], f / "b.yaml"),
    "orders unit --roster": lambda w, f: (["orders", "unit", "--roster", str(f / "r.yaml"),
                                           "--seed", "1"], f / "r.yaml"),
    "fog seed": lambda w, f: (["fog", "seed", str(f / "s.yaml"), "--seed", "1"], f / "s.yaml"),
    "ai plan": lambda w, f: (["ai", "plan", str(f / "s.yaml"), "--unit", "u1"], f / "s.yaml"),
    "play SCENARIO": lambda w, f: (["play", str(f / "s.yaml"), "--seed", "1", "--save",
                                    str(f / "out.json"), "--answer", "quit"], f / "s.yaml"),
    "play --resume SAVE": lambda w, f: (["play", "--resume", str(f / "g.json"), "--answer",
                                         "quit"], f / "g.json"),
    "play --resume, its log": lambda w, f: (
        ["play", "--resume", str(_copy_game(w, f)[0]), "--answer", "quit"],
        f / "game.log.jsonl"),
    "play --answers": lambda w, f: (["play", str(SCENARIO), "--seed", "1", "--save",
                                     str(f / "out.json"), "--answers", str(f / "a.txt")],
                                    f / "a.txt"),
    "replay LOG": lambda w, f: (["replay", str(f / "g.log.jsonl")], f / "g.log.jsonl"),
    "replay --save": lambda w, f: (["replay", str(_copy_game(w, f)[1]), "--save",
                                    str(f / "other.json")], f / "other.json"),
    "map SAVE": lambda w, f: (["map", str(f / "g.json"), "--out", str(f / "m.png")],
                              f / "g.json"),
    "serve --resume": lambda w, f: (["serve", "--resume", str(f / "g.json"), "--port", "0"],
                                    f / "g.json"),
    "serve SCENARIO": lambda w, f: (["serve", str(f / "s.yaml"), "--port", "0", "--save",
                                     str(f / "out.json")], f / "s.yaml"),
    "new --squad": lambda w, f: (["new", "--squad", str(f / "q.yaml"), "--seed", "1", "--out",
                                  str(f / "e.yaml")], f / "q.yaml"),
    "new --board": lambda w, f: (["new", "--board", str(f / "b.yaml"), "--seed", "1", "--out",
                                  str(f / "e.yaml")], f / "b.yaml"),
    "new --roster": lambda w, f: (["new", "--roster", str(f / "r.yaml"), "--seed", "1",
                                   "--out", str(f / "e.yaml")], f / "r.yaml"),
    "rate SCENARIO": lambda w, f: (["rate", str(f / "s.yaml"), "--missions", "1", "--jobs",
                                    "1"], f / "s.yaml"),
    "rate --sweep": lambda w, f: (["rate", "--sweep", str(f / "sweep.yaml"), "--out",
                                   str(f / "o.csv")], f / "sweep.yaml"),
    "squad import": lambda w, f: (["squad", "import", str(f / "t.ros"), "--out",
                                   str(f / "q.yaml")], f / "t.ros"),
    "roster import": lambda w, f: (["roster", "import", str(f / "t.json"), "--out",
                                    str(f / "r.yaml")], f / "t.json"),
    "campaign new --squad": lambda w, f: (["campaign", "new", "d", "--squad",
                                           str(f / "q.yaml"), "--saves", str(f / "saves")],
                                          f / "q.yaml"),
    "campaign show": lambda w, f: (["campaign", "show", "c", "--saves", str(f)], f / "c.json"),
    "campaign play (its save)": lambda w, f: (["campaign", "play", "c", "--saves", str(f),
                                               "--answer", "quit"], f / "c.json"),
    "campaign survival --mission-result": lambda w, f: (
        ["campaign", "survival", "c", "--mission-result", str(f / "r.yaml"), "--saves",
         str(_campaign(w, f))], f / "r.yaml"),
    "campaign replace --with": lambda w, f: (
        ["campaign", "replace", "c", "--player", "Ana", "--model", "kell", "--with",
         str(f / "m.yaml"), "--saves", str(_campaign(w, f))], f / "m.yaml"),
    "campaign play --answers": lambda w, f: (
        ["campaign", "play", "c", "--seed", "3", "--answers", str(f / "a.txt"), "--saves",
         str(_campaign(w, f))], f / "a.txt"),
    # the readers issues #28 and #30 added: a campaign served, its mission's save, and a
    # mission's save resumed with `play` (told apart from a lone game by its first bytes)
    "campaign serve (its save)": lambda w, f: (["campaign", "serve", "c", "--saves", str(f),
                                                "--port", "0"], f / "c.json"),
    "campaign serve (its mission's save)": lambda w, f: (
        ["campaign", "serve", "c", "--saves", str(_served_campaign(w, f)), "--port", "0"],
        f / "saves" / "c-missions" / "mission-1.save.json"),
    "play --resume a campaign's mission": lambda w, f: (
        ["play", "--resume", str(_campaign(w, f) / "c-missions" / "mission-1.save.json"),
         "--answer", "quit"], f / "saves" / "c-missions" / "mission-1.save.json"),
}


@dataclass
class Prepared:
    """One command set up to meet one hostile file: its arguments, the hostile file, and the
    bytes of every other file in its folder (which must stay as they were)."""

    name: str
    kind: str
    args: list[str]
    hostile: Path
    before: dict[Path, bytes]


def _prepare(world: World, name: str, kind: str, how: str) -> Prepared:
    """A fresh folder for command ``name`` on a hostile file of ``kind`` (``how``: the way it
    is run, so that each way has folders of its own)."""
    folder = world.root / f"{how}-{kind}-{name.replace(' ', '_').replace('/', '_')}"
    folder.mkdir()
    args, hostile = CASES[name](world, folder)
    _make(world, kind, hostile)
    before = {p: p.read_bytes() for p in folder.rglob("*")
              if p.is_file() and not p.is_symlink() and p != hostile}
    return Prepared(name, kind, args, hostile, before)


def _judge(case: Prepared, code: int, err: str, seconds: float) -> str | None:
    """What is wrong with the command's answer, or None."""
    where = f"{case.name} on {case.kind}: exit {code} in {seconds:.1f} s: {err.strip()[-300:]!r}"
    if code != 2 or err.count("\n") != 1 or "internal error" in err:
        return where
    expected = "not well-formed XML" if case.kind == "latin1" and case.hostile.suffix == ".ros" \
        else EXPECTED[case.kind]  # the XML parser names the line and column of the bad byte
    if expected not in err or case.hostile.name not in err:
        return f"{where} (expected {expected!r} and {case.hostile.name!r})"
    changed = [p.name for p, data in case.before.items() if p.read_bytes() != data]
    if changed:
        return f"{where}: changed {changed}"
    return None


def _run_case(world: World, name: str, kind: str) -> str | None:
    """Run one command on one hostile file in a process of its own; what is wrong, or None."""
    case = _prepare(world, name, kind, "own")
    code, _out, err, seconds = _solo_ops(case.args, world.root)
    return _judge(case, code, err, seconds)


def _run_batch(world: World, kind: str) -> list[str]:
    """Every command on a hostile file of ``kind``, one after another in one process capped as
    each command's own was (:data:`MEMORY`; :data:`SECONDS` of CPU each, measured command by
    command; a command waiting :data:`HANG` seconds ends it): what is wrong."""
    cases = [_prepare(world, name, kind, "batch") for name in CASES]

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        most = int(SECONDS * len(cases))
        resource.setrlimit(resource.RLIMIT_CPU, (most, most + 1))

    done = subprocess.run([sys.executable, "-m", "tests.support.command_batch", str(HANG)],
                          cwd=world.root, capture_output=True, text=True, preexec_fn=cap,
                          input=json.dumps([[c.name, c.args] for c in cases]),
                          env={**os.environ, "SOLO_OPS_DEBUG": "",
                               "PYTHONPATH": str(ROOT) + os.pathsep
                               + os.environ.get("PYTHONPATH", "")},
                          timeout=HANG * 2 + 30 * len(cases))
    answers = {line["name"]: line for line in map(json.loads, done.stdout.splitlines())}
    problems = []
    for case in cases:
        got = answers.get(case.name)
        if got is None:
            problems.append(f"{case.name} on {kind}: no answer (hung, over the limits or "
                            f"crashed: exit {done.returncode}): {done.stderr.strip()[-600:]!r}")
            break  # the commands after it never ran
        if got["cpu"] > SECONDS:
            problems.append(f"{case.name} on {kind}: {got['cpu']:.1f} s of CPU")
        problem = _judge(case, got["code"], got["stderr"], got["wall"])
        if problem:
            problems.append(problem)
    return problems


@pytest.mark.parametrize("kind", KINDS)
def test_every_command_refuses_a_hostile_file_at_once(world: World, kind: str) -> None:
    assert _run_batch(world, kind) == []


@pytest.mark.parametrize("kind", KINDS)
def test_a_command_in_a_process_of_its_own_refuses_a_hostile_file(world: World,
                                                                   kind: str) -> None:
    """As ``solo-ops`` runs at the terminal, a process for the one command: by default one
    command a kind (a different reader each), with the full budget every command."""
    names = list(CASES)
    if not FULL:
        names = [names[(KINDS.index(kind) * 8 + 1) % len(names)]]
    with ThreadPoolExecutor(max_workers=2) as pool:
        problems = list(pool.map(lambda name: _run_case(world, name, kind), names))
    assert [p for p in problems if p] == []


def test_squad_import_of_dev_zero_says_what_it_is(tmp_path: Path) -> None:
    """It used to say "is 0 MB; at most 10 MB" (a device has no size)."""
    code, _out, err, _seconds = _solo_ops(["squad", "import", "/dev/zero", "--out",
                                           str(tmp_path / "q.yaml")], tmp_path)
    assert code == 2
    assert err == ("solo-ops: error: /dev/zero: is not a regular file (a pipe, a device...): "
                   "give a file\n")
    assert not (tmp_path / "q.yaml").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_what_a_file_is_and_the_kernels_note_are_read_through_the_opener(
        tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first bytes ``file_kind`` reads to tell a save from a scenario (issue #28) and
    ``solo-ops compile``'s note in the cache folder (issue #32) go through ``io.reading``: a
    pipe or a device is never waited on, a huge file never read whole; neither is an error
    (not a known kind; no kernels noted)."""
    from solo_ops.io import compiled
    from solo_ops.io.opening import file_kind

    big = tmp_path / "big.bin"
    with big.open("wb") as handle:
        handle.truncate(BIG)
    world = World(tmp_path, tmp_path / "g.json", tmp_path / "g.log.jsonl", tmp_path, big)
    path = tmp_path / "odd.json"
    _make(world, kind, path)
    monkeypatch.setenv("SOLO_OPS_CACHE", str(tmp_path / "cache"))
    note = compiled.marker()
    _make(world, kind, note)
    start = time.process_time()  # CPU: a busy machine does not stretch it
    assert file_kind(path) is None
    assert compiled.recorded() == []
    assert time.process_time() - start < 2.0
