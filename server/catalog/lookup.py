"""The narrow read interface that linting and module resolution need from the catalog.

``rewrite_assist.server.catalog.store.CatalogStore`` implements it over PostgreSQL; keeping the
protocol small lets the validation code state exactly what it depends on.
"""

from __future__ import annotations

from typing import Protocol

from .models import Recipe


class RecipeLookup(Protocol):
    def get_recipe(self, recipe_id: str) -> Recipe | None:
        """The recipe with exactly this id, or None."""
        ...

    def closest_ids(self, name: str, limit: int = 5) -> list[str]:
        """Known recipe ids that look most like ``name`` (for "did you mean" messages)."""
        ...
