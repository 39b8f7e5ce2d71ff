"""Events in words: what the terminal prints to the players after each step.

Works on player records (:func:`solo_ops.view.player.player_record`), so it never sees a secret.
:data:`WORDS` is the table from event type to the function that words it; :data:`SILENT` lists
the event types that are deliberately not printed (bookkeeping the player already knows, or
secrets that a player record never contains). A test checks that every event type the engine
can emit is in one of the two.

Every enemy model is named by its id (the label on the map and in ``status``); a move says where
it starts, how far it goes around the walls, which way (+y is north), the doors and hatches it
goes through and where it ends. Points and distances go through :mod:`solo_ops.view.measure`
(one rounding rule, inches or centimetres).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solo_ops.core.names import join_names
from solo_ops.rules.editions import turn_name
from solo_ops.view import measure

SIDE = {"player": "you", "enemy": "solo-ops"}

MAX_BENDS = 4
"""At most this many bend points of a route are shown (the data keeps the full route)."""

MOVE_VERBS = {"reposition": "repositions", "dash": "dashes", "charge": "charges",
              "fall_back": "falls back", "normal": "moves", "advance": "Advances",
              "retreat": "Retreats"}
MOVE_VERBS_2018 = {**MOVE_VERBS, "fall_back": "Falls Back", "normal": "makes a normal move"}
"""Kill Team 2018's words for a model's move (004: "normal move", "Advance", "Fall Back",
"Retreat")."""
ENEMY_MOVE_KIND = {"dash": "dash", "fall_back": "fall back", "advance": "advance"}
"""Enemy moves other than a plain move say what kind they are, after the end point."""
ENEMY_MOVE_KIND_2018 = {"fall_back": "Fall Back", "advance": "Advance"}
"""Kill Team 2018's names of those moves, as 004 writes them."""


@dataclass
class Table:
    """What narration needs besides the record: the edition, the players' units, display
    names (player operatives' names; enemies are shown by id), the doors and hatches of the
    board (id -> shapely line, to say what a route goes through), and every enemy model's
    profile name, position and unit (callers still pass it; the texts narration prints already
    name enemy models by id, so nothing here rewrites names any more)."""

    edition: str = "kt2024"
    units: str = "in"
    names: dict[str, str] = field(default_factory=dict)
    portals: dict[str, Any] = field(default_factory=dict)
    enemies: dict[str, tuple[str, Sequence[float] | None, str]] = field(default_factory=dict)
    """enemy id -> (profile name, where it is now, its unit)"""

    def n(self, ident: Any) -> str:
        return self.names.get(str(ident), str(ident))

    def pt(self, p: Any) -> str:
        return measure.point(p, self.units)

    def dist(self, d: Any) -> str:
        return measure.length(None if d is None else float(d), self.units)


def _route_length(route: Sequence[Any]) -> float | None:
    pts = [p for p in route or [] if p is not None]
    if len(pts) < 2:
        return None
    return sum(math.dist(a, b) for a, b in itertools.pairwise(pts))


def _via(route: Any, t: Table) -> str:
    """``, via (x, y) ...``: the route's bend points, simplified for reading (routes bend round
    other bases in many tiny steps): shapely's simplify with a 0.3" tolerance, then at most
    :data:`MAX_BENDS` of them, evenly spread. Empty for a straight move."""
    points = [p for p in (route or []) if p is not None]
    if len(points) <= 2:
        return ""
    from shapely.geometry import LineString

    line = LineString([(float(p[0]), float(p[1])) for p in points])
    bends = list(line.simplify(0.3).coords)[1:-1]
    if len(bends) > MAX_BENDS:
        step = (len(bends) - 1) / (MAX_BENDS - 1)
        bends = [bends[round(i * step)] for i in range(MAX_BENDS)]
    return ", via " + " ".join(t.pt(p) for p in bends) if bends else ""


