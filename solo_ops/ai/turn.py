"""One model's turn while the planner plans it, and the actions a sequence is made of.

:class:`_Turn` is what the model stands on and knows, the AP it has left and what it has done;
:meth:`_Turn.fork` gives a scratch copy on which :mod:`solo_ops.ai.sequences` tries a
sequence without touching the plan, and :meth:`_Turn.commit` keeps the one chosen. The
functions below are the actions themselves (fight, shoot, charge, the moves of the move order
with the doors on the way), each spending its AP on the turn it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from solo_ops.ai.context import (
    Action,
    Context,
    Plan,
    WorkingBoard,
    in_control_range,
    move_allowance,
)
from solo_ops.ai.explain import engaged_words
from solo_ops.ai.move_order import _order_satisfied, move_by_order
from solo_ops.ai.portals import _open_the_way
from solo_ops.ai.shooting import choose_shot
from solo_ops.core.model import Weapon
from solo_ops.game.state import Operative, State, Unit
from solo_ops.rules import kt2018, kt2024, referee

MOVE_KINDS = ("reposition", "dash", "charge", "fall_back", "normal", "advance")
SAME_END = 0.05  # a Dash ending this close to a Reposition's end is the same move


def _ap_cost(kind: str) -> int:
    """Kill Team 2024 action points of a planned action (the referee's: Fall Back 2, the rest
    1)."""
    return referee.ap_cost(kind)


def _referee_kind(action: Action) -> str:
    """The referee's name of a planned action (opening a door or hatch is ``portal``)."""
    return "portal" if action.kind == "operate_hatch" else action.kind


@dataclass
class _Turn:
    """One model's activation while the planner plans it: what it stands on and knows, the AP
    it has left, what it has done (``done``: the kinds of its ``spent`` actions and of those
    planned so far) and the answer so far (``result``). ``ctx`` is the door state it now walks
    in; ``heavy`` the Heavy weapon it fired (None: none) and ``heavy_moves`` the moves it still
    allows."""

    ctx: Context
    state: State
    unit: Unit
    op: Operative
    codes: dict[str, str]
    board: WorkingBoard
    enemies: list[Operative]
    phase: str
    plan: Plan
    spent: Sequence[Action]
    edition: str
    start: tuple[float, float]
    mates: list[tuple[float, float, float]]
    result: dict[str, Any]
    ap: int
    done: list[str]
    moved_before: bool
    near_visible: list[tuple[float, Operative]] = field(default_factory=list)
    closest: tuple[float, Operative] | None = None
    engaged: list[Operative] = field(default_factory=list)
    melee_minded: bool = False
    shot_done: bool = False
    heavy_moves: tuple[str, ...] | None = None
    heavy: Weapon | None = None
    stance: str | None = None
    """The Kill Team 2024 order when it is already chosen (a re-plan part-way through the
    activation); None while the plan chooses it."""

    def fork(self) -> _Turn:
        """A scratch copy to try a sequence on: its own plan, result and record of what was
        done; the board is shared (a sequence moves only this model, which
        :meth:`commit` or :meth:`discard` settles)."""
        scratch = Plan(self.plan.unit, self.plan.command, self.plan.troop, self.plan.order,
                       self.plan.state_before)
        return replace(self, plan=scratch, result=dict(self.result), done=list(self.done))

    def commit(self, fork: _Turn) -> None:
        """Keep what ``fork`` planned: its actions and words join the plan, its state this."""
        self.plan.actions.extend(fork.plan.actions)
        self.plan.explain.extend(fork.plan.explain)
        plan = self.plan
        self.__dict__.update(fork.__dict__)
        self.plan = plan
        self.board.pos[self.op.id] = fork.here
        for a in fork.plan.actions:  # a 2018 charge's end spot: the unit's later chargers
            if a.kind == "charge" and a.to is None and a.route:  # plan another one
                end = a.route[-1]
                self.board.reserved.append((float(end[0]), float(end[1]), self.op.radius))

    def discard(self) -> None:
        """Forget a fork's moves: the model stands where this turn has it."""
        self.board.pos[self.op.id] = self.here

    @property
    def here(self) -> tuple[float, float]:
        """Where the model stands now (after the moves planned on this turn)."""
        for action in reversed(self.plan.actions):
            if action.model == self.op.id and action.to is not None and action.kind != "shoot":
                return action.to
        return self.start

    def facts(self) -> referee.Activation:
        """What the referee knows of this model now (:class:`solo_ops.rules.referee.Activation`):
        its AP and actions this activation, a Heavy weapon fired, the 2018 phase and move."""
        apl = max(1, self.op.profile.apl - self.op.apl_penalty)
        moved_how = None
        if self.edition == "kt2018":
            moved_how = next((k for k in reversed(self.done) if k in referee.MOVES_2018),
                             self.op.moved_how)
        return referee.Activation(
            who=self.op.label, edition=self.edition, apl=apl,
            ap_used=apl - self.ap if self.edition == "kt2024" else 0, done=tuple(self.done),
            heavy=self.heavy, moved_how=moved_how, phase=self.phase, stance=self.stance,
            started_within=self.state.started_within(self.op), shaken=self.op.shaken)

    def may(self, kind: str) -> bool:
        """Whether ``kind`` may come next by the referee (control range aside: see
        :func:`refused`): AP left, the sequence table (Kill Team 2024) and a Heavy weapon
        fired (no move after it but the one Heavy (x) names)."""
        if self.edition != "kt2024":
            return True
        return referee.refusal(self.facts(), kind, check_control=False) is None

    def spend(self, kind: str) -> None:
        """Record ``kind`` as done and spend its AP."""
        self.done.append(kind)
        self.ap -= _ap_cost(kind)

    def moves_made(self) -> list[str]:
        """The kinds of this model's moves this activation, spent and planned."""
        return [a.kind for a in [*self.spent, *self.plan.actions]
                if a.model == self.op.id and a.kind in MOVE_KINDS]


