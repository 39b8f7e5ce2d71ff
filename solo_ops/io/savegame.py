"""Game saves, resume, undo and replay: a game is its scenario, its seed and its actions.

A save (``schema_version`` 5, ``kind: solo-ops-game``) holds the complete scenario document
(board and roster inline), the seed, the game id (a checksum of the scenario and the seed), the
list of applied actions, a short fingerprint of every step (its action and the faces of its
dice), the dice's state, a snapshot of the final state, the versions of solo-ops, Python, numpy,
shapely and GEOS that wrote it, the checksum of its event log so far, the log's hash chain
(:class:`LogChain`: a hash of every line of the log, header, set-up, steps, undone steps, undo
and base lines alike, each covering the one before, so ``replay`` names the first line that is
not the one written at the table) and the table's links (``links``: the game's public id and
one token per player and the host, kept beside the players so a served game's links outlive
the server; ``None`` until it is first served; see :mod:`solo_ops.session.links`).
:func:`restore`
rebuilds the game by replaying the actions from the seed — the dice are a counter-based source,
so every roll comes out the same — and :func:`verify` compares the rebuilt game with what the
save recorded, naming the first step that differs, so a resumed game is never silently a
different game (a newer solo-ops or numpy/shapely could compute a move differently).
:func:`undo` drops the last player answer (and the engine steps after it): replaying the rest
gives the state before that answer, and the dice already shown come out again in the same
order, never re-drawn. At the table, :func:`restore` starts from the state kept just before that
answer (:mod:`~solo_ops.game.undo_points`) rather than from set-up: the same actions make the
same state, so it is the game the replay gives, without the replay's CPU.

The event log is JSON lines: a header (scenario, seed and game id), then one record per step.
:func:`compare_log` checks a log against the game a save rebuilds.

Every save also holds a lossless :mod:`~solo_ops.game.checkpoint` of the state, with a hash
over its content and the fingerprints of the steps before it (:func:`checkpoint_hash`). When a
newer solo-ops plays the history differently (a rules fix), :func:`rebase` lets the game go on
from that checkpoint — only if it matches its hash and passes the checks a scenario passes
(:func:`solo_ops.game.checkpoint.check`): the save then carries it as its ``base`` and lists
only the actions since.

Schema history: 1 (solo-ops 0.1.0) had no game id, versions, step fingerprints, dice state or
log checksum; :data:`MIGRATIONS` adds the game id and leaves the rest empty (``None``), which
:func:`verify` then skips. 2 had no checkpoint or base (both ``None`` after migration). 3 had
no log chain, no checkpoint hash and no links. 4 was written by two lines of work at once,
each with one of the two additions 5 has both of: issue #31's 4 has the log chain and sealed
checkpoints but no links; issue #30's 4 has the links but no chain. 5 has the chain, the
sealed checkpoint and the links. A save without a chain (3, or #30's 4) migrates as 3 always
did: ``chain`` ``None`` (its log is checked by its checksum only) and every checkpoint
without a hash marked ``"unhashed": true`` (checked for sense only); a save without links
(3, or #31's 4) gets ``links: None`` (made when the game is next served). The event log's
header keeps its own version (:data:`LOG_SCHEMA_VERSION`): the links never go into the log.
"""

from __future__ import annotations

import hashlib
import json
import platform
import re
from collections.abc import Callable
from typing import Any

from solo_ops.core import seal
from solo_ops.core.dice import SCHEMES, SPLITMIX
from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.fields import read_links
from solo_ops.game import checkpoint
from solo_ops.game.definition import Game
from solo_ops.game.engine import new_game, step
from solo_ops.game.state import State
from solo_ops.game.undo_points import UndoPoints
from solo_ops.io.log_chain import LogChain
from solo_ops.io.scenario import parse_scenario

