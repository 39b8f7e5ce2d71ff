"""The package's shape: the import graph of solo_ops has no cycles, keeps its layers, and every
room is small enough to find one's way in.

Every module under ``solo_ops`` is parsed with :mod:`ast`. Every import counts, at any depth:
imports inside functions (they still tie the modules together, they only hide it) and imports
under ``if TYPE_CHECKING:`` (they never run, but a reader and the type checker follow them, so a
circle through them is still a circle: issue #26). The graph's nodes are solo_ops modules (a
package's ``__init__`` is the package's name); an edge ``a -> b`` means ``a`` imports ``b``.
``from solo_ops.game import fog`` is an edge to ``solo_ops.game.fog``, not to the package
``solo_ops.game``.

The layers, lowest first (issues #15 and #26): ``core`` < ``geometry`` < ``rules`` < ``ai`` <
``game`` < ``io`` < ``view`` < ``session`` < ``sim``, ``campaign`` < ``web`` < ``cli``. A module
imports only its own layer and the layers below it (``sim`` and ``campaign`` stand side by side
and import neither each other), with the named exceptions in :data:`UPWARD`.

The rooms (issue #26): no module over :data:`FILE_LIMIT` lines and no function over
:data:`FUNCTION_LIMIT` lines, but for the named exceptions in :data:`LONG`, each with why; and
every module is named in ``docs/architecture.md``.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

from tests.support.paths import ROOT
from tests.support.sources import parsed

PACKAGE = ROOT / "solo_ops"


def _modules() -> dict[str, Path]:
    """Every solo_ops module by dotted name (packages by their own name)."""
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement in a tree, at any depth (``if TYPE_CHECKING:`` blocks included)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The longest solo_ops module a dotted name lies in (None outside solo_ops)."""
    parts = name.split(".")
    if parts[0] != "solo_ops":
        return None
    while parts and ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts) or None


@functools.cache
def import_graph() -> nx.DiGraph:
    """The graph of solo_ops modules: an edge for each module that one imports. Built once in
    a process and frozen (``nx.freeze``: an edge added by mistake raises), as the four tests
    that read it only read it."""
    modules = _modules()
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _import_nodes(parsed(path)):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [_resolve(alias.name, modules) for alias in node.names]
            else:
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    targets.append(sub if sub in modules else _resolve(source, modules))
            for target in targets:
                if target and target != name:
                    graph.add_edge(name, target)
    return nx.freeze(graph)


