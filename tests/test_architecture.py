"""The package's shape: the import graph of solo_ops has no cycles and keeps its layers.

Every module under ``solo_ops`` is parsed with :mod:`ast` (imports inside functions count: they
still tie the modules together, they only hide it); imports under ``if TYPE_CHECKING:`` do not
count, because they never run and exist only so a type checker can name a class. The graph's
nodes are solo_ops modules (a package's ``__init__`` is the package's name); an edge ``a -> b``
means ``a`` imports ``b``. ``from solo_ops.game import fog`` is an edge to ``solo_ops.game.fog``,
not to the package ``solo_ops.game``.

The layers (issue #15): ``core`` imports nothing else of solo_ops; ``geometry`` only ``core``;
``rules`` only ``core`` and ``geometry``; nothing outside ``cli`` and ``web`` imports ``cli`` or
``web``; ``view`` never imports ``cli``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

from tests.conftest import ROOT

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


def _is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` tests ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``)."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement in a tree, at any depth, except under ``if TYPE_CHECKING:``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)  # the else branch does run
            continue
        stack.extend(ast.iter_child_nodes(node))


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The longest solo_ops module a dotted name lies in (None outside solo_ops)."""
    parts = name.split(".")
    if parts[0] != "solo_ops":
        return None
    while parts and ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts) or None


def import_graph() -> nx.DiGraph:
    """The graph of solo_ops modules: an edge for each module that one imports."""
    modules = _modules()
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
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
    return graph


def _layer(module: str) -> str:
    """The sub-package a module belongs to (``core``, ``game``, ...; ``''`` for the top)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


ENTRY_POINT = "solo_ops.__main__"  # ``python -m solo_ops``: the command line is its whole job


def _layer_violations(graph: nx.DiGraph) -> list[str]:
    """Each edge that breaks a layering rule, with the rule it breaks."""
    allowed = {
        "core": {"core"},
        "geometry": {"core", "geometry"},
        "rules": {"core", "geometry", "rules"},
    }
    bad: list[str] = []
    for source, target in sorted(graph.edges):
        src, dst = _layer(source), _layer(target)
        if src in allowed and dst not in allowed[src]:
            bad.append(f"{source} -> {target} ({src} may import only {sorted(allowed[src])})")
        elif dst in ("cli", "web") and src not in ("cli", "web") and source != ENTRY_POINT:
            bad.append(f"{source} -> {target} (only cli and web may import {dst})")
        elif src == "view" and dst == "cli":
            bad.append(f"{source} -> {target} (view never imports cli)")
    return bad


def test_graph_sees_the_package() -> None:
    """The graph holds every module and the imports one knows are there (the parser works)."""
    graph = import_graph()
    assert set(graph.nodes) == set(_modules())
    assert graph.has_edge("solo_ops.game.engine", "solo_ops.game.state")
    assert graph.has_edge("solo_ops.geometry.terrain", "solo_ops.geometry.sight")  # in a function
    assert graph.has_edge("solo_ops.cli", "solo_ops.cli.common")
    assert graph.number_of_edges() > 150


def test_type_checking_imports_do_not_count() -> None:
    """An import under ``if TYPE_CHECKING:`` is not an edge; one in its else branch is."""
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from solo_ops.game.engine import Game\n"
        "else:\n    import solo_ops.core.dice\n"
        "def f():\n    from solo_ops.game import fog\n"
    )
    found = [ast.unparse(node) for node in _import_nodes(tree)]
    assert sorted(found) == sorted(
        [
            "from typing import TYPE_CHECKING",
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
        ]
    )
    bad = _layer_violations(graph)
    assert len(bad) == 3
    assert bad[0].startswith("solo_ops.core.dice -> solo_ops.game.state")


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
    """core < geometry < rules; only cli/web import cli or web; view never imports cli — with
    no exception (core reads its own tables through core.documents and core.fields)."""
    bad = _layer_violations(import_graph())
    assert not bad, "imports across the layers:\n  " + "\n  ".join(bad)


def test_every_slow_test_named_in_conftest_exists() -> None:
    """A renamed test would silently lose its ``slow`` marker: each name must be a test."""
    from tests.conftest import SLOW

    missing = []
    for rel, names in SLOW.items():
        tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        missing += [f"{rel}::{name}" for name in sorted(names - defined)]
    assert not missing, "named slow in tests/conftest.py but not defined: " + ", ".join(missing)
