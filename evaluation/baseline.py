"""The reference system's retrieval, rebuilt on our catalog so both are measured in the same run.

The reference embeds ``Recipe / Description / Tags / Full name`` (``reference_text``), searches each
query variation by exact cosine similarity alone (``limit * 2`` candidates, those under 0.5 dropped) and
fuses the variations with Reciprocal Rank Fusion (k = 60). Its vectors live in ``recipe_embeddings`` under their
own model key, computed once and re-computed only for recipes whose reference text changed.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence

from ..ingestion.embedded_text import reference_text, text_hash
from ..server.catalog.models import Recipe
from ..server.catalog.store import CatalogStore
from ..server.embedding import Embedder

log = logging.getLogger(__name__)

REFERENCE_MODEL_KEY = "reference:all-MiniLM-L6-v2"
REFERENCE_MIN_SCORE = 0.5
REFERENCE_RRF_K = 60
REFERENCE_CANDIDATE_FACTOR = 2


def ensure_reference_embeddings(store: CatalogStore, embedder: Embedder, *, progress: bool = False) -> int:
    """Embed the reference text of every recipe whose stored reference vector is missing or stale.

    Returns how many recipes were (re-)embedded; 0 on every run after the first on an unchanged catalog.
    """
    with store.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SELECT id, display_name, description, tags FROM recipes ORDER BY id")
        recipes = [Recipe(id=i, display_name=n, description=d, tags=list(t)) for i, n, d, t in cur.fetchall()]
    stored = store.stored_hashes(REFERENCE_MODEL_KEY)
    todo: dict[str, tuple[str, str]] = {}
    for recipe in recipes:
        text = reference_text(recipe)
        th = text_hash(text)
        previous = stored.get(recipe.id)
        if previous is None or previous.text_hash != th:
            todo[recipe.id] = (th, text)
    if todo:
        log.info("embedding the reference text of %d recipe(s)", len(todo))
        ids = list(todo)
        matrix = embedder.encode([todo[i][1] for i in ids], show_progress=progress)
        store.write_embeddings(REFERENCE_MODEL_KEY, {rid: (todo[rid][0], matrix[n]) for n, rid in enumerate(ids)})
    return len(todo)


def reference_search(store: CatalogStore, embedder: Embedder, queries: Sequence[str], limit: int) -> list[str]:
    """Recipe ids the reference system would return for ``queries``, best first."""
    vectors = embedder.encode(list(queries))
    fused: dict[str, float] = defaultdict(float)
    with store.db.connection() as conn, conn.cursor() as cur:
        # Exact cosine, not the HNSW index: its approximation would lose the reference a few points that
        # its published numbers (exact search) do not lose, and the row to beat should be its best.
        cur.execute("SET LOCAL enable_indexscan = off")
        for vector in vectors:
            cur.execute(
                "SELECT recipe_id, 1 - (embedding <=> %(q)s) FROM recipe_embeddings WHERE model = %(model)s "
                "ORDER BY embedding <=> %(q)s LIMIT %(n)s",
                {"q": vector, "model": REFERENCE_MODEL_KEY, "n": limit * REFERENCE_CANDIDATE_FACTOR},
            )
            rows = sorted(((rid, float(cos)) for rid, cos in cur.fetchall()), key=lambda r: -r[1])
            kept = [rid for rid, cos in rows if cos >= REFERENCE_MIN_SCORE]
            for rank, rid in enumerate(kept, start=1):
                fused[rid] += 1.0 / (REFERENCE_RRF_K + rank)
    ordered = sorted(fused, key=lambda rid: (-fused[rid], rid))
    return ordered[:limit]
