"""The ``serve`` command: run the MCP server over stdio (default) or streamable HTTP."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import config
from ..errors import BadInput
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
        help="let tools read and build paths under DIR only (repeatable); over HTTP, without it tools take "
        "inline text only and validate_recipe is refused",
    )
    p.add_argument(
        "--insecure",
        action="store_true",
        help="serve HTTP on a non-loopback address without REWRITE_ASSIST_TOKEN (anyone who reaches the port "
        "can call the tools)",
    )
    p.set_defaults(func=run_serve)


def is_loopback(host: str) -> bool:
    """Whether ``host`` binds this machine only (``localhost``, 127.0.0.0/8, ``::1``)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to any interface


def run_serve(args: argparse.Namespace) -> int:
    root = logging.getLogger()
    root.setLevel(min(root.level, logging.INFO))  # the log is the only view of a running server; -vv still adds debug
    if args.transport == "http":
        check_http_exposure(args.host, bool(config.api_token()), insecure=args.insecure)
    security.set_allowed_roots(args.allow_root or None)
    security.set_inline_only(args.transport == "http" and not args.allow_root)
    from .app import create_server

    mcp = create_server()
    if args.transport == "stdio":
        mcp.run("stdio")
        return 0
    return _serve_http(mcp, args.host, args.port)


def check_http_exposure(host: str, has_token: bool, *, insecure: bool) -> None:
    """Refuse to serve HTTP beyond this machine without a token, unless ``--insecure`` says so."""
    if is_loopback(host) or has_token:
        return
    if not insecure:
        raise BadInput(
            f"Refusing to serve HTTP on {host} without REWRITE_ASSIST_TOKEN: anyone who can reach the port could "
            "call the tools. Set REWRITE_ASSIST_TOKEN (clients send `Authorization: Bearer <token>`), bind "
            "127.0.0.1, or pass --insecure if the network itself is trusted."
        )
    log.warning(
        "INSECURE: serving HTTP on %s without REWRITE_ASSIST_TOKEN (--insecure): anyone who can reach the port "
        "can call every tool",
        host,
    )


def _serve_http(mcp: MCPServer, host: str, port: int) -> int:
    import uvicorn

    from .app import BearerTokenMiddleware, BodyLimitMiddleware

    token = config.api_token()
    if security.inline_only():
        log.warning(
            "no --allow-root given: tools take inline text only (paths and validate_recipe are refused); "
            "add --allow-root DIR to let them read and build under DIR"
        )
    app = mcp.streamable_http_app(host=host)
    limited = BodyLimitMiddleware(app)
    asgi = BearerTokenMiddleware(limited, token) if token else limited
    print(f"rewrite-assist MCP server on http://{host}:{port}/mcp", file=sys.stderr)
    uvicorn.run(asgi, host=host, port=port, log_level="warning")
    return 0
