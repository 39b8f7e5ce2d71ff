"""Hostile inputs across every command: how many crash, hang, answer 500 or lose a file.

How to run (from the repository root, the project's virtual environment active)::

    python bench/hostile_inputs.py              # the full sweep: over 5,000 hostile inputs
    python bench/hostile_inputs.py --quick      # a tenth of it, to try a change
    python bench/hostile_inputs.py --seed 7     # other draws

Four kinds of input, drawn with a fixed seed, each in a fresh copy of a small world (a
scenario, a game in progress with its log, a campaign with a mission recorded, a squad, a
roster, a BattleScribe roster, an answers file):

* **arguments** — every command but the two that serve (``serve`` and ``campaign serve`` are
  the HTTP part) and ``compile``, its options given hostile values: huge, negative, NaN and
  5,000-digit numbers, 300-character names, bytes that are not UTF-8, ``/proc`` and
  ``/dev/zero``, folders, the world's own saves, logs, campaign and scenario as outputs;
* **files** — the world's save, log, campaign, scenario, squad, roster, ``.ros`` and answers
  file mutated (a value swapped, bytes cut, flipped or added, the file emptied, made a folder
  or a link to ``/dev/zero``; some saves sealed again, as a forger with the source would) and
  read by every command that reads them;
* **answers** — lines of junk, half-right answers and meta words, 40 a run, typed into the
  game in progress (``play --resume --answers``) and, a few runs, a campaign's next mission;
* **requests** — HTTP requests to a served game and a served campaign (in this process, through
  the ASGI app): hostile Host headers, tokens, bodies, query values and answers.

Each command runs in this process through click's runner (no interpreter start-up per run),
timed in CPU (``time.process_time``). It prints how many inputs of each kind, then the four
counts the guide's limits section quotes: runs that ended in an internal error (exit 70, or an
exception escaping the command), runs over 10 s of CPU, HTTP 500 answers, and files lost (a
save, log, campaign or scenario of the world that loaded before a run and does not after it),
and lists each one. Exit status 1 when any count is not 0.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from solo_ops.cli import main  # noqa: E402
from solo_ops.core import seal  # noqa: E402
from solo_ops.io.event_log import EventLog  # noqa: E402
from solo_ops.io.persistence import read_json_document  # noqa: E402

CPU_LIMIT = 10.0
SCENARIOS = ROOT / "scenarios"
IMPORTS = next((p for p in (ROOT / "tests").rglob("vesper-2024.ros")), None)

NUMBERS = ["", "0", "-1", "-0", "1e999", "nan", "inf", "-inf", "9" * 5000, "9" * 40, "2.5",
           "0x10", "1_000", " 3", "3 ", "+4", "1/0", "٣", "99999999999999999999999"]
POINTS = ["1,2", "nan,nan", "1e308,1e308", "-1e308,5", "0,0", "1,2,3", ",", "1,", "x,y",
          "999999,999999", "inf,0", "1;2", "(1, 2)"]
NAMES = ["", " ", "x" * 300, "../../../../etc/passwd", "/proc/self/mem", "/proc/x.png",
         "/dev/zero", "/dev/null", "-", "--help", "C\udce9t\udcff", "e\udcff.yaml", "a\nb",
         "\x00", "con", ".hidden", "a/b/c", "ü" * 120, "%s%n", "${HOME}", "*", "~root"]


# -- the world ---------------------------------------------------------------------------------
def invoke(args: list[str], cwd: Path) -> Any:
    """One command in this process, in ``cwd``, with no input."""
    here = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, args, input="", catch_exceptions=True)
    finally:
        os.chdir(here)


def build_world(folder: Path) -> dict[str, Path]:
    """The small world every run starts from (relative paths; what is precious in it)."""
    folder.mkdir(parents=True)
    shutil.copy(SCENARIOS / "gallowdark-night-raid.yaml", folder / "scen.yaml")
    shutil.copy(SCENARIOS / "squads" / "vesper.yaml", folder / "squad.yaml")
    shutil.copy(next((SCENARIOS / "rosters").glob("*.yaml")), folder / "roster.yaml")
    shutil.copy(next((SCENARIOS / "boards").glob("*.yaml")), folder / "board.yaml")
    if IMPORTS is not None:
        shutil.copy(IMPORTS, folder / "team.ros")
    (folder / "answers.txt").write_text("kell\nstatus\n", encoding="utf-8")
    steps = ["kell", "move 3,10", "done"]
    run = invoke(["play", "scen.yaml", "--seed", "11", "--save", "game.json",
                  *[w for a in steps for w in ("--answer", a)]], folder)
    assert run.exit_code == 0, run.output
    run = invoke(["campaign", "new", "C", "--squad", "squad.yaml"], folder)
    assert run.exit_code == 0, run.output
    (folder / "result.yaml").write_text(yaml.safe_dump(
        {"mission": "Night raid", "outcome": "win", "models": [{"id": "kell", "wounds_lost": 2}]}),
        encoding="utf-8")
    run = invoke(["campaign", "survival", "C", "--mission-result", "result.yaml", "--seed", "3"],
                 folder)
    assert run.exit_code == 0, run.output
    return {"save": Path("game.json"), "log": Path("game.log.jsonl"),
            "campaign": Path("campaign_saves/C.json"), "scenario": Path("scen.yaml"),
            "squad": Path("squad.yaml"), "roster": Path("roster.yaml"),
            "board": Path("board.yaml"), "answers": Path("answers.txt"),
            **({"ros": Path("team.ros")} if IMPORTS is not None else {})}


def loads(kind: str, path: Path) -> bool:
    """Whether the world's file ``path`` of ``kind`` still reads as one (cheaply: a save by its
    seal, a log line by line, a scenario or squad as YAML)."""
    try:
        if kind in ("save", "campaign"):
            doc = read_json_document(path, "campaign" if kind == "campaign" else "save")
            return seal.SEAL_KEY not in doc or seal.problem(doc) is None
        if kind == "log":
            return bool(EventLog(path).read())
        return isinstance(yaml.safe_load(path.read_text(encoding="utf-8")), dict)
    except Exception:  # any failure to read is a lost file
        return False


PRECIOUS = ("save", "log", "campaign", "scenario")


@dataclass
class Tally:
    inputs: dict[str, int] = field(default_factory=lambda: {
        "arguments": 0, "files": 0, "answers": 0, "requests": 0})
    runs: int = 0
    crashes: list[str] = field(default_factory=list)
    slow: list[str] = field(default_factory=list)
    http_500: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")
    exits: dict[int, int] = field(default_factory=dict)
    statuses: dict[int, int] = field(default_factory=dict)


def run_case(tally: Tally, world: Path, files: dict[str, Path], args: list[str],
             kind: str, count: int = 1, prepare: Callable[[Path], None] | None = None,
             skip: tuple[str, ...] = ()) -> None:
    """Run ``args`` in a fresh copy of the world (``prepare`` changes it first) and count it."""
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        here = Path(tmp) / "w"
        shutil.copytree(world, here, symlinks=True)
        if prepare is not None:
            prepare(here)
        before = {k: loads(k, here / files[k]) for k in PRECIOUS if k not in skip}
        start = time.process_time()
        result = invoke(args, here)
        spent = time.process_time() - start
        label = " ".join(a if len(a) < 40 else a[:37] + "..." for a in args)
        label = label.encode("utf-8", "backslashreplace").decode("utf-8")
        tally.runs += 1
        tally.inputs[kind] += count
        tally.exits[result.exit_code] = tally.exits.get(result.exit_code, 0) + 1
        escaped = result.exception is not None and not isinstance(result.exception, SystemExit)
        if result.exit_code == 70 or escaped:
            last = (result.output.strip().splitlines() or [repr(result.exception)])[-1]
            tally.crashes.append(f"{label}: {last[:160]}")
        if spent > CPU_LIMIT:
            tally.slow.append(f"{label}: {spent:.1f} s")
        if spent > tally.slowest[0]:
            tally.slowest = (spent, label)
        for k, was in before.items():
            if was and not loads(k, here / files[k]):
                tally.lost.append(f"{label}: {files[k]} ({k})")


# -- arguments ---------------------------------------------------------------------------------
def commands(files: dict[str, Path]) -> list[list[str | None]]:
    """Every command's argument list; ``None`` marks a place for a hostile value."""
    save, scen, camp = str(files["save"]), str(files["scenario"]), "C"
    board = str(files["board"])
    return [
        ["orders", "roll", "--type", None, "--leadership", None, "--seed", None],
        ["orders", "unit", "--roster", None, "--models", None],
        ["tables", "show", None],
        ["geom", "los", board, "--from", None, "--to", None],
        ["geom", "distance", board, "--from", None, "--to", None, "--base-mm", None],
        ["geom", "cover", board, "--attacker", None, "--target", None, "--edition", None],
        ["board", "check", None],
        ["board", "show", None, "--out", None],
        ["fog", "seed", None, "--engagement", None, "--seed", None],
        ["ai", "plan", scen, "--unit", None, "--seed", None],
        ["combat", "shoot", "--attacks", None, "--hit", None, "--damage", None, "--rule", None],
        ["combat", "fight", "--attacks", None, "--hit", None, "--damage", None],
        ["new", "--board", None, "--engagement", None, "--seed", None, "--out", None],
        ["new", "--roster", None, "--squad", None, "--out", None, "--picture", None],
        ["new", "--edition", None, "--mission", None, "--crit-op", None, "--out", None],
        ["play", None, "--seed", None, "--answer", "status"],
        ["play", scen, "--save", None, "--answer", None],
        ["play", "--resume", None, "--answer", None],
        ["play", "--resume", save, "--units", None, "--answer", None],
        ["replay", None],
        ["replay", "game.log.jsonl", "--save", None],
        ["map", None, "--out", None],
        ["map", save, "--out", None],
        ["campaign", "new", None, "--squad", None],
        ["campaign", "show", None, "--saves", None],
        ["campaign", "survival", camp, "--mission-result", None, "--seed", None],
        ["campaign", "replace", camp, "--player", None, "--model", None, "--with", None],
        ["campaign", "play", None, "--answer", "quit"],
        ["squad", "import", None, "--out", None],
        ["squad", "import", str(files.get("ros", "x.ros")), "--player", None, "--out", None],
        ["roster", "import", None, "--table", None, "--out", None],
        ["list", None],
        ["rate", None, "--missions", None],
        ["rate", scen, "--missions", "1", "--engagement", None, "--picture", None],
        ["rate", "--sweep", None, "--out", None],
    ]


