"""The table's links: one token per player and one for the host, made once and kept.

A served game (or campaign) gives every player a link of their own; the token in it says who
the page is. The tokens are made once — the first time a game or a campaign is served — and
kept in its save beside the players (``links`` in a game save, :mod:`solo_ops.io.savegame`;
in a campaign save, :mod:`solo_ops.campaign.model`), so a restarted server, a game taken to
the terminal with ``play --resume`` and brought back, or a new mission of a campaign keeps
every bookmarked link working. ``serve --new-link NAME`` re-issues one (:func:`reissue`): the
old link stops working at once.

* a player's token shows the game and answers as that player only;
* the host's token may answer for anyone (one device passed round the table);
* ``id`` is the game's public id, shown to the pages instead of anything the dice come from:
  it is random, so nothing about the seed can be worked out from it.

Links are data (a plain dict, as saved); this module makes and checks them. It draws its
tokens from the operating system (:mod:`secrets`), never from the game's dice.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from solo_ops.core import names

HOST = names.HOST
"""What :func:`identify` answers for the host's token (no player may be called so:
:func:`solo_ops.core.names.reserved_player`)."""
TOKEN_BYTES = 12
"""Random bytes in a token (16 characters of URL-safe text)."""


def _token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_links(players: Iterable[str]) -> dict[str, Any]:
    """Fresh links for ``players``: a public id, the host's token and one token each."""
    return {"id": secrets.token_hex(8), "host": _token(),
            "players": {name: _token() for name in players}}


def ensure(links: dict[str, Any] | None, players: Iterable[str]
           ) -> tuple[dict[str, Any], bool]:
    """``links`` with a token for every one of ``players`` (made when missing: a game served
    for the first time, a squad added to a campaign); whether anything was made. Existing
    tokens are never changed."""
    names = list(players)
    if links is None:
        return new_links(names), True
    missing = [name for name in names if name not in links["players"]]
    if not missing:
        return links, False
    out = {**links, "players": {**links["players"], **{n: _token() for n in missing}}}
    return out, True


def reissue(links: dict[str, Any], name: str) -> dict[str, Any]:
    """``links`` with a new token for ``name`` (a player, or ``host``): the old one stops
    working. Raises ``KeyError`` for a name that has no link."""
    if name == HOST:
        return {**links, "host": _token()}
    if name not in links["players"]:
        raise KeyError(name)
    return {**links, "players": {**links["players"], name: _token()}}


def identify(links: dict[str, Any] | None, token: str) -> str | None:
    """Whose ``token`` it is: a player's name, :data:`HOST`, or None (compared in constant
    time, every token tried)."""
    if links is None:
        return None
    found = None
    given = token.encode("utf-8", "replace")
    if secrets.compare_digest(given, str(links["host"]).encode()):
        found = HOST
    for name, value in links["players"].items():
        if secrets.compare_digest(given, str(value).encode()):
            found = name
    return found


def link_names(links: dict[str, Any]) -> list[str]:
    """Every name with a link: the players, then the host."""
    return [*links["players"], HOST]
