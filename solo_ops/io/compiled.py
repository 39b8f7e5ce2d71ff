"""Where the geometry's compiled loops are kept, and whether they are compiled yet.

numba compiles the kernels of :mod:`solo_ops.geometry.jit` the first time they run after an
install (some 15-20 s of CPU for all of them) and keeps the machine code on disk. So that no
command waits for that (issue #32), solo-ops keeps it in the user's own cache folder, which the
user can always write and clear (:func:`cache_dir`: ``$SOLO_OPS_CACHE``, else
``$XDG_CACHE_HOME/solo-ops``, else ``~/.cache/solo-ops``; on Windows ``%LOCALAPPDATA%``), with
numba's files under ``numba/<build key>/`` (``NUMBA_CACHE_DIR``, unless the environment sets
it: :func:`numba_dir`), and
notes there, once ``solo-ops compile`` has compiled them, which kernels exist for this build
(:func:`marker`: a JSON file named by :func:`build_key`, the digest of the kernels' source,
numba's version, Python's and the machine's, so a new solo-ops or numba is compiled afresh).

Until that note exists a rating plays with the numpy code (the same answers) while
``solo-ops compile`` runs in the background at the lowest priority; once it exists, the
command loads the kernels once and its worker processes share them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import platform
import shutil
import sys
from pathlib import Path
from typing import Any

from solo_ops import __version__
from solo_ops.core.errors import InputError
from solo_ops.io.reading import read_text
from solo_ops.io.writing import write_text_atomic

SCHEMA = 1


def cache_dir() -> Path:
    """solo-ops's cache folder for this user (see the module docstring)."""
    if os.environ.get("SOLO_OPS_CACHE"):
        return Path(os.environ["SOLO_OPS_CACHE"])
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "solo-ops" / "Cache"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "solo-ops"


def numba_dir() -> Path:
    """Where numba keeps the compiled kernels: ``NUMBA_CACHE_DIR`` if set, else
    ``<cache_dir>/numba/<build key>``: a folder of this build's own. numba checks a cached
    kernel only against its own source file, never against the functions and constants it
    takes from another module (``jit.walls`` and ``jit.bases`` use ``jit.movement``'s), so a
    cache shared between builds could load a kernel compiled from older code; the build key
    digests every kernel file (:func:`build_key`)."""
    return Path(os.environ.get("NUMBA_CACHE_DIR") or numba_root() / build_key())


def numba_root() -> Path:
    """The folder of every build's numba folder (:func:`numba_dir`): ``<cache_dir>/numba``."""
    return cache_dir() / "numba"


def configure() -> None:
    """Point numba's cache at :func:`numba_dir` for this process and the processes it starts
    (before numba is imported; numba reads ``NUMBA_CACHE_DIR`` once, at import)."""
    if "numba" not in sys.modules:
        os.environ.setdefault("NUMBA_CACHE_DIR", str(numba_dir()))


def kernel_sources() -> list[Path]:
    """The source files of the compiled geometry kernels (``solo_ops/geometry/jit/*.py``): what
    :func:`build_key` hashes, so a changed kernel is another build."""
    spec = importlib.util.find_spec("solo_ops.geometry.jit")
    assert spec is not None and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations)))
    return sorted(folder.glob("*.py"))


def build_key() -> str:
    """What the compiled code depends on, as a short digest: the kernels' source, solo-ops's,
    numba's and Python's versions, the machine."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        numba_version = version("numba")
    except PackageNotFoundError:
        numba_version = "none"
    digest = hashlib.sha256()
    for part in (__version__, numba_version, sys.version, platform.machine()):
        digest.update(part.encode() + b"\0")
    for path in kernel_sources():
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def marker(key: str | None = None) -> Path:
    """The note that this build's kernels are compiled (see the module docstring)."""
    return cache_dir() / f"compiled-{key or build_key()}.json"


def ready() -> bool:
    """Whether this build's kernels were compiled here (the note, and numba's files)."""
    try:
        return marker().is_file() and any(numba_dir().rglob("*.nbi"))
    except OSError:
        return False


def recorded() -> list[dict[str, Any]]:
    """The kernels the note lists (:func:`solo_ops.geometry.jit.compiled_signatures`); none
    when the note is missing or unreadable (they then load at their first call)."""
    try:  # through the one opener (io.reading): the cache folder is the user's to fill
        doc = json.loads(read_text(marker(), "compiled"))
    except (InputError, ValueError):
        return []
    kernels = doc.get("kernels") if isinstance(doc, dict) else None
    return kernels if isinstance(kernels, list) else []


def record(kernels: list[dict[str, Any]], seconds: float) -> Path:
    """Write the note for this build: the kernels compiled and the CPU seconds it took (the notes
    of other builds, now stale, are removed)."""
    path = marker()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps({"schema_version": SCHEMA, "kind": "compiled-kernels",
                                        "key": build_key(), "cpu_seconds": round(seconds, 2),
                                        "kernels": kernels}, indent=1) + "\n")
    for old in path.parent.glob("compiled-*.json"):
        if old != path:
            old.unlink(missing_ok=True)
    _remove_other_builds()
    return path


def _remove_other_builds() -> None:
    """Remove the numba folders of other builds (:func:`numba_dir`), now stale; numba's own
    files of an older solo-ops, kept straight under ``numba/``, go too. Nothing is removed
    where ``NUMBA_CACHE_DIR`` names numba's folder (the user's own choice)."""
    if os.environ.get("NUMBA_CACHE_DIR") not in (None, "", str(numba_root() / build_key())):
        return
    root, key = numba_root(), build_key()
    try:
        entries = list(root.iterdir())
    except OSError:
        return
    for entry in entries:
        if entry.name == key:
            continue
        try:
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
        except OSError:
            pass


def lock_target() -> Path:
    """The file whose lock one ``solo-ops compile`` at a time holds."""
    return cache_dir() / "compile"
