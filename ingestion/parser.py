"""All recipe pages of a docs source → recipes, modules and the pages that could not be parsed.

Single pages are parsed by :func:`parse_page` (in :mod:`rewrite_assist.ingestion.page`, re-exported
here); this module adds what needs the whole snapshot: duplicate ids, each recipe's module version
from the versions table, and "Used by" links turned from page paths into recipe ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import ValidationError

from ..server.catalog.models import Module, Recipe, SkippedPage
from .modules import parse_modules_table
from .page import PageParseError, parse_page

__all__ = [
    "PageParseError",
    "ParseResult",
    "apply_module_versions",
    "page_ids",
    "parse_page",
    "parse_source",
    "resolve_used_by",
]


class PageSource(Protocol):
    """What :func:`parse_source` reads: ``(path, text)`` pages and the module table's text, if any."""

    versions_text: str | None

    def __iter__(self) -> Iterator[tuple[str, str]]: ...

    def __len__(self) -> int: ...


@dataclass
class ParseResult:
    """Recipes in page order, the module table, skipped pages, and counts worth reporting."""

    recipes: list[Recipe]
    modules: list[Module]
    skipped: list[SkippedPage] = field(default_factory=list)
    # "Used by" links that name no page of this source (Moderne-only recipes on docs.moderne.io are
    # already left out by the page parser; these would be links to missing pages).
    unresolved_used_by: int = 0
    # groupId:artifactId of recipes whose module the versions table does not list.
    modules_missing_from_table: list[str] = field(default_factory=list)


def parse_source(source: PageSource, *, progress: bool = False) -> ParseResult:
    """Parse every page, then fill versions and ``used_by`` ids; unparseable pages become ``skipped``."""
    recipes: list[Recipe] = []
    skipped: list[SkippedPage] = []
    seen: dict[str, str] = {}
    for path, text in _with_progress(source, progress):
        try:
            recipe = parse_page(path, text)
        except PageParseError as exc:
            skipped.append(SkippedPage(path=path, reason=exc.reason))
            continue
        except ValidationError as exc:
            skipped.append(SkippedPage(path=path, reason=f"invalid recipe data: {exc.errors()[0]['msg']}"))
            continue
        if recipe.id in seen:
            skipped.append(SkippedPage(path=path, reason=f"duplicate recipe id {recipe.id} (also {seen[recipe.id]})"))
            continue
        seen[recipe.id] = path
        recipes.append(recipe)
    modules = parse_modules_table(source.versions_text) if source.versions_text else []
    missing = apply_module_versions(recipes, modules)
    unresolved = resolve_used_by(recipes)
    return ParseResult(recipes, modules, skipped, unresolved, missing)


def page_ids(recipes: Iterable[Recipe]) -> dict[str, str]:
    """Doc path (``docs/recipes/...md``) → recipe id, the map "Used by" links are resolved with."""
    return {recipe.doc_path: recipe.id for recipe in recipes}


def resolve_used_by(recipes: list[Recipe], ids_by_path: dict[str, str] | None = None) -> int:
    """Replace the page paths :func:`parse_page` leaves in ``used_by`` with recipe ids, in place.

    ``ids_by_path`` defaults to :func:`page_ids` of ``recipes``. Entries that are already ids (a second
    call) are kept; paths of pages not in the map are dropped and counted, and the count returned.
    """
    index = ids_by_path if ids_by_path is not None else page_ids(recipes)
    known_ids = set(index.values())
    unresolved = 0
    for recipe in recipes:
        resolved: list[str] = []
        for entry in recipe.used_by:
            recipe_id = index.get(entry) or (entry if entry in known_ids else None)
            if recipe_id is None:
                unresolved += 1
            elif recipe_id not in resolved:
                resolved.append(recipe_id)
        recipe.used_by = resolved
    return unresolved


def apply_module_versions(recipes: Iterable[Recipe], modules: Iterable[Module]) -> list[str]:
    """Set each recipe's ``version`` from its module's row; return the modules the table lacks (sorted).

    npm-published recipes (no groupId/artifactId) keep ``version=None``: the table lists Maven
    artifacts only.
    """
    versions = {module.coordinates: module.version for module in modules}
    missing: set[str] = set()
    for recipe in recipes:
        if not (recipe.group_id and recipe.artifact_id):
            continue
        coordinates = f"{recipe.group_id}:{recipe.artifact_id}"
        if coordinates in versions:
            recipe.version = versions[coordinates]
        else:
            missing.add(coordinates)
    return sorted(missing)


def _with_progress(source: PageSource, progress: bool) -> Iterable[tuple[str, str]]:
    if not progress:
        return source
    from tqdm import tqdm

    return tqdm(source, total=len(source), desc="parsing pages", unit="page", leave=False)
