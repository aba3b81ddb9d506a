"""Inputs and outputs of recipe search, shared by the MCP tool, the CLI and the evaluation harness."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class SearchFilters(BaseModel):
    """Optional restrictions; applied inside each SQL leg so they never silently shrink the result."""

    module: str | None = Field(default=None, description="artifact id, e.g. rewrite-spring")
    tag: str | None = None
    license: Literal["apache", "moderne"] | None = None
    composite: bool | None = None

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
