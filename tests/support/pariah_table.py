"""A small Kill Team 2018 table with every place the Pariah Nexus effects name, for the tests
of the effects in play (tests/game/test_pariah_effects_in_play.py and others).

The board (30" x 22", killzone ``translocum-chamber`` or ``crypt-of-cynosure``) has a wall
(x 15, y 0-6) and a closed door (x 15, y 6-8), a pitfall (x 20-22, y 16-18), a light crate
(x 14.6-15.6, y 10-11), two spatial lacerators (4, 4) and (26, 4), a thermionic annulus
(10, 16), a quantum node (8, 4), induction diodes (12, 4), a circuit of entropic anguish
(x 6-9, y 12-15, insignificant), a petrific divisor (x 18-18.4, y 9-13), a starslave conduit
(x 10-10.4, y 6-9) and an objective, the Command Node (5, 11). The players' a1 and a2, the
enemy's e1 (a brute with a laspistol and a knife) are placed by the test.
"""

from __future__ import annotations

import copy
from typing import Any

from solo_ops.core.dice import ScriptedDice
from solo_ops.game.engine import Game, new_game, pending, step
from solo_ops.game.state import State
from solo_ops.io.scenario import parse_scenario

TROOPER = {"name": "Trooper", "movement": 6, "leadership": 7, "toughness": 3, "wounds": 8,
           "save": 4, "base_mm": 25, "apl": 2, "ws": 3, "bs": 3, "strength": 3, "attacks": 1,
           "weapons": [{"name": "lasgun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
                        "damage": [2, 3], "strength": 3, "ap": 0, "damage_2018": 1,
                        "shots": 1},
                       {"name": "laspistol", "type": "pistol", "range": 12, "attacks": 4,
                        "hit": 4, "damage": [2, 3], "strength": 3, "ap": 0,
                        "damage_2018": 1, "shots": 1},
                       {"name": "knife", "type": "melee", "attacks": 3, "hit": 4,
                        "damage": [2, 3]}],
           "kt2018": {"wounds": 1, "save": 5}}
BRUTE = {**copy.deepcopy(TROOPER), "name": "Brute", "leadership": 6,
         "weapons": copy.deepcopy(TROOPER["weapons"][1:])}  # a laspistol and a knife: Melee

RADIUS = 25 / 25.4 / 2


def board(killzone: str = "translocum-chamber") -> dict[str, Any]:
    def box(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]

    return {"name": "pariah table", "width": 30, "depth": 22, "killzone": killzone,
            "features": [
                {"id": "wall-1", "traits": ["wall"], "line": [[15, 0], [15, 6]]},
                {"id": "door-1", "traits": ["door"], "line": [[15, 6], [15, 8]],
                 "open": False},
                {"id": "pitfall-1", "traits": ["pitfall"], "polygon": box(20, 16, 22, 18)},
                {"id": "crate-1", "traits": ["light"], "polygon": box(14.6, 10, 15.6, 11)},
                {"id": "circuit-1", "traits": ["insignificant"], "polygon": box(6, 12, 9, 15),
                 "label": "circuit of entropic anguish"},
                {"id": "divisor-1", "traits": ["insignificant"], "polygon": box(18, 9, 18.4, 13),
                 "label": "petrific divisor"},
                {"id": "conduit-1", "traits": ["insignificant"], "polygon": box(10, 6, 10.4, 9),
                 "label": "starslave conduit"}],
            "zones": {"player": [[0, 0], [6, 0], [6, 22], [0, 22]],
                      "enemy": [[24, 0], [30, 0], [30, 22], [24, 22]]},
            "objectives": [{"id": "obj-1", "at": [5, 11], "command_node": True}],
            "markers": [{"id": "lacerator-1", "kind": "spatial-lacerator", "at": [4, 4]},
                        {"id": "lacerator-2", "kind": "spatial-lacerator", "at": [26, 4]},
                        {"id": "annulus-1", "kind": "thermionic-annulus", "at": [10, 16]},
                        {"id": "node-1", "kind": "quantum-node", "at": [8, 4]},
                        {"id": "diodes-1", "kind": "induction-diodes", "at": [12, 4]}]}


