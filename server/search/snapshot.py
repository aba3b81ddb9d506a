"""What ranking needs to know about every recipe, held in memory per catalog revision.

The catalog is small (a few thousand recipes): their vectors and ranking facts (composite graph,
popularity, republished copies, filter columns, names, term frequencies) fit in memory easily. Reading them
once per catalog revision, instead of in half a dozen SQL statements per search, spares every search those
round trips. The database stays the source of truth: the dense leg still runs in PostgreSQL
(HNSW), the full-text ranks are PostgreSQL's own ``ts_rank`` values, and a new ``catalog_revision``
written by any ingest makes the next search reload the snapshot.
"""

from __future__ import annotations

import logging
import math
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..catalog.models import MODERNE_ONLY
from ..catalog.store import CatalogStore, catalog_revision
from ..config import EMBEDDING_DIM
from .intent import direction, terms
from .models import SearchFilters
from .priors import CANONICAL_PREFIX, RecipeFacts, class_name, is_search_only

log = logging.getLogger(__name__)


MAX_CACHED_MASKS = 256
MAX_CACHED_SUBSETS = 8  # each holds a copy of its vectors


@dataclass(frozen=True)
class RecipeRow:
    """One recipe's filter columns and ranking facts."""

    facts: RecipeFacts
    artifact_id: str | None
    tags: frozenset[str]
    license: str
    availability: str = "docs"

    def passes(self, filters: SearchFilters) -> bool:
        """The same conditions ``legs.filter_sql`` puts into SQL, for rows ranked in memory."""
        return (
            (filters.module is None or self.artifact_id == filters.module)
            and (filters.tag is None or filters.tag in self.tags)
            and (filters.license is None or self.license == filters.license)
            and (filters.composite is None or self.facts.is_composite == filters.composite)
            and (filters.availability is None or self.availability == filters.availability)
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
    # display-name term → log(recipes / recipes whose display name has it)
    name_idf: dict[str, float] = field(repr=False, default_factory=dict)
    # lexeme → how many recipes *with a page* contain it (see ``term_stats``)
    docs_freq: dict[str, int] = field(default_factory=dict, repr=False)
    docs_total: int = 0
    # The embeddings of the recipe pages' examples (``recipe_examples``: the changed lines of each example
    # file) and, per row, the number of the recipe whose page shows it: the examples leg (``legs/examples.py``)
    example_vectors: np.ndarray = field(default_factory=lambda: np.zeros((0, EMBEDDING_DIM), np.float32), repr=False)
    example_owners: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32), repr=False)
    # filter values → ``filter_mask``: every default search filters on availability, and a Python pass over
    # all rows per search cost more than the rest of the ranking
    masks: dict[tuple[object, ...], np.ndarray] = field(default_factory=dict, repr=False, compare=False)
    subsets: dict[tuple[object, ...], tuple[np.ndarray, np.ndarray]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def example_similarity(self, queries: np.ndarray) -> np.ndarray:
        """Per query vector and recipe, the best cosine of the query to one of the recipe's examples (0 for
        a recipe without examples, or when all its examples are opposed to the query): shape (queries,
        recipes). ``example_owners`` is sorted, so each recipe's examples are one run of rows."""
        out = np.zeros((len(queries), len(self.recipe_ids)), dtype=np.float64)
        owners = self.example_owners
        if len(owners) and len(queries):
            # einsum, not BLAS: a multi-threaded product right after the query embedding competes with the
            # embedding runtime's threads still spinning, which cost more than the product itself
            sims = np.einsum("qd,ed->qe", np.asarray(queries, dtype=np.float32), self.example_vectors)
            starts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
            out[:, owners[starts]] = np.maximum(np.maximum.reduceat(sims, starts, axis=1), 0.0)
        return out

    def doc_freq(self, lexeme: str) -> int:
        """How many recipes contain ``lexeme``."""
        found = self.postings.get(lexeme)
        return 0 if found is None else len(found[0])

    def term_stats(self, filters: SearchFilters) -> tuple[Callable[[str], int], int]:
        """Document frequencies and the recipe count the lexical leg's IDF uses for ``filters``: among the
        recipes with a page when Moderne-only entries are filtered out (the default), so adding the Moderne
        list does not change the weights of the default search; among all recipes otherwise."""
        if filters.availability == "docs":
            return (lambda lexeme: self.docs_freq.get(lexeme, 0)), self.docs_total
        return self.doc_freq, len(self.rows)

    def cosines(self, ids: Sequence[str], queries: np.ndarray) -> dict[str, np.ndarray]:
        """Cosine of each recipe in ``ids`` (all in this snapshot) to every query vector; a recipe without a
        vector gets zeros."""
        sims = (self.vectors[[self.index[rid] for rid in ids]] @ queries.T).astype(np.float64)
        return {rid: sims[n] for n, rid in enumerate(ids)}

    def same_class(self, ids: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """Every recipe sharing a class name with each of ``ids`` (itself included)."""
        return {rid: self.by_class.get(class_name(rid).lower(), ()) for rid in ids}

    def filter_mask(self, filters: SearchFilters) -> np.ndarray:
        """Which recipes pass ``filters``, as booleans in ``recipe_ids`` order (read-only, cached)."""
        key = tuple(filters.model_dump().values())
        mask = self.masks.get(key)
        if mask is None:
            mask = np.array([self.rows[rid].passes(filters) for rid in self.recipe_ids], dtype=bool)
            mask.setflags(write=False)
            if len(self.masks) >= MAX_CACHED_MASKS:
                self.masks.clear()
            self.masks[key] = mask
        return mask

    def subset(self, filters: SearchFilters) -> tuple[np.ndarray, np.ndarray]:
        """The numbers of the recipes passing ``filters`` and their vectors as one contiguous array (cached).

        Ranking a subset in memory (the Moderne-only hint) multiplies a half-size matrix: a fresh
        fancy-indexed copy per search, or the whole matrix, cost ten times more on a busy machine."""
        key = tuple(filters.model_dump().values())
        found = self.subsets.get(key)
        if found is None:
            numbers = np.flatnonzero(self.filter_mask(filters))
            found = (numbers, np.ascontiguousarray(self.vectors[numbers]))
            if len(self.subsets) >= MAX_CACHED_SUBSETS:
                self.subsets.clear()
            self.subsets[key] = found
        return found

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
            "ARRAY(SELECT jsonb_array_elements_text(data->'used_by')), availability FROM recipes ORDER BY id"
        )
        recipes = cur.fetchall()
        # pgvector's binary form (int16 dim, int16 unused, big-endian float4s), all rows in one bytea: parsing
        # every vector from text would hold the GIL long enough to stall the server while it is starting.
        cur.execute(
            "SELECT array_agg(recipe_id ORDER BY recipe_id), string_agg(vector_send(embedding), ''::bytea "
            "ORDER BY recipe_id) FROM recipe_embeddings WHERE model = %s",
            (model_key,),
        )
        embedded_ids, packed = cur.fetchone()
        # PostgreSQL's own full-text ranking of every (term, recipe) pair: ts_rank with the catalog's A/B/C
        # weights, normalized by document length, computed once here so a search only sums them in memory.
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
        example_ids, example_packed = _example_vectors(cur, model_key)
    # Copies among the recipes with a page are found among those alone, so a Moderne-only namesake does not
    # demote a docs recipe (the default search leaves Moderne-only entries out); those are judged among all.
    moderne_only = {r[0] for r in recipes if r[10] == MODERNE_ONLY}
    copies = republished_copies((r[0], r[6], r[7]) for r in recipes if r[0] not in moderne_only)
    copies |= republished_copies((r[0], r[6], r[7]) for r in recipes) & moderne_only
    name_terms = {r[0]: frozenset(terms(r[6] or "")) for r in recipes}
    rows = {
        rid: RecipeRow(
            facts=RecipeFacts(
                rid,
                bool(comp),
                int(used),
                tuple(children or ()),
                tuple(parents or ()),
                rid in copies,
                name_terms=name_terms[rid],
                direction=direction(name or ""),
                search_only=is_search_only(rid, name_terms[rid]),
            ),
            artifact_id=artifact,
            tags=frozenset(tags or ()),
            license=lic,
            availability=availability,
        )
        for rid, comp, used, artifact, tags, lic, name, _desc, children, parents, availability in recipes
    }
    # Name rarity among the recipes with a page, like the full-text weights (``term_stats``): adding the
    # Moderne list must not change the default ranking; a term only Moderne-only names use counts as rarest.
    name_df: dict[str, int] = defaultdict(int)
    for rid, found in name_terms.items():
        if rid not in moderne_only:
            for term in found:
                name_df[term] += 1
    docs_total = max(len(rows) - len(moderne_only), 1)
    recipe_ids = tuple(rows)
    index = {rid: n for n, rid in enumerate(recipe_ids)}
    record = np.dtype([("dim", ">i2"), ("unused", ">i2"), ("values", ">f4", (EMBEDDING_DIM,))])
    stored = np.frombuffer(packed or b"", dtype=record)["values"]
    vectors = np.zeros((len(recipe_ids), EMBEDDING_DIM), dtype=np.float32)
    placed = [(index[rid], n) for n, rid in enumerate(embedded_ids or []) if rid in index]
    if placed:
        vectors[[p[0] for p in placed]] = stored[[p[1] for p in placed]]
    owned = [(n, index[rid]) for n, rid in enumerate(example_ids) if rid in index]
    example_vectors = np.ascontiguousarray(
        np.frombuffer(example_packed or b"", dtype=record)["values"][[n for n, _ in owned]], dtype=np.float32
    )
    example_owners = np.array([number for _, number in owned], dtype=np.int32)
    by_owner = np.argsort(example_owners, kind="stable")  # one run of rows per recipe (example_similarity)
    example_vectors, example_owners = np.ascontiguousarray(example_vectors[by_owner]), example_owners[by_owner]
    by_class: dict[str, list[str]] = defaultdict(list)
    for rid in rows:
        by_class[class_name(rid).lower()].append(rid)
    is_docs = np.array([rows[rid].availability != MODERNE_ONLY for rid in recipe_ids], dtype=bool)
    docs_freq = {lexeme: int(is_docs[numbers].sum()) for lexeme, (numbers, _ranks) in postings.items()}
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
        name_idf={term: math.log(docs_total / df) for term, df in name_df.items()},
        docs_freq={lexeme: n for lexeme, n in docs_freq.items() if n},
        docs_total=docs_total,
        example_vectors=example_vectors,
        example_owners=example_owners,
    )
    log.info(
        "ranking snapshot of %d recipes (%d vectors, %d example vectors) loaded in %.2f s",
        len(rows),
        len(placed),
        len(example_owners),
        time.perf_counter() - started,
    )
    return snapshot


def _example_vectors(cur: Any, model_key: str) -> tuple[list[str], bytes | None]:
    """The owners and packed embeddings of every embedded example (none in a catalog without the table)."""
    cur.execute("SELECT to_regclass('recipe_examples') IS NOT NULL")
    if not cur.fetchone()[0]:
        return [], None
    cur.execute(
        "SELECT array_agg(recipe_id ORDER BY recipe_id, ordinal), string_agg(vector_send(embedding), ''::bytea "
        "ORDER BY recipe_id, ordinal) FROM recipe_examples WHERE model = %s AND embedding IS NOT NULL",
        (model_key,),
    )
    ids, packed = cur.fetchone()
    return list(ids or []), packed


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
