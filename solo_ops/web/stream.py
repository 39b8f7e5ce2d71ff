"""The table view's live event stream (``GET /api/events``) and what each step sends on it.

Server-sent events: one ``data:`` line per record as ``play --json`` prints it
(``{"record": ...}``), then the next prompt (``{"prompt": ...}``), an undo as the log writes it
(``{"undo": true, "keep": N}``), the end as ``{"result": ...}``; a keep-alive comment every
:data:`KEEP_ALIVE` seconds while nothing happens.
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
from solo_ops.web.server import TableServer, server_of

KEEP_ALIVE = 15.0
"""Seconds between keep-alive comments on an idle event stream."""


def _jsonline(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False)


def updates(server: TableServer, outcome: Outcome) -> list[str]:
    """The stream's lines for an answer's ``outcome``: undo, records, then prompt or result."""
    table = server.table
    lines = []
    if outcome.undone_to is not None:
        lines.append(_jsonline({"undo": True, "keep": outcome.undone_to}))
    for record in outcome.records:
        lines.append(_jsonline({"record": table.shown(record)}))
    if lines:
        with table.lock:
            if table.state.ended:
                lines.append(_jsonline({"result": table.state.result}))
            else:
                lines.append(_jsonline({"prompt": server.prompt_doc()}))
    return lines


async def api_events(request: Request) -> Response:
    """``GET /api/events?player=NAME``: the current prompt, then every update as it happens."""
    server = server_of(request)
    server.authorised(request)
    server.player_of(request.query_params.get("player"))
    hub = server.hub
    queue = hub.subscribe()
    first = await run_in_threadpool(server.prompt_doc)

    async def stream() -> AsyncIterator[str]:
        try:
            yield f"retry: 1000\n: connected\ndata: {_jsonline({'prompt': first})}\n\n"
            while True:
                try:
                    batch = await asyncio.wait_for(queue.get(), timeout=KEEP_ALIVE)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                yield "".join(f"data: {line}\n\n" for line in batch)
        finally:
            hub.unsubscribe(queue)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"cache-control": "no-cache",
                                      "x-accel-buffering": "no"})
