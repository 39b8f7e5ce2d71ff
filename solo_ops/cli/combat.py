"""``solo-ops combat``: exact Kill Team 2024 odds of a shot or a fight, as a table or JSON."""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table

from solo_ops.cli.common import SoloOpsGroup, console, emit_json, json_option
from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.limits import bounds
from solo_ops.core.model import WeaponRule, parse_weapon_rule
from solo_ops.rules.kt2024 import AttackSpec, DefenceSpec
from solo_ops.rules.odds import FIGHT_POLICIES, Odds, fight_2024, shoot_2024


class _Whole(click.ParamType):
    """A whole number; anything else is an :class:`InputError` (one stderr line, exit 2)."""

    name = "N"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        option = param.opts[0] if param is not None and param.opts else "value"
        text = str(value).strip()
        try:
            if len(text) > 12:
                raise ValueError
            return int(text)
        except ValueError:
            raise InputError(f"expected a whole number, got {excerpt(value)}",
                             source=option) from None


WHOLE = _Whole()


@click.group("combat", cls=SoloOpsGroup)
def combat() -> None:
    """Exact odds of Kill Team 2024 attacks (every dice outcome counted, no sampling)."""


def parse_damage(text: str, option: str = "--damage") -> tuple[int, int]:
    """``N/M`` (normal/critical damage) as two whole numbers."""
    normal, sep, crit = str(text).partition("/")
    try:
        if not sep or len(text) > 12:
            raise ValueError
        pair = int(normal.strip()), int(crit.strip())
    except ValueError:
        raise InputError(f"expected normal/critical damage such as 3/4, got {excerpt(text)}",
                         source=option) from None
    low, high = bounds("damage")
    if min(pair) < low or max(pair) > high:
        raise InputError(f"damage must be {low} to {high}, got {excerpt(text)}", source=option)
    return pair


def parse_rules(texts: tuple[str, ...], option: str = "--rule") -> tuple[WeaponRule, ...]:
    """``--rule NAME[=X]`` values as weapon rules (the names of INTERFACES.md)."""
    rules = []
    for text in texts:
        try:
            rules.append(parse_weapon_rule(text))
        except ValueError as exc:
            raise InputError(str(exc), source=option) from None
    return tuple(rules)


def _spec(attacks: int, hit: int, damage: str, rules: tuple[str, ...], injured: bool,
          prefix: str = "--", hit_bonus: int = 0) -> AttackSpec:
    normal, crit = parse_damage(damage, f"{prefix}damage")
    try:
        return AttackSpec(attacks, hit, normal, crit, parse_rules(rules, f"{prefix}rule"),
                          injured, hit_bonus)
    except InputError as exc:
        if prefix != "--" and exc.source and not exc.source.startswith(prefix):
            raise InputError(exc.message, source=exc.source.replace("--", prefix, 1)) from None
        raise


def _odds_table(title: str, odds: Odds, wounds: int | None) -> Table:
    table = Table(title=title, header_style="bold")
    table.add_column("Damage", justify="right")
    table.add_column("Chance", justify="right")
    table.add_column("At least", justify="right")
    dist = sorted(odds.distribution.items())
    remaining = 1.0
    for damage, p in dist:
        label = f"{damage}" + (" (incapacitated)" if wounds is not None and damage >= wounds
                               else "")
        table.add_row(label, f"{float(p):.2%}", f"{remaining:.2%}")
        remaining -= float(p)
    return table


@combat.command("shoot")
@click.option("--attacks", type=WHOLE, required=True, help="Attack dice (the weapon's A).")
@click.option("--hit", type=WHOLE, required=True, help="Hit stat: 3 for 3+.")
@click.option("--damage", required=True, help="Normal/critical damage, e.g. 3/4.")
@click.option("--rule", "rules", multiple=True,
              help="A weapon rule, NAME or NAME=X (lethal=5, piercing=1, balanced...); repeat.")
@click.option("--defence-dice", type=WHOLE, default=3, show_default=True,
              help="The target's defence dice.")
@click.option("--save", type=WHOLE, default=4, show_default=True, help="Save stat: 4 for 4+.")
@click.option("--wounds", type=WHOLE, default=None,
              help="The target's wounds left: damage is capped there.")
@click.option("--cover", is_flag=True,
              help="The target is in cover (one normal save retained, unless it could block "
                   "nothing: then that die is rolled).")
@click.option("--obscured", is_flag=True,
              help="The target is obscured (crits become normal hits, one hit discarded).")
@click.option("--injured", is_flag=True, help="The shooter is injured (-1 to hit).")
@json_option
def shoot(attacks: int, hit: int, damage: str, rules: tuple[str, ...], defence_dice: int,
          save: int, wounds: int | None, cover: bool, obscured: bool, injured: bool,
          as_json: bool) -> None:
    """The exact damage distribution of one shooting attack."""
    spec = _spec(attacks, hit, damage, rules, injured)
    defence = DefenceSpec(defence_dice, save, wounds, cover, obscured)
    odds = shoot_2024(spec, defence)
    if as_json:
        data = odds.to_json()
        data["attack"] = _attack_json(spec)
        data["defence"] = {"dice": defence.dice, "save": defence.save, "wounds": wounds,
                           "cover": cover, "obscured": obscured}
        if cover:
            data["cover_rule"] = COVER_RULE
        emit_json(data)
        return
    out = console()
    out.print(_odds_table(f"{_attack_text(spec)} against {defence_dice} dice, save {save}+"
                          + (", in cover" if cover else "") + (", obscured" if obscured else ""),
                          odds, wounds))
    out.print(f"Mean damage [bold]{float(odds.mean):.3f}[/bold]")
    if cover:
        out.print(COVER_RULE, markup=False)
    for key, label in (("p_incapacitated", "incapacitated"), ("hot_mean", "Hot, mean damage "
                                                                          "to the shooter")):
        if key in odds.extras:
            value = float(odds.extras[key])
            out.print(f"{label}: {value:.2%}" if key.startswith("p_") else
                      f"{label}: {value:.3f}")


