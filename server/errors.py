"""The one base class for "the catalog cannot serve right now" failures.

Database unreachable, catalog empty or on an old schema, embedding model missing: each is expected, each
message says how to fix it. The CLI reports any of them as one line (exit 1) and the MCP tools as a
``ToolError``, so no command has to translate them one by one.
"""

from __future__ import annotations


class CatalogUnavailable(RuntimeError):
    """The recipe catalog cannot serve; the message says what to do."""
