"""Missions: how a game is scored and when it ends, for both editions.

Kill Team 2024 (seed 001 "SCORING A GAME"): victory points from three ops during turning
points 2-4 — a Crit Op (objective markers), a Tac Op (the player's chosen one) and the Kill Op
— at most 6 VP from each op, the primary op scoring x1.5 (rounded up) at the end. In solo play
the enemy scores the Crit Op and the Kill Op by the same rules (it has no Tac Op), so the
player has a real opponent on the scoreboard; the most VP wins.

Kill Team 2018, Pariah Nexus (seed 004): the six matched play missions' Supremacy points each
battle round (control one or more objective markers; control more than the opponent; took an
enemy model out of action that round), objective control by the total Wounds of unshaken
models within 2", and the narrative effect tables. ``effects`` records the rolled or chosen
Pariah Nexus effects; the briefing and every round remind the players of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from solo_ops.core.effects import Effect
from solo_ops.core.fields import Fields
from solo_ops.core.tables import simple_table
from solo_ops.geometry.board import Board
from solo_ops.rules import reach

CRIT_OPS: dict[str, str] = {
    "seize-ground": "End of each turning point from the second: 1 VP for each objective marker "
                    "you control (at most 2 VP a turning point).",
    "hold-the-line": "End of each turning point from the second: 1 VP if you control more "
                     "objective markers than the enemy; 1 VP more if you control all of them.",
}
TAC_OPS: dict[str, str] = {
    "recon-sweep": "End of each turning point from the second: 1 VP if one of your operatives is "
                   "wholly within the enemy drop zone.",
    "hold-the-centre": "End of each turning point from the second: 1 VP if one of your operatives "
                       "is within 3\" of the centre of the killzone and no enemy is.",
    "break-the-enemy": "End of each turning point from the second: 1 VP if two or more enemy "
                       "operatives were incapacitated during that turning point.",
}
KILL_OP = ("End of each turning point from the second: 1 VP if one or more enemy operatives were "
           "incapacitated during that turning point; at the end of the battle 1 VP more if your "
           "kill grade is higher than the enemy's. Kill grade k (1-5) is reached at round(k x "
           "N / 5) operatives incapacitated, N the other side's operatives counted as at least "
           "5 (N = 7: 1, 3, 4, 6, 7; N = 3 counts as 5: 1, 2, 3, 4, 5). This scoring is a "
           "reading from outside the sources: the cards name the Kill Op and the grade but give "
           "no table (docs/rules.md).")
PRIMARY = ("crit", "tac", "kill")
OP_CAP = 6
CONTROL_RANGE = reach.CONTROL_RANGE  # objective markers: solo_ops.rules.reach.within
PN_CONTROL_RANGE = 2.0
PN_EFFECT_TABLES = {
    "environment": "pn-environment-effects",
    "walls": "pn-walls-effects",
    "pitfall": "pn-pitfall-effects",
    "objective": "pn-objective-effects",
    "terrain": "pn-terrain-effects",
    "killzone": None,  # the board's own environment table (Crypt of Cynosure / Translocum)
}
KILLZONE_TABLES = {
    "crypt-of-cynosure": "pn-crypt-environment",
    "translocum-chamber": "pn-translocum-environment",
}


@dataclass(frozen=True)
class Mission:
    """A mission: its scoring ops (2024) or Pariah Nexus mission (2018), and effects."""

    name: str = "Skirmish"
    crit_op: str | None = "seize-ground"
    tac_op: str | None = "recon-sweep"
    kill_op: bool = True
    primary: str = "crit"
    pariah: str | None = None
    effects: dict[str, int] = field(default_factory=dict)
    text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name}
        if self.pariah:
            data["pariah"] = self.pariah
        else:
            data.update(crit_op=self.crit_op, tac_op=self.tac_op, kill_op=self.kill_op,
                        primary=self.primary)
        if self.effects:
            data["effects"] = dict(self.effects)
        if self.text:
            data["text"] = self.text
        return data

    def effect_texts(self, killzone: str | None) -> list[tuple[str, str]]:
        """``(title, text)`` of every active Pariah Nexus effect."""
        out = []
        for kind, face in self.effects.items():
            name = PN_EFFECT_TABLES.get(kind) or KILLZONE_TABLES.get(killzone or "")
            if name is None:
                continue
            row = simple_table(name)[face]
            out.append((row.title or row.code, row.text))
        return out

    def in_force(self, killzone: str | None) -> list[Effect]:
        """Every active Pariah Nexus effect, with its changes to the dice and checks as data
        (:mod:`solo_ops.core.effects`), in table order."""
        out = []
        for kind, face in self.effects.items():
            name = PN_EFFECT_TABLES.get(kind) or KILLZONE_TABLES.get(killzone or "")
            if name is not None:
                out.append(simple_table(name)[face].as_effect())
        return out

    def briefing(self, edition: str) -> list[str]:
        """The mission in words, for the briefing."""
        lines = [self.name]
        if self.text:
            lines.append(self.text)
        if self.pariah:
            row = next(r for r in simple_table("pn-missions").rows.values()
                       if r.code == self.pariah)
            lines.append(f"Pariah Nexus mission: {row.title}. {row.text}")
            return lines
        if self.crit_op:
            lines.append(f"Crit Op ({self.crit_op}): {CRIT_OPS[self.crit_op]}")
        if self.tac_op:
            lines.append(f"Tac Op ({self.tac_op}): {TAC_OPS[self.tac_op]}")
        if self.kill_op:
            lines.append(f"Kill Op: {KILL_OP}")
        lines.append(f"Your primary op is the {self.primary} op: it scores x1.5 (rounded up) at "
                     "the end. The enemy scores the Crit Op and the Kill Op too; most VP wins.")
        return lines


def parse_mission(data: Any, source: str | None, edition: str, board: Board) -> Mission:
    """Read a scenario's ``mission:`` mapping (absent: a default for the edition)."""
    if data is None:
        if edition == "kt2018":
            return Mission(name="Objective Ultima", pariah="objective-ultima")
        return Mission()
    m = Fields(data, source, "mission").only(
        ("name", "crit_op", "tac_op", "kill_op", "primary", "pariah", "effects", "text"))
    pariah_codes = [r.code for r in simple_table("pn-missions").rows.values()]
    pariah = m.choice("pariah", pariah_codes, None)
    effects: dict[str, int] = {}
    if m.has("effects"):
        e = m.mapping("effects").only(PN_EFFECT_TABLES)
        for kind in e.data:
            table_name = PN_EFFECT_TABLES[kind] or KILLZONE_TABLES.get(board.killzone or "")
            if table_name is None:
                raise e.error(kind, "this board has no killzone environment table")
            sides = simple_table(table_name).die
            effects[str(kind)] = e.integer(str(kind), minimum=1, maximum=sides)
    crit = m.choice("crit_op", list(CRIT_OPS), "seize-ground")
    tac = m.choice("tac_op", list(TAC_OPS), "recon-sweep")
    return Mission(
        name=m.text("name", "Skirmish"),
        crit_op=None if pariah else crit,
        tac_op=None if pariah else tac,
        kill_op=m.boolean("kill_op", True),
        primary=m.choice("primary", PRIMARY, "crit"),
        pariah=pariah,
        effects=effects,
        text=m.text("text", None),
    )


def primary_bonus(points: int) -> int:
    """The primary op's end-of-battle bonus: its VP x1.5 rounded up, i.e. half again, up."""
    return math.ceil(points * 1.5) - points
