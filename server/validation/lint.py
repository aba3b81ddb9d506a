"""Pre-flight lint of a recipe YAML: cheap checks that save a multi-minute build.

A build only tells you a recipe name was wrong after resolving plugins and parsing the whole project, and
OpenRewrite by default *skips* recipes it cannot configure instead of failing. Cheap models invent recipe
names and option names, so every entry is checked against the catalog (or the same file) here, with the
closest known ids offered for anything unknown.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from ..catalog.lookup import RecipeLookup
from ..catalog.models import Recipe, RecipeOption
from .models import LintIssue, LintReport
from .recipe_file import (
    DeclaredRecipe,
    RecipeEntry,
    RecipeFile,
    RecipeYamlError,
    parse_recipe_file,
)


class _Collector:
    def __init__(self) -> None:
        self.errors: list[LintIssue] = []
        self.warnings: list[LintIssue] = []

    def error(self, path: str, message: str, line: int | None = None, suggestions: Iterable[str] = ()) -> None:
        self.errors.append(
            LintIssue(severity="error", path=path, message=message, line=line, suggestions=list(suggestions))
        )

    def warn(self, path: str, message: str, line: int | None = None, suggestions: Iterable[str] = ()) -> None:
        self.warnings.append(
            LintIssue(severity="warning", path=path, message=message, line=line, suggestions=list(suggestions))
        )


def _closest(name: str, candidates: Iterable[str], limit: int = 5, cutoff: float = 0.6) -> list[str]:
    return difflib.get_close_matches(name, list(candidates), n=limit, cutoff=cutoff)


def _suggest_ids(name: str, lookup: RecipeLookup | None, declared: Iterable[str]) -> list[str]:
    suggestions = _closest(name, declared, limit=3)
    if lookup is not None:
        resolve = getattr(lookup, "resolve_id", None)  # CatalogStore also resolves class names / case
        exact = resolve(name) if callable(resolve) else None
        if isinstance(exact, str):
            suggestions.append(exact)
        suggestions.extend(lookup.closest_ids(name, limit=5))
    return list(dict.fromkeys(s for s in suggestions if s != name))[:5]


def _type_problem(option: RecipeOption, value: Any) -> str | None:
    """Why ``value`` clearly cannot be the option's declared type, or None (lenient: YAML strings coerce)."""
    kind = option.type.strip().lower()
    text = str(value).strip()
    if kind in {"boolean", "bool"}:
        if not isinstance(value, bool) and text.lower() not in {"true", "false"}:
            return "expects true or false"
    elif kind in {"integer", "int", "long", "short"}:
        if isinstance(value, bool) or not (isinstance(value, int) or text.lstrip("-").isdigit()):
            return "expects a whole number"
    elif kind in {"double", "float"}:
        try:
            float(text)
        except ValueError:
            return "expects a number"
    elif kind.startswith(("list", "set")) or kind.endswith("[]"):
        if isinstance(value, dict):
            return "expects a list"
    elif kind == "string" and isinstance(value, dict | list):
        return "expects a single string"
    return None


def _check_options(entry: RecipeEntry, recipe: Recipe, out: _Collector) -> None:
    by_name = {o.name: o for o in recipe.options}
    base = f"{entry.path}.{entry.recipe_id}"
    for name, value in entry.options.items():
        line = entry.option_lines.get(name) or entry.line
        option = by_name.get(name)
        if option is None:
            if not by_name:
                out.error(f"{base}.{name}", f"{recipe.id} takes no options, but {name!r} is set", line)
            else:
                known = sorted(by_name)
                out.error(
                    f"{base}.{name}",
                    f"unknown option {name!r} for {recipe.id}; its options are: {', '.join(known)}",
                    line,
                    _closest(name, known, limit=3, cutoff=0.4),
                )
            continue
        if value is None and option.required:
            out.error(f"{base}.{name}", f"required option {name!r} of {recipe.id} has no value", line)
            continue
        if value is None:
            continue
        problem = _type_problem(option, value)
        if problem:
            out.warn(f"{base}.{name}", f"option {name!r} ({option.type}) {problem}, got {value!r}", line)
        elif option.valid_values and isinstance(value, str) and value not in option.valid_values:
            out.warn(
                f"{base}.{name}",
                f"option {name!r} value {value!r} is not one of: {', '.join(option.valid_values)}",
                line,
                option.valid_values,
            )
    missing = [o.name for o in recipe.options if o.required and o.name not in entry.options]
    if missing:
        out.error(
            base if entry.has_options else entry.path,
            f"{recipe.id} is missing required option(s): {', '.join(missing)}",
            entry.line,
        )


