"""The machine-readable description of a Pariah Nexus effect: what die or check it changes,
how, and when.

Each row of a Pariah Nexus effect table (``solo_ops/data/tables/pn-*.yaml``) carries, besides
the printed ``text``, an ``effect:`` list of :class:`Change` entries. A change names the die
or check it changes (``to``), how (a few keys that depend on ``to``, listed in
:data:`SCHEMA`), and when it applies (``when``: the weapon, the phase, the distance between
attacker and target, a model's place on the board, the battle round's own rolled state). The
engine reads these (:mod:`solo_ops.rules.pariah` applies them, :mod:`solo_ops.game.pariah`
measures the places), so an effect is data rather than an ``if`` keyed by its name.

A *place* is a mapping with one of ``trait`` (board features with that trait: ``pitfall``,
``wall``), ``kind`` (board markers of that kind, or features whose label is those words:
``thermionic-annulus``, ``circuit-of-entropic-anguish``) or ``objective: any`` (the objective
markers), and one of ``within: N`` (a model's base within N" of it) or ``over: true`` (a
model's base over it: "on" the circuit, "on" a gyroflux tablet).

The loader refuses an unknown ``to``, key, condition or value with one line naming the table
and the field, so a damaged data file can never make an effect apply silently otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.fields import Fields, join_path

PLACE_KEYS = ("trait", "kind", "objective", "within", "over", "count", "roll")
"""Keys of a place (``count`` and ``roll``: a place an event picks at random)."""

_PHASES = ("movement", "shooting", "fight")
_MOVES = ("normal", "advance", "charge", "fall_back", "retreat", "any")

SCHEMA: dict[str, dict[str, str]] = {
    # dice the engine rolls, and what changes them
    "advance_roll": {"add": "int", "extra_die": "discard"},
    "charge_roll": {"add": "int", "extra_die": "discard"},
    "hit_roll": {"add": "int"},
    "overwatch_hit_roll": {"hits_on": "face"},
    "wound_roll": {"add": "int", "reroll": "faces"},
    "injury_roll": {"add": "int", "reroll": "faces"},
    "nerve_test": {"add": "int"},
    # characteristics and checks
    "strength": {"add": "int"},
    "save": {"invulnerable": "face_or_none", "improve": "int", "best": "face"},
    "obscured": {"set": "bool"},
    "react": {"forbidden": "bool"},
    "retreat": {"distance": "inches"},
    "advance_move": {"through": "place", "blocked_by": "place"},
    "move": {"blocked_by": "place", "frozen_on": "place"},
    "no_escape": {"terrain": "place"},
    "activation_order": {"first": "phases"},
    "access_override": {"doors": "all", "close": "bool", "blocked": "hazard"},
    # what happens at a moment of the battle round
    "round_start": {"roll": "die", "state": "state", "faces": "face_map", "hit_on": "face",
                    "pick": "place", "models": "place", "then": "then", "procedure": "procedure",
                    "chooser": "place"},
    "movement_end": {"pick": "place", "models": "place", "roll": "die", "hit_on": "face",
                     "then": "then", "line": "bool", "procedure": "procedure", "move": "inches"},
    "round_end": {"models": "place", "roll": "die", "hit_faces": "faces", "then": "then"},
    "after_move": {"moves": "moves", "procedure": "procedure", "within": "inches",
                   "land_within": "inches", "clear_of_enemies": "inches", "crosses": "place",
                   "roll": "die", "hit_on": "face", "then": "then"},
}
"""Each ``to`` and the keys its change may carry, with the kind of value each takes."""

WHEN: dict[str, str] = {
    "weapon": "melee_or_ranged",
    "phase": "phase",
    "range_over": "inches",  # the attacker and target more than N" apart
    "range_within": "inches",  # ... within N"
    "attacker": "place",  # the attacking model's base
    "target": "place",  # the attacked (or injured, or saving) model's base
    "model": "place",  # the model the roll or check is for (Advance, charge, Nerve, React)
    "charge_target": "place",  # any target of the charge
    "firing_point": "bool",  # the attacker benefits from a firing point
    "no_escape": "bool",  # the attack gains No Escape's advantage
    "round": "round_state",  # the battle round's rolled state (lighting, divisors)
}
"""The conditions a change's ``when`` may name, with the kind of value each takes."""

THEN = ("mortal_wound", "shaken")
ROUND_STATES = ("lighting", "lacerators", "divisors")
"""What a battle round's effects may set: Power Surges' lighting, the spatial lacerators
selected, Power Flux's petrific divisors."""
PROCEDURES = ("translocate", "circuit_focusing", "erratic_teleportation",
              "structural_transponder")


@dataclass(frozen=True)
class Place:
    """Where a condition or an event looks: features with a ``trait``, markers or features of
    a ``kind``, or the objective markers; a model ``within`` N" of it or ``over`` it. ``count``
    and ``roll``: an event picks that many of them at random (``roll: d6``: by a D6 naming
    one, 004 "roll one D6 to randomly determine one spatial lacerator")."""

    trait: str | None = None
    kind: str | None = None
    objective: bool = False
    within: float | None = None
    over: bool = False
    count: int = 0
    roll: str | None = None

    def words(self) -> str:
        """The place in a few words: ``a pitfall``, ``the circuit of entropic anguish``."""
        what = (f"a {self.trait}" if self.trait else "an objective marker" if self.objective
                else f"a {str(self.kind).replace('-', ' ')}")
        if self.over:
            return f"on {what}"
        if self.within is not None:
            return f"within {self.within:g}\" of {what}"
        return what