def _through(route: Any, t: Table) -> str:
    """`` through door-2 and hatch-9``: the doors and hatches the route crosses, in order."""
    points = [p for p in (route or []) if p is not None]
    if len(points) < 2 or not t.portals:
        return ""
    from shapely.geometry import LineString

    line = LineString([(float(p[0]), float(p[1])) for p in points])
    crossed = []
    for ident, shape in t.portals.items():
        if line.intersects(shape):
            crossed.append((line.project(shape.centroid), ident))
    if not crossed:
        return ""
    ids = [ident for _, ident in sorted(crossed)]
    return " through " + join_names(ids)


def move_words(start: Any, end: Any, route: Any, t: Table, cost: float | None = None,
               detour: str | None = None) -> str:
    """``from (6.2, 15.8) 4.0" north-west (3.1" straight, 4.0" by the route around crate-2)
    through hatch-9 to (5.8, 17.8)``: one distance per move, the movement it costs (the
    route's length around walls and bases, climbs and drops added; the route's length when
    the cost is not known); where the straight line between its ends is shorter by 0.05" or
    more and reads shorter as shown (never "5.9\" straight, 5.9\" by the route"), the straight
    line in brackets with why (``detour``: the event's words, from
    :func:`solo_ops.geometry.placement.detour`)."""
    if start is None:
        return f"to {t.pt(end)}{_via(route, t)}"
    way = measure.compass(start, end) if end is not None else ""
    d = float(cost) if cost is not None else _route_length(route if route else [start, end])
    parts = [f"from {t.pt(start)}"]
    if d is not None:
        parts.append(t.dist(d))
    if way:
        parts.append(way)
    straight = math.dist(start, end) if end is not None else None
    if (d is not None and straight is not None and d - straight >= 0.05
            and t.dist(straight) != t.dist(d)):
        why = f"by the route {detour}" if detour else "by the route"
        parts.append(f"({t.dist(straight)} straight, {t.dist(d)} {why})")
    return " ".join(parts) + f"{_through(route, t)} to {t.pt(end)}{_via(route, t)}"


# -- the planner's explanations -----------------------------------------------------------------
_POINT = re.compile(r"\((-?\d+\.\d+), (-?\d+\.\d+)\)")
_INCHES = re.compile(r"(\d+(?:\.\d+)?)\"")


def explain_lines(explain: Sequence[str], t: Table) -> list[str]:
    """The planner's explanation of one activation as shown: the planner already names enemy
    models by id and the players' operatives by name; only the units change (centimetres when
    the players asked for them)."""
    return [_in_units(line, t.units) for line in explain]


def _in_units(line: str, units: str) -> str:
    """The planner writes inches; shown in centimetres when the players asked for them."""
    if units == "in":
        return line
    line = _POINT.sub(lambda m: measure.point((float(m.group(1)), float(m.group(2))), units),
                      line)
    return _INCHES.sub(lambda m: measure.length(float(m.group(1)), units), line)


# -- one function per event type ---------------------------------------------------------------
Words = Callable[[dict[str, Any], Table], list[str]]


def _turn_start(e: dict[str, Any], t: Table) -> list[str]:
    label = "Turning point" if e.get("edition") == "kt2024" else "Battle round"
    return [f"══ {label} {e['turn']} ══"]


def _revealed(e: dict[str, Any], t: Table) -> list[str]:
    models = ", ".join(f"{m['id']} ({m['profile']}) at {t.pt(m['at'])}" for m in e["models"])
    out = [f"  Counter {e['counter']} is: {models}."]
    roll = e["order_roll"]
    mod = ""
    if roll["modifier"]:
        why = (f"Leadership {roll['leadership']}" if roll.get("leadership") is not None
               else "Leadership")
        mod = f" +{roll['modifier']} ({why}: +1 for each point over 7)"
    capped = " (capped at 6)" if roll["roll"] + roll["modifier"] > 6 else ""
    for u in e["units"]:
        out.append(f"  Unit {u['id']} ({u['type']}): order roll {roll['roll']}{mod} → "
                   f"command {u['command']}{capped}.")
    return out


