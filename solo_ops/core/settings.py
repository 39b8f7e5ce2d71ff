"""Named settings: the places where players could reasonably read the rules differently.

Every setting has a default (the project's reading, recorded in ``docs/rules.md``) and can be
changed per scenario under ``settings:``. Unknown names are an error, so a typo never silently
falls back to the default.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from solo_ops.core.errors import InputError
from solo_ops.core.fields import Fields


@dataclass(frozen=True)
class Settings:
    """Game settings (all distances in inches)."""

    # Fog of war
    hidden_move: float = 6.0
    """How far a hidden counter moves when its hidden order says it moves (RULES-NOTES: 6")."""
    hidden_rally_radius: float = 12.0
    """Hidden-enemy row 6: lower-command counters within this distance move towards the rallier."""
    hidden_join_radius: float = 3.0
    """Hidden-enemy rows 3 and 6: a counter this close to the higher-command one joins it."""
    joined_counters: str = "one_unit"
    """Hidden-enemy row 3, a counter that joined a higher-command counter, when their stack is
    resolved: ``one_unit`` (its enemies join the host's unit and take its order, as joining a
    revealed unit does) or ``apart`` (each counter becomes units of its own, with orders of
    their own)."""
    revealed_order: str = "conceal"
    """Kill Team 2024: the order of the enemy models a counter reveals, until they first
    activate: ``conceal`` (as every operative is set up, 001 "Alternate setting up operatives
    in 3rds (round up), all concealed": a concealed model in cover is no valid target) or
    ``engage`` (they arrive shooting, open to the players' shots)."""
    ambush_distance: float = 6.0
    """Enemy-count row 6: both counters are placed this far from the spotting model."""
    counter_spacing: float = 1.0
    """Grid spacing used to look for hidden placement points."""
    hidden_moves_when: str = "end_of_turn"
    """When unresolved counters move: ``end_of_turn`` (after all activations of a turning point or
    battle round) or ``start_of_turn``."""
    # Orders
    cover_detour: float = 2.0
    """"Use cover if possible": accept a cover end point that costs at most this much progress."""
    coherency: float = 2.0
    """Models of a unit stay within this distance of another model of the unit (2018/2024: 2")."""
    hold_distance: float = 12.0
    """The "Hold 12" from enemy" distance."""
    troop_count: str = "main_weapon"
    """What counts towards a unit's troop type ("the most common type of weapons a unit
    carries"): ``main_weapon`` (each model's main weapon: its best ranged weapon other than a
    pistol, melee only when that is its main weapon) or ``every_weapon`` (every weapon listed,
    fists and bayonets included; pistols and grenades only when a unit has nothing else)."""
    allies_charge: str = "charge"
    """A unit answering allies (grouping with a leader, a rally) whose own Charge order allows a
    charge this activation: ``charge`` (each model that can make that charge makes it: 003
    gives Charge an instruction of its own, and Allies say where a unit moves -- "they will try
    and move into coherency") or ``join`` (it moves to join and does not charge)."""
    firing_line_cover: str = "seek"
    """A unit on "To Cover with firing line" that reached cover (state ``in_cover``): ``seek``
    (at each activation it moves again to the cover with the best field of fire, 003 "the
    unit will move to a location that allows them the best possible field of unhindered
    fire", which changes as the enemy moves) or ``stay`` (it remains stationary there, as
    "To Cover: Unit will move to the nearest cover and then remain stationary")."""
    fight_assist: str = "both"
    """Kill Team 2024 fight helpers (001 "IMPROVE hit stat by 1 for every friendly also within
    Control Range of the target AND no other enemy"), for both sides: ``both`` (the attacker
    and the defender are each assisted by their own friends in control range of the operative
    they fight and of no other enemy, as the Kill Team 2024 core rules assist whoever fights or
    retaliates) or ``attacker`` (only the operative that fights is assisted, the card's words
    read from its side alone)."""
    own_charge_fight: str = "stay"
    """An enemy unit that charged into a fight by its own order (a Fire Team or Support unit's
    charge "Within 6"", not a Melee unit's) and is still locked in it at its next
    activation, in both editions: ``stay`` (it fights on: it sought the fight, and 003 names
    falling back as something a unit is forced into, "will not move unless forced to by
    falling back or similar situation") or ``fall_back`` (it falls back out of it when it can,
    as such a unit does when it was charged: 2024 Fall Back, 2 AP; 2018 in the movement phase,
    unless an enemy charged it this phase)."""
    # Play
    enemy_attacks: str = "engine"
    """``engine``: solo-ops rolls the enemy's attacks and your defence dice; ``player``: you roll
    them at the table and report the damage."""
    cp_rerolls: str = "ask"
    """Kill Team 2024 CP re-rolls (card 001 "Re-Roll Attack/Defence Dice for 1CP") of the dice
    solo-ops rolls for the players: ``ask`` (after a roll with a failed die, while the players
    have a CP, the game asks ``reroll N`` or ``keep``) or ``never`` (never asked)."""
    fight_choices: str = "ask"
    """Kill Team 2024 fights of the players' operatives that solo-ops rolls (``fight … roll``,
    and every fight the enemy starts): ``ask`` (the players resolve their own dice one at a
    time, ``strike N``, ``block N`` or ``auto``, seeing the dice left, the wounds and each
    choice's outcome with the engine's advice; 001 "Alternate Strike or Block") or ``auto``
    (the engine resolves their dice by its documented policy, as it does the enemy's)."""
    cover_saves: str = "ask"
    """Kill Team 2024: a player operative's cover save where it could block nothing (the
    attacker's weapon is Brutal; a crits-only attack against a lone die or Save 6+): ``ask``
    (keep it or roll that die, with the mean damage either way) or ``auto`` (roll the die, the
    rule the enemy follows: it is never worse). Elsewhere the save is always retained."""
    turns: int = 4
    """Turning points (Kill Team 2024) or battle rounds (2018) before the battle ends."""
    reveal_hidden: bool = False
    """Debug: show hidden counters' contents and orders in every view. Spoils the game."""
    counter_rows: str = "shown"
    """A hidden counter's end-of-turn move says why (issue #27): ``shown`` (the row of the
    hidden-enemy table that moved it and what it moved towards, as a player rolling the
    supplement's table at the table would know it) or ``hidden`` (only where it went: its
    order stays a secret until it is resolved)."""
    counteract: str = "both"
    """Kill Team 2024 Counteract (card 001): which sides may counteract when they have no
    ready operative left and the other side still has: ``both`` (the players, by a prompt, and
    the enemy, by :mod:`solo_ops.ai.counteract`), ``players`` (only the players) or ``off``."""
    combat_shooting: str = "core"
    """Kill Team 2018 shooting from and into combat, for both sides: ``core`` (the reading of
    the 2018 Kill Team Core Manual, not in 004: a model within 1" of an enemy may fire only a
    Pistol, at the closest enemy model; no model may target an enemy within 1" of one of its
    friends, but that Pistol) or ``anywhere`` (any visible enemy may be shot; a model within 1"
    of an enemy does not shoot at all, Pistols included)."""
    rapid_fire: str = "double"
    """Kill Team 2018 Rapid Fire weapons (``type: rapid``), for both sides: ``double`` (the
    Kill Team 2018 Core Manual's rule, not in 004: a Rapid Fire weapon makes twice its number
    of attacks at a target within half its range) or ``as_written`` (004 only: the profile's
    number of attacks at any range)."""
    engaged_control_range: str = "pass"
    """Kill Team 2024 Reposition and Dash, for both sides (001 Reposition "Cannot move within
    Control Range of an enemy unless they are already in Control Range of a friendly and cannot
    finish the move within Control Range of an enemy"): ``pass`` (a move may pass through the
    control range of an enemy a friendly operative already holds in its own, never ending in
    it) or ``block`` (every enemy's control range blocks the way, the older reading)."""
    undo: str = "before_dice"
    """What ``undo`` may take back: ``before_dice`` (the players' last answer while nothing
    was rolled or revealed after it: once dice are rolled or a counter is seen, it stands, as
    at a table with a human opponent -- otherwise a look inside a counter, or at the next
    dice, could be taken back and played round) or ``any`` (any answer: the game is replayed
    without it, and the dice already shown come out again in the same order, whatever they
    are then rolled for)."""
    units: str = "in"
    """How the terminal shows and reads distances and points: ``in`` (inches, the engine's own
    unit) or ``cm`` (centimetres, 2.54 to the inch); see :mod:`solo_ops.view.measure`."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_CHOICES = {
    "hidden_moves_when": ("end_of_turn", "start_of_turn"),
    "joined_counters": ("one_unit", "apart"),
    "revealed_order": ("conceal", "engage"),
    "enemy_attacks": ("engine", "player"),
    "cp_rerolls": ("ask", "never"),
    "fight_choices": ("ask", "auto"),
    "cover_saves": ("ask", "auto"),
    "units": ("in", "cm"),
    "undo": ("before_dice", "any"),
    "engaged_control_range": ("pass", "block"),
    "troop_count": ("main_weapon", "every_weapon"),
    "counteract": ("both", "players", "off"),
    "counter_rows": ("shown", "hidden"),
    "combat_shooting": ("core", "anywhere"),
    "rapid_fire": ("double", "as_written"),
    "own_charge_fight": ("stay", "fall_back"),
    "firing_line_cover": ("seek", "stay"),
    "allies_charge": ("charge", "join"),
    "fight_assist": ("both", "attacker"),
}


MAX_DISTANCE = 100.0
"""Inches: the longest a distance setting may be (a table is at most 60" a side,
:data:`solo_ops.core.limits.BOARD`): a hidden move of 100000" once asked for a grid of a
terabyte, and the save could never be resumed."""
MIN_DISTANCE = {"counter_spacing": 0.1}
"""The shortest some distance settings may be (a grid's spacing of 0 would never end)."""


def parse_settings(data: Any, source: str | None, path: str = "settings") -> Settings:
    """Read a ``settings:`` mapping; unknown names and bad values name the setting."""
    if data is None:
        return Settings()
    doc = Fields(data, source, path)
    known = {f.name: f for f in fields(Settings)}
    doc.only(known)
    values: dict[str, Any] = {}
    for name in doc.data:
        default = getattr(Settings(), name)
        if name in _CHOICES:
            values[name] = doc.choice(name, _CHOICES[name])
        elif isinstance(default, bool):
            values[name] = doc.boolean(name)
        elif isinstance(default, int):
            values[name] = doc.integer(name, minimum=1, maximum=12)
        elif isinstance(default, float):  # inches: none longer than a table goes
            values[name] = doc.number(name, minimum=MIN_DISTANCE.get(name, 0.0),
                                      maximum=MAX_DISTANCE)
        else:  # pragma: no cover - every setting has one of the types above
            raise InputError("unsupported setting", source=source, field=f"{path}.{name}")
    return replace(Settings(), **values)
