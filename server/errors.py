"""The one family of expected failures: every message says what was wrong and what to do.

Library code raises a subclass of ``UserError``; the two surfaces translate it once — the CLI's ``main()``
into one line on stderr and the exit code below, the MCP tool wrapper into a ``ToolError``. Anything else
that escapes is a bug and is reported as one.
"""

from __future__ import annotations

import re

# The same capability on both surfaces: library messages name the MCP tool (agents are their main readers),
# and the CLI rewords a message once, in ``main()``, with ``for_cli``: a shell user reads the command to run.
CLI_EQUIVALENTS = {
    "find_recipes": "rewrite-assist search",
    "get_recipe": "rewrite-assist show",
    "lint_recipe": "rewrite-assist lint-recipe",
    "validate_recipe": "rewrite-assist validate",
    "analyze_diffs": "rewrite-assist analyze-diffs",
    "test_connection": "rewrite-assist status",
    "min_score": "--min-score",
    "include_markdown": "--markdown",
}
_TOOL_WORDS = re.compile(r"`?\b(" + "|".join(CLI_EQUIVALENTS) + r")\b`?")


def for_cli(message: str) -> str:
    """``message`` as a CLI user should read it: MCP tool and parameter names become the CLI's."""
    return _TOOL_WORDS.sub(lambda m: f"`{CLI_EQUIVALENTS[m.group(1)]}`", message)


class UserError(Exception):
    """An expected failure the caller can act on; ``exit_code`` is what the CLI exits with."""

    exit_code = 1


class BadInput(UserError, ValueError):
    """The caller's arguments are unusable (malformed, out of range, unknown value)."""

    exit_code = 2


class NotFound(UserError, LookupError):
    """A named thing (recipe id, file, run folder) does not exist."""

    exit_code = 2


class CatalogUnavailable(UserError, RuntimeError):
    """The recipe catalog cannot serve right now: database down, catalog empty or outdated, model missing."""


class EnvironmentProblem(UserError, RuntimeError):
    """This machine lacks something the work needs (a JDK, a build tool, network, credentials)."""
