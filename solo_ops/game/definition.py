"""A game's static half and the question it asks next: :class:`Game` and :class:`Prompt`.

A game is a :class:`Game` (the scenario and the compiled terrain of every door state; never
changed by play) and a :class:`~solo_ops.game.state.State` (everything that changes). This
module holds the data only, below the dispatcher (:mod:`solo_ops.game.engine`) and the modules
it calls (``actions``, ``enemy``, ``turns``, ...), so each of them names ``Game`` with a plain
import and the game package has no import circle, not even one for the type checker.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from solo_ops.ai.context import Tally
from solo_ops.ai.planner import Context
from solo_ops.core.dice import CURRENT
from solo_ops.core.effects import Effect
from solo_ops.game import attacks
from solo_ops.game.places import terrain_changes
from solo_ops.game.scenario import Scenario
from solo_ops.game.state import State
from solo_ops.geometry.board import NO_CLIMB
from solo_ops.geometry.terrain import Terrain, TerrainCache
from solo_ops.rules import killzones

KT2024_PHASES = ("firefight",)
PRE_BATTLE_CP = 2  # card 001, "2. SELECT OPERATIVES": "Players gain 2CP each."
KT2018_PHASES = ("movement", "shooting", "fight")


CHANGE_MEMO_LIMIT = 256
"""The sets of changed features a game keeps (:meth:`Game._changes`; then it starts afresh)."""


@dataclass
class Game:
    """The static half of a game: the scenario and the compiled terrain for each door state."""

    scenario: Scenario
    seed: int
    terrains: TerrainCache = field(init=False)
    base: dict[str, Any] | None = None
    """Set when the game goes on from a checkpoint rather than from set-up (a save whose
    history a newer solo-ops plays differently): ``{"checkpoint", "steps", "why", "versions"}``
    (:func:`solo_ops.io.savegame.rebase`)."""
    notice: str | None = None
    """A sentence for the players about how the game was opened (not saved)."""
    links: dict[str, Any] | None = None
    """The table's links, kept in the save beside the players so they outlive the server:
    ``{"id", "host", "players": {name: token}}`` (:mod:`solo_ops.session.links` makes and
    checks them; None until the game is first served). Play never reads them."""
    dice_scheme: str = CURRENT
    """How the game's dice turn its seed into faces (:data:`solo_ops.core.dice.SCHEMES`): every
    new game rolls the current scheme, a game saved before it keeps the one it was saved with."""
    words: bool = field(default=True, compare=False)
    """Whether events carry the words only the players read that cost geometry to find (why a
    move detours, what blocks an enemy's way): off in the simulator's missions, which nobody
    reads (:func:`solo_ops.sim.rating.play_one`); the game is the same either way."""
    tally: Tally = field(default_factory=Tally, init=False, repr=False, compare=False)
    """The work this game's enemy planner has done (the models it planned): with the steps,
    a simulated mission's cost, counted the same on every machine; play never reads it."""
    cp_chooser: Any = field(default=None, init=False, repr=False, compare=False)
    """The players' CP re-roll chooser while a step runs (:mod:`solo_ops.game.cp`), else None."""
    cp_plans: Any = field(default=None, init=False, repr=False, compare=False)
    """Enemy plans of a step paused for a CP re-roll, for its re-run (``cp.keep_plans``)."""
    pause_shown: dict[int, int] = field(default_factory=dict, init=False, repr=False,
                                        compare=False)
    """For each step paused for the players' answer (by its record's ``n``), how many dice the
    game had rolled when the question was asked: the dice the question shows, though the
    paused step is put back (the engine's ``step``). Never saved: a replay of the step sets it
    again. What an undo may take back reads it (:func:`~solo_ops.game.undo_points.barrier`)."""
    referee_watch: Any = field(default=None, init=False, repr=False, compare=False)
    """An observer told of every enemy plan and action as the referee judges it (the referee
    audit, :mod:`solo_ops.sim.referee_audit`), else None: ``plan(game, state, plan)`` and
    ``action(game, state, op, action, spent, counteracting)``, and around each step that may
    pause ``begin()`` and ``undone()`` (the step paused or was refused: it runs again and
    tells it all again). Play never sets it."""
    effects: tuple[Effect, ...] = field(init=False, repr=False, compare=False)
    """The Pariah Nexus effects in force (Kill Team 2018; none in a 2024 game): the mission's
    (:meth:`~solo_ops.game.missions.Mission.in_force`), as :mod:`solo_ops.game.pariah` applies
    them."""
    no_climb: frozenset[tuple[str, str]] = field(init=False, repr=False, compare=False)
    """Kill Team 2024: the board's changes for a Dash, which "cannot be used to climb" (001):
    every ``vantage`` feature with a height made one no move climbs onto (:meth:`moving_terrain`;
    none in a 2018 game)."""
    change_memo: dict[Any, frozenset[tuple[str, str]]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    """:meth:`terrain`'s features changed, by what they depend on (``_changes``)."""
    undo_points: Any = field(default=None, init=False, repr=False, compare=False)
    """The states kept before the players' answers, for undo: an
    :class:`~solo_ops.game.undo_points.UndoPoints` at the table and when a save is rebuilt for
    it (``Any``: that module sits above this one), None in the simulator."""

    def __post_init__(self) -> None:
        # the killzone's own reading of its board in this edition (Volkus doors, 2024)
        board = killzones.board_in_play(self.scenario.board, self.scenario.edition)
        if board is not self.scenario.board:
            self.scenario = replace(self.scenario, board=board)
        self.terrains = TerrainCache.shared(self.scenario.board)  # (one per board a thread)
        self.effects = (tuple(self.scenario.mission.in_force(self.scenario.board.killzone))
                        if self.scenario.edition == "kt2018" else ())
        # Kill Team 2024: a Dash "cannot be used to climb" (001): its board climbs nothing
        self.no_climb = frozenset(
            (f.id, NO_CLIMB) for f in self.scenario.board.features
            if self.scenario.edition == "kt2024" and f.has("vantage") and f.height
            and not f.is_line)

    @property
    def settings(self) -> Any:
        return self.scenario.settings

    @property
    def edition(self) -> str:
        return self.scenario.edition

    def terrain(self, state: State) -> Terrain:
        """The terrain as it stands: the doors as they are and, in a Kill Team 2018 game, the
        features the Pariah Nexus effects change this battle round (removed, or barred to
        movement: :func:`solo_ops.game.pariah.terrain_changes`)."""
        if not self.effects and not state.removed_features:
            return self.terrains.get(state.doors)
        return self.terrains.get(state.doors, self._changes(state))

    def moving_terrain(self, state: State, how: str) -> Terrain:
        """The terrain a move of kind ``how`` is made on: :meth:`terrain`, with the features an
        Advance may move through or may not cross (004 Dimensional Destabilisation, Hazardous
        Conduit Flares), or (Kill Team 2024) that a Dash may not climb onto (001 Dash "cannot be
        used to climb": ``no_climb``)."""
        if how == "dash" and self.no_climb:
            return self.terrains.get(state.doors, self._changes(state) | self.no_climb
                                     if self.effects or state.removed_features
                                     else self.no_climb)
        if not self.effects or how != "advance":
            return self.terrain(state)
        return self.terrains.get(state.doors, self._changes(state, how))

    def _changes(self, state: State, how: str | None = None) -> frozenset[tuple[str, str]]:
        """:func:`~solo_ops.game.places.terrain_changes` of this game's effects and board,
        remembered by what it reads of ``state``: the features removed and the battle round's
        effect rolls (each as the effects' conditions compare it, as text)."""
        key = (frozenset(state.removed_features),
               tuple(sorted((k, str(v)) for k, v in state.round_effects.items())), how)
        got = self.change_memo.get(key)
        if got is None:
            got = terrain_changes(self.effects, self.scenario.board, state, how)
            if len(self.change_memo) >= CHANGE_MEMO_LIMIT:
                self.change_memo.clear()
            self.change_memo[key] = got
        return got

    def context(self, state: State) -> Context:
        """The planner's view of the table for ``state``: its terrain, settings, edition and
        the exact shot odds of the edition."""
        sides: dict[str, str] = {}
        radii: dict[str, float] = {}
        if self.edition == "kt2018":  # shooting from and into combat (rules.kt2018)
            for o in state.operatives.values():
                if o.on_table:
                    sides[o.id], radii[o.id] = o.side, o.radius
        return Context(self.terrain(state), self.settings, self.edition,
                       odds=attacks.expected_for(self.edition, self.settings.rapid_fire),
                       terrain_for=self.terrains.get,
                       sides=sides, radii=radii, words=self.words, tally=self.tally,
                       moving=(lambda kind: self.moving_terrain(state, kind))
                       if self.effects or self.no_climb else None)


@dataclass
class Prompt:
    """What the game needs next."""

    kind: str  # engine | activate | act | attack | reaction | reroll | counteract | ended
    side: str | None = None
    player: str | None = None
    operative: str | None = None
    text: str = ""
    options: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "player": self.player,
                "operative": self.operative, "text": self.text, "options": list(self.options),
                **({"data": self.data} if self.data else {})}
