"""Scenarios: the board, roster, squads, pre-placed enemies and counters, mission and settings.

:func:`parse_scenario` checks a scenario document (``shared/INTERFACES.md``) whose board and
roster are already inline; :func:`load_scenario` (the edge) reads a file and the board and
roster files it names, and inlines them, so a :class:`Scenario` always carries the complete
document that a save needs to rebuild the game anywhere. The data classes themselves
(:class:`Scenario`, its squads, enemies and counters) are :mod:`solo_ops.game.scenario`'s, so
the game never imports this file-reading module; they are re-exported here.

Extensions to the documented format: ``mission`` (see :mod:`solo_ops.game.missions`), ``settings``
(see :mod:`solo_ops.core.settings`), ``equipment`` (the 2024 card's universal equipment, turned into
terrain features and markers on the board) and, for squads, ``file:`` naming a squad file.
Squad models without ``at`` are deployed in the player drop zone by :mod:`solo_ops.game.deploy`.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.fields import Fields, Ids, join_path
from solo_ops.core.limits import SCENARIO
from solo_ops.core.model import Roster
from solo_ops.core.names import reserved_player
from solo_ops.core.settings import parse_settings
from solo_ops.game.equipment import apply_equipment, parse_equipment
from solo_ops.game.missions import parse_mission
from solo_ops.game.scenario import CounterSpec, EnemySpec, PlacedModel, Scenario, SquadSpec
from solo_ops.geometry.board import Board, parse_board
from solo_ops.geometry.shapes import check_points
from solo_ops.io import library
from solo_ops.io.roster import check_ranges_2018, parse_roster, profile_or_reference
from solo_ops.io.yamlio import read_document

EDITIONS = ("kt2024", "kt2018")
__all__ = ["CounterSpec", "EnemySpec", "PlacedModel", "Scenario", "SquadSpec",
           "check_squad", "load_scenario", "parse_scenario"]

SCENARIO_KEYS = ("name", "edition", "board", "roster", "engagement", "seed", "squads", "enemies",
                 "counters", "mission", "settings", "equipment", "notes")


def _placed(item: Any, source: str | None, path: str, roster: Roster | None,
            board: Board, require_at: bool, edition: str = "kt2024") -> PlacedModel:
    """A model entry; a squad model (``require_at`` False) may start hurt: ``wounds_lost``,
    the wounds it starts the game without (a campaign's unhealed wound), at least 1 left."""
    keys = ("id", "name", "profile", "at") if require_at else \
        ("id", "name", "profile", "at", "wounds_lost")
    m = Fields(item, source, path).only(keys)
    mid = m.text("id")
    raw_profile = m.raw("profile")
    profile = profile_or_reference(raw_profile, roster, source, join_path(path, "profile"), mid)
    default_name = profile.name if isinstance(raw_profile, str) else mid
    at = m.point("at", None)
    if at is None and require_at:
        raise m.error("at", "is required for an enemy model")
    if at is not None and not board.on_board(at[0], at[1]):
        raise m.error("at", f"point {at[0]:g},{at[1]:g} is off the board")
    lost = 0 if require_at else m.integer("wounds_lost", 0, minimum=0,
                                          maximum=profile.for_edition(edition).wounds)
    return PlacedModel(mid, m.text("name", default_name), profile, at, lost)


def _check_counts(doc: Fields) -> None:
    """Refuse more squads, models, enemy units or models, counters or equipment than
    :data:`solo_ops.core.limits.SCENARIO` allows, and a scenario too large to be saved, before
    anything is built from them."""
    _check_saved_size(doc.data, doc.source)
    for key, most in (("squads", SCENARIO.squads), ("enemies", SCENARIO.enemies),
                      ("counters", SCENARIO.counters), ("equipment", SCENARIO.equipment)):
        items = doc.sequence(key, [])
        if len(items) > most:
            raise doc.error(key, f"has {len(items)} entries; a scenario may have at most {most}")
        for i, item in enumerate(items):
            models = item.get("models") if isinstance(item, dict) else None
            if isinstance(models, list) and len(models) > SCENARIO.models:
                raise doc.error(join_path(join_path(key, i), "models"),
                                f"has {len(models)} models; at most {SCENARIO.models}")
    placed = sum(len(item["models"]) for item in doc.sequence("enemies", [])
                 if isinstance(item, dict) and isinstance(item.get("models"), list))
    if placed > SCENARIO.enemy_models:
        raise doc.error("enemies", f"place {placed} models in all; a scenario may place at "
                                   f"most {SCENARIO.enemy_models}")


def indented_size_bound(data: Any) -> int:
    """An upper bound of ``len(json.dumps(data, indent=2, ensure_ascii=False))`` from the
    compact text json's C encoder writes at once (with the same ``": "`` after keys): the
    indented text is that text plus, before each element and each non-empty container's
    closing bracket, a newline and at most two spaces a level of :func:`nesting`; an element
    follows a ``,``, a ``[`` or a ``{``, and a container opens with one (counted in strings
    too: more, never fewer)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ": "))
    opens = text.count("[") + text.count("{")
    return len(text) + (text.count(",") + 2 * opens) * (1 + 2 * nesting(data))


def nesting(data: Any) -> int:
    """How many lists and mappings deep ``data`` goes (0 for a plain value): level by level,
    without recursion."""
    deepest = 0
    level = [data] if isinstance(data, _CONTAINERS) else []
    while level:
        deepest += 1
        level = [v for value in level
                 for v in (value.values() if isinstance(value, dict) else value)
                 if isinstance(v, _CONTAINERS)]
    return deepest


_CONTAINERS = (dict, list, tuple)  # what json writes as an object or an array


def _check_saved_size(data: Any, source: str | None) -> None:
    """Refuse a scenario too large to be saved and read back: a save holds it whole, as
    indented JSON, and a save is at most the ``save`` limit of :data:`~solo_ops.core.limits.
    FILES` (see :attr:`~solo_ops.core.limits.ScenarioLimits.saved_bytes`)."""
    try:
        if indented_size_bound(data) <= SCENARIO.saved_bytes:
            return  # (every shipped scenario: 10-25 KiB)
        size = len(json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError):
        return  # not plain data: the field checks below say where
    if size > SCENARIO.saved_bytes:
        raise InputError(f"with its board, roster and squads it is {size} bytes as a save "
                         f"holds it; at most {SCENARIO.saved_bytes}", source=source)


def _squads(doc: Fields, roster: Roster | None, board: Board, edition: str,
            claim: Any) -> list[SquadSpec]:
    """The scenario's ``squads``: each player's models (ids claimed on the table)."""
    source = doc.source
    squads: list[SquadSpec] = []
    squad_items = doc.sequence("squads")
    if not squad_items:
        raise doc.error("squads", "needs at least one squad")
    for i, item in enumerate(squad_items):
        where = join_path("squads", i)
        s = Fields(item, source, where).only(("player", "name", "models"))
        models = []
        for j, model_item in enumerate(s.sequence("models")):
            mwhere = join_path(join_path(where, "models"), j)
            placed = _placed(model_item, source, mwhere, roster, board, require_at=False,
                             edition=edition)
            claim(placed.id, mwhere)
            models.append(placed)
        if not models:
            raise s.error("models", "a squad needs at least one model")
        player = s.text("player")
        if reserved_player(player):
            raise s.error("player", str(reserved_player(player)))
        if player in [q.player for q in squads]:
            raise s.error("player", f"two squads for player {excerpt(player)}")
        squads.append(SquadSpec(player, s.text("name", f"{player}'s squad"), tuple(models)))
    return squads


def parse_scenario(data: Any, source: str | None) -> Scenario:
    """Check a scenario document whose ``board`` and ``roster`` are inline mappings (counts
    limited by :data:`solo_ops.core.limits.SCENARIO`)."""
    doc = Fields(data, source).only(SCENARIO_KEYS)
    _check_counts(doc)
    edition = doc.choice("edition", EDITIONS, "kt2024")
    board_data = doc.raw("board")
    if not isinstance(board_data, dict):
        raise doc.error("board", "expected a board file path or an inline board")
    board = parse_board(board_data, source, "board")
    check_points(board, source, "board")
    roster = parse_roster(doc.raw("roster"), source, "roster") if doc.has("roster") else None
    equipment = parse_equipment(doc.sequence("equipment", []), source, board)
    board = apply_equipment(board, equipment)
    settings = parse_settings(doc.raw("settings", None), source)
    claim = Ids(source).claim
    squads = _squads(doc, roster, board, edition, claim)
    enemies = []
    for i, item in enumerate(doc.sequence("enemies", [])):
        where = join_path("enemies", i)
        e = Fields(item, source, where).only(("id", "command", "models"))
        uid = e.text("id")
        claim(uid, where)
        models = []
        for j, model_item in enumerate(e.sequence("models")):
            mwhere = join_path(join_path(where, "models"), j)
            placed = _placed(model_item, source, mwhere, roster, board, require_at=True)
            claim(placed.id, mwhere)
            models.append(placed)
        if not models:
            raise e.error("models", "an enemy unit needs at least one model")
        enemies.append(EnemySpec(uid, tuple(models), e.integer("command", None, minimum=1,
                                                                maximum=6)))
    counters = []
    for i, item in enumerate(doc.sequence("counters", [])):
        where = join_path("counters", i)
        c = Fields(item, source, where).only(("id", "at", "hidden_order"))
        cid = c.text("id")
        claim(cid, where)
        at = c.point("at")
        if not board.on_board(*at):
            raise c.error("at", f"point {at[0]:g},{at[1]:g} is off the board")
        counters.append(CounterSpec(cid, at, c.integer("hidden_order", None, minimum=1,
                                                       maximum=6)))
    _ranges_2018(edition, roster, squads, enemies, source)
    return Scenario(
        name=doc.text("name"),
        edition=edition,
        board=board,
        roster=roster,
        engagement=doc.integer("engagement", 0 if (enemies or counters) else 3, minimum=0,
                               maximum=6),
        seed=doc.integer("seed", None, minimum=0),
        squads=tuple(squads),
        enemies=tuple(enemies),
        counters=tuple(counters),
        mission=parse_mission(doc.raw("mission", None), source, edition, board),
        settings=settings,
        equipment=tuple(equipment),
        document=copy.deepcopy(dict(doc.data)),
        source=source,
    )


def _ranges_2018(edition: str, roster: Roster | None, squads: list[SquadSpec],
                 enemies: list[EnemySpec], source: str | None) -> None:
    """A Kill Team 2018 scenario: every ranged weapon of the roster's profiles, the squads'
    and the pre-placed enemies' has a range (a 2024 weapon may have none)."""
    if edition != "kt2018":
        return
    if roster is not None:
        for key, profile in roster.profiles.items():
            check_ranges_2018(profile, source, join_path("roster.profiles", key))
    for i, squad in enumerate(squads):
        for j, model in enumerate(squad.models):
            check_ranges_2018(model.profile, source,
                              join_path(join_path(join_path("squads", i), "models"), j))
    for i, unit in enumerate(enemies):
        for j, model in enumerate(unit.models):
            check_ranges_2018(model.profile, source,
                              join_path(join_path(join_path("enemies", i), "models"), j))


def _inline(doc: dict[str, Any], key: str, base: Path, source: str) -> None:
    """Replace a board or roster named by path (relative to the scenario) or by shipped name
    with the file's contents."""
    value = doc.get(key)
    if isinstance(value, str):
        found = library.resolve(key, value, base=base, source=source, field=key)
        data = read_document(found)
        # checked on its own first, so a mistake in the board or roster names that file
        (parse_board if key == "board" else parse_roster)(data, str(found))
        doc[key] = data


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario file (a path, or a shipped scenario's name) and the board/roster files
    it names (edge: file access)."""
    path = library.resolve("scenario", path)
    return parse_scenario(scenario_document(path), str(path))


def scenario_document(path: str | Path) -> dict[str, Any]:
    """A scenario file's document (a path, or a shipped scenario's name) with the board,
    roster and squad files it names read in, each checked on its own first: what
    :func:`load_scenario` parses, for a tool that changes a scenario before playing it (the
    benchmarks add enemy units; ``parse_scenario`` then checks the whole)."""
    path = library.resolve("scenario", path)
    data = read_document(path)
    if not isinstance(data, dict):
        raise InputError("expected a scenario mapping", source=str(path))
    data = dict(data)
    _inline(data, "board", path.parent, str(path))
    _inline(data, "roster", path.parent, str(path))
    _inline_squads(data, path.parent, str(path))
    return data


SQUAD_FILE_KEYS = ("player", "name", "models", "notes")
SQUAD_MODEL_KEYS = ("id", "name", "profile", "at", "notes")


def check_squad(data: Any, source: str | None) -> None:
    """Check a squad file on its own (``player``, ``name``, ``models`` each with ``id``,
    ``name``, an inline ``profile`` and optionally ``at``), so a mistake in it names the squad
    file, before a scenario or an encounter is built from it."""
    s = Fields(data, source).only(SQUAD_FILE_KEYS)
    player = s.text("player", None)
    if player is not None and reserved_player(player):
        raise s.error("player", str(reserved_player(player)))
    s.text("name", None)
    models = s.sequence("models")
    if not models:
        raise s.error("models", "a squad needs at least one model")
    if len(models) > SCENARIO.models:
        raise s.error("models", f"has {len(models)} models; at most {SCENARIO.models}")
    for j, item in enumerate(models):
        where = join_path("models", j)
        m = Fields(item, source, where).only(SQUAD_MODEL_KEYS)
        mid = m.text("id")
        m.text("name", None)
        profile_or_reference(m.raw("profile"), None, source, join_path(where, "profile"), mid)
        m.point("at", None)


def _inline_squads(doc: dict[str, Any], base: Path, source: str) -> None:
    """Replace each ``squads`` entry written as ``{file: PATH}`` (or a bare path) by the squad
    file's contents, so squads written for campaigns can be played in one-off scenarios."""
    items = doc.get("squads")
    if not isinstance(items, list):
        return
    out = []
    for i, item in enumerate(items):
        ref = item if isinstance(item, str) else (
            item.get("file") if isinstance(item, dict) and set(item) <= {"file", "player"}
            else None)
        if ref is None:
            out.append(item)
            continue
        where = f"squads[{i}]"
        if not isinstance(ref, str):
            raise InputError("file: expected a path to a squad file", source=source, field=where)
        squad_path = library.resolve("squad", ref, base=base, source=source,
                                     field=f"{where}.file")
        squad = read_document(squad_path)
        if not isinstance(squad, dict):
            raise InputError("expected a squad mapping (player, name, models)",
                             source=str(squad_path))
        check_squad(squad, str(squad_path))
        squad = dict(squad)
        if isinstance(item, dict) and "player" in item:
            squad["player"] = item["player"]
        out.append(squad)
    doc["squads"] = out
