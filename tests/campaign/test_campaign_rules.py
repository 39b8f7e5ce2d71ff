"""Campaign logic: squads, survival tests (exact, with scripted dice), carrying, replacements."""

from __future__ import annotations

from typing import Any

import pytest

from solo_ops.campaign import (
    ACTIVE,
    CARRY_MOVE_LIMIT,
    FALLEN,
    INJURED,
    SCHEMA_VERSION,
    WOUNDED,
    Campaign,
    CampaignSettings,
    MissionResult,
    ModelOutcome,
    carried_to_safety,
    carry_move_allowance,
    carry_move_limit,
    chronicle,
    counts_as_moved,
    drop_carried,
    new_campaign,
    parse_mission_result,
    parse_squad,
    parse_squad_model,
    pending_tests,
    record_mission,
    replace_model,
    result_from_state,
    run_survival_tests,
    scenario_squads,
    start_carry,
)
from solo_ops.core.dice import DiceExhausted, ScriptedDice
from solo_ops.core.errors import InputError, RuleError
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.io.roster import parse_profile
from solo_ops.io.yamlio import read_document
from tests.support.paths import SCENARIOS

SQUADS = SCENARIOS / "squads"


def profile(toughness: int | None = 3, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"movement": 6, "wounds": 7, "save": 5, "apl": 2,
                            "weapons": [{"name": "lasgun", "type": "rapid", "range": 24}]}
    if toughness is not None:
        data["toughness"] = toughness
    data.update(extra)
    return data


def squad_doc(player: str, ids: list[str], toughness: int | None = 3) -> dict[str, Any]:
    return {"player": player, "name": f"{player}'s team",
            "models": [{"id": i, "name": i.title(), "profile": profile(toughness)}
                       for i in ids]}


def make_campaign(settings: CampaignSettings | None = None,
                  toughness: int | None = 3) -> Campaign:
    ana = parse_squad(squad_doc("Ana", ["a1", "a2", "a3"], toughness), "ana.yaml")
    ben = parse_squad(squad_doc("Ben", ["b1", "b2"], toughness), "ben.yaml")
    return new_campaign("Test", [ana, ben], settings)


def one(campaign: Campaign, outcome: ModelOutcome, face: int, *,
        all_destroyed: bool = False) -> Any:
    """Record a mission in which only ``outcome`` was hurt, with one scripted face."""
    dice = ScriptedDice(faces=[face])
    report = record_mission(campaign, MissionResult(models=(outcome,),
                                                    all_enemies_destroyed=all_destroyed), dice)
    assert len(report.tests) == 1 and len(dice.log) == 1
    return report.tests[0]


# -- survival tests at the boundary -----------------------------------------------------------
@pytest.mark.parametrize(("face", "passed"), [(1, True), (3, True), (4, False), (6, False)])
def test_wounded_model_heals_on_toughness_or_less(face: int, passed: bool) -> None:
    c = make_campaign()
    test = one(c, ModelOutcome("a1", wounds_lost=2), face)
    assert test.target == 3 and test.bonuses == () and test.passed is passed
    model = c.find("a1")[1]
    assert model.state == (ACTIVE if passed else INJURED)
    assert len(model.injuries) == (0 if passed else 1)


@pytest.mark.parametrize(("face", "passed"), [(4, True), (5, False)])
def test_all_enemies_destroyed_adds_one(face: int, passed: bool) -> None:
    c = make_campaign()
    test = one(c, ModelOutcome("a1", wounds_lost=1), face, all_destroyed=True)
    assert test.bonuses == (("every enemy destroyed", 1),)
    assert test.target == 4 and test.passed is passed


@pytest.mark.parametrize("how", ["carried", "carried_off"])
@pytest.mark.parametrize(("face", "passed"), [(4, True), (5, False)])
def test_carried_to_safety_adds_one(how: str, face: int, passed: bool) -> None:
    c = make_campaign()
    outcome = ModelOutcome("a2", went_down=True, **{how: True})
    test = one(c, outcome, face)
    assert test.bonuses == (("carried to safety", 1),) and test.target == 4
    assert test.passed is passed
    assert c.find("a2")[1].state == (ACTIVE if passed else FALLEN)


