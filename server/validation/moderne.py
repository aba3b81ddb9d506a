"""Moderne-only recipes in a recipe to validate: a warning for lint, a refusal for a run.

The catalog knows recipes published only through Moderne (``availability="moderne-only"``). They are real
recipes, so lint must not call them unknown, but the OpenRewrite Gradle/Maven plugins cannot load them:
a run would resolve plugins and parse the whole project only to skip or fail on them. ``validate`` checks
the active recipe's whole catalog closure (composites expanded) before anything is copied or built.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..catalog.lookup import RecipeLookup
from ..catalog.models import Recipe
from .modules import catalog_closure

WARNING = "Moderne-only recipe: runs with the Moderne CLI/platform, not with the OpenRewrite build plugins"


def lint_message(recipe: Recipe) -> str:
    """The lint warning for an entry naming a Moderne-only recipe."""
    docs = f"; docs: {recipe.doc_url}" if recipe.doc_url else ""
    return (
        f"{recipe.id}: {WARNING}. validate_recipe will not run it; use recipes that have an OpenRewrite docs "
        f"page for a recipe the build plugins can run{docs}"
    )


def moderne_only_in(lookup: RecipeLookup | None, recipe_ids: Iterable[str]) -> list[str]:
    """The Moderne-only recipes among ``recipe_ids`` and everything they run, in discovery order."""
    if lookup is None:
        return []
    known, _missing = catalog_closure(lookup, recipe_ids)
    return [rid for rid, recipe in known.items() if recipe.is_moderne_only]


def refusal(recipe_ids: list[str]) -> str:
    """Why ``validate`` will not start a run for a recipe that needs these Moderne-only recipes."""
    return (
        f"not running: the recipe needs {', '.join(recipe_ids)}. {WARNING}, so validate cannot run it. "
        "Build the change from recipes that have an OpenRewrite docs page (find_recipes leaves Moderne-only "
        "ones out by default), or run it with the Moderne CLI/platform yourself."
    )


def suggestions_note(lookup: RecipeLookup, suggestions: Iterable[str]) -> str:
    """For an unknown id: which of its suggested ids are Moderne-only (recipes that moved to Moderne keep
    their class name under ``io.moderne``, so they are often the closest match), or ``""``."""
    named = [rid for rid in suggestions if (recipe := lookup.get_recipe(rid)) is not None and recipe.is_moderne_only]
    if not named:
        return ""
    return f"; Moderne-only, so not usable here ({WARNING.split(': ', 1)[1]}): {', '.join(named)}"
