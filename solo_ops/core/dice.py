"""Dice: one seeded, replayable source per game, and a log entry for every roll.

Nothing in solo-ops rolls a die except through a :class:`Dice` object handed to it. Each roll
returns (and appends to :attr:`Dice.log`) a :class:`RollEntry` that says what it was for, which
dice were rolled, the raw faces, the modifiers and the final value, so the game's event log can
show and replay every roll.

The game's dice are counter-based: every 64-bit draw is a function of the seed and the draw's
number only, so the whole state is two integers, it saves to plain data and restores to
continue identically, and the output does not depend on the Python version. Two schemes
(:data:`SCHEMES`; a save records which one its game rolls with):

* ``blake2b`` (:class:`KeyedDice`, every new game): draw ``n`` is a word of BLAKE2b keyed by
  the seed over ``n``'s block — a keyed hash, so the faces the players see say nothing about
  the ones they do not (a hidden order), even to someone who tries every seed of a small
  range: without the key no draw can be told from chance, and a seed drawn from the operating
  system (:func:`fresh_seed`, 128 bits) is beyond any search.
* ``splitmix64`` (:class:`SeededDice`, the saves written before it): SplitMix64 over
  ``seed + n * golden``. Kept so those games replay exactly; it is not secret (its output
  gives its state away).

:class:`ScriptedDice` plays back faces given by a test. :func:`outcomes` lists the equally
likely faces of a die, for exact odds.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from solo_ops.core.errors import SoloOpsError

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _splitmix64(z: int) -> int:
    """The SplitMix64 finaliser: a well-mixed 64-bit output for a 64-bit input."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


