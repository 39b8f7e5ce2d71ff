"""The table view's web application: a JSON API, a live event stream and the page.

Everything a response holds is built from the players' view
(:meth:`~solo_ops.io.table.GameTable.view`, :meth:`~solo_ops.io.table.GameTable.shown`): no
counter contents, hidden orders or planned hidden moves reach the page, the API or the SVG.

Routes (``player`` is a player's name; beyond localhost every route but the static files also
needs the game's join ``token``, as a query parameter or an ``X-Solo-Ops-Token`` header):

* ``GET /`` the page; ``GET /static/...`` its script and style sheet;
* ``GET /api/players`` the players' names;
* ``GET /api/view?player=NAME[&since=N]`` ``{"prompt", "records", "score"}`` (``prompt`` and each
  record exactly as ``play --json`` prints them) and, for the page, ``player``, ``players``,
  ``waiting_for``, ``your_turn``, ``narration``, ``models``, ``doors``, ``board``, ``briefing``,
  ``steps``;
* ``POST /api/answer`` ``{"player", "answer"}`` → ``{"ok", "message", "prompt"}`` (and
  ``confirm`` when a computed move waits for a yes, ``records`` the new steps);
* ``GET /api/events?player=NAME`` server-sent events: one ``data:`` line per record as
  ``play --json`` prints it (``{"record": ...}``), then the next prompt (``{"prompt": ...}``),
  an undo as the log writes it (``{"undo": true, "keep": N}``), the end as ``{"result": ...}``;
* ``GET /api/place?player=NAME&x=X&y=Y[&how=move]`` a tap's snapped point, distance around the
  walls and whether it is within the move (:mod:`solo_ops.web.placing`);
* ``GET /board.svg?player=NAME`` and ``GET /board.png?player=NAME`` the board now.

Answers are accepted only from the player whose prompt it is (409 otherwise); bodies are at
most :data:`MAX_BODY` bytes of JSON (413 beyond, 400 for anything malformed, 415 for another
content type), and every error is one JSON document with one clear ``message``.
"""

from __future__ import annotations

import asyncio
import errno
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from solo_ops.core.errors import InputError, RuleError, SoloOpsError
from solo_ops.io.table import GameTable, Outcome
from solo_ops.web import board, placing

MAX_BODY = 4096
"""The largest request body accepted, in bytes."""
MAX_ANSWER = 500
"""The longest answer accepted, in characters."""
KEEP_ALIVE = 15.0
"""Seconds between keep-alive comments on an idle event stream."""
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
BODY_KEYS = ("player", "answer", "token")
STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8",
          "index.html": "text/html; charset=utf-8"}
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
     b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a bind address) serves this computer only."""
    return host in LOOPBACK or host.startswith("127.")


def new_token() -> str:
    """A per-game join token (printed at start, in every join link)."""
    return secrets.token_urlsafe(12)


def _jsonline(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False)


class Refused(Exception):
    """A request refused with an HTTP status and one clear message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


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


