"""The game loop's core: set-up, ``pending`` (what happens next) and ``step`` (apply one
action), for Kill Team 2024 turning points and Kill Team 2018 battle rounds.

A game is a :class:`~solo_ops.game.definition.Game` (static: the scenario, compiled terrain;
defined below this dispatcher, so every module of the game imports it without a circle) and a
:class:`~solo_ops.game.state.State` (everything that changes). :func:`new_game` sets the table up
(squads deployed, pre-placed enemies formed into units with their orders, counters seeded);
then the caller repeatedly asks :func:`pending` what is needed and feeds :func:`step` an
action: ``{"type": "engine"}`` when the engine acts (enemy activations, initiative, hidden
movement, scoring), or one of the player's reported actions (see :mod:`solo_ops.game.actions`).
Every step appends one record (the action, its events and the dice it rolled) to
``state.log``. Because the dice are a seeded counter-based source, replaying the same actions
from the same scenario and seed rebuilds the same state: that is how saves, resume, undo and
``solo-ops replay`` work (:mod:`solo_ops.io.savegame`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solo_ops.ai.guard import GALLOWDARK
from solo_ops.ai.planner import first_to_activate, plan_activation
from solo_ops.core.dice import CURRENT, dice_for
from solo_ops.core.errors import RuleError
from solo_ops.core.tables import order_tables
from solo_ops.game import (
    actions,
    counteract,
    cover_choice,
    cp,
    enemy,
    enemy_guard,
    fight_choices,
    fog,
    guard,
    pariah_events,
    play2018,
    reactions,
    reveal,
    scoring,
    stun,
    turns,
)
from solo_ops.game import deploy as setting
from solo_ops.game.action_checks import order_may_change
from solo_ops.game.definition import KT2018_PHASES, KT2024_PHASES, PRE_BATTLE_CP, Game, Prompt
from solo_ops.game.deploy import deploy, zone_for
from solo_ops.game.scenario import Scenario
from solo_ops.game.state import ENEMY, PLAYER, Operative, State, Unit
from solo_ops.geometry.terrain import TerrainCache, library_facts
from solo_ops.rules import kt2018_reactions, reach
from solo_ops.rules.orders import form_units, roll_command


# -- set-up -------------------------------------------------------------------------------------
def read_ahead() -> None:
    """What every game needs once per process, found when a game is made so that the enemy's
    first turn at the table never pauses for it: the order tables
    (:func:`~solo_ops.core.tables.order_tables`) and the facts about the GEOS library in use
    (:func:`~solo_ops.geometry.terrain.library_facts`)."""
    order_tables()
    library_facts()


def new_game(scenario: Scenario, seed: int, *, terrains: TerrainCache | None = None,
             dice_scheme: str = CURRENT) -> tuple[Game, State]:
    """Set the table: squads, pre-placed enemies and counters, then seed the fog of war. The
    set-up is the game's first log record (its rolls included). ``terrains``: a compiled
    terrain cache of the same board to share (the simulator plays many missions on one board;
    a terrain never changes, so sharing it changes no answer). ``dice_scheme``: how the seed
    becomes faces (:data:`solo_ops.core.dice.SCHEMES`; a saved game keeps its own)."""
    game = Game(scenario, seed, dice_scheme=dice_scheme)
    read_ahead()
    given, scenario = scenario, game.scenario  # its board as the killzone makes it
    if terrains is not None:
        if terrains.board.identity == scenario.board.identity:
            game.terrains = terrains
        elif terrains.board.identity != given.board.identity:
            raise ValueError("the shared terrain cache is of another board")
        # (a cache of the scenario's board as drawn, where the killzone reads it otherwise --
        # Volkus doors in 2024, rules.killzones.board_in_play -- is not shared)
    dice = dice_for(dice_scheme, seed)
    state = State(edition=scenario.edition, dice=dice)
    state.doors = scenario.board.door_state()
    terrain = game.terrain(state)
    events: list[dict[str, Any]] = []
    taken = setting.placed_by_scenario(scenario)
    for index, squad in enumerate(scenario.squads):
        missing = [m for m in squad.models if m.at is None]
        spots = deploy(terrain, zone_for(scenario.board, index),
                       [m.profile.for_edition(scenario.edition).base_radius for m in missing],
                       taken) if missing else []
        where = dict(zip([m.id for m in missing], spots, strict=True))
        for k, m in enumerate(squad.models):
            profile = m.profile.for_edition(scenario.edition)
            at = m.at if m.at is not None else where[m.id]
            setting.check_spot(terrain, state, m.id, at, profile.base_radius,
                               where=None if m.at is None else
                               (scenario.source, f"squads[{index}].models[{k}].at"))
            if m.at is None:
                taken.append((at[0], at[1], profile.base_radius))
            state.operatives[m.id] = Operative(m.id, m.name, PLAYER, squad.player, profile, at,
                                               m.starting_wounds(profile.wounds))
        events.append({"type": "squad_deployed", "player": squad.player,
                       "models": [setting.deployed(state.operatives[m.id]) for m in squad.models]})
    set_up_order = "conceal" if scenario.edition == "kt2024" else "engage"
    for u, spec in enumerate(scenario.enemies):
        models = []
        for k, m in enumerate(spec.models):
            profile = m.profile.for_edition(scenario.edition)
            assert m.at is not None
            setting.check_spot(terrain, state, m.id, m.at, profile.base_radius,
                               where=(scenario.source, f"enemies[{u}].models[{k}].at"))
            # 001 set-up: "all concealed" (2018 has no orders: the field is unread there)
            state.operatives[m.id] = Operative(m.id, m.name, ENEMY, spec.id, profile, m.at,
                                               profile.wounds, stance=set_up_order)
            models.append((m.id, profile))
        leadership = max(p.leadership for _, p in models)
        if spec.command is None:
            roll = roll_command(dice, leadership, purpose=f"order roll for {spec.id}")
            command = roll.command
        else:
            command = spec.command
        _add_units(state, spec.id, form_units(models, command, scenario.settings.troop_count))
        events.append({"type": "enemy_placed", "unit": spec.id, "command": command,
                       "units": [state.units[u].to_dict() for u in state.units
                                 if u == spec.id or u.startswith(f"{spec.id}-")]})
    events.extend(setting.place_counters(scenario, terrain, state, dice))
    state.counter_seq = _max_suffix(state.counters, "c")
    events.extend(fog.seed_counters(terrain, state, scenario.engagement, dice,
                                    scenario.settings))
    state.phase = "setup"
    for op in state.side(PLAYER):
        op.stance = "conceal"
    _record(state, {"type": "setup", "seed": seed}, events, 0)
    return game, state


def _max_suffix(items: dict[str, Any], prefix: str) -> int:
    best = 0
    for key in items:
        if key.startswith(prefix) and key[len(prefix):].isdigit():
            best = max(best, int(key[len(prefix):]))
    return best


def _add_units(state: State, base_id: str, formed: list[Any]) -> list[str]:
    ids = []
    for unit in formed:
        uid = base_id if len(formed) == 1 else f"{base_id}-{unit.troop.value}"
        state.units[uid] = Unit(uid, list(unit.models), unit.troop.value, unit.command,
                                unit.leadership, fsm="idle")
        for m in unit.models:
            state.operatives[m].owner = uid
        ids.append(uid)
    return ids


def _r(p: tuple[float, float] | None) -> list[float] | None:
    return reach.round_point(p)


def _record(state: State, action: dict[str, Any], events: list[dict[str, Any]],
            seq_before: int) -> dict[str, Any]:
    dice = state.dice
    assert dice is not None
    rolls = [entry.to_dict() for entry in dice.since(seq_before)]  # secret ones marked so
    record = {"n": len(state.log), "action": action, "events": events, "rolls": rolls}
    state.log.append(record)
    return record


def _reactions(target: Operative, entry: dict[str, Any]) -> list[str]:
    """The answers to a 2018 charge's Reaction question: Overwatch rolled by solo-ops with
    each ranged weapon (``overwatch roll`` when there is one), or its damage rolled by the
    player; a Retreat when the model may; none. Each is an answer a button can send as it is
    (the referee judges the weapon's sight and range when it is given)."""
    guns = [w.name for w in kt2018_reactions.overwatch_weapons(
        list(target.profile.ranged_weapons), advanced=target.advanced)]  # 004 Assault
    options = (["overwatch roll"] if len(guns) == 1 else
               [f"overwatch with {name} roll" for name in guns])
    if guns:
        options.append("overwatch damage N")
    if entry.get("retreat"):
        options.append("retreat X,Y")
    return [*options, "no"]


# -- what next ----------------------------------------------------------------------------------
PAUSED: dict[str, tuple[str, Callable[[dict[str, Any]], list[str]]]] = {
    "reroll": ("reroll", cp.options),  # a CP re-roll of the players' dice (game.cp)
    "fight_move": ("fight", fight_choices.options),  # the next die of a fight
    "cover_save": ("cover", cover_choice.options),  # a useless cover save: keep it or roll
    "guard_offer": ("guard", guard.options),  # an operative On Guard may interrupt
}
"""A step paused for a player's answer (``state.pending_attacks[0]["kind"]``) → the prompt's
kind and its options."""


def pending(game: Game, state: State) -> Prompt:
    """What the game needs next: the engine to act, or a player's answer."""
    if state.ended:
        return Prompt("ended", text="The battle is over.")
    entry = state.pending_attacks[0] if state.pending_attacks else {}
    question = PAUSED.get(str(entry.get("kind")))
    if question is not None:  # a player's answer asked mid-step (the module named in PAUSED)
        kind, offered = question
        return Prompt(kind, PLAYER, entry["player"], entry["operative"], entry["text"],
                      offered(entry), data=entry)
    if entry.get("kind") == pariah_events.QUESTION:  # a Pariah Nexus effect asks the players
        return Prompt("effect", PLAYER, entry["player"], entry.get("operative"), entry["text"],
                      list(entry.get("options", [])), data=entry)
    if state.pending_attacks and state.pending_attacks[0].get("kind") == "reaction":
        # Kill Team 2018: the target of a declared charge reacts (actions._reaction)
        entry = state.pending_attacks[0]
        target = state.operatives[entry["target"]]
        return Prompt("reaction", PLAYER, target.owner, target.id,
                      f"{target.owner}: {entry['text']}", _reactions(target, entry),
                      data=entry)
    if state.pending_attacks:
        attack = state.pending_attacks[0]
        target = state.operatives[attack["target"]]
        return Prompt("attack", PLAYER, target.owner, target.id, attack["text"],
                      ["damage N"], data=attack)
    if state.phase in (*KT2024_PHASES, *KT2018_PHASES) and state.next_side == PLAYER:
        if state.active_operative is not None:
            op = state.operatives[state.active_operative]
            if state.counteracting:
                return Prompt("act", PLAYER, op.owner, op.id,
                              f"{op.owner}: what did {op.name} do? (Counteract: one 1 AP "
                              "action, free; a move of at most 2\")",
                              _counteract_options())
            doing = "" if state.edition == "kt2024" else f" in the {state.phase} phase"
            return Prompt("act", PLAYER, op.owner, op.id,
                          f"{op.owner}: what did {op.name} do{doing}?",
                          _act_options(game, state, op))
        player = turns.next_player(game, state)
        if player is not None:
            ready = [o.id for o in turns.player_ready(game, state, player)]
            hold = ({"pass": "pass"} if state.edition == "kt2018" and state.phase == "shooting"
                    else {})
            return Prompt("activate", PLAYER, player, None, _which(state, player), ready,
                          data=hold)
        counter = turns.counteract_player(game, state)
        if counter is not None:
            return _counteract_prompt(*counter)
    return Prompt("engine", ENEMY if state.next_side == ENEMY else None,
                  text=_engine_text(state))


def _which(state: State, player: str) -> str:
    """Who acts next, asked in the edition's words (Kill Team 2018: which model moves,
    shoots or fights in this phase, 004 "When you pick a model to move")."""
    if state.edition == "kt2024":
        return f"{player}: which operative do you activate?"
    verb = {"movement": "moves (or is Readied)", "shooting": "shoots",
            "fight": "fights"}.get(state.phase, "acts")
    return f"{player}: which of your models {verb} now?"


def _counteract_prompt(player: str, candidates: list[Operative]) -> Prompt:
    """Kill Team 2024 Counteract (card 001): ``player`` has no ready operative and the enemy
    still has: one of their expended Engage operatives may make one free 1 AP action (moves at
    most 2"), once per turning point, or they pass."""
    ids = [o.id for o in candidates]
    text = (f"{player}: none of your operatives is ready and solo-ops still has units to "
            "activate. Counteract (one expended Engage operative makes one free 1 AP action; "
            f"a move of at most 2\"), or pass? Can counteract: {', '.join(ids)}.")
    return Prompt("counteract", PLAYER, player, None, text,
                  [*(f"counteract {i}" for i in ids), "pass"], data={"operatives": ids})


def _engine_text(state: State) -> str:
    if state.phase == "setup":
        return "Start the battle."
    if state.phase in ("firefight", *KT2018_PHASES) and state.next_side == ENEMY:
        return "The enemy acts."
    return "Next step."


def _act_options(game: Game, state: State, op: Operative) -> list[str]:
    if state.edition == "kt2018":
        per_phase = {"movement": ["move X,Y", "advance [X,Y]", "charge TARGET [X,Y]",
                                  "fallback X,Y", "ready", "carry FRIEND", "door ID open"],
                     "shooting": ["shoot TARGET [damage N|roll] [with WEAPON]"],
                     "fight": ["fight TARGET roll", "fight TARGET dealt N"]}
        if op.advance_roll is not None or op.charge_target is not None:
            per_phase["movement"] = ["move X,Y (within the roll)"]
        return [*per_phase.get(state.phase, []), "damage MODEL N", "down MODEL", "done"]
    return ["move X,Y", "dash X,Y", "charge TARGET X,Y", "fallback X,Y",
            "shoot TARGET [damage N|roll] [with WEAPON]", "fight TARGET dealt N taken M",
            "carry FRIEND", "evacuate", "hatch ID open|close", "door ID open|close",
            "pickup MARKER", "placedown [X,Y]",
            *(["guard"] if game.scenario.board.killzone == GALLOWDARK else []),
            *([_OTHER_ORDER[op.stance]] if order_may_change(state, op) else []),
            "damage MODEL N", "down MODEL", "done"]


_OTHER_ORDER = {"engage": "conceal", "conceal": "engage"}
"""The order an operative may switch to before its activation's first action (the answer)."""


def _counteract_options() -> list[str]:
    """The answers of a counteracting operative: its one 1 AP action (moves capped at 2")."""
    return ["move X,Y", "dash X,Y", "charge TARGET X,Y",
            "shoot TARGET [damage N|roll] [with WEAPON]", "fight TARGET dealt N taken M",
            "hatch ID open|close", "door ID open|close", "pickup MARKER", "placedown [X,Y]",
            "damage MODEL N", "down MODEL", "done"]


# -- step -----------------------------------------------------------------------------------------
QUESTIONS = {"reroll": ("reroll", cp.take_answer),
             "fight": ("fight_choice", fight_choices.take_answer),
             "guard": ("guard_choice", guard.take_answer),
             "cover": ("cover_choice", cover_choice.take_answer),
             "reaction": ("reaction", reactions.take_answer)}
"""Questions asked in the middle of a step (prompt kind -> the answer's action type and the
function that takes it): a CP re-roll (:mod:`solo_ops.game.cp`), a fight's die
(:mod:`solo_ops.game.fight_choices`), a Guard interrupt (:mod:`solo_ops.game.guard`), a
cover save that could block nothing (:mod:`solo_ops.game.cover_choice`), a Kill Team 2018
Reaction to the enemy's charge (:mod:`solo_ops.game.reactions`; one left waiting by a save
from before it was asked in its step is answered as an action: :func:`_mid_step`)."""


def _mid_step(prompt: Prompt) -> bool:
    """Whether ``prompt`` is a question asked in the middle of a step (its answer runs the
    step again): a kind of :data:`QUESTIONS`, but a Reaction waiting with no step kept."""
    if prompt.kind == "reaction":
        return reactions.in_step(prompt.data or {})
    return prompt.kind in QUESTIONS


def step(game: Game, state: State, action: dict[str, Any]) -> dict[str, Any]:
    """Apply ``action`` and return its log record ``{"n", "action", "events", "rolls"}``.

    Raises :class:`~solo_ops.core.errors.RuleError` (state untouched) when the rules refuse it.
    A step that may ask the players something on the way (a CP re-roll of the dice it rolls
    for them, their next move in a fight, a Guard interrupt, a useless cover save, a 2018
    Reaction to an enemy's charge: :data:`QUESTIONS`) runs with a chooser and may pause with
    that question instead (:mod:`solo_ops.game.cp`): its record then holds only the
    question's event (``reroll_offered``, ``fight_offered``, ``reaction_offered``, …), and the
    answer (``{"type":
    "reroll", "die": N}``, ``{"type": "fight_choice", "move": "block", "die": N}``, …) runs it
    again.
    """
    if state.ended:
        raise RuleError("the battle is over")
    dice = state.dice
    assert dice is not None
    before = dice.seq
    prompt = pending(game, state)
    answer_types = {kind for kind, _ in QUESTIONS.values()}
    # a Reaction's answer with no Reaction asked in its step is an action (one a save left
    # waiting, or refused by the prompt waiting in its own words)
    if not _mid_step(prompt) and (action.get("type") not in answer_types
                                  or action.get("type") == "reaction"):
        if not cp.armed(game, state, action):
            return _record(state, action, _apply(game, state, action, prompt), before)
        answers: list[Any] = []
        snap, run = cp.snapshot(state), action
    else:  # the answer to a question: the paused step again, with one more answer
        snap = cp.snapshot(state)
        run, answers = _take_answer(state, action, prompt)
        prompt = pending(game, state)
    plans = cp.kept_plans(game, state) if run is not action else {}
    game.cp_chooser = chooser = cp.chooser_for(game, state, answers, plans)
    watch = getattr(game, "referee_watch", None)  # an audit's (it counts each step once)
    if watch is not None:
        watch.begin()
    try:
        events = _apply(game, state, run, prompt) + chooser.events
    except cp.NeedAnswer as need:
        if watch is not None:
            watch.undone()
        # the figures the players read while the question waits are the step's so far
        figures = {"cp": dict(state.cp), "vp": dict(state.vp)}
        shown = state.dice.seq if state.dice is not None else 0
        cp.restore(state, snap)
        game.pause_shown[len(state.log)] = shown  # the dice the question shows (for undo)
        if run is not action:
            state.pending_attacks.pop(0)  # the question answered: asked anew below
        paused = need.pause(state, run, answers, chooser.progress)
        record = _record(state, action, [{**paused, "figures": figures}], before)
        cp.keep_plans(game, state, chooser)
        return record
    except BaseException:
        cp.restore(state, snap)  # a refusal leaves the state untouched
        if watch is not None:
            watch.undone()
        raise
    finally:
        game.cp_chooser = None
    return _record(state, action, events, before)


def _take_answer(state: State, action: dict[str, Any], prompt: Prompt
                 ) -> tuple[dict[str, Any], list[Any]]:
    """The paused step's action and its answers with this one: the question waiting takes
    the answer (or refuses another); an answer with no question waiting is refused by the
    question it answers."""
    if prompt.kind in QUESTIONS:
        return QUESTIONS[prompt.kind][1](state, action, prompt)
    take = next(t for kind, t in QUESTIONS.values() if kind == action.get("type"))
    return take(state, action, prompt)


def _apply(game: Game, state: State, action: dict[str, Any], prompt: Prompt
           ) -> list[dict[str, Any]]:
    """The events of ``action`` (an engine step or a player's action) applied to ``state``."""
    kind = action.get("type")
    if kind == "engine":
        if prompt.kind != "engine":
            raise RuleError(f"waiting for {prompt.player or 'a player'}: {prompt.text}")
        return _engine_step(game, state)
    acting = state.active_operative
    events = actions.apply(game, state, action, prompt)
    cp.tell(game, events)  # the action is told before a question that follows it (a Guard)
    events.extend(_after_player_action(game, state, str(kind), acting))
    events.extend(_end_if_incapacitated(game, state))
    events.extend(_end_counteract(game, state))
    return events


def _end_counteract(game: Game, state: State) -> list[dict[str, Any]]:
    """A counteracting operative makes one action (001 Counteract: "perform a 1AP action for
    free"): after it, the counteract ends and the turn goes to the enemy."""
    acting = state.active_operative
    if not state.counteracting or acting is None:
        return []
    op = state.operatives[acting]
    if not op.actions_taken:
        return []
    return actions._end_activation(game, state, op)


def _end_if_incapacitated(game: Game, state: State) -> list[dict[str, Any]]:
    """An active player operative incapacitated during its own activation (struck back in its
    own fight, shot by a Guard interrupt, reported down) does nothing more: its activation
    ends, and no one is asked what it did next."""
    acting = state.active_operative
    if acting is None:
        return []
    op = state.operatives[acting]
    if op.on_table and not op.down:
        return []
    return actions._end_activation(game, state, op)


GUARD_WATCHED = ("move", "shoot", "fight", "portal", "carry", "evacuate", "pickup",
                 "placedown", "guard")


def _after_player_action(game: Game, state: State, kind: str, acting: str | None
                         ) -> list[dict[str, Any]]:
    """Gallowdark Guard (Kill Team 2024): after the active player operative's first action,
    enemy models On Guard may interrupt (:func:`solo_ops.game.enemy_guard.guard_interrupts`)
    -- not after a counteract's action, which is no activation (001 "interrupt an enemy
    activation"; the players' Guard waits out the enemy's counteracts alike); an action that
    ends in a guard's control range ends its Guard."""
    if state.edition != "kt2024" or acting is None or kind not in GUARD_WATCHED:
        return []
    op = state.operatives[acting]
    state.activation_actions += 1
    events: list[dict[str, Any]] = guard.after_own_action(state, op, kind)
    if (state.activation_actions == 1 and not state.counteracting
            and any(o.on_guard for o in state.living(ENEMY))):
        events.extend(enemy_guard.guard_interrupts(game, state, op))
        if op.down and state.active_operative == op.id:
            events.extend(actions._end_activation(game, state, op))
    events.extend(enemy_guard.guards_engaged(game, state, op))
    return events


def _engine_step(game: Game, state: State) -> list[dict[str, Any]]:
    if state.phase == "setup":
        return _start_turn(game, state)
    if state.phase in (*KT2024_PHASES, *KT2018_PHASES):
        if state.next_side == ENEMY:
            return _enemy_activation(game, state)
        return _advance_phase(game, state)
    raise RuleError(f"nothing to do in phase {state.phase!r}")  # pragma: no cover


def _start_turn(game: Game, state: State) -> list[dict[str, Any]]:
    dice = state.dice
    assert dice is not None
    state.turn += 1
    events: list[dict[str, Any]] = [{"type": "turn_start", "turn": state.turn,
                                     "edition": state.edition}]
    for op in state.operatives.values():
        op.activated = False
        op.moved = op.carrying is not None
        op.moved_how = None
        op.charged = op.fell_back = op.shot = op.fought = False
        op.heavy_shot = None
        op.ap_used = 0
        op.advanced = False
        op.picked_up = False
        op.readied = False
        op.advance_roll = op.charge_roll = None
        op.charge_target = None
        op.turn_move = 0.0
        op.actions_taken = []
        op.portals_operated = []
        if op.on_guard:  # Guard ends at the next turning point
            op.on_guard = False
            events.append({"type": "guard_ended", "operative": op.id,
                           "why": "a new turning point"})
    for unit in state.units.values():
        unit.activated = False
    state.incapacitated_this_turn = {PLAYER: 0, ENEMY: 0}
    state.counteracted = []  # Counteract: "Only once per Operative per TP"
    state.idle_told = []  # the enemy's having nothing to activate is told again
    state.override_used = False  # Access Override: once a battle round
    # initiative: a roll-off, ties re-rolled (2024: in the first turn only, later a tie passes
    # the initiative on; 2018 Roll-offs "if the second and subsequent rolls are also tied,
    # keep on rolling until a winner is determined")
    while True:
        p = dice.d6(f"initiative roll-off (players), turn {state.turn}").face
        e = dice.d6(f"initiative roll-off (solo-ops), turn {state.turn}").face
        if p != e:
            state.initiative = PLAYER if p > e else ENEMY
            break
        if state.turn > 1 and state.initiative is not None and state.edition == "kt2024":
            state.initiative = ENEMY if state.initiative == PLAYER else PLAYER
            break
    events.append({"type": "initiative", "side": state.initiative, "player_roll": p,
                   "enemy_roll": e})
    if state.edition == "kt2024":
        # card 001: "Players gain 2CP each" when selecting operatives (before the battle);
        # "Each TP player get 1 CP. The player without initiative gets 1 extra CP" -- from the
        # first turning point on, so TP1 ends the strategy phase with 3 or 4
        for side in (PLAYER, ENEMY):
            gain = (PRE_BATTLE_CP if state.turn == 1 else 0) + 1 + (side != state.initiative)
            state.cp[side] = state.cp.get(side, 0) + gain
        events.append({"type": "command_points", "cp": dict(state.cp)})
    elif state.turn >= 2 and any(o.command_node for o in game.scenario.board.objectives):
        # 004 Command Nodes: "Starting from the second battle round, a player gains one
        # Command Point if they control the Command Node objective marker" (for Access
        # Override, actions._portal); read at the start of the battle round
        control = scoring.objective_control(game, state)
        nodes = [o.id for o in game.scenario.board.objectives if o.command_node]
        gained = [side for side in (PLAYER, ENEMY) if any(control.get(n) == side
                                                          for n in nodes)]
        for side in gained:
            state.cp[side] = state.cp.get(side, 0) + 1
        if gained:
            events.append({"type": "command_points", "cp": dict(state.cp),
                           "why": "the Command Node"})
    if state.edition == "kt2018":  # 004 "At the start of each battle round" (the effects)
        events.extend(pariah_events.round_start(game, state))
    if state.turn == 1:
        events.extend(_resolve_unhidden(game, state))
    if game.settings.hidden_moves_when == "start_of_turn":
        events.extend(reveal.hidden_movement(game, state))
    state.phase = KT2024_PHASES[0] if state.edition == "kt2024" else KT2018_PHASES[0]
    if state.edition == "kt2018":
        play2018.mark_started_within(game, state)
    state.next_side = state.initiative
    events.append({"type": "phase", "phase": state.phase, "turn": state.turn})
    events.extend(turns.balance_sides(game, state))
    return events


def _resolve_unhidden(game: Game, state: State) -> list[dict[str, Any]]:
    """The first turn's start: the counters that could not be hidden at set-up are resolved
    (and a false alarm among them sent back into a player model's sight is spotted again)."""
    events: list[dict[str, Any]] = []
    resolved = False
    for counter in list(state.counters.values()):
        if counter.active and counter.resolve_first_turn:
            events.extend(reveal.resolve(game, state, counter, None))
            resolved = True
    if resolved:
        events.extend(reveal.check_spotting(game, state))
    return events


def _enemy_activation(game: Game, state: State) -> list[dict[str, Any]]:

    ctx = game.context(state)
    ready = first_to_activate(ctx, state, turns.enemy_ready(game, state))
    if not ready and turns.counteract_candidates(game, state, ENEMY):

        return counteract.enemy_step(game, state)
    if not ready:
        state.next_side = PLAYER if turns.next_player(game, state) is not None else None
        return turns.enemy_idle(state, game) if state.next_side == PLAYER else []
    unit = ready[0]
    only = turns.acting_models(game, state, unit)  # (2018: those that go first, or the rest)
    plan = cp.plan(game, unit.id, lambda: plan_activation(ctx, state, unit.id, state.phase,
                                                          only=only))
    models = list(unit.models)
    events = enemy.apply_plan(game, state, plan, lambda op, first: guard.after_enemy_action(
        game, state, op, first))
    acted = {*models, *unit.models} if only is None else only  # (a model that merged away too)
    for m in acted:
        state.operatives[m].activated = True
    unit.activated = only is None or not turns.still_to_act(game, state, unit)
    for m in models:  # the end of their activation: a Stun from before it ends (2024)
        stun.end_activation_stun(state.operatives[m])
    state.activation_over()
    events.extend(reveal.check_spotting(game, state))
    state.next_side = PLAYER
    events.extend(turns.balance_sides(game, state))
    if state.pending_attacks:
        state.next_side = PLAYER if state.next_side is None else state.next_side
    return events


def _advance_phase(game: Game, state: State) -> list[dict[str, Any]]:
    """Neither side has anything ready: next phase, or the end of the turn."""
    events: list[dict[str, Any]] = []
    if state.edition == "kt2018":
        i = KT2018_PHASES.index(state.phase)
        if state.phase == "movement" and not state.round_effects.get("movement_ended"):
            # 004 "At the end of the Movement phase" (the effects); their questions are asked
            # before the shooting phase begins
            state.round_effects["movement_ended"] = True
            events.extend(pariah_events.movement_end(game, state))
            if pariah_events.question(state) is not None:
                return events
        if i + 1 < len(KT2018_PHASES):
            state.phase = KT2018_PHASES[i + 1]
            state.idle_told = []
            for op in state.operatives.values():
                op.activated = False
            for unit in state.units.values():
                unit.activated = False
            state.next_side = state.initiative
            events.append({"type": "phase", "phase": state.phase, "turn": state.turn})
            events.extend(turns.balance_sides(game, state))
            return events
        events.extend(scoring.morale_2018(game, state))
    return events + _end_turn(game, state)


def _end_turn(game: Game, state: State) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [{"type": "turn_end", "turn": state.turn}]
    if state.edition == "kt2018":  # 004 "At the end of each battle round" (the effects)
        events.extend(pariah_events.round_end(game, state))
    if game.settings.hidden_moves_when == "end_of_turn":
        events.extend(reveal.hidden_movement(game, state))
    events.extend(scoring.score_turn(game, state))
    if state.turn >= game.settings.turns:
        # Kill Team 2024 (card 001, "7. BATTLE END"): "After 4 TPs, even if a Team is
        # incapacitated"; Kill Team 2018 (004, every matched play mission): "The battle
        # automatically ends at the end of battle round 4" -- the enemy goes on scoring the
        # turning points or battle rounds left
        events.extend(scoring.end_battle(game, state))
        state.ended = True
        state.phase = "ended"
        return events
    events.extend(_start_turn(game, state))
    return events