def _layer(module: str) -> str:
    """The sub-package a module belongs to (``core``, ``game``, ...; ``''`` for the top)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


RANK = {"": 0, "core": 0, "geometry": 1, "rules": 2, "ai": 3, "game": 4, "io": 5, "view": 6,
        "session": 7, "sim": 8, "campaign": 8, "web": 9, "cli": 10, "__main__": 11}
"""Each layer's height: a module imports only modules of its own layer or of lower ones. The
package itself (``solo_ops``: its version) stands with ``core``."""

UPWARD = {
    ("ai", "solo_ops.game.state"): "the AI reads the playthrough state it plans for (positions, "
    "wounds, units, orders: plain dataclasses); it never imports the game's logic, and the "
    "game applies what the AI proposes",
}
"""The edges allowed to point up a layer: (source layer, target module) → why."""


def _layer_violations(graph: nx.DiGraph) -> list[str]:
    """Each edge that breaks a layering rule, with the rule it breaks."""
    bad: list[str] = []
    for source, target in sorted(graph.edges):
        src, dst = _layer(source), _layer(target)
        if src == dst or (src, target) in UPWARD:
            continue
        if RANK[dst] >= RANK[src]:
            below = sorted(k for k, v in RANK.items() if k and v < RANK[src])
            bad.append(f"{source} -> {target} ({src or 'solo_ops'} may import only itself and "
                       f"{below})")
    return bad


def test_graph_sees_the_package() -> None:
    """The graph holds every module and the imports one knows are there (the parser works)."""
    graph = import_graph()
    assert set(graph.nodes) == set(_modules())
    assert graph.has_edge("solo_ops.game.engine", "solo_ops.game.state")
    assert graph.has_edge("solo_ops.geometry.terrain", "solo_ops.geometry.sight")  # in a function
    assert graph.has_edge("solo_ops.cli", "solo_ops.cli.common")
    assert graph.number_of_edges() > 150


def test_type_checking_imports_count() -> None:
    """An import under ``if TYPE_CHECKING:`` is an edge (a circle for the type checker and the
    reader is a circle), as is one in its else branch or inside a function."""
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from solo_ops.game.definition import Game\n"
        "else:\n    import solo_ops.core.dice\n"
        "def f():\n    from solo_ops.game import fog\n"
    )
    found = [ast.unparse(node) for node in _import_nodes(tree)]
    assert sorted(found) == sorted(
        [
            "from typing import TYPE_CHECKING",
            "from solo_ops.game.definition import Game",
            "import solo_ops.core.dice",
            "from solo_ops.game import fog",
        ]
    )


def test_layer_check_names_a_bad_edge() -> None:
    """The layering check catches a forbidden edge (so a pass below means something)."""
    graph = nx.DiGraph(
        [
            ("solo_ops.core.dice", "solo_ops.game.state"),
            ("solo_ops.view.render", "solo_ops.cli.play"),
            ("solo_ops.game.fog", "solo_ops.web.app"),
            ("solo_ops.rules.reach", "solo_ops.geometry.board"),
            ("solo_ops.io.table", "solo_ops.view.player"),
            ("solo_ops.sim.rating", "solo_ops.campaign.model"),
            ("solo_ops.ai.planner", "solo_ops.game.state"),
            ("solo_ops.ai.planner", "solo_ops.game.engine"),
            ("solo_ops.session.table", "solo_ops.view.player"),
        ]
    )
    bad = _layer_violations(graph)
    assert [line.split(" (")[0] for line in bad] == [
        "solo_ops.ai.planner -> solo_ops.game.engine",
        "solo_ops.core.dice -> solo_ops.game.state",
        "solo_ops.game.fog -> solo_ops.web.app",
        "solo_ops.io.table -> solo_ops.view.player",
        "solo_ops.sim.rating -> solo_ops.campaign.model",
        "solo_ops.view.render -> solo_ops.cli.play",
    ]


def test_no_import_cycles() -> None:
    """No group of solo_ops modules imports itself round (the core is never imported back)."""
    graph = import_graph()
    groups = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    messages = []
    for group in sorted(groups):
        edges = sorted(graph.subgraph(group).edges)
        messages.append(
            ", ".join(group) + "\n    " + "\n    ".join(f"{a} -> {b}" for a, b in edges)
        )
    assert not groups, "import cycles:\n  " + "\n  ".join(messages)


def test_layers() -> None:
    """core < geometry < rules < ai < game < io < view < session < sim, campaign < web < cli,
    with no exception but :data:`UPWARD`'s."""
    bad = _layer_violations(import_graph())
    assert not bad, "imports across the layers:\n  " + "\n  ".join(bad)


def test_every_upward_exception_is_used() -> None:
    """A named exception that no import needs any more is deleted, not kept "just in case"."""
    graph = import_graph()
    used = {(_layer(a), b) for a, b in graph.edges}
    assert set(UPWARD) <= used, set(UPWARD) - used


FILE_LIMIT = 700
FUNCTION_LIMIT = 80
LONG: dict[str, str] = {}
"""Functions allowed past :data:`FUNCTION_LIMIT` (``path::name``) → why. Empty: none needs it."""


