"""The limits of what a file or the command line may ask for: one table for both.

Every characteristic has a smallest and a largest value. The command line (``solo-ops combat``)
and the file readers (rosters, squads, scenarios, campaign squads) check the same numbers, so a
profile that loads is a profile the game can play, quickly: no fight, shot or route search on a
legal profile or board takes more than a few seconds or more than a few hundred megabytes.
The limits sit far above anything printed on a datacard (the shipped rosters top out at 6
attacks and 14 wounds; the shipped boards at about 60 features) and are listed for players in
``docs/guide.md`` ("Limits of the files").

The files themselves are limited here too (:data:`FILES`: the largest file of each kind, checked
before a byte is read, by :mod:`solo_ops.io.reading`); nesting, aliases and values inside a
document are :mod:`solo_ops.core.documents`'s.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    """The legal range of one number, and what it is (for the error line)."""

    low: float
    high: float
    what: str

    def allows(self, value: float) -> bool:
        return self.low <= value <= self.high


LIMITS: dict[str, Limit] = {
    # Kill Team 2024 weapons. Attacks: the exact fight search grows with the dice of both sides
    # (12 against 12 with the worst wounds takes a few seconds; a datacard has at most 7).
    "attacks": Limit(0, 12, "attack dice"),
    "hit": Limit(2, 6, "Hit stat"),
    "damage": Limit(0, 99, "damage"),
    # profiles, both editions
    "wounds": Limit(1, 999, "wounds"),
    "defence_dice": Limit(0, 12, "defence dice"),
    "save": Limit(2, 6, "Save stat"),
    "save_2018": Limit(2, 7, "Save (7: none)"),
    "apl": Limit(1, 6, "APL"),
    "movement": Limit(0, 99, "movement in inches"),
    "base_mm": Limit(0, 200, "base diameter in mm"),
    "leadership": Limit(1, 12, "Leadership"),
    "toughness": Limit(1, 12, "Toughness"),
    # Kill Team 2018
    "ws": Limit(2, 7, "WS"),
    "bs": Limit(2, 7, "BS"),
    "strength": Limit(1, 20, "Strength"),
    "attacks_2018": Limit(1, 12, "attacks"),
    "invulnerable": Limit(2, 6, "invulnerable save"),
    "ap": Limit(-6, 6, "AP"),
    "dice_count": Limit(1, 4, "dice in a D3/D6 expression"),
    "dice_plus": Limit(0, 30, "fixed part of a number"),
    # weapons, both editions
    "range": Limit(0, 999, "range in inches"),
    "rule_value": Limit(1, 99, "weapon rule value"),
    "rule_inches": Limit(0, 999, "weapon rule distance in inches"),
    # the fight and the shot on the command line
    "helpers": Limit(0, 6, "helpers"),
    "hit_bonus": Limit(-6, 6, "hit bonus"),
    "accurate_bonus": Limit(0, 6, "Accurate from elsewhere"),
}
"""Each characteristic's legal range (inclusive)."""


def limit(name: str) -> Limit:
    """The limit called ``name`` (a key of :data:`LIMITS`)."""
    return LIMITS[name]


def bounds(name: str) -> tuple[int, int]:
    """``(low, high)`` of a whole-number limit, for the readers' ``minimum``/``maximum``."""
    item = LIMITS[name]
    return int(item.low), int(item.high)


@dataclass(frozen=True)
class BoardLimits:
    """How big a board file may be. Measured on this project's reference machine (2 cores):
    the first distance query around walls takes 1.3 s with 100 wall panels, 3 s with 150,
    5 s with 200 and 20 s with 300 (it grows with the corners of the walls); a picture is
    30 pixels per inch, drawn twice as large for a PNG. The shipped boards have at most 48
    features, 135 corners and measure 30" x 22"."""

    inches: float = 60.0
    """Largest width and depth (a Warhammer 40,000 table is 60" x 44")."""
    features: int = 150
    corners: int = 600
    """Points of every feature, zone, firing point and arc together."""
    zones: int = 20
    items: int = 100
    """Most objectives, markers or firing points (each)."""


BOARD = BoardLimits()
"""The limits every board is checked against when it is read."""


