"""The checks a checkpoint passes before a game goes on from it: the same as a scenario's.

A checkpoint (:mod:`solo_ops.game.checkpoint`) is read from a save, and a save is a file anyone
can edit. Before a game goes on from one, :func:`check` holds it to what the game could have
produced: every field of the right type (read off the dataclasses of
:mod:`solo_ops.game.state`, so a field added later is checked without touching this module),
every point on the board, wounds within the profile, ids the game knows (the players' operatives
of the set-up, each once; units, counters and doors that exist), and state-machine states,
troop types, orders, sectors and dice a game can hold. The first problem is one
:class:`~solo_ops.core.errors.InputError` naming the field (``checkpoint.operatives[0].wounds``),
never a crash later in play.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from typing import TYPE_CHECKING, Any

from solo_ops.ai.fsm import STATES
from solo_ops.core.dice import dice_from_state, scheme_of
from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.limits import bounds
from solo_ops.core.model import Profile
from solo_ops.core.tables import TroopType
from solo_ops.game.state import ENEMY, PLAYER, Counter, Operative, State, Unit

if TYPE_CHECKING:
    from solo_ops.game.definition import Game

_LEFT_OUT = {"profile", "operatives", "units", "counters", "dice", "log"}
"""Fields checked on their own (profiles by name, the three collections, dice, past steps)."""
MAX_TURN = 99


def _error(where: str, message: str) -> InputError:
    return InputError(message, field=f"checkpoint.{where}" if where else "checkpoint")


def _fits(value: Any, kind: Any) -> bool:
    """Whether the JSON ``value`` is of the annotated type ``kind`` (points are lists)."""
    if kind is Any:
        return True
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, a) for a in args)
    if kind is type(None):
        return value is None
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value)
    if kind is str:
        return isinstance(value, str)
    if origin is list:
        return isinstance(value, list) and all(_fits(v, args[0]) for v in value)
    if origin is tuple:
        return isinstance(value, list) and len(value) == len(args) and all(
            _fits(v, a) for v, a in zip(value, args, strict=True))
    if origin is dict:
        return isinstance(value, dict) and all(
            isinstance(k, str) and _fits(v, args[1]) for k, v in value.items())
    return False  # pragma: no cover - a field type this module does not know yet


def _types(cls: type, data: Any, where: str) -> dict[str, Any]:
    """``data`` as the fields of dataclass ``cls``: a mapping, no unknown field, each known
    one of its annotated type (the fields in :data:`_LEFT_OUT` are checked elsewhere)."""
    if not isinstance(data, dict):
        raise _error(where, f"expected a mapping, got {excerpt(data)}")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    for key, value in data.items():
        if key not in names:
            raise _error(where, f"field {excerpt(key)} is not one this solo-ops knows")
        if key in _LEFT_OUT:
            continue
        if not _fits(value, hints[key]):
            raise _error(f"{where}.{key}" if where else key,
                         f"{excerpt(value)} is not {_type_words(hints[key])}")
    return data


_WORDS = {str: "text", int: "a whole number", float: "a number", bool: "true or false",
          type(None): "none"}


def _type_words(kind: Any) -> str:
    """An annotated type in words: ``a point x, y or none``, ``a list of text``."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_words(a) for a in args)
    if origin is tuple:
        return "a point x, y" if args == (float, float) else "a list"
    if origin is list:
        return f"a list of {_type_words(args[0]).removeprefix('a ')}" if args else "a list"
    if origin is dict:
        return "a mapping"
    return _WORDS.get(kind, "a value")


def _collection(data: dict[str, Any], key: str, cls: type) -> list[dict[str, Any]]:
    """The list ``key`` of the checkpoint, each entry type-checked as ``cls``, ids unique."""
    items = data.get(key) or []
    if not isinstance(items, list):
        raise _error(key, "expected a list")
    seen: set[str] = set()
    for i, item in enumerate(items):
        _types(cls, item, f"{key}[{i}]")
        ident = item.get("id")
        if not isinstance(ident, str):
            raise _error(f"{key}[{i}].id", "expected an id")
        if ident in seen:
            raise _error(f"{key}[{i}].id", f"{excerpt(ident)} appears twice")
        seen.add(ident)
    return items


def _point(game: Game, value: Any, where: str, radius: float = 0.0) -> None:
    board = game.scenario.board
    if value is not None and not board.on_board(float(value[0]), float(value[1])):
        raise _error(where, f"point {float(value[0]):g},{float(value[1]):g} is off the "
                            f"board ({board.width:g}\" x {board.depth:g}\")")


def _in(value: Any, allowed: Any, where: str, what: str) -> None:
    if value is not None and value not in allowed:
        raise _error(where, f"{excerpt(value)} is not {what}")