def hostile_value(rng: random.Random, files: dict[str, Path]) -> str:
    pool = rng.choice([NUMBERS, POINTS, NAMES, [str(p) for p in files.values()],
                       ["saves", "campaign_saves", ".", "game.json.bak", "nowhere.yaml",
                        "loop.yaml", "zero.yaml"]])
    return rng.choice(pool)


def safe(args: list[str]) -> bool:
    """Whether the drawn arguments ask for work a player may ask for on purpose (a thousand
    missions to rate): left out, since their time is the answer, not a hang."""
    if "rate" in args[:1] and "--missions" in args:
        value = args[args.index("--missions") + 1]
        if value.isdigit() and int(value) > 2:
            return False
    return "--force" not in args and "--difficulty" not in args


def plant(here: Path) -> None:
    """Links a hostile argument may name: a loop and /dev/zero."""
    for name, target in (("loop.yaml", "loop.yaml"), ("zero.yaml", "/dev/zero")):
        link = here / name
        if not os.path.lexists(link):
            os.symlink(target, link)


def sweep_arguments(tally: Tally, world: Path, files: dict[str, Path], rng: random.Random,
                    runs: int) -> None:
    table = commands(files)
    done = 0
    while done < runs:
        template = rng.choice(table)
        args = [hostile_value(rng, files) if a is None else a for a in template]
        if not safe(args):
            continue
        holes = sum(a is None for a in template)
        run_case(tally, world, files, args, "arguments", count=holes, prepare=plant)
        done += 1