def _check_entry(
    entry: RecipeEntry,
    declared: dict[str, DeclaredRecipe],
    lookup: RecipeLookup | None,
    out: _Collector,
) -> None:
    if entry.recipe_id in declared:
        if entry.options:
            out.error(
                f"{entry.path}.{entry.recipe_id}",
                f"{entry.recipe_id} is declared in this file and takes no options; options are ignored",
                entry.line,
            )
        return
    if lookup is None:
        return
    recipe = lookup.get_recipe(entry.recipe_id)
    if recipe is None:
        out.error(
            entry.path,
            f"unknown recipe {entry.recipe_id!r}: not in the catalog and not declared in this file",
            entry.line,
            _suggest_ids(entry.recipe_id, lookup, declared),
        )
        return
    _check_options(entry, recipe, out)


def _find_cycle(declared: dict[str, DeclaredRecipe]) -> list[str] | None:
    state: dict[str, int] = {}  # 1 = on the stack, 2 = done

    def visit(name: str, stack: list[str]) -> list[str] | None:
        state[name] = 1
        for entry in declared[name].entries:
            child = entry.recipe_id
            if child not in declared:
                continue
            if state.get(child) == 1:
                return [*stack[stack.index(child) :], child] if child in stack else [name, child]
            if child not in state:
                found = visit(child, [*stack, child])
                if found:
                    return found
        state[name] = 2
        return None

    for name in declared:
        if name not in state:
            found = visit(name, [name])
            if found:
                return found
    return None


def _reachable(start: str, declared: dict[str, DeclaredRecipe]) -> tuple[set[str], list[str]]:
    """File recipes reachable from ``start`` and the non-file recipe ids they reference (in order)."""
    seen: set[str] = set()
    external: list[str] = []
    stack = [start]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        if name not in declared:
            external.append(name)
            continue
        stack.extend(reversed([e.recipe_id for e in declared[name].entries]))
    return seen, list(dict.fromkeys(external))


def _choose_active(
    recipe_name: str | None,
    parsed: RecipeFile,
    declared: dict[str, DeclaredRecipe],
    lookup: RecipeLookup | None,
    out: _Collector,
) -> str | None:
    if recipe_name:
        recipe_name = recipe_name.strip()
        if recipe_name in declared:
            return recipe_name
        recipe = lookup.get_recipe(recipe_name) if lookup is not None else None
        if recipe is not None:
            required = [o.name for o in recipe.options if o.required]
            if required:
                out.error(
                    "recipe_name",
                    f"{recipe_name} has required options ({', '.join(required)}) and cannot run directly; "
                    "declare a recipe in the YAML that lists it with those options, and run that",
                )
            return recipe_name
        where = "declared in the file" + (" or in the catalog" if lookup is not None else "")
        out.error(
            "recipe_name",
            f"recipe {recipe_name!r} to run is not {where}",
            suggestions=_suggest_ids(recipe_name, lookup, declared),
        )
        return None
    if not parsed.recipes:
        out.error("$", "the file declares no recipe (a document with 'type: specs.openrewrite.org/v1beta/recipe')")
        return None
    if len(parsed.recipes) == 1:
        return parsed.recipes[0].name
    referenced = {e.recipe_id for r in parsed.recipes for e in r.entries}
    roots = [r.name for r in parsed.recipes if r.name not in referenced]
    if len(roots) == 1:
        out.warn(
            "recipe_name",
            f"the file declares {len(parsed.recipes)} recipes; running {roots[0]}, the only one no other recipe uses",
        )
        return roots[0]
    out.error(
        "recipe_name",
        f"the file declares {len(parsed.recipes)} recipes; say which one to run (recipe name)",
        suggestions=roots or [r.name for r in parsed.recipes],
    )
    return None


