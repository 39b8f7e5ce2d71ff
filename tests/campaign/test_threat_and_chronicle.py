"""Each mission's threat as the save keeps it, how well the predictions held (worked out by hand
below), and the chronicle told from the save: who fought, fell and was carried out, each
model's record, the words escaped."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from solo_ops.campaign import (
    Campaign,
    MissionResult,
    ModelOutcome,
    calibration,
    new_campaign,
    parse_squad,
    record_mission,
)
from solo_ops.campaign.chronicle import Extras, html, markdown, model_record, story
from solo_ops.campaign.threat import check_threat, percent, prediction_line
from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import InputError

SEVEN = {"movement": 6, "wounds": 7, "save": 5, "apl": 2, "toughness": 3,
         "weapons": [{"name": "lasgun", "type": "rapid", "range": 24}]}


def threat(mission: int, predicted: float | None, target: float = 0.5) -> dict[str, Any]:
    rating = None if predicted is None else {
        "enemy": "ork-mob", "level": 2, "win_rate": predicted, "interval": [0.1, 0.9],
        "missions": 64}
    return {"mission": mission, "seed": 1, "target": target, "enemy": "ork-mob", "level": 2,
            "by": "proposal", "proposed": copy.deepcopy(rating), "predicted": rating, "rated": [],
            "played": 96}


def test_calibration_by_hand() -> None:
    """Predicted 50%, 25%, 75%; won, lost, won; a fourth mission without a prediction is left
    out. Expected wins 1.5; won 2; Brier ((0.5-1)² + 0.25² + 0.25²) / 3 = 0.125; the band
    1.5 ± 1.96·√(0.25 + 0.1875 + 0.1875) = 1.5 ± 1.5497, cut to 0..3."""
    history = [{"mission": 1, "outcome": "win", "threat": threat(1, 0.5)},
               {"mission": 2, "outcome": "loss", "threat": threat(2, 0.25)},
               {"mission": 3, "outcome": "win", "threat": threat(3, 0.75)},
               {"mission": 4, "outcome": "win"},
               {"event": "replacement", "after_mission": 4}]
    c = calibration(history)
    assert (c.missions, c.won) == (3, 2)
    assert c.expected == pytest.approx(1.5) and c.brier == pytest.approx(0.125)
    assert c.band == pytest.approx((0.0, 3.0)) and c.held
    assert c.line().startswith("Predictions: 3 mission(s), 1.5 win(s) expected, 2 won (95% "
                               "band 0.0-3.0): the predictions held; Brier score 0.12")
    assert calibration([]).line() == ("Predictions: none yet (no mission played with a "
                                      "proposal).")


def test_a_draw_is_not_a_win_and_far_off_predictions_do_not_hold() -> None:
    history = [{"mission": n, "outcome": "draw", "threat": threat(n, 0.9)} for n in (1, 2, 3)]
    c = calibration(history)
    assert c.won == 0 and c.expected == pytest.approx(2.7) and not c.held


def test_percent_rounds_halves_up() -> None:
    assert [percent(x) for x in (0.625, 0.125, 0.5, 0.004, 0.995)] == [
        "63%", "13%", "50%", "0%", "100%"]
    assert prediction_line(threat(1, 0.625)) == (
        "ork-mob at level 2: you win 63% (95% interval 10-90%, rated on 64 simulated "
        "missions); target 50%")
    assert prediction_line(threat(1, None)) == "ork-mob at level 2: not rated; target 50%"


@pytest.mark.parametrize(("path", "value", "message"), [
    (("target",), 1.5, "threat.target: must be at most 1"),
    (("by",), "dice", "threat.by: unknown value"),
    (("predicted", "interval"), [0.2], "threat.predicted.interval: expected [low, high]"),
    (("predicted", "interval"), [0.2, "x"], "threat.predicted.interval[1]: expected a number"),
    (("level",), 9, "threat.level: must be at most 6"),
])
def test_an_edited_threat_is_one_line(path: tuple[str, ...], value: Any, message: str) -> None:
    data = threat(1, 0.5)
    where = data
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    with pytest.raises(InputError) as info:
        check_threat(data, "save.json", "threat")
    assert info.value.line().startswith(f"save.json: {message}")


def played_campaign() -> Campaign:
    """Two missions: in the first Kell (<b>Kell</b> in his squad file) took two enemy models
    down and lost 3 wounds, Rask went down and was carried off; in the second Rask fell."""
    squad = parse_squad({"player": "Ana", "name": "Vesper & co", "models": [
        {"id": "a1", "name": "<b>Kell</b>", "profile": copy.deepcopy(SEVEN)},
        {"id": "a2", "name": "Rask", "profile": copy.deepcopy(SEVEN)}]}, "ana.yaml")
    c = new_campaign("Night & Day", [squad])
    c.threat = threat(1, 0.6)
    record_mission(c, MissionResult(models=(
        ModelOutcome("a1", wounds_lost=3, kills=2),
        ModelOutcome("a2", went_down=True, carried_off=True)), mission="Raid", outcome="win",
        vp={"enemy": 1, "player": 4}), ScriptedDice(faces=[2, 4]))  # both healed
    record_mission(c, MissionResult(models=(ModelOutcome("a2", went_down=True),),
                                    mission="Hold", outcome="loss"), ScriptedDice(faces=[6]))
    return c


def test_each_models_record_adds_up_its_missions() -> None:
    c = played_campaign()
    kell, rask = c.squads[0].models
    assert model_record(c, kell) == {"missions": 2, "kills": 2, "wounds": 3, "down": 0,
                                     "carried": 0, "injuries": 0}
    assert model_record(c, rask) == {"missions": 2, "kills": 0, "wounds": 0, "down": 2,
                                     "carried": 1, "injuries": 0}


def test_the_story_of_two_missions() -> None:
    told = story(played_campaign(), {2: Extras(briefing=("Hold the line.",),
                                                picture=b"\x89PNG fake")})
    first, second = told.missions
    assert (first.title, first.outcome, first.vp) == ("Raid", "win", {"enemy": 1, "player": 4})
    assert first.fought == ["<b>Kell</b> (Ana)", "Rask (Ana)"]
    assert first.down == ["Rask (Ana)"] and first.carried == ["Rask (Ana) — off the table"]
    assert first.fell == [] and [t["result"] for t in first.tests] == ["healed", "healed"]
    assert first.threat == ("ork-mob at level 2: you win 60% (95% interval 10-90%, rated on "
                            "64 simulated missions); target 50%")
    assert second.fell == ["Rask (Ana)"] and second.briefing == ["Hold the line."]
    assert second.threat is None and second.picture == b"\x89PNG fake"
    assert told.predictions.startswith("Predictions: 1 mission(s), 0.6 win(s) expected, 1 won")


def test_the_html_escapes_every_name_and_embeds_the_picture() -> None:
    page = html(story(played_campaign(), {2: Extras(picture=b"\x89PNG fake")}))
    assert "<b>Kell</b>" not in page and "&lt;b&gt;Kell&lt;/b&gt;" in page
    assert "<title>Night &amp; Day — chronicle</title>" in page
    assert '<img src="data:image/png;base64,iVBORyBmYWtl"' in page
    assert "Mission 1: Raid — Victory (VP player 4, enemy 1)" in page
    assert page.count("<section id=\"mission-") == 2 and "@media print" in page


def test_the_markdown_names_its_pictures() -> None:
    text = markdown(story(played_campaign()), {2: "night-mission-2.png"})
    assert "![The end of mission 2](night-mission-2.png)" in text
    assert "| Rask (Ana) | 2 | 0 | 0 | 2 | 0 | fallen |" in text
    assert "**Carried out:** Rask (Ana) — off the table." in text
