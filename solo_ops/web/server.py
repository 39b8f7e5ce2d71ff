"""What one served game shares among its routes: the table, its token, the pages' streams.

:class:`TableServer` is made once per app by :func:`solo_ops.web.app.create_app` and kept in
the Starlette app's ``state``; every route finds it with :func:`server_of`. :class:`Hub` holds
the connected pages' event streams.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from solo_ops.core.errors import InputError
from solo_ops.session.table import GameTable
from solo_ops.web.guard import Refused, check_token


class Hub:
    """The connected pages' event streams: every update is sent to every one of them."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[list[str]]] = set()

    def subscribe(self) -> asyncio.Queue[list[str]]:
        queue: asyncio.Queue[list[str]] = asyncio.Queue()
        self.queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[list[str]]) -> None:
        self.queues.discard(queue)

    def publish(self, lines: list[str]) -> None:
        """Send ``lines`` (JSON documents, one ``data:`` line each) to every page."""
        if lines:
            for queue in list(self.queues):
                queue.put_nowait(lines)


@dataclass
class TableServer:
    """One served game: its table, its join token (None on localhost), the pages' streams and
    the page's files (read once, when the app is made)."""

    table: GameTable
    token: str | None
    hub: Hub
    static: dict[str, bytes]

    def authorised(self, request: Request, body: dict[str, Any] | None = None) -> None:
        """Refuse (403) a request without the join token, when the game has one."""
        check_token(request, self.token, body)

    def player_of(self, value: Any) -> str:
        """``value`` as one of the table's players, or a 400 naming them."""
        try:
            return self.table.check_player(value)
        except InputError as exc:
            raise Refused(400, exc.message) from None

    def prompt_doc(self) -> dict[str, Any]:
        """The table's current prompt as ``play --json`` prints it."""
        return self.table.prompt().to_dict()


def server_of(request: Request) -> TableServer:
    """The :class:`TableServer` of the app serving ``request``."""
    server: TableServer = request.app.state.server
    return server
