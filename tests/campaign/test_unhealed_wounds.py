"""A wound not healed goes into the next mission (docs/rules.md "Campaign"; 003 "A successful
roll will heal the wound and the model will continue on as normal" — so a failed one does not):
the model starts the next mission without the wounds it lost (at least 1 left), it is tested
again after it, and a second failure while injured rests it a mission. Each choice a setting."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from solo_ops.campaign import (
    ACTIVE,
    FALLEN,
    INJURED,
    MIGRATIONS,
    RECOVERING,
    Campaign,
    CampaignSettings,
    MissionResult,
    ModelOutcome,
    downed_lost_all,
    new_campaign,
    parse_mission_result,
    parse_squad,
    record_mission,
    scenario_squads,
)
from solo_ops.campaign.chronicle import state_words
from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import InputError
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import parse_scenario
from tests.support.small_table import BOARD, TROOPER

SEVEN = {"movement": 6, "wounds": 7, "save": 5, "apl": 2, "toughness": 3,
         "weapons": [{"name": "lasgun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
                      "damage": [2, 3]}]}


def campaign(settings: CampaignSettings | None = None) -> Campaign:
    ana = parse_squad({"player": "Ana", "models": [
        {"id": "a1", "name": "Kell", "profile": copy.deepcopy(SEVEN)},
        {"id": "a2", "name": "Rask", "profile": copy.deepcopy(SEVEN)}]}, "ana.yaml")
    return new_campaign("Test", [ana], settings)


def mission(c: Campaign, faces: list[int], *outcomes: ModelOutcome) -> Any:
    """Record a mission (``outcomes``: the hurt) with scripted survival dice."""
    dice = ScriptedDice(faces=faces)
    report = record_mission(c, MissionResult(models=outcomes, outcome="loss"), dice)
    assert len(dice.log) == len(faces)  # exactly the tests expected were rolled
    return report


def starting_wounds(c: Campaign) -> dict[str, int]:
    """The wounds each squad model starts the next mission with, as the game sets it up from
    the campaign's squads (the engine's starting state)."""
    doc = {"name": "next", "board": copy.deepcopy(BOARD), "engagement": 0,
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": dict.fromkeys(range(1, 7), "trooper")},
           "squads": scenario_squads(c)}
    _game, state = new_game(parse_scenario(doc, "next.yaml"), 1)
    return {op.id: op.wounds for op in state.operatives.values() if op.side == "player"}


def test_a_failed_test_carries_the_wounds_lost_into_the_next_mission() -> None:
    c = campaign()
    [test] = mission(c, [4], ModelOutcome("a1", wounds_lost=3)).tests  # 4 > Toughness 3
    assert (test.result, test.unhealed, test.max_wounds) == ("injury", 3, 7)
    kell = c.find("a1")[1]
    assert kell.state == INJURED and kell.unhealed_wounds == 3 and kell.can_play
    assert scenario_squads(c)[0]["models"][0]["wounds_lost"] == 3
    assert starting_wounds(c) == {"a1": 4, "a2": 7}  # 7 - 3, and the unhurt Rask whole
    assert state_words(kell) == "injured: starts the next mission with 4 of 7 wounds"


def test_a_passed_test_heals_it() -> None:
    c = campaign()
    mission(c, [3], ModelOutcome("a1", wounds_lost=3))  # 3: healed at once
    assert c.find("a1")[1].state == ACTIVE and starting_wounds(c) == {"a1": 7, "a2": 7}


def test_at_least_one_wound_is_left() -> None:
    """A model that went down, failing under ``down_failure: injured``, lost every wound: it
    starts the next mission with 1."""
    c = campaign(CampaignSettings(down_failure="injured"))
    mission(c, [6], ModelOutcome("a2", went_down=True))
    assert c.find("a2")[1].unhealed_wounds == 7 and starting_wounds(c)["a2"] == 1


def test_the_wound_is_tested_again_after_the_next_mission_even_unhurt() -> None:
    """It still has the wound it suffered: the next survival test may heal it (003)."""
    c = campaign()
    mission(c, [5], ModelOutcome("a1", wounds_lost=2))
    report = mission(c, [2])  # nobody hurt in mission 2; Kell is tested, rolls 2: healed
    assert [t.model for t in report.tests] == ["a1"] and report.tests[0].injured
    kell = c.find("a1")[1]
    assert kell.state == ACTIVE and kell.unhealed_wounds == 0 and kell.missions == 2
    assert kell.injuries == [{"mission": 1, "wounds": 2, "healed": 2, "note": (
        "lost 2 wound(s) and failed its survival test: the wound is not healed: it starts the "
        "next mission with 5 of 7 wounds")}]
    assert report.lines[2] == ("  Kell (a1): unharmed, but it went in hurt, with 5 of 7 "
                               "wounds (a wound not healed): a survival test to heal it.")
    assert report.lines[-1] == ("  Kell (a1, Ana) played unharmed (went in hurt, with 5 of 7 "
                                "wounds): rolled 2 against Toughness 3 or less: healed.")
    assert starting_wounds(c)["a1"] == 7


def test_a_second_failure_while_injured_misses_the_next_mission() -> None:
    c = campaign()
    mission(c, [5], ModelOutcome("a1", wounds_lost=2))
    [test] = mission(c, [6], ModelOutcome("a1", wounds_lost=1)).tests
    assert test.result == "recovering" and test.injured and test.unhealed == 3
    kell = c.find("a1")[1]
    assert kell.state == RECOVERING and not kell.can_play
    assert [m["id"] for m in scenario_squads(c)[0]["models"]] == ["a2"]  # it stays home
    assert state_words(kell) == "recovering: misses the next mission"
    assert kell.injuries[-1]["note"] == ("lost 1 wound(s) and failed its survival test again "
                                         "while injured: it misses the next mission to recover")
    with pytest.raises(InputError, match="is recovering"):
        record_mission(c, MissionResult(models=(ModelOutcome("a1", wounds_lost=1),)),
                       ScriptedDice())
    report = mission(c, [])  # mission 3, without Kell: no test for anyone
    assert "  Kell (a1): rested through this mission and is fit again." in report.lines
    assert kell.state == ACTIVE and kell.unhealed_wounds == 0 and kell.missions == 2
    assert [i.get("healed") for i in kell.injuries] == [3, 3]
    assert starting_wounds(c) == {"a1": 7, "a2": 7}


@pytest.mark.parametrize(("setting", "state", "unhealed"), [
    ("play", INJURED, 5), ("fallen", FALLEN, 0)])
def test_the_injured_failure_setting(setting: str, state: str, unhealed: int) -> None:
    """``play``: it plays on hurt, the wounds lost adding up (2 then 3); ``fallen``: lost."""
    c = campaign(CampaignSettings(injured_failure=setting))
    mission(c, [5], ModelOutcome("a1", wounds_lost=2))
    mission(c, [6], ModelOutcome("a1", wounds_lost=3))
    kell = c.find("a1")[1]
    assert (kell.state, kell.unhealed_wounds) == (state, unhealed)


def test_wounded_failure_injury_is_the_old_reading() -> None:
    """``wounded_failure: injury``: a lasting injury with no effect on play (the model starts
    whole), and it is not tested again unless hurt."""
    c = campaign(CampaignSettings(wounded_failure="injury", injured_failure="play"))
    mission(c, [5], ModelOutcome("a1", wounds_lost=2))
    assert starting_wounds(c) == {"a1": 7, "a2": 7}
    assert mission(c, []).tests == ()
    assert state_words(c.find("a1")[1]) == "injured ×1 (lasting)"


def test_the_states_survive_the_save() -> None:
    c = campaign()
    mission(c, [5], ModelOutcome("a1", wounds_lost=2))
    mission(c, [6], ModelOutcome("a1", wounds_lost=1))
    again = Campaign.from_dict(c.to_dict(), "save.json")
    assert again.to_dict() == c.to_dict()
    kell = again.find("a1")[1]
    assert (kell.state, kell.unhealed_wounds) == (RECOVERING, 3)


def test_an_older_campaign_keeps_the_reading_it_was_played_by() -> None:
    """Schema 2 had neither the carried wound nor proposals: a campaign saved by it keeps its
    lasting injuries, second failures that only add one, and rolled missions."""
    old = {"schema_version": 2, "kind": "solo-ops-campaign", "name": "Old",
           "settings": {"down_failure": "fallen", "wounded_failure": "injury",
                        "default_toughness": 3},
           "missions_played": 0, "squads": campaign().to_dict()["squads"], "history": [],
           "links": None}
    migrated = MIGRATIONS[2](copy.deepcopy(old))
    settings = Campaign.from_dict(migrated, "old.json").settings
    assert (settings.wounded_failure, settings.injured_failure, settings.target_win) == (
        "injury", "play", None)


def test_a_save_with_more_unhealed_wounds_than_can_be_is_refused() -> None:
    data = campaign().to_dict()
    data["squads"][0]["models"][0]["unhealed_wounds"] = -1
    with pytest.raises(InputError, match=r"squads\[0\]\.models\[0\]\.unhealed_wounds"):
        Campaign.from_dict(data, "save.json")


def test_the_recovering_come_back_when_nobody_else_can_play() -> None:
    """Both models fail again while injured: nobody is left to play mission 3, so the mission
    they would rest through cannot be played — they recover now instead of never."""
    from solo_ops.campaign.missions import recover_when_nobody_plays

    c = campaign()
    mission(c, [5, 5], ModelOutcome("a1", wounds_lost=2), ModelOutcome("a2", wounds_lost=1))
    assert recover_when_nobody_plays(c) == []  # both can play: nothing changes
    mission(c, [6, 6], ModelOutcome("a1", wounds_lost=1), ModelOutcome("a2", wounds_lost=1))
    assert scenario_squads(c) == []
    assert recover_when_nobody_plays(c) == ["Kell", "Rask"]
    assert [m.state for m in c.squads[0].models] == [ACTIVE, ACTIVE]
    assert starting_wounds(c) == {"a1": 7, "a2": 7}
    assert c.find("a1")[1].history[-1]["text"] == "recovered: nobody else could play mission 3"


def test_a_result_recorded_while_only_the_recovering_are_left_is_theirs() -> None:
    """The same two recovering, and a result file for mission 3 (which `campaign play` would
    have set up with them, whole): they recover first and are the ones who played it, never
    "rested through" a mission nobody played."""
    c = campaign()
    mission(c, [5, 5], ModelOutcome("a1", wounds_lost=2), ModelOutcome("a2", wounds_lost=1))
    mission(c, [6, 6], ModelOutcome("a1", wounds_lost=1), ModelOutcome("a2", wounds_lost=1))
    report = mission(c, [], ModelOutcome("a1"))  # unharmed, both: nobody is tested
    assert not report.tests and c.missions_played == 3
    assert [(m.state, m.missions) for m in c.squads[0].models] == [(ACTIVE, 3), (ACTIVE, 3)]
    assert c.history[-1]["fought"] == ["a1", "a2"]


def test_a_result_with_nobody_left_to_play_is_refused() -> None:
    c = campaign()
    mission(c, [6, 6], ModelOutcome("a1", went_down=True), ModelOutcome("a2", went_down=True))
    assert [m.state for m in c.squads[0].models] == [FALLEN, FALLEN]
    with pytest.raises(InputError, match="has no model left who can play, so no mission can "
                                         "have been played"):
        record_mission(c, MissionResult(mission="Empty"), ScriptedDice(faces=[]))
    assert c.missions_played == 1


def test_a_model_down_without_wounds_lost_lost_all_it_went_in_with() -> None:
    """A result file's ``down: true`` without ``wounds_lost``: every wound the model went into
    the mission with — Kell, starting hurt with 2 of 7, lost 2; the whole Rask 7 (what the
    game records for a model taken down); an unknown id is left for ``record_mission`` to
    refuse. ``down: true`` with ``wounds_lost: 0`` is refused naming the field."""
    c = campaign()
    mission(c, [6], ModelOutcome("a1", wounds_lost=5))  # fails: starts mission 2 with 2 of 7
    result = parse_mission_result({"models": [{"id": "a1", "down": True},
                                              {"id": "a2", "down": True},
                                              {"id": "zz", "down": True}]}, "r.yaml")
    assert [(o.id, o.wounds_lost) for o in result.models] == [("a1", 0), ("a2", 0), ("zz", 0)]
    filled = downed_lost_all(c, result)
    assert [(o.id, o.wounds_lost) for o in filled.models] == [("a1", 2), ("a2", 7), ("zz", 0)]
    given = parse_mission_result({"models": [{"id": "a2", "down": True, "wounds_lost": 3}]},
                                 "r.yaml")
    assert downed_lost_all(c, given).models[0].wounds_lost == 3
    with pytest.raises(InputError) as info:
        parse_mission_result({"models": [{"id": "a1", "down": True, "wounds_lost": 0}]},
                             "r.yaml")
    assert info.value.line() == (
        "r.yaml: models[0].wounds_lost: is 0, but the model went down (down: true), which "
        "takes every wound it had: give the wounds it lost, or leave wounds_lost out (all it "
        "went in with)")


def test_every_line_about_a_wound_not_healed_says_the_wounds_it_starts_with() -> None:
    """Kell (7 wounds) went down and failed under ``down_failure: injured``: his state, his
    injury, his survival line and the next mission's report all say he has 1 of 7 wounds, in
    the same words — never "7 wound(s) not healed" beside "1 of 7" (the injury and the report
    used to count the wounds missing, the state the wounds left)."""
    c = campaign(CampaignSettings(down_failure="injured"))
    first = mission(c, [6], ModelOutcome("a1", went_down=True))
    kell = c.find("a1")[1]
    said = "the wound is not healed: it starts the next mission with 1 of 7 wounds"
    assert state_words(kell) == "injured: starts the next mission with 1 of 7 wounds"
    assert kell.injuries[0]["note"] == f"went down and failed its survival test: {said}"
    assert first.lines[-1] == ("  Kell (a1, Ana) went down: rolled 6 against Toughness 3 or "
                               f"less: {said}.")
    second = mission(c, [1])
    assert second.lines[2] == ("  Kell (a1): unharmed, but it went in hurt, with 1 of 7 wounds "
                               "(a wound not healed): a survival test to heal it.")
    assert second.lines[-1] == ("  Kell (a1, Ana) played unharmed (went in hurt, with 1 of 7 "
                                "wounds): rolled 1 against Toughness 3 or less: healed.")
    assert not any("wound(s) not healed" in line for line in (*first.lines, *second.lines))


@pytest.mark.parametrize(("lost", "have", "into", "expected"), [
    (3, 8, 2, 1),  # 5 of 8 left: 1.25 of 2, 1 left
    (7, 8, 2, 1),  # 1 of 8 left: at least 1 of 2
    (1, 8, 2, 0),  # 7 of 8 left: 1.75, rounded to 2: whole
    (8, 8, 2, 2),  # none left
    (1, 2, 8, 4),  # back: 1 of 2 left is 4 of 8
    (1, 2, 12, 6),
    (3, 7, 7, 3),  # the same Wounds: as it is
])
def test_a_wound_is_the_same_share_of_another_edition_s_wounds(
        lost: int, have: int, into: int, expected: int) -> None:
    from solo_ops.campaign.missions import share_of_wounds

    assert share_of_wounds(lost, have, into) == expected


def test_a_kill_team_2018_game_counts_a_wound_in_its_own_wounds_both_ways() -> None:
    """Kell has 7 Wounds, and 2 in Kill Team 2018 (its ``kt2018:`` override). Going in with
    3 of 7 lost, a 2018 game gives it 1 of 2 (the game refused a 3 before: "wounds_lost: must
    be at most 2"); a 2018 game's 1 of 2 lost comes back to the campaign as 3 of 7 lost
    (3.5 of 7 left, rounded to 4)."""
    from solo_ops.campaign.missions import fit_to_edition

    c = campaign()
    for model in c.squads[0].models:
        model.profile["kt2018"] = {"wounds": 2}
    mission(c, [4], ModelOutcome("a1", wounds_lost=3))  # failed: 4 of 7 into the next
    squads = scenario_squads(c)
    fit_to_edition(c, squads, "kt2018")
    assert squads[0]["models"][0]["wounds_lost"] == 1
    fresh = campaign()
    for model in fresh.squads[0].models:
        model.profile["kt2018"] = {"wounds": 2}
    [test] = mission(fresh, [4], ModelOutcome("a1", wounds_lost=1, wounds_of=2)).tests
    assert (test.wounds_lost, test.unhealed, test.max_wounds) == (3, 3, 7)
    # the history counts as the report and the test do, in the campaign's Wounds (the
    # chronicle adds these up), never the 2018 game's 1
    [entry] = [m for m in fresh.history[-1]["models"] if m["id"] == "a1"]
    assert entry["wounds_lost"] == 3