@pytest.mark.parametrize(("face", "passed"), [(5, True), (6, False)])
def test_both_bonuses(face: int, passed: bool) -> None:
    c = make_campaign()
    test = one(c, ModelOutcome("b1", went_down=True, carried=True), face, all_destroyed=True)
    assert test.target == 5 and test.passed is passed
    assert test.describe().startswith(f"rolled {face} against Toughness 3 +1 (every enemy "
                                      "destroyed) +1 (carried to safety) = 5 or less")


def test_toughness_four_squad_member_and_always_passing_target() -> None:
    c = make_campaign(toughness=4)
    test = one(c, ModelOutcome("a1", went_down=True, carried=True), 6, all_destroyed=True)
    assert test.target == 6 and test.passed  # no natural-6 rule: the roll is compared as is


# -- failure outcomes under both settings -----------------------------------------------------
def test_down_failure_fallen_keeps_the_model() -> None:
    c = make_campaign()
    test = one(c, ModelOutcome("a3", went_down=True), 4)
    assert test.result == "fallen"
    squad, model = c.find("a3")
    assert model in squad.models and model.state == FALLEN and not model.can_play
    assert "lost in mission 1" in model.history[-1]["text"]
    assert [m.id for m in squad.playable()] == ["a1", "a2"]
    # a fallen model never comes back into play and is never deleted
    again = record_mission(c, MissionResult(), ScriptedDice())
    assert again.tests == () and c.find("a3")[1].state == FALLEN
    assert c.find("a3")[1].missions == 1


def test_the_report_says_it_of_one_fallen_model_and_they_of_more() -> None:
    c = make_campaign()
    report = record_mission(c, MissionResult(models=(ModelOutcome("a3", went_down=True),)),
                            ScriptedDice(faces=[4]))
    assert report.lines[-1].endswith(". It stays in the campaign history; replace it with "
                                     "`solo-ops campaign replace`.")
    report = record_mission(c, MissionResult(models=(ModelOutcome("a1", went_down=True),
                                                     ModelOutcome("a2", went_down=True))),
                            ScriptedDice(faces=[4, 5]))
    assert report.lines[-1].endswith(". They stay in the campaign history; replace them "
                                     "with `solo-ops campaign replace`.")


def test_down_failure_injured_setting() -> None:
    c = make_campaign(CampaignSettings(down_failure="injured", wounded_failure="injury"))
    test = one(c, ModelOutcome("a3", went_down=True), 6)
    assert test.result == "injury"
    model = c.find("a3")[1]
    assert model.state == INJURED and model.can_play
    assert model.injuries == [{"mission": 1, "note": "lasting injury: went down and failed its "
                                                    "survival test"}]


def test_down_failure_injured_carries_every_wound_but_one() -> None:
    """Under the default ``wounded_failure: carry``, a downed model that fails under
    ``down_failure: injured`` has lost all 7 of its wounds: it starts the next mission with 1
    (the game leaves it at least 1)."""
    c = make_campaign(CampaignSettings(down_failure="injured"))
    test = one(c, ModelOutcome("a3", went_down=True), 6)
    assert (test.result, test.unhealed, test.max_wounds) == ("injury", 7, 7)
    model = c.find("a3")[1]
    assert model.state == INJURED and model.unhealed_wounds == 7
    assert model.injuries == [{"mission": 1, "wounds": 7, "note": (
        "went down and failed its survival test: the wound is not healed: it starts the next "
        "mission with 1 of 7 wounds")}]  # the survival line's words, never "7 not healed"
    assert test.describe().endswith("the wound is not healed: it starts the next mission "
                                    "with 1 of 7 wounds")


def test_wounded_failure_injury_is_a_lasting_injury() -> None:
    c = make_campaign(CampaignSettings(wounded_failure="injury"))
    test = one(c, ModelOutcome("b2", wounds_lost=3), 5)
    assert test.result == "injury" and test.unhealed == 0
    model = c.find("b2")[1]
    assert model.state == INJURED and model.unhealed_wounds == 0
    assert scenario_squads(c)[1]["models"][1] == {"id": "b2", "name": "B2",
                                                   "profile": profile()}


def test_wounded_failure_none_setting() -> None:
    c = make_campaign(CampaignSettings(wounded_failure="none"))
    test = one(c, ModelOutcome("b2", wounds_lost=3), 5)
    assert test.result == "shaken off" and not test.passed
    model = c.find("b2")[1]
    assert model.state == ACTIVE and model.injuries == []


def test_wounded_failure_never_kills_even_with_fallen_setting() -> None:
    c = make_campaign(CampaignSettings(down_failure="fallen", wounded_failure="injury"))
    one(c, ModelOutcome("a1", wounds_lost=6), 6)
    assert c.find("a1")[1].state == INJURED


