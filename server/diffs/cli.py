"""``rewrite-assist analyze-diffs``: score a recipe diff against a PR diff from the shell."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import BadInput


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze-diffs",
        help="score a recipe's diff against a PR's diff (precision, recall, F1)",
        description=(
            "Compare the changed lines of RECIPE_DIFF (what a recipe run produced) with PR_DIFF (the PR's "
            "`git diff base pr`). Each argument is a diff file, '-' for standard input, or the diff text. "
            "Default scores equal the reference scorer's."
        ),
    )
    parser.add_argument("pr_diff", metavar="PR_DIFF", help="the ground-truth diff")
    parser.add_argument("recipe_diff", metavar="RECIPE_DIFF", help="the diff the recipe produced")
    parser.add_argument("--json", action="store_true", help="print JSON (the reference keys first)")
    parser.add_argument("--details", action="store_true", help="also list the unmatched lines")
    parser.add_argument(
        "--ignore-whitespace",
        action="store_true",
        help="compare lines with whitespace runs collapsed and ends stripped (off: reference scores)",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="gitignore-style pattern of files to leave out, e.g. build, .gradle, '*.jar' (repeatable)",
    )
    parser.add_argument(
        "--max-unmatched",
        type=int,
        default=None,
        metavar="N",
        help="how many unmatched lines --details lists (default 50)",
    )
    parser.set_defaults(func=run)


def _load(arg: str, what: str, stdin_used: list[bool]) -> tuple[str, str]:
    """``(label, text)``: standard input stands in for one of the two diffs, the rest is ``load_diff``'s."""
    from . import load_diff

    if arg != "-":
        return load_diff(arg, what=what)
    if stdin_used:
        raise BadInput("only one of PR_DIFF and RECIPE_DIFF can be '-' (standard input)")
    stdin_used.append(True)
    return "<stdin>", sys.stdin.buffer.read().decode("utf-8", errors="replace")


def run(args: argparse.Namespace) -> int:
    from . import DEFAULT_MAX_UNMATCHED, analyze_diffs
    from .report import render_table

    stdin_used: list[bool] = []
    max_unmatched = DEFAULT_MAX_UNMATCHED if args.max_unmatched is None else args.max_unmatched
    pr_label, pr_text = _load(args.pr_diff, "PR diff", stdin_used)
    recipe_label, recipe_text = _load(args.recipe_diff, "recipe diff", stdin_used)
    analysis = analyze_diffs(
        pr_text,
        recipe_text,
        ignore_whitespace=args.ignore_whitespace,
        exclude=args.exclude,
        max_unmatched=max_unmatched,
        pr_label=pr_label,
        recipe_label=recipe_label,
    )
    print(analysis.to_json_text(details=args.details) if args.json else render_table(analysis, details=args.details))
    return 0  # a reader that stops early (`| head`) is handled once, in main()
