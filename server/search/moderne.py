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

from ..catalog.models import MODERNE_ONLY
from .fusion import ScoreFusion
from .models import ModerneHint, SearchFilters

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
    Moderne-only entries passing the caller's other filters go through the same legs and the same fusion
    with the same query vectors (without the family expansion), and are merged with the top hits by score.
    Rank fusion scores depend on each pool's own lists, so under RRF both sides are compared by their
    score-fusion relevance instead.
    """
    pool = search.pool
    if pool.filters.availability != "docs" or not len(pool.vectors):
        return None
    only = pool.filters.model_copy(update={"availability": MODERNE_ONLY})
    if not pool.snapshot.filter_mask(only).any():
        return None
    from .hybrid import _Search  # at call time: hybrid imports this module

    other = _Search(search.cur, pool.snapshot, pool.queries, only, pool.tuning)
    vectors = pool.vectors
    other.gather(lambda: vectors)
    other.score()
    other.drop_weak(min_score)
    top = ranked[:limit]
    if search.fusion.name == "score":
        shown = {rid: pool.candidates[rid].score for rid in top}
        moderne = {rid: cand.score for rid, cand in other.candidates.items()}
    else:
        relevance = ScoreFusion().relevance
        shown = relevance(pool, top)
        moderne = relevance(other.pool, list(other.candidates))
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