@functools.cache
def _long_functions() -> tuple[tuple[str, int], ...]:
    """``(path::name, lines)`` of every function of the package longer than the limit (walked
    once in a process)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > FUNCTION_LIMIT:
                    rel = path.relative_to(ROOT).as_posix()
                    found.append((f"{rel}::{node.name}", lines))
    return tuple(found)


def test_no_module_is_a_warehouse() -> None:
    """No module of the package is over :data:`FILE_LIMIT` lines: a newcomer finds a rule in a
    room named for it. (None needs an exception; one would be named here and in
    docs/architecture.md with why.)"""
    big = {path.relative_to(ROOT).as_posix(): n for path in sorted(PACKAGE.rglob("*.py"))
           if (n := len(path.read_text(encoding="utf-8").splitlines())) > FILE_LIMIT}
    assert not big, f"modules over {FILE_LIMIT} lines: {big}"


def test_no_function_is_a_chapter() -> None:
    """No function is over :data:`FUNCTION_LIMIT` lines, but the named exceptions (issue #26)."""
    long = {name: n for name, n in _long_functions() if name not in LONG}
    assert not long, f"functions over {FUNCTION_LIMIT} lines: {long}"
    stale = set(LONG) - {name for name, _ in _long_functions()}
    assert not stale, f"named long but no longer long (delete the exception): {stale}"


def test_every_module_is_in_the_architecture_document() -> None:
    """``docs/architecture.md`` names every module of the package (as ``package.module``, the
    way its tables do), so the document cannot fall behind the code (issue #26)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = []
    for name in _modules():
        short = name.removeprefix("solo_ops.")
        if name == "solo_ops" or short == "__main__":
            continue
        if f"`{short}`" not in text and f"`{short}/`" not in text:
            missing.append(short)
    assert not missing, "modules missing from docs/architecture.md: " + ", ".join(missing)


def test_every_slow_test_named_in_conftest_exists() -> None:
    """A renamed test would silently lose its ``slow`` marker: each name must be a test."""
    from tests.conftest import FULL_ONLY, SAME_AT_EVERY_BUDGET, SLOW

    missing = []
    for rel, names in [*SLOW.items(), *FULL_ONLY.items(), *SAME_AT_EVERY_BUDGET.items()]:
        tree = parsed(ROOT / rel)
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        missing += [f"{rel}::{name}" for name in sorted(names - defined)]
    assert not missing, "named slow in tests/conftest.py but not defined: " + ", ".join(missing)


def test_tests_left_out_of_the_full_budget_pass_cannot_read_the_budget() -> None:
    """CI's full-budget slow pass leaves out the tests of ``SAME_AT_EVERY_BUDGET`` (the README's
    command ran them the same): none of their files may import tests/support/budget.py, or a
    budget added to one of them later would never be run in full."""
    from tests.conftest import SAME_AT_EVERY_BUDGET

    readers = [rel for rel in SAME_AT_EVERY_BUDGET
               if "tests.support.budget" in (ROOT / rel).read_text(encoding="utf-8")]
    assert not readers, "read the test budget but are left out of the full pass: " + \
        ", ".join(readers)


# -- the tests mirror the package ------------------------------------------------------------------
TESTS = ROOT / "tests"
# Folders of tests/ that are not a room of the package: whole games and browsers, whole-repo
# checks, and what the tests share (oracles, fixtures, small boards).
NOT_ROOMS = {"e2e": "whole games and browsers through the real command",
             "project": "whole-repository checks: layers, rooms, documents",
             "support": "shared oracles, fixtures and small boards (no tests)"}


def _rooms() -> set[str]:
    """The package's rooms: its sub-packages."""
    return {p.parent.name for p in PACKAGE.glob("*/__init__.py")}


def test_tests_mirror_the_package() -> None:
    """Each room of ``solo_ops`` has its folder of tests, and every folder of tests is a room
    (or one of :data:`NOT_ROOMS`); no test sits at the top of ``tests/``, and ``support/``
    holds no tests."""
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert _rooms() - folders == set(), "rooms without a folder of tests"
    assert folders - _rooms() - set(NOT_ROOMS) == set(), "folders of tests that are no room"
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == [], "tests at the top of tests/"
    assert sorted(p.name for p in (TESTS / "support").rglob("test_*.py")) == []
    for folder in folders:
        assert (TESTS / folder / "__init__.py").is_file(), f"tests/{folder} is not a package"


def test_no_test_file_is_named_after_an_issue_or_a_pass() -> None:
    """A test file is named by the behaviour it pins (``test_routes_around_walls.py``), never by
    the issue or the pass that wrote it (``test_issue27.py``, ``test_sight13.py``); an edition's
    name (``kt2018``) is no number."""
    named = sorted(str(p.relative_to(TESTS)) for p in TESTS.rglob("test_*.py")
                   if re.search(r"issue|\d", re.sub(r"kt20(18|24)", "", p.stem)))
    assert named == []