GAME_KIND = "solo-ops-game"
LOG_KIND = "solo-ops-log"
SCHEMA_VERSION = 6
LOG_SCHEMA_VERSION = 5
"""The event log header's version: 1–3 as the save's; 4 (issue #31) base lines carry a sealed
checkpoint and the fingerprints of the steps before it; 5 the header names its dice scheme
(``dice_scheme``; before it, ``splitmix64``). Not bumped by ``links`` (save 4/5): the links
never go into the log."""
READABLE_LOG_VERSIONS = (1, 2, 3, 4, 5)
SEALED_SINCE = 6
"""The first schema whose saves carry a seal (:mod:`solo_ops.core.seal`): one without it, or
whose seal does not match, was edited after it was saved."""
SEAL_DEPTH = 1
"""How deep a game save's seal names what changed: its top-level fields (``actions``,
``checkpoint``, ``snapshot``...)."""

def _canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      allow_nan=False).encode("utf-8")


def game_id(scenario_document: Any, seed: int | None, dice_scheme: Any) -> str:
    """The game's id: 16 hex digits of a checksum of its scenario document, seed and dice
    scheme, so the same scenario, seed and dice always name the same game (and an edited
    scenario another one). A game of the first scheme (``splitmix64``, every save before
    schema 6) keeps the id it was saved with: its checksum has no scheme in it."""
    named = [scenario_document, seed] if dice_scheme == SPLITMIX \
        else [scenario_document, seed, dice_scheme]
    return hashlib.sha256(_canonical(named)).hexdigest()[:16]


def id_of(doc: dict[str, Any]) -> str:
    """:func:`game_id` of a save document or a log header (its scenario, seed and scheme)."""
    return game_id(doc.get("scenario"), doc.get("seed"), doc.get("dice_scheme", SPLITMIX))


def id_of_game(game: Game) -> str:
    """:func:`game_id` of a game in memory."""
    return game_id(game.scenario.document, game.seed, game.dice_scheme)


def dice_scheme_of(doc: dict[str, Any], source: str) -> str:
    """The dice scheme a save or log header names (``splitmix64`` when it names none: written
    before schema 6), checked against :data:`~solo_ops.core.dice.SCHEMES`."""
    scheme = doc.get("dice_scheme", SPLITMIX)
    if not isinstance(scheme, str) or scheme not in SCHEMES:
        raise InputError(f"{excerpt(scheme)} is not a dice scheme this solo-ops knows "
                         f"({', '.join(SCHEMES)})", source=source, field="dice_scheme")
    return scheme


def versions() -> dict[str, str]:
    """The versions of what computes a game: solo-ops, Python, numpy, shapely and GEOS."""
    import numpy
    import shapely

    import solo_ops

    return {"solo_ops": solo_ops.__version__, "python": platform.python_version(),
            "numpy": numpy.__version__, "shapely": shapely.__version__,
            "geos": shapely.geos_version_string}


def step_print(record: dict[str, Any]) -> str:
    """A step's fingerprint: 12 hex digits over its number, its action and its dice faces
    (not the wording of events or rolls, which a later version may improve)."""
    faces = [r.get("faces") for r in record.get("rolls", [])]
    return hashlib.sha256(_canonical([record.get("n"), record.get("action"), faces])
                          ).hexdigest()[:12]


def actions_of(state: State, since: int = 1) -> list[dict[str, Any]]:
    """The actions applied since set-up (the set-up record is rebuilt from the seed), or since
    step ``since`` (a game going on from a checkpoint of that many steps)."""
    return [record["action"] for record in state.log[max(1, since):]]


def base_steps(game: Game) -> int:
    """How many steps the game's checkpoint holds (0 when it goes on from set-up)."""
    return int(game.base["steps"]) if game.base else 0


def game_document(game: Game, state: State, log: dict[str, Any] | None = None,
                  chain: LogChain | None = None, *, sealed: bool = True) -> dict[str, Any]:
    """The save file's content, sealed (:data:`SEAL_DEPTH`); ``log`` is the event log's
    :func:`~solo_ops.io.event_log.file_digest` and ``chain`` its :class:`LogChain` as of this
    save (``None`` when there is no log). ``sealed=False``: the content only, for a replay in
    memory (an undo) that writes nothing."""
    steps = [step_print(r) for r in state.log]
    doc = {
        "schema_version": SCHEMA_VERSION,
        "kind": GAME_KIND,
        "game_id": id_of_game(game),
        "seed": game.seed,
        "dice_scheme": game.dice_scheme,
        "versions": versions(),
        "scenario": game.scenario.document,
        "scenario_source": game.scenario.source,
        "actions": actions_of(state, base_steps(game)),
        "steps": steps,
        "dice": state.dice.state() if state.dice is not None else None,
        "log": log,
        "chain": None if chain is None else chain.to_dict(),
        "snapshot": state.to_dict(secrets=True),
        "checkpoint": hashed_checkpoint(state, steps),
        "base": game.base,
        "links": game.links,
    }
    return seal.sealed(doc, SEAL_DEPTH) if sealed else doc


