"""The troop type reads a weapon's ``type`` (the supplement's category), never its Kill Team 2018
type (``type_2018``): 003 "Rapid fire weapons: Fire Teams / Melee weapons: Melee / Heavy/special
weapons: Support". The plasma gun (``special``; 2018 Rapid Fire 1), the synaptic disintegrator
(``heavy``; 2018 Rapid Fire 1), the big shoota (``heavy``; 2018 Assault 3) and the burna
(``special``; 2018 Assault D3) keep their models Support under both editions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from solo_ops.core.model import WeaponType
from solo_ops.core.tables import TroopType
from solo_ops.io.roster import load_roster
from solo_ops.rules.orders import model_troop_type, troop_type
from tests.support.paths import ROSTERS


@pytest.mark.parametrize(("roster", "key", "troop"), [
    ("militarum-platoon", "plasma-gunner", TroopType.SUPPORT),
    ("necron-patrol", "deathmark", TroopType.SUPPORT),
    ("ork-mob", "big-shoota", TroopType.SUPPORT),
    ("ork-mob", "burna-boy", TroopType.SUPPORT),
    ("ork-mob", "shoota-boy", TroopType.FIRE_TEAMS),
    ("militarum-platoon", "guardsman", TroopType.FIRE_TEAMS),
    ("militarum-platoon", "heavy-bolter", TroopType.SUPPORT),
])
@pytest.mark.parametrize("edition", ["kt2024", "kt2018"])
def test_a_models_troop_type_is_its_supplement_category(roster: str, key: str,
                                                        troop: TroopType, edition: str) -> None:
    profile = load_roster(ROSTERS / f"{roster}.yaml").profiles[key].for_edition(edition)
    assert model_troop_type(profile) is troop
    assert model_troop_type(profile, "every_weapon") in (troop, TroopType.MELEE)


def test_the_2018_type_alone_changes_no_troop_type() -> None:
    """The same plasma gunner with its 2018 type taken away (``type_2018`` None) and with it
    set to every 2018 type: Support each time, and a unit of two guardsmen and the gunner is a
    Fire Team (2 rapid to 1 special) either way."""
    roster = load_roster(ROSTERS / "militarum-platoon.yaml")
    gunner = roster.profiles["plasma-gunner"].for_edition("kt2018")
    guard = roster.profiles["guardsman"].for_edition("kt2018")
    for kind in (None, *(WeaponType(k) for k in ("rapid", "assault", "heavy", "pistol"))):
        weapons = tuple(replace(w, type_2018=kind) if not w.is_melee else w
                        for w in gunner.weapons)
        changed = replace(gunner, weapons=weapons)
        assert model_troop_type(changed) is TroopType.SUPPORT, kind
        assert troop_type([guard, guard, changed]) is TroopType.FIRE_TEAMS, kind
