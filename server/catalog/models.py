"""Recipe models shared by ingestion, the server and evaluation.

One source of truth: the ingestion pipeline produces these, the store persists them as JSON next to
indexed columns, and the MCP tools and CLI return them (or trimmed views of them).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, Field

License = Literal["apache", "moderne", "unknown"]
# "docs": the recipe has a page in rewrite-docs and runs with the OpenRewrite build plugins;
# "moderne-only": listed in rewrite-docs' Moderne recipe list only, runs with the Moderne CLI/platform.
Availability = Literal["docs", "moderne-only"]
MODERNE_ONLY: Availability = "moderne-only"


class RecipeOption(BaseModel):
    """One configurable option of a recipe (a row of the page's ``## Options`` table)."""

    name: str
    type: str
    required: bool
    description: str = ""
    example: str | None = None
    valid_values: list[str] = Field(default_factory=list)


class RecipeRef(BaseModel):
    """A recipe referenced from a composite's recipe list or preconditions, with the options it sets."""

    recipe_id: str
    options: dict[str, Any] = Field(default_factory=dict)


class RecipeExample(BaseModel):
    """One before/after example for one file, as shown on the recipe page.

    ``example`` numbers the page's examples (1 on a page with one; files of one example share it) and
    ``parameters`` are the option values that example ran with (unset ``null`` ones left out).
    """

    example: int = 1
    parameters: dict[str, str] = Field(default_factory=dict)
    file: str | None = None
    language: str | None = None
    before: str | None = None
    after: str | None = None
    diff: str | None = None


class Recipe(BaseModel):
    """Everything the catalog knows about one recipe."""

    id: str
    display_name: str
    description: str = ""
    tags: list[str] = Field(default_factory=list)
    options: list[RecipeOption] = Field(default_factory=list)
    recipe_list: list[RecipeRef] = Field(default_factory=list)
    preconditions: list[RecipeRef] = Field(default_factory=list)
    group_id: str | None = None
    artifact_id: str | None = None
    npm_package: str | None = None
    version: str | None = None
    license: License = "unknown"
    source_url: str | None = None
    doc_path: str = ""
    doc_url: str | None = None
    used_by: list[str] = Field(default_factory=list)
    examples: list[RecipeExample] = Field(default_factory=list)
    category: list[str] = Field(default_factory=list)
    markdown: str = ""
    availability: Availability = "docs"

    @property
    def is_composite(self) -> bool:
        return bool(self.recipe_list)

    @property
    def is_moderne_only(self) -> bool:
        return self.availability == MODERNE_ONLY

    @property
    def module(self) -> str | None:
        """``groupId:artifactId`` of the module that ships the recipe, or the npm package."""
        if self.group_id and self.artifact_id:
            return f"{self.group_id}:{self.artifact_id}"
        return self.npm_package

    @property
    def class_name(self) -> str:
        """The last dotted segment of the id (``UpgradeSpringBoot_3_0``)."""
        return self.id.rsplit(".", 1)[-1]

    def content_hash(self) -> str:
        """A stable hash of the parsed content; unchanged pages keep their embeddings on re-ingest."""
        payload = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class Module(BaseModel):
    """One OpenRewrite module (artifact) with its latest published version."""

    group_id: str
    artifact_id: str
    version: str | None = None
    license: License = "unknown"

    @property
    def coordinates(self) -> str:
        return f"{self.group_id}:{self.artifact_id}"


class SkippedPage(BaseModel):
    """A page the parser could not turn into a recipe, with the reason."""

    path: str
    reason: str


class CatalogInfo(BaseModel):
    """Catalog-level metadata, as ``rewrite-assist status --json`` reports it."""

    recipes: int
    composites: int
    with_options: int
    modules: int
    moderne_only: int = Field(0, description="entries without a page, run with the Moderne CLI/platform only")
    embedding_model: str | None
    source: str | None
    ingested_at: str | None
    database: Literal["embedded", "external"]
    schema_version: int | None = None
