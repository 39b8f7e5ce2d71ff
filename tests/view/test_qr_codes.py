"""QR codes of the players' links (segno): the terminal's half blocks decode to the link."""

from __future__ import annotations

from solo_ops.view import qr
from tests.support.qr import decode_terminal

LINK = "http://192.168.1.20:8765/?player=Ana&token=qoqkQGTy0n2PGMJw"


def test_the_terminal_code_decodes_to_the_link() -> None:
    lines = qr.terminal(LINK).splitlines()
    assert decode_terminal(lines) == [LINK]
    # version 4 at level M (33 modules) with a quiet zone of 4: 41 columns, 21 lines of halves
    assert {len(line) for line in lines} == {41} and len(lines) == 21


def test_the_page_s_code_is_an_svg_document() -> None:
    svg = qr.svg(LINK)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="205" height="205"')
    assert "<title>" not in svg  # the page's img carries the player's name in its alt text
