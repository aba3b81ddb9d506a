"""Ranking priors computed from the catalog itself, independent of the query's wording.

- Republished copies: Quarkus, Camel, WebLogic and other modules republish OpenRewrite recipes under
  their own namespace (``io.quarkus.updates.core.quarkus30.JavaxPersistenceToJakartaPersistence``). A
  recipe outside ``org.openrewrite`` whose class name (or name and description) also lives in another
  namespace is demoted slightly: it stays findable, but the canonical one ranks first (found once per
  catalog revision by ``snapshot.republished_copies``).
- Generated sub-recipes: Refaster collections expand into one ``Outer$InnerRecipe`` per rule (1,200+ in
  the catalog). Each is a fragment of its collection, so it is demoted slightly.
- Popularity: a recipe that many composites include is a well-trodden building block; a small
  ``log(1 + used_by)`` bonus prefers it over an obscure look-alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .intent import Direction

CANONICAL_PREFIX = "org.openrewrite."


def class_name(recipe_id: str) -> str:
    return recipe_id.rsplit(".", 1)[-1]


def is_generated_fragment(recipe_id: str) -> bool:
    """``Outer$Inner`` recipes are generated members of a collection (Refaster rules and similar)."""
    return "$" in class_name(recipe_id)


@dataclass(frozen=True)
class RecipeFacts:
    """What the priors and the expansion need to know about one candidate recipe."""

    id: str
    is_composite: bool
    used_by_count: int
    children: tuple[str, ...]
    parents: tuple[str, ...]
    republished_copy: bool = False
    # What the display name says (``intent.py``): its terms, what it wants afterwards and gone, and whether
    # the recipe only finds things (``Find*``, ``*.search.*``) instead of changing them.
    name_terms: frozenset[str] = field(default_factory=frozenset)
    direction: Direction | None = None
    search_only: bool = False


def is_search_only(recipe_id: str, display_name_terms: frozenset[str]) -> bool:
    """Search recipes live in ``*.search.*`` packages or are named ``Find*``; they mark or report, and
    change nothing (``FindAndReplace`` is the one ``Find*`` that changes text)."""
    finder = ".search." in recipe_id or class_name(recipe_id).startswith("Find")
    return finder and not any(t.startswith("replac") for t in display_name_terms)


def prior(facts: RecipeFacts, *, copy_penalty: float, fragment_penalty: float, popularity: float) -> float:
    """The additive prior for one recipe (added to its relevance score)."""
    value = popularity * math.log1p(facts.used_by_count)
    if facts.republished_copy:
        value -= copy_penalty
    if is_generated_fragment(facts.id):
        value -= fragment_penalty
    return value