@dataclass(frozen=True)
class ScenarioLimits:
    """How many things a scenario may place: above the supplement's largest game (six
    engagement levels: 12 counters of up to 4 enemies; a co-op game of 4 players with 14
    operatives each), low enough that the largest legal game stays quick.

    Measured with ``python bench/largest_game.py --measure`` (issue #31; every count at its
    limit on the largest board: 4 squads of 20, 20 enemy units sharing 160 models, 12 counters
    placed and 12 more seeded at engagement 6, 40 mines, 148 features; 2026-11-27, the 2-core
    reference machine): reading it 0.4 s; ``ai plan`` at most 0.2 s a unit (107 MB); the first
    turning point, the autopilot playing the players' side, 11.7 s CPU and 340 MB in Kill
    Team 2024, the first battle round 15.4 s and 371 MB in 2018 (8 units of 20: 13.1 s and
    240 MB, 14.2 s and 216 MB); its save 0.8 MiB, its log 0.6 MiB — where the limits it
    replaced (6 squads of 20, 40 enemy units of 20, 40 counters) took about 40 s CPU and 600 MB
    for the 2024 turning point. A shipped scenario (the supplement's stronghold) takes 0.3 s
    and 60 MB. ``docs/guide.md`` ("Limits of the files") has the table."""

    squads: int = 4
    models: int = 20
    """Models in one squad or one enemy unit."""
    enemies: int = 20
    """Enemy units placed (the AI's benchmarks place twenty of one model each)."""
    enemy_models: int = 160
    """Enemy models placed, in all units together: what a turn's cost grows with."""
    counters: int = 12
    """Counters the scenario places (the engagement level seeds up to 12 more)."""
    equipment: int = 40
    saved_bytes: int = 4 * 1024 * 1024
    """The scenario with its board, roster and squads inline, as a save writes it (indented
    JSON): a save holds it whole, so a scenario larger than this could not be saved and
    loaded again (:data:`FILES`' ``save`` limit). The shipped ones are 10–25 KiB."""


SCENARIO = ScenarioLimits()
"""The limits every scenario is checked against when it is read."""


@dataclass(frozen=True)
class AnswerLimits:
    """How much work answers that no one types may ask (``--answers FILE``, ``--answer``,
    lines piped in): each answer a game takes is bounded by the game's own length (its
    turning points end it), so the limits are on the lines and on the answers that play
    nothing — meta words, refused answers, declined moves, lines while a mission waits for
    ``ready`` — which could otherwise repeat without end (140,000 ``status`` lines once took
    295 s of CPU). A file may spray answers that are refused until one fits (whoever's turn
    it is), so refusals are limited by how many come in a row and by the CPU they take in all.
    Past a limit the answers stop in one line (exit 2); every step before it is saved. A
    person at the keyboard has no limits."""

    lines: int = 10_000
    """Lines in all (blank lines and comments too): a whole co-op game needs a few hundred."""
    meta: int = 300
    """``help``, ``status`` and ``save`` answers (each shows or writes the whole table)."""
    undos: int = 25
    """``undo`` answers (each replays the game so far)."""
    maps: int = 10
    """``map FILE`` answers (each draws a picture)."""
    in_a_row: int = 200
    """Answers in a row that play nothing (refused, declined, meta), before one that plays."""
    idle_cpu: float = 8.0
    """Seconds of CPU all the answers that play nothing may take together (the backstop of
    the counts: a refusal that searches routes costs more than one that names no one)."""


ANSWERS = AnswerLimits()
"""The limits of answers read from a file, the options or a pipe."""


@dataclass(frozen=True)
class FileLimit:
    """The largest file of one kind solo-ops reads, and what the kind is called in the error
    line ("a save is at most 16 MiB")."""

    bytes: int
    what: str


_KIB, _MIB = 1024, 1024 * 1024

FILES: dict[str, FileLimit] = {
    # What players write (scenario, board, roster, squad, mission result, sweep, campaign
    # replacement): the biggest shipped file is under 6 KiB, the largest legal scenario written
    # out (bench/largest_game.py) about 100 KiB.
    "document": FileLimit(256 * _KIB, "a YAML or JSON file"),
    # What solo-ops writes itself. A save holds the scenario with its board, roster and squads
    # inline (each at most a document), the actions, a fingerprint and a chain hash per step,
    # a snapshot and a checkpoint; an event log holds every step's events and dice.
    # The largest legal game's save after its first turning point is 0.8 MiB and its log
    # 0.6 MiB (a scenario may ask for up to twelve); a save's scenario is at most
    # SCENARIO.saved_bytes of it.
    "save": FileLimit(16 * _MIB, "a save"),
    "log": FileLimit(24 * _MIB, "an event log"),
    "campaign": FileLimit(16 * _MIB, "a campaign save"),
    # Files from elsewhere: BattleScribe / New Recruit rosters and KTDash exports (real ones
    # are a few hundred kilobytes), the answers of --answers (one line each), lock notes.
    "import": FileLimit(10 * _MIB, "a roster file to import"),
    "answers": FileLimit(1 * _MIB, "an answers file"),
    "note": FileLimit(4 * _KIB, "a lock note"),
    # solo-ops compile's note of the kernels compiled for this build, in the user's cache
    # folder (io.compiled: a few KiB, one signature per kernel).
    "compiled": FileLimit(1 * _MIB, "a note of compiled kernels"),
    # The pictures solo-ops drew (a campaign mission's map of its end, read back into the
    # chronicle): a board picture is a few hundred KiB.
    "picture": FileLimit(16 * _MIB, "a picture"),
}
"""The largest file of each kind read (bytes), checked before reading (``io.reading``)."""
