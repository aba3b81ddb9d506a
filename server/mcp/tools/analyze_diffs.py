"""MCP tool ``analyze_diffs``: score a recipe's diff against the PR's diff."""

from __future__ import annotations

import logging
from typing import Annotated

from pydantic import Field

from ...diffs import (
    DEFAULT_MAX_UNMATCHED,
    DiffAnalysis,
    analyze_diff_args,
)
from ...limits import check_diff_arg, check_patterns
from ..registry import Tool
from ..security import check_path

log = logging.getLogger(__name__)

DESCRIPTION = """Score how closely a recipe's diff reproduces a PR's diff.

Each argument is the path to a diff file or the diff text itself (`git diff <base> <pr>` for the PR; the
diff a recipe run produced, e.g. OpenRewrite's rewrite.patch). Changed lines are compared as
(file, added/removed, content) with line numbers ignored: TP = lines both change, FP = extra lines only
the recipe changes, FN = missing lines only the PR changes; precision = TP/(TP+FP), recall = TP/(TP+FN).
Binary sections, repeated sections for one file, recipe names after `@@` and gradlew/gradlew.bat/
rewrite.gradle are dropped first, so default scores equal the reference scorer's. Returns the metrics,
a per-file breakdown (worst first), a one-line summary and the unmatched lines themselves (`missing`,
`extra`, capped by max_unmatched): read them to see what the recipe still gets wrong. Options:
ignore_whitespace (compare lines with whitespace collapsed) and exclude (gitignore-style patterns such
as "build", ".gradle", "*.jar" for committed build outputs); both change scores, so say when you use them."""


def analyze_diffs_tool(
    pr_diff: Annotated[str, Field(description="the PR's diff: a path to a .diff file, or the diff text")],
    recipe_diff: Annotated[str, Field(description="the recipe run's diff: a path to a .diff file, or the diff text")],
    ignore_whitespace: Annotated[
        bool, Field(description="compare lines with whitespace runs collapsed and ends stripped")
    ] = False,
    exclude: Annotated[
        list[str] | None,
        Field(description='gitignore-style patterns of files to leave out, e.g. ["build", ".gradle", "*.jar"]'),
    ] = None,
    max_unmatched: Annotated[
        int, Field(description="how many unmatched lines to list in missing + extra (0-2000)", ge=0, le=2000)
    ] = DEFAULT_MAX_UNMATCHED,
) -> DiffAnalysis:
    analysis = analyze_diff_args(
        check_diff_arg(pr_diff, "pr_diff"),
        check_diff_arg(recipe_diff, "recipe_diff"),
        ignore_whitespace=ignore_whitespace,
        exclude=check_patterns(exclude),
        max_unmatched=max_unmatched,
        check_path=check_path,
    )
    log.debug("analyze_diffs: %s", analysis.summary)
    return analysis


TOOL = Tool(
    analyze_diffs_tool,
    name="analyze_diffs",
    title="Score a recipe diff against the PR diff",
    description=DESCRIPTION,
)