def _fight(t: _Turn, target: Operative, why: str = "") -> None:
    """The model fights ``target`` (1 AP); ``why``, the reason said after "and fights"
    (" (a Melee unit)")."""
    op = t.op
    weapons = kt2018.melee_weapons(op.profile, t.ctx.edition)
    weapon = weapons[0].name if weapons else None
    t.plan.actions.append(Action("fight", op.id, target=target.id, weapon=weapon,
                                 note=f"{op.label} fights {target.label}."))
    t.plan.explain.append(f"{op.label} is {engaged_words(t.ctx.edition)} {target.label} and "
                          f"fights{why}.")
    t.result["attacked"] = True
    t.spend("fight")


def _shoot(t: _Turn, shot: Action, lead: str = "") -> None:
    """The model takes ``shot`` (1 AP); a Heavy weapon's shot leaves only the moves its rule
    allows (001 Heavy: "... or move after using this weapon")."""
    t.plan.actions.append(shot)
    t.plan.explain.append(lead + shot.note)
    weapon = next((w for w in t.op.profile.ranged_weapons if w.name == shot.weapon), None)
    allowed = kt2024.heavy_allowed_moves(weapon) if weapon is not None else None
    if allowed is not None and t.edition == "kt2024":
        t.heavy_moves = allowed
        t.heavy = weapon
    t.shot_done = True
    t.result["attacked"] = True
    t.spend("shoot")


def _charge(t: _Turn, charge: Action) -> None:
    """The charge (1 AP), then a fight (Kill Team 2024) if AP are left."""
    t.plan.actions.append(charge)
    if charge.to is not None:  # a 2018 charge is rolled by the engine: it stays put here
        t.board.pos[t.op.id] = charge.to
    t.plan.explain.append(charge.note)
    t.result["moved"] = True
    t.result["attacked"] = True
    t.spend("charge")
    if t.edition == "kt2024" and t.may("fight"):
        target = t.state.operatives[charge.target]  # type: ignore[index]
        _fight(t, target)


