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

from ..catalog.models import MODERNE_ONLY
from .candidates import CandidatePool
from .fusion import ScoreFusion
from .models import ModerneHint, SearchFilters

BEST_SHOWN = 2


def search_filters(filters: SearchFilters, include_moderne: bool) -> SearchFilters:
    """``filters`` restricted to recipes with a page unless ``include_moderne`` (or the caller chose)."""
    if include_moderne or filters.availability is not None:
        return filters
    return filters.model_copy(update={"availability": "docs"})


def moderne_only(filters: SearchFilters) -> SearchFilters:
    """The caller's filters, restricted to the Moderne-only entries (what the default search left out)."""
    return filters.model_copy(update={"availability": MODERNE_ONLY})


def moderne_hint(
    pool: CandidatePool, moderne_pool: CandidatePool, fusion: str, ranked: list[str], limit: int
) -> ModerneHint | None:
    """How many Moderne-only recipes would be among the top ``limit`` if they were not filtered out.

    ``pool`` is the finished search over recipes with a page and ``ranked`` its ids, best first;
    ``moderne_pool`` the same search (same legs, fusion and query vectors, without the family expansion)
    over the Moderne-only entries passing the caller's other filters. Rank fusion scores depend on each
    pool's own lists, so under RRF both sides are compared by their score-fusion relevance instead.
    """
    top = ranked[:limit]
    if fusion == "score":
        shown = {rid: pool.candidates[rid].score for rid in top}
        moderne = {rid: cand.score for rid, cand in moderne_pool.candidates.items()}
    else:
        relevance = ScoreFusion().relevance
        shown = relevance(pool, top)
        moderne = relevance(moderne_pool, list(moderne_pool.candidates))
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
