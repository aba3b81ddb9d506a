"""CLI mirrors of the search tools: ``search`` and ``show`` (same functions as the MCP tools).

Only argparse and ``defaults`` load at registration, so ``rewrite-assist --help`` stays quick; the search
machinery loads when a command runs.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

from .defaults import DEFAULT_LIMIT, DEFAULT_MIN_SCORE, MAX_LIMIT, MAX_VARIATIONS


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "search",
        help=f"find recipes for an intent (up to {MAX_VARIATIONS} variations of it)",
        description="Search the recipe catalog the way the find_recipes tool does: pass one intent, optionally "
        "followed by rewordings of the same change; recipes several phrasings agree on rank first. Recipe "
        "ids and class names match exactly; `-word` keeps recipes with that word out of the text matches.",
    )
    p.add_argument(
        "intent", nargs="+", help=f"the intent, optionally followed by variations of it (1-{MAX_VARIATIONS})"
    )
    p.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"hits to show, 1-{MAX_LIMIT} (default %(default)s)",
    )
    p.add_argument(
        "--min-score",
        type=float,
        default=DEFAULT_MIN_SCORE,
        metavar="X",
        help="drop recipes only the embeddings found with a cosine below X, -1..1 (default %(default)s); "
        "full-text and exact-name matches stay",
    )
    p.add_argument(
        "--module", metavar="ARTIFACT", help="only recipes of this module's artifact id, e.g. rewrite-spring"
    )
    p.add_argument("--tag", help="only recipes with this tag, e.g. junit")
    p.add_argument("--license", choices=["apache", "moderne"], help="only recipes under this license")
    p.add_argument(
        "--composite",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="only composites (recipes that run others, e.g. whole migrations); --no-composite: only single "
        "recipes (default: both)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON (the find_recipes tool's output)")
    p.set_defaults(func=run_search)

    p = subparsers.add_parser(
        "show",
        help="show one recipe (id, case-insensitive id or class name)",
        description="Everything the catalog knows about one recipe, as the get_recipe tool returns it: options "
        "with examples and valid values, sub-recipes, used-by, examples, docs and source links, and a "
        "rewrite.yml that runs it.",
    )
    p.add_argument("recipe_id", metavar="RECIPE", help="a recipe id, e.g. org.openrewrite.java.ChangeMethodName")
    p.add_argument("--markdown", action="store_true", help="include the cleaned documentation page")
    p.add_argument("--json", action="store_true", help="print the details as JSON (the get_recipe tool's output)")
    p.set_defaults(func=run_show)


def _services() -> Any:
    from ..services import Services

    return Services()


def run_search(args: argparse.Namespace) -> int:
    from ..errors import UserError, for_cli

    services = _services()
    store = services.store()
    meta = store.check_ready()  # an empty catalog ends the command here, before the model starts loading
    services.embedder.warm_up()  # loads while the search code is imported and the ranking snapshot is read

    from .filters import check_filters
    from .hybrid import configured_tuning, find_recipes
    from .models import SearchFilters
    from .render import render_hits
    from .snapshot import snapshot_for

    filters = SearchFilters(module=args.module, tag=args.tag, license=args.license, composite=args.composite)
    try:
        tuning = configured_tuning()
        check_filters(snapshot_for(store, meta, tuning.model_key), filters)
    except UserError:
        _settle(services.embedder)
        raise
    result = find_recipes(
        store,
        services.embedder,
        args.intent,
        limit=args.limit,
        min_score=args.min_score,
        filters=filters,
        tuning=tuning,
    )
    if args.json:
        print(result.model_dump_json(indent=2))
        return 0
    if not result.hits:
        print(for_cli(result.hint or "No recipe matched."))
        return 0
    more = result.total_count - len(result.hits)
    note = [f"({more} more candidates ranked below these; --limit N shows more)"] if more > 0 else []
    print(render_hits(result, note))
    return 0


def _settle(embedder: Any) -> None:
    """Let a model load in progress finish before the process exits: ONNX Runtime aborts the process when
    the interpreter shuts down under a session still being created."""
    with contextlib.suppress(Exception):  # the command is failing for another reason; that one is reported
        embedder.load()


def run_show(args: argparse.Namespace) -> int:
    from ..catalog.db import Database
    from ..catalog.details import recipe_details
    from ..catalog.store import CatalogStore
    from .render import render_details

    store = CatalogStore(Database.from_environment())  # no embedding model: showing a recipe embeds nothing
    details = recipe_details(store, args.recipe_id, include_markdown=args.markdown)
    if args.json:
        print(details.model_dump_json(indent=2, exclude_none=True))
        return 0
    print(render_details(details))
    return 0
