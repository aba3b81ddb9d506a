"""Hybrid multi-query recipe search: legs gather candidates, a fusion strategy scores them against every
query variation, catalog priors adjust, and the best hits pull their family up along the composite graph.

Agents send 2-5 phrasings of one intent. Each leg (``legs/``) finds candidates per variation; every
candidate then gets its cosine against *every* variation (``candidates.py``), and a fusion strategy
(``fusion.py``: ``score``, the default, or ``rrf``) turns similarities, the legs' evidence and the catalog
prior (``priors.py``) into one score.

Relevant recipes come in families: the recipe that does the change, the composite that includes it, its
sub-steps, its copies in other modules. So the best few hits pull their parents, children and namesakes
up to just below themselves (never far above their own score), which is where an agent wants to see them.

A warm search runs the dense leg (one HNSW statement for all variations), the query's full-text lexemes
(one statement, while the query embedding runs), one hydration query and two small catalog checks; the rest
(term ranks, cosines, facts, names, filters) is read from the in-memory ranking snapshot of the catalog
revision (``snapshot.py``), so ranking costs no further round trips.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from .. import config
from ..catalog.models import Recipe
from ..catalog.store import CatalogStore
from ..embedding import Embedder
from ..errors import BadInput
from . import moderne
from .candidates import Candidate, CandidatePool, soft_max, soft_max_rows
from .defaults import DEFAULT_MIN_SCORE, MAX_VARIATIONS
from .filters import check_filters
from .fusion import FUSIONS, Fusion
from .legs import LEGS, LegContext
from .legs.example_terms import example_terms
from .models import SearchFilters, SearchHit, SearchResult, catalog_fields
from .rewrite import rewrite
from .snapshot import RankingSnapshot, snapshot_for
from .tuning import DEFAULT_TUNING, SearchTuning

__all__ = [
    "DEFAULT_MIN_SCORE",
    "DEFAULT_TUNING",
    "MAX_VARIATIONS",
    "QueryError",
    "SearchTuning",
    "configured_tuning",
    "find_recipes",
    "normalize_queries",
    "preload",
    "scored_pool",
    "soft_max",
    "soft_max_rows",
]

log = logging.getLogger(__name__)

_QUERY_EMBEDDING = ThreadPoolExecutor(max_workers=4, thread_name_prefix="query-embedding")
# As many workers as the default connection pool has connections: a search waits for its hint holding one, so
# (at the default pool size) no search waits for another's hint
_HINT = ThreadPoolExecutor(max_workers=config.DEFAULT_DB_POOL_SIZE, thread_name_prefix="moderne-hint")


class QueryError(BadInput):
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


class _Search:
    """One search call: runs the legs, lets the fusion score, drops weak matches, expands."""

    def __init__(
        self,
        cur: Any,
        snapshot: RankingSnapshot,
        queries: list[str],
        filters: SearchFilters,
        tuning: SearchTuning,
        asked: int | None = None,
        *,
        exact: bool = False,
        memo: dict[str, Any] | None = None,
    ):
        self.cur = cur
        self.exact = exact
        self.memo: dict[str, Any] = {} if memo is None else memo  # shared by the legs of one search call
        if tuning.fusion not in FUSIONS:
            raise QueryError(f"unknown fusion {tuning.fusion!r}; one of {', '.join(FUSIONS)}.")
        self.fusion: Fusion = FUSIONS[tuning.fusion]
        one = (asked or len(queries)) == 1
        legs = [
            leg
            for leg in LEGS
            if (leg.always or leg.weight(tuning, self.fusion.name) > 0) and (one or not leg.one_phrase)
        ]
        self.pool = CandidatePool(snapshot, queries, filters, tuning, legs, asked)

    @property
    def candidates(self) -> dict[str, Candidate]:
        return self.pool.candidates

    def gather(self, query_vectors: Callable[[], np.ndarray]) -> None:
        """Run the legs. Those that need no vectors come first: they run while ``query_vectors()`` is still
        being computed in another thread; the others follow."""
        pool = self.pool
        found: dict[str, set[int]] = {}
        evidence: dict[str, dict[str, np.ndarray]] = {}  # leg → recipe id → evidence per variation
        context = LegContext(
            self.cur, pool.snapshot, pool.queries, pool.filters, pool.tuning, exact=self.exact, memo=self.memo
        )
        ordered = [leg for leg in pool.legs if not leg.needs_vectors] + [leg for leg in pool.legs if leg.needs_vectors]
        for leg in ordered:
            if leg.needs_vectors and context.vectors is None:
                pool.vectors = query_vectors()
                context = dataclasses.replace(context, vectors=pool.vectors)
            per_leg = evidence.setdefault(leg.name, {})
            for n, matches in enumerate(leg.gather(context)):
                for rid, value in matches.items():
                    values = per_leg.get(rid)
                    if values is None:
                        values = per_leg[rid] = np.zeros(len(pool.queries))
                    values[n] = value
                    found.setdefault(rid, set()).add(n)
        if context.vectors is None:
            pool.vectors = query_vectors()
        pool.add(found)
        for name, per_recipe in evidence.items():
            for rid, values in per_recipe.items():
                if rid in pool.candidates:
                    pool.candidates[rid].evidence[name] = values

    def score(self) -> None:
        self.fusion.score(self.pool)

    def drop_weak(self, min_score: float) -> None:
        """Forget candidates only the embeddings found, and only weakly (best cosine under ``min_score``).

        Matches of a vouching leg (full text, exact names) stay whatever their cosine: they are evidence of
        another kind. Runs before the expansion, so a weak match cannot bring its family in either.
        """
        vouching = [leg for leg in self.pool.legs if leg.vouches]
        self.pool.candidates = {
            rid: c
            for rid, c in self.pool.candidates.items()
            if c.best >= min_score or any(self.pool.summary(leg, rid) > 0 for leg in vouching)
        }

    def expand(self) -> None:
        """Move the parents, children and same-named copies of the best hits part of the way up to them.

        A neighbour closes ``expand_pull`` of the gap to the best hit it neighbours, but rises at most a
        fusion-specific lift above its own score, so an unrelated sub-recipe of a large composite stays low
        and neighbours keep their own order among themselves.
        """
        t, pool = self.pool.tuning, self.pool
        if t.expand_top <= 0 or t.expand_pull <= 0 or not pool.candidates:
            return
        sources = sorted(pool.candidates, key=lambda r: (-pool.candidates[r].score, r))[: t.expand_top]
        best_level: dict[str, float] = {}  # neighbour → the score of the best hit it neighbours
        for rid, neighbours in self._neighbours(sources).items():
            level = pool.candidates[rid].score
            for other in neighbours - {rid}:
                best_level[other] = max(best_level.get(other, -math.inf), level)
        allowed = pool.snapshot.passing([r for r in best_level if r not in pool.candidates], pool.filters)
        added = pool.add({rid: set() for rid in allowed})
        self.fusion.score_newcomers(pool, added)
        lift = self.fusion.expand_lift(pool, pool.candidates[sources[0]].score)
        for rid, level in best_level.items():
            cand = pool.candidates.get(rid)
            if cand is None:
                continue
            cand.score = max(cand.score, min(cand.score + t.expand_pull * (level - cand.score), cand.score + lift))

    def _neighbours(self, sources: list[str]) -> dict[str, set[str]]:
        same_class = self.pool.snapshot.same_class(sources)
        return {
            rid: set(self.candidates[rid].facts.children)
            | set(self.candidates[rid].facts.parents)
            | set(same_class[rid])
            for rid in sources
        }


def configured_tuning() -> SearchTuning:
    """``DEFAULT_TUNING`` with the fusion ``REWRITE_ASSIST_FUSION`` asks for (``score`` unless set)."""
    try:
        fusion = config.fusion()
    except ValueError as exc:
        raise QueryError(f"rewrite-assist is misconfigured: {exc}") from exc
    return DEFAULT_TUNING if fusion == DEFAULT_TUNING.fusion else dataclasses.replace(DEFAULT_TUNING, fusion=fusion)


def preload(store: CatalogStore, tuning: SearchTuning = DEFAULT_TUNING) -> None:
    """Read the ranking snapshot ahead of the first search (the server calls this at start, in the
    background), and the examples' changed tokens the example-terms leg reads. Raises ``CatalogNotReady`` when
    there is no usable catalog yet."""
    snapshot = snapshot_for(store, store.check_ready(), tuning.model_key)
    if tuning.example_terms_weight > 0:
        with store.db.connection() as conn, conn.cursor() as cur:
            example_terms(cur, snapshot)


def find_recipes(
    store: CatalogStore,
    embedder: Embedder,
    intent: str | Sequence[str],
    *,
    limit: int = 5,
    min_score: float = DEFAULT_MIN_SCORE,
    filters: SearchFilters | None = None,
    tuning: SearchTuning | None = None,
    include_moderne: bool = False,
) -> SearchResult:
    """Search the catalog for recipes implementing ``intent`` (one query or 2–5 variations).

    Moderne-only recipes are left out unless ``include_moderne`` (see ``moderne.py``). ``tuning`` defaults
    to ``configured_tuning()``: the measured defaults, with the fusion the server is configured for."""
    tuning = tuning or configured_tuning()
    queries = normalize_queries(intent)
    asked = len(queries)
    if asked == 1 and tuning.query_rewrite > 0:
        queries += rewrite(queries[0], tuning.query_rewrite)
    if not 1 <= limit <= 50:
        raise QueryError(f"limit must be between 1 and 50, got {limit}.")
    if not -1.0 <= min_score <= 1.0:
        raise QueryError(f"min_score is a cosine similarity between -1 and 1, got {min_score}.")
    filters = moderne.search_filters(filters or SearchFilters(), include_moderne)
    pending = _QUERY_EMBEDDING.submit(embedder.encode, queries)  # all variations in one batch, beside the SQL
    memo: dict[str, Any] = {}
    others: Future[_Search] | None = None
    with store.db.connection() as conn, conn.cursor() as cur:
        snapshot = snapshot_for(store, store.check_ready(cur=cur), tuning.model_key)
        check_filters(snapshot, filters)
        only = moderne.moderne_only(filters)
        hinted = filters.availability == "docs" and bool(snapshot.filter_mask(only).any())

        def query_vectors() -> np.ndarray:
            # What the default filter left out is ranked for the hint as soon as the vectors are there, in
            # another thread while this one waits for the dense statement and the hydration (it needs no
            # round trip: exact cosine in memory, and the phrases the lexical leg already parsed, in ``memo``).
            nonlocal others
            vectors = pending.result()
            if hinted and len(vectors):
                others = _HINT.submit(_moderne_only, snapshot, queries, only, tuning, asked, vectors, min_score, memo)
            return vectors

        search = _ranked(cur, snapshot, queries, filters, tuning, query_vectors, min_score, asked, memo)
        kept = search.candidates
        ordered = sorted(kept, key=lambda rid: (-kept[rid].score, rid))
        hits = _hydrate(store.get_recipes(ordered[:limit], cur=cur), ordered[:limit], kept)
        moderne_hint = None
        if others is not None:
            moderne_hint = moderne.moderne_hint(search.pool, others.result().pool, search.fusion.name, ordered, limit)
    hint = None
    if not hits:
        hint = (
            "No recipe matched. Rephrase the intent in OpenRewrite's vocabulary (e.g. 'change dependency version', "
            "'migrate to JUnit 5'), describe it as a file/text manipulation, lower min_score, or drop filters."
        )
    return SearchResult(hits=hits, total_count=len(ordered), queries=queries, hint=hint, moderne_hint=moderne_hint)


def scored_pool(
    store: CatalogStore,
    embedder: Embedder,
    intent: str | Sequence[str],
    tuning: SearchTuning,
    *,
    snapshot: RankingSnapshot | None = None,
) -> CandidatePool:
    """The candidate pool ``find_recipes`` ranks (default filters, default ``min_score``, no rewritten
    phrasings), scored and expanded: what the rerank fit (``evaluation/rerank_train.py``) reads its scores
    and features from. ``snapshot`` replaces the catalog's (the fit leaves a pseudo-query's own example out
    of it)."""
    queries = normalize_queries(intent)
    filters = moderne.search_filters(SearchFilters(), False)
    pending = _QUERY_EMBEDDING.submit(embedder.encode, queries)
    with store.db.connection() as conn, conn.cursor() as cur:
        snapshot = snapshot or snapshot_for(store, store.check_ready(cur=cur), tuning.model_key)
        return _ranked(cur, snapshot, queries, filters, tuning, pending.result, DEFAULT_MIN_SCORE).pool


def _ranked(
    cur: Any,
    snapshot: RankingSnapshot,
    queries: list[str],
    filters: SearchFilters,
    tuning: SearchTuning,
    query_vectors: Callable[[], np.ndarray],
    min_score: float,
    asked: int | None = None,
    memo: dict[str, Any] | None = None,
) -> _Search:
    """One search over ``filters``, run to its final scores: legs, fusion, weak matches dropped, families
    expanded (what ``find_recipes`` and ``scored_pool`` share)."""
    # The dense statement's settings in one round trip (``set_config(..., true)`` is ``SET LOCAL``)
    ef_search = str(max(tuning.ef_search, tuning.dense_candidates))
    if filters.is_empty():
        cur.execute("SELECT set_config('hnsw.ef_search', %s, true)", (ef_search,))
    else:
        cur.execute(
            "SELECT set_config('hnsw.ef_search', %s, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)",
            (ef_search,),
        )
    search = _Search(cur, snapshot, queries, filters, tuning, asked, memo=memo)
    search.gather(query_vectors)
    search.score()
    search.drop_weak(min_score)
    search.expand()
    return search


def _moderne_only(
    snapshot: RankingSnapshot,
    queries: list[str],
    only: SearchFilters,
    tuning: SearchTuning,
    asked: int,
    vectors: np.ndarray,
    min_score: float,
    memo: dict[str, Any],
) -> _Search:
    """The Moderne-only entries ranked like the main search (same legs, fusion and vectors, no expansion),
    by exact cosine in memory: on this subset a filtered HNSW scan cost more than the rest of the search.
    Runs without a cursor (see ``find_recipes``)."""
    others = _Search(None, snapshot, queries, only, tuning, asked, exact=True, memo=memo)
    others.gather(lambda: vectors)
    others.score()
    others.drop_weak(min_score)
    return others


def _hydrate(recipes: dict[str, Recipe], ids: list[str], candidates: dict[str, Candidate]) -> list[SearchHit]:
    hits = []
    for rid in (i for i in ids if i in recipes):  # a recipe deleted by a concurrent ingest is left out
        recipe, cand = recipes[rid], candidates[rid]
        hits.append(
            SearchHit(
                **catalog_fields(recipe),
                cosine_score=round(cand.best, 4),
                fusion_score=round(cand.score, 6),
                matched_variations=len(cand.matched),
            )
        )
    return hits
