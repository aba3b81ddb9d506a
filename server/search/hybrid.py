"""Hybrid multi-query recipe search: dense (pgvector HNSW) + lexical (full-text) + exact-id legs, fused
with Reciprocal Rank Fusion.

Each query variation contributes up to three ranked lists; a recipe's fusion score is
``sum(weight / (RRF_K + rank))`` over every list it appears in (1-based ranks). Agents send 2–5
phrasings of one intent, so recipes that several phrasings agree on rise to the top.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from rewrite_assist.server.catalog.store import CatalogStore
from rewrite_assist.server.embedding import Embedder
from rewrite_assist.server.search.models import OptionSummary, SearchFilters, SearchHit, SearchResult

log = logging.getLogger(__name__)

RRF_K = 60
MAX_VARIATIONS = 5
DEFAULT_MIN_SCORE = 0.25
DESCRIPTION_CHARS = 300


@dataclass(frozen=True)
class SearchTuning:
    """Knobs measured by the evaluation harness (evaluation/retrieval.py); defaults are the chosen ones."""

    dense_candidates: int = 40
    lexical_candidates: int = 30
    ef_search: int = 100
    dense_weight: float = 1.0
    lexical_weight: float = 0.6
    exact_weight: float = 2.0
    model_key: str = "all-MiniLM-L6-v2"


DEFAULT_TUNING = SearchTuning()


class QueryError(ValueError):
    """The queries or limits given are not usable; the message says how to fix them."""


def normalize_queries(intent: str | Sequence[str]) -> list[str]:
    """Drop blanks and duplicates (case-insensitive), keep order; reject more than ``MAX_VARIATIONS``."""
    raw = [intent] if isinstance(intent, str) else list(intent)
    seen: set[str] = set()
    queries: list[str] = []
    for q in raw:
        text = " ".join(str(q).split())
        if text and text.lower() not in seen:
            seen.add(text.lower())
            queries.append(text)
    if not queries:
        raise QueryError("intent is empty: pass a description of the change, or 2-5 variations of it.")
    if len(queries) > MAX_VARIATIONS:
        raise QueryError(
            f"{len(queries)} distinct query variations given; at most {MAX_VARIATIONS} are allowed. "
            "Send the best 5 phrasings, or split unrelated intents into separate calls."
        )
    return queries


_ID_TOKEN = re.compile(r"\b(?:[a-z][\w-]*\.)+[A-Z][\w$]*\b")
_CLASS_TOKEN = re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9_]*)+\b")
_WORD = re.compile(r"[A-Za-z0-9]+")


def _or_query(text: str) -> str:
    """websearch_to_tsquery syntax that ORs the words: natural-language intents rarely contain every word."""
    words = [w for w in _WORD.findall(text) if len(w) > 1]
    return " or ".join(words)


@dataclass
class _Candidates:
    ranks: dict[str, list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))
    variations: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))

    def add(self, leg: str, variation: int, ids: list[str]) -> None:
        for rank, rid in enumerate(ids, start=1):
            self.ranks[rid].append((leg, rank))
            self.variations[rid].add(variation)


def _filter_sql(filters: SearchFilters, alias: str = "r") -> tuple[str, dict[str, Any]]:
    clauses: list[str] = []
    params: dict[str, Any] = {}
    if filters.module:
        clauses.append(f"{alias}.artifact_id = %(f_module)s")
        params["f_module"] = filters.module
    if filters.tag:
        clauses.append(f"%(f_tag)s = ANY({alias}.tags)")
        params["f_tag"] = filters.tag
    if filters.license:
        clauses.append(f"{alias}.license = %(f_license)s")
        params["f_license"] = filters.license
    if filters.composite is not None:
        clauses.append(f"{alias}.is_composite = %(f_composite)s")
        params["f_composite"] = filters.composite
    return ("".join(f" AND {c}" for c in clauses), params)


def _dense_leg(
    cur: Any, vector: np.ndarray, filters: SearchFilters, tuning: SearchTuning, min_score: float
) -> list[tuple[str, float]]:
    where, params = _filter_sql(filters)
    params.update(q=vector, model=tuning.model_key, n=tuning.dense_candidates)
    # ORDER BY the distance operator itself so the partial HNSW index on this model key is used.
    cur.execute(
        "SELECT e.recipe_id, 1 - (e.embedding <=> %(q)s) FROM recipe_embeddings e "
        "JOIN recipes r ON r.id = e.recipe_id "
        f"WHERE e.model = %(model)s{where} ORDER BY e.embedding <=> %(q)s LIMIT %(n)s",
        params,
    )
    rows = sorted(((rid, float(cos)) for rid, cos in cur.fetchall()), key=lambda r: -r[1])
    return [(rid, cos) for rid, cos in rows if cos >= min_score]


def _lexical_leg(cur: Any, text: str, filters: SearchFilters, tuning: SearchTuning) -> list[str]:
    query = _or_query(text)
    if not query:
        return []
    where, params = _filter_sql(filters)
    params.update(q=query, n=tuning.lexical_candidates)
    cur.execute(
        "SELECT r.id FROM recipes r, websearch_to_tsquery('english', %(q)s) q "
        f"WHERE r.search_tsv @@ q{where} ORDER BY ts_rank_cd(r.search_tsv, q, 1) DESC, r.id LIMIT %(n)s",
        params,
    )
    return [r[0] for r in cur.fetchall()]


def _exact_leg(cur: Any, text: str, filters: SearchFilters) -> list[str]:
    """Recipes whose full id, or class name, is written in the query (``SetupJavaAdoptOpenJDKToTemurin``)."""
    ids = _ID_TOKEN.findall(text)
    classes = [c for c in _CLASS_TOKEN.findall(text) if len(c) > 6]
    if not ids and not classes:
        return []
    where, params = _filter_sql(filters)
    params.update(ids=[i.lower() for i in ids], classes=[c.lower() for c in classes])
    cur.execute(
        "SELECT r.id FROM recipes r WHERE (lower(r.id) = ANY(%(ids)s) "
        f"OR lower(split_part(r.id, '.', -1)) = ANY(%(classes)s)){where} "
        "ORDER BY (lower(r.id) = ANY(%(ids)s)) DESC, r.used_by_count DESC, r.id LIMIT 20",
        params,
    )
    return [r[0] for r in cur.fetchall()]


def find_recipes(
    store: CatalogStore,
    embedder: Embedder,
    intent: str | Sequence[str],
    *,
    limit: int = 5,
    min_score: float = DEFAULT_MIN_SCORE,
    filters: SearchFilters | None = None,
    tuning: SearchTuning = DEFAULT_TUNING,
) -> SearchResult:
    """Search the catalog for recipes implementing ``intent`` (one query or 2–5 variations)."""
    queries = normalize_queries(intent)
    if not 1 <= limit <= 50:
        raise QueryError(f"limit must be between 1 and 50, got {limit}.")
    if not -1.0 <= min_score <= 1.0:
        raise QueryError(f"min_score is a cosine similarity between -1 and 1, got {min_score}.")
    filters = filters or SearchFilters()
    store.check_ready()
    vectors = embedder.encode(queries)  # all variations in one batch

    candidates = _Candidates()
    weights = {"dense": tuning.dense_weight, "lexical": tuning.lexical_weight, "exact": tuning.exact_weight}
    with store.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SET LOCAL hnsw.ef_search = %s", (max(tuning.ef_search, tuning.dense_candidates),))
        if not filters.is_empty():
            cur.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        for n, (text, vector) in enumerate(zip(queries, vectors, strict=True)):
            dense = _dense_leg(cur, vector, filters, tuning, min_score)
            candidates.add("dense", n, [rid for rid, _ in dense])
            if tuning.lexical_weight > 0:
                candidates.add("lexical", n, _lexical_leg(cur, text, filters, tuning))
            if tuning.exact_weight > 0:
                candidates.add("exact", n, _exact_leg(cur, text, filters))

    fused = {
        rid: sum(weights[leg] / (RRF_K + rank) for leg, rank in ranks)
        for rid, ranks in candidates.ranks.items()
    }
    ordered = sorted(fused, key=lambda rid: (-fused[rid], rid))
    top = ordered[:limit]
    hits = _hydrate(store, top, vectors, fused, candidates, tuning)
    hint = None
    if not hits:
        hint = (
            "No recipe matched. Rephrase the intent in OpenRewrite's vocabulary (e.g. 'change dependency version', "
            "'migrate to JUnit 5'), describe it as a file/text manipulation, lower min_score, or drop filters."
        )
    return SearchResult(hits=hits, total_count=len(ordered), queries=queries, hint=hint)


def _as_array(value: Any) -> np.ndarray:
    """pgvector's psycopg2 adapter returns ``Vector`` objects (newer versions) or numpy arrays."""
    return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)


