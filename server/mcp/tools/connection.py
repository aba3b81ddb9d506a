"""MCP tool ``test_connection``: is the server up, and does its catalog answer?"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import BaseModel, Field

from .... import __version__
from ... import SERVER_NAME
from ...catalog.models import CatalogInfo
from ...limits import MAX_MESSAGE_CHARS, check_optional
from ..registry import Tool, get_state


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
    check_optional(message, "message", max_chars=MAX_MESSAGE_CHARS)
    state = get_state(ctx)
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


TOOL = Tool(
    test_connection_tool,
    name="test_connection",
    title="Test the rewrite-assist connection",
    description="Check that the server runs and its recipe catalog answers (recipe count, embedding "
    "model, source, ingestion time). Fails with the fix when the database is down or the catalog empty.",
)
