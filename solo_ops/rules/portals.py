"""Doors and hatches: who may open or close one, when, and for how many action points.

One rule for both sides: the players' ``door`` / ``hatch`` answers
(:func:`solo_ops.game.actions._portal`) and the AI's own Operate Hatch
(:func:`solo_ops.ai.portals._open_the_way`) both ask :func:`operate`. Pure: it reads plain
facts (the edition, the phase, gaps already measured) and returns a verdict; it changes
nothing.

Kill Team 2024 (002 Gallowdark): "Operate Hatch 1AP: Open/Close hatch within Control Range.
Can be performed during a Reposition or Dash. Not while within Control Range of an enemy or
while the hatch is within Control Range of an enemy." Doors (crypt boards, Volkus) are
operated by the same rule (the card gives them no action of their own). The action costs 1 AP
whenever it is done; "during a Reposition or Dash" is timing (the model may stop part-way,
operate the hatch and walk on), not a discount.

Door Fight (002 Volkus) / Hatchway Fight (002 Gallowdark), Kill Team 2024: "When TOUCHING a
door [an open hatchway], fight enemy within 2" of the OTHER side of the door. Counts as a fight
action. Cannot be performed if already in Control Range of enemy Operatives [on the same side
of the Hatch as the active Operative]." The players' ``fight`` answer
(:func:`solo_ops.game.attack_checks.check_fight`) and the AI's
(:func:`solo_ops.ai.portals._portal_fight`) both ask :func:`fight_across`.

Kill Team 2018 (004 "Doors"): "In the Movement phase, at any point when an INFANTRY model is
making a normal move or Falling Back, it can open a door that is within 1" of it." No action
points; only opening; only in the movement phase by a model that makes (or may still make) a
normal move or a Fall Back — not one that Readied, Advanced or charged. Access Override
(004 "Use this Tactic at the end of the Movement phase. If you control an objective marker
that is a Command Node, you can open one door on the battlefield."): see
:func:`access_override`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solo_ops.rules import reach

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain

CONTROL_RANGE = 1.0  # inches: "within Control Range" (2024) / "within 1"" (2018)
OPERATE_AP = 1  # Kill Team 2024 Operate Hatch (and a door) costs 1 AP
ACCESS_OVERRIDE_CP = 1  # Kill Team 2018 Access Override tactic: 1 command point
ACCESS_OVERRIDE_FROM_ROUND = 2  # 004 "Starting from the second battle round"
FIGHT_REACH = 2.0  # Door / Hatchway Fight: an enemy within 2" of the other side
TOUCH = 0.1  # a base within this of a door or hatch touches it


@dataclass(frozen=True)
class Verdict:
    """Whether a door or hatch may be operated (``ok``), its AP cost, and why not."""

    ok: bool
    cost: int = 0
    why: str = ""


def operate(edition: str, *, opening: bool, phase: str, gap: float,
            in_enemy_control: bool, portal_guarded: bool, moved_how: str | None = None,
            readied: bool = False, advanced: bool = False, charged: bool = False,
            word: str = "door") -> Verdict:
    """May the active model operate a door or hatch, and at what AP cost?

    ``gap``: base edge to the portal (inches, straight: the portal is in reach when within
    control range). ``in_enemy_control``: the model is within an enemy's control range.
    ``portal_guarded``: an enemy operative is within control range of the portal.
    ``moved_how`` / ``readied`` / ``advanced`` / ``charged``: what the model did this
    activation (Kill Team 2018's timing)."""
    if gap > CONTROL_RANGE + 1e-6:
        return Verdict(False, 0, f"the {word} is {gap:.1f}\" away: it must be within 1\"")
    if edition == "kt2024":
        if phase != "firefight":
            return Verdict(False, 0, f"a {word} is operated in the firefight phase")
        if in_enemy_control:
            return Verdict(False, 0, "not while within control range of an enemy")
        if portal_guarded:
            return Verdict(False, 0, f"not while the {word} is within control range of an "
                                     "enemy")
        return Verdict(True, OPERATE_AP)
    if phase != "movement":
        return Verdict(False, 0, "doors are opened in the movement phase only (2018)")
    if not opening:
        return Verdict(False, 0, "a door opened in Kill Team 2018 stays open (it is removed "
                                 "from the board)")
    if readied or advanced or charged or moved_how in ("advance", "charge"):
        return Verdict(False, 0, "only a model making a normal move or Falling Back opens a "
                                 "door (2018)")
    return Verdict(True, 0)


def access_override(edition: str, *, phase: str, turn: int, players_left_to_move: bool,
                    controls_command_node: bool, cp: int, used_this_round: bool,
                    shooting_started: bool = True) -> Verdict:
    """Kill Team 2018's Access Override tactic: at the end of the Movement phase (here: no
    operative of the side is left to move in it, or the shooting phase has begun but no model
    has acted in it yet — the players' first prompt after the movement phase), from the second
    battle round, a side that controls the Command Node objective marker may spend 1 CP to open
    one door; once a battle round. Never in Kill Team 2024 (a door or hatch is opened by an
    operative within reach)."""
    if edition != "kt2018":
        return Verdict(False, 0, "a door or hatch is opened by an operative within 1\" of it: "
                                 "activate one first")
    at_end = (phase == "movement" and not players_left_to_move) or (
        phase == "shooting" and not shooting_started)
    if not at_end:
        return Verdict(False, 0, "Access Override is used at the end of the movement phase "
                                 "(when no operative of yours is left to move, or at your first "
                                 "answer of the shooting phase before anyone shoots)")
    if turn < ACCESS_OVERRIDE_FROM_ROUND:
        return Verdict(False, 0, "Access Override can be used from the second battle round")
    if not controls_command_node:
        return Verdict(False, 0, "Access Override needs the Command Node objective marker "
                                 "under your control")
    if used_this_round:
        return Verdict(False, 0, "Access Override has already been used this battle round")
    if cp < ACCESS_OVERRIDE_CP:
        return Verdict(False, 0, f"Access Override costs {ACCESS_OVERRIDE_CP} CP (you have "
                                 f"{cp})")
    return Verdict(True, ACCESS_OVERRIDE_CP)


def gap_to(feature: Any, point: Sequence[float], radius: float) -> float:
    """Distance from a base's edge (``radius`` 0: its centre) to a door or hatch, straight."""
    from shapely.geometry import Point

    return float(feature.shape.distance(Point(float(point[0]), float(point[1])))) - radius


def side_of(feature: Any, point: Sequence[float]) -> int:
    """Which side of a line door/hatch ``point`` is on (+1 / -1; 0 on the line)."""
    (x0, y0), (x1, y1) = feature.shape.coords[0], feature.shape.coords[-1]
    cross = (x1 - x0) * (point[1] - y0) - (y1 - y0) * (point[0] - x0)
    return 0 if abs(cross) < 1e-9 else (1 if cross > 0 else -1)


def two_sided(feature: Any) -> bool:
    """A door or hatch drawn as a line (a polygon one has no sides to fight across)."""
    from shapely.geometry import LineString

    if not isinstance(feature.shape, LineString):
        return False
    (x0, y0), (x1, y1) = feature.shape.coords[0], feature.shape.coords[-1]
    return math.hypot(x1 - x0, y1 - y0) >= 1e-9


def fight_name(feature: Any) -> str:
    """``Hatchway Fight`` or ``Door Fight``."""
    return "Hatchway Fight" if feature.has("hatch") else "Door Fight"


def fight_across(terrain: Terrain, portal: Any, at: Sequence[float], radius: float,
                 target_at: Sequence[float], target_radius: float,
                 foes: Iterable[tuple[Sequence[float], float]], *,
                 gap: float | None = None, target_gap: float | None = None) -> str | None:
    """Why a model at ``at`` may not fight the base at ``target_at`` across ``portal`` by
    Door Fight / Hatchway Fight (None: it may): it touches the door (an open hatchway), the
    target is within 2" of its other side, and no enemy (``foes``: every enemy base, centre
    and radius) holds it in control range -- for a hatchway, none on its own side. ``gap`` /
    ``target_gap``: the bases' gaps to the portal when already measured."""
    name = fight_name(portal)
    if portal.has("hatch") and not portal.open:
        return f"{portal.id} is closed: a {name} is across an open hatchway"
    if not two_sided(portal):
        return f"{portal.id} has no two sides to fight across"
    mine = side_of(portal, at)
    gap = gap_to(portal, at, radius) if gap is None else gap
    if mine == 0 or gap > TOUCH + 1e-9:
        return f"a {name} is made touching {portal.id} ({max(gap, 0.0):.1f}\" from it)"
    target_gap = gap_to(portal, target_at, target_radius) if target_gap is None else target_gap
    if side_of(portal, target_at) in (0, mine) or target_gap > FIGHT_REACH + 1e-9:
        return f"the target must be within {FIGHT_REACH:g}\" of the other side of {portal.id}"
    for foe_at, foe_radius in foes:
        if (portal.has("door") or side_of(portal, foe_at) == mine) and reach.in_control_range(
                terrain, at, radius, foe_at, foe_radius):
            return ("not while an enemy holds it in control range" + (
                "" if portal.has("door") else f" on its side of {portal.id}"))
    return None
