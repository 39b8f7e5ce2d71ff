"""``solo-ops map SAVE --sheet --out FILE.png``: the printable set-up sheet for a table without
phones — one A4 page; anything but a PNG is one line and status 2. (The commands run in this
process, through click's runner: the sheet is under test, not the process.)"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from tests.support.players import cli_here, small_scenario
from tests.support.saves import default_save


def test_the_sheet_of_a_saved_game_is_one_a4_page(tmp_path: Path) -> None:
    scenario = small_scenario(tmp_path, engagement=2)
    played = cli_here("play", str(scenario), "--answer", "status", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    save = default_save(tmp_path, scenario)
    drawn = cli_here("map", str(save), "--sheet", "--out", "sheet.png", cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    assert drawn.stdout.strip() == f"Drew {save} (turning point 1) to sheet.png."
    with Image.open(io.BytesIO((tmp_path / "sheet.png").read_bytes())) as page:
        assert page.size == (1240, 1754)
    wrong = cli_here("map", str(save), "--sheet", "--out", "sheet.svg", cwd=tmp_path)
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert wrong.stderr.strip().splitlines() == [
        "solo-ops: error: sheet.svg: the set-up sheet is a PNG picture: name it FILE.png"]
    assert not (tmp_path / "sheet.svg").exists()
