"""The playthrough state: what changes during a game.

:class:`State` holds the operatives of both sides, the enemy units and their state-machine
states (as strings), the hidden counters, door and hatch positions, the turn and phase, victory
points and the event log. It changes only through :func:`solo_ops.game.engine.step`. A save never
pickles it: a game is saved as the scenario, the seed and the list of applied actions, and
rebuilt by replaying them (:mod:`solo_ops.game.engine`); :meth:`State.to_dict` is a read-only
snapshot for views, checks and the campaign.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from solo_ops.core.dice import Dice
from solo_ops.core.model import MM_PER_INCH, Profile
from solo_ops.geometry.placement import Base
from solo_ops.rules import reach

PLAYER = "player"
ENEMY = "enemy"
COUNTER_BASE_MM = 32.0
COUNTER_RADIUS = COUNTER_BASE_MM / MM_PER_INCH / 2.0
"""A hidden counter's base (the supplement's counters are 32 mm tokens)."""


@dataclass
class Operative:
    """One miniature on the table, of either side."""

    id: str
    name: str
    side: str  # PLAYER or ENEMY
    owner: str  # the player's name, or the enemy unit's id
    profile: Profile
    at: tuple[float, float] | None
    wounds: int
    down: bool = False  # incapacitated (2024) / out of action (2018)
    stance: str = "conceal"  # Kill Team 2024 order: "engage" or "conceal"
    activated: bool = False  # expended this turning point / has acted this phase
    moved: bool = False  # moved during its current activation / this battle round
    moved_how: str | None = None  # "reposition", "dash", "charge", "fall_back", "advance"
    charged: bool = False
    fell_back: bool = False
    shot: bool = False
    fought: bool = False
    ap_used: int = 0
    apl_penalty: int = 0  # Stun, stun grenades: -1 APL until the end of its next activation
    stun_carries: bool = False  # stunned during its own activation: the penalty outlasts it
    carrying: str | None = None  # id of the downed friend it carries
    carried_by: str | None = None
    carried_to_safety: bool = False
    picked_up: bool = False  # it picked a downed friend up this turn (003 Carrying: "this
    #                          ends all actions for this turn"; a 2018 battle round's phases)
    wounds_lost: int = 0  # over the whole mission (for survival tests)
    went_down: bool = False
    flesh_wounds: int = 0  # Kill Team 2018
    shaken: bool = False  # Kill Team 2018
    readied: bool = False  # Kill Team 2018 "Ready"
    advanced: bool = False  # Kill Team 2018
    advance_roll: int | None = None  # Kill Team 2018: its Advance roll this movement phase
    charge_roll: int | None = None  # Kill Team 2018: its charge roll this movement phase
    charge_target: str | None = None  # Kill Team 2018: the target of its declared charge
    started_within: str | None = None  # Kill Team 2018: the enemy it stood within 1" of when
    # the movement phase began (004 Falling Back: it may only remain stationary or Fall Back)
    turn_move: float = 0.0  # inches moved this turn (a carrier may move at most 4")
    actions_taken: list[str] = field(default_factory=list)  # this activation (2024)
    portals_operated: list[str] = field(default_factory=list)  # the doors and hatches it
    #                                  opened or closed this activation (2024: each once)
    limited_uses: dict[str, int] = field(default_factory=dict)  # Limited x: uses per weapon
    mines_triggered: bool = False
    on_guard: bool = False  # Gallowdark Guard (2024): may interrupt an enemy activation
    no_retaliation: bool = False  # it shot On Guard within control range: it cannot retaliate
    #                              to fights until that enemy activation ends (Gallowdark)
    heavy_shot: str | None = None  # the Heavy weapon it shot this activation (no move after)
    move_left: float | None = None  # the movement its last move left (a door or hatch opened
    #                                 on the way: the rest of that move may follow, referee)
    marker: str | None = None  # the objective marker it carries (2024 Pick Up; not `carrying`)

    @property
    def alive(self) -> bool:
        return not self.down

    @property
    def on_table(self) -> bool:
        return self.at is not None and not self.down

    @property
    def radius(self) -> float:
        return self.profile.base_radius

    @property
    def lying(self) -> bool:
        """A downed operative of the players' side that still lies on the table, neither
        carried nor carried off: its base stays there (it can be carried, RULES-NOTES
        "Carrying") and no other base may stand on it (issue #27, ``docs/rules.md``). A downed
        enemy model is removed from the killzone."""
        return (self.down and self.side == PLAYER and self.at is not None
                and self.carried_by is None and not self.carried_to_safety)

    @property
    def has_base(self) -> bool:
        """Whether its base is on the table: standing (:attr:`on_table`) or :attr:`lying`."""
        return self.on_table or self.lying

    @property
    def label(self) -> str:
        """How texts name it: an enemy model by its id (the id on the map; several models may
        share a profile name), a player's operative by its name ("Sgt Kell")."""
        return self.id if self.side == ENEMY else self.name

    @property
    def injured(self) -> bool:
        """Kill Team 2024: fewer than half its wounds left (-1 to hit, -2" move)."""
        return self.wounds * 2 < self.profile.wounds

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id, "name": self.name, "side": self.side, "owner": self.owner,
            "profile": self.profile.name,
            "at": [round(self.at[0], 3), round(self.at[1], 3)] if self.at else None,
            "wounds": self.wounds, "max_wounds": self.profile.wounds, "down": self.down,
            "stance": self.stance, "activated": self.activated,
        }
        for key in ("carrying", "carried_by", "marker"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        if self.carried_to_safety:
            data["carried_to_safety"] = True
        if self.flesh_wounds:
            data["flesh_wounds"] = self.flesh_wounds
        if self.shaken:
            data["shaken"] = True
        if self.injured and not self.down:
            data["injured"] = True
        if self.on_guard and not self.down:
            data["on_guard"] = True
        if self.apl_penalty and not self.down:
            data["stunned"] = True  # Stun: -1 APL until the end of its next activation
        if self.limited_uses:
            data["limited_uses"] = dict(self.limited_uses)
        for key in ("readied", "advanced", "charged", "fell_back"):  # Kill Team 2018 (shown)
            if getattr(self, key) and not self.down:
                data[key] = True
        return data


@dataclass
class Unit:
    """An enemy unit: models that act together under one order."""

    id: str
    models: list[str]
    troop: str  # TroopType value
    command: int
    leadership: int
    fsm: str = "idle"  # the shared state machine's state, as a string
    activated: bool = False
    origin: str | None = None  # the counter it was revealed from, if any
    merged_into: str | None = None

    @property
    def active(self) -> bool:
        return self.fsm not in ("destroyed", "merged")

    def to_dict(self) -> dict[str, Any]:
        data = {"id": self.id, "models": list(self.models), "type": self.troop,
                "command": self.command, "leadership": self.leadership, "state": self.fsm,
                "activated": self.activated}
        if self.merged_into:
            data["merged_into"] = self.merged_into
        return data


@dataclass
class Counter:
    """A hidden fog-of-war counter. Its ``hidden_order`` is its command and is secret."""

    id: str
    at: tuple[float, float]
    hidden_order: int
    sector: int
    resolve_first_turn: bool = False
    resolved: bool = False
    ambush: bool = False  # placed by an ambush: resolve re-rolling 1s and 6s
    joined: str | None = None  # the counter it joined (hidden-enemy rows 3 and 6)
    settled: bool = False  # hidden-enemy row 2: reached cover, now remains stationary

    @property
    def active(self) -> bool:
        return not self.resolved and self.joined is None

    def secret_dict(self) -> dict[str, Any]:
        """Everything, hidden facts included: for saves and the debug view only."""
        return {"id": self.id, "at": [round(self.at[0], 3), round(self.at[1], 3)],
                "sector": self.sector, "hidden_order": self.hidden_order,
                "resolve_first_turn": self.resolve_first_turn, "resolved": self.resolved,
                "joined": self.joined}


@dataclass
class State:
    """Everything that changes during a game (see the module docstring)."""

    edition: str
    operatives: dict[str, Operative] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    counters: dict[str, Counter] = field(default_factory=dict)
    doors: dict[str, bool] = field(default_factory=dict)
    turn: int = 0  # turning point (2024) or battle round (2018); 0 = set-up
    phase: str = "setup"
    initiative: str | None = None
    next_side: str | None = None
    next_player_index: int = 0
    vp: dict[str, int] = field(default_factory=lambda: {PLAYER: 0, ENEMY: 0})
    op_vp: dict[str, int] = field(default_factory=dict)
    cp: dict[str, int] = field(default_factory=dict)
    incapacitated_this_turn: dict[str, int] = field(default_factory=lambda: {PLAYER: 0, ENEMY: 0})
    incapacitated_total: dict[str, int] = field(default_factory=lambda: {PLAYER: 0, ENEMY: 0})
    pending_attacks: list[dict[str, Any]] = field(default_factory=list)
    spent_markers: list[str] = field(default_factory=list)  # mines that have gone off
    active_operative: str | None = None
    activation_actions: int = 0  # actions the active player operative has completed (Guard)
    active_player: str | None = None
    counteracting: bool = False  # the active player operative is counteracting (2024)
    counteracted: list[str] = field(default_factory=list)  # models that counteracted this TP
    markers_at: dict[str, list[float]] = field(default_factory=dict)
    """Objective markers placed down away from their board position: id -> [x, y]."""
    override_used: bool = False  # Access Override (2018) used in this battle round
    removed_features: list[str] = field(default_factory=list)
    """Kill Team 2018: terrain features the players removed (004 Structural Transponder)."""
    round_effects: dict[str, Any] = field(default_factory=dict)
    """Kill Team 2018: what the Pariah Nexus effects rolled or picked for this battle round
    (``lighting``, ``lacerators``, ``divisors``, ``frozen``: :mod:`solo_ops.game.pariah_events`),
    emptied as each battle round starts."""
    idle_told: list[str] = field(default_factory=list)
    """Why the enemy had nothing to activate, as told this turning point (2018: this phase):
    each reason is told once (``turns.enemy_idle``)."""
    ended: bool = False
    result: dict[str, Any] | None = None
    counter_seq: int = 0
    unit_seq: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)
    dice: Dice | None = None

    # -- lookups ---------------------------------------------------------------------------------
    def side(self, side: str) -> list[Operative]:
        return [o for o in self.operatives.values() if o.side == side]

    def living(self, side: str) -> list[Operative]:
        return [o for o in self.operatives.values() if o.side == side and o.on_table]

    def unit_of(self, operative_id: str) -> Unit | None:
        op = self.operatives[operative_id]
        if op.side != ENEMY:
            return None
        return self.units.get(op.owner)

    def unit_models(self, unit: Unit) -> list[Operative]:
        return [self.operatives[m] for m in unit.models if self.operatives[m].on_table]

    def active_units(self) -> list[Unit]:
        return [u for u in self.units.values() if u.active]

    def active_counters(self) -> list[Counter]:
        return [c for c in self.counters.values() if c.active]

    def bases(self, exclude: str | Iterable[str | None] | None = None) -> list[Base]:
        """Every base on the table, as the placement rule sees it
        (:mod:`solo_ops.geometry.placement`): standing models of both sides, downed operatives
        still lying there (:attr:`Operative.lying`) and active hidden counters -- but those
        whose ids are in ``exclude`` (the moving model, what it carries). Labels, for the
        reasons a player reads: a model's :attr:`Operative.label` (``downed Sgt Kell``; Kill
        Team 2018 ``out-of-action Sgt Kell``),
        ``counter c6``."""
        skip = {exclude} if isinstance(exclude, str) else {e for e in exclude or () if e}
        fallen = "out-of-action" if self.edition == "kt2018" else "downed"  # the edition's word
        out = []
        for o in self.operatives.values():  # has_base, on_table and lying read in one pass
            at = o.at
            if at is None or o.id in skip:
                continue
            if not o.down:  # standing: on_table
                out.append(Base(at[0], at[1], o.profile.base_radius, o.label, o.id))
            elif o.lying:
                out.append(Base(at[0], at[1], o.profile.base_radius, f"{fallen} {o.label}",
                                o.id))
        out += [Base(c.at[0], c.at[1], COUNTER_RADIUS, f"counter {c.id}", c.id)
                for c in self.counters.values() if c.active and c.id not in skip]
        return out

    def ids_in_use(self) -> set[str]:
        """Every model, unit and counter id the game has used (taken-off models included)."""
        return set(self.operatives) | set(self.units) | set(self.counters)

    def new_model_id(self, stem: str) -> str:
        """A new model id ``stem-N``: N continues after every number a model id in use ends
        with (players' models and pre-placed enemies included; taken-off models too), and the
        id is none in use, so no id is ever used twice in a game (issue #14 item 1;
        ``docs/rules.md``)."""
        used = self.ids_in_use()
        self.unit_seq = max(self.unit_seq, _max_number(set(self.operatives))) + 1
        while f"{stem}-{self.unit_seq}" in used:  # a unit or counter of that name
            self.unit_seq += 1
        return f"{stem}-{self.unit_seq}"

    def new_counter_id(self) -> str:
        """A new counter id ``c<N>``, N after every counter number so far and never an id in
        use."""
        used = self.ids_in_use()
        self.counter_seq += 1
        while f"c{self.counter_seq}" in used:
            self.counter_seq += 1
        return f"c{self.counter_seq}"

    def new_unit_ids(self, wanted: list[str]) -> list[str]:
        """Ids for new units: ``wanted`` (the revealing counter's, ``c2`` -> ``u2``, split parts
        ``u2-<type>``) when neither they nor their base (``u2``) is in use, else ``u<N>`` (and
        ``u<N>-<type>``), N continuing after every number an id in use ends with."""
        used = self.ids_in_use()
        bases = {w.split("-", 1)[0] for w in wanted}
        if len(set(wanted)) == len(wanted) and not used & (set(wanted) | bases):
            return list(wanted)
        base = f"u{_max_number(used) + 1}"
        if len(wanted) == 1:
            return [base]
        return [base + w[w.index("-"):] if "-" in w else f"{base}-{k + 1}"
                for k, w in enumerate(wanted)]

    def renew_leadership(self, unit: Unit) -> bool:
        """Work ``unit``'s Leadership out again from the models it has now (its highest living
        model's: 003 "Leaders are simply units with higher leadership"), after a merge, a split
        or a death; whether it changed."""
        living = [self.operatives[m].profile.leadership for m in unit.models
                  if not self.operatives[m].down]
        if not living:
            return False
        before, unit.leadership = unit.leadership, max(living)
        return unit.leadership != before

    def merge_unit(self, joined: Unit, into: Unit) -> dict[str, Any]:
        """The one way a unit merges into another (a rally, grouping with a leader, a hidden
        counter's enemies joining a revealed unit): its models join ``into`` and take its
        order; Guard ends (their order changed); the merged unit's Leadership (command radius,
        leader status) is its highest model's. The caller fires the joined unit's state
        machine. Returns the ``merged`` event."""
        for m in joined.models:
            op = self.operatives[m]
            op.owner = into.id
            op.on_guard = False
            into.models.append(m)
        self.renew_leadership(into)
        joined.merged_into = into.id
        joined.models = []
        return {"type": "merged", "unit": joined.id, "into": into.id, "command": into.command}

    def activation_over(self) -> None:
        """An activation has ended: the Guard shots made within control range during it bar
        their shooters from retaliating no longer (001 Gallowdark On Guard "for the remaining
        enemy activation")."""
        for op in self.operatives.values():
            op.no_retaliation = False

    def started_within(self, op: Operative) -> str | None:
        """Kill Team 2018, movement phase: the label of the enemy ``op`` stood within 1" of as
        the phase began (:attr:`Operative.started_within`; the referee's ``started_within``),
        or None."""
        if self.edition != "kt2018" or self.phase != "movement" or op.started_within is None:
            return None
        foe = self.operatives.get(op.started_within)
        return foe.label if foe is not None else op.started_within

    def to_dict(self, *, secrets: bool = False) -> dict[str, Any]:
        """A snapshot. Without ``secrets`` counters show only id and position."""
        counters = [c.secret_dict() if secrets else {"id": c.id, "at": list(c.at)}
                    for c in self.counters.values() if c.active]
        return {
            "edition": self.edition, "turn": self.turn, "phase": self.phase,
            "initiative": self.initiative, "vp": dict(self.vp), "cp": dict(self.cp),
            "operatives": [o.to_dict() for o in self.operatives.values()],
            "units": [u.to_dict() for u in self.units.values()],
            "counters": counters,
            "doors": dict(self.doors), "ended": self.ended, "result": self.result,
        }


def _max_number(ids: set[str]) -> int:
    """The largest number any of ``ids`` ends with (0 when none does)."""
    best = 0
    for key in ids:
        head = key.rstrip("0123456789")
        if len(head) < len(key):
            best = max(best, int(key[len(head):]))
    return best


def base_gap(a: Operative, b: Operative) -> float:
    """The straight distance between two on-table operatives' bases (negative if they
    overlap): :func:`solo_ops.rules.reach.base_gap`. Control range is
    :func:`solo_ops.rules.reach.in_control_range`, never this alone."""
    return reach.base_gap(a, b)