def lint_recipe(text: str, lookup: RecipeLookup | None, recipe_name: str | None = None) -> LintReport:
    """Check a recipe YAML without running anything; ``lookup`` None skips the catalog checks (warned)."""
    out = _Collector()
    try:
        parsed = parse_recipe_file(text)
    except RecipeYamlError as exc:
        out.error("$", str(exc), exc.line)
        return LintReport(ok=False, catalog_checked=lookup is not None, errors=out.errors)
    for problem in parsed.problems:
        out.error(problem.path, problem.message, problem.line)
    for note in parsed.notes:
        out.warn(note.path, note.message, note.line)
    if lookup is None:
        out.warn("$", "the catalog is not available: recipe names and options were not checked")

    declared: dict[str, DeclaredRecipe] = {}
    for recipe in parsed.recipes:
        if recipe.name in declared:
            out.error(f"{recipe.path}.name", f"recipe {recipe.name!r} is declared twice", recipe.line)
            continue
        declared[recipe.name] = recipe
        if lookup is not None and lookup.get_recipe(recipe.name) is not None:
            out.warn(
                f"{recipe.path}.name",
                f"{recipe.name} is also a catalog recipe; this declaration replaces it. Use your own name "
                "(e.g. com.yourorg.MyRecipe)",
                recipe.line,
            )
        if not recipe.recipe_list:
            out.warn(
                f"{recipe.path}.recipeList",
                f"{recipe.name} has an empty recipeList and changes nothing",
                recipe.line,
            )
    for recipe in parsed.recipes:
        for entry in recipe.entries:
            _check_entry(entry, declared, lookup, out)

    cycle = _find_cycle(declared)
    if cycle:
        out.error("$", "recipes include each other in a cycle: " + " -> ".join(cycle))

    active = _choose_active(recipe_name, parsed, declared, lookup, out)
    catalog_ids: list[str] = []
    if active is not None:
        seen, catalog_ids = _reachable(active, declared)
        unused = [r.name for r in parsed.recipes if r.name not in seen]
        for name in unused:
            out.warn(
                declared[name].path if name in declared else "$",
                f"{name} is declared but {active} does not use it",
            )
    if lookup is not None and catalog_ids:
        _warn_licences(lookup, catalog_ids, out)
    return LintReport(
        ok=not out.errors,
        recipe_name=active,
        declared_recipes=[r.name for r in parsed.recipes],
        catalog_recipes=catalog_ids,
        catalog_checked=lookup is not None,
        errors=out.errors,
        warnings=out.warnings,
    )


def _warn_licences(lookup: RecipeLookup, recipe_ids: list[str], out: _Collector) -> None:
    """One warning per module under the Moderne Source Available License the recipe needs (composites
    expanded): the Code Genome Project serves those to Moderne customers only, so an agent should prefer
    an Apache-2.0 recipe that does the same job."""
    from .modules import resolve_modules

    for module in resolve_modules(lookup, recipe_ids).modules:
        if module.license == "moderne":
            out.warn(
                "$",
                f"licence: {module.group_id}:{module.artifact_id} (needed by {', '.join(module.recipes[:3])}) is "
                "under the Moderne Source Available License, served to Moderne customers only; prefer an "
                "Apache-2.0 recipe when one does the job",
            )
