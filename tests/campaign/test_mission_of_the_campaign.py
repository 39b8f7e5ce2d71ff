"""Which game is a campaign's mission: its name, its squads and (when the campaign kept the
threat it set it up with) its seed (``campaign.missions.mission_mismatch``)."""

from __future__ import annotations

from typing import Any

from solo_ops.campaign import (
    Campaign,
    mission_mismatch,
    mission_title,
    new_campaign,
    parse_squad,
    scenario_squads,
)


def _campaign(name: str = "Vesper") -> Campaign:
    profile = {"movement": 6, "wounds": 7, "save": 5, "apl": 2,
               "weapons": [{"name": "lasgun", "type": "rapid", "range": 24}]}
    ana = parse_squad({"player": "Ana", "models": [{"id": "a1", "profile": profile},
                                                   {"id": "a2", "profile": profile}]}, "a.yaml")
    return new_campaign(name, [ana])


def _squads(campaign: Campaign) -> list[dict[str, Any]]:
    return scenario_squads(campaign)


def test_the_campaigns_own_mission_matches() -> None:
    c = _campaign()
    assert mission_title(c, 2) == "Vesper: mission 2"
    assert mission_mismatch(c, 1, "Vesper: mission 1", _squads(c), 11) is None


def test_a_mission_of_another_campaign_or_number_is_named() -> None:
    c = _campaign()
    assert mission_mismatch(c, 1, "Ashen: mission 1", _squads(c), 11) == (
        "its game is 'Ashen: mission 1', not 'Vesper: mission 1' (a save from another "
        "campaign, or from another mission)")
    assert mission_mismatch(c, 2, "Vesper: mission 1", _squads(c), 11) == (
        "its game is 'Vesper: mission 1', not 'Vesper: mission 2' (a save from another "
        "campaign, or from another mission)")


def test_a_campaign_of_the_same_name_with_other_squads_is_named() -> None:
    c = _campaign()
    other = [{"player": "Ana", "models": [{"id": "a1"}, {"id": "zed"}]}]
    assert mission_mismatch(c, 1, "Vesper: mission 1", other, 11) == (
        "its squads (Ana: a1, zed) are not the models of campaign 'Vesper' that can play "
        "(Ana: a1, a2): a save from another campaign")


def test_the_seed_is_checked_against_the_threat_the_campaign_kept() -> None:
    c = _campaign()
    c.threat = {"mission": 1, "seed": 11}
    assert mission_mismatch(c, 1, "Vesper: mission 1", _squads(c), 11) is None
    assert mission_mismatch(c, 1, "Vesper: mission 1", _squads(c), 12) == (
        "its seed is not the one the campaign set this mission up with (a save from another "
        "campaign of the same name and squads)")
