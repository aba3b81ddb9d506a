"""CLI mirrors of the search tools: ``search`` and ``show`` (same functions as the MCP tools)."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any


def register(subparsers: Any) -> None:
    from .hybrid import DEFAULT_MIN_SCORE

    p = subparsers.add_parser("search", help="find recipes for an intent (2-5 variations allowed)")
    p.add_argument("intent", nargs="+", help="the intent, optionally followed by variations of it")
    p.add_argument("--limit", type=int, default=5)
    p.add_argument("--min-score", type=float, default=DEFAULT_MIN_SCORE)
    p.add_argument("--module")
    p.add_argument("--tag")
    p.add_argument("--license", choices=["apache", "moderne"])
    p.add_argument(
        "--include-moderne",
        action="store_true",
        help="also rank Moderne-only recipes (no docs page; they run with the Moderne CLI/platform)",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_search)

    p = subparsers.add_parser("show", help="show one recipe (id, case-insensitive id or class name)")
    p.add_argument("recipe_id")
    p.add_argument("--markdown", action="store_true", help="include the cleaned documentation page")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_show)


def _state() -> Any:
    from ..services import Services

    return Services()


def run_search(args: argparse.Namespace) -> int:
    from .hybrid import find_recipes
    from .models import SearchFilters

    state = _state()
    result = find_recipes(
        state.store(),
        state.embedder,
        args.intent,
        limit=args.limit,
        min_score=args.min_score,
        filters=SearchFilters(module=args.module, tag=args.tag, license=args.license),
        include_moderne=args.include_moderne,
    )
    if args.json:
        print(result.model_dump_json(indent=2))
        return 0
    if not result.hits:
        print(result.hint)
    for n, hit in enumerate(result.hits, start=1):
        opts = ", ".join(o.name + ("*" if o.required else "") for o in hit.options)
        kind = f"composite of {hit.sub_recipe_count}" if hit.is_composite else "recipe"
        if hit.availability == "moderne-only":
            kind = "MODERNE-ONLY " + kind
        print(
            f"{n}. {hit.id}  [{kind}; {hit.module}; cos {hit.cosine_score:.2f}; "
            f"matched {hit.matched_variations}/{len(result.queries)}]"
        )
        print(f"   {hit.display_name}")
        if hit.description:
            print(textwrap.indent(textwrap.fill(hit.description, 100), "   "))
        if opts:
            print(f"   options: {opts}")
    if result.moderne_hint is not None:
        print(f"\nnote: {result.moderne_hint.message}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    from ..catalog.details import recipe_details

    state = _state()
    details = recipe_details(state.store(), args.recipe_id, include_markdown=args.markdown)
    if args.json:
        print(details.model_dump_json(indent=2, exclude_none=True))
        return 0
    print(f"{details.id}\n{details.display_name}\n\n{details.description}\n")
    if details.runs_with:
        print(f"{details.runs_with}\ndocs: {details.doc_url}\n")
    module = details.module
    listed = f"{module.group_id}:{module.artifact_id}" if module.artifact_id else None  # Moderne-only: no version
    print(f"module: {module.coordinates or module.npm_package or listed}   license: {details.license}")
    if details.tags:
        print(f"tags: {', '.join(details.tags)}")
    for o in details.options:
        print(f"option {o.name} ({o.type}{', required' if o.required else ''}): {o.description[:120]}")
    if details.recipe_list:
        print(f"runs {len(details.recipe_list)} recipes: " + ", ".join(r.recipe_id for r in details.recipe_list[:10]))
    print("\n" + details.rewrite_yml)
    if details.markdown:
        print(details.markdown)
    return 0
