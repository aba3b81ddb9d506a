"""Sub-commands ``install-agents`` and ``check-run``.

Both work without the MCP server running. ``check-run`` uses the catalog only to lint recipe ids; when
the catalog cannot be opened it says that lint was skipped instead of pretending the recipes are fine.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..server.errors import BadInput


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "install-agents",
        help="install the /rewrite-assist command, its subagents and the MCP server into a project",
        description=(
            "Copy the prompts into DIR/.claude/commands and DIR/.claude/agents, add the server to "
            "DIR/.mcp.json (merged, other servers kept) and allow its tools in DIR/.claude/settings.json. "
            "REWRITE_ASSIST_HOME, REWRITE_ASSIST_DATABASE_URL and REWRITE_ASSIST_MODEL, when set, go into the "
            "server's env, so Claude Code's server opens the same catalog as this shell."
        ),
    )
    p.add_argument(
        "--target",
        type=Path,
        default=Path("."),
        metavar="DIR",
        help="project directory, created if missing (default: .)",
    )
    p.add_argument("--force", action="store_true", help="replace prompts and a server entry that differ")
    p.add_argument(
        "--portable",
        action="store_true",
        help="start the server as plain `rewrite-assist` (found on PATH) instead of this installation's absolute "
        "path: for a .mcp.json the team commits, each member having rewrite-assist on PATH (default: the "
        "absolute path, which works whatever PATH Claude Code gets, on this machine only)",
    )
    p.set_defaults(func=run_install_agents)

    c = subparsers.add_parser(
        "check-run",
        help="re-verify a /rewrite-assist run folder (artifacts, stats, lint, decision, intent coverage)",
        description=(
            "Deterministic checks of a .output/<timestamp> folder: recomputes every option's stats from the "
            "diffs, lints the recipes, re-derives the decision and checks intent coverage. Exit code 0 when "
            "everything agrees, 1 when problems were found."
        ),
    )
    c.add_argument("output_dir", type=Path, metavar="OUTPUT_DIR")
    c.add_argument("--json", action="store_true", help="print the full report as JSON")
    c.add_argument("--no-lint", action="store_true", help="do not open the catalog; report lint as skipped")
    c.set_defaults(func=run_check_run)


def run_install_agents(args: argparse.Namespace) -> int:
    from .install import install_agents

    report = install_agents(args.target, force=args.force, portable=args.portable)
    for line in report.lines():
        print(line)
    if not report.changed and not report.kept_modified:
        print("Already installed; nothing changed.")
    else:
        print("Restart Claude Code in that directory, then run: /rewrite-assist <PR URL>")
    return 0


def run_check_run(args: argparse.Namespace) -> int:
    from .check_run import check_run
    from .report import render_text

    run_dir: Path = args.output_dir.expanduser()
    if not run_dir.is_dir():
        raise BadInput(f"{run_dir} is not a directory; pass a run folder such as .output/<timestamp>")
    if not (run_dir / "pr.diff").is_file() and not any(run_dir.glob("option-*")):
        raise BadInput(f"{run_dir} is not a /rewrite-assist run folder (no pr.diff, no option-*)")
    lookup, note = (None, "--no-lint given") if args.no_lint else _open_catalog()
    report = check_run(run_dir.resolve(), lookup, note)
    if args.json:
        print(json.dumps(report.model_dump(mode="json"), indent=2))
    else:
        print(render_text(report))
    return 0 if report.ok else 1


def _open_catalog() -> tuple[Any, str]:
    """The catalog store, or None and the reason it is unavailable (lint is then reported as skipped)."""
    from ..server import config
    from ..server.catalog.db import Database, embedded_pgdata
    from ..server.catalog.store import CatalogStore

    if config.database_url() is None and not embedded_pgdata().exists():
        # Starting the embedded server here would create an empty database just to find no catalog.
        return None, "no catalog: none ingested yet; run `rewrite-assist ingest`"
    try:
        store = CatalogStore(Database.from_environment(start=True))
        store.check_ready()
        return store, ""
    except Exception as exc:  # any failure to reach the catalog only disables the lint step
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return None, f"no catalog: {first_line}"
