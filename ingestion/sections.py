"""Names of the ``##`` sections the recipe-page template writes, shared by the parser and the cleaner."""

from __future__ import annotations

SOURCE_SECTION = "Recipe source"
OPTIONS_SECTION = "Options"
DEFINITION_SECTION = "Definition"
USED_BY_SECTION = "Used by"
EXAMPLE_SECTIONS = ("Example", "Examples")
USAGE_SECTION = "Usage"
CALLOUT_SECTION = "See how this recipe works across multiple open-source repositories"
DATA_TABLES_SECTION = "Data Tables"

KNOWN_SECTIONS = frozenset(
    {
        SOURCE_SECTION,
        OPTIONS_SECTION,
        DEFINITION_SECTION,
        USED_BY_SECTION,
        *EXAMPLE_SECTIONS,
        USAGE_SECTION,
        CALLOUT_SECTION,
        DATA_TABLES_SECTION,
    }
)

# Every recipe run produces these; each page lists them, so they say nothing about the recipe.
DEFAULT_DATA_TABLES = frozenset(
    {
        "org.openrewrite.table.SourcesFileResults",
        "org.openrewrite.table.SearchResults",
        "org.openrewrite.table.SourcesFileErrors",
        "org.openrewrite.table.RecipeRunStats",
    }
)
