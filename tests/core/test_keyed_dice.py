"""The dice of new games: keyed by the seed, drawn per place, from a 128-bit seed the operating
system draws; the first scheme (SplitMix64) kept for the saves written with it.

The keyed scheme is checked against a re-implementation written here from its documentation
(:mod:`solo_ops.core.dice`): draw ``n`` is word ``n % 8`` of BLAKE2b (64-byte digest, person
``solo-ops dice``) keyed by BLAKE2b-256 of the seed's decimal digits (person ``solo-ops seed``)
over block ``n // 8`` as 8 little-endian bytes; a face of a die of ``s`` sides is ``x % s + 1``
for the first draw ``x`` below the largest multiple of ``s`` under 2**64."""

from __future__ import annotations

import hashlib
import struct

from solo_ops.core.dice import (
    CURRENT,
    KEYED,
    SCHEMES,
    SPLITMIX,
    KeyedDice,
    SeededDice,
    derived_seed,
    dice_for,
    dice_from_state,
    fresh_seed,
    scheme_of,
    short_id,
)


def documented_faces(seed: int, count: int, sides: int = 6) -> list[int]:
    """The faces of ``count`` single dice of the keyed scheme, from its documentation."""
    key = hashlib.blake2b(str(seed).encode(), digest_size=32, person=b"solo-ops seed").digest()
    limit = (2**64 // sides) * sides
    faces: list[int] = []
    n = 0
    while len(faces) < count:
        block, word = divmod(n, 8)
        digest = hashlib.blake2b(block.to_bytes(8, "little"), key=key, digest_size=64,
                                 person=b"solo-ops dice").digest()
        x = struct.unpack("<8Q", digest)[word]
        n += 1
        if x < limit:
            faces.append(x % sides + 1)
    return faces


def rolled(dice: object, count: int, sides: int = 6) -> list[int]:
    return [dice.roll("t", 1, sides).face for _ in range(count)]  # type: ignore[attr-defined]


def test_new_games_roll_the_keyed_scheme_as_documented() -> None:
    assert CURRENT == KEYED == "blake2b" and SCHEMES[KEYED] is KeyedDice
    for seed in (0, 1, 3, 2**127 + 12345, 2**256 - 1):
        assert rolled(dice_for(KEYED, seed), 40) == documented_faces(seed, 40)
    assert rolled(KeyedDice(seed=9), 25, sides=1_000_000) == documented_faces(9, 25, 1_000_000)


def test_a_draw_depends_on_the_seed_and_its_place_only() -> None:
    """Counter-based: the dice restored at any place go on as the dice that never stopped."""
    whole = KeyedDice(seed=77)
    faces = rolled(whole, 30)
    for k in (0, 1, 7, 8, 9, 17):  # within a block and across blocks of eight draws
        part = KeyedDice(seed=77)
        first = rolled(part, k)
        again = dice_from_state(part.state())
        assert isinstance(again, KeyedDice) and again.state() == part.state()
        assert first + rolled(again, 30 - k) == faces
    assert part.state()["kind"] == "keyed"


def test_the_first_scheme_still_rolls_its_old_faces() -> None:
    """The saves written before the keyed dice replay with SplitMix64 (pinned in
    tests/core/test_dice.py too): seed 0's first ten faces."""
    assert SCHEMES[SPLITMIX] is SeededDice
    assert rolled(dice_for(SPLITMIX, 0), 10) == [2, 1, 2, 5, 2, 1, 6, 3, 6, 3]
    assert rolled(dice_for(KEYED, 0), 10) != [2, 1, 2, 5, 2, 1, 6, 3, 6, 3]
    assert scheme_of(SeededDice(seed=1)) == SPLITMIX and scheme_of(KeyedDice(seed=1)) == KEYED


def test_fresh_seeds_are_128_bits_from_the_system() -> None:
    seeds = [fresh_seed() for _ in range(64)]
    assert len(set(seeds)) == 64 and all(0 <= s < 2**128 for s in seeds)
    # 64 draws of 128 bits: the chance that none reaches 2**120 is 2**-512
    assert max(s.bit_length() for s in seeds) > 120


def test_a_derived_stream_shares_no_draw_with_the_game() -> None:
    """The encounter generator's dice come from the same seed as the game's (``new`` writes one
    seed), through :func:`derived_seed`: its visible faces are not the game's first draws."""
    game = rolled(KeyedDice(seed=5), 200)
    generator = rolled(KeyedDice(seed=derived_seed(5, "encounter")), 200)
    assert game != generator
    assert derived_seed(5, "encounter") != derived_seed(5, "other") != 5
    assert derived_seed(5, "encounter") == derived_seed(5, "encounter")


def test_a_short_id_names_a_seed_without_telling_it() -> None:
    ids = {short_id(seed, "encounter") for seed in range(200)}
    assert len(ids) == 200 and all(len(i) == 6 for i in ids)  # 24 bits each: no clash here
    assert short_id(7, "encounter") == short_id(7, "encounter") != short_id(7, "save")
    assert all(str(seed) not in short_id(seed, "encounter") or seed < 10
               for seed in (12345, 2167193852, 2**127 + 1))
