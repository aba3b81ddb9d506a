"""MCP tool ``find_recipes_for_diff``: recipes whose documented examples make changes like a PR diff's."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import Field

from ...search.by_diff.search import DiffSearchResult, find_recipes_for_diff
from ..registry import Tool, get_state
from ..security import check_path

DESCRIPTION = """Find OpenRewrite recipes by the change itself: pass the PR's unified diff (its text, or a
path to a .diff file). Each file and hunk is compared with the before/after examples on the recipe pages
(changed lines, tokens such as coordinates, keys and versions, and the file kind). Returns `hits` (ranked
over the whole diff, same fields as find_recipes), per hit `evidence` (PR file and hunk, matched example,
shared tokens) and `suggested_options` read off the diff, `groups` (top recipes per file/hunk, and per
PR-level description such as "migrate javax to jakarta", kind "pr") and
`skipped` (binary, build-output or capped parts). Pass the PR's title and description as `intent`: the recipes
that text finds are ranked with the diff's evidence (their evidence says `intent: true`). Use it beside
find_recipes on the intent's variations; confirm hits with get_recipe."""


def find_recipes_for_diff_tool(
    ctx: Context[Any, Any],
    pr_diff: Annotated[str, Field(description="the PR's unified diff: its text, or a path to a .diff file")],
    limit: Annotated[int, Field(description="how many hits to return (1-50)")] = 10,
    intent: Annotated[
        str | None,
        Field(
            description="optional: what the PR says it does (its title and description, up to 4,000 characters); "
            "the recipes searching it finds join the ranking, weighed with the diff's evidence"
        ),
    ] = None,
) -> DiffSearchResult:
    state = get_state(ctx)
    return find_recipes_for_diff(
        state.store(), state.embedder, pr_diff, limit=limit, check_path=check_path, intent=intent
    )


TOOL = Tool(
    find_recipes_for_diff_tool,
    name="find_recipes_for_diff",
    title="Find OpenRewrite recipes for a PR diff",
    description=DESCRIPTION,
)
