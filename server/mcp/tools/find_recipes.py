"""MCP tool ``find_recipes``: hybrid multi-query semantic search over the recipe catalog."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from pydantic import Field

from ...limits import MAX_NAME_CHARS, check_intent, check_optional
from ...search.hybrid import DEFAULT_MIN_SCORE, find_recipes
from ...search.models import SearchFilters, SearchResult
from ..registry import Tool, get_state

DESCRIPTION = """Find OpenRewrite recipes that implement a code change.

Pass ONE intent as a list of 2-5 variations of the same change (reworded, generalised, stated as a
file/text edit): recipes that several phrasings agree on rank first. Recipe ids and class names written in
the query match exactly; `-word` keeps recipes containing that word out of the text matches. Filters:
module (artifact id, e.g. rewrite-spring), tag, license ("apache" or "moderne"), composite (true:
migration composites only). Returns ranked hits with id, display name, description, options (required
flags) and scores. Confirm a hit with get_recipe before writing it into a recipe.
Moderne-only recipes (no docs page; they run with the Moderne CLI/platform, not the build plugins) are
left out unless include_moderne=true; `moderne_hint` says how many would rank and the best ids."""


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
    include_moderne: Annotated[
        bool, Field(description="also rank Moderne-only recipes (flagged availability=moderne-only)")
    ] = False,
) -> SearchResult:
    state = get_state(ctx)
    intent = check_intent(intent)
    module = check_optional(module, "module", max_chars=MAX_NAME_CHARS, one_line=True)
    tag = check_optional(tag, "tag", max_chars=MAX_NAME_CHARS, one_line=True)
    filters = SearchFilters(module=module, tag=tag, license=license, composite=composite)
    return find_recipes(
        state.store(),
        state.embedder,
        intent,
        limit=limit,
        min_score=min_score,
        filters=filters,
        include_moderne=include_moderne,
    )


TOOL = Tool(
    find_recipes_tool,
    name="find_recipes",
    title="Find OpenRewrite recipes",
    description=DESCRIPTION,
)