@dataclass(frozen=True)
class RollEntry:
    """One roll as the event log records it.

    ``dice`` is the notation (``"d6"``, ``"2d6"``, ``"d3"``), ``faces`` the raw faces in the
    order rolled, ``modifiers`` a tuple of ``(reason, amount)`` pairs and ``value`` the final
    result: the sum of the faces plus the modifiers, clamped to ``[low, high]`` when the rule
    says so. ``ref`` points at the ``seq`` of an earlier roll this one re-rolls. ``secret``
    marks a roll the players must not see (a hidden order): the roller says so when it rolls,
    and the player view drops it.
    """

    seq: int
    purpose: str
    dice: str
    faces: tuple[int, ...]
    modifiers: tuple[tuple[str, int], ...] = ()
    value: int = 0
    ref: int | None = None
    note: str | None = None
    secret: bool = False

    @property
    def face(self) -> int:
        """The single face of a one-die roll."""
        return self.faces[0]

    @property
    def natural(self) -> int:
        """The sum of the faces before modifiers."""
        return sum(self.faces)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seq": self.seq,
            "purpose": self.purpose,
            "dice": self.dice,
            "faces": list(self.faces),
            "modifiers": [[reason, amount] for reason, amount in self.modifiers],
            "value": self.value,
        }
        if self.ref is not None:
            data["ref"] = self.ref
        if self.note:
            data["note"] = self.note
        if self.secret:
            data["secret"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RollEntry:
        return cls(
            seq=int(data["seq"]),
            purpose=str(data["purpose"]),
            dice=str(data["dice"]),
            faces=tuple(int(f) for f in data["faces"]),
            modifiers=tuple((str(r), int(a)) for r, a in data.get("modifiers", [])),
            value=int(data["value"]),
            ref=data.get("ref"),
            note=data.get("note"),
            secret=bool(data.get("secret", False)),
        )

    def describe(self) -> str:
        """A short text such as ``d6 rolled 3 +1 (Leadership 8) = 4``."""
        faces = ", ".join(str(f) for f in self.faces)
        text = f"{self.dice} rolled {faces}"
        for reason, amount in self.modifiers:
            text += f" {amount:+d} ({reason})"
        if self.modifiers or len(self.faces) > 1 or self.value != self.natural:
            text += f" = {self.value}"
        return text


class DiceExhausted(SoloOpsError):
    """A scripted dice double ran out of faces: the test asked for more rolls than it gave."""


@dataclass
class Dice:
    """Base class: the rolling and logging shared by every source of faces."""

    log: list[RollEntry] = field(default_factory=list, init=False)
    seq: int = field(default=0, init=False)

    def _face(self, sides: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def roll(
        self,
        purpose: str,
        count: int = 1,
        sides: int = 6,
        modifiers: Iterable[tuple[str, int]] = (),
        *,
        low: int | None = None,
        high: int | None = None,
        ref: int | None = None,
        note: str | None = None,
        secret: bool = False,
    ) -> RollEntry:
        """Roll ``count`` dice of ``sides`` faces for ``purpose`` and log the result
        (``secret``: the players must not see it)."""
        if count < 0 or sides < 1:
            raise ValueError(f"cannot roll {count}d{sides}")
        faces = tuple(self._face(sides) for _ in range(count))
        mods = tuple((str(r), int(a)) for r, a in modifiers if a)
        value = sum(faces) + sum(a for _, a in mods)
        if high is not None:
            value = min(high, value)
        if low is not None:
            value = max(low, value)
        self.seq += 1
        notation = f"{count if count != 1 else ''}d{sides}"
        entry = RollEntry(self.seq, purpose, notation, faces, mods, value, ref, note, secret)
        self.log.append(entry)
        return entry

    def d6(self, purpose: str, modifiers: Iterable[tuple[str, int]] = (), **kw: Any) -> RollEntry:
        """One six-sided die."""
        return self.roll(purpose, 1, 6, modifiers, **kw)

    def d3(self, purpose: str, modifiers: Iterable[tuple[str, int]] = (), **kw: Any) -> RollEntry:
        """One three-sided die (a d6 halved, rounding up, at the table)."""
        return self.roll(purpose, 1, 3, modifiers, **kw)

    def pool(self, purpose: str, count: int, sides: int = 6, **kw: Any) -> RollEntry:
        """A pool of dice whose faces are read one by one (attack and defence dice)."""
        return self.roll(purpose, count, sides, **kw)

    def choice(self, purpose: str, options: Sequence[Any]) -> Any:
        """Pick one of ``options`` uniformly with a logged roll of a die of ``len(options)``."""
        if not options:
            raise ValueError("cannot choose from nothing")
        if len(options) == 1:
            return options[0]
        return options[self.roll(purpose, 1, len(options)).face - 1]

    def uniform(self, purpose: str) -> float:
        """A uniform number in [0, 1) drawn from the source and logged (for placing points)."""
        entry = self.roll(purpose, 1, 1_000_000)
        return (entry.face - 1) / 1_000_000

    def since(self, seq: int) -> list[RollEntry]:
        """Entries rolled after the entry numbered ``seq``.

        The log holds entries in the order rolled, numbered upwards (only :meth:`roll` adds to
        it; a caller may empty it), so they are the log's tail: it is read back from its end,
        and the cost is the number of new rolls, not the length of the game (the engine asks
        after every step)."""
        log = self.log
        start = len(log)
        while start and log[start - 1].seq > seq:
            start -= 1
        return log[start:]

    def state(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass
class WordDice(Dice):
    """Dice drawn from a seeded stream of 64-bit words over a counter (each scheme's
    :meth:`next64`), so the state is ``(seed, counter)``: a face is a word, the biased tail of
    the words rejected."""

    seed: int = 0
    counter: int = 0
    KIND: ClassVar[str] = ""
    """The name :func:`dice_from_state` knows the scheme by."""

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise TypeError("seed must be an integer")

    def next64(self) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def _face(self, sides: int) -> int:
        limit = ((1 << 64) // sides) * sides  # reject the biased tail: faces stay uniform
        while True:
            x = self.next64()
            if x < limit:
                return x % sides + 1

    def state(self) -> dict[str, Any]:
        """Plain data that :func:`dice_from_state` turns back into an identical source."""
        return {"kind": self.KIND, "seed": self.seed, "counter": self.counter, "seq": self.seq}


@dataclass
class SeededDice(WordDice):
    """The dice of the games saved before the keyed dice (scheme ``splitmix64``, save schema 5
    and older): SplitMix64 over a counter, so the state is ``(seed, counter)``. Its output
    gives its state away: new games roll :class:`KeyedDice`."""

    KIND: ClassVar[str] = "seeded"

    def next64(self) -> int:
        """The generator's next 64-bit word (SplitMix64's output: the reference values test
        it); each face is drawn from these."""
        self.counter += 1
        return _splitmix64((self.seed + self.counter * _GOLDEN) & _MASK)


SEED_BITS = 128
"""The size of a seed drawn from the operating system (:func:`fresh_seed`)."""
_WORDS = 8
"""64-bit words in one BLAKE2b output of 64 bytes: one hash serves eight draws."""


def fresh_seed() -> int:
    """A new game's seed when the player names none: :data:`SEED_BITS` bits from the operating
    system (``secrets``), never the game's own dice or the clock."""
    return secrets.randbits(SEED_BITS)


def derived_seed(seed: int, label: str) -> int:
    """A seed of its own for a second stream of dice made from ``seed`` (``label`` says what
    for: the encounter generator's dice, say), 256 bits of a hash of both. The two streams
    share no draw, so the faces one shows say nothing about the other's, although both come
    from one seed the player may have chosen."""
    data = f"{seed}/{label}".encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(data, digest_size=32,
                                          person=b"solo-ops derive").digest(), "big")


def short_id(seed: int, label: str) -> str:
    """Six hex digits naming a file made from ``seed`` (an encounter, a save) without telling
    the seed: a hash of it, so the same seed names the same file and a seed drawn from the
    operating system cannot be found from the name."""
    return f"{derived_seed(seed, 'name/' + label) >> 232:06x}"


@functools.lru_cache(maxsize=256)
def _keyed(seed: int) -> Any:
    """The BLAKE2b hasher keyed by ``seed`` (any integer: its decimal digits hashed to the
    32-byte key), before any data; each block copies it. Cached: a simulator's worker rolls
    for one seed at a time."""
    key = hashlib.blake2b(str(seed).encode("ascii"), digest_size=32,
                          person=b"solo-ops seed").digest()
    return hashlib.blake2b(key=key, digest_size=64, person=b"solo-ops dice")


@dataclass
class KeyedDice(WordDice):
    """The game's dice (scheme ``blake2b``): draw ``n`` (1, 2, …) is word ``(n - 1) % 8`` of
    BLAKE2b keyed by the seed over block ``(n - 1) // 8`` (8 bytes, little-endian), so the
    state is ``(seed, counter)`` as :class:`SeededDice`'s, and a roll's faces depend on the
    seed and the roll's place only. A keyed hash is a pseudo-random function: without the key
    (the seed), no set of draws says anything about another."""

    KIND: ClassVar[str] = "keyed"
    _block: int = field(default=-1, init=False, repr=False, compare=False)
    _words: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def next64(self) -> int:
        """The next 64-bit word of the keyed stream (BLAKE2b keyed by the seed over the word's
        place); each face is drawn from these."""
        index = self.counter
        self.counter += 1
        block, word = divmod(index, _WORDS)
        if block != self._block:
            hasher = _keyed(self.seed).copy()
            hasher.update(block.to_bytes(8, "little"))
            self._words = struct.unpack("<8Q", hasher.digest())
            self._block = block
        return self._words[word]


SPLITMIX = "splitmix64"
"""The scheme of the saves written before the keyed dice (schema 5 and older)."""
KEYED = "blake2b"
"""The scheme of every new game."""
SCHEMES: dict[str, type[SeededDice] | type[KeyedDice]] = {SPLITMIX: SeededDice,
                                                            KEYED: KeyedDice}
"""Each dice scheme a save may name, and the source that rolls it."""
CURRENT = KEYED


def dice_for(scheme: str, seed: int) -> Dice:
    """The dice of a game of ``scheme`` (:data:`SCHEMES`) and ``seed``, before any roll."""
    try:
        return SCHEMES[scheme](seed=seed)
    except KeyError:
        raise ValueError(f"unknown dice scheme {scheme!r}") from None


def scheme_of(dice: Dice | None) -> str | None:
    """The scheme ``dice`` rolls with (None: scripted dice, or none)."""
    for name, cls in SCHEMES.items():
        if type(dice) is cls:
            return name
    return None


@dataclass
class ScriptedDice(Dice):
    """A test double that returns the given faces in order and fails loudly when they run out."""

    faces: list[int] = field(default_factory=list)
    position: int = 0

    def _face(self, sides: int) -> int:
        if self.position >= len(self.faces):
            raise DiceExhausted(f"scripted dice ran out after {len(self.faces)} faces")
        face = self.faces[self.position]
        if not 1 <= face <= sides:
            raise ValueError(f"scripted face {face} is not on a d{sides}")
        self.position += 1
        return face

    def state(self) -> dict[str, Any]:
        return {"kind": "scripted", "faces": list(self.faces), "position": self.position,
                "seq": self.seq}


def dice_from_state(state: dict[str, Any]) -> Dice:
    """Rebuild a dice source from :meth:`Dice.state` output; it continues identically."""
    kind = state.get("kind")
    if kind in ("seeded", "keyed"):
        cls = SeededDice if kind == "seeded" else KeyedDice
        dice: Dice = cls(seed=int(state["seed"]), counter=int(state["counter"]))
    elif kind == "scripted":
        dice = ScriptedDice(faces=[int(f) for f in state["faces"]],
                            position=int(state["position"]))
    else:
        raise ValueError(f"unknown dice state kind {kind!r}")
    dice.seq = int(state.get("seq", 0))
    return dice


def outcomes(sides: int = 6) -> list[tuple[int, float]]:
    """The faces of one die with their exact probabilities: ``[(1, 1/6), ..., (6, 1/6)]``."""
    return [(face, 1.0 / sides) for face in range(1, sides + 1)]
