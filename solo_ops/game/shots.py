"""Shots in play, for either side: an enemy's planned shot rolled (or handed to the player to
roll when the game's ``enemy_attacks`` setting says so, :func:`enemy_shot`), a player's shot
rolled when they ask solo-ops to (:func:`resolve_player_shot`), and both applied the same way
(:func:`resolve_shot`): the target's cover with Vantage (:func:`shot_cover`), the weapon rules
that reach past the target (Blast and Torrent targets, :func:`secondary_targets`; Devastating's
splash, :func:`devastating_nearby`), Limited uses (:func:`limited_used_up`,
:func:`count_limited`), Hot and Stun.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.game import attacks, cover_choice, cp
from solo_ops.game.downed import apply_damage
from solo_ops.game.play2018 import flags_2018
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.game.stun import stun
from solo_ops.geometry.sight.perches import is_deck
from solo_ops.rules import killzones, kt2024

if TYPE_CHECKING:
    from solo_ops.ai.planner import Action
    from solo_ops.game.definition import Game


def enemy_shot(game: Game, state: State, op: Operative, action: Action, *,
               hit_penalty: int = 0, acting: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """An enemy shot, rolled or handed to the player. ``hit_penalty`` worsens the weapon's
    Hit stat (On Guard shooting within control range: -1 to hit). ``acting``: the models whose
    activation this is (see :func:`solo_ops.game.stun.stun`)."""
    target = state.operatives[action.target]  # type: ignore[index]
    if not target.on_table:
        return []
    weapon = next(w for w in op.profile.weapons if w.name == action.weapon)
    if limited_used_up(state, op, weapon):
        return [{"type": "shot_cancelled", "operative": op.id, "target": target.id,
                 "note": f"{op.label}'s {weapon.name} is used up (Limited)."}]
    terrain = game.terrain(state)
    cover = shot_cover(game, state, op, weapon, target)
    if not cover.visible:
        return [{"type": "shot_cancelled", "operative": op.id, "target": target.id,
                 "note": f"{target.label} is no longer visible to {op.label}."}]
    text = attacks.describe_shot(state.edition, op, weapon, target, cover, terrain,
                                 hit_penalty=hit_penalty)
    if hit_penalty:
        text += f" (-{hit_penalty} to hit: On Guard, shooting within control range)"
    op.shot = True
    events: list[dict[str, Any]] = count_limited(state, op, weapon)
    secondary = secondary_targets(game, state, op, weapon, target, cover)
    if game.settings.enemy_attacks == "player":
        if secondary:
            rule = kt2024.secondary_rule(weapon)
            assert rule is not None
            names = ", ".join(o.label for o, _ in secondary)
            text += (f" {rule.kind.title()} {rule.radius:g}\": then shoot {names} the same "
                     "way and report their damage with 'damage MODEL N'.")
        state.pending_attacks.append({"kind": "shoot", "attacker": op.id, "target": target.id,
                                      "weapon": weapon.name, "text": text})
        return [*events, {"type": "attack_pending", "attacker": op.id, "target": target.id,
                          "note": text}]
    return events + resolve_shot(game, state, op, weapon, target, cover, secondary, text,
                                 acting=acting, hit_penalty=hit_penalty)


def resolve_shot(game: Game, state: State, op: Operative, weapon: Any, target: Operative,
                 cover: Any, secondary: list[tuple[Operative, Any]], note: str | None, *,
                 acting: frozenset[str] = frozenset(), overwatch: bool = False,
                 hit_penalty: int = 0) -> list[dict[str, Any]]:
    """Roll a shot (either side's) with every weapon rule the game knows, then apply it: damage
    to the target, to Blast / Torrent targets and Devastating splash, Hot to the shooter, Stun.
    ``hit_penalty`` worsens the Hit stat of the attack dice (On Guard within control range),
    not the one Hot is judged by (002 Hot: "the weapon's Hit stat")."""
    terrain = game.terrain(state)
    flags = flags_2018(game, state, op, weapon, target, overwatch=overwatch)
    if overwatch and not flags:
        flags["overwatch"] = True
    assert state.dice is not None
    result = attacks.roll_shot(state.edition, state.dice, op, weapon, target, cover, terrain,
                               secondary=secondary,
                               nearby=devastating_nearby(game, state, weapon, target),
                               cp=cp.hooks(game), covers=cover_choice.hooks(game),
                               hit_penalty=hit_penalty, **flags)
    event: dict[str, Any] = {"type": "attack", "attacker": op.id, "target": target.id,
                             "weapon": weapon.name, "damage": result.damage,
                             "lines": result.lines}
    if note is not None:
        event["note"] = note
    if result.splash:
        event["splash"] = [{"operative": i, "damage": d} for i, d in result.splash]
    events = [event, *cp.spent(game)]  # the CP its re-rolls cost, told with it
    events += apply_damage(game, state, target, result.damage, f"shot by {op.label}",
                           outcome=result.outcome)
    rule = kt2024.secondary_rule(weapon)
    splashed = len(result.splash) - (len(secondary) if rule is not None else 0)
    for index, (extra_target, amount) in enumerate(result.splash):
        victim = state.operatives.get(extra_target)
        if victim is None or not victim.on_table:
            continue
        # the bridge lists Devastating's splash first, then one entry per Blast/Torrent target
        kind = "Devastating" if index < splashed or rule is None else rule.kind
        why = f"{weapon.name} {kind} (shot by {op.label})"
        events.append({"type": "secondary_hit", "attacker": op.id, "operative": victim.id,
                       "weapon": weapon.name, "damage": amount, "why": why})
        events += apply_damage(game, state, victim, amount, why)
    if result.self_damage and op.on_table:
        events += apply_damage(game, state, op, result.self_damage, f"{weapon.name} is Hot")
    events += stun(state, result.stunned, f"{weapon.name} (Stun)", acting=acting)
    return events


def resolve_player_shot(game: Game, state: State, op: Operative, weapon: Any,
                        target: Operative, hit_penalty: int = 0) -> list[dict[str, Any]]:
    """The player asked solo-ops to roll their shot (``op`` is the active operative; a Guard
    interrupt within control range has ``hit_penalty`` 1)."""
    cover = shot_cover(game, state, op, weapon, target)
    secondary = secondary_targets(game, state, op, weapon, target, cover)
    return resolve_shot(game, state, op, weapon, target, cover, secondary, None,
                        acting=frozenset({op.id}), hit_penalty=hit_penalty)


# -- weapon rules in play ----------------------------------------------------------------------
def shot_cover(game: Game, state: State, shooter: Operative, weapon: Any,
               target: Operative) -> attacks.ShotCover:
    """The target's cover from the shooter, for the attack's dice, with Vantage (Kill Team
    2024): a shooter standing on a ``vantage`` feature with a ``height`` shooting an Engaged
    target on the floor has Accurate 1 from 2" above, Accurate 2 from 4" above.

    Seek and Seek Light are not applied here: they only decide whether a Concealed operative
    may be targeted (the planner and the players' shot check do that), and "any Cover saves
    can still be retained" (002, Seek)."""
    terrain = game.terrain(state)
    others: list[tuple[float, float, float]] = []
    if state.edition == "kt2018":  # 004 "Other models (even friendly models) ... may hide a
        # target": every other model on the table, of either side
        others = [(o.at[0], o.at[1], o.radius) for o in state.operatives.values()
                  if o.on_table and o.at is not None and o.id not in (shooter.id, target.id)]
    cover = terrain.sight.cover(shooter.at, target.at, shooter.radius, target.radius,
                                edition=state.edition, others=others)
    accurate = 0
    if (state.edition == "kt2024" and cover.visible and shooter.at is not None
            and target.at is not None):  # (how high each stands: Sight.decks, which the
        accurate = kt2024.vantage_accuracy(  # cover from below reads too)
            terrain.sight.decks, shooter.at, target.at, target.stance == "engage")
    return attacks.ShotCover.of(cover, accurate)


def vantage_height(board: Any, at: Any) -> float:
    """The height of the highest ``vantage`` feature (with a ``height``) the model whose centre
    is at ``at`` stands up on (:func:`~solo_ops.geometry.shapes.stands_on`: a centre on the
    outline is on the floor beside it, as its climb was never paid), or 0.0 on the floor."""
    from solo_ops.geometry import shapes

    if at is None:
        return 0.0
    best = 0.0
    for f in board.features:
        if is_deck(f) and shapes.stands_on(f, float(at[0]), float(at[1])):
            best = max(best, float(f.height or 0.0))
    return best


def _hidden_unit(state: State, op: Operative) -> bool:
    unit = state.units.get(op.owner) if op.side == ENEMY else None
    return unit is not None and unit.fsm == "hidden"


def secondary_targets(game: Game, state: State, shooter: Operative, weapon: Any,
                      target: Operative, cover: Any) -> list[tuple[Operative, Any]]:
    """Blast x / Torrent x extra targets as ``(operative, cover)`` (Kill Team 2024), nearest
    to the primary target first.

    Distances are measured as the killzone measures (around walls: ``routes.distance``).
    Blast: the shooter's enemies within x of the primary target and visible to it (Conceal
    ignored), each taking the primary's cover. Torrent: every other valid target of the
    shooter (visible, in range, not Concealed in cover, not refused by the killzone) within x
    of the primary, each with its own cover from the shooter (solo-ops shoots them all)."""
    rule = kt2024.secondary_rule(weapon)
    if state.edition != "kt2024" or rule is None or target.at is None:
        return []
    terrain = game.terrain(state)
    foes = state.living(ENEMY if shooter.side == PLAYER else PLAYER)
    found: list[tuple[float, str, Operative, Any]] = []
    for other in foes:
        if other.id == target.id or _hidden_unit(state, other):
            continue
        d = terrain.routes.distance(target.at, other.at, target.radius, other.radius).distance
        if d is None or d > rule.radius + 1e-9:
            continue
        other_cover = cover
        visible_to_primary = valid = False
        if rule.needs_visible_to_primary:
            visible_to_primary = terrain.sight.visible(target.at, other.at, target.radius,
                                                       other.radius)
        if rule.needs_valid_for_shooter:
            other_cover = shot_cover(game, state, shooter, weapon, other)
            reach = terrain.routes.distance(shooter.at, other.at, shooter.radius,
                                            other.radius).distance
            valid = (other_cover.visible and reach is not None
                     and kt2024.in_range(weapon, reach)
                     and not (other.stance == "conceal" and other_cover.in_cover)
                     # the killzone's own test (Bheta-Decima's hazardous ground, gantries)
                     and shooter.at is not None and other.at is not None
                     and killzones.target_refusal(terrain.board, shooter.at, other.at) is None)
        candidate = kt2024.Candidate(other.id, d, visible_to_primary, valid)
        if kt2024.secondary_targets(weapon, [candidate]):
            found.append((d, other.id, other, other_cover))
    found.sort(key=lambda f: (f[0], f[1]))
    return [(o, c) for _, _, o, c in found]


def devastating_nearby(game: Game, state: State, weapon: Any,
                       target: Operative) -> list[Operative]:
    """For the distance form of Devastating: every other operative on the table (either side,
    the shooter included) visible to the target; the bridge keeps those within x."""
    if state.edition != "kt2024" or kt2024.devastating_splash(weapon) is None:
        return []
    sight = game.terrain(state).sight
    return [o for o in state.operatives.values()
            if o.on_table and o.id != target.id and not _hidden_unit(state, o)
            and sight.visible(target.at, o.at, target.radius, o.radius)]


def limited_used_up(state: State, op: Operative, weapon: Any) -> bool:
    """Limited x (Kill Team 2024): whether ``op`` has used ``weapon`` x times this battle."""
    if state.edition != "kt2024":
        return False
    left = kt2024.uses_left(weapon, op.limited_uses.get(weapon.name, 0))
    return left is not None and left <= 0


def count_limited(state: State, op: Operative, weapon: Any) -> list[dict[str, Any]]:
    """Count one use of a Limited weapon (one per action, whatever the number of targets)."""
    if state.edition != "kt2024" or not weapon.has("limited"):
        return []
    used = op.limited_uses.get(weapon.name, 0) + 1
    op.limited_uses[weapon.name] = used
    left = kt2024.uses_left(weapon, used)
    return [{"type": "limited_use", "operative": op.id, "weapon": weapon.name, "used": used,
             "left": left}]