def test_a_healed_model_keeps_earlier_lasting_injuries() -> None:
    c = make_campaign(CampaignSettings(wounded_failure="injury", injured_failure="play"))
    one(c, ModelOutcome("a1", wounds_lost=1), 6)
    one(c, ModelOutcome("a1", wounds_lost=1), 1)
    model = c.find("a1")[1]
    assert model.state == INJURED and len(model.injuries) == 1 and model.missions == 2


def test_unharmed_models_are_not_tested() -> None:
    c = make_campaign()
    dice = ScriptedDice(faces=[2])
    report = record_mission(c, MissionResult(models=(
        ModelOutcome("a1"), ModelOutcome("b1", wounds_lost=1))), dice)
    assert [t.model for t in report.tests] == ["b1"]
    assert len(dice.log) == 1
    assert dice.log[0].purpose == "survival test: B1 (b1, Ben)"
    assert all(m.missions == 1 for s in c.squads for m in s.models)
    assert "  A2 (a2): unharmed." in report.lines


def test_tests_roll_in_squad_then_model_order() -> None:
    c = make_campaign()
    dice = ScriptedDice(faces=[1, 6, 1])
    report = record_mission(c, MissionResult(models=(
        ModelOutcome("b2", wounds_lost=1), ModelOutcome("a3", went_down=True),
        ModelOutcome("a1", wounds_lost=1))), dice)
    assert [(t.model, t.roll) for t in report.tests] == [("a1", 1), ("a3", 6), ("b2", 1)]
    assert [e.purpose for e in dice.log] == ["survival test: A1 (a1, Ana)",
                                             "survival test: A3 (a3, Ana)",
                                             "survival test: B2 (b2, Ben)"]


def test_default_toughness_for_profiles_without_one() -> None:
    c = make_campaign(CampaignSettings(default_toughness=2), toughness=None)
    test = one(c, ModelOutcome("a1", wounds_lost=1), 3)
    assert test.toughness == 2 and not test.passed
    c = make_campaign(toughness=None)
    assert one(c, ModelOutcome("a1", wounds_lost=1), 3).toughness == 3


def test_the_profile_toughness_wins_over_the_default() -> None:
    c = make_campaign(CampaignSettings(default_toughness=2), toughness=5)
    assert one(c, ModelOutcome("a1", wounds_lost=1), 5).passed


def test_pending_tests_can_be_rolled_later() -> None:
    c = make_campaign()
    report = record_mission(c, MissionResult(models=(ModelOutcome("a1", went_down=True,
                                                                  carried=True),)), None)
    assert report.tests == ()
    model = c.find("a1")[1]
    assert model.state == WOUNDED and model.pending is not None
    # survives a save round trip
    c = Campaign.from_dict(c.to_dict(), "save.json")
    assert [m.id for _, m in pending_tests(c)] == ["a1"]
    with pytest.raises(InputError, match="still"):
        record_mission(c, MissionResult(), ScriptedDice())
    later = run_survival_tests(c, ScriptedDice(faces=[4]))
    assert [(t.model, t.target, t.passed) for t in later.tests] == [("a1", 4, True)]
    assert c.find("a1")[1].state == ACTIVE and c.find("a1")[1].pending is None
    assert c.history[-1]["survival_tests"][0]["roll"] == 4
    with pytest.raises(InputError, match="no survival test"):
        run_survival_tests(c, ScriptedDice())


def test_record_mission_history_and_report() -> None:
    c = make_campaign()
    result = MissionResult(models=(ModelOutcome("a2", went_down=True, carried_off=True),),
                           all_enemies_destroyed=True, mission="Night raid", outcome="win",
                           vp={"player": 5, "enemy": 2}, narrative=("The vox was saved.",))
    report = record_mission(c, result, ScriptedDice(faces=[5]))
    assert report.mission == 1 and c.missions_played == 1
    assert report.lines[0] == "Mission 1: Night raid — win, VP player 5, enemy 2"
    assert "The vox was saved." in report.lines
    assert any("carried off the table to safety" in line for line in report.lines)
    record = c.history[0]
    assert record["mission"] == 1 and record["survival_tests"][0]["passed"] is True
    assert record["survival_tests"][0]["dice"]["faces"] == [5]