def start(effects: dict[str, int], *, a1: tuple[float, float] = (3, 10),
          a2: tuple[float, float] = (1, 20), e1: tuple[float, float] = (27, 11),
          faces: list[int] | None = None, killzone: str = "translocum-chamber",
          settings: dict[str, Any] | None = None, command: int = 1,
          e2: tuple[float, float] | None = None) -> tuple[Game, State]:
    """A 2018 game with ``effects`` in force (a scenario's ``mission.effects``), the dice
    scripted from its first engine step (``faces``; the initiative roll-off goes first: give
    6, 1 for the players). e1's unit is a Melee unit of ``command`` (1: Remain Stationary, Fire
    at will; 5: Towards closest enemy, Unhindered move/charge, charge: Yes); ``e2``, a second
    brute of that unit."""
    doc = {"name": "pariah test", "edition": "kt2018", "board": board(killzone),
           "roster": {"name": "r", "profiles": {"brute": copy.deepcopy(BRUTE)},
                      "table": {i: "brute" for i in range(1, 7)}},
           "engagement": 1, "seed": 1,
           "mission": {"name": "Objective Ultima", "pariah": "objective-ultima",
                       "effects": effects},
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": copy.deepcopy(TROOPER), "at": list(a1)},
               {"id": "a2", "profile": copy.deepcopy(TROOPER), "at": list(a2)}]}],
           "enemies": [{"id": "u1", "command": command, "models": [
               {"id": "e1", "profile": "brute", "at": list(e1)},
               *([{"id": "e2", "profile": "brute", "at": list(e2)}] if e2 else [])]}],
           "settings": {"turns": 2, **(settings or {})}}
    game, state = new_game(parse_scenario(doc, "pariah.yaml"), 1)
    state.counters.clear()
    if faces is not None:
        state.dice = ScriptedDice(faces=list(faces))
    return game, state


MISSES = [6, 1] + [2] * 40
"""The players win the initiative (6 against 1); then every hit roll misses (2s)."""


def shooting_phase(shooter: dict[str, Any], gap: float,
                   settings: dict[str, Any] | None = None) -> tuple[Game, State]:
    """a1 (profile ``shooter``) and e1 (a trooper) ``gap`` apart, base to base, on a clear line
    (y 14), a2 far off; e1's unit a Fire Team that stays and fires at will (command 1). The dice
    are :data:`MISSES`; the game is at the first battle round's shooting phase, the players'
    turn (the enemy's with ``state.next_side = "enemy"``)."""
    a1_radius = float(shooter.get("base_mm", 25)) / 25.4 / 2
    doc: dict[str, Any] = {
        "name": "shooting", "edition": "kt2018", "board": board(),
        "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                   "table": {i: "trooper" for i in range(1, 7)}},
        "engagement": 1, "seed": 1,
        "mission": {"name": "Objective Ultima", "pariah": "objective-ultima"},
        "squads": [{"player": "Ana", "models": [
            {"id": "a1", "profile": copy.deepcopy(shooter), "at": [3, 14]},
            {"id": "a2", "profile": copy.deepcopy(TROOPER), "at": [1, 20]}]}],
        "enemies": [{"id": "u1", "command": 1, "models": [
            {"id": "e1", "profile": "trooper", "at": [3 + a1_radius + RADIUS + gap, 14]}]}],
        "settings": {"turns": 2, **(settings or {})}}
    game, state = new_game(parse_scenario(doc, "shooting.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=list(MISSES))
    engine_until_players(game, state)
    state.phase = "shooting"
    return game, state


def engine_until_players(game: Game, state: State) -> None:
    """Engine steps until the players are asked something."""
    while pending(game, state).kind == "engine":
        step(game, state, {"type": "engine"})


def rolls(state: State, since: int = 0) -> list[dict[str, Any]]:
    """Every logged roll from step ``since`` on."""
    return [r for record in state.log[since:] for r in record["rolls"]]


def events(state: State, kind: str, since: int = 0) -> list[dict[str, Any]]:
    """Every event of ``kind`` from step ``since`` on."""
    return [e for record in state.log[since:] for e in record["events"] if e["type"] == kind]