def _activation(e: dict[str, Any], t: Table) -> list[str]:
    out = [f"▶ Enemy {e['unit']} activates."]
    return out + [f"  {line}" for line in explain_lines(e.get("explain") or [], t)]


def _moved(e: dict[str, Any], t: Table) -> list[str]:
    where = move_words(e.get("from"), e.get("to"), e.get("route"), t, e.get("cost"),
                       e.get("detour"))
    stop = f" It stops short: {e['blocked_by']}." if e.get("blocked_by") else ""
    if "note" in e:  # the enemy's move: do it at the table
        kinds = ENEMY_MOVE_KIND_2018 if t.edition == "kt2018" else ENEMY_MOVE_KIND
        kind = kinds.get(e.get("how", ""), "")
        return [f"  → {t.n(e['operative'])}: {where}{f' ({kind})' if kind else ''}.{stop}"]
    verbs = MOVE_VERBS_2018 if t.edition == "kt2018" else MOVE_VERBS
    verb = verbs.get(e["how"], e["how"].replace("_", " ") + "s")
    if e.get("failed_charge"):
        return [f"{t.n(e['operative'])}'s charge fails: it moves {where}, short of "
                f"{t.n(e['failed_charge'])}."]
    return [f"{t.n(e['operative'])} {verb} {where}."]


def _charged(e: dict[str, Any], t: Table) -> list[str]:
    if "roll" in e:  # Kill Team 2018: the charge was rolled; the note gives roll and outcome
        out = [f"  → {e.get('note') or t.n(e['operative']) + ' charges'}"]
        if e.get("to") is not None:
            where = move_words(e.get("from"), e.get("to"),
                               e.get("route") or [e.get("from"), e.get("to")], t,
                               e.get("cost"), e.get("detour"))
            out.append(f"    {t.n(e['operative'])}: {where}.")
        return out
    if "note" not in e:  # the player's own charge
        where = move_words(e.get("from"), e.get("to"), e.get("route"), t, e.get("cost"),
                           e.get("detour"))
        return [f"{t.n(e['operative'])} charges {where}."]
    if e["type"] == "charge_failed":  # a 2024 charge a base blocked at the last moment
        return [f"  {e['note']}"]
    where = move_words(e.get("from"), e.get("to"), e.get("route"), t, e.get("cost"),
                       e.get("detour"))
    into = "within 1\" of" if t.edition == "kt2018" else "into control range of"
    return [f"  → {t.n(e['operative'])}: charge {where}, {into} {t.n(e.get('target'))}."]


def _counter_moved(e: dict[str, Any], t: Table) -> list[str]:
    """``Counter c6 moves from (14.5, 15.5) 4.2" north-east to (17.5, 18.5) — hidden-enemy
    table row 4 ("Moves towards enemy"): moves towards the enemy.`` (the row when the
    ``counter_rows`` setting shows it; an ambush counter's jump is said as such)."""
    if e.get("ambush") or e.get("from") is None:
        return [f"Counter {e['counter']} moves to {t.pt(e['at'])}"
                f"{' (ambush!)' if e.get('ambush') else ''}."]
    where = move_words(e["from"], e["at"], e.get("route"), t, e.get("cost"), e.get("detour"))
    why = ""
    if e.get("row"):
        why = (f" — hidden-enemy table row {e['row']} (\"{e.get('row_text', '')}\")"
               + (f": {e['why']}" if e.get("why") else ""))
    return [f"Counter {e['counter']} moves {where}{why}."]


def _attack(e: dict[str, Any], t: Table) -> list[str]:
    return [f"  ✸ {t.n(e['attacker'])} attacks {t.n(e['target'])} with {e['weapon']}: "
            f"{e['damage']} damage.", *(f"    {line}" for line in e.get("lines", []))]


