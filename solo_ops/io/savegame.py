"""Game saves, resume, undo and replay: a game is its scenario, its seed and its actions.

A save (``schema_version`` 1, ``kind: solo-ops-game``) holds the complete scenario document
(board and roster inline), the seed, the list of applied actions and a snapshot of the final
state for checking. :func:`restore` rebuilds the game by replaying the actions from the seed —
the dice are a counter-based source, so every roll comes out the same. :func:`undo` drops the
last player answer (and the engine steps after it): replaying the rest gives the state before
that answer, and the dice already shown come out again in the same order, never re-drawn.

The event log is JSON lines: a header (scenario and seed), then one record per step.
"""

from __future__ import annotations

from typing import Any

from solo_ops.core.errors import InputError
from solo_ops.game.engine import Game, new_game, step
from solo_ops.game.state import State
from solo_ops.io.scenario import parse_scenario

GAME_KIND = "solo-ops-game"
LOG_KIND = "solo-ops-log"
SCHEMA_VERSION = 1


def actions_of(state: State) -> list[dict[str, Any]]:
    """The actions applied since set-up (the set-up record is rebuilt from the seed)."""
    return [record["action"] for record in state.log[1:]]


def game_document(game: Game, state: State) -> dict[str, Any]:
    """The save file's content."""
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": GAME_KIND,
        "scenario": game.scenario.document,
        "scenario_source": game.scenario.source,
        "seed": game.seed,
        "actions": actions_of(state),
        "snapshot": state.to_dict(secrets=True),
    }


def log_header(game: Game) -> dict[str, Any]:
    return {"schema_version": SCHEMA_VERSION, "kind": LOG_KIND,
            "scenario": game.scenario.document, "scenario_source": game.scenario.source,
            "seed": game.seed}


def restore(doc: dict[str, Any], source: str,
            actions: list[dict[str, Any]] | None = None) -> tuple[Game, State]:
    """Rebuild a game from a save document by replaying its actions."""
    if not isinstance(doc, dict) or doc.get("kind") not in (GAME_KIND, LOG_KIND):
        raise InputError("not a solo-ops game save", source=source)
    version = doc.get("schema_version")
    if version != SCHEMA_VERSION:
        raise InputError(f"schema_version {version!r} is not one this solo-ops reads "
                         f"({SCHEMA_VERSION})", source=source, field="schema_version")
    if not isinstance(doc.get("seed"), int):
        raise InputError("missing or bad seed", source=source, field="seed")
    scenario = parse_scenario(doc.get("scenario"), doc.get("scenario_source") or source)
    game, state = new_game(scenario, doc["seed"])
    todo = doc.get("actions", []) if actions is None else actions
    if not isinstance(todo, list):
        raise InputError("actions must be a list", source=source, field="actions")
    for i, action in enumerate(todo):
        if not isinstance(action, dict):
            raise InputError("each action must be a mapping", source=source,
                             field=f"actions[{i}]")
        try:
            step(game, state, action)
        except Exception as exc:  # a damaged or edited save: say where it broke
            raise InputError(f"replaying action {i + 1} failed: {exc}", source=source,
                             field=f"actions[{i}]") from None
    return game, state


def undo(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions before the last player answer (engine steps after it go too); ``[]`` when
    no player has answered yet (see :func:`can_undo`)."""
    for i in range(len(actions) - 1, -1, -1):
        if actions[i].get("type") != "engine":
            return actions[:i]
    return []


def can_undo(actions: list[dict[str, Any]]) -> bool:
    """Whether a player has given an answer that undo could take back."""
    return any(a.get("type") != "engine" for a in actions)


def undo_marker(records_kept: int) -> dict[str, Any]:
    """The event-log line that records an undo: every step record with ``n >= records_kept``
    is void (the log stays append-only, so what happened at the table is never lost)."""
    return {"undo": True, "keep": records_kept}


def effective_records(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The step records of an event log (header excluded) with undone steps taken out."""
    records: list[dict[str, Any]] = []
    for entry in entries:
        if entry.get("undo") is True:
            keep = entry.get("keep")
            if not isinstance(keep, int) or isinstance(keep, bool) or keep < 0:
                raise InputError(f"bad undo line {entry!r}", field="keep")
            del records[keep:]
        elif "action" in entry:
            records.append(entry)
    return records


def reconcile_log(entries: list[dict[str, Any]], state: State
                  ) -> tuple[int | None, list[dict[str, Any]]]:
    """What to append to an event log (header excluded) so that it describes ``state``.

    Returns ``(keep, records)``: ``keep`` is ``None`` when the log agrees with the state so
    far (then ``records`` are the steps the log lacks — a process killed between the save and
    the log write leaves one behind), else the number of records to keep before an undo line
    (the log went further than the save), followed by the state's records from there.
    """
    have = effective_records(entries)
    want = state.log
    same = 0
    for a, b in zip(have, want, strict=False):
        if a.get("n") != b.get("n") or a.get("action") != b.get("action"):
            break
        same += 1
    if same == len(have):
        return None, want[same:]
    return same, want[same:]
