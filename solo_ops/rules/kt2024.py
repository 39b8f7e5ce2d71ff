"""Kill Team 2024 shooting and fighting: attack dice, defence dice, and every weapon rule.

The rules are split into small deterministic steps that both the exact odds
(:mod:`solo_ops.rules.odds`) and the rolled mode below share, so the two can never disagree:

1. :class:`AttackSpec` / :class:`DefenceSpec` describe the attack and the defender.
2. Attack dice: Accurate retains dice as normal hits unrolled; the rest are rolled, then
   re-rolled by the fixed policy (:func:`ceaseless_value`, Relentless, Balanced): failed dice
   only, never successes, each die at most once. In rolled mode a side may then re-roll dice
   not yet re-rolled for Command Points (:func:`cp_rerolls`, asked through a chooser).
3. :func:`after_roll` applies the rules that change results after the roll, in one fixed order:
   Obscured, Punishing, Rending, Severe (see ``docs/rules.md, "Combat"``).
4. :func:`defence_dice_count` (Piercing, Piercing Crits), :func:`cover_saves` (cover, Saturate,
   a cover save that could block nothing rolled instead: :func:`cover_useless`),
   then :func:`allocate_saves` blocks the most damage it can (Brutal: crit saves only).
5. :func:`resolve_fight` plays a melee exchange with a documented deterministic policy.

Targeting and movement rules (Blast, Torrent, Heavy, Range, Silent, Limited, Seek, the distance
form of Devastating) do not change dice; they are answered by the small functions of
:mod:`solo_ops.rules.kt2024_targeting`, which the engine and the AI ask before and after an
attack.

Rolled mode (:func:`roll_shot`, :func:`roll_fight`, :func:`roll_hot`) rolls through the game's
:class:`~solo_ops.core.dice.Dice`, so every die is logged with its purpose.

This module is the public entry: it re-exports every name from the modules that own them.

* :mod:`solo_ops.rules.kt2024_dice`: the specs and the dice steps (1-4, and Hot's damage).
* :mod:`solo_ops.rules.kt2024_fight`: the fight (5) and Devastating in a fight.
* :mod:`solo_ops.rules.kt2024_fight_solver`: the fight policy's game tree, solved.
* :mod:`solo_ops.rules.kt2024_rolled`: rolled mode and Command Point re-rolls.
* :mod:`solo_ops.rules.kt2024_targeting`: targeting and movement rules.
"""

from __future__ import annotations

from solo_ops.rules.kt2024_dice import (
    CRIT,
    FAIL,
    NORMAL,
    AttackSpec,
    Blocks,
    DefenceSpec,
    Retained,
    after_roll,
    allocate_saves,
    ceaseless_value,
    classify,
    classify_save,
    cover_means,
    cover_saves,
    cover_useless,
    defence_dice_count,
    hot_damage,
    shot_damage,
)
from solo_ops.rules.kt2024_fight import (
    NO_WOUNDS_CAP,
    FightChoice,
    FightChooser,
    FightOption,
    FightOutcome,
    FightSide,
    FightStep,
    devastating_before,
    fight_devastating,
    fight_options,
    fight_totals,
    fight_with_devastating,
    resolve_fight,
    solvers,
)
from solo_ops.rules.kt2024_fight_solver import ACTIONS, FightRules, FightSolver
from solo_ops.rules.kt2024_rolled import (
    MOVE_WORDS,
    CoverChooser,
    CoverOffer,
    CpChooser,
    DiceResult,
    FightRoll,
    RerollOffer,
    ShotRoll,
    attack_cp_rerolls,
    cp_rerolls,
    policy_reason,
    roll_attack_dice,
    roll_fight,
    roll_hot,
    roll_shot,
    step_line,
)
from solo_ops.rules.kt2024_targeting import (
    Candidate,
    Secondary,
    devastating_splash,
    heavy_allowed_moves,
    in_range,
    may_shoot_after_move,
    may_shoot_while_concealed,
    secondary_rule,
    secondary_targets,
    uses_left,
    valid_target,
    vantage_accuracy,
    vantage_accurate,
)

__all__ = [
    "ACTIONS", "CRIT", "FAIL", "MOVE_WORDS", "NORMAL", "NO_WOUNDS_CAP", "AttackSpec", "Blocks",
    "Candidate", "CoverChooser", "CoverOffer", "CpChooser", "DefenceSpec", "DiceResult",
    "FightChoice", "FightChooser", "FightOption", "FightOutcome", "FightRoll", "FightRules",
    "FightSide", "FightSolver", "FightStep", "RerollOffer", "Retained", "Secondary", "ShotRoll",
    "after_roll", "allocate_saves", "attack_cp_rerolls", "ceaseless_value", "classify",
    "classify_save", "cover_means", "cover_saves", "cover_useless", "cp_rerolls",
    "defence_dice_count", "devastating_before", "devastating_splash", "fight_devastating",
    "fight_options", "fight_totals", "fight_with_devastating", "heavy_allowed_moves", "hot_damage",
    "in_range", "may_shoot_after_move", "may_shoot_while_concealed", "policy_reason",
    "resolve_fight", "roll_attack_dice", "roll_fight", "roll_hot", "roll_shot", "secondary_rule",
    "secondary_targets", "shot_damage", "solvers", "step_line", "uses_left", "valid_target",
    "vantage_accuracy", "vantage_accurate",
]
