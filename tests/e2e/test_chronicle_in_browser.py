"""``campaign chronicle``: a campaign played through the real commands (two missions by the
autopilot, one told by a result file, a recruit in between) written as one HTML page and read
in Chromium at a phone's size (390×844): nothing wider than the screen, every mission with its
map of the end, its rolls and the squads' records, and a print stylesheet that keeps each
mission on one page; and as Markdown with its pictures beside it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support import browser as b
from tests.support.paths import SCENARIOS
from tests.support.players import cli_here


def solo_ops(folder: Path, *args: str) -> str:
    """``solo-ops ARGS`` in ``folder``, run in this process (the commands' work is under test,
    not their processes: each spared an interpreter's start); its output."""
    done = cli_here(*args, cwd=folder)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Mission 1 and 3 played by the autopilot at engagement level 1; mission 2 a result
    file (Kell wounded, Vale down and carried, Oro down); a recruit for whoever fell."""
    folder = tmp_path_factory.mktemp("chronicle")
    solo_ops(folder, "campaign", "new", "Vesper", "--squad",
             str(SCENARIOS / "squads" / "vesper.yaml"), "--target-win", "off")
    play = ("campaign", "play", "Vesper", "--autopilot", "objective", "--engagement", "1",
            "--board", "gallowdark-corridors")
    solo_ops(folder, *play, "--seed", "21")
    result = folder / "result.yaml"
    result.write_text(yaml.safe_dump({
        "mission": "Raid on the relay", "outcome": "win", "vp": {"player": 6, "enemy": 3},
        "models": [{"id": "kell", "wounds_lost": 3, "kills": 2},
                   {"id": "vale", "down": True, "carried": True}, {"id": "oro", "down": True}],
        "narrative": ["The relay burned behind them."]}))
    solo_ops(folder, "campaign", "survival", "Vesper", "--mission-result", str(result),
             "--seed", "1")
    shown = json.loads(solo_ops(folder, "campaign", "show", "Vesper", "--json"))
    fell = [m["id"] for m in shown["squads"][0]["models"] if m["state"] == "fallen"]
    assert fell, "seed 1: someone falls in mission 2"
    for fallen in fell:
        recruit = folder / f"{fallen}-recruit.yaml"
        recruit.write_text(yaml.safe_dump({"id": f"{fallen}-2", "name": f"Recruit {fallen}",
                                           "profile": {"movement": 6, "wounds": 7, "save": 5,
                                                       "toughness": 3, "weapons": [
                                                           {"name": "lasgun", "type": "rapid",
                                                            "range": 24, "attacks": 4,
                                                            "hit": 4, "damage": [2, 3]}]}}))
        solo_ops(folder, "campaign", "replace", "Vesper", "--player", "Ana", "--model", fallen,
                 "--with", str(recruit))
    solo_ops(folder, *play, "--seed", "22")
    return folder


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with b.launch() as found:
        yield found


def test_the_chronicle_reads_on_a_phone_and_prints(played: Path, chromium: Any,
                                                   tmp_path: Path) -> None:
    said = solo_ops(played, "campaign", "chronicle", "Vesper", "--out", "vesper.html")
    assert "3 mission(s), written to vesper.html" in said
    page = chromium.new_page(viewport=b.VIEWPORTS["phone"])
    page.goto((played / "vesper.html").as_uri())
    assert page.locator("h1").inner_text() == "The chronicle of Vesper"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 16
    missions = page.locator("section[id^=mission-]")
    assert missions.count() == 3
    for n in (1, 3):  # played: their map of the end, loaded and within the screen
        img = page.locator(f"#mission-{n} figure img")
        assert img.evaluate("i => i.complete && i.naturalWidth > 200")
        assert img.bounding_box()["width"] <= 390
        assert re.fullmatch(rf"Mission {n}: (Seize Ground|Hold the Line) on Gallowdark: "
                            r"corridors — (Victory|Defeat|Draw) \(VP player \d+, enemy \d+\)",
                            page.locator(f"#mission-{n} h2").inner_text())
        assert page.locator(f"#mission-{n}").get_by_text("Who fought").count() == 1
        assert "Sgt Kell (Ana)" in page.locator(f"#mission-{n} [data-who=fought]").inner_text()
    told = page.locator("#mission-2")
    assert told.locator("h2").inner_text() == ("Mission 2: Raid on the relay — Victory "
                                               "(VP player 6, enemy 3)")
    assert told.locator("figure").count() == 0  # no picture for a mission told by a file
    assert told.locator("[data-who=carried]").inner_text() == "Trooper Vale (Ana)."
    assert told.locator("[data-who=down]").inner_text() == "Trooper Vale (Ana), Medic Oro (Ana)."
    assert "The relay burned behind them." in told.inner_text()
    rolls = told.locator("table tr")
    assert rolls.count() == 4  # a header and the three tested: Kell, Vale, Oro
    # the records: on a phone one line each (the wide table is for print and wide screens)
    assert not page.locator("#records .record-table").is_visible()
    kell = page.locator("#records li[data-model=kell]")
    assert kell.is_visible() and kell.bounding_box()["width"] <= 390
    words = kell.inner_text()
    assert re.match(r"Sgt Kell \(Ana\): 3 missions, (\d+) kills, (\d+) wounds lost", words)
    kills, wounds = (int(v) for v in re.findall(r"(\d+) kills, (\d+) wounds", words)[0])
    assert kills >= 2 and wounds >= 3  # mission 2's two kills and three wounds, and any since
    saved = json.loads((played / "campaign_saves" / "Vesper.json").read_text())
    assert page.locator("#records li").count() == len(saved["squads"][0]["models"]) > 4
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    page.emulate_media(media="print")
    assert page.locator("#mission-1").evaluate(
        "s => getComputedStyle(s).breakInside") == "avoid"
    assert page.locator("#records .record-table").is_visible()  # printed: the table
    assert not page.locator("#records .record-cards").is_visible()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") in (
        "rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    assert page.pdf(format="A4")[:4] == b"%PDF"
    page.close()


def test_the_chronicle_as_markdown_keeps_its_pictures_beside_it(played: Path) -> None:
    said = solo_ops(played, "campaign", "chronicle", "Vesper", "--out", "story.md")
    assert "(and 2 picture(s) beside it)" in said
    text = (played / "story.md").read_text()
    assert text.startswith("# The chronicle of Vesper\n")
    assert "![The end of mission 1](story-mission-1.png)" in text
    assert "![The end of mission 3](story-mission-3.png)" in text
    assert (played / "story-mission-1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| Sgt Kell (Ana) | 3 |" in text
    bad = cli_here("campaign", "chronicle", "Vesper", "--out", "story.pdf", cwd=played)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and ".html or .md" in bad.stderr