def game_header(game: Game) -> dict[str, Any]:
    """What :func:`restore` reads of a save besides its actions, for a game in memory (an undo,
    a step taken back): :func:`game_document` without the state's parts, which cost a copy and
    a hash of the whole game."""
    return {"schema_version": SCHEMA_VERSION, "kind": GAME_KIND,
            "game_id": id_of_game(game), "seed": game.seed, "dice_scheme": game.dice_scheme,
            "scenario": game.scenario.document, "scenario_source": game.scenario.source,
            "base": game.base, "links": game.links}


def hashed_checkpoint(state: State, steps: list[str]) -> dict[str, Any]:
    """The state's :func:`~solo_ops.game.checkpoint.dump` with its ``hash``
    (:func:`checkpoint_hash` over it and the fingerprints ``steps`` of the steps before)."""
    data = checkpoint.dump(state)
    data["hash"] = checkpoint_hash(data, steps)
    return data


def checkpoint_hash(data: dict[str, Any], steps: Any) -> str:
    """SHA-256 over a checkpoint's content (its ``hash`` left out) and the fingerprints of the
    steps that led to it: a checkpoint edited by hand, or moved to a save whose steps were
    edited, no longer matches."""
    content = {k: v for k, v in data.items() if k not in ("hash", "unhashed")}
    return hashlib.sha256(_canonical([content, steps])).hexdigest()


def checkpoint_problem(doc: dict[str, Any]) -> str | None:
    """Why the save's checkpoint cannot be trusted, or None: its hash does not match its
    content and the save's steps (edited), or a save written with hashes lacks it."""
    data = doc.get("checkpoint")
    if not isinstance(data, dict):
        return None
    if data.get("unhashed") is True and "hash" not in data:
        return None  # written before checkpoints carried a hash (schema 3): checked for sense
    if not isinstance(data.get("hash"), str):
        return "it has no hash"
    if checkpoint_hash(data, doc.get("steps")) != data["hash"]:
        return "it does not match its hash (it or the steps before it were edited)"
    return None


def log_header(game: Game) -> dict[str, Any]:
    """The event log's first line: what game it is (scenario, seed and game id)."""
    return {"schema_version": LOG_SCHEMA_VERSION, "kind": LOG_KIND,
            "game_id": id_of_game(game), "seed": game.seed, "dice_scheme": game.dice_scheme,
            "scenario": game.scenario.document, "scenario_source": game.scenario.source}


def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    doc.setdefault("game_id", game_id(doc.get("scenario"), doc.get("seed"), SPLITMIX))
    for key in ("versions", "steps", "dice", "log"):
        doc.setdefault(key, None)
    return doc


def _v2_to_v3(doc: dict[str, Any]) -> dict[str, Any]:
    doc.setdefault("checkpoint", None)
    doc.setdefault("base", None)
    return doc


def _unchained(doc: dict[str, Any]) -> None:
    """A save written before the log chain: the chain is left out (its log is checked by its
    checksum) and the checkpoints are marked as written before hashes (checked for sense)."""
    doc.setdefault("chain", None)
    for data in (doc.get("checkpoint"), (doc.get("base") or {}).get("checkpoint")
                 if isinstance(doc.get("base"), dict) else None):
        if isinstance(data, dict) and "hash" not in data:
            data["unhashed"] = True


def _v3_to_v4(doc: dict[str, Any]) -> dict[str, Any]:
    """Schema 3 had no log chain and no checkpoint hash (:func:`_unchained`): it becomes a
    schema 4 save of issue #31's form (the links are :func:`_v4_to_v5`'s)."""
    _unchained(doc)
    return doc


