"""Guard (Gallowdark, 1 AP): whether a model goes On Guard, and what it does when it interrupts.

``_may_guard`` says whether a model may go On Guard at the end of its activation (its order
lets it shoot, it has AP and a ranged weapon, and nothing to shoot or fight from where it
ends); :func:`guard_reaction` is what an On Guard model does when an enemy operative ends an
action where it can shoot or fight it.
"""

from __future__ import annotations

from solo_ops.ai.context import Action, Context, WorkingBoard, in_control_range, visible_targets
from solo_ops.ai.shooting import choose_shot, ranged, used_up, valid_shot
from solo_ops.core.names import join_names
from solo_ops.game.state import Operative, State

GALLOWDARK = "gallowdark"  # the killzone whose actions include Guard (card 002)


def _guard_target(ctx: Context, guard: Operative, at: tuple[float, float], target: Operative,
                  pos: dict[str, tuple[float, float]]) -> tuple[str, Action] | None:
    """What an On Guard model does to ``target`` when it interrupts: ``("fight", ...)`` when
    the target is in its control range and it has a melee weapon, else ``("shoot", ...)`` if
    the target is a valid target (in control range too, at -1 to hit), or None. Heavy
    weapons may fire (Heavy has no effect on Guard)."""
    engaged = in_control_range(ctx, at, guard.radius, [target], pos)
    if engaged and guard.profile.melee_weapons:
        weapon = guard.profile.melee_weapons[0].name
        return "fight", Action("fight", guard.id, target=target.id, weapon=weapon,
                               note=f"{guard.label} is On Guard and fights {target.label}, now "
                                    "in its control range.")
    shot, _ = choose_shot(ctx, guard, at, [target], pos, moved=False, moved_how=None)
    if shot is None:
        return None
    shot.note = "On Guard: " + shot.note
    if engaged:
        shot.note += " It is in control range: -1 to hit."
    return "shoot", shot


def guard_reaction(ctx: Context, state: State, guard_id: str, target_id: str
                   ) -> tuple[str, Action] | None:
    """Pure: whether On Guard model ``guard_id`` interrupts ``target_id``'s activation now,
    and how (see :func:`_guard_target`)."""
    board = WorkingBoard(state)
    guard = state.operatives[guard_id]
    target = state.operatives[target_id]
    if guard.id not in board.pos or target.id not in board.pos:
        return None
    return _guard_target(ctx, guard, board.pos[guard.id], target, board.pos)


def _may_guard(ctx: Context, op: Operative, at: tuple[float, float],
               enemies: list[Operative], board: WorkingBoard, codes: dict[str, str],
               ap: int, shot_done: bool) -> str | None:
    """Guard (Gallowdark, 1 AP, a Shoot action): the order lets it shoot (fire at will, or an
    unhindered move after its move), it has AP left and a ranged weapon, no shot this
    activation and no valid target from where it ends, and no enemy in its control range.
    Guard is one of the Gallowdark killzone's actions: on any other board it is not offered.
    Why it has nothing to shoot (:func:`no_target_words`) when it may go On Guard, else None."""
    if ctx.edition != "kt2024" or ap <= 0 or shot_done:
        return None
    if ctx.terrain.board.killzone != GALLOWDARK:
        return None
    if codes["shoot"] not in ("fire_at_will", "unhindered_move"):
        return None
    if not op.profile.ranged_weapons:
        return None
    if in_control_range(ctx, at, op.radius, enemies, board.pos):
        return None
    shot, _ = choose_shot(ctx, op, at, enemies, board.pos, moved=False, moved_how=None)
    if shot is not None:
        return None
    if not ctx.words:  # nobody reads a simulated mission's words
        return "no valid target"
    return no_target_words(ctx, op, at, enemies, board)


def no_target_words(ctx: Context, op: Operative, at: tuple[float, float],
                    enemies: list[Operative], board: WorkingBoard) -> str:
    """Why ``op`` has no valid target from ``at``, in a few true words: none in sight and
    range, or those it sees in range are not valid targets (Kill Team 2024: on a Conceal order
    and in cover; else the board's own rule, such as Bheta-Decima's)."""
    weapons = [w for w in ranged(op.profile) if not used_up(ctx, op, w)]
    if not weapons:
        return "no weapon left to fire (Limited, used up)"
    seen: dict[str, tuple[str, bool]] = {}  # id: (label, concealed in cover)
    in_sight = visible_targets(ctx, at, op.radius, enemies, board.pos)  # (one batch, cached)
    for weapon in weapons:
        for target in in_sight:
            _, cover, _ = valid_shot(ctx, op, at, weapon, target, board.pos)
            if cover is not None and cover.visible:
                was = seen.get(target.id, (target.label, False))[1]
                seen[target.id] = (target.label, was or bool(
                    target.stance == "conceal" and cover.in_cover))
    if not seen:
        return "no enemy in sight and range"
    hidden = [label for label, concealed in seen.values() if concealed]
    if len(hidden) == len(seen):
        verb = "is" if len(hidden) == 1 else "are"
        return (f"no valid target: {join_names(hidden)} {verb} on a Conceal order and in "
                "cover")
    return f"no valid target: {join_names([label for label, _ in seen.values()])} may not be " \
        "shot from there"
