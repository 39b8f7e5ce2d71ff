"""Pictures written to disk: SVG or PNG bytes saved under a checked name.

The drawing is ``view``'s (:func:`solo_ops.view.drawing.render_bytes`, handed in by the caller,
so ``io`` never imports ``view``); the file is ``io``'s, through the project's one atomic
writer.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from solo_ops.core.errors import InputError
from solo_ops.io.opening import refuse_replacing
from solo_ops.io.writing import write_atomic


def save_picture(path: str | Path, draw: Callable[[str], bytes]) -> Path:
    """Write the picture ``draw(suffix)`` draws (``".svg"`` or ``".png"``, by the name's
    suffix; it is drawn only once the name is known to be good) to ``path`` through the
    project's one atomic writer (:func:`solo_ops.io.writing.write_atomic`: a temporary file
    of its own beside it, fsynced, renamed over it; never through a link). Any other suffix or a
    missing folder is an :class:`~solo_ops.core.errors.InputError` naming the file; a folder
    that cannot be written or a full disk a :class:`~solo_ops.core.errors.SaveError` (the old
    picture stays intact)."""
    path = check_picture_path(path)
    refuse_replacing(path, str(path))  # never over a save, log, campaign or scenario
    write_atomic(path, draw(path.suffix.lower()))
    return path


def check_picture_path(path: str | Path, *, folder_made_later: bool = False) -> Path:
    """``path`` when a picture may be drawn there: a ``.svg`` or ``.png`` name in a folder
    that exists (unless ``folder_made_later``: the command makes it first); else an
    :class:`~solo_ops.core.errors.InputError` naming the file. A command that writes other
    files first asks this before any work, so a bad name leaves nothing half made."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise InputError(f"cannot draw to a {suffix or 'suffix-less'} file: use .svg or .png",
                         source=str(path))
    folder = path.parent if str(path.parent) else Path(".")
    if not folder_made_later and not folder.is_dir():
        raise InputError(f"the folder {str(folder)!r} does not exist", source=str(path))
    return path
