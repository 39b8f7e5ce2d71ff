"""The solo supplement's d6 tables, held as data files and checked face by face on loading.

The files live in ``solo_ops/data/tables/``. An order table (Melee, Fire Teams, Support) maps
each face to the five printed instructions; ``vocabulary.yaml`` says what each printed text
means. The hidden-enemy and enemy-count tables map each face to a printed text and a code.
Loading refuses a table whose faces are not exactly 1..N (missing, extra or duplicated faces,
the last caught by a YAML loader that rejects repeated keys) and any text the vocabulary does
not know, so a damaged data file can never make the AI improvise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from solo_ops.core.documents import parse_yaml_text
from solo_ops.core.effects import Change, Effect, parse_changes
from solo_ops.core.errors import InputError
from solo_ops.core.fields import Fields

ORDER_FIELDS = ("move", "cover", "shoot", "charge", "allies")


class TroopType(StrEnum):
    """The supplement's troop types: each picks its own order table."""

    MELEE = "melee"
    FIRE_TEAMS = "fire-teams"
    SUPPORT = "support"

    @property
    def title(self) -> str:  # type: ignore[override]  # the printed name, not str.title()
        """The troop type as the supplement prints it ("Fire Teams")."""
        return {"melee": "Melee", "fire-teams": "Fire Teams", "support": "Support"}[self.value]


@dataclass(frozen=True)
class Instruction:
    """One cell of an order table: the printed text, its code, a sentence for players and the
    words players are shown (the printed text with its typos, ' for inches and footnote marks
    put right; the text itself when it has none)."""

    text: str
    code: str
    explain: str
    words: str = ""

    @property
    def shown(self) -> str:
        """What players read: the corrected words (``text`` is the source's print)."""
        return self.words or self.text


@dataclass(frozen=True)
class Order:
    """One row of an order table: the five instructions a unit follows all game."""

    move: Instruction
    cover: Instruction
    shoot: Instruction
    charge: Instruction
    allies: Instruction

    def codes(self) -> dict[str, str]:
        """``{"move": "to_cover", ...}``: what the engine executes."""
        return {name: getattr(self, name).code for name in ORDER_FIELDS}

    def texts(self) -> dict[str, str]:
        """``{"move": "To Cover", ...}``: the words players are shown (typos corrected)."""
        return {name: getattr(self, name).shown for name in ORDER_FIELDS}

    def source_texts(self) -> dict[str, str]:
        """``{"move": "Towards closet enemy", ...}``: the table's cells exactly as printed."""
        return {name: getattr(self, name).text for name in ORDER_FIELDS}

    def words(self) -> str:
        """The order in one line: ``Move: To Cover · Cover: Use if possible · ...``."""
        return " · ".join(f"{name.title()}: {getattr(self, name).shown}"
                          for name in ORDER_FIELDS)


@dataclass(frozen=True)
class OrderTable:
    """A whole order table (one troop type): faces 1..6 to :class:`Order`."""

    name: str
    title: str
    rows: Mapping[int, Order]

    def __getitem__(self, face: int) -> Order:
        return self.rows[face]


@dataclass(frozen=True)
class TableRow:
    """One row of the hidden-enemy or enemy-count table."""

    face: int
    code: str
    text: str
    enemies: int = 0
    title: str | None = None
    words: str = ""
    effect: tuple[Change, ...] = ()
    """A Pariah Nexus effect's changes to the dice and checks, as data
    (:mod:`solo_ops.core.effects`)."""

    @property
    def shown(self) -> str:
        """What players read: the corrected words (``text`` is the source's print)."""
        return self.words or self.text

    def as_effect(self) -> Effect:
        """This row as a Pariah Nexus effect in force."""
        return Effect(self.code, self.title or self.code, self.text, self.effect)


@dataclass(frozen=True)
class SimpleTable:
    """A d6 table of coded rows (hidden enemy, enemy count, and the Pariah Nexus effects)."""

    name: str
    title: str
    die: int
    rows: Mapping[int, TableRow]

    def __getitem__(self, face: int) -> TableRow:
        return self.rows[face]


def _die_sides(die: str, where: Fields) -> int:
    if die not in ("d3", "d6"):
        raise where.error("die", f"unknown die {die!r} (expected d3 or d6)")
    return int(die[1:])


def _faces(doc: Fields, sides: int) -> dict[int, Any]:
    """Check that ``faces`` has exactly the faces 1..sides and return them keyed by int."""
    faces = doc.mapping("faces")
    seen: dict[int, Any] = {}
    for key, value in faces.data.items():
        try:
            face = int(key)
        except (TypeError, ValueError):
            raise faces.error(str(key), "is not a die face") from None
        if str(face) != str(key).strip() or not 1 <= face <= sides:
            raise faces.error(str(key), f"extra face: a d{sides} has faces 1 to {sides}")
        if face in seen:
            raise faces.error(str(key), "duplicate face")
        seen[face] = value
    missing = [f for f in range(1, sides + 1) if f not in seen]
    if missing:
        raise faces.error(None, f"missing face {missing[0]}")
    return seen


