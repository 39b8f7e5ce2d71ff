"""BattleScribe / New Recruit rosters (.ros, .rosz) of the three editions, read exactly.

Every fixture in ``tests/support/fixtures/import`` was written for these tests: made-up
operatives in the layouts BattleScribe and New Recruit export (element names, namespace, profile
typeName values and characteristic names of the BSData Kill Team files)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from solo_ops.campaign import parse_squad
from solo_ops.core.errors import InputError
from solo_ops.core.model import WeaponRule
from solo_ops.io.importers import LeadershipPolicy, parse_team, read_team
from solo_ops.io.importers.output import model_id, roster_document, squad_document
from solo_ops.io.roster import parse_roster
from tests.support.paths import FIXTURES

IMPORTS = FIXTURES / "import"
ROS_2024 = IMPORTS / "vesper-2024.ros"


def test_2024_roster_every_value() -> None:
    team = read_team(ROS_2024)
    assert (team.edition, team.fmt, team.name) == ("kt2024", "BattleScribe", "Vesper Lancers")
    # configuration and reference selections (type="upgrade") are not operatives
    assert [op.name for op in team.operatives] == \
        ["Sgt Kéll Vøss", "Ada Quill", "Lancer Trooper", "Brûnhilde"]  # customName when set
    sergeant = team.operatives[0]
    assert sergeant.type_name == "Lancer Sergeant"
    assert sergeant.keywords == ("Leader", "Vesper Lancer")
    profile = dict(sergeant.profile)
    weapons = profile.pop("weapons")
    assert profile == {"name": "Lancer Sergeant", "movement": 6, "leadership": 8,
                       "toughness": 3, "wounds": 10, "save": 4, "base_mm": 32, "apl": 3,
                       "defence_dice": 3}
    # a weapon with two profiles (nested two upgrades deep) becomes two weapons
    assert weapons == [
        {"name": "Arc pistol (standard)", "type": "pistol", "attacks": 4, "hit": 3,
         "damage": [3, 5], "rules": ["range=8", "piercing=1"]},
        {"name": "Arc pistol (overload)", "type": "pistol", "attacks": 4, "hit": 3,
         "damage": [4, 5], "rules": ["range=8", "hot", "lethal=5", "piercing=1"]},
        {"name": "Lance blade", "type": "melee", "attacks": 4, "hit": 3, "damage": [4, 6],
         "rules": ["lethal=5", "shock"]},
    ]
    assert sergeant.guesses == ["leadership 8 (keyword LEADER)", "toughness 3 (default)",
                                "base 32 mm (default)"]


def test_2024_weapon_without_marker_and_unknown_rule() -> None:
    ada = read_team(ROS_2024).operatives[1]
    spike = ada.profile["weapons"][2]
    assert spike == {"name": "Tripwire Spike", "type": "melee", "attacks": 3, "hit": 4,
                     "damage": [2, 3], "rules": [],
                     "notes": "rules kept as text (not played by solo-ops): Toxin Coat*"}
    assert "Tripwire Spike: no ⌖/⚔ marker and no Range rule, read as melee, check it" \
        in ada.guesses
    assert ada.unknown_rules == ["Tripwire Spike: Toxin Coat*"]


def test_2024_heavy_gunner() -> None:
    gunner = read_team(ROS_2024).operatives[3]
    assert gunner.profile["movement"] == 5
    assert gunner.profile["weapons"][0] == {
        "name": "Storm caster", "type": "heavy", "attacks": 5, "hit": 4, "damage": [3, 4],
        "rules": ["heavy=dash", "ceaseless", "piercing_crits=1"]}


def test_rosz_reads_its_first_entry_whatever_its_name(tmp_path: Path) -> None:
    from_ros = read_team(ROS_2024)
    from_rosz = read_team(IMPORTS / "vesper-2024.rosz")
    assert [op.profile for op in from_rosz.operatives] == \
        [op.profile for op in from_ros.operatives]
    assert from_rosz.source.endswith("[roster export.ros]")
    # a .rosz holding two files reads the first one
    other = tmp_path / "two.rosz"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("a.ros", ROS_2024.read_bytes())
        archive.writestr("b.txt", "not a roster")
    assert len(read_team(other).operatives) == 4


def test_unmarked_weapon_with_a_range_rule_is_ranged() -> None:
    xml = ROS_2024.read_text(encoding="utf-8").replace(
        ">Toxin Coat*<", '>Range 6&quot;, Toxin Coat*<')
    ada = parse_team(xml.encode(), "x.ros", LeadershipPolicy()).operatives[1]
    spike = ada.profile["weapons"][2]
    assert (spike["type"], spike["rules"]) == ("rapid", ["range=6"])
    assert "Tripwire Spike: no ⌖/⚔ marker, read as ranged (its rules)" in ada.guesses


def test_leadership_policy() -> None:
    policy = LeadershipPolicy(default=6, by_keyword=(("GUNNER", 9), ("leader", 10)))
    team = read_team(ROS_2024, policy)
    assert [op.profile["leadership"] for op in team.operatives] == [10, 6, 6, 9]
    assert team.operatives[3].guesses[0] == "leadership 9 (keyword GUNNER)"


def test_2021_roster() -> None:
    team = read_team(IMPORTS / "reeves-2021.ros")
    assert team.edition == "kt2021"
    maud, wader = team.operatives
    assert maud.name == "Old Maud"
    p = dict(maud.profile)
    weapons = p.pop("weapons")
    assert p == {"name": "Reeve", "movement": 6, "leadership": 8, "toughness": 3,
                 "wounds": 10, "save": 4, "base_mm": 32, "apl": 3, "defence_dice": 3}
    # the weapon's title row ("-" everywhere) is skipped; "!" crit rules are read too
    assert weapons == [
        {"name": "Tide pistol - Standard", "type": "pistol", "attacks": 4, "hit": 3,
         "damage": [5, 6], "rules": ["range=6", "piercing=1"]},
        {"name": "Tide pistol - Surge", "type": "pistol", "attacks": 4, "hit": 3,
         "damage": [5, 6], "rules": ["range=6", "piercing=2", "hot", "devastating=2"]},
        {"name": "Gaff hook", "type": "melee", "attacks": 4, "hit": 3, "damage": [4, 5],
         "rules": ["ceaseless", "rending"]},
    ]
    assert wader.profile["movement"] == 4  # 2⬤
    assert wader.profile["weapons"][0]["type"] == "special"  # Torrent
    assert wader.profile["weapons"][0]["rules"] == ["range=6", "torrent=2"]
    assert wader.unknown_rules == ["Brine thrower: Indirect"]
    assert wader.profile["weapons"][1]["rules"] == ["piercing_crits=1"]


def test_2018_roster_older_battlescribe_layout() -> None:
    # BattleScribe 2.01: characteristics in value="" attributes, profileTypeName, number="2"
    team = read_team(IMPORTS / "reavers-2018.ros")
    assert team.edition == "kt2018"
    assert [op.name for op in team.operatives] == ["Skarg", "Reaver 1", "Reaver 2"]
    boss = dict(team.operatives[0].profile)
    weapons = boss.pop("weapons")
    assert boss == {"name": "Reaver Boss", "movement": 5, "leadership": 8, "toughness": 4,
                    "wounds": 2, "save": 4, "base_mm": 32, "ws": 3, "bs": 4, "strength": 4,
                    "attacks": 3, "invulnerable": 5}
    assert weapons[0] == {"name": "Slugga", "type": "pistol", "range": 12, "shots": 1,
                          "strength": 4, "ap": 0, "damage_2018": 1}
    klaw = weapons[1]
    assert {k: v for k, v in klaw.items() if k != "notes"} == {
        "name": "Power klaw", "type": "melee", "strength": 8, "ap": -3, "damage_2018": "D3"}
    assert "subtract 1 from the hit roll" in klaw["notes"]
    reaver_weapons = team.operatives[1].profile["weapons"]
    assert reaver_weapons == [
        # 004 "Assault 2": an Assault weapon (fired after an Advance at -1 to hit), not rapid
        {"name": "Shoota", "type": "assault", "range": 18, "shots": 2, "strength": 4, "ap": 0,
         "damage_2018": 1},
        {"name": "Stikkbomb", "type": "grenade", "range": 6, "shots": "D6", "strength": 3,
         "ap": 0, "damage_2018": 1},
    ]


@pytest.mark.parametrize("fixture", ["vesper-2024.ros", "vesper-2024.rosz", "reeves-2021.ros",
                                     "reavers-2018.ros"])
def test_outputs_load_with_the_project_loaders(fixture: str) -> None:
    team = read_team(IMPORTS / fixture)
    squad = parse_squad(squad_document(team, "Ana"), "squad.yaml")
    assert [m.name for m in squad.models] == [op.name for op in team.operatives]
    document, counts = roster_document(team)
    roster = parse_roster(document, "roster.yaml")
    assert sum(counts.values()) == len(team.operatives)
    assert set(roster.table.values()) <= set(roster.profiles)
    rules = {r for p in roster.profiles.values() for w in p.weapons for r in w.rules}
    assert all(isinstance(r, WeaponRule) for r in rules)


def test_squad_ids_are_plain_and_unique() -> None:
    squad = squad_document(read_team(ROS_2024), "Ana")
    assert [m["id"] for m in squad["models"]] == \
        ["sgt-kell-voss", "ada-quill", "lancer-trooper", "brunhilde"]
    # never shaped like the ids the game gives revealed enemies (<profile>-<n>), counters (c3)
    # or units (u3), so a squad can face a roster imported from the same file
    squad = squad_document(read_team(IMPORTS / "reavers-2018.ros"), "Ben")
    assert [m["id"] for m in squad["models"]] == ["skarg", "reaver1", "reaver2"]
    taken: set[str] = set()
    assert [model_id(n, taken) for n in ("Lancer", "Lancer", "Lancer", "C1", "u12", "")] == \
        ["lancer", "lancer-b", "lancer-c", "op-c1", "op-u12", "operative"]


def _ros(body: str, system: str = "Warhammer 40,000: Kill Team (2024)") -> bytes:
    return (f'<?xml version="1.0"?><roster name="t" gameSystemName="{system}" '
            f'xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces><force>'
            f"<selections>{body}</selections></force></forces></roster>").encode()


def _model(apl: str = "2", move: str = "6&quot;", extra: str = "") -> str:
    return ('<selection name="Grunt" type="model"><profiles><profile name="Grunt" '
            'typeName="Operative"><characteristics>'
            f'<characteristic name="APL">{apl}</characteristic>'
            f'<characteristic name="Move">{move}</characteristic>'
            '<characteristic name="Save">5+</characteristic>'
            '<characteristic name="Wounds">7</characteristic>'
            f"</characteristics></profile>{extra}</profiles></selection>")


@pytest.mark.parametrize(("data", "message"), [
    (b"just text", "x.ros: is not XML"),
    (b"<roster", "x.ros: line 1, column"),
    (_ros(_model(), "Warhammer 40,000 10th Edition"),
     "x.ros: roster@gameSystemName: unknown game system 'Warhammer 40,000 10th Edition'"),
    (_ros(_model(apl="abc")),
     "x.ros: selection \"Grunt\" profile \"Grunt\": APL: expected a number (like 3 or 3+), "
     "got 'abc'"),
    (_ros(_model(apl="-")), "x.ros: selection \"Grunt\" profile \"Grunt\": APL: is missing"),
    (_ros(_model(move="fast")), "Move: expected a number (like 3 or 3+), got 'fast'"),
    (_ros(""), "x.ros: forces: no operatives found"),
    (_ros('<selection name="Grunt" type="model"/>'),
     'x.ros: selection "Grunt": has no Operative profile'),
    (_ros(_model(extra='<profile name="⌖ Gun" typeName="Weapons"><characteristics>'
                 '<characteristic name="ATK">4</characteristic>'
                 '<characteristic name="HIT">x+</characteristic>'
                 '<characteristic name="DMG">3/4</characteristic>'
                 "</characteristics></profile>")),
     'profile "⌖ Gun": HIT: expected a number (like 3 or 3+), got \'x+\''),
    (_ros(_model(extra='<profile name="⌖ Gun" typeName="Weapons"><characteristics>'
                 '<characteristic name="ATK">4</characteristic>'
                 '<characteristic name="HIT">4+</characteristic>'
                 '<characteristic name="DMG">3</characteristic>'
                 "</characteristics></profile>")),
     "DMG: expected normal/critical damage like 3/4, got '3'"),
    (b'<?xml version="1.0"?><catalogue xmlns="http://www.battlescribe.net/schema/'
     b'catalogueSchema"/>', "x.ros: <catalogue>: is a BattleScribe catalogue file"),
    (b"<html><body/></html>", "x.ros: <html>: is XML but not a BattleScribe roster"),
])
def test_bad_rosters_name_the_file_and_element(data: bytes, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_team(data, "x.ros", LeadershipPolicy())
    assert message in info.value.line()


def test_3_plus_is_read_where_a_number_is_needed() -> None:
    team = parse_team(_ros(_model(apl="3+")), "x.ros", LeadershipPolicy())
    assert team.operatives[0].profile["apl"] == 3


BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE roster [\n<!ENTITY a "aaaaaaaaaa">\n'
    '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n'
    ']>\n<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="&c;"/>\n')
EXTERNAL = (
    '<?xml version="1.0"?>\n<!DOCTYPE roster [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>\n'
    '<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="&x;"/>\n')


@pytest.mark.parametrize(("xml", "message"), [
    (BILLION_LAUGHS, "x.ros: <!ENTITY>: refused: the XML declares an entity 'a' (entity "
                     "expansion"),
    (EXTERNAL, "x.ros: <!ENTITY>: refused: the XML declares an external entity 'x' "
               "(file:///etc/passwd)"),
])
def test_entities_are_refused(xml: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_team(xml.encode(), "x.ros", LeadershipPolicy())
    assert message in info.value.line()


def test_zip_problems(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is not a zip file"):
        parse_team(b"plain text", "x.rosz", LeadershipPolicy())
    empty = io.BytesIO()
    zipfile.ZipFile(empty, "w").close()
    with pytest.raises(InputError, match="the zip holds no roster"):
        parse_team(empty.getvalue(), "x.rosz", LeadershipPolicy())
    not_xml = io.BytesIO()
    with zipfile.ZipFile(not_xml, "w") as archive:
        archive.writestr("roster.ros", "hello")
    with pytest.raises(InputError, match=r"x.rosz \[roster.ros\]: is not XML"):
        parse_team(not_xml.getvalue(), "x.rosz", LeadershipPolicy())


def test_large_files_are_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.ros"
    with big.open("wb") as handle:
        handle.seek(50 * 2**20 - 1)
        handle.write(b"\0")
    with pytest.raises(InputError, match=r"big.ros: is too large \(50.0 MiB; a roster file to "
                                         r"import is at most 10.0 MiB\)"):
        read_team(big)
    # a zipped entry that unzips past the limit is refused too (a zip bomb)
    bomb = tmp_path / "bomb.rosz"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("r.ros", b"<" + b" " * (11 * 2**20))
    assert bomb.stat().st_size < 2**20
    with pytest.raises(InputError, match="unzipped; a roster is at most 10 MB"):
        read_team(bomb)
