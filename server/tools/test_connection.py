"""MCP tool ``test_connection``: is the server up, and does its catalog answer?"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from rewrite_assist import __version__
from rewrite_assist.server import SERVER_NAME
from rewrite_assist.server.catalog.models import CatalogInfo
from rewrite_assist.server.state import tool_errors
from rewrite_assist.server.tools.context import get_state


class ConnectionReport(BaseModel):
    status: str
    server: str
    version: str
    catalog: CatalogInfo
    embedding_model_loaded: bool
    echo: str | None = None


def test_connection_tool(
    ctx: Context[Any, Any],
    message: Annotated[str | None, Field(description="any text; returned unchanged as `echo`")] = None,
) -> ConnectionReport:
    state = get_state(ctx)
    with tool_errors(state):
        store = state.store()
        store.check_ready()
        info = store.info()
    return ConnectionReport(
        status="ok",
        server=SERVER_NAME,
        version=__version__,
        catalog=info,
        embedding_model_loaded=state.embedder.ready,
        echo=message,
    )


def register(mcp: MCPServer) -> None:
    mcp.add_tool(
        test_connection_tool,
        name="test_connection",
        title="Test the rewrite-assist connection",
        description="Check that the server runs and its recipe catalog answers (recipe count, embedding "
        "model, source, ingestion time). Fails with the fix when the database is down or the catalog empty.",
        annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False),
    )
