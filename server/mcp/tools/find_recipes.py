"""MCP tool ``find_recipes``: hybrid multi-query semantic search over the recipe catalog."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from pydantic import Field

from ...search.hybrid import DEFAULT_MIN_SCORE, find_recipes
from ...search.models import SearchFilters, SearchResult
from ..registry import Tool, get_state

DESCRIPTION = f"""Find OpenRewrite recipes that implement a code change.

Send ONE intent as 2-5 variations of the same change in a list (reworded; generalised; stated as a
file/text manipulation): every candidate is scored against every variation and the similarities are fused
(soft maximum; Reciprocal Rank Fusion, k = 60, when the server runs with REWRITE_ASSIST_FUSION=rrf), so
recipes several phrasings agree on rank first. Retrieval is hybrid: embeddings
(all-MiniLM-L6-v2), full-text search (web-search syntax: `-word` keeps recipes containing the word out of
the full-text matches), and exact matches of recipe ids or class names written in the query;
the best hits pull in their parent composites, sub-recipes and copies in other modules.
`min_score` (default {DEFAULT_MIN_SCORE}, measured on the retrieval dev set) drops weak embedding matches;
it never drops a recipe found by full text or by exact id. Filters: module (artifact id such as
rewrite-spring), tag, license ("apache" or "moderne"), composite (true = migration composites only).
Each hit gives its id, options (required flags) and scores; confirm with get_recipe before using it."""


def find_recipes_tool(
    ctx: Context[Any, Any],
    intent: Annotated[
        str | list[str],
        Field(description="the change to automate: one query, or a list of 2-5 variations of the same intent"),
    ],
    limit: Annotated[int, Field(description="how many hits to return (1-50)")] = 5,
    min_score: Annotated[
        float, Field(description="minimum cosine similarity for embedding matches (-1..1)")
    ] = DEFAULT_MIN_SCORE,
    module: Annotated[str | None, Field(description="only recipes from this artifact id")] = None,
    tag: Annotated[str | None, Field(description="only recipes with this tag")] = None,
    license: Annotated[Literal["apache", "moderne"] | None, Field(description="only this license")] = None,
    composite: Annotated[bool | None, Field(description="true: composites only; false: leaf recipes only")] = None,
) -> SearchResult:
    state = get_state(ctx)
    filters = SearchFilters(module=module, tag=tag, license=license, composite=composite)
    return find_recipes(state.store(), state.embedder, intent, limit=limit, min_score=min_score, filters=filters)


TOOL = Tool(
    find_recipes_tool,
    name="find_recipes",
    title="Find OpenRewrite recipes",
    description=DESCRIPTION,
)
