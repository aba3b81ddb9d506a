"""The ``rewrite-assist`` command line (also ``python -m rewrite_assist``).

Each command group lives next to the code it drives and exposes ``register(subparsers)``; this module
only assembles them and reports failures once: a ``UserError`` is one line on stderr with its exit code,
and a reader that stops early (``| head``) ends the command quietly. Logging is quiet unless asked for
(warnings and errors; ``-v`` adds progress, ``-vv`` debug details, ``-q`` leaves errors only): the output
of a command is its answer, not its diary. ``serve`` raises the level to INFO itself, its log being the
only view of a running server.
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
from .server.errors import UserError, for_cli
from .server.mcp import cli as serve_cli
from .server.search import cli as search_cli
from .server.search.by_diff import cli as search_diff_cli
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
    parser.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="log progress to stderr (-vv: debug details); default: warnings and errors only",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="log errors only")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for group in COMMAND_GROUPS:
        group.register(subparsers)
    return parser


def log_level(verbose: int, quiet: bool) -> int:
    """The root logging level the CLI flags ask for."""
    if quiet:
        return logging.ERROR
    return {0: logging.WARNING, 1: logging.INFO}.get(verbose, logging.DEBUG)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    level = log_level(args.verbose, args.quiet)
    logging.basicConfig(
        level=level,
        format="%(levelname)s %(name)s: %(message)s" if level < logging.WARNING else "%(levelname)s: %(message)s",
        stream=sys.stderr,
    )
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        code = int(args.func(args) or 0)
    except UserError as exc:  # expected: the message says what to do
        print(f"rewrite-assist: {one_line(for_cli(str(exc)))}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # the reader stopped early (`| head`): not worth a traceback
        _discard_stdout()
        return 0
    except KeyboardInterrupt:
        print("rewrite-assist: interrupted", file=sys.stderr)
        return 130
    try:
        sys.stdout.flush()  # here, not at exit: a reader that left while the output sat in the buffer
    except BrokenPipeError:
        _discard_stdout()
    return code


def one_line(message: str) -> str:
    """An error message as one line, whatever a library below put into it."""
    return " ".join(message.split())


def _discard_stdout() -> None:
    """Point stdout at the null device, so the interpreter's final flush of what is still buffered does
    not fail on the closed pipe a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    raise SystemExit(main())