# -- files -------------------------------------------------------------------------------------
def mutate_text(text: str, rng: random.Random) -> str:
    """One structural or byte-level change to a document's text."""
    kind = rng.randrange(6)
    if kind == 0 and len(text) > 10:
        return text[: rng.randrange(len(text))]
    if kind == 1 and text:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(["\x00", "\udcff", "{", "]", "\n", "9" * 400, "'"]) + \
            text[i + 1:]
    if kind == 2:
        return text + rng.choice(["\n{", "\ngarbage: [", "\n" + "- x\n" * 1000, "\x00"])
    return text


def swap_value(data: Any, rng: random.Random) -> Any:
    """The document with one value replaced by a hostile one."""
    paths: list[tuple[Any, ...]] = []

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, (*path, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, (*path, i))

    walk(data, ())
    path = rng.choice(paths[1:] or paths)
    value = rng.choice([None, True, -1, 0, 99, 10**12, 2.5, "", "x" * 5000, [], {}, [1e308, 5],
                        {"a": [1, {"b": 2}]}, "fallen", "active", "kell", 10**40])
    if not path:
        return value
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def mutant(kind: str, original: bytes, rng: random.Random) -> bytes | str:
    """A hostile version of a world file: bytes, or a special ``@dir``/``@zero``/``@empty``."""
    roll = rng.random()
    if roll < 0.08:
        return rng.choice(["@dir", "@zero", "@empty"])
    if roll < 0.12:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
    text = original.decode("utf-8")
    if roll < 0.55 and kind in ("save", "campaign", "log"):
        if kind == "log":
            lines = text.splitlines()
            i = rng.randrange(len(lines))
            lines[i] = json.dumps(swap_value(json.loads(lines[i]), rng))
            return ("\n".join(lines) + "\n").encode()
        doc = swap_value(json.loads(text), rng)
        if isinstance(doc, dict) and rng.random() < 0.3 and seal.SEAL_KEY in doc:
            depth = json.loads(text)[seal.SEAL_KEY]["depth"]
            seal.sealed(doc, depth)  # a forger with the source code
        return json.dumps(doc).encode("utf-8", "surrogatepass")
    if roll < 0.55 and kind in ("scenario", "squad", "roster", "board"):
        doc = swap_value(yaml.safe_load(text), rng)
        return yaml.safe_dump(doc).encode()
    return mutate_text(text, rng).encode("utf-8", "surrogateescape")


