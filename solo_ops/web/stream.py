"""The table view's live event stream (``GET /api/events``) and what each step sends on it.

Server-sent events: one ``data:`` line per record as ``play --json`` prints it
(``{"record": ...}``), then the next prompt (``{"prompt": ...}``, with its step), an undo as the
log writes it (``{"undo": true, "keep": N}``), the end as ``{"result": ...}``; a keep-alive
comment every :data:`KEEP_ALIVE` seconds while nothing happens. Each batch carries the game's
history as its event id (:func:`~solo_ops.web.server.tip`), so a page that reconnects by itself
(the browser's EventSource, sending ``Last-Event-ID``) is told whether it missed anything: the
first message of every connection is the prompt with ``resync`` true when the page must fetch
the game again (a new page, an undo, a restart with steps taken elsewhere, a new mission).
A campaign's pages also hear when it moves on (``{"campaign": PHASE}``). When the server
stops, every stream ends at once (:meth:`~solo_ops.web.server.Hub.close`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from solo_ops.session.table import Outcome
from solo_ops.web.server import TableServer, server_of, tip

KEEP_ALIVE = 15.0
"""Seconds between keep-alive comments on an idle event stream."""
RETRY_MS = 1000
"""How soon (milliseconds) a page's browser tries again when the stream breaks."""


def _jsonline(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False)


def updates(server: TableServer, outcome: Outcome) -> tuple[list[str], str | None]:
    """The stream's lines for an answer's ``outcome`` (undo, records, then prompt or result)
    and the event id after them."""
    table = server.table
    lines = []
    if outcome.undone_to is not None:
        # as the log writes it, with what was taken back for the other pages to say
        lines.append(_jsonline({"undo": True, "keep": outcome.undone_to,
                                "said": outcome.message}))
    for record in outcome.records:
        lines.append(_jsonline({"record": table.shown(record)}))
    if not lines:
        return [], None
    with table.lock:
        if table.state.ended:
            lines.append(_jsonline({"result": table.state.result}))
        else:
            lines.append(_jsonline({"prompt": server.prompt_doc()}))
        return lines, tip(table)


async def publish(server: TableServer, outcome: Outcome) -> None:
    """Send what ``outcome`` changed to every page."""
    lines, event_id = await run_in_threadpool(updates, server, outcome)
    server.hub.publish(lines, event_id)


def hello(server: TableServer, last: str | None) -> tuple[dict[str, Any], str | None]:
    """A connection's first message and event id: the prompt now (or, between a campaign's
    missions, the campaign's phase) and whether the page must fetch the game again."""
    if not server.playing:
        phase = server.desk.phase if server.desk is not None else None  # type: ignore[attr-defined]
        return {"campaign": phase, "resync": True}, None
    now = tip(server.table)
    return {"prompt": server.prompt_doc(), "resync": last != now}, now


def events(batch: list[str], event_id: str | None) -> str:
    """A batch as server-sent events: one message per line, the last carrying the event id
    (the browser keeps the last id it saw, and sends it when it reconnects)."""
    out = []
    for i, line in enumerate(batch):
        head = f"id: {event_id}\n" if event_id and i == len(batch) - 1 else ""
        out.append(f"{head}data: {line}\n\n")
    return "".join(out)


async def api_events(request: Request) -> Response:
    """``GET /api/events?player=NAME``: the current prompt, then every update as it happens."""
    server = server_of(request)
    server.acting(request, request.query_params.get("player"))
    hub = server.hub
    queue = hub.subscribe()
    last = request.headers.get("last-event-id")
    first, first_id = await run_in_threadpool(hello, server, last)

    async def stream() -> AsyncIterator[str]:
        try:
            head = f"id: {first_id}\n" if first_id else ""
            yield f"retry: {RETRY_MS}\n: connected\n{head}data: {_jsonline(first)}\n\n"
            while True:
                try:
                    got = await asyncio.wait_for(queue.get(), timeout=KEEP_ALIVE)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if got is None:  # the server is stopping (Hub.close)
                    return
                event_id, batch = got
                yield events(batch, event_id)
        finally:
            hub.unsubscribe(queue)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"cache-control": "no-cache",
                                      "x-accel-buffering": "no"})
