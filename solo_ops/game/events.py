"""Every kind of event the engine records, declared once, with whether it is secret.

A step's record holds its events (``{"type": kind, ...}``). The player view
(:mod:`solo_ops.view.player`) drops every event of a kind declared secret here — whether or not
the emitting code also marked it — and every event of a kind not declared at all, so a new
kind can never leak a hidden fact before it is declared. Narration
(:mod:`solo_ops.view.narrate`) gives words to every kind that is not secret or deliberately
silent. ``tests/game/test_event_kinds.py`` checks that every kind the code emits is declared
here, that code marking an event secret only does so for secret kinds, and that narration
covers the rest.

Rolls are marked secret where they are rolled (``dice.d6(..., secret=True)``), not here.
"""

from __future__ import annotations

SECRET = True
OPEN = False

PAUSES = frozenset({"reroll_offered", "fight_offered", "guard_offered", "cover_offered",
                    "reaction_offered"})
"""The events of a step paused for a question to the players (a CP re-roll, a fight's die, a
Guard interrupt, a useless cover save, a Kill Team 2018 Reaction): the step runs again from
its start after the answer, and each holds in ``so_far`` what the enemy did in it before the
question."""

EVENTS: dict[str, bool] = {
    # set-up and turn structure (game.engine, game.turns)
    "squad_deployed": OPEN,
    "enemy_placed": OPEN,
    "counter_placed": OPEN,
    "initiative": OPEN,
    "command_points": OPEN,
    "cp_spent": OPEN,  # the players spent CP (a re-roll, or told at the table; game.cp)
    "reroll_offered": OPEN,  # a step paused for the players' CP re-roll (game.cp)
    "fight_offered": OPEN,  # a step paused for a player's next die in a fight (fight_choices)
    "guard_offered": OPEN,  # a step paused for a player's Guard interrupt (game.guard)
    "cover_offered": OPEN,  # a step paused for a player's useless cover save (cover_choice)
    "reaction_offered": OPEN,  # a step paused for a 2018 Reaction to a charge (reactions)
    "turn_start": OPEN,
    "enemy_idle": OPEN,  # the turn would go to the enemy, which has nothing to activate (why)
    "phase": OPEN,
    "turn_end": OPEN,
    "battle_end": OPEN,
    # the fog of war (game.fog, game.reveal)
    "hidden_order": SECRET,  # a counter's hidden order
    "hidden_plan": SECRET,  # what a counter's hidden order makes it do this turn
    "counter_command": SECRET,  # a counter taking a higher command's order (rows 3 and 6)
    "counter_moved": OPEN,  # where it went is seen; why too when counter_rows is "shown"
    "counter_joined": OPEN,
    "counter_spotted": OPEN,
    "enemy_count": OPEN,
    "false_alarm": OPEN,
    "ambush": OPEN,
    "counter_revealed": OPEN,
    "counter_empty": OPEN,
    # the players' reported actions (game.actions)
    "activated": OPEN,
    "order": OPEN,  # a 2024 order chosen before the activation's first action
    "activation_end": OPEN,
    "moved": OPEN,
    "move_blocked": OPEN,  # an enemy move a base stopped before it started (the placement rule)
    "shot": OPEN,
    "fight": OPEN,
    "attack_reported": OPEN,
    "carry": OPEN,
    "evacuated": OPEN,
    "portal": OPEN,
    "readied": OPEN,
    "overwatch": OPEN,
    "no_reaction": OPEN,
    "counteract": OPEN,  # Kill Team 2024 Counteract, either side (game.actions, game.counteract)
    "counteract_pass": OPEN,
    "held_fire": OPEN,  # Kill Team 2018: a player's models not picked yet hold their fire
    "pick_up": OPEN,  # Pick Up / Place Down of objective markers (game.markers)
    "place_down": OPEN,
    # the enemy's activations (game.enemy)
    "enemy_activation": OPEN,  # its order, plan and the explanation: all shown by design
    "replanned": OPEN,
    "enemy_refused": OPEN,  # an enemy action the referee refused (game.enemy_checks)
    "unit_leadership": OPEN,  # a unit's Leadership worked out again (game.downed)
    "charge_declared": OPEN,
    "charged": OPEN,
    "charge_failed": OPEN,
    "attack": OPEN,
    "attack_pending": OPEN,
    "secondary_hit": OPEN,
    "shot_cancelled": OPEN,
    "on_guard": OPEN,
    "guard_interrupt": OPEN,
    "guard_ended": OPEN,
    "limited_use": OPEN,
    "dropped": OPEN,
    # effects on either side (game.enemy, game.state)
    "damage": OPEN,
    "flesh_wound": OPEN,
    "down": OPEN,
    "stunned": OPEN,
    "mines": OPEN,
    "unit_event": OPEN,
    "unit_state": OPEN,
    "unit_destroyed": OPEN,
    "merged": OPEN,
    # Kill Team 2018 rolls and the Pariah Nexus effects (game.player_moves, game.pariah_events)
    "move_roll": OPEN,  # an Advance or charge roll, with its dice and the effects on it
    "cannot_react": OPEN,  # a charged model that may not React, and why
    "effect_roll": OPEN,  # an effect's roll for the battle round (lighting, divisors, ...)
    "effect_pick": OPEN,  # what an effect picked at random (lacerators, objectives)
    "effect_hazard": OPEN,  # an effect's D6 for one model, and whether it struck
    "effect_shaken": OPEN,
    "effect_move": OPEN,  # a model an effect moved or set up elsewhere
    "effect_offer": OPEN,  # an effect's question to the players (the prompt follows)
    "effect_declined": OPEN,
    "effect_removed": OPEN,  # a terrain feature removed (Structural Transponder)
    # scoring and morale (game.scoring)
    "vp": OPEN,
    "score": OPEN,
    "nerve_test": OPEN,
    "broken": OPEN,
}
"""Event kind → whether it is secret (never in a player's view)."""

ACTION_KINDS = frozenset({"engine", "setup", "move", "cp", "reroll", "evacuate",
                          "fight_choice", "guard_choice", "cover_choice"})
"""``type`` values of actions, not events (they share the key in the code)."""


def shown(event: dict[str, object]) -> bool:
    """Whether a player may see ``event``: a declared, open kind not marked secret."""
    kind = event.get("type")
    return isinstance(kind, str) and EVENTS.get(kind) is OPEN and not event.get("secret")