def readers(kind: str, files: dict[str, Path]) -> list[list[str]]:
    """The commands that read a file of ``kind`` (the world's own path for it)."""
    f = str(files[kind])
    return {
        "save": [["play", "--resume", f, "--answer", "status"], ["map", f, "--out", "m.png"],
                 ["replay", "game.log.jsonl"], ["serve-check", f]],
        "log": [["replay", f], ["play", "--resume", "game.json", "--answer", "status"]],
        "campaign": [["campaign", "show", "C"], ["campaign", "show", "C", "--json"],
                     ["campaign", "survival", "C"],
                     ["campaign", "replace", "C", "--player", "Ana", "--model", "kell",
                      "--with", "squad.yaml"]],
        "scenario": [["play", f, "--answer", "status"], ["fog", "seed", f],
                     ["ai", "plan", f, "--unit", "x"], ["rate", f, "--missions", "1"]],
        "squad": [["campaign", "new", "D", "--squad", f], ["new", "--squad", f, "--out",
                                                             "n.yaml"]],
        "roster": [["orders", "unit", "--roster", f], ["new", "--roster", f, "--out", "n.yaml"]],
        "board": [["board", "check", f], ["board", "show", f, "--out", "b.svg"],
                  ["geom", "los", f, "--from", "1,1", "--to", "5,5"]],
        "answers": [["play", "--resume", "game.json", "--answers", f]],
        "ros": [["squad", "import", f, "--out", "t.yaml"], ["roster", "import", f, "--out",
                                                             "r.yaml"]],
    }[kind]


def sweep_files(tally: Tally, world: Path, files: dict[str, Path], rng: random.Random,
                runs: int) -> None:
    kinds = list(files)
    for _ in range(runs):
        kind = rng.choice(kinds)
        original = (world / files[kind]).read_bytes()
        bad = mutant(kind, original, rng)
        args = rng.choice(readers(kind, files))
        if args[0] == "serve-check":  # what serve reads first: the same opening as play
            args = ["play", "--resume", args[1], "--answer", "quit"]

        def prepare(here: Path, kind: str = kind, bad: bytes | str = bad) -> None:
            target = here / files[kind]
            target.unlink()
            if bad == "@dir":
                target.mkdir()
            elif bad == "@zero":
                os.symlink("/dev/zero", target)
            elif bad == "@empty":
                target.write_bytes(b"")
            else:
                assert isinstance(bad, bytes)
                target.write_bytes(bad)

        run_case(tally, world, files, args, "files", prepare=prepare, skip=(kind,))


