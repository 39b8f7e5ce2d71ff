"""Events in words: what the terminal prints to the players after each step.

Works on player records (:func:`solo_ops.view.player.player_record`), so it never sees a secret.
"""

from __future__ import annotations

from typing import Any

SIDE = {"player": "you", "enemy": "solo-ops"}


MAX_BENDS = 4
"""At most this many bend points of a route are shown (the data keeps the full route)."""

MOVE_VERBS = {"reposition": "repositions", "dash": "dashes", "charge": "charges",
              "fall_back": "falls back", "normal": "moves", "advance": "advances"}


def _pt(p: Any) -> str:
    return "off the table" if p is None else f"({p[0]:.1f}, {p[1]:.1f})"


def _via(route: Any) -> str:
    """`` via (x, y) ...``: the route's bend points, simplified for reading (routes bend round
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
    return " via " + " ".join(_pt(p) for p in bends) if bends else ""


def lines_for(record: dict[str, Any], names: dict[str, str] | None = None,
              edition: str = "kt2024") -> list[str]:
    """Readable lines for one (already filtered) log record."""
    names = names or {}

    def n(ident: Any) -> str:
        return names.get(str(ident), str(ident))

    out: list[str] = []
    for e in record["events"]:
        t = e.get("type")
        if t == "turn_start":
            label = "Turning point" if e.get("edition") == "kt2024" else "Battle round"
            out.append(f"══ {label} {e['turn']} ══")
        elif t == "initiative":
            out.append(f"Initiative: {SIDE[e['side']]} (you rolled {e['player_roll']}, "
                       f"solo-ops {e['enemy_roll']}).")
        elif t == "command_points":
            out.append(f"Command points: you {e['cp'].get('player', 0)}.")
        elif t == "phase" and e.get("phase") != "firefight":
            out.append(f"— {e['phase'].title()} phase —")
        elif t == "squad_deployed":
            spots = ", ".join(f"{m['id']} {_pt(m['at'])}" for m in e["models"])
            out.append(f"{e['player']} deploys: {spots}.")
        elif t == "enemy_placed":
            out.append(f"Enemy unit {e['unit']} is on the table (command {e['command']}).")
        elif t == "counter_placed":
            extra = " It could not be hidden: it is resolved in the first turn." \
                if e.get("resolve_first_turn") else ""
            out.append(f"Counter {e['counter']} placed in sector {e['sector']} at "
                       f"{_pt(e['at'])}.{extra}")
        elif t == "counter_moved":
            how = " (ambush!)" if e.get("ambush") else ""
            out.append(f"Counter {e['counter']} moves to {_pt(e['at'])}{how}.")
        elif t == "counter_joined":
            out.append(f"Counter {e['counter']} joins counter {e['into']}: move it onto that "
                       "counter (they are one stack now).")
        elif t == "counter_spotted":
            by = f" by {n(e['by'])}" if e.get("by") else ""
            out.append(f"Counter {e['counter']} at {_pt(e['at'])} is spotted{by}!")
        elif t == "enemy_count":
            out.append(f"  Enemy count roll {e['roll']}: {e['result']}")
        elif t == "false_alarm":
            out.append(f"  False alarm: move counter {e['counter']} to sector {e['sector']}, "
                       f"{_pt(e['at'])}.")
        elif t == "ambush":
            out.append(f"  Ambush! A second counter {e['second']} appears.")
        elif t == "counter_revealed":
            models = ", ".join(f"{m['profile']} ({m['id']}) at {_pt(m['at'])}"
                               for m in e["models"])
            out.append(f"  Counter {e['counter']} is: {models}.")
            roll = e["order_roll"]
            mod = f" +{roll['modifier']}" if roll["modifier"] else ""
            for u in e["units"]:
                out.append(f"  Unit {u['id']} ({u['type']}): order roll {roll['roll']}{mod} → "
                           f"command {u['command']}.")
        elif t == "counter_empty":
            out.append(f"  Counter {e['counter']} held nobody.")
        elif t == "enemy_activation":
            out.append(f"▶ Enemy {e['unit']} activates.")
            out.extend(f"  {line}" for line in e["explain"])
        elif t == "moved" and "note" in e:
            out.append(f"  → move {n(e['operative'])} to {_pt(e['to'])}"
                       f"{_via(e.get('route'))}.")
        elif t == "moved":
            verb = MOVE_VERBS.get(e["how"], e["how"].replace("_", " ") + "s")
            out.append(f"{n(e['operative'])} {verb} to {_pt(e['to'])} "
                       f"({e['cost']:.1f}\").")
        elif t in ("charged", "charge_failed") and "roll" in e:
            # Kill Team 2018: the charge was rolled; the note gives the roll and the outcome
            out.append(f"  → {e.get('note') or n(e['operative']) + ' charges'}")
            if e.get("to") is not None:
                out.append(f"    move {n(e['operative'])} to {_pt(e['to'])}.")
        elif t in ("charged", "charge_failed"):
            via = _via(e.get("route"))
            out.append(f"  → charge: move {n(e['operative'])} to {_pt(e.get('to'))}{via}, "
                       f"into control range of {n(e.get('target'))}.")
        elif t == "attack":
            out.append(f"  ✸ {n(e['attacker'])} attacks {n(e['target'])} with {e['weapon']}: "
                       f"{e['damage']} damage.")
            out.extend(f"    {line}" for line in e.get("lines", []))
        elif t == "fight" and "attacker" in e:
            out.append(f"  ✸ {n(e['attacker'])} fights {n(e['target'])}: deals "
                       f"{e['damage']}, takes {e['damage_taken']}.")
            out.extend(f"    {line}" for line in e.get("lines", []))
        elif t == "secondary_hit":
            out.append(f"  ✸ {n(e['operative'])} is hit too: {e['why']}, {e['damage']} "
                       "damage.")
        elif t == "stunned":
            out.append(f"  ✦ {n(e['operative'])} is stunned ({e['why']}): APL {e['apl']} "
                       "until the end of its next activation.")
        elif t == "limited_use":
            left = e.get("left")
            out.append(f"  {n(e['operative'])}'s {e['weapon']} is Limited: "
                       f"{left} use(s) left this battle.")
        elif t == "attack_pending":
            out.append(f"  ✸ {e['note']}")
        elif t == "shot_cancelled":
            out.append(f"  {e['note']}")
        elif t == "damage":
            out.append(f"  {n(e['operative'])} loses {e['amount']} wound(s) "
                       f"({e['wounds']} left) — {e['why']}.")
        elif t == "flesh_wound":
            out.append(f"  {n(e['operative'])} suffers a flesh wound "
                       f"({e['flesh_wounds']} in all).")
        elif t == "down":
            word = "incapacitated" if edition == "kt2024" else "out of action"
            out.append(f"  ✖ {n(e['operative'])} is {word}.")
        elif t == "unit_destroyed":
            out.append(f"  Unit {e['unit']} is destroyed.")
        elif t == "merged":
            out.append(f"  Unit {e['unit']} joins {e['into']} and takes its order "
                       f"(command {e['command']}).")
        elif t in ("carry", "evacuated", "portal"):
            out.append(e["note"])
        elif t == "dropped":
            out.append(f"  {n(e['carried'])} is dropped where {n(e['operative'])} fell.")
        elif t == "mines":
            out.append(f"  Mines {e['marker']} go off under {n(e['operative'])}: "
                       f"{e['damage']} damage.")
        elif t == "score":
            out.append(f"Score after turn {e['turn']}: you {e['vp']['player']} VP, "
                       f"solo-ops {e['vp']['enemy']} VP.")
            out.extend(f"  {line}" for line in e.get("lines", []))
        elif t == "primary":
            out.append(f"Primary op ({e['op']}): +{e['bonus']} VP.")
        elif t == "battle_end":
            out.append(f"══ Battle over: {e['outcome'].upper()} — you {e['vp']['player']} VP, "
                       f"solo-ops {e['vp']['enemy']} VP ══")
        elif t == "nerve_test":
            out.append(f"  Nerve test for {n(e['operative'])}: "
                       f"{'passed' if e['passed'] else 'failed — shaken'}.")
        elif t == "broken":
            out.append(f"{SIDE[e['side']].title()}: the kill team is broken.")
        elif t == "on_guard":
            out.append(f"  ⚑ {n(e['operative'])} is On Guard: it may interrupt one of your "
                       "operatives' activations after its first action.")
        elif t == "guard_interrupt":
            verb = "fights" if e.get("how") == "fight" else "shoots"
            out.append(f"  ⚑ {n(e['operative'])} is On Guard and interrupts: it {verb} "
                       f"{n(e['target'])}.")
        elif t == "guard_ended":
            out.append(f"  {n(e['operative'])} is no longer On Guard ({e['why']}).")
        elif t == "attack_reported":
            out.append(f"Recorded: {e['damage']} damage to {n(e['target'])}.")
    return out