def _moves_by_order(t: _Turn, kinds: Sequence[str] | None = None) -> None:
    """Move by the move order: first open a closed door or hatch in the way, then moves (two
    in Kill Team 2024: Reposition, Dash; ``kinds`` to allow fewer) until the order is satisfied
    or a shot is there."""
    if t.codes["move"] == "remain_stationary":
        t.plan.explain.append(f"{t.op.label} remains stationary (its move order).")
        return
    used, walked, opened = _open_the_way_first(t)
    if opened and walked:
        _rest_of_move(t, kinds)
    allowed = _move_kinds(t, used, walked, opened)
    _make_moves(t, [k for k in allowed if kinds is None or k in kinds])


def _open_the_way_first(t: _Turn) -> tuple[set[str], bool, bool]:
    """A closed door or hatch in the way: go and open it first (Operate Hatch). The move kinds
    it used, whether it moved and whether it opened it."""
    used: set[str] = set()
    walked = opened = False
    if t.ap > 0 and t.phase in ("firefight", "movement") and not t.done:
        before = len(t.plan.actions)
        t.ctx, t.ap, used, walked, opened = _open_the_way(t.ctx, t.op, t.board, t.enemies,
                                                          t.codes, t.ap, t.plan)
        # what it did, in order (the referee reads the door as part of the move under way)
        t.done.extend(_referee_kind(a) for a in t.plan.actions[before:]
                      if a.model == t.op.id)
        t.result["ctx"] = t.ctx
        t.result["moved"] |= walked
    return used, walked, opened


def _rest_of_move(t: _Turn, kinds: Sequence[str] | None) -> None:
    """The rest of the move that opened a door or hatch on its way: opening it is part of the
    move (002 Operate Hatch "Can be performed during a Reposition or Dash"; 004 "at any point
    when an INFANTRY model is making a normal move ... it can open a door"), so the model goes
    on by its order with the movement that move left (no new action, no AP); not when an
    enemy now holds it in control range (004 "If that model is now within 1" of any enemy
    models, it cannot move any further")."""
    moves = [a for a in t.plan.actions if a.model == t.op.id and a.kind in MOVE_KINDS]
    if not moves or (kinds is not None and moves[-1].kind not in kinds):
        return
    last = moves[-1]
    if not referee.rest_of_move(t.facts(), last.kind):
        return
    left = move_allowance(t.op, last.kind, t.edition) - last.cost
    here = t.board.pos[t.op.id]
    if left < 0.05 or in_control_range(t.ctx, here, t.op.radius, t.enemies, t.board.pos):
        return
    mv = move_by_order(t.ctx, t.state, t.unit, t.op, here, last.kind, t.codes, t.board,
                       t.enemies, t.mates, allowance=left)
    if mv is None or mv.to is None:
        return
    mv.rest = True
    mv.note += f" The rest of its {last.kind.replace('_', ' ')}, after the door or hatch."
    t.plan.actions.append(mv)
    t.plan.explain.append(mv.note)
    t.board.pos[t.op.id] = mv.to
    t.done.append(last.kind)  # the same move goes on: no new action, no AP


def _move_kinds(t: _Turn, used: set[str], walked: bool, opened: bool) -> list[str]:
    """The moves it may still make by its order: Reposition and Dash (Kill Team 2024, one an
    AP, as the sequence table and a Heavy weapon fired allow) or the 2018 normal move, less
    those made or used on the way to a door."""
    # (a Heavy-only model with no shot now moves: keeping still would not make one)
    if t.edition == "kt2024":
        kinds = [k for k in ("reposition", "dash") if k not in used and t.may(k)]
    else:
        moved = bool({"normal", "advance"} & (used | set(t.done)))
        kinds = [] if moved else ["advance" if _advance_pays(t) else "normal"]
    if walked and not opened:
        kinds = []  # still on its way to the door or hatch
    if kinds and t.unit.fsm == "in_cover" and t.codes["move"] in ("to_cover",
                                                                   "to_cover_firing_line") \
            and _stays_in_cover(t):
        kinds = []
    return kinds


