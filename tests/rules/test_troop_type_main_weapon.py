"""A unit's troop type counts each model's main weapon: 003 "Troop types are decided by
the most common type of weapons a unit carries."

A model's main weapon is its best ranged weapon other than a pistol or grenade, else its melee
weapon (:func:`solo_ops.rules.orders.main_weapon`); the older reading, every weapon counted, is
the setting ``troop_count: every_weapon``. Reading: docs/rules.md, "Orders and units".
"""

from __future__ import annotations

from solo_ops.core.settings import parse_settings
from solo_ops.core.tables import TroopType
from solo_ops.io.roster import load_roster
from solo_ops.rules.orders import form_units, main_weapon, troop_type
from tests.support.paths import ROSTERS

MILITARUM = load_roster(ROSTERS / "militarum-platoon.yaml")


def _militarum(*keys: str) -> list:
    return [MILITARUM.profiles[k].for_edition("kt2024") for k in keys]


def test_a_guardsman_squad_with_a_heavy_bolter_is_a_fire_team() -> None:
    """003: "Troop types are decided by the most common type of weapons a unit carries."
    Two guardsmen (lasgun, bayonet) and a heavy bolter gunner (heavy bolter, fists): main
    weapons are 2 rapid + 1 heavy, so Fire Teams; counting every weapon (the older reading) it
    was 3 melee, 2 rapid, 1 heavy: Melee, and the gunner charged."""
    squad = _militarum("guardsman", "guardsman", "heavy-bolter")
    assert troop_type(squad) is TroopType.FIRE_TEAMS
    assert troop_type(squad, "every_weapon") is TroopType.MELEE
    units = form_units([("g1", squad[0]), ("g2", squad[1]), ("hb", squad[2])], 3)
    assert [(u.models, u.troop) for u in units] == [(("g1", "g2", "hb"), TroopType.FIRE_TEAMS)]


def test_main_weapon_is_the_best_ranged_one_else_melee() -> None:
    """003 (troop types): a sergeant with a laspistol and a chainsword fights in melee (a pistol
    is never a main weapon when the model has another); the gunner's main weapon is its heavy
    bolter, not its fists."""
    guard, gunner, sergeant = _militarum("guardsman", "heavy-bolter", "sergeant")
    assert main_weapon(guard).name == "lasgun"
    assert main_weapon(gunner).name == "heavy bolter"
    assert main_weapon(sergeant).name == "chainsword"
    assert troop_type([sergeant]) is TroopType.MELEE


def test_troop_count_is_a_named_setting() -> None:
    """The older reading stays available as ``settings: {troop_count: every_weapon}``."""
    assert parse_settings(None, "s.yaml").troop_count == "main_weapon"
    assert parse_settings({"troop_count": "every_weapon"}, "s.yaml").troop_count == \
        "every_weapon"
