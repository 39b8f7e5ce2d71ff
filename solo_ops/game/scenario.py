"""A scenario as data: everything static a game starts from (board, roster, squads, pre-placed
enemies and counters, mission, settings, equipment).

Reading and checking scenario files is :mod:`solo_ops.io.scenario`'s (``parse_scenario``,
``load_scenario``); the game, the simulator and the saves only need the data, so it lives here,
below every module that plays a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solo_ops.core.model import Profile, Roster
from solo_ops.core.settings import Settings
from solo_ops.game.equipment import EquipmentItem
from solo_ops.game.missions import Mission
from solo_ops.geometry.board import Board


@dataclass(frozen=True)
class PlacedModel:
    """A model named in a scenario: id, display name, profile and (optional) position.

    ``wounds_lost``: a squad model that starts the game hurt (a campaign's wound not healed,
    docs/rules.md "Campaign") starts without that many wounds, at least 1 left."""

    id: str
    name: str
    profile: Profile
    at: tuple[float, float] | None = None
    wounds_lost: int = 0

    def starting_wounds(self, wounds: int) -> int:
        """The wounds it starts with, of a profile's ``wounds``: at least 1 left."""
        return max(1, wounds - self.wounds_lost) if self.wounds_lost else wounds


@dataclass(frozen=True)
class SquadSpec:
    """One player's squad (co-op games have several)."""

    player: str
    name: str
    models: tuple[PlacedModel, ...]


@dataclass(frozen=True)
class EnemySpec:
    """A pre-placed enemy unit; ``command`` fixes its order roll instead of rolling."""

    id: str
    models: tuple[PlacedModel, ...]
    command: int | None = None


@dataclass(frozen=True)
class CounterSpec:
    """A pre-placed hidden counter; ``hidden_order`` fixes its hidden-enemy roll."""

    id: str
    at: tuple[float, float]
    hidden_order: int | None = None


@dataclass(frozen=True)
class Scenario:
    """Everything static about a game: what ``solo-ops play`` starts from."""

    name: str
    edition: str
    board: Board
    roster: Roster | None
    engagement: int
    seed: int | None
    squads: tuple[SquadSpec, ...]
    enemies: tuple[EnemySpec, ...] = ()
    counters: tuple[CounterSpec, ...] = ()
    mission: Mission = field(default_factory=Mission)
    settings: Settings = field(default_factory=Settings)
    equipment: tuple[EquipmentItem, ...] = ()
    document: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    source: str | None = None

    @property
    def players(self) -> list[str]:
        return [s.player for s in self.squads]
