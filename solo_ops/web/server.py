"""What one served game (or campaign) shares among its routes: the table, the links, the streams.

:class:`TableServer` is made once per app by :func:`solo_ops.web.app.create_app` and kept in
the Starlette app's ``state``; every route finds it with :func:`server_of`. :class:`Hub` holds
the connected pages' event streams.

Who a request is comes from its token (:mod:`solo_ops.session.links`): a player's token shows
the game and answers as that player only; the host's token may answer for anyone. Served on
this computer only, a request without a token is the host's (whoever sits at this computer
runs the game); beyond it, every request but the page's static files needs a token.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

from starlette.requests import Request

from solo_ops.io.savegame import step_print
from solo_ops.session.links import HOST, identify
from solo_ops.session.table import GameTable
from solo_ops.web import offers
from solo_ops.web.guard import Refused, token_of

NO_TOKEN = "this game needs your link's token: open the link the server printed for you"
BAD_TOKEN = ("this link is not (or no longer) valid: ask the host for your link (`--new-link "
             "NAME` makes a new one)")


class Hub:
    """The connected pages' event streams: every update is sent to every one of them, with
    the event id of the game's history after it (:func:`tip`)."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[tuple[str | None, list[str]] | None]] = set()
        self.closed = False

    def subscribe(self) -> asyncio.Queue[tuple[str | None, list[str]] | None]:
        queue: asyncio.Queue[tuple[str | None, list[str]] | None] = asyncio.Queue()
        if self.closed:
            queue.put_nowait(None)
        self.queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[tuple[str | None, list[str]] | None]) -> None:
        self.queues.discard(queue)

    def publish(self, lines: list[str], event_id: str | None = None) -> None:
        """Send ``lines`` (JSON documents, one ``data:`` line each) to every page."""
        if lines:
            for queue in list(self.queues):
                queue.put_nowait((event_id, lines))

    def close(self) -> None:
        """The server is stopping: end every page's stream (each page's browser reconnects
        by itself when the server is back), so nothing is left running to be cancelled."""
        self.closed = True
        for queue in list(self.queues):
            queue.put_nowait(None)


class Desk(Protocol):
    """The campaign's side of a served campaign (:mod:`solo_ops.web.campaign`): the mission
    being played (None between missions), the campaign's links and players."""

    @property
    def table(self) -> GameTable | None: ...

    @property
    def links(self) -> dict[str, Any] | None: ...

    @property
    def players(self) -> list[str]: ...

    def setup_table(self) -> GameTable | None:
        """The mission being set up, played or just ended (None between missions)."""
        ...


def tip(table: GameTable) -> str:
    """The event id of the game's history now: its length and the last step's fingerprint,
    so a page reconnecting with it (``Last-Event-ID``) is known to be up to date — or not,
    after an undo, a restart with steps taken at the terminal, or a new mission."""
    with table.lock:
        log = table.state.log
        return f"{len(log)}-{step_print(log[-1]) if log else '0'}"


@dataclass
class TableServer:
    """One served game (``table``) or campaign (``desk``): the pages' streams, the page's
    files (read once, when the app is made) and whether it is served on this computer only
    (``local_only``: then a request without a token is the host's)."""

    game_table: GameTable | None
    hub: Hub
    static: dict[str, bytes]
    local_only: bool = True
    desk: Desk | None = None
    pictures: dict[tuple[int, str, str], bytes] = field(default_factory=dict)
    """The board drawn for the game as it is now (every page asks for the same one)."""
    offered: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    """The one-thumb offers of the game as it is now (:meth:`offers`)."""
    base: str | None = None
    """The URL the players open (printed at start): the host's page shows each player's
    link on it as a QR code."""

    @property
    def table(self) -> GameTable:
        """The game being played, or a 409 between a campaign's missions."""
        table = self.desk.table if self.desk is not None else self.game_table
        if table is None:
            raise Refused(409, "no mission is being played now: the campaign page shows what "
                          "comes next")
        return table

    def setup_table(self) -> GameTable | None:
        """The game whose set-up the page shows: the one at the table, or a campaign's
        mission while it is set up too."""
        return self.desk.setup_table() if self.desk is not None else self.game_table

    @property
    def playing(self) -> bool:
        """Whether a game is at the table now (a campaign between missions: not)."""
        return (self.desk.table if self.desk is not None else self.game_table) is not None

    @property
    def links(self) -> dict[str, Any] | None:
        """The links that say who a request is: the campaign's, else the game's."""
        if self.desk is not None:
            return self.desk.links
        return self.game_table.game.links if self.game_table is not None else None

    @property
    def players(self) -> list[str]:
        """Everyone with a link: the campaign's players, else the game's."""
        if self.desk is not None:
            return self.desk.players
        return self.table.players

    def who(self, request: Request, body: dict[str, Any] | None = None) -> str:
        """Whose request it is: a player's name or :data:`~solo_ops.session.links.HOST`;
        403 without a valid token (none is needed on this computer only)."""
        given = token_of(request, body)
        if given is None:
            if self.local_only:
                return HOST
            raise Refused(403, NO_TOKEN)
        found = identify(self.links, given)
        if found is None:
            raise Refused(403, BAD_TOKEN)
        return found

    def authorised(self, request: Request, body: dict[str, Any] | None = None) -> str:
        """:meth:`who`, for routes that show the same thing to everyone."""
        return self.who(request, body)

    def player_of(self, value: Any) -> str:
        """``value`` as one of the players (:attr:`players`), or a 400 naming them."""
        players = self.players
        if not isinstance(value, str) or value not in players:
            shown = "" if value in (None, "") else f", not {str(value)[:40]!r}"
            raise Refused(400, f"player must be one of {', '.join(players)}{shown}")
        return value

    def acting(self, request: Request, value: Any, body: dict[str, Any] | None = None
               ) -> str | None:
        """The player a request acts as: ``value`` checked against who sent it — a player's
        link acts as that player only (403 for another), the host's for anyone. Left out, it is
        the link's player — or, for the host, None: whoever is asked (one device passed round
        the table)."""
        who = self.who(request, body)
        if value in (None, ""):
            return None if who == HOST else who
        player = self.player_of(value)
        if who != HOST and player != who:
            raise Refused(403, f"this link is {who}'s: it shows the game and answers as {who} "
                          "only")
        return player

    def offers(self) -> dict[str, Any]:
        """The active operative's one-thumb offers (:func:`solo_ops.web.offers.offers`),
        worked out once per step of the game for every page, with the question's focus."""
        table = self.table
        with table.lock:
            key = (id(table), tip(table))
            if key not in self.offered:
                doc = offers.offers(table)
                found = offers.focus(table, doc)
                doc["focus"] = {"ids": sorted(found.models),
                                "features": sorted(found.features or ()),
                                "box": offers.focus_box(table, found.models)}
                self.offered.clear()  # only the game as it is now is asked for
                self.offered[key] = doc
            return self.offered[key]

    def prompt_doc(self) -> dict[str, Any]:
        """The table's current prompt as ``play --json`` prints it, with its step."""
        return self.table.prompt_doc()


def server_of(request: Request) -> TableServer:
    """The :class:`TableServer` of the app serving ``request``."""
    server: TableServer = request.app.state.server
    return server
