"""The table's words: what a player reads about the game at the table, whatever shows it.

The sentences :class:`~solo_ops.session.table.GameTable` answers with, as the terminal and the
page print them: a proposed move (:func:`proposal_words`: where it goes, how far from what, the
allowance in the edition's words), the ``status`` lines (:func:`status_lines`), the mission's
briefing (:func:`briefing`), a taken-back answer (:func:`describe`), the one line of a step
that could not be saved (:func:`not_saved`), the names and the table narration words a record
with (:func:`names`, :func:`narration_table`) and the lines of a step run again after a
question that were already said (:func:`untold`). Everything here is worded from the players'
view or from what they may know; nothing is decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solo_ops.core.errors import SaveError
from solo_ops.core.names import natural_key
from solo_ops.game import intent
from solo_ops.game.definition import Game
from solo_ops.game.state import ENEMY, PLAYER, State
from solo_ops.view import measure, narrate


def describe(action: dict[str, Any]) -> str:
    """A taken-back answer in a few words (as the terminal says it): the answer to a question
    asked in the middle of a step as the player types it (``'keep'``, ``'reroll 2'``,
    ``'block 1 2'``, ``'auto all'``, ``'no'``, ``'roll'``), any other by its kind and what it
    names (``'move vale to 12,4'``)."""
    typed = _typed_answer(action)
    if typed is not None:
        return f"'{typed}'"
    words = [str(action.get("type", "?"))]
    for key in ("operative", "how", "target", "to", "damage", "amount", "feature"):
        if key == "how" and action.get(key) == "reposition":
            continue  # `move X,Y`'s own kind, as typed (a 2018 normal move is stored so too)
        if action.get(key) is not None:
            value = action[key]
            if isinstance(value, list):
                value = ",".join(f"{v:g}" for v in value)
            words.append(str(value))
    return "'" + " ".join(words) + "'"


def _typed_answer(action: dict[str, Any]) -> str | None:
    """A mid-step question's answer (a CP re-roll, a fight's die, a Guard interrupt, a
    useless cover save, a 2018 Reaction) as :mod:`solo_ops.view.answers` reads it from the
    player, or None for any other answer."""
    kind = action.get("type")
    if kind == "reroll":
        return "keep" if action.get("keep") else f"reroll {action.get('die')}"
    if kind == "fight_choice":
        if action.get("move") == "auto":
            return "auto all" if action.get("all") else "auto"
        against = action.get("against")
        return f"{action.get('move')} {action.get('die')}" + (
            f" {against}" if against is not None else "")
    if kind == "guard_choice":
        how = str(action.get("how"))
        target, weapon = action.get("target"), action.get("weapon")
        return " ".join([how, *([str(target)] if target else []),
                         *(["with", str(weapon)] if weapon else [])])
    if kind == "cover_choice":
        return "keep" if action.get("keep") else "roll"
    if kind == "reaction":  # Kill Team 2018
        return _reaction_words(action)
    return None


def _reaction_words(action: dict[str, Any]) -> str:
    """A 2018 Reaction as the player types it: ``no``, ``retreat X,Y``, ``overwatch [with
    WEAPON] roll`` or ``overwatch damage N``."""
    react = action.get("react")
    if react == "retreat":
        to = action.get("to") or ()
        return "retreat " + ",".join(f"{float(v):g}" for v in to)
    if react == "overwatch":
        weapon = action.get("weapon")
        with_ = f" with {weapon}" if weapon else ""
        return (f"overwatch{with_} roll" if action.get("roll")
                else f"overwatch{with_} damage {action.get('damage')}")
    return "no"


def _move_words(edition: str, how: str, allowance: str, op: Any) -> tuple[str, str]:
    """A proposed move's verb and what the move allows, in the edition's words: Kill Team
    2024 ``reposition`` / ``it can reposition 6.0"``; Kill Team 2018 ``make a normal move`` /
    ``a normal move is up to 6.0"``, ``Advance`` / ``its Advance allows 9.0"`` (004)."""
    if edition == "kt2024":
        word = how.replace("_", " ")
        return word, f"it can {word} {allowance}"
    rolled = op is not None and (op.advance_roll if how == "advance" else op.charge_roll
                                 if how == "charge" else None) is not None
    verb, allows = {
        "normal": ("make a normal move", f"a normal move is up to {allowance}"),
        "advance": ("Advance", f"its Advance {'allows' if rolled else 'may reach at most'} "
                               f"{allowance}"),
        "charge": ("charge", f"its charge roll {'allows' if rolled else 'may reach at most'} "
                             f"{allowance}"),
        "fall_back": ("Fall Back", f"a Fall Back is up to {allowance}"),
    }.get(how, (how.replace("_", " "), f"up to {allowance}"))
    return verb, allows


def _state_2018(o: dict[str, Any]) -> str:
    """A Kill Team 2018 model's state in the game's words (its flesh wounds of three boxes,
    shaken, Readied, Advanced, charged, Fell Back)."""
    words = []
    if o.get("flesh_wounds"):
        words.append(f"flesh wounds {o['flesh_wounds']}/3")
    for key, word in (("shaken", "shaken"), ("readied", "Readied"), ("advanced", "Advanced"),
                      ("charged", "charged"), ("fell_back", "Fell Back")):
        if o.get(key):
            words.append(word)
    return ", ".join(words)


def names(state: State) -> dict[str, str]:
    """Display names: the players' operatives by name (enemies are named by id)."""
    return {o.id: (o.name if o.name != o.id else o.id) for o in state.operatives.values()
            if o.side == PLAYER}