def test_an_unnamed_mission_is_called_by_its_number_once() -> None:
    """A result file without a mission name: "Mission 1 — win", never "Mission 1: Mission 1",
    in the report and in the chronicle."""
    c = make_campaign()
    report = record_mission(c, MissionResult(outcome="win"), ScriptedDice())
    assert report.lines[0] == "Mission 1 — win"
    told = chronicle.markdown(chronicle.story(c))
    assert "## Mission 1 — " in told and "Mission 1: Mission 1" not in told


def test_record_mission_refuses_unknown_or_fallen_models_and_changes_nothing() -> None:
    c = make_campaign()
    with pytest.raises(InputError) as info:
        record_mission(c, MissionResult(models=(ModelOutcome("zz", wounds_lost=1),)),
                       ScriptedDice(), source="result.yaml")
    assert info.value.line().startswith("result.yaml: models[0].id: no model 'zz'")
    assert c.missions_played == 0
    one(c, ModelOutcome("a1", went_down=True), 6)
    with pytest.raises(InputError, match="has fallen"):
        record_mission(c, MissionResult(models=(ModelOutcome("a1", wounds_lost=1),)),
                       ScriptedDice())
    with pytest.raises(InputError, match="belongs to Ana"):
        record_mission(c, MissionResult(models=(ModelOutcome("a2", player="Ben"),)),
                       ScriptedDice())


def test_dice_exhaustion_means_a_test_was_rolled() -> None:
    c = make_campaign()
    with pytest.raises(DiceExhausted):
        record_mission(c, MissionResult(models=(ModelOutcome("a1", wounds_lost=1),)),
                       ScriptedDice())


# -- replacing the fallen -----------------------------------------------------------------------
def test_replace_model_keeps_the_fallen_in_history() -> None:
    c = make_campaign()
    one(c, ModelOutcome("a3", went_down=True), 6)
    recruit = parse_squad_model({"id": "a4", "name": "Recruit", "profile": profile()},
                                "new.yaml", "")
    replace_model(c, "Ana", "a3", recruit)
    squad = c.squad("Ana")
    assert [m.id for m in squad.models] == ["a1", "a2", "a3", "a4"]
    fallen = squad.model("a3")
    assert fallen.state == FALLEN and fallen.replaced_by == "a4"
    assert squad.model("a4").replaces == "a3" and squad.model("a4").state == ACTIVE
    assert c.history[-1]["event"] == "replacement"
    assert "replaced by Recruit (a4)" in fallen.history[-1]["text"]
    with pytest.raises(InputError, match="already replaced"):
        replace_model(c, "Ana", "a3", parse_squad_model(
            {"id": "a5", "profile": profile()}, "x.yaml", ""))


def test_replace_model_errors() -> None:
    c = make_campaign()
    new = parse_squad_model({"id": "n1", "profile": profile()}, "new.yaml", "")
    with pytest.raises(InputError, match="not fallen"):
        replace_model(c, "Ana", "a1", new)
    with pytest.raises(InputError, match="no squad for player 'Cy'"):
        replace_model(c, "Cy", "a1", new)
    with pytest.raises(InputError, match="no model 'b1' in Ana's squad"):
        replace_model(c, "Ana", "b1", new)
    one(c, ModelOutcome("a1", went_down=True), 6)
    taken = parse_squad_model({"id": "b1", "profile": profile()}, "new.yaml", "")
    with pytest.raises(InputError) as info:
        replace_model(c, "Ana", "a1", taken, source="new.yaml")
    assert info.value.line().startswith("new.yaml: id: model id 'b1' is already used")
    # answers match ids ignoring case: a recruit 'B1' beside b1 could never be named (the
    # page's recruit form builds its model directly, so replace_model checks the id itself)
    from solo_ops.campaign.model import SquadModel

    upper = SquadModel(id="B1", name="B1", profile=profile())
    with pytest.raises(InputError) as info:
        replace_model(c, "Ana", "a1", upper, source="recruit")
    assert info.value.line() == ("recruit: id: model id 'B1' is already used in the campaign "
                                 "as 'b1': ids match ignoring case (ids stay taken, even by "
                                 "the fallen)")
    spaced = SquadModel(id="a b", name="a b", profile=profile())
    with pytest.raises(InputError, match="id 'a b' must be one word"):
        replace_model(c, "Ana", "a1", spaced, source="recruit")


