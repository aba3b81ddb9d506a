"""The one family of expected failures: every message says what was wrong and what to do.

Library code raises a subclass of ``UserError``; the two surfaces translate it once — the CLI's ``main()``
into one line on stderr and the exit code below, the MCP tool wrapper into a ``ToolError``. Anything else
that escapes is a bug and is reported as one.
"""

from __future__ import annotations


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
