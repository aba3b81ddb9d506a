"""The MCP server: assembly of the tools, the lifespan, and the ``serve`` command (stdio or HTTP)."""

from __future__ import annotations

import hmac
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio.to_thread
from mcp.server import MCPServer

from ... import __version__
from .. import SERVER_NAME, config
from .registry import register_tools
from .state import AppState
from .tools import TOOLS

log = logging.getLogger(__name__)

INSTRUCTIONS = """rewrite-assist helps you turn a pull request into an OpenRewrite recipe.
Search recipes with find_recipes (send 2-5 variations of one intent), confirm ids and options with
get_recipe, check a recipe YAML with lint_recipe, run it on a copy of the repository with validate_recipe,
and score any recipe diff against the PR diff with analyze_diffs. Never invent recipe ids."""


def create_server(state: AppState | None = None, *, warm_up: bool = True) -> MCPServer:
    """Build the server. ``state`` lets tests inject a store on a throwaway database."""
    app_state = state or AppState()

    @asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[AppState]:
        size_worker_threads()
        try:
            yield app_state
        finally:
            app_state.close()

    mcp = MCPServer(
        name=SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        middleware=[WarmUpAfterHandshake(app_state)] if warm_up else [],
    )
    register_tools(mcp, TOOLS)
    return mcp


WORKER_THREADS_PER_CONNECTION = 4


def size_worker_threads() -> int:
    """Give the event loop's worker threads (where the SDK runs every sync tool) a bound tied to the pool.

    A tool call holds a worker thread for its whole run but a database connection only for its queries,
    and validate_recipe holds a thread for minutes without one: 4 threads per connection (32 for the
    default pool of 8) keeps the pool busy under a burst while the rest wait in it, bounded, instead of
    anyio's fixed 40. Returns the bound.
    """
    try:
        size = config.db_pool_size()
    except ValueError:
        size = config.DEFAULT_DB_POOL_SIZE  # the first tool call reports the misconfiguration
    threads = max(8, WORKER_THREADS_PER_CONNECTION * size)
    anyio.to_thread.current_default_thread_limiter().total_tokens = threads
    return threads


class WarmUpAfterHandshake:
    """Starts the background warm-up (model, pool, ranking snapshot) with the first message after
    ``initialize`` — normally the client's ``notifications/initialized``.

    Started in the lifespan, the warm-up threads competed with the event loop for the GIL and both CPU
    cores and delayed the ``initialize`` answer by ~0.3 s. A client's first tool call comes after the
    handshake anyway, so nothing is lost by starting a moment later; warm-up runs once per process.
    """

    def __init__(self, state: AppState) -> None:
        self.state = state

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        result = await call_next(ctx)
        if ctx.method != "initialize":
            self.state.warm_up()
        return result


MAX_REQUEST_BYTES = 16 * 1024 * 1024


class BodyLimitMiddleware:
    """Answer 413 to an HTTP request whose body exceeds ``MAX_REQUEST_BYTES`` (16 MiB: two inline diffs of
    the 5,000,000-character limit fit), before the server parses any of it.

    The body is read here, up to the limit, and handed on whole: MCP requests are single JSON documents
    the server reads completely anyway.
    """

    def __init__(self, app: Any, limit: int = MAX_REQUEST_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._too_large(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._too_large(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([body], receive), send)

    async def _too_large(self, send: Any) -> None:
        await send({"type": "http.response.start", "status": 413, "headers": [(b"content-type", b"text/plain")]})
        await send(
            {
                "type": "http.response.body",
                "body": f"request body over {self.limit} bytes: send diffs and recipes under the documented "
                "limits\n".encode(),
            }
        )


def _replay(messages: list[dict[str, Any]], receive: Any) -> Any:
    pending = list(messages)

    async def replayed() -> dict[str, Any]:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


class BearerTokenMiddleware:
    """Reject HTTP requests without ``Authorization: Bearer <REWRITE_ASSIST_TOKEN>``."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            supplied = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(supplied, self.expected):
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")],
                    }
                )
                await send({"type": "http.response.body", "body": b"missing or wrong bearer token\n"})
                return
        await self.app(scope, receive, send)
