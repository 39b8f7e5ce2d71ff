"""No seed a player can learn: what a player's link receives never gives the dice away.

Two leaks were found (issue #41, items 1 and 2): answering ``quit`` on the page named the
default save, ``coop-<seed>.json``; and a player's set-up view shows each visible roll's place,
dice and faces, from which a brute force over 32-bit seeds found SplitMix64's seed and every
secret roll after it. Now a new game's seed is 128 bits from the operating system, saves are
named by a checksum of the game, and the dice are keyed by the seed (BLAKE2b over each draw's
place). The brute force of the issue is replayed here from a player's view: it finds the seed of
a game saved on the first scheme (the harness works), finds nothing for a new game, and the
view is shown not to determine the secret rolls at all — a game whose secret rolls differ gives
the players the very same view."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solo_ops.cli.common import resolve_seed
from solo_ops.core.dice import KEYED, SPLITMIX, ScriptedDice, dice_for
from solo_ops.game import engine
from solo_ops.game.engine import new_game
from solo_ops.io.opening import plan
from solo_ops.io.scenario import load_scenario
from solo_ops.session.opening import start_table
from solo_ops.session.table import GameTable
from solo_ops.web.app import create_app
from tests.support.api import ApiClient, post
from tests.support.players import small_scenario

SEARCHED = range(0, 4000)
"""The candidate seeds the brute force tries (the issue's search went through 2**32)."""


def no_seed_scenario(folder: Path) -> Path:
    """A small co-op scenario with no seed of its own: ``serve`` draws one (as for any
    scenario without one)."""
    path = small_scenario(folder, coop=True, engagement=2)
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"^seed: .*\n", "", text, flags=re.MULTILINE), encoding="utf-8")
    return path


def served_texts(table: GameTable, *, answers: bool = True) -> Iterator[str]:
    """Everything the players' pages receive of ``table`` at its set-up: the views, the board,
    and (``answers``) the replies to ``status``, ``save`` and ``quit`` (the last two name where
    the game is saved; any answer first runs the engine on to the first question)."""
    with ApiClient(create_app(table), "http://127.0.0.1:8765") as client:
        for player in ("Ana", "Ben"):
            yield client.get("/api/view", params={"player": player}).text
        yield client.get("/board.svg").text
        yield client.get("/board.png").text
        yield client.get("/api/players").text
        for word in ("status", "save", "quit") if answers else ():
            yield post(client, "Ana", word).text


def player_view(table: GameTable) -> dict[str, Any]:
    """Ana's view of the table, as her page receives it."""
    return json.loads(next(served_texts(table)))  # type: ignore[no-any-return]


def brute_force(view: dict[str, Any], scheme: str, seeds: range) -> dict[int, list[int]]:
    """The issue's search from a player's view: every candidate seed whose dice of ``scheme``
    give the visible rolls' faces at their places (``seq``; each place the view skips taken as
    a secret d6, and one more for each counter the view shows until every counter has its
    hidden order), with the faces it predicts for those secret places."""
    shown = {roll["seq"]: roll for record in view["records"] for roll in record["rolls"]}
    secrets = sum(e["type"] == "counter_placed" for r in view["records"] for e in r["events"])
    found = {}
    for seed in seeds:
        dice = dice_for(scheme, seed)
        secret: list[int] = []
        seq = 0
        while seq < max(shown) or len(secret) < secrets:
            seq += 1
            roll = shown.get(seq)
            if roll is None:
                secret.append(dice.d6("a secret roll").face)
                continue
            count, sides = roll["dice"].split("d")
            if list(dice.roll("guess", int(count or 1), int(sides)).faces) != roll["faces"]:
                break
        else:
            found[seed] = secret
    return found


def hidden_orders(table: GameTable) -> list[int]:
    return [entry.face for entry in table.state.dice.log if entry.secret]