def _fight(e: dict[str, Any], t: Table) -> list[str]:
    across = f" {e['note']}" if e.get("across") else ""  # a Door / Hatchway Fight
    if "attacker" not in e:  # the player's report of a fight: the damage events follow
        return [f"  ✸ {t.n(e['operative'])} fights {t.n(e['target'])}{across}."] if across \
            else []
    if t.edition == "kt2018":  # 2018: the attacker's attacks only (the target strikes back
        # when it is chosen to fight)
        return [f"  ✸ {t.n(e['attacker'])} fights {t.n(e['target'])}: {e['damage']} damage.",
                *(f"    {line}" for line in e.get("lines", []))]
    return [f"  ✸ {t.n(e['attacker'])} fights {t.n(e['target'])}{across}: deals "
            f"{e['damage']}, takes {e['damage_taken']}.",
            *(f"    {line}" for line in e.get("lines", []))]


def _replanned(e: dict[str, Any], t: Table) -> list[str]:
    target = f" at {t.n(e['target'])}" if e.get("target") else ""
    explain = explain_lines(e.get("explain") or [], t)
    return [f"  ↻ {t.n(e['operative'])} drops its {str(e.get('dropped', '')).replace('_', ' ')}"
            f"{target} ({e.get('why')}) and plans again.", *(f"    {line}" for line in explain)]


def _score(e: dict[str, Any], t: Table) -> list[str]:
    when = turn_name(t.edition)
    return [f"Score after {when} {e['turn']}: you {e['vp']['player']} VP, solo-ops "
            f"{e['vp']['enemy']} VP.", *(f"  {line}" for line in e.get("lines", []))]


def _idle(e: dict[str, Any], t: Table) -> list[str]:
    if t.edition == "kt2018":
        return [f"solo-ops has no model to act with now: {e['why']}. Over to you."]
    return [f"solo-ops has nothing to activate: {e['why']}. Over to you."]


def _nerve(e: dict[str, Any], t: Table) -> list[str]:
    """004 Nerve Tests: the D6, each modifier, the result against Leadership."""
    if "face" not in e:
        return [f"  Nerve test for {t.n(e['operative'])}: "
                f"{'passed' if e['passed'] else 'failed — shaken'}."]
    mods = "".join(f", {a:+d} {r}" for r, a in e.get("modifiers", []))
    why = f" ({e['why']})" if e.get("why") else ""
    outcome = "passed" if e["passed"] else "failed: it is shaken"
    if e["passed"] and e["face"] == 1:
        outcome = "passed (an unmodified 1 always passes)"
    return [f"  Nerve test for {t.n(e['operative'])}{why}: D6 {e['face']}{mods} = {e['roll']} "
            f"against Leadership {e['leadership']}: {outcome}."]


def _hazard(e: dict[str, Any], t: Table) -> list[str]:
    harm = {"mortal_wound": "1 mortal wound", "shaken": "Shaken"}.get(str(e.get("then")),
                                                                   "struck")
    return [f"  ◆ {e['effect']}: D6 {e['roll']} for {t.n(e['operative'])} ({e['where']}): "
            f"{harm if e['struck'] else 'no harm'}."]


def _limited(e: dict[str, Any], t: Table) -> list[str]:
    return [f"  {t.n(e['operative'])}'s {e['weapon']} is Limited: {e.get('left')} use(s) left "
            "this battle."]


def _guard_interrupt(e: dict[str, Any], t: Table) -> list[str]:
    if e.get("side") == "player":  # the players' interrupt: its note says how
        return [f"  ⚑ {e['note']}"]
    verb = "fights" if e.get("how") == "fight" else "shoots"
    return [f"  ⚑ {t.n(e['operative'])} is On Guard and interrupts: it {verb} "
            f"{t.n(e['target'])}."]


def _so_far(e: dict[str, Any], t: Table) -> list[str]:
    """A step paused for a CP re-roll: what the enemy did in it before the question (the
    same events open the step's final record; :class:`solo_ops.session.table.GameTable` words them
    once)."""
    out: list[str] = []
    for inner in e.get("so_far", []):
        words = WORDS.get(str(inner.get("type")))
        if words is not None:
            out.extend(words(inner, t))
    return out