def _operatives(data: dict[str, Any], game: Game, by_id: dict[str, Profile],
                by_name: dict[str, Profile], units: set[str]) -> set[str]:
    """Check the operatives: types, profiles, sides, owners, points, wounds; the players'
    operatives are exactly the set-up's. Returns their ids."""
    items = _collection(data, "operatives", Operative)
    players = {squad.player for squad in game.scenario.squads}
    set_up = {oid for oid, _ in _players_of(game)}
    ids = {item["id"] for item in items}
    for i, item in enumerate(items):
        where = f"operatives[{i}]"
        profile = by_id.get(item["id"])
        if profile is None or profile.name != item.get("profile"):
            profile = by_name.get(item.get("profile"))  # type: ignore[arg-type]
        if profile is None:
            raise _error(f"{where}.profile", f"no profile {excerpt(item.get('profile'))} in "
                                             "the scenario")
        _in(item.get("side"), (PLAYER, ENEMY), f"{where}.side", "player or enemy")
        if item["side"] == PLAYER:
            _in(item["id"], set_up, f"{where}.id", "one of the players' operatives")
            _in(item.get("owner"), players, f"{where}.owner", "a player of the scenario")
        else:
            _in(item["id"], ids - set_up, f"{where}.id", "an enemy model")
            _in(item.get("owner"), units, f"{where}.owner", "a unit of the checkpoint")
        _point(game, item.get("at"), f"{where}.at")
        wounds = int(item["wounds"])  # a whole number (checked with the types)
        if not 0 <= wounds <= profile.wounds:
            raise _error(f"{where}.wounds", f"{wounds} is not 0-{profile.wounds} (the "
                                            f"profile {profile.name!r} has {profile.wounds})")
        for key in ("carrying", "carried_by"):
            _in(item.get(key), ids, f"{where}.{key}", "an operative of the checkpoint")
    missing = sorted(set_up - {item["id"] for item in items if item["side"] == PLAYER})
    if missing:
        raise _error("operatives", f"the players' operative {missing[0]!r} is missing")
    return ids


def _players_of(game: Game) -> list[tuple[str, str]]:
    return [(model.id, squad.player) for squad in game.scenario.squads for model in squad.models]


def _units(data: dict[str, Any], operatives: set[str]) -> set[str]:
    """Check the enemy units: types, models that exist, troop types, orders, states."""
    items = _collection(data, "units", Unit)
    ids = {item["id"] for item in items}
    low, high = bounds("leadership")
    for i, item in enumerate(items):
        where = f"units[{i}]"
        for j, model in enumerate(item.get("models", [])):
            _in(model, operatives, f"{where}.models[{j}]", "an operative of the checkpoint")
        _in(item.get("troop"), {t.value for t in TroopType}, f"{where}.troop",
            "a troop type (melee, fire-teams, support)")
        _in(item.get("command"), range(1, 7), f"{where}.command", "an order 1-6")
        _in(item.get("leadership"), range(low, high + 1), f"{where}.leadership",
            f"a Leadership {low}-{high}")
        _in(item.get("fsm"), STATES, f"{where}.fsm", "a state of the enemy's state machine")
        _in(item.get("merged_into"), ids, f"{where}.merged_into", "a unit of the checkpoint")
    return ids


def _counters(data: dict[str, Any], game: Game) -> None:
    items = _collection(data, "counters", Counter)
    ids = {item["id"] for item in items}
    for i, item in enumerate(items):
        where = f"counters[{i}]"
        _point(game, item.get("at"), f"{where}.at")
        _in(item.get("hidden_order"), range(1, 7), f"{where}.hidden_order", "an order 1-6")
        _in(item.get("sector"), range(1, 7), f"{where}.sector", "a sector 1-6")
        _in(item.get("joined"), ids, f"{where}.joined", "a counter of the checkpoint")


