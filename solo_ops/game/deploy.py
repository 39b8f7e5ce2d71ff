"""Setting the table: deploying the player's squads when a scenario does not give their
positions, and checking the bases a scenario places itself (:func:`check_spot`,
:func:`place_counters`).

Models are set up wholly within the player drop zone (``zones.player``; in co-op a
``player-2``, ``player-3``... zone is used for the second, third squad when the board has one),
on free floor, at least 1" apart, filling the zone from the point nearest its centre outwards.
Deterministic: no dice, so the same scenario always deploys the same way.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
from shapely.geometry import Polygon, box

from solo_ops.core.errors import InputError, RuleError
from solo_ops.game import spotting
from solo_ops.game.state import COUNTER_RADIUS, Counter, Operative, State
from solo_ops.geometry import placement
from solo_ops.rules.reach import round_point

if TYPE_CHECKING:
    from solo_ops.game.scenario import Scenario
    from solo_ops.geometry.terrain import Terrain


GAP = 1.0


def zone_for(board: Any, index: int) -> Polygon:
    """The drop zone for the ``index``-th squad (0-based)."""
    name = "player" if index == 0 else f"player-{index + 1}"
    if name in board.zones:
        return board.zones[name]
    if "player" in board.zones:
        return board.zones["player"]
    return box(0, 0, board.width, min(6.0, board.depth / 3))


def deploy(terrain: Terrain, zone: Polygon, radii: list[float],
           taken: list[tuple[float, float, float]]) -> list[tuple[float, float]]:
    """Positions for bases of ``radii`` wholly within ``zone`` clear of ``taken`` discs."""
    if not radii:
        return []
    rmax = max(radii)
    inner = zone.buffer(-rmax)
    if inner.is_empty:
        raise InputError("the drop zone is too small for the squad's bases", field="zones")
    pts = np.asarray(terrain.routes.free_points(inner, rmax, 0.5), dtype=float)
    if len(pts) == 0:
        raise InputError("no free floor in the drop zone to deploy the squad", field="zones")
    c = zone.centroid
    d = np.hypot(pts[:, 0] - c.x, pts[:, 1] - c.y)
    pts = pts[np.lexsort((pts[:, 1], pts[:, 0], np.round(d, 9)))]
    placed = list(taken)
    out: list[tuple[float, float]] = []
    # Python floats: the same doubles as the array's (so the same hypots), scanned faster
    rows = pts.tolist()
    for r in radii:
        need = [(x, y, r + rr + GAP - 1e-9) for x, y, rr in placed]
        for px, py in rows:
            if all(math.hypot(px - x, py - y) >= gap for x, y, gap in need):
                out.append((px, py))
                placed.append((px, py, r))
                break
        else:
            raise InputError(f"the drop zone has no room for {len(radii)} models",
                             field="zones")
    return out


# -- the bases a scenario places itself (new_game's set-up) -----------------------------------
def place_counters(scenario: Scenario, terrain: Terrain, state: State, dice: Any
                   ) -> list[dict[str, Any]]:
    """The counters the scenario places, each with its hidden order (rolled in secret when the
    scenario gives none); one it puts in plain sight is resolved in the first turn, like a
    seeded one that could not be hidden."""
    events: list[dict[str, Any]] = []
    for c, spec_c in enumerate(scenario.counters):
        order = spec_c.hidden_order or dice.d6(f"hidden order for counter {spec_c.id}",
                                                      secret=True).face
        check_spot(terrain, state, spec_c.id, spec_c.at, COUNTER_RADIUS, floor=True,
                   where=(scenario.source, f"counters[{c}].at"))
        counter = Counter(spec_c.id, spec_c.at, order, scenario.board.sector_of(*spec_c.at))
        state.counters[spec_c.id] = counter
        counter.resolve_first_turn = spotting.spotted_by(terrain, state, counter) is not None
        events.append({"type": "counter_placed", "counter": spec_c.id,
                       "at": round_point(spec_c.at),
                       "sector": counter.sector,
                       "resolve_first_turn": counter.resolve_first_turn})
        events.append({"type": "hidden_order", "counter": spec_c.id, "hidden_order": order,
                       "secret": True})
    return events


def deployed(op: Operative) -> dict[str, Any]:
    """A deployed squad model in the ``squad_deployed`` event: its id and place, and its
    wounds when it starts hurt (a campaign's wound not healed)."""
    out: dict[str, Any] = {"id": op.id, "at": round_point(op.at)}
    if op.wounds < op.profile.wounds:
        out["wounds"] = op.wounds
        out["max_wounds"] = op.profile.wounds
    return out


def placed_by_scenario(scenario: Scenario) -> list[tuple[float, float, float]]:
    """The bases the scenario itself places (squad models with a position, enemies,
    counters): the deployment of the rest keeps clear of them all (the placement rule)."""
    ed = scenario.edition
    taken = [(m.at[0], m.at[1], m.profile.for_edition(ed).base_radius)
             for squad in scenario.squads for m in squad.models if m.at is not None]
    taken += [(m.at[0], m.at[1], m.profile.for_edition(ed).base_radius)
              for spec in scenario.enemies for m in spec.models if m.at is not None]
    return taken + [(c.at[0], c.at[1], COUNTER_RADIUS) for c in scenario.counters]


def check_spot(terrain: Terrain, state: State, mid: str, at: tuple[float, float],
               radius: float, *, floor: bool = False,
               where: tuple[str | None, str] | None = None) -> None:
    """A base the scenario places may stand there by the placement rule (on the board, not in
    terrain, on no base placed before it); refused naming what is there and the nearest point
    where it fits (issue #27), and ``where`` the scenario wrote it (its file and field)."""
    refused = placement.refusal(terrain, at, radius, state.bases(), mid, floor=floor)
    if refused is not None and where is not None:
        raise InputError(refused, source=where[0], field=where[1])
    if refused is not None:
        raise RuleError(refused)