# -- answers -----------------------------------------------------------------------------------
def answer_line(rng: random.Random) -> str:
    verbs = ["move", "dash", "charge", "fallback", "shoot", "fight", "done", "ready", "carry",
             "pickup", "placedown", "guard", "overwatch", "reroll", "strike", "block", "auto",
             "open", "close", "conceal", "engage", "yes", "no", "status", "help", "undo",
             "save", "map", "kell", "rask", "vale", "oro", "cover", "keep", "roll", "pass"]
    words = [rng.choice(verbs)]
    for _ in range(rng.randrange(4)):
        words.append(rng.choice([*verbs, *POINTS, *NUMBERS, "toward", "to", "behind",
                                 "obj-1", "c1", "hatch-1", "x" * 200, "9" * 500, "🙂",
                                 "/proc/x.png", "a" * 300 + ".png", "m.png", '10"', "4cm"]))
    return " ".join(words)


def sweep_answers(tally: Tally, world: Path, files: dict[str, Path], rng: random.Random,
                  runs: int, per_run: int) -> None:
    for i in range(runs):
        lines = [answer_line(rng) for _ in range(per_run)]

        def prepare(here: Path, lines: list[str] = lines) -> None:
            (here / "junk.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")

        if i % 10 == 9:  # a campaign's next mission: generated, set up, then the junk
            args = ["campaign", "play", "C", "--seed", str(i), "--answers", "junk.txt"]
            lines.insert(0, "ready")
        else:
            args = ["play", "--resume", "game.json", "--answers", "junk.txt"]
        run_case(tally, world, files, args, "answers", count=len(lines), prepare=prepare)


# -- requests ----------------------------------------------------------------------------------
HOSTS = ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "[::1]evil.example:8765",
         "[::1].evil", "[::1", "localhost:80@evil.com", "127.0.0.1:abc", "localhost:8765/evil",
         "evil.com", "", "127.0.0.1:8766", "192.168.1.20:8765", "LOCALHOST:8765", "127.1:8765",
         "localhost.:8765", "x" * 300, "127.0.0.1:99999", "\u0130ocalhost"]


def request_parts(rng: random.Random, players: list[str], tokens: list[str]
                  ) -> tuple[str, str, dict[str, str], dict[str, str], Any]:
    """One hostile request: method, path, query, headers and body."""
    method, path = rng.choice([("GET", "/api/view"), ("GET", "/api/players"),
                               ("POST", "/api/answer"), ("GET", "/api/place"),
                               ("GET", "/board.svg"), ("GET", "/board.png"), ("GET", "/"),
                               ("GET", "/static/" + rng.choice(["app.js", "x", "../x", "%00"])),
                               ("PUT", "/api/answer"), ("GET", "/api/answer"),
                               ("GET", "/api/campaign"), ("POST", "/api/campaign"),
                               ("GET", "/api/campaign/picture.svg"), ("GET", "/nope")])
    pick = [*players, *NAMES[:8], "host", "Ana"]
    query = {k: v for k, v in {
        "player": rng.choice(pick), "since": rng.choice(NUMBERS), "x": rng.choice(NUMBERS),
        "y": rng.choice(NUMBERS),
        "how": rng.choice(["move", "dash", "advance", "fallback", "fall_back", "charge",
                           "normal", "reposition", "x", ""]),
        "token": rng.choice(tokens) if rng.random() < 0.8 else rng.choice(["", "x" * 100,
                                                                           "bad"]),
        "what": rng.choice(["setup", "map", "x", ""])}.items()
        if k == "token" or rng.random() < 0.7}
    headers = {"host": rng.choice(HOSTS) if rng.random() < 0.25 else "127.0.0.1:8765"}
    if rng.random() < 0.2:
        headers["content-type"] = rng.choice(["text/plain", "application/json", "x/y"])
    body: Any = None
    if method == "POST":
        body = rng.choice([
            {"player": rng.choice(pick), "answer": answer_line(rng),
             "step": rng.choice([None, 0, 1, -1, 10**20, "x", 2.5])},
            {"player": rng.choice(pick), "do": rng.choice(["ready", "record", "next",
                                                            "recruit", "x", ""]),
             "fallen": "kell", "id": rng.choice(NAMES), "name": rng.choice(NAMES)},
            [1, 2], "x", {"a": {"b": {"c": {"d": 1}}}}, {"answer": "\u2028status"},
            {"answer": "x" * 5000}, {"player": None, "answer": None}, {}])
    return method, path, query, headers, body