def _state(data: dict[str, Any], game: Game, operatives: set[str]) -> None:
    """The state's own fields: edition, turn, doors, the active operative, points, dice."""
    if data.get("edition") != game.edition:
        raise _error("edition", f"{excerpt(data.get('edition'))} is not the scenario's "
                                f"{game.edition}")
    _in(data.get("turn"), range(0, MAX_TURN + 1), "turn", f"a turn 0-{MAX_TURN}")
    portals = {f.id for f in game.scenario.board.portals()}
    for key in data.get("doors", {}):
        _in(key, portals, f"doors.{key}", "a door or hatch of the board")
    _in(data.get("active_operative"), operatives, "active_operative",
        "an operative of the checkpoint")
    for key in ("vp", "cp", "op_vp"):
        for name, value in data.get(key, {}).items():
            if value < 0:
                raise _error(f"{key}.{name}", f"{value} is below 0")
    for key, value in data.get("markers_at", {}).items():
        if len(value) != 2:
            raise _error(f"markers_at.{key}", "expected a point x, y")
        _point(game, value, f"markers_at.{key}")
    dice = data.get("dice")
    if dice is not None:
        try:
            rebuilt = dice_from_state(dice)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
            raise _error("dice", f"{excerpt(dice)} is not the state of the game's dice") \
                from None
        scheme = scheme_of(rebuilt)  # None: a test's scripted dice
        if scheme is not None and (scheme != game.dice_scheme
                                   or getattr(rebuilt, "seed", None) != game.seed):
            raise _error("dice", f"{excerpt(dice)} is not the state of the game's dice (its "
                                 f"{game.dice_scheme} dice of the game's seed)")
    log = data.get("log")
    if not isinstance(log, list) or not log or not all(isinstance(a, dict) for a in log):
        raise _error("log", "expected the actions of the steps before it (the set-up first)")


_PENDING: dict[str, dict[str, Any]] = {
    "reroll": {"player": str, "operative": str, "text": str, "faces": list[int],
               "failed": list[int], "rerolled": list[int], "cp": int,
               "action": dict[str, Any], "answers": list[int | str]},
    "reaction": {"attacker": str, "target": str, "text": str, "retreat": bool,
                 "route": list[tuple[float, float]]},
    "shoot": {"attacker": str, "target": str, "weapon": str, "text": str},
    "fight": {"attacker": str, "target": str, "text": str},
}
"""The questions a paused game can be waiting on (``State.pending_attacks``), by kind, with
the fields the game reads from each."""


def _pending(data: dict[str, Any], operatives: set[str]) -> None:
    """The questions the game waits on: a known kind, its fields of their types, operatives
    that exist, and a paused step's action one of the steps before it (a CP re-roll re-runs
    that step)."""
    actions = data.get("log") or []
    for i, entry in enumerate(data.get("pending_attacks") or []):
        where = f"pending_attacks[{i}]"
        fields = _PENDING.get(entry.get("kind"))
        if fields is None:
            raise _error(f"{where}.kind", f"{excerpt(entry.get('kind'))} is not a question "
                                          "a game waits on")
        for key, kind in fields.items():
            if not _fits(entry.get(key), kind):
                raise _error(f"{where}.{key}", f"{excerpt(entry.get(key))} is not "
                                               f"{_type_words(kind)}")
        for key in ("operative", "attacker", "target"):
            if key in fields:
                _in(entry[key], operatives, f"{where}.{key}", "an operative of the checkpoint")
        if entry["kind"] == "reaction" and "action" in entry:  # asked in its step
            if not _fits(entry.get("answers"), list[dict[str, Any]]):
                raise _error(f"{where}.answers", f"{excerpt(entry.get('answers'))} is not "
                                                 f"{_type_words(list[dict[str, Any]])}")
            if entry["action"] not in actions:
                raise _error(f"{where}.action", "is not the action of a step before it")
        if entry["kind"] == "reroll" and entry["action"] not in actions:
            raise _error(f"{where}.action", "is not the action of a step before it")
        if entry["kind"] == "reroll" and not all(1 <= f <= 6 for f in entry["faces"]):
            raise _error(f"{where}.faces", "expected dice faces 1-6")


def _result(data: dict[str, Any]) -> None:
    """A finished game's result: what the summary reads (its outcome, points and turns)."""
    result = data.get("result")
    if result is None:
        return
    for key, kind in (("outcome", str), ("vp", dict[str, int]), ("turns", int)):
        if not _fits(result.get(key), kind):
            raise _error(f"result.{key}", f"{excerpt(result.get(key))} is not "
                                          f"{_type_words(kind)}")


def check(data: dict[str, Any], game: Game, by_id: dict[str, Profile],
          by_name: dict[str, Profile]) -> None:
    """Refuse a checkpoint the game ``game`` could not have produced (see the module
    docstring); ``by_id``/``by_name`` are the profiles it may name
    (:func:`solo_ops.game.checkpoint.profiles_of`)."""
    _types(State, {k: v for k, v in data.items() if k != "version"}, "")
    units = data.get("units")
    unit_ids = {u["id"] for u in units if isinstance(u, dict) and isinstance(u.get("id"), str)} \
        if isinstance(units, list) else set()
    operatives = _operatives(data, game, by_id, by_name, unit_ids)
    _units(data, operatives)
    _counters(data, game)
    _state(data, game, operatives)
    _pending(data, operatives)
    _result(data)
