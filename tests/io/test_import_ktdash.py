"""KTDash JSON: a roster as KTDash's API returns it, and killteamjson team files."""

from __future__ import annotations

import json

import pytest

from solo_ops.core.errors import InputError
from solo_ops.io.importers import LeadershipPolicy, parse_team, read_team
from solo_ops.io.importers.output import default_table, roster_document
from solo_ops.io.roster import parse_roster
from tests.support.paths import FIXTURES

IMPORTS = FIXTURES / "import"
KTDASH = IMPORTS / "ashen-choir-ktdash.json"
KT24 = IMPORTS / "glasswrights-killteamjson-kt24.json"
KT21 = IMPORTS / "compendium-killteamjson-kt21.json"


def test_ktdash_roster_every_value() -> None:
    team = read_team(KTDASH)
    assert (team.edition, team.fmt, team.name) == ("kt2024", "KTDash",
                                                   "Ashen Choir (test roster)")
    assert [op.name for op in team.operatives] == \
        ["Mother Ysolde", "Gorran", "Tomasz Źrebiec", "Ash Zealot", "Hulde"]
    preacher = team.operatives[0]
    assert preacher.type_name == "Ash Preacher"
    assert preacher.keywords == ("ASHEN CHOIR", "CHAOS", "LEADER", "PREACHER")
    p = dict(preacher.profile)
    weapons = p.pop("weapons")
    # base size from the operative type; Leadership from the LEADER keyword
    assert p == {"name": "Ash Preacher", "movement": 6, "leadership": 8, "toughness": 3,
                 "wounds": 9, "save": 5, "base_mm": 28, "apl": 2, "defence_dice": 3}
    # only the selected weapons (not the chain flail the type also offers)
    assert weapons == [
        {"name": "Heirloom pistol", "type": "pistol", "attacks": 4, "hit": 3,
         "damage": [3, 4], "rules": ["range=8", "piercing_crits=1"]},
        {"name": "Penitent maul", "type": "melee", "attacks": 4, "hit": 3, "damage": [4, 5],
         "rules": ["brutal", "lethal=5"],
         "notes": "rules kept as text (not played by solo-ops): Indirect"},
    ]
    assert preacher.guesses == ["leadership 8 (keyword LEADER)", "toughness 3 (default)"]
    gunner = team.operatives[4]
    assert [w["name"] for w in gunner.profile["weapons"]] == \
        ["Heavy stubber (Focused)", "Heavy stubber (Sweeping)", "Gun butt"]
    assert gunner.profile["weapons"][1]["rules"] == ["heavy=dash", "ceaseless", "torrent=1"]


def test_ktdash_roster_as_an_enemy_roster() -> None:
    document, counts = roster_document(read_team(KTDASH))
    assert counts == {"ash-preacher": 1, "ash-zealot": 3, "ash-gunner": 1}
    # 6 faces shared 1 : 3 : 1 -> quotas 1.2, 3.6, 1.2 -> 1, 4, 1; troops low, leader high
    assert document["table"] == {1: "ash-zealot", 2: "ash-zealot", 3: "ash-zealot",
                                 4: "ash-zealot", 5: "ash-gunner", 6: "ash-preacher"}
    roster = parse_roster(document, "r.yaml")
    assert roster.profile_for_roll(6).leadership == 8


def test_weapons_from_the_operative_type_when_the_op_lists_none() -> None:
    data = json.loads(KTDASH.read_text(encoding="utf-8"))
    op = data["ops"][0]
    op["weapons"] = []
    op["wepIds"] = "FAKE-ASH-PRE-W-FL"
    team = parse_team(json.dumps(data).encode(), "r.json", LeadershipPolicy())
    assert [w["name"] for w in team.operatives[0].profile["weapons"]] == ["Chain flail"]
    assert any("weapons read from its operative type" in w for w in team.warnings)


def test_killteamjson_2024_team_file() -> None:
    team = read_team(KT24)
    assert (team.edition, team.fmt, team.name) == ("kt2024", "killteamjson", "Glasswrights")
    warden, cutter = team.operatives
    assert warden.profile["base_mm"] == 32 and cutter.profile["base_mm"] == 28
    # default weapons only (the spare lens is not a default), one weapon per profile
    assert [w["name"] for w in warden.profile["weapons"]] == \
        ["Prism caster (Beam)", "Prism caster (Scatter)", "Shard sabre"]
    assert warden.profile["weapons"][1] == {
        "name": "Prism caster (Scatter)", "type": "special", "attacks": 4, "hit": 3,
        "damage": [2, 4], "rules": ["blast=2", "saturate"]}
    assert warden.profile["defence_dice"] == 3  # DF "0" in 2024 files: always 3 dice
    assert cutter.profile["weapons"][0]["rules"] == ["range=9", "accurate=1", "silent"]
    assert cutter.unknown_rules == ["Glass fists: Refract*"]