@dataclass(frozen=True)
class Change:
    """One thing an effect changes: ``to`` (the die or check, a key of :data:`SCHEMA`), its
    ``params`` and the conditions ``when`` it applies."""

    to: str
    params: Mapping[str, Any] = field(default_factory=dict)
    when: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


@dataclass(frozen=True)
class Effect:
    """A Pariah Nexus effect in force: its table row's ``code``, ``title``, printed ``text``
    and the :class:`Change` entries the engine applies."""

    code: str
    title: str
    text: str
    changes: tuple[Change, ...] = ()

    def of(self, to: str) -> list[Change]:
        """This effect's changes to ``to``."""
        return [c for c in self.changes if c.to == to]


def _error(source: str | None, path: str, message: str) -> InputError:
    return InputError(message, source=source, field=path)


def parse_place(value: Any, source: str | None, path: str) -> Place:
    """A place mapping (see the module docstring)."""
    doc = Fields(value, source, path).only(PLACE_KEYS)
    which = [k for k in ("trait", "kind", "objective") if doc.has(k)]
    if len(which) != 1:
        raise doc.error(None, "a place names one of trait, kind or objective")
    objective = False
    if doc.has("objective"):
        doc.choice("objective", ("any",))
        objective = True
    return Place(trait=doc.text("trait", None), kind=doc.text("kind", None),
                 objective=objective, within=doc.number("within", None, minimum=0),
                 over=doc.boolean("over", False), count=doc.integer("count", 0, minimum=0,
                                                                maximum=6),
                 roll=doc.choice("roll", ("d6",), None))


def _value(kind: str, value: Any, source: str | None, parent: str, key: str) -> Any:
    """The value ``value`` of key ``key`` (under ``parent``), of kind ``kind`` (the kinds
    :data:`SCHEMA` and :data:`WHEN` name)."""
    holder = Fields({key: value}, source, parent)
    path = join_path(parent, key)
    if kind == "int":
        return holder.integer(key, minimum=-6, maximum=6)
    if kind == "inches":
        return float(holder.number(key, minimum=0, maximum=30))
    if kind == "face":
        return holder.integer(key, minimum=1, maximum=6)
    if kind == "face_or_none":
        if value == "none":
            return "none"
        return holder.integer(key, minimum=2, maximum=6)
    if kind == "faces":
        faces = holder.sequence(key)
        for i, f in enumerate(faces):
            if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6:
                raise _error(source, join_path(path, i), f"expected a die face 1-6, got "
                             f"{excerpt(f)}")
        return tuple(faces)
    if kind == "bool":
        return holder.boolean(key)
    if kind == "discard":
        return holder.choice(key, ("discard_highest", "discard_lowest"))
    if kind == "die":
        return holder.choice(key, ("d6", "d3"))
    if kind == "procedure":
        return holder.choice(key, PROCEDURES)
    if kind == "state":
        return holder.choice(key, ROUND_STATES)
    if kind == "then":
        return holder.choice(key, THEN)
    if kind == "all":
        return holder.choice(key, ("all",))
    if kind == "phase":
        return holder.choice(key, _PHASES)
    if kind == "phases":
        phases = holder.sequence(key)
        for i, p in enumerate(phases):
            if p not in _PHASES:
                raise _error(source, join_path(path, i), f"unknown phase {excerpt(p)} "
                             f"(expected one of: {', '.join(_PHASES)})")
        return tuple(phases)
    if kind == "moves":
        moves = holder.sequence(key)
        for i, m in enumerate(moves):
            if m not in _MOVES:
                raise _error(source, join_path(path, i), f"unknown move {excerpt(m)} "
                             f"(expected one of: {', '.join(_MOVES)})")
        return tuple(moves)
    if kind == "melee_or_ranged":
        return holder.choice(key, ("melee", "ranged"))
    if kind == "place":
        return parse_place(value, source, path)
    if kind == "face_map":
        faces = Fields(value, source, path)
        out: dict[int, str] = {}
        for k in faces.data:
            face = int(k) if str(k).isdigit() else 0
            if not 1 <= face <= 6:
                raise faces.error(str(k), "is not a die face")
            out[face] = faces.text(k)
        if sorted(out) != [1, 2, 3, 4, 5, 6]:
            raise faces.error(None, "must give each face 1-6 once")
        return out
    if kind == "round_state":
        states = Fields(value, source, path)
        return {str(k): states.text(k) for k in states.data}
    if kind == "hazard":
        hazard = Fields(value, source, path).only(("roll", "hit_on", "then"))
        return {"roll": hazard.choice("roll", ("d6",)), "hit_on": hazard.integer(
            "hit_on", minimum=1, maximum=6), "then": hazard.choice("then", THEN)}
    raise AssertionError(kind)  # pragma: no cover - every kind of SCHEMA is handled


def parse_changes(value: Any, source: str | None, path: str) -> tuple[Change, ...]:
    """An ``effect:`` list (see the module docstring and :data:`SCHEMA`)."""
    if not isinstance(value, list):
        raise _error(source, path, "expected a list of changes")
    out = []
    for i, item in enumerate(value):
        where = join_path(path, i)
        doc = Fields(item, source, where)
        to = doc.choice("to", tuple(SCHEMA))
        allowed = SCHEMA[to]
        doc.only(("to", "when", *allowed))
        params = {k: _value(allowed[k], doc.data[k], source, where, k)
                  for k in doc.data if k in allowed}
        when: dict[str, Any] = {}
        if doc.has("when"):
            cond = doc.mapping("when").only(WHEN)
            when = {k: _value(WHEN[k], cond.data[k], source, cond.path, k)
                    for k in cond.data}
        out.append(Change(to, params, when))
    return tuple(out)