# -- squads, saves, results ---------------------------------------------------------------------
def test_shipped_squad_files_parse() -> None:
    vesper = parse_squad(read_document(SQUADS / "vesper.yaml"), "vesper.yaml")
    blades = parse_squad(read_document(SQUADS / "ashen-blades.yaml"), "ashen-blades.yaml")
    c = new_campaign("Co-op", [vesper, blades])
    assert [s.player for s in c.squads] == ["Ana", "Ben"]
    for squad in c.squads:
        for m in squad.models:
            p = m.parsed_profile()
            assert p.toughness >= 3 and p.weapons
            assert p.for_edition("kt2018").ws is not None
            assert p.apl >= 2 and all(w.hit for w in p.weapons)
    assert scenario_squads(c)[0]["models"][0]["id"] == "kell"


def test_campaign_round_trips_through_plain_data() -> None:
    c = make_campaign(CampaignSettings(down_failure="injured", wounded_failure="none",
                                       default_toughness=4))
    one(c, ModelOutcome("a1", went_down=True), 6)
    data = c.to_dict()
    assert data["kind"] == "solo-ops-campaign" and data["schema_version"] == SCHEMA_VERSION
    again = Campaign.from_dict(data, "save.json")
    assert again.to_dict() == data


def test_squad_file_errors_name_file_and_field() -> None:
    bad = squad_doc("Ana", ["a1"])
    del bad["models"][0]["profile"]["wounds"]
    with pytest.raises(InputError) as info:
        parse_squad(bad, "vesper.yaml")
    assert info.value.line() == "vesper.yaml: models[0].profile.wounds: is required"
    dup = squad_doc("Ana", ["a1", "a1"])
    with pytest.raises(InputError, match=r"models\[1\].id: duplicate model id"):
        parse_squad(dup, "vesper.yaml")
    with pytest.raises(InputError, match="unknown key"):
        parse_squad({**squad_doc("Ana", ["a1"]), "colour": "red"}, "vesper.yaml")
    with pytest.raises(InputError, match="at least one model"):
        parse_squad({"player": "Ana", "models": []}, "vesper.yaml")


def test_model_ids_must_be_unique_across_squads() -> None:
    ana = parse_squad(squad_doc("Ana", ["x"]), "ana.yaml")
    ben = parse_squad(squad_doc("Ben", ["x"]), "ben.yaml")
    with pytest.raises(InputError) as info:
        new_campaign("C", [ana, ben], sources=["ana.yaml", "ben.yaml"])
    assert info.value.line().startswith("ben.yaml: models[0].id: model id 'x' is already used")
    shouted = parse_squad(squad_doc("Ben", ["X"]), "ben.yaml")
    with pytest.raises(InputError, match="model id 'X' is already used in Ana's squad"):
        new_campaign("C", [ana, shouted], sources=["ana.yaml", "ben.yaml"])
    with pytest.raises(InputError, match=r"models\[1\].id: duplicate model id 'A1'"):
        parse_squad(squad_doc("Ana", ["a1", "A1"]), "vesper.yaml")
    with pytest.raises(InputError, match=r"models\[0\].id: id 'x 1' must be one word"):
        parse_squad(squad_doc("Ana", ["x 1"]), "vesper.yaml")
    with pytest.raises(InputError, match="two squads for player"):
        new_campaign("C", [ana, parse_squad(squad_doc("Ana", ["y"]), "a2.yaml")])


def test_mission_result_file_format() -> None:
    result = parse_mission_result({
        "mission": "Raid", "outcome": "loss", "vp": {"player": 1, "enemy": 4},
        "all_enemies_destroyed": False,
        "models": [{"id": "a1", "wounds_lost": 2},
                   {"id": "a2", "down": True, "carried": True},
                   {"id": "b1", "player": "Ben", "down": True, "carried_off": True}],
        "narrative": ["Pulled back under fire."]}, "r.yaml")
    assert [m.carried_to_safety for m in result.models] == [False, True, True]
    assert result.vp == {"player": 1, "enemy": 4} and result.outcome == "loss"
    with pytest.raises(InputError, match=r"models\[0\].carried: only a model that went down"):
        parse_mission_result({"models": [{"id": "a1", "carried": True}]}, "r.yaml")
    with pytest.raises(InputError, match="listed twice"):
        parse_mission_result({"models": [{"id": "a1"}, {"id": "a1"}]}, "r.yaml")
    with pytest.raises(InputError, match="outcome: unknown value"):
        parse_mission_result({"outcome": "victory"}, "r.yaml")