def sweep_requests(tally: Tally, world: Path, rng: random.Random, count: int) -> None:
    import warnings

    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient

    from solo_ops.cli.campaign_serve import Desk
    from solo_ops.io.opening import plan
    from solo_ops.session.opening import open_table
    from solo_ops.web.app import create_app
    from solo_ops.web.campaign import ROUTES

    with tempfile.TemporaryDirectory(prefix="hostile-web-") as tmp:
        here = Path(tmp) / "w"
        shutil.copytree(world, here, symlinks=True)
        table, _doc = open_table(plan(None, here / "game.json", None, None, False,
                                      command="serve"))
        table.advance()
        table.ensure_links()
        desk = Desk(here / "campaign_saves" / "C.json", "C", {"seed": 5})
        desk.ensure_links(())
        desk.open()
        apps = [(create_app(table, local_only=False, hosts=["192.168.1.20"], port=8765),
                 table.players, [table.game.links["host"],
                                 *table.game.links["players"].values()]),
                (create_app(None, local_only=True, desk=desk, extra=ROUTES, port=8765),
                 desk.players, [desk.links["host"], *desk.links["players"].values()])]
        try:
            for i in range(count):
                app, players, tokens = apps[i % 2]
                method, path, query, headers, body = request_parts(rng, players, tokens)
                client = TestClient(app, base_url="http://127.0.0.1:8765",
                                    raise_server_exceptions=False)
                start = time.process_time()
                content = None if body is None else json.dumps(body)
                raw = {k: v.encode("utf-8", "surrogateescape") for k, v in headers.items()}
                response = client.request(method, path, params=query, headers=raw,
                                          content=content)
                spent = time.process_time() - start
                tally.inputs["requests"] += 1
                code = response.status_code
                tally.statuses[code] = tally.statuses.get(code, 0) + 1
                label = f"{method} {path} {query} host={headers['host'][:30]!r}"
                if response.status_code >= 500 and response.status_code != 503:
                    tally.http_500.append(f"{label}: {response.status_code} "
                                          f"{response.text[:120]}")
                if spent > CPU_LIMIT:
                    tally.slow.append(f"{label}: {spent:.1f} s")
        finally:
            desk.close()


# -- the sweep ---------------------------------------------------------------------------------
def main_sweep(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the sweep")
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args(argv)
    share = 10 if args.quick else 1
    rng = random.Random(args.seed)
    os.environ.setdefault("SOLO_OPS_JIT", "0")
    started = time.process_time()
    with tempfile.TemporaryDirectory(prefix="hostile-world-") as tmp:
        world = Path(tmp) / "world"
        files = build_world(world)
        tally = Tally()
        sweep_arguments(tally, world, files, rng, 900 // share)
        sweep_files(tally, world, files, rng, 900 // share)
        sweep_answers(tally, world, files, rng, 40 // share, 40)
        sweep_requests(tally, world, rng, 1600 // share)
    total = sum(tally.inputs.values())
    print(f"hostile inputs: {total:,} ({', '.join(f'{k} {v:,}' for k, v in tally.inputs.items())})"
          f" in {tally.runs:,} command runs and {tally.inputs['requests']:,} requests; "
          f"{time.process_time() - started:.0f} s of CPU in all")
    print(f"exit 70: {len(tally.crashes)}   runs over {CPU_LIMIT:g} s of CPU: {len(tally.slow)} "
          f"(the slowest run {tally.slowest[0]:.1f} s: {tally.slowest[1][:80]})   "
          f"HTTP 500: {len(tally.http_500)}   files lost: {len(tally.lost)}")
    print("exit statuses of the runs: " + ", ".join(
        f"{k}: {v}" for k, v in sorted(tally.exits.items())) + "; HTTP statuses: " + ", ".join(
        f"{k}: {v}" for k, v in sorted(tally.statuses.items())))
    for title, found in (("exit 70", tally.crashes), ("over 10 s", tally.slow),
                         ("HTTP 500", tally.http_500), ("lost", tally.lost)):
        for line in found[:20]:
            print(f"  {title}: {line}")
    bad = tally.crashes or tally.slow or tally.http_500 or tally.lost
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main_sweep())
