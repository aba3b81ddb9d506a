"""The ``rewrite-assist`` command line.

Each command group lives next to the code it drives and exposes ``register(subparsers)``; this module
only assembles them, so the CLI and the MCP tools call the same library functions.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from rewrite_assist import __version__
from rewrite_assist.server.errors import CatalogUnavailable

# Modules that add sub-commands. Each defines ``register(subparsers)`` and sets ``func`` on its parsers;
# ``func(args)`` returns the process exit code.
COMMAND_MODULES = (
    "rewrite_assist.ingestion.cli",  # ingest, status, db
    "rewrite_assist.server.search.cli",  # search, show
    "rewrite_assist.server.app",  # serve
    "rewrite_assist.server.diffs.cli",  # analyze-diffs
    "rewrite_assist.server.validation.cli",  # validate, lint-recipe
    "rewrite_assist.server.workflow.cli",  # install-agents, check-run
    "rewrite_assist.evaluation.cli",  # eval
)


class CommandError(Exception):
    """A failure to report as one line on stderr with exit code 2 (bad input) or 1 (failed work)."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rewrite-assist",
        description="Turn a pull request into an OpenRewrite recipe: catalog, search, validation, scoring.",
    )
    parser.add_argument("--version", action="version", version=f"rewrite-assist {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details to stderr")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except CommandError as exc:
        print(f"rewrite-assist: {exc}", file=sys.stderr)
        return exc.exit_code
    except CatalogUnavailable as exc:  # database down, catalog empty, model missing: the message says the fix
        print(f"rewrite-assist: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("rewrite-assist: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
