"""CLI mirror of the ``find_recipes_for_diff`` tool: ``rewrite-assist search-diff PR_DIFF``."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("search-diff", help="find recipes whose documented examples resemble a PR diff")
    p.add_argument("pr_diff", help="path to the PR's unified diff (or the diff text itself)")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--intent", help="what the PR says it does (its title and description), ranked with the diff")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_search_diff)


def run_search_diff(args: argparse.Namespace) -> int:
    from ...services import Services
    from .search import find_recipes_for_diff

    state = Services()
    result = find_recipes_for_diff(state.store(), state.embedder, args.pr_diff, limit=args.limit, intent=args.intent)
    if args.json:
        print(result.model_dump_json(indent=2))
        return 0
    print(
        f"{_count(result.files, 'file')}, {_count(result.hunks, 'hunk')}; "
        f"{_count(result.searched_segments, 'change')} searched"
    )
    for n, hit in enumerate(result.hits, start=1):
        matched = _count(hit.matched_variations, "change")
        print(f"{n}. {hit.id}  [{hit.module}; score {hit.fusion_score:.3f}; matched {matched}]")
        print(f"   {hit.display_name}")
        for ev in hit.evidence[:2]:
            if ev.summed_up:
                where = f"the whole PR ({_count(ev.summed_up, 'change')} in {ev.file})"
            elif ev.hunk:
                where = f"{ev.file} hunk {ev.hunk}" + (f" {ev.lines}" if ev.lines else "")
            else:
                where = f"{ev.file} (merged hunks)"
            example = f"example {ev.example}" if ev.example is not None else "description"
            example = "the generic edit of this file kind" if ev.generic else example
            if ev.intent:
                where, example = "the PR description", "its search"
            tokens = f" ({', '.join(ev.matched_tokens[:4])})" if ev.matched_tokens else ""
            words = f'; "{ev.described_as}"' if ev.described_as else ""
            print(f"   {where} ~ {example}{tokens}{words}")
        if hit.suggested_options:
            print("   options: " + ", ".join(f"{k}={v}" for k, v in hit.suggested_options.items()))
    if result.hint:
        print(result.hint)
    for item in result.skipped[:10]:
        print(f"skipped {item}")
    if len(result.skipped) > 10:
        print(f"skipped {len(result.skipped) - 10} more")
    return 0


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
