"""The MCP tools, one module each; ``TOOLS`` is the order the server lists them in."""

from ..registry import Tool
from .analyze_diffs import TOOL as ANALYZE_DIFFS
from .connection import TOOL as TEST_CONNECTION
from .find_recipes import TOOL as FIND_RECIPES
from .find_recipes_for_diff import TOOL as FIND_RECIPES_FOR_DIFF
from .get_recipe import TOOL as GET_RECIPE
from .lint_recipe import TOOL as LINT_RECIPE
from .validate_recipe import TOOL as VALIDATE_RECIPE

TOOLS: tuple[Tool, ...] = (
    TEST_CONNECTION,
    FIND_RECIPES,
    FIND_RECIPES_FOR_DIFF,
    GET_RECIPE,
    ANALYZE_DIFFS,
    LINT_RECIPE,
    VALIDATE_RECIPE,
)