# -- carrying -----------------------------------------------------------------------------------
def operative(oid: str, side: str = PLAYER, **kw: Any) -> Operative:
    prof = parse_profile(profile(), None, oid, oid)
    owner = "Ben" if oid.startswith("b") else "Ana"
    return Operative(id=oid, name=oid.title(), side=side, owner=owner, profile=prof,
                     at=(5.0, 5.0), **{"wounds": 7, **kw})


def test_start_carry_ends_actions_and_counts_as_moved() -> None:
    carrier, friend = operative("c"), operative("f", down=True, wounds=0)
    assert not counts_as_moved(carrier)
    event = start_carry(carrier, friend)
    assert carrier.carrying == "f" and friend.carried_by == "c"
    assert carrier.ap_used == carrier.profile.apl  # no action points left this turn
    assert event["ends_actions"] and event["counts_as_moved"]
    assert counts_as_moved(carrier)
    carrier.moved = False  # a new activation: a carrier still counts as having moved
    assert counts_as_moved(carrier)


def test_carry_move_limit_is_four_inches_a_turn() -> None:
    carrier, friend = operative("c"), operative("f", down=True, wounds=0)
    assert carry_move_limit() == CARRY_MOVE_LIMIT == 4.0
    assert carry_move_allowance(carrier, 6.0) == 6.0  # not carrying yet
    start_carry(carrier, friend)
    assert carry_move_allowance(carrier, 6.0) == 4.0
    assert carry_move_allowance(carrier, 3.0) == 3.0
    carrier.turn_move = 2.5
    assert carry_move_allowance(carrier, 6.0) == 1.5
    carrier.turn_move = 5.0
    assert carry_move_allowance(carrier, 6.0) == 0.0


def test_carry_refusals() -> None:
    carrier = operative("c")
    with pytest.raises(RuleError, match="not down"):
        start_carry(carrier, operative("f"))
    with pytest.raises(RuleError, match="not a friend"):
        start_carry(carrier, operative("e", side=ENEMY, down=True))
    friend = operative("f", down=True)
    start_carry(carrier, friend)
    with pytest.raises(RuleError, match="already carried"):
        start_carry(operative("d"), friend)
    with pytest.raises(RuleError, match="already carrying"):
        start_carry(carrier, operative("g", down=True))
    with pytest.raises(RuleError, match="is down"):
        start_carry(operative("x", down=True), operative("y", down=True))
    drop_carried(carrier, friend)
    assert carrier.carrying is None and friend.carried_by is None


def test_carried_to_safety_at_the_end_or_off_the_table() -> None:
    carrier, friend = operative("c"), operative("f", down=True, wounds=0)
    start_carry(carrier, friend)
    assert not carried_to_safety(friend, game_over=False)
    assert carried_to_safety(friend, game_over=True)
    off = operative("o", down=True, carried_to_safety=True)
    assert carried_to_safety(off, game_over=False)
    assert not carried_to_safety(operative("n", down=True))


def test_result_from_state_applies_the_carried_bonus() -> None:
    c = make_campaign()
    carrier = operative("a1")
    carried = operative("a2", down=True, wounds=0, went_down=True, wounds_lost=7)
    start_carry(carrier, carried)
    evacuated = operative("b1", down=True, wounds=0, went_down=True, wounds_lost=7,
                          carried_to_safety=True)
    evacuated.at = None
    scratched = operative("b2", wounds_lost=2)
    enemy = operative("e1", side=ENEMY, down=True, wounds_lost=7, went_down=True)
    state = State(edition="kt2024", operatives={o.id: o for o in (
        carrier, carried, evacuated, scratched, enemy)})
    state.result = {"outcome": "win", "vp": {"player": 4, "enemy": 1},
                    "all_enemies_destroyed": True}
    result = result_from_state(state, mission="Rescue")
    by_id = {m.id: m for m in result.models}
    assert set(by_id) == {"a1", "a2", "b1", "b2"}
    assert by_id["a2"].carried and by_id["a2"].carried_to_safety
    assert by_id["b1"].carried_off and not by_id["b1"].carried
    assert not by_id["a1"].harmed and by_id["b2"].harmed
    report = record_mission(c, result, ScriptedDice(faces=[5, 5, 4]))
    assert [(t.model, t.target, t.passed) for t in report.tests] == [
        ("a2", 5, True), ("b1", 5, True), ("b2", 4, True)]