def test_killteamjson_2021_compendium_needs_a_team() -> None:
    with pytest.raises(InputError) as info:
        read_team(KT21)
    assert info.value.line() == (
        f"{KT21}: holds 2 kill teams (SLT (Saltmarsh Reeves), DUNE (Dune Wardens)): choose "
        "one with --team ID")
    team = read_team(KT21, team="slt")
    assert team.edition == "kt2021"
    reeve, wader = team.operatives
    assert reeve.profile["movement"] == 6  # 3[CIRCLE]
    assert reeve.profile["weapons"][0]["rules"] == ["range=6", "piercing=1", "devastating=2"]
    assert wader.profile["weapons"][0]["rules"] == ["range=3", "torrent=1", "piercing_crits=1"]
    assert read_team(KT21, team="Dune Wardens").name == "Dune Wardens"
    with pytest.raises(InputError, match=r"--team: no kill team 'nope'"):
        read_team(KT21, team="nope")


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d["ops"][1].update(APL="abc", opType={**d["ops"][1]["opType"], "APL": "abc"}),
     'ops[1] "Gorran": APL: expected a number (like 3 or 3+), got \'abc\''),
    (lambda d: d["ops"][1].update(WOUNDS=None, opType={**d["ops"][1]["opType"],
                                                       "WOUNDS": None}),
     'ops[1] "Gorran": Wounds: is missing'),
    (lambda d: d["ops"][1]["weapons"][0]["profiles"][0].update(DMG="2-3"),
     "DMG: expected normal/critical damage like 3/4, got '2-3'"),
    (lambda d: d["ops"][1].update(weapons="autogun"), 'ops[1] "Gorran".weapons: expected a list'),
    (lambda d: d["ops"][1]["opType"].update(basesize="big"),
     "basesize: expected a base size in mm, got 'big'"),
])
def test_bad_ktdash_rosters(mutate, message: str) -> None:
    data = json.loads(KTDASH.read_text(encoding="utf-8"))
    mutate(data)
    with pytest.raises(InputError) as info:
        parse_team(json.dumps(data).encode(), "r.json", LeadershipPolicy())
    assert message in info.value.line()
    assert info.value.line().startswith("r.json: ")


def test_json_that_is_no_roster() -> None:
    with pytest.raises(InputError, match=r"r\.json: is JSON but neither a KTDash roster"):
        parse_team(b'{"hello": 1}', "r.json", LeadershipPolicy())
    with pytest.raises(InputError, match=r"r\.json: roster: is a BattleScribe / New Recruit"):
        parse_team(b'{"roster": {"name": "x", "forces": []}}', "r.json", LeadershipPolicy())
    with pytest.raises(InputError, match=r"r\.json: line 1: is not valid JSON"):
        parse_team(b'{"hello": ', "r.json", LeadershipPolicy())


@pytest.mark.parametrize(("counts", "leadership", "table"), [
    # hand-worked: quotas 6*c/total, at least one face each, largest remainders
    ({"a": 6, "b": 2, "c": 1}, {}, "aaaabc"),          # 4, 1.33, 0.67 -> 4, 1, 1
    ({"a": 1}, {}, "aaaaaa"),
    ({"a": 1, "b": 1}, {"a": 8, "b": 7}, "bbbaaa"),    # leader on the high faces
    ({"a": 1, "b": 1, "c": 1, "d": 1}, {"a": 8}, "bbccda"),  # extras: troops, first listed
    ({k: 1 for k in "abcdefg"}, {}, "abcdef"),         # seven kinds: the first six
    ({"a": 10, "b": 1}, {}, "aaaaab"),                 # 5.45, 0.55 -> 5, 1
])
def test_default_table(counts: dict[str, int], leadership: dict[str, int], table: str) -> None:
    result = default_table(counts, leadership)
    assert "".join(result[f] for f in range(1, 7)) == table
