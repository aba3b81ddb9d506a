"""MCP tool ``get_recipe``: full facts of one recipe, including a ready-to-edit rewrite.yml."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import Field

from ...catalog.details import RecipeDetails, recipe_details
from ...errors import BadInput
from ...limits import check_name
from ..registry import Tool, get_state

DESCRIPTION = """Get one OpenRewrite recipe by id: description, options (types, required flags, examples),
the recipes a composite runs, preconditions, module coordinates and version, license, examples, and a
rewrite.yml snippet with required options as placeholders. Accepts the exact id, a case-insensitive id,
or a unique class name (e.g. UpgradeSpringBoot_3_0). Unknown ids fail with the closest known ids.
A Moderne-only recipe (availability=moderne-only) comes with runs_with: it needs the Moderne CLI/platform.
Set include_markdown only when you need the full documentation page (it is large)."""


def get_recipe_tool(
    ctx: Context[Any, Any],
    recipe_id: Annotated[str, Field(description="fully qualified recipe id, or a unique class name")],
    include_markdown: Annotated[bool, Field(description="also return the cleaned documentation page")] = False,
) -> RecipeDetails:
    state = get_state(ctx)
    check_name(recipe_id, "recipe_id")
    if not recipe_id.strip():
        raise BadInput("recipe_id is empty: pass a recipe id from find_recipes, e.g. org.openrewrite.java.ChangeType.")
    return recipe_details(state.store(), recipe_id, include_markdown=include_markdown)


TOOL = Tool(
    get_recipe_tool,
    name="get_recipe",
    title="Get an OpenRewrite recipe",
    description=DESCRIPTION,
)
