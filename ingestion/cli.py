"""CLI: ``ingest``, ``status`` and ``db start|stop|url|dump``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..server.errors import BadInput


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("ingest", help="build or update the recipe catalog from the OpenRewrite docs")
    p.add_argument(
        "--source",
        help="a rewrite-docs directory, a .tar.gz of it, or a URL of such a tarball "
        "(default: the pinned GitHub archive of openrewrite/rewrite-docs)",
    )
    p.add_argument("--strict", action="store_true", help="fail (and write nothing) if any page cannot be parsed")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")
    p.set_defaults(func=run_ingest)

    p = subparsers.add_parser("status", help="show what the catalog holds")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_status)

    db = subparsers.add_parser("db", help="manage the catalog database")
    dbsub = db.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    dbsub.add_parser("start", help="start the embedded PostgreSQL").set_defaults(func=run_db_start)
    dbsub.add_parser("stop", help="stop the embedded PostgreSQL").set_defaults(func=run_db_stop)
    dbsub.add_parser("url", help="print the database URL in use").set_defaults(func=run_db_url)
    d = dbsub.add_parser("dump", help="write the catalog as a compressed SQL file (for the Docker image)")
    d.add_argument("--output", "-o", required=True, type=Path, help="file to write, e.g. docker/catalog.sql.gz")
    d.set_defaults(func=run_db_dump)


def _store() -> Any:
    from ..server.catalog.db import Database
    from ..server.catalog.store import CatalogStore

    return CatalogStore(Database.from_environment())


def run_ingest(args: argparse.Namespace) -> int:
    from ..server.embedding import default_embedder
    from .pipeline import ingest
    from .source import open_source

    docs = open_source(args.source)  # before touching the database: a typo in --source must not start a server
    store = _store()
    report = ingest(store, docs, embedder=default_embedder(), strict=args.strict, progress=not args.no_progress)
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(report.summary(), file=sys.stderr)
    return 0


def run_status(args: argparse.Namespace) -> int:
    info = _store().info()
    if args.json:
        print(json.dumps(info.model_dump(exclude={"schema_version"}), indent=2))
        return 0
    if not info.recipes:
        print("The catalog is empty: run `rewrite-assist ingest`.")
        return 0
    print(
        f"{info.recipes} recipes ({info.composites} composites, {info.with_options} with options), "
        f"{info.modules} modules; {info.moderne_only} of the recipes are Moderne-only (no page, Moderne CLI/platform)\n"
        f"embedding model: {info.embedding_model}\nsource: {info.source}\n"
        f"ingested at: {info.ingested_at}\ndatabase: {info.database}"
    )
    return 0


def run_db_start(args: argparse.Namespace) -> int:
    from ..server import config
    from ..server.catalog.db import start_embedded

    if config.database_url():
        print("REWRITE_ASSIST_DATABASE_URL is set: using that external database, nothing to start.")
        return 0
    print(start_embedded())
    return 0


def run_db_stop(args: argparse.Namespace) -> int:
    from ..server import config
    from ..server.catalog.db import stop_embedded

    if config.database_url():
        print("REWRITE_ASSIST_DATABASE_URL is set: the external database is not managed here.")
        return 0
    print("stopped" if stop_embedded() else "the embedded database was not running")
    return 0


def run_db_url(args: argparse.Namespace) -> int:
    from ..server.catalog.db import resolve_url

    url, _kind = resolve_url(start=True)
    print(url)
    return 0


def run_db_dump(args: argparse.Namespace) -> int:
    from ..server.config import MODEL_KEY
    from .dump import write_dump

    store = _store()
    store.check_ready()
    try:
        counts = write_dump(store, args.output, model_key=MODEL_KEY)
    except OSError as exc:
        raise BadInput(f"Cannot write {args.output}: {exc.strerror or exc}") from exc
    size = args.output.stat().st_size
    print(
        f"wrote {args.output} ({size / 1e6:.1f} MB): " + ", ".join(f"{k} {v}" for k, v in counts.items()),
        file=sys.stderr,
    )
    return 0
