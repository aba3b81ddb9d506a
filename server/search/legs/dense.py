"""The dense leg: nearest neighbours of each variation's embedding (pgvector HNSW, one statement for all
variations).

Its evidence is only "found": every candidate, whichever leg found it, is then compared with every
variation by cosine (``candidates.py``), and that similarity is what both fusions rank by.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from ...catalog.store import vector_literal
from ..models import SearchFilters
from ..snapshot import RankingSnapshot
from ..tuning import SearchTuning
from .base import Evidence, LegContext
from .sql import filter_sql


def dense_statement(
    vectors: np.ndarray, filters: SearchFilters, *, model_key: str, depth: int
) -> tuple[str, dict[str, Any]]:
    """The dense leg's SQL: one statement for all variations (a LATERAL subquery per vector), each
    ordered by the distance operator itself so the partial HNSW index on this model key is used."""
    where, params = filter_sql(filters)
    join = " JOIN recipes r ON r.id = e.recipe_id" if where else ""  # the recipes row only serves filters
    sql = (
        "SELECT q.n, d.recipe_id FROM unnest(%(qs)s::vector[]) WITH ORDINALITY AS q(v, n) CROSS JOIN LATERAL ("
        f"SELECT e.recipe_id FROM recipe_embeddings e{join} "
        f"WHERE e.model = %(model)s{where} ORDER BY e.embedding <=> q.v LIMIT %(n)s) d"
    )
    return sql, {**params, "qs": [vector_literal(v) for v in vectors], "model": model_key, "n": depth}


def dense_candidates(
    cur: Any, vectors: np.ndarray, filters: SearchFilters, *, model_key: str, depth: int
) -> dict[str, set[int]]:
    """The ``depth`` nearest recipes of each variation: recipe id → the variations (0-based) that found it."""
    cur.execute(*dense_statement(vectors, filters, model_key=model_key, depth=depth))
    found: dict[str, set[int]] = {}
    for n, rid in cur.fetchall():
        found.setdefault(rid, set()).add(int(n) - 1)
    return found


def exact_candidates(
    snapshot: RankingSnapshot, vectors: np.ndarray, filters: SearchFilters, *, depth: int
) -> dict[str, set[int]]:
    """``dense_candidates`` by exact cosine over the recipes passing ``filters``, in memory (the snapshot's
    vectors are normalized; a recipe without a vector has zeros and is never among the nearest)."""
    numbers, matrix = snapshot.subset(filters)
    found: dict[str, set[int]] = {}
    if not len(numbers):
        return found
    sims = np.asarray(vectors, dtype=np.float32) @ matrix.T
    k = min(depth, len(numbers))
    for n, row in enumerate(sims):
        top = np.argpartition(-row, k - 1)[:k]
        for i in top[row[top] > 0].tolist():
            found.setdefault(snapshot.recipe_ids[int(numbers[i])], set()).add(n)
    return found


class DenseLeg:
    name = "dense"
    needs_vectors = True
    always = True
    vouches = False  # a weak embedding match is dropped under min_score
    rrf_lists: Literal["per_variation", "summary"] = "per_variation"
    one_phrase = False

    def weight(self, tuning: SearchTuning, fusion: str) -> float:
        return 0.0  # it enters both fusions through the similarities of the pool, not as evidence

    def summary(self, evidence: np.ndarray) -> float:
        return float(evidence.max())

    def gather(self, ctx: LegContext) -> Evidence:
        assert ctx.vectors is not None
        depth = ctx.tuning.dense_candidates
        if ctx.exact:
            found = exact_candidates(ctx.snapshot, ctx.vectors, ctx.filters, depth=depth)
        else:
            found = dense_candidates(ctx.cur, ctx.vectors, ctx.filters, model_key=ctx.tuning.model_key, depth=depth)
        out: Evidence = [{} for _ in ctx.queries]
        for rid, variations in found.items():
            for n in variations:
                out[n][rid] = 1.0
        return out
