"""The ``serve`` command: run the MCP server over stdio (default) or streamable HTTP."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import config
from . import security

if TYPE_CHECKING:  # the SDK loads only when a server starts: other commands stay quick
    from mcp.server import MCPServer

log = logging.getLogger(__name__)


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
    root = logging.getLogger()
    root.setLevel(min(root.level, logging.INFO))  # the log is the only view of a running server; -vv still adds debug
    security.set_allowed_roots(args.allow_root or None)
    from .app import create_server

    mcp = create_server()
    if args.transport == "stdio":
        mcp.run("stdio")
        return 0
    return _serve_http(mcp, args.host, args.port)


def _serve_http(mcp: MCPServer, host: str, port: int) -> int:
    import uvicorn

    from .app import BearerTokenMiddleware

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
