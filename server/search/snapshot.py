"""What ranking needs to know about every recipe, held in memory per catalog revision.

The catalog is small (about 4,000 recipes): their vectors are 6 MB and their ranking facts (composite
graph, popularity, republished copies, filter columns, names, term frequencies) a few more. Reading them
once per catalog revision, instead of in half a dozen SQL statements per search, is what makes a warm
search cost milliseconds. The database stays the source of truth: the dense leg still runs in PostgreSQL
(HNSW), the full-text ranks are PostgreSQL's own ``ts_rank`` values, and a new ``catalog_revision``
written by any ingest makes the next search reload the snapshot.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..catalog.store import CatalogStore, catalog_revision
from ..config import EMBEDDING_DIM
from .models import SearchFilters
from .priors import CANONICAL_PREFIX, RecipeFacts, class_name

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RecipeRow:
    """One recipe's filter columns and ranking facts."""

    facts: RecipeFacts
    artifact_id: str | None
    tags: frozenset[str]
    license: str

    def passes(self, filters: SearchFilters) -> bool:
        """The same conditions ``legs.filter_sql`` puts into SQL, for rows ranked in memory."""
        return (
            (filters.module is None or self.artifact_id == filters.module)
            and (filters.tag is None or filters.tag in self.tags)
            and (filters.license is None or self.license == filters.license)
            and (filters.composite is None or self.facts.is_composite == filters.composite)
        )