def _v4_to_v5(doc: dict[str, Any]) -> dict[str, Any]:
    """Schema 4 came in two forms (see the module's schema history): issue #31's, with the
    log chain and a sealed checkpoint but no links, gets ``links: None``; issue #30's, with
    links but no chain, is treated as a save from before the chain (:func:`_unchained`), as a
    schema 3 save is. A save's ``chain`` key (``None`` when it had no log) tells them apart:
    every save of #31's form has it, none of #30's."""
    if "chain" not in doc:
        _unchained(doc)
    doc.setdefault("links", None)
    return doc


def _v5_to_v6(doc: dict[str, Any]) -> dict[str, Any]:
    """Schema 5 and older rolled SplitMix64: the save names that scheme, so it replays with
    the dice it was played with."""
    doc.setdefault("dice_scheme", SPLITMIX)
    return doc


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2,
                                                                       2: _v2_to_v3,
                                                                       3: _v3_to_v4,
                                                                       4: _v4_to_v5,
                                                                       5: _v5_to_v6}


def _check_scenario(doc: dict[str, Any], source: str) -> None:
    """Refuse a save's scenario that is not the game its id names: the scenario or the seed
    was edited after the game was saved. (Its size and content are checked as any
    scenario's, by :func:`~solo_ops.io.scenario.parse_scenario`.)"""
    saved = doc.get("game_id")
    if saved is not None and saved != id_of(doc):
        raise InputError("the scenario, the seed or the dice scheme is not the game the save's "
                         "id names (it was edited after the game was saved)", source=source,
                         field="game_id")


def restore(doc: dict[str, Any], source: str,
            actions: list[dict[str, Any]] | None = None, *,
            like: Game | None = None) -> tuple[Game, State]:
    """Rebuild a game from a save document (or a log header) by replaying its actions.
    ``like``: a game of the same scenario and seed already in memory (an undo), whose parsed
    scenario and compiled terrain are used again instead of being built anew (a terrain never
    changes, so the game replayed is the same), and whose kept states
    (:mod:`~solo_ops.game.undo_points`) let the replay start at the latest one the actions
    pass through. The game rebuilt keeps a state before each player answer it replays, for the
    next undo."""
    if not isinstance(doc, dict) or doc.get("kind") not in (GAME_KIND, LOG_KIND):
        raise InputError("not a solo-ops game save", source=source)
    version = doc.get("schema_version")
    readable = (SCHEMA_VERSION,) if doc.get("kind") == GAME_KIND else READABLE_LOG_VERSIONS
    if version not in readable:
        raise InputError(f"schema_version {version!r} is not one this solo-ops reads "
                         f"({', '.join(map(str, readable))})", source=source,
                         field="schema_version")
    if not isinstance(doc.get("seed"), int) or isinstance(doc.get("seed"), bool):
        raise InputError("missing or bad seed", source=source, field="seed")
    scheme = dice_scheme_of(doc, source)
    if doc.get("kind") == GAME_KIND:  # a log's header is replay's to judge (io.replay)
        _check_scenario(doc, source)
    todo = doc.get("actions", []) if actions is None else actions
    if not isinstance(todo, list):
        raise InputError("actions must be a list", source=source, field="actions")
    base = doc.get("base")
    points, start = UndoPoints(), None
    if like is not None and like.seed == doc["seed"] and like.dice_scheme == scheme \
            and like.scenario.document == doc.get("scenario"):
        if isinstance(like.undo_points, UndoPoints) and base == like.base:
            points = like.undo_points
            start = points.nearest(todo, max(1, base_steps(like)))
        if start is not None:  # its terrain shared, as new_game shares it
            game = Game(like.scenario, like.seed, dice_scheme=scheme)
            game.terrains = like.terrains
        else:
            game, state = new_game(like.scenario, doc["seed"], terrains=like.terrains,
                                   dice_scheme=scheme)
    else:
        scenario = parse_scenario(doc.get("scenario"), doc.get("scenario_source") or source)
        game, state = new_game(scenario, doc["seed"], dice_scheme=scheme)
    game.links = read_links(doc.get("links"), source)
    game.undo_points = points
    if like is not None and points is like.undo_points:
        game.pause_shown = like.pause_shown  # the steps kept were paused as they were then
    if base is not None:  # a game going on from a checkpoint (see rebase)
        if start is None:
            state = _from_base(base, game, source)
        game.base = base
    done = 0
    if start is not None:
        done, state, game.cp_plans = start.steps - max(1, base_steps(game)), start.state, \
            start.plans
    for i, action in enumerate(todo[done:], start=done):
        if not isinstance(action, dict):
            raise InputError("each action must be a mapping", source=source,
                             field=f"actions[{i}]")
        if action.get("type") != "engine":
            points.keep(game, state)
        try:
            step(game, state, action)
        except Exception as exc:  # a damaged or edited save: say where it broke
            raise InputError(f"replaying action {i + 1} failed: {exc}", source=source,
                             field=f"actions[{i}]") from None
    return game, state


