"""How a tool reaches the shared ``AppState`` from its MCP ``Context``."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context

from rewrite_assist.server.catalog.store import CatalogStore
from rewrite_assist.server.state import AppState


def get_state(ctx: Context[Any, Any]) -> AppState:
    state = ctx.request_context.lifespan_context
    if not isinstance(state, AppState):
        raise RuntimeError("rewrite-assist tools need the server created by rewrite_assist.server.app.create_server")
    return state


def get_store(ctx: Context[Any, Any]) -> CatalogStore:
    """The catalog store (a ``RecipeLookup``); raises ``ToolError`` if the database is unavailable."""
    from rewrite_assist.server.state import tool_errors

    state = get_state(ctx)
    with tool_errors(state):
        return state.store()
