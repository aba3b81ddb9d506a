"""Hybrid multi-query recipe search: dense + lexical + exact-name legs, fused by score, adjusted by
catalog priors, then expanded along the composite graph.

Agents send 2-5 phrasings of one intent. Each leg gathers candidates (``legs.py``); then every candidate
gets its cosine against *every* variation, and the variations are fused with a soft maximum
(``log mean exp``): a recipe several phrasings agree on ranks first, yet one phrasing that misses a
recipe entirely does not sink it the way a plain mean would. Rank-based fusion (RRF, k = 60, over every leg
of every variation) is one setting away (``REWRITE_ASSIST_FUSION=rrf``, or ``SearchTuning(fusion="rrf")``);
on the dev set it measured worse (nDCG@10 0.755 vs 0.818, MRR 0.848 vs 0.938): it discards how close the
similarities are.

Relevant recipes come in families: the recipe that does the change, the composite that includes it, its
sub-steps, its copies in other modules. So the best few hits pull their parents, children and namesakes
up to just below themselves (never far above their own score), which is where an agent wants to see them.

Cost of one warm search: the dense leg (one HNSW statement for all variations), the query's full-text
lexemes (one statement, while the query embedding runs), one hydration query and two small catalog checks;
everything else (term ranks, cosines, facts, names, filters) is read from the in-memory ranking snapshot
of the catalog revision (``snapshot.py``).
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import config
from ..catalog.models import Recipe
from ..catalog.store import CatalogStore
from ..embedding import Embedder
from ..errors import BadInput
from . import legs
from .defaults import DEFAULT_MIN_SCORE, MAX_VARIATIONS
from .filters import check_filters
from .models import OptionSummary, SearchFilters, SearchHit, SearchResult
from .priors import RecipeFacts, prior
from .snapshot import RankingSnapshot, exact_matches, snapshot_for

log = logging.getLogger(__name__)

_QUERY_EMBEDDING = ThreadPoolExecutor(max_workers=4, thread_name_prefix="query-embedding")
DESCRIPTION_CHARS = 300


@dataclass(frozen=True)
class SearchTuning:
    """Knobs measured by the evaluation harness (evaluation/retrieval.py); defaults are the chosen ones."""

    dense_candidates: int = 50
    lexical_candidates: int = 50
    lexical_max_df: float = 0.1  # the lexical leg skips terms found in more than this share of recipes
    ef_search: int = 64
    softness: float = 5.0  # temperature of the soft maximum over variations; 0 = plain mean
    lexical_weight: float = 0.1
    exact_weight: float = 0.5
    copy_penalty: float = 0.03
    fragment_penalty: float = 0.05
    popularity: float = 0.005
    expand_top: int = 10
    expand_pull: float = 0.75  # share of the gap to the hit's score a neighbour closes (<1 keeps their order)
    expand_lift: float = 0.3  # the most a neighbour can rise above its own score (score fusion scale)
    # "score": soft maximum of similarities (the default, measured best); "rrf": Reciprocal Rank Fusion (k = 60,
    # 1-based ranks) over every leg of every variation, kept selectable and measured side by side.
    fusion: str = "score"
    rrf_k: int = 60
    rrf_lexical_weight: float = 0.25
    rrf_exact_weight: float = 1.0
    rrf_joint_weight: float = 1.0  # an extra list ranking by all variations' similarities together (soft max)
    rrf_expand_lift: float = 0.5  # in RRF mode: the most a neighbour rises, as a share of the top score
    model_key: str = "all-MiniLM-L6-v2"


DEFAULT_TUNING = SearchTuning()


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


def soft_max_rows(matrix: np.ndarray, softness: float) -> np.ndarray:
    """Per row, ``log(mean(exp(T·x))) / T``: the mean for T → 0, the maximum for T → ∞."""
    if softness <= 0:
        return np.asarray(matrix.mean(axis=1), dtype=np.float64)
    top = matrix.max(axis=1)
    return np.asarray(top + np.log(np.mean(np.exp(softness * (matrix - top[:, None])), axis=1)) / softness)


def soft_max(values: np.ndarray, softness: float) -> float:
    """``soft_max_rows`` of one vector."""
    return float(soft_max_rows(np.asarray(values, dtype=np.float64)[None, :], softness)[0])


@dataclass
class _Candidate:
    cosines: np.ndarray
    best: float  # the highest of ``cosines``
    facts: RecipeFacts
    lexical_by_variation: np.ndarray | None = None  # the full-text score per variation, if any matched
    exact: float = 0.0
    matched: set[int] = field(default_factory=set)
    score: float = 0.0

    @property
    def lexical(self) -> float:
        """The full-text score averaged over the variations (0 without a full-text match)."""
        return 0.0 if self.lexical_by_variation is None else float(self.lexical_by_variation.mean())


class _Search:
    """One search call: gathers candidates from the legs, scores, expands, ranks."""

    def __init__(
        self, cur: Any, snapshot: RankingSnapshot, queries: list[str], filters: SearchFilters, tuning: SearchTuning
    ):
        self.cur, self.snapshot, self.queries = cur, snapshot, queries
        self.filters, self.tuning = filters, tuning
        self.vectors = np.zeros((0, 0))
        self.candidates: dict[str, _Candidate] = {}

    def gather(self, query_vectors: Callable[[], np.ndarray]) -> None:
        """Run the legs. Full text and exact names come first: they need no vectors, so they run while
        ``query_vectors()`` is still being computed in another thread; the dense leg follows."""
        t, snap = self.tuning, self.snapshot
        found: dict[str, set[int]] = {}
        lexical: dict[str, list[float]] = {}
        exact: dict[str, float] = {}
        if t.lexical_weight > 0 or (t.fusion == "rrf" and t.rrf_lexical_weight > 0):
            terms = legs.lexical_terms(self.cur, self.queries, snap.doc_freq, len(snap.rows), max_df=t.lexical_max_df)
            for n, scores in enumerate(legs.lexical_leg(snap, terms, self.filters, depth=t.lexical_candidates)):
                for rid, s in scores.items():
                    lexical.setdefault(rid, [0.0] * len(self.queries))[n] = s
                    found.setdefault(rid, set()).add(n)
        if t.exact_weight > 0 or (t.fusion == "rrf" and t.rrf_exact_weight > 0):
            for n, text in enumerate(self.queries):
                named = exact_matches(snap, *legs.named_in(text))
                for rid in snap.passing(named, self.filters):
                    exact[rid] = max(exact.get(rid, 0.0), named[rid])
                    found.setdefault(rid, set()).add(n)
        self.vectors = query_vectors()
        dense = legs.dense_candidates(
            self.cur, self.vectors, self.filters, model_key=t.model_key, depth=t.dense_candidates
        )
        for rid, variations in dense.items():
            found.setdefault(rid, set()).update(variations)
        self._add(found)
        for rid, cand in self.candidates.items():
            cand.lexical_by_variation = np.asarray(lexical[rid]) if rid in lexical else None
            cand.exact = exact.get(rid, 0.0)

    def _add(self, found: dict[str, set[int]]) -> list[str]:
        """Make candidates of ``found`` (id → variations that found it); ids the snapshot lacks (written
        by an ingest that committed after this search began) are skipped."""
        new = [rid for rid in found if rid not in self.candidates and rid in self.snapshot.rows]
        sims = self.snapshot.cosines(new, self.vectors)
        for rid in new:
            self.candidates[rid] = _Candidate(
                cosines=sims[rid], best=max(sims[rid].tolist()), facts=self.snapshot.rows[rid].facts, matched=found[rid]
            )
        return new

    def prior(self, cand: _Candidate) -> float:
        t = self.tuning
        return prior(
            cand.facts, copy_penalty=t.copy_penalty, fragment_penalty=t.fragment_penalty, popularity=t.popularity
        )

    def fused_similarity(self, ids: Sequence[str]) -> np.ndarray:
        """The soft maximum of each candidate's cosines over the variations (one vectorized pass)."""
        if not ids:
            return np.zeros(0)
        return soft_max_rows(np.stack([self.candidates[rid].cosines for rid in ids]), self.tuning.softness)

    def relevance(self, ids: Sequence[str]) -> dict[str, float]:
        """Score fusion: fused similarity + weighted full-text and exact-name evidence + the catalog prior."""
        t = self.tuning
        fused = self.fused_similarity(ids)
        out = {}
        for n, rid in enumerate(ids):
            cand = self.candidates[rid]
            out[rid] = (
                float(fused[n]) + t.lexical_weight * cand.lexical + t.exact_weight * cand.exact + self.prior(cand)
            )
        return out

    def score(self) -> None:
        if self.tuning.fusion == "rrf":
            self._rrf()
            return
        for rid, value in self.relevance(list(self.candidates)).items():
            self.candidates[rid].score = value

    def _rrf(self) -> None:
        """Reciprocal Rank Fusion (1-based ranks, k = ``rrf_k``) over every leg of every variation.

        Per variation, the dense list ranks the whole candidate pool by that variation's cosine (plus the
        catalog prior), the lexical list ranks its full-text matches; the exact-name list is shared. A
        recipe's score is ``sum(weight / (k + rank))`` over the lists it appears in.
        """
        t = self.tuning
        scores = dict.fromkeys(self.candidates, 0.0)

        def add(ranked: list[str], weight: float) -> None:
            for rank, rid in enumerate(ranked, start=1):
                scores[rid] += weight / (t.rrf_k + rank)

        priors = {rid: self.prior(c) for rid, c in self.candidates.items()}
        for n in range(len(self.queries)):
            add(sorted(self.candidates, key=lambda r: (-(self.candidates[r].cosines[n] + priors[r]), r)), 1.0)
            lexical = {
                rid: float(c.lexical_by_variation[n])
                for rid, c in self.candidates.items()
                if c.lexical_by_variation is not None and c.lexical_by_variation[n] > 0
            }
            add(sorted(lexical, key=lambda r: (-lexical[r], r)), t.rrf_lexical_weight)
        if t.rrf_joint_weight > 0:
            ids = list(self.candidates)
            joint = {rid: float(v) + priors[rid] for rid, v in zip(ids, self.fused_similarity(ids), strict=True)}
            add(sorted(joint, key=lambda r: (-joint[r], r)), t.rrf_joint_weight)
        exact = {rid: c.exact for rid, c in self.candidates.items() if c.exact > 0}
        add(sorted(exact, key=lambda r: (-exact[r], r)), t.rrf_exact_weight)
        for rid, cand in self.candidates.items():
            cand.score = scores[rid]

    def drop_weak(self, min_score: float) -> None:
        """Forget candidates only the embeddings found, and only weakly (best cosine under ``min_score``).

        Full-text and exact-name matches stay whatever their cosine: they are evidence of another kind.
        Runs before the expansion, so a weak match cannot bring its family in either.
        """
        self.candidates = {
            rid: c for rid, c in self.candidates.items() if c.best >= min_score or c.lexical > 0 or c.exact > 0
        }

    def expand(self) -> None:
        """Move the parents, children and same-named copies of the best hits part of the way up to them.

        A neighbour closes ``expand_pull`` of the gap to the best hit it neighbours, but rises at most
        ``expand_lift`` above its own score, so an unrelated sub-recipe of a large composite stays low
        and neighbours keep their own order among themselves.
        """
        t = self.tuning
        if t.expand_top <= 0 or t.expand_pull <= 0 or not self.candidates:
            return
        sources = sorted(self.candidates, key=lambda r: (-self.candidates[r].score, r))[: t.expand_top]
        best_level: dict[str, float] = {}  # neighbour → the score of the best hit it neighbours
        for rid, neighbours in self._neighbours(sources).items():
            level = self.candidates[rid].score
            for other in neighbours - {rid}:
                best_level[other] = max(best_level.get(other, -math.inf), level)
        allowed = self.snapshot.passing([r for r in best_level if r not in self.candidates], self.filters)
        rrf = t.fusion == "rrf"
        added = self._add({rid: set() for rid in allowed})
        for rid, value in (dict.fromkeys(added, 0.0) if rrf else self.relevance(added)).items():
            self.candidates[rid].score = value
        lift = t.rrf_expand_lift * self.candidates[sources[0]].score if rrf else t.expand_lift
        for rid, level in best_level.items():
            cand = self.candidates.get(rid)
            if cand is None:
                continue
            cand.score = max(cand.score, min(cand.score + t.expand_pull * (level - cand.score), cand.score + lift))

    def _neighbours(self, sources: list[str]) -> dict[str, set[str]]:
        same_class = self.snapshot.same_class(sources)
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
    background). Raises ``CatalogNotReady`` when there is no usable catalog yet."""
    snapshot_for(store, store.check_ready(), tuning.model_key)


def find_recipes(
    store: CatalogStore,
    embedder: Embedder,
    intent: str | Sequence[str],
    *,
    limit: int = 5,
    min_score: float = DEFAULT_MIN_SCORE,
    filters: SearchFilters | None = None,
    tuning: SearchTuning | None = None,
) -> SearchResult:
    """Search the catalog for recipes implementing ``intent`` (one query or 2–5 variations).

    ``tuning`` defaults to ``configured_tuning()``: the measured defaults, with the fusion the server is
    configured for."""
    tuning = tuning or configured_tuning()
    queries = normalize_queries(intent)
    if not 1 <= limit <= 50:
        raise QueryError(f"limit must be between 1 and 50, got {limit}.")
    if not -1.0 <= min_score <= 1.0:
        raise QueryError(f"min_score is a cosine similarity between -1 and 1, got {min_score}.")
    filters = filters or SearchFilters()
    pending = _QUERY_EMBEDDING.submit(embedder.encode, queries)  # all variations in one batch, beside the SQL
    with store.db.connection() as conn, conn.cursor() as cur:
        snapshot = snapshot_for(store, store.check_ready(cur=cur), tuning.model_key)
        check_filters(snapshot, filters)
        cur.execute("SET LOCAL hnsw.ef_search = %s", (max(tuning.ef_search, tuning.dense_candidates),))
        if not filters.is_empty():
            cur.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        search = _Search(cur, snapshot, queries, filters, tuning)
        search.gather(pending.result)
        search.score()
        search.drop_weak(min_score)
        search.expand()
        kept = search.candidates
        ordered = sorted(kept, key=lambda rid: (-kept[rid].score, rid))
        hits = _hydrate(store.get_recipes(ordered[:limit], cur=cur), ordered[:limit], kept)
    hint = None
    if not hits:
        hint = (
            "No recipe matched. Rephrase the intent in OpenRewrite's vocabulary (e.g. 'change dependency version', "
            "'migrate to JUnit 5'), describe it as a file/text manipulation, lower min_score, or drop filters."
        )
    return SearchResult(hits=hits, total_count=len(ordered), queries=queries, hint=hint)


def _hydrate(recipes: dict[str, Recipe], ids: list[str], candidates: dict[str, _Candidate]) -> list[SearchHit]:
    hits = []
    for rid in (i for i in ids if i in recipes):  # a recipe deleted by a concurrent ingest is left out
        recipe, cand = recipes[rid], candidates[rid]
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
                cosine_score=round(cand.best, 4),
                fusion_score=round(cand.score, 6),
                matched_variations=len(cand.matched),
            )
        )
    return hits