def test_a_new_games_seed_is_in_nothing_a_player_receives(tmp_path: Path) -> None:
    """``serve SCENARIO`` with no seed: 128 bits from the system; the save is named by the
    game's checksum; no text a page receives holds the seed in decimal or hex, whole or as
    any run of eight of its digits."""
    path = no_seed_scenario(tmp_path)
    p = plan(path, None, None, None, False, command="serve", fresh_seed=resolve_seed)
    assert p.seed is not None and p.seed.bit_length() > 64  # 128 bits, nearly always > 120
    table, _notes = start_table(p.scenario, p.seed, tmp_path / p.save,  # type: ignore[arg-type]
                                tmp_path / p.log)
    table.ensure_links()
    texts = list(served_texts(table))
    quit_reply = json.loads(texts[-1])
    assert f"serve --resume {table.save}" in quit_reply["message"]
    assert re.fullmatch(r"small-kt2024-coop-[0-9a-f]{8}\.json", table.save.name)
    digits, hexits = str(p.seed), f"{p.seed:x}"
    for text in texts:
        low = text.lower()
        for i in range(len(digits) - 7):
            assert digits[i:i + 8] not in text
        for i in range(len(hexits) - 7):
            assert hexits[i:i + 8] not in low


def test_the_brute_force_finds_a_first_scheme_seed_and_its_secret_rolls(tmp_path: Path) -> None:
    """The harness: a game saved on the first scheme (SplitMix64, a 32-bit seed, as before) —
    its set-up view's rolls give the seed away, and with it every hidden order."""
    game, state = new_game(load_scenario(small_scenario(tmp_path, coop=True, engagement=2)),
                           2167, dice_scheme=SPLITMIX)
    table = GameTable(game, state, tmp_path / "old.json", tmp_path / "old.log.jsonl")
    table.start()
    found = brute_force(player_view(table), SPLITMIX, SEARCHED)
    assert found == {2167: hidden_orders(table)}
    assert len(hidden_orders(table)) == 4


def test_the_brute_force_finds_nothing_of_a_new_game(tmp_path: Path) -> None:
    """A new game (a fresh seed, keyed dice): the search finds no seed under either scheme,
    and the seed's 128 bits are beyond any search; the keyed dice of a seed in the range would
    have been found, so the search is the issue's own."""
    path = no_seed_scenario(tmp_path)
    seed = resolve_seed(None)
    game, state = new_game(load_scenario(path), seed)
    table = GameTable(game, state, tmp_path / "new.json", tmp_path / "new.log.jsonl")
    table.start()
    view = player_view(table)
    assert len(view["records"][0]["rolls"]) >= 8
    assert game.dice_scheme == KEYED and seed.bit_length() > 64
    assert brute_force(view, KEYED, SEARCHED) == {}
    assert brute_force(view, SPLITMIX, SEARCHED) == {}
    # a seed the players chose is for reproducing a game, not for secrecy: a small one is found
    chosen, state2 = new_game(load_scenario(path), 1234)
    table2 = GameTable(chosen, state2, tmp_path / "chosen.json", tmp_path / "chosen.log.jsonl")
    table2.start()
    assert brute_force(player_view(table2), KEYED, SEARCHED) == {1234: hidden_orders(table2)}


def test_the_view_does_not_determine_the_secret_rolls(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games of one scenario and seed whose dice agree on every visible roll and differ
    on every secret one (the hidden orders): everything the players receive is the same, byte
    for byte. So nothing computed from a player's view can give the secret rolls: it would
    give both games the same answer."""
    path = no_seed_scenario(tmp_path)
    seed = resolve_seed(None)
    game_a, state_a = new_game(load_scenario(path), seed)
    faces: list[int] = []
    for entry in state_a.dice.log:
        faces += [f % 6 + 1 for f in entry.faces] if entry.secret else list(entry.faces)
    monkeypatch.setattr(engine, "dice_for", lambda _scheme, _seed: ScriptedDice(faces=faces))
    game_b, state_b = new_game(load_scenario(path), seed)
    monkeypatch.undo()
    orders_a = {c.id: c.hidden_order for c in state_a.counters.values()}
    orders_b = {c.id: c.hidden_order for c in state_b.counters.values()}
    assert len(orders_a) == 4 and all(orders_a[c] != orders_b[c] for c in orders_a)
    tables = []
    for name, game, state in (("a", game_a, state_a), ("b", game_b, state_b)):
        table = GameTable(game, state, tmp_path / name / "g.json", tmp_path / name / "g.log")
        table.start()
        game.links = tables[0].game.links if tables else None  # the same public links
        table.ensure_links()
        tables.append(table)
    a, b = (list(served_texts(t, answers=False)) for t in tables)
    assert len(a) == 5 and a == b
    assert tables[0].state.dice.log != tables[1].state.dice.log  # the games do differ