def _stays_in_cover(t: _Turn) -> bool:
    """A To Cover unit that reached cover: "To Cover: Unit will move to the nearest cover and
    then remain stationary"; a "To Cover with firing line" one seeks the best firing line
    again unless ``firing_line_cover: stay``. Whether it stays, said either way."""
    firing = t.codes["move"] == "to_cover_firing_line"
    if firing and t.ctx.settings.firing_line_cover == "seek":
        t.plan.explain.append(f"{t.op.label}'s unit reached cover; To Cover with firing line "
                              "looks again for the best field of unhindered fire (setting "
                              "firing_line_cover: seek).")
        return False
    t.plan.explain.append(f"{t.op.label} stays where it is: the unit reached cover and then "
                          "remains stationary (" + ("To Cover with firing line, setting "
                                                    "firing_line_cover: stay" if firing
                                                    else "To Cover") + ").")
    return True


ADVANCING_ORDERS = ("towards_closest_enemy", "to_firing_range", "hold_12")
"""The move orders that only gain from going further (a "To cover" point must be reached)."""


def _advance_pays(t: _Turn) -> bool:
    """Kill Team 2018: whether the model Advances rather than makes a normal move (004: "Add
    the result to the model's Move characteristic ... A model that Advances cannot charge,
    React or shoot later that battle round"): its order moves it towards the enemy or a firing
    range, and the Advance costs it nothing -- no charge (the order's charge, ranked first, was
    not made) and no shot: none of its weapons but an Assault one (which still fires) reaches
    the closest enemy after a normal move."""
    if t.edition != "kt2018" or t.phase != "movement" or t.closest is None:
        return False
    if t.codes["move"] not in ADVANCING_ORDERS or t.moved_before or t.engaged:
        return False
    dist = t.closest[0]
    if t.codes["move"] == "hold_12" and dist <= 12.0 + t.op.profile.movement:
        return False  # a normal move reaches its 12"
    reach_after = dist - float(t.op.profile.movement)
    for weapon in t.op.profile.ranged_weapons:
        if weapon.kt2018_type == "assault":
            continue
        if weapon.effective_range is None or weapon.effective_range + 1e-9 >= reach_after:
            return False  # the normal move may keep a shot the Advance would lose
    return True


def _make_moves(t: _Turn, kinds: list[str]) -> None:
    """The moves of ``kinds`` in turn (1 AP each), each by the move order, until one is not
    worth making, the order is satisfied, or (Kill Team 2024) a shot is there to take."""
    op, board = t.op, t.board
    for kind in kinds:
        if not t.may(kind):
            continue
        if _shot_beats_another_move(t):
            break
        mv = move_by_order(t.ctx, t.state, t.unit, op, board.pos[op.id], kind, t.codes, board,
                           t.enemies, t.mates)
        if mv is None:
            break
        mv = _dash_instead(t, mv)
        if mv.kind == "advance":
            why = " It has no shot to lose and no charge to make (004 Advance)."
            mv.note = mv.note.replace("advances ", "advances up to ", 1) + (
                " It Advances (its Move and a D6, rolled as it moves): it has no shot to lose "
                "and no charge to make (004 Advance).")
            if mv.told is not None:
                mv.told = (mv.told[0], mv.told[1], why)
        t.plan.actions.append(mv)
        t.plan.explain.append(mv.note)
        board.pos[op.id] = mv.to  # type: ignore[assignment]
        t.result["moved"] = True
        t.spend(mv.kind)
        if _order_satisfied(t.ctx, op, board, t.enemies, t.codes):
            break


def _shot_beats_another_move(t: _Turn) -> bool:
    """Kill Team 2024: whether the model, having moved this activation (a move planned here,
    or one carried out before a re-plan: a target of its shot went down, say), takes the shot
    it now has rather than a second move. 003 Unhindered move "will fire at the closest enemy
    within range if also allowing its self to complete the other action unhindered": the
    order's move is made, so the shot comes before a further Dash (fire at will shot first
    where it could)."""
    return (t.edition == "kt2024" and bool(t.moves_made()) and t.may("shoot")
            and _shot_from(t, t.board.pos[t.op.id]) is not None)