def base_problem(base: Any) -> tuple[str, str] | None:
    """``(field, why)`` when a game's ``base`` (the checkpoint it went on from) is malformed
    or does not match its hash over the fingerprints of the steps before it, else None."""
    if not isinstance(base, dict):
        return "base", "expected the checkpoint the game went on from"
    steps = base.get("steps")
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
        return "base.steps", f"expected a number of steps, got {excerpt(steps)}"
    data = base.get("checkpoint")
    if not isinstance(data, dict):
        return "base.checkpoint", "expected a checkpoint"
    if data.get("unhashed") is True and "hash" not in data:
        return None  # a base taken before checkpoints carried a hash (schema 3)
    prints = base.get("prints")
    if not isinstance(data.get("hash"), str) or not isinstance(prints, list):
        return "base.checkpoint", "it has no hash"
    if len(prints) != steps or checkpoint_hash(data, prints) != data["hash"]:
        return "base.checkpoint", "it does not match its hash (it was edited)"
    return None


def _from_base(base: Any, game: Game, source: str) -> State:
    """The state a game's ``base`` holds, checked (its hash, then as a scenario is)."""
    problem = base_problem(base)
    if problem is not None:
        raise InputError(problem[1], source=source, field=problem[0])
    try:
        state = checkpoint.load(base["checkpoint"], game)
    except InputError as exc:
        raise exc.within(source, "base") from None
    if len(state.log) != base["steps"]:
        raise InputError(f"the checkpoint holds {len(state.log)} steps, the base says "
                         f"{base['steps']}", source=source, field="base.steps")
    return state


def _first_difference(saved: Any, rebuilt: Any, where: str) -> str | None:
    """The first place where ``rebuilt`` differs from ``saved``, comparing only what both
    have (a later version may add keys to the snapshot without changing the game)."""
    if isinstance(saved, dict) and isinstance(rebuilt, dict):
        for key in saved:
            if key in rebuilt:
                found = _first_difference(saved[key], rebuilt[key], f"{where}.{key}")
                if found:
                    return found
        return None
    if isinstance(saved, list) and isinstance(rebuilt, list) and any(
            isinstance(v, (dict, list)) for v in saved):
        if len(saved) != len(rebuilt):
            return f"{where}: {len(saved)} entries saved, {len(rebuilt)} now"
        for i, (a, b) in enumerate(zip(saved, rebuilt, strict=True)):
            label = a.get("id") if isinstance(a, dict) and "id" in a else i
            found = _first_difference(a, b, f"{where}[{label}]")
            if found:
                return found
        return None
    if saved != rebuilt:
        return f"{where}: saved {_short(saved)}, now {_short(rebuilt)}"
    return None


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def describe_step(record: dict[str, Any]) -> str:
    """A step in a few words: its number and its action."""
    action = record.get("action") or {}
    words = [str(action.get("type", "?"))]
    for key in ("operative", "how", "target", "to", "damage"):
        if action.get(key) is not None:
            value = action[key]
            words.append(",".join(f"{v:g}" for v in value) if isinstance(value, list)
                         and all(isinstance(v, (int, float)) for v in value) else str(value))
    return f"step {record.get('n', '?')} ({' '.join(words)})"