def _fight_so_far(e: dict[str, Any], t: Table) -> list[str]:
    """A step paused for a player's next die in a fight: what the enemy did before it, then
    the fight so far (the dice as rolled, the dice resolved); the question follows."""
    names = list(e.get("names") or ["", ""])
    first, second = names if e.get("side", "attacker") == "attacker" else names[::-1]
    return [*_so_far(e, t), f"  ✸ {t.n(first)} fights {t.n(second)} — die by die:",
            *(f"    {line}" for line in e.get("lines", []))]


def _one(text: Callable[[dict[str, Any], Table], str]) -> Words:
    return lambda e, t: [text(e, t)]


WORDS: dict[str, Words] = {
    "turn_start": _turn_start,
    "initiative": _one(lambda e, t: f"Initiative: {SIDE[e['side']]} (you rolled "
                       f"{e['player_roll']}, solo-ops {e['enemy_roll']}"
                       + (": a tie, so it passes to the other side)."
                          if e["player_roll"] == e["enemy_roll"] else ").")),
    "command_points": _one(lambda e, t: f"Command points: you {e['cp'].get('player', 0)}, "
                           f"solo-ops {e['cp'].get('enemy', 0)}."),
    "reroll_offered": _so_far,
    "fight_offered": _fight_so_far,
    "guard_offered": _so_far,
    "cover_offered": _so_far,
    "reaction_offered": lambda e, t: [*_so_far(e, t), f"⚔ {e['note']}"],
    "cp_spent": _one(lambda e, t: f"  You spend {e['amount']} CP ({e['why']}): {e['cp']} CP "
                     "left."),
    "phase": lambda e, t: [] if e.get("phase") == "firefight"
    else [f"— {e['phase'].title()} phase —"],
    "squad_deployed": _one(lambda e, t: f"{e['player']} deploys: " + ", ".join(
        f"{m['id']} {t.pt(m['at'])}" + (f" (hurt: {m['wounds']}/{m['max_wounds']} wounds)"
                                        if "wounds" in m else "")
        for m in e["models"]) + "."),
    "enemy_placed": _one(lambda e, t: f"Enemy unit {e['unit']} is on the table (command "
                         f"{e['command']})."),
    "counter_placed": _one(lambda e, t: f"Counter {e['counter']} placed in sector "
                           f"{e['sector']} at {t.pt(e['at'])}." + (
                               " It could not be hidden: it is resolved in the first turn."
                               if e.get("resolve_first_turn") else "")),
    "counter_moved": _counter_moved,
    "counter_joined": _one(lambda e, t: f"Counter {e['counter']} joins counter {e['into']}: "
                           "move it onto that counter (they are one stack now)."),
    "counter_spotted": _one(lambda e, t: f"Counter {e['counter']} at {t.pt(e['at'])} is "
                            f"spotted{' by ' + t.n(e['by']) if e.get('by') else ''}!"),
    "enemy_count": _one(lambda e, t: f"  Enemy count roll {e['roll']}: {e['result']}"),
    "false_alarm": _one(lambda e, t: f"  False alarm: move counter {e['counter']} to sector "
                        f"{e['sector']}, {t.pt(e['at'])}."),
    "ambush": _one(lambda e, t: f"  Ambush! A second counter {e['second']} appears."),
    "counter_revealed": _revealed,
    "counter_empty": _one(lambda e, t: f"  Counter {e['counter']} held nobody."),
    "enemy_activation": _activation,
    "enemy_idle": _idle,
    "moved": _moved,
    "move_blocked": _one(lambda e, t: f"  {e['note']}"),
    "charged": _charged,
    "charge_failed": _charged,
    "replanned": _replanned,
    "enemy_refused": _one(lambda e, t: f"  ✋ {e['note']}"),
    "unit_leadership": _one(lambda e, t: f"  {e['unit']}'s Leadership is now "
                            f"{e['leadership']} ({e['why']}: its highest model's leads)."),
    "attack": _attack,
    "fight": _fight,
    "secondary_hit": _one(lambda e, t: f"  ✸ {t.n(e['operative'])} is hit too: {e['why']}, "
                          f"{e['damage']} damage."),
    "stunned": _one(lambda e, t: f"  ✦ {t.n(e['operative'])} is stunned ({e['why']}): APL "
                    f"{e['apl']} until the end of its next activation."),
    "limited_use": _limited,
    "attack_pending": _one(lambda e, t: f"  ✸ {e['note']}"),
    "shot_cancelled": _one(lambda e, t: f"  {e['note']}"),
    "damage": _one(lambda e, t: f"  {t.n(e['operative'])} loses {e['amount']} wound(s) "
                   f"({e['wounds']} left) — {e['why']}."
                   + (f" Injury roll {e['injury']}." if "injury" in e else "")),
    "flesh_wound": _one(lambda e, t: f"  {t.n(e['operative'])} suffers a flesh wound: "
                        f"{e['flesh_wounds']} of its {e.get('boxes', 3)} Flesh Wound boxes "
                        "marked, 1 wound left."),
    "down": _one(lambda e, t: f"  ✖ {t.n(e['operative'])} is "
                 f"{'incapacitated' if t.edition == 'kt2024' else 'out of action'}."),
    "unit_destroyed": _one(lambda e, t: f"  Unit {e['unit']} is destroyed."),
    "merged": _one(lambda e, t: f"  Unit {e['unit']} joins {e['into']} and takes its order "
                   f"(command {e['command']})."),
    "carry": _one(lambda e, t: e["note"]),
    "evacuated": _one(lambda e, t: e["note"]),
    "portal": _one(lambda e, t: e["note"]),
    "dropped": _one(lambda e, t: f"  {t.n(e['carried'])} is dropped where "
                    f"{t.n(e['operative'])} fell"
                    + (f": put {t.n(e['carried'])} down at {t.pt(e['at'])}, beside it."
                       if e.get("at") else ".")),
    "mines": _one(lambda e, t: f"  Mines {e['marker']} go off under {t.n(e['operative'])}: "
                  f"{e['damage']} damage."),
    "score": _score,
    "vp": _one(lambda e, t: f"  +{e['points']} VP to {SIDE[e['side']]}: {e['why']}."),
    "battle_end": _one(lambda e, t: f"══ Battle over: {e['outcome'].upper()} — you "
                       f"{e['vp']['player']} VP, solo-ops {e['vp']['enemy']} VP"
                       + (f"; tied on VP, broken by the {e['tie_break']}" if e.get("tie_break")
                          else "") + " ══"),
    "nerve_test": _nerve,
    "broken": _one(lambda e, t: f"{SIDE[e['side']].title()}: the kill team is broken."),
    "on_guard": _one(lambda e, t: (
        f"{t.n(e['operative'])} is On Guard: it may interrupt one enemy activation after the "
        "model's first action (shoot it, -1 to hit within control range, or fight it)."
        if e.get("side") == "player" else
        f"  ⚑ {t.n(e['operative'])} is On Guard: it may interrupt one of your operatives' "
        "activations after its first action.")),
    "guard_interrupt": _guard_interrupt,
    # 2024 orders: an activation without one keeps the order the operative had (said, as the
    # player did not say it); an order chosen before the first action
    "activated": lambda e, t: [
        f"{t.n(e['operative'])} keeps its {str(e['stance']).title()} order ('"
        f"{'conceal' if e['stance'] == 'engage' else 'engage'}' before its first action "
        "changes it)."] if e.get("kept") else [],
    "order": _one(lambda e, t: f"{t.n(e['operative'])} takes "
                  f"{'an Engage' if e['stance'] == 'engage' else 'a Conceal'} order."),
    "guard_ended": _one(lambda e, t: f"  {t.n(e['operative'])} is no longer On Guard "
                        f"({e['why']})."),
    "attack_reported": _one(lambda e, t: f"Recorded: {e['damage']} damage to "
                            f"{t.n(e['target'])}."),
    # Kill Team 2018 charge Reactions (issue 14 item 12), rolls and the Pariah Nexus effects
    "charge_declared": _one(lambda e, t: f"⚔ {e['note']}"),
    "overwatch": _one(lambda e, t: f"  {e['note']}"),
    "cannot_react": _one(lambda e, t: f"  {e['why']}: no Reaction."),
    "move_roll": _one(lambda e, t: f"  🎲 {e['note']}"),
    "readied": _one(lambda e, t: e.get("note") or f"{t.n(e['operative'])} is Readied."),
    "held_fire": _one(lambda e, t: f"{e['player']} passes: "
                      + ", ".join(t.n(o) for o in e["operatives"])
                      + (" holds its" if len(e["operatives"]) == 1 else " hold their")
                      + " fire this shooting phase."),
    "effect_roll": _one(lambda e, t: f"  ◆ {e['note']}"),
    "effect_pick": _one(lambda e, t: f"  ◆ {e['note']}"),
    "effect_hazard": _hazard,
    "effect_shaken": _one(lambda e, t: f"  {t.n(e['operative'])} is Shaken ({e['why']})."),
    "effect_move": _one(lambda e, t: f"  ◆ {e['note']}"),
    "effect_declined": _one(lambda e, t: f"  {e['effect']}: "
                            + (f"{t.n(e['operative'])} stays where it is."
                               if e.get("operative") else "nothing is changed.")),
    "effect_removed": _one(lambda e, t: f"  ◆ {e['note']}"),
    # Kill Team 2024 Counteract, Pick Up / Place Down (issue 14 item 7)
    "counteract": lambda e, t: [f"⚡ {e['note']}"] if e.get("side") == "enemy" else [],
    "pick_up": _one(lambda e, t: f"  {e['note']}"),
    "place_down": _one(lambda e, t: f"  {e['note'][:-1]} at {t.pt(e['at'])}."),
}

