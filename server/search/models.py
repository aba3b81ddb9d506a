"""Inputs and outputs of recipe search, shared by the MCP tool, the CLI and the evaluation harness."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from ..catalog.models import Recipe


class SearchFilters(BaseModel):
    """Optional restrictions; applied inside each SQL leg so they never silently shrink the result."""

    module: str | None = Field(default=None, description="artifact id, e.g. rewrite-spring")
    tag: str | None = None
    license: Literal["apache", "moderne"] | None = None
    composite: bool | None = None
    # "docs" leaves Moderne-only entries out (find_recipes sets it unless include_moderne); None: everything.
    availability: Literal["docs", "moderne-only"] | None = None

    def is_empty(self) -> bool:
        return all(v is None for v in self.model_dump().values())


class OptionSummary(BaseModel):
    name: str
    required: bool


class SearchHit(BaseModel):
    id: str
    display_name: str
    description: str = Field(description="trimmed to ~300 characters")
    tags: list[str]
    module: str | None
    license: str
    availability: Literal["docs", "moderne-only"] = Field(
        "docs", description="moderne-only: no docs page; runs with the Moderne CLI/platform, not the build plugins"
    )
    is_composite: bool
    sub_recipe_count: int
    options: list[OptionSummary]
    cosine_score: float = Field(description="best cosine similarity between the recipe and any query variation")
    fusion_score: float = Field(
        description="relevance after fusing variations and legs, priors and expansion; higher is better, "
        "comparable only within one result"
    )
    matched_variations: int = Field(
        description="how many query variations retrieved this recipe (0: it came in as the parent, sub-recipe "
        "or namesake of a better hit)"
    )


class SearchResult(BaseModel):
    hits: list[SearchHit]
    total_count: int = Field(
        description="how many candidates were ranked before the limit cut them to `hits`: recipes the search "
        "legs retrieved (each gathers a few dozen per variation) that passed the filters and min_score, plus "
        "the relatives the best hits pulled in; a pool size, not the number of matching recipes in the catalog"
    )
    queries: list[str]
    hint: str | None = None
    moderne_hint: ModerneHint | None = Field(
        None, description="Moderne-only recipes left out of hits that would rank among them (include_moderne=false)"
    )


class ModerneHint(BaseModel):
    """What the default filter kept out: Moderne-only recipes that would rank among the top hits."""

    would_rank: int = Field(description="how many of the top `limit` results would be Moderne-only recipes")
    best: list[str] = Field(description="the best one or two of them")
    message: str


DESCRIPTION_CHARS = 300  # a hit's description is cut here: get_recipe has the whole text


def catalog_fields(recipe: Recipe) -> dict[str, Any]:
    """What every hit shows of its recipe, whichever search found it (the scores are the search's own)."""
    description = recipe.description
    if len(description) > DESCRIPTION_CHARS:
        description = description[: DESCRIPTION_CHARS - 1].rstrip() + "…"
    return {
        "id": recipe.id,
        "display_name": recipe.display_name,
        "description": description,
        "tags": recipe.tags,
        "module": recipe.module,
        "license": recipe.license,
        "availability": recipe.availability,
        "is_composite": recipe.is_composite,
        "sub_recipe_count": len(recipe.recipe_list),
        "options": [OptionSummary(name=o.name, required=o.required) for o in recipe.options],
    }
