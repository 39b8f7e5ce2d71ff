"""The set-up in words, as a group lays out the table with a tape: every place measured from the
two nearest table edges, every drop zone by its spans, the enemy to put out with its weapons, the
roster's table of what a counter may become — and never what a counter holds; the printable sheet
is one A4 page."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image
from shapely.geometry import Polygon, box

from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from solo_ops.view.player import player_view
from solo_ops.view.setup import PAGE, edge_words, setup_doc, sheet_png, zone_words
from tests.support.paths import SCENARIOS

EXAMPLE = SCENARIOS / "volkus-stronghold-supplement-example.yaml"


class _Board:  # the two numbers edge_words and zone_words read
    width, depth = 30.0, 22.0


def test_a_place_is_measured_from_the_nearer_side_and_the_nearer_end() -> None:
    b = _Board()
    assert edge_words((14, 6), b) == '14.0" from the left edge, 6.0" from the near edge'
    assert edge_words((26.5, 20), b) == '3.5" from the right edge, 2.0" from the far edge'
    assert edge_words((15, 11), b) == '15.0" from the left edge, 11.0" from the near edge'
    # in centimetres (a game with units: cm): 10" is 25.4 cm, 5" is 12.7 cm
    assert edge_words((10, 5), b, "cm") == ("25.4 cm from the left edge, 12.7 cm from the "
                                            "near edge")


def test_a_drop_zone_is_measured_by_its_spans_or_its_corners() -> None:
    b = _Board()
    assert zone_words(box(0, 0, 30, 3.5), b) == 'the whole width, from the near edge to 3.5" in'
    assert zone_words(box(26, 0, 30, 22), b) == ('from the right edge to 4.0" in, the whole '
                                                 'depth')
    assert zone_words(box(10, 5, 20, 8), b) == ('from 10.0" to 20.0" from the left edge, from '
                                                '5.0" to 8.0" from the near edge')
    assert zone_words(Polygon([(0, 0), (6, 0), (0, 6)]), b) == (
        'corners: 0.0" from the left edge, 0.0" from the near edge; 6.0" from the left edge, '
        '0.0" from the near edge; 0.0" from the left edge, 6.0" from the near edge')


def test_the_example_set_up_names_the_enemy_the_counters_and_the_roster() -> None:
    game, state = new_game(load_scenario(EXAMPLE), 3)
    doc = setup_doc(game, state, player_view(game, state))
    sections = {s["key"]: s for s in doc["sections"]}
    assert list(sections) == ["enemies", "counters", "roster", "zones", "portals", "objectives",
                              "squads"]
    enemies = {i["name"]: i for i in sections["enemies"]["items"]}
    # the scenario puts marine-1 at (16, 19.5) on a 30" x 22" board
    marine = enemies["marine-1 — Chaos Marine (u1-fire-teams)"]
    assert marine["where"] == '14.0" from the right edge, 2.5" from the far edge'
    assert marine["lines"] == ["boltgun (ranged): 4 attacks, hits on 3+, damage 3/4",
                               'bolt pistol (ranged): 4 attacks, hits on 3+, damage 3/4, '
                               'range 8.0"']
    counters = sections["counters"]["items"]
    assert [c["name"] for c in counters] == sorted(state.counters)
    for c, counter in zip(counters, (state.counters[k] for k in sorted(state.counters)),
                          strict=True):
        assert c["where"] == edge_words(counter.at, game.scenario.board)
        assert c["lines"] == []
    # rosters/traitor-cult.yaml: "1-3 Cultist, 4 Chaos Marine, 5-6 Khorne Berserker"
    assert [i["name"] for i in sections["roster"]["items"]] == [
        "1-3: Cultist", "4: Chaos Marine", "5-6: Khorne Berserker"]
    assert sections["zones"]["items"][0]["where"] == (
        'the whole width, from the near edge to 3.5" in')
    # nothing a counter holds: no hidden order, no hidden plan, no hidden unit's model
    text = json.dumps(doc)
    assert "hidden_order" not in text and "hidden_plan" not in text
    for counter in state.counters.values():
        assert f"order {counter.hidden_order}" not in text


def test_the_sheet_is_one_a4_page() -> None:
    game, state = new_game(load_scenario(EXAMPLE), 3)
    with Image.open(io.BytesIO(sheet_png(game, state, player_view(game, state)))) as page:
        assert page.format == "PNG" and page.size == PAGE == (1240, 1754)
        assert page.info["dpi"] == (pytest.approx(150, abs=0.1), pytest.approx(150, abs=0.1))
        # the words are printed under the picture: the page's lower third has ink
        lower = page.convert("L").crop((0, PAGE[1] * 2 // 3, PAGE[0], PAGE[1]))
        assert sum(lower.histogram()[:128]) > 5_000  # pixels darker than mid-grey