def _hydrate(
    store: CatalogStore,
    ids: list[str],
    vectors: np.ndarray,
    fused: dict[str, float],
    candidates: _Candidates,
    tuning: SearchTuning,
) -> list[SearchHit]:
    if not ids:
        return []
    recipes = store.get_recipes(ids)
    with store.db.connection() as conn, conn.cursor() as cur:
        cur.execute(
            "SELECT recipe_id, embedding FROM recipe_embeddings WHERE model = %s AND recipe_id = ANY(%s)",
            (tuning.model_key, ids),
        )
        embedded = {rid: _as_array(vec) for rid, vec in cur.fetchall()}
    hits = []
    for rid in ids:
        recipe = recipes[rid]
        cosine = float(np.max(vectors @ embedded[rid])) if rid in embedded else 0.0
        description = recipe.description
        if len(description) > DESCRIPTION_CHARS:
            description = description[: DESCRIPTION_CHARS - 1].rstrip() + "…"
        hits.append(
            SearchHit(
                id=rid,
                display_name=recipe.display_name,
                description=description,
                tags=recipe.tags,
                module=recipe.module,
                license=recipe.license,
                is_composite=recipe.is_composite,
                sub_recipe_count=len(recipe.recipe_list),
                options=[OptionSummary(name=o.name, required=o.required) for o in recipe.options],
                cosine_score=round(cosine, 4),
                fusion_score=round(fused[rid], 6),
                matched_variations=len(candidates.variations[rid]),
            )
        )
    return hits
