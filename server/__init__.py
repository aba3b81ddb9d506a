"""The MCP server and everything it calls: catalog store, search, diff analysis, validation runner."""

from .. import __version__

SERVER_NAME = "rewrite-assist"

__all__ = ["SERVER_NAME", "__version__"]
