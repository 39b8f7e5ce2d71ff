"""Decoding QR codes in the tests (zxing-cpp, the test extra): a picture's, and the half-block
codes ``serve`` prints in a terminal, so a test checks the code says the link, not that a code
was drawn."""

from __future__ import annotations

import io

from PIL import Image

# a terminal character's two modules (top, bottom); True is a light module (segno draws the
# light ones, for a dark terminal)
HALVES = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}


def decode_picture(data: bytes | Image.Image) -> list[str]:
    """The texts of every QR code in a picture (PNG bytes or a Pillow image)."""
    import zxingcpp

    image = data if isinstance(data, Image.Image) else Image.open(io.BytesIO(data))
    return [r.text for r in zxingcpp.read_barcodes(image.convert("L"))]


def terminal_picture(lines: list[str], scale: int = 8) -> Image.Image:
    """Half-block lines as a picture: light modules white, dark ones black, ``scale`` pixels
    a module, framed in white."""
    width = max(len(line) for line in lines)
    rows: list[list[bool]] = [[], []]
    grid: list[list[bool]] = []
    for line in lines:
        rows = [[], []]
        for ch in line.ljust(width):
            top, bottom = HALVES[ch]
            rows[0].append(top)
            rows[1].append(bottom)
        grid += rows
    image = Image.new("L", ((width + 8) * scale, (len(grid) + 8) * scale), 255)
    for y, row in enumerate(grid):
        for x, light in enumerate(row):
            if not light:
                image.paste(0, ((x + 4) * scale, (y + 4) * scale, (x + 5) * scale,
                                (y + 5) * scale))
    return image


def decode_terminal(lines: list[str]) -> list[str]:
    """The texts of the QR codes printed as half blocks in ``lines`` (one code, or several
    side by side: each is cut out by its columns)."""
    found: list[str] = []
    blocks = [line for line in lines if line and set(line) <= set(HALVES)]
    if not blocks:
        return found
    width = max(len(line) for line in blocks)
    columns = [i for i in range(width) if any(i < len(line) and line[i] != " " for line in blocks)]
    runs: list[tuple[int, int]] = []
    for i in columns:
        if runs and i == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    for a, b in runs:
        found += decode_picture(terminal_picture([line[a:b + 1] for line in blocks]))
    return found
