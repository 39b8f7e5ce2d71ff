"""What the Pariah Nexus effects do at a moment of the battle round, for both sides.

004's effects that happen at a moment, as data (``round_start``, ``movement_end``,
``round_end``, ``after_move`` changes: :mod:`solo_ops.core.effects`): the start of each battle
round (Power Surges' lighting, Power Flux's petrific divisors, the spatial lacerators selected,
Dimensional Flense Feedback's mortal wounds, Entropic Circuit Focusing's moves), the end of the
movement phase (Damaged Power Output, Defensive Arrays, Erratic Teleportation Node, Structural
Transponder), the end of the battle round (Volatile Pressure Inversion), and after a model's
move (a spatial lacerator's translocation, Arcing Tesla Fields). The engine rolls every die
(logged, named by its effect). What the rules leave to a player is asked at the moment it
applies (:data:`QUESTION`: a prompt ``effect``, answered by :func:`take_answer`); what they leave
to the enemy, solo-ops decides by the rule each function states.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shapely.geometry import LineString, Point

from solo_ops.core.effects import Change, Effect, Place
from solo_ops.core.errors import RuleError
from solo_ops.game import pariah
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.geometry import placement
from solo_ops.rules import pariah as rules
from solo_ops.rules import reach

if TYPE_CHECKING:
    from solo_ops.game.definition import Game

QUESTION = "effect_choice"
"""The kind of the pending entry of a question an effect asks the players."""

MM = 1 / 25.4


def _dice(state: State) -> Any:
    assert state.dice is not None
    return state.dice


def _hurt(game: Game, state: State, op: Operative, then: str, why: str
          ) -> list[dict[str, Any]]:
    """A hazard strikes ``op``: one mortal wound (004 Mortal Wounds: one damage, no save, an
    Injury roll at 0 wounds) or Shaken."""
    from solo_ops.game.downed import apply_damage

    if then == "shaken":
        op.shaken = True
        return [{"type": "effect_shaken", "operative": op.id, "why": why}]
    return apply_damage(game, state, op, 1, f"a mortal wound ({why})")


def _hazard(game: Game, state: State, effect: Effect, change: Change,
            models: Sequence[Operative], where: str) -> list[dict[str, Any]]:
    """Roll one D6 for each of ``models`` (in id order) and strike those the change says
    (``hit_on``, ``hit_faces``): 1 mortal wound or Shaken."""
    events: list[dict[str, Any]] = []
    for op in sorted(models, key=lambda o: o.id):
        if not op.on_table:
            continue
        face = _dice(state).d6(f"{effect.title}: {op.label} ({where})").face
        struck = rules.hazard_hits(change, face)
        then = str(change.get("then"))
        events.append({"type": "effect_hazard", "effect": effect.title, "operative": op.id,
                       "roll": face, "struck": struck, "then": then, "where": where})
        if struck:
            events.extend(_hurt(game, state, op, then, effect.title))
    return events


def _pick(game: Game, state: State, effect: Effect, place: Place, count: int
          ) -> list[str]:
    """``count`` of what ``place`` names, picked at random by logged dice (004 "randomly
    select two spatial lacerators"; "roll one D6 to randomly determine one spatial
    lacerator": a D6 names one of six), none twice."""
    ids = [ident for ident, _, _ in pariah.place_shapes(game.scenario.board, place)]
    chosen: list[str] = []
    for k in range(min(count, len(ids))):
        left = [i for i in ids if i not in chosen]
        chosen.append(_dice(state).choice(f"{effect.title}: pick {k + 1} of {count}", left))
    return chosen


def _within_of(game: Game, state: State, ids: Sequence[str], place: Place
               ) -> list[Operative]:
    """The models on the table standing where ``place`` says with respect to ``ids``."""
    return [o for o in state.operatives.values() if o.on_table
            and pariah.stands(game, state, o, place, among=ids)]


# -- the start of the battle round -----------------------------------------------------------------
def round_start(game: Game, state: State) -> list[dict[str, Any]]:
    """004 "At the start of each battle round": each effect's roll, pick or hazard, in table
    order; the battle round's state (:attr:`~solo_ops.game.state.State.round_effects`) starts
    empty."""
    state.round_effects = {}
    events: list[dict[str, Any]] = []
    for effect, change in rules.moment(pariah.in_force(game), "round_start"):
        if change.get("procedure") == "circuit_focusing":
            events.extend(circuit_focusing(game, state, effect, change))
        elif change.get("state") == "lacerators":
            events.extend(_lacerators(game, state, effect, change))
        elif change.get("state") is not None:
            events.extend(_round_state(game, state, effect, change))
        elif change.get("models") is not None:
            picked = _pick(game, state, effect, change.get("pick"), change.get("pick").count)
            models = _within_of(game, state, picked, change.get("models"))
            events.append({"type": "effect_pick", "effect": effect.title, "picked": picked,
                           "note": f"{effect.title}: {', '.join(picked)}."})
            events.extend(_hazard(game, state, effect, change, models,
                                  f"within {change.get('models').within:g}\" of "
                                  f"{', '.join(picked)}"))
    return events


STATE_WORDS = {
    ("lighting", "low"): "low lighting until the end of the battle round: an attack against a "
                         "model more than 9\" away is -1 to hit",
    ("lighting", "intense"): "intense lighting until the end of the battle round: a Retreat "
                             "may move up to 4\", and Overwatch hits on 5+",
    ("divisors", "active"): "the petrific divisors activate: no model may move on or through "
                            "them this battle round, and a model on one cannot move",
    ("divisors", "inactive"): "the petrific divisors stay quiet this battle round",
}


def _round_state(game: Game, state: State, effect: Effect, change: Change
                 ) -> list[dict[str, Any]]:
    """A roll that sets the battle round's state (004 Power Surges: "On a 1-3, it is low
    lighting ... On a 4-6, it is intense lighting"; Power Flux: "on a 4+ the petrific
    divisors activate ... if a model is already on a petrific divisor when it activates, that
    model cannot move that battle round")."""
    name = str(change.get("state"))
    face = _dice(state).d6(f"{effect.title}: the battle round").face
    value = rules.roll_state(change, face)
    state.round_effects[name] = value
    event = {"type": "effect_roll", "effect": effect.title, "roll": face, "state": name,
             "value": value,
             "note": f"{effect.title}: D6 {face}: {STATE_WORDS.get((name, value), value)}."}
    if name == "divisors" and value == "active":
        frozen = sorted(o.id for o in state.operatives.values() if o.on_table and any(
            pariah.stands(game, state, o, p) for _, p in rules.places(
                pariah.in_force(game), "move", "frozen_on",
                pariah.situation(game, state))))
        state.round_effects["frozen"] = frozen
        if frozen:
            event["frozen"] = frozen
            event["note"] += f" On a divisor now, unable to move: {', '.join(frozen)}."
    return [event]


def _lacerators(game: Game, state: State, effect: Effect, change: Change
                ) -> list[dict[str, Any]]:
    """004 Spatial Lacerators "At the start of each battle round, randomly select two spatial
    lacerators"; Operational Displacement: "if a player has any models within 1" of the
    aeonphasic control dais and their opponent does not, that player can choose which two
    spatial lacerators are selected". The players choose by answering (:func:`take_answer`);
    the enemy leaves it to the dice (no order of the supplement wants one lacerator over
    another), as do both when neither or both sides are there."""
    chooser = change.get("chooser")
    if chooser is not None:
        sides = {o.side for o in state.operatives.values() if o.on_table
                 and pariah.stands(game, state, o, chooser)}
        if sides == {PLAYER}:
            ids = [i for i, _, _ in pariah.place_shapes(game.scenario.board,
                                                       change.get("pick"))]
            player = _first_player(state)
            state.pending_attacks.append({
                "kind": QUESTION, "what": "lacerators", "effect": effect.title,
                "player": player, "operative": None, "ids": ids,
                "text": f"{player}: {effect.title}: your models hold the aeonphasic control "
                        "dais: choose the two spatial lacerators in force this battle round "
                        f"('choose {ids[0]} {ids[1]}'; from {', '.join(ids)}), or 'roll'.",
                "options": [f"choose {ids[0]} {ids[1]}", "roll"]})
            return [{"type": "effect_offer", "effect": effect.title, "what": "lacerators"}]
    picked = _pick(game, state, effect, change.get("pick"), change.get("pick").count)
    state.round_effects["lacerators"] = picked
    why = " (solo-ops holds the dais and lets the dice choose)" if chooser is not None and \
        any(o.side == ENEMY and pariah.stands(game, state, o, chooser)
            for o in state.operatives.values() if o.on_table) else ""
    return [{"type": "effect_pick", "effect": effect.title, "picked": picked,
             "note": f"{effect.title}: the spatial lacerators {' and '.join(picked)} are in "
                     f"force this battle round{why}."}]


def _first_player(state: State) -> str:
    return next(o.owner for o in state.side(PLAYER))


# -- Entropic Circuit Focusing ---------------------------------------------------------------------
def _tablets_in_order(game: Game, place: Place) -> list[tuple[str, tuple[float, float]]]:
    """The gyroflux tablets around the circuit, counter-clockwise (by their angle about their
    centre, +y north)."""
    tabs = [(m.id, m.at) for m in game.scenario.board.markers if m.kind == place.kind]
    if not tabs:
        return []
    cx = sum(p[0] for _, p in tabs) / len(tabs)
    cy = sum(p[1] for _, p in tabs) / len(tabs)
    return sorted(tabs, key=lambda t: math.atan2(t[1][1] - cy, t[1][0] - cx))


def circuit_focusing(game: Game, state: State, effect: Effect, change: Change
                     ) -> list[dict[str, Any]]:
    """004 Entropic Circuit Focusing: "roll one D6 to determine the direction of the circuit
    focusing; on a 1-3 it rotates clockwise, on a 4-6 it rotates counter-clockwise. In
    Initiative order, take it in turns ... to select one model ... that is on a gyroflux tablet
    ... Remove that model from the battlefield and set it up within 1" of the gyroflux tablet
    that is D3 gyro flux tablets further along ... If that model cannot be set up in this
    manner, it is taken out of action instead." Every model on a tablet moves, the side with
    initiative first, alternating, each with its own D3; a player's model is set up where its
    player says (asked, with the nearest free point offered), the enemy's at the nearest free
    point to the tablet."""
    tablets = _tablets_in_order(game, change.get("pick"))
    on = {t: _within_of(game, state, [t], change.get("pick")) for t, _ in tablets}
    movers = [o for t, _ in tablets for o in on[t]]
    if not tablets or not movers:
        return []
    face = _dice(state).d6(f"{effect.title}: direction").face
    step = -1 if face <= 3 else 1  # tablets are sorted counter-clockwise
    events: list[dict[str, Any]] = [{
        "type": "effect_roll", "effect": effect.title, "roll": face, "state": "direction",
        "value": "clockwise" if step < 0 else "counter-clockwise",
        "note": f"{effect.title}: D6 {face}: the circuit rotates "
                f"{'clockwise' if step < 0 else 'counter-clockwise'}."}]
    first = state.initiative or PLAYER
    sides = [first, ENEMY if first == PLAYER else PLAYER]
    queues = {s: sorted((o for o in movers if o.side == s), key=lambda o: o.id) for s in sides}
    order = []
    while any(queues.values()):
        for s in sides:
            if queues[s]:
                order.append(queues[s].pop(0))
    ids = [t for t, _ in tablets]
    for op in order:
        here = next(t for t in ids if op in on[t])
        d3 = _dice(state).d3(f"{effect.title}: {op.label} moves D3 tablets").face
        dest = ids[(ids.index(here) + step * d3) % len(ids)]
        at = dict(tablets)[dest]
        events.extend(_set_up_near(game, state, effect, op, dest, at, 1.0, d3))
    return events


def _set_up_near(game: Game, state: State, effect: Effect, op: Operative, dest: str,
                 at: tuple[float, float], within: float, d3: int) -> list[dict[str, Any]]:
    """``op`` removed and set up within ``within`` of ``at`` (the enemy's at the nearest free
    point; a player's asked, that point offered); out of action when nowhere fits."""
    from solo_ops.game.downed import take_down

    spot = _nearest_free(game, state, op, at, within)
    event = {"type": "effect_move", "effect": effect.title, "operative": op.id,
             "to_marker": dest, "d3": d3}
    if spot is None:
        event["note"] = (f"{effect.title}: {op.label} is carried {d3} tablet(s) round to "
                         f"{dest}, where it cannot be set up: it is taken out of action.")
        return [event, *take_down(state, op, effect.title, game)]
    if op.side == PLAYER:
        state.pending_attacks.append({
            "kind": QUESTION, "what": "set_up", "effect": effect.title, "player": op.owner,
            "operative": op.id, "centre": list(at), "within": within, "suggested": list(spot),
            "text": f"{op.owner}: {effect.title}: {op.name} is carried {d3} tablet(s) round to "
                    f"{dest}: set it up within {within:g}\" of it ('place X,Y'), or 'place "
                    f"{spot[0]:g},{spot[1]:g}' (the nearest free point).",
            "options": [f"place {spot[0]:g},{spot[1]:g}", "place X,Y"]})
        event["note"] = f"{effect.title}: {op.name} is carried {d3} tablet(s) round to {dest}."
        return [event]
    old = op.at
    op.at = spot
    op.readied = False  # 004 Readying: "If the model moves for any reason"
    event.update({"from": reach.round_point(old), "to": reach.round_point(spot),
                  "note": f"{effect.title}: {op.label} is carried {d3} tablet(s) round to "
                          f"{dest}: set it up at ({spot[0]:.1f}, {spot[1]:.1f})."})
    return [event]


def _nearest_free(game: Game, state: State, op: Operative, at: Sequence[float],
                  within: float) -> tuple[float, float] | None:
    """The legal point nearest ``at`` for ``op``'s base with its edge within ``within`` of it
    (placement rule: on the board, off terrain, on no other base)."""
    spot = placement.nearest(game.terrain(state), at, op.radius, state.bases(exclude=op.id),
                             limit=within + op.radius)
    if spot is None or math.dist(spot.at, at) - op.radius > within + 1e-6:
        return None
    return spot.at


# -- the end of the movement phase -----------------------------------------------------------------
def movement_end(game: Game, state: State) -> list[dict[str, Any]]:
    """004 "At the end of the Movement phase": each effect in table order."""
    events: list[dict[str, Any]] = []
    for effect, change in rules.moment(pariah.in_force(game), "movement_end"):
        procedure = change.get("procedure")
        if procedure == "erratic_teleportation":
            events.extend(erratic_teleportation(game, state, effect, change))
        elif procedure == "structural_transponder":
            events.extend(structural_transponder(game, state, effect))
        elif change.get("line"):
            events.extend(_defensive_arrays(game, state, effect, change))
        else:
            picked = _pick(game, state, effect, change.get("pick"), change.get("pick").count)
            models = _within_of(game, state, picked, change.get("models"))
            events.append({"type": "effect_pick", "effect": effect.title, "picked": picked,
                           "note": f"{effect.title}: {', '.join(picked)}."})
            events.extend(_hazard(game, state, effect, change, models,
                                  f"within {change.get('models').within:g}\" of "
                                  f"{', '.join(picked)}"))
    return events


def _defensive_arrays(game: Game, state: State, effect: Effect, change: Change
                      ) -> list[dict[str, Any]]:
    """004 Defensive Arrays: "randomly select two objective markers, then draw a straight line
    1mm wide between the centre of those objective markers. Roll one D6 for each model whose
    base is crossed by this line, regardless of height; on a 4+, that model suffers 1 mortal
    wound." (The line is not stopped by walls.)"""
    picked = _pick(game, state, effect, change.get("pick"), 2)
    if len(picked) < 2:
        return []
    spots = {o.id: o.at for o in game.scenario.board.objectives}
    line = LineString([spots[picked[0]], spots[picked[1]]]).buffer(MM / 2, cap_style="flat")
    crossed = [o for o in state.operatives.values() if o.on_table and o.at is not None
               and line.intersects(Point(o.at).buffer(o.radius, 64))]
    events: list[dict[str, Any]] = [{
        "type": "effect_pick", "effect": effect.title, "picked": picked,
        "note": f"{effect.title}: the line from {picked[0]} to {picked[1]} crosses "
                + (", ".join(o.label for o in crossed) or "no model") + "."}]
    return events + _hazard(game, state, effect, change, crossed,
                            f"on the line {picked[0]}-{picked[1]}")


def _roll_off(state: State, why: str) -> tuple[str, int, int]:
    """004 Roll-offs: "each player rolls a D6 ... and whoever scores highest wins the
    roll-off. In the case of a tie, those players re-roll their dice"."""
    while True:
        p = _dice(state).d6(f"{why}: roll-off (players)").face
        e = _dice(state).d6(f"{why}: roll-off (solo-ops)").face
        if p != e:
            return (PLAYER if p > e else ENEMY), p, e


def erratic_teleportation(game: Game, state: State, effect: Effect, change: Change
                          ) -> list[dict[str, Any]]:
    """004 Erratic Teleportation Node: "the players roll off. The winner randomly selects one
    objective marker, and can then move each of their models that are within 3" of that
    objective marker up to 3". Models can be moved within 1" of enemy models." The players,
    winning, are asked model by model (``move X,Y`` or ``no``); solo-ops, winning, leaves its
    models where they are: the move is outside any activation, and no order of the supplement
    says where such a move should go."""
    winner, p, e = _roll_off(state, effect.title)
    picked = _pick(game, state, effect, change.get("pick"), 1)
    models = [o for o in _within_of(game, state, picked, change.get("models"))
              if o.side == winner]
    note = (f"{effect.title}: roll-off {p} (you) against {e} (solo-ops): "
            f"{'you win' if winner == PLAYER else 'solo-ops wins'}; {picked[0]} is selected")
    if winner == ENEMY and models:
        note += (": solo-ops leaves its models where they are (no order of its tables says "
                 "where such a move should go)")
    elif winner == ENEMY:
        note += ": no model of solo-ops is within 3\" of it"
    elif not models:
        note += ": none of your models is within 3\" of it"
    events: list[dict[str, Any]] = [{"type": "effect_pick", "effect": effect.title,
                                     "picked": picked, "winner": winner, "note": note + "."}]
    if winner == PLAYER:
        for op in sorted(models, key=lambda o: o.id):
            state.pending_attacks.append({
                "kind": QUESTION, "what": "teleport", "effect": effect.title,
                "player": op.owner, "operative": op.id, "within": float(change.get("move")),
                "text": f"{op.owner}: {effect.title}: move {op.name} up to "
                        f"{change.get('move'):g}\" ('move X,Y'; it may end within 1\" of "
                        "enemy models), or 'no'.",
                "options": ["move X,Y", "no"]})
    return events


def structural_transponder(game: Game, state: State, effect: Effect) -> list[dict[str, Any]]:
    """004 Structural Transponder: "if a player controls an objective marker that is a
    Command Node, they can move or remove one Ultra-close Confines terrain feature on the
    battlefield (excluding doors)". solo-ops keeps its digital board the same as the table
    for every later question, so the players are asked whether they remove a feature
    (moving one is done as removing it: solo-ops cannot place terrain again); solo-ops,
    holding the node, leaves the terrain as it is (no order of its tables asks for it)."""
    from solo_ops.game import scoring

    nodes = [o.id for o in game.scenario.board.objectives if o.command_node]
    control = scoring.objective_control(game, state) if nodes else {}
    holder = next((control.get(n) for n in nodes if control.get(n)), None)
    if holder is None:
        return []
    if holder == ENEMY:
        return [{"type": "effect_pick", "effect": effect.title, "picked": nodes,
                 "note": f"{effect.title}: solo-ops controls the Command Node and leaves the "
                         "terrain as it is."}]
    movable = [f.id for f in game.scenario.board.features
               if not (f.is_portal or f.has("wall") or f.has("pitfall"))
               and f.id not in state.removed_features]
    player = _first_player(state)
    state.pending_attacks.append({
        "kind": QUESTION, "what": "remove", "effect": effect.title, "player": player,
        "operative": None, "ids": movable,
        "text": f"{player}: {effect.title}: you control the Command Node: remove one terrain "
                f"feature ('remove ID': {', '.join(movable)}), or 'no'.",
        "options": ["remove ID", "no"]})
    return [{"type": "effect_offer", "effect": effect.title, "what": "remove"}]


# -- the end of the battle round -------------------------------------------------------------------
def round_end(game: Game, state: State) -> list[dict[str, Any]]:
    """004 "At the end of each battle round": each effect's hazard (Volatile Pressure
    Inversion: "roll one D6 for each model within 2" of a pitfall. On a 1, that model suffers
    1 mortal wound")."""
    events: list[dict[str, Any]] = []
    for effect, change in rules.moment(pariah.in_force(game), "round_end"):
        place = change.get("models")
        models = [o for o in state.operatives.values() if o.on_table
                  and pariah.stands(game, state, o, place)]
        events.extend(_hazard(game, state, effect, change, models, place.words()))
    return events


# -- after a move ----------------------------------------------------------------------------------
def after_move(game: Game, state: State, op: Operative, how: str, route: Sequence[Any]
               ) -> list[dict[str, Any]]:
    """What follows ``op``'s move of kind ``how`` along ``route``: Arcing Tesla Fields' D6
    for each quantum node it moved over, and a spatial lacerator's offer (004 Spatial
    Lacerators: "if a model finishes a normal move, an Advance or a Fall Back within 1" of one
    of those spatial lacerators, you can remove that model from the battlefield and set it up
    within 3" of the other spatial lacerator and more than 1" from any enemy models")."""
    events: list[dict[str, Any]] = []
    for effect, change in rules.moment(pariah.in_force(game), "after_move"):
        moves = change.get("moves") or ()
        if ("any" not in moves and how not in moves) or not op.on_table:
            continue
        if change.get("crosses") is not None:
            events.extend(_crossed(game, state, effect, change, op, route))
        elif change.get("procedure") == "translocate":
            events.extend(_translocation(game, state, effect, change, op))
    return events


def _crossed(game: Game, state: State, effect: Effect, change: Change, op: Operative,
             route: Sequence[Any]) -> list[dict[str, Any]]:
    """004 Arcing Tesla Fields: "When a model moves over a quantum node, roll one D6; on a 6,
    that model suffers 1 mortal wound" (its base passed over the node)."""
    pts = [tuple(p) for p in route if p is not None]
    if len(pts) < 2:
        return []
    path = LineString(pts)
    nodes = [ident for ident, shape, _ in pariah.place_shapes(game.scenario.board,
                                                             change.get("crosses"))
             if path.distance(shape) <= op.radius + 1e-9]
    return _hazard(game, state, effect, change, [op] if nodes else [],
                   f"over {', '.join(nodes)}") if nodes else []


def _translocation(game: Game, state: State, effect: Effect, change: Change,
                   op: Operative) -> list[dict[str, Any]]:
    """The spatial lacerator's offer after ``op``'s move: the players are asked; the enemy
    takes it when its unit's move order heads for the closest enemy and the point offered is
    nearer to it (by the route) than where it stands, else it stays."""
    selected = list(state.round_effects.get("lacerators") or [])
    if len(selected) != 2 or op.at is None:
        return []
    place = Place(kind="spatial-lacerator", within=float(change.get("within", 1.0)))
    near = pariah.near_ids(game, state, op.at, op.radius, place, among=selected)
    if not near:
        return []
    other = next(i for i in selected if i != near[0])
    at = next(m.at for m in game.scenario.board.markers if m.id == other)
    spot = _landing(game, state, op, at, float(change.get("land_within", 3.0)),
                    float(change.get("clear_of_enemies", 1.0)))
    if spot is None:
        return [{"type": "effect_pick", "effect": effect.title, "picked": [near[0], other],
                 "note": f"{effect.title}: {op.label} ends within 1\" of {near[0]}, but no "
                         f"point within 3\" of {other} is free."}]
    if op.side == PLAYER:
        state.pending_attacks.append({
            "kind": QUESTION, "what": "translocate", "effect": effect.title,
            "player": op.owner, "operative": op.id, "centre": list(at),
            "within": float(change.get("land_within", 3.0)), "suggested": list(spot),
            "text": f"{op.owner}: {op.name} ends within 1\" of the spatial lacerator "
                    f"{near[0]}: set it up within 3\" of {other} and more than 1\" from every "
                    f"enemy ('translocate X,Y', e.g. 'translocate {spot[0]:g},{spot[1]:g}'), "
                    "or 'no'.",
            "options": [f"translocate {spot[0]:g},{spot[1]:g}", "translocate X,Y", "no"]})
        return [{"type": "effect_offer", "effect": effect.title, "what": "translocate",
                 "operative": op.id}]
    return _enemy_translocates(game, state, effect, op, near[0], other, spot)


def _landing(game: Game, state: State, op: Operative, at: Sequence[float], within: float,
             clear: float) -> tuple[float, float] | None:
    """The free point nearest the lacerator ``at`` for ``op``, its base within ``within`` of
    it and more than ``clear`` from every enemy model (measured, as every 2018 distance, from
    the base's edge)."""
    foes = [o for o in state.living(ENEMY if op.side == PLAYER else PLAYER) if o.at]

    def clear_of_foes(points: Any) -> Any:
        import numpy as np

        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        ok = np.ones(len(pts), dtype=bool)
        for f in foes:
            assert f.at is not None
            gap = np.hypot(pts[:, 0] - f.at[0], pts[:, 1] - f.at[1]) - op.radius - f.radius
            ok &= gap > clear + 1e-6
        return ok

    spot = placement.nearest(game.terrain(state), at, op.radius, state.bases(exclude=op.id),
                             limit=within + op.radius, keep=clear_of_foes)
    if spot is None or math.dist(spot.at, at) - op.radius > within + 1e-6:
        return None
    return spot.at


def _enemy_translocates(game: Game, state: State, effect: Effect, op: Operative,
                        here: str, other: str, spot: tuple[float, float]
                        ) -> list[dict[str, Any]]:
    from solo_ops.core.tables import order_table

    unit = state.units.get(op.owner)
    foes = state.living(PLAYER)
    heads = False
    if unit is not None and foes:
        order = order_table(unit.troop)[min(6, max(1, unit.command))]
        heads = order.move.code == "towards_closest_enemy"
    terrain = game.terrain(state)
    assert op.at is not None

    def closest(at: Sequence[float]) -> float:
        return min((reach.route_gap(terrain, at, op.radius, f.at, f.radius) for f in foes
                    if f.at is not None), default=math.inf)

    if heads and closest(spot) < closest(op.at) - 1e-6:
        old = op.at
        op.at = spot
        op.readied = False  # 004 Readying: "If the model moves for any reason"
        return [{"type": "effect_move", "effect": effect.title, "operative": op.id,
                 "from": reach.round_point(old), "to": reach.round_point(spot),
                 "to_marker": other,
                 "note": f"{effect.title}: {op.label} steps into {here} and is set up at "
                         f"({spot[0]:.1f}, {spot[1]:.1f}), beside {other}: nearer the "
                         "closest enemy, as its order wants."}]
    return [{"type": "effect_pick", "effect": effect.title, "picked": [here, other],
             "note": f"{effect.title}: {op.label} ends within 1\" of {here} and stays (its "
                     "order does not gain by the jump)."}]


# -- the players' answers --------------------------------------------------------------------------
def take_answer(game: Game, state: State, action: dict[str, Any]) -> list[dict[str, Any]]:
    """The players' answer to an effect's question (``state.pending_attacks[0]``):
    ``choose A B`` (the lacerators), ``place X,Y`` / ``translocate X,Y`` / ``move X,Y`` (where
    the model is set up or goes), ``remove ID`` (a feature), ``no`` / ``roll``."""
    entry = state.pending_attacks[0]
    what = entry["what"]
    choice = str(action.get("choice", "no"))
    if what == "lacerators":
        return _answer_lacerators(game, state, entry, action, choice)
    if what == "remove":
        return _answer_remove(game, state, entry, action, choice)
    op = state.operatives[entry["operative"]]
    if choice == "no" and what != "set_up":
        state.pending_attacks.pop(0)
        return [{"type": "effect_declined", "effect": entry["effect"], "operative": op.id}]
    if action.get("to") is None:
        raise RuleError(f"say where: {entry['text']}")
    to = (float(action["to"][0]), float(action["to"][1]))
    _check_spot(game, state, entry, op, to)
    state.pending_attacks.pop(0)
    old = op.at
    op.at = to
    op.moved = True if what == "teleport" else op.moved
    op.readied = False  # 004 Readying: "If the model moves for any reason, it is no longer
    # Readied" (a model set up elsewhere has moved too)
    from solo_ops.game import reveal

    return [{"type": "effect_move", "effect": entry["effect"], "operative": op.id,
             "from": reach.round_point(old), "to": reach.round_point(to),
             "note": f"{entry['effect']}: {op.name} "
                     + ("moves to" if what == "teleport" else "is set up at")
                     + f" ({to[0]:.1f}, {to[1]:.1f})."},
            *reveal.check_spotting(game, state)]


def _check_spot(game: Game, state: State, entry: dict[str, Any], op: Operative,
                to: tuple[float, float]) -> None:
    """Where a player's model is set up or moved by an effect is checked: the placement
    rule, its base within the distance of the marker's centre (or of the model, for a move),
    clear of enemies where the rule says so."""
    terrain = game.terrain(state)
    refused = placement.refusal(terrain, to, op.radius, state.bases(exclude=op.id), op.name)
    if refused is not None:
        raise RuleError(refused)
    within = float(entry.get("within", 0.0))
    if entry["what"] == "teleport":
        assert op.at is not None
        walk = terrain.routes.walk(op.at, to, op.radius,
                                   blockers=placement.discs(state.bases(exclude=op.id)))
        if walk is None or walk.cost > within + 0.25:
            raise RuleError(f"{op.name} may move up to {within:g}\" ("
                            + ("no route there" if walk is None else f"that is {walk.cost:.1f}\"")
                            + ")")
        return
    centre = entry["centre"]
    gap = math.dist(to, centre) - op.radius  # to the base's edge, as every 2018 distance
    if gap > within + 1e-6:
        raise RuleError(f"that is {gap:.1f}\" from the marker: set it up within {within:g}\"")
    if entry["what"] == "translocate":
        for foe in state.living(ENEMY):
            assert foe.at is not None
            if math.dist(to, foe.at) - op.radius - foe.radius <= 1.0 + 1e-6:
                raise RuleError(f"it must be set up more than 1\" from every enemy model "
                                f"({foe.label} is nearer)")


def _answer_lacerators(game: Game, state: State, entry: dict[str, Any],
                       action: dict[str, Any], choice: str) -> list[dict[str, Any]]:
    effect = entry["effect"]
    if choice == "roll":
        state.pending_attacks.pop(0)
        e = next(x for x in pariah.in_force(game) if x.title == effect)
        change = next(c for c in e.changes if c.get("state") == "lacerators")
        picked = _pick(game, state, e, change.get("pick"), 2)
    else:
        picked = [str(i) for i in action.get("ids") or []]
        if len(picked) != 2 or len(set(picked)) != 2 or not set(picked) <= set(entry["ids"]):
            raise RuleError(f"name two different spatial lacerators of {', '.join(entry['ids'])}")
        state.pending_attacks.pop(0)
    state.round_effects["lacerators"] = picked
    return [{"type": "effect_pick", "effect": effect, "picked": picked,
             "note": f"{effect}: the spatial lacerators {' and '.join(picked)} are in force "
                     "this battle round."}]


def _answer_remove(game: Game, state: State, entry: dict[str, Any], action: dict[str, Any],
                   choice: str) -> list[dict[str, Any]]:
    if choice == "no":
        state.pending_attacks.pop(0)
        return [{"type": "effect_declined", "effect": entry["effect"]}]
    feature = str(action.get("feature"))
    if feature not in entry["ids"]:
        raise RuleError(f"remove one of: {', '.join(entry['ids'])}")
    state.pending_attacks.pop(0)
    state.removed_features = [*state.removed_features, feature]
    return [{"type": "effect_removed", "effect": entry["effect"], "feature": feature,
             "note": f"{entry['effect']}: {feature} is removed from the battlefield."}]


def question(state: State) -> dict[str, Any] | None:
    """The effect's question waiting for the players, if any."""
    entry = state.pending_attacks[0] if state.pending_attacks else None
    return entry if entry is not None and entry.get("kind") == QUESTION else None
