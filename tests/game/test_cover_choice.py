"""The defender's cover save where it could block nothing (issue 28 item 4).

Card 001: "In Cover — Defender can auto-retain 1 normal save"; 002 Brutal: "Your opponent can
only block with Crits." The defender *can* retain it: where a normal save could block nothing
(Brutal; a crits-only attack against a lone die or Save 6+) the rule rolls that die instead
(never worse: a 6 is a crit save), the enemy follows the rule, the odds commands use it and say
so, and the players are asked (``cover_saves: ask``).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.core.model import parse_weapon_rule
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import parse_scenario
from solo_ops.rules import kt2024
from solo_ops.rules.kt2024 import AttackSpec, DefenceSpec, Retained
from solo_ops.rules.odds import shoot_2024
from solo_ops.view.answers import parse

BRUTAL = (parse_weapon_rule("brutal"),)


# -- the rule and the odds ------------------------------------------------------------------------
def test_brutal_the_cover_save_is_rolled_not_retained() -> None:
    """One attack die, hit 2+, damage 3/4, Brutal, against one defence die (save 3+) in cover.
    By hand: a hit (5/6: 4/6 normal for 3, 1/6 crit for 4) is blocked only by a crit save; a
    retained normal save blocks nothing, so the die is rolled: 1/6 to block. Mean
    (4/6 * 3 + 1/6 * 4) * 5/6 = 16/6 * 5/6 = 20/9 (retaining it would be 16/6)."""
    odds = shoot_2024(AttackSpec(1, 2, 3, 4, BRUTAL), DefenceSpec(1, 3, None, True, False))
    assert odds.mean == Fraction(20, 9)
    assert kt2024.cover_useless(AttackSpec(1, 2, 3, 4, BRUTAL), DefenceSpec(1, 3), 1,
                                Retained(0, 1, 0)) is not None


def test_a_crit_against_a_lone_die_the_save_is_rolled_a_normal_hit_it_is_kept() -> None:
    """One attack die, hit 2+, damage 3/4, against one defence die (save 3+) in cover. A
    normal hit (4/6): the cover save blocks it, 0 damage. A crit (1/6): a lone normal save
    cannot block it (it needs a pair), so the die is rolled: blocked on a 6. Mean
    1/6 * 4 * 5/6 = 5/9 (always retaining: 1/6 * 4 = 2/3)."""
    odds = shoot_2024(AttackSpec(1, 2, 3, 4), DefenceSpec(1, 3, None, True, False))
    assert odds.mean == Fraction(5, 9)
    spec, defence = AttackSpec(1, 2, 3, 4), DefenceSpec(1, 3, None, True)
    assert kt2024.cover_saves(spec, defence, 1, Retained(0, 1, 0)) == 1
    assert kt2024.cover_saves(spec, defence, 1, Retained(1, 0, 0)) == 0
    # with a second die a pair can form: the save is kept
    assert kt2024.cover_saves(spec, DefenceSpec(2, 3, None, True), 2, Retained(1, 0, 0)) == 1


def test_the_exact_means_either_way() -> None:
    """The question's numbers: Brutal, a crit and a normal hit (4 + 3) against 2 dice, save 3+:
    keeping the save, one die rolled blocks one hit on a 6 (the crit: 3 left) -> mean
    7 - 1/6 * 4 = 19/3; rolling both, each 6 blocks a hit (the crit first): mean
    7 - (P(a 6) * 4 + P(two 6s) * 3) = 7 - (11/36 * 4 + 1/36 * 3) = 205/36."""
    keep, roll = kt2024.cover_means(AttackSpec(2, 2, 3, 4, BRUTAL), DefenceSpec(2, 3),
                                    Retained(1, 1, 0), 2)
    assert (keep, roll) == (Fraction(19, 3), Fraction(205, 36))


def test_combat_shoot_says_which_cover_rule_it_uses() -> None:
    args = ["combat", "shoot", "--attacks", "1", "--hit", "2", "--damage", "3/4", "--rule",
            "brutal", "--defence-dice", "1", "--save", "3", "--cover"]
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0, text.output
    assert "except where it could block nothing" in text.output and "2.222" in text.output
    doc = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert "Brutal" in doc["cover_rule"] and doc["mean"] == pytest.approx(20 / 9)


# -- in play --------------------------------------------------------------------------------------
CLAW_GUN = {"name": "ripper", "type": "rapid", "range": 24, "attacks": 2, "hit": 2,
            "damage": [3, 4], "rules": ["brutal"], "strength": 3, "shots": 1}


def profile(name: str, weapons: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": name, "movement": 6, "leadership": 7, "toughness": 3, "wounds": 10,
            "save": 3, "base_mm": 25.4, "apl": 2, "ws": 4, "bs": 4, "strength": 3,
            "attacks": 1, "weapons": weapons}


def game_with(**settings: Any) -> tuple[Any, Any]:
    """Vale (save 3+, 3 dice) behind a crate (light cover) from e1 (a Brutal gun, command 1:
    stationary, fire at will); the enemy has the initiative (1 v 6) and shoots first: its
    dice 2 6 (a normal hit and a crit)."""
    doc = {"name": "cover", "edition": "kt2024",
           "board": {"name": "open", "width": 30, "depth": 22, "features": [
               {"id": "crate", "traits": ["light"],
                "polygon": [[11, 10], [11.6, 10], [11.6, 12], [11, 12]]}]},
           "roster": {"name": "r", "profiles": {"g": profile("Gunner", [CLAW_GUN])},
                      "table": {i: "g" for i in range(1, 7)}},
           "engagement": 0, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "name": "Vale", "profile": profile("Trooper", [CLAW_GUN]),
                "at": [10, 11]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": "g", "at": [20, 11]}]}],
           "settings": {"turns": 1, "cp_rerolls": "never", **settings}}
    game, state = new_game(parse_scenario(doc, "cover.json"), 1)
    state.operatives["a1"].stance = "engage"  # Concealed in cover it could not be shot
    state.dice = ScriptedDice(faces=[1, 6, 2, 6, 6, 4, 1, 5, 5, 5])
    step(game, state, {"type": "engine"})
    return game, state


def test_the_player_is_asked_and_keeping_or_rolling_is_played() -> None:
    game, state = game_with()
    paused = step(game, state, {"type": "engine"})
    prompt = pending(game, state)
    assert prompt.kind == "cover" and prompt.options == ["roll", "keep"]
    # by hand (3 dice, save 3+, a crit 4 and a normal 3, Brutal: each 6 blocks a hit, the
    # crit first): keep -> 2 dice rolled, 7 - (11/36 * 4 + 1/36 * 3) = 205/36 = 5.694;
    # roll -> 3 dice, 7 - (91/216 * 4 + 16/216 * 3) = 1100/216 = 5.093
    assert "the weapon is Brutal" in prompt.text
    assert "Keep it anyway (mean damage 5.694) or roll that die too (mean damage 5.093)" \
        in prompt.text
    assert paused["events"][-1]["so_far"][0]["type"] == "enemy_activation"
    with pytest.raises(RuleError, match="first answer the cover save"):
        step(game, state, {"type": "done"})
    record = step(game, state, parse("roll", "cover"))
    attack = next(e for e in record["events"] if e["type"] == "attack")
    # all three dice rolled: 6 4 1 -> one crit save, it blocks the crit: 3 damage
    assert "Cover: the cover save is not retained, the die is rolled (the defender's choice; " \
        "the weapon is Brutal: only crit saves block, a normal save blocks nothing)." \
        in attack["lines"]
    assert "Defence dice (3+): 6 4 1." in attack["lines"] and attack["damage"] == 3


def test_keep_retains_it_and_rolls_one_die_fewer() -> None:
    game, state = game_with()
    step(game, state, {"type": "engine"})
    record = step(game, state, parse("keep", "cover"))
    attack = next(e for e in record["events"] if e["type"] == "attack")
    assert "Defence dice (3+): 6 4." in attack["lines"] and attack["damage"] == 3


def test_the_rule_decides_for_the_enemy_and_with_cover_saves_auto() -> None:
    game, state = game_with(cover_saves="auto")
    record = step(game, state, {"type": "engine"})
    attack = next(e for e in record["events"] if e["type"] == "attack")
    assert "Cover: the cover save is not retained, the die is rolled instead (the weapon is " \
        "Brutal: only crit saves block, a normal save blocks nothing)." in attack["lines"]
    assert pending(game, state).kind != "cover"
