"""The only way out to a person: per-player views that strip hidden facts.

:func:`player_view` turns the state into what the players may know — their squads, the
enemies that have been revealed, and the unresolved counters as bare markers (id and position:
no contents, no hidden order, no planned move). :func:`player_record` does the same for one
log record: secret events (hidden orders, hidden plans) and secret rolls are dropped. The
terminal text, JSON meant for the player and maps are all built from these. ``reveal=True``
(the debug setting) shows everything and says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.game import events
from solo_ops.game.state import ENEMY, PLAYER, State

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


def player_view(game: Game, state: State, *, reveal: bool = False) -> dict[str, Any]:
    """What the players see now."""
    from solo_ops.game.engine import pending

    squads: dict[str, list[dict[str, Any]]] = {}
    for op in state.side(PLAYER):
        squads.setdefault(op.owner, []).append(op.to_dict())
    units = [u.to_dict() for u in state.units.values() if u.fsm != "hidden"
             and (u.models or u.merged_into)]
    enemies = [o.to_dict() for o in state.side(ENEMY)
               if state.units.get(o.owner) is None or state.units[o.owner].fsm != "hidden"]
    counters = [c.secret_dict() if reveal else {"id": c.id, "at": [round(c.at[0], 2),
                                                                      round(c.at[1], 2)]}
                for c in state.counters.values() if c.active]
    view: dict[str, Any] = {
        "scenario": game.scenario.name,
        "edition": state.edition,
        "turn": state.turn,
        "phase": state.phase,
        "initiative": state.initiative,
        "vp": dict(state.vp),
        "cp": dict(state.cp),
        "squads": squads,
        "enemies": enemies,
        "units": units,
        "counters": counters,
        "doors": dict(state.doors),
        "pending": pending(game, state).to_dict(),
        "ended": state.ended,
        "result": state.result,
    }
    _told_so_far(state, view)
    if reveal:
        view["revealed_hidden_facts"] = True
    return view


def _told_so_far(state: State, view: dict[str, Any]) -> None:
    """A step paused for a question (a CP re-roll, a fight's die, a Guard interrupt) has not
    happened yet in ``state`` (it runs again from its start after the answer), but the players
    were told what the enemy did in it before the question (the pause event's ``so_far``,
    :data:`~solo_ops.game.events.PAUSES`): the view shows the models where those events put
    them and with the wounds they left, and the players' CP as the re-roll answers so far have
    left them, so the board and the score match the words."""
    if not (state.pending_attacks and state.log):
        return
    offered = [e for e in state.log[-1]["events"] if e.get("type") in events.PAUSES]
    if not offered:
        return
    figures = offered[-1].get("figures")
    if isinstance(figures, dict):  # CP and VP as the step had them when it paused
        for key in ("cp", "vp"):
            if isinstance(figures.get(key), dict):
                view[key] = {**view[key], **{k: v for k, v in figures[key].items()
                                             if k in view[key]}}
    if isinstance(offered[-1].get("cp"), int) and PLAYER in view["cp"]:
        view["cp"][PLAYER] = offered[-1]["cp"]  # the CP the answers so far have spent
    models = {m["id"]: m for m in view["enemies"]}
    for ops in view["squads"].values():
        models.update((m["id"], m) for m in ops)
    for event in offered[-1].get("so_far", []):
        model = models.get(event.get("operative"))
        if model is None:
            continue
        to = event.get("to")
        if isinstance(to, list | tuple) and len(to) == 2:
            model["at"] = [round(float(to[0]), 3), round(float(to[1]), 3)]
        if event.get("type") == "damage" and isinstance(event.get("wounds"), int):
            model["wounds"] = event["wounds"]
        if event.get("type") == "flesh_wound" and isinstance(event.get("flesh_wounds"), int):
            model["wounds"], model["flesh_wounds"] = 1, event["flesh_wounds"]  # (2018)
        if event.get("type") == "down":
            model["wounds"], model["down"] = 0, True


PRIVATE_ACTION_KEYS = ("seed",)
"""Keys of a recorded action the players never see: the set-up's seed (with the scenario, it
would place every hidden counter and its order again: ``solo-ops fog seed``). The save keeps
it; the page names a game by its public id (:mod:`solo_ops.session.links`)."""


def player_record(record: dict[str, Any], *, reveal: bool = False) -> dict[str, Any]:
    """A log record without its secrets (unless ``reveal``): secret events and rolls dropped,
    and the action without :data:`PRIVATE_ACTION_KEYS`."""
    if reveal:
        return record
    action = record["action"]
    if any(key in action for key in PRIVATE_ACTION_KEYS):
        action = {k: v for k, v in action.items() if k not in PRIVATE_ACTION_KEYS}
    return {
        "n": record["n"],
        "action": action,
        "events": [e for e in record["events"] if events.shown(e)],
        "rolls": [r for r in record["rolls"] if not r.get("secret")],
    }


def summary_lines(view: dict[str, Any]) -> list[str]:
    """The end of a battle in words, from the players' view of the ended game
    (:func:`player_view`): the result, the enemies taken down, the counters never found, the
    players' losses and each squad's models. The terminal's summary and the web page's end
    screen say the same."""
    from solo_ops.rules.editions import turns_phrase

    result = view.get("result") or {}
    edition = view.get("edition", "kt2024")
    vp = result.get("vp") or {}
    kt2018 = edition == "kt2018"  # 004 "taken out of action"
    down = "out of action" if kt2018 else "down"
    lines = [
        f"Result: {str(result.get('outcome', '?')).upper()} after "
        f"{turns_phrase(result.get('turns', view.get('turn', 0)), edition)} — you "
        f"{vp.get('player', 0)} VP, solo-ops {vp.get('enemy', 0)} VP.",
        f"{'Enemies taken out of action' if kt2018 else 'Enemies destroyed'}: "
        f"{result.get('enemies_destroyed', 0)}"
        f"{' (every enemy is gone)' if result.get('all_enemies_destroyed') else ''}; "
        f"hidden counters never found: {result.get('unresolved_counters', 0)}."]
    whole = " (the whole kill team is out of action)" if kt2018 else " (the whole squad is down)"
    lines.append(f"Your losses: {result.get('squad_lost', 0)}"
                 f"{whole if result.get('squad_wiped_out') else ''}.")
    for player, ops in view["squads"].items():
        states = []
        for o in ops:
            if o.get("carried_to_safety"):
                states.append(f"{o['id']} carried to safety")
            elif o["down"]:
                states.append(f"{o['id']} {down}")
            else:
                states.append(f"{o['id']} {o['wounds']}/{o['max_wounds']}W")
        lines.append(f"  {player}: {', '.join(states)}.")
    return lines
