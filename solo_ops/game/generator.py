"""The encounter generator behind ``solo-ops new``: tonight's game from a seed.

:func:`generate` is pure: given the candidate boards, rosters and squads (already read by the
command line, as documents) and the player's options, it picks with logged dice whatever the
options leave open and returns a scenario document that ``solo-ops play`` accepts, plus the
choices it made. The same seed and options always give the same encounter. The hidden
counters are not written into the scenario — ``play`` seeds them from the same seed — so
reading the file spoils nothing.

Choices where the options are silent (``docs/rules.md``):

* edition: Kill Team 2024, unless the board is a Pariah Nexus board (then 2018);
* board and roster: a logged die among the shipped ones (Pariah Nexus boards for 2018);
* engagement level: D3+1 (2-4), a table-friendly size; any 1-6 can be asked for; with a
  difficulty word (``Options.difficulty``) no die is rolled: the caller's ``Options.rate``
  rates the finished encounter's levels by simulated missions and picks one
  (:mod:`solo_ops.sim.difficulty`);
* Kill Team 2024 mission: a Crit Op and a Tac Op by logged dice, the Kill Op, primary op by
  die; Kill Team 2018: a Pariah Nexus matched play mission by D6, with the narrative effect
  tables that apply to the board rolled (the killzone's environment table, walls if it has
  walls, pitfalls if it has pitfalls, objectives if it has objective markers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solo_ops.core.dice import Dice
from solo_ops.core.errors import InputError
from solo_ops.core.tables import simple_table
from solo_ops.game.missions import CRIT_OPS, KILLZONE_TABLES, PRIMARY, TAC_OPS

PARIAH_KILLZONES = tuple(KILLZONE_TABLES)


@dataclass(frozen=True)
class Candidate:
    """A shipped (or given) file: its name, its reference in the scenario and its document."""

    name: str
    ref: str  # path as written into the scenario (relative to it), or "" to inline
    data: dict[str, Any]


@dataclass
class Options:
    edition: str | None = None
    board: Candidate | None = None
    roster: Candidate | None = None
    squads: list[Candidate] = field(default_factory=list)
    engagement: int | None = None
    crit_op: str | None = None
    tac_op: str | None = None
    pariah: str | None = None
    name: str | None = None
    # easy | normal | hard | brutal: the level is rated, the word shown beside it; "" rated,
    # nothing beside it (a campaign's threat: the rating's line says what it aimed at)
    difficulty: str | None = None
    # rate(scenario document) -> (engagement level, briefing line): the difficulty's rating
    rate: Callable[[dict[str, Any]], tuple[int, str]] | None = None


def _is_pariah(board: Candidate) -> bool:
    return board.data.get("killzone") in PARIAH_KILLZONES


def generate(boards: list[Candidate], rosters: list[Candidate], default_squads: list[Candidate],
             options: Options, dice: Dice, seed: int) -> tuple[dict[str, Any], list[str]]:
    """A scenario document and the briefing lines explaining each choice."""
    notes: list[str] = []
    edition = options.edition
    board = options.board
    if board is None:
        pool = [b for b in boards if _is_pariah(b) == (edition == "kt2018")] if edition \
            else [b for b in boards if not _is_pariah(b)]
        if not pool:
            pool = boards
        if not pool:
            raise InputError("no boards to choose from", source="--board")
        board = dice.choice("encounter: board", sorted(pool, key=lambda c: c.name))
        notes.append(f"Board: {board.data.get('name', board.name)} (rolled).")
    else:
        notes.append(f"Board: {board.data.get('name', board.name)}.")
    if edition is None:
        edition = "kt2018" if _is_pariah(board) else "kt2024"
    roster = options.roster
    if roster is None:
        if not rosters:
            raise InputError("no rosters to choose from", source="--roster")
        roster = dice.choice("encounter: enemy roster", sorted(rosters, key=lambda c: c.name))
        notes.append(f"Enemy: {roster.data.get('name', roster.name)} (rolled).")
    else:
        notes.append(f"Enemy: {roster.data.get('name', roster.name)}.")
    engagement = options.engagement
    rated = engagement is None and options.difficulty is not None
    if rated:
        if options.rate is None:
            raise InputError("a difficulty needs the rating of the encounter",
                             source="--difficulty")
        engagement = 1  # provisional: the rating below picks the level
    elif engagement is None:
        engagement = dice.d3("encounter: engagement level (D3+1)", [("+1", 1)]).value
        notes.append(f"Engagement level {engagement} (D3+1): {2 * engagement} hidden counters.")
    else:
        notes.append(f"Engagement level {engagement}: {2 * engagement} hidden counters.")
    mission = _mission(board, edition, options, dice, notes)
    squads = options.squads or default_squads
    if not squads:
        raise InputError("no squad to play with", source="--squad")
    doc: dict[str, Any] = {
        "name": options.name or f"{mission['name']} on {board.data.get('name', board.name)}",
        "edition": edition,
        "board": board.ref or board.data,
        "roster": roster.ref or roster.data,
        "engagement": engagement,
        "seed": seed,
        "mission": mission,
        "squads": [_squad_entry(s) for s in squads],
    }
    if rated:
        assert options.rate is not None
        level, line = options.rate(doc)
        doc["engagement"] = level
        label = f" ({options.difficulty})" if options.difficulty else ""
        notes.insert(2, f"Engagement level {level}{label}: {2 * level} hidden counters; {line}.")
    return doc, notes


def _squad_entry(squad: Candidate) -> dict[str, Any]:
    data = squad.data
    models = []
    for m in data.get("models", []):
        entry = {"id": m["id"], "profile": m["profile"]}
        if m.get("name"):
            entry["name"] = m["name"]
        if m.get("wounds_lost"):  # a campaign's model that starts hurt
            entry["wounds_lost"] = m["wounds_lost"]
        models.append(entry)
    return {"player": data.get("player", squad.name), "name": data.get("name", squad.name),
            "models": models}


def _mission(board: Candidate, edition: str, options: Options, dice: Dice,
             notes: list[str]) -> dict[str, Any]:
    if edition == "kt2018":
        table = simple_table("pn-missions")
        code = options.pariah
        if code is None:
            row = table[dice.d6("encounter: Pariah Nexus mission").face]
        else:
            row = next(r for r in table.rows.values() if r.code == code)
        # the name only: the mission's text is the briefing's (printed after these notes)
        notes.append(f"Mission: {row.title}{' (rolled)' if code is None else ''}.")
        effects: dict[str, int] = {}
        features = board.data.get("features", [])
        traits = {t for f in features for t in f.get("traits", [])}
        wanted = []
        if board.data.get("killzone") in KILLZONE_TABLES:
            wanted.append("killzone")
        wanted.append("environment")
        if "wall" in traits:
            wanted.append("walls")
        if "pitfall" in traits:
            wanted.append("pitfall")
        if board.data.get("objectives"):
            wanted.append("objective")
        for kind in wanted:
            name = KILLZONE_TABLES.get(board.data.get("killzone", "")) if kind == "killzone" \
                else {"environment": "pn-environment-effects", "walls": "pn-walls-effects",
                      "pitfall": "pn-pitfall-effects",
                      "objective": "pn-objective-effects"}[kind]
            assert name is not None
            effect_table = simple_table(name)
            face = dice.roll(f"encounter: {effect_table.title}", 1, effect_table.die).face
            effects[kind] = face
            notes.append(f"{effect_table.title}: {effect_table[face].title} — "
                         f"{effect_table[face].text}")
        return {"name": row.title, "pariah": row.code, "effects": effects}
    crit = options.crit_op or dice.choice("encounter: crit op", sorted(CRIT_OPS))
    tac = options.tac_op or dice.choice("encounter: tac op", sorted(TAC_OPS))
    primary = dice.choice("encounter: primary op", list(PRIMARY))
    name = {"seize-ground": "Seize Ground", "hold-the-line": "Hold the Line"}[crit]
    # the ops by name: their texts are the briefing's (printed after these notes)
    notes.append(f"Mission: {name}: Crit Op {crit}, Tac Op {tac}, primary op {primary}.")
    return {"name": name, "crit_op": crit, "tac_op": tac, "kill_op": True, "primary": primary}
