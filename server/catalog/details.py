"""``get_recipe`` / ``rewrite-assist show``: one recipe's facts, trimmed for an agent's context window."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..errors import NotFound
from .models import Availability, Recipe, RecipeExample, RecipeOption, RecipeRef
from .store import CatalogStore

EXAMPLE_CHARS = 1500
MAX_EXAMPLES = 3

MODERNE_ONLY_RUNS_WITH = (
    "Moderne-only recipe: runs with the Moderne CLI/platform, not with the OpenRewrite build plugins. "
    "It has no page in the OpenRewrite docs (see doc_url on docs.moderne.io); running it needs the Moderne CLI "
    "(`mod run <repo> --recipe {id}`) with access to Moderne's recipe module {module}, or the Moderne platform. "
    "validate_recipe cannot run it, and a rewrite.yml for the build plugins must not list it."
)


class RecipeNotFound(NotFound):
    def __init__(self, query: str, suggestions: list[str]) -> None:
        self.query = query
        self.suggestions = suggestions
        hint = f" Closest ids: {', '.join(suggestions)}." if suggestions else ""
        super().__init__(
            f"No recipe with id {query!r}.{hint} Use find_recipes to search by intent, then pass an exact id."
        )


class ModuleInfo(BaseModel):
    group_id: str | None
    artifact_id: str | None
    npm_package: str | None
    version: str | None
    coordinates: str | None = Field(description="groupId:artifactId:version, ready for a build file")


class RecipeDetails(BaseModel):
    id: str
    display_name: str
    description: str
    tags: list[str]
    is_composite: bool
    options: list[RecipeOption]
    recipe_list: list[RecipeRef]
    preconditions: list[RecipeRef]
    module: ModuleInfo
    license: str
    availability: Availability = Field(
        "docs", description="docs: has a page, runs with the build plugins; moderne-only: Moderne CLI/platform only"
    )
    runs_with: str | None = Field(None, description="for a Moderne-only recipe: what running it needs")
    source_url: str | None
    doc_url: str | None
    used_by: list[str]
    examples: list[RecipeExample]
    examples_omitted: int
    rewrite_yml: str = Field(description="a rewrite.yml declaring a recipe that runs this one; fill placeholders")
    markdown: str | None = None


def _trim(text: str | None) -> str | None:
    if text is None or len(text) <= EXAMPLE_CHARS:
        return text
    return text[:EXAMPLE_CHARS].rstrip() + "\n… (trimmed)"


def _yaml_scalar(value: str) -> str:
    if value and all(c.isalnum() or c in "._-/:" for c in value) and not value[0].isdigit():
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def rewrite_yml_snippet(recipe: Recipe) -> str:
    """A declarative recipe that runs ``recipe``, with each required option as a placeholder to fill."""
    lines = [
        "type: specs.openrewrite.org/v1beta/recipe",
        "name: com.example.MyRecipe  # rename: a fully qualified name of your own",
        "displayName: My recipe",
        f"description: Runs {recipe.id}.",
        "recipeList:",
    ]
    required = [o for o in recipe.options if o.required]
    if not required:
        lines.append(f"  - {recipe.id}")
    else:
        lines.append(f"  - {recipe.id}:")
        for option in required:
            example = f"e.g. {option.example}" if option.example else option.type
            lines.append(f"      {option.name}: {_yaml_scalar('<' + option.name + '>')}  # required; {example}")
    optional = [o.name for o in recipe.options if not o.required]
    if optional:
        lines.append(f"  # optional options: {', '.join(optional)}")
    return "\n".join(lines) + "\n"


def _moderne_yml_note(recipe: Recipe) -> str:
    return (
        f"# {recipe.id} is Moderne-only: the OpenRewrite Gradle/Maven plugins cannot run it, so no rewrite.yml\n"
        "# is offered. Run it with the Moderne CLI/platform, or build the change from recipes that have a page.\n"
    )


def recipe_details(store: CatalogStore, query: str, *, include_markdown: bool = False) -> RecipeDetails:
    """Resolve ``query`` (exact id, case-insensitive id, unique class name) and return its details."""
    store.check_ready()
    resolved = store.resolve_id(query)
    recipe = store.get_recipe(resolved) if resolved else None
    if recipe is None:
        raise RecipeNotFound(query, store.closest_ids(query, 5))
    coordinates = None
    if recipe.group_id and recipe.artifact_id and not recipe.is_moderne_only:
        coordinates = f"{recipe.group_id}:{recipe.artifact_id}" + (f":{recipe.version}" if recipe.version else "")
    return RecipeDetails(
        id=recipe.id,
        display_name=recipe.display_name,
        description=recipe.description,
        tags=recipe.tags,
        is_composite=recipe.is_composite,
        options=recipe.options,
        recipe_list=recipe.recipe_list,
        preconditions=recipe.preconditions,
        module=ModuleInfo(
            group_id=recipe.group_id,
            artifact_id=recipe.artifact_id,
            npm_package=recipe.npm_package,
            version=recipe.version,
            coordinates=coordinates,
        ),
        license=recipe.license,
        availability=recipe.availability,
        runs_with=MODERNE_ONLY_RUNS_WITH.format(id=recipe.id, module=recipe.module) if recipe.is_moderne_only else None,
        source_url=recipe.source_url,
        doc_url=recipe.doc_url,
        used_by=recipe.used_by,
        examples=[
            RecipeExample(
                file=e.file,
                language=e.language,
                before=_trim(e.before),
                after=_trim(e.after),
                diff=_trim(e.diff),
            )
            for e in recipe.examples[:MAX_EXAMPLES]
        ],
        examples_omitted=max(0, len(recipe.examples) - MAX_EXAMPLES),
        rewrite_yml=rewrite_yml_snippet(recipe) if not recipe.is_moderne_only else _moderne_yml_note(recipe),
        markdown=recipe.markdown if include_markdown else None,
    )
