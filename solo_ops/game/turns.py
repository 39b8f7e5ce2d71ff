"""Whose turn it is: which operatives and units may activate now, and handing the turn over.

Kill Team alternates activations between the sides; with co-op players, between the players in
turn. These functions read the state (and, for Kill Team 2018's fight phase, who is engaged,
through :func:`solo_ops.rules.reach.engaged_2018`) and move ``state.next_side`` /
``state.next_player_index`` on. They never apply an action: the engine (:mod:`.engine`) and the
players' actions (:mod:`.actions`) both call here, which is why this is a module of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.game import pariah
from solo_ops.game.action_checks import activation
from solo_ops.game.state import ENEMY, PLAYER, Operative, State, Unit
from solo_ops.rules import kt2018, reach, referee

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


def player_ready(game: Game, state: State, player: str) -> list[Operative]:
    """The operatives ``player`` may activate now (Kill Team 2018: in the fight phase only
    those engaged; models that charged, and in the shooting phase Readied models, first:
    :func:`first_2018`)."""
    out = _player_base(game, state, player)
    first = first_2018(game, state)
    if first is not None:
        out = [op for op in out if goes_first(game, state, op)]
    return out


def why_not_ready(game: Game, state: State, op: Operative) -> str | None:
    """Why the player operative ``op`` is not among :func:`player_ready`'s now, in the players'
    words (the rule it follows), or None when it is: out of action, already acted, Shaken,
    nothing to fight or shoot with in this 2018 phase, or another model goes first."""
    period = "turning point" if state.edition == "kt2024" else "phase"
    if not op.on_table:
        return "it is out of action" if op.down else "it is not on the table"
    if op.activated and state.edition == "kt2018" and op.moved_how == "retreat" \
            and state.phase == "movement":
        return "it Retreated this phase: that was its move"
    if op.activated:
        return f"it has already acted this {period}"
    if state.edition == "kt2018" and op.shaken:
        return f"it {referee.SHAKEN}"
    if state.edition == "kt2018" and state.phase == "fight" and not engaged_2018(game, state, op):
        return "no enemy model is within 1\" of it to fight"
    if state.edition == "kt2018" and state.phase == "shooting":
        barred = shooting_barred_2018(op)
        if barred is not None:
            return f"it {barred}"
    if state.edition == "kt2018" and (carried := _carry_barred(state, op)) is not None:
        return carried
    first = first_2018(game, state)
    if first is not None and not goes_first(game, state, op):
        return ("Readied models shoot first (Ready, Fire!)" if first == "readied"
                else "models that charged fight first (Hammer of Wrath)")
    return None


def goes_first(game: Game, state: State, op: Operative) -> bool:
    """Kill Team 2018: whether ``op`` acts "before all other models" in this phase: it
    charged this battle round (fight phase, 004 Hammer of Wrath), it is Readied (shooting
    phase, Ready, Fire!), or a Pariah Nexus effect puts it there (004 Temporal Accelerator
    "Whilst a model is within 2" of an objective marker, it shoots in the Ready, Fire! section
    of the Shooting phase and fights in the Hammer of Wrath section of the Fight phase")."""
    if state.phase == "fight" and op.charged:
        return True
    if state.phase == "shooting" and not may_shoot_2018(op):
        return False  # it cannot shoot: it holds up no one
    if state.phase == "shooting" and op.readied:
        return True
    return pariah.acts_first(game, state, op) is not None


def may_shoot_2018(op: Operative) -> bool:
    """Whether ``op`` may shoot at all this battle round (004: not after a Fall Back, a Retreat
    or a charge attempt; after an Advance only with an Assault weapon)."""
    return shooting_barred_2018(op) is None


def shooting_barred_2018(op: Operative) -> str | None:
    """Why ``op`` may not shoot at all this battle round, or None
    (:func:`solo_ops.rules.kt2018.shooting_barred` of its moves and weapons)."""
    return kt2018.shooting_barred(
        moved_how=op.moved_how, advanced=op.advanced, charged=op.charged,
        assault=op.profile.has_assault)


def _carry_barred(state: State, op: Operative) -> str | None:
    """Kill Team 2018, the shooting and fight phases: why ``op`` has no turn in them, having
    picked a friend up this battle round (the referee's
    :func:`~solo_ops.rules.referee.carry_refusal`: 003 "this ends all actions for this turn so
    the model can not shoot or charge this turn"), or None."""
    if state.phase not in ("shooting", "fight"):
        return None
    kind = "shoot" if state.phase == "shooting" else "fight"
    return referee.carry_refusal(activation(state, op), kind)


def _player_base(game: Game, state: State, player: str) -> list[Operative]:
    out = []
    for op in state.side(PLAYER):
        if op.owner != player or not op.on_table or op.activated:
            continue
        if state.edition == "kt2018" and op.shaken:
            continue
        if state.edition == "kt2018" and state.phase == "fight" and not engaged_2018(
                game, state, op):
            continue
        if state.edition == "kt2018" and state.phase == "shooting" and not may_shoot_2018(op):
            continue  # it Fell Back, Retreated, charged or Advanced: nothing to do here
        if state.edition == "kt2018" and _carry_barred(state, op) is not None:
            continue  # it picked a friend up this battle round: its actions are over
        out.append(op)
    return out


def _enemy_base(game: Game, state: State) -> list[Unit]:
    ready = []
    for unit in state.active_units():
        if unit.activated or unit.fsm == "hidden":
            continue
        models = state.unit_models(unit)
        if not models:
            continue
        if state.edition == "kt2018" and state.phase == "fight":
            if not any(_may_act_2018(game, state, m) for m in models):
                continue
        ready.append(unit)
    return ready


def first_2018(game: Game, state: State) -> str | None:
    """Kill Team 2018's "before all other models": ``"charged"`` in the fight phase while a
    model (either side) that charged this battle round can still fight (004 "Models that
    charged in this battle round fight before all other models ... A player cannot choose to
    pass if they have a model that charged that can fight"), ``"readied"`` in the shooting
    phase while a Readied model can still shoot (004 "Readied models shoot before all other
    models"), each with the models a Pariah Nexus effect puts there (:func:`goes_first`);
    None otherwise. Only player operatives are Readied (the AI never Readies)."""
    if state.edition != "kt2018" or state.phase not in ("fight", "shooting"):
        return None
    word = "readied" if state.phase == "shooting" else "charged"
    players = list(dict.fromkeys(o.owner for o in state.side(PLAYER)))
    mine = [op for p in players for op in _player_base(game, state, p)]
    if any(goes_first(game, state, op) for op in mine):
        return word
    if any(_unit_first(game, state, unit) for unit in _enemy_base(game, state)):
        return word
    return None


def _unit_first(game: Game, state: State, unit: Unit) -> bool:
    """An enemy unit acts first when one of its models does (:func:`goes_first`; in the
    fight phase one engaged): it then acts with those models alone (:func:`acting_models`)."""
    return any(_may_act_2018(game, state, m) and goes_first(game, state, m)
               for m in state.unit_models(unit))


def _may_act_2018(game: Game, state: State, op: Operative) -> bool:
    """Whether the enemy model ``op`` still has its turn in this Kill Team 2018 shooting or
    fight phase: it has not yet had it, and (fight) it is within 1" of a player's model. A
    model barred from shooting has its turn too: its unit's plan says why it holds fire."""
    if op.activated:
        return False
    return state.phase != "fight" or engaged_2018(game, state, op)


def acting_models(game: Game, state: State, unit: Unit) -> frozenset[str] | None:
    """Kill Team 2018, the shooting and fight phases: the ids of the models of the enemy
    ``unit`` that act in its activation now. While models go first (004 Hammer of Wrath
    "Models that charged in this battle round fight before all other models", Ready, Fire!,
    Temporal Accelerator) only those of its models that do; the others wait for the rest of
    the phase, when the unit activates again with the models that have not yet acted. None
    (every model of the unit) in Kill Team 2024 and the movement phase."""
    if state.edition != "kt2018" or state.phase not in ("fight", "shooting"):
        return None
    models = [m for m in state.unit_models(unit) if _may_act_2018(game, state, m)]
    if first_2018(game, state) is not None:
        models = [m for m in models if goes_first(game, state, m)]
    return frozenset(m.id for m in models)


def still_to_act(game: Game, state: State, unit: Unit) -> bool:
    """Kill Team 2018: whether a model of the enemy ``unit`` may still act later in this
    shooting or fight phase (its models that went first have acted, the others wait)."""
    if state.edition != "kt2018" or state.phase not in ("fight", "shooting"):
        return False
    return any(_may_act_2018(game, state, m) for m in state.unit_models(unit))


def engaged_2018(game: Game, state: State, op: Operative) -> bool:
    """Whether ``op`` is within 1" of an enemy model (never through a wall):
    :func:`solo_ops.rules.reach.engaged_2018`."""
    if op.at is None:
        return False
    bases = [(o.at, o.radius) for o in state.living(ENEMY if op.side == PLAYER else PLAYER)
             if o.at is not None]
    return reach.engaged_with_any(game.terrain(state), op.at, op.radius,
                                  [at for at, _ in bases], [r for _, r in bases])


def next_player(game: Game, state: State) -> str | None:
    players = list(dict.fromkeys(o.owner for o in state.side(PLAYER)))
    if not players:
        return None
    n = len(players)
    for k in range(n):
        p = players[(state.next_player_index + k) % n]
        if player_ready(game, state, p):
            return p
    return None


def enemy_ready(game: Game, state: State) -> list[Unit]:
    """The enemy units that may activate now (Kill Team 2018: see :func:`first_2018`; a unit
    acting first for some of its models acts with those: :func:`acting_models`)."""
    ready = _enemy_base(game, state)
    if first_2018(game, state) is not None:
        ready = [u for u in ready if _unit_first(game, state, u)]
    return ready


def counteract_candidates(game: Game, state: State, side: str) -> list[Operative]:
    """Kill Team 2024 Counteract (card 001: "When you would activate an Operative, but have no
    ready Operatives left, and your opponent still has ready Operatives to activate: you can
    select a expended friendly Operative with an ENGAGE order to perform a 1AP action for
    free. Only once per Operative per TP"): ``side``'s expended Engage operatives on the table
    that have not counteracted this turning point, in id order -- when the ``counteract``
    setting lets ``side`` counteract, it is the firefight, ``side`` has nothing ready and the
    other side has. Empty otherwise."""
    allowed = {"both": (PLAYER, ENEMY), "players": (PLAYER,), "off": ()}
    if (state.edition != "kt2024" or state.phase != "firefight"
            or side not in allowed.get(game.settings.counteract, ())):
        return []
    players_can = next_player(game, state) is not None
    enemy_can = bool(enemy_ready(game, state))
    if (players_can, enemy_can) != ((False, True) if side == PLAYER else (True, False)):
        return []
    out = []
    for op in state.living(side):
        if not op.activated or op.stance != "engage" or op.id in state.counteracted:
            continue
        if referee.carry_refusal(activation(state, op), "counteract") is not None:
            continue  # 003 Carrying: picking a friend up "ends all actions for this turn"
        if side == ENEMY:
            unit = state.units.get(op.owner)
            if unit is None or not unit.active or unit.fsm == "hidden":
                continue
        out.append(op)
    return sorted(out, key=lambda o: o.id)


def counteract_player(game: Game, state: State) -> tuple[str, list[Operative]] | None:
    """The player who may counteract now and their candidates: the players in turn from
    ``next_player_index``, the first with a candidate (:func:`counteract_candidates`)."""
    candidates = counteract_candidates(game, state, PLAYER)
    players = list(dict.fromkeys(o.owner for o in state.side(PLAYER)))
    for k in range(len(players)):
        player = players[(state.next_player_index + k) % len(players)]
        mine = [o for o in candidates if o.owner == player]
        if mine:
            return player, mine
    return None


def balance_sides(game: Game, state: State) -> list[dict[str, Any]]:
    """If the side to act has nothing ready, hand over -- unless it may counteract
    (:func:`counteract_candidates`); if neither has anything ready, leave it to the engine
    (which ends the phase)."""
    players_can = next_player(game, state) is not None
    enemy_can = bool(enemy_ready(game, state))
    if state.next_side == PLAYER and not players_can:
        if not counteract_candidates(game, state, PLAYER):
            state.next_side = ENEMY if enemy_can else None
    elif state.next_side == ENEMY and not enemy_can:
        if not counteract_candidates(game, state, ENEMY):
            state.next_side = PLAYER if players_can else None
            if players_can:
                return enemy_idle(state, game)
    return []


def enemy_idle(state: State, game: Game | None = None) -> list[dict[str, Any]]:
    """The turn would go to the enemy but it has nothing to activate: say so and why, once
    a turning point (battle round: once a phase) for each reason. Kill Team 2018 says it in
    its own words: the players' Readied models shoot first (Ready, Fire!), models that
    charged fight first (Hammer of Wrath), no enemy model is within 1" of the players' to
    fight, or every enemy unit has moved, or had its turn to shoot or fight, this phase."""
    units = [u for u in state.active_units() if state.unit_models(u)]
    shown = [u for u in units if u.fsm != "hidden"]
    hidden = [c for c in state.counters.values() if c.active]
    period = "turning point" if state.edition == "kt2024" else "phase"
    waiting = [u for u in shown if not u.activated]
    first = first_2018(game, state) if game is not None else None
    if not shown and not hidden:
        why = "no enemy is left on the table"
    elif not shown:
        why = (f"every enemy is still hidden ({len(hidden)} counter"
               f"{'s' if len(hidden) != 1 else ''} not yet revealed; counters are revealed when "
               f"your {'models' if state.edition == 'kt2018' else 'operatives'} see them)")
    elif waiting and first == "readied":
        why = ("your Readied models (and those a Pariah Nexus effect puts there) shoot first, "
               "in Ready, Fire!")
    elif waiting and first == "charged":
        why = "the models that charged fight first, in Hammer of Wrath"
    elif waiting and state.edition == "kt2018" and state.phase == "fight":
        why = "no enemy model that has yet to fight is within 1\" of one of yours"
    elif waiting and state.edition == "kt2018" and state.phase == "shooting":
        why = "no enemy model can shoot"
    else:
        # (2018: a unit that Advanced or charged has had its turn to shoot without shooting)
        done = {"movement": "moved", "shooting": "had its turn to shoot",
                "fight": "had its turn to fight"}.get(
            state.phase, "activated") if state.edition == "kt2018" else "activated"
        why = f"every enemy unit on the table has {done} this {period}"
        if hidden:
            why += (f"; {len(hidden)} counter{'s are' if len(hidden) != 1 else ' is'} still "
                    "hidden")
    if why in state.idle_told:
        return []
    state.idle_told.append(why)
    return [{"type": "enemy_idle", "why": why}]


def after_player_activation(game: Game, state: State) -> list[dict[str, Any]]:
    """Hand the turn to the enemy (or back to the players when the enemy has nothing ready)."""
    players = list(dict.fromkeys(o.owner for o in state.side(PLAYER)))
    if players:
        state.next_player_index = (state.next_player_index + 1) % len(players)
    state.next_side = ENEMY
    return balance_sides(game, state)
