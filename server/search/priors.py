"""Ranking priors computed from the catalog itself, independent of the query's wording.

- Republished copies: Quarkus, Camel, WebLogic and other modules republish OpenRewrite recipes under
  their own namespace (``io.quarkus.updates.core.quarkus30.JavaxPersistenceToJakartaPersistence``). A
  recipe outside ``org.openrewrite`` whose class name (or name and description) also lives in another
  namespace is demoted slightly: it stays findable, but the canonical one ranks first.
- Generated sub-recipes: Refaster collections expand into one ``Outer$InnerRecipe`` per rule (1,200+ in
  the catalog). Each is a fragment of its collection, so it is demoted slightly.
- Popularity: a recipe that many composites include is a well-trodden building block; a small
  ``log(1 + used_by)`` bonus prefers it over an obscure look-alike.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

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


def load_facts(cur: Any, ids: Iterable[str]) -> dict[str, RecipeFacts]:
    """Facts for ``ids`` in two queries: the recipes' own columns, then which are republished copies."""
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return {}
    cur.execute(
        "SELECT id, is_composite, used_by_count, "
        "ARRAY(SELECT x->>'recipe_id' FROM jsonb_array_elements(data->'recipe_list') x), "
        "ARRAY(SELECT jsonb_array_elements_text(data->'used_by')) "
        "FROM recipes WHERE id = ANY(%s)",
        (wanted,),
    )
    rows = cur.fetchall()
    copies = republished_copies(cur, [r[0] for r in rows])
    return {
        rid: RecipeFacts(rid, bool(comp), int(used), tuple(children or ()), tuple(parents or ()), rid in copies)
        for rid, comp, used, children, parents in rows
    }


_NAMESPACE = "split_part(id, '.', 1) || '.' || split_part(id, '.', 2)"


def republished_copies(cur: Any, ids: Iterable[str]) -> set[str]:
    """The ids outside ``org.openrewrite`` whose class name, or display name and description, a recipe of
    another namespace also has (``io.quarkus`` vs ``org.apache`` vs ``org.openrewrite``).

    Grouping only the rows that share a class name or display name with ``ids`` keeps this one cheap query.
    """
    outside = [rid for rid in ids if not rid.startswith(CANONICAL_PREFIX)]
    if not outside:
        return set()
    cur.execute(
        "WITH o AS (SELECT id, display_name, description, split_part(id, '.', -1) AS cls FROM recipes "
        "WHERE id = ANY(%(ids)s)), "
        f"shared_class AS (SELECT split_part(id, '.', -1) AS cls FROM recipes "
        f"WHERE split_part(id, '.', -1) IN (SELECT cls FROM o) GROUP BY 1 HAVING count(DISTINCT {_NAMESPACE}) > 1), "
        f"shared_text AS (SELECT display_name, description FROM recipes WHERE display_name IN "
        f"(SELECT display_name FROM o) GROUP BY 1, 2 HAVING count(DISTINCT {_NAMESPACE}) > 1) "
        "SELECT id FROM o WHERE cls IN (SELECT cls FROM shared_class) "
        "OR (display_name, description) IN (SELECT display_name, description FROM shared_text)",
        {"ids": outside},
    )
    return {row[0] for row in cur.fetchall()}


def prior(facts: RecipeFacts, *, copy_penalty: float, fragment_penalty: float, popularity: float) -> float:
    """The additive prior for one recipe (added to its relevance score)."""
    value = popularity * math.log1p(facts.used_by_count)
    if facts.republished_copy:
        value -= copy_penalty
    if is_generated_fragment(facts.id):
        value -= fragment_penalty
    return value
