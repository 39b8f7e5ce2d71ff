"""One state machine, shared by every enemy unit, built with ``transitions``.

The machine is defined once (:data:`MACHINE`, ``auto_transitions=False``) and units borrow it:
a unit's state is a plain string kept in :class:`solo_ops.game.state.Unit`, so saves never pickle.
:func:`fire` looks the string and the trigger up in :data:`TABLE`, which is read off the
machine once at import by firing every trigger in every state, and returns the new string — an
impossible transition raises :class:`IllegalTransition`, which is a bug in the planner, never a
silent change. The machine has no callbacks: what a unit does is decided
by pure functions in :mod:`solo_ops.ai.planner`; the machine only records where the unit is in
its life and refuses what cannot happen.
"""

from __future__ import annotations

from transitions import Machine, MachineError

STATES = (
    "hidden",        # still a fog-of-war counter
    "idle",          # on the table, not doing anything in particular
    "moving",        # carrying out its move order
    "in_cover",      # reached cover (to cover orders), staying put
    "holding_range", # keeping its distance (hold 12" / to firing range)
    "charging",      # charging an enemy
    "in_melee",      # in control range of an enemy, fighting
    "grouping",      # moving to join a leader's unit
    "rallying",      # answering a rallying unit's call
    "falling_back",  # leaving a fight
    "merged",        # joined another unit (terminal)
    "destroyed",     # every model down (terminal)
)
ALIVE = tuple(s for s in STATES if s not in ("hidden", "merged", "destroyed"))
ON_TABLE_NOT_MELEE = tuple(s for s in ALIVE if s not in ("in_melee", "falling_back"))

TRANSITIONS: list[dict[str, object]] = [
    {"trigger": "spotted", "source": "hidden", "dest": "idle"},
    {"trigger": "order_move", "source": list(ON_TABLE_NOT_MELEE), "dest": "moving"},
    {"trigger": "reached_cover", "source": list(ON_TABLE_NOT_MELEE), "dest": "in_cover"},
    {"trigger": "hold_range", "source": list(ON_TABLE_NOT_MELEE), "dest": "holding_range"},
    {"trigger": "stand", "source": list(ON_TABLE_NOT_MELEE), "dest": "idle"},
    {"trigger": "charge", "source": list(ON_TABLE_NOT_MELEE), "dest": "charging"},
    {"trigger": "engaged", "source": list(ALIVE), "dest": "in_melee"},
    {"trigger": "charged", "source": list(ALIVE), "dest": "in_melee"},
    {"trigger": "fall_back", "source": "in_melee", "dest": "falling_back"},
    {"trigger": "disengaged", "source": ["in_melee", "falling_back"], "dest": "idle"},
    {"trigger": "group", "source": list(ON_TABLE_NOT_MELEE), "dest": "grouping"},
    {"trigger": "rally", "source": list(ON_TABLE_NOT_MELEE), "dest": "rallying"},
    {"trigger": "merged", "source": list(ALIVE), "dest": "merged"},
    {"trigger": "leader_destroyed", "source": ["grouping", "rallying"], "dest": "idle"},
    {"trigger": "leader_destroyed", "source": [s for s in ALIVE
                                               if s not in ("grouping", "rallying")],
     "dest": "="},
    {"trigger": "shot_at", "source": list(ALIVE), "dest": "="},
    {"trigger": "lost_models", "source": list(ALIVE), "dest": "="},
    {"trigger": "destroyed", "source": ["hidden", *ALIVE], "dest": "destroyed"},
]
TRIGGERS = tuple(sorted({str(t["trigger"]) for t in TRANSITIONS}))


class IllegalTransition(RuntimeError):
    """A trigger fired in a state that does not allow it (a planner bug)."""


class _Borrower:
    """The throwaway model that carries a unit's state string through the machine."""

    state: str


MACHINE = Machine(
    model=None,
    states=list(STATES),
    transitions=TRANSITIONS,
    initial="idle",
    auto_transitions=False,
    ignore_invalid_triggers=False,
)


def _table() -> dict[tuple[str, str], str]:
    """Every legal ``(state, trigger) → new state``, found once by firing each trigger in each
    state on the machine itself, so :data:`MACHINE` stays the one definition and a unit's
    transition is then a dictionary look-up (no model added and removed per trigger)."""
    borrower = _Borrower()
    MACHINE.add_model(borrower, initial="idle")
    table: dict[tuple[str, str], str] = {}
    try:
        for state in STATES:
            for trigger in TRIGGERS:
                MACHINE.set_state(state, model=borrower)
                try:
                    borrower.trigger(trigger)  # type: ignore[attr-defined]
                except MachineError:
                    continue
                table[(state, trigger)] = borrower.state
    finally:
        MACHINE.remove_model(borrower)
    return table


TABLE = _table()
"""The machine as a table: ``(state, trigger) → new state`` for every legal pair."""


def fire(state: str, trigger: str) -> str:
    """The state after ``trigger`` fires in ``state`` (raises :class:`IllegalTransition`)."""
    if state not in STATES:
        raise IllegalTransition(f"unknown state {state!r}")
    if trigger not in TRIGGERS:
        raise IllegalTransition(f"unknown trigger {trigger!r}")
    try:
        return TABLE[(state, trigger)]
    except KeyError:
        raise IllegalTransition(f"{trigger!r} cannot happen to a unit that is {state}") from None


def allowed(state: str, trigger: str) -> bool:
    """Whether ``trigger`` may fire in ``state``."""
    return (state, trigger) in TABLE
