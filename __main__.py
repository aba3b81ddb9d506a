"""The ``rewrite-assist`` command line (also ``python -m rewrite_assist``).

Each command group lives next to the code it drives and exposes ``register(subparsers)``; this module
only assembles them and reports failures once: a ``UserError`` is one line on stderr with its exit code.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from . import __version__
from .agents import cli as agents_cli
from .evaluation import cli as evaluation_cli
from .ingestion import cli as ingestion_cli
from .server.diffs import cli as diffs_cli
from .server.errors import UserError
from .server.mcp import cli as serve_cli
from .server.search import cli as search_cli
from .server.search import diff_cli as search_diff_cli
from .server.validation import cli as validation_cli

COMMAND_GROUPS = (
    ingestion_cli,  # ingest, status, db
    search_cli,  # search, show
    search_diff_cli,  # search-diff
    serve_cli,  # serve
    diffs_cli,  # analyze-diffs
    validation_cli,  # validate, lint-recipe
    agents_cli,  # install-agents, check-run
    evaluation_cli,  # eval
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rewrite-assist",
        description="Turn a pull request into an OpenRewrite recipe: catalog, search, validation, scoring.",
    )
    parser.add_argument("--version", action="version", version=f"rewrite-assist {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details to stderr")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for group in COMMAND_GROUPS:
        group.register(subparsers)
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
    except UserError as exc:  # expected: the message says what to do
        print(f"rewrite-assist: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # the reader stopped early (`| head`): not worth a traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush does not fail again
        return 0
    except KeyboardInterrupt:
        print("rewrite-assist: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