COVER_RULE = ("Cover: the defender retains one normal save unrolled, except where it could "
              "block nothing (the weapon is Brutal; a crits-only attack against a lone defence "
              "die or Save 6+): then it rolls that die too, which is never worse (the rule the "
              "engine's enemy follows; docs/rules.md).")
"""How the odds read the cover save (001: the defender "can" retain it)."""


def _attack_text(spec: AttackSpec) -> str:
    rules = ", ".join(r.text() for r in spec.rules)
    text = f"{spec.attacks} attacks, hit {spec.hit_needed}+, damage {spec.normal}/{spec.crit}"
    return text + (f" ({rules})" if rules else "")


def _attack_json(spec: AttackSpec) -> dict[str, Any]:
    return {"attacks": spec.attacks, "hit": spec.hit, "hit_needed": spec.hit_needed,
            "damage": [spec.normal, spec.crit], "rules": [r.text() for r in spec.rules],
            "injured": spec.injured}


@combat.command("fight")
@click.option("--attacks", type=WHOLE, required=True, help="The attacker's attack dice.")
@click.option("--hit", type=WHOLE, required=True, help="The attacker's Hit stat.")
@click.option("--damage", required=True, help="The attacker's normal/critical damage.")
@click.option("--rule", "rules", multiple=True, help="An attacker's weapon rule; repeat.")
@click.option("--wounds", type=WHOLE, default=None, help="The attacker's wounds left.")
@click.option("--injured", is_flag=True, help="The attacker is injured (-1 to hit).")
@click.option("--helpers", type=WHOLE, default=0, show_default=True,
              help="Friendlies also in the target's control range (+1 to hit each).")
@click.option("--defender-attacks", type=WHOLE, required=True, help="The defender's attack dice.")
@click.option("--defender-hit", type=WHOLE, required=True, help="The defender's Hit stat.")
@click.option("--defender-damage", required=True, help="The defender's normal/critical damage.")
@click.option("--defender-rule", "defender_rules", multiple=True,
              help="A defender's weapon rule; repeat.")
@click.option("--defender-wounds", type=WHOLE, default=None, help="The defender's wounds left.")
@click.option("--defender-injured", is_flag=True, help="The defender is injured.")
@click.option("--defender-helpers", type=WHOLE, default=0, show_default=True,
              help="The defender's friendlies also in the attacker's control range (+1 to hit "
                   "each; setting fight_assist).")
@click.option("--policy", type=click.Choice(FIGHT_POLICIES), default="best", show_default=True,
              help="How both sides resolve their dice: best = each side strikes or blocks to "
                   "maximise damage dealt minus damage taken (the engine's and the AI's "
                   "policy); strike = both always strike, never block.")
@json_option
def fight(attacks: int, hit: int, damage: str, rules: tuple[str, ...], wounds: int | None,
          injured: bool, helpers: int, defender_attacks: int, defender_hit: int,
          defender_damage: str, defender_rules: tuple[str, ...], defender_wounds: int | None,
          defender_injured: bool, defender_helpers: int, policy: str, as_json: bool) -> None:
    """The exact distribution of damage dealt and taken in one fight.

    The odds assume a blocking policy (--policy): by default both sides play to maximise
    damage dealt minus damage taken; --policy strike is the simpler reading in which both
    sides always strike."""
    low, high = bounds("helpers")
    for count, name in ((helpers, "--helpers"), (defender_helpers, "--defender-helpers")):
        if not low <= count <= high:
            raise InputError(f"must be {low} to {high}, got {count}", source=name)
    low, high = bounds("wounds")
    for value, name in ((wounds, "--wounds"), (defender_wounds, "--defender-wounds")):
        if value is not None and not low <= value <= high:
            raise InputError(f"must be {low} to {high}, got {value}", source=name)
    attacker = _spec(attacks, hit, damage, rules, injured, hit_bonus=helpers)
    defender = _spec(defender_attacks, defender_hit, defender_damage, defender_rules,
                     defender_injured, prefix="--defender-", hit_bonus=defender_helpers)
    odds = fight_2024(attacker, defender, wounds, defender_wounds, policy)
    if as_json:
        data = odds.to_json()
        data["policy"] = policy
        data["attacker"] = {**_attack_json(attacker), "wounds": wounds, "helpers": helpers}
        data["defender"] = {**_attack_json(defender), "wounds": defender_wounds,
                            "helpers": defender_helpers}
        emit_json(data)
        return
    out = console()
    out.print(POLICY_TEXT[policy])
    out.print(_odds_table(f"Dealt: {_attack_text(attacker)}", odds.dealt, defender_wounds))
    out.print(_odds_table(f"Taken: {_attack_text(defender)}", odds.taken, wounds))
    out.print(f"Mean damage dealt [bold]{float(odds.dealt.mean):.3f}[/bold], "
              f"taken [bold]{float(odds.taken.mean):.3f}[/bold]")


POLICY_TEXT = {
    "best": "Policy: both sides strike or block to maximise damage dealt minus damage taken "
            "(--policy strike: both always strike).",
    "strike": "Policy: both sides always strike, never block (--policy best: each side "
              "plays to maximise damage dealt minus damage taken).",
}

commands = [combat]
