"""MCP tool ``lint_recipe``: check a recipe YAML against the catalog before spending minutes on a build."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import Field

from ...limits import MAX_NAME_CHARS, check_optional, check_recipe_arg, check_yaml_text
from ...validation.inputs import load_recipe_arg
from ...validation.models import LintReport
from ..registry import Tool, get_state
from ..security import check_path

DESCRIPTION = """Check an OpenRewrite recipe YAML (rewrite.yml format) without running it.

Checks: the YAML parses; each document has `type: specs.openrewrite.org/v1beta/recipe` and a `name`; the
recipe to run exists (in the file, or as a catalog id); every recipeList and preconditions entry is a
catalog recipe or declared in the same file (unknown names come with the closest known ids); option names
exist for that recipe and required options are set; option values fit their types. Each error and warning
gives its YAML path (e.g. doc[0].recipeList[2].org.openrewrite.text.FindAndReplace.find) and line.
Run it after every edit of the recipe and before validate_recipe; fix every error it reports."""


def lint_recipe_tool(
    ctx: Context[Any, Any],
    recipe: Annotated[str, Field(description="path to a recipe YAML file, or the YAML text itself")],
    recipe_name: Annotated[
        str | None, Field(description="the recipe that will run (optional when the file declares one)")
    ] = None,
) -> LintReport:
    from ...validation.lint import lint_recipe  # on first use: keeps the server's start fast

    state = get_state(ctx)
    check_optional(recipe_name, "recipe_name", max_chars=MAX_NAME_CHARS, one_line=True)
    _, text = load_recipe_arg(check_recipe_arg(recipe), check_path=check_path)
    check_yaml_text(text)
    store = state.store()
    store.check_ready()
    return lint_recipe(text, store, recipe_name)


TOOL = Tool(
    lint_recipe_tool,
    name="lint_recipe",
    title="Lint an OpenRewrite recipe YAML",
    description=DESCRIPTION,
)
