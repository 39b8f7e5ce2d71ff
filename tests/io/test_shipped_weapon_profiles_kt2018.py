"""Every shipped roster and squad gives each ranged weapon its Kill Team 2018 type, shots and range
(``type_2018``, ``shots``, ``range_2018`` or ``range``), while ``type`` stays the solo
supplement's category (003 "Rapid fire weapons: Fire Teams ... Heavy/special weapons: Support").

004 (Pariah Nexus) has no weapon profiles: it names the types ("HEAVY ... ASSAULT") and the
boltgun's range ("a boltgun has a Range of 24""). The values below are the Kill Team 2018 Core
Manual's datasheets (docs/rules.md "Kill Team 2018", weapon types), e.g. plasma gun "24" Rapid
Fire 1", synaptic disintegrator "24" Rapid Fire 1", big shoota "36" Assault 3", burna "8" Assault
D3", bolt pistol "12" Pistol 1"."""

from __future__ import annotations

import pytest

from solo_ops.core.model import Profile, WeaponType
from solo_ops.io.roster import load_roster, parse_profile
from solo_ops.io.yamlio import read_document
from tests.support.paths import ROSTERS, SCENARIOS

# weapon: (2018 type, shots, range in inches), from the 2018 Core Manual's datasheets
PROFILES_2018 = {
    "autogun": ("rapid", "1", 24), "boltgun": ("rapid", "1", 24), "lasgun": ("rapid", "1", 24),
    "plasma gun": ("rapid", "1", 24), "gauss flayer": ("rapid", "1", 24),
    "gauss blaster": ("rapid", "2", 24), "synaptic disintegrator": ("rapid", "1", 24),
    "shoota": ("assault", "2", 18), "big shoota": ("assault", "3", 36),
    "burna": ("assault", "D3", 8),
    "heavy bolter": ("heavy", "3", 36), "heavy stubber": ("heavy", "3", 36),
    "sniper rifle": ("heavy", "1", 36),
    "bolt pistol": ("pistol", "1", 12), "laspistol": ("pistol", "1", 12),
    "autopistol": ("pistol", "1", 12), "slugga": ("pistol", "1", 12),
}
# the supplement's category of the weapons whose 2018 type differs: unchanged
TROOP_CATEGORY = {"plasma gun": "special", "synaptic disintegrator": "heavy",
                  "big shoota": "heavy", "burna": "special"}


def _shipped_profiles() -> list[tuple[str, Profile]]:
    found: list[tuple[str, Profile]] = []
    for path in sorted(ROSTERS.glob("*.yaml")):
        found += [(f"{path.name}:{key}", p) for key, p in load_roster(path).profiles.items()]
    for path in sorted((SCENARIOS / "squads").glob("*.yaml")):
        doc = read_document(path)
        for i, model in enumerate(doc["models"]):
            found.append((f"{path.name}:{model['id']}", parse_profile(
                model["profile"], str(path), f"models[{i}].profile", model["id"])))
    return found


SHIPPED = _shipped_profiles()


@pytest.mark.parametrize(("where", "profile"), SHIPPED, ids=[w for w, _ in SHIPPED])
def test_each_ranged_weapon_plays_its_2018_profile(where: str, profile: Profile) -> None:
    for weapon in profile.for_edition("kt2018").weapons:
        if weapon.is_melee:
            continue
        assert weapon.type_2018 is not None, (where, weapon.name)  # said, not left to `type`
        kind, shots, reach = PROFILES_2018[weapon.name]
        assert weapon.kt2018_type is WeaponType(kind), (where, weapon.name)
        assert weapon.shots is not None and weapon.shots.text() == shots, (where, weapon.name)
        assert weapon.range == reach, (where, weapon.name)
        assert weapon.type.value == TROOP_CATEGORY.get(weapon.name, kind), (where, weapon.name)


def test_every_weapon_of_the_table_is_shipped() -> None:
    assert {w.split(".yaml")[0] for w, _ in SHIPPED} >= {"vesper", "ashen-blades", "ork-mob"}
    names = {w.name for _, p in SHIPPED for w in p.weapons if not w.is_melee}
    assert names == set(PROFILES_2018)


def test_a_pistol_keeps_its_2024_range_x() -> None:
    """001 "Range x": the 2024 bolt pistol reaches 8"; its 2018 range is 12"."""
    marine = load_roster(ROSTERS / "traitor-cult.yaml").profiles["chaos-marine"]
    assert marine.for_edition("kt2024").weapons[1].effective_range == 8.0
    assert marine.for_edition("kt2018").weapons[1].effective_range == 12.0