def _dash_instead(t: _Turn, mv: Action) -> Action:
    """A Reposition the order chose that a Dash makes as well (the same end point) becomes a
    Dash when only a Dash keeps a shot (a Heavy (Dash only) weapon): 003 Unhindered move "will
    fire ... if also allowing its self to complete the other action unhindered"."""
    if (t.edition != "kt2024" or mv.kind != "reposition" or mv.cost > 3.0 + 1e-9
            or not t.may("dash") or not any(kt2024.heavy_allowed_moves(w) == ("dash",)
                                            for w in t.op.profile.ranged_weapons)):
        return mv
    if _shot_from(t, mv.to, "reposition") is not None:
        return mv  # it shoots after the Reposition anyway
    dash = move_by_order(t.ctx, t.state, t.unit, t.op, t.board.pos[t.op.id], "dash", t.codes,
                         t.board, t.enemies, t.mates)
    if dash is None or dash.to is None or mv.to is None or float(
            np.hypot(dash.to[0] - mv.to[0], dash.to[1] - mv.to[1])) > SAME_END:
        return mv
    if _shot_from(t, dash.to, "dash") is None:
        return mv
    dash.note += (" A Dash, not a Reposition: the same move, and its Heavy (Dash only) weapon "
                  "may still fire after it.")
    return dash


def _shot_from(t: _Turn, point: tuple[float, float] | None, last: str | None = None
               ) -> Action | None:
    """The shot the model would take from ``point`` after its moves (``last``: one more)."""
    if point is None:
        return None
    kinds = t.moves_made() + ([last] if last else [])
    shot, _ = choose_shot(t.ctx, t.op, point, t.enemies, t.board.pos, moved=bool(kinds),
                          moved_how=_heavy_move(kinds))
    return shot


def _heavy_move(kinds: Sequence[str]) -> str | None:
    """The move of ``kinds`` a Heavy (x) weapon is judged by: any other than a Dash forbids a
    Heavy (Dash only) shot, so that one if there is one (001: "only (x) is allowed")."""
    if not kinds:
        return None
    return next((k for k in kinds if k != "dash"), "dash")


def _shoot_after_moving(t: _Turn, lead: str | None = None) -> None:
    """Shoot after moving (unhindered move, or fire at will with nothing to shoot before)."""
    if t.edition == "kt2024" and not t.shot_done and t.may("shoot"):
        shot = _shot_from(t, t.board.pos[t.op.id])
        if shot is not None:
            if lead is None and t.codes["shoot"].startswith("unhindered"):
                lead = ("Unhindered move: it moved first, then fires. " if t.moves_made()
                        else "Unhindered move: its move comes first, but it stays where it "
                             "is (its order's move took it nowhere), then fires. ")
            lead = lead or ""
            _shoot(t, shot, lead)


def _first_shot(t: _Turn) -> Action | None:
    """The shot from where the model stands before it moves, or None."""
    shot, _ = choose_shot(t.ctx, t.op, t.start, t.enemies, t.board.pos, moved=t.moved_before,
                          moved_how=_heavy_move(t.moves_made()))
    return shot


def refused(t: _Turn, fork: _Turn) -> str | None:
    """The referee's verdict on the actions ``fork`` planned for the model after ``t`` (a
    player in its place would be refused any of them): each in turn, with the control range
    measured where the model then stands (on the planner's working positions). The
    refusal's sentence, or None when every one is legal."""
    act, here, ctx = t.facts(), t.here, t.ctx
    for action in fork.plan.actions:
        if action.model != t.op.id or action.kind == "guard":
            continue
        kind = _referee_kind(action)
        weapon = next((w for w in t.op.profile.weapons if w.name == action.weapon), None)
        measured = kind in referee.MOVES or kind in ("shoot", "fight")
        portal_fight = kind == "fight" and action.portal is not None
        holder = None
        if measured and not portal_fight:
            held = in_control_range(ctx, here, t.op.radius, t.enemies, t.board.pos)
            holder = held[0].label if held else None
        if t.edition == "kt2018" and kind == "charge":
            measured = False  # a 2018 charge may start within 1" (004)
        why = referee.refusal(act, kind, weapon=weapon, holder=holder,
                              check_control=measured and not portal_fight)
        if why is not None:
            return why
        act = act.after(kind, weapon)
        if kind == "portal":
            ctx = fork.ctx
        elif action.to is not None and kind != "shoot":
            here = action.to
    return None
