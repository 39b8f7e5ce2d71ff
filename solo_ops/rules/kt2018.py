"""Kill Team 2018 attacks: hit roll, wound roll, saves, damage, injury roll, Nerve tests.

As in :mod:`solo_ops.rules.kt2024`, the rules are small deterministic functions shared by the
exact odds (:mod:`solo_ops.rules.odds`) and the rolled mode here (every die through the game's
:class:`~solo_ops.core.dice.Dice`, logged with its purpose).

One *attack* is every shot (or melee attack) a model makes with one weapon against one target,
resolved one at a time: hit roll, wound roll, save, damage. When the target reaches 0 wounds
an Injury roll decides flesh wound or out of action, and the rest of that attack's shots are
not resolved (the source says so of mortal wounds: "any further mortal wounds directed against
this model by this attack are not resolved"; solo-ops reads every attack that way).

The Pariah Nexus ultra-close-confines rules are options of :class:`Attack2018`:
``close_quarters`` (no long-range penalty for ranged weapons), ``concentrated_radius`` (a
random number of shots rolls one extra die and discards the lowest) and ``no_escape`` (+1 to
the Injury roll for a melee attack against a model pinned within 1" of a wall, door, terrain
feature or pitfall). Both of the first two are on by default: the 2018 game solo-ops plays is
the ultra-close-confines one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from solo_ops.core.dice import Dice, RollEntry
from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.model import DiceExpr, Profile, Weapon, WeaponType

ONE = DiceExpr(0, 0, 1)
"""A fixed 1 (the default damage)."""

FLESH_WOUND_BOXES = 3
"""The Flesh Wound boxes of a datacard (three). A model whose boxes are all marked is out of
action on its next flesh wound (004 Flesh Wound)."""


CLOSE_COMBAT_WEAPON = Weapon("close combat weapon", WeaponType.MELEE, strength=None, ap=0,
                             damage_2018=ONE)
"""The Kill Team 2018 Core Manual's close combat weapon (not in 004): "Range Melee, Type Melee,
S User, AP 0, D 1" -- what a model with no melee weapon on its datasheet fights with, so every
model can charge and fight (``strength=None``: the bearer's Strength). docs/rules.md, "Kill
Team 2018"."""


def melee_weapons(profile: Profile, edition: str = "kt2018") -> tuple[Weapon, ...]:
    """The melee weapons a model fights with: its own; in Kill Team 2018, a model with none
    fights with the :data:`CLOSE_COMBAT_WEAPON`. Kill Team 2024 has no such default (a model
    without a melee weapon rolls no dice in a fight), so ``edition="kt2024"`` gives the
    profile's own only. Not a weapon of the profile: the troop type (rules.orders) never
    counts it."""
    own = profile.melee_weapons
    if own or edition != "kt2018":
        return own
    return (CLOSE_COMBAT_WEAPON,)


def _check(value: object, name: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"must be a whole number from {low} to {high}, got {excerpt(value)}",
                         source=name)


WEAPON_ABILITIES_2018: dict[str, dict[str, int]] = {
    # Kill Team 2018 Core Manual, Necron datasheets (gauss flayer, gauss blaster; not in 004):
    # "Gauss: each wound roll of 6+ is resolved with AP -4"
    "gauss": {"wound_roll": 6, "ap": -4},
}
"""The Kill Team 2018 weapon abilities the engine plays, as data: each a wound roll from
which the hit is resolved with another AP (``Weapon.abilities_2018`` names them; a roster's
unknown name is refused on loading)."""


def wound_ap_of(abilities: Iterable[str]) -> tuple[int, int] | None:
    """``(wound roll, AP)`` of the first of ``abilities`` that changes AP on a high wound
    roll (:data:`WEAPON_ABILITIES_2018`), or None: :attr:`Attack2018.wound_ap`."""
    for name in abilities:
        rule = WEAPON_ABILITIES_2018.get(name)
        if rule is not None and "wound_roll" in rule:
            return int(rule["wound_roll"]), int(rule["ap"])
    return None


@dataclass(frozen=True)
class Attack2018:
    """One model's attack with one weapon, and the conditions that modify it.

    ``skill`` is the Ballistic Skill (ranged) or Weapon Skill (melee). ``ap`` is the weapon's
    Armour Penetration; its sign is ignored (AP -1 and AP 1 both worsen saves by 1).
    ``hit_modifier``, ``wound_modifier`` and ``injury_modifier`` carry other rules (firing
    points, killzone effects). The Pariah Nexus effects in force (:mod:`solo_ops.rules.pariah`)
    come named: ``effect_hit``, ``effect_wound``, ``effect_injury`` and ``effect_strength``
    (``(effect, amount)`` pairs), the faces re-rolled (``wound_reroll``, ``injury_reroll``,
    with the effects that say so) and the Overwatch hit roll that always succeeds
    (``overwatch_hits_on``: 6, or 5 under Power Surges' intense lighting).
    """

    shots: DiceExpr
    skill: int
    strength: int
    ap: int = 0
    damage: DiceExpr = ONE
    melee: bool = False
    grenade: bool = False
    long_range: bool = False
    obscured: bool = False
    flesh_wounds: int = 0  # on the attacking model
    broken: bool = False  # the attacking model's kill team
    overwatch: bool = False
    hit_modifier: int = 0
    wound_modifier: int = 0
    injury_modifier: int = 0
    close_quarters: bool = True
    concentrated_radius: bool = True
    no_escape: bool = False
    heavy_moved: bool = False  # a Heavy weapon, its bearer moved in the Movement phase
    assault_advanced: bool = False  # an Assault weapon, its bearer Advanced
    rapid_fire: bool = False  # a Rapid Fire weapon at a target within half range: 2x attacks
    firing_point: bool = False  # the shooter benefits from a firing point
    effect_hit: tuple[tuple[str, int], ...] = ()
    effect_wound: tuple[tuple[str, int], ...] = ()
    effect_injury: tuple[tuple[str, int], ...] = ()
    effect_strength: tuple[tuple[str, int], ...] = ()
    wound_reroll: frozenset[int] = frozenset()
    wound_reroll_why: str | None = None
    injury_reroll: frozenset[int] = frozenset()
    injury_reroll_why: str | None = None
    overwatch_hits_on: int = 6
    overwatch_why: str | None = None
    # a weapon ability (Gauss): a wound roll of ``wound_ap[0]``+ (after modifiers) resolves
    # the hit with AP ``wound_ap[1]`` (:func:`wound_ap_of`)
    wound_ap: tuple[int, int] | None = None
    wound_ap_why: str | None = None  # the ability's name, for the words ("Gauss")

    def __post_init__(self) -> None:
        _check(self.skill, "skill", 2, 7)
        _check(self.strength, "strength", 1, 20)
        _check(self.ap, "ap", -6, 6)
        _check(self.flesh_wounds, "flesh_wounds", 0, 6)

    @property
    def hit_modifiers(self) -> list[tuple[str, int]]:
        """The cumulative hit roll modifiers the source lists, as ``(reason, amount)``."""
        mods: list[tuple[str, int]] = []
        if not self.melee:
            if self.long_range and not self.grenade and not self.close_quarters:
                mods.append(("long range", -1))
            if self.obscured:
                mods.append(("obscured", -1))
        if self.flesh_wounds:
            mods.append(("flesh wounds", -self.flesh_wounds))
        if self.broken:
            mods.append(("kill team broken", -1))
        if self.heavy_moved and not self.melee:
            mods.append(("Heavy, moved", -1))
        if self.assault_advanced and not self.melee:
            mods.append(("Assault, advanced", -1))
        if self.firing_point and not self.melee:
            mods.append(("firing point", 1))
        if self.hit_modifier:
            mods.append(("other", self.hit_modifier))
        return mods + [m for m in self.effect_hit if m[1]]

    @property
    def wound_modifiers(self) -> list[tuple[str, int]]:
        """The wound roll's modifiers, named (killzone and Pariah Nexus effects)."""
        mods = [("other", self.wound_modifier)] if self.wound_modifier else []
        return mods + [m for m in self.effect_wound if m[1]]

    @property
    def injury_modifiers(self) -> list[tuple[str, int]]:
        mods: list[tuple[str, int]] = []
        if self.no_escape and self.melee:
            mods.append(("No Escape", 1))
        if self.injury_modifier:
            mods.append(("other", self.injury_modifier))
        return mods + [m for m in self.effect_injury if m[1]]

    @property
    def effective_strength(self) -> int:
        """The attack's Strength with the effects in force (004 Enervating Shroud "subtract 1
        from its Strength characteristic"; Intramural Energies "add 1 to the Strength
        characteristic of that attack"), never below 1."""
        return max(1, self.strength + sum(a for _, a in self.effect_strength))

    @property
    def shots_factor(self) -> int:
        """What the number of attacks rolled is multiplied by: 2 for a Rapid Fire weapon
        within half range (:func:`rapid_fire_doubles`), else 1."""
        return 2 if self.rapid_fire and not self.melee else 1

    @property
    def concentrated(self) -> bool:
        """Whether Concentrated Radius applies: a ranged weapon with a random number of shots."""
        return self.concentrated_radius and not self.melee and self.shots.is_random


@dataclass(frozen=True)
class Target2018:
    """The target: Toughness, Save, invulnerable save, wounds left and flesh wounds.
    ``invulnerable_why``: the Pariah Nexus effects that gave, improved or took away its
    invulnerable save (:func:`solo_ops.rules.pariah.invulnerable`)."""

    toughness: int
    save: int
    invulnerable: int | None = None
    wounds: int = 1
    flesh_wounds: int = 0
    invulnerable_why: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check(self.toughness, "toughness", 1, 20)
        _check(self.save, "save", 2, 7)
        if self.invulnerable is not None:
            _check(self.invulnerable, "invulnerable", 2, 6)
        _check(self.wounds, "wounds", 1, 99)
        _check(self.flesh_wounds, "flesh_wounds", 0, 6)


# -- the steps -------------------------------------------------------------------------------


def hits(face: int, attack: Attack2018) -> bool:
    """Hit roll: the face plus the modifiers must reach the skill; an unmodified 1 always
    fails and an unmodified 6 always hits. Overwatch hits only on a 6, whatever the
    modifiers (004 "a 6 is always required for a successful hit roll, irrespective of the
    firing model's Ballistic Skill or any modifiers"), or on 5+ under Power Surges' intense
    lighting ("when a model fires Overwatch a hit roll of 5+ is always successful")."""
    if attack.overwatch:
        return face >= attack.overwatch_hits_on
    if face == 1:
        return False
    if face == 6:
        return True
    return face + sum(a for _, a in attack.hit_modifiers) >= attack.skill


def wound_target(strength: int, toughness: int) -> int:
    """The wound roll table: S >= 2T 2+, S > T 3+, S = T 4+, S <= T/2 6+, S < T 5+."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def wounds(face: int, attack: Attack2018, target: Target2018) -> bool:
    """Wound roll: an unmodified 1 always fails, an unmodified 6 always wounds."""
    if face == 1:
        return False
    if face == 6:
        return True
    return face + sum(a for _, a in attack.wound_modifiers) >= wound_target(
        attack.effective_strength, target.toughness)


def shot_ap(attack: Attack2018, wound_face: int | None = None) -> int:
    """The AP a hit is resolved with: the weapon's, or its ability's when the wound roll
    (``wound_face`` and the wound modifiers) reaches it (Gauss: "each wound roll of 6+ is
    resolved with AP -4")."""
    if attack.wound_ap is None or wound_face is None:
        return attack.ap
    roll, ap = attack.wound_ap
    total = wound_face + sum(a for _, a in attack.wound_modifiers)
    return ap if total >= roll and abs(ap) > abs(attack.ap) else attack.ap


def save_needed(attack: Attack2018, target: Target2018, wound_face: int | None = None
                ) -> tuple[int, str]:
    """The roll the save needs and which save it is: the armour save worsened by AP (the
    hit's: :func:`shot_ap` of its wound roll ``wound_face``), or the invulnerable save (never
    modified by AP) when that is better. Ties: armour."""
    armour = target.save + abs(shot_ap(attack, wound_face))
    if target.invulnerable is not None and target.invulnerable < armour:
        return target.invulnerable, "invulnerable"
    return armour, "armour"


def save_words(attack: Attack2018, target: Target2018, wound_face: int | None = None
               ) -> str | None:
    """The save in words (``armour 4+``, ``invulnerable 5+``), or None when no save can be
    made: the armour save worsened past 6+ by AP (a 6+ save against AP -3 needs 9 on a D6)
    with no invulnerable save, or no save at all (Save 7: none). :func:`no_save_words` says
    why."""
    need, kind = save_needed(attack, target, wound_face)
    return f"{kind} {need}+" if need <= 6 else None


def no_save_words(attack: Attack2018, target: Target2018, wound_face: int | None = None
                  ) -> str:
    """Why a target has no save against ``attack`` (:func:`save_words` is None): ``no save
    (AP -3 against armour 6+)`` or ``no save``."""
    ap = shot_ap(attack, wound_face)
    if target.save <= 6 and ap:
        return f"no save (AP {-abs(ap)} against armour {target.save}+)"
    return "no save"


def saves(face: int, attack: Attack2018, target: Target2018, wound_face: int | None = None
          ) -> bool:
    """Save roll: the face must reach :func:`save_needed` (of the hit's wound roll
    ``wound_face``); a 1 always fails."""
    need, _ = save_needed(attack, target, wound_face)
    return face != 1 and face >= need


def injury_result(value: int) -> str:
    """Injury roll table: 1-3 flesh wound, 4 or more out of action (after modifiers)."""
    return "out_of_action" if value >= 4 else "flesh_wound"


def injury_modifiers(flesh_wounds: int, extra: Iterable[tuple[str, int]] = ()
                     ) -> list[tuple[str, int]]:
    """+1 for each flesh wound the injured model already has, plus rules such as No Escape."""
    mods = [("flesh wounds", flesh_wounds)] if flesh_wounds else []
    return mods + [m for m in extra if m[1]]


def after_injury(result: str, flesh_wounds: int, boxes: int = FLESH_WOUND_BOXES) -> str:
    """004 Flesh Wound: "Mark one of the empty Flesh Wound boxes on that model's datacard. If a
    model suffers a flesh wound and all of the Flesh Wound boxes on their datacard are marked,
    it is taken out of action instead." ``flesh_wounds`` is the boxes already marked: with 3
    boxes and 2 marked, the third is marked; with all 3 marked, out of action."""
    if result == "flesh_wound" and flesh_wounds >= boxes:
        return "out_of_action"
    return result


def mortal_wound_damage(count: int, wounds_left: int) -> tuple[int, bool]:
    """Mortal wounds: one damage each, no wound roll or save; once the model is at 0 the rest
    are not resolved. Returns the damage inflicted and whether an Injury roll follows."""
    dealt = min(count, wounds_left)
    return dealt, dealt >= wounds_left and count > 0


def nerve_modifiers(others_gone: int, others_near: int,
                    extra: Iterable[tuple[str, int]] = ()) -> list[tuple[str, int]]:
    """Nerve test: +1 per other friendly model shaken or out of action, -1 per other friendly
    unshaken model within 2", plus the effects in force (004 Fear Matrix "subtract 1 from the
    result")."""
    mods = []
    if others_gone:
        mods.append(("friends shaken or out of action", others_gone))
    if others_near:
        mods.append(("friends within 2\"", -others_near))
    return mods + [m for m in extra if m[1]]


def nerve_passed(face: int, value: int, leadership: int) -> bool:
    """Passed unless the modified result exceeds Leadership; an unmodified 1 always passes."""
    return face == 1 or value <= leadership


# -- rolled mode ---------------------------------------------------------------------------------


def roll_dice_expr(dice: Dice, expr: DiceExpr, purpose: str, *, extra_die: bool = False
                   ) -> tuple[int, str]:
    """Roll a number such as ``D6`` or ``2D3+1``. ``extra_die`` (Concentrated Radius): roll one
    more die of the same type and discard the lowest."""
    if not expr.is_random:
        return expr.plus, str(expr.plus)
    count = expr.count + (1 if extra_die else 0)
    entry = dice.roll(purpose, count, expr.sides)
    faces = sorted(entry.faces)
    kept = faces[1:] if extra_die else faces
    value = sum(kept) + expr.plus
    text = f"{expr.text()} rolled {' '.join(map(str, entry.faces))}"
    if extra_die:
        text += f", the lowest ({faces[0]}) discarded"
    return value, text + f" = {value}"


def roll_move_dice(dice: Dice, purpose: str, count: int, *,
                   extra: tuple[str, str] | None = None,
                   modifiers: Iterable[tuple[str, int]] = ()) -> tuple[int, str]:
    """An Advance roll (``count`` 1: 004 "make an Advance roll by rolling a D6") or a charge
    roll (``count`` 2: "make a charge roll by rolling 2D6"), logged with every effect on it,
    and its words (``2D6: 3, 5 = 8``). ``extra`` is ``(discard, effect)`` when an effect
    rolls one more die and discards one (004 Auto-reactive Foundations "roll one additional
    D6 and discard the highest result"): the discarded die is a modifier of the logged roll,
    named by the effect. ``modifiers``: the named ones (Internal Pressure Shift -1, Gravitic
    Fluxwave -2). Never below 0."""
    mods = [m for m in modifiers if m[1]]
    if extra is None:
        entry = dice.roll(purpose, count, 6, mods, low=0)
        shown, dropped_words = entry.faces, ""
    else:
        discard, why = extra
        faces = dice.roll(f"{purpose}: {count + 1}D6, one discarded ({why})", count + 1, 6)
        dropped = max(faces.faces) if discard == "discard_highest" else min(faces.faces)
        label = "highest" if discard == "discard_highest" else "lowest"
        mods = [(f"the {label} die discarded: {why}", -dropped), *mods]
        entry = dice.roll(purpose, 0, 6, [("the dice", sum(faces.faces)), *mods], low=0,
                          ref=faces.seq)
        shown, dropped_words = faces.faces, f", the {label} ({dropped}) discarded ({why})"
    text = f"{len(shown)}D6: {', '.join(map(str, shown))}{dropped_words}"
    for reason, amount in modifiers:
        if amount:
            text += f", {amount:+d} ({reason})"
    return entry.value, f"{text} = {entry.value}"


def _reroll(dice: Dice, entry: RollEntry, faces: frozenset[int], why: str | None,
            purpose: str, mods: Iterable[tuple[str, int]] = ()) -> RollEntry:
    """The roll ``entry`` re-rolled once when its face is one of ``faces`` (the new roll
    refers to the old one and names the effect)."""
    if entry.face not in faces:
        return entry
    return dice.d6(purpose, mods, ref=entry.seq, note=f"re-roll of a {entry.face}: {why}")


def roll_injury(dice: Dice, flesh_wounds: int, extra: Iterable[tuple[str, int]] = (),
                label: str = "injury roll", *, reroll: frozenset[int] = frozenset(),
                reroll_why: str | None = None) -> tuple[str, int]:
    """Roll the Injury roll (D6 + modifiers; a face in ``reroll`` re-rolled once, 004
    Flensing Microfilaments "re-roll rolls of 1") and return the outcome (after
    :func:`after_injury`) and the modified value."""
    mods = injury_modifiers(flesh_wounds, extra)
    entry = _reroll(dice, dice.d6(label, mods), reroll, reroll_why, label, mods)
    return after_injury(injury_result(entry.value), flesh_wounds), entry.value


@dataclass
class Roll2018:
    """A rolled attack: damage inflicted, the Injury roll's outcome if it came to one."""

    damage: int
    outcome: str | None
    lines: list[str] = field(default_factory=list)


def _roll_words(entry: RollEntry) -> str:
    """A d6 roll for a line: ``4`` or ``4 (-1 obscured) = 3``."""
    if not entry.modifiers:
        return str(entry.face)
    mods = ", ".join(f"{a:+d} {r}" for r, a in entry.modifiers)
    return f"{entry.face} ({mods}) = {entry.value}"


def _gauss_words(attack: Attack2018, wound_face: int) -> str:
    """`` (Gauss: AP -4)`` when the wound roll gives the hit its ability's AP, else ``""``."""
    ap = shot_ap(attack, wound_face)
    return f" ({attack.wound_ap_why or 'its ability'}: AP {-abs(ap)})" if ap != attack.ap else ""


def roll_attack(dice: Dice, attack: Attack2018, target: Target2018, label: str = "attack"
                ) -> Roll2018:
    """Resolve ``attack`` shot by shot (melee: attack by attack) through ``dice``, every roll
    logged with its modifiers, each named by the rule or effect that gives it."""
    lines: list[str] = []
    shots, text = roll_dice_expr(dice, attack.shots, f"{label}: number of attacks",
                                 extra_die=attack.concentrated)
    if attack.shots.is_random:
        lines.append(f"Attacks: {text}" + (" (Concentrated Radius)." if attack.concentrated
                                           else "."))
    if attack.shots_factor > 1:
        lines.append(f"Rapid Fire, the target within half range: {shots} x 2 = "
                     f"{shots * 2} shots.")
        shots *= 2
    if target.invulnerable_why:
        lines.append(f"{'; '.join(target.invulnerable_why)}.")
    if attack.effect_strength:
        lines.append("Strength " + ", ".join(f"{a:+d} ({r})" for r, a in attack.effect_strength)
                     + f" = {attack.effective_strength}.")
    # Overwatch: "a 6 is always required ... irrespective of ... any modifiers" (none shown)
    mods = [] if attack.overwatch else attack.hit_modifiers
    word = "Attack" if attack.melee else "Shot"
    left = target.wounds
    dealt = 0
    for n in range(1, shots + 1):
        hit = dice.d6(f"{label}: hit roll {n}", mods)
        if not hits(hit.face, attack):
            why = (f" (Overwatch hits on {attack.overwatch_hits_on}+)" if attack.overwatch
                   else "")
            lines.append(f"{word} {n}: hit roll {_roll_words(hit)} misses{why}.")
            continue
        wmods = attack.wound_modifiers
        wound = _reroll(dice, dice.d6(f"{label}: wound roll {n}", wmods), attack.wound_reroll,
                        attack.wound_reroll_why, f"{label}: wound roll {n}", wmods)
        hit_words = f"hit roll {_roll_words(hit)} hits"
        if not wounds(wound.face, attack, target):
            lines.append(f"{word} {n}: {hit_words}, wound roll {_roll_words(wound)} fails "
                         f"(needs {wound_target(attack.effective_strength, target.toughness)}+)"
                         ".")
            continue
        hit_words += f", wound roll {_roll_words(wound)} wounds" + _gauss_words(attack,
                                                                               wound.face)
        save_text = save_words(attack, target, wound.face)
        if save_text is None:  # no die is rolled for a save that cannot be made
            unsaved = f"{hit_words}, {no_save_words(attack, target, wound.face)}"
        else:
            save = dice.d6(f"{label}: save roll {n} ({save_text})")
            if saves(save.face, attack, target, wound.face):
                lines.append(f"{word} {n}: {hit_words}, saved on a {save.face} ({save_text}).")
                continue
            unsaved = f"{hit_words}, save {save.face} fails ({save_text})"
        amount, dmg_text = roll_dice_expr(dice, attack.damage, f"{label}: damage {n}")
        amount = min(amount, left)
        left -= amount
        dealt += amount
        lines.append(f"{word} {n}: {unsaved}; {amount} damage"
                     + (f" ({dmg_text})." if attack.damage.is_random else "."))
        if left <= 0:
            outcome, value = roll_injury(dice, target.flesh_wounds, attack.injury_modifiers,
                                         f"{label}: injury roll", reroll=attack.injury_reroll,
                                         reroll_why=attack.injury_reroll_why)
            lines.append(f"Down to 0 wounds: Injury roll {value}: "
                         f"{outcome.replace('_', ' ')}.")
            if n < shots:
                rest = shots - n
                lines.append("The remaining attack is not resolved." if rest == 1 else
                             f"The remaining {rest} attacks are not resolved.")
            return Roll2018(dealt, outcome, lines)
    lines.append(f"Damage: {dealt}.")
    return Roll2018(dealt, None, lines)


# -- the battle round's rules (004) ----------------------------------------------------------------
MOVED_2018 = ("normal", "advance", "fall_back", "charge", "retreat")
"""The 2018 moves that count as having moved in the Movement phase (Heavy's -1)."""


RAPID_FIRE_RULES = ("double", "as_written")
"""The readings of Rapid Fire (the setting ``rapid_fire``): the Core Manual's ``double`` and
004's ``as_written``."""


def rapid_fire_doubles(weapon_type: str, long_range: bool, rule: str = "double") -> bool:
    """Whether a shot makes twice its number of attacks: a Rapid Fire weapon (``rapid``) at a
    target within half its range (not at long range: 004 "A target is at long range if it is
    more than half the weapon's Range characteristic away"), under the Kill Team 2018 Core
    Manual's Rapid Fire ("A model firing a Rapid Fire weapon doubles the number of attacks it
    makes if its target is within half the weapon's maximum range"; not in 004, so
    ``rule="as_written"`` never doubles). Close Quarters takes away only long range's hit
    modifier, so it does not change this."""
    return rule == "double" and str(weapon_type) == "rapid" and not long_range


def heavy_moved(weapon_type: str, moved_how: str | None, carrying: bool = False) -> bool:
    """004 Heavy: "If a model with a Heavy weapon moved in the preceding Movement phase, you
    must subtract 1 from any hit rolls made when firing that weapon this battle round." A
    model ``carrying`` a downed friend has always moved (003 Carrying: it "always counts as
    having moved for terms of shooting")."""
    return str(weapon_type) == "heavy" and (moved_how in MOVED_2018 or carrying)


def assault_advanced(weapon_type: str, advanced: bool) -> bool:
    """004 Assault: a model that Advanced may fire Assault weapons only, "and you must subtract
    1 from any hit rolls made when firing that weapon this battle round"."""
    return str(weapon_type) == "assault" and advanced


def may_fire_after(weapon_type: str, moved_how: str | None) -> bool:
    """Whether a weapon may be fired in the Shooting phase after the bearer's move: not after
    Falling Back; after an Advance only an Assault weapon (004 "You can choose to shoot with a
    model with an Assault weapon ... even if it Advanced ... it can only fire Assault
    weapons")."""
    if moved_how == "fall_back":
        return False
    if moved_how == "advance":
        return str(weapon_type) == "assault"
    return True


def shooting_barred(*, moved_how: str | None, advanced: bool = False, charged: bool = False,
                    assault: bool = False) -> str | None:
    """Why a model may not shoot at all in this battle round's Shooting phase, or None; both
    sides ask it. 004 Fall Back: "it cannot ... shoot ... in that battle round" (a Retreat
    likewise); Charge Move: "once it has done so it cannot shoot later in the battle round";
    Advance: "A model that Advances cannot charge, React or shoot later that battle round"
    unless it has an Assault weapon (``assault``): "You can choose to shoot with a model with
    an Assault weapon in the Shooting phase ... even if it Advanced"."""
    if moved_how == "fall_back":
        return "Fell Back this battle round: it cannot shoot"
    if moved_how == "retreat":
        return "Retreated this battle round: it cannot shoot"
    if charged or moved_how == "charge":
        return "attempted a charge this battle round: it cannot shoot"
    if (advanced or moved_how == "advance") and not assault:
        return "Advanced this battle round without an Assault weapon: it cannot shoot"
    return None


def may_fall_back(charged_by_adjacent: bool) -> bool:
    """004 "A model cannot Fall Back if an enemy model finished a charge move within 1" of it
    in the same phase." ``charged_by_adjacent``: an enemy within 1" of it charged this
    battle round (charges are only made in the Movement phase)."""
    return not charged_by_adjacent


def on_firing_point(firing_points: Iterable[object], shooter_at: tuple[float, float],
                    shooter_radius: float, target_at: tuple[float, float],
                    target_radius: float) -> str | None:
    """004 Firing points: "if any part of its base is on a firing point ... draw an imaginary
    line from any part of the attacking model's base to any part of the target's base. If that
    line lies within the firing arc ... add 1 to the hit roll". Read: some part of the
    shooter's base on the firing point's area and some part of the target's base inside its
    arc (a line from base to base through the arc then exists). Returns the firing point's id
    (None: no bonus). ``firing_points`` have ``id``, ``area`` and ``arc`` polygons."""
    from shapely.geometry import Point

    me = Point(shooter_at).buffer(shooter_radius, 16)
    them = Point(target_at).buffer(target_radius, 16)
    for fp in firing_points:
        if me.intersects(fp.area) and them.intersection(fp.arc).area > 1e-9:  # type: ignore
            return str(fp.id)  # type: ignore[attr-defined]
    return None


COMBAT_SHOOTING = ("core", "anywhere")
"""The readings of shooting from and into combat (setting ``combat_shooting``): ``core``, the
2018 Kill Team Core Manual's (not in 004; the reading 2018 players use), or ``anywhere``, the
reading solo-ops had before (any visible enemy may be shot, and no model shoots from within 1"
of an enemy, Pistols included)."""


def combat_shot_refusal(rule: str, *, pistol: bool, shooter_engaged: bool,
                        target_engaged_with_friend: bool, target_closest: bool) -> str | None:
    """Why a shot from or into combat may not be made, or None. ``core`` (the 2018 Core
    Manual, Shooting phase): "Models cannot target enemy models that are within 1" of friendly
    models"; a model within 1" of an enemy model cannot shoot, but a Pistol "can [make
    shooting attacks] even if there are enemy models within 1" of the firing model, but it
    must target the closest enemy model. In such circumstances, the firing model can shoot
    its Pistol even if other friendly models are within 1" of the same enemy model".
    ``anywhere``: only the shooter's own combat stops it (any weapon)."""
    if rule == "anywhere":
        return "it is within 1\" of an enemy model" if shooter_engaged else None
    if shooter_engaged:
        if not pistol:
            return "it is within 1\" of an enemy model: only a Pistol may be fired from there"
        if not target_closest:
            return ("a Pistol fired from within 1\" of an enemy must target the closest enemy "
                    "model")
        return None
    if target_engaged_with_friend:
        return ("the target is within 1\" of a friendly model: models cannot target enemy "
                "models within 1\" of friendly models")
    return None