SILENT = frozenset({
    "setup",            # the record's action, not an event
    "engine",           # likewise
    "move",             # an action dict (solo_ops.game.intent's concrete move), not an event
    "evacuate",         # likewise (the evacuation that follows a proposed move to an edge)
    "cp",               # an action dict (CP spent at the table: its cp_spent event is worded)
    "reroll",           # an action dict (the answer to a CP re-roll question)
    "fight_choice",     # an action dict (a player's move in a fight, die by die)
    "guard_choice",     # an action dict (a player's answer to a Guard interrupt offer)
    "cover_choice",     # an action dict (keep or roll a useless cover save)
    "activation_end",   # likewise ("done")
    "shot",             # the player's own report: the damage lines follow
    "effect_offer",     # an effect's question to the players: the prompt that follows says it
    "no_reaction",      # the player's own answer to a declared charge
    "counteract_pass",  # a side that could counteract did not (the next activation follows)
    "turn_end",         # the next turn_start or the score says it
    "unit_state",       # the state machine's bookkeeping (the explanation names the state)
    "unit_event",       # likewise
    "hidden_order",     # secret: never in a player record
    "hidden_plan",      # secret
    "counter_command",  # secret
})
"""Event types deliberately not printed (see the module docstring)."""


def lines_for(record: dict[str, Any], names: dict[str, str] | None = None,
              edition: str = "kt2024", *, table: Table | None = None) -> list[str]:
    """Readable lines for one (already filtered) log record. ``table`` gives the units, the
    board's doors and the enemy models (see :class:`Table`); ``names``/``edition`` are the
    short form for callers that have no more."""
    t = table or Table(edition=edition, names=dict(names or {}))
    out: list[str] = []
    for e in record["events"]:
        kind = str(e.get("type"))
        words = WORDS.get(kind)
        if words is not None:
            out.extend(words(e, t))
    return out