def parse_vocabulary(data: Any, source: str) -> dict[str, dict[str, Instruction]]:
    """Parse ``vocabulary.yaml``: for each order field, printed text -> :class:`Instruction`."""
    doc = Fields(data, source).only(ORDER_FIELDS)
    vocab: dict[str, dict[str, Instruction]] = {}
    for name in ORDER_FIELDS:
        section = doc.mapping(name)
        vocab[name] = {}
        for text in section.data:
            entry = section.mapping(str(text)).only(("code", "explain", "words"))
            vocab[name][str(text)] = Instruction(
                str(text), entry.text("code"), entry.text("explain"), entry.text("words", "")
            )
    return vocab


def parse_order_table(
    data: Any, source: str, vocabulary: dict[str, dict[str, Instruction]]
) -> OrderTable:
    """Parse one order table, translating every printed cell through ``vocabulary``."""
    doc = Fields(data, source).only(("name", "title", "kind", "die", "faces"))
    if doc.text("kind") != "order":
        raise doc.error("kind", "an order table must have kind: order")
    sides = _die_sides(doc.text("die"), doc)
    rows: dict[int, Order] = {}
    for face, row in _faces(doc, sides).items():
        cells = Fields(row, source, f"faces.{face}").only(ORDER_FIELDS)
        instructions = {}
        for name in ORDER_FIELDS:
            text = cells.text(name)
            if text not in vocabulary[name]:
                raise cells.error(name, f"unknown {name} instruction {text!r}")
            instructions[name] = vocabulary[name][text]
        rows[face] = Order(**instructions)
    return OrderTable(doc.text("name"), doc.text("title"), rows)


def parse_simple_table(data: Any, source: str) -> SimpleTable:
    """Parse a coded d6/d3 table (hidden enemy, enemy count, Pariah Nexus effects)."""
    doc = Fields(data, source).only(("name", "title", "kind", "die", "faces", "source"))
    sides = _die_sides(doc.text("die"), doc)
    rows = {}
    for face, row in _faces(doc, sides).items():
        cells = Fields(row, source, f"faces.{face}").only(("code", "text", "enemies", "title",
                                                          "words", "effect"))
        rows[face] = TableRow(
            face,
            cells.text("code"),
            cells.text("text"),
            cells.integer("enemies", 0, minimum=0, maximum=4),
            cells.text("title", None),
            cells.text("words", ""),
            parse_changes(cells.raw("effect"), source, f"faces.{face}.effect")
            if cells.has("effect") else (),
        )
    return SimpleTable(doc.text("name"), doc.text("title"), sides, rows)


def _read_data(name: str) -> tuple[Any, str]:
    path = resources.files("solo_ops").joinpath("data", "tables", f"{name}.yaml")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("table file is missing", source=f"data/tables/{name}.yaml") from None
    source = f"data/tables/{name}.yaml"
    return parse_yaml_text(text, source), source


@cache
def vocabulary() -> dict[str, dict[str, Instruction]]:
    """The shipped vocabulary of printed order texts."""
    return parse_vocabulary(*_read_data("vocabulary"))


def order_table(troop: TroopType | str) -> OrderTable:
    """The shipped order table for ``troop`` (``melee``, ``fire-teams`` or ``support``), read
    once per process whether it is asked by name or by :class:`TroopType` (one cache, keyed by
    the troop type: a unit's troop is kept as its name)."""
    return _order_table(TroopType(troop))


@cache
def _order_table(troop: TroopType) -> OrderTable:
    data, source = _read_data(troop.value)
    return parse_order_table(data, source, vocabulary())


def order_tables() -> dict[TroopType, OrderTable]:
    """Every shipped order table, read now (each is read once per process): a game reads
    them when it is made (:func:`solo_ops.game.engine.new_game`), so that the enemy's first
    turn at the table does not pause to parse them."""
    return {troop: order_table(troop) for troop in TroopType}


@cache
def simple_table(name: str) -> SimpleTable:
    """A shipped coded table by file name: ``hidden-enemy``, ``enemy-count``, ..."""
    return parse_simple_table(*_read_data(name))


def hidden_enemy_table() -> SimpleTable:
    return simple_table("hidden-enemy")


def enemy_count_table() -> SimpleTable:
    return simple_table("enemy-count")


def table_names() -> list[str]:
    """Every shipped table, by the name ``solo-ops tables show`` accepts."""
    folder = resources.files("solo_ops").joinpath("data", "tables")
    names = sorted(
        p.name.removesuffix(".yaml") for p in folder.iterdir() if p.name.endswith(".yaml")
    )
    return [n for n in names if n != "vocabulary"]