def verify(doc: dict[str, Any], state: State) -> str | None:
    """``None`` when the rebuilt ``state`` is the game the save ``doc`` recorded, else one
    sentence saying which step first differs (or, for saves without step fingerprints, what
    differs at the end) and which versions wrote the save."""
    problem = None
    prints = doc.get("steps")
    if isinstance(prints, list):
        for record, saved in zip(state.log, prints, strict=False):
            if step_print(record) != saved:
                problem = (f"{describe_step(record)} comes out differently now (other dice or "
                           "another action)")
                break
        else:
            if len(prints) != len(state.log):
                problem = (f"the save recorded {len(prints)} steps, replaying gives "
                           f"{len(state.log)}")
    dice = doc.get("dice")
    if problem is None and isinstance(dice, dict) and state.dice is not None:
        now = state.dice.state()
        if any(now.get(k) != dice.get(k) for k in ("seed", "counter", "seq") if k in dice):
            problem = "the dice have rolled a different number of times by the end"
    if problem is None and isinstance(doc.get("snapshot"), dict):
        found = _first_difference(doc["snapshot"], state.to_dict(secrets=True), "snapshot")
        if found:
            problem = f"the game ends differently ({found})"
    if problem is None:
        return None
    made = doc.get("versions")
    if isinstance(made, dict) and made:
        now = versions()
        changed = [f"{k} {made.get(k)} → {now[k]}" for k in now if made.get(k) != now[k]]
        problem += ("; it was written with " + ", ".join(changed) if changed
                    else "; it was written by these same versions")
    else:
        problem += "; it was written by solo-ops 0.1.0 or older"
    return problem


def compare_log(entries: list[dict[str, Any]], doc: dict[str, Any], state: State
                ) -> str | None:
    """``None`` when the event log ``entries`` (header included) describe the game ``state``
    rebuilt from the save ``doc`` — allowing a log that is only behind (steps the save has and
    the log lacks: a kill between the two writes) or ahead (a kill after the log was written,
    before the save) — else what first differs."""
    if not entries:
        return "the log is empty"
    header = entries[0]
    if header.get("kind") != LOG_KIND:
        return "the first line is not a solo-ops log header"
    if header.get("seed") != doc.get("seed"):
        return "the log is of another seed than the save"
    if header.get("dice_scheme", SPLITMIX) != doc.get("dice_scheme", SPLITMIX):
        return "the log's dice are not the save's (another dice scheme)"
    if header.get("game_id") is not None and header.get("game_id") != doc.get("game_id"):
        return "the log is of another game (its game id differs)"
    try:
        have = effective_records(entries[1:])
    except InputError as exc:
        return f"an undo line is damaged ({exc.message})"
    want = json.loads(json.dumps(state.log))
    base = doc.get("base")
    skip = base.get("steps", 0) if isinstance(base, dict) else 0  # before it: actions only
    for i, (record, rebuilt) in enumerate(zip(have, want, strict=False)):
        if i < skip:
            if record.get("action") != rebuilt.get("action"):
                return f"{describe_step(rebuilt)} differs: another action"
        elif record != rebuilt:
            return f"{describe_step(rebuilt)} differs: {record_difference(record, rebuilt)}"
    return None


def base_line(base: dict[str, Any]) -> dict[str, Any]:
    """The event-log line that marks where a game went on from its checkpoint (``replay``
    starts there: the steps before played under other rules)."""
    return {"base": base}


