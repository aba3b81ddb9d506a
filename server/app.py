"""The MCP server: assembly of the tools, the lifespan, and the ``serve`` command (stdio or HTTP)."""

from __future__ import annotations

import argparse
import hmac
import importlib
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp.server import MCPServer

from rewrite_assist import __version__
from rewrite_assist.server import SERVER_NAME, config, security
from rewrite_assist.server.state import AppState

log = logging.getLogger(__name__)

# One module per tool under server/tools/, each with register(mcp).
TOOL_MODULES = (
    "rewrite_assist.server.tools.test_connection",
    "rewrite_assist.server.tools.find_recipes",
    "rewrite_assist.server.tools.get_recipe",
    "rewrite_assist.server.tools.analyze_diffs",
    "rewrite_assist.server.tools.lint_recipe",
    "rewrite_assist.server.tools.validate_recipe",
)

INSTRUCTIONS = """rewrite-assist helps you turn a pull request into an OpenRewrite recipe.
Search recipes with find_recipes (send 2-5 variations of one intent), confirm ids and options with
get_recipe, check a recipe YAML with lint_recipe, run it on a copy of the repository with validate_recipe,
and score any recipe diff against the PR diff with analyze_diffs. Never invent recipe ids."""


def create_server(state: AppState | None = None, *, warm_up: bool = True) -> MCPServer:
    """Build the server. ``state`` lets tests inject a store on a throwaway database."""
    app_state = state or AppState()

    @asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[AppState]:
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
    for name in TOOL_MODULES:
        importlib.import_module(name).register(mcp)
    return mcp


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


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="run the MCP server (stdio by default)")
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    p.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument(
        "--allow-root",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="only let tools read/build paths under DIR (repeatable); recommended for --transport http",
    )
    p.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    logging.getLogger().setLevel(logging.INFO)
    security.set_allowed_roots(args.allow_root or None)
    mcp = create_server()
    if args.transport == "stdio":
        mcp.run("stdio")
        return 0
    return _serve_http(mcp, args.host, args.port)


def _serve_http(mcp: MCPServer, host: str, port: int) -> int:
    import uvicorn

    token = config.api_token()
    if host not in ("127.0.0.1", "localhost", "::1") and not token:
        log.warning("serving on %s without REWRITE_ASSIST_TOKEN: anyone who can reach the port can call tools", host)
    if not security.allowed_roots():
        log.warning("no --allow-root given: HTTP callers may validate any directory this user can read")
    app = mcp.streamable_http_app(host=host)
    asgi = BearerTokenMiddleware(app, token) if token else app
    print(f"rewrite-assist MCP server on http://{host}:{port}/mcp", file=sys.stderr)
    uvicorn.run(asgi, host=host, port=port, log_level="warning")
    return 0


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
