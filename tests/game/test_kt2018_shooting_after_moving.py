"""In a Kill Team 2018 game, a shot takes its modifiers from how the shooter moved, and a
model that Advanced fires only an Assault weapon: 004 ASSAULT "You can choose to shoot with a
model with an Assault weapon in the Shooting phase ... even if it Advanced ... it can only fire
Assault weapons"; HEAVY "If a model with a Heavy weapon moved ... subtract 1 from any hit
rolls". The engine's attack (:func:`solo_ops.game.attacks.attack_2018`, both sides) and the
players' checks. Reading: docs/rules.md, "Kill Team 2018 (Pariah Nexus): phases and reactions".
"""

from __future__ import annotations

import dataclasses

from solo_ops.game.engine import pending, step
from tests.support.portal_board import start


def test_an_attack_reads_heavy_and_assault_from_the_shooter() -> None:
    """The engine's 2018 attack (both sides) takes the modifiers from what the model did."""
    from types import SimpleNamespace

    from solo_ops.core.model import DiceExpr, Profile, Weapon, WeaponType
    from solo_ops.game import attacks

    profile = Profile(name="m", movement=6, leadership=7, toughness=4, wounds=1, save=4,
                      base_mm=25, ws=4, bs=4, strength=4, attacks=1)
    heavy = Weapon("cannon", WeaponType.HEAVY, range=24, shots=DiceExpr(0, 0, 1), strength=5)
    assault = Weapon("storm", WeaponType.ASSAULT, range=24, shots=DiceExpr(0, 0, 2),
                     strength=4)
    moved = SimpleNamespace(profile=profile, moved_how="normal", advanced=False, at=None,
                            flesh_wounds=0)
    ran = SimpleNamespace(profile=profile, moved_how="advance", advanced=True, at=None,
                          flesh_wounds=0)
    target = SimpleNamespace(profile=profile, at=None)
    a = attacks.attack_2018(heavy, moved, target, long_range=False)
    assert a is not None and ("Heavy, moved", -1) in a.hit_modifiers
    b = attacks.attack_2018(assault, ran, target, long_range=False)
    assert b is not None and ("Assault, advanced", -1) in b.hit_modifiers
    c = attacks.attack_2018(assault, moved, target, long_range=False)
    assert c is not None and c.hit_modifiers == []


def test_after_an_advance_only_an_assault_weapon_fires() -> None:
    """004 Assault: "You can choose to shoot with a model with an Assault weapon in the
    Shooting phase ... even if it Advanced ... it can only fire Assault weapons"."""
    game, state = start({"a1": (3, 11)}, edition="kt2018")
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "move", "how": "advance", "to": [8, 11]})
    step(game, state, {"type": "done"})
    from solo_ops.game import turns

    while state.phase == "movement":
        step(game, state, {"type": "engine"} if pending(game, state).kind == "engine"
             else {"type": "activate", "operative": pending(game, state).options[0]}
             if pending(game, state).kind == "activate" else {"type": "done"})
    assert state.phase == "shooting" and state.turn == 1
    # a1 has no Assault weapon: it has nothing to do in the shooting phase, so it is not asked
    assert "a1" not in [o.id for o in turns.player_ready(game, state, "Ana")]
    from solo_ops.rules import kt2018

    assert not kt2018.may_fire_after("rapid", "advance")  # the shot would be refused
    assert kt2018.may_fire_after("assault", "advance")
    a1 = state.operatives["a1"]
    a1.profile = dataclasses.replace(a1.profile, weapons=(dataclasses.replace(
        a1.profile.weapons[0], type="assault"),))
    assert "a1" in [o.id for o in turns.player_ready(game, state, "Ana")]  # with one it is
