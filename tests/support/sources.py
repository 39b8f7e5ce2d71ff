"""The project's Python files parsed once a test process (the architecture and public-name
tests walk every module of the package, and the tests, several times over: parsing them again
was about 1% of the suite's CPU)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of the Python file ``path`` (read as UTF-8), parsed on first use; the
    same tree after that, which the callers only read."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))
