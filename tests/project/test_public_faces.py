"""Tests and bench scripts use the package's public faces: no test or bench file references a
private (``_``-prefixed) name of a solo_ops module.

A private name is the module's own business: its owner may rename, move or fold it without
telling anyone, and a test that reached into it breaks for a change it should not care about (a
re-export block of private names "for the tests" is the symptom). A room exposes what its tests
need as a public, documented function instead (``docs/architecture.md``, "Tests and public
faces").

Every ``.py`` file under ``tests/`` (``tests/support/`` included) and ``bench/`` is parsed with
:mod:`ast`; a reference is any of:

* an import of a private name from solo_ops: ``from solo_ops.ai.planner import _pick``;
* an attribute ``x._y`` where ``x`` is a solo_ops module or a name imported from one
  (``routes._measure`` after ``from solo_ops.geometry import routes``, ``Sight._cut_off``);
* an attribute ``x._y`` on any other object (an instance: ``terrain.routes._walker``) where
  ``_y`` is a private name the package defines (a function, class, constant, class attribute or
  ``self._y`` attribute); ``self._y`` and ``cls._y`` are a test's own class's business;
* a private name of the package given as a string to a call (``getattr(x, "_y")``,
  ``monkeypatch.setattr(fog, "_cluster", ...)``, a test's own patching helper), or any private
  name given to ``getattr``/``setattr``/``hasattr``/``delattr``/``patch.object`` on a solo_ops
  module or a name imported from one;
* a dotted solo_ops path with a private part in a string: ``"solo_ops.ai.planner._pick"``.

Dunder names (``__init__``) are nobody's secret and never count.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from tests.support.paths import ROOT
from tests.support.sources import parsed

PACKAGE = ROOT / "solo_ops"
SCANNED = ("tests", "bench")

ALLOWED: dict[tuple[str, str], str] = {}
"""``(file, private name)`` → why that file must reach that private name. Empty: none needs it."""

PENDING: dict[str, str] = {}
"""Files whose references wait for another branch's rewrite of the code they reach into, each
with why; to be emptied, not grown (:func:`test_every_pending_file_still_waits`)."""

_STRING_FUNCTIONS = {"getattr", "setattr", "hasattr", "delattr", "object"}
"""Calls whose second positional argument names an attribute of the first (``patch.object``,
``monkeypatch.setattr`` and ``monkeypatch.delattr`` end in these names too)."""
_DOTTED = re.compile(r"\bsolo_ops(?:\.\w+)+")


def _private(name: str) -> bool:
    """Whether a name is private: a leading underscore, not a dunder, not the bare ``_``."""
    return name.startswith("_") and not name.startswith("__") and name != "_"


def _package_private_names() -> set[str]:
    """Every private name the package defines: functions, classes, module and class constants,
    and attributes assigned on an object (``self._cache = ...``)."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        tree = parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.add(node.value)  # __slots__ entries, setattr(self, "_x", ...)
    return {name for name in names if _private(name)}


class Reference(NamedTuple):
    """One reference of a scanned file to a solo_ops private name."""

    file: str
    line: int
    name: str
    text: str


def _solo_ops_bindings(tree: ast.AST) -> set[str]:
    """The local names a file binds to solo_ops modules or to names imported from them."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "solo_ops":
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("solo_ops"):
            bound.update(alias.asname or alias.name for alias in node.names)
    return bound


def _root_name(node: ast.expr) -> str | None:
    """The name an attribute chain starts from (``a`` for ``a.b.c``)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def references(path: Path, private: set[str]) -> Iterator[Reference]:
    """Every reference of one file to a private name of solo_ops (see the module's docstring)."""
    source = path.read_text(encoding="utf-8")
    tree = parsed(path)
    rel = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    bound = _solo_ops_bindings(tree)

    def ref(node: ast.AST, name: str) -> Reference:
        return Reference(rel, getattr(node, "lineno", 0), name,
                         ast.get_source_segment(source, node) or name)

    def owned(target: ast.expr, name: str) -> bool:
        """Whether ``target.name`` is a solo_ops private name."""
        if not _private(name) or (isinstance(target, ast.Name) and target.id in {"self", "cls"}):
            return False
        return _root_name(target) in bound or name in private

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("solo_ops"):
            yield from (ref(node, a.name) for a in node.names if _private(a.name))
            parts = (node.module or "").split(".")
            yield from (ref(node, part) for part in parts if _private(part))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "solo_ops":
                    yield from (ref(node, part) for part in parts if _private(part))
        elif isinstance(node, ast.Attribute) and owned(node.value, node.attr):
            yield ref(node, node.attr)
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            for i, arg in enumerate(node.args):
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    continue
                if arg.value in private or (i == 1 and called in _STRING_FUNCTIONS
                                            and owned(node.args[0], arg.value)):
                    yield ref(node, arg.value)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            for dotted in _DOTTED.findall(node.value):
                yield from (ref(node, part) for part in dotted.split(".") if _private(part))


def _scanned_files() -> list[Path]:
    """Every Python file of the tests and the bench scripts."""
    return sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*.py")
                  if p != Path(__file__))


@functools.cache
def all_references() -> tuple[Reference, ...]:
    """Every reference of the tests and bench scripts to a solo_ops private name: scanned once
    in a process (the three tests below read the same scan; the files do not change while the
    tests run)."""
    private = _package_private_names()
    return tuple(r for path in _scanned_files() for r in references(path, private))


def test_the_scanner_finds_each_kind_of_reference(tmp_path: Path) -> None:
    """Each kind of reference the docstring lists is found, and the ones it excludes are not
    (so the pass below means something)."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from solo_ops.ai.planner import _pick, plan_activation\n"
        "from solo_ops.geometry import routes\n"
        "from solo_ops.geometry.sight import Sight\n"
        "import solo_ops.game.fog as fog\n"
        "routes._anything\n"
        "Sight._anything_else\n"
        "terrain.routes._walker\n"
        "monkeypatch.setattr(fog, '_cluster', None)\n"
        "monkeypatch.setattr('solo_ops.ai.planner._pick', None)\n"
        "patch_ai(monkeypatch, '_cluster', None); getattr(fog, '_unknown')\n"
        "class Fake:\n"
        "    def go(self):\n"
        "        return self._walker, self.__dict__, other._not_in_the_package, fog.__file__\n",
        encoding="utf-8",
    )
    found = [(r.line, r.name) for r in references(sample, {"_walker", "_cluster", "_pick"})]
    assert sorted(found) == [(1, "_pick"), (5, "_anything"), (6, "_anything_else"),
                             (7, "_walker"), (8, "_cluster"), (9, "_pick"), (10, "_cluster"),
                             (10, "_unknown")]


def test_tests_and_bench_use_public_names_only() -> None:
    """No test or bench file references a private name of the package, but :data:`ALLOWED`'s
    (and, until their code has landed, the files of :data:`PENDING`)."""
    found = [r for r in all_references()
             if (r.file, r.name) not in ALLOWED and r.file not in PENDING]
    lines = [f"{r.file}:{r.line}: {r.text}" for r in found]
    assert not found, f"{len(found)} references to private names:\n  " + "\n  ".join(lines)


def test_every_allowed_reference_is_used() -> None:
    """An allowance no file needs any more is deleted."""
    used = {(r.file, r.name) for r in all_references()}
    assert set(ALLOWED) <= used, set(ALLOWED) - used


def test_every_pending_file_still_waits() -> None:
    """A :data:`PENDING` file that references no private name any more leaves the list."""
    waiting = {r.file for r in all_references()}
    assert set(PENDING) <= waiting, set(PENDING) - waiting
