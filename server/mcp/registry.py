"""How a tool function becomes an MCP tool: one description record, one error translation for all.

Every tool raises the library's own ``UserError`` family; ``register_tools`` wraps each function once so
that such a failure reaches the agent as a ``ToolError`` with the library's message, and a database that
went away also drops the pool, so the next call reconnects.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from ..catalog.db import DatabaseUnavailable
from ..errors import UserError
from .state import AppState


@dataclass(frozen=True)
class Tool:
    """One MCP tool: the function and what agents read about it."""

    fn: Callable[..., Any]
    name: str
    title: str
    description: str
    read_only: bool = True
    idempotent: bool = True
    open_world: bool = False

    def annotations(self) -> ToolAnnotations:
        if self.read_only:
            return ToolAnnotations(
                read_only_hint=True, idempotent_hint=self.idempotent, open_world_hint=self.open_world
            )
        return ToolAnnotations(
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=self.idempotent,
            open_world_hint=self.open_world,
        )


def get_state(ctx: Context[Any, Any]) -> AppState:
    """The shared state of the server that runs this tool call."""
    state = ctx.request_context.lifespan_context
    if not isinstance(state, AppState):
        raise RuntimeError("rewrite-assist tools need the server built by rewrite_assist.server.mcp.app.create_server")
    return state


@contextlib.contextmanager
def _as_tool_errors(kwargs: dict[str, Any]) -> Iterator[None]:
    try:
        yield
    except ToolError:
        raise
    except DatabaseUnavailable as exc:
        for value in kwargs.values():
            if isinstance(value, Context):
                # the next call reconnects (or restarts the embedded server)
                get_state(value).forget_connection(exc.database)
        raise ToolError(f"The catalog database is unavailable: {exc}") from exc
    except UserError as exc:
        raise ToolError(str(exc)) from exc


def _translating(fn: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def async_tool(*args: Any, **kwargs: Any) -> Any:
            with _as_tool_errors(kwargs):
                return await fn(*args, **kwargs)

        return async_tool

    @functools.wraps(fn)
    def tool(*args: Any, **kwargs: Any) -> Any:
        with _as_tool_errors(kwargs):
            return fn(*args, **kwargs)

    return tool


def register_tools(mcp: MCPServer, tools: tuple[Tool, ...]) -> None:
    for tool in tools:
        mcp.add_tool(
            _translating(tool.fn),
            name=tool.name,
            title=tool.title,
            description=tool.description,
            annotations=tool.annotations(),
        )
