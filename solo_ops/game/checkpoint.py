"""A lossless checkpoint of a game's state: everything, so play can go on from it exactly.

A save is the scenario, the seed and the actions, and loading replays them (exact resume, undo
and ``solo-ops replay``). When a newer solo-ops plays a rule differently, the old actions no
longer replay into the saved game; the checkpoint is what lets that game go on anyway: the
state as it stood when it was saved, rebuilt field by field, with the dice where they were.

:func:`dump` walks the dataclass fields of :class:`~solo_ops.game.state.State` and of its
operatives, units and counters (so a field added later is kept without touching this module);
profiles are written by name and found again in the scenario (a squad's own profile, else the
roster's). Of the step records only each step's action is kept (the event log file holds the
rest): the game's rules never read past events, so :func:`load` gives a state that goes on
exactly as the one dumped, with the past steps as ``{"n", "action"}`` stubs.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from solo_ops.core.dice import dice_from_state
from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.model import Profile
from solo_ops.game.checkpoint_checks import check
from solo_ops.game.state import Counter, Operative, State, Unit

if TYPE_CHECKING:
    from solo_ops.game.definition import Game

VERSION = 1
"""The checkpoint's own format version (inside a save's ``checkpoint`` mapping)."""

_POINTS = {"at"}  # fields holding a point, a tuple in play and a list in JSON
_SEALS = ("hash", "unhashed")
"""Keys a save adds to a checkpoint (its hash, or the mark of one written before hashes):
not state."""


def _plain(obj: Any, leave: tuple[str, ...] = ()) -> dict[str, Any]:
    """A dataclass's fields as JSON-ready data (points as lists, profiles by name); those named
    in ``leave`` are None, in their place, for the caller to fill (not copied for nothing)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        if f.name in leave:
            out[f.name] = None
            continue
        value = getattr(obj, f.name)
        if isinstance(value, Profile):
            value = value.name
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, (list, dict)):
            value = _copy(value)
        out[f.name] = value
    return out


def _copy(value: Any) -> Any:
    """A deep copy of plain data, tuples turned into lists (what JSON would give back)."""
    if isinstance(value, dict):
        return {str(k): _copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return value


def dump(state: State) -> dict[str, Any]:
    """Everything about ``state``, as plain JSON-ready data (see the module docstring)."""
    data = _plain(state, leave=("log", "operatives", "units", "counters", "dice"))
    data["log"] = [_copy(record["action"]) for record in state.log]
    data["operatives"] = [_plain(o) for o in state.operatives.values()]
    data["units"] = [_plain(u) for u in state.units.values()]
    data["counters"] = [_plain(c) for c in state.counters.values()]
    data["dice"] = None if state.dice is None else state.dice.state()
    data["version"] = VERSION
    return data


def _build(cls: type, data: dict[str, Any], where: str, **given: Any) -> Any:
    """An instance of dataclass ``cls`` from ``data``; an unknown or missing field is an
    error naming ``where`` (a checkpoint from a newer or damaged save)."""
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise InputError(f"field {unknown[0]!r} is not one this solo-ops knows",
                         field=f"checkpoint.{where}")
    values = {k: v for k, v in data.items() if k not in given}
    for key in _POINTS & set(values):
        if values[key] is not None:
            values[key] = (float(values[key][0]), float(values[key][1]))
    try:
        return cls(**values, **given)
    except TypeError as exc:
        raise InputError(f"cannot be rebuilt ({exc})", field=f"checkpoint.{where}") from None


def profiles_of(game: Game) -> tuple[dict[str, Profile], dict[str, Profile]]:
    """The profiles a checkpoint's operatives may name: by the set-up's operative ids (squads'
    own profiles and pre-placed enemies) and by profile name (the roster's, as revealed
    enemies carry them)."""
    from solo_ops.game.engine import new_game

    _game, initial = new_game(game.scenario, game.seed, dice_scheme=game.dice_scheme,
                              terrains=game.terrains)
    by_id = {o.id: o.profile for o in initial.operatives.values()}
    roster = game.scenario.roster
    by_name: dict[str, Profile] = {}
    for profile in (roster.profiles.values() if roster is not None else ()):
        played = profile.for_edition(game.edition)  # as fog reveals them
        by_name.setdefault(played.name, played)
    for profile in by_id.values():
        by_name.setdefault(profile.name, profile)
    return by_id, by_name


def load(data: Any, game: Game) -> State:
    """The state :func:`dump` wrote, for ``game`` (its scenario supplies the profiles), after
    :func:`check`: a checkpoint that names a point off the board, more wounds than a profile
    has or an id the game does not know is refused in one line naming the field."""
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise InputError("not a checkpoint this solo-ops reads", field="checkpoint")
    data = {k: v for k, v in _copy(data).items() if k not in _SEALS}  # never shared
    by_id, by_name = profiles_of(game)
    check(data, game, by_id, by_name)
    operatives: dict[str, Operative] = {}
    for i, item in enumerate(data.get("operatives") or []):
        name = item.get("profile")
        profile = by_id.get(item.get("id"))
        if profile is None or profile.name != name:
            profile = by_name.get(name)
        if profile is None:
            raise InputError(f"no profile {name!r} in the scenario",
                             field=f"checkpoint.operatives[{i}].profile")
        op = _build(Operative, item, f"operatives[{i}]", profile=profile)
        operatives[op.id] = op
    units = {u.id: u for u in (_build(Unit, item, f"units[{i}]")
                               for i, item in enumerate(data.get("units") or []))}
    counters = {c.id: c for c in (_build(Counter, item, f"counters[{i}]")
                                  for i, item in enumerate(data.get("counters") or []))}
    rest = {k: v for k, v in data.items()
            if k not in ("operatives", "units", "counters", "dice", "version", "log")}
    rest["log"] = [{"n": n, "action": action, "events": [], "rolls": []}
                   for n, action in enumerate(data.get("log") or [])]
    dice = None if data.get("dice") is None else dice_from_state(data["dice"])  # checked
    state: State = _build(State, _copy(rest), "state", operatives=operatives, units=units,
                          counters=counters, dice=dice)
    _asks_sensibly(game, state)
    return state


def _asks_sensibly(game: Game, state: State) -> None:
    """Ask the rebuilt game what it needs next, as play will at once: a checkpoint whose
    pieces each passed :func:`check` but do not fit together is refused here, in one line,
    rather than failing when the players answer."""
    from solo_ops.game.engine import pending

    try:
        pending(game, state)
    except Exception as exc:  # any failure here is the checkpoint's, not the rules'
        raise InputError(f"the game cannot go on from it ({type(exc).__name__}: "
                         f"{excerpt(str(exc))})", field="checkpoint") from None