def narration_table(game: Game, state: State) -> narrate.Table:
    """What narration needs from the game: units, names, the doors and hatches, the enemies."""
    board = game.scenario.board
    enemies: dict[str, tuple[str, Sequence[float] | None, str]] = {
        o.id: (o.name, o.at, o.owner) for o in state.operatives.values() if o.side == ENEMY}
    return narrate.Table(edition=state.edition, units=game.settings.units,
                         names=names(state), portals={f.id: f.shape for f in board.portals()},
                         enemies=enemies)


def untold(lines: list[str], told: list[str]) -> list[str]:
    """``lines`` without those already ``told``: each told line is struck out at its first
    match after the last one struck (in order; a told line the new words do not have is
    passed over), so the words of a step run again after a question keep only what is new."""
    keep = [True] * len(lines)
    start = 0
    for line in told:
        for index in range(start, len(lines)):
            if lines[index] == line:
                keep[index] = False
                start = index + 1
                break
    return [line for line, kept in zip(lines, keep, strict=True) if kept]


def not_saved(exc: SaveError, what: str) -> str:
    """The one line a player hears when a step could not be saved."""
    return (f"Not saved: {exc}. {what} was not recorded; the game is as it was at the "
            "last save.")


def proposal_words(game: Game, state: State, found: intent.Proposal) -> str:
    """A proposed move in words: where it goes, how far from what, and the allowance."""
    units = game.settings.units
    how, can = _move_words(game.edition, str(found.action["how"]),
                           measure.length(found.allowance, units),
                           state.operatives.get(str(state.active_operative)))
    where = narrate.move_words(found.start, found.to, found.route,
                               narration_table(game, state), found.cost,
                               intent.detour_words(game, state, found))
    gap = "" if found.gap is None else f", {measure.length(found.gap, units)} from {found.ref}"
    if found.relation == "contact":
        gap = f", in base contact with {found.ref}"
    elif found.relation == "nearest":
        return (f"At {found.ref} {found.blocked_by}: "
                f"{state.active_operative} would {how} {where}, the nearest point "
                f"where its base fits, {measure.length(found.gap, units)} from {found.ref} "
                f"({can}).")
    elif found.gap is not None and found.gap < 0.05:
        gap = f", touching {found.ref}"
    if found.relation == "evacuate":
        mover = state.operatives[str(state.active_operative)]
        friend = state.operatives.get(str(mover.carrying))
        gap = (f", within 1\" of the table edge, then carries "
               f"{friend.name if friend else 'its friend'} off the table to safety")
    if found.blocked_by:
        gap += f"; it can get no further: {found.blocked_by}"
    if game.edition == "kt2018" and found.action.get("how") == "charge" \
            and found.gap is not None and found.gap > 1.0 + 1e-6:
        gap += ": not within 1\", the charge fails"  # 004 Charge Move
    return f"{state.active_operative} would {how} {where}{gap} ({can})."


def briefing(game: Game) -> list[str]:
    """The mission in words and the Pariah Nexus effects in force."""
    mission = game.scenario.mission
    out = list(mission.briefing(game.edition))
    for title, text in mission.effect_texts(game.scenario.board.killzone):
        out.append(f"Effect in force — {title}: {text}")
    carried = [o.id for o in game.scenario.board.objectives if o.portable]
    if carried and game.edition == "kt2024":
        out.append(f"Markers you can carry: {', '.join(carried)} (Pick Up, 1 AP: "
                   f"`pickup {carried[0]}` while your operative controls it; Place Down, "
                   "1 AP: `placedown` within its control range, not in the same "
                   "activation).")
    return out


def status_lines(game: Game, state: State, view: dict[str, Any]) -> list[str]:
    """The table as the players may see it (``view``: :func:`~solo_ops.view.player.player_view`),
    in lines (the terminal's ``status``)."""
    units = game.settings.units
    when = (f"Battle round {view['turn']} ({view['phase']} phase)"
            if game.edition == "kt2018" else f"Turn {view['turn']} ({view['phase']})")
    out = [f"{when}; VP you {view['vp'].get('player', 0)}"
           f" / solo-ops {view['vp'].get('enemy', 0)}"
           + (f"; CP you {view['cp'].get('player', 0)} / solo-ops {view['cp'].get('enemy', 0)}"
              if view["cp"] else "")]
    kt2018 = game.edition == "kt2018"
    for player, ops in view["squads"].items():
        for o in ops:
            extra = " DOWN" if o["down"] else ""
            if kt2018 and o["down"]:
                extra = " out of action"
            if o["down"] and o["at"] is not None:  # issue #27: where its base lies
                extra += (f" (carried by {o['carried_by']})" if o.get("carried_by")
                          else " (lying here: its base stays on the table)")
            extra += " ON GUARD" if o.get("on_guard") else ""
            extra += f" carrying {o['marker']}" if o.get("marker") else ""
            state_words = _state_2018(o) if kt2018 else o["stance"]
            out.append(f"  {player}: {o['id']} {measure.point(o['at'], units)} "
                       f"{o['wounds']}/{o['max_wounds']}W {state_words}{extra}".rstrip())
    for o in view["enemies"]:
        if o["down"]:
            continue
        out.append(f"  enemy {o['id']} ({o['profile']}, {o['owner']}) at "
                   f"{measure.point(o['at'], units)} {o['wounds']}/{o['max_wounds']}W"
                   + (" ON GUARD" if o.get("on_guard") else "")
                   + (f" {_state_2018(o)}".rstrip() if kt2018 else ""))
    for c in view["counters"]:
        out.append(f"  counter {c['id']} at {measure.point(c['at'], units)}")
    doors = {f.id: f for f in game.terrain(state).board.portals()}
    if doors:
        out.append("  doors and hatches: " + ", ".join(
            f"{i} {'open' if f.open else 'closed'}"
            for i, f in sorted(doors.items(), key=lambda item: natural_key(item[0]))))
    return out
