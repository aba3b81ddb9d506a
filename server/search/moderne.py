"""Moderne-only recipes in search: left out of the hits by default, and counted in a hint instead.

The catalog also knows the recipes that are published only through Moderne (no docs page; they run with
the Moderne CLI or platform, not with the OpenRewrite build plugins). An agent writing a ``rewrite.yml``
cannot use them, so ``find_recipes`` leaves them out by default through the ordinary ``availability``
filter: every leg applies it like the other filters, so the ranking of the recipes with a page is what it
was without the Moderne list. What the filter removed is still worth knowing ("a Moderne recipe does
exactly this upgrade"), so :func:`moderne_hint` ranks the Moderne-only entries against the same
variations, in memory from the ranking snapshot, and reports how many would be among the top ``limit``
results and which are best. ``include_moderne=True`` drops the filter and ranks them with the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..catalog.models import MODERNE_ONLY
from . import legs
from .models import ModerneHint, SearchFilters
from .snapshot import exact_matches

if TYPE_CHECKING:
    from .hybrid import _Search

BEST_SHOWN = 2


def search_filters(filters: SearchFilters, include_moderne: bool) -> SearchFilters:
    """``filters`` restricted to recipes with a page unless ``include_moderne`` (or the caller chose)."""
    if include_moderne or filters.availability is not None:
        return filters
    return filters.model_copy(update={"availability": "docs"})


def moderne_hint(search: _Search, ranked: list[str], limit: int, min_score: float) -> ModerneHint | None:
    """How many Moderne-only recipes would be among the top ``limit`` if they were not filtered out.

    ``search`` is the finished search over recipes with a page and ``ranked`` its ids, best first. The
    Moderne-only entries passing the caller's other filters are gathered like the legs do (nearest by
    cosine to each variation, full-text matches, ids and class names written in the query), scored by the
    same score fusion (without the family expansion), and merged with the top hits by that score.
    """
    if search.filters.availability != "docs":
        return None
    snapshot, tuning = search.snapshot, search.tuning
    only = search.filters.model_copy(update={"availability": MODERNE_ONLY})
    numbers, vectors = snapshot.subset(only)
    if not len(numbers) or not len(search.vectors):
        return None
    found: dict[str, set[int]] = {}
    # (Moderne-only entries, variations). numpy's own loop, not BLAS: a multi-threaded BLAS product of this
    # size took 20+ ms on a busy 2-core machine (threads contending), einsum about 1 ms.
    sims = np.einsum("ij,kj->ik", vectors, np.asarray(search.vectors, dtype=vectors.dtype))
    depth = min(tuning.dense_candidates, len(numbers))
    for n in range(sims.shape[1]):
        for k in np.argpartition(-sims[:, n], depth - 1)[:depth].tolist():
            found.setdefault(snapshot.recipe_ids[numbers[k]], set()).add(n)
    lexical: dict[str, list[float]] = {}
    if tuning.lexical_weight > 0:
        terms = legs.lexical_terms(
            search.cur, search.queries, snapshot.doc_freq, len(snapshot.rows), max_df=tuning.lexical_max_df
        )
        for n, scores in enumerate(legs.lexical_leg(snapshot, terms, only, depth=tuning.lexical_candidates)):
            for rid, value in scores.items():
                lexical.setdefault(rid, [0.0] * len(search.queries))[n] = value
                found.setdefault(rid, set()).add(n)
    exact: dict[str, float] = {}
    for n, text in enumerate(search.queries):
        named = exact_matches(snapshot, *legs.named_in(text))
        for rid in snapshot.passing(named, only):
            exact[rid] = max(exact.get(rid, 0.0), named[rid])
            found.setdefault(rid, set()).add(n)

    from .hybrid import _Search  # at call time: hybrid imports this module

    pool = _Search(search.cur, snapshot, search.queries, only, tuning)
    pool.vectors = search.vectors
    pool._add(found)
    for rid, cand in pool.candidates.items():
        cand.lexical_by_variation = np.asarray(lexical[rid]) if rid in lexical else None
        cand.exact = exact.get(rid, 0.0)
    pool.drop_weak(min_score)
    moderne = pool.relevance(list(pool.candidates))
    # The hits on the same scale: their final scores under score fusion, their relevance under RRF.
    top = ranked[:limit]
    rrf = tuning.fusion != "score"
    shown = search.relevance(top) if rrf else {rid: search.candidates[rid].score for rid in top}
    merged = sorted([*shown.items(), *moderne.items()], key=lambda kv: (-kv[1], kv[0]))[:limit]
    would_rank = [rid for rid, _ in merged if rid in moderne]
    if not would_rank:
        return None
    best = would_rank[:BEST_SHOWN]
    return ModerneHint(
        would_rank=len(would_rank),
        best=best,
        message=(
            f"{len(would_rank)} Moderne-only recipe(s) would rank among the top {limit} (best: {', '.join(best)}). "
            "They have no docs page and run with the Moderne CLI/platform, not with the OpenRewrite build "
            "plugins, so they are left out of hits; tell the user, or pass include_moderne=true to see them."
        ),
    )