def last_base(entries: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The checkpoint the log's game last went on from (see :func:`base_line`), if any."""
    for entry in reversed(entries):
        if isinstance(entry.get("base"), dict):
            return entry["base"]
    return None


def _faces(value: Any) -> str:
    """Logged dice faces as written (``[4, 2]``) when they look like dice, else a short
    excerpt (a damaged log must not flood the terminal)."""
    if isinstance(value, list) and len(value) <= 12 and all(
            isinstance(f, int) and not isinstance(f, bool) and -100 < f < 100 for f in value):
        return str(value)
    return excerpt(value)


def record_difference(logged: dict[str, Any], rebuilt: dict[str, Any]) -> str:
    """What differs between a logged step and the same step replayed, in a few words."""
    if logged.get("action") != rebuilt.get("action"):
        return "another answer was logged"
    a, b = logged.get("rolls") or [], rebuilt.get("rolls") or []
    if not isinstance(a, list):
        return "its rolls are damaged"
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            faces = x.get("faces") if isinstance(x, dict) else x
            return (f"roll {i + 1} ({y.get('purpose', '?')}) is {_faces(faces)} in the log, "
                    f"the dice give {y.get('faces')}")
    if len(a) != len(b):
        return f"the log has {len(a)} rolls, the dice give {len(b)}"
    return _event_difference(logged.get("events"), rebuilt.get("events") or [])


def _event_difference(logged: Any, rebuilt: list[Any]) -> str:
    """Where a step's events differ when its answer and dice are the same: the first event
    that differs, its type and the fields that differ (a later version may word an event
    otherwise, e.g. an enemy's explanation; the answers and dice are what make the game)."""
    if not isinstance(logged, list):
        return "its events differ: they are damaged"
    for i, (x, y) in enumerate(zip(logged, rebuilt, strict=False)):
        if x == y:
            continue
        same = "; its answer and dice are the same"
        kind = _name(y.get("type", "?")) if isinstance(y, dict) else "?"
        if not isinstance(x, dict) or not isinstance(y, dict):
            return f"its events differ from event {i + 1} ({kind}){same}"
        keys = sorted(str(k) for k in x.keys() | y.keys() if x.get(k) != y.get(k))
        shown = ", ".join(_name(k) for k in keys[:3]) + (", …" if len(keys) > 3 else "")
        return f"its events differ from event {i + 1} ({kind}: {shown}){same}"
    return (f"its events differ: the log has {len(logged)}, the game makes {len(rebuilt)}; "
            "its answer and dice are the same")


def _name(value: Any) -> str:
    """An event's type or field as written when it looks like one, else a short excerpt."""
    text = str(value)
    return text if re.fullmatch(r"[\w-]{1,40}", text) else excerpt(value)


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


def rebase(doc: dict[str, Any], source: str, why: str, *, like: Game | None = None
           ) -> tuple[dict[str, Any], Game, State]:
    """Go on from the save's checkpoint when its history no longer replays into it (``why``:
    :func:`verify`'s sentence, or the replay's error): the game as it stood when saved, played
    on under this solo-ops's rules. The steps before stay in the event log to read; undo and
    ``replay`` start at the checkpoint. Raises :class:`InputError` when the save has no
    checkpoint (schema 1 and 2 saves): then the game cannot go on faithfully. ``like``: the
    game the replay rebuilt, whose compiled terrain is used again (a terrain never changes)."""
    data = doc.get("checkpoint")
    if not isinstance(data, dict):
        raise InputError(f"replaying this save gives a different game: {why}. It was written "
                         "before saves carried a checkpoint, so it cannot go on under this "
                         "version's rules; play it on with the versions that wrote it, or "
                         "start again with --new", source=source)
    problem = checkpoint_problem(doc)
    if problem is not None:
        raise InputError(f"{problem}; replaying the save gives a different game ({why}), so "
                         "it cannot go on from it: the save was edited (its .bak is the "
                         "version before the last step)", source=source, field="checkpoint")
    scheme = dice_scheme_of(doc, source)
    if like is not None and like.scenario.document == doc.get("scenario"):
        game = Game(like.scenario, doc["seed"], dice_scheme=scheme)  # the state is the
        game.terrains = like.terrains                                # checkpoint's: no set-up
    else:
        scenario = parse_scenario(doc.get("scenario"), doc.get("scenario_source") or source)
        game = Game(scenario, doc["seed"], dice_scheme=scheme)
    game.links = read_links(doc.get("links"), source)
    try:
        state = checkpoint.load(data, game)
    except InputError as exc:
        raise exc.within(source, None) from None
    prints = doc.get("steps")
    game.base = {"checkpoint": data, "steps": len(state.log), "why": why,
                 "versions": doc.get("versions"),
                 "prints": prints if isinstance(prints, list) else None}
    return game_document(game, state, doc.get("log"), _chain_of_doc(doc)), game, state


def _chain_of_doc(doc: dict[str, Any]) -> LogChain | None:
    """The log chain a save recorded, as a :class:`LogChain` (None when it has none)."""
    saved = doc.get("chain")
    if not isinstance(saved, dict) or not isinstance(saved.get("lines"), list) \
            or not isinstance(saved.get("head"), str):
        return None
    return LogChain(saved["head"], tuple(str(x) for x in saved["lines"]))
