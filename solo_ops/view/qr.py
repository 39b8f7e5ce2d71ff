"""QR codes of the players' links: joining by pointing a phone's camera, not typing a token.

Made by segno (pure Python, no other dependency, no network service): :func:`svg` for the
host's page (an SVG document, black on white, the quiet zone kept) and :func:`terminal` for
``serve`` and ``campaign serve`` (two rows of modules per line of half blocks, light modules
drawn, as segno draws for the usual dark terminal). Error correction level M (15% of the code
may be lost), segno's own choice of the smallest version that holds the link.
"""

from __future__ import annotations

import io
from typing import Any


def _code(text: str) -> Any:
    import segno  # imported when a code is made: the command line starts without it

    return segno.make(text, error="m", boost_error=False)


def svg(text: str, *, scale: int = 5) -> str:
    """The QR code of ``text`` as a standalone SVG document, ``scale`` pixels a module."""
    out = io.BytesIO()
    _code(text).save(out, kind="svg", scale=scale, border=4, dark="#000", light="#fff",
                     xmldecl=False, svgns=True, title=None)
    return out.getvalue().decode("utf-8")


def terminal(text: str) -> str:
    """The QR code of ``text`` for a terminal: lines of half blocks (``▀``, ``▄``, ``█``)."""
    out = io.StringIO()
    _code(text).terminal(out=out, compact=True)
    return out.getvalue()
