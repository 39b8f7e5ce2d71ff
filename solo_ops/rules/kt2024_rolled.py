"""Kill Team 2024 rolled mode: shots, fights and Hot rolled through the game's dice.

:func:`roll_shot`, :func:`roll_fight` and :func:`roll_hot` roll through the game's
:class:`~solo_ops.core.dice.Dice`, so every die is logged with its purpose, and resolve the dice
with the same steps as the exact odds (:mod:`solo_ops.rules.kt2024_dice`,
:mod:`solo_ops.rules.kt2024_fight`). Attack dice are re-rolled by the weapon's rules
(Relentless, Ceaseless, Balanced), then a side may re-roll dice not yet re-rolled for Command
Points (:func:`cp_rerolls`, asked through a :data:`CpChooser`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from solo_ops.core.dice import Dice
from solo_ops.rules.kt2024_dice import (
    CRIT,
    FAIL,
    NORMAL,
    AttackSpec,
    DefenceSpec,
    Retained,
    after_roll,
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
    FightChoice,
    FightChooser,
    FightOption,
    FightStep,
    devastating_before,
    fight_with_devastating,
)


@dataclass
class DiceResult:
    """Attack dice as rolled and re-rolled (indices into ``faces``), before :func:`after_roll`."""

    faces: list[int]
    accurate: int
    rerolled: list[int] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    seq: int | None = None  # the log number of the roll (re-rolls refer to it)

    def counts(self, spec: AttackSpec) -> tuple[int, int, int]:
        kinds = [classify(f, spec) for f in self.faces]
        return kinds.count(CRIT), kinds.count(NORMAL) + self.accurate, kinds.count(FAIL)


@dataclass(frozen=True)
class RerollOffer:
    """Dice their owner may re-roll one of for 1 Command Point (card 001 "Re-Roll
    Attack/Defence Dice for 1CP"; 002 "Dice can only be re-rolled once"), shown after the
    roll and every weapon re-roll. Indices are 0-based places in ``faces`` (the rolled dice:
    Accurate and cover saves are not rolled, so not among them)."""

    what: str  # "attack" | "defence"
    label: str  # the roll's purpose so far ("e1 shoots Vale (autogun)")
    faces: tuple[int, ...]
    failed: tuple[int, ...]  # dice that failed (missed, or failed to save)
    rerolled: tuple[int, ...]  # dice already re-rolled (a weapon rule or CP): not again
    needed: int  # the Hit stat or the Save it was rolled against
    title: str = ""  # what the roll is, for people ("e1 fights Vale"); ``label`` if empty

    @property
    def eligible(self) -> tuple[int, ...]:
        """Dice that may still be re-rolled."""
        return tuple(i for i in range(len(self.faces)) if i not in self.rerolled)

    @property
    def improvable(self) -> tuple[int, ...]:
        """Failed dice that may still be re-rolled (worth asking about)."""
        return tuple(i for i in self.failed if i not in self.rerolled)


@dataclass(frozen=True)
class CoverOffer:
    """A cover save that could block nothing (:func:`cover_useless`): its owner decides
    whether to retain it anyway or roll that die (001: the defender "can" retain it). The
    hits to save against, the dice collected, the Save, why the save is useless, and the
    exact mean damage either way."""

    label: str  # the shot ("e1 shoots Vale (autogun)")
    crits: int
    normals: int
    dice: int
    save: int
    why: str
    retain_mean: Fraction
    roll_mean: Fraction


CoverChooser = Callable[[CoverOffer], bool]
"""Asked about a cover save that could block nothing: True to retain it anyway."""


CpChooser = Callable[[RerollOffer], int | None]
"""Asked after a side's dice are rolled: the index of a die to re-roll for 1 CP, or None.
It is asked again after each re-roll, until it says None."""


def cp_rerolls(dice: Dice, faces: list[int], rerolled: list[int], what: str, label: str,
               needed: int, failed: Callable[[int], bool], choose: CpChooser | None,
               ref: int | None = None, title: str = "") -> list[str]:
    """Command Point re-rolls of ``faces`` (changed in place; re-rolled indices added to
    ``rerolled``): ``choose`` picks a die not yet re-rolled, or None to keep. Each re-roll is
    one logged D6 whose purpose names the die and the face it replaces. Returns the lines."""
    lines: list[str] = []
    while choose is not None:
        offer = RerollOffer(what, label, tuple(faces),
                            tuple(i for i in range(len(faces)) if failed(faces[i])),
                            tuple(sorted(rerolled)), needed, title)
        pick = choose(offer)
        if pick is None:
            break
        if pick not in offer.eligible:
            raise ValueError(f"{what} die {pick + 1} cannot be re-rolled")
        old = faces[pick]
        entry = dice.d6(f"{label}: CP re-roll of {what} die {pick + 1} (was {old})", ref=ref)
        faces[pick] = entry.face
        rerolled.append(pick)
        lines.append(f"CP re-roll of {what} die {pick + 1} (was {old}): {entry.face}.")
    return lines


def roll_attack_dice(dice: Dice, spec: AttackSpec, label: str, cp: CpChooser | None = None
                     ) -> DiceResult:
    """Roll the attack dice for ``spec`` (after Accurate) and apply the re-roll policy:
    Relentless re-rolls every failed die; otherwise Ceaseless re-rolls the failed value with
    the most dice, then Balanced re-rolls one failed die not yet re-rolled. Then ``cp`` (when
    given) may re-roll dice not yet re-rolled for Command Points (:func:`cp_rerolls`). Every
    roll is logged on ``dice`` with a purpose starting with ``label``."""
    result = _roll_attack_dice(dice, spec, label)
    if cp is not None and result.faces:
        result.lines.extend(attack_cp_rerolls(dice, result, spec, label, cp))
    return result


def attack_cp_rerolls(dice: Dice, result: DiceResult, spec: AttackSpec, label: str,
                      cp: CpChooser | None, title: str = "") -> list[str]:
    """Command Point re-rolls of rolled attack dice (see :func:`cp_rerolls`)."""
    return cp_rerolls(dice, result.faces, result.rerolled, "attack", label, spec.hit_needed,
                      lambda face: classify(face, spec) == FAIL, cp, result.seq, title)


def _roll_attack_dice(dice: Dice, spec: AttackSpec, label: str) -> DiceResult:
    accurate = min(spec.accurate, spec.attacks)
    result = DiceResult([], accurate)
    if accurate:
        result.lines.append(f"Accurate {spec.accurate}: {accurate} dice retained as normal "
                            "hits without rolling.")
    count = spec.attacks - accurate
    if count <= 0:
        return result
    entry = dice.pool(f"{label}: attack dice, hit {spec.hit_needed}+", count)
    result.faces = list(entry.faces)
    result.seq = entry.seq
    result.lines.append(f"Attack dice ({spec.hit_needed}+, crit {spec.crit_needed}+): "
                        f"{_faces(result.faces)}.")

    def failed(i: int) -> bool:
        return classify(result.faces[i], spec) == FAIL and i not in result.rerolled

    def reroll(indices: list[int], why: str) -> None:
        if not indices:
            return
        again = dice.pool(f"{label}: re-roll ({why})", len(indices), ref=entry.seq)
        before = [result.faces[i] for i in indices]
        for i, face in zip(indices, again.faces, strict=True):
            result.faces[i] = face
        result.rerolled.extend(indices)
        result.lines.append(f"{why} re-rolls {_faces(before)}: {_faces(list(again.faces))}.")

    if spec.has("relentless"):
        reroll([i for i in range(count) if failed(i)], "Relentless")
    else:
        if spec.has("ceaseless"):
            value = ceaseless_value(result.faces[i] for i in range(count) if failed(i))
            if value is not None:
                reroll([i for i in range(count) if failed(i) and result.faces[i] == value],
                       f"Ceaseless ({value}s)")
        if spec.has("balanced"):
            first = next((i for i in range(count) if failed(i)), None)
            if first is not None:
                reroll([first], "Balanced")
    return result


def _faces(faces: Sequence[int]) -> str:
    return " ".join(str(f) for f in faces) if faces else "none"


@dataclass
class ShotRoll:
    """A rolled shot: damage to the target and what the engine needs to know afterwards."""

    damage: int
    crits: int
    normals: int
    devastating: int
    stun: bool
    lines: list[str]


def roll_shot(dice: Dice, spec: AttackSpec, defence: DefenceSpec, label: str = "shoot", *,
              attack_cp: CpChooser | None = None, defence_cp: CpChooser | None = None,
              cover_choice: CoverChooser | None = None) -> ShotRoll:
    """Roll one shooting attack through ``dice`` (every die logged) and resolve it with the
    same steps as the exact odds. ``attack_cp`` / ``defence_cp``: the shooter's / the
    defender's Command Point re-rolls (:func:`cp_rerolls`), offered after each roll.
    ``cover_choice``: the defender's choice when its cover save could block nothing
    (:func:`cover_useless`; without it the rule decides: the die is rolled)."""
    rolled = roll_attack_dice(dice, spec, label, attack_cp)
    lines = list(rolled.lines)
    c, n, f = rolled.counts(spec)
    kept = after_roll(c, n, f, spec, defence.obscured)
    lines.extend(a[0].upper() + a[1:] + "." for a in kept.applied)
    lines.append(f"Retained: {kept.crits} crits, {kept.normals} normal hits.")
    if not kept.crits and not kept.normals:
        return ShotRoll(0, 0, 0, 0, False, [*lines, "No hits: no damage."])
    collected = defence_dice_count(spec, defence, kept.crits)
    if collected < defence.dice:
        lines.append(f"Piercing: the defender collects {collected} of {defence.dice} "
                     "defence dice.")
    retained_saves, said = _cover(spec, defence, kept, collected, label, cover_choice)
    lines.extend(said)
    csaves, nsaves = 0, retained_saves
    to_roll = collected - retained_saves
    if to_roll:
        entry = dice.pool(f"{label}: defence dice, save {defence.save}+", to_roll)
        faces = list(entry.faces)
        lines.append(f"Defence dice ({defence.save}+): {_faces(faces)}.")
        against = (f"{label}: {kept.crits} crit(s) and {kept.normals} normal hit(s) to save "
                   f"against{'; one normal save retained for cover' if retained_saves else ''}")
        lines.extend(cp_rerolls(dice, faces, [], "defence", label, defence.save,
                                lambda face: classify_save(face, defence.save) == FAIL,
                                _while_damaged(defence_cp, spec, defence, kept,
                                               retained_saves),
                                entry.seq, against))
        kinds = [classify_save(face, defence.save) for face in faces]
        csaves += kinds.count(CRIT)
        nsaves += kinds.count(NORMAL)
    damage, blocks = shot_damage(spec, defence, kept, csaves, nsaves)
    dev = spec.devastating * kept.crits
    if dev:
        lines.append(f"Devastating: {kept.crits} crits inflict {dev} damage at once.")
    if spec.has("brutal") and nsaves:
        lines.append("Brutal: only crit saves block.")
    lines.append(f"Saves: {csaves} crit, {nsaves} normal; blocked {blocks.crits_blocked} crits "
                 f"and {blocks.normals_blocked} normal hits.")
    lines.append(damage_line(damage, spec.devastating * kept.crits + blocks.damage))
    stun = spec.has("stun") and kept.crits > 0
    if stun:
        lines.append("Stun: the target loses 1 APL until the end of its next activation.")
    return ShotRoll(damage, kept.crits, kept.normals, dev, stun, lines)


def _cover(spec: AttackSpec, defence: DefenceSpec, kept: Retained, collected: int, label: str,
           choose: CoverChooser | None) -> tuple[int, list[str]]:
    """The normal saves retained for cover and the line that says so: the rule
    (:func:`cover_saves`), or the defender's own choice where the save could block nothing."""
    retained = cover_saves(spec, defence, collected, kept)
    if defence.cover and not retained and spec.has("saturate"):
        return 0, ["Saturate: no cover save."]
    why = (cover_useless(spec, defence, collected, kept)
           if defence.cover and collected > 0 else None)
    if why is None:
        return retained, (["Cover: one normal save retained without rolling."] if retained
                          else [])
    if choose is not None:
        keep_mean, roll_mean = cover_means(spec, defence, kept, collected)
        if choose(CoverOffer(label, kept.crits, kept.normals, collected, defence.save, why,
                             keep_mean, roll_mean)):
            return 1, [f"Cover: one normal save retained without rolling (the defender's "
                       f"choice; {why})."]
        return 0, [f"Cover: the cover save is not retained, the die is rolled (the defender's "
                   f"choice; {why})."]
    return 0, [f"Cover: the cover save is not retained, the die is rolled instead ({why})."]


def damage_line(damage: int, through: int) -> str:
    """``Damage: N.``, saying when the damage that got through was capped at the wounds the
    target had left."""
    if through <= damage:
        return f"Damage: {damage}."
    return (f"Damage: {damage} ({through} got through, capped at {damage} wound"
            f"{'s' if damage != 1 else ''} left).")


def _while_damaged(choose: CpChooser | None, spec: AttackSpec, defence: DefenceSpec,
                   kept: Retained, retained_saves: int) -> CpChooser | None:
    """``choose``, asked only while the saves rolled so far still let damage through: a
    defender whose dice already block every hit has nothing to re-roll for."""
    if choose is None:
        return None

    def ask(offer: RerollOffer) -> int | None:
        kinds = [classify_save(face, defence.save) for face in offer.faces]
        damage, _ = shot_damage(spec, defence, kept, kinds.count(CRIT),
                                kinds.count(NORMAL) + retained_saves)
        return choose(offer) if damage > 0 else None

    return ask


@dataclass
class FightRoll:
    dealt: int
    taken: int
    stun_defender: bool
    stun_attacker: bool
    lines: list[str]


def roll_fight(dice: Dice, attacker: AttackSpec, defender: AttackSpec,
               attacker_wounds: int | None, defender_wounds: int | None,
               names: tuple[str, str] = ("attacker", "defender"), *,
               cp: tuple[CpChooser | None, CpChooser | None] = (None, None),
               choosers: tuple[FightChooser | None, FightChooser | None] = (None, None)
               ) -> FightRoll:
    """Roll a fight: both sides roll attack dice (logged), then each side's Command Point
    re-rolls (``cp``: the attacker's, the defender's; after both rolled, as at the table),
    apply Devastating, then resolve with :func:`resolve_fight`'s policy — or, for a side
    with a chooser (``choosers``), die by die as it chooses; the chooser's
    :class:`FightChoice` carries the fight's lines so far (``lines``)."""
    lines: list[str] = []
    kept = []
    sides = ((attacker, names[0]), (defender, names[1]))
    rolls = [(_roll_attack_dice(dice, spec, f"fight, {name}"), spec, name)
             for spec, name in sides]
    for index, ((rolled, spec, name), choose) in enumerate(zip(rolls, cp, strict=True)):
        if choose is not None and rolled.faces:
            # the players see the other side's dice before they choose, as at the table
            other, other_spec, other_name = rolls[1 - index]
            shown = f"{other_name}'s dice ({other_spec.hit_needed}+): {_faces(other.faces)}"
            if other.accurate:
                shown += f" and {other.accurate} retained by Accurate"
            rolled.lines.extend(attack_cp_rerolls(dice, rolled, spec, f"fight, {name}",
                                                  choose, f"{names[0]} fights {names[1]}; "
                                                  f"{shown}"))
        lines.extend(f"{name}: {line}" for line in rolled.lines)
        ret = after_roll(*rolled.counts(spec), spec)
        lines.extend(f"{name}: {a}." for a in ret.applied)
        lines.append(f"{name}: retained {ret.crits} crits, {ret.normals} normal hits.")
        kept.append(ret)
    dev = devastating_before(attacker, defender, kept[0], kept[1], attacker_wounds,
                             defender_wounds)
    dev_lines = [f"{name}: Devastating inflicts {amount} damage."
                 for name, amount in zip(names, dev, strict=True) if amount]
    outcome, _ = fight_with_devastating(
        attacker, defender, kept[0], kept[1], attacker_wounds, defender_wounds,
        choosers=_with_lines(choosers, [*lines, *dev_lines], names))
    lines.extend(dev_lines)
    lines.extend(step_line(step, names) for step in outcome.steps)
    lines.append(f"Damage dealt {outcome.dealt}, taken {outcome.taken}.")
    return FightRoll(outcome.dealt, outcome.taken,
                     attacker.has("stun") and kept[0].crits > 0,
                     defender.has("stun") and kept[1].crits > 0, lines)


def _with_lines(choosers: tuple[FightChooser | None, FightChooser | None], told: list[str],
                names: tuple[str, str]) -> tuple[FightChooser | None, FightChooser | None]:
    """Each chooser, handed its choice with the fight's lines so far (the dice as rolled,
    ``told``, and the steps resolved before the choice) and the two names (its own first)."""

    def wrap(choose: FightChooser | None, own: tuple[str, str]) -> FightChooser | None:
        if choose is None:
            return None

        def ask(choice: FightChoice) -> str:
            shown = (*told, *(step_line(s, names) for s in choice.steps))
            return choose(replace(choice, lines=shown, names=own))

        return ask

    return wrap(choosers[0], names), wrap(choosers[1], (names[1], names[0]))


MOVE_WORDS = {"strike_crit": "strike with a crit", "strike_normal": "strike with a normal hit",
              "block_crit_crit": "block a crit with a crit",
              "block_normal_normal": "block a normal hit with a normal hit",
              "block_crit_normal": "block a normal hit with a crit"}
"""A fight move in words (the moves of :data:`~solo_ops.rules.kt2024_fight_solver.ACTIONS`)."""


def step_line(step: FightStep, names: tuple[str, str]) -> str:
    """One resolved die in words; a step the policy made with its options kept (the other side
    chose its own moves) says why (:func:`policy_reason`)."""
    who = names[0] if step.side == "attacker" else names[1]
    if step.action == "strike":
        text = f"{who} strikes with a {step.die} hit for {step.damage} damage"
        if step.full > step.damage:
            text += (f" ({step.full}, capped at {step.damage} wound"
                     f"{'s' if step.damage != 1 else ''} left)")
        if step.shock:
            text += f" (Shock discards a {step.shock} hit)"
    else:
        text = f"{who} blocks a {step.against} hit with a {step.die}"
    if step.options and len(step.options) > 1:
        text += f" ({policy_reason(step.move, step.options)})"
    return text + "."


def policy_reason(move: str, options: Sequence[FightOption]) -> str:
    """Why the policy made ``move`` among ``options``: its outcome (damage dealt and taken to
    the end of the fight, both sides then playing the policy) against the next best move's."""
    made = next(o for o in options if o.move == move)
    others = sorted((o for o in options if o.move != move),
                    key=lambda o: (-(o.dealt - o.taken), o.taken))
    text = (f"its policy, the most damage dealt minus taken: this way it deals {made.dealt} "
            f"and takes {made.taken}")
    if others:
        best = others[0]
        text += (f"; to {MOVE_WORDS[best.move]} instead it would deal {best.dealt} and take "
                 f"{best.taken}")
        if best.dealt - best.taken == made.dealt - made.taken:
            text += (": the same, and on a tie the policy strikes before it blocks, crits "
                     "first")
    return text


def roll_hot(dice: Dice, weapon_hit: int, label: str) -> tuple[int, str]:
    """Hot: one D6 after the weapon is used (once per action, after all its targets)."""
    entry = dice.d6(f"{label}: Hot")
    damage = hot_damage(entry.face, weapon_hit)
    text = (f"Hot: rolled {entry.face}, below {weapon_hit}+: {damage} damage to the shooter."
            if damage else f"Hot: rolled {entry.face}, no damage.")
    return damage, text