class Guard:
    """ASGI middleware: security headers on every response, and — when served on localhost —
    only requests addressed to localhost (a web page elsewhere cannot reach the game through
    a name that points here)."""

    def __init__(self, app: Any, *, local_only: bool) -> None:
        self.app, self.local_only = app, local_only

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.local_only:
            host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
            name = host.rsplit(":", 1)[0] if not host.startswith("[") else \
                host.split("]")[0] + "]"
            if name not in LOOPBACK and not name.startswith("127."):
                response = JSONResponse({"ok": False, "message": "this game is served to this "
                                         "computer only (open it as localhost or 127.0.0.1)"},
                                        status_code=403)
                await response(scope, receive, send)
                return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(table: GameTable, *, token: str | None = None, local_only: bool = True) -> Any:
    """The ASGI application serving ``table``. With ``token`` (served beyond localhost) every
    request but the static files must carry it; ``local_only`` refuses requests addressed to
    any name but localhost."""
    hub = Hub()
    static = {name: resources.files("solo_ops.web").joinpath("static", name).read_bytes()
              for name in STATIC}

    def authorised(request: Request, body: dict[str, Any] | None = None) -> None:
        if token is None:
            return
        given = request.query_params.get("token") or request.headers.get("x-solo-ops-token") \
            or (body or {}).get("token")
        if not isinstance(given, str) or not secrets.compare_digest(given.encode(),
                                                                    token.encode()):
            raise Refused(403, "this game needs its join token: open the link that "
                          "`solo-ops serve` printed for you")

    def player_of(value: Any) -> str:
        try:
            return table.check_player(value)
        except InputError as exc:
            raise Refused(400, exc.message) from None

    def prompt_doc() -> dict[str, Any]:
        return table.prompt().to_dict()

    def score(view: dict[str, Any]) -> dict[str, Any]:
        return {"vp": dict(view["vp"]), "cp": dict(view["cp"]), "turn": view["turn"],
                "phase": view["phase"], "ended": view["ended"], "result": view["result"]}

    def models(view: dict[str, Any]) -> list[dict[str, Any]]:
        radius = {o.id: o.radius for o in table.state.operatives.values()}
        out = []
        for player, ops in view["squads"].items():
            for o in ops:
                out.append({"id": o["id"], "side": "player", "player": player, "at": o["at"],
                            "radius": radius[o["id"]], "down": o["down"]})
        for o in view["enemies"]:
            out.append({"id": o["id"], "side": "enemy", "at": o["at"],
                        "radius": radius[o["id"]], "down": o["down"]})
        for c in view["counters"]:
            out.append({"id": c["id"], "side": "counter", "at": c["at"], "radius": 0.5,
                        "down": False})
        return out

    def view_doc(player: str, since: int) -> dict[str, Any]:
        with table.lock:
            view = table.view()
            prompt = prompt_doc()
            asked = prompt.get("player")
            return {
                "prompt": prompt,
                "records": table.records(since),
                "score": score(view),
                "player": player,
                "players": table.players,
                "waiting_for": asked if asked not in (None, player) else None,
                "your_turn": asked == player,
                "narration": table.narration(since),
                "models": models(view),
                "doors": dict(view["doors"]),
                "board": board.geometry(table.game, table.state),
                "briefing": table.briefing() if since == 0 else [],
                "scenario": view["scenario"],
                "edition": view["edition"],
                "steps": len(table.state.log),
            }

    def updates(outcome: Outcome) -> list[str]:
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
                    lines.append(_jsonline({"prompt": prompt_doc()}))
        return lines

    def since_of(request: Request) -> int:
        raw = request.query_params.get("since", "0")
        if not raw.isdigit() or len(raw) > 9:
            raise Refused(400, f"since must be a step number (0 or more), not {raw[:20]!r}")
        return int(raw)

    # -- routes --------------------------------------------------------------------------------
    async def page(request: Request) -> Response:
        authorised(request)
        return Response(static["index.html"], media_type=STATIC["index.html"],
                        headers={"cache-control": "no-store"})

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC or name == "index.html":
            raise Refused(404, f"no such file: /static/{name[:40]}")
        return Response(static[name], media_type=STATIC[name],
                        headers={"cache-control": "no-cache"})

    async def api_players(request: Request) -> Response:
        authorised(request)
        return JSONResponse({"players": table.players})

    async def api_view(request: Request) -> Response:
        authorised(request)
        player = player_of(request.query_params.get("player"))
        since = since_of(request)
        return JSONResponse(await run_in_threadpool(view_doc, player, since))

    async def api_answer(request: Request) -> Response:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused(415, "send the answer as JSON (Content-Type: application/json): "
                          '{"player": NAME, "answer": TEXT}')
        body = await read_body(request)
        authorised(request, body)
        player = player_of(body.get("player"))
        answer = body.get("answer")
        if not isinstance(answer, str):
            raise Refused(400, 'answer must be text, e.g. {"player": "Ana", "answer": "done"}')
        if len(answer) > MAX_ANSWER:
            raise Refused(400, f"answer is too long ({len(answer)} characters; at most "
                          f"{MAX_ANSWER})")
        if any(ord(ch) < 32 for ch in answer):
            raise Refused(400, "answer must be one line of text (no control characters)")
        outcome = await run_in_threadpool(table.answer, player, answer)
        hub.publish(await run_in_threadpool(updates, outcome))
        message = outcome.message
        if outcome.meta == "map":
            message = "Download the map: board.svg or board.png (links under the board)."
        elif outcome.meta in ("quit", "exit") and outcome.ok:
            message = (f"The game is saved after every step ({table.save.name}). Close the page "
                       "when you like; the host stops the server with Ctrl+C and goes on later "
                       f"with `solo-ops serve --resume {table.save}` or `solo-ops play "
                       f"--resume {table.save}`.")
        doc: dict[str, Any] = {"ok": outcome.ok, "message": message, "prompt": prompt_doc()}
        if outcome.confirm is not None:
            doc["confirm"] = outcome.confirm
        if outcome.records:
            doc["records"] = [table.shown(r) for r in outcome.records]
        if outcome.meta:
            doc["meta"] = outcome.meta
        status = 409 if outcome.refusal in ("turn", "ended") else 200
        if outcome.refusal == "save":  # the step was taken back: the game is as last saved
            status = 507 if outcome.errno == errno.ENOSPC else 500
        return JSONResponse(doc, status_code=status)

    async def read_body(request: Request) -> dict[str, Any]:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            raise Refused(413, f"the request body is too large (at most {MAX_BODY} bytes)")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise Refused(413, f"the request body is too large (at most {MAX_BODY} bytes)")
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise Refused(400, 'the body must be one JSON object: {"player": NAME, "answer": '
                          'TEXT}') from None
        if not isinstance(body, dict):
            raise Refused(400, 'the body must be one JSON object: {"player": NAME, "answer": '
                          'TEXT}')
        unknown = [k for k in body if k not in BODY_KEYS]
        if unknown:
            raise Refused(400, f"unknown key {str(unknown[0])[:40]!r} in the body (known: "
                          f"{', '.join(BODY_KEYS)})")
        return body

    async def api_events(request: Request) -> Response:
        authorised(request)
        player_of(request.query_params.get("player"))
        queue = hub.subscribe()
        first = await run_in_threadpool(prompt_doc)

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

    async def api_place(request: Request) -> Response:
        authorised(request)
        player_of(request.query_params.get("player"))
        q = request.query_params
        try:
            x, y = float(q.get("x", "")), float(q.get("y", ""))
        except ValueError:
            raise Refused(400, "x and y must be numbers (inches)") from None
        how = q.get("how", "move")

        def run() -> dict[str, Any]:
            with table.lock:
                return placing.preview(table.game, table.state, x, y, how)

        try:
            return JSONResponse({"ok": True, **await run_in_threadpool(run)})
        except RuleError as exc:
            return JSONResponse({"ok": False, "message": str(exc)})

    def drawing(kind: str) -> Callable[[Request], Awaitable[Response]]:
        async def handler(request: Request) -> Response:
            authorised(request)
            player_of(request.query_params.get("player"))

            def run() -> bytes:
                with table.lock:
                    view = table.view()
                    records = table.records()
                    if kind == "svg":
                        return board.board_svg(table.game, table.state, view,
                                               records).encode("utf-8")
                    return board.board_png(table.game, table.state, view, records)

            data = await run_in_threadpool(run)
            headers = {"cache-control": "no-store"}
            if request.query_params.get("download"):
                headers["content-disposition"] = f'attachment; filename="board.{kind}"'
            media = "image/svg+xml" if kind == "svg" else "image/png"
            return Response(data, media_type=media, headers=headers)

        return handler

    # -- errors --------------------------------------------------------------------------------
    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return JSONResponse({"ok": False, "message": exc.message}, status_code=exc.status)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        text = {404: f"no such page: {request.url.path[:60]}",
                405: f"{request.method} is not allowed on {request.url.path[:60]}"}
        return JSONResponse({"ok": False, "message": text.get(exc.status_code,
                                                               str(exc.detail))},
                            status_code=exc.status_code)

    async def game_error(request: Request, exc: Exception) -> Response:
        message = getattr(exc, "message", None) or str(exc)
        return JSONResponse({"ok": False, "message": message}, status_code=500)

    async def crash(request: Request, exc: Exception) -> Response:
        return JSONResponse({"ok": False, "message": f"internal error ({type(exc).__name__}); "
                             "the game is as it was saved"}, status_code=500)

    routes = [
        Route("/", page),
        Route("/static/{name}", static_file),
        Route("/api/players", api_players),
        Route("/api/view", api_view),
        Route("/api/answer", api_answer, methods=["POST"]),
        Route("/api/events", api_events),
        Route("/api/place", api_place),
        Route("/board.svg", drawing("svg")),
        Route("/board.png", drawing("png")),
    ]
    app = Starlette(routes=routes, exception_handlers={
        Refused: refused, HTTPException: http_error, SoloOpsError: game_error,
        Exception: crash})
    app.state.hub = hub
    app.state.table = table
    return Guard(app, local_only=local_only)