@dataclass(frozen=True)
class RankingSnapshot:
    """Read-only ranking data of one catalog revision for one embedding model key."""

    revision: str
    model_key: str
    rows: dict[str, RecipeRow] = field(repr=False)
    # Every recipe is numbered by its position in ``recipe_ids`` (sorted by id); ``vectors`` and ``postings``
    # use that numbering.
    recipe_ids: tuple[str, ...] = field(repr=False)
    index: dict[str, int] = field(repr=False)  # recipe id → its number
    vectors: np.ndarray = field(repr=False)  # (recipes, dim) normalized float32; zeros for a recipe without one
    by_lower_id: dict[str, str] = field(repr=False)
    by_class: dict[str, tuple[str, ...]] = field(repr=False)  # lower-cased class name → ids
    # full-text lexeme → (numbers of the recipes containing it, PostgreSQL's ts_rank of it in each)
    postings: dict[str, tuple[np.ndarray, np.ndarray]] = field(repr=False)

    def doc_freq(self, lexeme: str) -> int:
        """How many recipes contain ``lexeme``."""
        found = self.postings.get(lexeme)
        return 0 if found is None else len(found[0])

    def cosines(self, ids: Sequence[str], queries: np.ndarray) -> dict[str, np.ndarray]:
        """Cosine of each recipe in ``ids`` (all in this snapshot) to every query vector; a recipe without a
        vector gets zeros."""
        sims = (self.vectors[[self.index[rid] for rid in ids]] @ queries.T).astype(np.float64)
        return {rid: sims[n] for n, rid in enumerate(ids)}

    def same_class(self, ids: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """Every recipe sharing a class name with each of ``ids`` (itself included)."""
        return {rid: self.by_class.get(class_name(rid).lower(), ()) for rid in ids}

    def filter_mask(self, filters: SearchFilters) -> np.ndarray:
        """Which recipes pass ``filters``, as booleans in ``recipe_ids`` order."""
        return np.array([self.rows[rid].passes(filters) for rid in self.recipe_ids], dtype=bool)

    def passing(self, ids: Iterable[str], filters: SearchFilters) -> list[str]:
        return [rid for rid in ids if rid in self.rows and self.rows[rid].passes(filters)]


def snapshot_for(store: CatalogStore, meta: dict[str, str], model_key: str) -> RankingSnapshot:
    """The snapshot of the catalog revision ``meta`` describes, loaded once per revision and model key (and
    kept on disk for the next process: ``snapshot_cache``)."""
    from .snapshot_cache import load_or_build

    revision = catalog_revision(meta)
    build = lambda: load_snapshot(store, meta, model_key)  # noqa: E731
    return store.memo(f"ranking:{model_key}", revision, lambda: load_or_build(revision, model_key, build))


def load_snapshot(store: CatalogStore, meta: dict[str, str], model_key: str) -> RankingSnapshot:
    started = time.perf_counter()
    with store.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")  # one consistent catalog for all reads
        cur.execute(
            "SELECT id, is_composite, used_by_count, artifact_id, tags, license, display_name, description, "
            "ARRAY(SELECT x->>'recipe_id' FROM jsonb_array_elements(data->'recipe_list') x), "
            "ARRAY(SELECT jsonb_array_elements_text(data->'used_by')) FROM recipes ORDER BY id"
        )
        recipes = cur.fetchall()
        # pgvector's binary form (int16 dim, int16 unused, big-endian float4s), all rows in one bytea: parsing
        # 4,000 vectors from text would hold the GIL for half a second while the server is starting.
        cur.execute(
            "SELECT array_agg(recipe_id ORDER BY recipe_id), string_agg(vector_send(embedding), ''::bytea "
            "ORDER BY recipe_id) FROM recipe_embeddings WHERE model = %s",
            (model_key,),
        )
        embedded_ids, packed = cur.fetchone()
        # PostgreSQL's own full-text ranking of every (term, recipe) pair: ts_rank with the catalog's A/B/C
        # weights, normalized by document length. 84k pairs, 0.3 s; a search then sums them in memory.
        cur.execute(
            "SELECT t.lexeme, array_agg(r.n ORDER BY r.n)::text, "
            "array_agg(ts_rank(r.search_tsv, quote_literal(t.lexeme)::tsquery, 1) ORDER BY r.n)::text "
            "FROM (SELECT (row_number() OVER (ORDER BY id) - 1)::int AS n, search_tsv FROM recipes) r, "
            "unnest(r.search_tsv) t GROUP BY t.lexeme"
        )
        postings = {
            lexeme: (
                np.fromstring(positions[1:-1], dtype=np.int32, sep=","),
                np.fromstring(ranks[1:-1], dtype=np.float64, sep=","),
            )
            for lexeme, positions, ranks in cur.fetchall()
        }
    copies = republished_copies((r[0], r[6], r[7]) for r in recipes)
    rows = {
        rid: RecipeRow(
            facts=RecipeFacts(rid, bool(comp), int(used), tuple(children or ()), tuple(parents or ()), rid in copies),
            artifact_id=artifact,
            tags=frozenset(tags or ()),
            license=lic,
        )
        for rid, comp, used, artifact, tags, lic, _name, _desc, children, parents in recipes
    }
    recipe_ids = tuple(rows)
    index = {rid: n for n, rid in enumerate(recipe_ids)}
    record = np.dtype([("dim", ">i2"), ("unused", ">i2"), ("values", ">f4", (EMBEDDING_DIM,))])
    stored = np.frombuffer(packed or b"", dtype=record)["values"]
    vectors = np.zeros((len(recipe_ids), EMBEDDING_DIM), dtype=np.float32)
    placed = [(index[rid], n) for n, rid in enumerate(embedded_ids or []) if rid in index]
    if placed:
        vectors[[p[0] for p in placed]] = stored[[p[1] for p in placed]]
    by_class: dict[str, list[str]] = defaultdict(list)
    for rid in rows:
        by_class[class_name(rid).lower()].append(rid)
    snapshot = RankingSnapshot(
        revision=catalog_revision(meta),
        model_key=model_key,
        rows=rows,
        recipe_ids=recipe_ids,
        index=index,
        vectors=vectors,
        by_lower_id={rid.lower(): rid for rid in rows},
        by_class={k: tuple(sorted(v)) for k, v in by_class.items()},
        postings=postings,
    )
    log.info(
        "ranking snapshot of %d recipes (%d vectors) loaded in %.2f s",
        len(rows),
        len(placed),
        time.perf_counter() - started,
    )
    return snapshot


def _namespace(recipe_id: str) -> str:
    return ".".join(recipe_id.split(".")[:2])


def republished_copies(recipes: Iterable[tuple[str, str, str]]) -> set[str]:
    """The ids outside ``org.openrewrite`` whose class name, or display name and description, a recipe of
    another namespace also has (``io.quarkus`` vs ``org.apache`` vs ``org.openrewrite``).

    ``recipes`` is (id, display name, description) of the whole catalog.
    """
    listed = list(recipes)
    namespaces_by_class: dict[str, set[str]] = defaultdict(set)
    namespaces_by_text: dict[tuple[str, str], set[str]] = defaultdict(set)
    for rid, name, description in listed:
        namespaces_by_class[class_name(rid)].add(_namespace(rid))
        namespaces_by_text[(name, description)].add(_namespace(rid))
    return {
        rid
        for rid, name, description in listed
        if not rid.startswith(CANONICAL_PREFIX)
        and (len(namespaces_by_class[class_name(rid)]) > 1 or len(namespaces_by_text[(name, description)]) > 1)
    }


def exact_matches(snapshot: RankingSnapshot, ids: Sequence[str], classes: Sequence[str]) -> dict[str, float]:
    """Recipes whose full id (score 1.0) or class name (0.5) was written in a query (lower-cased inputs)."""
    found: dict[str, float] = {}
    for lowered in classes:
        for rid in snapshot.by_class.get(lowered, ()):
            found[rid] = 0.5
    for lowered in ids:
        full = snapshot.by_lower_id.get(lowered)
        if full is not None:
            found[full] = 1.0
    return found
