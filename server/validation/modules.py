"""Which recipe modules a run must declare, resolved through the catalog.

The reference system declared one fixed list of about thirty modules, so any recipe outside it failed
with "recipe not found". Here every recipe the active recipe references is looked up, recursively through
catalog composites and their preconditions, and the modules that ship them are declared at the catalog's
versions. Modules the build plugins already ship (rewrite-java, rewrite-yaml, ...) are marked bundled.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..catalog.lookup import RecipeLookup
from ..catalog.models import Recipe
from .models import ModuleResolution, RecipeModule

# What rewrite-gradle-plugin (ResolveRewriteDependenciesTask) and rewrite-maven-plugin put on the recipe
# classpath themselves. Anything else (rewrite-docker, rewrite-kotlin, every org.openrewrite.recipe module)
# has to be declared.
BUNDLED_MODULES = frozenset(
    f"org.openrewrite:{a}"
    for a in (
        "rewrite-core",
        "rewrite-groovy",
        "rewrite-gradle",
        "rewrite-hcl",
        "rewrite-json",
        "rewrite-java",
        "rewrite-java-8",
        "rewrite-java-11",
        "rewrite-java-17",
        "rewrite-java-21",
        "rewrite-java-25",
        "rewrite-maven",
        "rewrite-properties",
        "rewrite-protobuf",
        "rewrite-xml",
        "rewrite-yaml",
    )
)


def _fetch(lookup: RecipeLookup, ids: list[str]) -> dict[str, Recipe]:
    """Batch lookup when the store offers it (one query per composite level), else one by one."""
    batch = getattr(lookup, "get_recipes", None)
    if callable(batch):
        found = batch(ids)
        if isinstance(found, dict):
            return found
    result: dict[str, Recipe] = {}
    for rid in ids:
        recipe = lookup.get_recipe(rid)
        if recipe is not None:
            result[rid] = recipe
    return result


def catalog_closure(lookup: RecipeLookup, recipe_ids: Iterable[str]) -> tuple[dict[str, Recipe], list[str]]:
    """Every catalog recipe reachable from ``recipe_ids`` (composites expanded), and the ids not found."""
    known: dict[str, Recipe] = {}
    missing: list[str] = []
    frontier = list(dict.fromkeys(recipe_ids))
    while frontier:
        found = _fetch(lookup, frontier)
        missing.extend(rid for rid in frontier if rid not in found)
        known.update(found)
        nxt: list[str] = []
        for recipe in found.values():
            for ref in (*recipe.recipe_list, *recipe.preconditions):
                if ref.recipe_id not in known and ref.recipe_id not in missing and ref.recipe_id not in nxt:
                    nxt.append(ref.recipe_id)
        frontier = nxt
    return known, missing


def resolve_modules(lookup: RecipeLookup | None, recipe_ids: Iterable[str]) -> ModuleResolution:
    """The modules shipping ``recipe_ids`` and everything they run, sorted with declared modules first."""
    if lookup is None:
        return ModuleResolution(recipes_without_module=list(recipe_ids))
    recipes, missing = catalog_closure(lookup, recipe_ids)
    modules: dict[str, RecipeModule] = {}
    without: list[str] = list(missing)
    for rid in sorted(recipes):
        recipe = recipes[rid]
        if not (recipe.group_id and recipe.artifact_id):
            without.append(rid)
            continue
        key = f"{recipe.group_id}:{recipe.artifact_id}"
        module = modules.get(key)
        if module is None:
            module = modules[key] = RecipeModule(
                group_id=recipe.group_id,
                artifact_id=recipe.artifact_id,
                version=recipe.version,
                license=recipe.license,
                bundled=key in BUNDLED_MODULES,
            )
        elif recipe.version and not module.version:
            module.version = recipe.version
        module.recipes.append(rid)
    ordered = sorted(modules.values(), key=lambda m: (m.bundled, m.group_id, m.artifact_id))
    return ModuleResolution(modules=ordered, recipes_without_module=without)
